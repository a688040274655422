// The dust page's "Learn" card: a deep Q-network that clears the board — puzzlelab's full backups
// of every pile of boards from every stage of a game, or the blog post's batched DQN
// (src/agent/dqn/dust.rs) — trained in the learning worker (common/learn-worker.js through
// learn-client.js, the dust jobs in samegame/learn-jobs.js; WebGPU or the CPU) with live charts:
// the validation boards' mean clicks, the training episodes' length and return, and the TD loss.
// A model — the network trained here, a file, or the shipped one — plays the board shown click by
// click ("Play"), beside the optimum the exact solver finds for the same board in a few seconds
// (its own solver worker, samegame/solver-worker.js), and is evaluated on seeded boards beside the
// greedy rule.
//
//   import { DustDqnPanel } from "./dqn-panel.js";
//   const panel = new DustDqnPanel(document.querySelector("#dqn"), { board });
//
// `container` is the card (its h2 stays first). `api`: `board` (the page's <clusters-board>),
// `speedMs()` (the pause between two clicks while a model plays, default 250 ms), `onPlaying(on)`
// (the page locks its own buttons while a model plays), `shippedUrl` (default
// models/dust-backups.dqn), `optimumSeconds` (the exact solver's budget, default 5). Nothing heavy
// happens when the card mounts: the workers and the learning bundle load on first use. For tests
// the card carries data-state (the run's), data-playing, data-model-clicks and data-optimum (after
// a play: the optimum's clicks, data-optimum-proved "true" or "false"), the statistics
// data-steps, data-loss and data-validations, and each chart data-points.

import { chooseFilesWith, elementsById, FieldError, hideAlerts, megabytes, readNumber, renderCard, showAlert, writeModelLine } from "../common/card-helpers.js";
import { BarChart, LineChart } from "../common/chart.js";
import { EVALUATION_IDS, EvaluationTable, evaluationResultsHtml } from "../common/evaluation-table.js";
import { TRAINED_DUST_MODEL } from "../common/learn-client.js";
import { ModelSources, modelChoiceHtml } from "../common/model-sources.js";
import { LearnBackend, TrainingRun, backendFieldHtml, cardLearnClient, learnRunHtml, learnStats } from "../common/run-controls.js";
import { ClustersSolver, SolveCancelled } from "./solver-client.js";

/** The shipped model, trained natively by `puzzlelab dust train --net backups`. */
export const SHIPPED_URL = new URL("../models/dust-backups.dqn", import.meta.url);
/** The worker's keys of this card's models. */
const KEYS = { trained: TRAINED_DUST_MODEL, file: "file-dust", shipped: "shipped-dust", play: "play-dust" };

/**
 * Each learner's settings as DqnDustTrainer takes them by default (backups_config and blog_config in
 * src/agent/dqn/dust.rs, with hidden layers a tab trains): switching the network fills them in.
 */
const NET_DEFAULTS = {
  backups: { hidden: "256,256,256", lr: 0.0003, batch: 64, replay: 100000, "target-every": 250, envs: 1, "epsilon-start": 0.9, "epsilon-decay": 0.999, "epsilon-min": 0.3 },
  blog: { hidden: "256,256,256,256,256", lr: 0.001, batch: 1000, replay: 2000, "target-every": 10, envs: 1000, "epsilon-start": 1, "epsilon-decay": 0.999, "epsilon-min": 0.06 },
};

/** The form's number fields: id after "ddqn-" → [label, option name, kind (card-helpers.js readNumber's), bound]. */
const NUMBER_FIELDS = {
  lr: ["Learning rate", "learningRate", "positive", 1],
  batch: ["Batch", "batchSize", "count", 10_000],
  replay: ["Replay capacity", "replayCapacity", "count", 1_000_000],
  "target-every": ["Target update every", "targetUpdateInterval", "count", 1_000_000],
  envs: ["Games at once", "numEnvs", "count", 2_000],
  "epsilon-start": ["ε start", "epsilonStart", "fraction"],
  "epsilon-decay": ["ε decay", "epsilonDecay", "fraction"],
  "epsilon-min": ["ε minimum", "epsilonMin", "fraction"],
  seed: ["Seed", "seed", "whole", 2 ** 32 - 1],
  "eval-boards": ["Validation boards", "validationBoards", "count", 10_000],
};

const numberFormat = new Intl.NumberFormat("en");

/** A choice of the form (id `ddqn-ID`), its first option chosen: `options` by value. */
const selectField = (id, label, options) =>
  `<label class="field"><span class="field-label">${label}</span><select id="ddqn-${id}">${Object.entries(options)
    .map(([value, text]) => `<option value="${value}">${text}</option>`)
    .join("")}</select></label>`;

/** A number field of the "More settings" box. */
const numberField = (id, label, value) =>
  `<label class="field"><span class="field-label">${label}</span><input id="ddqn-${id}" type="number" value="${value}" min="0" step="any" /></label>`;

const TEMPLATE = `
<p class="help ddqn-intro">
  A <strong>deep Q-network</strong> learns to clear the board in few clicks: it reads the board one-hot (8 × 6 cells,
  empty or one of five colours) and gives every cell a value; the pile with the highest is clicked. puzzlelab's learner
  backs up every pile of fresh boards from every stage of a game, so that a value learns 10 minus the clicks still
  needed. The blog post's learner plays 1,000 games at once and fits each round of clicks (−1 a click, −10 an empty
  cell, +10 the last click). The blog's own network is 5 × 1,500 units, as <code>puzzlelab dust train --net blog</code>
  has it (and 3 × 512 for puzzlelab's); here the defaults are smaller, to train in a tab. The same Rust code, in a Web
  Worker on WebGPU or the CPU.
</p>
<form class="ddqn-form" novalidate>
  <div class="field-grid t2048-fields ddqn-fields">
    ${selectField("net", "Network", { backups: "puzzlelab's (full backups)", blog: "The blog's (batched DQN)" })}
    ${selectField("target", "TD target", { max: "max of the next Q", mean: "mean of the next Q (the blog's)" })}
    <label class="field"><span class="field-label">Hidden layers</span><input id="ddqn-hidden" type="text" value="256,256,256" spellcheck="false" /></label>
    ${backendFieldHtml("ddqn")}
  </div>
  <details class="hyper">
    <summary>More settings <span class="optional">(puzzlelab dust train's)</span></summary>
    <div class="field-grid hyper-grid">
      ${numberField("lr", "Learning rate", 0.0003)}
      ${numberField("batch", "Batch", 64)}
      ${numberField("replay", "Replay capacity", 100000)}
      ${numberField("target-every", "Target update every (steps)", 250)}
      ${numberField("envs", "Games at once", 1)}
      ${numberField("epsilon-start", "ε start", 0.9)}
      ${numberField("epsilon-decay", "ε decay per episode", 0.999)}
      ${numberField("epsilon-min", "ε minimum", 0.3)}
      ${numberField("seed", "Seed", 0)}
      ${numberField("eval-every", "Validate every (steps)", 50)}
      ${numberField("eval-boards", "Validation boards", 100)}
    </div>
  </details>
  ${learnRunHtml("ddqn", { saveTitle: "Download the network (.dqn; puzzlelab dust eval --agent dqn reads it)", stats: [...learnStats(), ["clicks", "Validation clicks"], ["backend", "Backend"], ["params", "Parameters"]] })}
<p class="help">
  Every few steps the network clears the validation boards greedily (<code>puzzlelab dust train</code>'s seeded boards):
  the fewer clicks a board, the better. The greedy rule (the click that leaves the fewest groups) needs about 16.6 a
  board, the exact solver's best clearings about 14, and the optimum lies near 13.
</p>
<div class="chart-grid t2048-charts">${["clicks", "length", "return", "loss"].map((id) => `<canvas id="ddqn-chart-${id}" class="chart"></canvas>`).join("")}</div>

<h3 class="subheading">Play the board</h3>
${modelChoiceHtml("ddqn")}
<div class="buttons">
  <button id="ddqn-play" class="primary" type="button" title="The model clears the board shown, one click at a time; the exact solver looks for the fewest clicks meanwhile">Play</button>
  <button id="ddqn-load" type="button" title="Load a dust DQN model file (.dqn)">Load…</button>
  <input id="ddqn-file" type="file" accept=".dqn,application/octet-stream" aria-label="Dust DQN model file" hidden />
</div>
<p id="ddqn-play-status" class="status" role="status" aria-live="polite"></p>
<dl id="ddqn-versus" class="stats ddqn-versus" hidden>
  <div><dt>The model</dt><dd id="ddqn-model-clicks">–</dd></div>
  <div><dt>The optimum</dt><dd id="ddqn-optimum">–</dd></div>
</dl>
<p id="ddqn-play-error" class="error" role="alert" hidden></p>

<h3 class="subheading">Evaluate on seeded boards</h3>
<div class="field-grid ddqn-eval-fields">
  <label class="field"><span class="field-label">Boards</span><input id="ddqn-eval-n" type="number" value="200" min="1" max="10000" step="1" inputmode="numeric" /></label>
  <label class="field"><span class="field-label">Seed</span><input id="ddqn-eval-seed" type="number" value="1" min="0" step="1" inputmode="numeric" /></label>
</div>
<div class="buttons"><button id="ddqn-evaluate" type="button">Evaluate</button><button id="ddqn-eval-cancel" type="button" disabled hidden>Cancel</button></div>
<p class="help">
  Clears boards 0 to <var>n</var> − 1 drawn from seed <var>s</var>, as <code>puzzlelab dust eval --agent dqn --boards n
  --seed s</code> does, and the greedy rule the same boards.
</p>
${evaluationResultsHtml("ddqn", ["Model", "Boards", "Seed", "Model's clicks", "Greedy rule's", "Model's clicks: boards"])}
<canvas id="ddqn-chart-distribution" class="chart ddqn-distribution"></canvas>
`;

/** The card: `new DustDqnPanel(container, api)` renders it into `container` (a section.card whose h2 is already there). */
export class DustDqnPanel {
  #root;
  #api;
  #elements;
  #charts;
  /** The card's own exact solver (the page's may be busy with its own Solve). */
  #solver = new ClustersSolver();
  #run;
  #where = new LearnBackend();
  #evaluations;
  #sources;
  #download;
  /** The statistics' cells (dd elements) by name: steps, episodes, loss, epsilon, speed, clicks, backend, params. */
  #cells;
  /** The learning client (cardLearnClient: started by the first button that needs it). */
  #client;
  /** The run's settings ({ net, target, hidden }), its last chunk's report and its last validation ({ steps, clicks }). */
  #trainedNet = null;
  #lastReport = null;
  #lastValidation = null;
  /** Bumped by every run: progress of an earlier one is dropped. */
  #runId = 0;
  /** The model playing the board ({ timer, done }) or null; whether the workers are being asked for its clicks. */
  #playing = null;
  #asking = false;

  constructor(container, api = {}) {
    [this.#root, this.#api] = [container, api ?? {}];
    const body = renderCard(container, { cardClass: "ddqn-card", bodyClass: "t2048-body ddqn-body", html: TEMPLATE });
    this.#elements = {
      form: body.querySelector("form"),
      ...elementsById(body, "ddqn", ["net", "target", "hidden", "backend", "eval-every", "form-error", "start", "pause", "resume", "stop", "save", "load", "file", "play"]),
      ...elementsById(body, "ddqn", ["progress", "progress-text", "progress-bar", "status", "error", "stats", "model-line", "model", "eval-n", "eval-seed", "play-status", "play-error", "versus", "model-clicks", "optimum", ...EVALUATION_IDS]),
    };
    const elements = this.#elements;
    this.#download = { box: elements.progress, text: elements.progressText, bar: elements.progressBar };
    this.#charts = makeCharts((id) => body.querySelector(`#ddqn-chart-${id}`));
    this.#cells = Object.fromEntries([...elements.stats.querySelectorAll("dd")].map((dd) => [dd.id.replace("ddqn-stat-", ""), dd]));
    const render = () => this.#render();
    const pausedText = () => `Paused at ${numberFormat.format(this.#lastReport?.stepsDone ?? 0)} steps: let it play, evaluate it, Save it, or Resume.`;
    this.#run = new TrainingRun(container, elements, { panel: this, client: () => this.#client(), render, runningText: () => this.#runningText(), openDetails: true, pausedText });
    this.#client = cardLearnClient(this.#download, (message) => this.#run.showError(message));
    this.#evaluations = new EvaluationTable(elements, { render });
    this.#sources = new ModelSources({
      client: () => this.#client(),
      select: elements.model,
      puzzle: "dust",
      keys: KEYS,
      shippedUrl: this.#api.shippedUrl ?? SHIPPED_URL,
      download: this.#download,
      missingText: "There is no shipped dust DQN model on this server (models/dust-backups.dqn): train one here, or load a model file.",
    });
    chooseFilesWith(elements.load, elements.file, (file) => this.loadFile(file));
    elements.net.addEventListener("change", () => this.#netChanged());
    elements.play.addEventListener("click", () => (this.#playing ? this.stopPlaying() : this.play()));
    elements.evaluate.addEventListener("click", () => this.evaluate());
    elements.model.addEventListener("change", render);
    this.#renderStats();
    this.#render();
  }

  /** The learner's defaults go into the fields (each has its own, as the CLI's). */
  #netChanged() {
    for (const [id, value] of Object.entries(NET_DEFAULTS[this.#elements.net.value])) this.#root.querySelector(`#ddqn-${id}`).value = String(value);
    this.#render();
  }

  // ---- training ---------------------------------------------------------------------------------------

  /** Trains with the form's settings; resolves when the run stops. */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const runId = ++this.#runId;
    for (const chart of Object.values(this.#charts)) chart.clear?.();
    this.#lastReport = null;
    this.#lastValidation = null;
    this.#where.reset();
    this.#elements.stats.dataset.validations = "0";
    this.#renderStats();
    const { net, target, hidden } = settings.options;
    this.#trainedNet = { net, target, hidden };
    this.#run.begin(settings.backend === "cpu" ? "Starting on the CPU…" : "Starting: checking WebGPU…");
    try {
      const final = await this.#client().trainDust(settings, { onProgress: (progress) => runId === this.#runId && this.#onProgress(progress) });
      if (runId !== this.#runId) return;
      if (final.report) this.#lastReport = final.report;
      this.#sources.trained = { steps: this.#lastReport?.stepsDone ?? 0 };
      if (final.model) this.#setModelLine("The network trained here", modelText(final.model), "trained");
      this.#run.stopped(`Stopped after ${numberFormat.format(this.#sources.trained.steps)} steps. Let it play the board, evaluate it, Save it, or train again.`);
    } catch (error) {
      if (runId !== this.#runId) return;
      this.#run.failed(error, Boolean(this.#sources.trained));
    }
    this.#renderModels();
  }

  /** Downloads the trained network as dust-NET-STEPSsteps.dqn (the CLI's format). */
  async save() {
    if (!this.#sources.trained) return;
    await this.#run.save(async () => {
      const { bytes, steps } = await this.#client().save();
      return { bytes, name: `dust-${this.#trainedNet.net}-${steps}steps.dqn`, type: "application/octet-stream" };
    });
  }

  #onProgress(progress) {
    const run = this.#run;
    if (progress.stage === "backend") {
      this.#where.note = progress.message;
      run.setStatus(progress.message);
    } else if (progress.stage === "started") {
      this.#sources.trained = { steps: 0 };
      this.#where.started(progress, { stats: this.#elements.stats, backendCell: this.#cells.backend, paramsCell: this.#cells.params });
      const { hidden, validationBoards } = progress.setup ?? {};
      this.#setModelLine("The network trained here", `${layersText(hidden)}, ${numberFormat.format(progress.numParams)} parameters, training on ${this.#where.name}; validation on ${plural(validationBoards ?? 0, "board")}`, "trained");
      if (run.state === "starting") run.setState("running");
      run.setStatus(this.#runningText());
      this.#renderModels();
    } else if (progress.stage === "fallback") {
      this.#where.fellBack(progress, { stats: this.#elements.stats, backendCell: this.#cells.backend });
      run.setStatus(this.#runningText());
    } else if (progress.stage === "chunk") {
      this.#onReport(progress.report);
    } else if (progress.stage === "validating" && run.state === "running") {
      run.setStatus(`${this.#runningText()} Validating at ${numberFormat.format(progress.steps)} steps…`);
    } else if (progress.stage === "validated") {
      this.#lastValidation = { steps: progress.steps, clicks: progress.clicks };
      this.#charts.clicks.add(0, progress.steps, progress.clicks.mean_clicks);
      this.#countPoints("clicks");
      this.#elements.stats.dataset.validations = this.#charts.clicks.canvas.dataset.points;
      this.#renderStats();
      if (run.state === "running") run.setStatus(this.#runningText());
    }
  }

  #onReport(report) {
    this.#lastReport = report;
    this.#sources.trained = { steps: report.stepsDone };
    const x = report.stepsDone;
    const series = { loss: report.tdLoss, length: report.episodeLength, return: report.episodeReturn };
    for (const [name, y] of Object.entries(series)) {
      this.#charts[name].add(0, x, y ?? null);
      this.#countPoints(name);
    }
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  /** data-points of a chart: its points that can be drawn. */
  #countPoints(name) {
    this.#charts[name].canvas.dataset.points = String(this.#charts[name].pointCount(0));
  }

  /** The statistics' texts, and the numbers tests read in the stats' data-steps and data-loss. */
  #renderStats() {
    const report = this.#lastReport;
    const last = this.#lastValidation;
    const loss = report?.tdLoss ?? null;
    const texts = {
      clicks: last ? `${last.clicks.mean_clicks.toFixed(2)} (${numberFormat.format(last.clicks.boards)} boards)` : "–",
      steps: report ? numberFormat.format(report.stepsDone) : "–",
      episodes: report ? numberFormat.format(report.episodesDone) : "–",
      loss: !report ? "–" : loss === null ? "– (warm-up)" : loss.toPrecision(3),
      epsilon: report ? report.epsilon.toFixed(3) : "–",
      speed: report ? (report.stepsPerS >= 100 ? numberFormat.format(Math.round(report.stepsPerS)) : report.stepsPerS.toPrecision(3)) : "–",
      ...(report || this.#where.backend ? {} : { backend: "–", params: "–" }),
    };
    for (const [name, text] of Object.entries(texts)) this.#cells[name].textContent = text;
    Object.assign(this.#elements.stats.dataset, { steps: String(report?.stepsDone ?? 0), loss: loss === null ? "" : String(loss) });
  }

  #runningText() {
    const last = this.#lastValidation;
    return this.#where.runningText(last ? ` Last validation (${numberFormat.format(last.steps)} steps): ${last.clicks.mean_clicks.toFixed(2)} clicks a board.` : "");
  }

  /** The form's settings for the worker's "train" (dust); throws a FieldError naming the field. */
  #readForm() {
    const net = this.#elements.net.value;
    const options = { net, target: this.#elements.target.value, hidden: this.#hidden() };
    for (const [id, [label, option, kind, max]] of Object.entries(NUMBER_FIELDS)) {
      options[option] = readNumber(this.#root.querySelector(`#ddqn-${id}`), label, kind, max);
    }
    if (options.replayCapacity < options.batchSize && net === "blog") throw new FieldError(this.#root.querySelector("#ddqn-replay"), "Replay capacity must hold at least one batch.");
    const evalEvery = readNumber(this.#elements.evalEvery, "Validate every", "whole", 1e9);
    return { options, backend: this.#elements.backend.value, evalEvery };
  }

  /** The hidden layers field: 1 to 8 widths from 1 to 4,096, comma-separated; throws a FieldError. */
  #hidden() {
    const input = this.#elements.hidden;
    const widths = input.value.split(/[\s,×x]+/).filter(Boolean).map(Number);
    if (widths.length === 0 || widths.length > 8 || !widths.every((w) => Number.isInteger(w) && w >= 1 && w <= 4096)) {
      throw new FieldError(input, "Hidden layers: 1 to 8 widths from 1 to 4,096, comma-separated.");
    }
    return widths;
  }

  // ---- models -----------------------------------------------------------------------------------------

  /** Reads a model file (to play and evaluate); a damaged or foreign file is refused and nothing changes. */
  async loadFile(file) {
    hideAlerts(this.#elements.playError);
    try {
      const loaded = await this.#sources.loadFile(file);
      this.#setModelLine(`Loaded “${file.name}”`, loaded.info, "file");
      this.#setPlayStatus(`Loaded “${file.name}” (${megabytes(loaded.size)}): ${modelText(loaded.info)}.`);
    } catch (error) {
      showAlert(this.#elements.playError, error.message);
    }
    this.#render();
  }

  /** Fetches the shipped model (www/models/dust-backups.dqn) into the worker once; resolves to its info. */
  async loadShipped() {
    const { info } = await this.#sources.fetchShipped();
    this.#setModelLine("The shipped model", info, "shipped");
    return info;
  }

  // ---- playing the board ----------------------------------------------------------------------------------

  /**
   * The chosen model clears the board shown: the learning worker works out its clicks while the
   * card's solver worker looks for the fewest (api.optimumSeconds()), then the clicks go onto the
   * board one at a time, api.speedMs() apart, and the card shows the model's clicks beside the
   * optimum ("≤ N (not proved)" when the solver ran out of time). A board the model cannot play (not
   * the dust rules' 8 × 6, 5 colours) is refused in words. Resolves when the clicks are on the board.
   */
  async play() {
    const board = this.#api.board;
    const game = board?.game;
    if (this.#playing || this.#asking || !game) return;
    hideAlerts(this.#elements.playError);
    if (game.isOver) {
      this.#setPlayStatus("The board is cleared already: pick a new board first.");
      return;
    }
    this.#asking = true;
    this.#root.dataset.optimum = "";
    this.#render();
    const text = game.toText();
    const seconds = this.#api.optimumSeconds ?? 5;
    if (this.#solver.busy) this.#solver.cancel();
    const optimum = game.exactSupported ? this.#solver.exact("dust", text, seconds, () => {}) : Promise.resolve(null);
    optimum.catch(() => {});
    let chosen;
    let played;
    try {
      chosen = await this.#sources.chosen({ forPlay: true });
      if (chosen.key === KEYS.shipped) this.#setModelLine("The shipped model", chosen.info, "shipped");
      this.#setPlayStatus(`${chosen.name} is choosing its clicks; the exact solver looks for the fewest (up to ${seconds} s)…`);
      played = await this.#client().playDust(chosen.key, text);
    } catch (error) {
      this.#solver.cancel();
      showAlert(this.#elements.playError, error.message);
      return;
    } finally {
      this.#asking = false;
      this.#render();
    }
    if (board.game !== game) return; // a new board came meanwhile
    this.#showVersus(played.cells.length, null);
    const playing = { timer: 0, done: null };
    this.#playing = playing;
    this.#api.onPlaying?.(true);
    this.#setPlayStatus(`${chosen.name} plays ${plural(played.cells.length, "click")}…`);
    this.#render();
    const finished = await new Promise((resolve) => {
      playing.done = resolve;
      let index = 0;
      const tick = async () => {
        if (this.#playing !== playing || board.game !== game) return this.stopPlaying(playing);
        if (index >= played.cells.length) return resolve(true);
        try {
          board.click(played.cells[index++], "dqn");
        } catch (error) {
          showAlert(this.#elements.playError, error.message);
          return this.stopPlaying(playing);
        }
        await board.settled;
        if (this.#playing === playing) playing.timer = setTimeout(tick, this.#api.speedMs?.() ?? 250);
      };
      playing.timer = setTimeout(tick, 0);
    });
    this.stopPlaying(playing);
    if (!finished) {
      this.#setPlayStatus(board.game === game ? `${chosen.name} stopped; its clicks so far stay on the board.` : "");
      return;
    }
    this.#setPlayStatus(`${chosen.name} cleared the board in ${plural(played.cells.length, "click")}; the exact solver is still looking for the fewest…`);
    let found = null;
    try {
      found = await optimum;
    } catch (error) {
      if (!(error instanceof SolveCancelled)) showAlert(this.#elements.playError, `The exact solver: ${error.message}`);
    }
    if (board.game !== game) return;
    this.#showVersus(played.cells.length, found);
    this.#setPlayStatus(versusText(chosen.name, played.cells.length, found, seconds));
  }

  /** Stops the model's play (the one given, or whichever runs); the clicks made stay on the board. */
  stopPlaying(which = this.#playing) {
    if (!which || this.#playing !== which) return;
    clearTimeout(which.timer);
    this.#playing = null;
    this.#api.onPlaying?.(false);
    which.done?.(false);
    this.#render();
  }

  /** The model's clicks beside the optimum (`found`: the exact solver's answer, or null while it is unknown). */
  #showVersus(clicks, found) {
    const { versus, modelClicks, optimum } = this.#elements;
    versus.hidden = false;
    modelClicks.textContent = plural(clicks, "click");
    optimum.textContent = found ? (found.optimal ? `${plural(found.cells.length, "click")} (proved)` : `≤ ${found.cells.length} (not proved)`) : "…";
    this.#root.dataset.modelClicks = String(clicks);
    this.#root.dataset.optimum = found ? String(found.cells.length) : "";
    this.#root.dataset.optimumProved = found ? String(found.optimal) : "";
  }

  #setPlayStatus(text) {
    this.#elements.playStatus.textContent = text;
  }

  // ---- evaluating -------------------------------------------------------------------------------------

  /** The chosen model clears N seeded boards; a row shows its mean clicks beside the greedy rule's. */
  evaluate() {
    const { evalN, evalSeed } = this.#elements;
    const read = () => ({ boards: readNumber(evalN, "Boards", "count", 10_000), seed: readNumber(evalSeed, "Seed", "whole", 2 ** 32 - 1) });
    return this.#evaluations.run({
      read,
      play: async ({ boards, seed }, { request, elapsed }) => {
        this.#evaluations.showProgress(`Clearing ${plural(boards, "board")} with the model and with the greedy rule…`, null);
        const chosen = await this.#sources.chosen();
        const report = await request(this.#client().evaluateDust(chosen.key, { boards, seed }));
        const { mean_clicks: model, greedy } = report;
        this.#charts.distribution.setData(...distributionBars(report));
        return {
          report: { ...report, name: chosen.name },
          cells: [chosen.name, numberFormat.format(boards), String(seed), model.toFixed(2), greedy.mean_clicks.toFixed(2), distributionText(report.distribution)],
          status: `${chosen.name} clears a board in ${model.toFixed(2)} clicks on average, the greedy rule in ${greedy.mean_clicks.toFixed(2)} (${elapsed()}).`,
        };
      },
      cancelledText: () => null,
    });
  }

  // ---- rendering ----------------------------------------------------------------------------------------

  #renderModels() {
    this.#sources.relabel();
    this.#render();
  }

  #setModelLine(title, what, source) {
    writeModelLine(this.#elements.modelLine, title, what, source, modelText);
  }

  #render() {
    const elements = this.#elements;
    if (!this.#run) return;
    this.#run.renderForm({ saveable: Boolean(this.#sources.trained) });
    const haveModel = this.#sources.haveChosen;
    elements.evaluate.disabled = this.#evaluations.running || !haveModel;
    elements.play.disabled = (!haveModel || this.#asking) && !this.#playing;
    elements.play.textContent = this.#playing ? "Stop" : PLAY_TEXT[elements.model.value];
    elements.model.disabled = Boolean(this.#playing) || this.#asking;
    this.#root.dataset.playing = String(Boolean(this.#playing));
  }
}

const PLAY_TEXT = { shipped: "Play the shipped model", trained: "Play the network trained here", file: "Play the loaded model" };

// ---- helpers ----------------------------------------------------------------------------------------------

/** The episode charts before a game ends: puzzlelab's learner ends none (it backs up fresh boards), the blog's does. */
const NO_EPISODES = "No game ended yet (the blog's learner plays games)";

/** The card's charts, their canvases found by `canvas(id)`. */
function makeCharts(canvas) {
  const line = (id, title, name, color, extra = {}) => new LineChart(canvas(id), { title, xLabel: "steps", series: [{ name, color }], formatY: (y) => y.toFixed(1), ...extra });
  return {
    clicks: line("clicks", "Validation: mean clicks a board", "clicks", "--chart-1", { emptyText: "Each validation adds a point", series: [{ name: "clicks", color: "--chart-1", dots: true }], formatY: (y) => y.toFixed(2) }),
    length: line("length", "Training episodes: clicks", "episode length", "--chart-2", { emptyText: NO_EPISODES }),
    return: line("return", "Training episodes: return", "episode return", "--chart-3", { emptyText: NO_EPISODES }),
    loss: line("loss", "TD loss", "TD loss", "--chart-4", { yScale: "log", formatY: (y) => y.toPrecision(3) }),
    distribution: new BarChart(canvas("distribution"), {
      title: "Last evaluation: boards by clicks",
      emptyText: "No evaluation yet",
      series: [
        { name: "the model", color: "--chart-1" },
        { name: "greedy rule", color: "--chart-3" },
      ],
      formatY: (y) => String(Math.round(y)),
    }),
  };
}

/** Bar-chart data of an evaluation: [labels (clicks), [the model's boards, the greedy rule's]]. */
function distributionBars({ distribution, greedy }) {
  const counts = [...Object.keys(distribution), ...Object.keys(greedy.distribution)].map(Number);
  const labels = [];
  for (let c = Math.min(...counts); c <= Math.max(...counts); c++) labels.push(c);
  return [labels.map(String), [labels.map((c) => distribution[c] ?? 0), labels.map((c) => greedy.distribution[c] ?? 0)]];
}

/** "14: 3 · 15: 20 · 16: 41 …" (boards by clicks). */
function distributionText(distribution) {
  return Object.entries(distribution)
    .map(([clicks, boards]) => `${clicks}: ${boards}`)
    .join(" · ");
}

/** What the card says after a play: the model's clicks against the optimum found. */
function versusText(name, clicks, found, seconds) {
  const said = `${name} cleared the board in ${plural(clicks, "click")}`;
  if (!found) return `${said} (the exact solver does not take this board).`;
  const fewest = found.cells.length;
  if (found.optimal) return clicks <= fewest ? `${said}: the fewest possible (proved).` : `${said}; the fewest is ${fewest} (proved): ${plural(clicks - fewest, "click")} more.`;
  return `${said}; the exact solver found ${fewest} in ${seconds} s (at least ${found.lowerBound} are needed; the fewest is not proved).`;
}

/** "3 × 256": hidden layers in words. */
function layersText(hidden = []) {
  const same = hidden.length > 0 && hidden.every((w) => w === hidden[0]);
  return same ? `${hidden.length} × ${numberFormat.format(hidden[0])} units` : `layers ${hidden.join(", ")}`;
}

/** "puzzlelab's full backups, 3 × 256 units, 150,000 parameters, 600 steps". */
function modelText(info) {
  const net = { backups: "puzzlelab's full backups", blog: "the blog's batched DQN" }[info.net] ?? "a dust network";
  const target = info.target === "mean" ? " (mean target)" : "";
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps` : "";
  return `${net}${target}, ${layersText(info.network.hidden)}, ${numberFormat.format(info.numParams)} parameters${steps}`;
}

function plural(count, noun) {
  return `${numberFormat.format(count)} ${noun}${count === 1 ? "" : "s"}`;
}
