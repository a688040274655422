// The dust puzzle's jobs in the learning worker (common/learn-worker.js loads this through the
// puzzle registry; see its protocol): a kept model's (LearnedModel) greedy clearing of the page's board,
// its evaluation on seeded boards beside the greedy rule's, and the validation of a training run.
// Nothing here runs on import; the worker hands over what the jobs need of it.

import { evaluateKeptModel, ownValidation } from "../common/learn-jobs.js";

/** The most boards one evaluation plays (LearnedModel.evaluate's limit for dust). */
const MAX_BOARDS = 10_000;

/**
 * The dust jobs (common/learn-jobs.js says what they return), over what the worker lends them: the
 * bundle's promise (`bundleReady`), its kept models (`keptModel(key, "dust")` → { model, bytes,
 * info }) and its queue of trainer calls (`withTrainer`).
 */
export function learnJobs({ bundleReady, keptModel, withTrainer }) {
  /** "play-dust": the model's greedy clicks on `board` (text, 8 × 6) until it is cleared. */
  async function play({ key, board }) {
    const entry = (await bundleReady, keptModel(key, "dust"));
    return { result: { key, info: entry.info, ...entry.model.play({ board: String(board) }) } };
  }

  /** "evaluate-dust": greedy clearings of `boards` seeded boards, beside the greedy rule's, a batch at a time. */
  function evaluate({ id, key, boards, seed }) {
    const request = { id, key, puzzle: "dust", count: boards, max: MAX_BOARDS, what: "boards", seed, request: { boards, seed }, stage: "evaluate-dust" };
    return evaluateKeptModel({ bundleReady, keptModel }, request, (evaluation) => evaluation);
  }

  return {
    handlers: { "play-dust": play, "evaluate-dust": evaluate },
    /**
     * Steps per chunk: puzzlelab's learner backs up every pile of a batch of boards (tens of ms a
     * step on a CPU in a tab); the blog's plays and fits 1,000 games a step.
     */
    chunkSteps: {
      cpu: { first: 5, min: 1, max: 1000 },
      webgpu: { first: 2, min: 1, max: 50 },
    },
    /**
     * The in-training evaluation of a run (`run.evaluation`: { every, next }): the network so far
     * clears the trainer's own validation boards (LearnerTrainer.setup); the page gets { stage:
     * "validated", steps, evaluation ({ boards, mean_clicks, play, mean_clicks_greedy,
     * mean_clicks_lookahead }) }. Skipped while the run is pausing or stopping.
     */
    ...ownValidation(withTrainer),
  };
}
