// 2048 in the page (www/2048.html) and in <puzzle-widget puzzle="2048">: keys, WASD and swipes play
// the moves the Rust rules say (checked against a Game2048 handle replaying the same seed), the
// board the DOM shows is the game's, game over and "Try again", the best score across a reload,
// the shipped n-tuple network downloads with progress and plays, the training card's api hands a
// network to the agent, the page leads with the game and the agent (the training cards folded until
// opened), and the widget plays and is played. Screenshots: target/screenshots/2048-page.png
// (desktop, after the agent played), 2048-first-screen.png and 2048-folded.png (1280×900: the first
// screen, the whole page), 2048-gameover.png and 2048-phone.png (the first screen of a 390×844 phone).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, screenshotPath, setRange, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const slow = { timeout: 2 * TEST_TIMEOUT_MS };
const PAGE = "/www/2048.html";
const EMBED = "/www/embed.html";
const SEED = 42;
/** Full and stuck but for the two 16s; after Left (32 points) it is over whatever tile comes. */
const NEAR_END = "2 4 2 4 / 4 2 4 2 / 2 4 2 8 / 16 16 8 32";
const KEY_DIRECTIONS = { ArrowUp: "up", ArrowRight: "right", ArrowDown: "down", ArrowLeft: "left", w: "up", d: "right", s: "down", a: "left" };

/** Opens the 2048 page at `hash` in a new context and waits until it has started. */
async function open2048(session, hash = "", contextOptions = {}, { beforeGoto } = {}) {
  const page = await session.open(PAGE + hash, contextOptions, { beforeGoto });
  await waitForApp(page);
  return page;
}

/**
 * What a <game2048-board> shows once its animations are over: tile values by the cell each tile's
 * face sits in on screen (0 = empty), next to the game's own board, the score shown and the game's.
 * `selector`: the board, or a <puzzle-widget> (its inner board).
 */
async function readGame(page, selector = "#game") {
  return page.evaluate(async (sel) => {
    const host = document.querySelector(sel);
    const board = host.localName === "puzzle-widget" ? host.board : host;
    await board.settled;
    const root = board.shadowRoot;
    const cells = [...root.querySelectorAll(".cells span")].map((cell) => cell.getBoundingClientRect());
    const dom = new Array(16).fill(0);
    for (const tile of root.querySelectorAll(".tile:not(.leaving)")) {
      const face = tile.querySelector(".face").getBoundingClientRect();
      const x = face.left + face.width / 2;
      const y = face.top + face.height / 2;
      const cell = cells.findIndex((rect) => x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom);
      dom[cell] = Number(tile.querySelector(".face").textContent);
    }
    const overlay = root.querySelector("[part=overlay]");
    return {
      dom,
      model: Array.from(board.game.board(), (e) => (e === 0 ? 0 : 2 ** e)),
      tiles: root.querySelectorAll(".tile").length,
      scoreText: Number(root.querySelector("[data-score]").textContent.replace(/,/g, "")),
      bestText: root.querySelector("[part=best]").hidden ? null : Number(root.querySelector("[data-best]").textContent.replace(/,/g, "")),
      score: board.game.score,
      moves: board.game.moves,
      over: board.hasAttribute("over"),
      overlay: overlay.hidden ? null : { kind: overlay.dataset.kind, text: overlay.textContent.replace(/\s+/g, " ").trim() },
    };
  }, selector);
}

/**
 * Replays `directions` from `seed` on a fresh Game2048 handle in the page (the Rust rules, not the
 * page's): the board (tile values) and score after each move.
 */
async function replay(page, seed, directions, alwaysTwo = false) {
  return page.evaluate(
    async ([seed, directions, alwaysTwo]) => {
      const { loadWasm } = await import("/www/common/wasm.js");
      const api = await loadWasm();
      const game = new api.Game2048(seed, alwaysTwo);
      const values = () => Array.from(game.board(), (e) => (e === 0 ? 0 : 2 ** e));
      const steps = [{ board: values(), score: game.score }];
      for (const direction of directions) {
        game.play(direction);
        steps.push({ board: values(), score: game.score });
      }
      game.free();
      return steps;
    },
    [seed, directions, alwaysTwo],
  );
}

/** Shows a board given as text on the page's <game2048-board> (the test hook: its `game` property). */
async function showBoard(page, text, selector = "#game") {
  await page.evaluate(
    async ([text, sel]) => {
      const { loadWasm } = await import("/www/common/wasm.js");
      const api = await loadWasm();
      document.querySelector(sel).game = api.Game2048.fromText(text, 7, false);
    },
    [text, selector],
  );
}

/** A swipe on the board: a finger (CDP touch events, which Chromium turns into touch pointers) or the mouse. */
async function swipe(page, direction, { touch = false, selector = "#game" } = {}) {
  const box = await page.locator(`${selector} >> .frame`).boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const distance = box.width / 3;
  const [dx, dy] = { up: [0, -1], right: [1, 0], down: [0, 1], left: [-1, 0] }[direction];
  if (touch) {
    const client = await page.context().newCDPSession(page);
    const point = (f) => [{ x: x + dx * distance * f, y: y + dy * distance * f }];
    await client.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: point(0) });
    for (const f of [0.25, 0.5, 0.75, 1]) await client.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: point(f) });
    await client.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await client.detach();
  } else {
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx * distance, y + dy * distance, { steps: 5 });
    await page.mouse.up();
  }
}

describe("2048 in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("arrow keys and WASD play the moves of the Rust rules, seed for seed", options, async () => {
    const page = await open2048(session, `#seed=${SEED}`);
    const same = (a, b) => a.score === b.score && a.board.every((value, i) => value === b.board[i]);
    const keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowDown", "a", "s", "d", "w", "s", "a", "ArrowDown", "ArrowRight"];
    const expected = await replay(page, SEED, keys.map((key) => KEY_DIRECTIONS[key]));

    let shown = await readGame(page);
    assert.deepEqual(shown.dom, expected[0].board, "the seed's two starting tiles");
    assert.equal(shown.dom.filter((value) => value > 0).length, 2);
    assert.deepEqual(shown.model, shown.dom);
    assert.equal(shown.scoreText, 0);

    // The arrows from the page (focus on the body), WASD with the board focused.
    for (const [i, key] of keys.entries()) {
      if (key === "a") await page.focus("#game");
      await page.keyboard.press(key);
      shown = await readGame(page);
      assert.deepEqual(shown.dom, expected[i + 1].board, `after ${keys.slice(0, i + 1).join(" ")}`);
      assert.deepEqual(shown.model, shown.dom);
      assert.equal(shown.score, expected[i + 1].score);
      assert.equal(shown.scoreText, expected[i + 1].score, "the score shown");
    }
    assert.ok(shown.score > 0, "some tiles merged");
    assert.ok(shown.tiles === shown.dom.filter((value) => value > 0).length, "no tile element is left over from a merge");
    // A screen reader reads the tiles from the grid's label, and hears each move with the board it left.
    const spoken = await page.evaluate(() => {
      const root = document.querySelector("#game").shadowRoot;
      return { grid: root.querySelector("[part=grid]").getAttribute("aria-label"), said: root.querySelector("[role=status]").textContent };
    });
    const rowsText = [0, 1, 2, 3].map((row) => `Row ${row + 1}: ${shown.dom.slice(row * 4, row * 4 + 4).map((value) => (value ? String(value) : "empty")).join(", ")}.`).join(" ");
    assert.equal(spoken.grid, `Tiles: ${rowsText}`);
    const lastMoved = [...keys.keys()].reverse().find((i) => !same(expected[i], expected[i + 1]));
    assert.equal(spoken.said, `${{ up: "Up", right: "Right", down: "Down", left: "Left" }[KEY_DIRECTIONS[keys[lastMoved]]]}: score ${expected[lastMoved + 1].score.toLocaleString("en")}${expected[lastMoved + 1].score > expected[lastMoved].score ? ` (+${(expected[lastMoved + 1].score - expected[lastMoved].score).toLocaleString("en")})` : ""}. ${rowsText}`);

    // Keys that a control needs stay with it: the speed slider takes the arrows.
    await page.focus("#agent-speed");
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual((await readGame(page)).dom, shown.dom);
    // Undo takes the last move that changed the board back.
    let last = keys.length - 1;
    while (same(expected[last], expected[last + 1])) last -= 1;
    await page.click("#undo");
    const undone = await readGame(page);
    assert.deepEqual(undone.dom, expected[last].board);
    assert.equal(undone.score, expected[last].score);
    assert.deepEqual(page.errors, []);
  });

  test("swipes with a finger or the mouse play moves", options, async () => {
    const page = await open2048(session, `#seed=${SEED + 1}`, { hasTouch: true });
    const directions = ["left", "up", "right", "down", "left"];
    const expected = await replay(page, SEED + 1, directions);
    for (const [i, direction] of directions.entries()) {
      await swipe(page, direction, { touch: i % 2 === 0 });
      const shown = await readGame(page);
      assert.deepEqual(shown.dom, expected[i + 1].board, `after swiping ${directions.slice(0, i + 1).join(" ")}`);
      assert.equal(shown.score, expected[i + 1].score);
    }
    // A tap is not a swipe.
    const before = await readGame(page);
    const box = await page.locator("#game >> .frame").boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    assert.deepEqual((await readGame(page)).dom, before.dom);
    assert.deepEqual(page.errors, []);
  });

  test("game over shows the score and Try again starts a new game (2048-gameover.png)", options, async () => {
    const page = await open2048(session);
    await showBoard(page, NEAR_END);
    let shown = await readGame(page);
    assert.deepEqual(shown.dom, [2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 8, 16, 16, 8, 32]);
    assert.equal(shown.over, false);
    assert.equal(shown.overlay, null);

    await page.keyboard.press("ArrowUp"); // changes nothing
    assert.equal((await readGame(page)).moves, 0);
    await page.keyboard.press("ArrowLeft");
    shown = await readGame(page);
    assert.deepEqual(shown.dom.slice(0, 15), [2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 8, 32, 8, 32]);
    assert.ok([2, 4].includes(shown.dom[15]), "the new tile fills the last cell");
    assert.equal(shown.score, 32);
    assert.equal(shown.over, true);
    assert.equal(shown.overlay?.kind, "over");
    assert.match(shown.overlay.text, /^Game over! Score 32 · largest tile 32/);
    const overlay = page.locator("#game >> [part=overlay]");
    await overlay.waitFor({ state: "visible" });
    await page.waitForTimeout(1000); // the overlay fades in
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator(".game2048-card").screenshot({ path: await screenshotPath("2048-gameover.png") });

    // No key plays any more; Try again starts a fresh game.
    await page.keyboard.press("ArrowRight");
    assert.equal((await readGame(page)).moves, 1);
    await page.click("#game >> [data-action=retry]");
    shown = await readGame(page);
    assert.equal(shown.overlay, null);
    assert.equal(shown.over, false);
    assert.equal(shown.score, 0);
    assert.equal(shown.dom.filter((value) => value > 0).length, 2);
    assert.deepEqual(page.errors, []);
  });

  test("reaching 2048 says so and lets the game go on", options, async () => {
    const page = await open2048(session);
    await showBoard(page, "1024 1024 . . / . . . . / . . . . / . . . 2");
    await page.keyboard.press("ArrowLeft");
    const shown = await readGame(page);
    assert.equal(shown.dom[0], 2048);
    assert.equal(shown.overlay?.kind, "won");
    assert.match(shown.overlay.text, /^You win!/);
    // The overlay waits for an answer before the game goes on.
    await page.keyboard.press("ArrowDown");
    assert.equal((await readGame(page)).moves, 1);
    await page.click("#game >> [data-action=keep-going]");
    assert.equal((await readGame(page)).overlay, null);
    await page.keyboard.press("ArrowDown");
    const after = await readGame(page);
    assert.equal(after.moves, 2);
    assert.equal(after.overlay, null, "2048 is announced once a game");
    assert.deepEqual(page.errors, []);
  });

  test("the game going on and the best score are kept across a reload; an undo too; a game that is over is not", options, async () => {
    const page = await open2048(session, `#seed=${SEED}`);
    assert.equal((await readGame(page)).bestText, 0);
    const keys = ["ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"];
    let shown;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(keys[i % keys.length]);
      shown = await readGame(page);
      if (shown.score >= 16) break;
    }
    assert.ok(shown.score >= 16, `the score grew (${shown.score})`);
    assert.equal(shown.bestText, shown.score, "the best follows the score of a better game");
    await page.reload();
    await waitForApp(page);
    let reloaded = await readGame(page);
    assert.deepEqual([reloaded.dom, reloaded.score, reloaded.moves], [shown.dom, shown.score, shown.moves], "the same game goes on");
    assert.equal(reloaded.bestText, shown.score, "the best survived the reload");
    assert.equal(await page.evaluate(() => localStorage.getItem("puzzlelab-2048-best")), String(shown.score));
    assert.match(await page.locator("#seed-line").textContent(), new RegExp(`seed: ${SEED} `));

    // An undo is kept: the game after a reload is the one before the last move, and the same move
    // again brings the same new tile (the game's generator went back with it).
    await page.keyboard.press("ArrowUp");
    const afterUp = await readGame(page);
    await page.click("#undo");
    const undone = await readGame(page);
    assert.equal(undone.moves, shown.moves);
    await page.reload();
    await waitForApp(page);
    reloaded = await readGame(page);
    assert.deepEqual([reloaded.dom, reloaded.moves], [undone.dom, undone.moves]);
    await page.keyboard.press("ArrowUp");
    assert.deepEqual((await readGame(page)).dom, afterUp.dom);

    // New game while the address names the first game's seed: the address follows the new game,
    // so a reload goes on with it.
    await page.click("#new-game");
    let fresh = await readGame(page);
    assert.equal(fresh.score, 0);
    const newSeed = (await page.locator("#seed-line").textContent()).match(/seed: (\d+)/)[1];
    assert.equal(new URL(page.url()).hash, `#seed=${newSeed}`);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowDown");
    fresh = await readGame(page);
    await page.reload();
    await waitForApp(page);
    assert.deepEqual((await readGame(page)).dom, fresh.dom);

    // Without a seed in the address the kept game goes on too; New game starts one that is kept instead.
    await page.goto(new URL("2048.html", page.url()).href);
    await waitForApp(page);
    assert.deepEqual((await readGame(page)).dom, fresh.dom);
    await page.click("#new-game");
    fresh = await readGame(page);
    assert.equal(new URL(page.url()).hash, "", "a plain address stays plain");
    await page.reload();
    await waitForApp(page);
    assert.deepEqual((await readGame(page)).dom, fresh.dom);

    // A seed put into the address of the open page starts that game.
    await page.evaluate(() => (location.hash = "#seed=7"));
    await page.waitForFunction(() => /seed: 7 /.test(document.querySelector("#seed-line").textContent));
    assert.deepEqual((await readGame(page)).dom, (await replay(page, 7, []))[0].board);

    // A game that is over is forgotten: the next visit starts a new one.
    await showBoard(page, NEAR_END);
    await page.keyboard.press("ArrowLeft");
    assert.equal((await readGame(page)).over, true);
    await page.reload();
    await waitForApp(page);
    reloaded = await readGame(page);
    assert.deepEqual([reloaded.over, reloaded.score, reloaded.moves], [false, 0, 0]);
    assert.deepEqual(page.errors, []);
  });

  test("the agent downloads the shipped network with progress, hints, and plays (2048-page.png)", slow, async () => {
    const requests = [];
    const page = await open2048(session, `#seed=${SEED}`, {}, {
      beforeGoto: async (page) => {
        page.on("request", (request) => requests.push(new URL(request.url()).pathname));
        // Every text the download line shows, in order.
        await page.addInitScript(() => {
          window.downloadTexts = [];
          addEventListener("DOMContentLoaded", () => {
            const text = document.querySelector("#agent-download-text");
            new MutationObserver(() => window.downloadTexts.push(text.textContent)).observe(text, { childList: true, characterData: true, subtree: true });
          });
        });
      },
    });
    assert.match(await page.locator("#agent-model").textContent(), /^Not loaded yet/);
    assert.ok(!requests.some((path) => path.endsWith(".ntuple.gz")), "nothing downloads before the agent is used");

    // Hint: the agent's move, as NTupleAgent.bestMove gives it for this board.
    await page.click("#agent-hint");
    await page.waitForFunction(() => /^Hint: /.test(document.querySelector("#agent-status").textContent), null, { timeout: 30_000 });
    const downloadTexts = await page.evaluate(() => window.downloadTexts);
    assert.ok(downloadTexts.some((text) => /^Downloading the network… [\d.]+ of 4\.1 MB$/.test(text)), `progress shown: ${JSON.stringify(downloadTexts.slice(-3))}`);
    assert.match(await page.locator("#agent-model").textContent(), /Shipped network: 4 × 5-tuples, 4,194,304 weights, trained on 1,110,000 games/);
    const hint = await page.evaluate(async () => {
      const { shippedNetwork } = await import("/www/2048/agent.js");
      const agent = await shippedNetwork();
      const board = document.querySelector("#game");
      return { shown: board.shadowRoot.querySelector("[part=hint]").dataset.direction, expected: agent.bestMove(board.game, 1) };
    });
    assert.ok(["up", "right", "down", "left"].includes(hint.expected));
    assert.equal(hint.shown, hint.expected, "the arrow over the board is the agent's move");
    assert.equal(await page.locator("#agent-status").textContent(), `Hint: ${{ up: "↑", right: "→", down: "↓", left: "←" }[hint.expected]} ${hint.expected}.`);

    // Step with expectimax at depth 2, then play at the fastest speed.
    await page.selectOption("#agent-depth", "2");
    await page.click("#agent-step");
    await page.waitForFunction(() => document.querySelector("#agent-stat-moves").textContent === "1");
    await page.selectOption("#agent-depth", "1");
    await setRange(page, "#agent-speed", 8);
    await page.click("#agent-play");
    await page.waitForFunction(() => Number(document.querySelector("#agent-stat-moves").textContent.replace(/,/g, "")) >= 150, null, { timeout: 30_000 });
    await page.click("#agent-play"); // pause
    assert.equal(await page.locator("#agent").getAttribute("data-state"), "idle");
    const shown = await readGame(page);
    assert.deepEqual(shown.dom, shown.model, "the DOM shows the game after many fast moves");
    assert.ok(shown.moves >= 151 && shown.score > 500, `the agent scores (${shown.score} in ${shown.moves} moves)`);
    assert.equal(shown.scoreText, shown.score);
    assert.equal(shown.bestText, 0, "an agent's game is not the person's best");
    assert.ok(await page.locator("#assisted-note").isVisible());
    assert.equal(requests.filter((path) => path.endsWith("/2048-ntuple.ntuple.gz")).length, 1, "the network downloads once");

    // A few slow moves, so that the screenshot shows a board mid-game.
    await setRange(page, "#agent-speed", 2);
    await page.click("#agent-step");
    await readGame(page);
    await page.waitForTimeout(700); // the score's "+N" floats away
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: await screenshotPath("2048-page.png"), fullPage: true });

    // The agent's game is kept as it is, and still marked as helped after a reload: a move of the
    // person's then is not a best either.
    const before = await readGame(page);
    await page.reload();
    await waitForApp(page);
    const reloaded = await readGame(page);
    assert.deepEqual([reloaded.dom, reloaded.score], [before.dom, before.score]);
    assert.ok(await page.locator("#assisted-note").isVisible(), "the game is still marked as helped");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowDown");
    assert.equal((await readGame(page)).bestText, 0);
    assert.deepEqual(page.errors, []);
  });

  test("the training card's api hands a network to the agent; the page works without the card", slow, async () => {
    // A stand-in for 2048/train-panel.js that keeps the api it is given.
    const fake = async (page) =>
      page.route("**/www/2048/train-panel.js", (route) =>
        route.fulfill({
          contentType: "text/javascript",
          body: 'export function mountTrain2048Panel(section, api) { window.trainApi = api; section.dataset.mounted = "yes"; }',
        }),
      );
    const page = await open2048(session, `#seed=${SEED}`, {}, { beforeGoto: fake });
    await page.waitForFunction(() => document.querySelector("#train-2048").dataset.mounted === "yes");
    const bad = await page.evaluate(() => window.trainApi.useNetwork(new Uint8Array([1, 2, 3, 4])).then(() => "accepted", (error) => error.message));
    assert.match(bad, /not a puzzlelab 2048 n-tuple network file/);
    const used = await page.evaluate(async () => {
      const bytes = await window.trainApi.shippedNetworkBytes();
      return { first: Array.from(bytes.slice(0, 8)), info: await window.trainApi.useNetwork(bytes, "Test network") };
    });
    assert.equal(String.fromCharCode(...used.first), "PZL2048N", "the shipped file, unpacked");
    assert.deepEqual(used.info, { tupleSet: "4x5", gamesTrained: 1_110_000, weights: 4_194_304 });
    assert.match(await page.locator("#agent-model").textContent(), /^Test network: 4 × 5-tuples/);
    await page.click("#agent-step");
    await page.waitForFunction(() => document.querySelector("#agent-stat-moves").textContent === "1");
    assert.equal((await readGame(page)).moves, 1);
    assert.deepEqual(page.errors, []);

    // Without the card's module the game still plays, and the card says why it is empty.
    const missing = await open2048(session, `#seed=${SEED}`, {}, {
      beforeGoto: (page) => page.route("**/www/2048/train-panel.js", (route) => route.fulfill({ status: 404, body: "" })),
    });
    await missing.waitForFunction(() => document.querySelector("#train-2048 .help") !== null);
    assert.match(await missing.locator("#train-2048").textContent(), /not available/);
    await missing.keyboard.press("ArrowLeft");
    await missing.keyboard.press("ArrowDown");
    assert.ok((await readGame(missing)).moves >= 1);
    const unexpected = missing.errors.filter((error) => !/404|Failed to fetch dynamically imported module/.test(error));
    assert.deepEqual(unexpected, []);
  });

  test("the first screen is the game and its agent; the training cards are folded until opened (2048-first-screen.png, 2048-folded.png)", options, async () => {
    const page = await open2048(session, `#seed=${SEED}`);
    await page.waitForFunction(() => document.querySelector("#t2048-start") && document.querySelector("#d2048-start"));
    const cards = ["#train-2048", "#dqn-2048"];
    for (const card of cards) {
      assert.equal(await page.locator(card).evaluate((element) => element.localName === "details" && !element.open), true, `${card} is folded`);
      assert.ok(await page.locator(`${card} > summary h2`).isVisible(), `${card}: its heading shows`);
    }
    assert.ok(await page.locator("#t2048-start").isHidden());
    assert.ok(await page.locator("#d2048-start").isHidden());
    // The board and the agent's controls are on the first screen (1280×900), whole.
    const bottoms = await page.evaluate(() =>
      Object.fromEntries(["#game", "#agent-play", "#agent-step", "#agent-hint", "#agent-depth", "#agent-speed", "#new-game"].map((id) => [id, document.querySelector(id).getBoundingClientRect().bottom])),
    );
    for (const [id, bottom] of Object.entries(bottoms)) assert.ok(bottom <= 900, `${id} is on the first screen (its bottom at ${Math.round(bottom)} px)`);
    const folded = await page.evaluate(() => document.documentElement.scrollHeight);
    // Unfolded, the page was about 5,700 px tall at this size.
    assert.ok(folded < 1_800, `the page is short with its cards folded (${folded} px)`);
    await page.screenshot({ path: await screenshotPath("2048-first-screen.png") });
    await page.screenshot({ path: await screenshotPath("2048-folded.png"), fullPage: true });

    // A card opens on a click of its heading, and folds again.
    for (const card of cards) {
      await page.locator(`${card} > summary`).click();
      assert.ok(await page.locator(card).evaluate((element) => element.open));
    }
    assert.ok(await page.locator("#t2048-start").isVisible());
    assert.ok(await page.locator("#d2048-start").isVisible());
    const unfolded = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(unfolded > folded + 2_000, `the cards hold the rest of the page (${unfolded} px open, ${folded} px folded)`);
    for (const card of cards) await page.locator(`${card} > summary`).click();
    assert.equal(await page.evaluate(() => document.documentElement.scrollHeight), folded);
    // The keys still play the game.
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowUp");
    assert.ok((await readGame(page)).moves >= 1);
    assert.deepEqual(page.errors, []);
  });

  test("phone: the page fits 390 px and the board fills the width (2048-phone.png)", options, async () => {
    const page = await open2048(session, `#seed=${SEED}`, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
    await swipe(page, "left", { touch: true });
    await swipe(page, "down", { touch: true });
    const expected = await replay(page, SEED, ["left", "down"]);
    const shown = await readGame(page);
    assert.deepEqual(shown.dom, expected[2].board);
    const widths = await page.evaluate(() => ({
      document: document.documentElement.scrollWidth,
      board: document.querySelector("#game").shadowRoot.querySelector(".frame").getBoundingClientRect().width,
    }));
    assert.ok(widths.document <= 390, `no sideways scrolling (${widths.document}px)`);
    assert.ok(widths.board >= 320, `the board uses the screen's width (${widths.board}px)`);
    await page.waitForTimeout(700); // the score's "+4" floats away
    // The screen as the phone shows it, not the whole (long) page.
    await page.screenshot({ path: await screenshotPath("2048-phone.png") });
    assert.deepEqual(page.errors, []);
  });
});

describe('<puzzle-widget puzzle="2048">', () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("renders the seed's game, plays keys, hints and lets its agent play", slow, async () => {
    const page = await session.newWidgetPage(EMBED, {}, {
      beforeGoto: (page) =>
        page.addInitScript(() => {
          window.widgetEvents = [];
          for (const type of ["move", "won", "gameover", "error"]) {
            document.addEventListener(type, (event) => {
              if (event.target?.id === "game-2048") window.widgetEvents.push({ type, detail: JSON.parse(JSON.stringify(event.detail)) });
            });
          }
        }),
    });
    const state = () => page.evaluate(() => document.getElementById("game-2048").state);
    const expected = await replay(page, 2048, ["left", "up", "right", "down"]);
    let shown = await state();
    assert.equal(shown.puzzle, "2048");
    assert.equal(shown.seed, 2048);
    assert.deepEqual(shown.board, expected[0].board, "the seed attribute's game");
    assert.deepEqual((await readGame(page, "#game-2048")).dom, expected[0].board);

    // Keys while the board has focus; the sliding widgets on the page do not move.
    await page.click("#game-2048 >> game2048-board");
    for (const key of ["ArrowLeft", "ArrowUp", "d", "s"]) await page.keyboard.press(key);
    shown = await state();
    assert.deepEqual(shown.board, expected[4].board);
    assert.equal(shown.score, expected[4].score);
    assert.deepEqual((await readGame(page, "#game-2048")).dom, expected[4].board);
    assert.equal(await page.evaluate(() => document.getElementById("classic").state.moves), 0);
    const moves = await page.evaluate(() => window.widgetEvents.filter((event) => event.type === "move").map((event) => event.detail));
    assert.deepEqual(moves.map((move) => [move.direction, move.source]), [["left", "user"], ["up", "user"], ["right", "user"], ["down", "user"]]);
    assert.deepEqual(moves.at(-1).board, expected[4].board);

    // A swipe is a move too.
    await swipe(page, "left", { selector: "#game-2048 >> game2048-board" });
    assert.equal((await state()).moves, 5);

    // The agent: a hint, then play at 60 moves a second.
    const direction = await page.evaluate(() => document.getElementById("game-2048").hint());
    assert.ok(["up", "right", "down", "left"].includes(direction));
    assert.match(await page.locator("#game-2048 >> [part=status]").textContent(), /^Hint: /);
    await page.evaluate(() => {
      const widget = document.getElementById("game-2048");
      widget.setAttribute("speed", "60");
      return widget.play();
    });
    await page.waitForFunction(() => document.getElementById("game-2048").state.moves >= 60, null, { timeout: 30_000 });
    await page.evaluate(() => document.getElementById("game-2048").pause());
    shown = await state();
    assert.equal(shown.playing, false);
    const read = await readGame(page, "#game-2048");
    assert.deepEqual(read.dom, shown.board);
    assert.ok(shown.score > expected[4].score, "the agent scored");
    const agentMoves = await page.evaluate(() => window.widgetEvents.filter((event) => event.type === "move" && event.detail.source === "agent").length);
    assert.equal(agentMoves, shown.moves - 5);

    // New game with a seed; setState shows a board; bad values are errors inside the widget.
    await page.evaluate(() => document.getElementById("game-2048").newGame(7));
    assert.deepEqual((await state()).board, (await replay(page, 7, []))[0].board);
    await page.evaluate(() => document.getElementById("game-2048").setState("2 2 . . / . . . . / . . . . / . . . ."));
    assert.equal(await page.evaluate(() => document.getElementById("game-2048").move("left")), true);
    assert.equal((await state()).score, 4);
    await page.evaluate(() => document.getElementById("game-2048").setAttribute("depth", "9"));
    await page.waitForFunction(() => /depth="9": the depth is 1 \(greedy\) to 3/.test(document.getElementById("game-2048").shadowRoot.querySelector("[part=error]").textContent));
    const errors = await page.evaluate(() => window.widgetEvents.filter((event) => event.type === "error").map((event) => event.detail));
    assert.deepEqual(errors, [{ message: 'depth="9": the depth is 1 (greedy) to 3 (expectimax)', attribute: "depth" }]);
    await assert.rejects(page.evaluate(() => document.getElementById("game-2048").solve()), /solve\(\) is for sliding puzzles/);
    assert.deepEqual(page.errors, []);
  });

  test("autoplay plays at once; switching puzzle kinds keeps each working", slow, async () => {
    const page = await session.newWidgetPage(EMBED);
    await page.evaluate(() => {
      const widget = document.createElement("puzzle-widget");
      widget.id = "auto";
      for (const [name, value] of Object.entries({ puzzle: "2048", agent: "ntuple", autoplay: "", speed: "60", "always-two": "", controls: "new" })) {
        widget.setAttribute(name, value);
      }
      document.querySelector("figure").append(widget);
    });
    await page.waitForFunction(() => document.getElementById("auto").state?.moves >= 30, null, { timeout: 30_000 });
    const auto = await page.evaluate(() => {
      const widget = document.getElementById("auto");
      const root = widget.shadowRoot;
      const shown = (selector) => root.querySelector(selector).getClientRects().length > 0;
      return { state: widget.state, hint: shown("[data-action=hint]"), play: shown("[data-action=play]"), newGame: shown("[data-action=new]") };
    });
    assert.equal(auto.state.playing, true);
    assert.equal(await page.evaluate(() => document.getElementById("auto").board.game.alwaysTwo), true);
    assert.deepEqual([auto.hint, auto.play, auto.newGame], [false, false, true], "controls=new");

    // To a sliding puzzle and back.
    await page.evaluate(() => document.getElementById("auto").setAttribute("puzzle", "sliding"));
    await page.waitForFunction(() => document.getElementById("auto").state?.rows === 3);
    const sliding = await page.evaluate(async () => {
      const widget = document.getElementById("auto");
      const solution = await widget.solve();
      return { length: solution.length, boardTag: widget.board.localName };
    });
    assert.equal(sliding.boardTag, "sliding-board");
    assert.ok(sliding.length > 0);
    await page.evaluate(() => document.getElementById("auto").setAttribute("puzzle", "2048"));
    await page.waitForFunction(() => document.getElementById("auto").state?.puzzle === "2048");
    assert.equal(await page.evaluate(() => document.getElementById("auto").board.localName), "game2048-board");
    assert.deepEqual(page.errors, []);
  });
});
