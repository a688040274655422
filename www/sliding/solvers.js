// What the page (app.js) and <puzzle-widget> (widget.js) both know about sliding puzzles and
// their solvers: which solvers a board offers and starts with, their names for people, and
// shuffling. One place, so that the page and every embedded widget make the same choices.

import { numberFormat } from "../common/number-format.js";

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

/**
 * The algorithms the worker runs (solver-worker.js) by the names SearchJob/QLearningJob take, and
 * that a widget's `solver` attribute may name. The worker also runs LOCAL_VI, which only the page
 * offers.
 */
export const ALGORITHMS = ["bfs", "astar", "wastar", "idastar", "qlearning"];
/** Local value iteration, tile by tile (LocalViSolver; the page's algorithm <select> offers it). */
export const LOCAL_VI = "local-vi";

export const ALGORITHM_NAMES = {
  bfs: "BFS",
  astar: "A*",
  wastar: "Weighted A*",
  idastar: "IDA*",
  qlearning: "Q-learning",
  [LOCAL_VI]: "Local value iteration (tile by tile)",
};
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

/**
 * Whether the puzzle is numbered with the standard goal (1, 2, … with the blank last), the only
 * goal local value iteration places tiles towards (LocalValueIteration::build refuses others).
 */
export function hasStandardGoal(puzzle) {
  if (!puzzle || puzzle.presetName) return false;
  const goal = puzzle.goal();
  return goal.every((label, i) => label === (i === goal.length - 1 ? 0 : i + 1));
}

/**
 * Whether local value iteration's tables take seconds to build for the puzzle's size: on boards
 * five columns wide the last two rows are one sub-problem of 3.6 million states (about 4 MB; 1 to
 * 4 s in Chromium), on the others every table is small (at most 57 KB in all, under 40 ms).
 */
export function slowLocalViTables(puzzle) {
  return puzzle.cols >= 5;
}

/**
 * Whether `algorithm` is offered for the puzzle: BFS and Q-learning only on small boards, local
 * value iteration only towards the standard goal.
 */
export function offersAlgorithm(puzzle, algorithm) {
  if (algorithm === "bfs" || algorithm === "qlearning") return puzzle.rows * puzzle.cols <= SMALL_BOARD_CELLS;
  if (algorithm === LOCAL_VI) return hasStandardGoal(puzzle);
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
export function solverLabel(algorithm, heuristic, weight) {
  const name = ALGORITHM_NAMES[algorithm] ?? algorithm;
  if (algorithm === "bfs" || algorithm === "qlearning" || algorithm === LOCAL_VI) return name;
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

/**
 * Shuffles as shufflePuzzle does, without building the exact-distance table of a small board while
 * a page or a widget starts (building it searches every position: 181,440 on the 8-puzzle, which
 * holds up the page for a noticeable moment): Puzzle.shuffleByCheckedWalk (src/web/mod.rs) walks
 * `difficulty` moves from the goal and keeps the walk when A* finds no shorter way back, so the
 * position is exactly `difficulty` moves from the goal, as the exact shuffle's is (though not drawn
 * uniformly among them). When that cannot be (a difficulty near the board's maximum or beyond it,
 * a preset, a larger board) it shuffles as shufflePuzzle does. Returns { difficulty, mode } as
 * shufflePuzzle does.
 */
export function shuffleByCheckedWalk(puzzle, difficulty = DEFAULT_DIFFICULTY) {
  const wanted = Math.max(1, Math.round(Number.isFinite(difficulty) ? difficulty : DEFAULT_DIFFICULTY));
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  if (puzzle.shuffleByCheckedWalk(wanted, seed)) return { difficulty: wanted, mode: "exact" };
  return shufflePuzzle(puzzle, wanted);
}

/** A new Puzzle handle of the same size, preset and goal, at the goal. */
export function copyAtGoal(api, puzzle) {
  return api.Puzzle.parse(puzzle.rows, puzzle.cols, puzzle.goalText(), puzzle.goalText(), puzzle.presetName);
}

/**
 * The optimal solver the page compares another solver's length with, for the puzzle's size:
 * IDA* with pattern databases on the 15-puzzle, A* with linear conflict elsewhere up to
 * LARGE_BOARD_CELLS cells (within its default budget of a million nodes, which far positions of
 * 3 × 4 to 5 × 3 can exhaust); null on bigger boards, where optimal search may not finish.
 */
export function optimumSolver(puzzle) {
  if (usesPatternDatabases(puzzle)) return { algorithm: "idastar", heuristic: "pdb" };
  if (puzzle.rows * puzzle.cols > LARGE_BOARD_CELLS) return null;
  return { algorithm: "astar", heuristic: "linear-conflict" };
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
