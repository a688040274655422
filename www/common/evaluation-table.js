// The evaluation part the 2048 page's training cards share (2048/train-panel.js evaluates n-tuple
// agents, 2048/dqn-panel.js Mehta's DQN): one evaluation over seeded games at a time, with
// "Preparing…" and then "N of M games" in a progress box, a Cancel that stops it after the
// current game, a status and an error line, and a table of results, newest first, whose rows keep
// their report (data-report) and whose data-rows counts them; an evaluation made elsewhere (a
// shipped model's manifest) is shown the same way. What is evaluated, and what its row and its
// sentence say, stay in the card.

import { duration, hideAlerts, hideProgress, markField, showAlert, showDownload, showProgress } from "./card-helpers.js";
import { numberFormat } from "./number-format.js";


/**
 * The progress box, status and error lines and results table of a card whose ids start with
 * `prefix`; `columns` are the table's headings (the first names the row).
 */
export function evaluationResultsHtml(prefix, columns) {
  return `<div id="${prefix}-eval-progress" class="download-status" hidden>
  <p id="${prefix}-eval-progress-text" role="status" aria-live="polite"></p>
  <progress id="${prefix}-eval-progress-bar" max="1" aria-label="Evaluation progress"></progress>
</div>
<p id="${prefix}-eval-status" class="status" role="status" aria-live="polite"></p>
<p id="${prefix}-eval-error" class="error" role="alert" hidden></p>
<div class="t2048-table-scroll">
  <table id="${prefix}-eval-table" class="t2048-table" data-rows="0">
    <caption class="visually-hidden">Evaluations, newest first</caption>
    <thead>
      <tr>
        ${columns.map((column) => `<th scope="col">${column}</th>`).join("\n        ")}
      </tr>
    </thead>
    <tbody><tr class="t2048-empty"><td colspan="${columns.length}">No evaluation yet.</td></tr></tbody>
  </table>
</div>`;
}

/** The ids (after the card's prefix) of what evaluationResultsHtml writes, with the Evaluate and Cancel buttons. */
export const EVALUATION_IDS = ["evaluate", "eval-cancel", "eval-progress", "eval-progress-text", "eval-progress-bar", "eval-status", "eval-error", "eval-table"];

/**
 * A card's evaluations. `elements` holds evalStatus, evalError, evalProgress, evalProgressText,
 * evalProgressBar and evalTable; `render()` redraws the card when an evaluation starts, gets its
 * request and ends.
 */
export class EvaluationTable {
  #elements;
  #render;
  #progress;
  /**
   * The running evaluation: { request (the worker's promise, with its id, once sent), cancelled
   * (cancel()'s cancelRequest, once Cancel was pressed) }, or null.
   */
  #job = null;
  #reports = [];

  constructor(elements, { render }) {
    this.#elements = elements;
    this.#render = render;
    this.#progress = { box: elements.evalProgress, text: elements.evalProgressText, bar: elements.evalProgressBar };
  }

  /** Whether an evaluation runs. */
  get running() {
    return Boolean(this.#job);
  }

  /** Whether the running evaluation has reached the worker (Cancel can stop it). */
  get cancellable() {
    return Boolean(this.#job?.request);
  }

  /** The evaluations so far, oldest first (as play() gave them). */
  get reports() {
    return [...this.#reports];
  }

  setStatus(text) {
    this.#elements.evalStatus.textContent = text;
  }

  showError(message) {
    showAlert(this.#elements.evalError, message);
  }

  /** Empties the error and status lines. */
  clear() {
    hideAlerts(this.#elements.evalError);
    this.setStatus("");
  }

  showProgress(text, fraction) {
    showProgress(this.#progress, text, fraction);
  }

  /** A download the evaluation waits for, in its progress box (see card-helpers.js showDownload). */
  showDownload(what, loaded, total) {
    showDownload(this.#progress, what, loaded, total);
  }

  /**
   * Runs one evaluation (none while one runs). `read()` reads the form (a FieldError marks its
   * field). `play(options, { request, progress, elapsed })` evaluates: it passes the worker's
   * promise through request(promise) (for Cancel), reports games through progress(done, total),
   * and resolves to { report (the row's data-report), entry (kept in `reports`; default report),
   * cells (the row's texts, the first naming it), status (the sentence after it; elapsed() is
   * "420 ms" since the start) }. `cancelledText(error)` is the status for an evaluation that was
   * cancelled, or null for any other error (shown in the error line).
   */
  async run({ read, play, cancelledText }) {
    if (this.#job) return;
    this.clear();
    let options;
    try {
      options = read();
    } catch (error) {
      this.showError(error.message);
      markField(error);
      return;
    }
    const started = performance.now();
    const job = { request: null };
    this.#job = job;
    this.showProgress("Preparing…", null);
    this.#render();
    try {
      const shown = await play(options, {
        request: (promise) => {
          job.request = promise;
          job.cancelled?.(promise.id).catch(() => {});
          this.#render();
          return promise;
        },
        progress: (done, total) => this.showProgress(`${numberFormat.format(done)} of ${numberFormat.format(total)} games`, total ? done / total : 0),
        elapsed: () => duration(performance.now() - started),
      });
      this.#job = null;
      this.show(shown);
    } catch (error) {
      const cancelled = cancelledText(error);
      if (cancelled === null) this.showError(error.message);
      else this.setStatus(cancelled);
    } finally {
      this.#job = null;
      hideProgress(this.#progress);
      this.#render();
    }
  }

  /**
   * Shows an evaluation made elsewhere (a shipped model's, read from its manifest) as run() shows
   * one: { report, entry, cells, status }.
   */
  show({ report, entry = report, cells, status }) {
    this.#reports.push(entry);
    this.#addRow(cells, report);
    this.setStatus(status);
    this.#render();
  }

  /**
   * Cancels the running evaluation through cancelRequest(id) (it stops after its current game); a
   * request it sends after this (Minesweeper's solver, after its model) is cancelled as it is sent.
   */
  async cancel(cancelRequest) {
    const job = this.#job;
    const id = job?.request?.id;
    if (id === null || id === undefined) return;
    job.cancelled = cancelRequest;
    await cancelRequest(id).catch(() => {});
  }

  /** A row on top of the table: `cells` (the first as the row's heading), `report` as its data-report. */
  #addRow(cells, report) {
    const table = this.#elements.evalTable;
    const document = table.ownerDocument;
    const body = table.tBodies[0];
    body.querySelector(".t2048-empty")?.remove();
    const row = document.createElement("tr");
    for (const [index, text] of cells.entries()) {
      const cell = document.createElement(index === 0 ? "th" : "td");
      if (index === 0) cell.scope = "row";
      cell.textContent = text;
      row.append(cell);
    }
    row.dataset.report = JSON.stringify(report);
    body.prepend(row);
    table.dataset.rows = String(body.rows.length);
  }
}
