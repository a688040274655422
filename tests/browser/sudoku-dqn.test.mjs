// The Sudoku page's Learn card (www/sudoku/dqn-panel.js, with learn-client.js, learn-worker.js and
// sudoku/learn-jobs.js over the learning bundle's LearnerTrainer / LearnedModel): the page
// loads the learning bundle only once the card is used; the shipped model plays an easy puzzle on
// the board digit by digit and solves it, and plays seeded puzzles of each bin; a short training run on the CPU in the worker reports a
// finite loss and a validation by bin, its charts draw, and Save downloads the network; a damaged
// file, another puzzle's model or a position with a wrong digit is refused in words and the board
// stays as it was; a tiny network trains on WebGPU where the browser has it. Tiny networks and a
// few steps: the machine may have two cores.
// Screenshots: target/screenshots/sudoku-dqn-solved.png (the shipped model's solved board) and
// sudoku-dqn-training.png (the card after a short run).

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, canvasInk, recordRequests, screenshotPath, startSession } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** Loading the learning bundle and training take longer. */
const slow = { timeout: 2 * TEST_TIMEOUT_MS };
const SHIPPED_MODEL = await readFile(join(REPOSITORY_ROOT, "www", "models", "sudoku-cells.dqn"));
const MINESWEEPER_MODEL = await readFile(join(REPOSITORY_ROOT, "tests", "browser", "fixtures", "minesweeper-dqn-tiny.dqn"));

/**
 * An easy puzzle (`puzzlelab sudoku generate --size 9 --difficulty easy --seed 1`: 27 givens, rated
 * 1.5, singles only) that the shipped model solves: `puzzlelab sudoku eval --model
 * www/models/sudoku-cells.dqn --file` with this line says easy: 1 solved of 1.
 */
const EASY = "1...94.....7..........63971...4..7.6..9.1.5..4.3..6...95824..........1.....37...4";
/** A tiny network, small pools and a validation every few steps (ids after "sdqn-"). */
const TINY = { layers: 1, filters: 4, puzzles: 10, batch: 8, replay: 200, warmup: 1, "eval-every": 4, "eval-per-bin": 1 };

/** Opens the Sudoku page on `puzzle`, recording every request, and waits for the Learn card. */
async function openPage(session, puzzle = EASY) {
  const page = await session.open(`/www/sudoku.html#puzzle=${puzzle}`, { acceptDownloads: true }, { beforeGoto: recordRequests });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.querySelector("#sdqn-start"));
  return page;
}

/** The digits the board shows, one line ("." empty), and whether it is solved. */
function readBoard(page) {
  return page.evaluate(() => {
    const board = document.querySelector("#game");
    return { text: board.game.text(), solved: board.solved, status: board.getAttribute("status") };
  });
}

/** Fills the card's form (ids after "sdqn-"), "More settings" included. */
async function fillForm(page, fields) {
  await page.locator("#dqn details.hyper summary").click();
  for (const [id, value] of Object.entries(fields)) await page.fill(`#sdqn-${id}`, String(value));
}

/** Loads a model file through the card's Load… button; resolves to the error shown, or "". */
async function loadModelFile(page, name, buffer) {
  await page.evaluate(() => {
    document.querySelector("#sdqn-play-error").hidden = true;
    document.querySelector("#sdqn-play-status").textContent = "";
  });
  await page.setInputFiles("#sdqn-file", { name, mimeType: "application/octet-stream", buffer });
  await page.waitForFunction(() => !document.querySelector("#sdqn-play-error").hidden || /^Loaded/.test(document.querySelector("#sdqn-play-status").textContent), null, {
    timeout: 45_000,
  });
  const error = page.locator("#sdqn-play-error");
  return (await error.isVisible()) ? error.textContent() : "";
}

/** Clicks Watch and waits until the model's moves are on the board, or an error shows; resolves to the status or the error. */
async function watch(page) {
  await page.click("#sdqn-watch");
  await page.waitForFunction(
    () => {
      const card = document.querySelector("#dqn");
      return (card.dataset.outcome && card.dataset.playing === "false") || !document.querySelector("#sdqn-play-error").hidden;
    },
    null,
    { timeout: 60_000 },
  );
  const error = page.locator("#sdqn-play-error");
  if (await error.isVisible()) return { error: await error.textContent() };
  return { outcome: await page.locator("#dqn").getAttribute("data-outcome"), status: await page.locator("#sdqn-play-status").textContent() };
}

describe("the Learn card on the Sudoku page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("the shipped model loads, solves an easy puzzle on the board digit by digit, and is evaluated by bin", slow, async () => {
    const page = await openPage(session);
    assert.ok(!page.requests.some((path) => path.startsWith("/pkg/learn/")), "the learning bundle waits until the card is used");
    assert.equal(await page.locator("#sdqn-watch").textContent(), "Watch the shipped model");
    const before = await readBoard(page);
    assert.equal(before.solved, false);
    const moves = [];
    await page.exposeFunction("recordMove", (detail) => moves.push(detail));
    await page.evaluate(() => document.querySelector("#game").addEventListener("sudoku-move", (event) => window.recordMove(event.detail)));

    const played = await watch(page);
    assert.equal(played.error, undefined, played.error);
    assert.equal(played.outcome, "solved");
    const empty = [...before.text].filter((c) => c === ".").length;
    assert.equal(played.status, `Shipped solved the board: ${empty} digits, none wrong.`);
    assert.ok(page.requests.includes("/pkg/learn/puzzlelab_bg.wasm"), "the learning bundle is loaded now");
    assert.equal(await page.locator("#sdqn-model-line").getAttribute("data-source"), "shipped");
    assert.match(await page.locator("#sdqn-model-line").textContent(), /^The shipped model: shared per action, \d+ × \d+ units, [\d,]+ parameters, [\d,]+ steps\.$/);
    const after = await readBoard(page);
    assert.equal(after.solved, true);
    assert.equal(after.status, "solved");
    assert.equal(moves.length, empty, "one move a digit, each on the board in turn");
    assert.ok(moves.every((move) => move.action === "digit" && move.source === "dqn"));
    assert.equal(await page.locator("#game").evaluate((board) => board.locked), false, "the board is the person's again");
    assert.equal(await page.locator("#dqn").getAttribute("data-playing"), "false");

    // Evaluate: seeded puzzles of each bin, beside the paper's rates (the numbers are the model's own).
    await page.fill("#sdqn-eval-n", "5");
    await page.fill("#sdqn-eval-seed", "1");
    await page.click("#sdqn-evaluate");
    await page.waitForFunction(() => document.querySelector("#sdqn-eval-table").dataset.rows === "1" || !document.querySelector("#sdqn-eval-error").hidden, null, { timeout: 60_000 });
    assert.equal(await page.locator("#sdqn-eval-error").isVisible(), false, await page.locator("#sdqn-eval-error").textContent());
    const report = JSON.parse(await page.locator("#sdqn-eval-table tbody tr").first().getAttribute("data-report"));
    assert.deepEqual(report.bins.map((bin) => [bin.bin, bin.puzzles, bin.published_solved_rate]), [["easy", 5, 0.07], ["medium", 5, 0.021], ["hard", 5, 0.012]]);
    const row = await page.locator("#sdqn-eval-table tbody tr").first().locator("th, td").allTextContents();
    assert.deepEqual(row.slice(0, 3), ["Shipped", "5", "1"]);
    assert.match(row[3], /^\d+% of 5 \(paper 7%\)$/);
    assert.match(row[5], /^\d+% of 5 \(paper 1\.2%\)$/);

    // A long evaluation counts the puzzles as they are drawn (then played); Cancel stops it.
    await page.fill("#sdqn-eval-n", "2000");
    await page.click("#sdqn-evaluate");
    const counted = await page.waitForFunction(
      () => {
        const match = /^Drawing 2,000 puzzles of each bin \(([\d,]+) of 6,000 kept\), then playing them \(\d+%\)$/.exec(document.querySelector("#sdqn-eval-progress-text").textContent);
        const done = match ? Number(match[1].replaceAll(",", "")) : 0;
        return done > 0 && { done, bar: Number(document.querySelector("#sdqn-eval-progress-bar").value) };
      },
      null,
      { timeout: 60_000 },
    );
    const { done, bar } = await counted.jsonValue();
    assert.ok(Math.abs(bar - done / 12_000) < 0.01, `the bar (${bar}) shows the share done (${done} kept, of 6,000 to keep and 6,000 to play)`);
    await page.click("#sdqn-eval-cancel");
    await page.waitForFunction(() => document.querySelector("#sdqn-eval-status").textContent === "Evaluation cancelled.", null, { timeout: 30_000 });
    assert.equal(await page.locator("#sdqn-eval-table").getAttribute("data-rows"), "1", "a cancelled evaluation adds no row");
    assert.equal(await page.locator("#sdqn-evaluate").isEnabled(), true);

    // The board stays in view (it is sticky) beside the card's play status.
    await page.locator("#sdqn-play-status").scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath("sudoku-dqn-solved.png") });
    assert.deepEqual(page.errors, []);
  });

  test("a few training steps on the CPU update the statistics and the charts, and Save downloads the network", slow, async () => {
    const page = await openPage(session);
    await fillForm(page, TINY);
    await page.selectOption("#sdqn-backend", "cpu");
    await page.click("#sdqn-start");
    await page.waitForFunction(
      () =>
        (Number(document.querySelector("#sdqn-chart-loss").dataset.points ?? 0) >= 2 && Number(document.querySelector("#sdqn-stats").dataset.validations) >= 1) ||
        !document.querySelector("#sdqn-error").hidden,
      null,
      { timeout: 100_000 },
    );
    const training = await page.evaluate(() => {
      const stats = document.querySelector("#sdqn-stats");
      const error = document.querySelector("#sdqn-error");
      return {
        error: error.hidden ? "" : error.textContent,
        state: document.querySelector("#dqn").dataset.state,
        steps: Number(stats.dataset.steps),
        loss: stats.dataset.loss === "" ? null : Number(stats.dataset.loss),
        backend: stats.dataset.backend,
        solved: document.querySelector("#sdqn-stat-solved").textContent,
        params: document.querySelector("#sdqn-stat-params").textContent,
        puzzles: document.querySelector("#sdqn-stat-puzzles").textContent,
        status: document.querySelector("#sdqn-status").textContent,
      };
    });
    assert.equal(training.error, "");
    assert.equal(training.state, "running");
    assert.equal(training.backend, "cpu");
    assert.equal(training.params, "53", "one layer of 4 units over 11 features and the head: 11·4+4 + 4+1");
    assert.match(training.puzzles, /^\d+ · 1\/1\/1$/, "the pool (up to 10: a draw may fail) and one validation puzzle a bin");
    assert.ok(training.steps >= 4, `steps done (${training.steps})`);
    assert.ok(Number.isFinite(training.loss) && training.loss >= 0, `the TD loss is a finite number (${training.loss})`);
    assert.match(training.solved, /^\d+(\.\d)?% · \d+(\.\d)?% · \d+(\.\d)?%$/, "the last validation's solved rate in each bin");
    assert.match(training.status, /^Training on the CPU…/);
    for (const chart of ["solved", "published", "loss", "epsilon"]) {
      assert.ok((await canvasInk(page, `#sdqn-chart-${chart}`)) > 1000, `the ${chart} chart draws`);
    }
    await page.locator("#dqn").scrollIntoViewIfNeeded();
    await page.locator("#dqn").screenshot({ path: await screenshotPath("sudoku-dqn-training.png") });

    await page.click("#sdqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 30_000 });
    assert.match(await page.locator("#sdqn-status").textContent(), /^Stopped after [\d,]+ steps\./);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#sdqn-save")]);
    assert.match(download.suggestedFilename(), /^sudoku-cells-\d+steps\.dqn$/);
    const saved = await readFile(await download.path());
    assert.equal(saved.subarray(0, 14).toString(), "puzzlelab-dqn\n", "a model file");
    assert.deepEqual(page.errors, []);
  });

  test("a damaged file, a Minesweeper model or a wrong digit on the board is refused in words and the board stays as it was", slow, async () => {
    const page = await openPage(session);
    const board = await readBoard(page);

    const damaged = Buffer.from(SHIPPED_MODEL);
    damaged[damaged.length - 3] ^= 0x40;
    assert.equal(await loadModelFile(page, "damaged.dqn", damaged), 'The file "damaged.dqn" could not be loaded: corrupt DQN model: the weights do not match their checksum');
    assert.match(await loadModelFile(page, "short.dqn", SHIPPED_MODEL.subarray(0, 100)), /^The file "short\.dqn" could not be loaded: corrupt DQN model: it ends inside its header$/);
    assert.match(
      await loadModelFile(page, "mines.dqn", MINESWEEPER_MODEL),
      /^The file "mines\.dqn" could not be loaded: the model plays "minesweeper[^"]*", not Sudoku\. This is a Minesweeper model: load it on the Minesweeper page \(minesweeper\.html\)\.$/,
    );
    assert.deepEqual(await readBoard(page), board, "the board is unchanged");
    assert.equal(await page.locator("#sdqn-model").inputValue(), "shipped", "the shipped model is still the one chosen");
    assert.equal(await page.locator("#sdqn-model option[value=file]").evaluate((option) => option.disabled), true, "no file was loaded");

    // A wrong digit on the board: the model is not asked to play from a position with no solution.
    const wrong = await page.evaluate(() => {
      const game = document.querySelector("#game").game;
      const cells = game.cells();
      const cell = cells.findIndex((digit) => digit === 0);
      const fits = game.candidates()[cell];
      const mistakes = (digit) => {
        game.set(cell, digit);
        const wrongDigit = game.mistakes().includes(cell);
        game.set(cell, 0);
        return wrongDigit;
      };
      for (let digit = 1; digit <= 9; digit++) if (fits & (1 << digit) && mistakes(digit)) return { cell, digit };
      return null;
    });
    assert.ok(wrong, "an empty cell takes a candidate that is not the solution's");
    await page.evaluate(({ cell, digit }) => document.querySelector("#game").place(digit, cell, "user"), wrong);
    const withMistake = await readBoard(page);
    const played = await watch(page);
    assert.equal(played.error, "this position has no solution: a digit on the board is wrong");
    assert.deepEqual(await readBoard(page), withMistake, "the board is unchanged");
    assert.deepEqual(page.errors, []);
  });

  test("a tiny network trains on WebGPU where the browser has it", slow, async (t) => {
    const page = await openPage(session);
    const hasAdapter = await page.evaluate(async () => Boolean(await navigator.gpu?.requestAdapter()));
    if (!hasAdapter) return t.skip("this browser offers no WebGPU adapter");
    await fillForm(page, { ...TINY, "eval-every": 0 });
    await page.selectOption("#sdqn-backend", "webgpu");
    await page.click("#sdqn-start");
    await page.waitForFunction(() => document.querySelector("#sdqn-stats").dataset.loss !== "" || !document.querySelector("#sdqn-error").hidden, null, { timeout: 100_000 });
    assert.equal(await page.locator("#sdqn-error").isVisible(), false, await page.locator("#sdqn-error").textContent());
    assert.equal(await page.locator("#sdqn-stats").getAttribute("data-backend"), "webgpu");
    const loss = Number(await page.locator("#sdqn-stats").getAttribute("data-loss"));
    assert.ok(Number.isFinite(loss) && loss >= 0, `a finite TD loss on WebGPU (${loss})`);
    await page.click("#sdqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 60_000 });
  });
});
