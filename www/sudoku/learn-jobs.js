// Sudoku's jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): a kept model's (LearnedModel) greedy play from the page's grid, its
// evaluation on seeded puzzles of each of the paper's bins, and the validation of a training run.
// Nothing here runs on import; the worker hands over what the jobs need of it.

import { evaluateKeptModel, ownValidation } from "../common/learn-jobs.js";
import { binList } from "./bins.js";

/** The most puzzles of a bin one evaluation plays (generating them takes a moment each). */
const MAX_PER_BIN = 2_000;

/**
 * Sudoku's part of the learning worker (common/learn-jobs.js says what it returns). `bundleReady`
 * (the learning bundle's exports), `keptModel(key, puzzle)` (a kept model's entry: { model, bytes,
 * info, puzzle }) and `withTrainer(trainer, call)` (calls into the trainer, one after another) are
 * the worker's.
 */
export function learnJobs({ bundleReady, keptModel, withTrainer }) {
  /** "play-sudoku": the model's greedy moves from `grid` (81 cells as text) and how they ended. */
  async function play({ key, grid }) {
    await bundleReady;
    const { model, info } = keptModel(key, "sudoku");
    return { result: { key, info, ...model.play({ grid: String(grid) }) } };
  }

  /** "evaluate-sudoku": greedy play on `perBin` seeded puzzles of each bin (drawn and played in one go), beside the paper's rates. */
  function evaluate({ id, key, perBin, seed, givens }) {
    const request = { id, key, puzzle: "sudoku", count: perBin, max: MAX_PER_BIN, what: "puzzles a bin", seed, stage: "evaluate-sudoku" };
    return evaluateKeptModel({ bundleReady, keptModel }, { ...request, request: { perBin, seed, givens: Array.from(givens) } }, (bins) => ({ bins: binList(bins), seed, perBin }));
  }

  return {
    handlers: { "play-sudoku": play, "evaluate-sudoku": evaluate },
    /**
     * Steps per chunk: puzzlelab's network backs up every legal digit of a batch of positions
     * (tens of ms a step on a CPU in a tab); the paper's one dense layer is quicker.
     */
    chunkSteps: {
      cpu: { first: 5, min: 1, max: 1000 },
      webgpu: { first: 2, min: 1, max: 50 },
    },
    /**
     * The in-training evaluation of a run (`run.evaluation`: { every, next }): the network so far
     * plays the validation puzzles the trainer drew (LearnerTrainer.setup); the page gets { stage:
     * "validated", steps, evaluation: { easy, medium, hard } }. Skipped while the run is pausing
     * or stopping.
     */
    ...ownValidation(withTrainer),
  };
}

