// Sliding puzzles' jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): the trainer's setup (the board's size and goal). A kept model solves
// (LearnedModel.play refuses a board of another size or goal, saying so) and is evaluated by exact
// optimal distance through the worker's "play-model" and "evaluate-model". Nothing here runs on
// import.

/** Sliding puzzles' part of the learning worker (common/learn-jobs.js says what it returns). */
export function learnJobs() {
  return {
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
