// A Learn card's training half, the same for every puzzle: the form read into the worker's "train"
// request (learn-form.js), Train / Pause / Resume / Stop / Save (run-controls.js), the run's start
// stage by stage in plain words (downloading and preparing the learning code, checking the graphics
// card, building the network, timing it, the first steps: run-controls.js GettingReady), where the
// run trains (WebGPU or the CPU, a fall-back in the middle; the technical details of that choice in
// a closed <details>), the statistics (steps, episodes, TD loss, ε, steps/s, the puzzle's own
// numbers, backend, parameters) and the charts (the TD loss, ε and speed drawn here, the puzzle's
// own from its hooks). It works on elements that are already there: the ones learn-card.js writes
// for every puzzle. What the card does with the network (its model line, its model choice) it is
// told through `hooks`.
//
//   const training = new LearnTraining(root, { config, elements, client, render, owner, hooks });
//
// `config` is the card's description (learn-card.js lists it): puzzle, prefix, form, saveName,
// stats, charts.list and training; its hooks get `owner` (the card: its api, elements and charts).
// `elements` by id after PREFIX- (in camelCase), with `form`.
// For tests: the card's data-state (the run's) and data-start-stage (the stage of the start
// running), the statistics' data-steps, data-loss, data-backend and data-validations, and each
// line chart's data-points (of its first series, or of series `points`).

import { FieldError, megabytes, whole } from "./card-helpers.js";
import { LineChart } from "./chart.js";
import { fillFields, readFields, settingText } from "./learn-form.js";
import { GettingReady, LearnBackend, TrainingRun } from "./run-controls.js";
import { numberFormat } from "./number-format.js";


/**
 * A chunk's training steps a second, the unit of the card's Steps: its moves a second (the
 * report's stepsPerS counts every game's move: a step of a learner that plays 16 games at once is
 * 16 moves) over the moves a step plays; a chunk that plays no move (pre-training on
 * demonstrations) counts its gradient steps.
 */
export function trainingStepsPerS(report) {
  if (report.envSteps > 0 && report.steps > 0) return (report.stepsPerS * report.steps) / report.envSteps;
  return report.updatesPerS ?? report.stepsPerS;
}

export class LearnTraining {
  #root;
  #config;
  #elements;
  #client;
  #hooks;
  /** What the description's hooks get: the card. */
  #owner;
  /** The run: its state, buttons, status and error lines (run-controls.js). */
  #run;
  /** Where the run trains (the worker's "backend", "started" and "fallback" messages). */
  #where = new LearnBackend();
  /** The run's start, stage by stage, until its first chunk. */
  #gettingReady;
  /** The training charts by id. */
  charts;
  /** The network trained here: { steps } once a run has started, else null. */
  trained = null;
  /** The run's settings, its last chunk's report, what is kept of its last validation, its set-up, its validations. */
  #settings = null;
  #lastReport = null;
  #lastValidation = null;
  #setup = null;
  #validations = 0;
  /** Bumped by every run: progress of an earlier one is dropped. */
  #runId = 0;

  /**
   * `root`: the card (its data-state follows the run). `client()`: the learning client. `render()`:
   * the card redraws (the run's state changed). `hooks` (all optional): `trained(trained)` (the
   * network trained here changed: { steps }), `started(text)` (the model line while it trains),
   * `model(info, how)` (the network as a model: how "stopped" or "paused"), `continueFrom()` (the
   * model the next run goes on from: { key, name, info, … } or null), `paused(answer)` (the
   * worker's answer to Pause).
   */
  constructor(root, { config, elements, client, render, owner = this, hooks = {} }) {
    this.#root = root;
    this.#owner = owner;
    this.#config = config;
    this.#elements = elements;
    this.#client = client;
    this.#hooks = hooks;
    this.charts = Object.fromEntries(config.charts.list.map(({ id, make }) => [id, make(root.querySelector(`#${config.prefix}-chart-${id}`))]));
    this.#run = new TrainingRun(root, elements, { panel: this, client, render, runningText: () => this.#runningText(), openDetails: true });
    // The start's status line, while the run starts or takes its first steps (not once it pauses or stops).
    this.#gettingReady = new GettingReady(root, elements.gettingReady, (text) => {
      if (this.#run.state === "starting" || this.#run.state === "running") this.#run.setStatus(text);
    });
    const on = (element, type, listener) => element.addEventListener(type, listener);
    on(elements.form, "input", () => this.#renderNote());
    on(elements.form, "change", (event) => {
      const defaults = config.form.nets?.defaults?.[event.target.value];
      if (event.target === elements.net && defaults) this.fill(defaults);
      render();
    });
    for (const { id, values } of config.form.presets ?? []) on(this.#element(id), "click", () => this.fill(values === "defaults" ? this.#defaults() : values));
    this.#renderNote();
    this.#renderStats();
  }

  /** The run (run-controls.js TrainingRun): state, active, busy, setStatus(), showError(), … */
  get run() {
    return this.#run;
  }

  /** The last run's settings (its request, as the description's form.request made it), or null. */
  get settings() {
    return this.#settings;
  }

  /** The last chunk's report, or null. */
  get lastReport() {
    return this.#lastReport;
  }

  // ---- the run ----------------------------------------------------------------------------------------

  /** Trains with the form's settings; resolves when the run stops. */
  async start() {
    const settings = this.#run.settings(() => this.#readForm());
    if (!settings) return;
    const { puzzle, training = {} } = this.#config;
    const runId = ++this.#runId;
    for (const chart of Object.values(this.charts)) {
      if (chart instanceof LineChart) chart.clear();
      else chart.setData([], []);
    }
    this.#lastReport = null;
    this.#lastValidation = null;
    this.#setup = null;
    this.#validations = 0;
    this.#where.reset();
    this.#elements.stats.dataset.validations = "0";
    this.#renderStats();
    this.#settings = settings;
    this.#run.begin("");
    const learn = this.#client();
    const stopWatching = this.#beginStart(learn, settings, runId);
    this.#renderDetails();
    try {
      const final = await learn.train({ ...settings, puzzle }, { onProgress: (progress) => runId === this.#runId && this.#onProgress(progress) });
      stopWatching();
      if (runId !== this.#runId) return;
      this.#endStart();
      if (final.report) this.#lastReport = final.report;
      this.#setTrained(this.#lastReport?.stepsDone ?? 0);
      if (final.model) this.#hooks.model?.(final.model, "stopped");
      const steps = numberFormat.format(this.trained.steps);
      this.#run.stopped(`Stopped after ${steps} steps. ${training.stoppedText ?? "Let it play, evaluate it, Save it, or train again."}`);
    } catch (error) {
      stopWatching();
      if (runId !== this.#runId) return;
      this.#gettingReady.fail();
      this.#run.failed(error, Boolean(this.trained));
    }
    this.#hooks.trained?.(this.trained);
  }

  /**
   * Begins the run's start (GettingReady) with the stages it will go through: the learning code's
   * download and preparation while `learn` has not loaded it (followed here), auto's check and
   * timing, the network, the first steps. Returns the function that stops following the download.
   */
  #beginStart(learn, { backend }, runId) {
    const bundle = learn.bundle;
    const auto = backend === "auto";
    const stages = [...(bundle.done ? [] : ["download"]), ...(bundle.ready ? [] : ["prepare"]), ...(auto ? ["check"] : []), "network", ...(auto ? ["timing"] : []), "first"];
    const steps = this.#gettingReady;
    const downloaded = ({ loaded, total }) => (loaded ? `: ${megabytes(loaded)}${total ? ` of ${megabytes(total)} (${Math.floor((100 * loaded) / total)}%)` : ""}` : "");
    steps.begin(stages);
    if (!bundle.done) steps.enter("download", downloaded(bundle));
    const onBundle = ({ detail }) => {
      if (runId !== this.#runId) return;
      if (detail.done) steps.enter("prepare");
      else steps.enter("download", downloaded(detail));
    };
    learn.addEventListener("bundle-progress", onBundle);
    // Ready: the learning code is prepared (also when it came from the browser's cache, without a download to follow).
    const prepared = () => {
      if (runId !== this.#runId) return;
      steps.enter("prepare");
      steps.complete("prepare");
    };
    if (!bundle.ready) learn.ready.then(prepared, () => {});
    return () => learn.removeEventListener("bundle-progress", onBundle);
  }

  /** The start is over (the first chunk, or the run's end): its stages' times go to the technical details. */
  #endStart() {
    this.#gettingReady.finish();
    this.#renderDetails();
  }

  /** The technical details: how long each stage of the start took, how the backend was chosen, the graphics card. */
  #renderDetails() {
    const { tech, techLines } = this.#elements;
    const lines = [this.#gettingReady.summary, ...this.#where.details].filter(Boolean);
    techLines.replaceChildren(...lines.map((line) => Object.assign(techLines.ownerDocument.createElement("li"), { textContent: line })));
    tech.hidden = lines.length === 0;
  }

  /** Pauses after the running chunk. */
  pause() {
    return this.#run.pause((answer) => {
      this.#hooks.paused?.(answer);
      if (answer.model) this.#hooks.model?.(answer.model, "paused");
      const steps = numberFormat.format(this.#lastReport?.stepsDone ?? 0);
      return `Paused at ${steps} steps${this.#config.training?.pausedText ?? ": let it play, evaluate it, Save it, or Resume."}`;
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

  /** Downloads the trained network (the CLI's file name). */
  async save() {
    if (!this.trained) return;
    await this.#run.save(async () => {
      const { bytes, steps } = await this.#client().save();
      return { bytes, name: this.#config.saveName(steps, this.#settings), type: "application/octet-stream", details: `, ${numberFormat.format(steps)} steps` };
    });
  }

  #setTrained(steps) {
    this.trained = { steps };
  }

  #onProgress(progress) {
    const run = this.#run;
    const training = this.#config.training ?? {};
    const { stats } = this.#elements;
    switch (progress.stage) {
      case "setup":
        this.#gettingReady.enter(progress.step, this.#setupDetail(progress));
        break;
      case "backend":
        this.#where.chosen(progress);
        this.#renderDetails();
        break;
      case "started": {
        this.#setTrained(0);
        this.#setup = progress.setup ?? null;
        this.#where.started(progress, { stats, backendCell: this.#element("stat-backend"), paramsCell: this.#element("stat-params") });
        const text = `${numberFormat.format(progress.numParams)} parameters, training on ${this.#where.name}`;
        this.#hooks.started?.(training.started?.(progress, text) ?? text);
        if (run.state === "starting") run.setState("running");
        this.#gettingReady.enter("first", ` on ${this.#where.backend === "webgpu" ? "the graphics card" : "the CPU"}`);
        this.#renderStats();
        this.#renderDetails();
        this.#hooks.trained?.(this.trained);
        break;
      }
      case "fallback":
        this.#where.fellBack(progress, { stats, backendCell: this.#element("stat-backend") });
        this.#renderDetails();
        run.setStatus(this.#runningText());
        break;
      case "chunk":
        this.#onReport(progress.report);
        break;
      case "validating":
        if (run.state === "running") run.setStatus(`${this.#runningText()}${training.validating?.(progress) ?? ` Validating at ${numberFormat.format(progress.steps)} steps…`}`);
        break;
      case "validated":
        this.#lastValidation = training.validated(this.#owner, progress);
        this.#validations += 1;
        stats.dataset.validations = String(this.#validations);
        this.#countPoints();
        this.#renderStats();
        if (run.state === "running") run.setStatus(this.#runningText());
        break;
    }
  }

  /** Words after what a stage of the start does: where the worker builds or times the network, what the puzzle sets up with it. */
  #setupDetail({ step, backend, detail = "" }) {
    const on = backend === "webgpu" ? " on the graphics card" : backend === "cpu" ? " on the CPU" : "";
    if (step === "timing") return on;
    if (step === "network") return `${backend === "webgpu" ? on : ""}${this.#config.form.starting?.(this.#settings) ?? ""}`;
    return detail;
  }

  /** One chunk's report: into the statistics and the charts (the first ends the start). */
  #onReport(report) {
    if (this.#gettingReady.running) this.#endStart();
    this.#lastReport = report;
    this.#setTrained(report.stepsDone);
    const x = report.stepsDone;
    const { loss, epsilon, speed } = this.charts;
    loss?.add(0, x, report.tdLoss ?? null);
    epsilon?.add(0, x, report.epsilon);
    speed?.add(0, x, trainingStepsPerS(report));
    this.#config.training?.report?.(this.#owner, report);
    this.#countPoints();
    this.#renderStats();
    if (this.#run.state === "running") this.#run.setStatus(this.#runningText());
  }

  /** Each line chart's drawable points (of its first series, or of series `points`), in its data-points. */
  #countPoints() {
    for (const { id, points = 0 } of this.#config.charts.list) {
      const chart = this.charts[id];
      if (chart instanceof LineChart) chart.canvas.dataset.points = String(chart.pointCount(points));
    }
  }

  /** The statistics' texts, and the numbers tests read in the stats' data-steps, data-loss, data-steps-per-s and data-moves-per-s. */
  #renderStats() {
    const { stats } = this.#config;
    const report = this.#lastReport;
    const loss = report?.tdLoss ?? null;
    const speed = report ? trainingStepsPerS(report) : undefined;
    const own = [...(stats.validation ?? []), ...(stats.setup ?? [])].map(([id]) => [id, "–"]);
    const texts = {
      steps: report ? numberFormat.format(report.stepsDone) : "–",
      [(stats.episodes ?? ["episodes"])[0]]: report ? numberFormat.format(report.episodesDone) : "–",
      loss: !report ? "–" : loss === null ? "– (warm-up)" : loss.toPrecision(3),
      epsilon: report ? report.epsilon.toFixed(3) : "–",
      speed: report ? (speed >= 100 ? whole(speed) : speed.toPrecision(3)) : "–",
      ...Object.fromEntries(own),
      ...stats.render?.({ report, validation: this.#lastValidation, setup: this.#setup }),
      ...(report || this.#where.backend ? {} : { backend: "–", params: "–" }),
    };
    for (const [id, text] of Object.entries(texts)) {
      const cell = this.#element(`stat-${id}`);
      cell.textContent = text;
      // A number cut short to fit its column ("24.94 (100 …") is read whole on hover.
      if (cell.scrollWidth > cell.clientWidth) cell.title = text;
      else cell.removeAttribute("title");
    }
    Object.assign(this.#elements.stats.dataset, {
      steps: String(report?.stepsDone ?? 0),
      loss: loss === null ? "" : String(loss),
      stepsPerS: String(speed ?? ""),
      movesPerS: String(report?.stepsPerS ?? ""),
    });
  }

  /** The status while training runs: where, and what the last report or validation says. */
  #runningText() {
    const { status, validationText } = this.#config.training ?? {};
    const validation = this.#lastValidation;
    const said = status ? status({ report: this.#lastReport, validation }) : validation ? validationText(validation) : "";
    return this.#where.runningText(said);
  }

  // ---- the form ---------------------------------------------------------------------------------------

  /** Every field of the form, "More settings" included. */
  get #fields() {
    const { form } = this.#config;
    return [...form.fields, ...form.more.fields, ...(form.more.checks ?? [])];
  }

  /** Every field's default by id (a preset whose values are "defaults" fills them). */
  #defaults() {
    const initial = (field) => ({ check: field.checked, select: Object.keys(field.choices ?? {})[0] })[field.type] ?? field.value;
    return Object.fromEntries(this.#fields.map((field) => [field.id, initial(field)]));
  }

  /** The form's settings for the worker's "train"; throws a FieldError naming the field. */
  #readForm() {
    const { prefix, form } = this.#config;
    const values = readFields(this.#root, prefix, this.#fields);
    if (values.replayCapacity < values.batchSize) throw new FieldError(this.#element("replay"), "Replay capacity must hold at least one batch.");
    const settings = { ...form.request(values, this.#owner), backend: this.#elements.backend.value, continueFrom: null };
    const from = this.#hooks.continueFrom?.() ?? null;
    if (from) {
      const mismatch = form.continueFrom.mismatch(from, settings);
      if (mismatch) throw new FieldError(this.#element(form.fields[0].id), mismatch);
      settings.continueFrom = from.key;
    }
    return settings;
  }

  /** Sets fields by id (not while a run exists). */
  fill(values) {
    if (this.#run.active) return;
    fillFields(this.#root, this.#config.prefix, values);
    this.#renderNote();
  }

  /**
   * The form from a model (`model.info`): its training settings by option name, then what the
   * description's form.continueFrom.fill(model) says (its network, its size, …).
   */
  fillFromModel(model) {
    const config = model.info.training?.config ?? {};
    const fields = this.#fields.filter(({ option }) => config[option] !== undefined);
    this.fill({ ...Object.fromEntries(fields.map(({ id, option }) => [id, settingText(config[option])])), ...this.#config.form.continueFrom.fill(model) });
  }

  /** The line under the fields (2048: the network's parameter count and what it costs). */
  #renderNote() {
    const { note } = this.#config.form;
    if (note) this.#element("params").textContent = note((id) => Number(this.#element(id).value));
  }

  /** The form's controls after the run's state: the buttons, Save, the fields locked while a run exists. */
  render() {
    const { form } = this.#config;
    const { active } = this.#run;
    this.#run.renderForm({ saveable: Boolean(this.trained) });
    for (const id of form.nets?.locked?.[this.#elements.net?.value] ?? []) this.#element(id).disabled = true;
    for (const { id } of form.presets ?? []) this.#element(id).disabled = active;
  }

  /** An element by id after PREFIX-. */
  #element(id) {
    return this.#root.querySelector(`#${this.#config.prefix}-${id}`);
  }
}
