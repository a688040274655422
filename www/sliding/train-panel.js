// The page's "Deep Q-learning" card (index.html, section#dqn):
//   - a model: a pretrained one from www/models/ (fetched with a progress bar), a model file from
//     the person's disk or a URL, or the network trained here; "Solve with the model" solves the
//     page's board with it and plays the solution on the page's player (the report of the solution,
//     against the optimum: solution-report.js);
//   - its evaluation by exact optimal distance: solved % (greedy, beam search) and mean extra moves
//     per distance, charted and tabled (for a shipped model first from its manifest, without
//     running anything);
//   - training: the dissertation's hyper-parameters (and `puzzlelab sliding train`'s reward and mixed
//     difficulties), Start / Pause / Resume / Stop / Save / Load, live
//     statistics and four charts (TD loss, solved %, difficulty, steps per second).
// All the work happens in the learning worker (learn-worker.js through learn-client.js), which
// starts only when a button of this card is first used. The training half is the one every Learn
// card shares (common/learn-training.js) on this card's markup in index.html, configured below;
// this file keeps the model, its solutions and its evaluation by distance.

import { FieldError, chooseFilesWith, duration, elementsByPrefix, hideProgress, megabytes, showDownload, showProgress } from "../common/card-helpers.js";
import { BarChart, LineChart } from "../common/chart.js";
import { lineChart, lossChart } from "../common/learn-card.js";
import { FILE_MODEL, TRAINED_MODEL, goalLabels, shippedModels } from "../common/learn-client.js";
import { checkField, choiceField, dqnField, numberField, textField } from "../common/learn-form.js";
import { LearnTraining } from "../common/learn-training.js";
import { cardLearnClient } from "../common/run-controls.js";
import { SolutionReport } from "./solution-report.js";

const numberFormat = new Intl.NumberFormat("en");

/**
 * Reward names that manifests written before the rewards were named by behaviour record, and the
 * names the form's menu and the trainer use now (RewardScheme::from_name in
 * src/env/sliding/environment.rs reads both).
 */
const REWARD_NAMES = { "thesis": "heuristic-penalty", "seed000": "heuristic-penalty", "seed003": "step-cost-goal-bonus", "seed001": "steps" };
/** Evaluation rows hold at most this many positions per distance (the worker blocks meanwhile). */
const MAX_PER_DISTANCE = 100;

/**
 * The training half's description (common/learn-card.js lists its parts): the form's fields in
 * index.html (options: DqnTrainer.create's camelCase, mirroring DqnConfig in src/agent/dqn/, plus
 * `reward`, `difficulty` and the switches), the request, the statistics and charts.
 */
export const SLIDING_TRAINING = {
  puzzle: "sliding",
  prefix: "dqn",
  form: {
    fields: [choiceField("size", "Puzzle", {}), textField("hidden", "Hidden layers", "250,250,250", parseHidden), choiceField("reward", "Reward", {})],
    more: {
      fields: [
        dqnField("lr", 0.0001),
        dqnField("gamma", 0.9),
        dqnField("batch", 100, { label: "Batch size" }),
        dqnField("replay", 100000),
        dqnField("target-update", 10),
        dqnField("epsilon-start", 0.9),
        dqnField("epsilon-decay", 0.999),
        dqnField("epsilon-min", 0.3),
        numberField("episode-moves", "Moves per episode", 50, "count", 10_000, "maxEpisodeSteps"),
        dqnField("warmup", 100),
        dqnField("envs", 1),
        numberField("eval-interval", "Evaluate every (episodes)", 50, "whole", 1e9, "evalIntervalEpisodes"),
        numberField("eval-episodes", "Puzzles per evaluation", 10, "count", 10_000, "evalEpisodes"),
        numberField("difficulty", "Start difficulty", 1, "count", 1000),
        dqnField("seed", 0),
      ],
      checks: [
        checkField("curriculum", "Curriculum", "curriculum", true),
        checkField("mixed", "Mixed difficulties"),
        checkField("uniform-starts", "Uniform starts"),
        checkField("full-backups", "Full backups"),
        checkField("double", "Double DQN", "doubleDqn"),
        checkField("huber", "Huber loss", "huberLoss"),
        checkField("mask", "Mask illegal moves", "maskActions"),
        checkField("prioritized", "Prioritised replay", "prioritizedReplay"),
      ],
    },
    request: ({ size, ...options }) => {
      const [rows, cols] = size.split("x").map(Number);
      return { rows, cols, goal: "", options };
    },
    continueFrom: {
      // A shipped model's manifest (`puzzlelab sliding train`'s record: its `setup`, or in older
      // manifests the same fields at the top level) adds its reward and mixed difficulties;
      // without one: the dissertation's reward, one difficulty at a time.
      fill: ({ info, manifest }) => {
        const setup = manifest?.setup ?? manifest;
        return {
          size: `${info.rows}x${info.cols}`,
          hidden: (info.network?.hidden ?? []).join(","),
          ...(setup ? { reward: REWARD_NAMES[setup.reward] ?? setup.reward, mixed: (setup.mixed ?? setup.mixed_difficulty) === true, "uniform-starts": setup.uniform_starts === true } : {}),
        };
      },
      mismatch: ({ info }, { rows, cols }) =>
        info.rows === rows && info.cols === cols
          ? ""
          : `The loaded model is for ${info.rows} × ${info.cols} boards: choose that puzzle, or untick “Start from the loaded model's weights”.`,
    },
  },
  saveName: (steps, { rows, cols }) => `dqn-${rows}x${cols}.dqn`,
  // The chunk report's `setup` is the learner's after the chunk: the curriculum's difficulty.
  stats: { validation: [["difficulty", "Difficulty"]], render: ({ report }) => (report ? { difficulty: String(report.setup?.difficulty) } : {}) },
  charts: {
    list: [
      lossChart(),
      // Its data-points count the exploring games' series, its data-evaluations the evaluations'.
      { ...lineChart("solved", "Solved %", [["evaluation", "--chart-2", true], ["exploring", "--chart-1"]], { yMin: 0, yMax: 100, formatY: (y) => `${Math.round(y)}%` }), points: 1 },
      lineChart("difficulty", "Difficulty", [["difficulty", "--chart-3"]], { integerY: true }),
      lineChart("speed", "Steps per second", [["steps/s", "--chart-4"]], { formatY: (y) => numberFormat.format(Math.round(y)) }),
    ],
  },
  training: {
    report: ({ charts: { solved, difficulty } }, { stepsDone: x, evalSolvedRate, solvedRate, setup }) => {
      const level = setup?.difficulty;
      if (evalSolvedRate !== null && evalSolvedRate !== undefined) solved.add(0, x, evalSolvedRate * 100);
      solved.add(1, x, solvedRate === null ? null : solvedRate * 100);
      difficulty.add(0, x, level);
      solved.canvas.dataset.evaluations = String(solved.pointCount(0));
    },
    status: ({ report }) =>
      report?.evalSolvedRate !== null && report?.evalSolvedRate !== undefined ? ` Last evaluation: ${Math.round(report.evalSolvedRate * 100)}% solved at difficulty ${report.setup?.difficulty}.` : "",
    stoppedText: "The trained network is now the model: solve the board with it, evaluate it, or Save it.",
    pausedText: ". The network so far is the model: solve or evaluate with it, Save it, or Resume.",
  },
};

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
  /** The learning client (started by the first button that needs it, its download in the card's progress box). */
  #client;
  /**
   * The model that solves and is evaluated: { key, info, source, title, manifest }, or null;
   * manifest: a shipped model's (www/models/NAME.dqn.json) once read, else absent.
   */
  #model = null;
  /** Shipped models (dqn-index.json) by file name. */
  #shipped = new Map();
  /** The training half: form, run, statistics and charts (common/learn-training.js). */
  #training;
  /** The card's progress box (downloads of models and of the learning module): { box, text, bar }. */
  #download;
  #evaluationCharts;

  constructor(root, { board, player, isBusy = () => false, onSolution = () => {}, findOptimum = null }) {
    this.#root = root;
    this.#board = board;
    this.#isBusy = isBusy;
    const elements = elementsByPrefix(root, "dqn");
    this.#elements = elements;
    this.#download = { box: elements.progress, text: elements.progressText, bar: elements.progressBar };
    this.#report = new SolutionReport(root, {
      stats: elements.solveStats,
      player,
      onSolution,
      findOptimum,
      setStatus: (text) => this.#setSolveStatus(text),
    });
    this.#evaluationCharts = {
      solved: new BarChart(elements.chartEvalSolved, {
        title: "Solved % by optimal distance",
        yMax: 100,
        xLabel: "optimal moves",
        series: [
          { name: "greedy", color: "--chart-1" },
          { name: "beam search", color: "--chart-2" },
        ],
        formatY: (y) => `${Math.round(y)}%`,
      }),
      extra: new LineChart(elements.chartEvalExtra, {
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
    this.#client = cardLearnClient(this.#download, (message) => this.#run().showError(message));
    const setModel = (title) => (info) => this.#setModel({ key: TRAINED_MODEL, info, source: "trained", title });
    this.#training = new LearnTraining(root, {
      config: SLIDING_TRAINING,
      elements,
      client: () => this.#client(),
      render: () => this.#render(),
      hooks: {
        trained: () => this.#render(),
        model: (info, how) => setModel(how === "paused" ? "The network being trained" : "The network trained here")(info),
        continueFrom: () => (elements.continue.checked && this.#model ? { ...this.#model, name: this.#model.title } : null),
      },
    });

    const on = (element, type, listener) => element.addEventListener(type, listener);
    on(elements.loadPretrained, "click", () => this.loadPretrained());
    on(elements.solve, "click", () => this.solveBoard());
    on(elements.evaluate, "click", () => this.evaluate());
    chooseFilesWith(elements.loadFile, elements.file, (file) => this.loadFile(file));
    on(elements.loadUrl, "click", () => this.loadUrl(elements.url.value));
    on(elements.url, "keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      this.loadUrl(elements.url.value);
    });
    on(elements.continue, "change", () => {
      if (elements.continue.checked && this.#model) this.#training.fillFromModel(this.#model);
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
    return this.#run().state;
  }

  /** Starts training with the form's settings (after checking them); resolves when the run stops. */
  start() {
    return this.#training.start();
  }

  /** The run (common/run-controls.js TrainingRun). */
  #run() {
    return this.#training.run;
  }

  // ---- the model ------------------------------------------------------------------------------------

  /** Fetches the chosen shipped model in the worker (with a progress bar) and makes it the model. */
  async loadPretrained() {
    const entry = this.#shipped.get(this.#elements.shipped.value);
    if (!entry) return;
    this.#run().clearErrors();
    this.#elements.loadPretrained.disabled = true;
    this.#setSolveStatus("");
    try {
      const learn = this.#client();
      showProgress(this.#download, `Downloading ${entry.file}…`, 0);
      const loaded = await learn.loadModelUrl(entry.url, {
        puzzle: "sliding",
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
      this.#run().showError(error.message);
    } finally {
      this.#elements.loadPretrained.disabled = false;
    }
  }

  /** Reads a model file from the person's disk: into the paused trainer, or as the model. */
  async loadFile(file) {
    this.#run().clearErrors();
    const bytes = new Uint8Array(await file.arrayBuffer());
    const learn = this.#client();
    try {
      if (this.#run().state === "paused") {
        const { model } = await learn.loadWeights(bytes);
        this.#setModel({ key: TRAINED_MODEL, info: model, source: "trained", title: "The network being trained" });
        this.#run().setStatus(`Loaded the weights of "${file.name}" into the paused network: Resume goes on from them.`);
        return;
      }
      const loaded = await learn.loadModelBytes(bytes, { key: FILE_MODEL, name: file.name, puzzle: "sliding" });
      this.#useLoadedModel(loaded, { source: "file", title: `“${file.name}”` });
    } catch (error) {
      this.#run().showError(error.message);
    }
  }

  /** Fetches a model file from a URL (relative to the page) in the worker and makes it the model. */
  async loadUrl(text) {
    this.#run().clearErrors();
    const wanted = String(text ?? "").trim();
    if (!wanted) {
      this.#run().showError("Enter the URL of a model file (.dqn), such as models/8puzzle.dqn.");
      return;
    }
    let url;
    try {
      url = new URL(wanted, document.baseURI).href;
    } catch {
      this.#run().showError(`"${wanted}" is not a URL.`);
      return;
    }
    try {
      showProgress(this.#download, `Downloading ${wanted}…`, null);
      const loaded = await this.#client().loadModelUrl(url, {
        puzzle: "sliding",
        onProgress: ({ loaded: received, total }) => showDownload(this.#download, `Downloading ${wanted}`, received, total),
      });
      hideProgress(this.#download);
      this.#useLoadedModel(loaded, { source: "url", title: `The model at ${wanted}` });
    } catch (error) {
      hideProgress(this.#download);
      this.#run().showError(error.message);
    }
  }

  /** A model loaded from a file or URL: it becomes the model, and the next Start goes on from it. */
  #useLoadedModel(loaded, { source, title }) {
    this.#setModel({ key: loaded.key, info: loaded.info, source, title });
    const canContinue = !this.#elements.continue.disabled;
    if (canContinue) {
      this.#elements.continue.checked = true;
      this.#training.fillFromModel({ info: loaded.info });
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
      this.#setEvalStatus("The page evaluates models of boards up to 9 cells (3 × 3): exact optimal distances are known only there. Use `puzzlelab sliding eval` for 4 × 4.");
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
      if (this.#elements.continue.checked) this.#training.fillFromModel(model);
      // Its last validation (`validation`; `evaluation` in older manifests).
      const evaluation = manifest?.validation ?? manifest?.evaluation;
      if (!Array.isArray(evaluation?.rows) || evaluation.rows.length === 0) return;
      if (!evaluation.rows.every((row) => row !== null && typeof row === "object")) throw new Error("its evaluation rows are not rows");
      const perDistance = evaluation.settings?.perDistance ?? evaluation.settings?.per_distance;
      const steps = manifest.evaluation_step ?? manifest.training_curve?.at(-1)?.step ?? manifest.steps;
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

  // ---- rendering ------------------------------------------------------------------------------------

  /** Enables the buttons and fields that make sense now. */
  #render() {
    const { elements } = this;
    if (!this.#training) return;
    const { state, active, busy: loading } = this.#run();
    this.#training.render();
    // Models load while no chunk runs (a file into a paused run's network); the URL field stays open.
    elements.loadFile.disabled = loading;
    elements.loadUrl.disabled = loading;
    elements.url.disabled = loading;
    elements.file.disabled = false;
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

/** Hidden layer widths from "250,250,250" (spaces allowed); throws a FieldError. */
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
