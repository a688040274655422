// Minesweeper's jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): the greedy cell of a kept model (LearnedModel) for the page's board,
// the evaluation of a model and of the solver on the same seeded boards, and the validation games
// of a training run. Nothing here runs on import; the worker hands over what the jobs need of it.

import { evaluateKeptModel, playStepwise, validateRun } from "../common/learn-jobs.js";

/** The most games one evaluation plays (the solver's expert games take tens of ms each). */
const MAX_GAMES = 100_000;

/**
 * Minesweeper's part of the learning worker (common/learn-jobs.js says what it returns).
 * `bundleReady` (the learning bundle's exports), `keptModel(key, puzzle)` (a kept model's entry:
 * { model, bytes, info, puzzle }) and `withTrainer(trainer, call)` (calls into the trainer, one
 * after another) are the worker's.
 */
export function learnJobs({ bundleReady, keptModel, withTrainer }) {
  /** "best-cell-minesweeper": the greedy cell and every cell's Q-value. */
  async function bestCell({ key, width, height, mines, cells }) {
    await bundleReady;
    const { model } = keptModel(key, "minesweeper");
    const codes = Uint8Array.from(cells);
    const { cell, values } = model.play({ width, height, mines, cells: Array.from(codes) });
    return { result: { cell, values: Array.from(values) } };
  }

  /**
   * "evaluate-minesweeper": the model's greedy games, then (with `solver`) the solver's on the same
   * boards, a batch at a time; progress says which is playing and how far.
   */
  function evaluate({ id, key, width, height, mines, rule, firstCell, games, seed, solver = false }) {
    const board = { width, height, mines, rule, firstCell, games, seed };
    const request = { id, key, puzzle: "minesweeper", count: games, max: MAX_GAMES, what: "games", seed, request: board, stage: "evaluate-minesweeper" };
    return evaluateKeptModel({ bundleReady, keptModel }, { ...request, said: { player: "model" } }, async (model, bundle) => {
      if (!solver) return { model, solver: null };
      const job = new bundle.MinesweeperSolverEvaluation(board);
      return { model, solver: await playStepwise(job, { id, stage: "evaluate-minesweeper", said: { player: "solver" } }) };
    });
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
    handlers: { "best-cell-minesweeper": bestCell, "evaluate-minesweeper": evaluate },
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
