// Module Web Worker that runs one search (BFS, A*, IDA*) or Q-learning job at a time, in
// chunks, so the page stays responsive and a cancel message can arrive between chunks.
//
// Protocol (the page side is solver-client.js):
//   in : { type: "solve", id, rows, cols, preset, start, goal, algorithm, heuristic }
//        { type: "cancel", id }
//   out: { type: "ready" }                          once the wasm is loaded
//        { type: "progress", id, nodes, ms }        searches, between chunks
//        { type: "progress", id, episodes, ms }     Q-learning, between chunks
//        { type: "result", id, result }             the job's result plus `ms`
//        { type: "error", id, message }
//        { type: "cancelled", id }

import { errorMessage, loadWasm } from "./wasm.js";

/** Nodes expanded per SearchJob.step call (a few milliseconds of work). */
const NODES_PER_CHUNK = 20_000;
/** Q-learning episodes per QLearningJob.train call. */
const EPISODES_PER_CHUNK = 25;
/**
 * Chunks run back to back for this long before the worker reports progress and yields to its
 * message queue (where a cancel may wait). Yielding after every chunk would cost the clamped
 * setTimeout delay (about 4 ms) per chunk, a large share of a search's time.
 */
const SLICE_MS = 50;

const apiReady = loadWasm();
/** The running job: { id, cancelled }, or null when idle. */
let current = null;

apiReady.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "error", id: null, message: `Could not load the solver: ${errorMessage(error)}` }),
);

self.onmessage = (event) => {
  const message = event.data;
  if (message?.type === "cancel") {
    if (current && (message.id === undefined || message.id === current.id)) current.cancelled = true;
  } else if (message?.type === "solve") {
    if (current) {
      postMessage({ type: "error", id: message.id, message: "The solver is busy with another job." });
      return;
    }
    current = { id: message.id, cancelled: false };
    runJob(message, current).finally(() => {
      current = null;
    });
  }
};

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Calls `chunk()` until it returns true (finished) or SLICE_MS have passed; returns its last answer. */
function runSlice(chunk) {
  const sliceEnd = performance.now() + SLICE_MS;
  let finished = false;
  do finished = chunk();
  while (!finished && performance.now() < sliceEnd);
  return finished;
}

async function runJob(request, job) {
  const { id } = request;
  let puzzle = null;
  try {
    const api = await apiReady;
    puzzle = api.Puzzle.parse(request.rows, request.cols, request.start, request.goal ?? "", request.preset ?? "");
    const started = performance.now();
    const result =
      request.algorithm === "qlearning"
        ? await trainQLearning(api, puzzle, request, job, started)
        : await search(api, puzzle, request, job, started);
    if (result === null) {
      postMessage({ type: "cancelled", id });
      return;
    }
    postMessage({ type: "result", id, result: { ...result, ms: Math.round(performance.now() - started) } });
  } catch (error) {
    postMessage({ type: "error", id, message: errorMessage(error) });
  } finally {
    puzzle?.free();
  }
}

/** Runs a SearchJob to the end; null if cancelled. */
async function search(api, puzzle, request, job, started) {
  const searchJob = new api.SearchJob(puzzle, request.algorithm, request.heuristic ?? "manhattan", request.nodeBudget ?? 0);
  try {
    for (;;) {
      const finished = runSlice(() => searchJob.step(NODES_PER_CHUNK));
      if (finished) return searchJob.result();
      postMessage({ type: "progress", id: request.id, nodes: searchJob.nodes, ms: Math.round(performance.now() - started) });
      await yieldToMessages();
      if (job.cancelled) return null;
    }
  } finally {
    searchJob.free();
  }
}

/** Trains a QLearningJob for its configured episodes, then returns its greedy rollout; null if cancelled. */
async function trainQLearning(api, puzzle, request, job, started) {
  const learner = new api.QLearningJob(puzzle, request.config ?? {});
  try {
    for (;;) {
      const finished = runSlice(() => learner.train(EPISODES_PER_CHUNK));
      if (finished) return learner.result();
      postMessage({
        type: "progress",
        id: request.id,
        episodes: learner.episodesDone,
        ms: Math.round(performance.now() - started),
      });
      await yieldToMessages();
      if (job.cancelled) return null;
    }
  } finally {
    learner.free();
  }
}
