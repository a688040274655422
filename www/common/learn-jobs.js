// What the puzzles' jobs in the learning worker (sudoku/, minesweeper/ and samegame/learn-jobs.js)
// do alike: check an evaluation's count and seed, play on a copy of a kept model (training may
// replace, and free, the kept one meanwhile), and run a training run's validation when it is due.

import { postProgress } from "./worker-protocol.js";

/** Throws unless `count` is a whole number from 1 to `max`; `what` names it ("games", "boards"). */
export function checkCount(count, max, what) {
  if (!(Number.isSafeInteger(count) && count >= 1 && count <= max)) throw new Error(`Evaluate 1 to ${max.toLocaleString("en")} ${what}.`);
}

/** Throws unless `seed` is a whole number, 0 or more. */
export function checkSeed(seed) {
  if (!(Number.isSafeInteger(seed) && seed >= 0)) throw new Error("The seed must be a whole number, 0 or more.");
}

/**
 * Calls `use(model)` on a fresh copy of the kept `entry` (`Model.fromBytes(entry.bytes)`), freed
 * afterwards; resolves to what `use` returns.
 */
export async function withModelCopy(Model, entry, use) {
  const model = Model.fromBytes(entry.bytes);
  try {
    return await use(model);
  } finally {
    model.free();
  }
}

/**
 * The in-training validation of a run (`run.evaluation`: { every, next, … }): sets the step count
 * of the next one; while the run is running, posts { stage: "validating", steps, ...said }, awaits
 * `validation(trainer)` through `withTrainer` and posts { stage: "validated", steps, [key]: what
 * it resolved to }. Skipped while the run is pausing or stopping.
 */
export async function validateRun(run, steps, withTrainer, { key, validation, said = {} }) {
  const { evaluation } = run;
  evaluation.next = (Math.floor(steps / evaluation.every) + 1) * evaluation.every;
  if (run.state !== "running") return;
  postProgress(run.id, { stage: "validating", steps, ...said });
  const result = await withTrainer(run.trainer, validation);
  postProgress(run.id, { stage: "validated", steps, [key]: result });
}
