// Page-side half of samegame/solver-worker.js: one worker, one job at a time, and a Cancel that
// returns at once by terminating the worker (a job is one call into wasm, which no message can
// interrupt); the next job starts a fresh worker. Used by the page (samegame/app.js) and the
// widget's dust and SameGame modes (samegame/widget-panel.js).

import { WorkerClient } from "../common/worker-protocol.js";

/** Thrown (as a rejection) by exact() and search() when the job was cancelled. */
export class SolveCancelled extends Error {
  constructor() {
    super("Cancelled");
    this.name = "SolveCancelled";
    this.cancelled = true;
  }
}

export class SameGameSolver {
  #client = null;
  /** The running job's reject, or null. */
  #reject = null;

  get busy() {
    return this.#reject !== null;
  }

  /**
   * The fewest clicks that clear board text `text` under `rules`, stopping after `seconds` (null:
   * no limit, until they are proved) with the best clearing found: { cells, optimal, lowerBound,
   * nodes, table, stopped, ms }.
   * onProgress({ nodes, depth, best, ms }) every 65,536 positions.
   */
  exact(rules, text, seconds, onProgress) {
    return this.#run({ type: "exact", rules, text, seconds }, onProgress);
  }

  /**
   * SameGame's best game from `text` in `seconds`: { cells, score, cleared, playouts, seconds }.
   * onProgress({ best, playouts, ms }) about every quarter of a second (best: the best game's
   * points so far).
   */
  search(rules, text, algo, seconds, seed, onProgress = null) {
    return this.#run({ type: "search", rules, text, algo, seconds, seed }, onProgress);
  }

  /** Stops the running job (it rejects with SolveCancelled) by ending its worker. */
  cancel() {
    const reject = this.#reject;
    this.#reject = null;
    this.#client?.dispose();
    this.#client = null;
    reject?.(new SolveCancelled());
  }

  dispose() {
    this.cancel();
  }

  #run(message, onProgress) {
    if (this.#reject) return Promise.reject(new Error("The solver is busy: cancel it first."));
    this.#client ??= new WorkerClient(new URL("./solver-worker.js", import.meta.url), { name: "solver worker" });
    const client = this.#client;
    return new Promise((resolve, reject) => {
      this.#reject = reject;
      client.ready
        .then(() => client.request(message, onProgress))
        .then(
          (result) => {
            if (this.#reject !== reject) return;
            this.#reject = null;
            resolve(result);
          },
          (error) => {
            if (this.#reject !== reject) return;
            this.#reject = null;
            reject(error);
          },
        );
    });
  }
}
