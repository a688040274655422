// Playing the board by hand: clicks, keys, swipes, custom input and the URL hash.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, clickCell, hashFor, readBoard, setCustomStart, standardGoalText, startSession, waitForApp } from "./helpers.mjs";

const GOAL_3X3 = [1, 2, 3, 4, 5, 6, 7, 8, 0];
const options = { timeout: TEST_TIMEOUT_MS };

describe("playing by hand", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("the default page shows a 3×3 board with 8 tiles, and clicks slide tiles", options, async () => {
    const fresh = await session.newPage();
    const initial = await readBoard(fresh);
    assert.equal(initial.rows, 3);
    assert.equal(initial.cols, 3);
    assert.deepEqual([...initial.dom].sort(), [0, 1, 2, 3, 4, 5, 6, 7, 8], "tiles 1–8 and one gap");
    assert.deepEqual(initial.dom, initial.model, "the DOM shows the Puzzle's board");
    assert.equal(initial.moves, 0);
    assert.match(await fresh.locator("#size").inputValue(), /^3x3$/);

    const page = await session.newPage(hashFor(3, 3, standardGoalText(3, 3)));
    assert.deepEqual((await readBoard(page)).dom, GOAL_3X3);

    // Two cells left of the gap in its row: tiles 7 and 8 both slide right.
    await clickCell(page, 6);
    let state = await readBoard(page);
    assert.deepEqual(state.dom, [1, 2, 3, 4, 5, 6, 0, 7, 8]);
    assert.deepEqual(state.model, state.dom);
    assert.equal(state.moves, 2, "one move per tile slid");

    // Right above the gap: tile 4 slides down.
    await clickCell(page, 3);
    state = await readBoard(page);
    assert.deepEqual(state.dom, [1, 2, 3, 0, 5, 6, 4, 7, 8]);
    assert.equal(state.moves, 3);

    // Neither in the gap's row nor its column: nothing happens.
    await clickCell(page, 8);
    state = await readBoard(page);
    assert.deepEqual(state.dom, [1, 2, 3, 0, 5, 6, 4, 7, 8]);
    assert.equal(state.moves, 3);

    // Each tile says what it is and where.
    const label = await page.locator('sliding-board .tile[data-index="6"]').getAttribute("aria-label");
    assert.equal(label, "tile 4, row 3 column 1");
    assert.deepEqual(page.errors, []);
  });

  test("arrow keys and WASD move the tile in their direction, only while the board has focus", options, async () => {
    const page = await session.newPage(hashFor(3, 3, standardGoalText(3, 3)));
    await page.focus("sliding-board");
    const expectBoard = async (key, expected) => {
      await page.keyboard.press(key);
      assert.deepEqual((await readBoard(page)).dom, expected, `after ${key}`);
    };
    await expectBoard("ArrowDown", [1, 2, 3, 4, 5, 0, 7, 8, 6]); // tile 6 slides down
    await expectBoard("ArrowRight", [1, 2, 3, 4, 0, 5, 7, 8, 6]); // tile 5 slides right
    await expectBoard("ArrowUp", [1, 2, 3, 4, 8, 5, 7, 0, 6]); // tile 8 slides up
    await expectBoard("ArrowLeft", [1, 2, 3, 4, 8, 5, 7, 6, 0]); // tile 6 slides left
    await expectBoard("ArrowLeft", [1, 2, 3, 4, 8, 5, 7, 6, 0]); // nothing right of the gap
    await expectBoard("s", [1, 2, 3, 4, 8, 0, 7, 6, 5]); // S = down
    await expectBoard("a", [1, 2, 3, 4, 8, 0, 7, 6, 5]); // A = left: wall
    await expectBoard("d", [1, 2, 3, 4, 0, 8, 7, 6, 5]); // D = right
    await expectBoard("W", [1, 2, 3, 4, 6, 8, 7, 0, 5]); // W = up (Shift held too)
    assert.equal((await readBoard(page)).moves, 7, "moves into a wall do not count");
    // A screen reader hears each move (the board's live region).
    const said = await page.evaluate(() => document.querySelector("#board").board.shadowRoot.querySelector("[role=status]").textContent);
    assert.equal(said, "Tile 6 slid up. 7 moves.");

    // Keys go nowhere near the board while another control has focus.
    await page.focus("#shuffle");
    await page.keyboard.press("ArrowUp");
    assert.deepEqual((await readBoard(page)).dom, [1, 2, 3, 4, 6, 8, 7, 0, 5]);

    // Back to the goal: a visible banner and an announcement.
    await page.focus("sliding-board");
    for (const key of ["ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]) {
      assert.equal((await readBoard(page)).bannerVisible, false);
      await page.keyboard.press(key);
    }
    const state = await readBoard(page);
    assert.deepEqual(state.dom, GOAL_3X3);
    assert.ok(state.solved && state.bannerVisible, "solved banner shown");
    const banner = page.locator("sliding-board [part=banner]");
    assert.match(await banner.textContent(), /Solved in 14 moves/);
    const announcement = await page.locator("sliding-board [role=status]").textContent();
    assert.match(announcement, /solved/i);
    const focusOutline = await page.evaluate(() => {
      const board = document.querySelector("#board").board;
      return getComputedStyle(board.shadowRoot.querySelector(".frame")).outlineStyle;
    });
    assert.equal(focusOutline, "solid", "keyboard focus is visible");
    assert.deepEqual(page.errors, []);
  });

  test("a swipe on a touch screen slides the tile the way the finger went", options, async () => {
    const page = await session.newPage(hashFor(3, 3, standardGoalText(3, 3)), {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const cdp = await page.context().newCDPSession(page);
    const swipe = async (from, to) => {
      const steps = 6;
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from.x, y: from.y }] });
      for (let i = 1; i <= steps; i++) {
        const x = from.x + ((to.x - from.x) * i) / steps;
        const y = from.y + ((to.y - from.y) * i) / steps;
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y }] });
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    const box = await page.locator("sliding-board [part=frame]").boundingBox();
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    // Finger moves right: the tile left of the gap (8) slides right.
    await swipe(centre, { x: centre.x + 80, y: centre.y });
    assert.deepEqual((await readBoard(page)).dom, [1, 2, 3, 4, 5, 6, 7, 0, 8]);
    // Finger moves down: the tile above the gap (5) slides down.
    await swipe(centre, { x: centre.x, y: centre.y + 80 });
    const state = await readBoard(page);
    assert.deepEqual(state.dom, [1, 2, 3, 4, 0, 6, 7, 5, 8]);
    assert.equal(state.moves, 2);
    assert.deepEqual(page.errors, []);
  });

  test("a reload carries on the moves made on the puzzle and its counter; the link still shares the puzzle", options, async () => {
    const page = await session.newPage(hashFor(3, 3, "1,2,3,4,5,6,_,7,8"));
    const hash = await page.evaluate(() => location.hash);
    await clickCell(page, 7); // 7 slides left
    await clickCell(page, 8); // 8 slides left
    await clickCell(page, 5); // 6 slides down
    const before = await readBoard(page);
    assert.deepEqual([before.dom, before.moves], [[1, 2, 3, 4, 5, 0, 7, 8, 6], 3]);
    assert.equal(await page.evaluate(() => location.hash), hash, "the link is the puzzle's");
    await page.reload();
    await waitForApp(page);
    const after = await readBoard(page);
    assert.deepEqual([after.dom, after.model, after.moves], [before.dom, before.model, 3]);
    await clickCell(page, 8); // 6 slides back up: solved
    const solved = await readBoard(page);
    assert.deepEqual([solved.solved, solved.moves], [true, 4]);
    // The same link in another tab: the puzzle as it was set, no moves.
    const other = await session.newPage(hash);
    assert.deepEqual([(await readBoard(other)).dom, (await readBoard(other)).moves], [[1, 2, 3, 4, 5, 6, 0, 7, 8], 0]);
    assert.deepEqual([...page.errors, ...other.errors], []);
  });

  test("Back to a puzzle left by a link carries on its moves; a link that cannot be used leaves the board and its address; a link followed during a solve cancels it", options, async () => {
    const hash = hashFor(3, 3, "1,2,3,4,5,6,_,7,8");
    const page = await session.newPage(hash);
    await clickCell(page, 7); // 7 slides left
    await clickCell(page, 8); // 8 slides left
    await clickCell(page, 5); // 6 slides down
    const before = await readBoard(page);
    assert.deepEqual([before.dom, before.moves], [[1, 2, 3, 4, 5, 0, 7, 8, 6], 3]);
    // A link followed on the page, then Back: the moves and the counter come back.
    await page.evaluate((link) => (location.hash = link), hashFor(3, 3, "1,2,3,4,5,6,7,_,8"));
    await page.waitForFunction(() => document.querySelector("#board").board.puzzle.startText() === "1,2,3,4,5,6,7,_,8");
    assert.equal((await readBoard(page)).moves, 0);
    await page.goBack();
    await page.waitForFunction((dom) => JSON.stringify([...document.querySelector("#board").board.puzzle.board()]) === dom, JSON.stringify(before.dom));
    const back = await readBoard(page);
    assert.deepEqual([back.dom, back.moves], [before.dom, 3]);
    assert.equal(await page.evaluate(() => location.hash), hash);
    // A link that cannot be used: explained; the board stays, and the address is the board's again.
    await page.evaluate(() => (location.hash = "#size=3x3&start=1,1,1"));
    await page.locator("#input-error").waitFor({ state: "visible" });
    assert.match(await page.locator("#input-error").textContent(), /link's puzzle could not be used/);
    assert.deepEqual((await readBoard(page)).dom, before.dom);
    assert.equal(await page.evaluate(() => location.hash), hash);
    await page.reload();
    await waitForApp(page);
    assert.deepEqual([(await readBoard(page)).dom, (await readBoard(page)).moves], [before.dom, 3], "a reload shows the board and its moves");
    // A link to the position shown: that puzzle is set, with no moves made on it (a reload does not
    // play the moves made before the link again from it: here the blank's "up" would move it on).
    const same = await session.newPage(hash);
    await clickCell(same, 3); // 4 slides down: the blank goes up
    const moved = await readBoard(same);
    assert.deepEqual(moved.dom, [1, 2, 3, 0, 5, 6, 4, 7, 8]);
    await same.evaluate((link) => (location.hash = link), hashFor(3, 3, "1,2,3,_,5,6,4,7,8"));
    await same.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    await same.reload();
    await waitForApp(same);
    assert.deepEqual([(await readBoard(same)).dom, (await readBoard(same)).moves], [moved.dom, 0]);

    // A link followed while a long search runs: the search is cancelled and the link's puzzle shown.
    const hard = await session.newPage(hashFor(4, 4, "_,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1"));
    await hard.selectOption("#algorithm", "idastar");
    await hard.selectOption("#heuristic", "misplaced");
    await hard.click("#solve");
    await hard.waitForFunction(() => /[1-9][\d,]* nodes expanded/.test(document.querySelector("#solver-progress").textContent), null, { timeout: 20_000 });
    await hard.evaluate((link) => (location.hash = link), hash);
    await hard.waitForFunction(() => document.querySelector("#board").board.puzzle.rows === 3, null, { timeout: 5_000 });
    assert.deepEqual((await readBoard(hard)).dom, [1, 2, 3, 4, 5, 6, 0, 7, 8]);
    assert.ok(await hard.locator("#solve").isEnabled(), "the search ended");
    assert.ok(await hard.locator("#cancel").isDisabled());
    assert.equal(await hard.evaluate(() => location.hash), hash);
    assert.deepEqual([...page.errors, ...same.errors, ...hard.errors], []);
  });

  test("a malformed custom start shows the solver's message beside the input and leaves the board alone", options, async () => {
    const page = await session.newPage(hashFor(3, 3, "1,2,3,4,5,6,_,7,8"));
    const before = await readBoard(page);
    const hashBefore = await page.evaluate(() => location.hash);
    await setCustomStart(page, "1,2,3,4,5,6,7,8,8");
    const error = page.locator("#input-error");
    await error.waitFor({ state: "visible" });
    const message = (await error.textContent()).trim();
    assert.ok(message.length > 5, `an error message is shown (${message})`);
    assert.equal(await page.locator("#start-input").getAttribute("aria-invalid"), "true");
    // The message sits right under the inputs.
    const inputBox = await page.locator("#start-input").boundingBox();
    const errorBox = await error.boundingBox();
    assert.ok(errorBox.y >= inputBox.y && errorBox.y - (inputBox.y + inputBox.height) < 120, "error is beside the input");
    const afterState = await readBoard(page);
    assert.deepEqual(afterState.dom, before.dom);
    assert.deepEqual(afterState.model, before.model);
    assert.equal(await page.evaluate(() => location.hash), hashBefore);

    // Wrong length and a bad goal are refused too; fixing the input clears the message.
    await setCustomStart(page, "1,2,3");
    assert.ok(await error.isVisible());
    await setCustomStart(page, "1,2,3,4,5,6,7,8,_", "1,2,3,4,5,6,7,7,_");
    assert.ok(await error.isVisible());
    assert.deepEqual((await readBoard(page)).dom, before.dom);
    await setCustomStart(page, "1 2 3\n4 5 6\n7 _ 8");
    assert.ok(!(await error.isVisible()));
    assert.deepEqual((await readBoard(page)).dom, [1, 2, 3, 4, 5, 6, 7, 0, 8]);
    assert.deepEqual(page.errors, []);
  });

  test("the URL hash reproduces a custom puzzle, and hash changes apply", options, async () => {
    const page = await session.newPage();
    await setCustomStart(page, "8,6,7,2,5,4,3,_,1");
    const expected = [8, 6, 7, 2, 5, 4, 3, 0, 1];
    assert.deepEqual((await readBoard(page)).dom, expected);
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /^#size=3x3&start=8,6,7,2,5,4,3,_,1&goal=1,2,3,4,5,6,7,8,_$/);
    // Moves by hand do not rewrite the link.
    await clickCell(page, 6);
    assert.equal(await page.evaluate(() => location.hash), hash);

    const copy = await session.newPage(hash);
    assert.deepEqual((await readBoard(copy)).dom, expected);
    assert.equal(await copy.locator("#start-input").inputValue(), "8,6,7,2,5,4,3,_,1");

    // Editing the hash in place (hashchange) loads that puzzle, a rectangular one here.
    await copy.evaluate(() => (location.hash = "#size=2x3&start=_,1,2,4,5,3&goal=1,2,3,4,5,_"));
    await copy.waitForFunction(() => document.querySelector("#board").board.puzzle.cols === 3 && document.querySelector("#board").board.puzzle.rows === 2);
    const rectangle = await readBoard(copy);
    assert.deepEqual(rectangle.dom, [0, 1, 2, 4, 5, 3]);
    assert.equal(await copy.locator("#size").inputValue(), "2x3");

    // The sun & moon preset keeps its symbols through a link.
    await copy.selectOption("#size", "sun-moon");
    const sunMoonHash = await copy.evaluate(() => location.hash);
    assert.match(sunMoonHash, /preset=sun-moon/);
    const sunMoon = await session.newPage(sunMoonHash);
    const state = await readBoard(sunMoon);
    assert.deepEqual(state.dom, (await readBoard(copy)).dom);
    assert.ok(state.texts.every((text) => text === "☼" || text === "☾"), `symbols: ${state.texts}`);
    assert.equal(state.texts.filter((text) => text === "☼").length + state.texts.filter((text) => text === "☾").length, 8);

    // A link with a broken puzzle says so next to the input and still shows a board.
    const broken = await session.newPage("#size=3x3&start=1,1,1&goal=");
    assert.match(await broken.locator("#input-error").textContent(), /link's puzzle could not be used/);
    assert.equal((await readBoard(broken)).dom.length, 9);
    assert.deepEqual([...page.errors, ...copy.errors, ...sunMoon.errors, ...broken.errors], []);
  });

  test("every size from 2×2 to 5×5 renders its tiles", options, async () => {
    const page = await session.newPage();
    for (const rows of [2, 3, 4, 5]) {
      for (const cols of [2, 3, 4, 5]) {
        await page.selectOption("#size", `${rows}x${cols}`);
        const state = await readBoard(page);
        assert.equal(state.rows, rows);
        assert.equal(state.cols, cols);
        assert.deepEqual(state.dom, state.model, `${rows}x${cols}: DOM matches the Puzzle`);
        assert.deepEqual(
          [...state.dom].sort((a, b) => a - b),
          Array.from({ length: rows * cols }, (_, i) => i),
          `${rows}x${cols}: each tile once`,
        );
        assert.match(await page.evaluate(() => location.hash), new RegExp(`^#size=${rows}x${cols}&`));
        const bfsDisabled = await page.$eval('#algorithm option[value="bfs"]', (option) => option.disabled);
        assert.equal(bfsDisabled, rows * cols > 9, `${rows}x${cols}: BFS offered only for small boards`);
      }
    }
    assert.deepEqual(page.errors, []);
  });
});
