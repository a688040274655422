// Page-side half of the solver protocol (see solver-worker.js): one worker, one job at a time,
// live progress, the state of the 15-puzzle's pattern databases (the shipped files are fetched
// here, once per page, and handed to the worker that asks), and a cancel that always returns
// control quickly, by terminating the worker if it does not answer in time. solver-pool.js shares
// a few of these among everything on a page that solves.

import { isCancelled, startModuleWorker } from "../common/worker-protocol.js";
import { shippedDatabaseFile } from "./pdb-files.js";

/** How long a cancel may wait for the worker to stop between chunks before it is terminated. */
const CANCEL_GRACE_MS = 500;

/** States of the worker's "pdb" reports during which it may be busy preparing them. */
const PREPARING_STATES = new Set(["downloading", "decoding", "building"]);

/** Thrown (as a rejection) by solve() when the job was cancelled. */
export class SolveCancelled extends Error {
  constructor() {
    super("Cancelled");
    this.name = "SolveCancelled";
  }
}

/**
 * Events (on the client, an EventTarget):
 *   "pdb"  detail: { goal, state, progress, partition, source, bytes, mirrored, message } about the
 *          pattern databases of a 4×4 goal: "downloading" while this client fetches the shipped
 *          file for its worker, then the worker's own reports (see solver-worker.js)
 */
export class SolverClient extends EventTarget {
  #workerUrl;
  #worker = null;
  #ready = null;
  #nextId = 1;
  /**
   * { id, resolve, reject, onProgress, cancelTimer, waiting } of the running job, or null.
   * `waiting` is true while the job may wait for pattern databases being prepared.
   */
  #job = null;
  /** The last prepare-pdb request, sent again to a replacement worker. */
  #preparing = null;
  /** The state of the pattern databases per goal text, as the current worker last reported it. */
  #pdbStates = new Map();

  /** `workerUrl` is for tests; the page uses solver-worker.js next to this file. */
  constructor(workerUrl = new URL("./solver-worker.js", import.meta.url)) {
    super();
    this.#workerUrl = workerUrl;
    this.#start();
  }

  /** Resolves once the worker has loaded the wasm. */
  get ready() {
    return this.#ready;
  }

  get busy() {
    return this.#job !== null;
  }

  /**
   * Runs one job: request = { rows, cols, preset, start, goal, algorithm, heuristic, weight?,
   * config? } (heuristic "pdb": IDA* with pattern databases, 4×4 only).
   * Resolves to the result ({ status, moves, tiles, length, optimal, lower_bound, weight, nodes,
   * ms, … }); rejects with SolveCancelled after cancel(), or with an Error carrying the solver's
   * message. onProgress receives { nodes, ms }, { episodes, ms } or { waiting: "pdb", ms }.
   */
  solve(request, onProgress = () => {}) {
    if (this.#job) return Promise.reject(new Error("A solve is already running."));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const waiting = request.heuristic === "pdb" && this.#pdbStates.get(request.goal) !== "ready";
      this.#job = { id, resolve, reject, onProgress, cancelTimer: 0, waiting };
      this.#worker.postMessage({ type: "solve", id, ...request });
    });
  }

  /**
   * Has the worker prepare the pattern databases of a 4×4 goal in the background (or repeat
   * their state when it keeps them); the state arrives as "pdb" events.
   */
  preparePatternDatabases({ rows, cols, goal }) {
    this.#preparing = { type: "prepare-pdb", rows, cols, goal };
    this.#worker?.postMessage(this.#preparing);
  }

  /**
   * Asks the worker to stop; after CANCEL_GRACE_MS without an answer the worker is replaced.
   * While pattern databases are being prepared the job ends at once instead: decoding or
   * building them keeps the worker from reading messages for a second or so, and they are worth
   * keeping, so the worker is left to finish them. It drops the job when it reads the cancel,
   * before any later solve.
   */
  cancel() {
    const job = this.#job;
    if (!job || job.cancelTimer) return;
    this.#worker.postMessage({ type: "cancel", id: job.id });
    const preparing = [...this.#pdbStates.values()].some((state) => PREPARING_STATES.has(state));
    if (job.waiting || preparing) {
      this.#finish(job, (entry) => entry.reject(new SolveCancelled()));
      return;
    }
    job.cancelTimer = setTimeout(() => {
      if (this.#job !== job) return;
      this.#worker.terminate();
      this.#start();
      this.#finish(job, (entry) => entry.reject(new SolveCancelled()));
    }, CANCEL_GRACE_MS);
  }

  /** Stops the worker for good. */
  dispose() {
    if (this.#job) this.#finish(this.#job, (entry) => entry.reject(new SolveCancelled()));
    this.#worker?.terminate();
    this.#worker = null;
  }

  #start() {
    const worker = startModuleWorker(this.#workerUrl);
    this.#worker = worker;
    this.#pdbStates.clear();
    if (this.#preparing) worker.postMessage(this.#preparing);
    this.#ready = new Promise((resolve, reject) => {
      worker.addEventListener("message", (event) => this.#onMessage(event.data, resolve, reject));
    });
    this.#ready.catch(() => {});
    worker.addEventListener("error", (event) => {
      event.preventDefault?.();
      const message = event.message || "The solver worker failed to start.";
      if (this.#job) this.#finish(this.#job, (entry) => entry.reject(new Error(message)));
    });
  }

  #onMessage(message, resolveReady, rejectReady) {
    if (message.type === "ready") {
      resolveReady();
      return;
    }
    if (message.type === "pdb") {
      this.#report(message);
      return;
    }
    if (message.type === "pdb-request") {
      this.#sendShippedFile(message.goal);
      return;
    }
    if (message.type === "error" && message.id === null) {
      rejectReady(new Error(message.message));
      if (this.#job) this.#finish(this.#job, (entry) => entry.reject(new Error(message.message)));
      return;
    }
    const job = this.#job;
    if (!job || message.id !== job.id) return;
    switch (message.type) {
      case "progress":
        job.waiting = message.waiting === "pdb";
        job.onProgress(message);
        break;
      case "result":
        this.#finish(job, (entry) => entry.resolve(message.result));
        break;
      case "error":
        // A cancel is answered at once, as an error that says so.
        this.#finish(job, (entry) => entry.reject(isCancelled(message) ? new SolveCancelled() : new Error(message.message)));
        break;
    }
  }

  /** Records the state of a goal's databases and tells the listeners. */
  #report(detail) {
    this.#pdbStates.set(detail.goal, detail.state);
    this.dispatchEvent(new CustomEvent("pdb", { detail }));
  }

  /** Answers the worker's "pdb-request": the goal's shipped file (fetched once per page), or why there is none. */
  async #sendShippedFile(goal) {
    const worker = this.#worker;
    let percent = -1;
    const answer = await shippedDatabaseFile(goal, ({ fraction, partition, size }) => {
      // Whole percents only: a fast download would otherwise flood the listeners.
      if (this.#worker !== worker || Math.floor(fraction * 100) <= percent) return;
      percent = Math.floor(fraction * 100);
      const state = { goal, state: "downloading", progress: fraction, partition, source: "shipped", bytes: size };
      this.#report({ ...state, mirrored: null, message: "" });
    });
    // A worker replaced meanwhile asks again for itself.
    if (this.#worker === worker) worker.postMessage({ type: "pdb-bytes", goal, ...answer });
  }

  #finish(job, settle) {
    clearTimeout(job.cancelTimer);
    if (this.#job === job) this.#job = null;
    settle(job);
  }
}
