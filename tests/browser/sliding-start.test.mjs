// The sliding page and <puzzle-widget> start without building the exact-distance table of a small
// board (src/web/mod.rs: Puzzle.maxDifficulty and an exact Puzzle.shuffle build it, a breadth-first
// search of all 181,440 positions of the 8-puzzle) before they are ready: the page reads its
// difficulty slider's maximum once it is idle, and the first position is found by a random walk
// that A* checks (sliding/solvers.js shuffleByCheckedWalk). The tests watch every call that
// builds the table (by wrapping those two methods in the module the page loads) and check what the
// person sees: a first position exactly as far from the goal as the note says, and the slider's
// maximum, once known, equal to the puzzle's. The page also sets up its deep Q-learning card only
// after it is ready (once idle): the board is playable while the card's module has not even
// arrived, and the card, once set up (data-learn-ready), follows the board it finds and works.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, clickCell, readBoard, startSession, waitForApp, waitForLearnCard } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** A page of the server's own with one widget that is given no start (so it shuffles its own). */
const WIDGET_PAGE = "/www/sliding-start-test.html";

/**
 * Before the page loads: serves pkg/puzzlelab.js with Puzzle.maxDifficulty and Puzzle.shuffle
 * wrapped, so that window.tableCalls lists each call on a board of at most 9 cells (where they
 * build the exact-distance table) with whether the page (or every widget) was ready then.
 */
async function watchTableBuilds(page) {
  await page.route("**/pkg/puzzlelab.js", async (route) => {
    const response = await route.fetch();
    const wrapper = `
;for (const name of ["maxDifficulty", "shuffle"]) {
  const original = Puzzle.prototype[name];
  Puzzle.prototype[name] = function (...args) {
    if (this.rows * this.cols <= 9) {
      const widgets = [...document.querySelectorAll("puzzle-widget")];
      const ready = document.documentElement.dataset.ready === "true" || (widgets.length > 0 && !document.querySelector("#board") && widgets.every((widget) => widget.hasAttribute("ready")));
      (globalThis.tableCalls ??= []).push({ name, ready });
    }
    return original.apply(this, args);
  };
}
`;
    await route.fulfill({ response, body: `${await response.text()}${wrapper}` });
  });
}

/** The optimal number of moves from `start` to the standard goal of a rows × cols board, by A* in the page's wasm. */
async function optimalLength(page, rows, cols, start) {
  return page.evaluate(
    async ([rows, cols, start]) => {
      const api = await (await import("/www/common/wasm.js")).loadWasm();
      const puzzle = api.Puzzle.parse(rows, cols, start, "", "");
      const search = new api.SearchJob(puzzle, "astar", "linear-conflict", 0, 0);
      while (!search.step(1e9));
      const { optimal, length } = search.result();
      search.free();
      puzzle.free();
      return optimal ? length : null;
    },
    [rows, cols, start],
  );
}

describe("starting without the exact-distance table", () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  test("the sliding page with a puzzle in its link is ready before any table is built; the slider's maximum follows", options, async () => {
    const page = await session.newPage("#size=3x3&start=1,2,3,4,5,6,_,7,8", {}, { beforeGoto: watchTableBuilds });
    const atReady = await page.evaluate(() => ({ calls: [...(globalThis.tableCalls ?? [])] }));
    assert.deepEqual(atReady.calls.filter((call) => !call.ready), [], "a table was built before the page was ready");
    // Once the page is idle it reads the maximum: the puzzle's own, and the slider says so.
    await page.waitForFunction(() => !("maxPending" in document.querySelector("#difficulty").dataset));
    const slider = await page.evaluate(() => {
      const input = document.querySelector("#difficulty");
      return { max: Number(input.max), value: Number(input.value), puzzleMax: document.querySelector("#board").puzzle.maxDifficulty() };
    });
    assert.equal(slider.max, slider.puzzleMax);
    assert.ok(slider.value >= 1 && slider.value <= slider.max, JSON.stringify(slider));
    assert.ok(await page.evaluate(() => globalThis.tableCalls.some((call) => call.name === "maxDifficulty")), "the maximum was never read");
    assert.deepEqual(page.errors, []);
  });

  test("another size while the page runs gets its maximum at once (2 × 3)", options, async () => {
    const page = await session.newPage("#size=3x3&start=1,2,3,4,5,6,_,7,8");
    await page.waitForFunction(() => !("maxPending" in document.querySelector("#difficulty").dataset));
    await page.selectOption("#size", "2x3");
    const slider = await page.evaluate(() => ({
      pending: "maxPending" in document.querySelector("#difficulty").dataset,
      max: Number(document.querySelector("#difficulty").max),
      puzzleMax: document.querySelector("#board").puzzle.maxDifficulty(),
      rows: document.querySelector("#board").puzzle.rows,
    }));
    assert.deepEqual(slider, { pending: false, max: slider.puzzleMax, puzzleMax: slider.puzzleMax, rows: 2 });
    assert.deepEqual(page.errors, []);
  });

  test("the sliding page without a link shuffles its first 8-puzzle to exactly the slider's difficulty before building a table", options, async () => {
    const page = await session.newPage("", {}, { beforeGoto: watchTableBuilds });
    const started = await page.evaluate(() => ({
      calls: [...(globalThis.tableCalls ?? [])],
      note: document.querySelector("#shuffle-note").textContent,
      difficulty: Number(document.querySelector("#difficulty").value),
      state: document.querySelector("#board").state,
    }));
    assert.deepEqual(started.calls.filter((call) => !call.ready), [], "a table was built before the page was ready");
    assert.equal(started.note, `Shuffled to exactly ${started.difficulty} moves from the goal.`);
    assert.equal(`${started.state.rows}x${started.state.cols}`, "3x3");
    assert.equal(await optimalLength(page, 3, 3, started.state.start), started.difficulty);
    assert.deepEqual(page.errors, []);
  });

  test("a widget given no start is ready before any table is built, exactly 12 moves from its goal; shuffle() stays exact", options, async () => {
    const page = await session.newWidgetPage(WIDGET_PAGE, {}, {
      beforeGoto: async (page) => {
        await watchTableBuilds(page);
        await page.route(`**${WIDGET_PAGE}`, (route) =>
          route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><meta charset="utf-8"><title>widget</title><script type="module" src="./widget.js"></script><puzzle-widget id="w" size="3"></puzzle-widget>`,
          }),
        );
      },
    });
    const calls = await page.evaluate(() => [...(globalThis.tableCalls ?? [])]);
    assert.deepEqual(calls.filter((call) => !call.ready), [], "a table was built before the widget was ready");
    const state = await page.evaluate(() => document.querySelector("#w").state);
    assert.equal(await optimalLength(page, 3, 3, state.start), 12);
    // The method builds the table and draws the position from it, as before.
    const shuffled = await page.evaluate(() => {
      const widget = document.querySelector("#w");
      return { mode: widget.shuffle(20), start: widget.state.start };
    });
    assert.equal(shuffled.mode, "exact");
    assert.equal(await optimalLength(page, 3, 3, shuffled.start), 20);
    assert.deepEqual(page.errors, []);
  });
});

/**
 * Before the page loads: window.cardAtReady records, at the moment the page says it is ready,
 * whether its deep Q-learning card was set up then (data-learn-ready, or any of its controls).
 */
async function watchCardAtReady(page) {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.documentElement?.dataset.ready !== "true") return;
      const section = document.querySelector("#dqn");
      globalThis.cardAtReady = { learnReady: section?.dataset.learnReady ?? null, controls: section?.querySelectorAll("button, select, input").length ?? null };
      observer.disconnect();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  });
}

/** The card's shipped-model menu: its options' values and texts, and the value chosen. */
function shippedMenu(page) {
  return page.evaluate(() => {
    const select = document.querySelector("#dqn-shipped");
    return { values: Array.from(select.options, (option) => option.value), texts: Array.from(select.options, (option) => option.textContent), value: select.value };
  });
}

describe("the deep Q-learning card is set up after the page is ready", () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  test("ready with the card not yet set up; then its Train and Load controls work on the board of the link, and a shipped model is chosen", options, async () => {
    const start = "5,1,2,3,_,6,7,4,9,10,11,8,13,14,15,12";
    const page = await session.newPage(`#size=4x4&start=${start}`, {}, { beforeGoto: watchCardAtReady });
    assert.deepEqual(await page.evaluate(() => globalThis.cardAtReady), { learnReady: null, controls: 0 }, "the card was set up before the page was ready");
    await waitForLearnCard(page);
    for (const id of ["start", "pause", "stop", "save", "load", "load-shipped", "solve", "evaluate"]) {
      assert.ok(await page.locator(`#dqn-${id}`).count(), `#dqn-${id} is there`);
    }
    assert.ok(await page.locator("#dqn-start").isEnabled(), "Train can be pressed");
    // The board of the link is the card's: the 15-puzzle models are offered, and one is chosen.
    await page.waitForFunction(() => document.querySelector("#dqn-shipped").options.length === 2);
    assert.deepEqual((await shippedMenu(page)).values, ["15puzzle.dqn", "15puzzle-values.dqn"]);
    await page.selectOption("#dqn-shipped", "15puzzle-values.dqn");
    assert.equal((await shippedMenu(page)).value, "15puzzle-values.dqn");
    assert.ok(await page.locator("#dqn-load-shipped").isEnabled(), "the chosen model can be loaded");
    assert.equal(await page.locator("#dqn-fit").textContent(), "");
    assert.deepEqual(page.errors, []);
  });

  test("while the card's module is held back the board plays and changes; the card then follows the board it finds and later changes", options, async () => {
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const page = await session.newPage("#size=3x3&start=1,2,3,4,5,6,_,7,8", {}, {
      beforeGoto: (page) =>
        page.route("**/www/sliding/train-panel.js", async (route) => {
          await held;
          await route.continue();
        }),
    });
    // Playable: a tile beside the gap slides, and another size can be chosen.
    const board = await readBoard(page);
    await clickCell(page, board.model.indexOf(0) + 1);
    assert.equal((await readBoard(page)).moves, board.moves + 1, "a move is played");
    await page.selectOption("#size", "2x3");
    assert.equal((await readBoard(page)).cols, 3);
    assert.equal(await page.evaluate(() => document.querySelector("#dqn").dataset.learnReady ?? null), null, "the card waits for its module");

    release();
    await waitForLearnCard(page);
    await page.waitForFunction(() => document.querySelector("#dqn-shipped").options[0]?.textContent === "None for 2 × 3 boards");
    assert.match(await page.locator("#dqn-fit").textContent(), /^No shipped model fits this 2 × 3 board/);
    await page.selectOption("#size", "3x3");
    await page.waitForFunction(() => document.querySelector("#dqn-shipped").options[0]?.value === "8puzzle.dqn");
    assert.deepEqual(await shippedMenu(page), { values: ["8puzzle.dqn"], texts: ["8-puzzle · full backups"], value: "8puzzle.dqn" });
    assert.ok(await page.locator("#dqn-load-shipped").isEnabled());
    assert.deepEqual(page.errors, []);
  });
});
