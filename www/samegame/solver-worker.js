// Module Web Worker of the dust puzzle and SameGame (samegame/solver-client.js starts it): the
// exact fewest-clicks solver and SameGame's Monte Carlo searches (src/env/samegame/ through
// SameGameHandle of src/web/samegame.rs, in the core bundle pkg/), one job at a time.
//
// The exact solver is one call into wasm that calls back every 65,536 positions: the worker posts
// progress from the callback and stops the search (answering the best clearing found, not proved
// optimal) once its time limit is past; with no limit (seconds null) it runs until it has proved
// the fewest. The Monte Carlo searches are one call with a time budget that calls back about
// every quarter of a second with the best score so far, posted as progress.
// A person's Cancel cannot reach a worker inside a call, so the client terminates the worker and
// starts another (as the sliding solver's client does with a worker that does not answer in time).
//
// Protocol (common/worker-protocol.js's; every request gets exactly one "result" or "error"):
//   in : { type: "exact", id, rules, text, seconds }      the fewest clicks from board text `text`
//                                                          (seconds null: no time limit)
//        { type: "search", id, rules, text, algo ("nrpa" | "nmcs"), seconds, seed }
//   out: { type: "ready" }                                 the core bundle is loaded
//        { type: "progress", id, nodes, depth, best, ms }  exact: best = clicks of the best clearing
//        { type: "progress", id, best, playouts, ms }      search: best = the best game's points
//        { type: "result", id, result: { cells, optimal, lowerBound, nodes, table, stopped, ms } }
//        { type: "result", id, result: { cells, score, cleared, playouts, seconds } }
//        { type: "error", id, message }                    the board or a setting cannot be used
//        { type: "error", id: null, message }              the bundle did not load

import { errorMessage, loadWasm } from "../common/wasm.js";
import { announceReady, postProgress, serveRequests } from "../common/worker-protocol.js";

const apiReady = loadWasm();
announceReady(apiReady, () => ({}), (error) => `Could not load the solver: ${errorMessage(error)}`);

serveRequests({ exact, search });

async function exact({ id, rules, text, seconds }) {
  const api = await apiReady;
  if (seconds !== null && !(seconds > 0)) throw new Error("The time limit must be above 0 seconds.");
  const game = api.SameGameHandle.fromText(rules, text);
  try {
    const started = performance.now();
    const deadline = seconds === null ? Infinity : started + seconds * 1000;
    const result = game.solveFewestClicks(({ nodes, depth, best }) => {
      const now = performance.now();
      postProgress(id, { nodes, depth, best, ms: now - started });
      return now < deadline;
    }, 0);
    return { result: { ...result, ms: performance.now() - started } };
  } finally {
    game.free();
  }
}

async function search({ id, rules, text, algo, seconds, seed }) {
  const api = await apiReady;
  const game = api.SameGameHandle.fromText(rules, text);
  try {
    const started = performance.now();
    const progress = ({ best, playouts }) => {
      postProgress(id, { best, playouts, ms: performance.now() - started });
      return true;
    };
    return { result: game.searchScore(algo, seconds, seed, progress) };
  } finally {
    game.free();
  }
}
