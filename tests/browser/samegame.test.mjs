// The dust puzzle and SameGame in the page (www/samegame.html) and in <puzzle-widget puzzle="dust">
// and puzzle="samegame": hovering a pile shows its group's size (and SameGame's points), a click
// removes the group and the piles settle where the rules say (a hand-made board from the URL: the
// fall, then the columns closing toward the centre), the DOM's piles end where the game's cells
// are, undo restores, a solve on a small board proves the fewest clicks and plays to an empty
// board, a long solve shows progress and cancels, reduced motion means no animation, a bad board
// text in the URL is explained and a random board stays usable, and both widgets play.
// Screenshots: target/screenshots/dust.png and samegame.png.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, screenshotPath, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const PAGE = "/www/samegame.html";

async function openPage(session, hash, contextOptions = {}) {
  const page = await session.open(PAGE + hash, contextOptions);
  await waitForApp(page);
  return page;
}

/**
 * The board once its animations are over: the game's cells, and the cells the DOM shows (each
 * pile's colour where it sits on screen, 0 empty), the bar's texts and the status attribute.
 */
async function readBoard(page, selector = "#game") {
  return page.evaluate(async (selector) => {
    const host = document.querySelector(selector);
    const board = host.board ?? host;
    await board.settled;
    const root = board.shadowRoot;
    const { width, height } = board.game;
    const grid = root.querySelector(".grid").getBoundingClientRect();
    const dom = new Array(width * height).fill(0);
    for (const pile of root.querySelectorAll(".pile")) {
      const rect = pile.getBoundingClientRect();
      const col = Math.round(((rect.left - grid.left) / grid.width) * width);
      const row = Math.round(((rect.top - grid.top) / grid.height) * height);
      dom[row * width + col] = Number(pile.dataset.colour);
    }
    return {
      cells: Array.from(board.game.cells()),
      dom,
      counts: root.querySelector(".counts").textContent,
      info: root.querySelector(".group-info").textContent,
      badge: root.querySelector(".badge").hidden ? null : root.querySelector(".badge").textContent,
      highlighted: [...root.querySelectorAll(".pile.group")].map((pile) => Number(pile.dataset.cell)).sort((a, b) => a - b),
      status: board.getAttribute("status"),
      clicks: board.game.clicks,
    };
  }, selector);
}

const pile = (page, cell, selector = "#game") => page.locator(selector).locator(`.pile[data-cell="${cell}"]`);

describe("Dust and SameGame in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("hover shows the group, clicks fall and close toward the centre, undo restores", options, async () => {
    // 6 wide: the cut is between columns 3 and 4 (1-based).
    const page = await openPage(session, "#rules=dust&board=21....-123456");
    let board = await readBoard(page);
    assert.deepEqual(board.cells, [2, 1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(board.dom, board.cells);
    assert.equal(board.counts, "0 clicks · 8 piles left");

    await pile(page, 7).hover();
    board = await readBoard(page);
    assert.equal(board.info, "Group: 1 pile");
    assert.equal(board.badge, "1");
    assert.deepEqual(board.highlighted, [7]);

    // The 2 under the 1 goes: the 1 falls beside the other 1.
    await pile(page, 7).click();
    board = await readBoard(page);
    assert.deepEqual(board.cells, [2, 0, 0, 0, 0, 0, 1, 1, 3, 4, 5, 6]);
    assert.deepEqual(board.dom, board.cells);
    await pile(page, 6).hover();
    board = await readBoard(page);
    assert.equal(board.info, "Group: 2 piles");
    assert.deepEqual(board.highlighted, [6, 7]);

    // The two 1s go: the 2 falls, column 2 is empty and column 1 closes in to the right.
    await pile(page, 6).click();
    board = await readBoard(page);
    assert.deepEqual(board.cells, [0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 5, 6]);
    assert.deepEqual(board.dom, board.cells);
    assert.equal(board.counts, "2 clicks · 5 piles left");

    await page.click("#undo");
    board = await readBoard(page);
    assert.deepEqual(board.cells, [2, 0, 0, 0, 0, 0, 1, 1, 3, 4, 5, 6]);
    assert.deepEqual(board.dom, board.cells);
    await page.click("#undo");
    board = await readBoard(page);
    assert.deepEqual(board.cells, [2, 1, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6]);
    assert.equal(await page.locator("#undo").isDisabled(), true);

    // The share link holds the start board.
    const href = await page.locator("#share-line a").getAttribute("href");
    assert.equal(new URLSearchParams(href.slice(1)).get("board"), "21....-123456");

    // A seeded board, its hint ringed: the screenshot.
    await page.goto(new URL(`${PAGE}#rules=dust&seed=3`, session.url).href);
    await page.reload();
    await waitForApp(page);
    await page.click("#hint");
    assert.match(await page.textContent("#solver-status"), /^Click row \d, column \d \(\d+ piles?\)/);
    assert.ok((await page.locator("#game").locator(".pile.hint").count()) >= 1);
    await pile(page, 20).hover();
    await page.screenshot({ path: await screenshotPath("dust.png") });
    assert.deepEqual(page.errors, []);
  });

  test("Solve proves the fewest clicks of a small board and plays it to an empty board", options, async () => {
    const page = await openPage(session, "#rules=dust&board=1122-1212-2211");
    await page.locator("#speed").evaluate((input) => {
      input.value = "5";
      input.dispatchEvent(new Event("input"));
    });
    await page.click("#solve");
    await page.waitForFunction(() => document.querySelector("#game").getAttribute("status") === "cleared", null, { timeout: 20_000 });
    const board = await readBoard(page);
    assert.equal(board.clicks, 3);
    assert.ok(board.cells.every((c) => c === 0));
    assert.equal(board.dom.filter((c) => c !== 0).length, 0);
    assert.match(await page.textContent("#solver-status"), /^3 clicks, the fewest \(proved/);
    await page.waitForFunction(() => /the fewest possible \(proved\)/.test(document.querySelector("#end-status").textContent));
    assert.deepEqual(page.errors, []);
  });

  test("a long solve reports progress and cancels; the board stays playable", options, async () => {
    // Seed 0's board is not proved within 8 s in Chromium: the cancel comes long before the end.
    const page = await openPage(session, "#rules=dust&seed=0");
    await page.selectOption("#seconds", "60");
    await page.click("#solve");
    await page.waitForFunction(() => /^Searching: no clearing in fewer than \d+ clicks; best found \d+; .+ positions\.$/.test(document.querySelector("#solver-status").textContent), null, { timeout: 20_000 });
    assert.equal(await page.locator("#game").getAttribute("locked"), "");
    await page.click("#cancel");
    assert.equal(await page.textContent("#solver-status"), "Cancelled.");
    assert.equal(await page.locator("#game").getAttribute("locked"), null);
    assert.equal(await page.locator("#solve").isVisible(), true);
    await pile(page, 40).click();
    assert.equal((await readBoard(page)).clicks, 1);
    assert.deepEqual(page.errors, []);
  });

  test("SameGame: hover shows size and points, a click scores them, groups of one are refused", options, async () => {
    const page = await openPage(session, "#rules=samegame&seed=3");
    assert.equal(await page.locator("#rules").inputValue(), "samegame");
    const groups = await page.evaluate(() => {
      const game = document.querySelector("#game").game;
      const sizes = [];
      for (let cell = 0; cell < 225; cell += 1) sizes.push(game.group(cell).size);
      return sizes;
    });
    const big = groups.indexOf(Math.max(...groups));
    const single = groups.indexOf(1);
    await pile(page, big).hover();
    let board = await readBoard(page);
    const n = groups[big];
    assert.equal(board.info, `Group: ${n} piles · +${(n - 2) ** 2}`);
    assert.equal(board.highlighted.length, n);
    await pile(page, big).click();
    board = await readBoard(page);
    assert.match(board.counts, new RegExp(`^Score ${(n - 2) ** 2} · 1 click · ${225 - n} piles left$`));
    assert.deepEqual(board.dom, board.cells);
    // Columns close to the left: no empty column left of a pile on the bottom row.
    const bottom = board.cells.slice(14 * 15);
    assert.ok(bottom.indexOf(0) === -1 || bottom.slice(bottom.indexOf(0)).every((c) => c === 0));
    await page.screenshot({ path: await screenshotPath("samegame.png") });

    const before = board.cells;
    const refused = await page.evaluate(() => document.querySelector("#game").getAttribute("status"));
    assert.equal(refused, "playing");
    const singleNow = await page.evaluate(() => {
      const game = document.querySelector("#game").game;
      for (let cell = 0; cell < 225; cell += 1) if (game.group(cell)?.size === 1) return cell;
      return null;
    });
    assert.ok(single >= 0 && singleNow !== null);
    await pile(page, singleNow).click();
    board = await readBoard(page);
    assert.deepEqual(board.cells, before);
    assert.match(board.info, /groups of 2 or more/);
    assert.deepEqual(page.errors, []);
  });

  test("SameGame: Solve searches for its time budget and plays its best game to the end", options, async () => {
    const page = await openPage(session, "#rules=samegame&seed=8");
    await page.selectOption("#algo", "nmcs");
    await page.selectOption("#seconds", "5");
    await page.locator("#speed").evaluate((input) => {
      input.value = "5";
      input.dispatchEvent(new Event("input"));
    });
    await page.click("#solve");
    assert.match(await page.textContent("#solver-status"), /^Searching \(NMCS\): \d+ of 5 s(; best game so far \d+ points \(.+ playouts\))?…$/);
    // The best score so far shows while the search runs.
    await page.waitForFunction(() => /best game so far \d+ points/.test(document.querySelector("#solver-status").textContent), null, { timeout: 20_000 });
    const live = Number((await page.textContent("#solver-status")).match(/best game so far (\d+) points/)[1]);
    await page.waitForFunction(() => /^Best game found/.test(document.querySelector("#solver-status").textContent), null, { timeout: 20_000 });
    const said = Number((await page.textContent("#solver-status")).match(/^Best game found: (\d+) more points/)[1]);
    assert.ok(said >= live, `the game played (${said}) is at least the best seen while searching (${live})`);
    await page.waitForFunction(() => document.querySelector("#game").getAttribute("status") !== "playing", null, { timeout: 30_000 });
    const end = await page.evaluate(() => ({ score: document.querySelector("#game").game.score, text: document.querySelector("#end-status").textContent }));
    assert.equal(end.score, said);
    assert.match(end.text, new RegExp(`score ${said}`));
    const board = await readBoard(page);
    assert.deepEqual(board.dom, board.cells);
    assert.deepEqual(page.errors, []);
  });

  test("a bad board text in the URL is explained and a random board stays usable", options, async () => {
    const page = await openPage(session, "#rules=dust&board=12x-123");
    const error = await page.locator("#board-error");
    assert.equal(await error.isVisible(), true);
    assert.match(await error.textContent(), /unexpected character 'x' at row 1, column 3.*A random board is shown instead\./);
    let board = await readBoard(page);
    assert.equal(board.cells.length, 48);
    assert.equal(board.cells.filter((c) => c !== 0).length, 48);
    await pile(page, 47).click();
    board = await readBoard(page);
    assert.equal(board.clicks, 1);
    assert.deepEqual(board.dom, board.cells);
    assert.deepEqual(page.errors, []);
  });

  test("with reduced motion a click moves the piles at once", options, async () => {
    const page = await openPage(session, "#rules=dust&board=21....-123456", { reducedMotion: "reduce" });
    await pile(page, 6).click();
    const running = await page.evaluate(() => document.querySelector("#game").shadowRoot.getAnimations().length);
    assert.equal(running, 0);
    const board = await readBoard(page);
    assert.deepEqual(board.dom, board.cells);
  });
});

describe('<puzzle-widget puzzle="dust"> and puzzle="samegame"', () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("both render and play; a dust widget solves its start board to an empty board", options, async () => {
    const page = await session.newWidgetPage("/www/embed.html");
    await page.evaluate(async () => {
      window.clusterEvents = [];
      const add = (id, attributes) => {
        const widget = document.createElement("puzzle-widget");
        widget.id = id;
        for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value);
        for (const type of ["move", "over", "error"]) {
          widget.addEventListener(type, (event) => window.clusterEvents.push({ id, type, detail: JSON.parse(JSON.stringify(event.detail)) }));
        }
        document.body.prepend(widget);
        return widget.ready;
      };
      await add("same", { puzzle: "samegame", seed: "4" });
      await add("dust", { puzzle: "dust", seed: "4", speed: "60" });
    });
    const state = (id) => page.evaluate((id) => document.getElementById(id).state, id);
    let dust = await state("dust");
    const same = await state("same");
    assert.deepEqual([dust.puzzle, dust.width, dust.height, dust.seed, dust.cells.length], ["dust", 8, 6, 4, 48]);
    assert.deepEqual([same.puzzle, same.width, same.height, same.seed, same.cells.length], ["samegame", 15, 15, 4, 225]);
    const expected = await page.evaluate(async () => {
      const api = await import("../pkg/puzzlelab.js");
      const game = new api.SameGameHandle("dust", 4);
      const cells = Array.from(game.cells());
      game.free();
      return cells;
    });
    assert.deepEqual(dust.cells, expected);

    // A click in the dust widget removes the group; the move event says so; undo() takes it back.
    await page.locator("#dust >> samegame-board >> .pile[data-cell='44']").click();
    dust = await state("dust");
    assert.equal(dust.clicks, 1);
    const move = await page.evaluate(() => window.clusterEvents.find((e) => e.type === "move"));
    assert.deepEqual([move.id, move.detail.action, move.detail.cell, move.detail.source], ["dust", "click", 44, "user"]);
    assert.equal(await page.evaluate(() => document.getElementById("dust").undo()), true);
    assert.deepEqual((await state("dust")).cells, expected);

    // A start board: solve() proves the fewest clicks and plays them to an empty board.
    await page.evaluate(() => document.getElementById("dust").setAttribute("start", "1122/1212/2211"));
    await page.waitForFunction(() => document.getElementById("dust").state.width === 4);
    const found = await page.evaluate(() => document.getElementById("dust").solve());
    assert.equal(found.optimal, true);
    assert.equal(found.cells.length, 3);
    await page.waitForFunction(() => document.getElementById("dust").state.cleared, null, { timeout: 20_000 });
    const over = await page.evaluate(() => window.clusterEvents.find((e) => e.id === "dust" && e.type === "over").detail);
    assert.deepEqual([over.clicks, over.cleared, over.source], [3, true, "solver"]);
    assert.match(await page.evaluate(() => document.getElementById("dust").shadowRoot.querySelector(".status").textContent), /Cleared in 3 clicks/);

    // A bad start board: the error is shown and fired; the board stays.
    await page.evaluate(() => document.getElementById("dust").setAttribute("start", "12x"));
    await page.waitForFunction(() => window.clusterEvents.some((e) => e.type === "error"));
    const error = await page.evaluate(() => window.clusterEvents.find((e) => e.type === "error").detail);
    assert.equal(error.attribute, "start");
    assert.match(error.message, /unexpected character 'x'/);
    assert.equal((await state("dust")).width, 4);

    // SameGame's hint names a legal group.
    const hint = await page.evaluate(() => document.getElementById("same").hint());
    assert.ok(hint.group.length >= 2 && hint.group.includes(hint.cell), JSON.stringify(hint));
    assert.deepEqual(page.errors, []);
  });
});
