// 2048's jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): the in-training evaluation of a run, and the demonstrations of a run
// that learns from them. Nothing here runs on import; the worker hands over what the jobs need of it.

import { fetchBytes, gunzipIfNeeded } from "../common/download.js";
import { validateStepwise } from "../common/learn-jobs.js";
import { formatNumber } from "../common/number-format.js";

/** The demonstrator of a run that learns from demonstrations: the shipped n-tuple network. */
const DEMONSTRATOR_URL = new URL("../models/2048-ntuple.ntuple.gz", import.meta.url);

/**
 * 2048's part of the learning worker (common/learn-jobs.js says what it returns).
 * Its in-training evaluation plays the run's evaluation games as an "evaluate-model" would, a game
 * or more at a time (validateStepwise, over the worker's `snapshotTrained` and `isKept`).
 */
export function learnJobs(worker) {
  /**
   * A run that learns from demonstrations (its options' `demonstrations`, as `puzzlelab 2048 train
   * --demonstrations`): downloads the shipped n-tuple network (kept by the browser after the first
   * time), unpacks it, and has it play the demonstrated games into the new trainer
   * (LearnerTrainer.addDemonstrations), saying how far it is at each stage.
   */
  async function prepare(trainer, message, step) {
    if (!message.options?.demonstrations) return;
    const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
    step("demonstrations", { detail: ": downloading the n-tuple network" });
    let packed;
    try {
      packed = await fetchBytes(DEMONSTRATOR_URL, ({ loaded, total }) =>
        step("demonstrations", { detail: `: downloading the n-tuple network, ${mb(loaded)}${total ? ` of ${mb(total)}` : ""}` }),
      );
    } catch (error) {
      throw new Error(`The n-tuple network to learn from could not be downloaded (${DEMONSTRATOR_URL}): ${error instanceof Error ? error.message : error}`);
    }
    const bytes = await gunzipIfNeeded(packed);
    const { games } = message.options.demonstrations;
    step("demonstrations", { detail: `: the n-tuple network plays ${games} game${games === 1 ? "" : "s"}` });
    // The worker's message loop has a turn to post that before the games take it over.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { transitions, seconds } = trainer.addDemonstrations(bytes);
    step("demonstrations", { detail: `: ${formatNumber(transitions)} moves of ${games} game${games === 1 ? "" : "s"} recorded in ${seconds.toFixed(1)} s` });
  }

  return {
    prepare,
    /**
     * Steps per chunk: a step of the paper's convolutional network (1.26 M parameters) takes about
     * 50 ms on a CPU in a tab, while warm-up steps (no gradient step) take microseconds: chunks
     * start small and grow towards the worker's target.
     */
    chunkSteps: {
      cpu: { first: 10, min: 1, max: 1000 },
      webgpu: { first: 2, min: 1, max: 50 },
    },
    validate: (run, steps) => validateStepwise(run, steps, worker, { games: run.evaluation.games, seed: run.evaluation.seed }),
  };
}
