// The page's "Deep Q-learning" card (index.html, section#dqn):
//   - a model: a pretrained one from www/models/ (fetched with a progress bar), a model file from
//     the person's disk or a URL, or the network trained here; "Solve with the model" solves the
//     page's board with it and plays the solution on the page's player (the report of the solution,
//     against the optimum: solution-report.js);
//   - its evaluation by exact optimal distance: solved % (greedy, beam search) and mean extra moves
//     per distance, charted and tabled (for a shipped model first from its manifest, without
//     running anything);
//   - training: the dissertation's hyper-parameters (and `puzzlelab train`'s reward and mixed
//     difficulties), Start / Pause / Resume / Stop / Save / Load, live
//     statistics and four charts (TD loss, solved %, difficulty, steps per second).
// All the work happens in the learning worker (learn-worker.js through learn-client.js), which
// starts only when a button of this card is first used; this file only reads the form, talks to
// the client and draws.

import { FieldError, chooseFilesWith, duration, hideProgress, megabytes, readNumber, showDownload, showProgress } from "../common/card-helpers.js";
import { BarChart, LineChart } from "../common/chart.js";
import { FILE_MODEL, TRAINED_MODEL, goalLabels, sharedLearnClient, shippedModels } from "../common/learn-client.js";
import { LearnBackend, TrainingRun, showBundleDownload } from "../common/run-controls.js";
import { SolutionReport } from "./solution-report.js";

const numberFormat = new Intl.NumberFormat("en");

/**
 * The form's number fields: [element id after "dqn-", option name (DqnTrainer.create's camelCase,
 * mirroring DqnConfig in src/agent/dqn.rs, plus `difficulty`), label, kind]. Kinds: "positive"
 * (> 0), "fraction" (0..1), "count" (whole, ≥ 1), "whole" (whole, ≥ 0).
 */
const NUMBER_FIELDS = [
  ["lr", "learningRate", "Learning rate", "positive"],
  ["gamma", "gamma", "Discount γ", "fraction"],
  ["batch", "batchSize", "Batch size", "count"],
  ["replay", "replayCapacity", "Replay capacity", "count"],
  ["target-update", "targetUpdateInterval", "Target update", "count"],
  ["epsilon-start", "epsilonStart", "ε start", "fraction"],
  ["epsilon-decay", "epsilonDecay", "ε decay", "fraction"],
  ["epsilon-min", "epsilonMin", "ε minimum", "fraction"],
  ["episode-moves", "maxEpisodeSteps", "Moves per episode", "count"],
  ["warmup", "warmupEpisodes", "Warm-up episodes", "whole"],
  ["envs", "numEnvs", "Games at once", "count"],
  ["eval-interval", "evalIntervalEpisodes", "Evaluate every", "whole"],
  ["eval-episodes", "evalEpisodes", "Puzzles per evaluation", "count"],
  ["difficulty", "difficulty", "Start difficulty", "count"],
  ["seed", "seed", "Seed", "whole"],
];
/** The form's checkboxes: [element id after "dqn-", option name]. */
const SWITCH_FIELDS = [
  ["curriculum", "curriculum"],
  ["mixed", "mixed"],
  ["uniform-starts", "uniformStarts"],
  ["full-backups", "fullBackups"],
  ["double", "doubleDqn"],
  ["huber", "huberLoss"],
  ["mask", "maskActions"],
  ["prioritized", "prioritizedReplay"],
];
/** Evaluation rows hold at most this many positions per distance (the worker blocks meanwhile). */
const MAX_PER_DISTANCE = 100;

/**
 * The card's behaviour. `root` is section#dqn; `board` the page's <sliding-board> (its `puzzle` is
 * the board solved); `player` the page's SolutionPlayer; `isBusy()` tells whether the page's own
 * solver is working on the board (the model then waits); `onSolution(text)` is told when the model
 * solved the board (the page clears its own solver's result with it); `findOptimum(puzzle, signal)`
 * (optional) runs the page's optimal solver on the board as it is when called, for the boards
 * whose optimum the learning worker does not know (over 9 cells): a promise of { length (null
 * when it gave up), solver (its name) }, or null when no optimal solver suits the board.
 */
export class TrainPanel {
  #root;
  #board;
  #isBusy;
  /** The report of the model's solution (solution-report.js). */
  #report;
  #elements;
  /** The learning client, once a button needed it. */
  #learn = null;
  /**
   * The model that solves and is evaluated: { key, info, source, title, manifest }, or null;
   * manifest: a shipped model's (www/models/NAME.dqn.json) once read, else absent.
   */
  #model = null;
  /** Shipped models (dqn-index.json) by file name. */
  #shipped = new Map();
  /** The training run's settings ({ rows, cols, ... }) while one exists. */
  #runSettings = null;
  /** The run: its state, buttons, status and error lines (run-controls.js). */
  #run;
  /** Where the run trains; its note ("WebGPU unavailable: …") goes with every training status. */
  #where = new LearnBackend();
  /** The card's progress box (downloads of models and of the learning module): { box, text, bar }. */
  #download;
  #lastReport = null;
  #charts;
  #evaluationCharts;

  constructor(root, { board, player, isBusy = () => false, onSolution = () => {}, findOptimum = null }) {
    this.#root = root;
    this.#board = board;
    this.#isBusy = isBusy;
    const $ = (id) => root.querySelector(`#dqn-${id}`);
    this.#elements = {
      progress: $("progress"),
      progressText: $("progress-text"),
      progressBar: $("progress-bar"),
      shipped: $("shipped"),
      perDistance: $("per-distance"),
      loadPretrained: $("load-pretrained"),
      solve: $("solve"),
      search: $("search"),
      evaluate: $("evaluate"),
      model: $("model"),
      fit: $("fit"),
      solveStatus: $("solve-status"),
      solveStats: $("solve-stats"),
      evalStatus: $("eval-status"),
      evaluation: $("evaluation"),
      evalNote: $("eval-note"),
      evalTable: $("eval-table"),
      form: $("form"),
      size: $("size"),
      backend: $("backend"),
      hidden: $("hidden"),
      reward: $("reward"),
      mixed: $("mixed"),
      uniformStarts: $("uniform-starts"),
      continue: $("continue"),
      formError: $("form-error"),
      start: $("start"),
      pause: $("pause"),
      resume: $("resume"),
      stop: $("stop"),
      save: $("save"),
      loadFile: $("load-file"),
      file: $("file"),
      url: $("url"),
      loadUrl: $("load-url"),
      status: $("status"),
      error: $("error"),
      stats: $("stats"),
    };
    this.#download = { box: this.#elements.progress, text: this.#elements.progressText, bar: this.#elements.progressBar };
    this.#report = new SolutionReport(root, {
      stats: this.#elements.solveStats,
      player,
      onSolution,
      findOptimum,
      setStatus: (text) => this.#setSolveStatus(text),
    });
    this.#charts = {
      loss: new LineChart($("chart-loss"), { title: "TD loss", yScale: "log", xLabel: "steps", series: [{ name: "TD loss", color: "--chart-1" }], formatY: (y) => y.toPrecision(3) }),
      solved: new LineChart($("chart-solved"), {
        title: "Solved %",
        yMin: 0,
        yMax: 100,
        xLabel: "steps",
        series: [
          { name: "evaluation", color: "--chart-2", dots: true },
          { name: "exploring", color: "--chart-1" },
        ],
        formatY: (y) => `${Math.round(y)}%`,
      }),
      difficulty: new LineChart($("chart-difficulty"), { title: "Difficulty", xLabel: "steps", integerY: true, series: [{ name: "difficulty", color: "--chart-3" }] }),
      speed: new LineChart($("chart-speed"), { title: "Steps per second", xLabel: "steps", series: [{ name: "steps/s", color: "--chart-4" }], formatY: (y) => numberFormat.format(Math.round(y)) }),
    };
    this.#evaluationCharts = {
      solved: new BarChart($("chart-eval-solved"), {
        title: "Solved % by optimal distance",
        yMax: 100,
        xLabel: "optimal moves",
        series: [
          { name: "greedy", color: "--chart-1" },
          { name: "beam search", color: "--chart-2" },
        ],
        formatY: (y) => `${Math.round(y)}%`,
      }),
      extra: new LineChart($("chart-eval-extra"), {
        title: "Mean extra moves",
        xLabel: "optimal",
        integerX: true,
        series: [
          { name: "greedy", color: "--chart-1", dots: true },
          { name: "beam search", color: "--chart-2", dots: true },
        ],
        emptyText: "Nothing solved",
        formatY: (y) => y.toFixed(2),
      }),
    };

    const on = (element, type, listener) => element.addEventListener(type, listener);
    const { elements } = this;
    on(elements.loadPretrained, "click", () => this.loadPretrained());
    on(elements.solve, "click", () => this.solveBoard());
    on(elements.evaluate, "click", () => this.evaluate());
    this.#run = new TrainingRun(root, elements, {
      panel: this,
      client: () => this.#client(),
      render: () => this.#render(),
      runningText: () => this.#runningText(),
      openDetails: true,
    });
    chooseFilesWith(elements.loadFile, elements.file, (file) => this.loadFile(file));
    on(elements.loadUrl, "click", () => this.loadUrl(elements.url.value));
    on(elements.url, "keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      this.loadUrl(elements.url.value);
    });
    on(elements.continue, "change", () => {
      if (elements.continue.checked && this.#model) this.#fillForm(this.#model.info, this.#model.manifest);
    });
    board.addEventListener("board-reset", () => this.#renderFit());
    this.#listShippedModels();
    this.#render();
  }

  /** The card's elements (for tests and the page). */
  get elements() {
    return this.#elements;
  }

  /** "idle" | "starting" | "running" | "pausing" | "paused" | "stopping" | "stopped". */
  get state() {
    return this.#run.state;
  }

  // ---- the model ------------------------------------------------------------------------------------

  /** Fetches the chosen shipped model in the worker (with a progress bar) and makes it the model. */
  async loadPretrained() {
    const entry = this.#shipped.get(this.#elements.shipped.value);
    if (!entry) return;
    this.#run.clearErrors();
    this.#elements.loadPretrained.disabled = true;
    this.#setSolveStatus("");
    try {
      const learn = this.#client();
      showProgress(this.#download, `Downloading ${entry.file}…`, 0);
      const loaded = await learn.loadModelUrl(entry.url, {
        onProgress: ({ loaded: received, total }) => {
          // The index knows the size where the server does not say it.
          const size = total || entry.bytes || 0;
          showProgress(this.#download, `Downloading ${entry.file}: ${megabytes(received)} of ${megabytes(size)}`, size ? received / size : null);
        },
      });
      hideProgress(this.#download);
      this.#setModel({ key: loaded.key, info: loaded.info, source: "shipped", title: `Pretrained: ${entry.title}` });
      this.#setSolveStatus(`Loaded ${entry.file} (${megabytes(loaded.size)} in ${numberFormat.format(loaded.ms)} ms). Solve the board with it, or evaluate it.`);
      this.#readManifest(entry);
    } catch (error) {
      hideProgress(this.#download);
      this.#run.showError(error.message);
    } finally {
      this.#elements.loadPretrained.disabled = false;
    }
  }

  /** Reads a model file from the person's disk: into the paused trainer, or as the model. */
  async loadFile(file) {
    this.#run.clearErrors();
    const bytes = new Uint8Array(await file.arrayBuffer());
    const learn = this.#client();
    try {
      if (this.#run.state === "paused") {
        const { model } = await learn.loadWeights(bytes);
        this.#setModel({ key: TRAINED_MODEL, info: model, source: "trained", title: "The network being trained" });
        this.#run.setStatus(`Loaded the weights of "${file.name}" into the paused network: Resume goes on from them.`);
        return;
      }
      const loaded = await learn.loadModelBytes(bytes, { key: FILE_MODEL, name: file.name });
      this.#useLoadedModel(loaded, { source: "file", title: `“${file.name}”` });
    } catch (error) {
      this.#run.showError(error.message);
    }
  }

  /** Fetches a model file from a URL (relative to the page) in the worker and makes it the model. */
  async loadUrl(text) {
    this.#run.clearErrors();
    const wanted = String(text ?? "").trim();
    if (!wanted) {
      this.#run.showError("Enter the URL of a model file (.dqn), such as models/8puzzle.dqn.");
      return;
    }
    let url;
    try {
      url = new URL(wanted, document.baseURI).href;
    } catch {
      this.#run.showError(`"${wanted}" is not a URL.`);
      return;
    }
    try {
      showProgress(this.#download, `Downloading ${wanted}…`, null);
      const loaded = await this.#client().loadModelUrl(url, {
        onProgress: ({ loaded: received, total }) => showDownload(this.#download, `Downloading ${wanted}`, received, total),
      });
      hideProgress(this.#download);
      this.#useLoadedModel(loaded, { source: "url", title: `The model at ${wanted}` });
    } catch (error) {
      hideProgress(this.#download);
      this.#run.showError(error.message);
    }
  }

  /** A model loaded from a file or URL: it becomes the model, and the next Start goes on from it. */
  #useLoadedModel(loaded, { source, title }) {
    this.#setModel({ key: loaded.key, info: loaded.info, source, title });
    const canContinue = !this.#elements.continue.disabled;
    if (canContinue) {
      this.#elements.continue.checked = true;
      this.#fillForm(loaded.info);
    }
    this.#setSolveStatus(
      `${title} is loaded (${megabytes(loaded.size)}).` + (canContinue ? " Start trains on from its weights; the form shows its settings." : ""),
    );
  }

  /** Solves the page's board with the model and plays the solution on the page's player. */
  async solveBoard() {
    const model = this.#model;
    const puzzle = this.#board.puzzle;
    if (!model || !puzzle) return;
    this.#report.hide();
    if (this.#isBusy()) return this.#setSolveStatus("The page's solver is working on the board: wait for it, or cancel it.");
    const problem = this.#misfit(puzzle);
    if (problem) return this.#setSolveStatus(problem);
    if (puzzle.isSolved()) return this.#setSolveStatus("The board is already solved — shuffle it first.");
    if (!puzzle.isSolvable()) return this.#setSolveStatus("This start cannot reach the goal (the two have different parity).");
    const cells = Array.from(puzzle.board());
    this.#elements.solve.disabled = true;
    this.#setSolveStatus("Solving with the model…");
    try {
      const search = this.#elements.search.value === "bwas" ? { method: "bwas" } : undefined;
      const result = await this.#client().solve(model.key, { rows: puzzle.rows, cols: puzzle.cols, goal: Array.from(puzzle.goal()), cells }, search);
      // A person may have moved a tile meanwhile: the solution starts from the board sent.
      if (this.#board.puzzle !== puzzle || Array.from(puzzle.board()).join() !== cells.join()) {
        this.#setSolveStatus("The board changed while the model was solving it: solve again.");
        return;
      }
      this.#report.show(result, puzzle, isValueNetwork(model.info) ? "value network" : "DQN model");
    } catch (error) {
      this.#setSolveStatus(`The model could not solve the board: ${error.message}`);
    } finally {
      this.#render();
    }
  }

  /** Evaluates the model by exact optimal distance in the worker and shows the result. */
  async evaluate() {
    const model = this.#model;
    if (!model) return;
    const input = this.#elements.perDistance;
    let perDistance = Math.round(Number(input.value));
    if (!Number.isFinite(perDistance) || perDistance < 1) perDistance = Number(input.defaultValue);
    perDistance = Math.min(MAX_PER_DISTANCE, perDistance);
    input.value = String(perDistance);
    if (model.info.rows * model.info.cols > 9) {
      this.#setEvalStatus("The page evaluates models of boards up to 9 cells (3 × 3): exact optimal distances are known only there. Use `puzzlelab eval` for 4 × 4.");
      return;
    }
    this.#elements.evaluate.disabled = true;
    this.#elements.evalStatus.classList.add("progress");
    this.#setEvalStatus(`Evaluating: ${perDistance} fresh positions at every optimal distance…`);
    try {
      const table = await this.#client().evaluate(
        model.key,
        { perDistance },
        {
          onProgress: ({ done, total }) =>
            this.#setEvalStatus(`Evaluating: ${numberFormat.format(done)} of ${numberFormat.format(total)} positions (${perDistance} at every optimal distance)…`),
        },
      );
      const overall = table.overall;
      this.#showEvaluation(
        table,
        `Measured here: ${numberFormat.format(overall.positions)} positions (${perDistance} per distance) in ${duration(table.ms)}. ` +
          `Greedy solved ${percent(field(overall, "greedySolvedPercent"))}, the beam search ${percent(field(overall, "searchSolvedPercent"))}.`,
        model,
      );
      this.#setEvalStatus("");
    } catch (error) {
      this.#setEvalStatus(`The evaluation failed: ${error.message}`);
    } finally {
      this.#elements.evalStatus.classList.remove("progress");
      this.#render();
    }
  }

  /**
   * Reads a shipped model's manifest: it keeps how the model was trained (its reward and mixed
   * difficulties, which the model file does not record) for the form, and its evaluation is drawn
   * without running anything.
   */
  async #readManifest(entry) {
    if (!entry.manifestUrl) return;
    try {
      const response = await fetch(entry.manifestUrl);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const manifest = await response.json();
      const model = this.#model;
      if (model?.key !== entry.url) return;
      model.manifest = manifest;
      if (this.#elements.continue.checked) this.#fillForm(model.info, manifest);
      const evaluation = manifest?.evaluation;
      if (!Array.isArray(evaluation?.rows) || evaluation.rows.length === 0) return;
      if (!evaluation.rows.every((row) => row !== null && typeof row === "object")) throw new Error("its evaluation rows are not rows");
      const perDistance = evaluation.settings?.perDistance ?? evaluation.settings?.per_distance;
      const steps = manifest.evaluation_step ?? manifest.steps;
      this.#showEvaluation(
        evaluation,
        `From the model's manifest (not run here): ${numberFormat.format(field(evaluation.overall, "positions"))} positions` +
          `${perDistance ? `, ${perDistance} per distance` : ""}${steps ? `, after ${numberFormat.format(steps)} training steps` : ""}. ` +
          "Evaluate measures it again in this tab.",
        this.#model,
      );
    } catch (error) {
      this.#setEvalStatus(`The model's manifest could not be read (${error.message}); Evaluate measures the model here.`);
    }
  }

  /** Shows an evaluation table ({ rows, overall }) as the two charts and the table. */
  #showEvaluation(table, note, model) {
    const rows = table.rows ?? [];
    const distances = rows.map((row) => field(row, "optimal"));
    this.#evaluationCharts.solved.setData(distances, [
      rows.map((row) => field(row, "greedySolvedPercent")),
      rows.map((row) => field(row, "searchSolvedPercent")),
    ]);
    this.#evaluationCharts.extra.setPoints(0, rows.map((row) => ({ x: field(row, "optimal"), y: field(row, "greedyMeanExtra") })));
    this.#evaluationCharts.extra.setPoints(1, rows.map((row) => ({ x: field(row, "optimal"), y: field(row, "searchMeanExtra") })));
    const body = this.#elements.evalTable.tBodies[0];
    const cells = (row) => [
      field(row, "positions"),
      percent(field(row, "greedySolvedPercent")),
      extraText(field(row, "greedyMeanExtra")),
      percent(field(row, "searchSolvedPercent")),
      extraText(field(row, "searchMeanExtra")),
    ];
    const tableRow = (label, values, header = false) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = label;
      tr.append(th, ...values.map((value) => Object.assign(document.createElement("td"), { textContent: String(value) })));
      if (header) tr.className = "overall";
      return tr;
    };
    body.replaceChildren(...rows.map((row) => tableRow(String(field(row, "optimal")), cells(row))));
    if (table.overall) body.append(tableRow("All", cells(table.overall), true));
    this.#elements.evalNote.textContent = `${model ? `${model.title}. ` : ""}${note}`;
    this.#elements.evaluation.hidden = false;
    this.#elements.evaluation.dataset.rows = String(rows.length);
  }

  /** Makes `model` the one that solves and is evaluated. */
  #setModel(model) {
    this.#model = model;
    const { info } = model;
    const hidden = info.network?.hidden?.length ? info.network.hidden.join("-") : "none";
    const values = isValueNetwork(info);
    const details = [
      `${info.rows} × ${info.cols}`,
      values ? "value network (moves left)" : "",
      `hidden layers ${hidden}`,
      `${numberFormat.format(info.numParams)} parameters`,
      info.training ? `${numberFormat.format(info.training.steps)} training steps` : "",
    ].filter(Boolean);
    const title = document.createElement("strong");
    title.textContent = model.title;
    this.#elements.model.replaceChildren(title, ` · ${details.join(" · ")}`);
    this.#elements.model.dataset.source = model.source;
    this.#elements.model.dataset.key = model.key;
    this.#elements.model.dataset.values = String(values);
    // A value network is made for the search; the Q-learner cannot go on from it.
    if (values) this.#elements.search.value = "bwas";
    this.#renderFit();
    this.#render();
  }

  /** Why the model cannot solve `puzzle`, or "" when it can. */
  #misfit(puzzle) {
    const info = this.#model?.info;
    if (!info) return "";
    if (puzzle.presetName) return "The board is the sun & moon preset: the DQN models solve numbered sliding puzzles only.";
    const goal = Array.from(puzzle.goal());
    const modelGoal = goalLabels(info.goal);
    const sameSize = info.rows === puzzle.rows && info.cols === puzzle.cols;
    if (sameSize && modelGoal.length === goal.length && modelGoal.every((label, i) => label === goal[i])) return "";
    const board = sameSize ? `this board has the goal ${puzzle.goalText()}` : `this board is ${puzzle.rows} × ${puzzle.cols}`;
    return (
      `This model solves ${info.rows} × ${info.cols} boards with the goal ${info.goal}; ${board}. ` +
      (sameSize ? "Reset the goal under Puzzle to use it." : `Choose ${info.rows} × ${info.cols} under Puzzle → Size to use it.`)
    );
  }

  #renderFit() {
    const puzzle = this.#board.puzzle;
    this.#elements.fit.textContent = puzzle ? this.#misfit(puzzle) : "";
  }

  /**
   * Fills the training form from a model's info (its size, network and hyper-parameters) and, for
   * a shipped model, its manifest (`puzzlelab train`'s record: reward and mixed difficulties;
   * absent: the dissertation's reward, one difficulty at a time).
   */
  #fillForm(info, manifest = null) {
    const elements = this.#elements;
    const has = (select, value) => [...select.options].some((option) => option.value === value);
    const size = `${info.rows}x${info.cols}`;
    if (has(elements.size, size)) elements.size.value = size;
    elements.hidden.value = (info.network?.hidden ?? []).join(",");
    if (manifest) {
      elements.reward.value = has(elements.reward, manifest.reward) ? manifest.reward : "thesis";
      elements.mixed.checked = manifest.mixed_difficulty === true;
      elements.uniformStarts.checked = manifest.uniform_starts === true;
    }
    const config = info.training?.config;
    if (!config) return;
    for (const [id, option] of NUMBER_FIELDS) {
      if (config[option] === undefined) continue;
      this.#root.querySelector(`#dqn-${id}`).value = String(Number(Number(config[option]).toPrecision(6)));
    }
    for (const [id, option] of SWITCH_FIELDS) {
      if (config[option] !== undefined) this.#root.querySelector(`#dqn-${id}`).checked = Boolean(config[option]);
    }
  }

  // ---- training -------------------------------------------------------------------------------------

  /** Starts training with the form's settings (after checking them). */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const continueFrom = this.#elements.continue.checked && this.#model ? this.#model : null;
    if (continueFrom && (continueFrom.info.rows !== settings.rows || continueFrom.info.cols !== settings.cols)) {
      this.#run.showFormError(
        new Error(`The loaded model is for ${continueFrom.info.rows} × ${continueFrom.info.cols} boards: choose that puzzle, or untick “Start from the loaded model's weights”.`),
      );
      return;
    }
    this.#runSettings = settings;
    this.#where.reset();
    this.#lastReport = null;
    for (const chart of Object.values(this.#charts)) chart.clear();
    this.#renderStats();
    this.#run.begin(settings.backend === "cpu" ? "Starting on the CPU…" : "Starting: checking WebGPU…");
    const learn = this.#client();
    const training = learn.train(
      {
        rows: settings.rows,
        cols: settings.cols,
        goal: "",
        options: settings.options,
        backend: settings.backend,
        continueFrom: continueFrom?.key ?? null,
      },
      { onProgress: (progress) => this.#onProgress(progress) },
    );
    try {
      const final = await training;
      if (final.report) this.#lastReport = final.report;
      if (final.model) this.#setModel({ key: TRAINED_MODEL, info: final.model, source: "trained", title: "The network trained here" });
      const steps = numberFormat.format(this.#lastReport?.stepsDone ?? 0);
      this.#run.stopped(`Stopped after ${steps} steps. The trained network is now the model: solve the board with it, evaluate it, or Save it.`);
    } catch (error) {
      // A run that never started leaves nothing to save; one that failed mid-way keeps its network.
      if (!this.#lastReport) this.#runSettings = null;
      this.#run.failed(error, Boolean(this.#lastReport));
    }
  }

  /** Pauses after the running chunk; the network so far becomes the model. */
  pause() {
    return this.#run.pause((paused) => {
      if (paused.model) this.#setModel({ key: TRAINED_MODEL, info: paused.model, source: "trained", title: "The network being trained" });
      return `Paused at ${numberFormat.format(this.#lastReport?.stepsDone ?? 0)} steps. The network so far is the model: solve or evaluate with it, Save it, or Resume.`;
    });
  }

  /** Goes on training after a pause (from the weights loaded meanwhile, if any). */
  resume() {
    return this.#run.resume();
  }

  /** Stops after the running chunk; start()'s promise then reports the end. */
  stop() {
    return this.#run.stop();
  }

  /** Downloads the trained network as a model file (dqn-ROWSxCOLS.dqn). */
  async save() {
    if (!this.#runSettings) return;
    await this.#run.save(async () => {
      const { bytes, steps } = await this.#client().save();
      const { rows, cols } = this.#runSettings;
      return { bytes, name: `dqn-${rows}x${cols}.dqn`, type: "application/octet-stream", details: `, ${numberFormat.format(steps)} steps` };
    });
  }

  #onProgress(progress) {
    switch (progress.stage) {
      case "backend":
        this.#where.note = progress.message;
        this.#run.setStatus(this.#where.note);
        break;
      case "started": {
        const cell = (name) => this.#root.querySelector(`#dqn-stat-${name}`);
        this.#where.started(progress, { stats: this.#elements.stats, backendCell: cell("backend"), paramsCell: cell("params") });
        if (this.#run.state === "starting") this.#run.setState("running");
        this.#run.setStatus(this.#runningText());
        break;
      }
      case "fallback":
        this.#where.fellBack(progress, { stats: this.#elements.stats, backendCell: this.#root.querySelector("#dqn-stat-backend") });
        this.#run.setStatus(this.#runningText());
        break;
      case "chunk":
        this.#onReport(progress.report);
        break;
    }
  }

  /** One chunk's report: into the statistics and the charts. */
  #onReport(report) {
    this.#lastReport = report;
    const x = report.stepsDone;
    const { loss, solved, difficulty, speed } = this.#charts;
    loss.add(0, x, report.tdLoss);
    if (report.evalSolvedRate !== null && report.evalSolvedRate !== undefined) solved.add(0, x, report.evalSolvedRate * 100);
    solved.add(1, x, report.solvedRate === null ? null : report.solvedRate * 100);
    difficulty.add(0, x, report.difficulty);
    speed.add(0, x, report.stepsPerS);
    for (const [name, chart] of Object.entries(this.#charts)) {
      chart.canvas.dataset.points = String(name === "solved" ? chart.pointCount(1) : chart.pointCount(0));
    }
    solved.canvas.dataset.evaluations = String(solved.pointCount(0));
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #renderStats() {
    const report = this.#lastReport;
    const set = (name, text) => (this.#root.querySelector(`#dqn-stat-${name}`).textContent = text);
    const stats = this.#elements.stats;
    if (!report) {
      for (const name of ["steps", "episodes", "loss", "epsilon", "difficulty", "speed", "backend", "params"]) set(name, "–");
      stats.dataset.steps = "0";
      stats.dataset.loss = "";
      return;
    }
    set("steps", numberFormat.format(report.stepsDone));
    set("episodes", numberFormat.format(report.episodesDone));
    set("loss", report.tdLoss === null ? "– (warm-up)" : report.tdLoss.toPrecision(3));
    set("epsilon", report.epsilon.toFixed(3));
    set("difficulty", String(report.difficulty));
    set("speed", numberFormat.format(Math.round(report.stepsPerS)));
    stats.dataset.steps = String(report.stepsDone);
    stats.dataset.loss = report.tdLoss === null ? "" : String(report.tdLoss);
  }

  #runningText() {
    const report = this.#lastReport;
    const evaluation =
      report?.evalSolvedRate !== null && report?.evalSolvedRate !== undefined
        ? ` Last evaluation: ${Math.round(report.evalSolvedRate * 100)}% solved at difficulty ${report.difficulty}.`
        : "";
    return this.#where.runningText(evaluation);
  }

  /** The form's settings: { rows, cols, backend, options }; throws a FieldError naming the field. */
  #readForm() {
    const root = this.#root;
    const [rows, cols] = this.#elements.size.value.split("x").map(Number);
    const options = { hidden: parseHidden(this.#elements.hidden), reward: this.#elements.reward.value };
    for (const [id, option, label, kind] of NUMBER_FIELDS) {
      options[option] = readNumber(root.querySelector(`#dqn-${id}`), label, kind);
    }
    for (const [id, option] of SWITCH_FIELDS) options[option] = root.querySelector(`#dqn-${id}`).checked;
    if (options.replayCapacity < options.batchSize) {
      throw new FieldError(root.querySelector("#dqn-replay"), "Replay capacity must hold at least one batch.");
    }
    return { rows, cols, backend: this.#elements.backend.value, options };
  }

  // ---- the worker -------------------------------------------------------------------------------------

  /** The learning client, started on first use, with its bundle download shown. */
  #client() {
    this.#learn ??= showBundleDownload(sharedLearnClient(), this.#download, (message) => this.#run.showError(message));
    return this.#learn;
  }

  // ---- rendering ------------------------------------------------------------------------------------

  /** Enables the buttons and fields that make sense now. */
  #render() {
    const { elements } = this;
    const { state, active, busy: loading } = this.#run;
    this.#run.renderButtons();
    elements.save.disabled = !this.#runSettings || state === "starting" || state === "stopping" || (state === "idle" && !this.#lastReport);
    elements.loadFile.disabled = loading;
    elements.loadUrl.disabled = loading;
    elements.url.disabled = loading;
    for (const control of elements.form.querySelectorAll("input, select")) {
      if (control === elements.url || control === elements.file) continue;
      control.disabled = active;
    }
    const model = this.#model;
    elements.continue.disabled = active || !model || isValueNetwork(model.info);
    if (elements.continue.disabled && !active) elements.continue.checked = false;
    elements.solve.disabled = !model;
    // Evaluating blocks the worker for seconds: not while chunks should keep flowing.
    elements.evaluate.disabled = !model || loading || state === "pausing" || elements.evalStatus.classList.contains("progress");
  }

  #setSolveStatus(text) {
    this.#elements.solveStatus.textContent = text;
  }

  #setEvalStatus(text) {
    this.#elements.evalStatus.textContent = text;
  }

  /** Fills the pretrained-model choice from www/models/dqn-index.json. */
  async #listShippedModels() {
    const select = this.#elements.shipped;
    try {
      const models = await shippedModels();
      this.#shipped = new Map(models.map((model) => [model.file, model]));
      select.replaceChildren(
        ...models.map((model) => Object.assign(document.createElement("option"), { value: model.file, textContent: model.title })),
      );
      if (models.length === 0) throw new Error("the index lists none");
    } catch (error) {
      select.replaceChildren(Object.assign(document.createElement("option"), { value: "", textContent: "No pretrained models" }));
      this.#elements.loadPretrained.disabled = true;
      this.#setSolveStatus(`The pretrained models could not be listed (${error.message}); load a model file instead.`);
    }
  }
}

/** Sets up the card in `root` (section#dqn); see TrainPanel for the options. */
export function initTrainPanel(root, options) {
  return new TrainPanel(root, options);
}

// ---- helpers ---------------------------------------------------------------------------------------

/** Whether a model gives one value per board (the moves left) rather than a Q-value per move. */
function isValueNetwork(info) {
  return info?.network?.numActions === 1;
}

/** Hidden layer widths from "250,250,250" (spaces allowed). */
function parseHidden(input) {
  const parts = input.value.split(/[\s,]+/).filter(Boolean);
  const widths = parts.map(Number);
  if (parts.length === 0 || widths.some((width) => !Number.isInteger(width) || width < 1 || width > 4096)) {
    throw new FieldError(input, "Hidden layers: widths of 1 to 4096 units separated by commas, like 250,250,250.");
  }
  return widths;
}

/** A field of an evaluation row, whichever case its keys are in (the bundle: camelCase). */
function field(row, name) {
  if (!row) return undefined;
  if (row[name] !== undefined) return row[name];
  return row[name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

/** A value that already is a percent as "88.4%" ("100%" when whole), "–" when there is none (card-helpers.js percent takes a rate). */
function percent(value) {
  return value === null || value === undefined ? "–" : `${Number(value).toFixed(Number(value) % 1 === 0 ? 0 : 1)}%`;
}

/** Mean extra moves with two decimals, "–" when nothing was solved. */
function extraText(value) {
  return value === null || value === undefined ? "–" : Number(value).toFixed(2);
}
