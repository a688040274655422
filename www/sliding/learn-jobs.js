// Sliding puzzles' jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): a kept model's (LearnedModel) solve of the page's board (greedy,
// guided search or batch-weighted A*), its evaluation by exact optimal distance, and the trainer's
// setup (the board's size and goal). Nothing here runs on import; the worker hands over what the
// jobs need of it.

import { goalLabels } from "../common/learn-client.js";
import { playStepwise } from "../common/learn-jobs.js";

/** Positions an evaluation plays before its first progress report (a few tens of milliseconds' work). */
const FIRST_BATCH = 8;

/**
 * Sliding puzzles' part of the learning worker (common/learn-jobs.js says what it returns).
 * `bundleReady` (the learning bundle's exports) and `keptModel(key, puzzle)` (a kept model's
 * entry: { model, bytes, info, puzzle }) are the worker's.
 */
export function learnJobs({ bundleReady, keptModel }) {
  /** "solve-sliding": solves a board with a kept model, after checking that it was trained for that puzzle. */
  async function solve({ key, rows, cols, goal, cells, options }) {
    await bundleReady;
    const entry = keptModel(key, "sliding");
    const problem = misfit(entry.info, rows, cols, goal);
    if (problem) throw new Error(problem);
    // options.method "bwas": batch-weighted A* (its options: lambda, batch, maxNodes); else the
    // greedy moves, then the model-guided beam search (beamWidth, maxNodes, maxDepth).
    const result = entry.model.play({ ...(options ?? {}), cells: Array.from(cells) });
    return { result };
  }

  /**
   * "evaluate-sliding": the evaluation by exact optimal distance of a kept model (boards of at
   * most 9 cells), a batch of positions at a time (common/learn-jobs.js's playStepwise: progress
   * after each batch, the event loop turning between them, Cancel honoured).
   */
  async function evaluate({ id, key, options }) {
    await bundleReady;
    const entry = keptModel(key, "sliding");
    const started = performance.now();
    const table = await playStepwise(entry.model.startEvaluation(options ?? undefined), { id, stage: "evaluate", first: FIRST_BATCH });
    return { result: { ...table, key, ms: Math.round(performance.now() - started) } };
  }

  return {
    handlers: { "solve-sliding": solve, "evaluate-sliding": evaluate },
    /** Steps per chunk, first and bounds, per backend. WebGPU steps wait for readbacks: fewer per chunk. */
    chunkSteps: {
      cpu: { first: 200, min: 20, max: 500 },
      webgpu: { first: 5, min: 1, max: 50 },
    },
    /**
     * The trainer's options: the board ("RxC", the goal as text, "" or none = standard) with the
     * page's (difficulty, curriculum, reward, mixed, uniformStarts, DqnConfig's fields).
     */
    trainerOptions: ({ rows, cols, goal, options }) => ({ ...(options ?? {}), size: `${rows}x${cols}`, ...(goal ? { goal } : {}) }),
  };
}

/** Why a model does not fit a rows × cols puzzle with `goal` (labels), or "" when it does. */
function misfit(info, rows, cols, goal) {
  const modelGoal = goalLabels(info.goal);
  const sameGoal = modelGoal.length === goal.length && modelGoal.every((label, i) => label === Number(goal[i]));
  if (info.rows === rows && info.cols === cols && sameGoal) return "";
  const shownGoal = goal.map((label) => (Number(label) === 0 ? "_" : label)).join(",");
  return (
    `This model was trained for the ${info.rows} × ${info.cols} puzzle with the goal ${info.goal}; ` +
    `the board is ${rows} × ${cols}${info.rows === rows && info.cols === cols ? ` with the goal ${shownGoal}` : ""}.`
  );
}
