// Minesweeper in the page (www/minesweeper.html): clicks reveal what the Rust rules say (checked
// against a MinesGame replaying the same seed), right clicks and F flag, the counter follows the
// flags, the probability overlay colours every covered cell with the solver's probability (equal to
// MinesGame.analyse), the hint rings a cell and says why, the solver plays
// a game to its end, a no-guess board is won by certain hints alone, and a bad custom size or
// board text is refused with a message while the game stays. The page opens on beginner with the
// "opening" rule and remembers the player's choice of level, custom size and rule (the URL wins);
// every board size fits its card or scrolls inside it at 1280 × 900 and on a 390 px phone; a won
// game shows every mine flagged and 0 mines left. Screenshots: target/screenshots/minesweeper*.png.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, screenshotPath, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const PAGE = "/www/minesweeper.html";

async function openMines(session, hash, contextOptions = {}) {
  const page = await session.open(PAGE + hash, contextOptions);
  await waitForApp(page);
  return page;
}

/** Loads the page again in the same tab (and so with the same localStorage), with `hash`. */
async function reopen(session, page, hash = "") {
  // By way of a blank page: from one hash to another would not load the page again.
  await page.goto("about:blank");
  await page.goto(new URL(PAGE + hash, session.url).href);
  await waitForApp(page);
}

/** The board card's settings and the game shown. */
function readSettings(page) {
  return page.evaluate(() => {
    const game = document.querySelector("#game").game;
    return {
      level: document.querySelector("#level").value,
      rule: document.querySelector("#first-click").value,
      custom: document.querySelector("#custom").hidden ? null : ["#width", "#height", "#mines"].map((id) => document.querySelector(id).value),
      game: [game.width, game.height, game.mines],
      hash: location.hash,
    };
  });
}

/**
 * Where the board sits: the card's and the scrolling box's edges (`visibleRight`: the right edge
 * of what the box shows), how far the board scrolls sideways, the first cell's width, the boxes of
 * the last column's cells, whether the top one is what a tap on its centre hits, and the line that
 * says which columns are in view (null while hidden) and whether it is on the screen.
 */
function measureBoard(page) {
  return page.evaluate(() => {
    const board = document.querySelector("#game");
    const root = board.shadowRoot;
    const scroll = root.querySelector(".scroll");
    const { width, height } = board.game;
    const box = (element) => {
      const { left, right, top, bottom, width } = element.getBoundingClientRect();
      return { left, right, top, bottom, width };
    };
    const cells = [...root.querySelectorAll(".cell")];
    const lastColumn = Array.from({ length: height }, (_, row) => cells[row * width + width - 1]);
    const corner = box(lastColumn[0]);
    const more = root.querySelector(".more");
    return {
      width,
      viewport: innerWidth,
      card: box(document.querySelector(".mines-card")),
      scroll: { ...box(scroll), visibleRight: box(scroll).left + scroll.clientWidth },
      overflow: scroll.scrollWidth - scroll.clientWidth,
      cell: box(cells[0]).width,
      lastColumn: lastColumn.map(box),
      hit: root.elementFromPoint((corner.left + corner.right) / 2, (corner.top + corner.bottom) / 2) === lastColumn[0],
      more: more.hidden ? null : more.textContent,
      moreInView: more.getBoundingClientRect().top >= 0 && more.getBoundingClientRect().bottom <= innerHeight,
    };
  });
}

/** Asserts that every cell of the board's last column is in view inside the card (`where` names the case). */
function assertLastColumnShown(shown, where) {
  for (const [row, cell] of shown.lastColumn.entries()) {
    const inside = cell.left >= shown.scroll.left - 0.5 && cell.right <= shown.scroll.visibleRight + 0.5;
    assert.ok(inside, `${where}: row ${row + 1} of the last column (${cell.left}–${cell.right}) is out of the board's box (${shown.scroll.left}–${shown.scroll.visibleRight})`);
    assert.ok(cell.right <= shown.card.right && cell.right <= shown.viewport, `${where}: row ${row + 1} of the last column ends at ${cell.right}, the card at ${shown.card.right}`);
  }
  assert.ok(shown.hit, `${where}: a tap on the last column's top cell hits it`);
}

/** Board sizes for the layout tests: the three levels and the largest custom board. */
const SIZES = {
  beginner: "level=beginner",
  intermediate: "level=intermediate",
  expert: "level=expert",
  "50 × 50": "level=custom&width=50&height=50&mines=300",
};

/**
 * Opens every board of SIZES on `screen` ({ name, contextOptions, tap, fits, shots }) and checks
 * that the page never scrolls sideways and the cells are at least 24 px; that the boards of
 * `screen.fits` fit their card; that the others scroll inside it, with the line over them, until
 * the last column shows; and that a first click (a tap with `screen.tap`) near the last column
 * reveals. The boards of `screen.shots` are photographed (minesweeper-<screen>-<size>.png).
 */
async function checkSizes(session, screen) {
  const page = await openMines(session, "", screen.contextOptions);
  for (const [size, hash] of Object.entries(SIZES)) {
    const where = `${size} at ${screen.name} px`;
    await reopen(session, page, `#seed=2&${hash}&first-click=opening`);
    // The page itself never scrolls sideways (once the cards below have their styles).
    await page.waitForFunction(() => document.documentElement.scrollWidth <= innerWidth);
    let shown = await measureBoard(page);
    assert.ok(shown.cell >= 24, `${where}: cells of ${shown.cell} px are big enough to tap`);
    assert.ok(shown.scroll.left >= shown.card.left && shown.scroll.right <= shown.card.right, `${where}: the board's box is inside its card`);
    assert.ok(shown.card.right <= shown.viewport, `${where}: the card ends at ${shown.card.right}, the screen at ${shown.viewport}`);
    if (screen.fits.includes(size)) {
      assert.ok(shown.overflow <= 0, `${where}: the board does not scroll (${shown.overflow} px)`);
      assert.equal(shown.more, null, `${where}: no line about scrolling`);
    } else {
      // Wider than its card: it scrolls, the line over it says so (on the screen as the page
      // opens), and at the end of the scroll the last column is in view inside the card.
      assert.ok(shown.overflow > 0, `${where}: the board scrolls`);
      assert.match(shown.more, new RegExp(`^Columns 1–\\d+ of ${shown.width} in view: scroll the board sideways`));
      assert.ok(shown.moreInView, `${where}: the line about scrolling is on the screen`);
      await page.evaluate(() => {
        const scroll = document.querySelector("#game").shadowRoot.querySelector(".scroll");
        scroll.scrollLeft = scroll.scrollWidth;
      });
      await page.waitForFunction(
        (width) => document.querySelector("#game").shadowRoot.querySelector(".more").textContent.includes(`–${width} of ${width} in view`),
        shown.width,
      );
      shown = await measureBoard(page);
    }
    assertLastColumnShown(shown, where);
    // A first click (a tap on the phone) near the last column opens the board there.
    const cell = page.locator("#game").locator(`.cell[data-cell="${4 * shown.width - 4}"]`);
    await (screen.tap ? cell.tap() : cell.click());
    assert.notEqual(await page.evaluate(() => document.querySelector("#game").getAttribute("status")), "ready", `${where}: the click reveals`);
    if (screen.shots.includes(size)) {
      await page.screenshot({ path: await screenshotPath(`minesweeper-${screen.name}-${size.replace(" × ", "x")}.png`) });
    }
  }
  assert.deepEqual(page.errors, []);
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
    // Keys: the cursor is where the last press was (the right click's cell); arrows move it, F
    // flags, space reveals. One ring shows where the keys act: the cell the mouse pressed (it has
    // the page's focus) draws none of its own once the cursor moves on.
    await page.locator("#game").focus();
    const cursorCell = () => page.evaluate(() => Number(document.querySelector("#game").shadowRoot.querySelector(".cursor")?.dataset.cell));
    assert.equal(await cursorCell(), covered);
    await page.keyboard.press(covered % 9 === 8 ? "ArrowLeft" : "ArrowRight");
    const rings = await page.evaluate(() =>
      [...document.querySelector("#game").shadowRoot.querySelectorAll(".cell")].flatMap((cell) => (getComputedStyle(cell).outlineStyle === "none" ? [] : [Number(cell.dataset.cell)])),
    );
    assert.deepEqual(rings, [await cursorCell()], "one ring, the cursor's");
    await clickCell(page, 40);
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
    // A screen reader hears where the cursor is and what each key did (the board's live region).
    const said = () => page.evaluate(() => document.querySelector("#game").shadowRoot.querySelector("[role=status]").textContent);
    const name = (cell) => `row ${Math.floor(cell / 9) + 1}, column ${(cell % 9) + 1}`;
    assert.equal(await said(), `${name(covered)}: covered`);
    await page.keyboard.press("f");
    assert.equal((await readBoard(page)).codes[covered], 10);
    assert.equal(await said(), `${name(covered)}: flagged. 9 mines left.`);
    await page.keyboard.press("F");
    assert.equal((await readBoard(page)).codes[covered], 9);
    const safe = await page.evaluate(() => document.querySelector("#game").game.analyse().safe);
    if (safe.length > 0) {
      await moveTo(safe[0]);
      await page.keyboard.press(" ");
      const code = (await readBoard(page)).codes[safe[0]];
      assert.ok(code <= 8, `space revealed cell ${safe[0]}: ${code}`);
      assert.match(await said(), new RegExp(`^${name(safe[0])}: (${code}|empty)(; \\d+ cells opened)?\\.$`));
    }
    assert.deepEqual(page.errors, []);
  });

  test("a reload carries the game on: its cells, flags and timer; a game that is over is not kept", options, async () => {
    const page = await openMines(session, "#seed=5&level=beginner&first-click=safe");
    await clickCell(page, 40);
    let board = await readBoard(page);
    const covered = board.codes.findIndex((c) => c === 9);
    await clickCell(page, covered, "right");
    await page.waitForFunction(() => document.querySelector("#game").seconds >= 2);
    const before = await readBoard(page);
    const seconds = await page.evaluate(() => document.querySelector("#game").seconds);
    await page.reload();
    await waitForApp(page);
    board = await readBoard(page);
    assert.deepEqual([board.codes, board.counter, board.status], [before.codes, before.counter, "playing"], "the same game, its flag counted");
    const timer = await page.evaluate(() => Number(document.querySelector("#game").shadowRoot.querySelector(".timer").textContent));
    assert.ok(timer >= seconds, `the timer goes on (${timer} s after ${seconds} s)`);
    // It plays on: the flag comes off, and the solver's safe cell reveals.
    await clickCell(page, covered, "right");
    assert.equal((await readBoard(page)).codes[covered], 9);
    const safe = await page.evaluate(() => document.querySelector("#game").game.analyse().safe);
    if (safe.length > 0) {
      await clickCell(page, safe[0]);
      assert.ok((await readBoard(page)).codes[safe[0]] <= 8);
    }
    // A link followed on the open page: its game; Back brings the game left back, timer and all.
    const left = await readBoard(page);
    const leftSeconds = await page.evaluate(() => document.querySelector("#game").seconds);
    await page.evaluate(() => (location.hash = "#seed=9&level=intermediate&first-click=safe"));
    await page.waitForFunction(() => document.querySelector("#game").game.width === 16);
    assert.match(await page.locator("#seed-line").textContent(), /^Board seed 9 /);
    assert.equal((await readBoard(page)).status, "ready");
    await page.goBack();
    await page.waitForFunction(() => document.querySelector("#game").game.width === 9);
    const returned = await readBoard(page);
    assert.deepEqual([returned.codes, returned.status], [left.codes, "playing"], "Back: the game left, as it was");
    assert.ok((await page.evaluate(() => document.querySelector("#game").seconds)) >= leftSeconds, "its timer goes on");
    assert.equal(await page.locator("#level").inputValue(), "beginner");
    await page.goForward();
    await page.waitForFunction(() => document.querySelector("#game").game.width === 16);
    assert.equal((await readBoard(page)).status, "ready");
    await clickCell(page, 40);

    // With "?" marks on: a "?" comes back with the game, and so does the option (remembered).
    await page.check("#question-marks");
    const questioned = (await readBoard(page)).codes.findIndex((c) => c === 9);
    await clickCell(page, questioned, "right");
    await clickCell(page, questioned, "right");
    assert.equal((await readBoard(page)).codes[questioned], 11);
    await page.reload();
    await waitForApp(page);
    assert.equal((await readBoard(page)).codes[questioned], 11);
    assert.ok(await page.isChecked("#question-marks"), "the option is remembered");
    await clickCell(page, questioned, "right");
    assert.equal((await readBoard(page)).codes[questioned], 9, "a \"?\" clears on the next right click");

    // Over (the likeliest mine revealed until a mine goes off, or the board is cleared): the next
    // load is a new game of the same board.
    for (let tries = 0; tries < 81 && (await readBoard(page)).status === "playing"; tries++) {
      const likeliest = await page.evaluate(() => {
        const game = document.querySelector("#game").game;
        const { probabilities } = game.analyse();
        const cells = game.cells();
        let best = -1;
        cells.forEach((code, cell) => {
          if (code === 9 && (best < 0 || probabilities[cell] > probabilities[best])) best = cell;
        });
        return best;
      });
      await clickCell(page, likeliest);
    }
    assert.ok(["lost", "won"].includes((await readBoard(page)).status));
    await page.reload();
    await waitForApp(page);
    assert.equal((await readBoard(page)).status, "ready");
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
    else assert.equal(end.counter, "0", "a won game has no mine left");
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
    // Won: every mine (every cell still covered) shows a flag, and no mine is left.
    const won = await readBoard(page);
    assert.equal(won.counter, "0");
    const covered = won.codes.flatMap((code, i) => (code >= 9 ? [i] : []));
    assert.equal(covered.length, 40);
    for (const i of covered) assert.deepEqual([won.cells[i].text, won.cells[i].label], ["⚑", `row ${Math.floor(i / 16) + 1}, column ${(i % 16) + 1}: flagged`]);
    assert.deepEqual(page.errors, []);
  });

  test("a link without a seed followed on the page starts its level's game; one no game takes is explained, and the card and address stay with the game", options, async () => {
    const page = await openMines(session, "#seed=9&level=custom&width=20&height=12&mines=40&first-click=safe");
    assert.equal((await readBoard(page)).cells.length, 20 * 12);
    await page.evaluate(() => (location.hash = "#level=expert"));
    await page.waitForFunction(() => document.querySelector("#game").game.width === 30);
    assert.equal(await page.locator("#level").inputValue(), "expert");
    assert.match(await page.evaluate(() => location.hash), /^#seed=\d+&level=expert&/, "the address names the new game");
    const hash = await page.evaluate(() => location.hash);
    await page.evaluate(() => (location.hash = "#level=custom&width=999&height=9&mines=10"));
    await page.locator("#board-error").waitFor({ state: "visible" });
    assert.match(await page.locator("#board-error").textContent(), /999/);
    assert.equal((await readBoard(page)).cells.length, 30 * 16, "the game stays");
    assert.equal(await page.locator("#level").inputValue(), "expert", "the card says the game shown");
    assert.equal(await page.evaluate(() => location.hash), hash, "and so does the address");
    assert.deepEqual(page.errors, []);
  });

  test("a custom size that does not fit or a bad board text is refused with a message and the game stays", options, async () => {
    const page = await openMines(session, "#seed=9&level=beginner&first-click=safe");
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

  test("opens on beginner with the opening rule, remembers the player's level, custom size and rule, and the URL wins", options, async () => {
    const page = await openMines(session, "");
    let settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.custom, settings.game], ["beginner", "opening", null, [9, 9, 10]]);
    // The first click opens: no mine on it or around it, so it is a 0 and its 3 × 3 is revealed,
    // as a MinesGame of the page's seed under the "opening" rule reveals.
    await clickCell(page, 40);
    const board = await readBoard(page);
    for (const cell of [30, 31, 32, 39, 40, 41, 48, 49, 50]) assert.ok(board.codes[cell] <= 8, `cell ${cell} is revealed`);
    assert.equal(board.codes[40], 0);
    const seed = Number(new URLSearchParams(settings.hash.slice(1)).get("seed"));
    const expected = await page.evaluate(async (seed) => {
      const api = await import("../pkg/puzzlelab.js");
      const game = new api.MinesGame(9, 9, 10, "opening", seed, false);
      game.reveal(40);
      const cells = Array.from(game.cells());
      game.free();
      return cells;
    }, seed);
    assert.deepEqual(board.codes, expected);

    // The player's choice comes back on the next visit.
    await page.selectOption("#level", "expert");
    await page.selectOption("#first-click", "none");
    await reopen(session, page);
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.game], ["expert", "none", [30, 16, 99]]);
    await page.selectOption("#level", "custom");
    await page.fill("#width", "12");
    await page.fill("#height", "10");
    await page.fill("#mines", "20");
    await page.locator("#mines").dispatchEvent("change");
    await reopen(session, page);
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.custom, settings.game], ["custom", "none", ["12", "10", "20"], [12, 10, 20]]);
    // A custom game's link holds its size.
    assert.match(settings.hash, /^#seed=\d+&level=custom&width=12&height=10&mines=20&first-click=none$/);

    // A link's settings win, and opening it does not change what is remembered.
    await reopen(session, page, "#seed=42&level=intermediate&first-click=safe");
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.game], ["intermediate", "safe", [16, 16, 40]]);
    assert.match(await page.locator("#seed-line").textContent(), /^Board seed 42 /);
    await reopen(session, page, "#seed=4&level=custom&width=8&height=7&mines=6&first-click=safe");
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.custom, settings.game], ["custom", "safe", ["8", "7", "6"], [8, 7, 6]]);
    // A linked size that no game takes: beginner instead, and why.
    await reopen(session, page, "#seed=4&level=custom&width=51&height=7&mines=6&first-click=safe");
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.game], ["beginner", "safe", [9, 9, 10]]);
    assert.match(await page.locator("#board-error").textContent(), /not 51 × 7\b.* A beginner game instead\.$/);
    await reopen(session, page);
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.game], ["custom", "none", [12, 10, 20]]);

    // A remembered size that no game takes falls back to beginner and says why; unreadable
    // storage leaves the defaults.
    await page.evaluate(() =>
      localStorage.setItem("puzzlelab-minesweeper-settings", JSON.stringify({ level: "custom", rule: "safe", width: "5", height: "5", mines: "30" })),
    );
    await reopen(session, page);
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.game], ["beginner", "safe", [9, 9, 10]]);
    assert.match(await page.locator("#board-error").textContent(), /30 mines do not fit on 5 × 5.* A beginner game instead\.$/);
    await page.evaluate(() => localStorage.setItem("puzzlelab-minesweeper-settings", "{not json"));
    await reopen(session, page);
    settings = await readSettings(page);
    assert.deepEqual([settings.level, settings.rule, settings.game], ["beginner", "opening", [9, 9, 10]]);
    assert.equal(await page.locator("#board-error").isVisible(), false);
    assert.deepEqual(page.errors, []);
  });

  test("every board size fits its card or scrolls inside it at 1280 × 900, and follows the window's width", options, async () => {
    await checkSizes(session, {
      name: "1280",
      contextOptions: { viewport: { width: 1280, height: 900 } },
      fits: ["beginner", "intermediate", "expert"],
      shots: ["beginner", "expert", "50 × 50"],
    });

    // The cells follow the window: narrower, expert scrolls; wide again, it fits again (and the
    // resizing never loops).
    const page = await openMines(session, "#seed=2&level=expert");
    await page.evaluate(() => {
      window.boardErrors = [];
      addEventListener("error", (event) => window.boardErrors.push(event.message));
    });
    const cellAndOverflow = () =>
      page.evaluate(() => {
        const root = document.querySelector("#game").shadowRoot;
        const scroll = root.querySelector(".scroll");
        return [root.querySelector(".cell").getBoundingClientRect().width, scroll.scrollWidth > scroll.clientWidth];
      });
    assert.deepEqual(await cellAndOverflow(), [25, false]);
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.waitForFunction(() => !document.querySelector("#game").shadowRoot.querySelector(".more").hidden);
    assert.deepEqual(await cellAndOverflow(), [24, true]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => document.querySelector("#game").shadowRoot.querySelector(".more").hidden);
    assert.deepEqual(await cellAndOverflow(), [25, false]);
    assert.deepEqual(await page.evaluate(() => window.boardErrors), []);
    assert.deepEqual(page.errors, []);
  });

  test("the Level and First click menus show their whole choice at 1280 × 900", options, async () => {
    const page = await openMines(session, "");
    // The chosen option's text, measured in the menu's font, against the menu's width less its padding and arrow.
    const menus = await page.evaluate(() =>
      ["#level", "#first-click"].map((selector) => {
        const select = document.querySelector(selector);
        const style = getComputedStyle(select);
        const context = document.createElement("canvas").getContext("2d");
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 20;
        return { selector, text: context.measureText(select.selectedOptions[0].textContent).width, room };
      }),
    );
    for (const { selector, text, room } of menus) assert.ok(text <= room, `${selector}: its text needs ${text} px, it has ${room}`);
    assert.deepEqual(page.errors, []);
  });

  test("every board size fits its card or scrolls inside it on a 390 px phone", options, async () => {
    await checkSizes(session, {
      name: "390",
      contextOptions: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true },
      tap: true,
      fits: ["beginner"],
      shots: ["beginner", "expert"],
    });
  });

  test("a won game shows every mine flagged and 0 mines left; a lost one shows the mines", options, async () => {
    const page = await openMines(session, "#seed=1&level=beginner");
    const board = "*...\n....\n...*\n";
    await page.click(".board-text summary");
    await page.fill("#board-text", board);
    await page.click("#apply-text");
    await page.check("#question-marks");
    // A flag on one mine, a "?" on the other; the counter counts the flag only.
    await clickCell(page, 0, "right");
    await clickCell(page, 11, "right");
    await clickCell(page, 11, "right");
    let shown = await readBoard(page);
    assert.deepEqual([shown.cells[0].text, shown.cells[11].text, shown.counter], ["⚑", "?", "1"]);
    // Cell 2 opens the top right; the other four safe cells one by one.
    for (const cell of [2, 4, 8, 9, 10]) await clickCell(page, cell);
    shown = await readBoard(page);
    assert.deepEqual([shown.status, shown.face, shown.counter], ["won", "☻", "0"]);
    for (const cell of [0, 11]) {
      assert.deepEqual([shown.cells[cell].text, shown.cells[cell].label], ["⚑", `row ${cell < 4 ? 1 : 3}, column ${(cell % 4) + 1}: flagged`]);
    }
    assert.ok(shown.cells.every((cell) => !cell.className.includes("wrong")), "no flag is wrong");
    assert.match(await page.locator("#board-status").textContent(), /^Cleared in \d+ s\.$/);
    // Said once: the page's status line (a live region) says the end, so the board's live region does not.
    const boardSaid = () => page.evaluate(() => document.querySelector("#game").shadowRoot.querySelector("[role=status]").textContent);
    assert.doesNotMatch(await boardSaid(), /Cleared/);

    // Lost: the mines show as mines and the counter still counts mines minus flags.
    await page.fill("#board-text", board);
    await page.click("#apply-text");
    await clickCell(page, 11, "right");
    await clickCell(page, 0);
    shown = await readBoard(page);
    assert.deepEqual([shown.status, shown.face, shown.counter], ["lost", "☹", "1"]);
    assert.equal(shown.cells[0].text, "✹");
    assert.match(shown.cells[0].className, /exploded/);
    assert.equal(shown.cells[11].text, "⚑");
    assert.doesNotMatch(await boardSaid(), /mine went off/);
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
    // A board narrower than its widget stands in its middle.
    const gaps = await page.evaluate(() => {
      const widget = document.getElementById("mines");
      const frame = widget.shadowRoot.querySelector("mines-board").shadowRoot.querySelector(".frame").getBoundingClientRect();
      const box = widget.getBoundingClientRect();
      return { left: frame.left - box.left, right: box.right - frame.right };
    });
    assert.ok(gaps.left > 20 && Math.abs(gaps.left - gaps.right) <= 2, `centred: ${JSON.stringify(gaps)}`);

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
    const statusText = () => page.evaluate(() => document.getElementById("mines").shadowRoot.querySelector(".status").textContent);
    assert.match(await statusText(), /certainly safe|Best guess/, "the hint is said");
    await page.evaluate(() => document.getElementById("mines").play());
    await page.waitForFunction(() => ["won", "lost"].includes(document.getElementById("mines").state.status), null, { timeout: 30_000 });
    shown = await state();
    const ends = await page.evaluate(() => window.minesEvents.filter((e) => e.type === "won" || e.type === "lost").map((e) => e.type));
    assert.deepEqual(ends, [shown.status]);
    // The hint went with the first move; the end is said instead.
    assert.match(await statusText(), shown.status === "won" ? /^Cleared in \d+ seconds\.$/ : /^A mine went off\.$/);
    // Said once: by the widget's status line (a live region), not again by the board's.
    const boardSaid = await page.evaluate(() => document.getElementById("mines").board.shadowRoot.querySelector("[role=status]").textContent);
    assert.doesNotMatch(boardSaid, /Cleared|mine went off/);

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
