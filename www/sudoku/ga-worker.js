// Module Web Worker for the Sudoku page's genetic-algorithm card (sudoku/ga-panel.js): it runs the
// coursework's GA (src/env/sudoku/genetic.rs through src/web/sudoku_ga.rs, in the core bundle
// pkg/) a few generations at a time, reports the new generations between slices of about 50 ms,
// and stops at fitness 243, at the time limit, at a generation cap, or on Stop. One run at a time.
// The clock starts before the first generation is made, as `puzzlelab sudoku ga`'s does.
//
// Protocol (common/worker-protocol.js's; every request gets exactly one "result" or "error"):
//   in : { type: "run", id, puzzle, population, init ("rows" | "boxes"), repair, seed, seconds,
//          generations? (a cap; none: until solved or the time limit) }
//        { type: "stop", id }   stops the run after its current slice; answered at once: { stopping }
//   out: { type: "ready" }      the core bundle is loaded
//        { type: "progress", id, points: [{ generation, best, mean }] (the generations new since the
//          last report; the first report starts with generation 0, the random first one), generation,
//          best, mean, ms, bestGrid (81 digits), conflicts (cells of the best grid whose digit repeats
//          in a unit) }
//        { type: "result", id, result: { reason ("solved" | "time" | "generations" | "stopped"),
//          solved, generation, best, mean, ms, msToSolve (null unless solved), bestGrid, conflicts } }
//        { type: "error", id, message }   the puzzle or a setting cannot be used: nothing ran
//        { type: "error", id: null, message }   the bundle did not load

import { errorMessage, loadWasm } from "../common/wasm.js";
import { announceReady, postProgress, serveRequests } from "../common/worker-protocol.js";

/** Generations run back to back for about this long before the worker reports and reads its messages. */
const SLICE_MS = 50;
/** What one call into wasm should take: small enough to meet the time limit and the slice closely. */
const CALL_MS = 5;

const apiReady = loadWasm();
announceReady(apiReady, () => ({}), (error) => `Could not load the genetic algorithm: ${errorMessage(error)}`);

/** The run under way: { id, stopping }, or null. */
let current = null;

serveRequests({ run, stop });

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

function stop() {
  if (current) current.stopping = true;
  return { result: { stopping: current !== null } };
}

async function run({ id, puzzle, population, init, repair, seed, seconds, generations = null }) {
  const api = await apiReady;
  if (current) throw new Error("A run is under way: stop it first.");
  if (!(seconds > 0)) throw new Error("The time limit must be above 0 seconds.");
  const job = { id, stopping: false };
  current = job;
  const started = performance.now();
  const limitMs = seconds * 1000;
  const cap = generations ?? Infinity;
  let ga = null;
  try {
    ga = new api.SudokuGa(puzzle, population, init, repair, seed);
    let points = [ga.stats()];
    let msToSolve = ga.solved ? performance.now() - started : null;
    /** Generations per call, adapted so that a call takes about CALL_MS. */
    let batch = 1;
    /** Why the run is over, or null while it goes on. */
    const over = () => {
      if (ga.solved) return "solved";
      if (ga.generation >= cap) return "generations";
      if (performance.now() - started >= limitMs) return "time";
      return null;
    };
    let reason = null;
    for (;;) {
      const sliceEnd = performance.now() + SLICE_MS;
      while ((reason = over()) === null && performance.now() < sliceEnd) {
        const count = Math.min(batch, cap - ga.generation);
        const before = performance.now();
        points = points.concat(ga.run(count));
        const took = performance.now() - before;
        if (ga.solved && msToSolve === null) msToSolve = performance.now() - started;
        batch = took < CALL_MS / 2 ? Math.min(batch * 2, 4096) : took > CALL_MS * 2 ? Math.max(1, batch >> 1) : batch;
      }
      postProgress(id, report(ga, started, { points }));
      points = [];
      if (reason !== null) break;
      await yieldToMessages();
      if (job.stopping) {
        reason = "stopped";
        break;
      }
    }
    const last = report(ga, started, {});
    return { result: { reason, solved: ga.solved, ...last, msToSolve } };
  } finally {
    ga?.free();
    current = null;
  }
}

/** What progress and the result say of the current generation. */
function report(ga, started, fields) {
  return {
    ...fields,
    generation: ga.generation,
    best: ga.bestFitness,
    mean: ga.meanFitness,
    ms: performance.now() - started,
    bestGrid: ga.bestGrid(),
    conflicts: ga.bestConflicts(),
  };
}
