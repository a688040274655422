// A training card's run as the page sees it, the same on every training card (2048/train-panel.js,
// 2048/dqn-panel.js, train-panel.js): the state (idle → starting → running ⇄ pausing → paused …
// stopping → stopped), mirrored in the card's data-state; the Start / Pause / Resume / Stop / Save
// buttons; the status line and the two error lines (the form's and the card's); and Pause, Resume,
// Stop and Save, which the worker carries out between two chunks. What a card trains, what its
// worker reports and what it says about it stay in the card.
//
// For the cards that train in the learning worker (learn-client.js): LearnBackend (where a run
// trains, as the worker's "backend" and "started" messages tell), GettingReady (the stages of a
// run's start, one after another, in plain words) and showBundleDownload.

import { downloadBytes, hideAlerts, hideProgress, markField, megabytes, showAlert, showDownload, showProgress } from "./card-helpers.js";
import { sharedLearnClient } from "./learn-client.js";
import { numberFormat } from "./number-format.js";

/** Training states in which the form is locked. */
export const ACTIVE_STATES = new Set(["starting", "running", "pausing", "paused", "stopping"]);

/**
 * One card's run. `root` is the card (its data-state follows the state); `elements` holds its
 * form, start, pause, resume, stop, save, status, error and formError. `panel` is the card's
 * object: the form's submit calls panel.start(), the buttons panel.pause(), resume(), stop() and
 * save(). `client()` is the worker's client (its pause(), resume() and stop()); `render()` redraws
 * the card after a change of state; `runningText()` is the status line while training runs.
 * `openDetails`: a field in error inside a closed <details> opens it (both DQN cards). A panel
 * without pause(), resume() or stop() has the buttons call the run's own, Pause with
 * `pausedText(answer)` (see pause()).
 */
export class TrainingRun {
  #root;
  #elements;
  #client;
  #render;
  #runningText;
  #openDetails;
  #state = "idle";

  constructor(root, elements, { panel, client, render, runningText, openDetails = false, pausedText }) {
    this.#root = root;
    this.#elements = elements;
    this.#client = client;
    this.#render = render;
    this.#runningText = runningText;
    this.#openDetails = openDetails;
    elements.form.addEventListener("submit", (event) => {
      event.preventDefault();
      panel.start();
    });
    elements.form.addEventListener("input", (event) => event.target.removeAttribute?.("aria-invalid"));
    elements.pause.addEventListener("click", () => (panel.pause ? panel.pause() : this.pause(pausedText)));
    elements.resume.addEventListener("click", () => (panel.resume ? panel.resume() : this.resume()));
    elements.stop.addEventListener("click", () => (panel.stop ? panel.stop() : this.stop()));
    elements.save.addEventListener("click", () => panel.save());
  }

  /** "idle" | "starting" | "running" | "pausing" | "paused" | "stopping" | "stopped". */
  get state() {
    return this.#state;
  }

  /** Whether a run exists (the form is locked). */
  get active() {
    return ACTIVE_STATES.has(this.#state);
  }

  /** Whether the worker is busy with the run (not idle, not paused, not stopped). */
  get busy() {
    const state = this.#state;
    return state === "starting" || state === "running" || state === "pausing" || state === "stopping";
  }

  setState(state) {
    this.#state = state;
    this.#root.dataset.state = state;
    this.#render();
  }

  /** Start, Pause, Resume and Stop after the state; `canStart` and `canResume` add the card's own conditions. */
  renderButtons({ canStart = true, canResume = true } = {}) {
    const { start, pause, resume, stop } = this.#elements;
    const state = this.#state;
    start.disabled = this.active || !canStart;
    pause.disabled = state !== "running";
    resume.disabled = state !== "paused" || !canResume;
    stop.disabled = state !== "running" && state !== "paused";
  }

  setStatus(text) {
    this.#elements.status.textContent = text;
  }

  /** The run's controls after the state: the buttons, Save (when `saveable`), the form locked while a run exists. */
  renderForm({ saveable }) {
    const { save, form } = this.#elements;
    this.renderButtons();
    save.disabled = !saveable || this.#state === "starting" || this.#state === "stopping";
    for (const input of form.querySelectorAll("input, select")) input.disabled = this.active;
  }

  showError(message) {
    showAlert(this.#elements.error, message);
  }

  /** The form's error line; a FieldError's field is marked and focused. */
  showFormError(error) {
    // A field inside closed settings must be visible to be fixed.
    const details = this.#openDetails ? error.input?.closest("details") : null;
    if (details) details.open = true;
    showAlert(this.#elements.formError, error.message);
    markField(error);
  }

  clearErrors() {
    hideAlerts(this.#elements.error, this.#elements.formError);
  }

  /**
   * The settings for a new run, from readForm() (which throws a FieldError naming the field in
   * error); null while a run exists or when the form is wrong (its error line says why).
   */
  settings(readForm) {
    if (this.active) return null;
    this.clearErrors();
    try {
      return readForm();
    } catch (error) {
      this.showFormError(error);
      return null;
    }
  }

  /** A run begins: "starting", with this status. */
  begin(status) {
    this.setState("starting");
    this.setStatus(status);
  }

  /** The run stopped as asked: "stopped", with this status. */
  stopped(status) {
    this.setState("stopped");
    this.setStatus(status);
  }

  /** The run failed: "stopped" when it left a network (`kept`), else "idle"; the error line says why. */
  failed(error, kept) {
    this.setState(kept ? "stopped" : "idle");
    this.setStatus("");
    this.showError(error.message);
  }

  /**
   * Pauses after the running chunk. `pausedText(answer)` takes the worker's answer (the card keeps
   * what it needs of it) and returns the status for the pause.
   */
  async pause(pausedText) {
    if (this.#state !== "running") return;
    this.setState("pausing");
    this.setStatus("Pausing after this chunk…");
    try {
      const paused = await this.#client().pause();
      if (paused.state !== "paused") return; // stopped meanwhile: start() tells
      const status = pausedText(paused);
      this.setState("paused");
      this.setStatus(status);
    } catch (error) {
      this.showError(error.message);
    }
  }

  /** Goes on after a pause. */
  async resume() {
    if (this.#state !== "paused") return;
    try {
      await this.#client().resume();
      this.setState("running");
      this.setStatus(this.#runningText());
    } catch (error) {
      this.showError(error.message);
    }
  }

  /** Stops after the running chunk; the card's start() then reports the end. */
  async stop() {
    if (this.#state !== "running" && this.#state !== "paused") return;
    this.setState("stopping");
    this.setStatus("Stopping after this chunk…");
    try {
      await this.#client().stop();
    } catch (error) {
      this.showError(error.message);
    }
  }

  /**
   * Downloads the network: `file()` resolves to { bytes, name, type, details } (details: words
   * after the size in the status, such as ", 1,200 steps").
   */
  async save(file) {
    this.#elements.save.disabled = true;
    try {
      const { bytes, name, type, details = "" } = await file();
      downloadBytes(this.#root.ownerDocument, bytes, name, type);
      this.setStatus(`Saved ${name} (${megabytes(bytes.byteLength)}${details}). ${this.#state === "running" ? this.#runningText() : ""}`.trim());
    } catch (error) {
      this.showError(`Saving failed: ${error.message}`);
    } finally {
      this.#render();
    }
  }
}

// ---- the learning worker's runs ---------------------------------------------------------------------

const BACKEND_NAMES = { cpu: "CPU", webgpu: "WebGPU" };

/**
 * Where a run in the learning worker trains: `summary` (why the backend is what it is, in plain
 * words, for the status line), `note` (the same with its technical details: the worker's "backend"
 * message), `adapter` (the graphics card, as the browser names it), `backend` ("cpu" | "webgpu",
 * from "started"); empty before a run says.
 */
export class LearnBackend {
  summary = "";
  note = "";
  backend = "";
  adapter = "";

  reset() {
    this.summary = "";
    this.note = "";
    this.backend = "";
    this.adapter = "";
  }

  /** "CPU" or "WebGPU". */
  get name() {
    return BACKEND_NAMES[this.backend] ?? this.backend;
  }

  /** The "backend" message: how the backend was chosen, in plain words and in detail. */
  chosen(progress) {
    this.summary = progress.summary || progress.message;
    this.note = progress.message;
    this.adapter = progress.adapter ?? "";
  }

  /**
   * The "started" message: its backend into the card's statistics (`stats`' data-backend, the
   * backend's cell with the adapter as its title) and its parameter count into `paramsCell`.
   */
  started(progress, { stats, backendCell, paramsCell }) {
    this.backend = progress.backend;
    this.adapter = progress.adapter || this.adapter;
    stats.dataset.backend = progress.backend;
    backendCell.textContent = this.name;
    backendCell.title = progress.adapter ?? "";
    paramsCell.textContent = numberFormat.format(progress.numParams);
  }

  /**
   * The "fallback" message (WebGPU lost in the middle of a run, training goes on on the CPU): the
   * CPU from now on, and why, in the status line and in the card's statistics (`stats`' data-backend
   * and data-fell-back-at, the backend's cell).
   */
  fellBack(progress, { stats, backendCell }) {
    this.backend = "cpu";
    this.summary = progress.message;
    this.note = progress.message;
    stats.dataset.backend = "cpu";
    stats.dataset.fellBackAt = String(progress.fromStep);
    // The cell is narrow: the status line says why, and so does the cell's title.
    backendCell.textContent = "CPU";
    backendCell.title = progress.message;
  }

  /** The status while training runs: "SUMMARY Training on the graphics card (WebGPU)…LAST" ("the CPU"). */
  runningText(last) {
    const where = this.backend === "webgpu" ? "the graphics card (WebGPU)" : "the CPU";
    return `${this.summary ? `${this.summary} ` : ""}Training on ${where}…${last}`;
  }

  /** What the technical details say about the backend: the note and the graphics card, as lines. */
  get details() {
    return [this.note, this.adapter ? `Graphics card: ${this.adapter}.` : ""].filter(Boolean);
  }
}

// ---- getting a run ready ----------------------------------------------------------------------------

/**
 * The stages of a run's start in the learning worker, in the order they come: a label for the
 * list and what the status line says while it runs (the page's "download" and "prepare" from the
 * learning client, the worker's "setup" steps, "first" until the first chunk's report).
 */
const START_STAGES = {
  download: { label: "Download the learning code", doing: "downloading the learning code" },
  prepare: { label: "Prepare it for this browser", doing: "preparing the learning code for this browser" },
  check: { label: "Check the graphics card", doing: "checking that the graphics card (WebGPU) can train here" },
  network: { label: "Build the network", doing: "building the network" },
  timing: { label: "Time it on the CPU and the graphics card", doing: "timing a few training steps" },
  move: { label: "Move it to the graphics card", doing: "building the network again on the graphics card, the faster" },
  demonstrations: { label: "Record the demonstrations", doing: "recording the demonstrator's games" },
  first: { label: "Take the first training steps", doing: "taking the first training steps" },
};

/** How often the stage running now updates its seconds in the list and the status line. */
const START_TICK_MS = 250;

/**
 * A run's start, stage by stage (START_STAGES), in an ordered list (`list`: an <ol>, hidden until
 * begin()): each stage pending, running (with its seconds so far), done (with its time), skipped
 * or failed. `onTick(text)` gets the status line whenever it changes, at least once a second while
 * a stage runs. The card's data-start-stage (on `root`) names the stage running, for tests.
 */
export class GettingReady {
  #root;
  #list;
  #onTick;
  /** The stages of this start: { id, label, doing, detail (words after `doing`), state, began, ms, item }. */
  #stages = [];
  /** The index of the stage running (−1 before the first). */
  #current = -1;
  /** Whether the start is over (finished or failed): later stages are not entered. */
  #over = true;
  #timer = 0;
  #lastText = "";

  constructor(root, list, onTick) {
    this.#root = root;
    this.#list = list;
    this.#onTick = onTick;
  }

  /** Whether a start is under way. */
  get running() {
    return !this.#over;
  }

  /** A new start through the stages `ids` (START_STAGES' keys), the first of them running. */
  begin(ids) {
    clearInterval(this.#timer);
    this.#stages = ids.map((id) => this.#stage(id));
    this.#list.replaceChildren(...this.#stages.map(({ item }) => item));
    this.#list.hidden = false;
    this.#current = -1;
    this.#over = false;
    this.#lastText = "";
    this.#timer = setInterval(() => this.#render(), START_TICK_MS);
    this.enter(ids[0]);
  }

  /**
   * Stage `id` runs from now on, with `detail` (words after what it does: ": 1.2 MB of 3.4 MB
   * (35%)", " on the CPU"): the one running is done, the ones between it and `id` were skipped. A
   * stage that was not planned comes next; one already past is not entered again.
   */
  enter(id, detail = "") {
    if (this.#over) return;
    let index = this.#stages.findIndex((stage) => stage.id === id);
    if (index < 0) {
      index = this.#current + 1;
      const stage = this.#stage(id);
      this.#stages.splice(index, 0, stage);
      this.#list.insertBefore(stage.item, this.#stages[index + 1]?.item ?? null);
    }
    if (index < this.#current) return;
    if (index > this.#current) {
      const now = performance.now();
      this.#close("done", now);
      for (const stage of this.#stages.slice(this.#current + 1, index)) stage.state = "skipped";
      this.#current = index;
      Object.assign(this.#stages[index], { state: "running", began: now });
      this.#root.dataset.startStage = id;
    }
    this.#stages[index].detail = detail;
    this.#render();
  }

  /** Stage `id` is over, when it is the one running: the next one planned runs. */
  complete(id) {
    if (this.#over || this.#stages[this.#current]?.id !== id) return;
    const next = this.#stages[this.#current + 1];
    if (next) this.enter(next.id);
    else this.finish();
  }

  /** The start is over: the stage running is done, and the list goes. */
  finish() {
    if (this.#end("done")) this.#list.hidden = true;
  }

  /** The start failed in the stage running: it is marked so, and the list stays to show where. */
  fail() {
    if (this.#end("failed")) this.#render();
  }

  /** "Getting ready took 34 s: Download the learning code 1.2 s; …" once the start is over, else "". */
  get summary() {
    const done = this.#stages.filter(({ state }) => state === "done");
    if (!this.#over || !done.length) return "";
    const total = done.reduce((sum, { ms }) => sum + ms, 0);
    return `Getting ready took ${seconds(total)}: ${done.map(({ label, ms }) => `${label} ${seconds(ms)}`).join("; ")}.`;
  }

  /** The status line while a stage runs: "Getting ready to train (3 of 6): checking … 12 s", else "". */
  get text() {
    const stage = this.#over ? null : this.#stages[this.#current];
    if (!stage) return "";
    const elapsed = Math.floor((performance.now() - stage.began) / 1000);
    return `Getting ready to train (${this.#current + 1} of ${this.#stages.length}): ${stage.doing}${stage.detail}…${elapsed >= 1 ? ` ${elapsed} s` : ""}`;
  }

  /** A stage of START_STAGES, pending, with its list item. */
  #stage(id) {
    const { label, doing } = START_STAGES[id];
    const item = this.#list.ownerDocument.createElement("li");
    const [name, note] = ["step-label", "step-note"].map((className) => Object.assign(item.ownerDocument.createElement("span"), { className }));
    name.textContent = label;
    item.append(name, " ", note);
    item.dataset.step = id;
    return { id, label, doing, detail: "", state: "pending", began: 0, ms: 0, item };
  }

  /** Ends the stage running as `state` ("done" or "failed") at `now`. */
  #close(state, now) {
    const stage = this.#stages[this.#current];
    if (!stage) return;
    stage.state = state;
    stage.ms = now - stage.began;
  }

  /** Ends the start, the stage running as `state`; false when it was over already. */
  #end(state) {
    if (this.#over) return false;
    this.#close(state, performance.now());
    this.#over = true;
    clearInterval(this.#timer);
    delete this.#root.dataset.startStage;
    return true;
  }

  /** The list's items after their stages, and the status line when it changed. */
  #render() {
    const now = performance.now();
    for (const stage of this.#stages) {
      const { item, state } = stage;
      item.dataset.state = state;
      // A download says how far it is; another stage running, its seconds so far.
      const running = stage.id === "download" && stage.detail ? stage.detail.replace(/^: /, "") : `${Math.floor((now - stage.began) / 1000)} s`;
      const notes = { running, done: seconds(stage.ms), failed: "failed", skipped: "not needed", pending: "" };
      item.lastChild.textContent = notes[state];
    }
    const text = this.text;
    if (text && text !== this.#lastText) this.#onTick(text);
    this.#lastText = text;
  }
}

/** "0.4 s", "12 s". */
function seconds(ms) {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * A card's way to the page's learning client: a function that returns sharedLearnClient(), its
 * bundle download shown in `progress` the first time (showBundleDownload).
 */
export function cardLearnClient(progress, showError) {
  let learn = null;
  return () => (learn ??= showBundleDownload(sharedLearnClient(), progress, showError));
}

/**
 * Shows the learning bundle's download in a card's progress box ({ box, text, bar }) until the
 * worker is ready, and a failure to load it through showError(message); returns `learn`.
 */
export function showBundleDownload(learn, progress, showError) {
  const what = "Downloading the learning code";
  const preparing = "Preparing the learning code for this browser…";
  learn.addEventListener("bundle-progress", ({ detail }) => {
    if (detail.done) showProgress(progress, preparing, null);
    else showDownload(progress, what, detail.loaded, detail.total);
  });
  learn.ready.then(
    () => {
      const text = progress.text.textContent;
      if (text.startsWith(what) || text === preparing) hideProgress(progress);
    },
    (error) => {
      hideProgress(progress);
      showError(error.message);
    },
  );
  return learn;
}

/**
 * The run's part of a learning card's template, from the end of its form on: the form's error
 * line, the Train, Pause, Resume, Stop and Save buttons (Save's title `saveTitle`) and `buttons`
 * (HTML, more of the row), the end of the form, the download box, the status line, the stages of
 * the start (GettingReady's list, `PREFIX-getting-ready`), the technical details (a closed
 * <details>, `PREFIX-tech`, its lines in `PREFIX-tech-lines`), the error line, and the statistics
 * (`stats`: [id after "PREFIX-stat-", label HTML] each), ids starting with `prefix`.
 */
export function learnRunHtml(prefix, { saveTitle, stats, buttons: more = "" }) {
  const button = (id, label, extra = 'type="button" disabled') => `<button id="${prefix}-${id}" ${extra}>${label}</button>`;
  const buttons = [
    button("start", "Train", 'class="primary" type="submit"'),
    button("pause", "Pause"),
    button("resume", "Resume"),
    button("stop", "Stop"),
    button("save", "Save", `type="button" disabled title="${saveTitle}"`),
    ...(more ? [more] : []),
  ];
  const cells = stats.map(([id, label]) => `<div><dt>${label}</dt><dd id="${prefix}-stat-${id}">–</dd></div>`);
  return `<p id="${prefix}-form-error" class="error" role="alert" hidden></p>
  <div class="buttons">
    ${buttons.join("\n    ")}
  </div>
</form>
${downloadBoxHtml(prefix)}
<p id="${prefix}-status" class="status learn-status" role="status" aria-live="polite"></p>
<ol id="${prefix}-getting-ready" class="getting-ready" aria-label="Getting ready to train" hidden></ol>
<details id="${prefix}-tech" class="learn-tech" hidden>
  <summary>Technical details</summary>
  <ul id="${prefix}-tech-lines"></ul>
</details>
<p id="${prefix}-error" class="error" role="alert" hidden></p>
<dl id="${prefix}-stats" class="stats t2048-stats" data-steps="0" data-loss="" data-validations="0">
  ${cells.join("\n  ")}
</dl>`;
}

/** A card's download box (ids `PREFIX-progress`, `-progress-text`, `-progress-bar`), hidden. */
export function downloadBoxHtml(prefix) {
  return `<div id="${prefix}-progress" class="download-status" hidden>
  <p id="${prefix}-progress-text" role="status" aria-live="polite"></p>
  <progress id="${prefix}-progress-bar" max="1" aria-label="Download progress"></progress>
</div>`;
}

/** A backend choice (id `PREFIX-backend`): Auto (chosen), WebGPU or the CPU; backendHelpHtml() says what Auto does. */
export function backendFieldHtml(prefix) {
  const options = [["auto", "Auto"], ["webgpu", "WebGPU"], ["cpu", "CPU"]].map(([value, label]) => `<option value="${value}"${value === "auto" ? " selected" : ""}>${label}</option>`);
  return `<label class="field"><span class="field-label">Backend</span><select id="${prefix}-backend" aria-describedby="${prefix}-backend-help">${options.join("")}</select></label>`;
}

/** What the backend choice's Auto does (id `PREFIX-backend-help`). */
export function backendHelpHtml(prefix) {
  return `<p id="${prefix}-backend-help" class="help">
    Auto runs a small network on WebGPU and on the CPU; when the two agree it times this network on both and trains
    on the faster, saying both figures; otherwise it says why and trains on the CPU.
  </p>`;
}

/** The statistics every learning card shows first: steps, `episodes` ([id, label]), the TD loss, ε and speed. */
export function learnStats(episodes = ["episodes", "Episodes"]) {
  return [["steps", "Steps"], episodes, ["loss", "TD loss"], ["epsilon", 'Explore <span class="symbol">ε</span>'], ["speed", "Steps/s"]];
}
