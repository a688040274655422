// Module Web Worker for deep Q-learning: it loads the learning bundle (pkg/learn/, the crate built
// with burn, several MB) — only here, never on the page — and runs one training at a time in
// chunks, plus quick jobs on trained models between the chunks. The page side is learn-client.js.
//
// Models are kept by a key the page chooses (the URL of a shipped model, "trained" for the
// network being trained, "file" for one the person loaded): each is a DqnModel with its file's
// bytes, so that training can go on from it and Save can hand it back.
//
// Five puzzles share it: sliding puzzles (the N-puzzle DQN dissertation's DqnTrainer / DqnModel, the index page's
// card), 2048 (Mehta's Dqn2048Trainer / Dqn2048Model, the 2048 page's card; its jobs are in
// ../2048/learn-jobs.js), Minesweeper
// (DqnMinesweeperTrainer / DqnMinesweeperModel, the Minesweeper page's card; its jobs are in
// ../minesweeper/learn-jobs.js), Sudoku (DqnSudokuTrainer / DqnSudokuModel, the Sudoku page's
// Learn card; its jobs are in ../sudoku/learn-jobs.js) and the dust puzzle (DqnDustTrainer /
// DqnDustModel, the dust page's Learn card; its jobs are in ../samegame/learn-jobs.js). A request
// about 2048, Minesweeper, Sudoku or dust says `puzzle: "2048"`, `"minesweeper"`, `"sudoku"` or
// `"dust"` ("train", "load-model") or has its own type ("…-2048", "…-minesweeper", "…-sudoku",
// "…-dust"); every other request is about sliding puzzles, as before 2048 came.
//
// Protocol ({ type, id, ... }; every request gets exactly one "result" or "error" with its id):
//   in : { type: "load-model", id, key, url, puzzle? }       fetch a model file (download progress
//             reported); puzzle "sliding" (default) or "2048": the kind of model the file must be
//        { type: "load-model", id, key, bytes, name, puzzle? } read a model from bytes (a file the person chose)
//        { type: "solve", id, key, rows, cols, goal, cells, options? }
//             goal and cells: labels row-major (0 = blank); options: DqnModel.solve's, or with
//             method: "bwas" DqnModel.solveBwas's (lambda, batch, maxNodes)
//        { type: "evaluate", id, key, options }      DqnModel.evaluate's options ({ perDistance, seed })
//        { type: "train", id, rows, cols, goal, options, backend, continueFrom? }
//             goal: text ("" = standard); options: DqnTrainer.create's; backend "auto" | "webgpu" |
//             "cpu"; continueFrom: the key of a kept model whose weights the trainer starts from
//        { type: "pause", id } | { type: "resume", id } | { type: "stop", id }
//        { type: "save", id }                        the trainer's network as a model file
//        { type: "load-weights", id, bytes }         weights into the paused trainer
//        { type: "probe", id, adamSteps, products? } cpuProbe and webgpuProbe, compared (WebGPU's
//             matrix products: "race" (its set-up's choice), "tiled" or "default")
//        { type: "snapshot", id, key? }              keep the trainer's network now as a model (under
//             `key`, default the run's "trained" key); answers { key, info, steps }
//   2048:
//        { type: "train", id, puzzle: "2048", options, backend, continueFrom?, evalEvery, evalGames, evalSeed }
//             options: Dqn2048Trainer.create's (DqnConfig's fields over the paper's); every evalEvery
//             steps (0: never) the network plays evalGames greedy games of the evaluation run
//             seeded with evalSeed; the network so far is kept as the model "trained-2048"
//        { type: "best-move-2048", id, key, exponents }   the kept 2048 model's greedy move for a board
//             of 16 exponents: { move } (0 up, 1 right, 2 down, 3 left; −1: no move changes it)
//        { type: "evaluate-2048", id, key, games, seed }  greedy games 0..games of the run seeded with
//             `seed` (the games of `puzzlelab eval-dqn-2048 --seed`), a few at a time
//        { type: "cancel-evaluation", id, job }           stops the evaluation with request id `job`
//   Minesweeper:
//        { type: "train", id, puzzle: "minesweeper", options, backend, continueFrom?, evalEvery, evalGames,
//             evalSeed, evalFirstCell }  options: DqnMinesweeperTrainer.create's (the board: level or width,
//             height, mines, firstClick; net "cells" (layers, filters) or "paper"; DqnConfig's fields);
//             every evalEvery steps the network so far plays evalGames of the solver's boards seeded
//             with evalSeed (first click on cell evalFirstCell); kept as the model "trained-minesweeper"
//        { type: "best-cell-minesweeper", id, key, width, height, mines, cells }  the kept model's greedy
//             cell for a board of cell codes (0–8 revealed, 9 covered, 10 flag, 11 "?"; resized for a
//             fully convolutional model): { cell (−1: none left), values (a Q-value per cell) }
//        { type: "evaluate-minesweeper", id, key, width, height, mines, rule, firstCell, games, seed, solver }
//             the model's greedy games on the solver's seeded boards (and, with solver: true, the
//             solver's on the same boards): { key, model, solver (or null), ms } (each as
//             `puzzlelab minesweeper eval` reports: win_rate, win_rate_95, guesses_per_game, …)
//   Sudoku:
//        { type: "train", id, puzzle: "sudoku", options, backend, continueFrom?, evalEvery }
//             options: DqnSudokuTrainer.create's (net "cells" (layers, filters) or "paper"; givens,
//             puzzles, validationPerBin; DqnConfig's fields); every evalEvery steps the network so
//             far plays the trainer's validation puzzles; kept as the model "trained-sudoku"
//        { type: "play-sudoku", id, key, grid }  the kept model's greedy play from a grid (81 cells as
//             text): { key, info, outcome, moves: [{ cell, digit, right, value }], firstMistake, solution }
//        { type: "evaluate-sudoku", id, key, perBin, seed, givens }  greedy play on perBin seeded
//             puzzles of each bin: { key, info, bins: [{ bin, paper_solved_rate, solved_rate, … }], seed, perBin, ms }
//   Dust:
//        { type: "train", id, puzzle: "dust", options, backend, continueFrom?, evalEvery }
//             options: DqnDustTrainer.create's (net "backups" or "blog", target "max" or "mean",
//             hidden, validationBoards; DqnConfig's fields); every evalEvery steps the network so
//             far clears the trainer's validation boards; kept as the model "trained-dust"
//        { type: "play-dust", id, key, board }  the kept model's greedy clearing of a board (text,
//             8 × 6): { key, info, clicks: [[col, row]], cells, values, after, cleared }
//        { type: "evaluate-dust", id, key, boards, seed }  greedy clearings of seeded boards beside
//             the greedy rule's: { key, info, seed, boards, mean_clicks, distribution, greedy, ms }
//   out: { type: "ready" }                            the bundle is loaded
//        { type: "progress", id: null, stage: "bundle", loaded, total }   while the bundle downloads
//        { type: "progress", id, stage: "download", loaded, total }       a model download
//        { type: "progress", id, stage: "evaluate", done, total }         positions evaluated
//        { type: "progress", id, stage: "backend", message, backend, timing }  how the backend was chosen
//                                                          (timing: "auto"'s { cpu, webgpu } timingProbe results, or null)
//        { type: "progress", id, stage: "started", backend, adapter, numParams, chunkSteps, setup? }
//             (setup: Sudoku's DqnSudokuTrainer.setup or dust's DqnDustTrainer.setup, what it
//             trains and validates on)
//        { type: "progress", id, stage: "chunk", report, chunkSteps, wasmBytes }  after every training
//                                                          chunk (wasmBytes: the bundle's wasm memory)
//        { type: "progress", id, stage: "checkpoint", key, puzzle, steps, backend, bytes }  the
//             network being trained as a model file (after the first chunk, every CHECKPOINT_MS and
//             whenever it is kept under its key): the page keeps it should the worker crash
//        { type: "progress", id, stage: "fallback", backend: "cpu", fromStep, lostAt, message }
//             WebGPU stopped answering during a chunk (the GPU lost): training goes on on the CPU
//             from the network of step fromStep (the last chunk; the trainer keeps a copy)
//        { type: "progress", id, stage: "evaluation", steps, done, total }  2048: in-training games played
//        { type: "progress", id, stage: "evaluated", steps, stats, summary } 2048: an in-training evaluation
//        { type: "progress", id, stage: "evaluate-2048", done, total }      2048: evaluation games played
//        { type: "progress", id, stage: "validating", steps, games }        Minesweeper: validation games begin
//        { type: "progress", id, stage: "validated", steps, evaluation }   Minesweeper: an in-training evaluation
//        { type: "progress", id, stage: "evaluate-minesweeper", player }    Minesweeper: "model" or "solver" plays
//        { type: "progress", id, stage: "validated", steps, bins }         Sudoku: an in-training evaluation by bin
//        { type: "progress", id, stage: "evaluate-sudoku", perBin }         Sudoku: the evaluation's puzzles are drawn
//        { type: "progress", id, stage: "validated", steps, clicks }       dust: { boards, mean_clicks, distribution }
//        { type: "progress", id, stage: "evaluate-dust", boards }           dust: the evaluation's boards are played
//        { type: "result", id, result }
//        { type: "error", id, message }                id null: the bundle could not be loaded

import { goalLabels } from "./learn-client.js";
import { fetchBytes } from "./download.js";
import { game2048Jobs } from "../2048/learn-jobs.js";
import { minesweeperJobs } from "../minesweeper/learn-jobs.js";
import { sudokuJobs } from "../sudoku/learn-jobs.js";
import { dustJobs } from "../samegame/learn-jobs.js";
import { announceReady, errorMessage as messageOf, postProgress, serveRequests } from "./worker-protocol.js";
import { adapterName, checkWebGpu, runProbes, whyNoWebGpu } from "./webgpu-check.js";

/** The learning bundle, resolved against this file (so www/ and pkg/ may live anywhere, side by side). */
const BUNDLE_URL = new URL("../../pkg/learn/puzzlelab.js", import.meta.url);
const BUNDLE_WASM_URL = new URL("../../pkg/learn/puzzlelab_bg.wasm", import.meta.url);

/** The network goes to the page (a "checkpoint" progress message) at least this often while training. */
const CHECKPOINT_MS = 15_000;
/** A training chunk aims at this much wall time: short enough for Pause and Stop to answer soon. */
const CHUNK_TARGET_MS = 300;
/** Steps per chunk, first and bounds, per backend. WebGPU steps wait for readbacks: fewer per chunk. */
const CHUNK_STEPS = {
  cpu: { first: 200, min: 20, max: 500 },
  webgpu: { first: 5, min: 1, max: 50 },
};
/**
 * The same for 2048's convolutional network: a step of the paper's (1.26 M parameters) takes about
 * 50 ms on a CPU in a tab, while warm-up steps (no gradient step) take microseconds: chunks start
 * small and grow towards CHUNK_TARGET_MS.
 */
const CHUNK_STEPS_2048 = {
  cpu: { first: 10, min: 1, max: 1000 },
  webgpu: { first: 2, min: 1, max: 50 },
};
/** Key of the network being trained on 2048, as a model (TRAINED_2048_MODEL in learn-client.js). */
const TRAINED_2048 = "trained-2048";
/**
 * Minesweeper's steps: warm-up steps take microseconds, a step of the fully convolutional network
 * (every covered cell of a batch of positions backed up) some tens of ms on a CPU in a tab.
 */
const CHUNK_STEPS_MINESWEEPER = {
  cpu: { first: 10, min: 1, max: 2000 },
  webgpu: { first: 2, min: 1, max: 50 },
};
/** Key of the network being trained on Minesweeper (TRAINED_MINESWEEPER_MODEL in learn-client.js). */
const TRAINED_MINESWEEPER = "trained-minesweeper";
/**
 * Sudoku's steps: puzzlelab's network backs up every legal digit of a batch of positions (tens of
 * ms a step on a CPU in a tab); the paper's one dense layer is quicker.
 */
const CHUNK_STEPS_SUDOKU = {
  cpu: { first: 5, min: 1, max: 1000 },
  webgpu: { first: 2, min: 1, max: 50 },
};
/** Key of the network being trained on Sudoku (TRAINED_SUDOKU_MODEL in learn-client.js). */
const TRAINED_SUDOKU = "trained-sudoku";
/**
 * The dust puzzle's steps: puzzlelab's learner backs up every pile of a batch of boards (tens of
 * ms a step on a CPU in a tab); the blog's plays and fits 1,000 games a step.
 */
const CHUNK_STEPS_DUST = {
  cpu: { first: 5, min: 1, max: 1000 },
  webgpu: { first: 2, min: 1, max: 50 },
};
/** Key of the network being trained on the dust puzzle (TRAINED_DUST_MODEL in learn-client.js). */
const TRAINED_DUST = "trained-dust";
/** Gradient steps and greedy moves that "auto" times on each backend (after one untimed step). */
const AUTO_TIMING_STEPS = 3;
const AUTO_TIMING_MOVES = 10;

/**
 * Kept models by key: { model (DqnModel, or Dqn2048Model), bytes (the file), info (its info()),
 * puzzle ("sliding" | "2048") }.
 */
const models = new Map();
/**
 * The trainer and its run: { id (of the "train" request), trainer (DqnTrainer or Dqn2048Trainer),
 * puzzle, modelKey (where its network is kept as a model), backend, state ("running" | "paused" |
 * "stopping" | "stopped"), wake (resolver that ends a pause), waiters (pause/stop requests
 * answered when the loop gets there), lastReport, chunkSteps, evaluation (2048: { every, games,
 * seed, next (the step count that calls for the next one) }) }, or null.
 */
let run = null;
/** Whether a "train" request is setting its trainer up (before `run` holds it). */
let settingUp = false;
/** Calls into the trainer, one after another (DqnTrainer refuses a call while a chunk is pending). */
let trainerQueue = Promise.resolve();
/** The outcome of the WebGPU check of "auto", once made: { ok, message, adapter }. */
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
announceReady(bundleReady, () => ({}), (error) => error.message);

/** 2048's requests and its in-training evaluation (../2048/learn-jobs.js). */
const game2048 = game2048Jobs({
  bundleReady,
  keptModel,
  snapshotTrained,
  isKept: (key, model) => models.get(key)?.model === model,
});
/** Minesweeper's requests and its in-training evaluation (../minesweeper/learn-jobs.js). */
const minesweeper = minesweeperJobs({ bundleReady, keptModel, withTrainer });
/** Sudoku's requests and its in-training evaluation (../sudoku/learn-jobs.js). */
const sudoku = sudokuJobs({ bundleReady, keptModel, withTrainer });
/** The dust puzzle's requests and its in-training evaluation (../samegame/learn-jobs.js). */
const dust = dustJobs({ bundleReady, keptModel, withTrainer });

// Each request is answered when its handler ends: "train" when training stops (it reports through
// progress messages meanwhile).
serveRequests({
  "load-model": loadModel,
  solve,
  evaluate,
  train,
  pause,
  resume,
  stop,
  save,
  "load-weights": loadWeights,
  probe,
  snapshot,
  ...game2048.handlers,
  ...minesweeper.handlers,
  ...sudoku.handlers,
  ...dust.handlers,
});

// ---- the bundle -----------------------------------------------------------------------------------

/** Imports the bundle's JS and instantiates its wasm, reporting the download; resolves to its exports. */
async function loadBundle() {
  const bundle = await import(BUNDLE_URL.href);
  const response = await fetch(BUNDLE_WASM_URL);
  if (!response.ok) throw new Error(`${BUNDLE_WASM_URL.pathname} answered HTTP ${response.status}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  let loaded = 0;
  let reported = -1;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        // Whole percents only.
        const percent = total ? Math.floor((100 * loaded) / total) : -1;
        if (percent > reported) {
          reported = percent;
          postProgress(null, { stage: "bundle", loaded, total });
        }
        controller.enqueue(chunk);
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
async function loadModel({ id, key, url, bytes, name, puzzle = "sliding" }) {
  const bundle = await bundleReady;
  const started = performance.now();
  const body = url ? await download(url, id) : toBytes(bytes);
  const downloadMs = performance.now() - started;
  let model;
  try {
    model = modelClass(bundle, puzzle).fromBytes(body);
  } catch (error) {
    const what = url ? `The model at ${url}` : `The file${name ? ` "${name}"` : ""}`;
    throw new Error(`${what} could not be loaded: ${messageOf(error)}${foreignHint(puzzle, messageOf(error))}`);
  }
  const info = model.info();
  keepModel(key, { model, bytes: body, info, puzzle });
  return { result: { key, info, size: body.byteLength, ms: Math.round(performance.now() - started), downloadMs: Math.round(downloadMs) } };
}

/** The model class of a puzzle: DqnModel ("sliding"), Dqn2048Model ("2048"), DqnMinesweeperModel, DqnSudokuModel or DqnDustModel. */
function modelClass(bundle, puzzle) {
  if (puzzle === "2048") return bundle.Dqn2048Model;
  if (puzzle === "minesweeper") return bundle.DqnMinesweeperModel;
  if (puzzle === "sudoku") return bundle.DqnSudokuModel;
  if (puzzle === "dust") return bundle.DqnDustModel;
  if (puzzle === "sliding") return bundle.DqnModel;
  throw new Error(`Unknown puzzle "${puzzle}".`);
}

/** A sentence after a model's refusal that says where a model of the other puzzle belongs. */
function foreignHint(puzzle, message) {
  if (/plays "dust/.test(message)) return ". It is a dust model: load it on the dust page.";
  if (puzzle === "sudoku" || puzzle === "dust") {
    if (puzzle === "dust" && /plays "sudoku/.test(message)) return ". It is a Sudoku model: load it on the Sudoku page.";
    if (/plays "2048/.test(message)) return ". It is a 2048 model: load it on the 2048 page.";
    if (/plays "minesweeper/.test(message)) return ". It is a Minesweeper model: load it on the Minesweeper page.";
    return /plays "/.test(message) ? ". It is a sliding-puzzle model: load it on the sliding-puzzle page." : "";
  }
  if (/plays "sudoku/.test(message)) return ". It is a Sudoku model: load it on the Sudoku page.";
  if (puzzle === "minesweeper") return /plays "2048/.test(message) ? ". It is a 2048 model: load it on the 2048 page." : /plays "/.test(message) ? ". It is a sliding-puzzle model: load it on the sliding-puzzle page." : "";
  if (/made for puzzle minesweeper|plays "minesweeper/.test(message)) return ". It is a Minesweeper model: load it on the Minesweeper page.";
  if (puzzle === "2048" && /made for puzzle sliding/.test(message)) return ". It is a sliding-puzzle model: load it on the sliding-puzzle page.";
  if (puzzle === "sliding" && /plays "2048/.test(message)) return ". It is a 2048 model: load it on the 2048 page.";
  return "";
}

/** Keeps `entry` under `key`, freeing the model it replaces. */
function keepModel(key, entry) {
  const previous = models.get(key);
  models.set(key, entry);
  if (previous && previous.model !== entry.model) previous.model.free();
}

/** The model kept under `key` for `puzzle`, or an Error a person can act on. */
function keptModel(key, puzzle = "sliding") {
  const entry = models.get(key);
  if (!entry) throw new Error(["trained", TRAINED_2048, TRAINED_MINESWEEPER, TRAINED_SUDOKU, TRAINED_DUST].includes(key) ? "Nothing has been trained yet." : "Load a model first.");
  const name = (kind) => ({ 2048: "2048", minesweeper: "Minesweeper", sudoku: "Sudoku", dust: "the dust puzzle" })[kind] ?? "sliding puzzles";
  if (entry.puzzle !== puzzle) throw new Error(`The model "${key}" plays ${name(entry.puzzle)}, not ${name(puzzle)}.`);
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

/** Solves a board with a kept model, after checking that the model was trained for that puzzle. */
async function solve({ key, rows, cols, goal, cells, options }) {
  await bundleReady;
  const entry = keptModel(key);
  const problem = misfit(entry.info, rows, cols, goal);
  if (problem) throw new Error(problem);
  // options.method "bwas": batch-weighted A* (its options: lambda, batch, maxNodes).
  const { method, ...rest } = options ?? {};
  const board = Uint8Array.from(cells);
  const result = method === "bwas" ? entry.model.solveBwas(board, rest) : entry.model.solve(board, options ?? undefined);
  return { result };
}

/** Why a model does not fit a rows × cols puzzle with `goal` (labels), or "" when it does. */
function misfit(info, rows, cols, goal) {
  const modelGoal = goalLabels(info.goal);
  const sameGoal = modelGoal.length === goal.length && modelGoal.every((label, i) => label === Number(goal[i]));
  if (info.rows === rows && info.cols === cols && sameGoal) return "";
  const shownGoal = goal.map((label) => (Number(label) === 0 ? "_" : label)).join(",");
  return (
    `This model was trained for the ${info.rows} × ${info.cols} puzzle with the goal ${info.goal}; ` +
    `the board is ${rows} × ${cols}${info.rows === rows && info.cols === cols ? ` with the goal ${shownGoal}` : ""}.`
  );
}

/** Positions an evaluation plays between progress reports (a few tens of milliseconds' work). */
const EVALUATION_BATCH = 8;

/**
 * The evaluation by exact optimal distance of a kept model (boards of at most 9 cells), a batch of
 * positions at a time: progress goes to the page after each batch, and the event loop turns
 * between them so that training chunks and other messages are not held up.
 */
async function evaluate({ id, key, options }) {
  await bundleReady;
  const entry = keptModel(key);
  const started = performance.now();
  const job = entry.model.startEvaluation(options ?? undefined);
  try {
    while (!job.step(EVALUATION_BATCH)) {
      postProgress(id, { stage: "evaluate", done: job.done, total: job.total });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return { result: { ...job.result(), key, ms: Math.round(performance.now() - started) } };
  } finally {
    job.free();
  }
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
  const { trainer, backend, adapter } = made;
  const { id } = message;
  const puzzle = message.puzzle ?? "sliding";
  // The previous run's trainer goes once the calls queued for it (a Save) are done.
  if (run) withTrainer(run.trainer, (previous) => previous.free());
  const bounds = ({ 2048: CHUNK_STEPS_2048, minesweeper: CHUNK_STEPS_MINESWEEPER, sudoku: CHUNK_STEPS_SUDOKU, dust: CHUNK_STEPS_DUST })[puzzle] ?? CHUNK_STEPS;
  const modelKey = ({ 2048: TRAINED_2048, minesweeper: TRAINED_MINESWEEPER, sudoku: TRAINED_SUDOKU, dust: TRAINED_DUST })[puzzle] ?? "trained";
  run = { id, trainer, puzzle, modelKey, backend, state: "running", wake: null, waiters: [], lastReport: null, chunkSteps: bounds[backend].first, evaluation: null, checkpointAt: -Infinity };
  const current = run;
  // Sudoku's and dust's trainers hold their own validation puzzles and boards.
  const ownValidation = puzzle === "sudoku" || puzzle === "dust";
  if (puzzle !== "sliding" && message.evalEvery > 0 && (message.evalGames > 0 || ownValidation)) {
    current.evaluation = { every: message.evalEvery, games: message.evalGames, seed: message.evalSeed ?? 0, firstCell: message.evalFirstCell ?? 0, next: message.evalEvery };
  }
  postProgress(id, { stage: "started", backend, adapter, numParams: trainer.numParams, chunkSteps: current.chunkSteps, ...(ownValidation ? { setup: trainer.setup } : {}) });

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
        if (current.evaluation && report.stepsDone >= current.evaluation.next) {
          const validate = ({ minesweeper: minesweeper.validate, sudoku: sudoku.validate, dust: dust.validate })[puzzle] ?? game2048.validate;
          await validate(current, report.stepsDone);
        }
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
  const steps = (n) => `step ${new Intl.NumberFormat("en").format(n)}`;
  const message =
    `WebGPU stopped answering after ${steps(lostAt)}: ${messageOf(error)}. ` +
    `Training goes on on the CPU from the network of ${steps(fromStep)}, the last chunk.`;
  postProgress(current.id, { stage: "fallback", backend: "cpu", fromStep, lostAt, message });
}

/**
 * A trainer for a "train" request on the backend it asks for ("auto": see chooseBackend), with its
 * weights when it goes on from a kept model: { trainer, backend, adapter }.
 */
async function newTrainer(message) {
  const bundle = await bundleReady;
  const puzzle = message.puzzle ?? "sliding";
  const choice = await chooseBackend(bundle, message.backend ?? "auto");
  const { adapter } = choice;
  let { backend, note } = choice;
  const create = async (on) => {
    try {
      if (puzzle === "2048") return await bundle.Dqn2048Trainer.create(message.options ?? {}, on);
      if (puzzle === "minesweeper") return await bundle.DqnMinesweeperTrainer.create(message.options ?? {}, on);
      if (puzzle === "sudoku") return await bundle.DqnSudokuTrainer.create(message.options ?? {}, on);
      if (puzzle === "dust") return await bundle.DqnDustTrainer.create(message.options ?? {}, on);
      return await bundle.DqnTrainer.create(message.rows, message.cols, message.goal ?? "", message.options ?? {}, on);
    } catch (error) {
      throw new Error(`The trainer could not be set up: ${messageOf(error)}`);
    }
  };
  let trainer = await create(choice.timeBoth ? "cpu" : backend);
  let timing = null;
  if (choice.timeBoth) {
    // "auto", WebGPU correct: time this very network on both, and train on the faster.
    try {
      timing = {
        cpu: await trainer.timingProbe("cpu", AUTO_TIMING_STEPS, AUTO_TIMING_MOVES),
        webgpu: await trainer.timingProbe("webgpu", AUTO_TIMING_STEPS, AUTO_TIMING_MOVES),
      };
    } catch (error) {
      timing = null;
      note = `${note} WebGPU could not be timed (${messageOf(error)}): training on the CPU.`;
      backend = "cpu";
    }
    if (timing) {
      backend = timing.webgpu.stepsPerS > timing.cpu.stepsPerS ? "webgpu" : "cpu";
      const rate = ({ stepsPerS: r }) => `${r >= 100 ? Math.round(r) : r.toPrecision(3)} steps/s`;
      note =
        `${note} Timed on this network: WebGPU ${rate(timing.webgpu)}, the CPU ${rate(timing.cpu)}; ` +
        `training on ${backend === "webgpu" ? "WebGPU" : "the CPU"}, the faster.`;
      if (backend === "webgpu") {
        trainer.free();
        trainer = await create("webgpu");
      }
    }
  }
  if (note) postProgress(message.id, { stage: "backend", message: note, backend, timing });
  if (message.continueFrom) {
    try {
      trainer.loadModel(keptModel(message.continueFrom, puzzle).bytes);
    } catch (error) {
      trainer.free();
      throw new Error(`Training cannot go on from the loaded model: ${messageOf(error)}`);
    }
  }
  return { trainer, backend, adapter: backend === "webgpu" ? adapter : "" };
}

/** Steps for the next chunk: towards CHUNK_TARGET_MS, at most doubling, within `bounds`. */
function nextChunkSteps(steps, elapsedMs, { min, max }) {
  const ideal = (steps * CHUNK_TARGET_MS) / Math.max(1, elapsedMs);
  return Math.round(Math.min(max, Math.max(min, Math.min(steps * 2, ideal))));
}

/**
 * Keeps the trainer's network as the model "trained" (2048: "trained-2048"; or under `key`), so
 * that it can solve, play and be evaluated; resolves to the kept entry.
 */
async function snapshotTrained(current, key = current.modelKey) {
  const bundle = await bundleReady;
  const bytes = await withTrainer(current.trainer, (t) => t.saveModel());
  const model = modelClass(bundle, current.puzzle).fromBytes(bytes);
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
  await withTrainer(run.trainer, (t) => t.loadModel(body));
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
 * the faster of the two on the run's own network (`timeBoth`: newTrainer times both).
 * Resolves to { backend, note (why, for the page), adapter (a description of the GPU), timeBoth }.
 */
async function chooseBackend(bundle, wanted) {
  if (wanted === "cpu") return { backend: "cpu", note: "", adapter: "" };
  if (webGpuLost && wanted === "webgpu") {
    throw new Error(`WebGPU stopped answering earlier in this tab (${webGpuLost}). Reload the page to use it again, or choose the CPU or auto.`);
  }
  if (webGpuLost && wanted === "auto") {
    return { backend: "cpu", note: "WebGPU stopped answering earlier in this tab: training on the CPU (reload the page to use WebGPU again).", adapter: "" };
  }
  if (wanted === "webgpu") {
    const missing = await whyNoWebGpu();
    if (missing) throw new Error(`WebGPU is not available: ${missing}. Choose the CPU or auto.`);
    return { backend: "webgpu", note: "", adapter: await adapterName() };
  }
  if (wanted !== "auto") throw new Error(`Unknown backend "${wanted}".`);
  webGpuCheck ??= checkWebGpu(bundle);
  const check = await webGpuCheck;
  if (check.ok) return { backend: "webgpu", note: check.message, adapter: check.adapter, timeBoth: true };
  return { backend: "cpu", note: `WebGPU unavailable: ${check.message}; training on the CPU.`, adapter: "" };
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
