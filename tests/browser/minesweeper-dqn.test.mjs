// The Minesweeper page's deep Q-network card (www/minesweeper/dqn-panel.js, with learn-client.js,
// learn-worker.js and minesweeper/learn-jobs.js over the learning bundle's LearnerTrainer /
// LearnedModel): the page loads the learning bundle only once the card is used; a short
// training run on the CPU in the worker reports a finite loss and validations, and its charts draw;
// the shipped model plays a move and a whole game on the page's board; an evaluation plays exactly
// the games of the native `puzzlelab minesweeper eval` for the same model and seed, on its own board
// and resized to a larger one (fixtures/minesweeper-dqn-native-eval.json, made from
// fixtures/minesweeper-dqn-tiny.dqn by the commands it lists), and the solver beside it plays the
// page's own solver's games (the solver is tuned often: its numbers are not pinned); a damaged file
// or another puzzle's model is refused in words and changes nothing; and a tiny network trains on
// WebGPU where the browser has it. Tiny networks and a few hundred steps: the machine may have two cores.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, canvasInk, recordRequests, screenshotPath, setRange, startSession } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** Loading the learning bundle and training take longer. */
const slow = { timeout: 2 * TEST_TIMEOUT_MS };
const FIXTURES = join(REPOSITORY_ROOT, "tests", "browser", "fixtures");
const TINY_MODEL = await readFile(join(FIXTURES, "minesweeper-dqn-tiny.dqn"));
const NATIVE = JSON.parse(await readFile(join(FIXTURES, "minesweeper-dqn-native-eval.json"), "utf8"));
const MODEL_2048 = await readFile(join(REPOSITORY_ROOT, "www", "models", "2048-dqn.dqn"));
/** A tiny network and short validations (ids after "mdqn-"). */
const TINY = { layers: 2, filters: 8, batch: 16, envs: 2, warmup: 2, "eval-every": 40, "eval-games": 20 };

/** Opens the Minesweeper page on a beginner board, recording every request, and waits for the card. */
async function openPage(session, hash = "#seed=1&level=beginner&first-click=safe") {
  const page = await session.open(`/www/minesweeper.html${hash}`, { acceptDownloads: true }, { beforeGoto: recordRequests });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.querySelector("#mdqn-start"));
  return page;
}

/** What the card shows about training. */
async function readTraining(page) {
  return page.evaluate(() => {
    const stats = document.querySelector("#mdqn-stats");
    const points = (id) => Number(document.querySelector(`#mdqn-chart-${id}`).dataset.points ?? 0);
    const error = document.querySelector("#mdqn-error");
    return {
      state: document.querySelector("#dqn").dataset.state,
      steps: Number(stats.dataset.steps),
      loss: stats.dataset.loss === "" ? null : Number(stats.dataset.loss),
      backend: stats.dataset.backend ?? "",
      validations: Number(stats.dataset.validations),
      points: { loss: points("loss"), epsilon: points("epsilon"), won: points("won") },
      won: document.querySelector("#mdqn-stat-won").textContent,
      params: document.querySelector("#mdqn-stat-params").textContent,
      status: document.querySelector("#mdqn-status").textContent,
      error: error.hidden ? "" : error.textContent,
    };
  });
}

/** Fills the card's form (ids after "mdqn-"), "More settings" included. */
async function fillForm(page, fields) {
  await page.locator("#dqn details.hyper summary").click();
  for (const [id, value] of Object.entries(fields)) await page.fill(`#mdqn-${id}`, String(value));
}

/** Loads a model file through the card's Load… button; resolves to the error shown, or "". */
async function loadModelFile(page, name, buffer) {
  await page.evaluate(() => {
    document.querySelector("#mdqn-play-error").hidden = true;
    document.querySelector("#mdqn-play-status").textContent = "";
  });
  await page.setInputFiles("#mdqn-file", { name, mimeType: "application/octet-stream", buffer });
  await page.waitForFunction(() => !document.querySelector("#mdqn-play-error").hidden || /^Loaded/.test(document.querySelector("#mdqn-play-status").textContent), null, {
    timeout: 45_000,
  });
  const error = page.locator("#mdqn-play-error");
  return (await error.isVisible()) ? error.textContent() : "";
}

/** The page's game: its status and cell codes. */
function readGame(page) {
  return page.evaluate(() => {
    const game = document.querySelector("#game").game;
    return { status: game.status, cells: Array.from(game.cells()), width: game.width, height: game.height };
  });
}

/** Evaluates with the card's form (`games`, `seed`) and resolves to the newest row's report. */
async function evaluate(page, games, seed) {
  const rows = Number(await page.locator("#mdqn-eval-table").getAttribute("data-rows"));
  await page.fill("#mdqn-eval-games-n", String(games));
  await page.fill("#mdqn-eval-seed", String(seed));
  await page.click("#mdqn-evaluate");
  await page.waitForFunction((before) => Number(document.querySelector("#mdqn-eval-table").dataset.rows) > before || !document.querySelector("#mdqn-eval-error").hidden, rows, {
    timeout: 90_000,
  });
  const error = page.locator("#mdqn-eval-error");
  if (await error.isVisible()) throw new Error(await error.textContent());
  return JSON.parse(await page.locator("#mdqn-eval-table tbody tr").first().getAttribute("data-report"));
}

describe("the deep Q-network card on the Minesweeper page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("training on the CPU in the worker reports a finite loss and validations, the charts draw, Stop keeps the network and Save downloads it", slow, async () => {
    const page = await openPage(session);
    assert.ok(!page.requests.some((path) => path.startsWith("/pkg/learn/")), "the learning bundle waits until the card is used");
    assert.ok(!page.requests.includes("/www/common/learn-worker.js"), "so does the learning worker");
    assert.match(await page.locator("#mdqn-board").textContent(), /^Trains on the board chosen above: 9 × 9, 10 mines, first click safe\./);

    await fillForm(page, TINY);
    await page.selectOption("#mdqn-backend", "cpu");
    await page.click("#mdqn-start");
    await page.waitForFunction(
      () => Number(document.querySelector("#mdqn-chart-loss").dataset.points ?? 0) >= 3 && Number(document.querySelector("#mdqn-stats").dataset.validations) >= 2,
      null,
      { timeout: 100_000 },
    );
    assert.ok(page.requests.includes("/pkg/learn/puzzlelab_bg.wasm"), "the learning bundle is loaded now");
    const training = await readTraining(page);
    assert.equal(training.error, "");
    assert.equal(training.state, "running");
    assert.equal(training.backend, "cpu");
    assert.equal(training.params, "817", "2 layers of 8 filters on 3 planes (the board plane added) and the per-cell head: 3·9·8+8 + 8·9·8+8 + 8+1");
    assert.ok(training.steps >= 80, `steps done (${training.steps})`);
    // Steps/s counts what Steps counts: a step plays every game once (2 at once here).
    const rates = await page.evaluate(() => {
      const { stepsPerS, movesPerS } = document.querySelector("#mdqn-stats").dataset;
      return { steps: Number(stepsPerS), moves: Number(movesPerS), shown: document.querySelector("#mdqn-stat-speed").textContent };
    });
    assert.ok(rates.steps > 0 && Math.abs(rates.steps * 2 - rates.moves) <= 0.01 * rates.moves, `steps/s ${rates.steps}, moves/s ${rates.moves}`);
    assert.ok(Math.abs(Number(rates.shown.replace(/,/g, "")) - rates.steps) <= Math.max(0.5, 0.005 * rates.steps), `shown: ${rates.shown} (${rates.steps})`);
    assert.ok(Number.isFinite(training.loss) && training.loss >= 0, `the TD loss is a finite number (${training.loss})`);
    assert.match(training.won, /^\d+(\.\d)?%$/, "the last validation's win rate");
    assert.match(training.status, /Training on the CPU…( Last validation \(20 games at [\d,]+ steps\): won [\d.]+%, [\d.]+ guesses a game\.)?/);
    assert.ok((await canvasInk(page, "#mdqn-chart-loss")) > 1000, "the TD-loss chart has a line");
    assert.ok((await canvasInk(page, "#mdqn-chart-won")) > 1000, "so does the win-rate chart");
    assert.ok((await canvasInk(page, "#mdqn-chart-epsilon")) > 1000, "and ε's");
    await page.locator("#dqn").scrollIntoViewIfNeeded();
    await page.locator("#dqn").screenshot({ path: await screenshotPath("minesweeper-dqn.png") });

    await page.click("#mdqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 30_000 });
    assert.match(await page.locator("#mdqn-status").textContent(), /^Stopped after [\d,]+ steps\./);
    assert.equal(await page.locator("#mdqn-model").inputValue(), "trained", "the network trained here is the model now (no shipped one was loaded)");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#mdqn-save")]);
    assert.match(download.suggestedFilename(), /^minesweeper-9x9-dqn-\d+steps\.dqn$/);
    const saved = await readFile(await download.path());
    assert.equal(saved.subarray(0, 14).toString(), "puzzlelab-dqn\n", "a model file");

    // The network trained here plays a move on the page's board.
    await page.click("#mdqn-move");
    await page.waitForFunction(() => document.querySelector("#mdqn-play-status").dataset.cell !== undefined, null, { timeout: 30_000 });
    const game = await readGame(page);
    const cell = Number(await page.locator("#mdqn-play-status").getAttribute("data-cell"));
    assert.ok(game.cells[cell] <= 8 || game.status === "lost", `cell ${cell} was revealed`);
    assert.deepEqual(page.errors, []);
  });

  test("the shipped model loads and plays a move, then a whole game, on the page's board", slow, async () => {
    const page = await openPage(session);
    await page.click("#mdqn-load-shipped");
    await page.waitForFunction(() => document.querySelector("#mdqn-model-line").dataset.source === "shipped" || !document.querySelector("#mdqn-play-error").hidden, null, {
      timeout: 60_000,
    });
    assert.equal(await page.locator("#mdqn-play-error").isVisible(), false, await page.locator("#mdqn-play-error").textContent());
    assert.match(await page.locator("#mdqn-model-line").textContent(), /^The shipped model: per cell, \d+ × \d+ filters \(any board size\), [\d,]+ parameters, trained on \d+ × \d+ \/ \d+/);

    const before = await readGame(page);
    assert.equal(before.status, "ready");
    await page.click("#mdqn-move");
    await page.waitForFunction(() => document.querySelector("#mdqn-play-status").dataset.cell !== undefined, null, { timeout: 30_000 });
    const cell = Number(await page.locator("#mdqn-play-status").getAttribute("data-cell"));
    const first = await readGame(page);
    assert.equal(before.cells[cell], 9, "a covered cell");
    assert.ok(first.cells[cell] <= 8, "revealed (the first click is safe)");
    assert.match(await page.locator("#mdqn-play-status").textContent(), /^Shipped: revealed row \d, column \d \(Q-value -?[\d.]+\)\./);

    await setRange(page, "#speed", 6);
    await page.click("#mdqn-play");
    // Play starts once the chosen model is at hand (a promise away): wait for it, or for the end
    // of a game that was over before this looked.
    await page.waitForFunction(
      () => document.querySelector("#dqn").dataset.playing === "true" || ["won", "lost"].includes(document.querySelector("#game").game.status),
      null,
      { timeout: 10_000 },
    );
    // Read in one go: a won game can end between two reads.
    const shown = await page.evaluate(() => ({ playing: document.querySelector("#dqn").dataset.playing, button: document.querySelector("#mdqn-play").textContent }));
    if (shown.playing === "true") assert.equal(shown.button, "Stop");
    await page.waitForFunction(() => ["won", "lost"].includes(document.querySelector("#game").game.status), null, { timeout: 45_000 });
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.playing === "false");
    assert.equal(await page.locator("#game").evaluate((board) => board.locked), false, "the board is the person's again");
    assert.match(await page.locator("#mdqn-play-status").textContent(), /It (cleared the board|hit a mine)\.$/);
    assert.deepEqual(page.errors, []);
  });

  test("an evaluation plays the native CLI's games (the model's wins and guesses, on its own board and resized to a larger one) and the solver plays the same boards as the page's", slow, async () => {
    const page = await openPage(session);
    assert.equal(await loadModelFile(page, "minesweeper-dqn-tiny.dqn", TINY_MODEL), "");
    assert.equal(await page.locator("#mdqn-model").inputValue(), "file");

    const beginner = await evaluate(page, 100, 0);
    const same = (played, native, what) => {
      assert.equal(played.games, native.games, `${what}: games`);
      assert.equal(played.wins, native.wins, `${what}: wins`);
      assert.ok(Math.abs(played.guesses_per_game - native.guesses_per_game) < 1e-9, `${what}: guesses a game ${played.guesses_per_game} against ${native.guesses_per_game}`);
    };
    same(beginner.model, NATIVE.beginner.dqn, "the model on beginner");
    // The solver in the worker plays the same boards as the page's own solver (the core bundle).
    const pageSolver = await page.evaluate(async () => {
      const { loadWasm } = await import("/www/common/wasm.js");
      const evaluation = (await loadWasm()).minesweeperSolverEvaluation({ width: 9, height: 9, mines: 10, rule: "safe", firstCell: 0, games: 100, seed: 0 });
      evaluation.step(100);
      return evaluation.result();
    });
    same(beginner.solver, pageSolver, "the solver on beginner");
    const row = await page.locator("#mdqn-eval-table tbody tr").first().locator("th, td").allTextContents();
    assert.equal(row[0], "“minesweeper-dqn-tiny.dqn”");
    assert.equal(row[1], "9 × 9, 10 mines, safe");
    assert.match(row[4], /^48% \[\d+(\.\d)?%, \d+(\.\d)?%\]$/);
    const gap = 100 * (pageSolver.win_rate - NATIVE.beginner.dqn.win_rate);
    assert.equal(row[6], `+${gap.toFixed(1)} points`);
    assert.match(await page.locator("#mdqn-eval-status").textContent(), /^“minesweeper-dqn-tiny\.dqn” won 48% of 100 games, the solver \d+% of the same boards/);

    // Intermediate: the per-cell network resized to 16 × 16.
    await page.selectOption("#level", "intermediate");
    const intermediate = await evaluate(page, 30, 7);
    same(intermediate.model, NATIVE.intermediate.dqn, "the model resized to intermediate");
    assert.deepEqual(page.errors, []);
  });

  test("a long evaluation counts each player's games as it plays them; Cancel stops it and the card evaluates again", slow, async () => {
    const page = await openPage(session);
    assert.equal(await loadModelFile(page, "minesweeper-dqn-tiny.dqn", TINY_MODEL), "");
    const rows = Number(await page.locator("#mdqn-eval-table").getAttribute("data-rows"));
    await page.fill("#mdqn-eval-games-n", "100000");
    await page.fill("#mdqn-eval-seed", "3");
    await page.click("#mdqn-evaluate");
    // The model's games are counted as they are played: a count above 0 and below all of them.
    const counted = await page.waitForFunction(
      () => {
        const match = /^The model played ([\d,]+) of 100,000 games \((\d+)%\)$/.exec(document.querySelector("#mdqn-eval-progress-text").textContent);
        const done = match ? Number(match[1].replaceAll(",", "")) : 0;
        return done > 0 && done < 100_000 && { done, bar: Number(document.querySelector("#mdqn-eval-progress-bar").value) };
      },
      null,
      { timeout: 60_000 },
    );
    const { done, bar } = await counted.jsonValue();
    assert.ok(Math.abs(bar - done / 100_000) < 0.01, `the bar (${bar}) shows the share played (${done})`);
    await page.locator("#mdqn-evaluate").scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath("minesweeper-dqn-evaluating.png") });
    assert.equal(await page.locator("#mdqn-eval-cancel").isEnabled(), true);
    await page.click("#mdqn-eval-cancel");
    await page.waitForFunction(() => document.querySelector("#mdqn-eval-status").textContent === "Evaluation cancelled.", null, { timeout: 30_000 });
    assert.equal(await page.locator("#mdqn-eval-progress").isVisible(), false);
    assert.equal(Number(await page.locator("#mdqn-eval-table").getAttribute("data-rows")), rows, "a cancelled evaluation adds no row");
    assert.equal(await page.locator("#mdqn-evaluate").isEnabled(), true);

    const again = await evaluate(page, 20, 0);
    assert.equal(again.model.games, 20);
    assert.equal(again.solver.games, 20);
    assert.deepEqual(page.errors, []);
  });

  test("Cancel pressed between an evaluation's two requests (the model's answered, the solver's not yet sent) stops the second as it is sent", options, async () => {
    const page = await openPage(session);
    const outcome = await page.evaluate(async () => {
      const { EvaluationTable } = await import("/www/common/evaluation-table.js");
      const element = (tag) => document.createElement(tag);
      const table = element("table");
      table.append(element("tbody"));
      const elements = { evalStatus: element("p"), evalError: element("p"), evalProgress: element("div"), evalProgressText: element("span"), evalProgressBar: element("progress"), evalTable: table };
      const evaluations = new EvaluationTable(elements, { render() {} });
      // A worker that answers request 1 at once and request 2 after 20 ms, unless it was cancelled.
      const cancelled = [];
      const answered = (id, ms) =>
        Object.assign(new Promise((resolve, reject) => setTimeout(() => (cancelled.includes(id) ? reject(new Error("The evaluation was cancelled.")) : resolve({ id })), ms)), { id });
      let between;
      const reachedBetween = new Promise((resolve) => (between = resolve));
      let release;
      const gate = new Promise((resolve) => (release = resolve));
      const running = evaluations.run({
        read: () => ({}),
        play: async (_, { request }) => {
          await request(answered(1, 0));
          between();
          await gate;
          await request(answered(2, 20));
          return { report: {}, cells: ["both played"], status: "Both played." };
        },
        cancelledText: (error) => (/cancelled/.test(error.message) ? "Evaluation cancelled." : null),
      });
      await reachedBetween;
      await evaluations.cancel(async (id) => cancelled.push(id));
      release();
      await running;
      return { cancelled, status: elements.evalStatus.textContent, rows: table.tBodies[0].rows.length };
    });
    assert.deepEqual(outcome.cancelled, [1, 2], "the first request's id, then the second's as it was sent");
    assert.equal(outcome.status, "Evaluation cancelled.");
    assert.equal(outcome.rows, 0, "no row");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("a damaged file or a 2048 model is refused in words and changes nothing", options, async () => {
    const page = await openPage(session);
    assert.equal(await loadModelFile(page, "tiny.dqn", TINY_MODEL), "");
    const modelLine = await page.locator("#mdqn-model-line").textContent();

    const damaged = Buffer.from(TINY_MODEL);
    damaged[damaged.length - 3] ^= 0x40;
    assert.match(await loadModelFile(page, "damaged.dqn", damaged), /^The file "damaged\.dqn" could not be loaded: corrupt DQN model: the weights do not match their checksum$/);
    assert.match(await loadModelFile(page, "short.dqn", TINY_MODEL.subarray(0, 100)), /^The file "short\.dqn" could not be loaded: corrupt DQN model: it ends inside its header$/);
    assert.match(await loadModelFile(page, "notes.txt", Buffer.from("hello")), /could not be loaded: not a puzzlelab DQN model/);
    assert.match(await loadModelFile(page, "2048-dqn.dqn", MODEL_2048), /^The file "2048-dqn\.dqn" could not be loaded: the model plays "2048[^"]*", not Minesweeper\. This is a 2048 model: load it on the 2048 page \(2048\.html\)\.$/);
    assert.equal(await page.locator("#mdqn-model-line").textContent(), modelLine, "the model loaded before is still the one shown");
    assert.equal(await page.locator("#mdqn-model option[value=file]").textContent(), "Loaded: “tiny.dqn”");

    // It still plays.
    await page.click("#mdqn-move");
    await page.waitForFunction(() => document.querySelector("#mdqn-play-status").dataset.cell !== undefined, null, { timeout: 30_000 });
    assert.match(await page.locator("#mdqn-play-status").textContent(), /^“tiny\.dqn”: revealed/);
  });

  test("a tiny network trains on WebGPU where the browser has it", slow, async (t) => {
    const page = await openPage(session);
    const hasAdapter = await page.evaluate(async () => Boolean(await navigator.gpu?.requestAdapter()));
    if (!hasAdapter) return t.skip("this browser offers no WebGPU adapter");
    await fillForm(page, { ...TINY, "eval-every": 0 });
    await page.selectOption("#mdqn-backend", "webgpu");
    await page.click("#mdqn-start");
    await page.waitForFunction(
      () => document.querySelector("#mdqn-stats").dataset.loss !== "" || !document.querySelector("#mdqn-error").hidden,
      null,
      { timeout: 100_000 },
    );
    const training = await readTraining(page);
    assert.equal(training.error, "");
    assert.equal(training.backend, "webgpu");
    assert.ok(Number.isFinite(training.loss) && training.loss >= 0, `a finite TD loss on WebGPU (${training.loss})`);
    await page.click("#mdqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 60_000 });
  });
});
