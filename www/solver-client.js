// Page-side half of the solver protocol (see solver-worker.js): one job at a time, live
// progress, and a cancel that always returns control quickly, by terminating the worker if it
// does not answer in time.

/** How long a cancel may wait for the worker to stop between chunks before it is terminated. */
const CANCEL_GRACE_MS = 500;

/** Thrown (as a rejection) by solve() when the job was cancelled. */
export class SolveCancelled extends Error {
  constructor() {
    super("Cancelled");
    this.name = "SolveCancelled";
  }
}

export class SolverClient {
  #workerUrl;
  #worker = null;
  #ready = null;
  #nextId = 1;
  /** { id, resolve, reject, onProgress, cancelTimer } of the running job, or null. */
  #job = null;

  /** `workerUrl` is for tests; the page uses solver-worker.js next to this file. */
  constructor(workerUrl = new URL("./solver-worker.js", import.meta.url)) {
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
   * Runs one job: request = { rows, cols, preset, start, goal, algorithm, heuristic, config? }.
   * Resolves to the result ({ status, moves, tiles, length, optimal, nodes, ms, … }); rejects with
   * SolveCancelled after cancel(), or with an Error carrying the solver's message.
   */
  solve(request, onProgress = () => {}) {
    if (this.#job) return Promise.reject(new Error("A solve is already running."));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#job = { id, resolve, reject, onProgress, cancelTimer: 0 };
      this.#worker.postMessage({ type: "solve", id, ...request });
    });
  }

  /** Asks the worker to stop; after CANCEL_GRACE_MS without an answer the worker is replaced. */
  cancel() {
    const job = this.#job;
    if (!job || job.cancelTimer) return;
    this.#worker.postMessage({ type: "cancel", id: job.id });
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
    const worker = new Worker(this.#workerUrl, { type: "module" });
    this.#worker = worker;
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
    if (message.type === "error" && message.id === null) {
      rejectReady(new Error(message.message));
      if (this.#job) this.#finish(this.#job, (entry) => entry.reject(new Error(message.message)));
      return;
    }
    const job = this.#job;
    if (!job || message.id !== job.id) return;
    switch (message.type) {
      case "progress":
        job.onProgress(message);
        break;
      case "result":
        this.#finish(job, (entry) => entry.resolve(message.result));
        break;
      case "cancelled":
        this.#finish(job, (entry) => entry.reject(new SolveCancelled()));
        break;
      case "error":
        this.#finish(job, (entry) => entry.reject(new Error(message.message)));
        break;
    }
  }

  #finish(job, settle) {
    clearTimeout(job.cancelTimer);
    if (this.#job === job) this.#job = null;
    settle(job);
  }
}
