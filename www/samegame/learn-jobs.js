// The dust puzzle's part of the learning worker (common/learn-worker.js loads this through the
// puzzle registry; see its protocol): its chunk sizes; each validation clears the trainer's own
// boards (LearnerTrainer.setup; evaluation: { boards, mean_clicks, play, mean_clicks_greedy,
// mean_clicks_lookahead }). Nothing here runs on import.

import { ownValidationJobs } from "../common/learn-jobs.js";

/**
 * Steps per chunk: puzzlelab's learner backs up every pile of a batch of boards (tens of ms a step
 * on a CPU in a tab); the blog's plays and fits 1,000 games a step.
 */
export const learnJobs = ownValidationJobs({ cpu: { first: 5, min: 1, max: 1000 }, webgpu: { first: 2, min: 1, max: 50 } });
