// Local value iteration in the sliding page: offered towards the standard goal only, its tables
// built in the tab, the current sub-goal's tiles marked on the board as the solution plays, the
// length put against the optimum; and target/screenshots/local-vi.png, taken mid-animation.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  FASTEST_SPEED,
  TEST_TIMEOUT_MS,
  hashFor,
  readBoard,
  screenshotPath,
  setCustomStart,
  setRange,
  solveAndWait,
  standardGoalText,
  startSession,
  waitUntilPlayedAndSolved,
} from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };

/** A scrambled 15-puzzle (the screenshot test's), far enough for several enlarged stages. */
const START_4X4 = "12,1,10,2,7,11,4,14,5,_,9,15,8,13,6,3";

/**
 * Records every state the solution player shows, as it shows it (its "player-change" event):
 * position, the labels of the tiles marked "subgoal" on the board and in the goal preview, the
 * stage line, and the Puzzle's board. Read them back with takeRecords.
 */
async function recordPlayback(page) {
  await page.evaluate(() => {
    window.playbackRecords = [];
    document.querySelector("#player").addEventListener("player-change", (event) => {
      const board = document.querySelector("#board").board;
      const marked = (selector) =>
        [...board.shadowRoot.querySelectorAll(selector)].map((element) => Number(element.dataset.label)).sort((a, b) => a - b);
      const stage = document.querySelector("#player [data-player=stage]");
      window.playbackRecords.push({
        position: event.detail.position,
        length: event.detail.length,
        playing: event.detail.playing,
        tiles: marked(".tile.subgoal"),
        goalCells: marked(".goal-grid .subgoal"),
        stageText: stage.hidden ? null : stage.textContent,
        board: Array.from(board.puzzle.board()),
      });
    });
  });
}

/** Local value iteration's own answer for a board, straight from the wasm API (stages and the stage of each move). */
async function expectedSolution(page, rows, cols, start) {
  return page.evaluate(
    async ({ rows, cols, start }) => {
      const { loadWasm } = await import(new URL("common/wasm.js", location.href).href);
      const api = await loadWasm();
      const puzzle = api.Puzzle.parse(rows, cols, start, "", "");
      const solver = api.LocalViSolver.build(puzzle);
      try {
        const result = solver.solve(puzzle);
        return { moves: result.moves, stages: result.stages.map((stage) => stage.tiles), moveStages: result.moveStages };
      } finally {
        solver.free();
        puzzle.free();
      }
    },
    { rows, cols, start },
  );
}

describe("local value iteration in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("a scrambled 15-puzzle: the sub-goal's tiles are marked as it plays, it ends solved, its length meets the optimum", options, async () => {
    const page = await session.newPage(hashFor(4, 4, START_4X4, standardGoalText(4, 4)));
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    const expected = await expectedSolution(page, 4, 4, START_4X4);
    await recordPlayback(page);

    const stats = await solveAndWait(page, "local-vi");
    assert.ok(await page.locator("#heuristic").isDisabled(), "local value iteration takes no heuristic");
    assert.equal(stats.status, "solved");
    assert.equal(stats.length, expected.moves.length, "the page plays the same solution as the API gives");
    assert.match(stats.statusText, /Local value iteration \(tile by tile\) found a \d+-move solution/);
    assert.match(await page.locator("#stat-tables").textContent(), /^16 tables, 50,610 states \(49\.4 KB, one byte each\); built in [\d.,]+ ms/);
    assert.equal(await page.locator("#stats").getAttribute("data-table-states"), "50610");

    await waitUntilPlayedAndSolved(page, stats.length);
    const end = await readBoard(page);
    assert.deepEqual(end.dom, [...Array.from({ length: 15 }, (_, i) => i + 1), 0]);
    assert.ok(end.solved && end.bannerVisible);

    // Every position the player showed marked exactly the tiles of the next move's stage, on the
    // board and in the goal preview; at the end nothing is marked.
    const records = (await page.evaluate(() => window.playbackRecords)).filter((record) => record.length === stats.length);
    const positions = new Set(records.map((record) => record.position));
    for (let position = 0; position <= stats.length; position++) assert.ok(positions.has(position), `position ${position} was shown`);
    assert.ok(records.some((record) => record.playing && record.position > 0 && record.position < stats.length), "recorded while playing");
    const goal = [...Array.from({ length: 15 }, (_, i) => i + 1), 0];
    for (const record of records) {
      if (record.position === stats.length) {
        assert.deepEqual(record.tiles, [], "nothing is marked once the solution has played");
        assert.equal(record.stageText, "All tiles placed.");
        continue;
      }
      const stage = expected.moveStages[record.position];
      const tiles = [...expected.stages[stage]].sort((a, b) => a - b);
      assert.deepEqual(record.tiles, tiles, `position ${record.position}: stage ${stage}'s tiles are marked`);
      assert.deepEqual(record.goalCells, tiles, `position ${record.position}: and their goal cells`);
      const placing = tiles.length === 1 ? `Placing tile ${tiles[0]}` : `Placing tiles ${tiles.join(", ")} together`;
      assert.equal(record.stageText, `${placing} (stage ${stage + 1} of ${expected.stages.length})`);
      // When a stage ends, its tiles stand on their goal cells.
      const previous = expected.moveStages[record.position - 1];
      if (record.position > 0 && previous !== stage) {
        for (const tile of expected.stages[previous]) assert.equal(record.board[tile - 1], tile, `tile ${tile} is home after its stage`);
      }
    }
    assert.ok(
      expected.stages.some((tiles) => tiles.length > 1),
      "some stage places several tiles together (the last cells at least)",
    );

    // The optimum (IDA* with the shipped pattern databases) arrives while or after it plays.
    await page.waitForFunction(() => document.querySelector("#stats").dataset.optimumSource === "search", null, { timeout: 45_000 });
    const optimum = Number(await page.locator("#stats").getAttribute("data-optimum"));
    const line = await page.locator("#stat-vs-optimum").textContent();
    assert.match(line, new RegExp(`^${stats.length} moves against the optimum of ${optimum}, found by IDA\\* \\(pattern databases\\): [\\d.]+ × optimal$`));
    assert.ok(optimum <= stats.length && optimum >= stats.lowerBound, `${stats.lowerBound} ≤ ${optimum} ≤ ${stats.length}`);
    assert.equal((stats.length - optimum) % 2, 0, "both lengths have the parity of the position");
    assert.match(await page.locator("#stat-optimal").textContent(), optimum === stats.length ? /Yes/ : new RegExp(`No \\(optimal is ${optimum}\\)`));
    assert.deepEqual(page.errors, []);
  });

  test("mid-animation screenshot: the tiles being placed are marked (target/screenshots/local-vi.png)", options, async () => {
    const page = await session.newPage(hashFor(4, 4, START_4X4, standardGoalText(4, 4)));
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    const stats = await solveAndWait(page, "local-vi");
    await waitUntilPlayedAndSolved(page, stats.length);
    const expected = await expectedSolution(page, 4, 4, START_4X4);
    // Replay slowly from just before a stage of several tiles and catch it moving.
    const movesOf = (index) => expected.moveStages.filter((stage) => stage === index).length;
    const stage = expected.stages.findIndex((tiles, index) => tiles.length > 1 && movesOf(index) >= 6);
    assert.ok(stage >= 0, "a stage of several tiles and several moves");
    const first = expected.moveStages.indexOf(stage);
    await page.click("#player [data-player=start]");
    for (let step = 0; step < first + 2; step++) await page.click("#player [data-player=forward]");
    await setRange(page, "#player [data-player=speed]", 3); // 3 moves/s
    await page.click("#player [data-player=play]");
    await page.waitForFunction((position) => document.querySelector("#player [data-player=position]").textContent.startsWith(`Step ${position} `), first + 3);
    await page.evaluate(() => window.scrollTo(0, 0)); // the board card is sticky
    // The board, the Solve card and the Solution card (the page down to the player).
    const bottom = await page.evaluate(() => document.querySelector("#player").getBoundingClientRect().bottom + 24);
    await page.screenshot({ path: await screenshotPath("local-vi.png"), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: bottom } });
    const marked = await page.evaluate(() =>
      [...document.querySelector("#board").board.shadowRoot.querySelectorAll(".tile.subgoal")].map((tile) => Number(tile.dataset.label)),
    );
    assert.deepEqual(marked.sort((a, b) => a - b), [...expected.stages[stage]].sort((a, b) => a - b));
    await page.click("#player [data-player=play]"); // pause
    assert.deepEqual(page.errors, []);
  });

  test("offered only towards the standard goal; on the 8-puzzle it is put against A*'s optimum and keeps its tables", options, async () => {
    const page = await session.newPage();
    const offered = async () => !(await page.$eval('#algorithm option[value="local-vi"]', (option) => option.disabled));
    await page.selectOption("#size", "sun-moon");
    assert.equal(await offered(), false, "not for the sun & moon preset");
    assert.match(await page.locator("#algorithm-note").textContent(), /Local value iteration is offered only for numbered puzzles with the standard goal/);
    await page.selectOption("#size", "3x3");
    await setCustomStart(page, "1,2,3,4,5,6,7,8,_", "_,1,2,3,4,5,6,7,8");
    assert.equal(await offered(), false, "not towards a typed goal");

    await setCustomStart(page, "8,6,7,2,5,4,3,_,1");
    assert.equal(await offered(), true);
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    const stats = await solveAndWait(page, "local-vi");
    assert.equal(stats.status, "solved");
    assert.match(await page.locator("#stat-tables").textContent(), /^5 tables, 1,226 states \(1\.2 KB, one byte each\); built in/);
    await page.waitForFunction(() => document.querySelector("#stats").dataset.optimumSource === "search", null, { timeout: 30_000 });
    assert.equal(await page.locator("#stats").getAttribute("data-optimum"), "31", "the hardest 8-puzzles need 31 moves");
    assert.match(await page.locator("#stat-vs-optimum").textContent(), /against the optimum of 31, found by A\* \(linear conflict\): [\d.]+ × optimal$/);
    await waitUntilPlayedAndSolved(page, stats.length);

    // A second solve reuses the tables the worker keeps.
    await page.click("#player [data-player=start]");
    const again = await solveAndWait(page, "local-vi");
    assert.equal(again.length, stats.length);
    assert.match(await page.locator("#stat-tables").textContent(), /built earlier in this tab in/);
    assert.deepEqual(page.errors, []);
  });
});
