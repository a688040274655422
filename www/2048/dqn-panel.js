// The 2048 page's "Deep Q-network from Mehta's RL paper" card: the paper's DQN (one-hot 4 × 4 × 16 board, two
// levels of (1, 2) and (2, 1) convolutions, a dense layer, a Q-value per move; src/env/
// game2048_learn.rs) trained in the learning worker (learn-worker.js through learn-client.js, the
// same worker and WebGPU check as the sliding-puzzle page's DQN card), with live charts, and a
// model — the network trained here, a file, or the shipped one — that plays on the page's board
// ("Watch it play") and is evaluated over seeded games.
//
//   import { mountDqn2048Panel } from "./dqn-panel.js";
//   const panel = mountDqn2048Panel(document.querySelector("#dqn-2048"), api);
//
// `container` is the card (its h2 stays first). `api` (2048/app.js's trainApi; optional):
// `useAgent({ label, details, bestMove(exponents) → Promise<number> })` hands a move-chooser to the
// page's player and `playAgent()` starts it; without them "Watch it play" stays hidden.
// `api.shippedDqnUrl` overrides where the shipped model is (default models/2048-dqn.dqn next to
// this file). Nothing heavy happens when the card mounts: the worker and the learning bundle
// (pkg/learn/, about 3 MB gzipped) load when one of its buttons is first used.

import { chooseFilesWith, elementsById, FieldError, hideProgress, labelModelOptions, megabytes, percent, readNumber, renderCard, showDownload, writeModelLine } from "../common/card-helpers.js";
import { LineChart } from "../common/chart.js";
import { EVALUATION_IDS, EvaluationTable, evaluationResultsHtml } from "../common/evaluation-table.js";
import { reachRate } from "./stats.js";
import { TRAINED_2048_MODEL, sharedLearnClient } from "../common/learn-client.js";
import { LearnBackend, TrainingRun, downloadBoxHtml, showBundleDownload } from "../common/run-controls.js";

/** The shipped model, trained natively by `puzzlelab train-dqn-2048` (it may not be there yet). */
export const SHIPPED_DQN_URL = new URL("../models/2048-dqn.dqn", import.meta.url);
/** Where the worker keeps the other models of this card. */
const FILE_KEY = "file-2048";
const SHIPPED_KEY = "shipped-2048";
/** The network trained here as it was when "Watch it play" was pressed (training may go on). */
const WATCH_KEY = "watch-2048";
/** `puzzlelab eval-dqn-2048`'s default seed (EVALUATION_SEED in src/bin/puzzlelab.rs, 0x2048D090). */
const CLI_EVALUATION_SEED = 0x2048d090;

const numberFormat = new Intl.NumberFormat("en");
/** Tiles whose reach rates the charts and the table show; 512 is read from max_tile_counts. */
const CHART_TILES = [512, 1024, 2048];
const TABLE_TILES = [512, 1024, 2048, 4096];

/**
 * The form's number fields: [id after "d2048-", label, kind, bounds]. Kinds: "positive" (> 0),
 * "fraction" (0..1), "count" (whole, ≥ 1), "whole" (whole, ≥ 0). Defaults are the paper's
 * (seed004_config in src/env/game2048_learn.rs), written in the template.
 */
const NUMBER_FIELDS = {
  filters1: ["Filters, level 1", "count", 512],
  filters2: ["Filters, level 2", "count", 512],
  hidden: ["Hidden width", "count", 4096],
  lr: ["Learning rate", "positive", 1],
  gamma: ["Discount γ", "fraction"],
  batch: ["Batch", "count", 4096],
  "epsilon-decay": ["ε decay", "fraction"],
  "epsilon-start": ["ε start", "fraction"],
  "epsilon-min": ["ε minimum", "fraction"],
  replay: ["Replay capacity", "count", 1_000_000],
  warmup: ["Warm-up games", "whole", 10_000],
  "target-update": ["Target update", "count", 1_000_000],
  seed: ["Seed", "whole", 2 ** 32 - 1],
  "eval-every": ["Evaluate every", "whole", 1e9],
  "eval-games": ["Games per evaluation", "whole", 1000],
};
/** A quick run in a tab: a network 50 times smaller than the paper's, ε falling within a few hundred games. */
const QUICK_SETTINGS = { filters1: 32, filters2: 32, hidden: 64, "epsilon-decay": 0.99, "eval-every": 2000, "eval-games": 5 };
const SEED_SETTINGS = { filters1: 128, filters2: 128, hidden: 256, lr: 0.0005, gamma: 0.9, batch: 64, "epsilon-decay": 0.9995, "eval-every": 5000, "eval-games": 5 };

const TEMPLATE = `
<p class="help d2048-intro">
  The <strong>deep Q-network</strong> of Mehta's RL paper for constraint-satisfaction games: the board as 16 one-hot layers, two levels of (1, 2) and (2, 1)
  convolutions that see neighbouring tiles, a dense layer and one Q-value per move, learned by deep Q-learning
  on the paper's shaped reward — the same Rust code as <code>puzzlelab train-dqn-2048</code>, here in a Web
  Worker on WebGPU or the CPU. The paper reports 2048 in 40% of games after 200,000 games of training; the
  n-tuple network above, the field's best kind of agent, reaches it in 97.8% from its greedy move alone.
</p>
<form class="d2048-form" novalidate>
  <div class="field-grid d2048-fields">
    <label class="field"><span class="field-label">Filters, level 1</span><input id="d2048-filters1" type="number" value="128" min="1" max="512" step="1" inputmode="numeric" /></label>
    <label class="field"><span class="field-label">Filters, level 2</span><input id="d2048-filters2" type="number" value="128" min="1" max="512" step="1" inputmode="numeric" /></label>
    <label class="field"><span class="field-label">Hidden width</span><input id="d2048-hidden" type="number" value="256" min="1" max="4096" step="1" inputmode="numeric" /></label>
    <label class="field"><span class="field-label">Learning rate</span><input id="d2048-lr" type="number" value="0.0005" min="0" step="any" inputmode="decimal" /></label>
    <label class="field"><span class="field-label">Discount γ</span><input id="d2048-gamma" type="number" value="0.9" min="0" max="1" step="any" inputmode="decimal" /></label>
    <label class="field"><span class="field-label">Batch</span><input id="d2048-batch" type="number" value="64" min="1" step="1" inputmode="numeric" /></label>
    <label class="field"><span class="field-label">ε decay per game</span><input id="d2048-epsilon-decay" type="number" value="0.9995" min="0" max="1" step="any" inputmode="decimal" /></label>
    <label class="field">
      <span class="field-label">Backend</span>
      <select id="d2048-backend" aria-describedby="d2048-backend-help">
        <option value="auto" selected>Auto</option>
        <option value="webgpu">WebGPU</option>
        <option value="cpu">CPU</option>
      </select>
    </label>
  </div>
  <p id="d2048-params" class="help" aria-live="polite"></p>
  <p id="d2048-backend-help" class="help">
    Auto runs a small network on WebGPU and on the CPU; when the two agree it times this network on both and trains
    on the faster, saying both figures; otherwise it says why and trains on the CPU.
  </p>
  <details class="hyper">
    <summary>More settings <span class="optional">(the paper's where it gives one)</span></summary>
    <div class="field-grid hyper-grid">
      <label class="field"><span class="field-label">ε start</span><input id="d2048-epsilon-start" type="number" value="0.9" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">ε minimum</span><input id="d2048-epsilon-min" type="number" value="0.01" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">Replay capacity</span><input id="d2048-replay" type="number" value="100000" min="1" step="1" /></label>
      <label class="field"><span class="field-label">Warm-up games</span><input id="d2048-warmup" type="number" value="10" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Target update (steps)</span><input id="d2048-target-update" type="number" value="100" min="1" step="1" /></label>
      <label class="field"><span class="field-label">Seed</span><input id="d2048-seed" type="number" value="0" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Evaluate every (steps)</span><input id="d2048-eval-every" type="number" value="5000" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Games per evaluation</span><input id="d2048-eval-games" type="number" value="5" min="0" step="1" /></label>
    </div>
    <label class="check"><input id="d2048-double" type="checkbox" /> Double DQN (not in the paper)</label>
  </details>
  <label class="check d2048-continue-field" hidden><input id="d2048-continue" type="checkbox" /> <span id="d2048-continue-label">Start from its weights</span></label>
  <p id="d2048-form-error" class="error" role="alert" hidden></p>
  <div class="buttons">
    <button id="d2048-start" class="primary" type="submit">Start</button>
    <button id="d2048-pause" type="button" disabled>Pause</button>
    <button id="d2048-resume" type="button" disabled>Resume</button>
    <button id="d2048-stop" type="button" disabled>Stop</button>
    <button id="d2048-save" type="button" disabled title="Download the network (.dqn; puzzlelab eval-dqn-2048 reads it)">Save</button>
    <button id="d2048-load" type="button" title="Load a 2048 DQN model file (.dqn) to watch, evaluate or train on">Load…</button>
    <button id="d2048-load-shipped" type="button" title="Fetch the model trained by puzzlelab train-dqn-2048 (www/models/2048-dqn.dqn)">Load the shipped model</button>
    <button id="d2048-quick" type="button" title="Filters 32/32, hidden 64, ε decay 0.99: learns something within minutes in a tab">Quick-run settings</button>
    <button id="d2048-seed-settings" type="button" title="Back to the paper's network and hyper-parameters">The paper's settings</button>
    <input id="d2048-file" type="file" accept=".dqn,application/octet-stream" aria-label="2048 DQN model file" hidden />
  </div>
</form>
${downloadBoxHtml("d2048")}
<p id="d2048-status" class="status" role="status" aria-live="polite"></p>
<p id="d2048-error" class="error" role="alert" hidden></p>
<dl id="d2048-stats" class="stats t2048-stats" data-steps="0" data-loss="" data-evaluations="0">
  <div><dt>Steps</dt><dd id="d2048-stat-steps">–</dd></div>
  <div><dt>Games</dt><dd id="d2048-stat-games">–</dd></div>
  <div><dt>TD loss</dt><dd id="d2048-stat-loss">–</dd></div>
  <div><dt>Explore <span class="symbol">ε</span></dt><dd id="d2048-stat-epsilon">–</dd></div>
  <div><dt>Steps/s</dt><dd id="d2048-stat-speed">–</dd></div>
  <div><dt>Backend</dt><dd id="d2048-stat-backend">–</dd></div>
  <div><dt>Parameters</dt><dd id="d2048-stat-params">–</dd></div>
  <div><dt>Eval. mean score</dt><dd id="d2048-stat-score">–</dd></div>
  <div><dt>Eval. reached 512</dt><dd id="d2048-stat-reach">–</dd></div>
</dl>
<p class="help">
  A step is one move of a training game and one gradient step on a batch of remembered moves. Every few thousand
  steps the network plays a few games greedily (the evaluation games of <code>puzzlelab train-dqn-2048</code>):
  their mean score, and how many reached 512, 1024 and 2048.
</p>
<div class="chart-grid t2048-charts">
  <canvas id="d2048-chart-loss" class="chart"></canvas>
  <canvas id="d2048-chart-epsilon" class="chart"></canvas>
  <canvas id="d2048-chart-score" class="chart"></canvas>
  <canvas id="d2048-chart-reach" class="chart"></canvas>
  <canvas id="d2048-chart-speed" class="chart t2048-wide"></canvas>
</div>

<h3 class="subheading">Watch it play, evaluate it</h3>
<p id="d2048-model-line" class="model-line" data-source="">No model yet: train one, load a file or the shipped model.</p>
<div class="field-grid d2048-eval-fields">
  <label class="field">
    <span class="field-label">Model</span>
    <select id="d2048-model">
      <option value="trained" disabled>Trained here (nothing yet)</option>
      <option value="file" disabled>Loaded file (none)</option>
      <option value="shipped" selected>Shipped (models/2048-dqn.dqn)</option>
    </select>
  </label>
  <label class="field"><span class="field-label">Games</span><input id="d2048-eval-games-n" type="number" value="10" min="1" max="10000" step="1" inputmode="numeric" /></label>
  <label class="field"><span class="field-label">Seed</span><input id="d2048-eval-seed" type="number" value="${CLI_EVALUATION_SEED}" min="0" step="1" inputmode="numeric" /></label>
</div>
<p class="help">
  Game <var>g</var> of seed <var>s</var> is the same game here and in <code>puzzlelab eval-dqn-2048 --seed s</code>
  (the default seed is the CLI's), so the numbers compare exactly. Watching, the page's player plays the model's
  greedy move; its speed slider sets the pace.
</p>
<div class="buttons">
  <button id="d2048-watch" type="button">Watch it play</button>
  <button id="d2048-evaluate" class="primary" type="button">Evaluate</button>
  <button id="d2048-eval-cancel" type="button" disabled>Cancel</button>
</div>
${evaluationResultsHtml("d2048", ["Model", "Games", "Seed", "Mean score", "Median", "Best", ...TABLE_TILES, "Moves/s"])}
`;

/**
 * The card's behaviour; mountDqn2048Panel() makes one. `state`, `elements` and `evaluations` are
 * for the page and tests.
 */
export class Dqn2048Panel {
  #root;
  #api;
  #elements;
  #charts;
  /** The learning client, once a button needed it. */
  #learn = null;
  /** The run: its state, buttons, status and error lines (run-controls.js). */
  #run;
  /** Where the run trains (the worker's "backend" and "started" messages). */
  #where = new LearnBackend();
  /** The evaluations: progress, status, error and results table (evaluation-table.js). */
  #evaluations;
  /** The card's progress box (the learning module's and the shipped model's downloads): { box, text, bar }. */
  #download;
  /** Whether the worker holds a trainer (a network to save, watch, evaluate): { steps } or null. */
  #trained = null;
  /** The model file loaded: { name, info } or null. The shipped model once fetched: { info } or null. */
  #file = null;
  #shipped = null;
  #shippedLoading = null;
  #lastReport = null;
  #lastEvaluation = null;
  /** Numbers the training runs, so that a late message of an earlier run is ignored. */
  #runId = 0;

  constructor(container, api = {}) {
    this.#root = container;
    this.#api = api ?? {};
    const body = renderCard(container, { cardClass: "d2048-card", bodyClass: "t2048-body d2048-body", html: TEMPLATE });
    const $ = (id) => body.querySelector(`#d2048-${id}`);
    this.#elements = {
      form: body.querySelector("form"),
      continueField: body.querySelector(".d2048-continue-field"),
      // "eval-games" is the in-training evaluation's field; this one is the Evaluate button's.
      evalGames: $("eval-games-n"),
      ...elementsById(body, "d2048", ["backend", "params", "continue", "continue-label", "form-error", "start", "pause", "resume", "stop", "save", "load"]),
      ...elementsById(body, "d2048", ["load-shipped", "quick", "seed-settings", "file", "progress", "progress-text", "progress-bar", "status", "error", "stats"]),
      ...elementsById(body, "d2048", ["model-line", "model", "eval-seed", "watch", ...EVALUATION_IDS]),
    };
    this.#download = { box: this.#elements.progress, text: this.#elements.progressText, bar: this.#elements.progressBar };
    const whole = (y) => numberFormat.format(Math.round(y));
    this.#charts = {
      loss: new LineChart($("chart-loss"), { title: "TD loss", yScale: "log", xLabel: "steps", series: [{ name: "TD loss", color: "--chart-1" }], formatY: (y) => y.toPrecision(3) }),
      epsilon: new LineChart($("chart-epsilon"), { title: "ε (exploration)", yMin: 0, yMax: 1, xLabel: "steps", series: [{ name: "ε", color: "--chart-3" }], formatY: (y) => y.toFixed(3) }),
      score: new LineChart($("chart-score"), { title: "Evaluation: mean score", xLabel: "steps", series: [{ name: "mean score", color: "--chart-1", dots: true }], formatY: whole }),
      reach: new LineChart($("chart-reach"), {
        title: "Evaluation: games reaching a tile, %",
        yMin: 0,
        yMax: 100,
        xLabel: "steps",
        series: CHART_TILES.map((tile, index) => ({ name: String(tile), color: `--chart-${index + 1}`, dots: true })),
        formatY: (y) => `${Math.round(y)}%`,
      }),
      // Logarithmic: the warm-up games (no gradient steps) run a hundred times faster than training.
      speed: new LineChart($("chart-speed"), { title: "Steps per second", yScale: "log", xLabel: "steps", series: [{ name: "steps/s", color: "--chart-4" }], formatY: whole }),
    };

    const { elements } = this;
    const render = () => this.#render();
    this.#run = new TrainingRun(container, elements, { panel: this, client: () => this.#client(), render, runningText: () => this.#runningText(), openDetails: true });
    this.#evaluations = new EvaluationTable(elements, { render });
    const on = (element, type, listener) => element.addEventListener(type, listener);
    on(elements.form, "input", () => this.#renderParams());
    chooseFilesWith(elements.load, elements.file, (file) => this.loadFile(file));
    on(elements.loadShipped, "click", () => this.loadShipped().catch(() => {}));
    on(elements.quick, "click", () => this.#fill(QUICK_SETTINGS));
    on(elements.seedSettings, "click", () => this.#fill(SEED_SETTINGS));
    on(elements.continue, "change", () => {
      if (elements.continue.checked && this.#file) this.#fillFromModel(this.#file.info);
      this.#render();
    });
    on(elements.watch, "click", () => this.watch());
    on(elements.evaluate, "click", () => this.evaluate());
    on(elements.evalCancel, "click", () => this.cancelEvaluation());
    on(elements.model, "change", render);
    elements.watch.hidden = typeof this.#api.useAgent !== "function";
    this.#renderParams();
    this.#renderStats();
    this.#render();
  }

  /** The card's elements by name (for the page and tests). */
  get elements() {
    return this.#elements;
  }

  /** "idle" | "starting" | "running" | "pausing" | "paused" | "stopping" | "stopped". */
  get state() {
    return this.#run.state;
  }

  /** The evaluation reports so far (the worker's: { key, seed, info, stats, summary, ms }), oldest first. */
  get evaluations() {
    return this.#evaluations.reports;
  }

  // ---- training ---------------------------------------------------------------------------------------

  /** Starts training with the form's settings; resolves when the run stops. */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const runId = ++this.#runId;
    for (const chart of Object.values(this.#charts)) chart.clear();
    this.#lastReport = null;
    this.#lastEvaluation = null;
    this.#where.reset();
    this.#elements.stats.dataset.evaluations = "0";
    this.#renderStats();
    this.#run.begin(settings.backend === "cpu" ? "Starting on the CPU…" : "Starting: checking WebGPU…");
    try {
      const final = await this.#client().train2048(settings, { onProgress: (progress) => this.#onProgress(progress, runId) });
      if (runId !== this.#runId) return;
      if (final.report) this.#lastReport = final.report;
      this.#trained = { steps: this.#lastReport?.stepsDone ?? 0 };
      if (final.model) this.#setModelLine("The network trained here", modelText(final.model), "trained");
      this.#run.stopped(`Stopped after ${numberFormat.format(this.#trained.steps)} steps. Watch the network play, evaluate it, Save it, or start again.`);
    } catch (error) {
      if (runId !== this.#runId) return;
      this.#run.failed(error, Boolean(this.#trained));
    }
    this.#renderModels();
  }

  /** Pauses after the running chunk. */
  pause() {
    return this.#run.pause(() => `Paused at ${numberFormat.format(this.#lastReport?.stepsDone ?? 0)} steps: watch the network play, evaluate it, Save it, or Resume.`);
  }

  /** Goes on after a pause. */
  resume() {
    return this.#run.resume();
  }

  /** Stops after the running chunk; start()'s promise then reports the end. */
  stop() {
    return this.#run.stop();
  }

  /** Downloads the trained network as 2048-dqn-STEPSsteps.dqn (the CLI's format). */
  async save() {
    if (!this.#trained) return;
    await this.#run.save(async () => {
      const { bytes, steps } = await this.#client().save();
      return { bytes, name: `2048-dqn-${steps}steps.dqn`, type: "application/octet-stream" };
    });
  }

  #onProgress(progress, runId) {
    if (runId !== this.#runId) return;
    switch (progress.stage) {
      case "backend":
        this.#where.note = progress.message;
        this.#run.setStatus(this.#where.note);
        break;
      case "started":
        this.#trained = { steps: 0 };
        this.#where.started(progress, { stats: this.#elements.stats, backendCell: this.#cell("backend"), paramsCell: this.#cell("params") });
        this.#setModelLine("The network trained here", `${numberFormat.format(progress.numParams)} parameters, training on ${this.#where.name}`, "trained");
        if (this.#run.state === "starting") this.#run.setState("running");
        this.#run.setStatus(this.#runningText());
        this.#renderModels();
        break;
      case "fallback":
        this.#where.fellBack(progress, { stats: this.#elements.stats, backendCell: this.#cell("backend") });
        this.#run.setStatus(this.#runningText());
        break;
      case "chunk":
        this.#onReport(progress.report);
        break;
      case "evaluation":
        if (this.#run.state === "running") this.#run.setStatus(`${this.#runningText()} Evaluating at ${numberFormat.format(progress.steps)} steps: ${progress.done} of ${progress.total} games.`);
        break;
      case "evaluated":
        this.#onEvaluated(progress);
        break;
    }
  }

  /** One chunk's report: into the numbers and the charts. */
  #onReport(report) {
    this.#lastReport = report;
    this.#trained = { steps: report.stepsDone };
    const x = report.stepsDone;
    this.#charts.loss.add(0, x, report.tdLoss);
    this.#charts.epsilon.add(0, x, report.epsilon);
    this.#charts.speed.add(0, x, report.stepsPerS);
    for (const name of ["loss", "epsilon", "speed"]) this.#charts[name].canvas.dataset.points = String(this.#charts[name].pointCount(0));
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  /** An in-training evaluation: its mean score and reach rates into the charts. */
  #onEvaluated({ steps, stats, summary }) {
    this.#lastEvaluation = { steps, stats, summary };
    this.#charts.score.add(0, steps, summary.mean_score);
    CHART_TILES.forEach((tile, index) => this.#charts.reach.add(index, steps, 100 * reachRate(stats, tile)));
    for (const name of ["score", "reach"]) this.#charts[name].canvas.dataset.points = String(this.#charts[name].pointCount(0));
    this.#elements.stats.dataset.evaluations = String(this.#charts.score.pointCount(0));
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #renderStats() {
    const report = this.#lastReport;
    const stats = this.#elements.stats;
    if (!report) {
      for (const name of ["steps", "games", "loss", "epsilon", "speed", "score", "reach"]) this.#stat(name, "–");
      if (!this.#where.backend) {
        this.#stat("backend", "–");
        this.#stat("params", "–");
      }
      stats.dataset.steps = "0";
      stats.dataset.loss = "";
      return;
    }
    this.#stat("steps", numberFormat.format(report.stepsDone));
    this.#stat("games", numberFormat.format(report.episodesDone));
    this.#stat("loss", report.tdLoss === null || report.tdLoss === undefined ? "– (warm-up)" : report.tdLoss.toPrecision(3));
    this.#stat("epsilon", report.epsilon.toFixed(3));
    this.#stat("speed", numberFormat.format(Math.round(report.stepsPerS)));
    const evaluation = this.#lastEvaluation;
    this.#stat("score", evaluation ? numberFormat.format(Math.round(evaluation.summary.mean_score)) : "–");
    this.#stat("reach", evaluation ? percent(reachRate(evaluation.stats, 512)) : "–");
    stats.dataset.steps = String(report.stepsDone);
    stats.dataset.loss = report.tdLoss === null || report.tdLoss === undefined ? "" : String(report.tdLoss);
  }

  #stat(name, text) {
    this.#cell(name).textContent = text;
  }

  #cell(name) {
    return this.#root.querySelector(`#d2048-stat-${name}`);
  }

  #runningText() {
    const evaluation = this.#lastEvaluation;
    const last = evaluation
      ? ` Last evaluation (${plural(evaluation.summary.games, "game")} at ${numberFormat.format(evaluation.steps)} steps): mean score ` +
        `${numberFormat.format(Math.round(evaluation.summary.mean_score))}, 512 reached in ${percent(reachRate(evaluation.stats, 512))}.`
      : "";
    return this.#where.runningText(last);
  }

  /** The form's settings for the worker's "train" (2048); throws a FieldError naming the field. */
  #readForm() {
    const value = (id) => {
      const input = this.#root.querySelector(`#d2048-${id}`);
      const [label, kind, max] = NUMBER_FIELDS[id];
      return readNumber(input, label, kind, max);
    };
    const options = {
      conv: { channels: 16, height: 4, width: 4, filters1: value("filters1"), filters2: value("filters2") },
      hidden: [value("hidden")],
      learningRate: value("lr"),
      gamma: value("gamma"),
      batchSize: value("batch"),
      epsilonDecay: value("epsilon-decay"),
      epsilonStart: value("epsilon-start"),
      epsilonMin: value("epsilon-min"),
      replayCapacity: value("replay"),
      warmupEpisodes: value("warmup"),
      targetUpdateInterval: value("target-update"),
      seed: value("seed"),
      doubleDqn: this.#root.querySelector("#d2048-double").checked,
    };
    if (options.replayCapacity < options.batchSize) throw new FieldError(this.#root.querySelector("#d2048-replay"), "Replay capacity must hold at least one batch.");
    const continueFrom = this.#file && this.#elements.continue.checked ? FILE_KEY : null;
    if (continueFrom) {
      const network = this.#file.info.network;
      const same = network.conv?.filters1 === options.conv.filters1 && network.conv?.filters2 === options.conv.filters2 && network.hidden.join() === options.hidden.join();
      if (!same) throw new FieldError(this.#root.querySelector("#d2048-filters1"), `“${this.#file.name}” is ${networkText(network)}: keep its network, or untick “Start from its weights”.`);
    }
    return {
      options,
      backend: this.#elements.backend.value,
      evalEvery: value("eval-every"),
      evalGames: value("eval-games"),
      evalSeed: CLI_EVALUATION_SEED,
      continueFrom,
    };
  }

  /** Sets form fields by id (after "d2048-"). */
  #fill(values) {
    if (this.#run.active) return;
    for (const [id, value] of Object.entries(values)) {
      const input = this.#root.querySelector(`#d2048-${id}`);
      input.value = String(value);
      input.removeAttribute("aria-invalid");
    }
    this.#renderParams();
  }

  /** The form from a model's network and training settings (to train on from it). */
  #fillFromModel(info) {
    const { network, training } = info;
    const values = { filters1: network.conv?.filters1 ?? 128, filters2: network.conv?.filters2 ?? 128, hidden: network.hidden[0] ?? 256 };
    const config = training?.config;
    if (config) {
      Object.assign(values, {
        lr: config.learningRate,
        gamma: Number(config.gamma.toPrecision(6)),
        batch: config.batchSize,
        "epsilon-decay": Number(config.epsilonDecay.toPrecision(6)),
        "epsilon-min": Number(config.epsilonMin.toPrecision(6)),
        replay: config.replayCapacity,
        "target-update": config.targetUpdateInterval,
      });
    }
    this.#fill(values);
  }

  /** The parameter count of the network the form describes, and what it costs. */
  #renderParams() {
    const read = (id) => Number(this.#root.querySelector(`#d2048-${id}`).value);
    const count = parameterCount(read("filters1"), read("filters2"), read("hidden"));
    const text = this.#elements.params;
    if (!Number.isFinite(count) || count <= 0) {
      text.textContent = "";
      return;
    }
    const seedsNetwork = read("filters1") === 128 && read("filters2") === 128 && read("hidden") === 256;
    text.textContent =
      `${numberFormat.format(count)} parameters` +
      (seedsNetwork
        ? " — the paper's network. Every step pushes a batch through it forwards and backwards: on a CPU in a tab that is " +
          "about 20 steps a second (2-core test machine), while the paper trained on 200,000 games of hundreds of moves " +
          "each. For a quick run in the tab choose 32/32 filters and hidden width 64 (Quick-run settings: about 150 steps a second)."
        : count > 400_000
          ? ": a heavy network for a tab (a few tens of steps a second on a CPU)."
          : ": small enough to train at a hundred steps a second or more on a CPU.");
    text.dataset.parameters = String(count);
  }

  // ---- models: loading, watching, evaluating ----------------------------------------------------------

  /** Reads a 2048 model file: to watch, to evaluate, and to train on from. */
  async loadFile(file) {
    this.#run.clearErrors();
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const loaded = await this.#client().loadModelBytes(bytes, { key: FILE_KEY, name: file.name, puzzle: "2048" });
      this.#file = { name: file.name, info: loaded.info };
      this.#elements.model.value = "file";
      this.#renderModels();
      this.#setModelLine(`Loaded “${file.name}”`, loaded.info, "file");
      this.#run.setStatus(`Loaded “${file.name}” (${megabytes(loaded.size)}): ${modelText(loaded.info)}. Watch it play, evaluate it, or train on from it.`);
    } catch (error) {
      this.#run.showError(error.message);
    }
    this.#render();
  }

  /**
   * Fetches the shipped model (www/models/2048-dqn.dqn) into the worker once, with its download
   * shown; a missing file is said plainly. Resolves to its info.
   */
  loadShipped() {
    this.#run.clearErrors();
    return this.#fetchShipped().catch((error) => {
      this.#run.showError(error.message);
      throw error;
    });
  }

  /** The shipped model's fetch, shared by Load, Watch and Evaluate; a failed one is forgotten. */
  #fetchShipped() {
    this.#shippedLoading ??= this.#client()
      .loadModelUrl(this.#api.shippedDqnUrl ?? SHIPPED_DQN_URL, {
        key: SHIPPED_KEY,
        puzzle: "2048",
        onProgress: ({ loaded, total }) => showDownload(this.#download, "Downloading the shipped model", loaded, total),
      })
      .then(
        (loaded) => {
          hideProgress(this.#download);
          this.#shipped = { info: loaded.info };
          this.#elements.model.value = "shipped";
          this.#renderModels();
          this.#setModelLine("The shipped model", loaded.info, "shipped");
          this.#run.setStatus(`The shipped model is loaded (${megabytes(loaded.size)}): ${modelText(loaded.info)}.`);
          return loaded.info;
        },
        (error) => {
          hideProgress(this.#download);
          this.#shippedLoading = null;
          const missing = /answered HTTP 404/.test(error.message);
          throw new Error(
            missing ? "There is no shipped 2048 DQN model yet (models/2048-dqn.dqn is not on this server): train one here, or load a model file." : error.message,
          );
        },
      );
    return this.#shippedLoading;
  }

  /** The chosen model's key in the worker, loading or snapshotting it first: { key, label, details }. */
  async #chosenModel({ forWatching = false } = {}) {
    const choice = this.#elements.model.value;
    if (choice === "trained") {
      if (!this.#trained) throw new Error("Nothing has been trained yet.");
      // Watching keeps the network of this moment; an evaluation takes the latest.
      const snapshot = await this.#client().snapshot(forWatching ? WATCH_KEY : TRAINED_2048_MODEL);
      const steps = numberFormat.format(snapshot.steps);
      return { key: snapshot.key, label: `Mehta's DQN, trained here (${steps} steps)`, details: networkText(snapshot.info.network), name: `Trained here (${steps} steps)` };
    }
    if (choice === "file") {
      if (!this.#file) throw new Error("Load a model file first.");
      return { key: FILE_KEY, label: `Mehta's DQN from “${this.#file.name}”`, details: modelText(this.#file.info), name: `“${this.#file.name}”` };
    }
    const info = this.#shipped?.info ?? (await this.#fetchShipped());
    return { key: SHIPPED_KEY, label: "Mehta's DQN, shipped model", details: modelText(info), name: "Shipped" };
  }

  /** Hands the chosen model to the page's player and starts it. */
  async watch() {
    if (typeof this.#api.useAgent !== "function") return;
    this.#evaluations.clear();
    this.#elements.watch.disabled = true;
    try {
      const chosen = await this.#chosenModel({ forWatching: true });
      const learn = this.#client();
      this.#api.useAgent({ label: chosen.label, details: chosen.details, bestMove: (exponents) => learn.bestMove2048(chosen.key, exponents) });
      this.#api.playAgent?.();
      this.#evaluations.setStatus(`${chosen.label} plays on the board above (greedy: the legal move with the highest Q-value).`);
    } catch (error) {
      this.#evaluations.showError(error.message);
    } finally {
      this.#render();
    }
  }

  /** Plays N greedy games with the chosen model (with a progress bar); adds a row to the table. */
  evaluate() {
    const { elements } = this;
    return this.#evaluations.run({
      read: () => ({ games: readNumber(elements.evalGames, "Games", "count", 10_000), seed: readNumber(elements.evalSeed, "Seed", "whole", 2 ** 32 - 1) }),
      play: async ({ games, seed }, { request, progress, elapsed }) => {
        const chosen = await this.#chosenModel();
        const report = await request(this.#client().evaluate2048(chosen.key, { games, seed }, { onProgress: ({ done, total }) => progress(done, total) }));
        const { summary, stats } = report;
        return {
          report: { ...report, model: chosen.name },
          cells: [
            chosen.name,
            numberFormat.format(summary.games),
            String(report.seed),
            numberFormat.format(Math.round(summary.mean_score)),
            numberFormat.format(summary.median_score),
            numberFormat.format(summary.max_score),
            ...TABLE_TILES.map((tile) => percent(reachRate(stats, tile))),
            numberFormat.format(Math.round(summary.moves_per_s)),
          ],
          status:
            `${chosen.name}: mean score ${numberFormat.format(Math.round(summary.mean_score))} over ${plural(summary.games, "game")}; ` +
            `512 reached in ${percent(reachRate(stats, 512))}, 2048 in ${percent(summary.reach["2048"])} (${elapsed()}).`,
        };
      },
      cancelledText: (error) => (/cancelled/.test(error.message) ? "Evaluation cancelled." : null),
    });
  }

  /** Cancels the running evaluation (it stops after its current game). */
  cancelEvaluation() {
    return this.#evaluations.cancel((id) => this.#client().cancelEvaluation(id));
  }

  /** The model choice after the models at hand. */
  #renderModels() {
    const select = this.#elements.model;
    labelModelOptions(select, this.#trained, this.#file);
    if (this.#trained && select.value === "shipped" && !this.#shipped) select.value = "trained";
    this.#elements.continueField.hidden = !this.#file;
    if (this.#file) this.#elements.continueLabel.textContent = `Start from its weights (“${this.#file.name}”)`;
    this.#render();
  }

  /** "<strong>title</strong>: what" (a model's info, or words). */
  #setModelLine(title, what, source) {
    writeModelLine(this.#elements.modelLine, title, what, source, modelText);
  }

  // ---- the worker ------------------------------------------------------------------------------------

  /** The learning client, started on first use, with its bundle download shown. */
  #client() {
    this.#learn ??= showBundleDownload(sharedLearnClient(), this.#download, (message) => this.#run.showError(message));
    return this.#learn;
  }

  // ---- rendering --------------------------------------------------------------------------------------

  /** Enables the buttons and fields that make sense now. */
  #render() {
    const { elements } = this;
    const { state, active } = this.#run;
    const evaluating = this.#evaluations.running;
    this.#run.renderButtons();
    elements.save.disabled = !this.#trained || state === "starting" || state === "stopping";
    elements.load.disabled = state === "starting" || state === "stopping";
    elements.quick.disabled = active;
    elements.seedSettings.disabled = active;
    for (const input of elements.form.querySelectorAll("input:not([type=file]), select")) input.disabled = active;
    const choice = elements.model.value;
    const haveModel = choice === "trained" ? Boolean(this.#trained) : choice === "file" ? Boolean(this.#file) : true;
    elements.evaluate.disabled = evaluating || !haveModel;
    elements.watch.disabled = !haveModel;
    elements.evalCancel.disabled = !this.#evaluations.cancellable;
    for (const control of [elements.model, elements.evalGames, elements.evalSeed]) control.disabled = evaluating;
  }
}

/**
 * Renders the card into `container` (a section.card whose h2 is already there) and returns its
 * Dqn2048Panel; `api` as in the file's header.
 */
export function mountDqn2048Panel(container, api = {}) {
  if (!container) throw new Error("mountDqn2048Panel needs the element to render into.");
  return new Dqn2048Panel(container, api);
}

// ---- helpers ---------------------------------------------------------------------------------------

/**
 * Weights and biases of the paper's network with these filters and hidden width (mirrors
 * PairConvConfig::num_params and output_len in src/agent/dqn.rs, plus the dense layers): six
 * convolutions on 16 one-hot channels of a 4 × 4 board, 34 × filters2 values into the hidden layer.
 */
export function parameterCount(filters1, filters2, hidden) {
  const convolutions = (16 * filters1 * 2 + filters1) * 2 + (filters1 * filters2 * 2 + filters2) * 4;
  const convolved = (4 * 2 + 2 * 3 * 3 + 2 * 4) * filters2;
  return convolutions + convolved * hidden + hidden + hidden * 4 + 4;
}

/** "filters 32/32, hidden 64". */
function networkText(network) {
  const conv = network.conv ? `filters ${network.conv.filters1}/${network.conv.filters2}, ` : "";
  return `${conv}hidden ${network.hidden.join("-")}`;
}

/** "filters 32/32, hidden 64, 80,964 parameters, 12,000 steps trained". */
function modelText(info) {
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps trained` : "";
  return `${networkText(info.network)}, ${numberFormat.format(info.numParams)} parameters${steps}`;
}

/** "1 game", "5 games". */
function plural(count, noun) {
  return `${numberFormat.format(count)} ${noun}${count === 1 ? "" : "s"}`;
}
