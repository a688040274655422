// Module Web Worker that runs one search (BFS, A*, weighted A*, IDA*) or Q-learning job at a time,
// in chunks, so the page stays responsive and a cancel message can arrive between chunks; or a
// solve by local value iteration, whose tables it builds on first use for a goal and keeps (one
// goal at a time: 50 KB on 4 × 4, 4 MB on 5 × 5). It also keeps the 15-puzzle's pattern
// databases, per goal: the shipped 6-6-3 file when there is one for
// the goal (the page fetches it once, however many workers it runs, and hands the bytes over;
// they are decoded here), otherwise 5-5-5 built here.
//
// Protocol: common/worker-protocol.js's, as every worker of the page speaks it (the page side is
// solver-client.js):
//   in : { type: "solve", id, rows, cols, preset, start, goal, algorithm, heuristic, weight?, nodeBudget? }
//          heuristic "pdb" (IDA* on 4×4 only) searches with the goal's pattern databases,
//          preparing them first when needed; algorithm "local-vi" solves by local value
//          iteration (the heuristic is ignored)
//        { type: "prepare-pdb", rows, cols, goal }  start preparing a 4×4 goal's databases (or
//                                                    repeat their state if they are already kept)
//        { type: "pdb-bytes", goal, bytes, partition, size }  the answer to a "pdb-request": the
//          shipped file as served (gzip or already decompressed) and the index's partition and size
//        { type: "pdb-bytes", goal, bytes: null, message }   no shipped file can be had (why)
//        { type: "cancel", id }
//   out: { type: "ready" }                          once the wasm is loaded
//        { type: "progress", id, nodes, ms }        searches, between chunks
//        { type: "progress", id, episodes, ms }     Q-learning, between chunks
//        { type: "progress", id, waiting: "pdb", ms }  a solve waits for its pattern databases
//        { type: "progress", id, building: "local-vi", ms }  local value iteration builds its
//          tables (one blocking call: a cancel meanwhile ends the worker)
//        { type: "result", id, result }             the job's result plus `ms`; local value
//          iteration's adds `stages`, `moveStages` and `tables` (LocalViSolver.solve), with
//          `tables.buildMs` as measured here and `tables.built`: whether this solve built them
//        { type: "error", id, message }
//        { type: "error", id, message, cancelled: true }  sent as soon as the cancel is read
//        { type: "pdb-request", goal }              asks the page for the goal's shipped file; the
//          page reports the download's progress itself, as "downloading" states
//        { type: "pdb", goal, state, progress, partition, source, bytes, mirrored, message }
//          state "decoding" | "building" | "ready" | "error"; progress 0..1 (null while it cannot
//          be measured); source "shipped" | "built"; bytes: the file's size; mirrored: whether
//          the mirrored lookup is used (once ready); message: why the databases are built rather
//          than shipped, or the error

import { GZIP_MAGIC, gunzip } from "../common/download.js";
import { errorMessage, loadWasm } from "../common/wasm.js";
import { announceReady, postCancelled, postProgress, serveRequests } from "../common/worker-protocol.js";

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

/** Pattern databases kept at once (a 6-6-3 set takes about 11.5 MB of wasm memory). */
const MAX_KEPT_DATABASES = 3;
/** The partition the worker builds when no shipped file serves a goal (6-6-3 takes ~10 s here). */
const BUILT_PARTITION = "5-5-5";
/** First bytes of a decompressed file (src/env/sliding/pdb.rs writes them). */
const PDB_MAGIC = [..."PZLPDB"].map((character) => character.charCodeAt(0));

const apiReady = loadWasm();
/**
 * The running job: { id, cancelled, waitingFor (the kept databases it waits for), finished (a
 * promise) }, or null when idle.
 */
let current = null;
/** Resolved (and replaced) whenever a job starts waiting for databases; see untilNoOtherJobRuns. */
let jobStartedWaiting = Promise.withResolvers();

announceReady(apiReady, () => ({}), (error) => `Could not load the solver: ${errorMessage(error)}`);

serveRequests({
  cancel(message) {
    // The job stops at its next turn; answering now lets the page (and a next solve) go on even
    // while a job waits for pattern databases that are still being prepared.
    if (current && (message.id === undefined || message.id === current.id)) {
      current.cancelled = true;
      postCancelled(current.id);
      current = null;
    }
  },
  solve(message) {
    if (current) throw new Error("The solver is busy with another job.");
    const job = { id: message.id, cancelled: false, waitingFor: null, finished: null };
    current = job;
    // `finished` never rejects (other jobs wait on it); a cancelled job answers nothing more.
    job.finished = runJob(message, job).finally(() => {
      if (current === job) current = null;
    });
    return job.finished.then((answer) => {
      if (answer?.error) throw answer.error;
      return answer ?? undefined;
    });
  },
  "pdb-bytes"(message) {
    const request = fileRequests.get(message.goal);
    fileRequests.delete(message.goal);
    request?.resolve(message);
  },
  "prepare-pdb"(message) {
    if (message.rows === 4 && message.cols === 4 && typeof message.goal === "string") {
      apiReady.then((api) => keptDatabases(api, message.goal)).catch(() => {});
    }
  },
});

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Calls `chunk()` until it returns true (finished) or SLICE_MS have passed; returns its last answer. */
function runSlice(chunk) {
  const sliceEnd = performance.now() + SLICE_MS;
  let finished = false;
  do finished = chunk();
  while (!finished && performance.now() < sliceEnd);
  return finished;
}

/** Runs a "solve": resolves to its answer { result }, { error }, or null once cancelled (never rejects). */
async function runJob(request, job) {
  let puzzle = null;
  try {
    const api = await apiReady;
    puzzle = api.Puzzle.parse(request.rows, request.cols, request.start, request.goal ?? "", request.preset ?? "");
    const started = performance.now();
    const result =
      request.algorithm === "qlearning"
        ? await trainQLearning(api, puzzle, request, job, started)
        : request.algorithm === "local-vi"
          ? solveWithLocalVi(api, puzzle, request, started)
          : request.heuristic === "pdb"
            ? await searchWithPatternDatabases(api, puzzle, request, job, started)
            : await search(api, puzzle, request, job, started);
    // A cancelled job was answered when the cancel arrived.
    if (result === null || job.cancelled) return null;
    return { result: { ...result, ms: Math.round(performance.now() - started) } };
  } catch (error) {
    return job.cancelled ? null : { error };
  } finally {
    puzzle?.free();
  }
}

/** Runs a SearchJob to the end; null if cancelled. */
async function search(api, puzzle, request, job, started) {
  const searchJob = new api.SearchJob(
    puzzle,
    request.algorithm,
    request.heuristic ?? "manhattan",
    request.nodeBudget ?? 0,
    request.weight ?? 0,
  );
  return runSearchJob(searchJob, request, job, started);
}

/** IDA* with the goal's pattern databases, waiting for them first if they are not ready. */
async function searchWithPatternDatabases(api, puzzle, request, job, started) {
  if (request.algorithm !== "idastar" || puzzle.rows !== 4 || puzzle.cols !== 4) {
    throw new Error("Pattern databases are for IDA* on 4 × 4 boards.");
  }
  const kept = keptDatabases(api, puzzle.goalText());
  kept.users += 1;
  try {
    if (kept.state !== "ready" && !job.cancelled) {
      job.waitingFor = kept;
      jobStartedWaiting.resolve();
      jobStartedWaiting = Promise.withResolvers();
      postProgress(request.id, { waiting: "pdb", ms: Math.round(performance.now() - started) });
    }
    const databases = await kept.ready;
    job.waitingFor = null;
    if (job.cancelled) return null;
    // The SearchJob holds its own reference to the tables, so evicting `kept` later is safe.
    const searchJob = api.SearchJob.withPatternDatabases(puzzle, databases, request.nodeBudget ?? 0);
    return runSearchJob(searchJob, request, job, started);
  } finally {
    kept.users -= 1;
    evictBeyondLimit();
  }
}

/** Steps `searchJob` in slices until it finishes (its result) or the job is cancelled (null); frees it. */
async function runSearchJob(searchJob, request, job, started) {
  try {
    for (;;) {
      // A cancel may have been read while this job was being set up.
      if (job.cancelled) return null;
      const finished = runSlice(() => searchJob.step(NODES_PER_CHUNK));
      if (finished) return searchJob.result();
      postProgress(request.id, { nodes: searchJob.nodes, ms: Math.round(performance.now() - started) });
      await yieldToMessages();
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
      postProgress(request.id, { episodes: learner.episodesDone, ms: Math.round(performance.now() - started) });
      await yieldToMessages();
      if (job.cancelled) return null;
    }
  } finally {
    learner.free();
  }
}

// ---- local value iteration ---------------------------------------------------------------------

/** The tables of the last goal solved by local value iteration: { solver, buildMs }, or null. */
let localVi = null;

/** Solves by local value iteration, building the goal's tables first unless they are kept. */
function solveWithLocalVi(api, puzzle, request, started) {
  let built = false;
  if (!localVi?.solver.fitsGoalOf(puzzle)) {
    localVi?.solver.free();
    localVi = null;
    postProgress(request.id, { building: "local-vi", ms: Math.round(performance.now() - started) });
    const buildStarted = performance.now();
    const solver = api.LocalViSolver.build(puzzle);
    // performance.now, finer than the Date.now the tables measure themselves with.
    localVi = { solver, buildMs: performance.now() - buildStarted };
    built = true;
  }
  const result = localVi.solver.solve(puzzle);
  result.tables.buildMs = Math.round(localVi.buildMs * 10) / 10;
  result.tables.built = built;
  return result;
}

// ---- pattern databases, kept per goal -----------------------------------------------------------

/**
 * Kept databases by goal text, least recently used first. Each entry:
 * { goal, state, progress, partition, source, message, ready: Promise<PatternDatabases>,
 *   databases (once ready), users (solves using it: never evicted meanwhile) }.
 * Preparation belongs to the entry, not to a solve, so cancelling a solve never interrupts it.
 */
const keptByGoal = new Map();

/** The entry for a 4×4 goal, preparing it if it is not kept; reports its state to the page. */
function keptDatabases(api, goal) {
  let kept = keptByGoal.get(goal);
  if (kept) {
    keptByGoal.delete(goal); // re-insert: most recently used
    keptByGoal.set(goal, kept);
    // While the page downloads the file for this worker, the page reports that state itself.
    if (kept.state !== "downloading") report(kept);
    return kept;
  }
  kept = {
    goal,
    state: "downloading", // until the page answers the "pdb-request"
    progress: 0,
    partition: null,
    source: null,
    bytes: null,
    mirrored: null,
    message: "",
    databases: null,
    users: 0,
  };
  keptByGoal.set(goal, kept);
  kept.ready = prepareDatabases(api, kept);
  kept.ready.catch(() => {});
  evictBeyondLimit();
  return kept;
}

/** Frees the least recently used entries that are ready (or failed) and unused, beyond the limit. */
function evictBeyondLimit() {
  for (const [goal, kept] of keptByGoal) {
    if (keptByGoal.size <= MAX_KEPT_DATABASES) return;
    if (kept.users > 0 || (kept.state !== "ready" && kept.state !== "error")) continue;
    keptByGoal.delete(goal);
    kept.databases?.free();
    kept.databases = null;
  }
}

/** Applies `changes` to the entry and sends its state to the page. */
function report(kept, changes = {}) {
  Object.assign(kept, changes);
  const { goal, state, progress, partition, source, bytes, mirrored, message } = kept;
  postMessage({ type: "pdb", goal, state, progress, partition, source, bytes, mirrored, message });
}

/** Decodes the shipped file the page hands over for the goal, or builds 5-5-5; resolves to the databases. */
async function prepareDatabases(api, kept) {
  let puzzle = null;
  try {
    puzzle = api.Puzzle.parse(4, 4, kept.goal, kept.goal, "");
    const shipped = await shippedFileFromPage(kept.goal);
    let whyBuilt = shipped.message ?? "no shipped file for this goal";
    if (shipped.bytes) {
      try {
        report(kept, { state: "decoding", progress: null, partition: shipped.partition, source: "shipped", bytes: shipped.size });
        const bytes = await decompressedFile(shipped.bytes);
        await untilNoOtherJobRuns(kept);
        const databases = api.PatternDatabases.fromBytes(puzzle, bytes);
        return finishPreparing(kept, databases, "shipped", "");
      } catch (error) {
        whyBuilt = `the shipped file could not be used: ${errorMessage(error)}`;
      }
    }
    report(kept, { state: "building", progress: 0, partition: BUILT_PARTITION, source: "built", message: whyBuilt });
    await untilNoOtherJobRuns(kept);
    const databases = api.PatternDatabases.build(puzzle, BUILT_PARTITION, (fraction) => report(kept, { progress: fraction }));
    return finishPreparing(kept, databases, "built", whyBuilt);
  } catch (error) {
    report(kept, { state: "error", progress: null, message: errorMessage(error) });
    // Forget the failure, so that showing the goal again tries again.
    if (keptByGoal.get(kept.goal) === kept) keptByGoal.delete(kept.goal);
    throw error;
  } finally {
    puzzle?.free();
  }
}

function finishPreparing(kept, databases, source, message) {
  kept.databases = databases;
  report(kept, { state: "ready", progress: 1, partition: databases.partition, source, mirrored: databases.mirrored, message });
  evictBeyondLimit();
  return databases;
}

/**
 * Decoding or building blocks the worker for about a second, so a background preparation waits
 * until no other job runs: a search in progress stays cancellable between its chunks.
 */
async function untilNoOtherJobRuns(kept) {
  while (current && current.waitingFor !== kept) await Promise.race([current.finished, jobStartedWaiting.promise]);
}

/** Requests for shipped files sent to the page, by goal: the resolvers of their answers. */
const fileRequests = new Map();

/** The page's answer to a "pdb-request" for the goal (see the protocol above). */
function shippedFileFromPage(goal) {
  let request = fileRequests.get(goal);
  if (!request) {
    request = Promise.withResolvers();
    fileRequests.set(goal, request);
    postMessage({ type: "pdb-request", goal });
  }
  return request.promise;
}

/**
 * The decompressed bytes of a database file as served. A server may already have decompressed
 * it (Content-Encoding: gzip); then the bytes start with the file's magic and are used as they are.
 */
async function decompressedFile(body) {
  if (startsWith(body, PDB_MAGIC)) return body;
  if (!startsWith(body, GZIP_MAGIC)) throw new Error("the download is neither gzip nor a pattern-database file");
  return gunzip(body);
}

function startsWith(bytes, prefix) {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}
