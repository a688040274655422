// Module Web Worker for deep Q-learning: it loads the learning bundle (pkg/learn/, the crate built
// with burn, several MB) — only here, never on the page — and runs one training at a time in
// chunks, plus quick jobs on trained models between the chunks. The page side is learn-client.js.
//
// Models are kept by a key the page chooses (the URL of a shipped model, the puzzle's trainedKey
// for the network being trained, "file" for one the person loaded): each is a model of the
// learning bundle with its file's bytes, so that training can go on from it and Save can hand it
// back.
//
// Every learnable puzzle of the registry (puzzles.js: sliding puzzles, 2048, Minesweeper, Sudoku,
// the dust puzzle) shares it: the learning bundle's one trainer and model class (LearnerTrainer,
// LearnedModel: src/web/learner.rs) serve every puzzle. Its `learner` in the registry names the
// key of its network being trained and its jobs module (sliding/, 2048/, minesweeper/, sudoku/,
// samegame/learn-jobs.js, loaded from the registry; common/learn-jobs.js says what each gives). The
// job table is keyed by the registry's puzzle id. There is no default puzzle: "load-model" and
// "train" say `puzzle` (a request without one is refused); a kept model of any puzzle plays and is
// evaluated through the same two requests, with its puzzle's own request object (LearnedModel's
// play and startEvaluation read it), and a jobs module adds requests of its own only for what is
// no model's (Minesweeper's solver on the same boards). A model
// file refused as one puzzle's is read for the puzzle it says it is (its header's puzzleId, looked
// up in the registry), and the error says on which page it loads.
//
// Protocol ({ type, id, ... }; every request gets exactly one "result" or "error" with its id):
//   in : { type: "load-model", id, key, url, puzzle }        fetch a model file (download progress
//             reported); puzzle: a learnable puzzle's id, the kind of model the file must be
//        { type: "load-model", id, key, bytes, name, puzzle } read a model from bytes (a file the person chose)
//        { type: "train", id, puzzle, options, backend, continueFrom?, ... }
//             options: LearnerTrainer.create's (the puzzle's setup: board, network, …;
//             validationSize; DqnConfig's fields, as `puzzlelab <puzzle> train` takes them);
//             backend "auto" | "webgpu" | "cpu";
//             continueFrom: the key of a kept model whose weights the trainer starts from; the
//             network so far is kept as a model under the puzzle's trainedKey
//        { type: "pause", id } | { type: "resume", id } | { type: "stop", id }
//        { type: "save", id }                        the trainer's network as a model file
//        { type: "load-weights", id, bytes }         weights into the paused trainer
//        { type: "probe", id, adamSteps, products? } cpuProbe and webgpuProbe, compared (WebGPU's
//             matrix products: "race" (its set-up's choice), "tiled" or "default")
//        { type: "snapshot", id, key? }              keep the trainer's network now as a model (under
//             `key`, default the run's trainedKey); answers { key, info, steps }
//        { type: "play-model", id, key, puzzle, request }  the kept model `key` of `puzzle` plays
//             `request`, its puzzle's position (LearnedModel.play; learn-client.js's play() lists
//             them): { key, info, ...its answer }
//        { type: "evaluate-model", id, key, puzzle, request }  the kept model's evaluation on
//             `request` (LearnedModel.startEvaluation), a batch at a time with "evaluate" progress:
//             { key, info, evaluation, ms }
//        { type: "cancel-evaluation", id, job }  stops the evaluation with request id `job` after its
//             current batch (it rejects with "The evaluation was cancelled."); → { cancelled }:
//             false when request `job` is not open (answered already)
//   A puzzle's own fields of "train", and its own requests (its jobs module):
//        sliding: rows, cols, goal (text, "" = standard) beside options (difficulty, curriculum,
//             reward, mixed, uniformStarts and DqnConfig's fields)
//        2048 and Minesweeper: evalEvery, evalGames, evalSeed (every evalEvery steps, 0: never, the
//             network so far plays evalGames of the evaluation run seeded with evalSeed)
//        Sudoku and dust: evalEvery (the network so far plays the trainer's own validation set)
//        { type: "evaluate-minesweeper-solver", id, request }  the solver's games on the boards of a
//             Minesweeper evaluation request, a batch at a time: as `puzzlelab minesweeper eval`
//             reports (win_rate, win_rate_95, guesses_per_game, …)
//   out: { type: "ready" }                            the bundle is loaded
//        { type: "progress", id: null, stage: "bundle", loaded, total, done }   while the bundle downloads
//             (done: the last byte is in; compiling and starting it follow until "ready")
//        { type: "progress", id, stage: "download", loaded, total }       a model download
//        { type: "progress", id, stage: "evaluate", done, total }         games (positions, boards) evaluated
//        { type: "progress", id, stage: "setup", step, backend?, detail? }   a "train" request gets ready,
//             step by step: "check" (auto: is WebGPU there, and does it compute what the CPU does), "network"
//             (the trainer is built on `backend`), "timing" (auto: this network timed on `backend`),
//             "move" (auto chose WebGPU after timing: the trainer is built again there), and the
//             puzzle's own ("demonstrations": 2048's demonstrator downloads and plays; `detail`: words
//             on how far it is)
//        { type: "progress", id, stage: "backend", message, summary, backend, timing, adapter }  how the
//             backend was chosen: `message` with the technical details, `summary` the same in plain
//             words (timing: "auto"'s { cpu, webgpu } timingProbe results, or null; adapter: the GPU
//             WebGPU offered, in a few words, or "")
//        { type: "progress", id, stage: "started", backend, adapter, numParams, chunkSteps, setup? }
//             (setup: LearnerTrainer.setup for Sudoku and dust, what it trains and validates on)
//        { type: "progress", id, stage: "chunk", report, chunkSteps, wasmBytes }  after every training
//                                                          chunk (wasmBytes: the bundle's wasm memory)
//        { type: "progress", id, stage: "checkpoint", key, puzzle, steps, backend, bytes }  the
//             network being trained as a model file (after the first chunk, every CHECKPOINT_MS and
//             whenever it is kept under its key): the page keeps it should the worker crash
//        { type: "progress", id, stage: "fallback", backend: "cpu", fromStep, lostAt, message }
//             WebGPU stopped answering during a chunk (the GPU lost): training goes on on the CPU
//             from the network of step fromStep (the last chunk; the trainer keeps a copy)
//        { type: "progress", id, stage: "validating", steps, games?, done?, total? }  an in-training
//             validation begins (Minesweeper: games) or goes on (2048: done of total games played)
//        { type: "progress", id, stage: "validated", steps, evaluation }   an in-training validation
//             (LearnerTrainer.evaluate's, the manifest's `validation`; 2048: an evaluate-model's
//             evaluation of the network so far)
//        { type: "result", id, result }
//        { type: "error", id, message }                id null: the bundle could not be loaded

import { isKept, keptFetch } from "./asset-cache.js";
import { fetchBytes } from "./download.js";
import { cancelEvaluation, evaluateKeptModel, foreignModelHint, whileOpen } from "./learn-jobs.js";
import { formatNumber } from "./number-format.js";
import { byId, learnablePuzzles, puzzleOfTrainedKey, wwwUrl } from "./puzzles.js";
import { announceReady, errorMessage as messageOf, postProgress, serveRequests } from "./worker-protocol.js";
import { adapterName, checkWebGpu, runProbes, whyNoWebGpu } from "./webgpu-check.js";

/** The learning bundle, resolved against this file (so www/ and pkg/ may live anywhere, side by side). */
const BUNDLE_URL = new URL("../../pkg/learn/puzzlelab.js", import.meta.url);
const BUNDLE_WASM_URL = new URL("../../pkg/learn/puzzlelab_bg.wasm", import.meta.url);

/** While the bundle's size is unknown, its download is reported every this many bytes. */
const BUNDLE_REPORT_BYTES = 256 * 1024;
/** The network goes to the page (a "checkpoint" progress message) at least this often while training. */
const CHECKPOINT_MS = 15_000;
/** A training chunk aims at this much wall time: short enough for Pause and Stop to answer soon. */
const CHUNK_TARGET_MS = 300;
/** Gradient steps and greedy moves that "auto" times on each backend (after one untimed step). */
const AUTO_TIMING_STEPS = 3;
const AUTO_TIMING_MOVES = 10;

/**
 * Kept models by key: { model (the learning bundle's LearnedModel), bytes (the
 * file), info (its info()), puzzle (the registry's id) }.
 */
const models = new Map();
/**
 * The trainer and its run: { id (of the "train" request), trainer (the puzzle's trainer class),
 * puzzle (the registry's id), jobs (its entry of the job table), modelKey (where its network is
 * kept as a model: the puzzle's trainedKey), backend, state ("running" | "paused" | "stopping" |
 * "stopped"), wake (resolver that ends a pause), waiters (pause/stop requests answered when the
 * loop gets there), lastReport, chunkSteps, evaluation ({ every, games, seed, next (the
 * step count that calls for the next one) } when the run validates, else null) }, or null.
 */
let run = null;
/** Whether a "train" request is setting its trainer up (before `run` holds it). */
let settingUp = false;
/** Calls into the trainer, one after another (LearnerTrainer refuses a call while a chunk is pending). */
let trainerQueue = Promise.resolve();
/** The outcome of the WebGPU check of "auto", once made: { ok, message, summary, adapter }. */
let webGpuCheck = null;
/**
 * Why WebGPU stopped answering in this worker, once it did (fallBackToCpu), else "": burn's
 * runtime cannot set up a second device in the same instance, so later runs train on the CPU.
 */
let webGpuLost = "";

/** The bundle's wasm memory once instantiated: its size goes out with every chunk (wasmBytes). */
let wasmMemory = null;

/** The bundle's exports; every job awaits it, so a failed load is every job's error too. */
const bundleReady = loadBundle().catch((error) => {
  throw new Error(
    `The learning module (pkg/learn/) could not be loaded: ${messageOf(error)}. ` +
      "Build it with `bash scripts/build-wasm.sh learn`.",
  );
});

/** The worker's own requests, about no puzzle or about the one they name in `puzzle`. */
const WORKER_HANDLERS = {
  "load-model": loadModel,
  train,
  pause,
  resume,
  stop,
  save,
  "load-weights": loadWeights,
  probe,
  snapshot,
  "play-model": playModel,
  "evaluate-model": ({ id, key, puzzle, request }) => evaluateKeptModel({ bundleReady, keptModel }, { id, key, puzzle, request }),
  "cancel-evaluation": cancelEvaluation,
};

/** "play-model": the kept model `key` of `puzzle` plays `request` (LearnedModel.play). */
async function playModel({ key, puzzle, request }) {
  await bundleReady;
  const { model, info } = keptModel(key, puzzle);
  return { result: { key, info, ...model.play(request) } };
}

/**
 * The job table: { byPuzzle (registry id → { puzzle (the registry's entry), ...what its jobs
 * module's learnJobs returned }), handlers (every puzzle's own requests by type) }, once every
 * learnable puzzle's jobs module is loaded.
 */
const jobsReady = loadJobTable().catch((error) => {
  throw new Error(`The learning jobs could not be loaded: ${messageOf(error)}.`);
});
announceReady(Promise.all([bundleReady, jobsReady]), () => ({}), (error) => error.message);

// Each request is answered when its handler ends: "train" when training stops (it reports through
// progress messages meanwhile). A puzzle's own request types are known once its jobs module is
// loaded: until then (and for a type nobody answers) the handler waits for the job table.
// Every request but a cancel is open until answered (learn-jobs.js whileOpen): a cancel finds it
// from its arrival on, and nothing of it stays once it is answered.
serveRequests(
  new Proxy(WORKER_HANDLERS, {
    get: (own, type) => {
      const handler = Object.hasOwn(own, type) ? own[type] : (message) => puzzleRequest(type, message);
      return type === "cancel-evaluation" ? handler : (message) => whileOpen(message.id, () => handler(message));
    },
  }),
);

/** Imports every learnable puzzle's jobs module (the registry's `learner.jobs`) and builds the job table. */
async function loadJobTable() {
  const worker = {
    bundleReady,
    keptModel,
    withTrainer,
    snapshotTrained,
    isKept: (key, model) => models.get(key)?.model === model,
  };
  const puzzles = learnablePuzzles();
  const modules = await Promise.all(puzzles.map((puzzle) => import(wwwUrl(puzzle.learner.jobs).href)));
  const byPuzzle = new Map();
  const handlers = {};
  puzzles.forEach((puzzle, i) => {
    const jobs = modules[i].learnJobs({ ...worker, puzzle });
    for (const [type, handler] of Object.entries(jobs.handlers ?? {})) {
      if (Object.hasOwn(WORKER_HANDLERS, type) || Object.hasOwn(handlers, type)) throw new Error(`two handlers answer "${type}" (${puzzle.learner.jobs})`);
      handlers[type] = handler;
    }
    byPuzzle.set(puzzle.id, { puzzle, ...jobs });
  });
  return { byPuzzle, handlers };
}

/** Answers a request of a puzzle's own type through the job table. */
async function puzzleRequest(type, message) {
  const { handlers } = await jobsReady;
  if (!Object.hasOwn(handlers, type)) throw new Error(`Unknown request "${type}".`);
  return handlers[type](message);
}

/**
 * The job table's entry for the puzzle a "load-model" or "train" request names, or an Error that
 * says what to name.
 */
async function jobsOf({ type, puzzle }) {
  const { byPuzzle } = await jobsReady;
  const known = [...byPuzzle.keys()].map((id) => `"${id}"`).join(", ");
  if (puzzle === undefined || puzzle === null || puzzle === "") {
    throw new Error(`A "${type}" request names its puzzle: give puzzle ${known}.`);
  }
  const jobs = byPuzzle.get(puzzle);
  if (jobs) return jobs;
  const entry = byId(puzzle);
  if (entry) throw new Error(`The learning worker has no jobs for ${entry.title} ("${puzzle}"); it has jobs for ${known}.`);
  throw new Error(`Unknown puzzle "${puzzle}": the learning worker has jobs for ${known}.`);
}

// ---- the bundle -----------------------------------------------------------------------------------

/** Imports the bundle's JS and instantiates its wasm, reporting the download; resolves to its exports. */
async function loadBundle() {
  const bundle = await import(BUNDLE_URL.href);
  const response = await keptFetch(BUNDLE_WASM_URL);
  if (!response.ok) throw new Error(`${BUNDLE_WASM_URL.pathname} answered HTTP ${response.status}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  if (isKept(response)) {
    // Kept from an earlier visit: nothing to download, and handed over as it is, so that the
    // browser may reuse what it compiled of it then.
    postProgress(null, { stage: "bundle", loaded: total, total, done: true });
    const exports = await bundle.default({ module_or_path: response });
    wasmMemory = exports.memory;
    return bundle;
  }
  let loaded = 0;
  let reported = -1;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        // Whole percents only; every 256 kB while the size is unknown.
        const mark = total ? Math.floor((100 * loaded) / total) : Math.floor(loaded / BUNDLE_REPORT_BYTES);
        if (mark > reported) {
          reported = mark;
          postProgress(null, { stage: "bundle", loaded, total, done: false });
        }
        controller.enqueue(chunk);
      },
      flush() {
        postProgress(null, { stage: "bundle", loaded, total: total || loaded, done: true });
      },
    }),
  );
  // A Response with the wasm MIME type lets the bundle compile while it downloads.
  const exports = await bundle.default({ module_or_path: new Response(counted, { headers: { "Content-Type": "application/wasm" } }) });
  wasmMemory = exports.memory;
  return bundle;
}

// ---- models ---------------------------------------------------------------------------------------

/** Fetches (with progress) or reads a model file and keeps it under `key`; resolves to its info. */
async function loadModel(message) {
  const { id, key, url, bytes, name } = message;
  const jobs = await jobsOf(message);
  const { puzzle } = jobs;
  const bundle = await bundleReady;
  const started = performance.now();
  const body = url ? await download(url, id) : toBytes(bytes);
  const downloadMs = performance.now() - started;
  let model;
  try {
    model = openModel(bundle, jobs, body);
  } catch (error) {
    const what = url ? `The model at ${url}` : `The file${name ? ` "${name}"` : ""}`;
    throw new Error(`${what} could not be loaded: ${messageOf(error)}${foreignModelHint(body, puzzle.id)}`);
  }
  const info = model.info();
  keepModel(key, { model, bytes: body, info, puzzle: puzzle.id });
  return { result: { key, info, size: body.byteLength, ms: Math.round(performance.now() - started), downloadMs: Math.round(downloadMs) } };
}

/**
 * A model of the puzzle of `jobs` (its entry of the job table) from a model file's bytes: the
 * learning bundle's one model class, which refuses a file of another puzzle.
 */
function openModel(bundle, jobs, bytes) {
  return bundle.LearnedModel.forPuzzle(jobs.puzzle.id, bytes);
}

/** Keeps `entry` under `key`, freeing the model it replaces. */
function keepModel(key, entry) {
  const previous = models.get(key);
  models.set(key, entry);
  if (previous && previous.model !== entry.model) previous.model.free();
}

/** The model kept under `key` for `puzzle` (a registry id), or an Error a person can act on. */
function keptModel(key, puzzle) {
  const entry = models.get(key);
  if (!entry) throw new Error(puzzleOfTrainedKey(key) ? "Nothing has been trained yet." : "Load a model first.");
  const name = (id) => byId(id)?.title ?? `"${id}"`;
  if (entry.puzzle !== puzzle) throw new Error(`The model "${key}" is a ${name(entry.puzzle)} model, not a ${name(puzzle)} one.`);
  return entry;
}

/** The body of `url` as bytes, reporting { loaded, total } as it arrives. */
async function download(url, id) {
  const report = (loaded, total) => postProgress(id, { stage: "download", loaded, total });
  // When the answer comes, then at most every 50 ms, and at the end (with the size now known).
  let size = null;
  let lastReport = 0;
  const bytes = await fetchBytes(url, ({ loaded, total }) => {
    const now = performance.now();
    if (size === null) {
      size = total;
      report(loaded, total);
    } else if (now - lastReport > 50) {
      lastReport = now;
      report(loaded, total);
    }
  });
  report(bytes.byteLength, size || bytes.byteLength);
  return bytes;
}

// ---- training -------------------------------------------------------------------------------------

/** Runs `call(trainer)` after every earlier trainer call has settled. */
function withTrainer(trainer, call) {
  const next = trainerQueue.then(() => call(trainer));
  trainerQueue = next.catch(() => {});
  return next;
}

/** Trains chunk after chunk until stopped; resolves (as this request's result) to the last report. */
async function train(message) {
  if (settingUp || (run && run.state !== "stopped")) throw new Error("A training run is already going: stop it first.");
  settingUp = true;
  let made;
  try {
    made = await newTrainer(message);
  } finally {
    settingUp = false;
  }
  const { trainer, backend, adapter, jobs } = made;
  const { id } = message;
  const puzzle = jobs.puzzle.id;
  // The previous run's trainer goes once the calls queued for it (a Save) are done.
  if (run) withTrainer(run.trainer, (previous) => previous.free());
  const bounds = jobs.chunkSteps;
  const modelKey = jobs.puzzle.learner.trainedKey;
  run = { id, trainer, puzzle, jobs, modelKey, backend, state: "running", wake: null, waiters: [], lastReport: null, chunkSteps: bounds[backend].first, evaluation: null, checkpointAt: -Infinity };
  const current = run;
  // A trainer with its own validation set (trainerSetup: Sudoku's puzzles, dust's boards) needs no games.
  if (jobs.validate && message.evalEvery > 0 && (message.evalGames > 0 || jobs.trainerSetup)) {
    current.evaluation = { every: message.evalEvery, games: message.evalGames, seed: message.evalSeed ?? 0, next: message.evalEvery };
  }
  postProgress(id, { stage: "started", backend, adapter, numParams: trainer.numParams, chunkSteps: current.chunkSteps, ...(jobs.trainerSetup ? { setup: trainer.setup } : {}) });

  try {
    for (;;) {
      if (current.state === "paused") {
        await snapshotTrained(current);
        answerWaiters(current, "pause");
        await new Promise((resolve) => (current.wake = resolve));
        current.wake = null;
        continue;
      }
      if (current.state === "stopping") break;
      try {
        const steps = current.chunkSteps;
        const started = performance.now();
        const report = await withTrainer(trainer, (t) => t.trainSteps(steps));
        current.chunkSteps = nextChunkSteps(steps, performance.now() - started, bounds[current.backend]);
        current.lastReport = report;
        postProgress(id, { stage: "chunk", report, chunkSteps: steps, wasmBytes: wasmMemory?.buffer.byteLength ?? null });
        // The page's copy of the network: after the first chunk, then every CHECKPOINT_MS.
        if (!(performance.now() - current.checkpointAt < CHECKPOINT_MS)) await snapshotTrained(current);
        // Let pause, stop, save and model jobs in.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (current.evaluation && report.stepsDone >= current.evaluation.next) await jobs.validate(current, report.stepsDone);
      } catch (error) {
        // WebGPU lost (the GPU stopped answering a readback): the same trainer goes on on the CPU
        // from the network of its last chunk. Any other failure ends the run.
        if (current.backend !== "webgpu") throw error;
        await fallBackToCpu(current, bounds, error);
      }
    }
    await snapshotTrained(current);
    current.state = "stopped";
    answerWaiters(current, "stop");
    answerWaiters(current, "pause");
    return { result: { stopped: true, report: current.lastReport, backend: current.backend, model: models.get(current.modelKey)?.info ?? null } };
  } catch (error) {
    current.state = "stopped";
    const failure = new Error(`Training stopped: ${messageOf(error)}`);
    for (const waiter of current.waiters.splice(0)) waiter.reject(failure);
    throw failure;
  }
}

/**
 * After a chunk failed on WebGPU: the trainer moves to the CPU, its network rebuilt from the copy
 * it kept of its last chunk (replay buffer, games and counters go on), and the page is told why
 * ({ stage: "fallback", backend: "cpu", fromStep, lostAt, message }). Throws, ending the run, when
 * it cannot.
 */
async function fallBackToCpu(current, bounds, error) {
  let fromStep;
  try {
    fromStep = await withTrainer(current.trainer, (t) => t.fallBackToCpu());
  } catch (fallback) {
    throw new Error(`WebGPU failed (${messageOf(error)}) and ${messageOf(fallback)}`);
  }
  current.backend = "cpu";
  current.chunkSteps = bounds.cpu.first;
  webGpuLost = messageOf(error);
  const lostAt = current.lastReport?.stepsDone ?? 0;
  const steps = (n) => `step ${formatNumber(n)}`;
  const message =
    `WebGPU stopped answering after ${steps(lostAt)}: ${messageOf(error)}. ` +
    `Training goes on on the CPU from the network of ${steps(fromStep)}, the last chunk.`;
  postProgress(current.id, { stage: "fallback", backend: "cpu", fromStep, lostAt, message });
}

/**
 * A trainer for a "train" request on the backend it asks for ("auto": see chooseBackend), with its
 * weights when it goes on from a kept model: { trainer, backend, adapter, jobs (the puzzle's entry
 * of the job table) }. Each step of getting there is reported ({ stage: "setup", step }).
 */
async function newTrainer(message) {
  const jobs = await jobsOf(message);
  const bundle = await bundleReady;
  const { id: puzzle } = jobs.puzzle;
  const step = (name, fields = {}) => postProgress(message.id, { stage: "setup", step: name, ...fields });
  const choice = await chooseBackend(bundle, message.backend ?? "auto", () => step("check"));
  const { adapter } = choice;
  let { backend, note, summary } = choice;
  const create = async (on) => {
    try {
      return await bundle.LearnerTrainer.create(puzzle, jobs.trainerOptions?.(message) ?? message.options ?? {}, on);
    } catch (error) {
      throw new Error(`The trainer could not be set up: ${messageOf(error)}`);
    }
  };
  const first = choice.timeBoth ? "cpu" : backend;
  step("network", { backend: first });
  let trainer = await create(first);
  let timing = null;
  if (choice.timeBoth) {
    // "auto", WebGPU correct: time this very network on both, and train on the faster.
    try {
      step("timing", { backend: "cpu" });
      const cpu = await trainer.timingProbe("cpu", AUTO_TIMING_STEPS, AUTO_TIMING_MOVES);
      step("timing", { backend: "webgpu" });
      timing = { cpu, webgpu: await trainer.timingProbe("webgpu", AUTO_TIMING_STEPS, AUTO_TIMING_MOVES) };
    } catch (error) {
      timing = null;
      note = `${note} WebGPU could not be timed (${messageOf(error)}): training on the CPU.`;
      summary = `${summary} It could not be timed on this network, so this run trains on the CPU.`;
      backend = "cpu";
    }
    if (timing) {
      backend = timing.webgpu.stepsPerS > timing.cpu.stepsPerS ? "webgpu" : "cpu";
      const rate = ({ stepsPerS: r }) => `${r >= 100 ? Math.round(r) : r.toPrecision(3)}`;
      const faster = backend === "webgpu" ? "WebGPU" : "the CPU";
      note = `${note} Timed on this network: WebGPU ${rate(timing.webgpu)} steps/s, the CPU ${rate(timing.cpu)} steps/s; training on ${faster}, the faster.`;
      summary =
        `${summary} Timed on this network, it trains at ${rate(timing.webgpu)} steps a second and the CPU at ${rate(timing.cpu)}: ` +
        `training on ${backend === "webgpu" ? "the graphics card" : "the CPU"}, the faster.`;
      if (backend === "webgpu") {
        trainer.free();
        step("move", { backend });
        trainer = await create("webgpu");
      }
    }
  }
  if (note) postProgress(message.id, { stage: "backend", message: note, summary, backend, timing, adapter });
  if (message.continueFrom) {
    try {
      trainer.loadModel(keptModel(message.continueFrom, puzzle).bytes);
    } catch (error) {
      trainer.free();
      throw new Error(`Training cannot go on from the loaded model: ${messageOf(error)}`);
    }
  }
  if (jobs.prepare) {
    try {
      await jobs.prepare(trainer, message, step);
    } catch (error) {
      trainer.free();
      throw error;
    }
  }
  return { trainer, backend, adapter: backend === "webgpu" ? adapter : "", jobs };
}

/** Steps for the next chunk: towards CHUNK_TARGET_MS, at most doubling, within `bounds`. */
function nextChunkSteps(steps, elapsedMs, { min, max }) {
  const ideal = (steps * CHUNK_TARGET_MS) / Math.max(1, elapsedMs);
  return Math.round(Math.min(max, Math.max(min, Math.min(steps * 2, ideal))));
}

/**
 * Keeps the trainer's network as a model under the run's key (its puzzle's trainedKey) or under
 * `key`, so that it can solve, play and be evaluated; resolves to the kept entry.
 */
async function snapshotTrained(current, key = current.modelKey) {
  const bundle = await bundleReady;
  const bytes = await withTrainer(current.trainer, (t) => t.saveModel());
  const model = openModel(bundle, current.jobs, bytes);
  const entry = { model, bytes, info: model.info(), puzzle: current.puzzle };
  keepModel(key, entry);
  current.checkpointAt = performance.now();
  if (key === current.modelKey) {
    // A copy for the page, which keeps it should this worker crash (learn-client.js).
    const steps = current.lastReport?.stepsDone ?? 0;
    postProgress(current.id, { stage: "checkpoint", key, puzzle: current.puzzle, steps, backend: current.backend, bytes: bytes.slice() });
  }
  return entry;
}

/** Answers the pause or stop requests waiting for the loop. */
function answerWaiters(current, kind) {
  const state = { state: current.state, report: current.lastReport, model: models.get(current.modelKey)?.info ?? null };
  current.waiters = current.waiters.filter((waiter) => {
    if (waiter.kind !== kind) return true;
    waiter.resolve({ result: state });
    return false;
  });
}

/** Resolves once the loop has paused (after its current chunk; the network is then kept as "trained"). */
function pause() {
  const current = activeRun();
  if (current.state === "paused" && !current.wake) return waitFor(current, "pause"); // pausing right now
  if (current.state === "paused") return { result: { state: "paused", report: current.lastReport, model: models.get(current.modelKey)?.info ?? null } };
  current.state = "paused";
  return waitFor(current, "pause");
}

/** Ends a pause: the loop trains on from where it stopped. */
function resume() {
  const current = activeRun();
  if (current.state !== "paused") return { result: { state: current.state } };
  current.state = "running";
  current.wake?.();
  return { result: { state: "running" } };
}

/** Resolves once the loop has stopped; the run's own request then resolves too. */
function stop() {
  const current = activeRun();
  const wasPaused = current.state === "paused";
  current.state = "stopping";
  const answer = waitFor(current, "stop");
  if (wasPaused) current.wake?.();
  return answer;
}

/** The run that pause, resume and stop act on, or an Error when none is going. */
function activeRun() {
  if (!run || run.state === "stopped") throw new Error("No training is running.");
  return run;
}

/** A promise answered by answerWaiters(current, kind) when the loop gets there. */
function waitFor(current, kind) {
  return new Promise((resolve, reject) => current.waiters.push({ kind, resolve, reject }));
}

/** The trainer's network as a model file (between chunks). */
async function save() {
  if (!run) throw new Error("Nothing has been trained yet.");
  const bytes = await withTrainer(run.trainer, (t) => t.saveModel());
  return { result: { bytes, steps: run.lastReport?.stepsDone ?? 0, backend: run.backend }, transfer: [bytes.buffer] };
}

/** Loads a model file's weights into the paused trainer (it goes on from them on Resume). */
async function loadWeights({ bytes }) {
  if (!run || run.state !== "paused") throw new Error("Pause a training run before loading weights into it.");
  const body = toBytes(bytes);
  const current = run;
  try {
    await withTrainer(current.trainer, (t) => t.loadModel(body));
  } catch (error) {
    throw new Error(`${messageOf(error)}${foreignModelHint(body, current.puzzle)}`);
  }
  await snapshotTrained(run);
  return { result: { model: models.get(run.modelKey).info } };
}

/** The trainer's network now, kept as a model (under `key`, or the run's own key). */
async function snapshot({ key }) {
  if (!run) throw new Error("Nothing has been trained yet.");
  const current = run;
  const kept = key ?? current.modelKey;
  const entry = await snapshotTrained(current, kept);
  return { result: { key: kept, info: entry.info, steps: current.lastReport?.stepsDone ?? 0 } };
}

// ---- backends -------------------------------------------------------------------------------------

/**
 * The backend to train on: "cpu" and "webgpu" as asked ("webgpu" fails with the reason when there
 * is none); "auto" is WebGPU only when it is there and its probe agrees with the CPU's, and then
 * the faster of the two on the run's own network (`timeBoth`: newTrainer times both); `checking()`
 * is called as auto's check begins. Resolves to { backend, note (why, with the technical details),
 * summary (the same in plain words), adapter (a description of the GPU), timeBoth }.
 */
async function chooseBackend(bundle, wanted, checking) {
  if (wanted === "cpu") return { backend: "cpu", note: "", summary: "", adapter: "" };
  if (webGpuLost && wanted === "webgpu") {
    throw new Error(`WebGPU stopped answering earlier in this tab (${webGpuLost}). Reload the page to use it again, or choose the CPU or auto.`);
  }
  if (webGpuLost && wanted === "auto") {
    return {
      backend: "cpu",
      note: "WebGPU stopped answering earlier in this tab: training on the CPU (reload the page to use WebGPU again).",
      summary: "The graphics card (WebGPU) stopped answering earlier in this tab, so this run trains on the CPU (reload the page to try it again).",
      adapter: "",
    };
  }
  if (wanted === "webgpu") {
    const missing = await whyNoWebGpu();
    if (missing) throw new Error(`WebGPU is not available: ${missing}. Choose the CPU or auto.`);
    return { backend: "webgpu", note: "", summary: "", adapter: await adapterName() };
  }
  if (wanted !== "auto") throw new Error(`Unknown backend "${wanted}".`);
  checking();
  webGpuCheck ??= checkWebGpu(bundle);
  const check = await webGpuCheck;
  if (check.ok) return { backend: "webgpu", note: check.message, summary: check.summary, adapter: check.adapter, timeBoth: true };
  return { backend: "cpu", note: `WebGPU unavailable: ${check.message}; training on the CPU.`, summary: `${check.summary} This run trains on the CPU.`, adapter: "" };
}

/**
 * The "probe" request: both probes and how far apart they are, with WebGPU's matrix products by
 * the kernel its set-up chose (`products` "race", the default) or by the one named ("tiled":
 * cubek's tiled kernel, "default": burn's), the race's choice restored afterwards. The result
 * says which ran (`tiled`) and what the race measured (`products`).
 */
async function probe({ adamSteps = 3, products = "race" }) {
  const bundle = await bundleReady;
  const missing = webGpuLost ? `it stopped answering earlier in this tab (${webGpuLost}); reload the page` : await whyNoWebGpu();
  if (missing) throw new Error(`WebGPU is not available: ${missing}.`);
  if (!["race", "tiled", "default"].includes(products)) throw new Error(`Unknown products "${products}".`);
  if (products !== "race") await bundle.useTiledWebgpuProducts(products === "tiled");
  try {
    const comparison = await runProbes(bundle, adamSteps);
    const race = bundle.webgpuProducts();
    const tiled = products === "race" ? race.tiled : products === "tiled";
    return { result: { ...comparison, adapter: await adapterName(), products: race, tiled } };
  } finally {
    if (products !== "race") await bundle.useTiledWebgpuProducts(bundle.webgpuProducts().tiled);
  }
}

// ---- helpers --------------------------------------------------------------------------------------

/** The model bytes a request carried, as a Uint8Array. */
function toBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  throw new Error("no model bytes were given");
}
