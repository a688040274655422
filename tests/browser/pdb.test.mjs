// The 15-puzzle's pattern databases (shipped 6-6-3 files, 5-5-5 built in the worker, the fallback
// when a shipped file is damaged, cancelling while they are prepared) and weighted A* on 5×5.

import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import {
  FASTEST_SPEED,
  TEST_TIMEOUT_MS,
  hashFor,
  readBoard,
  setRange,
  solveAndWait,
  solveAsChosen,
  standardGoalText,
  startSession,
  waitUntilPlayedAndSolved,
} from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const STANDARD_GOAL = standardGoalText(4, 4);
/** A 4×4 goal with no shipped file: the blank in the middle (not on the diagonal, so not mirrored). */
const MIDDLE_BLANK_GOAL = "1,2,3,4,5,6,7,8,9,_,10,11,12,13,14,15";
/** A uniformly random-looking position, 51 moves from the standard goal. */
const HARD_START = "12,1,10,2,7,11,4,14,5,_,9,15,8,13,6,3";

/**
 * Before the page loads: keeps every distinct state of the PDB status line in window.pdbStates
 * as "state|text", so that short states (building takes about a second) are not missed.
 */
async function recordPdbStates(page) {
  await page.addInitScript(() => {
    window.pdbStates = [];
    document.addEventListener("DOMContentLoaded", () => {
      const box = document.querySelector("#pdb-status");
      new MutationObserver(() => {
        const entry = `${box.dataset.state}|${document.querySelector("#pdb-text").textContent}`;
        if (window.pdbStates.at(-1) !== entry) window.pdbStates.push(entry);
      }).observe(box, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  });
}

async function waitForPdbReady(page, timeout = 30_000) {
  await page.waitForFunction(() => ["ready", "error"].includes(document.querySelector("#pdb-status").dataset.state), null, {
    timeout,
  });
  return page.evaluate(() => {
    const box = document.querySelector("#pdb-status");
    return {
      state: box.dataset.state,
      partition: box.dataset.partition,
      source: box.dataset.source,
      text: document.querySelector("#pdb-text").textContent,
      visible: !box.hidden,
      progressHidden: document.querySelector("#pdb-progress").hidden,
      states: window.pdbStates ?? [],
    };
  });
}

/** A 4×4 start reachable from `goal`, `moves` random blank moves away (the page's own shuffle). */
async function shuffledStart(page, goal, moves, seed) {
  return page.evaluate(
    async ([goalText, difficulty, seedValue]) => {
      const { loadWasm } = await import("./common/wasm.js");
      const api = await loadWasm();
      const puzzle = api.Puzzle.parse(4, 4, goalText, goalText, "");
      puzzle.shuffle(difficulty, seedValue);
      const start = puzzle.startText();
      puzzle.free();
      return start;
    },
    [goal, moves, seed],
  );
}

describe("pattern databases", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("standard goal: the shipped 6-6-3 file gets ready, and IDA* with it is optimal", options, async (t) => {
    const loadStarted = Date.now();
    let page = await session.newPage(hashFor(4, 4, HARD_START, STANDARD_GOAL));
    let start = HARD_START;
    if (!(await page.evaluate(() => document.querySelector("#board").board.puzzle.isSolvable()))) {
      start = HARD_START.replace("12,1,", "1,12,"); // swapping two tiles fixes the parity
      page = await session.newPage(hashFor(4, 4, start, STANDARD_GOAL));
    }
    const pdb = await waitForPdbReady(page);
    t.diagnostic(`page load to "ready" (shipped 6-6-3): ${Date.now() - loadStarted} ms`);
    assert.equal(pdb.state, "ready", pdb.text);
    assert.equal(pdb.partition, "6-6-3");
    assert.equal(pdb.source, "shipped");
    assert.ok(pdb.visible);
    assert.ok(pdb.progressHidden, "no progress bar once ready");
    assert.equal(pdb.text, "Pattern databases: ready (6-6-3, mirrored, shipped)");
    // A 4×4 board picks IDA* with the pattern databases by itself.
    assert.equal(await page.locator("#algorithm").inputValue(), "idastar");
    assert.equal(await page.locator("#heuristic").inputValue(), "pdb");
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);

    const withDatabases = await solveAndWait(page, "idastar", "pdb");
    assert.equal(withDatabases.status, "solved");
    assert.ok(withDatabases.optimal);
    assert.equal(withDatabases.heuristic, "pdb-6-6-3");
    assert.match(withDatabases.statusText, /IDA\* \(pattern databases 6-6-3\) found a \d+-move solution \(optimal\)/);
    await waitUntilPlayedAndSolved(page, withDatabases.length);
    assert.deepEqual((await readBoard(page)).dom, [...Array.from({ length: 15 }, (_, i) => i + 1), 0]);

    // The same start with IDA* and linear conflict (millions of nodes) agrees on the length.
    await page.click("#player [data-player=start]");
    assert.equal((await readBoard(page)).solved, false);
    const withLinearConflict = await solveAndWait(page, "idastar", "linear-conflict");
    assert.equal(withLinearConflict.status, "solved");
    assert.ok(withLinearConflict.optimal);
    assert.equal(withLinearConflict.heuristic, "linear-conflict");
    assert.equal(withDatabases.length, withLinearConflict.length);
    assert.deepEqual(page.errors, []);
  });

  test("a goal with no shipped file: 5-5-5 is built in the worker, then solves optimally", options, async () => {
    const page = await session.newPage(hashFor(4, 4, MIDDLE_BLANK_GOAL, MIDDLE_BLANK_GOAL), {}, { beforeGoto: recordPdbStates });
    const pdb = await waitForPdbReady(page);
    assert.equal(pdb.state, "ready", pdb.text);
    assert.equal(pdb.partition, "5-5-5");
    assert.equal(pdb.source, "built");
    assert.match(pdb.text, /^Pattern databases: ready \(5-5-5, built\b/);
    assert.doesNotMatch(pdb.text, /mirrored/, "the blank is off the diagonal");
    const building = pdb.states.filter((entry) => entry.startsWith("building|"));
    assert.ok(building.length > 0, `a building state was shown (${pdb.states.join(" / ")})`);
    assert.match(building[0], /Pattern databases: building 5-5-5 … \d+%/);
    assert.ok(
      building.some((entry) => /… ([1-9]\d?)%/.test(entry)),
      `progress between 0 and 100% was shown (${building.join(" / ")})`,
    );

    await setRange(page, "#difficulty", 30);
    await page.click("#shuffle");
    assert.equal((await readBoard(page)).solved, false);
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    const stats = await solveAndWait(page, "idastar", "pdb");
    assert.equal(stats.status, "solved");
    assert.ok(stats.optimal);
    assert.equal(stats.heuristic, "pdb-5-5-5");
    await waitUntilPlayedAndSolved(page, stats.length);
    assert.deepEqual(page.errors, []);
  });

  test("a damaged shipped file: the worker builds 5-5-5 instead and the page says so", options, async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    // Not gzip at all, and gzip that holds no pattern databases: both are refused, then built.
    for (const body of [garbage, gzipSync(garbage)]) {
      const page = await session.newPage(hashFor(4, 4, STANDARD_GOAL, STANDARD_GOAL), {}, {
        beforeGoto: async (page) => {
          await recordPdbStates(page);
          await page.route("**/*.pdb.gz", (route) => route.fulfill({ status: 200, contentType: "application/octet-stream", body }));
        },
      });
      const pdb = await waitForPdbReady(page);
      assert.equal(pdb.state, "ready", pdb.text);
      assert.equal(pdb.partition, "5-5-5");
      assert.equal(pdb.source, "built");
      assert.match(pdb.text, /ready \(5-5-5, mirrored, built\) — the shipped file could not be used/);
      assert.ok(
        pdb.states.some((entry) => /^building\|.*building 5-5-5 .*the shipped file could not be used/.test(entry)),
        `the fallback was announced while building (${pdb.states.join(" / ")})`,
      );

      await page.fill("#start-input", await shuffledStart(page, STANDARD_GOAL, 20, 7));
      await page.click("#apply-custom");
      const stats = await solveAndWait(page, "idastar", "pdb");
      assert.equal(stats.status, "solved");
      assert.ok(stats.optimal);
      assert.equal(stats.heuristic, "pdb-5-5-5");
      assert.deepEqual(page.errors, []);
    }
  });

  test("cancelling a solve that waits for the databases keeps them: the next solve uses them", options, async () => {
    const page = await session.newPage();
    const starts = {
      built: await shuffledStart(page, MIDDLE_BLANK_GOAL, 30, 11),
      shipped: await shuffledStart(page, STANDARD_GOAL, 30, 12),
    };
    const outcome = await page.evaluate(
      async ({ starts, goals }) => {
        const { SolverClient, SolveCancelled } = await import("./sliding/solver-client.js");
        // A client of its own: a fresh worker that keeps no databases yet.
        const client = new SolverClient();
        await client.ready;
        const reports = [];
        client.addEventListener("pdb", (event) => reports.push(event.detail));
        const outcomes = {};
        // "built": the page's way, preparing first and solving while the worker is busy building
        // (it reads no message meanwhile); "shipped": solving first, which prepares them.
        for (const source of ["built", "shipped"]) {
          const request = { rows: 4, cols: 4, start: starts[source], goal: goals[source], algorithm: "idastar", heuristic: "pdb" };
          let first;
          if (source === "built") {
            client.preparePatternDatabases(request);
            await new Promise((resolve) =>
              client.addEventListener("pdb", function building(event) {
                if (event.detail.goal !== request.goal || event.detail.state !== "building" || !(event.detail.progress > 0)) return;
                client.removeEventListener("pdb", building);
                resolve();
              }),
            );
            first = client.solve(request);
          } else {
            let waiting;
            const waited = new Promise((resolve) => (waiting = resolve));
            first = client.solve(request, (progress) => progress.waiting === "pdb" && waiting());
            await waited;
          }
          const readyBeforeCancel = reports.some((report) => report.goal === request.goal && report.state === "ready");
          const cancelledAt = performance.now();
          client.cancel();
          let error = null;
          try {
            await first;
          } catch (caught) {
            error = caught;
          }
          const cancelMs = performance.now() - cancelledAt;
          const result = await client.solve(request);
          const states = reports.filter((report) => report.goal === request.goal).map((report) => report.state);
          outcomes[source] = {
            readyBeforeCancel,
            cancelled: error instanceof SolveCancelled,
            cancelMs,
            result: { status: result.status, optimal: result.optimal, heuristic: result.heuristic },
            // How many preparations finished (a repeated "ready" is the worker answering for kept ones).
            preparations: states.filter((state, i) => state === "ready" && states[i - 1] !== "ready").length,
            finalSource: reports.findLast((report) => report.goal === request.goal).source,
          };
        }
        client.dispose();
        return outcomes;
      },
      { starts, goals: { built: MIDDLE_BLANK_GOAL, shipped: STANDARD_GOAL } },
    );
    for (const [source, heuristic] of [["built", "pdb-5-5-5"], ["shipped", "pdb-6-6-3"]]) {
      const { readyBeforeCancel, cancelled, cancelMs, result, preparations, finalSource } = outcome[source];
      assert.equal(readyBeforeCancel, false, `${source}: cancelled while the databases were still being prepared`);
      assert.ok(cancelled, `${source}: solve() rejects with SolveCancelled`);
      assert.ok(cancelMs < 300, `${source}: the cancel answers at once (${cancelMs} ms)`);
      assert.deepEqual(result, { status: "solved", optimal: true, heuristic }, source);
      assert.equal(preparations, 1, `${source}: prepared once`);
      assert.equal(finalSource, source);
    }
    assert.deepEqual(page.errors, []);
  });
});

describe("weighted A* on big boards", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("5×5 defaults to weighted A* (w = 2.5): a bounded solution plays to the goal", options, async () => {
    const page = await session.newPage();
    await page.selectOption("#size", "5x5");
    assert.equal(await page.locator("#algorithm").inputValue(), "wastar");
    assert.ok(await page.locator("#weight").isVisible());
    assert.equal(await page.locator("#weight").inputValue(), "2.5");
    assert.ok(await page.locator("#pdb-status").isHidden(), "no pattern databases for 5×5");
    assert.equal(await page.$eval('#heuristic option[value="pdb"]', (option) => option.disabled), true);

    // Optimal search is still offered, with a warning; the weight only shows for weighted A*.
    await page.selectOption("#algorithm", "idastar");
    assert.match(await page.locator("#algorithm-note").textContent(), /may not finish/);
    assert.ok(await page.locator("#weight").isHidden());
    await page.selectOption("#algorithm", "wastar");
    assert.ok(await page.locator("#weight").isVisible());

    const max = Number(await page.locator("#difficulty").getAttribute("max"));
    await setRange(page, "#difficulty", max);
    await page.click("#shuffle");
    assert.equal((await readBoard(page)).solved, false);
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    assert.equal(await page.locator("#heuristic").inputValue(), "linear-conflict");
    const stats = await solveAsChosen(page);
    assert.equal(stats.status, "solved");
    assert.ok(stats.boundShown);
    assert.equal(stats.boundText, "at most 2.5 × optimal");
    assert.ok(stats.lowerBound > 0);
    assert.equal(stats.lowerBoundText, `${stats.lowerBound} moves`);
    assert.ok(stats.length >= stats.lowerBound);
    if (stats.optimal) {
      assert.match(stats.optimalText, /yes/i);
    } else {
      assert.equal(stats.optimalText, "Not proven");
      assert.equal(
        stats.statusText,
        `Weighted A* (w = 2.5) found a ${stats.length}-move solution (at most 2.5 × optimal; optimal ≥ ${stats.lowerBound}).`,
      );
    }
    await waitUntilPlayedAndSolved(page, stats.length, 40_000);
    const end = await readBoard(page);
    assert.ok(end.solved);
    assert.deepEqual(end.dom, end.model);
    assert.deepEqual(page.errors, []);
  });
});
