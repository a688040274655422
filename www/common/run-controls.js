// A training card's run as the page sees it, the same on every training card (2048/train-panel.js,
// 2048/dqn-panel.js, train-panel.js): the state (idle → starting → running ⇄ pausing → paused …
// stopping → stopped), mirrored in the card's data-state; the Start / Pause / Resume / Stop / Save
// buttons; the status line and the two error lines (the form's and the card's); and Pause, Resume,
// Stop and Save, which the worker carries out between two chunks. What a card trains, what its
// worker reports and what it says about it stay in the card.
//
// For the cards that train in the learning worker (learn-client.js): LearnBackend (where a run
// trains, as the worker's "backend" and "started" messages tell) and showBundleDownload.

import { downloadBytes, hideAlerts, hideProgress, markField, megabytes, showAlert, showDownload } from "./card-helpers.js";
import { sharedLearnClient } from "./learn-client.js";

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

const numberFormat = new Intl.NumberFormat("en");
const BACKEND_NAMES = { cpu: "CPU", webgpu: "WebGPU" };

/**
 * Where a run in the learning worker trains: `note` (why the backend is what it is, from the
 * "backend" message: "WebGPU unavailable: …"), `backend` ("cpu" | "webgpu") and `adapter` (from
 * "started"); empty before a run says.
 */
export class LearnBackend {
  note = "";
  backend = "";
  adapter = "";

  reset() {
    this.note = "";
    this.backend = "";
    this.adapter = "";
  }

  /** "CPU" or "WebGPU". */
  get name() {
    return BACKEND_NAMES[this.backend] ?? this.backend;
  }

  /**
   * The "started" message: its backend into the card's statistics (`stats`' data-backend, the
   * backend's cell with the adapter as its title) and its parameter count into `paramsCell`.
   */
  started(progress, { stats, backendCell, paramsCell }) {
    this.backend = progress.backend;
    this.adapter = progress.adapter ?? "";
    stats.dataset.backend = progress.backend;
    backendCell.textContent = this.name;
    backendCell.title = this.adapter;
    paramsCell.textContent = numberFormat.format(progress.numParams);
  }

  /**
   * The "fallback" message (WebGPU lost in the middle of a run, training goes on on the CPU): the
   * CPU from now on, and why, as the note and in the card's statistics (`stats`' data-backend and
   * data-fell-back-at, the backend's cell).
   */
  fellBack(progress, { stats, backendCell }) {
    this.backend = "cpu";
    this.adapter = "";
    this.note = progress.message;
    stats.dataset.backend = "cpu";
    stats.dataset.fellBackAt = String(progress.fromStep);
    // The cell is narrow: the status line says why, and so does the cell's title.
    backendCell.textContent = "CPU";
    backendCell.title = progress.message;
  }

  /** The status while training runs: "NOTE Training on WebGPU (ADAPTER)…LAST" ("the CPU"). */
  runningText(last) {
    const where = this.backend === "webgpu" ? `WebGPU${this.adapter ? ` (${this.adapter})` : ""}` : "the CPU";
    return `${this.note ? `${this.note} ` : ""}Training on ${where}…${last}`;
  }
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
  const what = "Loading the learning module";
  learn.addEventListener("bundle-progress", ({ detail }) => showDownload(progress, what, detail.loaded, detail.total));
  learn.ready.then(
    () => {
      if (progress.text.textContent.startsWith(what)) hideProgress(progress);
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
 * (HTML, more of the row), the end of the form, the download box, the status and error lines, and
 * the statistics (`stats`: [id after "PREFIX-stat-", label HTML] each), ids starting with `prefix`.
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
