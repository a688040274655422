// What the learning worker does alike for every puzzle's models and runs: play an evaluation a
// batch at a time with progress and Cancel ("evaluate-model" and "cancel-evaluation", which the
// worker answers for every puzzle), run a training run's validation when it is due, and say what a
// refused model file is; and what a puzzle's jobs module (sliding/, 2048/, minesweeper/, sudoku/
// and samegame/learn-jobs.js) gives the worker.
//
// Every learnable puzzle of the registry (puzzles.js) names its jobs module (`learner.jobs`), which
// exports learnJobs(worker); learn-worker.js calls it once with what the jobs need of the worker
// ({ puzzle (the registry's entry), bundleReady, keptModel(key, puzzleId), withTrainer(trainer,
// call), snapshotTrained(run), isKept(key, model) }) and keeps what it returns by puzzle id:
//   handlers            its own request types, named after it, for what is no model's
//                       ("evaluate-minesweeper-solver"); a model plays and is evaluated through
//                       the worker's "play-model" and "evaluate-model"
//   chunkSteps          { cpu, webgpu }: { first, min, max } training steps per chunk
//   trainerOptions      (message) => the options of LearnerTrainer.create(puzzle, options,
//                       backend) (absent: message.options)
//   validate            (run, steps) => the in-training evaluation (absent: none): validateRun,
//                       or validateStepwise for long games
//   trainerSetup        true when its trainer holds its own validation set: `evalEvery` alone asks
//                       for validation, and "started" carries the trainer's `setup`
//   prepare             (trainer, message, step) => what the new trainer needs before its first
//                       step (2048: the n-tuple network's demonstrations); step(name, { detail })
//                       reports a stage of the start ({ stage: "setup", step, detail })

import { byId, puzzleOfModel } from "./puzzles.js";
import { postProgress } from "./worker-protocol.js";

/** The requests open in this worker (arrived, not answered yet), by id: { cancelled }. */
const evaluations = new Map();

/** Games (positions, boards) an evaluation plays between two turns of the event loop, at most. */
const MAX_BATCH = 1_000;
/** The time a batch should take: short enough for Cancel, training chunks and moves to get in between. */
const BATCH_MS = 100;

/**
 * Plays `job` (an Evaluation: LearnedModel.startEvaluation()'s or minesweeperSolverEvaluation()'s: step(count),
 * done, total, result()) a batch at a time, sized to take about BATCH_MS (from `first`), and frees
 * it. After each batch it posts { stage, done, total, ...said } to request `id` and lets the event
 * loop turn, so that training chunks, moves and "cancel-evaluation" get in between; it stops
 * once the request is cancelled (rejecting with "The evaluation was cancelled.") or once
 * `stillWanted()` says no (resolving to null). Resolves to the job's result().
 */
export async function playStepwise(job, { id, stage, said = {}, first = 1, stillWanted = () => true }) {
  const open = evaluations.has(id);
  const state = evaluations.get(id) ?? { cancelled: false };
  evaluations.set(id, state);
  try {
    let batch = first;
    postProgress(id, { stage, done: job.done, total: job.total, ...said });
    for (;;) {
      stopIfCancelled(state);
      const started = performance.now();
      const finished = job.step(batch);
      const took = performance.now() - started;
      batch = Math.max(1, Math.min(MAX_BATCH, Math.round(batch * Math.min(4, BATCH_MS / Math.max(took, 1)))));
      postProgress(id, { stage, done: job.done, total: job.total, ...said });
      if (finished) return job.result();
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!stillWanted()) return null;
    }
  } finally {
    if (!open) evaluations.delete(id);
    job.free();
  }
}

/** Throws "The evaluation was cancelled." when `state` (a request's entry, if any) was cancelled. */
function stopIfCancelled(state) {
  if (state?.cancelled) throw new Error("The evaluation was cancelled.");
}

/**
 * Answers request `id` with `work()`, the request open meanwhile (from its arrival, while it
 * waits for the bundle or the job table too, to its answer): the worker serves every request but
 * "cancel-evaluation" through this.
 */
export async function whileOpen(id, work) {
  evaluations.set(id, { cancelled: false });
  try {
    return await work();
  } finally {
    evaluations.delete(id);
  }
}

/**
 * "cancel-evaluation": stops the evaluation that request `job` started, after its current batch;
 * one whose request came but has not started playing (it waits for the bundle) stops before its
 * first batch. Resolves to { cancelled: false } when that request is not open (already answered,
 * or never sent): nothing is left behind for it.
 */
export function cancelEvaluation({ job }) {
  const evaluation = evaluations.get(job);
  if (evaluation) evaluation.cancelled = true;
  return { result: { cancelled: Boolean(evaluation) } };
}

/**
 * "evaluate-model" over what the worker lends the jobs (`bundleReady`, `keptModel`): once the
 * bundle is ready, takes the kept model `key` of `puzzle`, starts its evaluation of `request`
 * (LearnedModel.startEvaluation, which checks the request: counts, seed; the job keeps its own copy
 * of the network, so training may replace the kept model meanwhile) and plays it (playStepwise,
 * stage "evaluate"). Resolves to { result: { key, info (the kept model's), evaluation, ms (the
 * time taken) } }.
 */
export async function evaluateKeptModel({ bundleReady, keptModel }, { id, key, puzzle, request }) {
  await bundleReady;
  // Cancelled while it waited: it says so, whatever else would have stopped it.
  stopIfCancelled(evaluations.get(id));
  const entry = keptModel(key, puzzle);
  const started = performance.now();
  const evaluation = await playStepwise(entry.model.startEvaluation(request), { id, stage: "evaluate" });
  return { result: { key, info: entry.info, evaluation, ms: Math.round(performance.now() - started) } };
}

/**
 * Sets the step count of a run's next in-training validation (`run.evaluation`: { every, next, … })
 * and says whether this one runs: not while the run is pausing or stopping.
 */
function validationDue(run, steps) {
  const { evaluation } = run;
  evaluation.next = (Math.floor(steps / evaluation.every) + 1) * evaluation.every;
  return run.state === "running";
}

/**
 * The in-training validation of a run: posts { stage: "validating", steps, ...said }, awaits the
 * trainer's evaluate(options) through `withTrainer` (LearnerTrainer.evaluate: { size, seed }, both
 * optional) and posts { stage: "validated", steps, evaluation: what it resolved to }.
 */
export async function validateRun(run, steps, withTrainer, { options = {}, said = {} } = {}) {
  if (!validationDue(run, steps)) return;
  postProgress(run.id, { stage: "validating", steps, ...said });
  const result = await withTrainer(run.trainer, (trainer) => trainer.evaluate(options));
  postProgress(run.id, { stage: "validated", steps, evaluation: result });
}

/**
 * The in-training validation of a run whose validation games are long (2048's): the network so far,
 * kept as a model (`snapshotTrained`, the worker's), plays `request` as an "evaluate-model" would, a
 * batch at a time (playStepwise, stage "validating" with { steps, done, total }), and the page gets
 * { stage: "validated", steps, evaluation }. Pause, Stop and a newer model kept under the run's key
 * (`isKept`, the worker's) drop it, since it would hold them up for whole games.
 */
export async function validateStepwise(run, steps, { snapshotTrained, isKept }, request) {
  if (!validationDue(run, steps)) return;
  const { model } = await snapshotTrained(run);
  const stillWanted = () => run.state === "running" && isKept(run.modelKey, model);
  const evaluation = await playStepwise(model.startEvaluation(request), { id: run.id, stage: "validating", said: { steps }, stillWanted });
  if (evaluation) postProgress(run.id, { stage: "validated", steps, evaluation });
}

/**
 * The learnJobs of a puzzle whose trainer holds its own validation set (Sudoku's puzzles, dust's
 * boards) and that needs nothing else of the worker: `chunkSteps` as given; each in-training
 * validation (`run.evaluation`: { every, next }) is the trainer's evaluate() on that set
 * (validateRun with no options; the page gets { stage: "validated", steps, evaluation }, skipped
 * while the run is pausing or stopping), and "started" carries the trainer's `setup`.
 */
export function ownValidationJobs(chunkSteps) {
  return ({ withTrainer }) => ({ chunkSteps, validate: (run, steps) => validateRun(run, steps, withTrainer), trainerSetup: true });
}

/** The first bytes of every DQN model file (MAGIC in src/agent/dqn/model_file.rs). */
const MODEL_MAGIC = "puzzlelab-dqn\n";

/**
 * The JSON header of a DQN model file (`puzzlelab-dqn\n`, the header's length as a little-endian
 * u32, the header: src/agent/dqn/model_file.rs's ModelHeader, with its `puzzleId`), or null when
 * the bytes hold none that reads.
 */
export function modelFileHeader(bytes) {
  const magic = new TextEncoder().encode(MODEL_MAGIC);
  if (bytes.byteLength < magic.length + 4 || !magic.every((byte, i) => bytes[i] === byte)) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset + magic.length, 4).getUint32(0, true);
  const start = magic.length + 4;
  if (bytes.byteLength < start + length) return null;
  try {
    const header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(start, start + length)));
    return header && typeof header === "object" ? header : null;
  } catch {
    return null;
  }
}

/**
 * The sentence that follows the refusal of a model file loaded as a model of puzzle `wanted`
 * (a registry id) when the file says it is a model of another puzzle: ". This is a <title> model:
 * load it on the <title> page (<page>)."; "" when it says nothing the registry knows (the refusal
 * itself then says it is no puzzlelab model, or a damaged one) or names `wanted` itself.
 */
export function foreignModelHint(bytes, wanted) {
  const owner = puzzleOfModel(modelFileHeader(bytes)?.puzzleId);
  if (!owner || owner.id === byId(wanted)?.id) return "";
  return `. This is a ${owner.title} model: load it on the ${owner.title} page (${owner.page}).`;
}
