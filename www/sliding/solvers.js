// What the page (app.js) and <puzzle-widget> (widget.js) both know about sliding puzzles and
// their solvers: which solvers a board offers and starts with, their names for people, and
// shuffling. One place, so that the page and every embedded widget make the same choices.

/**
 * Largest board (in cells) for BFS and Q-learning; mirrors MAX_EXACT_CELLS and
 * MAX_Q_LEARNING_CELLS in src/env/sliding/solve.rs (SearchJob and QLearningJob throw beyond it).
 */
export const SMALL_BOARD_CELLS = 9;
/** Boards above this many cells (4×5, 5×4, 5×5) default to weighted A*: optimal search may not finish. */
export const LARGE_BOARD_CELLS = 16;
/** Shuffle difficulty when none is asked for (capped by Puzzle.maxDifficulty). */
export const DEFAULT_DIFFICULTY = 12;
/** Weighted A*'s weight when none is asked for (the page's weight input starts here too). */
export const DEFAULT_WEIGHT = 2.5;
export const SUN_MOON = "sun-moon";

/** The algorithms the worker runs (solver-worker.js), by the names SearchJob/QLearningJob take. */
export const ALGORITHMS = ["bfs", "astar", "wastar", "idastar", "qlearning"];

export const ALGORITHM_NAMES = { bfs: "BFS", astar: "A*", wastar: "Weighted A*", idastar: "IDA*", qlearning: "Q-learning" };
export const HEURISTIC_NAMES = {
  misplaced: "misplaced tiles",
  manhattan: "Manhattan distance",
  "linear-conflict": "linear conflict",
  pdb: "pattern databases",
  // The heuristics a result names (src/env/sliding/solve.rs SolveReport.heuristic).
  "pdb-6-6-3": "pattern databases 6-6-3",
  "pdb-5-5-5": "pattern databases 5-5-5",
};

/** Whether the puzzle is a 15-puzzle, the board pattern databases serve (SearchJob.withPatternDatabases). */
export function usesPatternDatabases(puzzle) {
  return Boolean(puzzle) && puzzle.rows === 4 && puzzle.cols === 4 && !puzzle.presetName;
}

/** Whether `algorithm` is offered for the puzzle's size (BFS and Q-learning only on small boards). */
export function offersAlgorithm(puzzle, algorithm) {
  if (algorithm === "bfs" || algorithm === "qlearning") return puzzle.rows * puzzle.cols <= SMALL_BOARD_CELLS;
  return ALGORITHMS.includes(algorithm);
}

/**
 * The solver a board starts with: IDA* with pattern databases on 4×4, weighted A* where optimal
 * search may not finish, A* elsewhere.
 */
export function defaultAlgorithm(puzzle) {
  if (usesPatternDatabases(puzzle)) return "idastar";
  return puzzle.rows * puzzle.cols > LARGE_BOARD_CELLS ? "wastar" : "astar";
}

/**
 * The heuristic `algorithm` uses unless someone picks another: pattern databases for IDA* on 4×4,
 * linear conflict on big boards, Manhattan distance elsewhere. BFS and Q-learning use none (the
 * worker ignores it).
 */
export function defaultHeuristic(puzzle, algorithm) {
  if (algorithm === "idastar" && usesPatternDatabases(puzzle)) return "pdb";
  return puzzle.rows * puzzle.cols > LARGE_BOARD_CELLS ? "linear-conflict" : "manhattan";
}

/** How a solver is named for people: "A* (Manhattan distance)", "Weighted A* (w = 2.5)", "BFS". */
export function solverLabel(algorithm, heuristic, weight, numberFormat = new Intl.NumberFormat("en")) {
  const name = ALGORITHM_NAMES[algorithm] ?? algorithm;
  if (algorithm === "bfs" || algorithm === "qlearning") return name;
  if (algorithm === "wastar") return `${name} (w = ${numberFormat.format(weight ?? DEFAULT_WEIGHT)})`;
  return `${name} (${HEURISTIC_NAMES[heuristic] ?? heuristic})`;
}

/**
 * Shuffles the puzzle's board from its goal (Puzzle.shuffle) with a random seed, at `difficulty`
 * capped by the puzzle's maximum. Returns { difficulty, mode } (mode "exact" | "random-walk").
 */
export function shufflePuzzle(puzzle, difficulty = DEFAULT_DIFFICULTY) {
  const wanted = Math.max(1, Math.round(Number.isFinite(difficulty) ? difficulty : DEFAULT_DIFFICULTY));
  const capped = Math.min(wanted, puzzle.maxDifficulty());
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  const mode = puzzle.shuffle(capped, seed);
  return { difficulty: capped, mode };
}

/** A new Puzzle handle of the same size, preset and goal, at the goal. */
export function copyAtGoal(api, puzzle) {
  return api.Puzzle.parse(puzzle.rows, puzzle.cols, puzzle.goalText(), puzzle.goalText(), puzzle.presetName);
}

/** The worker's "solve" request (solver-worker.js) for the puzzle's current board. */
export function solveRequest(puzzle, { algorithm, heuristic, weight }) {
  return {
    rows: puzzle.rows,
    cols: puzzle.cols,
    preset: puzzle.presetName,
    start: puzzle.startText(),
    goal: puzzle.goalText(),
    algorithm,
    heuristic,
    weight,
  };
}
