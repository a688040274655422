// The Sudoku page's "Learn" card: a deep Q-network — puzzlelab's network shared by all 810 actions
// over per-action features, or the one dense layer of Mehta's paper (src/agent/dqn/sudoku.rs) —
// trained on a small pool of generated puzzles in the learning worker (common/learn-worker.js
// through learn-client.js, Sudoku's jobs in sudoku/learn-jobs.js; WebGPU or the CPU) with live
// charts: the validation puzzles solved in each of the paper's bins beside the paper's 7%, 2.1%
// and 1.2%, the TD loss and ε. A model — the network trained here, a file, or the shipped one —
// plays the board's position move by move ("Watch"), and is evaluated on seeded puzzles by bin.
//
//   import { mountSudokuDqnPanel } from "./dqn-panel.js";
//   const panel = mountSudokuDqnPanel(document.querySelector("#dqn"), { board });
//
// `container` is the card (its h2 stays first). `api`: `board` (the page's <sudoku-board>),
// `speedMs()` (the pause between two moves while a model plays, default 80 ms), `shippedUrl`
// (default models/sudoku-cells.dqn). Nothing heavy happens when the card mounts: the worker and
// the learning bundle load on first use. For tests the card carries data-state (the run's) and
// data-playing, the statistics data-steps, data-loss and data-validations, and each chart
// data-points.

import { chooseFilesWith, elementsById, FieldError, hideProgress, labelModelOptions, megabytes, percent, readNumber, renderCard, showDownload, writeModelLine } from "../common/card-helpers.js";
import { BarChart, LineChart } from "../common/chart.js";
import { EVALUATION_IDS, EvaluationTable, evaluationResultsHtml } from "../common/evaluation-table.js";
import { TRAINED_SUDOKU_MODEL, sharedLearnClient } from "../common/learn-client.js";
import { LearnBackend, TrainingRun, learnRunHtml, learnStats, showBundleDownload } from "../common/run-controls.js";

/** The shipped model, trained natively by `puzzlelab sudoku train --net cells`. */
export const SHIPPED_URL = new URL("../models/sudoku-cells.dqn", import.meta.url);
/** Where the worker keeps this card's other models. */
const FILE_KEY = "file-sudoku";
const SHIPPED_KEY = "shipped-sudoku";
/** The network trained here as it was when it was asked to play (training may go on). */
const PLAY_KEY = "play-sudoku";
/** The paper's DQN's solved rates in its bins, easy, medium, hard (GuessBin::paper_solved_rate). */
const PAPER_SOLVED_RATES = [0.07, 0.021, 0.012];
/** `puzzlelab sudoku train`'s --givens. */
const DEFAULT_GIVENS = "22,23,24,26,28";

/**
 * Each network's defaults for the fields below, as `puzzlelab sudoku train` has them
 * (cells_config and seed004_config in src/agent/dqn/sudoku.rs): switching the network fills them in.
 */
const NET_DEFAULTS = {
  cells: { lr: 0.001, batch: 32, "epsilon-start": 0.3, "epsilon-decay": 0.995, "epsilon-min": 0.05, replay: 4000, warmup: 4 },
  paper: { lr: 0.001, batch: 64, "epsilon-start": 1, "epsilon-decay": 0.999, "epsilon-min": 0.1, replay: 100000, warmup: 10 },
};

const numberFormat = new Intl.NumberFormat("en");

/** The form's number fields: [id after "sdqn-", label, kind, bound] (kinds as card-helpers.js readNumber's). */
const NUMBER_FIELDS = {
  layers: ["Layers", "count", 20],
  filters: ["Units", "count", 256],
  puzzles: ["Training puzzles", "count", 10_000],
  lr: ["Learning rate", "positive", 1],
  batch: ["Batch", "count", 4096],
  "epsilon-start": ["ε start", "fraction"],
  "epsilon-decay": ["ε decay", "fraction"],
  "epsilon-min": ["ε minimum", "fraction"],
  replay: ["Replay capacity", "count", 1_000_000],
  warmup: ["Warm-up episodes", "whole", 10_000],
  seed: ["Seed", "whole", 2 ** 32 - 1],
  "eval-every": ["Validate every", "whole", 1e9],
  "eval-per-bin": ["Validation puzzles a bin", "count", 1000],
};

const TEMPLATE = `
<p class="help sdqn-intro">
  A <strong>deep Q-network</strong> learns to fill the grid. puzzlelab's network reads a few facts about every
  (cell, digit) — is it a candidate, the cell's only one, the digit's only place in its row, column or box — through
  one small network shared by all 810 actions, learns the odds that each legal digit is right, and writes the digit it
  is surest of; a wrong digit ends the game. The paper's network (Mehta's RL paper) reads the one-hot grid through one
  dense layer of 810 × 810 weights. The same Rust code as <code>puzzlelab sudoku train</code>, here in a Web Worker on
  WebGPU or the CPU.
</p>
<form class="sdqn-form" novalidate>
  <div class="field-grid t2048-fields sdqn-fields">
    <label class="field">
      <span class="field-label">Network</span>
      <select id="sdqn-net">
        <option value="cells" selected>puzzlelab's</option>
        <option value="paper">Mehta's paper</option>
      </select>
    </label>
    <label class="field"><span class="field-label">Layers</span><input id="sdqn-layers" type="number" value="2" min="1" max="20" step="1" inputmode="numeric" /></label>
    <label class="field"><span class="field-label">Units</span><input id="sdqn-filters" type="number" value="32" min="1" max="256" step="1" inputmode="numeric" /></label>
    <label class="field">
      <span class="field-label">Backend</span>
      <select id="sdqn-backend">
        <option value="auto" selected>Auto</option>
        <option value="webgpu">WebGPU</option>
        <option value="cpu">CPU</option>
      </select>
    </label>
  </div>
  <details class="hyper">
    <summary>More settings <span class="optional">(puzzlelab sudoku train's)</span></summary>
    <div class="field-grid hyper-grid">
      <label class="field"><span class="field-label">Training puzzles</span><input id="sdqn-puzzles" type="number" value="200" min="1" step="1" /></label>
      <label class="field"><span class="field-label">Givens</span><input id="sdqn-givens" type="text" value="${DEFAULT_GIVENS}" spellcheck="false" /></label>
      <label class="field"><span class="field-label">Seed</span><input id="sdqn-seed" type="number" value="0" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Learning rate</span><input id="sdqn-lr" type="number" value="0.001" min="0" step="any" /></label>
      <label class="field"><span class="field-label">Batch</span><input id="sdqn-batch" type="number" value="32" min="1" step="1" /></label>
      <label class="field"><span class="field-label">Replay capacity</span><input id="sdqn-replay" type="number" value="4000" min="1" step="1" /></label>
      <label class="field"><span class="field-label">ε start</span><input id="sdqn-epsilon-start" type="number" value="0.3" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">ε decay per episode</span><input id="sdqn-epsilon-decay" type="number" value="0.995" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">ε minimum</span><input id="sdqn-epsilon-min" type="number" value="0.05" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">Warm-up episodes</span><input id="sdqn-warmup" type="number" value="4" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Validate every (steps)</span><input id="sdqn-eval-every" type="number" value="100" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Validation puzzles a bin</span><input id="sdqn-eval-per-bin" type="number" value="10" min="1" step="1" /></label>
    </div>
  </details>
  ${learnRunHtml("sdqn", { saveTitle: "Download the network (.dqn; puzzlelab sudoku eval reads it)", stats: [...learnStats(), ["solved", "Solved (easy · medium · hard)"], ["backend", "Backend"], ["params", "Parameters"], ["puzzles", "Puzzles"]] })}
<p class="help">
  A step plays one move and takes one gradient step. Every few steps the network plays the validation puzzles greedily:
  puzzles binned as the paper bins them, by the guesses an exact solver needs (easy &lt; 3, medium 3–5, hard ≥ 6). The
  paper's DQN solved 7%, 2.1% and 1.2% of them.
</p>
<div class="chart-grid t2048-charts">
  <canvas id="sdqn-chart-solved" class="chart"></canvas>
  <canvas id="sdqn-chart-paper" class="chart"></canvas>
  <canvas id="sdqn-chart-loss" class="chart"></canvas>
  <canvas id="sdqn-chart-epsilon" class="chart"></canvas>
</div>

<h3 class="subheading">Watch it play the board</h3>
<p id="sdqn-model-line" class="model-line" data-source="">The shipped model: loaded on first use.</p>
<div class="field-grid sdqn-model-fields">
  <label class="field">
    <span class="field-label">Model</span>
    <select id="sdqn-model">
      <option value="trained" disabled>Trained here (nothing yet)</option>
      <option value="file" disabled>Loaded file (none)</option>
      <option value="shipped" selected>Shipped</option>
    </select>
  </label>
</div>
<div class="buttons">
  <button id="sdqn-watch" class="primary" type="button" title="The model fills the board's empty cells one digit at a time, from the position shown">Watch the shipped model</button>
  <button id="sdqn-load" type="button" title="Load a Sudoku DQN model file (.dqn)">Load…</button>
  <input id="sdqn-file" type="file" accept=".dqn,application/octet-stream" aria-label="Sudoku DQN model file" hidden />
</div>
<p id="sdqn-play-status" class="status" role="status" aria-live="polite"></p>
<p id="sdqn-play-error" class="error" role="alert" hidden></p>

<h3 class="subheading">Evaluate by bin</h3>
<div class="field-grid sdqn-eval-fields">
  <label class="field"><span class="field-label">Puzzles a bin</span><input id="sdqn-eval-n" type="number" value="50" min="1" max="2000" step="1" inputmode="numeric" /></label>
  <label class="field"><span class="field-label">Seed</span><input id="sdqn-eval-seed" type="number" value="1" min="0" step="1" inputmode="numeric" /></label>
</div>
<div class="buttons">
  <button id="sdqn-evaluate" type="button">Evaluate</button>
  <button id="sdqn-eval-cancel" type="button" disabled hidden>Cancel</button>
</div>
<p class="help">
  Plays <var>n</var> puzzles of each bin drawn from seed <var>s</var> with the givens above, as
  <code>puzzlelab sudoku eval --seed s --per-bin n</code> does.
</p>
${evaluationResultsHtml("sdqn", ["Model", "A bin", "Seed", "Easy", "Medium", "Hard"])}
`;

/** The card's behaviour; mountSudokuDqnPanel() makes one. */
export class SudokuDqnPanel {
  #root;
  #api;
  #elements;
  #charts;
  /** The learning client, once a button needed it. */
  #learn = null;
  #run;
  #where = new LearnBackend();
  #evaluations;
  #download;
  /** The run's network ("cells" | "paper") and whether it left one: { steps } or null. */
  #trainedNet = null;
  #trained = null;
  #file = null;
  #shipped = null;
  #shippedLoading = null;
  #lastReport = null;
  #lastValidation = null;
  #setup = null;
  #runId = 0;
  /** The model playing the board: { game, timer } or null. */
  #playing = null;
  #asking = false;

  constructor(container, api = {}) {
    this.#root = container;
    this.#api = api ?? {};
    const body = renderCard(container, { cardClass: "sdqn-card", bodyClass: "t2048-body sdqn-body", html: TEMPLATE });
    const $ = (id) => body.querySelector(`#sdqn-${id}`);
    this.#elements = {
      form: body.querySelector("form"),
      ...elementsById(body, "sdqn", ["net", "layers", "filters", "backend", "givens", "form-error", "start", "pause", "resume", "stop", "save", "load", "file", "watch"]),
      ...elementsById(body, "sdqn", ["progress", "progress-text", "progress-bar", "status", "error", "stats", "model-line", "model", "eval-n", "eval-seed", "play-status", "play-error", ...EVALUATION_IDS]),
    };
    this.#download = { box: this.#elements.progress, text: this.#elements.progressText, bar: this.#elements.progressBar };
    const percentY = (y) => `${y.toFixed(1)}%`;
    this.#charts = {
      solved: new LineChart($("chart-solved"), {
        title: "Validation solved, % by bin",
        yMin: 0,
        yMax: 100,
        xLabel: "steps",
        emptyText: "Each validation adds a point a bin",
        series: [
          { name: "easy", color: "--chart-2", dots: true },
          { name: "medium", color: "--chart-1", dots: true },
          { name: "hard", color: "--chart-4", dots: true },
        ],
        formatY: percentY,
      }),
      paper: new BarChart($("chart-paper"), {
        title: "Last validation vs the paper, %",
        yMax: 100,
        emptyText: "No validation yet",
        series: [
          { name: "this network", color: "--chart-1" },
          { name: "Mehta's DQN", color: "--chart-3" },
        ],
        formatY: percentY,
      }),
      loss: new LineChart($("chart-loss"), { title: "TD loss", yScale: "log", xLabel: "steps", series: [{ name: "TD loss", color: "--chart-1" }], formatY: (y) => y.toPrecision(3) }),
      epsilon: new LineChart($("chart-epsilon"), { title: "ε (exploration)", yMin: 0, yMax: 1, xLabel: "steps", series: [{ name: "ε", color: "--chart-3" }], formatY: (y) => y.toFixed(3) }),
    };
    const { elements } = this;
    const render = () => this.#render();
    this.#run = new TrainingRun(container, elements, { panel: this, client: () => this.#client(), render, runningText: () => this.#runningText(), openDetails: true });
    this.#evaluations = new EvaluationTable(elements, { render });
    const on = (element, type, listener) => element.addEventListener(type, listener);
    chooseFilesWith(elements.load, elements.file, (file) => this.loadFile(file));
    on(elements.net, "change", () => this.#netChanged());
    on(elements.watch, "click", () => (this.#playing ? this.stopPlaying() : this.watch()));
    on(elements.evaluate, "click", () => this.evaluate());
    on(elements.model, "change", render);
    this.#renderStats();
    this.#render();
  }

  get elements() {
    return this.#elements;
  }

  /** "idle" | "starting" | "running" | "pausing" | "paused" | "stopping" | "stopped". */
  get state() {
    return this.#run.state;
  }

  /** The evaluation reports so far, oldest first. */
  get evaluations() {
    return this.#evaluations.reports;
  }

  /** Whether a model is playing the board. */
  get playing() {
    return Boolean(this.#playing);
  }

  /** The network's defaults go into the fields (each network has its own, as the CLI's). */
  #netChanged() {
    const defaults = NET_DEFAULTS[this.#elements.net.value];
    for (const [id, value] of Object.entries(defaults)) this.#root.querySelector(`#sdqn-${id}`).value = String(value);
    this.#render();
  }

  // ---- training ---------------------------------------------------------------------------------------

  /** Trains with the form's settings; resolves when the run stops. */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const runId = ++this.#runId;
    for (const chart of [this.#charts.solved, this.#charts.loss, this.#charts.epsilon]) chart.clear();
    this.#charts.paper.setData([], []);
    this.#lastReport = null;
    this.#lastValidation = null;
    this.#setup = null;
    this.#where.reset();
    this.#elements.stats.dataset.validations = "0";
    this.#renderStats();
    this.#trainedNet = settings.options.net;
    this.#run.begin(`${settings.backend === "cpu" ? "Starting on the CPU" : "Starting: checking WebGPU"}; generating ${plural(settings.options.puzzles, "training puzzle")} and the validation puzzles…`);
    try {
      const final = await this.#client().trainSudoku(settings, { onProgress: (progress) => this.#onProgress(progress, runId) });
      if (runId !== this.#runId) return;
      if (final.report) this.#lastReport = final.report;
      this.#trained = { steps: this.#lastReport?.stepsDone ?? 0 };
      if (final.model) this.#setModelLine("The network trained here", modelText(final.model), "trained");
      this.#run.stopped(`Stopped after ${numberFormat.format(this.#trained.steps)} steps. Watch it play the board, evaluate it, Save it, or train again.`);
    } catch (error) {
      if (runId !== this.#runId) return;
      this.#run.failed(error, Boolean(this.#trained));
    }
    this.#renderModels();
  }

  pause() {
    return this.#run.pause(() => `Paused at ${numberFormat.format(this.#lastReport?.stepsDone ?? 0)} steps: watch it play, evaluate it, Save it, or Resume.`);
  }

  resume() {
    return this.#run.resume();
  }

  stop() {
    return this.#run.stop();
  }

  /** Downloads the trained network as sudoku-NET-STEPSsteps.dqn (the CLI's format). */
  async save() {
    if (!this.#trained) return;
    await this.#run.save(async () => {
      const { bytes, steps } = await this.#client().save();
      return { bytes, name: `sudoku-${this.#trainedNet}-${steps}steps.dqn`, type: "application/octet-stream" };
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
        this.#setup = progress.setup ?? null;
        this.#where.started(progress, { stats: this.#elements.stats, backendCell: this.#cell("backend"), paramsCell: this.#cell("params") });
        this.#setModelLine("The network trained here", `${numberFormat.format(progress.numParams)} parameters, training on ${this.#where.name}`, "trained");
        if (this.#run.state === "starting") this.#run.setState("running");
        this.#run.setStatus(this.#runningText());
        this.#renderStats();
        this.#renderModels();
        break;
      case "fallback":
        this.#where.fellBack(progress, { stats: this.#elements.stats, backendCell: this.#cell("backend") });
        this.#run.setStatus(this.#runningText());
        break;
      case "chunk":
        this.#onReport(progress.report);
        break;
      case "validating":
        if (this.#run.state === "running") this.#run.setStatus(`${this.#runningText()} Validating at ${numberFormat.format(progress.steps)} steps…`);
        break;
      case "validated":
        this.#onValidated(progress);
        break;
    }
  }

  #onReport(report) {
    this.#lastReport = report;
    this.#trained = { steps: report.stepsDone };
    const x = report.stepsDone;
    this.#charts.loss.add(0, x, report.tdLoss);
    this.#charts.epsilon.add(0, x, report.epsilon);
    for (const name of ["loss", "epsilon"]) this.#charts[name].canvas.dataset.points = String(this.#charts[name].pointCount(0));
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #onValidated({ steps, bins }) {
    this.#lastValidation = { steps, bins };
    bins.forEach((bin, index) => this.#charts.solved.add(index, steps, bin.puzzles ? 100 * bin.solved_rate : null));
    this.#charts.paper.setData(
      bins.map((bin) => `${bin.bin} (${bin.puzzles})`),
      [bins.map((bin) => (bin.puzzles ? 100 * bin.solved_rate : null)), bins.map((bin) => 100 * bin.paper_solved_rate)],
    );
    const count = String(this.#charts.solved.pointCount(0));
    this.#charts.solved.canvas.dataset.points = count;
    this.#elements.stats.dataset.validations = count;
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #renderStats() {
    const report = this.#lastReport;
    const stats = this.#elements.stats;
    const bins = this.#lastValidation?.bins;
    this.#stat("solved", bins ? bins.map((bin) => (bin.puzzles ? percent(bin.solved_rate) : "–")).join(" · ") : "–");
    const setup = this.#setup;
    this.#stat("puzzles", setup ? `${numberFormat.format(setup.puzzles)} · validation ${setup.validation.join("/")}` : "–");
    if (!report) {
      for (const name of ["steps", "episodes", "loss", "epsilon", "speed"]) this.#stat(name, "–");
      if (!this.#where.backend) {
        this.#stat("backend", "–");
        this.#stat("params", "–");
      }
      stats.dataset.steps = "0";
      stats.dataset.loss = "";
      return;
    }
    const loss = report.tdLoss ?? null;
    this.#stat("steps", numberFormat.format(report.stepsDone));
    this.#stat("episodes", numberFormat.format(report.episodesDone));
    this.#stat("loss", loss === null ? "– (warm-up)" : loss.toPrecision(3));
    this.#stat("epsilon", report.epsilon.toFixed(3));
    this.#stat("speed", report.stepsPerS >= 100 ? numberFormat.format(Math.round(report.stepsPerS)) : report.stepsPerS.toPrecision(3));
    stats.dataset.steps = String(report.stepsDone);
    stats.dataset.loss = loss === null ? "" : String(loss);
  }

  #stat(name, text) {
    this.#cell(name).textContent = text;
  }

  #cell(name) {
    return this.#root.querySelector(`#sdqn-stat-${name}`);
  }

  #runningText() {
    const last = this.#lastValidation;
    const said = last ? ` Last validation (${numberFormat.format(last.steps)} steps): solved ${binsText(last.bins)}.` : "";
    return this.#where.runningText(said);
  }

  /** The form's settings for the worker's "train" (Sudoku); throws a FieldError naming the field. */
  #readForm() {
    const value = (id) => {
      const [label, kind, max] = NUMBER_FIELDS[id];
      return readNumber(this.#root.querySelector(`#sdqn-${id}`), label, kind, max);
    };
    const net = this.#elements.net.value;
    const options = {
      net,
      ...(net === "cells" ? { layers: value("layers"), filters: value("filters") } : {}),
      givens: this.#givens(),
      puzzles: value("puzzles"),
      validationPerBin: value("eval-per-bin"),
      learningRate: value("lr"),
      batchSize: value("batch"),
      epsilonStart: value("epsilon-start"),
      epsilonDecay: value("epsilon-decay"),
      epsilonMin: value("epsilon-min"),
      replayCapacity: value("replay"),
      warmupEpisodes: value("warmup"),
      seed: value("seed"),
    };
    if (options.replayCapacity < options.batchSize) throw new FieldError(this.#root.querySelector("#sdqn-replay"), "Replay capacity must hold at least one batch.");
    return { options, backend: this.#elements.backend.value, evalEvery: value("eval-every") };
  }

  /** The givens field: whole numbers from 17 to 80, comma-separated; throws a FieldError. */
  #givens() {
    const input = this.#elements.givens;
    const parts = input.value.split(/[\s,]+/).filter(Boolean);
    const givens = parts.map(Number);
    if (givens.length === 0 || !givens.every((g) => Number.isInteger(g) && g >= 17 && g <= 80)) {
      throw new FieldError(input, "Givens: whole numbers from 17 to 80, comma-separated.");
    }
    return givens;
  }

  // ---- models -----------------------------------------------------------------------------------------

  /** Reads a model file (to play and evaluate); a damaged or foreign file is refused and nothing changes. */
  async loadFile(file) {
    this.#clearPlayError();
    this.#run.clearErrors();
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const loaded = await this.#client().loadModelBytes(bytes, { key: FILE_KEY, name: file.name, puzzle: "sudoku" });
      this.#file = { name: file.name, info: loaded.info };
      this.#elements.model.value = "file";
      this.#renderModels();
      this.#setModelLine(`Loaded “${file.name}”`, loaded.info, "file");
      this.#setPlayStatus(`Loaded “${file.name}” (${megabytes(loaded.size)}): ${modelText(loaded.info)}.`);
    } catch (error) {
      this.#showPlayError(error.message);
    }
    this.#render();
  }

  /** Fetches the shipped model (www/models/sudoku-cells.dqn) into the worker once; resolves to its info. */
  loadShipped() {
    this.#shippedLoading ??= this.#client()
      .loadModelUrl(this.#api.shippedUrl ?? SHIPPED_URL, {
        key: SHIPPED_KEY,
        puzzle: "sudoku",
        onProgress: ({ loaded, total }) => showDownload(this.#download, "Downloading the shipped model", loaded, total),
      })
      .then(
        (loaded) => {
          hideProgress(this.#download);
          this.#shipped = { info: loaded.info };
          this.#setModelLine("The shipped model", loaded.info, "shipped");
          return loaded.info;
        },
        (error) => {
          hideProgress(this.#download);
          this.#shippedLoading = null;
          const missing = /answered HTTP 404/.test(error.message);
          throw new Error(missing ? "There is no shipped Sudoku DQN model on this server (models/sudoku-cells.dqn): train one here, or load a model file." : error.message);
        },
      );
    return this.#shippedLoading;
  }

  /** The chosen model's key in the worker, loading or snapshotting it first: { key, name, info }. */
  async #chosenModel({ forPlay = false } = {}) {
    const choice = this.#elements.model.value;
    if (choice === "trained") {
      if (!this.#trained) throw new Error("Nothing has been trained yet.");
      const snapshot = await this.#client().snapshot(forPlay ? PLAY_KEY : TRAINED_SUDOKU_MODEL);
      return { key: snapshot.key, name: `Trained here (${numberFormat.format(snapshot.steps)} steps)`, info: snapshot.info };
    }
    if (choice === "file") {
      if (!this.#file) throw new Error("Load a model file first.");
      return { key: FILE_KEY, name: `“${this.#file.name}”`, info: this.#file.info };
    }
    const info = this.#shipped?.info ?? (await this.loadShipped());
    return { key: SHIPPED_KEY, name: "Shipped", info };
  }

  // ---- playing the board ----------------------------------------------------------------------------------

  /**
   * The chosen model plays the board from the position shown: the worker works out its moves
   * (greedy, until solved, a wrong digit, a dead end or 162 moves), then they go onto the board one
   * at a time, api.speedMs() apart; the status says whether it solved the puzzle or where it went
   * wrong. A position the model cannot be asked about (not 9 × 9, or a digit on it is wrong) is
   * refused in words and the board stays as it was. Resolves when the moves are on the board.
   */
  async watch() {
    const board = this.#api.board;
    const game = board?.game;
    if (this.#playing || this.#asking || !game) return;
    this.#clearPlayError();
    if (game.isSolved()) {
      this.#setPlayStatus("The board is solved already: pick a new puzzle first.");
      return;
    }
    this.#asking = true;
    this.#render();
    let chosen;
    let played;
    try {
      chosen = await this.#chosenModel({ forPlay: true });
      played = await this.#client().playSudoku(chosen.key, game.text());
    } catch (error) {
      this.#showPlayError(error.message);
      return;
    } finally {
      this.#asking = false;
      this.#render();
    }
    if (board.game !== game) return; // a new puzzle came meanwhile
    const playing = { game, timer: 0, done: null };
    this.#playing = playing;
    board.locked = true;
    this.#root.dataset.outcome = "";
    this.#setPlayStatus(`${chosen.name} plays ${plural(played.moves.length, "move")}…`);
    this.#render();
    await new Promise((resolve) => {
      playing.done = resolve;
      let index = 0;
      const tick = () => {
        if (this.#playing !== playing || board.game !== game) return this.stopPlaying(playing);
        if (index >= played.moves.length) {
          this.#finish(chosen, played, board);
          return this.stopPlaying(playing);
        }
        const { cell, digit } = played.moves[index++];
        board.write(digit, cell, "dqn");
        board.selected = cell;
        playing.timer = setTimeout(tick, this.#api.speedMs?.() ?? 80);
      };
      playing.timer = setTimeout(tick, 0);
    });
  }

  /** Stops the model's play (the one given, or whichever runs); the moves made stay on the board. */
  stopPlaying(which = this.#playing) {
    if (!which || this.#playing !== which) return;
    clearTimeout(which.timer);
    this.#playing = null;
    if (this.#api.board) this.#api.board.locked = false;
    which.done?.();
    this.#render();
  }

  /** Says how the play ended: solved, or the first wrong digit (struck through) and what the solution has there. */
  #finish(chosen, played, board) {
    const { moves, outcome, firstMistake, solution } = played;
    const where = (cell) => `row ${Math.floor(cell / 9) + 1}, column ${(cell % 9) + 1}`;
    let text;
    if (outcome === "solved") {
      text = `${chosen.name} solved the board: ${plural(moves.length, "digit")}, none wrong.`;
    } else if (firstMistake !== null && firstMistake !== undefined) {
      const { cell, digit } = moves[firstMistake];
      const right = moves.slice(0, firstMistake).filter((move) => move.digit !== 0).length;
      text =
        `${chosen.name} went wrong at move ${firstMistake + 1}: it wrote ${digit} at ${where(cell)}, where the solution has ${solution[cell]} ` +
        `(struck through), after ${plural(right, "right digit")}.${outcome === "limit" ? " It then ran into the paper's 162-move limit." : ""}`;
      board.showMistakes([cell]);
    } else if (outcome === "stuck") {
      text = `${chosen.name} is stuck after ${plural(moves.length, "right digit")}: no digit fits an empty cell.`;
    } else {
      text = `${chosen.name} stopped at the paper's 162-move limit without finishing.`;
    }
    this.#root.dataset.outcome = outcome;
    this.#setPlayStatus(text);
  }

  #setPlayStatus(text) {
    this.#elements.playStatus.textContent = text;
  }

  #showPlayError(message) {
    this.#elements.playError.textContent = message;
    this.#elements.playError.hidden = false;
  }

  #clearPlayError() {
    this.#elements.playError.hidden = true;
    this.#elements.playError.textContent = "";
  }

  // ---- evaluating -------------------------------------------------------------------------------------

  /** The chosen model plays N seeded puzzles of each bin; a row shows its solved rates beside the paper's. */
  evaluate() {
    const { elements } = this;
    return this.#evaluations.run({
      read: () => ({
        perBin: readNumber(elements.evalN, "Puzzles a bin", "count", 2000),
        seed: readNumber(elements.evalSeed, "Seed", "whole", 2 ** 32 - 1),
        givens: this.#givens(),
      }),
      play: async ({ perBin, seed, givens }, { request, elapsed }) => {
        this.#evaluations.showProgress(`Drawing ${plural(perBin, "puzzle")} of each bin and playing them…`, null);
        const chosen = await this.#chosenModel();
        const report = await request(this.#client().evaluateSudoku(chosen.key, { perBin, seed, givens }));
        const cell = (bin, index) => (bin.puzzles ? `${percent(bin.solved_rate)} of ${bin.puzzles} (paper ${paperPercent(PAPER_SOLVED_RATES[index])})` : "no puzzles");
        return {
          report: { ...report, name: chosen.name },
          cells: [chosen.name, numberFormat.format(perBin), String(seed), ...report.bins.map(cell)],
          status: `${chosen.name} solved ${binsText(report.bins)} (${elapsed()}); the paper's DQN 7%, 2.1% and 1.2%.`,
        };
      },
      cancelledText: () => null,
    });
  }

  // ---- rendering ----------------------------------------------------------------------------------------

  #renderModels() {
    const select = this.#elements.model;
    labelModelOptions(select, this.#trained, this.#file);
    this.#render();
  }

  #setModelLine(title, what, source) {
    writeModelLine(this.#elements.modelLine, title, what, source, modelText);
  }

  #client() {
    this.#learn ??= showBundleDownload(sharedLearnClient(), this.#download, (message) => this.#run.showError(message));
    return this.#learn;
  }

  #render() {
    const { elements } = this;
    if (!this.#run) return;
    const { state, active } = this.#run;
    this.#run.renderButtons();
    elements.save.disabled = !this.#trained || state === "starting" || state === "stopping";
    for (const input of elements.form.querySelectorAll("input, select")) input.disabled = active;
    const paper = elements.net.value === "paper";
    elements.layers.disabled = active || paper;
    elements.filters.disabled = active || paper;
    const choice = elements.model.value;
    const haveModel = choice === "trained" ? Boolean(this.#trained) : choice === "file" ? Boolean(this.#file) : true;
    elements.evaluate.disabled = this.#evaluations.running || !haveModel;
    elements.watch.disabled = (!haveModel || this.#asking) && !this.#playing;
    elements.watch.textContent = this.#playing ? "Stop" : WATCH_TEXT[choice];
    elements.model.disabled = Boolean(this.#playing) || this.#asking;
    this.#root.dataset.playing = String(Boolean(this.#playing));
  }
}

const WATCH_TEXT = { shipped: "Watch the shipped model", trained: "Watch the network trained here", file: "Watch the loaded model" };

/** Renders the card into `container` (a section.card whose h2 is already there); `api` as in the file's header. */
export function mountSudokuDqnPanel(container, api = {}) {
  if (!container) throw new Error("mountSudokuDqnPanel needs the element to render into.");
  return new SudokuDqnPanel(container, api);
}

// ---- helpers ----------------------------------------------------------------------------------------------

/** "40% easy, 10% medium, 0% hard" (bins with no puzzle left out). */
function binsText(bins) {
  return bins
    .filter((bin) => bin.puzzles > 0)
    .map((bin) => `${percent(bin.solved_rate)} ${bin.bin}`)
    .join(", ");
}

/** "shared per action, 2 × 32 units, 1,473 parameters, 600 steps". */
function modelText(info) {
  const grid = info.network.grid;
  const net = info.net === "cells" ? `shared per action, ${grid.layers.length} × ${grid.layers[0]?.[0] ?? 0} units` : "the paper's network (810 → 810)";
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps` : "";
  return `${net}, ${numberFormat.format(info.numParams)} parameters${steps}`;
}

/** "7%", "2.1%": the paper's rates as it gives them (percent() would write 7.0% for 0.07 × 100). */
function paperPercent(rate) {
  return `${Number((100 * rate).toFixed(1))}%`;
}

function plural(count, noun) {
  return `${numberFormat.format(count)} ${noun}${count === 1 ? "" : "s"}`;
}
