// Minesweeper in the page (www/minesweeper.html): clicks reveal what the Rust rules say (checked
// against a MinesGame replaying the same seed), right clicks and F flag, the counter follows the
// flags, the probability overlay colours every covered cell with the solver's probability (equal to
// MinesGame.analyse), the hint rings a cell and says why, the solver plays
// a game to its end, a no-guess board is won by certain hints alone, and a bad custom size or
// board text is refused with a message while the game stays. Screenshot: target/screenshots/minesweeper.png.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, screenshotPath, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const PAGE = "/www/minesweeper.html";

async function openMines(session, hash) {
  const page = await session.open(PAGE + hash);
  await waitForApp(page);
  return page;
}

/** The board as the DOM shows it: per cell its text and classes, plus the bar. */
async function readBoard(page) {
  return page.evaluate(() => {
    const board = document.querySelector("#game");
    const root = board.shadowRoot;
    const cells = [...root.querySelectorAll(".cell")].map((cell) => ({
      text: cell.firstChild?.nodeType === 3 ? cell.firstChild.textContent : "",
      className: cell.className,
      p: cell.dataset.p === undefined ? null : Number(cell.dataset.p),
      label: cell.getAttribute("aria-label"),
    }));
    return {
      cells,
      codes: Array.from(board.game.cells()),
      status: board.getAttribute("status"),
      counter: root.querySelector(".counter").textContent,
      face: root.querySelector(".face").textContent,
      width: board.game.width,
    };
  });
}

/** Clicks cell `cell` of the board (a real mouse click on its button). */
async function clickCell(page, cell, button = "left") {
  await page.locator("#game").locator(`.cell[data-cell="${cell}"]`).click({ button });
}

describe("Minesweeper in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("clicks reveal what the rules say, flags count down, keys move, flag and reveal", options, async () => {
    const page = await openMines(session, "#seed=5&level=beginner&first-click=safe");
    let board = await readBoard(page);
    assert.equal(board.cells.length, 81);
    assert.equal(board.status, "ready");
    assert.equal(board.counter, "10");
    await clickCell(page, 40);
    board = await readBoard(page);
    // The same seed and first click in a fresh handle give the same board.
    const expected = await page.evaluate(async () => {
      const api = await import("../pkg/puzzlelab.js");
      const game = new api.MinesGame(9, 9, 10, "safe", 5, false);
      game.reveal(40);
      const cells = Array.from(game.cells());
      game.free();
      return cells;
    });
    assert.deepEqual(board.codes, expected);
    assert.equal(board.status, "playing");
    assert.ok(board.codes.filter((c) => c <= 8).length >= 1);
    board.codes.forEach((code, i) => {
      const shown = board.cells[i];
      if (code >= 1 && code <= 8) assert.equal(shown.text, String(code), `cell ${i}`);
      if (code === 0) assert.equal(shown.text, "", `cell ${i}`);
      if (code === 9) assert.match(shown.className, /covered/);
    });
    // Right click flags a covered cell; the counter says 9; right click again removes it.
    const covered = board.codes.findIndex((c) => c === 9);
    await clickCell(page, covered, "right");
    board = await readBoard(page);
    assert.equal(board.codes[covered], 10);
    assert.equal(board.cells[covered].text, "⚑");
    assert.equal(board.counter, "9");
    await clickCell(page, covered, "right");
    assert.equal((await readBoard(page)).codes[covered], 9);
    // Keys: the cursor is where the last click was (cell 40); arrows move it, F flags, space reveals.
    await page.locator("#game").focus();
    const cursorCell = () => page.evaluate(() => Number(document.querySelector("#game").shadowRoot.querySelector(".cursor")?.dataset.cell));
    assert.equal(await cursorCell(), 40);
    /** Moves the cursor to `target` with the arrow keys. */
    const moveTo = async (target) => {
      const [from, width] = [await cursorCell(), 9];
      const dx = (target % width) - (from % width);
      const dy = Math.floor(target / width) - Math.floor(from / width);
      for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? "ArrowRight" : "ArrowLeft");
      for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? "ArrowDown" : "ArrowUp");
      assert.equal(await cursorCell(), target);
    };
    await moveTo(covered);
    await page.keyboard.press("f");
    assert.equal((await readBoard(page)).codes[covered], 10);
    await page.keyboard.press("F");
    assert.equal((await readBoard(page)).codes[covered], 9);
    const safe = await page.evaluate(() => document.querySelector("#game").game.analyse().safe);
    if (safe.length > 0) {
      await moveTo(safe[0]);
      await page.keyboard.press(" ");
      const code = (await readBoard(page)).codes[safe[0]];
      assert.ok(code <= 8, `space revealed cell ${safe[0]}: ${code}`);
    }
    assert.deepEqual(page.errors, []);
  });

  test("the overlay shows the solver's probabilities; the hint rings a cell and says why; the solver plays to the end", options, async () => {
    const page = await openMines(session, "#seed=11&level=expert&first-click=safe");
    await clickCell(page, 0);
    await page.check("#overlay");
    const board = await readBoard(page);
    const analysis = await page.evaluate(() => {
      const a = document.querySelector("#game").game.analyse();
      return { probabilities: Array.from(a.probabilities), safe: a.safe };
    });
    let coloured = 0;
    board.codes.forEach((code, i) => {
      const shown = board.cells[i];
      if (code >= 9) {
        coloured++;
        assert.ok(Math.abs(shown.p - analysis.probabilities[i]) < 1e-12, `cell ${i}: ${shown.p} vs ${analysis.probabilities[i]}`);
        assert.match(shown.label, /mine probability \d/);
      } else {
        assert.equal(shown.p, null);
      }
    });
    assert.ok(coloured > 300, `${coloured} covered cells coloured`);
    const ms = await page.evaluate(() => document.querySelector("#game").lastOverlayMs);
    assert.ok(ms > 0, "the overlay's time is measured");
    // Hover shows the number.
    const somewhere = board.codes.findIndex((c) => c === 9);
    await page.locator("#game").locator(`.cell[data-cell="${somewhere}"]`).hover();
    const tip = await page.evaluate((cell) => {
      const tipElement = document.querySelector("#game").shadowRoot.querySelector(`.cell[data-cell="${cell}"] .p`);
      return { text: tipElement.textContent, visible: getComputedStyle(tipElement).display !== "none" };
    }, somewhere);
    assert.ok(tip.visible);
    assert.match(tip.text, /^\d+(\.\d)?%$/);

    await page.click("#hint");
    const hint = await page.evaluate(() => ({
      ringed: document.querySelector("#game").shadowRoot.querySelector(".cell.hint")?.dataset.cell,
      status: document.querySelector("#solver-status").textContent,
    }));
    assert.ok(hint.ringed !== undefined, "a cell is ringed");
    assert.match(hint.status, /certainly safe|best guess/);
    await page.screenshot({ path: await screenshotPath("minesweeper.png") });

    // The solver plays (at the fastest speed) until the game ends.
    await page.locator("#speed").evaluate((input) => {
      input.value = "6";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await page.click("#solver-play");
    await page.waitForFunction(() => ["won", "lost"].includes(document.querySelector("#game").getAttribute("status")), null, { timeout: 45_000 });
    const end = await readBoard(page);
    assert.equal(end.face, end.status === "won" ? "☻" : "☹");
    if (end.status === "lost") assert.ok(end.cells.some((c) => c.text === "✹"), "the mines are shown");
    assert.match(await page.locator("#solver-status").textContent(), /cleared the board|hit a mine/);
    assert.deepEqual(page.errors, []);
  });

  test("a no-guess board is drawn at the first click and cleared by certain hints alone", options, async () => {
    const page = await openMines(session, "#seed=3&level=intermediate&first-click=opening&no-guess=1");
    assert.equal(await page.isChecked("#no-guess"), true);
    await clickCell(page, 17);
    const status = await page.locator("#board-status").textContent();
    assert.match(status, /No-guess board found in \d+ ms \(\d+ boards? drawn\)/);
    const reasons = await page.evaluate(() => {
      const board = document.querySelector("#game");
      const seen = [];
      while (board.game.status === "playing") {
        const hint = board.game.hint();
        seen.push(hint.reason);
        board.reveal(hint.cell, "test");
      }
      return { seen, status: board.game.status };
    });
    assert.equal(reasons.status, "won");
    assert.ok(reasons.seen.every((r) => r === "certain"), JSON.stringify(reasons.seen));
    assert.deepEqual(page.errors, []);
  });

  test("a custom size that does not fit or a bad board text is refused with a message and the game stays", options, async () => {
    const page = await openMines(session, "#seed=9&level=beginner");
    await clickCell(page, 0);
    const before = await readBoard(page);
    await page.selectOption("#level", "custom");
    // Changing the level starts a custom game with the fields' values (30 × 16, 99 mines).
    await page.fill("#width", "5");
    await page.fill("#height", "5");
    await page.fill("#mines", "30");
    await page.locator("#mines").dispatchEvent("change");
    const error = await page.locator("#board-error").textContent();
    assert.match(error, /30 mines do not fit on 5 × 5/);
    const afterRefusal = await readBoard(page);
    assert.equal(afterRefusal.cells.length, 16 * 30, "the last valid game stays");
    assert.notEqual(before.cells.length, afterRefusal.cells.length);
    await page.fill("#mines", "5");
    await page.locator("#mines").dispatchEvent("change");
    assert.equal(await page.locator("#board-error").isVisible(), false);
    assert.equal((await readBoard(page)).cells.length, 25);

    // A board from text: a wrong character or a number its mines contradict is explained and the
    // game stays; a good text is shown, mines where the stars are.
    await page.click(".board-text summary");
    for (const [text, message] of [
      ["..1*\n..x1\n", /unexpected character 'x' at row 2, column 3/],
      ["..2*\n..11\n", /the 2 at row 1, column 3 has 1 mines around it/],
      ["..1*\n..1\n", /row 2 has 3 cells, row 1 has 4/],
    ]) {
      await page.fill("#board-text", text);
      await page.click("#apply-text");
      assert.match(await page.locator("#board-error").textContent(), message);
      assert.equal((await readBoard(page)).cells.length, 25, "the game stays");
    }
    await page.fill("#board-text", "..1*\n..11\n....\n");
    await page.click("#apply-text");
    assert.equal(await page.locator("#board-error").isVisible(), false);
    const fromText = await readBoard(page);
    assert.deepEqual([fromText.cells.length, fromText.counter, fromText.status], [12, "1", "playing"]);
    assert.equal(fromText.cells[2].text, "1");
    const hint = await page.evaluate(() => document.querySelector("#game").game.hint());
    assert.equal(hint.reason, "certain", "the 1s prove cells safe");
    assert.deepEqual(page.errors, []);
  });
});

describe('<puzzle-widget puzzle="minesweeper">', () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("plays the seed's board, hints, lets its solver play, and reports a bad attribute without losing the game", options, async () => {
    const page = await session.newWidgetPage("/www/embed.html");
    await page.evaluate(async () => {
      window.minesEvents = [];
      const widget = document.createElement("puzzle-widget");
      widget.id = "mines";
      for (const [name, value] of Object.entries({ puzzle: "minesweeper", level: "beginner", seed: "7", speed: "60", overlay: "" })) {
        widget.setAttribute(name, value);
      }
      for (const type of ["move", "won", "lost", "error"]) {
        widget.addEventListener(type, (event) => window.minesEvents.push({ type, detail: JSON.parse(JSON.stringify(event.detail)) }));
      }
      document.body.prepend(widget);
      await widget.ready;
    });
    const state = () => page.evaluate(() => document.getElementById("mines").state);
    let shown = await state();
    assert.equal(shown.puzzle, "minesweeper");
    assert.deepEqual([shown.width, shown.height, shown.mines, shown.seed, shown.status], [9, 9, 10, 7, "ready"]);

    // A click reveals what a MinesGame of the same seed reveals; the move event says so.
    await page.locator("#mines >> mines-board >> .cell[data-cell='40']").click();
    const expected = await page.evaluate(async () => {
      const api = await import("../pkg/puzzlelab.js");
      const game = new api.MinesGame(9, 9, 10, "safe", 7, false);
      game.reveal(40);
      const cells = Array.from(game.cells());
      game.free();
      return cells;
    });
    shown = await state();
    assert.deepEqual(shown.cells, expected);
    const move = await page.evaluate(() => window.minesEvents.find((e) => e.type === "move"));
    assert.deepEqual([move.detail.action, move.detail.cell, move.detail.source], ["reveal", 40, "user"]);
    // The overlay attribute colours the covered cells.
    const coloured = await page.evaluate(() => document.getElementById("mines").board.shadowRoot.querySelectorAll(".cell[data-p]").length);
    assert.equal(coloured, shown.cells.filter((c) => c >= 9).length);

    // hint() resolves to the solver's cell; play() lets the solver finish the game.
    const hint = await page.evaluate(() => document.getElementById("mines").hint());
    assert.ok(shown.cells[hint.cell] >= 9 && ["certain", "guess"].includes(hint.reason), JSON.stringify(hint));
    await page.evaluate(() => document.getElementById("mines").play());
    await page.waitForFunction(() => ["won", "lost"].includes(document.getElementById("mines").state.status), null, { timeout: 30_000 });
    shown = await state();
    const ends = await page.evaluate(() => window.minesEvents.filter((e) => e.type === "won" || e.type === "lost").map((e) => e.type));
    assert.deepEqual(ends, [shown.status]);

    // A mine count that does not fit: the error is shown and fired, the game stays.
    await page.evaluate(() => document.getElementById("mines").setAttribute("mines", "200"));
    await page.waitForFunction(() => window.minesEvents.some((e) => e.type === "error"));
    const error = await page.evaluate(() => window.minesEvents.find((e) => e.type === "error").detail);
    assert.equal(error.attribute, "mines");
    assert.match(error.message, /200 mines do not fit on 9 × 9/);
    assert.deepEqual((await state()).cells, shown.cells);
    const errorText = await page.evaluate(() => document.getElementById("mines").shadowRoot.querySelector(".error").textContent);
    assert.match(errorText, /do not fit/);

    // A valid change starts a new game of that size; setState shows a board text.
    await page.evaluate(() => {
      const widget = document.getElementById("mines");
      widget.setAttribute("mines", "5");
      widget.setAttribute("width", "6");
    });
    await page.waitForFunction(() => document.getElementById("mines").state.width === 6);
    assert.deepEqual([(await state()).mines, (await state()).status], [5, "ready"]);
    await page.evaluate(() => document.getElementById("mines").setState("*1.\n11.\n...\n"));
    shown = await state();
    assert.deepEqual([shown.width, shown.height, shown.mines, shown.status], [3, 3, 1, "playing"]);
    const bad = await page.evaluate(() => {
      try {
        document.getElementById("mines").setState("*9.\n");
        return null;
      } catch (e) {
        return e.message;
      }
    });
    assert.match(bad, /unexpected character '9'|has 0 mines around it|board text/);
    assert.deepEqual((await state()).width, 3, "a bad board text leaves the game");

    // Switching to a sliding puzzle and back: each works; Minesweeper keeps its game, and a new
    // game follows the attributes.
    await page.evaluate(() => document.getElementById("mines").setAttribute("puzzle", "sliding"));
    await page.waitForFunction(() => document.getElementById("mines").state?.rows === 3);
    await page.evaluate(() => document.getElementById("mines").setAttribute("puzzle", "minesweeper"));
    await page.waitForFunction(() => document.getElementById("mines").state?.puzzle === "minesweeper");
    assert.equal((await state()).width, 3);
    await page.evaluate(() => document.getElementById("mines").newGame(7));
    shown = await state();
    assert.deepEqual([shown.width, shown.height, shown.mines, shown.seed, shown.status], [6, 9, 5, 7, "ready"]);
    assert.deepEqual(page.errors, []);
  });
});
