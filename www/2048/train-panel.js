// The 2048 page's "train the n-tuple network" card: TD(0) learning of an n-tuple network in a Web
// Worker (ntuple-worker.js, core bundle), with live charts, and evaluation of agents over seeded
// games in the browser.
//
//   import { mountTrain2048Panel } from "./train-panel.js";
//   const panel = mountTrain2048Panel(document.querySelector("#train-2048"), { useNetwork });
//
// `container` is the card (its h2 stays first); the panel renders everything else into it and
// brings its own stylesheet (common/cards.css, next to this file) on top of the page's common/base.css.
// `api.useNetwork(bytes, label)` — optional — receives the trained network as a file (PZL2048N,
// f32, not compressed) and a name for it, for the page's own agent to play with (2048/app.js's
// trainApi: it resolves once the network plays, or rejects saying why it cannot); without it the
// "Use this network" button stays hidden. `api.shippedNetworkUrl`, when given, is where Evaluate
// fetches the shipped network (default: models/2048-ntuple.ntuple.gz next to this file).
//
// Training: a tuple set (those that fit in a tab), the learning rate α, games per chunk and a seed;
// Start / Pause / Resume / Stop act between chunks; charts show each chunk's mean score, how many
// of its games reached 2048, 4096 and 8192, and games per second. Save downloads the network
// (f32, gzip-compressed: the CLI reads it; f32 so that training goes on exactly where it was, gzip
// because the weights never visited are zeros); Load reads such a file (or the CLI's) to train on
// from it or to evaluate it. Evaluate plays N games greedily or by expectimax with the network
// trained here, the loaded file or the shipped network, with a progress bar and a results table in
// the numbers of `puzzlelab 2048 eval` (same seed, same games).

import { FieldError, chooseFilesWith, elementsById, percent, readNumber, renderCard, whole } from "../common/card-helpers.js";
import { LineChart } from "../common/chart.js";
import { EVALUATION_IDS, EvaluationTable, evaluationResultsHtml } from "../common/evaluation-table.js";
import { TrainingRun } from "../common/run-controls.js";
import { WorkerClient } from "../common/worker-protocol.js";
import { numberFormat } from "../common/number-format.js";

/** The shipped network (trained natively by `puzzlelab 2048 ntuple train`, 4 × 5-tuples, f16, gzip). */
export const SHIPPED_NETWORK_URL = new URL("../models/2048-ntuple.ntuple.gz", import.meta.url);

/** Tiles whose reach rates the charts and table show (of src/env/game2048/stats.rs REPORTED_TILES). */
const CHART_TILES = ["1024", "2048", "4096", "8192"];
const TABLE_TILES = ["2048", "4096", "8192", "16384"];
/** The deepest expectimax offered (src/web/ntuple.rs refuses more than 4; 3 already takes seconds a game). */
const MAX_DEPTH = 3;

// ---- the worker's client ----------------------------------------------------------------------------

/**
 * Promises around one ntuple-worker.js (see its protocol). Every method resolves to the worker's
 * result, or rejects with an Error carrying its message (`cancelled: true` for a cancelled
 * evaluation). `ready` resolves to { tupleSets } once the core bundle is loaded; pause(), resume(),
 * stop() and dispose() are WorkerClient's (pause and stop resolve to { state, gamesTrained }).
 */
export class NTupleClient extends WorkerClient {
  /** `workerUrl` is for tests; the panel uses ntuple-worker.js next to this file. */
  constructor(workerUrl = new URL("./ntuple-worker.js", import.meta.url)) {
    super(workerUrl, { name: "2048 training worker", readyValue: ({ tupleSets }) => ({ tupleSets }) });
  }

  /** Starts training (see the worker's "train"); onProgress gets "started" and "chunk" messages. */
  train(settings, onProgress) {
    return this.request({ type: "train", ...settings }, onProgress);
  }

  /** The trained network as a file: { bytes, gamesTrained, tupleSet, precision, gzip }. */
  save({ precision = "f32", gzip = false } = {}) {
    return this.request({ type: "save", precision, gzip });
  }

  /** Keeps a network file's bytes (gzip or not) under `key`: { key, info, size }. */
  load(key, bytes, name = "") {
    return this.request({ type: "load", key, bytes, name });
  }

  /** Fetches a network file into `key`; onProgress gets { loaded, total }. */
  loadUrl(key, url, onProgress) {
    return this.request({ type: "load-url", key, url: String(url) }, onProgress);
  }

  /**
   * Evaluates { network, agent, depth, games, seed }; onProgress gets { done, total }. The
   * promise carries the request's `id`, for cancel().
   */
  evaluate(options, onProgress) {
    return this.request({ type: "evaluate", ...options }, onProgress);
  }

  /** Cancels the evaluation with id `job` (any when left out). */
  cancel(job) {
    return this.request({ type: "cancel", job });
  }
}

// ---- the panel ------------------------------------------------------------------------------------

const TEMPLATE = `
<p class="help t2048-intro">
  An <strong>n-tuple network</strong> learns what each position is worth by TD(0) on afterstates
  (Szubert &amp; Jaśkowski 2014), playing game after game greedily: the same Rust code as
  <code>puzzlelab 2048 ntuple train</code>, here in a Web Worker. Each tuple of cells looks its tiles up in a
  table, read in all 8 rotations and reflections of the board.
</p>
<form class="t2048-form" novalidate>
  <div class="field-grid t2048-fields">
    <label class="field">
      <span class="field-label">Tuple set</span>
      <select id="t2048-tuples" aria-describedby="t2048-tuples-help"><option value="">Loading…</option></select>
    </label>
    <label class="field">
      <span class="field-label">Learning rate α</span>
      <input id="t2048-alpha" type="number" value="0.1" min="0" max="1" step="any" inputmode="decimal" />
    </label>
    <label class="field">
      <span class="field-label">Games per chunk</span>
      <input id="t2048-chunk" type="number" value="100" min="1" max="100000" step="1" inputmode="numeric" />
    </label>
    <label class="field">
      <span class="field-label">Seed</span>
      <input id="t2048-seed" type="number" value="0" min="0" step="1" inputmode="numeric" />
    </label>
    <label class="field t2048-from-field">
      <span class="field-label">Start from</span>
      <select id="t2048-from"><option value="">A new network (every weight 0)</option></select>
    </label>
  </div>
  <p id="t2048-tuples-help" class="help">
    Offered here: <strong>4 × 5-tuples</strong> (4.2 M weights, 16 MiB: the shipped network's set) and
    <strong>5 × 4-tuples</strong> (328 k weights, 1.3 MiB: weaker, learns fast). The strongest set, Yeh's
    <strong>4 × 6-tuples</strong>, has 67 M weights — 256 MiB in memory and as much again to save it — too
    much for a browser tab: train it with <code>puzzlelab 2048 ntuple train --tuples 4x6</code>.
  </p>
  <p id="t2048-form-error" class="error" role="alert" hidden></p>
  <div class="buttons t2048-buttons">
    <button id="t2048-start" class="primary" type="submit" disabled>Train</button>
    <button id="t2048-pause" type="button" disabled>Pause</button>
    <button id="t2048-resume" type="button" disabled>Resume</button>
    <button id="t2048-stop" type="button" disabled>Stop</button>
    <button id="t2048-save" type="button" disabled title="Download the network (f32, gzip-compressed; puzzlelab 2048 eval reads it)">Save</button>
    <button id="t2048-load" type="button" title="Load a network file (.ntuple or .ntuple.gz) to train on from it or to evaluate it">Load…</button>
    <button id="t2048-use" type="button" disabled hidden title="Hand the network trained here to this page's player">Use this network</button>
    <input id="t2048-file" type="file" accept=".ntuple,.gz,application/octet-stream,application/gzip" aria-label="Network file" hidden />
  </div>
</form>
<p id="t2048-status" class="status" role="status" aria-live="polite"></p>
<p id="t2048-error" class="error" role="alert" hidden></p>
<dl id="t2048-stats" class="stats t2048-stats" data-games-trained="0">
  <div><dt>Games trained</dt><dd id="t2048-stat-games">–</dd></div>
  <div><dt>Mean score</dt><dd id="t2048-stat-mean">–</dd></div>
  <div><dt>Best score</dt><dd id="t2048-stat-best">–</dd></div>
  <div><dt>Reached 2048</dt><dd id="t2048-stat-reach">–</dd></div>
  <div><dt>Games/s</dt><dd id="t2048-stat-games-per-s">–</dd></div>
  <div><dt>Moves/s</dt><dd id="t2048-stat-moves-per-s">–</dd></div>
</dl>
<p class="help">Each point is one chunk of training games: its mean score, and the share of its games whose largest tile reached 1024, 2048, 4096 and 8192.</p>
<div class="chart-grid t2048-charts">
  <canvas id="t2048-chart-score" class="chart"></canvas>
  <canvas id="t2048-chart-reach" class="chart"></canvas>
  <canvas id="t2048-chart-speed" class="chart t2048-wide"></canvas>
</div>

<h3 class="subheading">Evaluate</h3>
<div class="field-grid t2048-eval-fields">
  <label class="field t2048-network-field">
    <span class="field-label">Network</span>
    <select id="t2048-eval-network">
      <option value="trained" disabled>Trained here (nothing yet)</option>
      <option value="loaded" disabled>Loaded file (none)</option>
      <option value="shipped" selected>Shipped (4 × 5-tuples)</option>
    </select>
  </label>
  <label class="field">
    <span class="field-label">Agent</span>
    <select id="t2048-eval-agent">
      <option value="greedy" selected>Greedy</option>
      <option value="expectimax">Expectimax</option>
    </select>
  </label>
  <label class="field">
    <span class="field-label">Depth</span>
    <input id="t2048-eval-depth" type="number" value="2" min="1" max="${MAX_DEPTH}" step="1" inputmode="numeric" disabled />
  </label>
  <label class="field">
    <span class="field-label">Games</span>
    <input id="t2048-eval-games" type="number" value="100" min="1" max="100000" step="1" inputmode="numeric" />
  </label>
  <label class="field">
    <span class="field-label">Seed</span>
    <input id="t2048-eval-seed" type="number" value="1" min="0" step="1" inputmode="numeric" />
  </label>
</div>
<p class="help">
  Game <var>g</var> of seed <var>s</var> is the same game here and in <code>puzzlelab 2048 eval --seed s</code>, so
  the numbers compare exactly. Expectimax looks ahead over every new tile: with the shipped network depth 2
  plays several games a second, depth 3 takes a few seconds a game.
</p>
<div class="buttons">
  <button id="t2048-evaluate" class="primary" type="button">Evaluate</button>
  <button id="t2048-eval-cancel" type="button" disabled>Cancel</button>
</div>
${evaluationResultsHtml("t2048", ["Network", "Agent", "Games", "Seed", "Mean score", "Median", "Best", ...TABLE_TILES, "Moves/s"])}
`;

/**
 * The card's behaviour; mountTrain2048Panel() makes one. `elements` (by name), `state` and
 * `evaluations` (the reports so far, newest last) are for the page and tests.
 */
export class Train2048Panel {
  #root;
  #api;
  #client;
  #elements;
  #charts;
  /** The run: its state, buttons, status and error lines (run-controls.js). */
  #run;
  /** The evaluations: progress, status, error and results table (evaluation-table.js). */
  #evaluations;
  /** Whether the worker holds a trainer (a network to save, evaluate or use). */
  #trained = null; // { tupleSet, gamesTrained } or null
  /** The network file loaded: { name, info } or null. */
  #loaded = null;
  /** The shipped network, once fetched: a promise of { info }. */
  #shipped = null;
  /** The tuple sets as Rust describes them (ntupleTupleSets()). */
  #tupleSets = [];
  #lastStats = null;
  /** Numbers the training runs, so that a late message of an earlier run is ignored. */
  #runId = 0;
  /** What the running training is ("4 × 5-tuples (4,194,304 weights), α 0.1, seed 0"). */
  #startedText = "";

  constructor(container, api = {}) {
    this.#root = container;
    this.#api = api ?? {};
    const body = renderCard(container, { cardClass: "t2048-card", bodyClass: "t2048-body", html: TEMPLATE });
    const $ = (id) => body.querySelector(`#t2048-${id}`);
    this.#elements = {
      form: body.querySelector("form"),
      ...elementsById(body, "t2048", ["tuples", "alpha", "chunk", "seed", "from", "form-error", "start", "pause", "resume", "stop", "save", "load", "use", "file"]),
      ...elementsById(body, "t2048", ["status", "error", "stats", "eval-network", "eval-agent", "eval-depth", "eval-games", "eval-seed", ...EVALUATION_IDS]),
    };
    const percentY = (y) => `${Math.round(y)}%`;
    this.#charts = {
      score: new LineChart($("chart-score"), {
        title: "Mean score per chunk",
        xLabel: "games",
        series: [{ name: "mean score", color: "--chart-1" }],
        formatY: whole,
      }),
      reach: new LineChart($("chart-reach"), {
        title: "Games reaching a tile, %",
        yMin: 0,
        yMax: 100,
        xLabel: "games",
        series: CHART_TILES.map((tile, index) => ({ name: tile, color: `--chart-${index + 1}` })),
        formatY: percentY,
      }),
      speed: new LineChart($("chart-speed"), {
        title: "Games per second",
        xLabel: "games",
        series: [{ name: "games/s", color: "--chart-1" }],
        formatY: whole,
      }),
    };

    const { elements } = this;
    const render = () => this.#render();
    this.#run = new TrainingRun(container, elements, { panel: this, client: () => this.#client, render, runningText: () => this.#runningText() });
    this.#evaluations = new EvaluationTable(elements, { render });
    chooseFilesWith(elements.load, elements.file, (file) => this.loadFile(file));
    elements.use.addEventListener("click", () => this.useNetwork());
    elements.evalAgent.addEventListener("change", render);
    elements.from.addEventListener("change", render);
    elements.evaluate.addEventListener("click", () => this.evaluate());
    elements.evalCancel.addEventListener("click", () => this.cancelEvaluation());
    elements.use.hidden = typeof this.#api.useNetwork !== "function";

    this.#client = new NTupleClient();
    this.#client.ready.then(
      ({ tupleSets }) => this.#showTupleSets(tupleSets),
      (error) => this.#run.showError(error.message),
    );
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

  /** The evaluation reports so far (the worker's, as `puzzlelab 2048 eval` prints them), oldest first. */
  get evaluations() {
    return this.#evaluations.reports;
  }

  /** Resolves once the worker is ready (its tuple sets shown). */
  get ready() {
    return this.#client.ready;
  }

  // ---- training ---------------------------------------------------------------------------------------

  /** Starts training with the form's settings; resolves when the run stops. */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const runId = ++this.#runId;
    // Going on with the network trained here continues its curves; any other network starts new ones.
    if (settings.from !== "trained") for (const chart of Object.values(this.#charts)) chart.clear();
    this.#lastStats = null;
    this.#run.begin("Starting…");
    try {
      const final = await this.#client.train(settings, (progress) => this.#onProgress(progress, runId));
      this.#trained = { tupleSet: final.tupleSet, gamesTrained: final.gamesTrained };
      this.#run.stopped(`Stopped after ${numberFormat.format(final.gamesTrained)} games. Save the network, evaluate it, or start again (from it or anew).`);
    } catch (error) {
      this.#run.failed(error, Boolean(this.#trained));
    }
    this.#renderNetworkChoices();
  }

  /** Pauses after the running chunk. */
  pause() {
    return this.#run.pause((paused) => {
      this.#trained = { ...this.#trained, gamesTrained: paused.gamesTrained };
      this.#renderNetworkChoices();
      return `Paused at ${numberFormat.format(paused.gamesTrained)} games: evaluate the network, save it, or resume.`;
    });
  }

  /** Goes on after a pause. */
  resume() {
    return this.#run.resume();
  }

  /** Stops after the running chunk; start()'s promise then reports the end. */
  stop() {
    return this.#run.stop();
  }

  /** Downloads the trained network: f32 (exact, to train on) gzip-compressed, as 2048-SET-NNNgames.ntuple.gz. */
  async save() {
    if (!this.#trained) return;
    await this.#run.save(async () => {
      const saved = await this.#client.save({ precision: "f32", gzip: true });
      return { bytes: saved.bytes, name: `2048-${saved.tupleSet}-${saved.gamesTrained}games.ntuple.gz`, type: "application/gzip" };
    });
  }

  /** Reads a network file (the CLI's or Save's, gzip or not): Train can go on from it, Evaluate can play it. */
  async loadFile(file) {
    this.#run.clearErrors();
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const loaded = await this.#client.load("loaded", bytes, file.name);
      this.#loaded = { name: file.name, info: loaded.info };
      this.#renderNetworkChoices();
      if (!this.#run.active) this.#elements.from.value = "loaded";
      this.#elements.evalNetwork.value = "loaded";
      this.#run.setStatus(
        `Loaded “${file.name}”: ${tupleSetName(loaded.info.tupleSet)}, ${numberFormat.format(loaded.info.gamesTrained)} games trained. ` +
          "Train goes on training it; Evaluate plays it.",
      );
      this.#elements.stats.dataset.loadedGames = String(loaded.info.gamesTrained);
    } catch (error) {
      this.#run.showError(error.message);
    }
    this.#render();
  }

  /** Hands the trained network (f32 file bytes) to the page's player through api.useNetwork. */
  async useNetwork() {
    if (!this.#trained || typeof this.#api.useNetwork !== "function") return;
    this.#run.clearErrors();
    this.#elements.use.disabled = true;
    try {
      const saved = await this.#client.save({ precision: "f32", gzip: false });
      const games = numberFormat.format(saved.gamesTrained);
      // The page's model line says its tuples, weights and games.
      await this.#api.useNetwork(saved.bytes, "The network trained here");
      this.#run.setStatus(`The page's player now plays with the network trained here (${games} games).`);
    } catch (error) {
      this.#run.showError(`The page could not take the network: ${error.message}`);
    } finally {
      this.#render();
    }
  }

  #onProgress(progress, runId) {
    if (runId !== this.#runId) return;
    if (progress.stage === "started") {
      this.#trained = { tupleSet: progress.tupleSet, gamesTrained: progress.gamesTrained };
      if (this.#run.state === "starting") this.#run.setState("running");
      this.#startedText = `${tupleSetName(progress.tupleSet)} (${numberFormat.format(progress.weights)} weights), α ${progress.alpha}, seed ${progress.seed}`;
      this.#run.setStatus(this.#runningText());
      this.#renderNetworkChoices();
    } else if (progress.stage === "chunk") {
      this.#onChunk(progress.stats);
    }
  }

  /** One chunk's statistics: into the numbers and the charts. */
  #onChunk(stats) {
    this.#lastStats = stats;
    const { summary } = stats;
    const x = stats.games_trained;
    this.#trained = { ...this.#trained, gamesTrained: x };
    this.#charts.score.add(0, x, summary.mean_score);
    CHART_TILES.forEach((tile, index) => this.#charts.reach.add(index, x, 100 * summary.reach[tile]));
    this.#charts.speed.add(0, x, summary.games_per_s);
    for (const chart of Object.values(this.#charts)) chart.canvas.dataset.points = String(chart.pointCount(0));
    const set = (name, text) => (this.#root.querySelector(`#t2048-stat-${name}`).textContent = text);
    set("games", numberFormat.format(x));
    set("mean", whole(summary.mean_score));
    set("best", numberFormat.format(summary.max_score));
    set("reach", percent(summary.reach["2048"]));
    set("games-per-s", whole(summary.games_per_s));
    set("moves-per-s", whole(summary.moves_per_s));
    this.#elements.stats.dataset.gamesTrained = String(x);
    this.#elements.stats.dataset.meanScore = String(summary.mean_score);
    this.#elements.evalNetwork.querySelector('option[value="trained"]').textContent = `Trained here (${numberFormat.format(x)})`;
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  #runningText() {
    const games = this.#lastStats ? `: ${numberFormat.format(this.#lastStats.games_trained)} games so far` : "";
    return `Training ${this.#startedText}${games}.`;
  }

  /** The form's settings for the worker's "train"; throws a FieldError naming the field. */
  #readForm() {
    const { elements } = this;
    const from = elements.from.value || null;
    const tupleSet = elements.tuples.value;
    if (!from && !tupleSet) throw new FieldError(elements.tuples, "Choose a tuple set.");
    const alpha = readNumber(elements.alpha, "Learning rate α", "rate");
    const gamesPerChunk = readNumber(elements.chunk, "Games per chunk", "count");
    if (gamesPerChunk > 100_000) throw new FieldError(elements.chunk, "Games per chunk: at most 100,000.");
    const seed = readNumber(elements.seed, "Seed", "whole");
    return { tupleSet, alpha, gamesPerChunk, seed, from };
  }

  // ---- evaluation ---------------------------------------------------------------------------------

  /** Evaluates the chosen network and agent over the chosen games; adds a row to the table. */
  evaluate() {
    const { elements } = this;
    return this.#evaluations.run({
      read: () => {
        const options = {
          network: elements.evalNetwork.value,
          agent: elements.evalAgent.value,
          depth: elements.evalAgent.value === "expectimax" ? readNumber(elements.evalDepth, "Depth", "count") : 1,
          games: readNumber(elements.evalGames, "Games", "count"),
          seed: readNumber(elements.evalSeed, "Seed", "whole"),
        };
        if (options.depth > MAX_DEPTH) throw new FieldError(elements.evalDepth, `Depth: 1 to ${MAX_DEPTH} here (deeper takes minutes a game).`);
        if (options.games > 100_000) throw new FieldError(elements.evalGames, "Games: at most 100,000.");
        return options;
      },
      play: async (options, { request, progress, elapsed }) => {
        if (options.network === "shipped") await this.#fetchShipped();
        const report = await request(
          this.#client.evaluate(options, ({ stage, done, total }) => {
            if (stage === "evaluate") progress(done, total);
          }),
        );
        const { label, phrase } = this.#networkName(options.network);
        const { summary } = report;
        return {
          report,
          entry: { ...report, network: label },
          cells: [
            label,
            agentName(report),
            numberFormat.format(summary.games),
            String(report.seed),
            whole(summary.mean_score),
            numberFormat.format(summary.median_score),
            numberFormat.format(summary.max_score),
            ...TABLE_TILES.map((tile) => percent(summary.reach[tile])),
            whole(summary.moves_per_s),
          ],
          status:
            `${agentName(report)} play of ${phrase}: mean score ${whole(summary.mean_score)}, ` +
            `2048 reached in ${percent(summary.reach["2048"])} of ${numberFormat.format(summary.games)} games (${elapsed()}).`,
        };
      },
      cancelledText: (error) => (error.cancelled ? error.message : null),
    });
  }

  /** Cancels the running evaluation (it stops after its current game). */
  cancelEvaluation() {
    return this.#evaluations.cancel((id) => this.#client.cancel(id));
  }

  /** Fetches the shipped network into the worker once, with download progress. */
  #fetchShipped() {
    this.#shipped ??= this.#client
      .loadUrl("shipped", this.#api.shippedNetworkUrl ?? SHIPPED_NETWORK_URL, ({ loaded, total }) =>
        this.#evaluations.showDownload("Downloading the shipped network", loaded, total),
      )
      .catch((error) => {
        this.#shipped = null;
        throw error;
      });
    return this.#shipped;
  }

  /** The network's name for the table ("Trained here (1,200 games)") and for a sentence ("the network trained here (…)"). */
  #networkName(key) {
    if (key === "trained") {
      const games = `${numberFormat.format(this.#trained?.gamesTrained ?? 0)} games`;
      return { label: `Trained here (${games})`, phrase: `the network trained here (${games})` };
    }
    if (key === "loaded") return { label: `“${this.#loaded?.name ?? "file"}”`, phrase: `the network in “${this.#loaded?.name ?? "file"}”` };
    return { label: "Shipped", phrase: "the shipped network" };
  }

  // ---- rendering -----------------------------------------------------------------------------------

  /** The tuple-set choice from Rust's list: only the sets that fit in a tab. */
  #showTupleSets(sets) {
    this.#tupleSets = sets;
    const select = this.#elements.tuples;
    select.replaceChildren(
      ...sets
        .filter((set) => set.fitsInATab)
        .map((set) =>
          Object.assign(this.#root.ownerDocument.createElement("option"), {
            value: set.name,
            textContent: `${tupleSetName(set.name)} (${set.megabytesF32 < 10 ? set.megabytesF32.toFixed(1) : Math.round(set.megabytesF32)} MiB)`,
            title: `${numberFormat.format(set.weights)} weights`,
          }),
        ),
    );
    select.value = "4x5";
    this.#root.dataset.ready = "true";
    this.#render();
  }

  /** The "Start from" and evaluation network choices, after the networks at hand. */
  #renderNetworkChoices() {
    const { from, evalNetwork } = this.#elements;
    const document = this.#root.ownerDocument;
    const wanted = from.value;
    const options = [Object.assign(document.createElement("option"), { value: "", textContent: "A new network (every weight 0)" })];
    if (this.#trained) {
      options.push(
        Object.assign(document.createElement("option"), {
          value: "trained",
          textContent: `The network trained here (${tupleSetName(this.#trained.tupleSet)}, ${numberFormat.format(this.#trained.gamesTrained)} games)`,
        }),
      );
    }
    if (this.#loaded) {
      options.push(
        Object.assign(document.createElement("option"), {
          value: "loaded",
          textContent: `“${this.#loaded.name}” (${tupleSetName(this.#loaded.info.tupleSet)}, ${numberFormat.format(this.#loaded.info.gamesTrained)} games)`,
        }),
      );
    }
    from.replaceChildren(...options);
    from.value = options.some((option) => option.value === wanted) ? wanted : "";
    const trainedOption = evalNetwork.querySelector('option[value="trained"]');
    trainedOption.disabled = !this.#trained;
    trainedOption.textContent = this.#trained ? `Trained here (${numberFormat.format(this.#trained.gamesTrained)})` : "Trained here (nothing yet)";
    const loadedOption = evalNetwork.querySelector('option[value="loaded"]');
    loadedOption.disabled = !this.#loaded;
    loadedOption.textContent = this.#loaded ? `Loaded: “${this.#loaded.name}”` : "Loaded file (none)";
    if (this.#trained && evalNetwork.value === "shipped" && !this.#evaluations.reports.length) evalNetwork.value = "trained";
    this.#render();
  }

  /** Enables the buttons and fields that make sense now. */
  #render() {
    const { elements } = this;
    const { state, active, busy } = this.#run;
    const evaluating = this.#evaluations.running;
    const ready = this.#tupleSets.length > 0;
    this.#run.renderButtons({ canStart: ready && !evaluating, canResume: !evaluating });
    elements.save.disabled = !this.#trained || state === "starting" || state === "stopping";
    elements.use.disabled = !this.#trained || state === "starting" || state === "stopping";
    elements.load.disabled = busy;
    for (const control of [elements.tuples, elements.alpha, elements.chunk, elements.seed, elements.from]) control.disabled = active;
    // Going on from a network keeps its tuple set.
    if (!active) elements.tuples.disabled = Boolean(elements.from.value) || !ready;
    elements.evalDepth.disabled = elements.evalAgent.value !== "expectimax" || evaluating;
    for (const control of [elements.evalNetwork, elements.evalAgent, elements.evalGames, elements.evalSeed]) control.disabled = evaluating;
    // An evaluation waits for a pause: training and evaluating would share the worker.
    elements.evaluate.disabled = evaluating || busy;
    elements.evaluate.title = busy ? "Pause or stop training to evaluate" : "";
    elements.evalCancel.disabled = !evaluating;
  }
}

/**
 * Renders the training card into `container` (a section.card whose h2 is already there) and
 * returns its Train2048Panel. `api.useNetwork(bytes, label)`, when given, receives the trained
 * network for the page's player; `api.shippedNetworkUrl` overrides where the shipped network is.
 */
export function mountTrain2048Panel(container, api = {}) {
  if (!container) throw new Error("mountTrain2048Panel needs the element to render into.");
  return new Train2048Panel(container, api);
}

// ---- helpers ---------------------------------------------------------------------------------------

/** "4 × 5-tuples" for "4x5". */
function tupleSetName(name) {
  const [count, length] = String(name).split("x");
  return `${count} × ${length}-tuples`;
}

/** "Greedy" or "Expectimax, depth 2" (or "Random") for a report. */
function agentName(report) {
  if (report.agent === "expectimax") return `Expectimax, depth ${report.depth}`;
  return report.agent === "random" ? "Random" : "Greedy";
}
