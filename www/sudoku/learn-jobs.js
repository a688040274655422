// Sudoku's part of the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): its chunk sizes; each validation plays the puzzles the trainer drew
// (LearnerTrainer.setup; evaluation: { easy, medium, hard }). Nothing here runs on import.

import { ownValidationJobs } from "../common/learn-jobs.js";

/**
 * Steps per chunk: puzzlelab's network backs up every legal digit of a batch of positions (tens of
 * ms a step on a CPU in a tab); the paper's one dense layer is quicker.
 */
export const learnJobs = ownValidationJobs({ cpu: { first: 5, min: 1, max: 1000 }, webgpu: { first: 2, min: 1, max: 50 } });
