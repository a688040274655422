// A newcomer's tour of the sliding page: the move counter counts the solution player's moves too
// (its steps back take moves back, so a replay counts from the solution's start again),
// the "Solved!" banner leaves every tile in sight, and the Deep Q-learning card offers only the
// shipped models that fit the board (and says so when none does).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  FASTEST_SPEED,
  TEST_TIMEOUT_MS,
  clickCell,
  hashFor,
  readBoard,
  recordRequests,
  screenshotPath,
  setCustomStart,
  setRange,
  solveAndWait,
  solveAsChosen,
  standardGoalText,
  startSession,
  waitForLearnCard,
  waitUntilPlayedAndSolved,
} from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** Korf's instance 5 (data/korf100.txt): 56 moves from the goal with the blank first. */
const KORF_5 = "4,7,14,13,10,3,9,12,11,5,6,15,1,2,8,_";
const BLANK_FIRST_GOAL = "_,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";

/** Before a page loads (a beforeGoto): the page's widget's `move` events, as window.moveEvents. */
async function recordMoves(page) {
  await page.addInitScript(() => {
    window.moveEvents = [];
    document.addEventListener("move", (event) => window.moveEvents.push({ moves: event.detail.moves, source: event.detail.source }));
  });
}

/** What says how many moves were made: the counter under the board, the widget's state and its last `move` event. */
async function counts(page) {
  return page.evaluate(() => {
    const widget = document.querySelector("#board");
    return {
      counter: widget.board.shadowRoot.querySelector("[part=moves]").textContent,
      state: widget.state.moves,
      lastEvent: window.moveEvents.at(-1) ?? null,
      position: document.querySelector("#player [data-player=position]").textContent,
      solved: widget.board.hasAttribute("solved"),
      bannerVisible: !widget.board.shadowRoot.querySelector("[part=banner]").hidden,
    };
  });
}

/** Asserts that the counter, the widget's state and its last `move` event all say `moves`. */
async function assertMoves(page, moves, what) {
  const seen = await counts(page);
  assert.equal(seen.counter, `Moves: ${moves}`, `${what}: the counter`);
  assert.equal(seen.state, moves, `${what}: the widget's state`);
  if (moves > 0) assert.equal(seen.lastEvent?.moves, moves, `${what}: the last move event`);
  return seen;
}

/**
 * Where the "Solved!" banner of a widget's board sits, once the slides and its pop are over: its
 * box and text, the board's, frame's, bar's, counter's and goal preview's boxes, the tiles whose
 * boxes it overlaps (`covered`) and the tiles not drawn on top at their centre or near a corner of
 * their face (`hidden`).
 */
async function bannerPlacement(page, widget = "#board") {
  return page.evaluate(async (selector) => {
    const board = document.querySelector(selector).board;
    const root = board.shadowRoot;
    await Promise.all(root.getAnimations().map((animation) => animation.finished.catch(() => {})));
    board.scrollIntoView({ block: "center" });
    const box = (element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
    };
    const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const banner = root.querySelector("[part=banner]");
    const bannerBox = box(banner);
    const tiles = [...root.querySelectorAll(".tile")];
    const corners = [[0.5, 0.5], [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]];
    const drawn = (tile) => {
      const face = tile.querySelector(".face").getBoundingClientRect();
      return corners.every(([x, y]) => tile.contains(root.elementFromPoint(face.left + x * face.width, face.top + y * face.height)));
    };
    return {
      visible: !banner.hidden && bannerBox.width > 0 && bannerBox.height > 0,
      text: banner.textContent,
      banner: bannerBox,
      board: box(board),
      frame: box(root.querySelector("[part=frame]")),
      bar: box(root.querySelector("[part=bar]")),
      counter: box(root.querySelector("[part=moves]")),
      goal: box(root.querySelector("[part=goal]")),
      tiles: tiles.length,
      covered: tiles.filter((tile) => overlaps(box(tile), bannerBox)).map((tile) => tile.dataset.label),
      hidden: tiles.filter((tile) => !drawn(tile)).map((tile) => tile.dataset.label),
    };
  }, widget);
}

/** The height of the bar under a widget's board (the counter, the banner, the goal preview). */
function barHeightOf(page, widget = "#board") {
  return page.evaluate((selector) => document.querySelector(selector).board.shadowRoot.querySelector("[part=bar]").getBoundingClientRect().height, widget);
}

/** Asserts that the banner shows, inside the board element and under its frame, and hides no tile, nor the counter or the goal preview. */
function assertBannerClear(placement, what) {
  const { banner, board, frame, counter, goal } = placement;
  assert.ok(placement.visible, `${what}: the banner shows`);
  assert.ok(placement.tiles > 0, `${what}: the board has tiles`);
  assert.deepEqual(placement.covered, [], `${what}: the banner's box overlaps no tile's`);
  assert.deepEqual(placement.hidden, [], `${what}: every tile is drawn on top`);
  assert.ok(banner.y >= frame.y + frame.height, `${what}: the banner is below the board's frame`);
  assert.ok(banner.x >= board.x - 0.5 && banner.x + banner.width <= board.x + board.width + 0.5, `${what}: within the board's width`);
  assert.ok(banner.y + banner.height <= board.y + board.height + 0.5, `${what}: within the board element`);
  assert.ok(banner.x >= counter.x + counter.width, `${what}: right of the move counter`);
  assert.ok(banner.x + banner.width <= goal.x, `${what}: left of the goal preview`);
}

/** The hash of a numbered rows×cols board one move from the goal (the last tile left of its cell). */
function oneMoveFromGoal(rows, cols) {
  const cells = rows * cols;
  const start = Array.from({ length: cells }, (_, i) => (i === cells - 2 ? "_" : i === cells - 1 ? String(cells - 1) : String(i + 1)));
  return { start: start.join(","), hash: hashFor(rows, cols, start.join(","), standardGoalText(rows, cols)) };
}

describe("a newcomer's tour of the sliding page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("the move counter counts the solution player's moves: after a solve, a step back (a move taken back), a replay from the start, and from zero after a reset or a shuffle", options, async () => {
    const page = await session.newPage("", {}, { beforeGoto: recordMoves });
    await setRange(page, "#difficulty", 12);
    await page.click("#shuffle");
    assert.match(await page.locator("#shuffle-note").textContent(), /exactly 12 moves/);
    const shuffled = await readBoard(page);
    await assertMoves(page, 0, "shuffled");
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);

    const stats = await solveAndWait(page, "astar", "manhattan");
    assert.equal(stats.length, 12);
    await waitUntilPlayedAndSolved(page, 12);
    let seen = await assertMoves(page, 12, "after the 12-move solution played");
    assert.equal(seen.lastEvent.source, "playback");
    assert.ok(seen.bannerVisible);

    // A step back in the player slides a tile back: it takes a move back, and the board is no longer solved.
    await page.click("#player [data-player=back]");
    seen = await assertMoves(page, 11, "after a step back");
    assert.equal(seen.position, "Step 11 of 12");
    assert.ok(!seen.solved && !seen.bannerVisible);
    await page.click("#player [data-player=forward]");
    seen = await assertMoves(page, 12, "after a step forward");
    assert.ok(seen.solved && seen.bannerVisible);
    // A jump to the start takes every move back; Play counts them again, up to 12.
    await page.click("#player [data-player=start]");
    seen = await assertMoves(page, 0, "after the jump back to the start");
    assert.equal(seen.position, "Step 0 of 12");
    assert.deepEqual((await readBoard(page)).dom, shuffled.dom);
    await page.click("#player [data-player=play]");
    await waitUntilPlayedAndSolved(page, 12);
    seen = await assertMoves(page, 12, "after the replay");
    assert.ok(seen.solved && seen.bannerVisible);

    // A new puzzle starts from zero, whoever moved before.
    await page.click("#reset");
    await assertMoves(page, 0, "after Reset to goal");
    await page.focus("sliding-board");
    await page.keyboard.press("ArrowDown");
    await assertMoves(page, 1, "after a move by hand");
    await page.click("#shuffle");
    await assertMoves(page, 0, "after Shuffle");

    // Moves by hand and the player's add up: one by hand, then the solution from there.
    await page.selectOption("#size", "4x4");
    await assertMoves(page, 0, "a new size");
    await page.focus("sliding-board");
    for (const key of ["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight"]) {
      await page.keyboard.press(key);
      if ((await readBoard(page)).moves === 1) break;
    }
    await assertMoves(page, 1, "one move by hand on 4 × 4");
    const fifteen = await solveAndWait(page, "astar", "linear-conflict");
    assert.equal(fifteen.status, "solved");
    await waitUntilPlayedAndSolved(page, fifteen.length);
    await assertMoves(page, 1 + fifteen.length, `after the ${fifteen.length}-move solution played`);
    assert.deepEqual(page.errors, []);
  });

  test("a 56-move solution (Korf's instance 5) played to the goal shows 56 moves", options, async () => {
    const page = await session.newPage(hashFor(4, 4, KORF_5, BLANK_FIRST_GOAL), {}, { beforeGoto: recordMoves });
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    // The page's default on 4 × 4: IDA* with the pattern databases.
    assert.equal(await page.inputValue("#algorithm"), "idastar");
    assert.equal(await page.inputValue("#heuristic"), "pdb");
    const stats = await solveAsChosen(page);
    assert.equal(stats.status, "solved");
    assert.equal(stats.length, 56);
    assert.ok(stats.optimal);
    await waitUntilPlayedAndSolved(page, 56);
    const seen = await assertMoves(page, 56, "after the 56-move solution played");
    assert.ok(seen.bannerVisible);
    assert.equal(await page.evaluate(() => window.moveEvents.length), 56, "one move event a tile");
    assert.deepEqual(page.errors, []);
  });

  test("the Solved! banner sits under the board, next to the counter: no tile of a solved 3×3, 4×4 or narrow widget is hidden", options, async () => {
    for (const [rows, cols] of [[3, 3], [4, 4]]) {
      const { hash } = oneMoveFromGoal(rows, cols);
      const page = await session.newPage(hash);
      const barHeight = await barHeightOf(page);
      await clickCell(page, rows * cols - 1);
      const state = await readBoard(page);
      assert.ok(state.solved && state.bannerVisible, `${rows}×${cols}: solved by hand`);
      const placement = await bannerPlacement(page);
      assertBannerClear(placement, `${rows}×${cols}`);
      assert.equal(placement.text, "Solved in 1 move!");
      // The bar keeps its height: nothing under the board moves when the banner shows.
      assert.ok(Math.abs(placement.bar.height - barHeight) < 0.5, `${rows}×${cols}: the bar's height is unchanged (${barHeight} → ${placement.bar.height})`);
      await page.locator("#board").screenshot({ path: await screenshotPath(`sliding-solved-${rows}x${cols}.png`) });
      assert.deepEqual(page.errors, []);
    }

    // Embedded widgets at their default 340 px, the narrowest bars (the banner wraps onto two
    // lines): a board of two rows, the lowest bar, and a 5 × 5 board, the widest goal preview.
    const page = await session.newPage();
    await page.evaluate((boards) => {
      const row = document.createElement("div");
      row.id = "narrow";
      row.style.display = "flex";
      row.style.gap = "16px";
      for (const { id, size, start } of boards) {
        const widget = document.createElement("puzzle-widget");
        Object.assign(widget, { id });
        widget.setAttribute("size", size);
        widget.setAttribute("start", start);
        row.append(widget);
      }
      document.querySelector("main").before(row);
    }, [
      { id: "narrow-2x3", size: "2x3", start: oneMoveFromGoal(2, 3).start },
      { id: "narrow-5x5", size: "5x5", start: oneMoveFromGoal(5, 5).start },
    ]);
    await page.waitForFunction(() => ["narrow-2x3", "narrow-5x5"].every((id) => document.getElementById(id).hasAttribute("ready")));
    for (const [id, cells] of [["narrow-2x3", 6], ["narrow-5x5", 25]]) {
      const barHeight = await barHeightOf(page, `#${id}`);
      await clickCell(page, cells - 1, `#${id}`);
      assert.ok((await readBoard(page, `#${id}`)).solved, id);
      const placement = await bannerPlacement(page, `#${id}`);
      assertBannerClear(placement, id);
      assert.ok(Math.abs(placement.bar.height - barHeight) < 0.5, `${id}: the bar's height is unchanged (${barHeight} → ${placement.bar.height})`);
    }
    await page.locator("#narrow").screenshot({ path: await screenshotPath("sliding-solved-widgets.png") });
    assert.deepEqual(page.errors, []);
  });

  test("the shipped-model menu offers only the models that fit the board, follows it, and says so when none fits", options, async () => {
    const page = await session.newPage("", {}, { beforeGoto: recordRequests });
    await waitForLearnCard(page);
    const menu = () =>
      page.evaluate(() => {
        const select = document.querySelector("#dqn-shipped");
        return {
          options: Array.from(select.options, (option) => ({ value: option.value, text: option.textContent, disabled: option.disabled })),
          value: select.value,
          shown: !select.closest(".field").hidden,
          fit: document.querySelector("#dqn-fit").textContent,
          loadShipped: !document.querySelector("#dqn-load-shipped").disabled,
          solve: !document.querySelector("#dqn-solve").disabled,
          evaluate: !document.querySelector("#dqn-evaluate").disabled,
        };
      });
    /** Waits until the menu offers `values` (a model's file each), and returns it. */
    const offered = async (values) => {
      await page.waitForFunction(
        (wanted) => Array.from(document.querySelector("#dqn-shipped").options, (option) => option.value).join() === wanted.join(),
        values,
      );
      return menu();
    };
    const usable = { fit: "", loadShipped: true, solve: true, evaluate: true };
    /**
     * Photographs the card from its model line to its buttons, or to the line under them when it
     * says something, with the shipped-model menu drawn open as a list box (headless Chromium draws
     * no open menu).
     */
    const menuShot = async (name) => {
      const card = page.locator("#dqn");
      await page.evaluate(() => (document.querySelector("#dqn-shipped").size = document.querySelector("#dqn-shipped").options.length));
      await page.locator("#dqn-load-shipped").scrollIntoViewIfNeeded();
      const { x, width } = await card.boundingBox();
      const top = (await page.locator("#dqn-model-line").boundingBox()).y - 12;
      const last = (await page.locator("#dqn-fit").isVisible()) ? "#dqn-fit" : "#dqn-load-shipped";
      const end = await page.locator(last).boundingBox();
      await page.screenshot({ path: await screenshotPath(name), clip: { x, y: top, width, height: end.y + end.height + 12 - top } });
      await page.evaluate(() => (document.querySelector("#dqn-shipped").size = 0));
    };

    // 3 × 3: the 8-puzzle model only.
    let shown = await offered(["8puzzle.dqn"]);
    assert.deepEqual(shown.options, [{ value: "8puzzle.dqn", text: "8-puzzle · full backups", disabled: false }]);
    assert.ok(shown.shown);
    assert.deepEqual({ fit: shown.fit, loadShipped: shown.loadShipped, solve: shown.solve, evaluate: shown.evaluate }, usable);

    // 4 × 4: the two 15-puzzle models, not the 8-puzzle's.
    await page.selectOption("#size", "4x4");
    shown = await offered(["15puzzle.dqn", "15puzzle-values.dqn"]);
    assert.equal(shown.value, "15puzzle.dqn");
    assert.ok(shown.options.every((option) => !option.disabled && /^15-puzzle/.test(option.text)));
    assert.deepEqual({ fit: shown.fit, loadShipped: shown.loadShipped, solve: shown.solve, evaluate: shown.evaluate }, usable);
    // A choice that still fits is kept when the board changes.
    await page.selectOption("#dqn-shipped", "15puzzle-values.dqn");
    await page.click("#shuffle");
    assert.equal((await menu()).value, "15puzzle-values.dqn");
    await menuShot("sliding-dqn-models-4x4.png");

    // 2 × 3: none fits; the menu and the line under the buttons say so, and nothing can be fetched.
    await page.selectOption("#size", "2x3");
    await page.waitForFunction(() => document.querySelector("#dqn-shipped").options[0]?.disabled);
    shown = await menu();
    assert.equal(shown.value, "15puzzle-values.dqn", "the model chosen before stays the card's shipped model, unoffered");
    assert.deepEqual(shown.options.map(({ text, disabled }) => ({ text, disabled })), [{ text: "None for 2 × 3 boards", disabled: true }]);
    assert.match(shown.fit, /^No shipped model fits this 2 × 3 board: they solve 3 × 3 boards with the goal 1,2,3,4,5,6,7,8,_ and 4 × 4 boards with the goal 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_\. Train one here, or load a model file\.$/);
    assert.ok(!shown.loadShipped && !shown.solve && !shown.evaluate, "Load the shipped model, Solve and Evaluate wait for a model");
    await menuShot("sliding-dqn-models-2x3.png");

    // A 4 × 4 board with another goal has none either; nor has the sun & moon preset.
    await page.selectOption("#size", "4x4");
    await setCustomStart(page, BLANK_FIRST_GOAL, BLANK_FIRST_GOAL);
    await page.waitForFunction(() => document.querySelector("#dqn-shipped").options[0]?.disabled);
    shown = await menu();
    assert.equal(shown.options.length, 1);
    assert.equal(shown.options[0].text, "None for this goal");
    assert.match(shown.fit, /^No shipped model fits this 4 × 4 board with the goal _,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15: /);
    await page.selectOption("#size", "sun-moon");
    await page.waitForFunction(() => document.querySelector("#dqn-shipped").options[0]?.textContent === "None for sun & moon");
    assert.match((await menu()).fit, /^No shipped model fits the sun & moon preset/);
    await page.selectOption("#size", "5x5");
    await page.waitForFunction(() => /this 5 × 5 board/.test(document.querySelector("#dqn-fit").textContent));
    assert.match((await menu()).fit, /Load a model file for it\.$/, "5 × 5 is not among the sizes the form trains");

    // Back to 3 × 3: the 8-puzzle model again, usable.
    await page.selectOption("#size", "3x3");
    shown = await offered(["8puzzle.dqn"]);
    assert.deepEqual({ fit: shown.fit, loadShipped: shown.loadShipped, solve: shown.solve, evaluate: shown.evaluate }, usable);
    assert.ok(!page.requests.some((path) => path.endsWith(".dqn")), "no model was downloaded on the way");
    assert.deepEqual(page.errors, []);
  });
});
