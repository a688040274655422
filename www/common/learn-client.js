// Page-side half of the learning protocol (see learn-worker.js): promises around one learning
// worker. Nothing heavy happens until it is needed: importing this module starts nothing, and
// the worker — which downloads the several-MB learning bundle — starts with the first call to
// sharedLearnClient(), that is when a person first uses a learning feature (the deep Q-learning
// panel, or a <puzzle-widget solver="dqn">). The page and every widget share that one worker.

import { byId, wwwUrl } from "./puzzles.js";
import { formatNumber } from "./number-format.js";
import { WorkerClient } from "./worker-protocol.js";

/**
 * The key under which the worker keeps a puzzle's network being trained, as a model (on pause,
 * stop, evaluations and checkpoints): the registry's `learner.trainedKey` (puzzles.js).
 */
export function trainedModelKey(puzzle) {
  const key = byId(puzzle)?.learner?.trainedKey;
  if (!key) throw new Error(`"${puzzle}" is no learnable puzzle of the registry`);
  return key;
}

/** Key of the sliding-puzzle network being trained, as a model. */
export const TRAINED_MODEL = trainedModelKey("sliding");
/** Key of the model file a person loaded from their disk. */
export const FILE_MODEL = "file";
/** Key of the 2048 network being trained, as a model. */
export const TRAINED_2048_MODEL = trainedModelKey("2048");
/** Key of the Minesweeper network being trained, as a model. */
export const TRAINED_MINESWEEPER_MODEL = trainedModelKey("minesweeper");
/** Key of the Sudoku network being trained, as a model. */
export const TRAINED_SUDOKU_MODEL = trainedModelKey("sudoku");
/** Key of the dust network being trained, as a model. */
export const TRAINED_DUST_MODEL = trainedModelKey("dust");

/**
 * `ready` resolves once the worker has loaded the learning bundle, and rejects with why it could
 * not; `bundle` says how far the loading is; pause(), resume(), stop() and dispose() are
 * WorkerClient's (pause and stop resolve to { state, report, model }). Events (on the client, an
 * EventTarget):
 *   "bundle-progress"  detail { loaded, total, done }: the learning bundle downloading (total 0:
 *                      unknown; done: the last byte is in, the worker prepares it until `ready`)
 */
export class LearnClient extends WorkerClient {
  /** The learning bundle in the current worker: { loaded, total, done (downloaded), ready }. */
  #bundle = { loaded: 0, total: 0, done: false, ready: false };
  /** Models fetched by URL: key → { promise, listeners (onProgress callbacks) }. */
  #fetched = new Map();
  /**
   * The last checkpoint of each trained network the worker sent ({ stage: "checkpoint" }): key →
   * { key, puzzle, steps, backend, bytes }, so that a worker crash loses none of them.
   */
  #checkpoints = new Map();
  /** The newest checkpoint when the worker last crashed (what save() hands back then), or null. */
  #keptAfterCrash = null;

  /** `workerUrl` is for tests; the page uses learn-worker.js next to this file. */
  constructor(workerUrl = new URL("./learn-worker.js", import.meta.url)) {
    super(workerUrl, {
      name: "learning worker",
      readyValue: () => {
        this.#bundle.ready = true;
      },
      onBroadcast: (message) => {
        if (message.type === "progress" && message.stage === "bundle") {
          const { loaded, total, done } = message;
          Object.assign(this.#bundle, { loaded, total, done });
          this.dispatchEvent(new CustomEvent("bundle-progress", { detail: { loaded, total, done } }));
        }
      },
      onRequestProgress: (message) => {
        if (message.stage !== "checkpoint") return;
        const { key, puzzle, steps, backend, bytes } = message;
        this.#checkpoints.delete(key);
        this.#checkpoints.set(key, { key, puzzle, steps, backend, bytes });
      },
      restartAfterCrash: true,
      crashMessage: (message) => {
        const kept = [...this.#checkpoints.values()].at(-1);
        const steps = kept ? formatNumber(kept.steps) : "";
        return (
          `The learning worker crashed (${message}). ` +
          (kept ? `The network trained here is kept as it was at step ${steps}: Save downloads it, and it still plays. ` : "") +
          "Train starts a new run."
        );
      },
    });
    // The new worker gets back what the crashed one held for the page: the trained networks.
    this.addEventListener("crashed", () => {
      this.#bundle = { loaded: 0, total: 0, done: false, ready: false };
      const fetched = [...this.#fetched.entries()];
      this.#fetched.clear();
      for (const [key, { url, puzzle }] of fetched) this.loadModelUrl(url, { key, puzzle }).catch(() => {});
      this.#keptAfterCrash = [...this.#checkpoints.values()].at(-1) ?? null;
      for (const { key, puzzle, bytes } of this.#checkpoints.values()) {
        this.request({ type: "load-model", key, bytes: bytes.slice(), name: "the last checkpoint", puzzle }).catch(() => {});
      }
    });
  }

  /** How far the worker has loaded the learning bundle: { loaded, total (0: unknown), done (downloaded), ready }. */
  get bundle() {
    return { ...this.#bundle };
  }

  /**
   * Fetches the model file at `url` in the worker (once per client: later calls share the first
   * download) and keeps it under `key` (default: the URL) as a model of `puzzle` (a learnable
   * puzzle's id in the registry, puzzles.js: there is no default). Resolves to { key, info, size,
   * ms, downloadMs } (info: the puzzle's model class's info()); onProgress({ loaded, total })
   * follows the download. A file of another puzzle is refused with a sentence naming its page.
   */
  loadModelUrl(url, { key = String(url), onProgress, puzzle } = {}) {
    const href = String(url);
    let entry = this.#fetched.get(key);
    if (!entry || entry.url !== href) {
      const listeners = new Set();
      const promise = this.request({ type: "load-model", key, url: href, puzzle }, (progress) => listeners.forEach((listener) => listener(progress)));
      entry = { url: href, puzzle, promise, listeners };
      this.#fetched.set(key, entry);
      promise.then(
        () => listeners.clear(),
        () => this.#fetched.get(key) === entry && this.#fetched.delete(key),
      );
    }
    if (onProgress) entry.listeners.add(onProgress);
    return entry.promise;
  }

  /**
   * Reads a model file's bytes (a Uint8Array or ArrayBuffer) in the worker and keeps it under
   * `key` (default FILE_MODEL) as a model of `puzzle` (as for loadModelUrl: no default); `name` is
   * used in the error for a damaged file. Resolves as loadModelUrl does.
   */
  loadModelBytes(bytes, { key = FILE_MODEL, name = "", puzzle } = {}) {
    this.#fetched.delete(key);
    return this.request({ type: "load-model", key, bytes, name, puzzle });
  }

  /**
   * Starts training a network of `puzzle` (a learnable puzzle's id in the registry; no default):
   * { puzzle, options (its trainer's create's), backend ("auto" | "webgpu" | "cpu"), continueFrom
   * (a model key, optional), and the puzzle's own fields (see learn-worker.js's protocol; sliding
   * puzzles: rows, cols, goal (text, "" = standard)) }. onProgress gets the worker's progress
   * messages: { stage: "backend", message }, { stage: "started", backend, adapter, numParams },
   * { stage: "chunk", report, chunkSteps }, … Resolves when training stops, to { stopped, report,
   * backend, model }.
   */
  train({ puzzle, options = {}, backend = "auto", continueFrom = null, ...fields }, { onProgress } = {}) {
    return this.request({ type: "train", ...fields, puzzle, options, backend, continueFrom }, onProgress);
  }

  // ---- a kept model of any learnable puzzle (LearnedModel; the puzzle's jobs module, puzzles.js) ----

  /**
   * The model kept under `key`, of `puzzle` (a registry id), plays `request`, its puzzle's position
   * (LearnedModel.play: sliding { cells, rows, cols, goal, method?, … } → its solve report; 2048
   * { exponents } → { move, values }; Minesweeper { width, height, mines, cells } → { cell, values };
   * Sudoku { grid } → { outcome, moves, firstMistake, solution }; dust { board } → { clicks, cells,
   * values, after, cleared }). Resolves to { key, info, ...the answer }; rejects, saying why, for a
   * model of another puzzle or a position it cannot play (a sliding board of another size or goal).
   */
  play(key, puzzle, request) {
    return this.request({ type: "play-model", key, puzzle, request });
  }

  /**
   * Evaluates the model kept under `key`, of `puzzle`, on `request`, its puzzle's evaluation
   * (LearnedModel.startEvaluation: sliding { perDistance, seed, … }; 2048 and dust { games |
   * boards, seed }; Minesweeper { width, height, mines, rule, firstCell, games, seed }; Sudoku
   * { perBin, seed, givens }), a batch at a time: onProgress gets { stage: "evaluate", done, total }.
   * Resolves to { key, info, evaluation (the learner's report), ms }; the promise's `id` is for
   * cancelEvaluation().
   */
  evaluate(key, puzzle, request, { onProgress } = {}) {
    return this.request({ type: "evaluate-model", key, puzzle, request }, onProgress);
  }

  /** Stops the evaluation whose promise has this `id` after its current batch (it rejects, saying so). */
  cancelEvaluation(id) {
    return this.request({ type: "cancel-evaluation", job: id });
  }

  /** The trained network as a model file: resolves to { bytes (Uint8Array), steps, backend }. */
  async save() {
    try {
      const saved = await this.request({ type: "save" });
      this.#keptAfterCrash = null;
      return saved;
    } catch (error) {
      // After a crash the new worker has no run: the network as its last checkpoint kept it.
      const kept = this.#keptAfterCrash;
      if (!kept) throw error;
      return { bytes: kept.bytes.slice(), steps: kept.steps, backend: kept.backend };
    }
  }

  /** Loads a model file's weights into the paused trainer; resolves to { model } (its info). */
  loadWeights(bytes) {
    return this.request({ type: "load-weights", bytes });
  }

  /**
   * Runs the same small network on the CPU and on WebGPU (forward, backward, `adamSteps` Adam
   * steps): resolves to { cpu, webgpu, maxDifference, outputsDifference, gradientsDifference,
   * finite, ms, adapter, products, tiled }; rejects when WebGPU cannot be used, saying why.
   * `products`: WebGPU's matrix products by the kernel its set-up raced ("race"), or by cubek's
   * tiled kernel ("tiled") or burn's default ("default") for this probe only.
   */
  probe(adamSteps = 3, products = "race") {
    return this.request({ type: "probe", adamSteps, products });
  }

  /**
   * Keeps the trained network as it is now as a model under `key` (default: the run's own, its
   * puzzle's trainedModelKey); resolves to { key, info, steps }.
   */
  snapshot(key) {
    return this.request({ type: "snapshot", key });
  }
}

let shared = null;

/** The page's learning client: one per page (per realm); the first call starts the worker. */
export function sharedLearnClient() {
  shared ??= new LearnClient();
  return shared;
}

/** The shipped sliding-puzzle models' index (www/models/dqn-index.json: the registry's `shippedIndex`). */
export const DQN_INDEX_URL = wwwUrl(byId("sliding").learner.shippedIndex);
const DQN_INDEX_VERSION = 1;
let shippedIndex = null;

/**
 * The shipped models: [{ name, file, manifest, size, goal, title, bytes, url, manifestUrl }]
 * (url and manifestUrl absolute). Fetched once per page; a failure is forgotten so a later call
 * tries again. This is a small JSON file: it never starts the worker.
 */
export function shippedModels() {
  shippedIndex ??= fetch(DQN_INDEX_URL)
    .then(async (response) => {
      if (!response.ok) throw new Error(`the model index answered HTTP ${response.status}`);
      const index = await response.json();
      if (index?.version !== DQN_INDEX_VERSION) throw new Error(`the model index has version ${index?.version}, not ${DQN_INDEX_VERSION}`);
      if (!Array.isArray(index.models)) throw new Error("the model index has no list of models");
      // Entries without a file, a size and a goal as text are left out.
      const usable = (model) => typeof model?.file === "string" && typeof model.size === "string" && typeof model.goal === "string";
      return index.models.filter(usable).map((model) => ({
        ...model,
        title: typeof model.title === "string" ? model.title : model.file,
        url: new URL(model.file, DQN_INDEX_URL).href,
        manifestUrl: typeof model.manifest === "string" ? new URL(model.manifest, DQN_INDEX_URL).href : null,
      }));
    })
    .catch((error) => {
      shippedIndex = null;
      throw error;
    });
  return shippedIndex;
}

/** Labels of a goal written as text ("1,2,3,8,_,4,7,6,5"; "_" or 0 is the blank). */
function goalLabels(text) {
  return String(text)
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((label) => (label === "_" ? 0 : Number(label)));
}

/**
 * Whether a sliding-puzzle model solves rows × cols boards with `goal` (labels): `model` says its
 * board as a loaded model's info does ({ rows, cols, goal }) or as an entry of the models' index
 * ({ size: "3x3", goal }), the goal as text. (The learning bundle refuses any other board too;
 * this is for the pages' menus and their own words.)
 */
export function solvesBoard(model, rows, cols, goal) {
  const size = typeof model.size === "string" ? model.size : `${model.rows}x${model.cols}`;
  if (size !== `${rows}x${cols}`) return false;
  const labels = goalLabels(model.goal);
  return labels.length === goal.length && labels.every((label, i) => label === Number(goal[i]));
}

/**
 * The shipped model for a rows × cols board with `goal` (labels), or null; `models` is
 * shippedModels()'s list.
 */
export function shippedModelFor(models, rows, cols, goal) {
  return models.find((model) => solvesBoard(model, rows, cols, goal)) ?? null;
}
