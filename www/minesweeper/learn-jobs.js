// Minesweeper's jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): the solver's games on the boards of a model's evaluation, and the
// validation games of a training run. Nothing here runs on import; the worker hands over what the jobs need of it.

import { playStepwise, validateRun } from "../common/learn-jobs.js";

/**
 * Minesweeper's part of the learning worker (common/learn-jobs.js says what it returns).
 * `bundleReady` (the learning bundle's exports) and `withTrainer(trainer, call)` (calls into the
 * trainer, one after another) are the worker's.
 */
export function learnJobs({ bundleReady, withTrainer }) {
  /**
   * "evaluate-minesweeper-solver": the solver's games on the boards of a model's evaluation request
   * ({ width, height, mines, rule, firstCell, games, seed }), a batch at a time.
   */
  async function evaluateSolver({ id, request }) {
    const bundle = await bundleReady;
    return { result: await playStepwise(bundle.minesweeperSolverEvaluation(request), { id, stage: "evaluate" }) };
  }

  /**
   * The in-training evaluation of a run (`run.evaluation`: { every, games, seed, next }): the
   * network so far plays the validation boards (their first click is the trainer's firstCell); the
   * page gets { stage: "validated", steps, evaluation }. Skipped while the run is pausing or
   * stopping.
   */
  function validate(run, steps) {
    const { games, seed } = run.evaluation;
    return validateRun(run, steps, withTrainer, { options: { size: games, seed }, said: { games } });
  }

  return {
    handlers: { "evaluate-minesweeper-solver": evaluateSolver },
    /**
     * Steps per chunk: warm-up steps take microseconds, a step of the fully convolutional network
     * (every covered cell of a batch of positions backed up) some tens of ms on a CPU in a tab.
     */
    chunkSteps: {
      cpu: { first: 10, min: 1, max: 2000 },
      webgpu: { first: 2, min: 1, max: 50 },
    },
    validate,
  };
}
