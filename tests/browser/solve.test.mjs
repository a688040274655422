// Solving in the Web Worker: progress, results, playback to the goal, Q-learning and cancelling.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  FASTEST_SPEED,
  TEST_TIMEOUT_MS,
  hashFor,
  parseCount,
  readBoard,
  setCustomStart,
  setRange,
  solveAndWait,
  standardGoalText,
  startSession,
  waitUntilPlayedAndSolved,
} from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };

describe("solving", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("shuffle, then A* with Manhattan distance solves optimally and the animation ends solved", options, async () => {
    const page = await session.newPage();
    await setRange(page, "#difficulty", 14);
    await page.click("#shuffle");
    const shuffled = await readBoard(page);
    assert.equal(shuffled.solved, false);
    assert.match(await page.locator("#shuffle-note").textContent(), /exactly 14 moves/);
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);

    const stats = await solveAndWait(page, "astar", "manhattan");
    assert.equal(stats.status, "solved");
    assert.equal(stats.length, 14, "an exact shuffle of 14 needs exactly 14 moves");
    assert.equal(parseCount(stats.moves), 14);
    assert.ok(parseCount(stats.nodes) > 0, `nodes expanded shown (${stats.nodes})`);
    assert.match(stats.time, /\d+ ms/);
    assert.ok(stats.optimal);
    assert.match(stats.optimalText, /optimal/i);
    assert.match(stats.optimalText, /yes/i);

    await waitUntilPlayedAndSolved(page, 14);
    const state = await readBoard(page);
    assert.deepEqual(state.dom, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    assert.ok(state.bannerVisible);
    assert.equal(state.moves, 14, "the counter counts the solution player's moves too");

    // Stepping back with the keyboard on the player controls moves the board back (each step takes a move back).
    await page.focus("#player [data-player=play]");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.locator("#player [data-player=position]").textContent(), "Step 12 of 14");
    const back = await readBoard(page);
    assert.equal(back.solved, false);
    assert.equal(back.moves, 12);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("End");
    const end = await readBoard(page);
    assert.equal(end.solved, true);
    assert.equal(end.moves, 14);
    await page.keyboard.press("Home");
    const home = await readBoard(page);
    assert.deepEqual(home.dom, shuffled.dom, "Home rewinds to the shuffled start");
    assert.equal(home.moves, 0);
    assert.deepEqual(page.errors, []);
  });

  test("BFS and IDA* agree with A* on rectangular boards, with live results in the stats", options, async () => {
    const page = await session.newPage(hashFor(2, 4, "5,1,3,4,_,2,6,7", standardGoalText(2, 4)));
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    const lengths = {};
    for (const [algorithm, heuristic] of [["bfs", "manhattan"], ["astar", "linear-conflict"], ["idastar", "misplaced"]]) {
      const stats = await solveAndWait(page, algorithm, heuristic);
      assert.equal(stats.status, "solved", algorithm);
      assert.ok(stats.optimal, `${algorithm} is optimal`);
      lengths[algorithm] = stats.length;
      await waitUntilPlayedAndSolved(page, stats.length);
      // Back to the start for the next algorithm.
      await page.click("#player [data-player=start]");
    }
    assert.equal(lengths.bfs, lengths.astar);
    assert.equal(lengths.bfs, lengths.idastar);
    assert.deepEqual(page.errors, []);
  });

  test("the sun & moon preset: Q-learning finds a solution as short as BFS's", options, async () => {
    const page = await session.newPage();
    await page.selectOption("#size", "sun-moon");
    const start = await readBoard(page);
    assert.ok(start.texts.includes("☼") && start.texts.includes("☾"));
    assert.equal(start.solved, false, "the preset starts away from its goal");
    assert.equal(await page.$eval('#algorithm option[value="qlearning"]', (option) => option.disabled), false);
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);

    const bfs = await solveAndWait(page, "bfs");
    assert.equal(bfs.status, "solved");
    assert.ok(bfs.optimal);
    await waitUntilPlayedAndSolved(page, bfs.length);

    // Rewind to the preset's start, then let Q-learning learn it.
    await page.click("#player [data-player=start]");
    assert.deepEqual((await readBoard(page)).dom, start.dom);
    const qLearning = await solveAndWait(page, "qlearning");
    assert.equal(qLearning.status, "solved");
    assert.equal(qLearning.length, bfs.length, "Q-learning's greedy path is as short as the BFS optimum");
    assert.ok(qLearning.optimal);
    assert.ok(await page.locator("#stat-episodes").isVisible());
    assert.ok(parseCount(await page.locator("#stat-episodes").textContent()) > 0);
    await waitUntilPlayedAndSolved(page, qLearning.length);
    const end = await readBoard(page);
    assert.ok(end.solved && end.bannerVisible);
    assert.deepEqual(end.dom, end.model);
    assert.deepEqual(page.errors, []);
  });

  test("cancelling a long IDA* search returns to idle and the page stays responsive", options, async () => {
    const page = await session.newPage();
    await page.selectOption("#size", "4x4");
    // A far-away 15-puzzle position; if its parity is wrong, swapping two tiles fixes it.
    let start = "_,15,14,13,12,11,10,9,8,7,6,5,4,3,1,2";
    await setCustomStart(page, start);
    if (!(await page.evaluate(() => document.querySelector("#board").board.puzzle.isSolvable()))) {
      start = "_,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1";
      await setCustomStart(page, start);
    }
    assert.ok(await page.evaluate(() => document.querySelector("#board").board.puzzle.isSolvable()));
    const before = await readBoard(page);

    await page.selectOption("#algorithm", "idastar");
    await page.selectOption("#heuristic", "misplaced");
    await page.click("#solve");
    assert.ok(await page.locator("#cancel").isEnabled());
    assert.ok(await page.locator("#solve").isDisabled());
    // Live progress while it runs.
    await page.waitForFunction(() => /[1-9][\d,]* nodes expanded/.test(document.querySelector("#solver-progress").textContent), null, {
      timeout: 20_000,
    });
    // The count before "nodes" (parseCount would take in the seconds after it too).
    const firstCount = parseCount((await page.locator("#solver-progress").textContent()).split("nodes")[0]);
    await page.waitForFunction(
      (count) => Number(document.querySelector("#solver-progress").textContent.split("nodes")[0].replace(/\D/g, "")) > count,
      firstCount,
      { timeout: 20_000 },
    );
    // The board is locked while the solver works on its position.
    await page.focus("sliding-board");
    await page.keyboard.press("ArrowDown");
    assert.deepEqual((await readBoard(page)).dom, before.dom);

    const cancelledAt = Date.now();
    await page.click("#cancel");
    await page.waitForFunction(() => document.querySelector("#solver-status").textContent === "Cancelled.", null, { timeout: 3_000 });
    assert.ok(Date.now() - cancelledAt < 2_000, "cancel answers quickly");
    assert.ok(await page.locator("#solve").isEnabled());
    assert.ok(await page.locator("#cancel").isDisabled());
    assert.ok(await page.locator("#solver-progress").isHidden());
    assert.ok(await page.locator("#stats").isHidden());

    // Still responsive: the board moves by hand, and the next solve works.
    await page.focus("sliding-board");
    await page.keyboard.press("ArrowLeft"); // tile right of the gap (15) slides left
    const moved = await readBoard(page);
    assert.equal(moved.moves, 1);
    assert.deepEqual(moved.dom.slice(0, 2), [15, 0]);
    await setCustomStart(page, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15");
    const stats = await solveAndWait(page, "idastar", "manhattan");
    assert.equal(stats.status, "solved");
    assert.equal(stats.length, 1);
    assert.deepEqual(page.errors, []);
  });
});

describe("the solver client", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("a worker that ignores cancel is terminated after the grace period and replaced", options, async () => {
    const page = await session.newPage();
    const outcome = await page.evaluate(async () => {
      const { SolverClient, SolveCancelled } = await import("./sliding/solver-client.js");
      // A stand-in worker that reports progress once, then never yields again.
      const source = `
        postMessage({ type: "ready" });
        onmessage = (event) => {
          if (event.data.type !== "solve") return;
          postMessage({ type: "progress", id: event.data.id, nodes: 1, ms: 0 });
          setTimeout(() => { for (;;) {} }, 0);
        };`;
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      const client = new SolverClient(url);
      await client.ready;
      let progressed = false;
      const solving = client.solve({ algorithm: "idastar" }, () => (progressed = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const cancelledAt = performance.now();
      client.cancel();
      let error = null;
      try {
        await solving;
      } catch (caught) {
        error = caught;
      }
      const waited = performance.now() - cancelledAt;
      // The replacement worker is the same stand-in: it answers "ready" again.
      await client.ready;
      const busyAfter = client.busy;
      client.dispose();
      return { progressed, cancelled: error instanceof SolveCancelled, waited, busyAfter };
    });
    assert.ok(outcome.progressed);
    assert.ok(outcome.cancelled, "solve() rejects with SolveCancelled");
    assert.ok(outcome.waited >= 450 && outcome.waited < 1500, `terminated after the grace period (${outcome.waited} ms)`);
    assert.equal(outcome.busyAfter, false);
    assert.deepEqual(page.errors, []);
  });
});
