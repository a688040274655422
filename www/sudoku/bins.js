// Sudoku evaluations by bin as the learning card and the worker's jobs list them.

/**
 * An evaluation by bin ({ easy, medium, hard }: the learner's, as `puzzlelab sudoku eval` reports
 * it) as a list in that order, each with its name: [{ bin, puzzles, solved_rate, …,
 * published_solved_rate }].
 */
export function binList(evaluation) {
  return ["easy", "medium", "hard"].map((bin) => ({ bin, ...evaluation[bin] }));
}
