// Faults in the page (issue 20, part 2): downloads that stop halfway or bring the wrong file (a
// route that cuts the body or serves an HTML page), a learning worker that crashes as it starts
// or in the middle of a run, and WebGPU lost in the middle of training. Each shows a message where the user acted, leaves the page usable, and keeps what the
// user had: the board, and a model that works once the fault is gone.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, hashFor, standardGoalText, startSession, waitForApp, waitForLearnCard } from "./helpers.mjs";

const options = { timeout: 3 * TEST_TIMEOUT_MS };
const MODEL = readFileSync(join(REPOSITORY_ROOT, "www/models/minesweeper-dqn.dqn"));
const HTML = "<!doctype html><html><head><title>Not found</title></head><body><h1>Sorry</h1></body></html>";

/** The Minesweeper page with its DQN card. */
async function openMinesweeper(session, beforeGoto) {
  const page = await session.open("/www/minesweeper.html#seed=1&level=beginner&first-click=safe", {}, { beforeGoto });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.querySelector("#mdqn-load-shipped"));
  return page;
}

/** The next learning worker the page starts (Playwright's handle, to reach inside it). */
function nextLearningWorker(page) {
  return page.waitForEvent("worker", { predicate: (worker) => /learn-worker\.js/.test(worker.url()), timeout: 60_000 });
}

/** Sets the sliding page's DQN card to a 2×3 puzzle, a 64-unit layer and `backend`, and clicks Train; resolves to the learning worker. */
async function startSlidingTraining(page, backend) {
  await waitForLearnCard(page);
  await page.locator("#dqn .hyper summary").click();
  await page.selectOption("#dqn-size", "2x3");
  await page.selectOption("#dqn-backend", backend);
  await page.fill("#dqn-hidden", "64");
  await page.fill("#dqn-warmup", "5");
  const learningWorker = nextLearningWorker(page);
  await page.click("#dqn-start");
  return learningWorker;
}

/**
 * The GPU goes away: the next time the worker records GPU work, its device is destroyed (what a
 * driver reset or a crash of the GPU process does to a tab).
 */
function loseGpuDevice(worker) {
  return worker.evaluate(() => {
    const record = GPUDevice.prototype.createCommandEncoder;
    GPUDevice.prototype.createCommandEncoder = function (...args) {
      GPUDevice.prototype.createCommandEncoder = record;
      const encoder = record.apply(this, args);
      setTimeout(() => this.destroy(), 0);
      return encoder;
    };
  });
}

/** The page's game as its cells and status. */
function readGame(page) {
  return page.evaluate(() => {
    const game = document.querySelector("#game").game;
    return { status: game.status, cells: Array.from(game.cells()) };
  });
}

/** Clicks "Load the shipped model" and waits for the model line or an error; resolves to the error text or "". */
async function loadShipped(page) {
  await page.evaluate(() => (document.querySelector("#mdqn-play-error").hidden = true));
  await page.click("#mdqn-load-shipped");
  await page.waitForFunction(
    () => document.querySelector("#mdqn-model-line").dataset.source === "shipped" || !document.querySelector("#mdqn-play-error").hidden,
    null,
    { timeout: 60_000 },
  );
  const error = page.locator("#mdqn-play-error");
  return (await error.isVisible()) ? error.textContent() : "";
}

describe("faults in the page", () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  test("a model download cut halfway or served as HTML is refused with a message; the board stays and the real file loads after", options, async () => {
    const page = await openMinesweeper(session);
    await page.locator("#game").evaluate((board) => board.game.reveal(40));
    const board = await readGame(page);
    const bodies = [
      { name: "cut halfway", body: MODEL.subarray(0, Math.floor(MODEL.length / 2)), contentType: "application/octet-stream" },
      { name: "an HTML page", body: HTML, contentType: "text/html" },
    ];
    for (const { name, body, contentType } of bodies) {
      await page.route("**/www/models/minesweeper-dqn.dqn", (route) => route.fulfill({ status: 200, contentType, body }));
      const error = await loadShipped(page);
      assert.match(error, /model|DQN/i, `${name}: ${error}`);
      assert.equal(await page.locator("#mdqn-play-error").getAttribute("role"), "alert");
      assert.ok(await page.locator("#mdqn-load-shipped").isEnabled(), `${name}: it can be tried again`);
      assert.deepEqual(await readGame(page), board, `${name}: the board is untouched`);
      await page.unroute("**/www/models/minesweeper-dqn.dqn");
    }
    assert.equal(await loadShipped(page), "", "the real file loads once the fault is gone");
    assert.deepEqual(await readGame(page), board);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("a learning worker that crashes as it starts: the card says so and the game plays on", options, async () => {
    const page = await openMinesweeper(session, (page) =>
      page.route("**/www/common/learn-worker.js", (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript", body: 'throw new Error("the worker crashed on purpose");' }),
      ),
    );
    const error = await loadShipped(page);
    assert.ok(error.length > 0, "an error is shown");
    assert.match(error, /worker|crashed/i);
    // The page's own game is not the worker's: it still plays.
    await page.locator("#game").evaluate((board) => board.game.reveal(40));
    const game = await readGame(page);
    assert.ok(["playing", "won", "lost"].includes(game.status), game.status);
    assert.ok(game.cells.some((code) => code >= 0 && code <= 8), "cells were revealed");
    // Uncaught errors from the worker itself are reported by Chromium as page errors only when
    // nobody handles them; the client handles them.
    assert.deepEqual(
      page.errors.filter((message) => !/crashed on purpose/.test(message)),
      [],
    );
    await page.context().close();
  });

  test("WebGPU lost in the middle of training: the run goes on on the CPU from its last chunk and keeps its network", options, async () => {
    const page = await session.newPage();
    const worker = await startSlidingTraining(page, "webgpu");
    const stats = () =>
      page.evaluate(() => {
        const { dataset } = document.querySelector("#dqn-stats");
        return { steps: Number(dataset.steps ?? 0), backend: dataset.backend ?? "", fellBackAt: dataset.fellBackAt ?? null };
      });
    // A few chunks on WebGPU first, so that updates have moved the network on.
    await page.waitForFunction(
      () => document.querySelector("#dqn-stats").dataset.backend === "webgpu" && Number(document.querySelector("#dqn-stats").dataset.steps) >= 60,
      null,
      { timeout: 120_000 },
    );
    const before = await stats();
    await loseGpuDevice(worker);
    await page.waitForFunction(() => document.querySelector("#dqn-stats").dataset.backend === "cpu", null, { timeout: 60_000 });
    const fellBack = await stats();
    const fromStep = Number(fellBack.fellBackAt);
    assert.ok(fromStep >= before.steps, `from the last chunk before the loss (step ${fromStep}, seen ${before.steps})`);
    assert.equal(await page.locator("#dqn-stat-backend").textContent(), "CPU");
    assert.match(await page.locator("#dqn-stat-backend").getAttribute("title"), /^WebGPU stopped answering after step/);
    assert.match(await page.locator("#dqn-status").textContent(), /^WebGPU stopped answering after step [\d,]+: the training device could not be read back \(was the GPU lost\?\): [^\n]+\. Training goes on on the CPU from the network of step [\d,]+, the last chunk\. Training on the CPU…/);
    assert.ok(await page.locator("#dqn-error").isHidden(), "no error: the run goes on");
    // The run goes on: more steps, on the CPU, with finite losses.
    await page.waitForFunction((steps) => Number(document.querySelector("#dqn-stats").dataset.steps) > steps + 200, fellBack.steps, { timeout: 60_000 });
    const after = await page.evaluate(() => document.querySelector("#dqn-stats").dataset);
    assert.equal(after.backend, "cpu");
    assert.ok(Number.isFinite(Number(after.loss)), `a finite TD loss on the CPU (${after.loss})`);
    // Nothing is lost: Pause keeps the network as the model, and Save downloads it.
    await page.click("#dqn-pause");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "paused", null, { timeout: 30_000 });
    assert.equal(await page.locator("#dqn-model-line").getAttribute("data-source"), "trained");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#dqn-save")]);
    const saved = readFileSync(await download.path());
    assert.equal(saved.subarray(0, 13).toString("latin1"), "puzzlelab-dqn");
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 30_000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("WebGPU lost: the 2048, Minesweeper, Sudoku and dust trainers fall back to the CPU too; later runs in that worker use the CPU", options, async () => {
    const page = await session.newPage();
    const small = { batchSize: 8, warmupEpisodes: 1, numEnvs: 2, seed: 5 };
    const runs = [
      ["2048", { ...small }],
      ["minesweeper", { ...small, level: "beginner", layers: 2, filters: 8 }],
      ["sudoku", { ...small, layers: 1, filters: 8, puzzles: 4, validationSize: 1 }],
      ["dust", { ...small, hidden: [16, 16], validationSize: 2 }],
    ];
    for (const [puzzle, trainOptions] of runs) {
      const method = `${puzzle}'s trainer`;
      // A worker of its own (burn sets up one WebGPU device per instance): two chunks on WebGPU,
      // then the device goes, then two chunks more.
      const learningWorker = nextLearningWorker(page);
      await page.evaluate(async () => {
        const { LearnClient } = await import("./common/learn-client.js");
        window.learn?.dispose();
        window.learn = new LearnClient();
        await window.learn.ready;
      });
      const worker = await learningWorker;
      await page.evaluate(({ puzzle, trainOptions }) => {
        window.run = { chunks: [], fallback: null, done: null, error: null };
        const { run, learn } = window;
        learn.train({ puzzle, options: trainOptions, backend: "webgpu" }, {
          onProgress: (message) => {
            if (message.stage === "fallback") run.fallback = message;
            if (message.stage !== "chunk") return;
            run.chunks.push({ backend: message.report.backend, steps: message.report.stepsDone });
            if (run.fallback && run.chunks.filter((chunk) => chunk.backend === "cpu").length === 2) learn.stop();
          },
        }).then((done) => (run.done = done), (error) => (run.error = error.message));
      }, { puzzle, trainOptions });
      await page.waitForFunction(() => window.run.chunks.length >= 2 || window.run.error, null, { timeout: 120_000 });
      assert.equal(await page.evaluate(() => window.run.error), null, `${method} trains on WebGPU`);
      await loseGpuDevice(worker);
      await page.waitForFunction(() => window.run.done || window.run.error, null, { timeout: 120_000 });
      const run = await page.evaluate(() => window.run);
      assert.equal(run.error, null, `${method}: the run goes on (${run.error})`);
      assert.equal(run.done.backend, "cpu", `${method} ends on the CPU`);
      assert.match(run.fallback.message, /^WebGPU stopped answering after step [\d,]+: .+ Training goes on on the CPU from the network of step [\d,]+, the last chunk\.$/, method);
      const cpu = run.chunks.filter((chunk) => chunk.backend === "cpu");
      const gpu = run.chunks.filter((chunk) => chunk.backend === "webgpu");
      assert.ok(gpu.length >= 2 && cpu.length >= 2, `${method}: ${JSON.stringify(run.chunks)}`);
      assert.ok(run.fallback.fromStep >= gpu[1].steps && run.fallback.fromStep <= gpu.at(-1).steps, `${method}: from the last chunk (${run.fallback.fromStep})`);
      assert.ok(cpu.every((chunk, i) => chunk.steps > (i === 0 ? gpu.at(-1).steps : cpu[i - 1].steps)), `${method}: the steps go on`);
    }
    // Later in the same worker: WebGPU asked for by name is refused in words; auto uses the CPU.
    const later = await page.evaluate(async () => {
      const { learn } = window;
      const refused = await learn.train({ puzzle: "dust", options: { hidden: [8] }, backend: "webgpu" }).then(() => "", (error) => error.message);
      let note = "";
      const done = await learn.train({ puzzle: "dust", options: { hidden: [8] }, backend: "auto" }, {
        onProgress: (message) => {
          if (message.stage === "backend") note = message.message;
          if (message.stage === "chunk") learn.stop();
        },
      });
      learn.dispose();
      return { refused, note, backend: done.backend };
    });
    assert.match(later.refused, /^WebGPU stopped answering earlier in this tab \(.+\)\. Reload the page to use it again, or choose the CPU or auto\.$/);
    assert.equal(later.backend, "cpu");
    assert.match(later.note, /WebGPU stopped answering earlier in this tab: training on the CPU/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the learning worker crashing in the middle of a run: the card says so, the network is kept, and training starts again", options, async () => {
    const page = await session.newPage();
    const worker = await startSlidingTraining(page, "cpu");
    await page.waitForFunction(() => Number(document.querySelector("#dqn-stats").dataset.steps) >= 300, null, { timeout: 60_000 });
    // An uncaught error in the worker, as a trapped wasm instance throws one.
    await worker.evaluate(() => setTimeout(() => {
      throw new Error("the worker crashed on purpose");
    }, 0));
    await page.waitForFunction(() => !document.querySelector("#dqn-error").hidden, null, { timeout: 30_000 });
    const error = await page.locator("#dqn-error").textContent();
    assert.match(error, /The learning worker crashed \(.*crashed on purpose.*\)\. The network trained here is kept as it was at step [\d,]+: Save downloads it/);
    const keptStep = Number(/at step ([\d,]+)/.exec(error)[1].replaceAll(",", ""));
    assert.ok(keptStep > 0, `a checkpoint after the first chunk at least (step ${keptStep})`);
    assert.notEqual(await page.locator("#dqn").getAttribute("data-state"), "running", "the run ended");
    // Nothing is lost: Save downloads the network of the last checkpoint.
    await page.waitForFunction(() => !document.querySelector("#dqn-save").disabled, null, { timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#dqn-save")]);
    const saved = readFileSync(await download.path());
    assert.equal(saved.subarray(0, 13).toString("latin1"), "puzzlelab-dqn");
    // The page goes on: a new worker trains a new run.
    await page.waitForFunction(() => !document.querySelector("#dqn-start").disabled, null, { timeout: 30_000 });
    await page.click("#dqn-start");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "running" && Number(document.querySelector("#dqn-stats").dataset.steps) > 0, null, { timeout: 60_000 });
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 30_000 });
    assert.deepEqual(page.errors.filter((message) => !/crashed on purpose/.test(message)), []);
    await page.context().close();
  });

  test("storage full (or turned off): 2048 plays on and keeps its best score for the page", options, async () => {
    const page = await session.open("/www/2048.html#seed=3", {}, {
      beforeGoto: (page) =>
        page.addInitScript(() => {
          const full = () => {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          };
          Storage.prototype.setItem = full;
        }),
    });
    await waitForApp(page);
    for (const key of ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"]) {
      await page.keyboard.press(key);
    }
    const shown = await page.evaluate(async () => {
      const board = document.querySelector("#game");
      await board.settled;
      const root = board.shadowRoot;
      return {
        moves: board.game.moves,
        score: board.game.score,
        best: root.querySelector("[part=best]").hidden ? null : Number(root.querySelector("[data-best]").textContent.replace(/,/g, "")),
      };
    });
    assert.ok(shown.moves >= 4, `moves were played: ${shown.moves}`);
    if (shown.score > 0) assert.equal(shown.best, shown.score, "the best score lasts as long as the page");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("fifty widgets of every kind on one page all load, and every sliding one solves at once", options, async () => {
    // Timings of the same page are in scripts/bench-load.mjs; this checks that it works.
    const page = await session.newWidgetPage("/tests/browser/fixtures/elsewhere/host.html");
    const outcome = await page.evaluate(async () => {
      const kinds = [{ size: "3x3" }, { size: "4x4" }, { puzzle: "minesweeper", level: "beginner" }, { puzzle: "2048" }, { puzzle: "sudoku", size: "4" }, { puzzle: "dust" }];
      const widgets = Array.from({ length: 50 }, (_, i) => {
        const widget = document.createElement("puzzle-widget");
        for (const [name, value] of Object.entries(kinds[i % kinds.length])) widget.setAttribute(name, value);
        widget.setAttribute("seed", String(i + 1));
        widget.setAttribute("speed", "60");
        document.body.append(widget);
        return widget;
      });
      await Promise.all(widgets.map((w) => w.ready));
      const sliding = widgets.filter((w) => !w.getAttribute("puzzle"));
      const solutions = await Promise.all(
        sliding.map((w) => {
          w.shuffle(w.state.rows * w.state.cols > 9 ? 16 : 12);
          return w.solve();
        }),
      );
      return {
        ready: widgets.filter((w) => w.hasAttribute("ready")).length,
        invalid: widgets.filter((w) => w.hasAttribute("invalid")).length,
        sliding: sliding.length,
        optimal: solutions.filter((s) => s.optimal).length,
      };
    });
    assert.equal(outcome.ready, 50);
    assert.equal(outcome.invalid, 0);
    assert.equal(outcome.optimal, outcome.sliding, "every sliding widget found an optimal solution");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("pattern databases cut halfway: the worker builds 5-5-5 instead and says why", options, async () => {
    const shipped = readFileSync(join(REPOSITORY_ROOT, "www/models/pdb-4x4-6-6-3-blank-first.pdb.gz"));
    const goal = standardGoalText(4, 4);
    const page = await session.open(`/www/sliding.html${hashFor(4, 4, goal, goal)}`, {}, {
      beforeGoto: (page) =>
        page.route("**/*.pdb.gz", (route) =>
          route.fulfill({ status: 200, contentType: "application/octet-stream", body: shipped.subarray(0, Math.floor(shipped.length / 2)) }),
        ),
    });
    await waitForApp(page);
    await page.waitForFunction(() => ["ready", "error"].includes(document.querySelector("#pdb-status").dataset.state), null, {
      timeout: 120_000,
    });
    const text = await page.locator("#pdb-text").textContent();
    assert.match(text, /ready \(5-5-5.*built\) — the shipped file could not be used/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
