// <puzzle-widget> (www/widget.js) on the demo page www/embed.html, whose styles are hostile on
// purpose, and on a page elsewhere on the server: widgets play and solve independently, events
// carry their documented details, invalid attributes are reported inside their own widget,
// attribute changes apply, the JS API works, assets load relative to the script, and widgets share
// one wasm instance, at most two workers and one download of the pattern databases.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, clickCell, readBoard, screenshotPath, startSession } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const EMBED = "/www/embed.html";
const ELSEWHERE = "/tests/browser/fixtures/elsewhere/host.html";
/** The fifteen widget's start in embed.html: 32 moves from the goal. */
const FIFTEEN_START = "1,2,3,8,14,5,6,10,15,7,_,4,9,13,11,12";
const FIFTEEN_START_BOARD = [1, 2, 3, 8, 14, 5, 6, 10, 15, 7, 0, 4, 9, 13, 11, 12];
/** Another 4×4 start for the standard goal, 24 moves away. */
const OTHER_FIFTEEN_START = "1,3,4,8,6,2,7,10,13,5,9,11,15,_,14,12";
/** Far from the standard 4×4 goal: A* with Manhattan distance works on it for seconds. */
const FAR_FIFTEEN_STARTS = ["_,15,14,13,12,11,10,9,8,7,6,5,4,3,1,2", "_,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1"];
const GOAL_3X3 = [1, 2, 3, 4, 5, 6, 7, 8, 0];

/** Before the page loads: every widget event that reaches the document, in window.widgetEvents. */
async function recordWidgetEvents(page) {
  await page.addInitScript(() => {
    window.widgetEvents = [];
    for (const type of ["move", "solved", "solution", "error"]) {
      document.addEventListener(type, (event) => {
        if (event.target?.localName !== "puzzle-widget") return;
        window.widgetEvents.push({ type, id: event.target.id, detail: JSON.parse(JSON.stringify(event.detail)) });
      });
    }
  });
}

/** The recorded events, optionally of one widget and/or one type. */
async function eventsOf(page, { id, type } = {}) {
  const events = await page.evaluate(() => window.widgetEvents);
  return events.filter((event) => (id === undefined || event.id === id) && (type === undefined || event.type === type));
}

async function clearEvents(page) {
  await page.evaluate(() => (window.widgetEvents.length = 0));
}

/** What a widget shows: its state, its error (text and whether it is visible), status line and buttons. */
async function readWidget(page, id) {
  return page.evaluate((widgetId) => {
    const widget = document.getElementById(widgetId);
    const root = widget.shadowRoot;
    const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden";
    const error = root.querySelector("[part=error]");
    return {
      state: widget.state,
      error: error.textContent,
      errorShown: shown(error),
      errorRole: error.getAttribute("role"),
      status: root.querySelector("[part=status]").textContent,
      buttons: [...root.querySelectorAll("[data-action]")].filter(shown).map((button) => button.dataset.action),
      stepShown: shown(root.querySelector("[part=player]")),
      boardShown: shown(widget.board),
      invalid: widget.hasAttribute("invalid"),
      solving: widget.hasAttribute("solving"),
    };
  }, id);
}

/** Sets (or, with null, removes) attributes of a widget in one go, as a script would. */
async function setAttributes(page, id, attributes) {
  await page.evaluate(
    ([widgetId, changes]) => {
      const widget = document.getElementById(widgetId);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) widget.removeAttribute(name);
        else widget.setAttribute(name, value);
      }
    },
    [id, attributes],
  );
  // Attribute changes are applied together in a microtask.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

/** Waits until a widget has played a solution to its end and shows the goal. */
async function waitForPlayback(page, id, timeout = 30_000) {
  await page.waitForFunction(
    (widgetId) => {
      const widget = document.getElementById(widgetId);
      const position = widget.shadowRoot.querySelector("[data-player=position]").textContent;
      const match = /^Step (\d+) of (\d+)$/.exec(position);
      return Boolean(match && match[1] === match[2] && widget.state?.solved && !widget.hasAttribute("solving"));
    },
    id,
    { timeout },
  );
  return readBoard(page, `#${id}`);
}

/** Waits for a widget's next `solution` event (after `count` of them) and returns its detail. */
async function nextSolution(page, id, count = 0, timeout = 30_000) {
  await page.waitForFunction(
    ([widgetId, seen]) => window.widgetEvents.filter((event) => event.id === widgetId && event.type === "solution").length > seen,
    [id, count],
    { timeout },
  );
  return (await eventsOf(page, { id, type: "solution" }))[count].detail;
}

describe("<puzzle-widget> on a hostile page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("three widgets play and solve independently", options, async () => {
    const page = await session.newWidgetPage(EMBED, {}, { beforeGoto: recordWidgetEvents });

    // sun-moon has autoplay: Q-learning learns it as the page opens, and the solution plays.
    const sunMoonEnd = await waitForPlayback(page, "sun-moon");
    assert.ok(sunMoonEnd.solved && sunMoonEnd.bannerVisible);
    const learned = await eventsOf(page, { id: "sun-moon", type: "solution" });
    assert.equal(learned.length, 1);
    assert.equal(learned[0].detail.algorithm, "qlearning");
    assert.equal(learned[0].detail.length, 13, "the preset's optimum");
    assert.equal(learned[0].detail.optimal, true);
    const sunMoonMoves = await eventsOf(page, { id: "sun-moon", type: "move" });
    assert.equal(sunMoonMoves.length, 13);
    assert.ok(sunMoonMoves.every((event) => event.detail.source === "playback"));
    assert.deepEqual(await eventsOf(page, { id: "sun-moon", type: "solved" }), [
      { type: "solved", id: "sun-moon", detail: { moves: 13, source: "playback" } },
    ]);

    // Meanwhile the other two did not move.
    const classic = await readWidget(page, "classic");
    assert.equal(classic.state.moves, 0);
    assert.deepEqual((await readWidget(page, "fifteen")).state.board, FIFTEEN_START_BOARD);
    assert.deepEqual((await readBoard(page, "#fifteen")).dom, FIFTEEN_START_BOARD, "the DOM shows the start attribute");

    // The 8-puzzle by hand: a click slides two tiles, into the goal.
    await page.evaluate(() => document.getElementById("classic").setState("1,2,3,4,5,6,_,7,8"));
    await clickCell(page, 8, "#classic");
    const byHand = await readBoard(page, "#classic");
    assert.deepEqual(byHand.dom, GOAL_3X3);
    assert.ok(byHand.solved && byHand.bannerVisible);
    assert.equal(byHand.moves, 2);

    // Then shuffled and solved by A* with its Solve button, at the widget's speed.
    await setAttributes(page, "classic", { speed: "60" });
    assert.equal(await page.evaluate(() => document.getElementById("classic").shuffle(14)), "exact");
    await page.click("#classic [data-action=solve]");
    const classicSolution = await nextSolution(page, "classic");
    assert.equal(classicSolution.algorithm, "astar");
    assert.equal(classicSolution.length, 14, "an exact shuffle of 14 needs 14 moves");
    assert.equal(classicSolution.optimal, true);
    assert.deepEqual((await waitForPlayback(page, "classic")).dom, GOAL_3X3);

    // The 15-puzzle with its Solve button: IDA* with the shipped pattern databases.
    await setAttributes(page, "fifteen", { speed: "60" });
    await page.click("#fifteen [data-action=solve]");
    const fifteenSolution = await nextSolution(page, "fifteen");
    assert.equal(fifteenSolution.algorithm, "idastar");
    assert.equal(fifteenSolution.heuristic, "pdb-6-6-3");
    assert.equal(fifteenSolution.length, 32);
    assert.equal(fifteenSolution.optimal, true);
    const fifteenEnd = await waitForPlayback(page, "fifteen");
    assert.deepEqual(fifteenEnd.dom, [...Array.from({ length: 15 }, (_, i) => i + 1), 0]);
    assert.match((await readWidget(page, "fifteen")).status, /IDA\* \(pattern databases 6-6-3\): 32 moves, optimal/);

    // Each widget heard only its own moves; sun-moon stayed solved throughout.
    assert.equal((await eventsOf(page, { id: "classic", type: "move" })).length, 2 + 14);
    assert.equal((await eventsOf(page, { id: "fifteen", type: "move" })).length, 32);
    assert.equal((await eventsOf(page, { id: "sun-moon", type: "move" })).length, 13);
    assert.deepEqual((await readBoard(page, "#sun-moon")).dom, sunMoonEnd.dom);
    assert.deepEqual(await eventsOf(page, { type: "error" }), []);
    assert.deepEqual(page.errors, []);
  });

  test("move, solved and solution events carry the documented details", options, async () => {
    const page = await session.newWidgetPage(EMBED, {}, { beforeGoto: recordWidgetEvents });
    await setAttributes(page, "classic", { speed: "60" });
    await page.evaluate(() => document.getElementById("classic").setState("1,2,3,4,5,6,_,7,8"));
    await clearEvents(page);

    // One click, two tiles: one move event per tile, then solved.
    await clickCell(page, 8, "#classic");
    assert.deepEqual(await eventsOf(page, { id: "classic" }), [
      { type: "move", id: "classic", detail: { direction: "right", tile: 7, board: [1, 2, 3, 4, 5, 6, 7, 0, 8], moves: 1, source: "user" } },
      { type: "move", id: "classic", detail: { direction: "right", tile: 8, board: GOAL_3X3, moves: 2, source: "user" } },
      { type: "solved", id: "classic", detail: { moves: 2, source: "user" } },
    ]);

    // solve() resolves to the same detail as the solution event; playback moves follow it.
    await page.evaluate(() => document.getElementById("classic").setState("1,2,3,_,5,6,4,7,8"));
    await clearEvents(page);
    const detail = await page.evaluate(() => document.getElementById("classic").solve());
    assert.deepEqual(Object.keys(detail).sort(), ["algorithm", "heuristic", "length", "moves", "ms", "nodes", "optimal", "tiles"]);
    assert.deepEqual(detail.moves, ["down", "right", "right"]);
    assert.deepEqual(detail.tiles, [4, 7, 8]);
    assert.equal(detail.length, 3);
    assert.equal(detail.optimal, true);
    assert.equal(detail.algorithm, "astar");
    assert.equal(detail.heuristic, "manhattan");
    assert.ok(detail.nodes > 0, `nodes expanded (${detail.nodes})`);
    assert.ok(Number.isFinite(detail.ms) && detail.ms >= 0);
    await waitForPlayback(page, "classic");
    const events = await eventsOf(page, { id: "classic" });
    assert.deepEqual(events[0], { type: "solution", id: "classic", detail });
    const moves = events.filter((event) => event.type === "move").map((event) => event.detail);
    assert.deepEqual(
      moves.map(({ direction, tile, moves: count, source }) => [direction, tile, count, source]),
      [["down", 4, 1, "playback"], ["right", 7, 2, "playback"], ["right", 8, 3, "playback"]],
    );
    assert.deepEqual(moves.at(-1).board, GOAL_3X3);
    assert.deepEqual(events.at(-1), { type: "solved", id: "classic", detail: { moves: 3, source: "playback" } });

    // Stepping back through the solution is a playback move too: it takes a move back.
    await clearEvents(page);
    await page.click("#classic [data-player=back]");
    assert.deepEqual(await eventsOf(page, { id: "classic" }), [
      { type: "move", id: "classic", detail: { direction: "left", tile: 8, board: [1, 2, 3, 4, 5, 6, 7, 0, 8], moves: 2, source: "playback" } },
    ]);
    assert.equal(await page.locator("#classic [data-player=position]").textContent(), "Step 2 of 3");
    assert.deepEqual(page.errors, []);
  });

  test("an invalid attribute shows an error inside that widget only, and its board stays", options, async () => {
    const page = await session.newWidgetPage(EMBED, {}, { beforeGoto: recordWidgetEvents });
    await waitForPlayback(page, "sun-moon");
    const before = await readWidget(page, "classic");
    const others = { "sun-moon": await readWidget(page, "sun-moon"), fifteen: await readWidget(page, "fifteen") };
    const cases = [
      ["size", "7x9", /^size="7x9": a board is 2 to 5 rows by 2 to 5 columns; 7×9 is not supported$/, "3"],
      ["size", "big", /^size="big": this is not a size: write it like 3, 4x4 or 2x3$/, "3"],
      ["start", "1,2,3", /^start="1,2,3": the start has 3 cells but a 3×3 board has 9$/, null],
      ["goal", "1,2,3,4,5,6,7,8,8", /^goal="1,2,3,4,5,6,7,8,8": .*8.*/, null],
      ["preset", "moon", /^preset="moon": unknown preset "moon": the presets are sun-moon$/, null],
      ["puzzle", "rubik", /^puzzle="rubik": unknown puzzle; choose "sliding", "2048", "minesweeper", "sudoku", "dust" or "samegame"$/, null],
      ["solver", "simplex", /^solver="simplex": unknown solver; choose one of bfs, astar, wastar, idastar, qlearning/, "astar"],
      ["speed", "fast", /^speed="fast": the speed is a number of moves per second, from 0.5 to 60$/, null],
      [
        "controls",
        "shuffle dance",
        /^controls="shuffle dance": unknown control "dance"; choose from shuffle, solve, step, reset$/,
        "shuffle solve step reset",
      ],
    ];
    for (const [attribute, value, expected, restore] of cases) {
      await clearEvents(page);
      await setAttributes(page, "classic", { [attribute]: value });
      const shown = await readWidget(page, "classic");
      assert.match(shown.error, expected, `${attribute}="${value}"`);
      assert.ok(shown.errorShown, `${attribute}: the error is visible despite the page's [role=alert] { display: none !important }`);
      assert.equal(shown.errorRole, "alert");
      assert.ok(shown.invalid);
      assert.deepEqual(shown.state, before.state, `${attribute}: the board keeps its state`);
      assert.ok(shown.boardShown);
      const events = await eventsOf(page);
      assert.equal(events.length, 1, `${attribute}: one event (${JSON.stringify(events)})`);
      assert.deepEqual(events[0], { type: "error", id: "classic", detail: { message: shown.error, attribute } });
      for (const [id, widget] of Object.entries(others)) {
        const now = await readWidget(page, id);
        assert.ok(!now.errorShown && !now.invalid, `${attribute}: no error in ${id}`);
        assert.deepEqual(now.state, widget.state, `${attribute}: ${id} unchanged`);
      }
      await setAttributes(page, "classic", { [attribute]: restore });
      const fixed = await readWidget(page, "classic");
      assert.ok(!fixed.errorShown && !fixed.invalid, `${attribute}: fixing it clears the error (${fixed.error})`);
      assert.deepEqual(fixed.state, before.state);
    }

    // Two at once: both are listed.
    await setAttributes(page, "classic", { size: "7x9", speed: "fast" });
    assert.equal((await readWidget(page, "classic")).error.split("\n").length, 2);
    await setAttributes(page, "classic", { size: "3", speed: null });

    // dqn solves with a neural model: a file that is not one fails the solve, and the board stays.
    await clearEvents(page);
    await setAttributes(page, "classic", { solver: "dqn", model: "models/8puzzle.dqn.json" });
    assert.equal((await readWidget(page, "classic")).invalid, false, "dqn is a solver like the others");
    const refusal = await page.evaluate(() => document.getElementById("classic").solve().then(() => "solved", (error) => error.message));
    assert.match(refusal, /^DQN failed: The model at \S+\/www\/models\/8puzzle\.dqn\.json could not be loaded: not a puzzlelab DQN model/);
    const neural = await readWidget(page, "classic");
    assert.equal(neural.error, refusal);
    assert.deepEqual(neural.state, before.state);
    assert.deepEqual(
      (await eventsOf(page)).map((event) => [event.type, event.detail.attribute]),
      [["error", null]],
      "no solution, one error",
    );
    await setAttributes(page, "classic", { solver: "astar", model: null });

    // A widget that never had a valid board shows only its error, until its attributes are fixed.
    await page.evaluate(() => {
      const widget = document.createElement("puzzle-widget");
      widget.id = "broken";
      widget.setAttribute("size", "9");
      document.querySelector("figure").append(widget);
    });
    await page.waitForFunction(() => document.getElementById("broken").hasAttribute("ready"));
    const broken = await readWidget(page, "broken");
    assert.equal(broken.state, null);
    assert.ok(!broken.boardShown);
    assert.match(broken.error, /9×9 is not supported/);
    await setAttributes(page, "broken", { size: "2x2" });
    const mended = await readWidget(page, "broken");
    assert.ok(mended.boardShown && !mended.errorShown);
    assert.equal(mended.state.rows, 2);
    assert.deepEqual(page.errors, []);
  });

  test("changing attributes updates the widget", options, async () => {
    const page = await session.newWidgetPage(EMBED, {}, { beforeGoto: recordWidgetEvents });
    // A new size: a shuffled board of that size, and the solver it offers.
    await setAttributes(page, "classic", { size: "4x4", solver: null });
    let shown = await readWidget(page, "classic");
    assert.equal(shown.state.rows, 4);
    assert.equal(shown.state.cols, 4);
    assert.equal(shown.state.goalText, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_");
    assert.deepEqual((await readBoard(page, "#classic")).dom, shown.state.board);
    await setAttributes(page, "classic", { start: "1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15" });
    assert.deepEqual((await readWidget(page, "classic")).state.board, [...Array.from({ length: 14 }, (_, i) => i + 1), 0, 15]);
    const onFifteen = await page.evaluate(() => document.getElementById("classic").solve());
    assert.deepEqual(
      [onFifteen.algorithm, onFifteen.heuristic, onFifteen.length],
      ["idastar", "pdb-6-6-3", 1],
      "4×4 defaults to IDA* with pattern databases",
    );

    // Size and start changed together apply together (a 4×4 start on a 2×3 board would be an error).
    await setAttributes(page, "classic", { size: "2x3", start: "4,1,2,_,5,3", solver: "bfs" });
    shown = await readWidget(page, "classic");
    assert.deepEqual([shown.state.rows, shown.state.cols, shown.state.board], [2, 3, [4, 1, 2, 0, 5, 3]]);
    assert.equal(shown.invalid, false);
    const bfs = await page.evaluate(() => document.getElementById("classic").solve());
    assert.deepEqual([bfs.algorithm, bfs.length, bfs.optimal], ["bfs", 4, true]);

    // A solver the new size does not offer is an error; a size that offers it clears it.
    await setAttributes(page, "classic", { size: "4x4", start: null, solver: "qlearning" });
    assert.match((await readWidget(page, "classic")).error, /^solver="qlearning": qlearning is for boards of at most 9 cells; this one has 16$/);
    await setAttributes(page, "classic", { size: "3" });
    assert.equal((await readWidget(page, "classic")).invalid, false);

    // controls: which buttons show.
    await setAttributes(page, "classic", { controls: "solve" });
    shown = await readWidget(page, "classic");
    assert.deepEqual([shown.buttons, shown.stepShown], [["solve"], false]);
    await setAttributes(page, "classic", { controls: "step, reset" });
    shown = await readWidget(page, "classic");
    assert.deepEqual([shown.buttons, shown.stepShown], [["reset"], true]);
    await setAttributes(page, "classic", { controls: "" });
    shown = await readWidget(page, "classic");
    assert.deepEqual([shown.buttons, shown.stepShown], [[], false]);
    await setAttributes(page, "classic", { controls: null });
    shown = await readWidget(page, "classic");
    assert.deepEqual([shown.buttons, shown.stepShown], [["shuffle", "solve", "reset"], true]);

    // speed: slides last most of a step, up to 160 ms; values are clamped to 0.5–60 moves/s.
    const slide = () =>
      page.evaluate(() => getComputedStyle(document.getElementById("classic").board).getPropertyValue("--slide-ms").trim());
    assert.equal(await slide(), "160ms");
    await setAttributes(page, "classic", { speed: "8" });
    assert.equal(await slide(), "88ms");
    await setAttributes(page, "classic", { speed: "1000" });
    assert.equal(await slide(), "12ms");

    // autoplay added later: it solves and plays at once.
    await setAttributes(page, "classic", { solver: null });
    await clearEvents(page);
    await setAttributes(page, "classic", { autoplay: "" });
    await nextSolution(page, "classic");
    assert.deepEqual((await waitForPlayback(page, "classic")).dom, GOAL_3X3);
    assert.deepEqual(await eventsOf(page, { type: "error" }), []);
    assert.deepEqual(page.errors, []);
  });

  test("the JS API: shuffle, solve, cancel, setState and state", options, async () => {
    const page = await session.newWidgetPage(EMBED, {}, { beforeGoto: recordWidgetEvents });
    const result = await page.evaluate(async () => {
      const widget = document.getElementById("classic");
      const mode = widget.shuffle(10);
      const shuffled = widget.state;
      const solution = await widget.solve();
      let parseError = null;
      const beforeBadInput = widget.state;
      try {
        widget.setState("1,2,3");
      } catch (error) {
        parseError = { name: error.name, message: error.message };
      }
      const afterBadInput = widget.state;
      widget.setState("1,2,_,3,4,5,6,7,8", "_,1,2,3,4,5,6,7,8");
      return { mode, shuffled, solution, parseError, beforeBadInput, afterBadInput, custom: widget.state };
    });
    assert.equal(result.mode, "exact");
    assert.deepEqual(Object.keys(result.shuffled).sort(), ["board", "cols", "goal", "goalText", "moves", "preset", "rows", "solved", "start"]);
    assert.equal(result.shuffled.solved, false);
    assert.equal(result.shuffled.preset, "");
    assert.equal(result.shuffled.start, result.shuffled.board.map((label) => (label === 0 ? "_" : label)).join(","));
    assert.equal(result.solution.length, 10, "an exact shuffle of 10");
    assert.deepEqual(result.parseError, { name: "Error", message: "the start has 3 cells but a 3×3 board has 9" });
    assert.deepEqual(result.afterBadInput, result.beforeBadInput, "a bad setState changes nothing");
    assert.deepEqual(result.custom, {
      rows: 3,
      cols: 3,
      preset: "",
      board: [1, 2, 0, 3, 4, 5, 6, 7, 8],
      goal: [0, 1, 2, 3, 4, 5, 6, 7, 8],
      start: "1,2,_,3,4,5,6,7,8",
      goalText: "_,1,2,3,4,5,6,7,8",
      solved: false,
      moves: 0,
    });

    // Cancelling: a long search on one worker, another on the second, and a third that waits in
    // the queue; cancel() ends each at once and the widgets stay usable.
    const cancelled = await page.evaluate(async (farStarts) => {
      const widgets = ["classic", "fifteen"].map((id) => document.getElementById(id));
      const third = document.createElement("puzzle-widget");
      third.id = "third";
      document.querySelector("figure").append(third);
      await third.ready;
      widgets.push(third);
      const { sharedSolverPool } = await import("./sliding/solver-pool.js");
      for (const widget of widgets) {
        widget.setAttribute("size", "4x4");
        widget.setAttribute("solver", "astar");
        widget.removeAttribute("start");
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const widget of widgets) {
        widget.setState(farStarts[0]);
        if (!widget.puzzle.isSolvable()) widget.setState(farStarts[1]);
      }
      const outcomes = widgets.map((widget) =>
        widget.solve().then(
          () => "solved",
          (error) => ({ name: error.name, at: performance.now() }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 400));
      const solving = widgets.map((widget) => widget.hasAttribute("solving"));
      const workers = sharedSolverPool().workerCount;
      const cancelledAt = performance.now();
      // The queued one first, then the running ones.
      for (const widget of [...widgets].reverse()) widget.cancel();
      const results = await Promise.all(outcomes);
      return {
        solving,
        workers,
        results: results.map((outcome) => (outcome === "solved" ? outcome : { name: outcome.name, ms: outcome.at - cancelledAt })),
        statuses: widgets.map((widget) => widget.shadowRoot.querySelector("[part=status]").textContent),
        locked: widgets.map((widget) => widget.board.locked),
      };
    }, FAR_FIFTEEN_STARTS);
    assert.deepEqual(cancelled.solving, [true, true, true]);
    assert.equal(cancelled.workers, 2, "two workers, the third job waits");
    for (const outcome of cancelled.results) {
      assert.equal(outcome.name, "SolveCancelled");
      assert.ok(outcome.ms < 1500, `cancel answers quickly (${outcome.ms} ms)`);
    }
    assert.deepEqual(cancelled.statuses, ["Cancelled.", "Cancelled.", "Cancelled."]);
    assert.deepEqual(cancelled.locked, [false, false, false]);
    // No error event for a cancel; the next solve works.
    assert.deepEqual(await eventsOf(page, { type: "error" }), []);
    const next = await page.evaluate(() => {
      const widget = document.getElementById("third");
      widget.setState("1,2,3,4,5,6,7,8,9,10,11,12,13,14,_,15");
      return widget.solve();
    });
    assert.equal(next.length, 1);
    assert.deepEqual(page.errors, []);
  });

  test("widgets share one wasm instance, at most two workers and one pattern-database download", options, async () => {
    const requests = [];
    let workersStarted = 0;
    const page = await session.newWidgetPage(EMBED, {}, {
      beforeGoto: async (page) => {
        await recordWidgetEvents(page);
        page.on("request", (request) => requests.push(new URL(request.url()).pathname));
        page.on("worker", () => (workersStarted += 1));
      },
    });
    // A second 15-puzzle, so that two widgets need the same databases at the same time.
    await page.evaluate((start) => {
      const widget = document.createElement("puzzle-widget");
      widget.id = "fifteen-too";
      widget.setAttribute("size", "4x4");
      widget.setAttribute("start", start);
      document.querySelector("figure").append(widget);
    }, OTHER_FIFTEEN_START);
    await page.waitForFunction(() => document.getElementById("fifteen-too").hasAttribute("ready"));
    // Every widget solves at once (sun-moon may still be learning): the jobs queue for the workers.
    const solutions = await page.evaluate(() =>
      Promise.all(["classic", "fifteen", "fifteen-too", "sun-moon"].map((id) => document.getElementById(id).solve())),
    );
    assert.deepEqual(
      solutions.slice(1, 3).map((solution) => [solution.heuristic, solution.length, solution.optimal]),
      [["pdb-6-6-3", 32, true], ["pdb-6-6-3", 24, true]],
    );
    const count = (suffix) => requests.filter((path) => path.endsWith(suffix)).length;
    const sharing = await page.evaluate(async () => {
      const { sharedSolverPool } = await import("./sliding/solver-pool.js");
      return {
        workers: sharedSolverPool().workerCount,
        // This realm's own fetches (workers have their own performance timelines).
        pageWasmFetches: performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith("/puzzlelab_bg.wasm")).length,
      };
    });
    assert.equal(sharing.pageWasmFetches, 1, "the page instantiates the wasm once for all its widgets");
    assert.ok(workersStarted >= 1 && workersStarted <= 2, `at most two workers (${workersStarted})`);
    assert.equal(sharing.workers, workersStarted);
    // At most one wasm download for the page and one per worker: a worker that starts once the
    // page's copy is kept (common/asset-cache.js) reads it from the cache instead.
    const wasmDownloads = count("/puzzlelab_bg.wasm");
    assert.ok(wasmDownloads >= 1 && wasmDownloads <= 1 + workersStarted, `wasm downloads: ${wasmDownloads}`);
    assert.equal(count("/solver-worker.js"), workersStarted);
    assert.equal(count("/pdb-index.json"), 1);
    assert.equal(count("/pdb-4x4-6-6-3-standard.pdb.gz"), 1, "the databases are downloaded once for both 15-puzzles");
    assert.deepEqual(page.errors, []);
  });

  test("the widget loads its wasm, worker and models relative to its script on a page elsewhere", options, async () => {
    const responses = [];
    const workerUrls = [];
    const page = await session.newWidgetPage(ELSEWHERE, {}, {
      beforeGoto: async (page) => {
        await recordWidgetEvents(page);
        page.on("response", (response) => responses.push({ path: new URL(response.url()).pathname, status: response.status() }));
        page.on("worker", (worker) => workerUrls.push(new URL(worker.url()).pathname));
      },
    });
    const small = await page.evaluate(() => document.getElementById("elsewhere").solve());
    assert.deepEqual([small.algorithm, small.length, small.optimal], ["astar", 4, true]);
    assert.deepEqual((await waitForPlayback(page, "elsewhere")).dom, [1, 2, 3, 4, 5, 0]);
    const fifteen = await page.evaluate(() => document.getElementById("elsewhere-fifteen").solve());
    assert.deepEqual([fifteen.heuristic, fifteen.length], ["pdb-6-6-3", 2], "the shipped databases were found next to the script");
    const paths = responses.map((response) => response.path);
    assert.ok(paths.includes("/pkg/puzzlelab_bg.wasm"));
    assert.ok(paths.includes("/www/models/pdb-4x4-6-6-3-standard.pdb.gz"));
    assert.ok(workerUrls.length > 0 && workerUrls.every((url) => url === "/www/sliding/solver-worker.js"), `workers: ${workerUrls}`);
    assert.deepEqual(responses.filter((response) => response.status >= 400), [], "nothing is missing");
    assert.deepEqual(await eventsOf(page, { type: "error" }), []);
    assert.deepEqual(page.errors, []);
  });

  test("screenshot: the hostile styles do not reach the widgets (target/screenshots/embed.png)", options, async () => {
    const page = await session.newWidgetPage(EMBED, {}, { beforeGoto: recordWidgetEvents });
    await waitForPlayback(page, "sun-moon");
    // The 15-puzzle stepped back half way through its solution, the 8-puzzle at a known position.
    await setAttributes(page, "fifteen", { speed: "60" });
    await page.click("#fifteen [data-action=solve]");
    await waitForPlayback(page, "fifteen");
    for (let step = 0; step < 16; step++) await page.click("#fifteen [data-player=back]");
    assert.equal(await page.locator("#fifteen [data-player=position]").textContent(), "Step 16 of 32");
    await page.evaluate(() => document.getElementById("classic").setState("8,6,7,2,5,4,3,_,1"));
    await readBoard(page, "#fifteen");
    await readBoard(page, "#classic");
    const layout = await page.evaluate(() =>
      [...document.querySelectorAll("puzzle-widget")].map((widget) => {
        const root = widget.shadowRoot;
        const frame = widget.board.shadowRoot.querySelector(".frame").getBoundingClientRect();
        const tile = widget.board.shadowRoot.querySelector(".face");
        const button = root.querySelector("[data-action=solve]");
        const inner = getComputedStyle(root.querySelector("[part=widget]"));
        const host = getComputedStyle(widget);
        return {
          id: widget.id,
          display: host.display,
          width: widget.getBoundingClientRect().width,
          frame: { width: frame.width, height: frame.height },
          fontSize: inner.fontSize,
          letterSpacing: inner.letterSpacing,
          textTransform: inner.textTransform,
          direction: inner.direction,
          tileFont: getComputedStyle(tile).fontFamily,
          buttonBackground: getComputedStyle(button).backgroundColor,
          buttonFontSize: getComputedStyle(button).fontSize,
        };
      }),
    );
    for (const widget of layout) {
      // Not the "inline" that the page's `all: unset` gives (inline-block, blockified in the page's flex figure).
      assert.match(widget.display, /^(inline-)?block$/, widget.id);
      assert.equal(widget.width, 340, `${widget.id}: its own width, not content-box games`);
      assert.ok(Math.abs(widget.frame.width - 314) < 1, `${widget.id}: the board fills the card (${widget.frame.width})`);
      assert.ok(Math.abs(widget.frame.width - widget.frame.height) < 1, `${widget.id}: square boards stay square`);
      assert.equal(widget.fontSize, "14px", `${widget.id}: not the page's 40px root or 72px host font`);
      assert.equal(widget.letterSpacing, "normal");
      assert.equal(widget.textTransform, "none");
      assert.equal(widget.direction, "ltr");
      assert.doesNotMatch(widget.tileFont, /Georgia/);
      assert.notEqual(widget.buttonBackground, "rgb(255, 0, 0)", `${widget.id}: the page's red buttons stay outside`);
      assert.equal(widget.buttonFontSize, "13px");
    }
    await page.screenshot({ path: await screenshotPath("embed.png"), fullPage: true });
    assert.deepEqual(await eventsOf(page, { type: "error" }), []);
    assert.deepEqual(page.errors, []);
  });
});
