// Sudoku in the page (www/sudoku.html) and in <puzzle-widget puzzle="sudoku">: a puzzle from the
// URL, digits and pencil marks typed with the keyboard (marks clear when a digit goes in the cell
// or a peer), a conflict shown, undo and redo, the hint naming the technique that
// `puzzlelab sudoku rate --steps` names for the same puzzle and highlighting its box, a hint of
// seven steps shown one step at a time (More) in view at 1280 × 900 with only the pencil marks the
// player has struck, candidates filled on request, a cell and the whole solution revealed, bad
// pasted puzzles refused beside the box with the board unchanged, a generated puzzle rated within
// its level, the solved state (marked as helped after a hint or a reveal), and the widget played
// by keys. Screenshots: target/screenshots/sudoku.png (desktop, a hint shown),
// sudoku-revealed.png (desktop, the solution revealed) and sudoku-phone.png.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, screenshotPath, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const PAGE = "/www/sudoku.html";

/**
 * `puzzlelab sudoku generate --size 9 --difficulty easy --seed 1` made this puzzle; `puzzlelab
 * sudoku rate --steps` rates it 1.5 and starts "hidden single (box): 9 can go in only one cell of
 * box 1; place 9 at r2c2."
 */
const PUZZLE = "1...94.....7..........63971...4..7.6..9.1.5..4.3..6...95824..........1.....37...4";
const SOLUTION = "165794382397128465842563971581432796629817543473956218958241637734685129216379854";
/** Box 1 (rows 1–3, columns 1–3). */
const BOX_1 = [0, 1, 2, 9, 10, 11, 18, 19, 20];
/**
 * `#size=9&difficulty=hard&seed=4`'s puzzle and a position of it (its singles followed) where the
 * hint takes seven steps: a naked pair, a hidden pair, two pointings, a naked pair and an XY-wing
 * remove candidates, and a hidden single then places 8 at r5c2.
 */
const LONG_HINT_PUZZLE = "8..3.6...92.4...5.....2...3.5...71....9...3....42...6.4...7.....7...1.24...6.4..1";
const LONG_HINT_DIGITS = "847356219923418.5....72948335...71....91.53....42.3.6.4.1.72....7..31.24...6.4..1";

async function openSudoku(session, hash = `#puzzle=${PUZZLE}`, contextOptions = {}) {
  const page = await session.open(PAGE + hash, contextOptions);
  await waitForApp(page);
  return page;
}

/** The grid as the DOM shows it: per cell its text (digit or marks) and classes, plus the game's own view. */
async function readBoard(page, selector = "#game") {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector);
    const board = host.localName === "puzzle-widget" ? host.board : host;
    const cells = [...board.shadowRoot.querySelectorAll(".cell")].map((cell) => {
      const marks = cell.querySelector(".marks");
      return {
        digit: marks ? 0 : Number(cell.textContent),
        marks: marks ? [...marks.children].map((span) => span.textContent).filter(Boolean).map(Number) : [],
        classes: cell.className.split(" "),
        label: cell.getAttribute("aria-label"),
        // The pencil marks struck through (a hint removes them).
        removed: [...cell.querySelectorAll(".marks .removed")].map((span) => Number(span.textContent)),
      };
    });
    const solved = board.shadowRoot.querySelector(".solved");
    // Whether the "Solved" message covers any part of the grid (it stands under it, in the pad's place).
    const [message, grid] = [solved.firstElementChild, board.shadowRoot.querySelector(".grid")].map((e) => e.getBoundingClientRect());
    const overlap = Math.min(message.bottom, grid.bottom) > Math.max(message.top, grid.top) && Math.min(message.right, grid.right) > Math.max(message.left, grid.left);
    return {
      cells,
      text: board.game.text(),
      status: board.getAttribute("status"),
      marks: board.marks,
      help: board.help,
      solvedShown: getComputedStyle(solved).display !== "none",
      solvedText: solved.innerText.replace(/\s+/g, " ").trim(),
      solvedCoversGrid: getComputedStyle(solved).display !== "none" && overlap,
      padShown: getComputedStyle(board.shadowRoot.querySelector(".pad")).visibility === "visible",
    };
  }, selector);
}

const withClass = (board, name) => board.cells.flatMap((cell, i) => (cell.classes.includes(name) ? [i] : []));

/** The hint box as it reads: whether it shows, each paragraph's text by its class, the More button's label (null when hidden). */
async function readHint(page) {
  return page.evaluate(() => {
    const box = document.querySelector("#hint-box");
    const more = document.querySelector("#hint-more");
    const text = (className) => box.querySelector(`.${className}`)?.textContent ?? null;
    return {
      shown: !box.hidden,
      head: text("hint-head"),
      technique: text("technique"),
      idea: text("hint-idea"),
      reason: text("hint-reason"),
      place: text("hint-place"),
      struck: text("hint-struck"),
      named: text("hint-named"),
      more: more.hidden ? null : more.textContent,
    };
  });
}

/** The steps SudokuGame.hint gives for `puzzle` with `digits` shown, from a handle of the test's own. */
async function hintSteps(page, puzzle, digits) {
  return page.evaluate(
    async ([puzzle, digits]) => {
      const api = await import("../pkg/puzzlelab.js");
      const game = api.SudokuGame.parse(puzzle);
      game.restore(Uint8Array.from(digits, (c) => (c >= "1" && c <= "9" ? Number(c) : 0)));
      const steps = game.hint();
      game.free();
      return steps;
    },
    [puzzle, digits],
  );
}

/** The cells `step` shades (its units' cells), sorted. */
const unitCellsOf = (step) => [...new Set(step.unitCells.flat())].sort((a, b) => a - b);

async function clickCell(page, cell, selector = "#game") {
  await page.locator(selector).locator(`.cell[data-cell="${cell}"]`).click();
}

describe("Sudoku in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("keys place digits and pencil marks; marks clear; a conflict shows; undo and redo", options, async () => {
    const page = await openSudoku(session);
    let board = await readBoard(page);
    assert.equal(board.cells.length, 81);
    assert.equal(board.text, PUZZLE);
    assert.equal(board.status, "playing");
    assert.deepEqual(
      board.cells.map((cell) => cell.digit || ".").join(""),
      PUZZLE,
      "the givens are shown where the URL put them",
    );
    assert.ok(board.cells[0].classes.includes("given"));

    // r1c2 (cell 1, solution 6): marks 6 and 8 with Shift+digit; r1c3 (cell 2, solution 5): marks 5 and 6 in pencil mode (P).
    await clickCell(page, 1);
    await page.keyboard.press("Shift+Digit6");
    await page.keyboard.press("Shift+Digit8");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("p");
    assert.equal(await page.locator("#pencil").isChecked(), true, "P switches the page's pencil checkbox too");
    await page.keyboard.press("5");
    await page.keyboard.press("6");
    await page.keyboard.press("p");
    board = await readBoard(page);
    assert.deepEqual(board.cells[1].marks, [6, 8]);
    assert.deepEqual(board.cells[2].marks, [5, 6]);
    assert.equal(board.cells[2].label, "row 1, column 3: empty, pencil marks 5 6");
    assert.equal(board.text, PUZZLE, "pencil marks are not digits");
    // A screen reader hears each key's cell (the board's live region): the selection is drawn, not focused.
    const said = () => page.evaluate(() => document.querySelector("#game").shadowRoot.querySelector("[role=status]").textContent);
    assert.equal(await said(), "row 1, column 3: empty, pencil marks 5 6");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await said(), "row 1, column 2: empty, pencil marks 6 8");
    await page.keyboard.press("ArrowRight");

    // 6 in r1c2: its own marks go, and 6 leaves the marks of its peer r1c3.
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("6");
    board = await readBoard(page);
    assert.equal(board.cells[1].digit, 6);
    assert.deepEqual(board.cells[1].marks, []);
    assert.deepEqual(board.cells[2].marks, [5]);
    assert.equal(board.marks[1], 0);
    // The selected digit is highlighted wherever it is (cell 1 and the given 6s).
    const sixes = [...(board.text)].flatMap((d, i) => (d === "6" ? [i] : []));
    assert.deepEqual(withClass(board, "same"), sixes);
    assert.deepEqual(withClass(board, "conflict"), []);

    // 1 in r1c3 breaks row 1's rule (r1c1 holds a given 1): both are shown.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("1");
    board = await readBoard(page);
    assert.equal(board.cells[2].digit, 1);
    assert.deepEqual(withClass(board, "conflict"), [0, 2]);
    assert.match(board.cells[2].label, /breaks a rule/);

    // Undo twice: the conflict goes, then the 6 and its marks come back. Redo twice: back again.
    await page.keyboard.press("Control+z");
    board = await readBoard(page);
    assert.deepEqual(withClass(board, "conflict"), []);
    assert.deepEqual(board.cells[2].marks, [5]);
    await page.keyboard.press("Control+z");
    board = await readBoard(page);
    assert.equal(board.text, PUZZLE);
    assert.deepEqual(board.cells[1].marks, [6, 8]);
    assert.deepEqual(board.cells[2].marks, [5, 6]);
    await page.keyboard.press("Control+y");
    await page.keyboard.press("Control+Shift+z");
    board = await readBoard(page);
    assert.equal(board.cells[1].digit, 6);
    assert.equal(board.cells[2].digit, 1);
    assert.deepEqual(withClass(board, "conflict"), [0, 2]);
    // Backspace clears; a given cannot be changed.
    await page.keyboard.press("Backspace");
    await clickCell(page, 0);
    await page.keyboard.press("7");
    board = await readBoard(page);
    assert.equal(board.cells[2].digit, 0);
    assert.equal(board.cells[0].digit, 1);
    // The URL follows the position.
    const hash = new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));
    assert.equal(hash.get("puzzle"), PUZZLE);
    assert.equal(hash.get("digits"), `${PUZZLE[0]}6${PUZZLE.slice(2)}`);
    assert.deepEqual(page.errors, []);
  });

  test("the hint names the CLI's technique and highlights its box; candidates fill the marks", options, async () => {
    const page = await openSudoku(session);
    await page.click("#hint");
    assert.deepEqual(await readHint(page), {
      shown: true,
      head: "Step 1 of 1: hidden single (box) (rating 1.2)",
      technique: "hidden single (box)",
      idea: "A digit with only one empty cell left for it in a box goes there.",
      reason: "Here: 9 can go in only one cell of box 1.",
      place: "So 9 goes in r2c2 (ringed in green): type 9.",
      struck: null,
      named: null,
      more: null,
    });
    let board = await readBoard(page);
    assert.deepEqual(withClass(board, "hint-unit"), BOX_1);
    assert.deepEqual(withClass(board, "hint-target"), [10]);
    assert.ok(withClass(board, "hint-cell").length >= 1);
    assert.deepEqual(withClass(board, "selected"), [10], "the cell to fill is selected");
    // Following the hint: the highlight goes, the next hint is the CLI's second step.
    await page.keyboard.press("9");
    board = await readBoard(page);
    assert.equal(board.cells[10].digit, 9);
    assert.deepEqual(withClass(board, "hint-unit"), []);
    assert.equal((await readHint(page)).shown, false, "a digit placed takes the hint away");
    await page.click("#hint");
    const second = await readHint(page);
    assert.equal(second.head, "Step 1 of 1: hidden single (box) (rating 1.2)");
    assert.equal(second.reason, "Here: 7 can go in only one cell of box 2.");
    assert.equal(second.place, "So 7 goes in r1c4 (ringed in green): type 7.");
    assert.equal((await readBoard(page)).help.hints, 2, "two hints asked for, at two positions");

    // Candidates: every empty cell's marks are what the rules leave (checked against a fresh handle).
    await page.click("#candidates");
    board = await readBoard(page);
    const expected = await page.evaluate(async (text) => {
      const api = await import("../pkg/puzzlelab.js");
      const game = api.SudokuGame.parse(text);
      const candidates = Array.from(game.candidates());
      game.free();
      return candidates;
    }, board.text);
    assert.deepEqual(board.marks, expected);
    assert.ok(board.cells[1].marks.length >= 2);
    assert.deepEqual(board.cells[1].marks, [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => expected[1] & (1 << d)));
    // A wrong digit: the hint refuses and strikes it through.
    await clickCell(page, 1);
    const wrong = SOLUTION[1] === "2" ? "3" : "2";
    await page.keyboard.press(wrong);
    await page.click("#hint");
    assert.match(await page.locator("#hint-error").textContent(), new RegExp(`^the ${wrong} at row 1, column 2 is not the solution's`));
    board = await readBoard(page);
    assert.deepEqual(withClass(board, "wrong"), [1]);
    await page.click("#check");
    assert.match(await page.locator("#board-status").textContent(), /1 of your digits is not the solution's/);
    assert.deepEqual(page.errors, []);
  });

  test("a harder step: the hint names it and highlights the cells and units it uses", options, async () => {
    // `puzzlelab sudoku rate` rates this puzzle 2.0, its hardest step a direct hidden pair. Follow
    // the singles (in a handle of its own) up to the position where that step comes next.
    const medium = "6....871.....9.2..8....5.34.7..13...............64..9.19.7....8..5.3.....839....2";
    let page = await openSudoku(session, `#puzzle=${medium}`);
    const { digits, step } = await page.evaluate(async (text) => {
      const api = await import("../pkg/puzzlelab.js");
      const game = api.SudokuGame.parse(text);
      for (let move = 0; move < 81; move++) {
        const steps = game.hint();
        const last = steps.at(-1);
        if (!last.technique.includes("single")) {
          const result = { digits: game.text(), step: last };
          game.free();
          return result;
        }
        for (const [cell, digit] of last.placements) game.set(cell, digit);
      }
      throw new Error("no step harder than a single");
    }, medium);
    assert.equal(step.technique, "direct hidden pair");
    page = await openSudoku(session, `#puzzle=${medium}&digits=${digits}`);
    assert.equal(step.explanation, "direct hidden pair: in column 2, digits 46 fit only cells r5c2 r8c2; place 3 at r5c9; remove 3 from r5c2.");
    await page.click("#hint");
    // The box words the step's reasoning, what it places, and the candidate it removes (not
    // pencilled here, so named and not struck).
    assert.deepEqual(await readHint(page), {
      shown: true,
      head: "Step 1 of 1: direct hidden pair (rating 2.0)",
      technique: "direct hidden pair",
      idea: "When two digits fit only the same two cells of a row, column or box, no other digit can go there — and that leaves some digit a single cell.",
      reason: "Here: in column 2, digits 46 fit only cells r5c2 r8c2.",
      place: "So 3 goes in r5c9 (ringed in green): type 3.",
      struck: null,
      named: "It rules out 3 in r5c2: not among your pencil marks, so nothing is struck for it.",
      more: null,
    });
    // Its cells are the pair's, its unit column 2, and the digit goes in r5c9 (cell 44).
    assert.deepEqual(step.cells, [37, 64]);
    assert.deepEqual(step.placements, [[44, 3]]);
    let board = await readBoard(page);
    assert.deepEqual(withClass(board, "hint-cell"), [...step.cells].sort((a, b) => a - b));
    assert.deepEqual(withClass(board, "hint-unit"), unitCellsOf(step));
    assert.deepEqual(withClass(board, "hint-target"), step.placements.map(([cell]) => cell));
    assert.deepEqual(board.cells.flatMap((cell) => cell.removed), [], "no pencil mark to strike");
    // Pencil the 3 in r5c2 (a move that leaves the digits): the hint stays, the 3 is struck.
    await clickCell(page, 37);
    await page.keyboard.press("Shift+Digit3");
    const hint = await readHint(page);
    assert.equal(hint.struck, "Cross out the pencil marks struck through: 3 from r5c2.");
    assert.equal(hint.named, null);
    board = await readBoard(page);
    assert.deepEqual(board.cells[37].removed, [3]);
    assert.deepEqual(withClass(board, "hint-target"), [44]);
    assert.deepEqual(withClass(board, "selected"), [37], "redrawn, the hint leaves the selection where the player put it");
    assert.equal(board.help.hints, 1);
    assert.deepEqual(page.errors, []);
  });

  test("a long hint shows one step at a time, More shows the next; only pencilled marks are struck; in view at 1280 × 900", options, async () => {
    const page = await openSudoku(session, `#puzzle=${LONG_HINT_PUZZLE}&digits=${LONG_HINT_DIGITS}`);
    const steps = await hintSteps(page, LONG_HINT_PUZZLE, LONG_HINT_DIGITS);
    assert.deepEqual(
      steps.map((step) => step.technique),
      ["naked pair", "hidden pair", "pointing", "pointing", "naked pair", "XY-wing", "hidden single (line)"],
    );
    assert.ok(steps.slice(0, -1).every((step) => step.placements.length === 0 && step.eliminations.length > 0));
    assert.deepEqual(steps.at(-1).placements, [[37, 8]]);
    const inView = () =>
      page.evaluate(() => {
        const box = document.querySelector("#hint-box").getBoundingClientRect();
        return { scrollY: window.scrollY, top: box.top, bottom: box.bottom, height: window.innerHeight };
      });

    await page.click("#hint");
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index];
      const hint = await readHint(page);
      assert.equal(hint.head, `Step ${index + 1} of 7: ${step.technique} (rating ${step.rating.toFixed(1)})`);
      assert.ok(hint.idea.length > 20, `the idea of ${step.technique} in plain words`);
      assert.equal(hint.reason, `Here: ${step.explanation.slice(step.technique.length + 2).split("; ")[0]}.`);
      // Only this step's highlights: its units, its cells, and a target only on the step that places.
      const board = await readBoard(page);
      assert.deepEqual(withClass(board, "hint-unit"), unitCellsOf(step), `step ${index + 1}'s units`);
      assert.deepEqual(withClass(board, "hint-cell"), [...step.cells].sort((a, b) => a - b), `step ${index + 1}'s cells`);
      assert.deepEqual(withClass(board, "hint-target"), step.placements.map(([cell]) => cell));
      // No pencil marks: nothing is struck on the grid, the eliminations are named.
      assert.deepEqual(board.cells.flatMap((cell) => cell.removed), []);
      assert.equal(hint.struck, null);
      if (step.eliminations.length > 0) {
        const named = step.eliminations.map(([cell, digit]) => `${digit} in r${Math.floor(cell / 9) + 1}c${(cell % 9) + 1}`).join(", ");
        assert.equal(hint.named, `It rules out ${named}: not among your pencil marks, so nothing is struck for ${step.eliminations.length === 1 ? "it" : "them"}.`);
      }
      // The hint's words are in view, the page not scrolled.
      const view = await inView();
      assert.equal(view.scrollY, 0);
      assert.ok(view.top >= 0 && view.bottom <= view.height, `the hint box (${view.top}–${view.bottom} px) within 1280 × ${view.height}`);
      if (index + 1 < steps.length) {
        assert.equal(hint.place, null);
        assert.equal(hint.more, `More: step ${index + 2} of 7`);
        assert.deepEqual(withClass(board, "selected"), [0], "a step that places nothing leaves the selection");
        await page.click("#hint-more");
      } else {
        assert.equal(hint.place, "So 8 goes in r5c2 (ringed in green): type 8.");
        assert.equal(hint.more, null, "no More after the step that places a digit");
        assert.deepEqual(withClass(board, "selected"), [37], "the cell to fill is selected");
      }
    }
    // One hint, however many steps; asked again at the same position: step 1 again, not counted again.
    let board = await readBoard(page);
    assert.equal(board.help.hints, 1);
    await page.click("#hint");
    assert.equal((await readHint(page)).head, "Step 1 of 7: naked pair (rating 3.0)");
    assert.equal((await readBoard(page)).help.hints, 1);

    // Pencil 8 in r4c5 (cell 31) and 3 in r5c5 (cell 40): step 1 removes 8 and 9 from r4c5 and 8
    // from r5c5. The pencilled 8 is struck, the others are named; the 3 stays as it was.
    await clickCell(page, 31);
    await page.keyboard.press("Shift+Digit8");
    await clickCell(page, 40);
    await page.keyboard.press("Shift+Digit3");
    let hint = await readHint(page);
    assert.equal(hint.head, "Step 1 of 7: naked pair (rating 3.0)");
    assert.equal(hint.struck, "Cross out the pencil marks struck through: 8 from r4c5.");
    assert.equal(hint.named, "It also rules out 9 in r4c5, 8 in r5c5: not among your pencil marks, so nothing is struck for them.");
    board = await readBoard(page);
    assert.deepEqual(board.cells.flatMap((cell, i) => cell.removed.map((digit) => [i, digit])), [[31, 8]]);
    assert.deepEqual(board.cells[40].marks, [3]);
    // Candidates filled: every elimination of the step is pencilled, so every one is struck.
    await page.click("#candidates");
    hint = await readHint(page);
    assert.equal(hint.struck, "Cross out the pencil marks struck through: 8 from r4c5, 9 from r4c5, 8 from r5c5.");
    assert.equal(hint.named, null);
    board = await readBoard(page);
    assert.deepEqual(board.cells.flatMap((cell, i) => cell.removed.map((digit) => [i, digit])), [[31, 8], [31, 9], [40, 8]]);
    // A digit placed takes the hint away.
    await clickCell(page, 37);
    await page.keyboard.press("8");
    assert.equal((await readHint(page)).shown, false);
    assert.deepEqual(withClass(await readBoard(page), "hint-cell"), []);
    assert.deepEqual(page.errors, []);
  });

  test("reveal the selected cell or the whole solution; a solve with help says so", options, async () => {
    const page = await openSudoku(session);
    // r1c4 (cell 3) holds a pencil 6; r1c2 (cell 1, solution 6) is revealed: the 6 leaves the marks of its row.
    await clickCell(page, 3);
    await page.keyboard.press("Shift+Digit6");
    await clickCell(page, 1);
    await page.click("#reveal-cell");
    let board = await readBoard(page);
    assert.equal(board.cells[1].digit, Number(SOLUTION[1]));
    assert.deepEqual(board.cells[3].marks, []);
    assert.equal(await page.locator("#board-status").textContent(), `Revealed: ${SOLUTION[1]} at row 1, column 2.`);
    assert.deepEqual(board.help, { hints: 0, revealed: 1, solution: false, written: 0 });
    // A wrong digit in r1c3 (cell 2) is replaced by the solution's; undo takes the reveal back (one move).
    const wrong = SOLUTION[2] === "2" ? "3" : "2";
    await clickCell(page, 2);
    await page.keyboard.press(wrong);
    await page.click("#reveal-cell");
    assert.equal((await readBoard(page)).cells[2].digit, Number(SOLUTION[2]));
    await page.keyboard.press("Control+z");
    assert.equal((await readBoard(page)).cells[2].digit, Number(wrong));
    await page.keyboard.press("Control+y");
    // A given, or a digit that is right already: nothing to reveal, and the page says why.
    await clickCell(page, 0);
    await page.click("#reveal-cell");
    assert.equal(await page.locator("#board-status").textContent(), "row 1, column 1 is a given: select an empty cell (or one of your digits) to reveal it.");
    await clickCell(page, 1);
    await page.click("#reveal-cell");
    assert.equal(await page.locator("#board-status").textContent(), `The ${SOLUTION[1]} at row 1, column 2 is the solution's already.`);
    board = await readBoard(page);
    assert.deepEqual(board.help, { hints: 0, revealed: 2, solution: false, written: 0 });

    // A hint, then the whole solution: solved, and both the grid and the status say how.
    await page.click("#hint");
    await page.click("#reveal-solution");
    board = await readBoard(page);
    assert.equal(board.text, SOLUTION);
    assert.equal(board.status, "solved");
    assert.equal(board.solvedShown, true);
    // The message stands in the pad's place under the grid: every cell stays in view.
    assert.equal(board.solvedCoversGrid, false);
    assert.equal(board.padShown, false);
    // Revealed: the two cells above, then every other empty cell.
    assert.deepEqual(board.help, { hints: 1, revealed: PUZZLE.split(".").length - 1, solution: true, written: 0 });
    assert.match(board.solvedText, /^Solved in \d+:\d\d with 1 hint · solution revealed$/);
    assert.match(
      await page.locator("#board-status").textContent(),
      /^Solved in \d+:\d\d · with 1 hint · solution revealed \(helped: not an unaided solve\)\.$/,
    );
    assert.equal((await readHint(page)).shown, false);
    await page.screenshot({ path: await screenshotPath("sudoku-revealed.png") });
    // Solved: Reveal does nothing more.
    await page.click("#reveal-cell");
    assert.equal(await page.locator("#board-status").textContent(), "The puzzle is solved.");
    assert.equal((await readBoard(page)).help.revealed, PUZZLE.split(".").length - 1);

    // The last cell revealed: solved with one cell revealed. A new puzzle starts without help.
    const last = PUZZLE.lastIndexOf(".");
    const digits = SOLUTION.slice(0, last) + "." + SOLUTION.slice(last + 1);
    const almost = await openSudoku(session, `#puzzle=${PUZZLE}&digits=${digits}`);
    await clickCell(almost, last);
    await almost.click("#reveal-cell");
    assert.match(await almost.locator("#board-status").textContent(), /^Solved in \d+:\d\d · 1 cell revealed \(helped: not an unaided solve\)\.$/);
    assert.match((await readBoard(almost)).solvedText, /^Solved in \d+:\d\d 1 cell revealed$/);
    await almost.click("#new-puzzle");
    await almost.waitForFunction(() => document.querySelector("#game").game.text().includes("."));
    assert.deepEqual((await readBoard(almost)).help, { hints: 0, revealed: 0, solution: false, written: 0 });
    // The last digit written by a program (as the Learn card's model writes its digits): helped too.
    const played = await openSudoku(session, `#puzzle=${PUZZLE}&digits=${digits}`);
    await played.evaluate(([digit, cell]) => document.querySelector("#game").write(digit, cell, "dqn"), [Number(SOLUTION[last]), last]);
    assert.match(await played.locator("#board-status").textContent(), /^Solved in \d+:\d\d · 1 digit by a program \(helped: not an unaided solve\)\.$/);
    assert.deepEqual([...page.errors, ...almost.errors, ...played.errors], []);
  });

  test("a reload, or Back to a game left by a link, carries the game on: its timer, its help and its pencil marks; the same link in a new tab starts afresh", options, async () => {
    const page = await openSudoku(session);
    const timer = () => page.evaluate(() => document.querySelector("#game").seconds);
    // A digit, a pencil mark and a hint; then the timer runs past 2 s.
    await clickCell(page, 3);
    await page.keyboard.press("Shift+Digit8");
    await clickCell(page, 1);
    await page.keyboard.press(SOLUTION[1]);
    await page.click("#hint");
    await page.waitForFunction(() => document.querySelector("#game").seconds >= 2);
    const before = await readBoard(page);
    assert.deepEqual(before.help, { hints: 1, revealed: 0, solution: false, written: 0 });
    assert.deepEqual(before.cells[3].marks, [8]);
    const secondsBefore = await timer();
    await page.reload();
    await waitForApp(page);
    const after = await readBoard(page);
    assert.equal(after.text, before.text, "the URL's digits");
    assert.deepEqual(after.help, before.help, "the hint still counts");
    assert.deepEqual(after.marks, before.marks, "the pencil marks");
    assert.ok((await timer()) >= secondsBefore, `the timer goes on (${await timer()} s after ${secondsBefore} s)`);
    // A link followed on the page, then Back: the game left comes back with its timer, help and marks.
    const secondsLeft = await timer();
    await page.evaluate((puzzle) => (location.hash = `#puzzle=${puzzle}`), LONG_HINT_PUZZLE);
    await page.waitForFunction((puzzle) => document.querySelector("#game").game.puzzleText() === puzzle, LONG_HINT_PUZZLE);
    assert.deepEqual((await readBoard(page)).help, { hints: 0, revealed: 0, solution: false, written: 0 });
    await page.goBack();
    await page.waitForFunction((puzzle) => document.querySelector("#game").game.puzzleText() === puzzle, PUZZLE);
    const back = await readBoard(page);
    assert.deepEqual([back.text, back.help, back.marks], [before.text, before.help, before.marks], "Back: the digits, the help and the marks");
    assert.ok((await timer()) >= secondsLeft, `Back: the timer goes on (${await timer()} s after ${secondsLeft} s)`);
    // Solved after the reload: the help is said.
    await page.click("#reveal-solution");
    assert.match(await page.locator("#board-status").textContent(), /^Solved in 0:0[2-9] · with 1 hint · solution revealed \(helped: not an unaided solve\)\.$/);
    // The solved grid reloaded says so again, with the time it was solved in.
    const solvedLine = await page.locator("#board-status").textContent();
    await page.reload();
    await waitForApp(page);
    assert.equal(await page.locator("#board-status").textContent(), solvedLine);

    // A link followed on the open page shows its puzzle; one that cannot be read is explained and the game stays.
    await page.evaluate((puzzle) => (location.hash = `#puzzle=${puzzle}`), LONG_HINT_PUZZLE);
    await page.waitForFunction((puzzle) => document.querySelector("#game").game.puzzleText() === puzzle, LONG_HINT_PUZZLE);
    await page.evaluate(() => (location.hash = "#puzzle=12x"));
    await page.waitForFunction(() => document.querySelector("#puzzle-error").textContent !== "");
    assert.match(await page.locator("#puzzle-error").textContent(), /^The link's puzzle: /);
    assert.equal(await page.evaluate(() => document.querySelector("#game").game.puzzleText()), LONG_HINT_PUZZLE);
    // The address is the game's again, so a reload shows it.
    assert.equal(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("puzzle")), LONG_HINT_PUZZLE);
    await page.reload();
    await waitForApp(page);
    assert.equal(await page.evaluate(() => document.querySelector("#game").game.puzzleText()), LONG_HINT_PUZZLE);

    // The same link opened elsewhere (another tab: its own session) starts the timer and the help from nothing.
    const other = await openSudoku(session, `#puzzle=${PUZZLE}&digits=${before.text}`);
    assert.deepEqual((await readBoard(other)).help, { hints: 0, revealed: 0, solution: false, written: 0 });
    assert.ok((await other.evaluate(() => document.querySelector("#game").seconds)) < 2);
    assert.deepEqual([...page.errors, ...other.errors], []);
  });

  test("the pad's digit of the selected cell is readable in light and dark", options, async () => {
    for (const colorScheme of ["light", "dark"]) {
      const page = await openSudoku(session, `#puzzle=${PUZZLE}`, { colorScheme });
      await clickCell(page, 0); // a given 1
      const contrast = await page.evaluate(() => {
        const button = document.querySelector("#game").shadowRoot.querySelector(".pad button.same");
        const style = getComputedStyle(button);
        const luminance = (css) => {
          const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => Number(v) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
        return { text: button.textContent, ratio: (light + 0.05) / (dark + 0.05) };
      });
      assert.equal(contrast.text, "1");
      assert.ok(contrast.ratio >= 4.5, `${colorScheme}: contrast ${contrast.ratio.toFixed(2)} (WCAG AA: 4.5)`);
      assert.deepEqual(page.errors, []);
    }
  });

  test("bad pasted puzzles are explained beside the box and change nothing", options, async () => {
    const page = await openSudoku(session);
    await clickCell(page, 1);
    await page.keyboard.press("Shift+Digit4");
    const before = await readBoard(page);
    const rating = await page.locator("#rating").textContent();
    await page.locator(".puzzle-text summary").click();
    const noSolution = "12345678.\n........9" + ".".repeat(63);
    const cases = [
      ["123", /^a Sudoku has 16, 36 or 81 cells \(4 × 4, 6 × 6, 9 × 9\); this text has 3$/],
      [PUZZLE.slice(0, 40) + "x" + PUZZLE.slice(41), /^unexpected character 'x' at line 1, column 41/],
      ["11" + ".".repeat(79), /^the 1 at row 1, column 1 and the 1 at row 1, column 2 share row 1$/],
      [noSolution, /^this puzzle has no solution$/],
      [".".repeat(81), /^this puzzle has more than one solution$/],
      ["1" + ".".repeat(15), /^this puzzle has more than one solution$/],
      ["5" + ".".repeat(15), /^the digit 5 at row 1, column 1 does not fit a 4 × 4 grid$/],
    ];
    for (const [text, message] of cases) {
      await page.fill("#puzzle-text", text);
      await page.click("#apply-text");
      const error = page.locator("#puzzle-error");
      assert.equal(await error.isVisible(), true, text);
      assert.match(await error.textContent(), message);
      const after = await readBoard(page);
      assert.deepEqual(after.cells, before.cells, "the board stays as it was");
      assert.deepEqual(after.marks, before.marks);
      assert.equal(await page.locator("#rating").textContent(), rating);
    }
    // A good 6 × 6 text replaces the game and the error goes.
    await page.fill("#puzzle-text", ".5....1.6...6.2..33..4.6...5.1....6.");
    await page.click("#apply-text");
    assert.equal(await page.locator("#puzzle-error").isVisible(), false);
    const board = await readBoard(page);
    assert.equal(board.cells.length, 36);
    assert.equal(await page.locator("#size").inputValue(), "6");
    assert.match(await page.locator("#rating").textContent(), /^Rating 1\.5 \(easy\)/);
    assert.deepEqual(page.errors, []);
  });

  test("a generated puzzle has one solution and a rating in its level's range", options, async () => {
    const page = await openSudoku(session, "#size=9&difficulty=hard&seed=2");
    const rating = page.locator("#rating");
    assert.equal(await rating.getAttribute("data-difficulty"), "hard");
    const value = Number(await rating.getAttribute("data-rating"));
    assert.ok(value > 2.5 && value <= 4.5, `hard means 2.5 < rating ≤ 4.5, got ${value}`);
    assert.match(await rating.textContent(), /^Rating \d\.\d \(hard\) · hardest step: /);
    // The same seed, the same puzzle as the CLI's (`puzzlelab sudoku generate --difficulty hard --seed 2`).
    const text = await page.evaluate(() => document.querySelector("#game").game.puzzleText());
    assert.equal(text, "..5..6..1.....34..3..9..67..57.....8.26...91.4.....75..12..8..7..32.....9..6..5..");
    assert.match(await page.locator("#share-line").textContent(), /Generated from seed 2/);

    // The menus: a 4 × 4 offers only easy; choosing it generates one.
    await page.selectOption("#size", "4");
    await page.waitForFunction(() => document.querySelector("#game").game.size === 4);
    const disabled = await page.locator("#difficulty option:disabled").allTextContents();
    assert.equal(disabled.length, 3);
    assert.equal(await page.locator("#difficulty").inputValue(), "easy");
    assert.equal((await readBoard(page)).cells.length, 16);
    const easy = Number(await rating.getAttribute("data-rating"));
    assert.ok(easy > 0 && easy <= 1.5, `easy means rating ≤ 1.5, got ${easy}`);
    assert.deepEqual(page.errors, []);
  });

  test("the last digit solves the puzzle: the grid says so and the timer stops", options, async () => {
    // Every digit of the solution but that of the last empty cell (r9c8).
    const last = PUZZLE.lastIndexOf(".");
    const digits = SOLUTION.slice(0, last) + "." + SOLUTION.slice(last + 1);
    const page = await openSudoku(session, `#puzzle=${PUZZLE}&digits=${digits}`);
    let board = await readBoard(page);
    assert.equal(board.text, digits);
    assert.equal(board.status, "playing");
    assert.equal(board.solvedShown, false);
    await clickCell(page, last);
    await page.keyboard.press(SOLUTION[last]);
    board = await readBoard(page);
    assert.equal(board.status, "solved");
    assert.equal(board.solvedShown, true);
    assert.equal(board.solvedCoversGrid, false, "the message stands under the grid");
    assert.match(await page.locator("#board-status").textContent(), /^Solved in \d+:\d\d!$/);
    assert.match(board.solvedText, /^Solved in \d+:\d\d$/, "an unaided solve: no help named");
    // Said once: the page's status line (a live region) says it, so the board's live region does not.
    const boardSaid = await page.evaluate(() => document.querySelector("#game").shadowRoot.querySelector("[role=status]").textContent);
    assert.doesNotMatch(boardSaid, /Solved/);
    // Solved: keys and the pad do nothing more; the timer has stopped.
    const seconds = await page.evaluate(() => document.querySelector("#game").seconds);
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Control+z");
    assert.equal((await readBoard(page)).text, SOLUTION);
    await page.waitForTimeout(1100);
    assert.equal(await page.evaluate(() => document.querySelector("#game").seconds), seconds);
    // The same last digit after a hint: the grid and the status say the solve had help.
    const hinted = await openSudoku(session, `#puzzle=${PUZZLE}&digits=${digits}`);
    await hinted.click("#hint");
    assert.equal((await readHint(hinted)).place, `So ${SOLUTION[last]} goes in r9c8 (ringed in green): type ${SOLUTION[last]}.`);
    await hinted.keyboard.press(SOLUTION[last]);
    assert.equal((await readBoard(hinted)).status, "solved");
    assert.match((await readBoard(hinted)).solvedText, /^Solved in \d+:\d\d with 1 hint$/);
    assert.match(await hinted.locator("#board-status").textContent(), /^Solved in \d+:\d\d · with 1 hint \(helped: not an unaided solve\)\.$/);
    // A link whose digits change a given keeps the puzzle and says why the digits were left out.
    const changed = await openSudoku(session, `#puzzle=${PUZZLE}&digits=${SOLUTION.slice(0, 80)}5`);
    assert.equal((await readBoard(changed)).text, PUZZLE);
    assert.equal(
      await changed.locator("#board-status").textContent(),
      "The link's digits were left out: row 9, column 9 must hold the given 4",
    );
    assert.deepEqual([...page.errors, ...hinted.errors, ...changed.errors], []);
  });

  test("screenshots: desktop with a hint, and a phone", options, async () => {
    // The seven-step hint's second step (a hidden pair) with every candidate pencilled: its marks struck.
    const page = await openSudoku(session, `#puzzle=${LONG_HINT_PUZZLE}&digits=${LONG_HINT_DIGITS}`);
    await page.click("#candidates");
    await page.click("#hint");
    await page.click("#hint-more");
    assert.equal((await readHint(page)).head, "Step 2 of 7: hidden pair (rating 3.4)");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: await screenshotPath("sudoku.png") });
    const phone = await openSudoku(session, "#size=9&difficulty=medium&seed=3", { viewport: { width: 390, height: 844 } });
    await clickCell(phone, 4, "#game");
    await phone.keyboard.press("Shift+Digit2");
    await phone.keyboard.press("Shift+Digit8");
    // Focused from the keyboard: one ring, around the grid (the board's own), not the page's around its parts.
    const rings = await phone.evaluate(() => {
      const board = document.querySelector("#game");
      const grid = board.shadowRoot.querySelector(".grid");
      return { focused: board.matches(":focus-visible"), board: getComputedStyle(board).outlineStyle, grid: getComputedStyle(grid).outlineStyle };
    });
    assert.deepEqual(rings, { focused: true, board: "none", grid: "solid" });
    await phone.screenshot({ path: await screenshotPath("sudoku-phone.png") });
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing wider than the phone (${width} px)`);
    assert.deepEqual([...page.errors, ...phone.errors], []);
  });
});

describe('<puzzle-widget puzzle="sudoku">', () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("renders a given puzzle, plays by keys, hints, refuses a bad start and solves", options, async () => {
    const page = await session.newWidgetPage("/www/embed.html");
    await page.evaluate(async (puzzle) => {
      const widget = document.createElement("puzzle-widget");
      widget.id = "sudoku";
      widget.setAttribute("puzzle", "sudoku");
      widget.setAttribute("start", puzzle);
      window.sudokuEvents = [];
      for (const type of ["move", "solved", "error"]) widget.addEventListener(type, (event) => window.sudokuEvents.push({ type, detail: event.detail }));
      document.querySelector("article").prepend(widget);
      await widget.ready;
    }, PUZZLE);
    const widget = page.locator("#sudoku");
    await page.waitForFunction(() => document.querySelector("#sudoku").board?.game);
    let board = await readBoard(page, "#sudoku");
    assert.equal(board.text, PUZZLE);
    assert.match(await widget.locator("[part=status]").textContent(), /^Rating 1\.5 \(easy\)$/);

    // Keys: a digit, a mark; the events say so.
    await clickCell(page, 1, "#sudoku");
    await page.keyboard.press("6");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+Digit5");
    board = await readBoard(page, "#sudoku");
    assert.equal(board.cells[1].digit, 6);
    assert.deepEqual(board.cells[2].marks, [5]);
    const events = await page.evaluate(() => window.sudokuEvents.map(({ type, detail }) => [type, detail.action, detail.cell, detail.digit]));
    assert.deepEqual(events, [["move", "digit", 1, 6], ["move", "mark", 2, 5]]);

    // The hint (the CLI's first step) through the API and the button.
    const steps = await page.evaluate(() => document.querySelector("#sudoku").hint());
    assert.equal(steps.at(-1).technique, "hidden single (box)");
    assert.deepEqual(steps.at(-1).placements, [[10, 9]]);
    assert.match(await widget.locator("[part=status]").textContent(), /^hidden single \(box\): 9 can go in only one cell of box 1/);
    board = await readBoard(page, "#sudoku");
    assert.deepEqual(withClass(board, "hint-unit"), BOX_1);

    // A bad start is refused inside the widget; the game stays.
    await page.evaluate(() => document.querySelector("#sudoku").setAttribute("start", "11" + ".".repeat(79)));
    await page.waitForFunction(() => document.querySelector("#sudoku").hasAttribute("invalid"));
    assert.match(await widget.locator("[part=error]").textContent(), /^start="11\.{37}…": the 1 at row 1, column 1 and the 1 at row 1, column 2 share row 1$/);
    assert.equal((await readBoard(page, "#sudoku")).cells[1].digit, 6);

    // setState with all but the last digit filled, then the last one: solved.
    await page.evaluate(
      ([puzzle]) => document.querySelector("#sudoku").setState(puzzle),
      [SOLUTION.slice(0, 80) + "."],
    );
    await page.click("#sudoku [data-action=hint]");
    await clickCell(page, 80, "#sudoku");
    await page.keyboard.press(SOLUTION[80]);
    assert.match(await widget.locator("[part=status]").textContent(), /^Solved in \d+ s · with 1 hint\.$/);
    // Said once: by the widget's status line (a live region), not again by the board's.
    const boardSaid = await page.evaluate(() => document.querySelector("#sudoku").board.shadowRoot.querySelector("[role=status]").textContent);
    assert.doesNotMatch(boardSaid, /Solved/);
    assert.match((await readBoard(page, "#sudoku")).solvedText, /^Solved in \d+:\d\d with 1 hint$/);
    const state = await page.evaluate(() => document.querySelector("#sudoku").state);
    assert.equal(state.puzzle, "sudoku");
    assert.equal(state.solved, true);
    assert.equal(state.text, SOLUTION);
    assert.equal(await page.evaluate(() => window.sudokuEvents.filter((e) => e.type === "solved").length), 1);

    // Another size and difficulty by attributes: a generated 6 × 6 expert puzzle.
    await page.evaluate(() => {
      const widget = document.querySelector("#sudoku");
      widget.removeAttribute("start");
      widget.setAttribute("size", "6");
      widget.setAttribute("difficulty", "expert");
      widget.setAttribute("seed", "3");
    });
    await page.waitForFunction(() => document.querySelector("#sudoku").board.game.size === 6);
    assert.match(await widget.locator("[part=status]").textContent(), /^Rating \d\.\d \(expert\)$/);
    assert.equal(await widget.locator("[part=error]").isVisible(), false);
    await page.evaluate(() => document.querySelector("#sudoku").setAttribute("size", "4"));
    await page.waitForFunction(() => document.querySelector("#sudoku").hasAttribute("invalid"));
    assert.match(await widget.locator("[part=error]").textContent(), /difficulty="expert": a 4 × 4 Sudoku is one of easy/);
    assert.deepEqual(page.errors, []);
  });
});
