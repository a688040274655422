// Deep Q-learning in the page (www/sliding/train-panel.js, learn-client.js, learn-worker.js and the
// learning bundle pkg/learn/): the shipped 8-puzzle model solves the board and the solution
// plays to the goal, and its manifest sets the form's reward; training in the worker moves the
// live charts and obeys Pause, Resume, Stop and Save, also with the step-cost reward and mixed
// difficulties (an unknown reward is refused, and so are hidden layers that are not 1 to 8 widths,
// learn-form.js hiddenLayersField, which the dust card shares); WebGPU and the CPU compute the same network alike (and "auto" trains on WebGPU); a
// run's start shows each of its stages in order (downloading and preparing the learning code,
// checking the graphics card, building the network, timing it, the first steps) in plain words,
// never silent for more than a second or two, the technical details folded away; a
// damaged model file is refused with a readable message; <puzzle-widget solver="dqn"> solves with
// the shipped model and says plainly which boards it cannot solve. A browser without WebGPU
// (Chromium without --enable-unsafe-webgpu offers no adapter here) makes "auto" fall back to the
// CPU and say why.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  FASTEST_SPEED,
  REPOSITORY_ROOT,
  TEST_TIMEOUT_MS,
  canvasInk,
  hashFor,
  readBoard,
  recordRequests,
  screenshotPath,
  setRange,
  solveAndWait,
  startSession,
  waitForApp,
  waitForLearnCard,
  waitUntilPlayedAndSolved,
} from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** Training and WebGPU (SwiftShader here: about half a second per tiny training step) take longer. */
const slow = { timeout: 2 * TEST_TIMEOUT_MS };
const SHIPPED_MODEL = join(REPOSITORY_ROOT, "www", "models", "8puzzle.dqn");
/** The shipped 8-puzzle model's manifest: what the panel must show once the model is loaded. */
const SHIPPED_MANIFEST = JSON.parse(await readFile(`${SHIPPED_MODEL}.json`, "utf8"));
/** The shipped model's network as its manifest records it: `architecture` in older manifests, the shared trainer's `hyperparameters.hidden` and `parameters`. */
const SHIPPED_NETWORK = SHIPPED_MANIFEST.architecture ?? { hidden: SHIPPED_MANIFEST.hyperparameters.hidden, parameters: SHIPPED_MANIFEST.parameters };
/**
 * WebGPU and the CPU agree when |webgpu − cpu| ≤ TOLERANCE × max(1, |cpu|, |webgpu|): absolute
 * for values up to 1 (the probe's outputs and most gradients), relative above, where float32
 * sums taken in another order differ in their last bits (about 1e-7 of the value per addition).
 */
const TOLERANCE = 1e-4;

/** Words of the machinery that the card's status line must not use (they belong in its technical details). */
const JARGON = /kernel|cubek|burn|tiled|matrix|probe|adapter|swiftshader|wasm|backend|steps\/s/i;
/** The longest the status line may stay the same while a run gets ready, in ms ("a second or two"). */
const LONGEST_SILENCE_MS = 2_500;

/**
 * Before Train: records, in window.startLog, the stages of the start in the order the card runs
 * them (its data-start-stage) and every text of its status line with when it appeared.
 */
async function recordStart(page) {
  await page.evaluate(() => {
    const card = document.querySelector("#dqn");
    const status = document.querySelector("#dqn-status");
    const log = (window.startLog = { stages: [], statuses: [] });
    const began = performance.now();
    const seen = () => {
      const stage = card.dataset.startStage;
      if (stage && log.stages.at(-1) !== stage) log.stages.push(stage);
      if (log.statuses.at(-1)?.text !== status.textContent) log.statuses.push({ at: performance.now() - began, text: status.textContent });
    };
    new MutationObserver(seen).observe(card, { attributes: true, attributeFilter: ["data-start-stage"] });
    new MutationObserver(seen).observe(status, { childList: true, characterData: true, subtree: true });
  });
}

/**
 * What recordStart() saw once training runs: the stages, the status lines of the start (up to the
 * first that says where it trains), and the longest time the status line stayed the same meanwhile.
 */
async function readStart(page) {
  const { stages, statuses } = await page.evaluate(() => window.startLog);
  const end = statuses.findIndex(({ text }) => /Training on /.test(text));
  const start = statuses.slice(0, end + 1);
  const gaps = start.slice(1).map(({ at }, i) => at - start[i].at);
  return { stages, texts: start.map(({ text }) => text), longestSilence: Math.max(start[0].at, ...gaps) };
}

/** The card's technical details (the folded <details>): its lines as one text. */
async function readDetails(page) {
  return page.locator("#dqn-tech-lines").textContent();
}

/** Sets the training form: size, backend, reward and hyper-parameters by field id (after "dqn-"). */
async function fillTrainingForm(page, { size, backend, reward, fields = {}, checks = {} }) {
  await page.locator("#dqn .hyper summary").click();
  if (size) await page.selectOption("#dqn-size", size);
  if (backend) await page.selectOption("#dqn-backend", backend);
  if (reward) await page.selectOption("#dqn-reward", reward);
  for (const [id, value] of Object.entries(fields)) await page.fill(`#dqn-${id}`, String(value));
  for (const [id, checked] of Object.entries(checks)) await page.setChecked(`#dqn-${id}`, checked);
}

/**
 * The Solve card's result once a model's solution is shown there (its stats' data attributes: a
 * model's carry its `method`), or what was shown when the model found none.
 */
async function modelSolution(page, timeout) {
  const shown = () => {
    const stats = document.querySelector("#stats");
    return (!stats.hidden && stats.dataset.method) || /could not|no way/.test(document.querySelector("#dqn-play-status").textContent);
  };
  await page.waitForFunction(shown, null, { timeout });
  return page.locator("#stats").evaluate((stats) => ({ ...stats.dataset }));
}

/** The training statistics and chart state the panel shows. */
async function readTraining(page) {
  return page.evaluate(() => {
    const stats = document.querySelector("#dqn-stats");
    const points = (id) => Number(document.querySelector(`#dqn-chart-${id}`).dataset.points ?? 0);
    return {
      state: document.querySelector("#dqn").dataset.state,
      steps: Number(stats.dataset.steps ?? 0),
      loss: stats.dataset.loss === "" || stats.dataset.loss === undefined ? null : Number(stats.dataset.loss),
      backend: stats.dataset.backend ?? "",
      backendText: document.querySelector("#dqn-stat-backend").textContent,
      points: { loss: points("loss"), solved: points("solved"), difficulty: points("difficulty"), speed: points("speed") },
      status: document.querySelector("#dqn-status").textContent,
      error: document.querySelector("#dqn-error").hidden ? "" : document.querySelector("#dqn-error").textContent,
    };
  });
}

describe("deep Q-learning in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("the shipped 8-puzzle model: downloaded with a progress bar, it solves the shuffled board and plays to the goal", slow, async () => {
    const page = await session.newPage("", {}, { beforeGoto: recordRequests });
    await waitForLearnCard(page);
    assert.ok(!page.requests.some((path) => path.startsWith("/pkg/learn/")), "the learning bundle waits until it is needed");
    assert.ok(!page.requests.includes("/www/common/learn-worker.js"), "so does the learning worker");

    await setRange(page, "#difficulty", 20);
    await page.click("#shuffle");
    assert.match(await page.locator("#shuffle-note").textContent(), /exactly 20 moves/);
    await setRange(page, "#player [data-player=speed]", FASTEST_SPEED);
    // Whether the progress box was ever shown with a percentage.
    await page.evaluate(() => {
      window.progressSeen = [];
      const box = document.querySelector("#dqn-progress");
      new MutationObserver(() => {
        if (!box.hidden) window.progressSeen.push(document.querySelector("#dqn-progress-text").textContent);
      }).observe(box, { attributes: true, subtree: true, childList: true, characterData: true });
    });

    // Settings the shipped model was not trained with: its manifest puts the thesis's back.
    await fillTrainingForm(page, { reward: "steps", checks: { mixed: true } });

    // Before any evaluation the charts of one say so (not "Nothing solved", which is what an evaluation that solved none shows).
    assert.equal(await page.locator("#dqn-chart-eval-extra").getAttribute("aria-label"), "Mean extra moves: No evaluation yet");
    assert.equal(await page.locator("#dqn-chart-eval-solved").getAttribute("aria-label"), "Solved % by optimal distance: No evaluation yet");
    await page.click("#dqn-load-shipped");
    await page.waitForFunction(() => document.querySelector("#dqn-model-line").dataset.source === "shipped", null, { timeout: 60_000 });
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.some((text) => /8puzzle\.dqn.*\d+%/.test(text)), `the model's download showed its progress (${JSON.stringify(seen.slice(-3))})`);
    assert.ok(page.requests.includes("/pkg/learn/puzzlelab_bg.wasm"), "the learning bundle is loaded now");
    assert.ok(page.requests.includes("/www/models/8puzzle.dqn"));
    const { hyperparameters } = SHIPPED_MANIFEST;
    const layers = SHIPPED_NETWORK.hidden.join("-");
    const parameters = SHIPPED_NETWORK.parameters.toLocaleString("en");
    assert.ok((await page.locator("#dqn-model-line").textContent()).includes(`3 × 3 · hidden layers ${layers} · ${parameters} parameters`));
    assert.ok(await page.locator("#dqn-progress").isHidden(), "the progress box goes once the model is in");
    // The manifest's evaluation is drawn without running anything: 31 distances.
    await page.waitForFunction(() => document.querySelector("#dqn-evaluation").dataset.rows === "31");
    const evalStatus = await page.locator("#dqn-eval-status").textContent();
    assert.match(evalStatus, /From the model's manifest.*620 positions/);
    // A mean of models' weights says so, and no step count of its own.
    const inputs = SHIPPED_MANIFEST.inputs?.length;
    assert.ok(inputs > 1 && SHIPPED_MANIFEST.evaluations?.every_position, "the shipped 8-puzzle model is a mean of models, scored on every position");
    if (inputs) assert.ok(evalStatus.includes(`The model is the weighted mean of ${inputs} trained models' weights`) && !/training steps/.test(evalStatus), evalStatus);
    else assert.match(evalStatus, /after [\d,]+ training steps/);
    await page.locator("#dqn").screenshot({ path: await screenshotPath("dqn-shipped.png") });
    // The score on every position the manifest records, with the spread of extra moves.
    const every = SHIPPED_MANIFEST.evaluations?.every_position?.every_position;
    if (every) {
      assert.ok(evalStatus.includes(`On all ${every.positions.toLocaleString("en")} positions`), evalStatus);
      assert.ok(evalStatus.includes(`${every.solved_percent.toFixed(2)}% solved greedily, ${every.extra_moves_percent.toFixed(2)}% more moves than the optimum (${every.extra_moves[0].toLocaleString("en")} optimal, ${every.extra_moves[2].toLocaleString("en")} with 2 extra`), evalStatus);
    }
    assert.ok((await canvasInk(page, "#dqn-chart-eval-solved")) > 1000, "the solved-% chart is drawn");
    assert.match(await page.locator("#dqn-chart-eval-extra").getAttribute("aria-label"), /^Mean extra moves, latest: greedy [\d.]+, beam search [\d.]+$/);
    await page.check("#dqn-continue");
    assert.equal(await page.inputValue("#dqn-reward"), "steps", "the manifest's reward");
    assert.ok(await page.isChecked("#dqn-mixed"), "the manifest's mixed difficulties");
    assert.ok(await page.isChecked("#dqn-uniform-starts"), "the manifest's uniform starts");
    assert.ok(await page.isChecked("#dqn-full-backups"), "the model's full backups");
    const lastRate = String(Number(hyperparameters.learningRate.toPrecision(6)));
    assert.equal(await page.inputValue("#dqn-lr"), lastRate, "the learning rate it last trained at");
    assert.equal(await page.inputValue("#dqn-hidden"), SHIPPED_NETWORK.hidden.join(","));

    const start = await readBoard(page);
    await page.click("#dqn-solve");
    const solution = await modelSolution(page, 30_000);
    assert.equal(solution.status, "solved");
    assert.equal(solution.optimum, "20", "the exact table knows the shuffle's distance");
    assert.equal(solution.optimumSource, "table");
    assert.ok(Number(solution.length) >= 20, `a solution is never shorter than the optimum (${solution.length})`);
    assert.ok(["greedy", "beam-search"].includes(solution.method));
    // The Solve card shows it as its result: the card's sentence, the moves, the optimum.
    const said = await page.locator("#dqn-play-status").textContent();
    assert.match(said, /^The DQN model \((greedy|beam search)\) found a (\d+)-move solution(, optimal|, \d+ moves? more than the optimal 20)\.$/);
    assert.equal(await page.locator("#solver-status").textContent(), said);
    assert.equal(await page.locator("#stat-moves").textContent(), solution.length);
    assert.equal(await page.locator("#stat-optimal").textContent(), solution.length === "20" ? "Yes — optimal" : "No (optimal is 20)");
    assert.ok(await page.locator("#stat-vs-optimum").isHidden(), "nothing left to compare");
    await waitUntilPlayedAndSolved(page, Number(solution.length));
    const end = await readBoard(page);
    assert.deepEqual(end.dom, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    assert.notDeepEqual(start.dom, end.dom);

    // Another size: said plainly, and nothing is played.
    await page.selectOption("#size", "2x3");
    assert.match(await page.locator("#dqn-fit").textContent(), /This model solves 3 × 3 boards with the goal 1,2,3,4,5,6,7,8,_; this board is 2 × 3/);
    await page.click("#dqn-solve");
    await page.waitForFunction(() => /this board is 2 × 3/.test(document.querySelector("#dqn-play-status").textContent));
    assert.equal(await page.locator("#player [data-player=position]").textContent(), "No solution loaded");
    assert.deepEqual(page.errors, []);
  });

  test("hidden layers that are not 1 to 8 widths of 1 to 4,096 units are refused, naming the field, and nothing starts", slow, async () => {
    const page = await session.newPage();
    await waitForLearnCard(page);
    await fillTrainingForm(page, { size: "2x3", backend: "cpu", fields: { warmup: 2 } });
    for (const hidden of ["250,,0", "64 x abc", "1,2,3,4,5,6,7,8,9", "5000"]) {
      await page.fill("#dqn-hidden", hidden);
      await page.click("#dqn-start");
      assert.match(await page.locator("#dqn-form-error").textContent(), /^Hidden layers: 1 to 8 widths from 1 to 4,096 units/, hidden);
      assert.equal(await page.getAttribute("#dqn-hidden", "aria-invalid"), "true", hidden);
      assert.equal((await readTraining(page)).steps, 0, hidden);
    }
    // Widths separated by spaces and × are read.
    await page.fill("#dqn-hidden", "8 × 8");
    await page.click("#dqn-start");
    await page.waitForFunction(() => Number(document.querySelector("#dqn-stats").dataset.steps ?? 0) > 0, null, { timeout: 60_000 });
    assert.ok(await page.locator("#dqn-form-error").isHidden());
  });

  test("training on the CPU moves the live charts; Pause, Save, Resume and Stop work; the page stays responsive", slow, async () => {
    const page = await session.newPage();
    await waitForLearnCard(page);
    await fillTrainingForm(page, {
      size: "2x3",
      backend: "cpu",
      fields: { hidden: "64", warmup: 10, "eval-interval": 20 },
    });
    // The longest gap between timer ticks on the page's main thread while training runs.
    await page.evaluate(() => {
      window.longestGap = 0;
      let last = performance.now();
      window.gapTimer = setInterval(() => {
        const now = performance.now();
        window.longestGap = Math.max(window.longestGap, now - last);
        last = now;
      }, 50);
    });
    await page.click("#dqn-start");
    await page.waitForFunction(
      () => Number(document.querySelector("#dqn-chart-loss").dataset.points ?? 0) >= 5 && Number(document.querySelector("#dqn-chart-speed").dataset.points ?? 0) >= 5,
      null,
      { timeout: 60_000 },
    );
    const running = await readTraining(page);
    assert.equal(running.state, "running");
    assert.equal(running.backend, "cpu");
    assert.equal(running.backendText, "CPU");
    assert.ok(running.steps > 0, `steps done (${running.steps})`);
    assert.ok(Number.isFinite(running.loss) && running.loss >= 0, `the TD loss is a finite number (${running.loss})`);
    assert.ok(running.points.difficulty >= 5 && running.points.solved >= 1, JSON.stringify(running.points));
    assert.match(await page.locator("#dqn-stat-params").textContent(), /^[\d,]+$/);
    assert.ok((await canvasInk(page, "#dqn-chart-loss")) > 1000, "the TD-loss chart is drawn");
    await page.waitForFunction((steps) => Number(document.querySelector("#dqn-stats").dataset.steps) > steps, running.steps);

    await page.click("#dqn-pause");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "paused", null, { timeout: 20_000 });
    const paused = await readTraining(page);
    await page.waitForTimeout(1_500);
    assert.equal((await readTraining(page)).steps, paused.steps, "no steps while paused");
    assert.match(paused.status, /^Paused at [\d,]+ steps/);
    assert.equal(await page.locator("#dqn-model-line").getAttribute("data-source"), "trained", "the network so far is the model");
    assert.ok(await page.locator("#dqn-resume").isEnabled());
    assert.ok(await page.locator("#dqn-pause").isDisabled());
    assert.ok(await page.locator("#dqn-hidden").isDisabled(), "the form is locked while a run exists");

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#dqn-save")]);
    assert.equal(download.suggestedFilename(), "dqn-2x3.dqn");
    const saved = await readFile(await download.path());
    assert.equal(saved.subarray(0, 13).toString("latin1"), "puzzlelab-dqn", "Save downloads a model file");

    await page.click("#dqn-resume");
    await page.waitForFunction((steps) => Number(document.querySelector("#dqn-stats").dataset.steps) > steps, paused.steps, { timeout: 20_000 });
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 20_000 });
    const stopped = await readTraining(page);
    assert.match(stopped.status, /^Stopped after [\d,]+ steps/);
    await page.waitForTimeout(1_000);
    assert.equal((await readTraining(page)).steps, stopped.steps, "no steps after Stop");
    assert.ok(await page.locator("#dqn-start").isEnabled());
    assert.ok(await page.locator("#dqn-save").isEnabled(), "the stopped network can still be saved");

    // The trained network is evaluated by exact distance: 2×3 positions are at most 21 moves away.
    await page.fill("#dqn-per-distance", "3");
    await page.click("#dqn-evaluate");
    await page.waitForFunction(() => document.querySelector("#dqn-evaluation").dataset.rows === "21", null, { timeout: 30_000 });
    assert.match(await page.locator("#dqn-eval-status").textContent(), /Measured here: 63 positions \(3 per distance\)/);
    assert.equal(await page.locator("#dqn-distance-table tbody tr").count(), 22, "a row per distance and one for all");

    const longestGap = await page.evaluate(() => (clearInterval(window.gapTimer), window.longestGap));
    assert.ok(longestGap < 1_000, `the page never froze (longest pause of its timers: ${Math.round(longestGap)} ms)`);
    assert.deepEqual(page.errors, []);
  });

  test("the step-cost reward, mixed difficulties, uniform starts and full backups train on the CPU; an unknown reward is refused", options, async () => {
    const page = await session.newPage();
    const refusal = await page.evaluate(async () => {
      const { sharedLearnClient } = await import("./common/learn-client.js");
      const training = sharedLearnClient().train({ puzzle: "sliding", rows: 2, cols: 2, options: { reward: "sideways" }, backend: "cpu" });
      return training.then(() => "trained", (error) => error.message);
    });
    assert.match(refusal, /^The trainer could not be set up: reward "sideways" is not one of heuristic-penalty, steps, step-cost-goal-bonus$/);

    // What the form sends to the worker.
    await page.evaluate(() => {
      window.trainMessages = [];
      const send = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message?.type === "train") window.trainMessages.push(message);
        return send.call(this, message, ...rest);
      };
    });
    await fillTrainingForm(page, {
      size: "2x2",
      backend: "cpu",
      reward: "steps",
      fields: { hidden: "8", warmup: 2, batch: 8, replay: 1000, difficulty: 4, "failure-share": 0.5 },
      checks: { mixed: true, "uniform-starts": true, "full-backups": true },
    });
    await page.click("#dqn-start");
    await page.waitForFunction(() => Number(document.querySelector("#dqn-chart-loss").dataset.points ?? 0) >= 2, null, { timeout: 30_000 });
    const [message] = await page.evaluate(() => window.trainMessages);
    assert.equal(message.options.reward, "steps");
    assert.equal(message.options.mixed, true);
    assert.equal(message.options.uniformStarts, true);
    assert.equal(message.options.fullBackups, true);
    assert.equal(message.options.failureShare, 0.5);
    assert.equal(message.options.difficulty, 4);
    const training = await readTraining(page);
    assert.equal(training.state, "running");
    assert.equal(training.backend, "cpu");
    assert.ok(training.steps > 0 && Number.isFinite(training.loss), `steps ${training.steps}, TD loss ${training.loss}`);
    assert.ok(await page.locator("#dqn-reward").isDisabled(), "the reward is locked while the run exists");
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 20_000 });
    assert.deepEqual(page.errors, []);
  });

  test("WebGPU computes the probe network as the CPU does, with either matrix kernel and with the one its set-up raced", slow, async () => {
    const page = await session.newPage();
    const probes = await page.evaluate(async () => {
      const { sharedLearnClient } = await import("./common/learn-client.js");
      try {
        const client = sharedLearnClient();
        const tiled = await client.probe(4, "tiled");
        const fallback = await client.probe(4, "default");
        const race = await client.probe(4);
        return { ok: true, tiled, fallback, race };
      } catch (error) {
        return { ok: false, message: error.message, hasGpu: Boolean(navigator.gpu) };
      }
    });
    if (!probes.ok) {
      assert.fail(
        `WebGPU could not run the probe (${probes.message}); navigator.gpu on the page: ${probes.hasGpu}. ` +
          "Chromium must run with --enable-unsafe-webgpu (tests/browser/helpers.mjs).",
      );
    }
    // The set-up raced burn's default product against cubek's tiled one on a dense layer of the
    // dissertation's size: both gave the same numbers, and the probes ran each kernel as asked,
    // the race's choice after.
    const race = probes.race.products;
    assert.ok(race.defaultMs > 0 && race.tiledMs > 0, JSON.stringify(race));
    assert.deepEqual([race.rows, race.width], [100, 250]);
    assert.ok(race.relativeDifference <= 1e-4, `the two kernels agree: ${race.relativeDifference}`);
    assert.deepEqual([probes.tiled.tiled, probes.fallback.tiled, probes.race.tiled], [true, false, race.tiled]);
    for (const probe of [probes.tiled, probes.fallback]) checkProbe(probe);
    checkProbe(probes.race);
    assert.deepEqual(page.errors, []);
  });

  function checkProbe(probe) {
    const { cpu, webgpu } = probe;
    for (const part of ["outputs", "gradients"]) {
      assert.equal(webgpu[part].length, cpu[part].length, `${part}: as many numbers on both devices`);
      assert.ok(cpu[part].length > 0);
      cpu[part].forEach((value, i) => {
        const other = webgpu[part][i];
        const allowed = TOLERANCE * Math.max(1, Math.abs(value), Math.abs(other));
        assert.ok(Math.abs(value - other) <= allowed, `${part}[${i}]: CPU ${value}, WebGPU ${other}`);
      });
    }
    assert.equal(cpu.outputs.length, 16 * 4, "a batch of 16 observations, 4 Q-values each");
    assert.equal(cpu.gradients.length, 36 * 32 + 32 + 32 * 32 + 32 + 32 * 4 + 4, "one gradient per weight and bias");
    for (const [device, losses] of [["CPU", cpu.losses], ["WebGPU", webgpu.losses]]) {
      assert.equal(losses.length, 5, `${device}: the loss before each of 4 Adam steps, then after the last`);
      assert.ok(losses.every(Number.isFinite), `${device}: finite losses`);
      assert.ok(losses.at(-1) < losses[0], `${device}: Adam lowers the loss (${losses[0]} → ${losses.at(-1)})`);
    }
    assert.ok(probe.finite, "no NaN or infinity on either device");
  }

  test("auto checks WebGPU, times this network on both and trains on the faster, each stage of its start said in plain words; full backups run on WebGPU", { timeout: 4 * TEST_TIMEOUT_MS }, async () => {
    const page = await session.newPage();
    await waitForLearnCard(page);

    // "auto" checks WebGPU the same way, then times this network on both and trains on the
    // faster (here SwiftShader's WebGPU is a CPU emulation: usually the CPU), saying both figures.
    await fillTrainingForm(page, {
      size: "2x2",
      backend: "auto",
      fields: { hidden: "16", warmup: 2, batch: 8, replay: 1000 },
    });
    await recordStart(page);
    await page.click("#dqn-start");
    // The start, as it goes: the stages listed, the one running said in the status line.
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.startStage === "check", null, { timeout: 90_000 });
    assert.ok(await page.locator("#dqn-getting-ready").isVisible(), "the stages of the start are listed");
    assert.deepEqual(
      await page.locator("#dqn-getting-ready li").evaluateAll((items) => items.map((item) => [item.dataset.step, item.dataset.state])),
      [["download", "done"], ["prepare", "done"], ["check", "running"], ["network", "pending"], ["timing", "pending"], ["first", "pending"]],
    );
    await page.locator("#dqn").screenshot({ path: await screenshotPath("dqn-start.png") });
    await page.waitForFunction(() => Number(document.querySelector("#dqn-chart-speed").dataset.points ?? 0) >= 2, null, { timeout: 180_000 });
    // Warm-up runs a hundred times faster than training: on a linear scale the training's speed
    // lies flat on 0 under the warm-up's peak, so the chart is logarithmic, as the other cards'.
    assert.equal(await page.locator("#dqn-chart-speed").getAttribute("data-y-scale"), "log");
    const start = await readStart(page);
    // Moving the network to WebGPU comes only when the timing chose it.
    assert.deepEqual(start.stages.filter((stage) => stage !== "move"), ["download", "prepare", "check", "network", "timing", "first"], JSON.stringify(start.texts));
    const said = (pattern) => start.texts.some((text) => pattern.test(text));
    assert.ok(said(/^Getting ready to train \(1 of 6\): downloading the learning code: [\d.]+ MB of [\d.]+ MB \(\d+%\)/), `the download's bytes and percent: ${start.texts[1]}`);
    for (const words of ["preparing the learning code", "checking that the graphics card", "building the network", "timing a few training steps on the CPU", "timing a few training steps on the graphics card", "taking the first training steps"]) {
      assert.ok(said(new RegExp(`^Getting ready to train \\(\\d of \\d\\): ${words}`)), `the status line says "${words}"`);
    }
    for (const text of start.texts) assert.doesNotMatch(text, JARGON, "the status line speaks plainly");
    assert.ok(start.longestSilence < LONGEST_SILENCE_MS, `the status line changed at least every ${LONGEST_SILENCE_MS} ms (longest: ${Math.round(start.longestSilence)} ms)`);
    assert.ok(await page.locator("#dqn-getting-ready").isHidden(), "the list goes once training runs");

    const training = await readTraining(page);
    assert.doesNotMatch(training.status, JARGON, `the status line speaks plainly: ${training.status}`);
    const plain = training.status.match(
      /^The graphics card \(WebGPU\) works here\. Timed on this network, it trains at ([\d.e+]+) steps a second and the CPU at ([\d.e+]+): training on (the graphics card|the CPU), the faster\. Training on (?:the graphics card \(WebGPU\)|the CPU)…/,
    );
    assert.ok(plain, `the status line says both timings and the choice in plain words: ${training.status} ${training.error}`);
    // The technical details, folded away: how long each stage took, the kernels' race, the figures.
    assert.ok(await page.locator("#dqn-tech").isVisible());
    assert.equal(await page.locator("#dqn-tech").getAttribute("open"), null, "closed until asked for");
    const details = await readDetails(page);
    assert.match(details, /^Getting ready took [\d.]+ s: Download the learning code [\d.]+ s; Prepare it for this browser [\d.]+ s; Check the graphics card [\d.]+ s; Build the network [\d.]+ s; Time it on the CPU and the graphics card [\d.]+ s; /);
    const choice = details.match(
      /WebGPU agrees with the CPU \(largest difference [\d.e+-]+\)\. Its matrix products use (cubek's tiled|burn's default) kernel \(([\d.e+]+) ms a product against ([\d.e+]+) ms for [^)]+\)\. Timed on this network: WebGPU ([\d.e+]+) steps\/s, the CPU ([\d.e+]+) steps\/s; training on (WebGPU|the CPU), the faster\./,
    );
    assert.ok(choice, `the details say both timings and the choice: ${details} ${training.error}`);
    assert.deepEqual([plain[1], plain[2], plain[3]], [choice[4], choice[5], choice[6] === "WebGPU" ? "the graphics card" : "the CPU"], "the same figures in both");
    assert.match(details, /Graphics card: .+\./, "the graphics card, as the browser names it");
    // The kernel named is the one that won the race: the tiled one only when it was faster.
    const [kernel, chosenMs, otherMs] = [choice[1], Number(choice[2]), Number(choice[3])];
    if (kernel === "cubek's tiled") assert.ok(chosenMs < otherMs, choice[0]);
    const [webgpuRate, cpuRate] = [Number(choice[4]), Number(choice[5])];
    assert.ok(webgpuRate > 0 && cpuRate > 0, `both timed: ${choice[0]}`);
    const faster = webgpuRate > cpuRate ? "webgpu" : "cpu";
    assert.equal(training.backend, faster, `auto trains on the faster (${choice[0]})`);
    assert.equal(choice[6], faster === "webgpu" ? "WebGPU" : "the CPU");
    assert.equal(training.backendText, faster === "webgpu" ? "WebGPU" : "CPU");
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 60_000 });

    // Full backups run on WebGPU too (every readback asynchronous): two chunks, then stop.
    const full = await page.evaluate(async () => {
      const { sharedLearnClient } = await import("./common/learn-client.js");
      const client = sharedLearnClient();
      const reports = [];
      const options = { fullBackups: true, hidden: [16], batchSize: 8, maskActions: true, reward: "steps", gamma: 1, mixed: true, uniformStarts: true, difficulty: 4, curriculum: false };
      const done = await client.train({ puzzle: "sliding", rows: 2, cols: 2, options, backend: "webgpu" }, {
        onProgress: (message) => {
          if (message.stage !== "chunk") return;
          reports.push(message.report);
          if (reports.length === 2) client.stop();
        },
      });
      return { backend: done.backend, reports };
    });
    assert.equal(full.backend, "webgpu");
    assert.ok(full.reports.length >= 2, `${full.reports.length} chunks`);
    for (const report of full.reports) {
      assert.ok(Number.isFinite(report.tdLoss) && report.updates > 0, JSON.stringify(report));
      // A 2×2 start has 2 legal moves: each gradient step backs up 8 starts × 2 moves.
      assert.equal(report.envSteps, report.updates * 16, JSON.stringify(report));
    }
    assert.deepEqual(page.errors, []);
  });

  test("Cancel stops an evaluation that is running, or one still waiting for the bundle; a cancel of an answered one finds nothing open", slow, async () => {
    const page = await session.newPage();
    await waitForLearnCard(page);
    const answers = await page.evaluate(async () => {
      const { sharedLearnClient } = await import("./common/learn-client.js");
      const client = sharedLearnClient();
      const outcome = (promise) => promise.then(() => "finished", (error) => error.message);
      // Sent before the model is loaded (and, on a cold worker, before the bundle is there).
      const loading = client.loadModelUrl(new URL("models/8puzzle.dqn", location.href).href, { key: "cancel-test", puzzle: "sliding" });
      const earlyRequest = client.evaluate("cancel-test", "sliding", { perDistance: 100 });
      const early = outcome(earlyRequest);
      const earlyCancel = await client.cancelEvaluation(earlyRequest.id);
      await loading;
      const small = client.evaluate("cancel-test", "sliding", { perDistance: 1 });
      const smallOutcome = await outcome(small);
      const late = await client.cancelEvaluation(small.id);
      const runningRequest = client.evaluate("cancel-test", "sliding", { perDistance: 100 });
      const running = outcome(runningRequest);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const runningCancel = await client.cancelEvaluation(runningRequest.id);
      return { earlyCancel, early: await early, smallOutcome, late, runningCancel, running: await running };
    });
    assert.deepEqual(answers, {
      earlyCancel: { cancelled: true },
      early: "The evaluation was cancelled.",
      smallOutcome: "finished",
      late: { cancelled: false },
      runningCancel: { cancelled: true },
      running: "The evaluation was cancelled.",
    });
    assert.deepEqual(page.errors, []);
  });

  test("a damaged or foreign model file, or a missing URL, is refused with a readable message", options, async () => {
    const page = await session.newPage();
    await waitForLearnCard(page);
    const shipped = await readFile(SHIPPED_MODEL);
    const load = async (name, buffer) => {
      await page.evaluate(() => (document.querySelector("#dqn-play-error").hidden = true));
      await page.setInputFiles("#dqn-file", { name, mimeType: "application/octet-stream", buffer });
      await page.locator("#dqn-play-error").waitFor({ state: "visible", timeout: 30_000 });
      return page.locator("#dqn-play-error").textContent();
    };
    assert.match(
      await load("truncated.dqn", shipped.subarray(0, 1000)),
      new RegExp(`^The file "truncated\\.dqn" could not be loaded: corrupt DQN model: \\d+ bytes of weights where ${SHIPPED_NETWORK.parameters} parameters need \\d+`),
    );
    const flipped = Buffer.from(shipped);
    flipped[flipped.length - 100] ^= 0x40;
    assert.match(await load("flipped.dqn", flipped), /^The file "flipped\.dqn" could not be loaded: corrupt DQN model: the weights do not match their checksum/);
    assert.match(await load("notes.txt", Buffer.from("not a model")), /could not be loaded: not a puzzlelab DQN model \(it does not start with "puzzlelab-dqn"\)/);
    assert.equal(await page.locator("#dqn-play-error").getAttribute("role"), "alert");
    assert.equal(await page.locator("#dqn-model-line").getAttribute("data-source"), "", "no model was taken");
    assert.ok(await page.locator("#dqn-model option[value=file]").evaluate((option) => option.disabled), "the file choice stays empty");

    await page.evaluate(() => (document.querySelector("#dqn-play-error").hidden = true));
    await page.fill("#dqn-url", "models/missing.dqn");
    await page.click("#dqn-load-url");
    await page.locator("#dqn-play-error").waitFor({ state: "visible" });
    assert.equal(await page.locator("#dqn-play-error").textContent(), "“models/missing.dqn” could not be downloaded: the host answered HTTP 404 (no such file).");
    // A host that does not answer (nothing listens on port 9).
    await page.evaluate(() => (document.querySelector("#dqn-play-error").hidden = true));
    await page.fill("#dqn-url", "http://127.0.0.1:9/model.dqn");
    await page.click("#dqn-load-url");
    await page.locator("#dqn-play-error").waitFor({ state: "visible" });
    assert.match(await page.locator("#dqn-play-error").textContent(), /^“http:\/\/127\.0\.0\.1:9\/model\.dqn” could not be downloaded: the host did not answer, or it does not let this page read the file/);

    // The intact file loads, and the next Start would go on from it.
    await page.setInputFiles("#dqn-file", { name: "8puzzle.dqn", mimeType: "application/octet-stream", buffer: shipped });
    await page.waitForFunction(() => document.querySelector("#dqn-model-line").dataset.source === "file");
    assert.ok(await page.locator("#dqn-continue").isChecked());
    assert.equal(await page.inputValue("#dqn-hidden"), SHIPPED_NETWORK.hidden.join(","));
    assert.equal(await page.inputValue("#dqn-size"), "3x3");
    // 404s are logged by the browser as console errors; nothing else may be.
    assert.deepEqual(page.errors.filter((error) => !/404|ERR_CONNECTION_REFUSED/.test(error)), []);
  });
});

describe("<puzzle-widget solver=\"dqn\">", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("batch-weighted A* over the shipped 8-puzzle model solves one of the hardest boards, never below the optimum", slow, async () => {
    const page = await session.newPage(hashFor(3, 3, "8,6,7,2,5,4,3,_,1"));
    await waitForLearnCard(page);
    await page.click("#dqn-load-shipped");
    await page.waitForFunction(() => document.querySelector("#dqn-model-line").dataset.source === "shipped", null, { timeout: 60_000 });
    await page.selectOption("#dqn-search", "bwas");
    await page.click("#dqn-solve");
    const stats = await modelSolution(page, 60_000);
    assert.equal(stats.method, "bwas");
    assert.equal(stats.status, "solved");
    assert.equal(stats.optimum, "31", "8,6,7,2,5,4,3,_,1 is one of the two hardest 8-puzzles");
    assert.ok(Number(stats.length) >= 31, `not shorter than the optimum (${stats.length})`);
    assert.match(await page.locator("#solver-status").textContent(), /^The DQN model \(batch-weighted A\*\) found a \d+-move solution/);
    await waitUntilPlayedAndSolved(page, Number(stats.length), 60_000);
    assert.deepEqual(page.errors, []);
  });

  test("the shipped 15-puzzle value network: batch-weighted A* solves a 4×4 board at the page's optimum, the card says so, and training cannot go on from it", slow, async () => {
    const start = "12,1,10,2,7,11,4,14,5,_,9,15,8,13,6,3";
    // The optimum, by the page's own pattern-database IDA*.
    const reference = await session.newPage(hashFor(4, 4, start));
    const optimum = await solveAndWait(reference, "idastar", "pdb");
    assert.equal(optimum.status, "solved");
    assert.ok(optimum.optimal);
    await reference.close();

    const page = await session.newPage(hashFor(4, 4, start));
    await waitForLearnCard(page);
    await page.selectOption("#dqn-shipped", "15puzzle-values.dqn");
    await page.click("#dqn-load-shipped");
    await page.waitForFunction(() => document.querySelector("#dqn-model-line").dataset.source === "shipped", null, { timeout: 60_000 });
    assert.equal(await page.locator("#dqn-model-line").getAttribute("data-values"), "true");
    assert.match(await page.locator("#dqn-model-line").textContent(), /value network \(moves left\)/);
    assert.ok(await page.locator("#dqn-continue").isDisabled(), "the Q-learner cannot start from a value network");
    assert.equal(await page.inputValue("#dqn-search"), "bwas", "the search is chosen for it");
    await page.click("#dqn-solve");
    const stats = await modelSolution(page, 90_000);
    assert.equal(stats.method, "bwas");
    assert.equal(stats.status, "solved");
    const length = Number(stats.length);
    assert.equal(length, optimum.length, "the value network's search finds this board's optimum");
    assert.match(await page.locator("#dqn-play-status").textContent(), /^The value network \(batch-weighted A\*\) found a \d+-move solution\.$/);
    // The learning worker has no exact distances for 4 × 4: the page's own IDA* finds the optimum meanwhile.
    await page.waitForFunction(() => document.querySelector("#stats").dataset.optimumSource === "search", null, { timeout: 90_000 });
    assert.equal(await page.locator("#stats").getAttribute("data-optimum"), String(optimum.length));
    assert.equal(await page.locator("#stat-optimal").textContent(), "Yes — optimal");
    assert.match(await page.locator("#stat-vs-optimum").textContent(), /^\d+ moves against the optimum of \d+, found by IDA\* \(pattern databases\): 1\.00 × optimal$/);
    await page.locator("section:has(#stats)").screenshot({ path: await screenshotPath("dqn-values.png") });
    await waitUntilPlayedAndSolved(page, length, 60_000);
    assert.deepEqual(page.errors, []);
  });

  test("solves 3×3 and 4×4 boards with the shipped models and explains the boards it cannot solve", slow, async () => {
    const page = await session.newPage();
    await page.evaluate(() => {
      const widget = document.createElement("puzzle-widget");
      widget.id = "neural";
      widget.setAttribute("solver", "dqn");
      widget.setAttribute("start", "8,6,7,2,5,4,3,_,1");
      widget.setAttribute("speed", "60");
      document.querySelector("footer").append(widget);
    });
    await page.waitForFunction(() => document.getElementById("neural").hasAttribute("ready"));
    const detail = await page.evaluate(() => document.getElementById("neural").solve());
    assert.equal(detail.algorithm, "dqn");
    assert.equal(detail.optimalLength, 31, "8,6,7,2,5,4,3,_,1 is one of the two hardest 8-puzzles");
    assert.ok(detail.length >= 31, `not shorter than the optimum (${detail.length})`);
    assert.equal(detail.optimal, detail.length === 31);
    assert.ok(["greedy", "beam-search"].includes(detail.method));
    assert.equal(detail.moves.length, detail.length);
    const status = await page.evaluate(() => document.getElementById("neural").shadowRoot.querySelector("[part=status]").textContent);
    assert.match(status, /^DQN \((greedy|beam search)\): \d+ moves, (optimal|\d+ more than optimal) · [\d,]+ ms$/);
    await page.waitForFunction(() => document.getElementById("neural").state.solved, null, { timeout: 30_000 });

    // A 4×4 board uses the shipped 15-puzzle model (a uniformly random position: beam search).
    await page.evaluate(() => {
      const widget = document.getElementById("neural");
      widget.setAttribute("size", "4");
      widget.setAttribute("start", "5,1,11,3,4,8,14,9,12,6,15,2,_,13,7,10");
    });
    await page.waitForFunction(() => document.getElementById("neural").state?.rows === 4);
    const fifteen = await page.evaluate(() => document.getElementById("neural").solve());
    assert.equal(fifteen.algorithm, "dqn");
    assert.equal(fifteen.moves.length, fifteen.length);
    assert.ok(fifteen.length >= 20, `a uniformly random 15-puzzle needs many moves (${fifteen.length})`);
    await page.waitForFunction(() => document.getElementById("neural").state.solved, null, { timeout: 60_000 });

    // A 2×3 board has no shipped model: the solve says so inside the widget.
    await page.evaluate(() => {
      const widget = document.getElementById("neural");
      widget.removeAttribute("start");
      widget.setAttribute("size", "2x3");
    });
    await page.waitForFunction(() => document.getElementById("neural").state?.rows === 2);
    const refusal = await page.evaluate(() => document.getElementById("neural").solve().then(() => "solved", (error) => error.message));
    assert.match(refusal, /^DQN failed: no trained model fits this 2×3 board with the goal 1,2,3,4,5,_ \(models ship for: 3×3 with the goal 1,2,3,4,5,6,7,8,_; 4×4 with the goal 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_\)/);
    const error = await page.evaluate(() => document.getElementById("neural").shadowRoot.querySelector("[part=error]").textContent);
    assert.equal(error, refusal);

    // The sun & moon preset: refused as soon as the attributes are read.
    await page.evaluate(() => {
      const widget = document.getElementById("neural");
      widget.removeAttribute("size");
      widget.setAttribute("preset", "sun-moon");
    });
    await page.waitForFunction(() => document.getElementById("neural").hasAttribute("invalid"));
    const presetError = await page.evaluate(() => document.getElementById("neural").shadowRoot.querySelector("[part=error]").textContent);
    assert.match(presetError, /^solver="dqn": the DQN models solve numbered sliding puzzles, not the sun-moon preset$/);

    // A model URL that is not there, or whose host does not answer: the widget names it and says which.
    await page.evaluate(() => {
      const widget = document.getElementById("neural");
      widget.removeAttribute("preset");
      widget.setAttribute("model", "models/missing.dqn");
    });
    await page.waitForFunction(() => !document.getElementById("neural").hasAttribute("invalid") && document.getElementById("neural").state?.rows === 3);
    const missing = await page.evaluate(() => document.getElementById("neural").solve().then(() => "solved", (error) => error.message));
    assert.match(missing, /^DQN failed: http:\/\/127\.0\.0\.1:\d+\/www\/models\/missing\.dqn answered HTTP 404 \(no such file\)/);
    await page.evaluate(() => document.getElementById("neural").setAttribute("model", "http://127.0.0.1:9/model.dqn"));
    const unanswered = await page.evaluate(() => document.getElementById("neural").solve().then(() => "solved", (error) => error.message));
    assert.match(unanswered, /^DQN failed: http:\/\/127\.0\.0\.1:9\/model\.dqn could not be downloaded: the host did not answer, or it does not let this page read the file/);
    assert.deepEqual(page.errors.filter((text) => !/404|ERR_CONNECTION_REFUSED/.test(text)), []);
  });
});

describe("without WebGPU", () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(0);
    // Without --enable-unsafe-webgpu, headless Chromium has navigator.gpu but offers no adapter.
    const args = CHROMIUM_ARGS.filter((arg) => arg !== "--enable-unsafe-webgpu");
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  }, options);
  after(async () => {
    await browser?.close();
    await server?.close();
  }, options);

  test("auto trains on the CPU and says why; an explicit WebGPU choice fails with the reason", options, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await page.goto(new URL("sliding.html", server.url).href);
    await waitForApp(page);
    await waitForLearnCard(page);
    await fillTrainingForm(page, { size: "2x2", backend: "auto", fields: { hidden: "8", warmup: 2 } });
    await recordStart(page);
    await page.click("#dqn-start");
    await page.waitForFunction(() => Number(document.querySelector("#dqn-stats").dataset.steps ?? 0) > 0, null, { timeout: 30_000 });
    const training = await readTraining(page);
    assert.equal(training.backend, "cpu");
    assert.match(training.status, /^This browser offers no graphics card to train on \(WebGPU\)\. This run trains on the CPU\. Training on the CPU…/);
    assert.match(await readDetails(page), /WebGPU unavailable: the browser offers no WebGPU adapter \(.*\); training on the CPU\./);
    // No timing without a graphics card: that stage is skipped.
    const start = await readStart(page);
    assert.deepEqual(start.stages, ["download", "prepare", "check", "network", "first"]);
    for (const text of [...start.texts, training.status]) assert.doesNotMatch(text, JARGON);
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 20_000 });

    await page.selectOption("#dqn-backend", "webgpu");
    await page.click("#dqn-start");
    await page.locator("#dqn-error").waitFor({ state: "visible", timeout: 20_000 });
    assert.match(await page.locator("#dqn-error").textContent(), /^WebGPU is not available: the browser offers no WebGPU adapter .*Choose the CPU or auto\.$/);
    assert.equal((await readTraining(page)).state, "stopped", "nothing started: the run before stays");
    assert.ok(await page.locator("#dqn-start").isEnabled(), "Start is offered again");
    assert.ok(await page.locator("#dqn-save").isEnabled(), "the network trained before can still be saved");
    assert.deepEqual(errors, []);
    await context.close();
  });
});
