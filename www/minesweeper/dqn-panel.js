// The Minesweeper page's "Deep Q-network" card: puzzlelab's fully convolutional DQN (one Q-value per
// cell from its neighbourhood; src/agent/dqn/minesweeper.rs) or the network of Mehta's paper,
// trained on the page's board size in the learning worker (common/learn-worker.js through
// learn-client.js; WebGPU or the CPU) with live charts of the validation win rate, the TD loss and
// ε; a model — the network trained here, a file, or the shipped one — that plays on the page's
// board ("DQN move", "DQN plays") and is evaluated beside the exact solver on the same seeded boards.
//
//   import { mountMinesDqnPanel } from "./dqn-panel.js";
//   const panel = mountMinesDqnPanel(document.querySelector("#dqn"), api);
//
// `container` is the card (its h2 stays first). `api` (minesweeper/app.js's): `board` (the
// <mines-board>), `settings()` → { width, height, mines, rule } (the board card's choice),
// `stopSolver()` (before the DQN plays), `speedMs()` (the pause between two moves when it plays);
// `shippedUrl` overrides where the shipped model is (default models/minesweeper-dqn.dqn). Nothing
// heavy happens when the card mounts: the worker and the learning bundle load on first use.

import { chooseFilesWith, elementsById, FieldError, hideProgress, labelModelOptions, megabytes, percent, readNumber, renderCard, showDownload, writeModelLine } from "../common/card-helpers.js";
import { LineChart } from "../common/chart.js";
import { EVALUATION_IDS, EvaluationTable, evaluationResultsHtml } from "../common/evaluation-table.js";
import { TRAINED_MINESWEEPER_MODEL, sharedLearnClient } from "../common/learn-client.js";
import { LearnBackend, TrainingRun, learnRunHtml, learnStats, showBundleDownload } from "../common/run-controls.js";

/** The shipped model, trained natively by `puzzlelab minesweeper train` (it may not be there yet). */
export const SHIPPED_URL = new URL("../models/minesweeper-dqn.dqn", import.meta.url);
/** Where the worker keeps this card's other models. */
const FILE_KEY = "file-minesweeper";
const SHIPPED_KEY = "shipped-minesweeper";
/** The network trained here as it was when it was asked to play (training may go on). */
const PLAY_KEY = "play-minesweeper";
/** The validation boards' seed (VALIDATION_SEED in src/bin/puzzlelab/dqn_minesweeper.rs); evaluations use 0, the CLI's default. */
const VALIDATION_SEED = 0x4d1e5eed;

const numberFormat = new Intl.NumberFormat("en");

/** The form's number fields: [id after "mdqn-", label, kind, bound] (kinds as card-helpers.js readNumber's). */
const NUMBER_FIELDS = {
  layers: ["Layers", "count", 20],
  filters: ["Filters", "count", 256],
  lr: ["Learning rate", "positive", 1],
  batch: ["Batch", "count", 4096],
  envs: ["Games at once", "count", 256],
  "epsilon-start": ["ε start", "fraction"],
  "epsilon-decay": ["ε decay", "fraction"],
  "epsilon-min": ["ε minimum", "fraction"],
  replay: ["Replay capacity", "count", 1_000_000],
  warmup: ["Warm-up games", "whole", 10_000],
  seed: ["Seed", "whole", 2 ** 32 - 1],
  "eval-every": ["Validate every", "whole", 1e9],
  "eval-games": ["Validation games", "whole", 10_000],
};

const TEMPLATE = `
<p class="help mdqn-intro">
  A <strong>deep Q-network</strong> learns to play from the numbers alone: puzzlelab's network is fully convolutional
  (five 3 × 3 convolutions, then one Q-value per cell from its neighbourhood, so it plays any board size), learns the
  odds that revealing each covered cell of the positions it visits does not hit a mine (cross-entropy), and reveals the cell
  with the highest value. The paper's network (Mehta's RL paper) reads the whole board through dense weights and
  fits one size. The same Rust code as <code>puzzlelab minesweeper train</code>, here in a Web Worker on WebGPU or
  the CPU; below, the model plays the board above and is measured against the exact solver on the same boards.
</p>
<form class="mdqn-form" novalidate>
  <p id="mdqn-board" class="help"></p>
  <div class="field-grid mdqn-fields">
    <label class="field">
      <span class="field-label">Network</span>
      <select id="mdqn-net">
        <option value="cells" selected>Per cell (any size)</option>
        <option value="paper">The paper's</option>
      </select>
    </label>
    <label class="field"><span class="field-label">Layers</span><input id="mdqn-layers" type="number" value="5" min="1" max="20" step="1" inputmode="numeric" /></label>
    <label class="field"><span class="field-label">Filters</span><input id="mdqn-filters" type="number" value="32" min="1" max="256" step="1" inputmode="numeric" /></label>
    <label class="field">
      <span class="field-label">Backend</span>
      <select id="mdqn-backend">
        <option value="auto" selected>Auto</option>
        <option value="webgpu">WebGPU</option>
        <option value="cpu">CPU</option>
      </select>
    </label>
  </div>
  <details class="hyper">
    <summary>More settings <span class="optional">(puzzlelab minesweeper train's)</span></summary>
    <div class="field-grid hyper-grid">
      <label class="field"><span class="field-label">Learning rate</span><input id="mdqn-lr" type="number" value="0.001" min="0" step="any" /></label>
      <label class="field"><span class="field-label">Batch</span><input id="mdqn-batch" type="number" value="32" min="1" step="1" /></label>
      <label class="field"><span class="field-label">Games at once</span><input id="mdqn-envs" type="number" value="16" min="1" step="1" /></label>
      <label class="field"><span class="field-label">ε start</span><input id="mdqn-epsilon-start" type="number" value="0.3" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">ε decay per game</span><input id="mdqn-epsilon-decay" type="number" value="0.995" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">ε minimum</span><input id="mdqn-epsilon-min" type="number" value="0.02" min="0" max="1" step="any" /></label>
      <label class="field"><span class="field-label">Replay capacity</span><input id="mdqn-replay" type="number" value="20000" min="1" step="1" /></label>
      <label class="field"><span class="field-label">Warm-up games</span><input id="mdqn-warmup" type="number" value="10" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Seed</span><input id="mdqn-seed" type="number" value="0" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Validate every (steps)</span><input id="mdqn-eval-every" type="number" value="500" min="0" step="1" /></label>
      <label class="field"><span class="field-label">Validation games</span><input id="mdqn-eval-games" type="number" value="100" min="0" step="1" /></label>
    </div>
  </details>
  ${learnRunHtml("mdqn", { saveTitle: "Download the network (.dqn; puzzlelab minesweeper eval --agent dqn reads it)", stats: [...learnStats(["games", "Games"]), ["won", "Validation won"], ["backend", "Backend"], ["params", "Parameters"]] })}
<p class="help">
  A step moves every training game once and takes one gradient step. Every few hundred steps the network plays the
  validation boards greedily (the first click in the corner, in the third row and column under “opening”).
</p>
<div class="chart-grid t2048-charts">
  <canvas id="mdqn-chart-won" class="chart t2048-wide"></canvas>
  <canvas id="mdqn-chart-loss" class="chart"></canvas>
  <canvas id="mdqn-chart-epsilon" class="chart"></canvas>
</div>

<h3 class="subheading">Play the board, compare with the solver</h3>
<p id="mdqn-model-line" class="model-line" data-source="">No model yet: train one, load a file or the shipped model.</p>
<div class="buttons">
  <button id="mdqn-load" type="button" title="Load a Minesweeper DQN model file (.dqn)">Load…</button>
  <button id="mdqn-load-shipped" type="button" title="Fetch the model trained by puzzlelab minesweeper train (www/models/minesweeper-dqn.dqn)">Load the shipped model</button>
  <input id="mdqn-file" type="file" accept=".dqn,application/octet-stream" aria-label="Minesweeper DQN model file" hidden />
</div>
<div class="field-grid mdqn-eval-fields">
  <label class="field">
    <span class="field-label">Model</span>
    <select id="mdqn-model">
      <option value="trained" disabled>Trained here (nothing yet)</option>
      <option value="file" disabled>Loaded file (none)</option>
      <option value="shipped" selected>Shipped</option>
    </select>
  </label>
  <label class="field"><span class="field-label">Games</span><input id="mdqn-eval-games-n" type="number" value="200" min="1" max="100000" step="1" inputmode="numeric" /></label>
  <label class="field"><span class="field-label">Seed</span><input id="mdqn-eval-seed" type="number" value="0" min="0" step="1" inputmode="numeric" /></label>
</div>
<div class="buttons">
  <button id="mdqn-move" type="button" title="The network reveals the covered cell with the highest Q-value">DQN move</button>
  <button id="mdqn-play" type="button">DQN plays</button>
  <button id="mdqn-evaluate" class="primary" type="button">Evaluate against the solver</button>
  <button id="mdqn-eval-cancel" type="button" disabled hidden>Cancel</button>
</div>
<p id="mdqn-play-status" class="status" role="status" aria-live="polite"></p>
<p class="help">
  Evaluate plays game <var>g</var> of seed <var>s</var> with the model and with the solver: the same mines, the same first
  click, as <code>puzzlelab minesweeper eval --seed s</code> does, on the board size chosen above (a per-cell model plays
  any size). The gap is the solver's win rate minus the model's.
</p>
${evaluationResultsHtml("mdqn", ["Model", "Board", "Games", "Seed", "DQN won", "Solver won", "Gap", "DQN guesses", "Solver guesses"])}
`;

/** The card's behaviour; mountMinesDqnPanel() makes one. `state`, `elements` and `evaluations` are for the page and tests. */
export class MinesDqnPanel {
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
  /** The run's board ({ width, height, mines, rule, firstCell }) and whether it left a network: { steps } or null. */
  #trainedBoard = null;
  #trained = null;
  #file = null;
  #shipped = null;
  #shippedLoading = null;
  #lastReport = null;
  #lastValidation = null;
  #runId = 0;
  /** The DQN playing on the board: { game, timer } or null. */
  #playing = null;
  #moving = false;

  constructor(container, api = {}) {
    this.#root = container;
    this.#api = api ?? {};
    const body = renderCard(container, { cardClass: "mdqn-card", bodyClass: "t2048-body mdqn-body", html: TEMPLATE });
    const $ = (id) => body.querySelector(`#mdqn-${id}`);
    this.#elements = {
      form: body.querySelector("form"),
      evalGames: $("eval-games-n"),
      ...elementsById(body, "mdqn", ["board", "net", "layers", "filters", "backend", "form-error", "start", "pause", "resume", "stop", "save", "load", "load-shipped", "file"]),
      ...elementsById(body, "mdqn", ["progress", "progress-text", "progress-bar", "status", "error", "stats", "model-line", "model", "eval-seed", "move", "play", "play-status", ...EVALUATION_IDS]),
    };
    this.#download = { box: this.#elements.progress, text: this.#elements.progressText, bar: this.#elements.progressBar };
    this.#charts = {
      won: new LineChart($("chart-won"), {
        title: "Games won, %",
        yMin: 0,
        yMax: 100,
        xLabel: "steps",
        series: [
          { name: "validation", color: "--chart-1", dots: true },
          { name: "while exploring", color: "--chart-3" },
        ],
        formatY: (y) => `${y.toFixed(1)}%`,
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
    on(elements.loadShipped, "click", () => this.loadShipped().catch(() => {}));
    on(elements.net, "change", render);
    on(elements.move, "click", () => this.move());
    on(elements.play, "click", () => (this.#playing ? this.stopPlaying() : this.play()));
    on(elements.evaluate, "click", () => this.evaluate());
    on(elements.model, "change", render);
    this.#renderStats();
    this.boardChanged();
  }

  get elements() {
    return this.#elements;
  }

  /** "idle" | "starting" | "running" | "pausing" | "paused" | "stopping" | "stopped". */
  get state() {
    return this.#run.state;
  }

  /** The evaluation reports so far ({ key, info, model, solver, board, seed, ms }), oldest first. */
  get evaluations() {
    return this.#evaluations.reports;
  }

  /** The page's board settings changed (or a new game began): says what Train would train on. */
  boardChanged() {
    const board = this.#board();
    this.#elements.board.textContent = board
      ? `Trains on the board chosen above: ${boardText(board)}, first click ${board.rule}.`
      : "Trains on the board chosen above.";
    this.#render();
  }

  // ---- training ---------------------------------------------------------------------------------------

  /** Trains on the page's board size with the form's settings; resolves when the run stops. */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const runId = ++this.#runId;
    for (const chart of Object.values(this.#charts)) chart.clear();
    this.#lastReport = null;
    this.#lastValidation = null;
    this.#where.reset();
    this.#elements.stats.dataset.validations = "0";
    this.#renderStats();
    this.#trainedBoard = settings.board;
    this.#run.begin(settings.backend === "cpu" ? "Starting on the CPU…" : "Starting: checking WebGPU…");
    try {
      const final = await this.#client().trainMinesweeper(settings, { onProgress: (progress) => this.#onProgress(progress, runId) });
      if (runId !== this.#runId) return;
      if (final.report) this.#lastReport = final.report;
      this.#trained = { steps: this.#lastReport?.stepsDone ?? 0 };
      if (final.model) this.#setModelLine("The network trained here", modelText(final.model), "trained");
      this.#run.stopped(`Stopped after ${numberFormat.format(this.#trained.steps)} steps. Let it play, evaluate it, Save it, or train again.`);
    } catch (error) {
      if (runId !== this.#runId) return;
      this.#run.failed(error, Boolean(this.#trained));
    }
    this.#renderModels();
  }

  pause() {
    return this.#run.pause(() => `Paused at ${numberFormat.format(this.#lastReport?.stepsDone ?? 0)} steps: let it play, evaluate it, Save it, or Resume.`);
  }

  resume() {
    return this.#run.resume();
  }

  stop() {
    return this.#run.stop();
  }

  /** Downloads the trained network as minesweeper-WxH-dqn-STEPSsteps.dqn (the CLI's format). */
  async save() {
    if (!this.#trained) return;
    await this.#run.save(async () => {
      const { bytes, steps } = await this.#client().save();
      const { width, height } = this.#trainedBoard;
      return { bytes, name: `minesweeper-${width}x${height}-dqn-${steps}steps.dqn`, type: "application/octet-stream" };
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
      case "validating":
        if (this.#run.state === "running") this.#run.setStatus(`${this.#runningText()} Validating at ${numberFormat.format(progress.steps)} steps (${plural(progress.games, "game")})…`);
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
    // With the per-cell network's reward (+1 won, −1 lost) the mean return says how often exploring games won.
    if (this.#trainedBoard?.net === "cells" && typeof report.episodeReturn === "number") this.#charts.won.add(1, x, 50 * (report.episodeReturn + 1));
    for (const name of ["loss", "epsilon"]) this.#charts[name].canvas.dataset.points = String(this.#charts[name].pointCount(0));
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #onValidated({ steps, evaluation }) {
    this.#lastValidation = { steps, evaluation };
    this.#charts.won.add(0, steps, 100 * evaluation.win_rate);
    const count = String(this.#charts.won.pointCount(0));
    this.#charts.won.canvas.dataset.points = count;
    this.#elements.stats.dataset.validations = count;
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #renderStats() {
    const report = this.#lastReport;
    const stats = this.#elements.stats;
    const validation = this.#lastValidation?.evaluation;
    this.#stat("won", validation ? `${percent(validation.win_rate)}` : "–");
    if (!report) {
      for (const name of ["steps", "games", "loss", "epsilon", "speed"]) this.#stat(name, "–");
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
    this.#stat("games", numberFormat.format(report.episodesDone));
    this.#stat("loss", loss === null ? "– (warm-up)" : loss.toPrecision(3));
    this.#stat("epsilon", report.epsilon.toFixed(3));
    this.#stat("speed", numberFormat.format(Math.round(report.stepsPerS)));
    stats.dataset.steps = String(report.stepsDone);
    stats.dataset.loss = loss === null ? "" : String(loss);
  }

  #stat(name, text) {
    this.#cell(name).textContent = text;
  }

  #cell(name) {
    return this.#root.querySelector(`#mdqn-stat-${name}`);
  }

  #runningText() {
    const last = this.#lastValidation;
    const said = last
      ? ` Last validation (${plural(last.evaluation.games, "game")} at ${numberFormat.format(last.steps)} steps): won ${percent(last.evaluation.win_rate)}, ` +
        `${last.evaluation.guesses_per_game.toFixed(2)} guesses a game.`
      : "";
    return this.#where.runningText(said);
  }

  /** The form's settings for the worker's "train" (Minesweeper); throws a FieldError naming the field. */
  #readForm() {
    const value = (id) => {
      const [label, kind, max] = NUMBER_FIELDS[id];
      return readNumber(this.#root.querySelector(`#mdqn-${id}`), label, kind, max);
    };
    const board = this.#board();
    if (!board) throw new FieldError(null, "The board above is not set up yet.");
    const net = this.#elements.net.value;
    const options = {
      width: board.width,
      height: board.height,
      mines: board.mines,
      firstClick: board.rule,
      net,
      // The per-cell network learns each cell's log-odds of surviving (cross-entropy), the
      // recipe of the shipped model (docs/minesweeper.md, "Learners").
      ...(net === "cells" ? { layers: value("layers"), filters: value("filters"), survivalLogits: true } : {}),
      learningRate: value("lr"),
      batchSize: value("batch"),
      numEnvs: value("envs"),
      epsilonStart: value("epsilon-start"),
      epsilonDecay: value("epsilon-decay"),
      epsilonMin: value("epsilon-min"),
      replayCapacity: value("replay"),
      warmupEpisodes: value("warmup"),
      seed: value("seed"),
    };
    if (options.replayCapacity < options.batchSize) throw new FieldError(this.#root.querySelector("#mdqn-replay"), "Replay capacity must hold at least one batch.");
    return {
      options,
      board: { ...board, net },
      backend: this.#elements.backend.value,
      evalEvery: value("eval-every"),
      evalGames: value("eval-games"),
      evalSeed: VALIDATION_SEED,
      evalFirstCell: firstCell(board),
    };
  }

  /** The page's board settings: { width, height, mines, rule }, or null. */
  #board() {
    return this.#api.settings?.() ?? null;
  }

  // ---- models -----------------------------------------------------------------------------------------

  /** Reads a model file (to play and evaluate); a damaged or foreign file is refused and nothing changes. */
  async loadFile(file) {
    this.#run.clearErrors();
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const loaded = await this.#client().loadModelBytes(bytes, { key: FILE_KEY, name: file.name, puzzle: "minesweeper" });
      this.#file = { name: file.name, info: loaded.info };
      this.#elements.model.value = "file";
      this.#renderModels();
      this.#setModelLine(`Loaded “${file.name}”`, loaded.info, "file");
      this.#run.setStatus(`Loaded “${file.name}” (${megabytes(loaded.size)}): ${modelText(loaded.info)}.`);
    } catch (error) {
      this.#run.showError(error.message);
    }
    this.#render();
  }

  /** Fetches the shipped model (www/models/minesweeper-dqn.dqn) into the worker once; resolves to its info. */
  loadShipped() {
    this.#run.clearErrors();
    return this.#fetchShipped().catch((error) => {
      this.#run.showError(error.message);
      throw error;
    });
  }

  #fetchShipped() {
    this.#shippedLoading ??= this.#client()
      .loadModelUrl(this.#api.shippedUrl ?? SHIPPED_URL, {
        key: SHIPPED_KEY,
        puzzle: "minesweeper",
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
          throw new Error(missing ? "There is no shipped Minesweeper DQN model on this server (models/minesweeper-dqn.dqn): train one here, or load a model file." : error.message);
        },
      );
    return this.#shippedLoading;
  }

  /** The chosen model's key in the worker, loading or snapshotting it first: { key, name, info }. */
  async #chosenModel({ forPlay = false } = {}) {
    const choice = this.#elements.model.value;
    if (choice === "trained") {
      if (!this.#trained) throw new Error("Nothing has been trained yet.");
      const snapshot = await this.#client().snapshot(forPlay ? PLAY_KEY : TRAINED_MINESWEEPER_MODEL);
      return { key: snapshot.key, name: `Trained here (${numberFormat.format(snapshot.steps)} steps)`, info: snapshot.info };
    }
    if (choice === "file") {
      if (!this.#file) throw new Error("Load a model file first.");
      return { key: FILE_KEY, name: `“${this.#file.name}”`, info: this.#file.info };
    }
    const info = this.#shipped?.info ?? (await this.#fetchShipped());
    return { key: SHIPPED_KEY, name: "Shipped", info };
  }

  // ---- playing the page's board -------------------------------------------------------------------------

  /** The model reveals its greedy covered cell on the page's board; resolves to whether the game goes on. */
  async move({ chosen = null } = {}) {
    const board = this.#api.board;
    const game = board?.game;
    if (!game || game.status === "won" || game.status === "lost" || this.#moving) return false;
    this.#moving = true;
    this.#evaluations.clear();
    this.#render();
    try {
      chosen ??= await this.#chosenModel({ forPlay: true });
      const { width, height, mines } = game;
      const { cell, values } = await this.#client().bestCellMinesweeper(chosen.key, { width, height, mines, cells: game.cells() });
      if (board.game !== game) return false; // a new game began meanwhile
      if (cell < 0) return false;
      const risk = solverRisk(game, cell);
      board.reveal(cell, "dqn");
      const where = `row ${Math.floor(cell / width) + 1}, column ${(cell % width) + 1}`;
      const odds = risk === null ? "" : `; the solver's exact chance of a mine there was ${percent(risk)}`;
      const outcome = game.status === "won" ? " It cleared the board." : game.status === "lost" ? " It hit a mine." : "";
      this.#setPlayStatus(`${chosen.name}: revealed ${where} (Q-value ${values[cell].toFixed(3)}${odds}).${outcome}`, cell);
      return game.status === "playing";
    } catch (error) {
      this.#evaluations.showError(error.message);
      return false;
    } finally {
      this.#moving = false;
      this.#render();
    }
  }

  /** The model plays the page's game to its end, a move every api.speedMs() ms (Stop ends it). */
  async play() {
    if (this.#playing) return;
    const board = this.#api.board;
    if (!board?.game) return;
    this.#api.stopSolver?.();
    let chosen;
    try {
      chosen = await this.#chosenModel({ forPlay: true });
    } catch (error) {
      this.#evaluations.showError(error.message);
      return;
    }
    const playing = { game: board.game, timer: 0 };
    this.#playing = playing;
    board.locked = true;
    this.#render();
    const tick = async () => {
      if (this.#playing !== playing || board.game !== playing.game) return this.stopPlaying(playing);
      const goesOn = await this.move({ chosen });
      if (!goesOn || this.#playing !== playing) return this.stopPlaying(playing);
      playing.timer = setTimeout(tick, this.#api.speedMs?.() ?? 125);
    };
    playing.timer = setTimeout(tick, 0);
  }

  /** Stops the model's play (the one given, or whichever runs). */
  stopPlaying(which = this.#playing) {
    if (!which || this.#playing !== which) return;
    clearTimeout(which.timer);
    this.#playing = null;
    if (this.#api.board) this.#api.board.locked = false;
    this.#render();
  }

  /** Whether the model is playing the page's board. */
  get playing() {
    return Boolean(this.#playing);
  }

  #setPlayStatus(text, cell) {
    this.#elements.playStatus.textContent = text;
    this.#elements.playStatus.dataset.cell = String(cell);
  }

  // ---- evaluating -------------------------------------------------------------------------------------

  /** The chosen model and the solver play the same N seeded games of the page's board size; a row shows the gap. */
  evaluate() {
    const { elements } = this;
    return this.#evaluations.run({
      read: () => {
        const board = this.#board();
        if (!board) throw new FieldError(null, "The board above is not set up yet.");
        return { board, games: readNumber(elements.evalGames, "Games", "count", 100_000), seed: readNumber(elements.evalSeed, "Seed", "whole", 2 ** 32 - 1) };
      },
      play: async ({ board, games, seed }, { request, elapsed }) => {
        const chosen = await this.#chosenModel();
        const question = { ...board, firstCell: firstCell(board), games, seed, solver: true };
        const onProgress = ({ player }) =>
          this.#evaluations.showProgress(player === "model" ? `The model plays ${plural(games, "game")}…` : `The solver plays the same ${plural(games, "game")}…`, null);
        const report = await request(this.#client().evaluateMinesweeper(chosen.key, question, { onProgress }));
        const { model, solver } = report;
        const gap = solver.win_rate - model.win_rate;
        const interval = ({ win_rate, win_rate_95: [low, high] }) => `${percent(win_rate)} [${percent(low)}, ${percent(high)}]`;
        return {
          report: { ...report, board, seed, name: chosen.name },
          cells: [
            chosen.name,
            `${boardText(board)}, ${board.rule}`,
            numberFormat.format(model.games),
            String(seed),
            interval(model),
            interval(solver),
            `${gap >= 0 ? "+" : "−"}${(100 * Math.abs(gap)).toFixed(1)} points`,
            model.guesses_per_game.toFixed(2),
            solver.guesses_per_game.toFixed(2),
          ],
          status:
            `${chosen.name} won ${percent(model.win_rate)} of ${plural(model.games, "game")}, the solver ${percent(solver.win_rate)} of the same boards ` +
            `(${gap >= 0 ? `${(100 * gap).toFixed(1)} points more` : `${(-100 * gap).toFixed(1)} points fewer`}; ${elapsed()}).`,
        };
      },
      cancelledText: () => null,
    });
  }

  // ---- rendering ----------------------------------------------------------------------------------------

  #renderModels() {
    const select = this.#elements.model;
    labelModelOptions(select, this.#trained, this.#file);
    if (this.#trained && select.value === "shipped" && !this.#shipped) select.value = "trained";
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
    const evaluating = this.#evaluations.running;
    elements.evaluate.disabled = evaluating || !haveModel;
    elements.move.disabled = !haveModel || Boolean(this.#playing) || this.#moving;
    elements.play.disabled = !haveModel && !this.#playing;
    elements.play.textContent = this.#playing ? "Stop" : "DQN plays";
    this.#root.dataset.playing = String(Boolean(this.#playing));
    for (const control of [elements.model, elements.evalGames, elements.evalSeed]) control.disabled = evaluating || Boolean(this.#playing);
  }
}

/** Renders the card into `container` (a section.card whose h2 is already there); `api` as in the file's header. */
export function mountMinesDqnPanel(container, api = {}) {
  if (!container) throw new Error("mountMinesDqnPanel needs the element to render into.");
  return new MinesDqnPanel(container, api);
}

// ---- helpers ----------------------------------------------------------------------------------------------

/**
 * Where seeded games click first: the corner, or under "opening" the third row and column (the
 * solver's hint and docs/minesweeper.md: where each rule wins most often).
 */
export function firstCell({ width, height, rule }) {
  if (rule !== "opening") return 0;
  return Math.min(2, height - 1) * width + Math.min(2, width - 1);
}

/** "9 × 9, 10 mines". */
function boardText({ width, height, mines }) {
  return `${width} × ${height}, ${plural(mines, "mine")}`;
}

/** The solver's exact mine probability of `cell` before it is revealed, or null when it cannot say. */
function solverRisk(game, cell) {
  if (game.status !== "playing") return null;
  try {
    return game.analyse().probabilities[cell] ?? null;
  } catch {
    return null;
  }
}

/** "per cell, 5 × 32 filters, 37,921 parameters, trained on 9 × 9 / 10, 5,000 steps". */
function modelText(info) {
  const grid = info.network.grid;
  const net = info.anySize ? `per cell, ${grid.layers.length} × ${grid.layers[0]?.[0] ?? 0} filters (any board size)` : "the paper's network";
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps` : "";
  return `${net}, ${numberFormat.format(info.numParams)} parameters, trained on ${info.width} × ${info.height} / ${info.mines}${steps}`;
}

function plural(count, noun) {
  return `${numberFormat.format(count)} ${noun}${count === 1 ? "" : "s"}`;
}
