// A bounded pool of solver workers, shared by everything on a page that solves: the page's own
// Solve button and every <puzzle-widget>. Each worker is a SolverClient (one job at a time);
// jobs wait in a queue while every worker is busy, and each can be cancelled through its
// AbortSignal, waiting or running. A goal's pattern databases are prepared on one worker, and a
// solve that needs them goes to that worker when it is free. The shipped database files are
// fetched once per page whichever worker asks (pdb-files.js).

import { SolveCancelled, SolverClient } from "./solver-client.js";

/** Workers one page runs at most: solving is CPU-bound, and each keeps its own wasm memory. */
export const MAX_WORKERS = 2;

/**
 * Events (on the pool, an EventTarget):
 *   "pdb"  detail: { goal, state, progress, partition, source, bytes, mirrored, message } of a 4×4
 *          goal's pattern databases (see solver-client.js); once one worker has them ready, the
 *          others' progress on the same goal is not reported over it.
 */
export class SolverPool extends EventTarget {
  #maxWorkers;
  #workerUrl;
  /** { client, job } per worker started; `job` is the running job or null. */
  #workers = [];
  /** Jobs waiting for a worker, oldest first: { request, onProgress, resolve, reject, worker }. */
  #queue = [];
  /** The worker that prepares (or keeps) each goal's pattern databases. */
  #preparedOn = new Map();
  /** Per goal: the latest "pdb" report of each worker, and the one last passed on. */
  #reports = new Map();
  #shownReports = new Map();

  /** `workerUrl` is for tests; the page uses solver-worker.js next to solver-client.js. */
  constructor({ maxWorkers = MAX_WORKERS, workerUrl } = {}) {
    super();
    this.#maxWorkers = Math.max(1, maxWorkers);
    this.#workerUrl = workerUrl;
  }

  /** Workers started so far (at most MAX_WORKERS). */
  get workerCount() {
    return this.#workers.length;
  }

  /** Resolves once a worker has loaded the wasm, starting the first worker if none runs yet. */
  get ready() {
    return (this.#workers[0] ?? this.#addWorker()).client.ready;
  }

  /** The latest "pdb" report passed on for a goal, or undefined. */
  patternDatabaseReport(goal) {
    return this.#shownReports.get(goal);
  }

  /**
   * Runs one job on the first free worker (see SolverClient.solve for `request` and the result).
   * `signal` (an AbortSignal) cancels it: a waiting job leaves the queue, a running one is
   * cancelled on its worker; either way the promise rejects with SolveCancelled.
   */
  solve(request, { onProgress = () => {}, signal } = {}) {
    if (signal?.aborted) return Promise.reject(new SolveCancelled());
    return new Promise((resolve, reject) => {
      const job = { request, onProgress, resolve, reject, worker: null, settled: false };
      signal?.addEventListener("abort", () => this.#cancel(job), { once: true });
      this.#queue.push(job);
      this.#dispatch();
    });
  }

  /**
   * Has a worker prepare a 4×4 goal's pattern databases in the background (the one that already
   * has them, when there is one); their state arrives as "pdb" events.
   */
  preparePatternDatabases({ rows, cols, goal }) {
    if (rows !== 4 || cols !== 4) return;
    let worker = this.#preparedOn.get(goal);
    if (!worker) {
      worker = this.#idleWorker() ?? this.#addWorker() ?? this.#workers[0];
      this.#preparedOn.set(goal, worker);
    }
    worker.client.preparePatternDatabases({ rows, cols, goal });
  }

  /** Stops every worker; waiting and running jobs reject with SolveCancelled. */
  dispose() {
    for (const job of this.#queue.splice(0)) this.#settle(job, job.reject, new SolveCancelled());
    for (const worker of this.#workers) worker.client.dispose();
    this.#workers = [];
    this.#preparedOn.clear();
  }

  #dispatch() {
    while (this.#queue.length > 0) {
      const job = this.#queue[0];
      const goal = job.request.heuristic === "pdb" ? job.request.goal : null;
      const keeper = goal === null ? null : this.#preparedOn.get(goal);
      const worker = (keeper && !keeper.job ? keeper : null) ?? this.#idleWorker() ?? this.#addWorker();
      if (!worker) return;
      this.#queue.shift();
      if (goal !== null && !keeper) this.#preparedOn.set(goal, worker);
      job.worker = worker;
      worker.job = job;
      // The worker is free again before the caller hears of the result, so that a job the caller
      // starts in response does not find every worker busy.
      const release = () => {
        if (worker.job === job) worker.job = null;
      };
      worker.client.solve(job.request, job.onProgress).then(
        (result) => {
          release();
          this.#settle(job, job.resolve, result);
          this.#dispatch();
        },
        (error) => {
          release();
          this.#settle(job, job.reject, error);
          this.#dispatch();
        },
      );
    }
  }

  #cancel(job) {
    if (job.settled) return;
    const waiting = this.#queue.indexOf(job);
    if (waiting >= 0) {
      this.#queue.splice(waiting, 1);
      this.#settle(job, job.reject, new SolveCancelled());
    } else if (job.worker?.job === job) {
      job.worker.client.cancel();
    }
  }

  #settle(job, settle, value) {
    if (job.settled) return;
    job.settled = true;
    settle(value);
  }

  #idleWorker() {
    return this.#workers.find((worker) => worker.job === null) ?? null;
  }

  /** Starts another worker, or returns null at the limit. */
  #addWorker() {
    if (this.#workers.length >= this.#maxWorkers) return null;
    const worker = { client: new SolverClient(this.#workerUrl), job: null };
    worker.client.addEventListener("pdb", (event) => this.#onReport(worker, event.detail));
    this.#workers.push(worker);
    return worker;
  }

  #onReport(worker, detail) {
    let byWorker = this.#reports.get(detail.goal);
    if (!byWorker) this.#reports.set(detail.goal, (byWorker = new Map()));
    byWorker.set(worker, detail);
    const ready = detail.state === "ready" ? detail : [...byWorker.values()].find((report) => report.state === "ready");
    const shown = ready ?? detail;
    if (shown === this.#shownReports.get(detail.goal)) return;
    this.#shownReports.set(detail.goal, shown);
    this.dispatchEvent(new CustomEvent("pdb", { detail: shown }));
  }
}

let shared = null;

/** The page's pool: one per page (per realm), made on first use. */
export function sharedSolverPool() {
  shared ??= new SolverPool();
  return shared;
}
