// Module Web Worker for 2048's n-tuple network (src/agent/ntuple/ through src/web/ntuple.rs, in
// the core bundle pkg/ — no burn): it trains one network by TD(0) a chunk of games at a time,
// pausable and stoppable between chunks, and evaluates agents (greedy 1-ply, expectimax over the
// network's values, random) over seeded games in chunks with progress, answering in the JSON shape
// of `puzzlelab 2048 eval`. One job at a time: training runs, or an evaluation does (an
// evaluation may run while training is paused). The page side is 2048/train-panel.js.
//
// Networks are kept by key: "trained" is the trainer's own network; any other key (the panel uses
// "loaded" for a file and "shipped" for www/models/2048-ntuple.ntuple.gz) holds a file's bytes,
// unpacked. Files may come gzip-compressed (the shipped one is): DecompressionStream unpacks them
// here, as the core bundle has no gzip decoder.
//
// Protocol ({ type, id, ... }; every request gets exactly one "result" or "error" with its id):
//   in : { type: "train", id, tupleSet, alpha, seed, gamesPerChunk, from? }
//          from: null (a new network of tupleSet), "trained" (go on with the trainer's network) or
//          the key of a kept file; answered when training stops: { stopped, gamesTrained, tupleSet }
//        { type: "pause", id }    answered once the loop is paused: { state, gamesTrained }
//        { type: "resume", id }   answered at once: { state }
//        { type: "stop", id }     answered once the loop has stopped: { state, gamesTrained }
//        { type: "chunk-size", id, gamesPerChunk }  games per chunk from the next chunk on
//        { type: "save", id, precision ("f32" | "f16"), gzip }   the trainer's network as a file:
//          { bytes (Uint8Array, transferred), gamesTrained, tupleSet, precision, gzip }
//        { type: "load", id, key, bytes, name }  keeps a network file (gzip or not) under key:
//          { key, info: { tupleSet, weights, gamesTrained }, size }
//        { type: "load-url", id, key, url }      the same for a file fetched from url (download
//          progress reported)
//        { type: "evaluate", id, network ("trained" or a key), agent ("greedy" | "expectimax" |
//          "random"), depth, games, seed }  answered with the report { agent, depth, model,
//          games_trained, tuple_set, seed, chance_nodes, summary: { games, mean_score,
//          median_score, max_score, mean_moves, reach: { "1024": rate, … }, seconds,
//          games_per_s, moves_per_s } }
//        { type: "cancel", id, job }  cancels the evaluation whose id is job (or any): { cancelled }
//   out: { type: "ready", tupleSets }   the core bundle is loaded; tupleSets: ntupleTupleSets()'s
//          [{ name, tuples, weights, megabytesF32, fitsInATab }]
//        { type: "progress", id, stage: "started", tupleSet, weights, gamesTrained, alpha, seed }
//        { type: "progress", id, stage: "chunk", stats }        after every training chunk:
//          NTupleTrainer.trainGames's { games_trained, summary }
//        { type: "progress", id, stage: "evaluate", done, total }
//        { type: "progress", id, stage: "download", loaded, total }
//        { type: "result", id, result }
//        { type: "error", id, message, cancelled? }             id null: the bundle did not load

import { errorMessage, loadWasm } from "../common/wasm.js";
import { fetchBytes, gunzip, gzip as gzipBytes, isGzip } from "../common/download.js";
import { announceReady, postProgress, serveRequests } from "../common/worker-protocol.js";

/**
 * Evaluation games run back to back for this long before the worker reports progress and reads
 * its messages (where a cancel may wait). One greedy game of a trained network takes ~10-30 ms
 * here, one expectimax game (depth 2) about a second.
 */
const SLICE_MS = 100;

const apiReady = loadWasm();
announceReady(
  apiReady,
  (api) => ({ tupleSets: api.ntupleTupleSets() }),
  (error) => `Could not load the 2048 module: ${errorMessage(error)}`,
);

/** The trainer (NTupleTrainer) once a training run began; kept after it stops, for Save. */
let trainer = null;
/**
 * The training run: { id, state ("running" | "pausing" | "paused" | "stopping"), wake (ends a
 * pause), waiters ({ state, resolve } answered when the loop gets there), gamesPerChunk }, or null.
 */
let run = null;
/** The running evaluation: { id, cancelled }, or null. */
let evaluating = null;
/** Kept network files by key: { bytes (unpacked), info, name }. */
const networks = new Map();

serveRequests({
  train,
  pause,
  resume,
  stop,
  "chunk-size": chunkSize,
  save,
  load,
  "load-url": loadUrl,
  evaluate,
  cancel,
});

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

// ---- training -------------------------------------------------------------------------------------

/** Trains until stopped, a chunk of games at a time, reporting each chunk. */
async function train({ id, tupleSet, alpha, seed, gamesPerChunk, from = null }) {
  const api = await apiReady;
  if (run) throw new Error("A training run is under way: stop it before starting another.");
  if (evaluating) throw new Error("An evaluation is running: wait for it or cancel it first.");
  const chunk = checkChunk(gamesPerChunk);
  let next;
  if (from === "trained") {
    if (!trainer) throw new Error("Nothing has been trained yet.");
    next = api.NTupleTrainer.fromBytes(trainer.saveNetwork("f32"), alpha, seed);
  } else if (from) {
    next = api.NTupleTrainer.fromBytes(keptNetwork(from).bytes, alpha, seed);
  } else {
    next = new api.NTupleTrainer(tupleSet, alpha, seed);
  }
  trainer?.free();
  trainer = next;
  run = { id, state: "running", wake: null, waiters: [], gamesPerChunk: chunk };
  postProgress(id, {
    stage: "started",
    tupleSet: trainer.tupleSet,
    weights: trainer.weights,
    gamesTrained: trainer.gamesTrained,
    alpha: trainer.alpha,
    seed: trainer.seed,
  });
  try {
    for (;;) {
      if (run.state === "stopping") break;
      if (run.state === "pausing") {
        run.state = "paused";
        const woken = new Promise((resolve) => (run.wake = resolve));
        answerWaiters("paused");
        await woken;
        continue;
      }
      const stats = trainer.trainGames(run.gamesPerChunk);
      postProgress(id, { stage: "chunk", stats });
      await yieldToMessages();
    }
  } finally {
    answerWaiters("stopped");
    run = null;
  }
  return { result: { stopped: true, gamesTrained: trainer.gamesTrained, tupleSet: trainer.tupleSet } };
}

/** Answers the pause and stop requests waiting for the loop to reach `state`. */
function answerWaiters(state) {
  const gamesTrained = trainer?.gamesTrained ?? 0;
  const waiting = [];
  for (const waiter of run.waiters) {
    // Stopping answers every waiter: a pause that never came tells the page it stopped instead.
    if (waiter.state === state || state === "stopped") waiter.resolve({ result: { state, gamesTrained } });
    else waiting.push(waiter);
  }
  run.waiters = waiting;
}

function pause() {
  if (!run) throw new Error("Nothing is training.");
  if (run.state === "paused") return { result: { state: "paused", gamesTrained: trainer.gamesTrained } };
  if (run.state !== "running" && run.state !== "pausing") throw new Error(`Training is ${run.state}.`);
  run.state = "pausing";
  return new Promise((resolve) => run.waiters.push({ state: "paused", resolve }));
}

function resume() {
  if (!run || run.state !== "paused") throw new Error("Training is not paused.");
  if (evaluating) throw new Error("An evaluation is running: wait for it or cancel it first.");
  run.state = "running";
  run.wake?.();
  run.wake = null;
  return { result: { state: "running" } };
}

function stop() {
  if (!run) return { result: { state: "stopped", gamesTrained: trainer?.gamesTrained ?? 0 } };
  const wasPaused = run.state === "paused";
  run.state = "stopping";
  const answered = new Promise((resolve) => run.waiters.push({ state: "stopped", resolve }));
  if (wasPaused) run.wake?.();
  return answered;
}

function chunkSize({ gamesPerChunk }) {
  const chunk = checkChunk(gamesPerChunk);
  if (run) run.gamesPerChunk = chunk;
  return { result: { gamesPerChunk: chunk } };
}

function checkChunk(games) {
  const value = Number(games);
  if (!Number.isInteger(value) || value < 1 || value > 100_000) throw new Error("Games per chunk must be a whole number from 1 to 100,000.");
  return value;
}

/** The trainer's network as a file, gzip-compressed when asked (CompressionStream). */
async function save({ precision = "f32", gzip = false }) {
  if (!trainer) throw new Error("Nothing has been trained yet.");
  let bytes = trainer.saveNetwork(precision);
  if (gzip) bytes = await gzipBytes(bytes);
  return {
    result: { bytes, gamesTrained: trainer.gamesTrained, tupleSet: trainer.tupleSet, precision, gzip },
    transfer: [bytes.buffer],
  };
}

// ---- network files --------------------------------------------------------------------------------

/** Keeps a network file the page read (a Uint8Array or ArrayBuffer, gzip or not) under `key`. */
async function load({ key, bytes, name = "" }) {
  const body = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes ?? []);
  const what = name ? `The file "${name}"` : "The file";
  return { result: await keepNetwork(key, body, name, what) };
}

/** Fetches a network file (download progress reported) and keeps it under `key`. */
async function loadUrl({ id, key, url }) {
  // As chunks arrive, whole percents only (none when the size is not known).
  let answered = false;
  let reported = -1;
  const body = await fetchBytes(url, ({ loaded, total }) => {
    if (!answered) {
      answered = true;
      return;
    }
    const percent = total ? Math.floor((100 * loaded) / total) : -1;
    if (percent > reported) {
      reported = percent;
      postProgress(id, { stage: "download", loaded, total });
    }
  });
  const name = new URL(url, self.location.href).pathname.split("/").pop();
  return { result: await keepNetwork(key, body, name, `The network at ${url}`) };
}

/** Unpacks, checks and keeps a network file; resolves to { key, info, size }. */
async function keepNetwork(key, body, name, what) {
  const api = await apiReady;
  if (!key || key === "trained") throw new Error(`A network file cannot be kept under "${key}".`);
  let bytes = body;
  try {
    if (isGzip(body)) {
      try {
        bytes = await gunzip(body);
      } catch {
        throw new Error("it is gzip-compressed but does not decompress (the file is damaged or cut short)");
      }
    }
    const info = api.ntupleNetworkInfo(bytes);
    networks.set(key, { bytes, info, name });
    return { key, info, size: body.byteLength };
  } catch (error) {
    throw new Error(`${what} could not be loaded: ${errorMessage(error)}.`);
  }
}

function keptNetwork(key) {
  const entry = networks.get(key);
  if (!entry) throw new Error(key === "loaded" ? "Load a network file first." : `No network is kept as "${key}".`);
  return entry;
}

// ---- evaluation -----------------------------------------------------------------------------------

/** Plays an agent over seeded games in slices, reporting progress; resolves to the report. */
async function evaluate({ id, network = "trained", agent = "greedy", depth = 2, games = 100, seed = 0 }) {
  const api = await apiReady;
  if (evaluating) throw new Error("An evaluation is running already: wait for it or cancel it.");
  if (run && run.state !== "paused") throw new Error("Training is running: pause or stop it before evaluating.");
  let evaluation;
  if (network === "trained") {
    if (!trainer) throw new Error("Nothing has been trained yet.");
    evaluation = api.NTupleEvaluation.fromTrainer(trainer, agent, depth, games, seed);
  } else {
    const entry = keptNetwork(network);
    evaluation = api.NTupleEvaluation.fromBytes(entry.bytes, agent, depth, games, seed, entry.name);
  }
  const job = { id, cancelled: false };
  evaluating = job;
  try {
    postProgress(id, { stage: "evaluate", done: 0, total: evaluation.games });
    for (;;) {
      const sliceEnd = performance.now() + SLICE_MS;
      let finished;
      do finished = evaluation.play(1);
      while (!finished && performance.now() < sliceEnd);
      postProgress(id, { stage: "evaluate", done: evaluation.gamesDone, total: evaluation.games });
      if (finished) break;
      await yieldToMessages();
      if (job.cancelled) throw Object.assign(new Error(`Evaluation cancelled after ${evaluation.gamesDone} games.`), { cancelled: true });
    }
    return { result: evaluation.report() };
  } finally {
    evaluation.free();
    evaluating = null;
  }
}

function cancel({ job }) {
  const cancelled = Boolean(evaluating && (job === undefined || job === null || job === evaluating.id));
  if (cancelled) evaluating.cancelled = true;
  return { result: { cancelled } };
}
