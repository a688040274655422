// Page wiring: puzzle choice, shuffle, custom input, the URL hash, the solver and the player.
// The board is the page's <puzzle-widget id="board" controls=""> (widget.js, the same element
// other sites embed), driven from here through its Puzzle handle and its inner <sliding-board>;
// the solver pool and the player each live in their own module, and the deep Q-learning card in
// train-panel.js (imported and set up once the page is idle after it is ready, so that the board is
// playable without waiting for it; its worker starts only when that card is used); this file only
// connects them to the controls in sliding.html.

import "../widget.js";
import { SolutionPlayer } from "./player.js";
import { SolveCancelled } from "./solver-client.js";
import { sharedSolverPool } from "./solver-pool.js";
import { keepFor, keptFor, mountLaterCard } from "../common/page-controls.js";
import { cancelWhenIdle, whenIdle } from "../common/site-nav.js";
import { hashFor, readHash, writeHashFor } from "./address.js";
import {
  ALGORITHM_NAMES,
  DEFAULT_DIFFICULTY,
  HEURISTIC_NAMES,
  LARGE_BOARD_CELLS,
  LOCAL_VI,
  SMALL_BOARD_CELLS,
  SUN_MOON,
  copyAtGoal,
  defaultAlgorithm,
  defaultHeuristic,
  hasStandardGoal,
  optimumSolver,
  slowLocalViTables,
  shuffleByCheckedWalk,
  shufflePuzzle,
  solveRequest,
  solverLabel,
  usesPatternDatabases,
} from "./solvers.js";
import { numberFormat } from "../common/number-format.js";

const $ = (selector) => document.querySelector(selector);
const elements = {
  /** The <puzzle-widget>; its inner <sliding-board> is `board` below. */
  widget: $("#board"),
  loadError: $("#load-error"),
  size: $("#size"),
  difficulty: $("#difficulty"),
  difficultyValue: $("#difficulty-value"),
  shuffle: $("#shuffle"),
  reset: $("#reset"),
  shuffleNote: $("#shuffle-note"),
  customForm: $("#custom-form"),
  startInput: $("#start-input"),
  goalInput: $("#goal-input"),
  inputError: $("#input-error"),
  applyCustom: $("#apply-custom"),
  copyLink: $("#copy-link"),
  algorithm: $("#algorithm"),
  heuristic: $("#heuristic"),
  algorithmNote: $("#algorithm-note"),
  weightField: $("#weight-field"),
  weight: $("#weight"),
  pdbStatus: $("#pdb-status"),
  pdbText: $("#pdb-text"),
  pdbProgress: $("#pdb-progress"),
  solve: $("#solve"),
  cancel: $("#cancel"),
  progress: $("#solver-progress"),
  status: $("#solver-status"),
  stats: $("#stats"),
  player: $("#player"),
  dqn: $("#dqn"),
};

/** How long the slider's maximum and the deep Q-learning card wait for the page to be idle after it starts. */
const IDLE_TIMEOUT_MS = 1000;
/** showResult's algorithm for a model's solution (the learning card's). */
const MODEL = "model";
let api = null;
/** The page's solver pool (shared with any other widget on the page) and the running solve's AbortController. */
let solver = null;
let solving = null;
/** Aborts the search for the optimum that a local value iteration result is compared with. */
let comparing = null;
let player = null;
/** The widget's <sliding-board>. */
let board = null;
/**
 * sessionStorage key of the moves made on the puzzles this tab showed, so that a reload, or Back
 * to a puzzle left by a link, carries them on (the URL holds the puzzle as it was set: a link
 * shares the puzzle, not the moves); page-controls.js keepFor, each under its URL:
 * { moves (the blank's directions, a letter each: u d l r), moveCount }.
 */
const MOVES_KEY = "puzzlelab-sliding-moves";
/** The blank's moves since the puzzle shown was set (a letter each). */
let movesMade = "";
/** The URL the puzzle shown was set with (setPuzzle), under which its moves are kept. */
let puzzleHash = "";
/** Whether a link was followed while a solve ran: the solve is cancelled, then the link applied. */
let linkWhileSolving = false;
/** "rows x cols" of the board shown, to give a new size its default solver once. */
let shownSize = "";
/** Whether main() has finished: until then updateDifficultyRange leaves reading a small board's maximum for later. */
let started = false;
/** The pending reading of the slider's maximum (whenIdle's handle), or null. */
let difficultyRangeLater = null;
/** The latest "pdb" report of the solver worker per goal text. */
const pdbReports = new Map();

main();

async function main() {
  try {
    const { loadWasm } = await import("../common/wasm.js");
    api = await loadWasm();
  } catch (error) {
    showLoadError(
      `The WebAssembly module could not be loaded (${error?.message ?? error}). ` +
        "Build it with `bash scripts/build-wasm.sh` and serve the repository with `node scripts/serve.mjs`.",
    );
    return;
  }
  board = elements.widget.board;
  player = new SolutionPlayer(elements.player, board);
  solver = sharedSolverPool();
  solver.ready.catch((error) => showLoadError(error.message));
  solver.addEventListener("pdb", (event) => {
    pdbReports.set(event.detail.goal, event.detail);
    showPdbStatus();
  });

  elements.size.addEventListener("change", () => newPuzzleOfChosenSize());
  elements.difficulty.addEventListener("input", () => updateDifficultyLabel());
  elements.shuffle.addEventListener("click", () => shuffle());
  elements.reset.addEventListener("click", () => resetToGoal());
  elements.customForm.addEventListener("submit", (event) => {
    event.preventDefault();
    applyCustomInput();
  });
  elements.startInput.addEventListener("input", () => clearInputError());
  elements.goalInput.addEventListener("input", () => clearInputError());
  elements.copyLink.addEventListener("click", () => copyLink());
  elements.algorithm.addEventListener("change", () => {
    // IDA* on the 15-puzzle uses its pattern databases unless the person picks another heuristic.
    if (elements.algorithm.value === "idastar" && usesPatternDatabases(board.puzzle)) {
      elements.heuristic.value = "pdb";
    }
    updateAlgorithmChoices();
  });
  elements.heuristic.addEventListener("change", () => updateAlgorithmChoices());
  elements.solve.addEventListener("click", () => solve());
  elements.cancel.addEventListener("click", () => solving?.abort());
  board.addEventListener("board-move", (event) => {
    movesMade += event.detail.moves.map((direction) => direction[0]).join("");
    if (event.detail.source === "user") setStatus("");
  });
  addEventListener("pagehide", () => keepMoves());
  // A link followed on this page, or a puzzle typed into its address: that puzzle (a solve running
  // is cancelled first), with the moves this tab made on it when it kept them (Back); the moves on
  // the puzzle left are kept for Back.
  window.addEventListener("hashchange", () => {
    if (solving) {
      linkWhileSolving = true;
      solving.abort();
      return;
    }
    followLink();
  });

  if (!applyHash()) newPuzzleOfChosenSize({ starting: true });
  else carryOnKeptMoves();
  document.documentElement.dataset.ready = "true";
  started = true;
  whenIdle(() => mountDqnCard(), IDLE_TIMEOUT_MS);
}

/**
 * Imports and sets up the deep Q-learning card (train-panel.js; in the CPU profile of a second
 * visit it was most of the page's own start), once the page is idle after it is ready: the card
 * lies below the board and the solver, and the board is playable without it. It reads the board
 * when it is set up and follows it from then on (board-reset), so nothing is lost meanwhile. The
 * card's section carries data-learn-ready once it is set up (common/learn-card.js).
 */
function mountDqnCard() {
  return mountLaterCard(elements.dqn, {
    load: () => import("./train-panel.js"),
    mount: ({ mountSlidingDqnCard }) =>
      mountSlidingDqnCard(elements.dqn, {
        board,
        isBusy: () => solving !== null,
        showSolution: showModelSolution,
      }),
    what: "The deep Q-learning card",
    name: "sliding/train-panel.js",
  });
}

// ---- choosing and setting puzzles -------------------------------------------------------------

/** { rows, cols, preset } of the size <select>. */
function chosenSize() {
  const value = elements.size.value;
  if (value === SUN_MOON) return { rows: 3, cols: 3, preset: SUN_MOON };
  const [rows, cols] = value.split("x").map(Number);
  return { rows, cols, preset: "" };
}

function selectSize(rows, cols, preset) {
  const value = preset === SUN_MOON ? SUN_MOON : `${rows}x${cols}`;
  if (![...elements.size.options].some((option) => option.value === value)) return;
  elements.size.value = value;
}

/** A new puzzle of the size chosen, shuffled; `starting`: while the page starts (see shuffleAndSay). */
function newPuzzleOfChosenSize({ starting = false } = {}) {
  const { rows, cols, preset } = chosenSize();
  const puzzle = preset ? api.Puzzle.preset(preset) : api.Puzzle.standard(rows, cols);
  if (!preset) shuffleAndSay(puzzle, { starting });
  setPuzzle(puzzle);
  if (preset) elements.shuffleNote.textContent = "The sun & moon preset starts from its own position.";
}

/** Keeps the moves made on the puzzle shown under the URL it was set with (MOVES_KEY). */
function keepMoves() {
  keepFor("session", MOVES_KEY, puzzleHash, movesMade ? { moves: movesMade, moveCount: board.moveCount } : null);
}

/** The link in the address, in place of the puzzle shown (whose moves are kept first). */
function followLink() {
  keepMoves();
  if (applyHash() === "set") carryOnKeptMoves();
}

/** After a reload of this tab, or Back: the moves it had made on the URL's puzzle are played again (MOVES_KEY). */
function carryOnKeptMoves() {
  const kept = keptFor("session", MOVES_KEY, location.hash);
  if (!kept || typeof kept.moves !== "string") return;
  const names = { u: "up", d: "down", l: "left", r: "right" };
  let played = "";
  for (const letter of kept.moves) {
    if (!names[letter] || !board.puzzle.moveBlank(names[letter])) break;
    played += letter;
  }
  movesMade = played;
  board.carryOn({ moveCount: played === kept.moves ? kept.moveCount : played.length });
}

/** Shows a new Puzzle: the single place a puzzle is "set", so the URL hash is written here. */
function setPuzzle(puzzle, { writeHash = true } = {}) {
  movesMade = "";
  comparing?.abort();
  player?.clear();
  elements.widget.puzzle = puzzle;
  selectSize(puzzle.rows, puzzle.cols, puzzle.presetName);
  elements.startInput.value = puzzle.startText();
  elements.goalInput.value = puzzle.goalText();
  clearInputError();
  updateDifficultyRange();
  const size = `${puzzle.rows}x${puzzle.cols}`;
  if (size !== shownSize) {
    shownSize = size;
    selectDefaultSolver(puzzle);
  }
  updateAlgorithmChoices();
  if (usesPatternDatabases(puzzle)) {
    // In the background, so that the first Solve does not wait for the download or the build.
    solver?.preparePatternDatabases({ rows: puzzle.rows, cols: puzzle.cols, goal: puzzle.goalText() });
  }
  showPdbStatus();
  elements.stats.hidden = true;
  elements.progress.hidden = true;
  if (!puzzle.isSolvable()) {
    setStatus("This start cannot reach the goal (the two have different parity), so every solver will say so.");
  } else {
    setStatus("");
  }
  if (writeHash) writeHashFor(puzzle);
  puzzleHash = location.hash;
}

/**
 * Shuffles to the slider's difficulty and says how. `starting`: the page's first position, found
 * without building the exact-distance table (shuffleByCheckedWalk), so that the page is ready
 * without that wait; Shuffle builds it (if reading the slider's maximum has not already).
 */
function shuffleAndSay(puzzle, { starting = false } = {}) {
  const wanted = Number(elements.difficulty.value);
  const { difficulty, mode } = starting ? shuffleByCheckedWalk(puzzle, wanted) : shufflePuzzle(puzzle, wanted);
  elements.shuffleNote.textContent =
    mode === "exact"
      ? `Shuffled to exactly ${difficulty} ${difficulty === 1 ? "move" : "moves"} from the goal.`
      : `Shuffled by a random walk until Manhattan distance + 2 × linear conflicts reached ${difficulty}.`;
}

function shuffle() {
  const puzzle = copyAtGoal(api, board.puzzle);
  shuffleAndSay(puzzle);
  setPuzzle(puzzle);
}

function resetToGoal() {
  setPuzzle(copyAtGoal(api, board.puzzle));
  elements.shuffleNote.textContent = "Back at the goal.";
}

function applyCustomInput() {
  const { rows, cols, preset } = chosenSize();
  let puzzle;
  try {
    puzzle = api.Puzzle.parse(rows, cols, elements.startInput.value.trim(), elements.goalInput.value.trim(), preset);
  } catch (error) {
    showInputError(error?.message ?? String(error));
    return;
  }
  setPuzzle(puzzle);
  elements.shuffleNote.textContent = "Custom start set.";
}

function showInputError(message) {
  elements.inputError.textContent = message;
  elements.inputError.hidden = false;
  elements.startInput.setAttribute("aria-invalid", "true");
}

function clearInputError() {
  elements.inputError.hidden = true;
  elements.inputError.textContent = "";
  elements.startInput.removeAttribute("aria-invalid");
}

/**
 * Sets the difficulty slider's range to the puzzle's maximum (Puzzle.maxDifficulty). On boards of
 * at most SMALL_BOARD_CELLS cells that maximum comes from the exact-distance table, which takes a
 * breadth-first search of every position to build: while the page starts it is read once the page
 * is idle, after it is ready, and until then the slider keeps the range it has and carries
 * data-max-pending.
 */
function updateDifficultyRange() {
  const puzzle = board.puzzle;
  cancelWhenIdle(difficultyRangeLater);
  difficultyRangeLater = null;
  if (!started && puzzle.rows * puzzle.cols <= SMALL_BOARD_CELLS) {
    elements.difficulty.dataset.maxPending = "";
    difficultyRangeLater = whenIdle(() => {
      difficultyRangeLater = null;
      updateDifficultyRange();
    }, IDLE_TIMEOUT_MS);
    return;
  }
  delete elements.difficulty.dataset.maxPending;
  const max = Math.max(1, puzzle.maxDifficulty());
  const wanted = Number(elements.difficulty.dataset.wanted ?? elements.difficulty.value ?? DEFAULT_DIFFICULTY);
  elements.difficulty.max = String(max);
  elements.difficulty.value = String(Math.min(wanted, max));
  updateDifficultyLabel(false);
}

function updateDifficultyLabel(remember = true) {
  // Remember what the person asked for, so a small board's cap does not shrink it on bigger ones.
  if (remember) elements.difficulty.dataset.wanted = elements.difficulty.value;
  elements.difficultyValue.textContent = elements.difficulty.value;
}

/**
 * Applies the puzzle in the URL hash: "set" when it set a puzzle, true when the link was the
 * position shown or could not be used (explained), false when there is none.
 */
function applyHash() {
  const fields = readHash();
  if (!fields.size && !fields.start && !fields.preset) return false;
  const preset = fields.preset ?? "";
  const match = /^(\d+)x(\d+)$/.exec(fields.size ?? "");
  const [rows, cols] = match ? [Number(match[1]), Number(match[2])] : preset ? [3, 3] : [NaN, NaN];
  try {
    if (Number.isNaN(rows)) throw new Error(`The link names no usable size ("${fields.size ?? ""}").`);
    const puzzle = fields.start
      ? api.Puzzle.parse(rows, cols, fields.start, fields.goal ?? "", preset)
      : preset
        ? api.Puzzle.preset(preset)
        : api.Puzzle.standard(rows, cols);
    const current = board.puzzle;
    if (current && hashFor(current) === hashFor(puzzle)) {
      // The position shown is the link's: it is the puzzle set now, with no moves made on it.
      puzzle.free();
      puzzleHash = location.hash;
      movesMade = "";
      return true;
    }
    setPuzzle(puzzle, { writeHash: false });
    elements.shuffleNote.textContent = "Puzzle loaded from the link.";
    return "set";
  } catch (error) {
    // The board stays, and so does its address (a reload then shows it again).
    if (!board.puzzle) newPuzzleOfChosenSize();
    else if (puzzleHash) history.replaceState(null, "", puzzleHash);
    showInputError(`The link's puzzle could not be used: ${error?.message ?? error}`);
    return true;
  }
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus("Link copied.");
  } catch {
    setStatus(`Link: ${location.href}`);
  }
}

// ---- solving ------------------------------------------------------------------------------------

/** Selects the solver a board size starts with (sliding/solvers.js: the widget starts with the same). */
function selectDefaultSolver(puzzle) {
  const algorithm = defaultAlgorithm(puzzle);
  elements.algorithm.value = algorithm;
  elements.heuristic.value = defaultHeuristic(puzzle, algorithm);
}

function updateAlgorithmChoices() {
  const puzzle = board.puzzle;
  if (!puzzle) return;
  const cells = puzzle.rows * puzzle.cols;
  const small = cells <= SMALL_BOARD_CELLS;
  for (const option of elements.algorithm.options) {
    if (option.value === "bfs" || option.value === "qlearning") {
      option.disabled = !small;
      option.title = small ? "" : `Only for boards of at most ${SMALL_BOARD_CELLS} cells`;
    }
  }
  const standardGoal = hasStandardGoal(puzzle);
  const localViOption = elements.algorithm.querySelector(`option[value="${LOCAL_VI}"]`);
  localViOption.disabled = !standardGoal;
  localViOption.title = standardGoal ? "" : "Only for numbered puzzles with the standard goal (1, 2, … with the gap last)";
  if (elements.algorithm.selectedOptions[0]?.disabled) elements.algorithm.value = "astar";
  const algorithm = elements.algorithm.value;
  const pdbOption = elements.heuristic.querySelector('option[value="pdb"]');
  pdbOption.disabled = !(algorithm === "idastar" && usesPatternDatabases(puzzle));
  pdbOption.title = pdbOption.disabled ? "Only for IDA* on 4 × 4 boards" : "";
  if (elements.heuristic.selectedOptions[0]?.disabled) elements.heuristic.value = "linear-conflict";
  elements.heuristic.disabled = usesNoHeuristic(algorithm);
  elements.weightField.hidden = algorithm !== "wastar";
  const notes = {
    bfs: "Breadth-first search explores every position by distance: optimal, but only practical for small boards.",
    astar: "A* expands the most promising positions first; optimal with any of these heuristics.",
    wastar:
      "Weighted A* trusts the heuristic w times more (f = g + w·h): far faster on big boards, " +
      "and its solution is at most w × the optimal length.",
    idastar: "IDA* repeats depth-first searches with a growing bound: optimal and needs little memory.",
    qlearning: "Q-learning learns a value for every move by trial and error, then follows it greedily.",
    [LOCAL_VI]:
      "Local value iteration places the tiles one at a time, as people do (Mehta's paper, after Bischoff et al.): " +
      "each sub-problem (bring tile i home without moving tiles 1 … i − 1) has an exact table of distances, " +
      "built here in the tab; when a tile is boxed in, the tile placed before it joins it. " +
      "It always solves, quickly, but not optimally: the result is compared with the optimum, " +
      "and the tiles being placed are marked as the solution plays.",
  };
  let note = notes[algorithm];
  if (algorithm === "idastar" && elements.heuristic.value === "pdb") {
    note +=
      " Pattern databases hold the exact cost of every placement of a group of tiles, so any 15-puzzle " +
      "is solved optimally, usually in well under a second.";
  }
  if (cells > LARGE_BOARD_CELLS && (algorithm === "astar" || algorithm === "idastar")) {
    note += " Optimal search on a board this size may not finish — Cancel stops it; weighted A* answers in about a second.";
  }
  if (algorithm === LOCAL_VI && slowLocalViTables(puzzle)) {
    note +=
      " On a board five columns wide the first solve builds a table of 3.6 million states for the last two rows " +
      "(about 4 MB, a few seconds).";
  }
  if (!small) note += ` BFS and Q-learning are offered for boards of at most ${SMALL_BOARD_CELLS} cells.`;
  if (!standardGoal) {
    note +=
      " Local value iteration is offered only for numbered puzzles with the standard goal (1, 2, … with the gap " +
      "last): it places the tiles in that order.";
  }
  elements.algorithmNote.textContent = note;
}

/** The weight input's value, brought into its range (its default when it is not a number). */
function chosenWeight() {
  const input = elements.weight;
  let weight = Number.parseFloat(input.value);
  if (!Number.isFinite(weight)) weight = Number(input.defaultValue);
  weight = Math.min(Number(input.max), Math.max(Number(input.min), weight));
  input.value = String(weight);
  return weight;
}

/** The status line of the shown 15-puzzle's pattern databases (hidden for other boards). */
function showPdbStatus() {
  const puzzle = board.puzzle;
  const box = elements.pdbStatus;
  if (!usesPatternDatabases(puzzle)) {
    box.hidden = true;
    return;
  }
  const report = pdbReports.get(puzzle.goalText());
  const state = report?.state ?? "waiting";
  const percent = `${Math.floor((report?.progress ?? 0) * 100)}%`;
  const note = report?.message ? ` — ${report.message}` : "";
  let text;
  switch (state) {
    case "downloading":
      text = `downloading ${percent}${report.bytes ? ` (${(report.bytes / 1e6).toFixed(1)} MB)` : ""}…`;
      break;
    case "decoding":
      text = `decoding ${report.partition}…`;
      break;
    case "building":
      text = `building ${report.partition} … ${percent}${note}`;
      break;
    case "ready":
      text = `ready (${[report.partition, report.mirrored ? "mirrored" : "", report.source].filter(Boolean).join(", ")})${note}`;
      break;
    case "error":
      text = `could not be prepared (${report.message}). Choose another heuristic to solve.`;
      break;
    default:
      text = "preparing…";
  }
  box.hidden = false;
  box.dataset.state = state;
  box.dataset.partition = report?.partition ?? "";
  box.dataset.source = report?.source ?? "";
  elements.pdbText.textContent = `Pattern databases: ${text}`;
  const progress = elements.pdbProgress;
  progress.hidden = state === "ready" || state === "error";
  // Without a value a <progress> shows "busy", for the steps that cannot be measured.
  if ((state === "downloading" || state === "building") && report?.progress != null) progress.value = report.progress;
  else progress.removeAttribute("value");
}

async function solve() {
  const puzzle = board.puzzle;
  if (!puzzle || solving) return;
  if (puzzle.isSolved()) {
    setStatus("The board is already solved — shuffle it first.");
    return;
  }
  const algorithm = elements.algorithm.value;
  const heuristic = elements.heuristic.value;
  const weight = algorithm === "wastar" ? chosenWeight() : undefined;
  const request = solveRequest(puzzle, { algorithm, heuristic, weight });
  const label = solverLabel(algorithm, heuristic, weight);

  comparing?.abort();
  player.clear();
  setBusy(true);
  elements.stats.hidden = true;
  elements.progress.hidden = false;
  elements.progress.textContent =
    algorithm === "qlearning"
      ? "Training…"
      : algorithm === LOCAL_VI
        ? "Solving tile by tile…"
        : heuristic === "pdb" && pdbReports.get(request.goal)?.state !== "ready"
          ? "Waiting for the pattern databases…"
          : "Searching…";
  setStatus(`${label} is running…`);

  solving = new AbortController();
  try {
    const onProgress = (progress) => {
      const seconds = (progress.ms / 1000).toFixed(1);
      elements.progress.textContent =
        progress.waiting === "pdb"
          ? "Waiting for the pattern databases…"
          : progress.building === LOCAL_VI
            ? "Building the tables of local value iteration…"
            : progress.episodes !== undefined
              ? `Training: ${numberFormat.format(progress.episodes)} episodes · ${seconds} s`
              : `Searching: ${numberFormat.format(progress.nodes)} nodes expanded · ${seconds} s`;
    };
    const result = await solver.solve(request, { onProgress, signal: solving.signal });
    elements.progress.hidden = true;
    // The result names the databases actually used (6-6-3 or 5-5-5).
    const used = heuristic === "pdb" && result.heuristic ? (HEURISTIC_NAMES[result.heuristic] ?? result.heuristic) : null;
    showResult(result, algorithm, used ? `${ALGORITHM_NAMES[algorithm]} (${used})` : label);
    if (algorithm === LOCAL_VI && result.status === "solved") compareWithOptimum(puzzle, request, result);
  } catch (error) {
    elements.progress.hidden = true;
    if (error instanceof SolveCancelled) setStatus("Cancelled.");
    else setStatus(`${label} failed: ${error.message}`);
  } finally {
    solving = null;
    setBusy(false);
    if (linkWhileSolving) {
      linkWhileSolving = false;
      followLink();
    }
  }
}

/**
 * Shows a model's solution of `puzzle` (the learning card's: train-panel.js) as the Solve card's
 * result, `label` its solver ("The DQN model (beam search)"), and plays it; where the learning
 * worker had no exact distance for the board (over 9 cells), the page's optimal solver finds the
 * optimum meanwhile. Returns the status sentence.
 */
function showModelSolution(result, puzzle, label) {
  comparing?.abort();
  player.clear();
  showResult(result, MODEL, label);
  if (result.status === "solved" && result.optimalLength == null) compareWithOptimum(puzzle, solveRequest(puzzle, {}), { ...result, lower_bound: null });
  return elements.status.textContent;
}

function showResult(result, algorithm, label) {
  const qLearning = algorithm === "qlearning";
  const localVi = algorithm === LOCAL_VI;
  const model = algorithm === MODEL;
  const bounded = algorithm === "wastar";
  const solved = result.status === "solved";
  // The worker's exact distance (Q-learning, a model on boards of up to 9 cells), else none.
  const known = (qLearning || model) && result.optimalLength != null;
  // Local value iteration and a model without a known distance are put against the optimum (compareWithOptimum).
  const compared = solved && (localVi || (model && !known));
  const stats = elements.stats;
  $("#stat-moves").textContent = solved ? numberFormat.format(result.length) : "–";
  $("#stat-nodes").textContent = qLearning
    ? "– (learns instead)"
    : localVi
      ? "– (reads its tables)"
      : numberFormat.format(result.nodes);
  // A model's solve takes fractions of a millisecond on small boards.
  $("#stat-time").textContent = `${numberFormat.format(result.ms < 10 ? Number(result.ms.toFixed(1)) : Math.round(result.ms))} ms`;
  $("#stat-optimal").textContent = !solved
    ? "–"
    : result.optimal
      ? "Yes — optimal"
      : known
        ? `No (optimal is ${result.optimalLength})`
        : bounded
          ? "Not proven"
          : compared
            ? "Not guaranteed (comparing…)"
            : "Not guaranteed";
  for (const row of stats.querySelectorAll(".q-only")) row.hidden = !qLearning;
  for (const row of stats.querySelectorAll(".bound-only")) row.hidden = !bounded;
  for (const row of stats.querySelectorAll(".lvi-only")) row.hidden = !localVi;
  for (const row of stats.querySelectorAll(".compare-only")) row.hidden = !compared;
  delete stats.dataset.optimumSource;
  delete stats.dataset.tableStates;
  delete stats.dataset.tableMs;
  stats.dataset.optimum = known ? String(result.optimalLength) : "";
  if (known) stats.dataset.optimumSource = "table";
  stats.dataset.method = result.method ?? "";
  if (localVi) showTables(result.tables);
  const weightText = numberFormat.format(result.weight ?? 1);
  if (bounded) {
    $("#stat-bound").textContent = `at most ${weightText} × optimal`;
    $("#stat-lower-bound").textContent = `${numberFormat.format(result.lower_bound)} moves`;
  }
  if (qLearning) {
    $("#stat-episodes").textContent = numberFormat.format(result.episodes ?? 0);
    $("#stat-states").textContent = numberFormat.format(result.states ?? 0);
  }
  stats.hidden = false;
  stats.dataset.status = result.status;
  stats.dataset.length = String(result.length ?? "");
  stats.dataset.optimal = String(Boolean(result.optimal));
  stats.dataset.heuristic = result.heuristic ?? "";
  stats.dataset.lowerBound = String(result.lower_bound ?? "");

  switch (result.status) {
    case "solved": {
      const extra = known ? result.length - result.optimalLength : null;
      const quality = model
        ? extra === null
          ? ""
          : extra === 0
            ? ", optimal"
            : `, ${extra} ${extra === 1 ? "move" : "moves"} more than the optimal ${result.optimalLength}`
        : result.optimal
          ? " (optimal)"
          : bounded
            ? ` (at most ${weightText} × optimal; optimal ≥ ${numberFormat.format(result.lower_bound)})`
            : "";
      setStatus(`${label} found a ${result.length}-move solution${quality}.`);
      player.load(result.moves, localVi ? { stages: result.stages, moveStages: result.moveStages } : undefined);
      player.play();
      break;
    }
    case "unsolvable":
      setStatus(`${label}: this start cannot reach the goal.`);
      break;
    case "budget-exhausted":
      setStatus(`${label} gave up after ${numberFormat.format(result.nodes)} nodes (node budget exhausted).`);
      break;
    case "not-solved":
      setStatus(
        !model
          ? `Q-learning did not learn a way to the goal in ${numberFormat.format(result.episodes ?? 0)} episodes.`
          : result.method === "bwas"
            ? `${label} found no way to the goal: the batch-weighted A* it guided gave up after ${numberFormat.format(result.nodes)} nodes.`
            : `${label} found no way to the goal: greedy play failed within 50 moves, and the beam search it guided gave up after ${numberFormat.format(result.nodes)} nodes.`,
      );
      break;
    default:
      setStatus(`${label} finished: ${result.status}.`);
  }
}

/** Whether the algorithm takes no heuristic (the heuristic <select> is disabled for it). */
function usesNoHeuristic(algorithm) {
  return algorithm === "bfs" || algorithm === "qlearning" || algorithm === LOCAL_VI;
}

/** The tables' line of a local value iteration result: how many, how large, how long they took. */
function showTables(tables) {
  const kilobytes = tables.states / 1024;
  const size = kilobytes < 1024 ? `${kilobytes.toFixed(1)} KB` : `${(kilobytes / 1024).toFixed(1)} MB`;
  const time = `${numberFormat.format(tables.buildMs)} ms`;
  $("#stat-tables").textContent =
    `${tables.tables} tables, ${numberFormat.format(tables.states)} states (${size}, one byte each); ` +
    (tables.built ? `built in ${time} for this solve` : `built earlier in this tab in ${time}`);
  elements.stats.dataset.tableStates = String(tables.states);
  elements.stats.dataset.tableMs = String(tables.buildMs);
}

/**
 * Puts a solution's length (local value iteration's, or a model's on a board without exact
 * distances) against the optimum: the page's optimal solver for the board (optimumSolver) runs in
 * the solver pool while the solution plays. Where it cannot run or gives up, the start's lower
 * bound (Manhattan distance + linear conflicts: `result.lower_bound`; null for a model) stands in,
 * and the line says so.
 */
async function compareWithOptimum(puzzle, request, result) {
  comparing?.abort();
  const controller = new AbortController();
  comparing = controller;
  const length = result.length;
  const show = (optimum, source, text) => {
    if (comparing !== controller) return;
    const ratio = optimum > 0 ? `: ${(length / optimum).toFixed(2)} × optimal` : "";
    $("#stat-vs-optimum").textContent =
      source === "search"
        ? `${numberFormat.format(length)} moves against the optimum of ${numberFormat.format(optimum)}, ${text}${ratio}`
        : source === "lower-bound"
          ? `${numberFormat.format(length)} moves; the optimum is at least ${numberFormat.format(optimum)} (${text})`
          : `${numberFormat.format(length)} moves; the optimum is not known (${text})`;
    $("#stat-optimal").textContent =
      source === "search"
        ? optimum === length
          ? "Yes — optimal"
          : `No (optimal is ${numberFormat.format(optimum)})`
        : result.optimal
          ? "Yes — optimal"
          : "Not known";
    elements.stats.dataset.optimum = String(optimum ?? "");
    elements.stats.dataset.optimumSource = source;
  };
  const lowerBound = result.lower_bound;
  const fallBack = (why) =>
    lowerBound === null ? show(null, "none", why) : show(lowerBound, "lower-bound", `Manhattan distance + linear conflicts; ${why}`);
  const solverName = optimumSolverName(puzzle);
  if (result.optimal) {
    show(lowerBound, "search", "the lower bound (Manhattan distance + linear conflicts), which this solution meets");
    return;
  }
  if (!solverName) {
    fallBack("optimal search may not finish on a board this size");
    return;
  }
  $("#stat-vs-optimum").textContent = `${numberFormat.format(length)} moves; finding the optimum with ${solverName}…`;
  try {
    const optimum = await findOptimum(puzzle, request, controller.signal);
    if (optimum.length !== null) show(optimum.length, "search", `found by ${solverName}`);
    else fallBack(`${solverName} gave up (${optimum.status})`);
  } catch (error) {
    if (error instanceof SolveCancelled) return;
    fallBack(`${solverName} failed: ${error.message}`);
  } finally {
    if (comparing === controller) comparing = null;
  }
}

/** The name of the page's optimal solver for `puzzle`'s size (optimumSolver), or null when none suits. */
function optimumSolverName(puzzle) {
  const optimal = optimumSolver(puzzle);
  return optimal ? solverLabel(optimal.algorithm, optimal.heuristic) : null;
}

/**
 * The optimum of the board `request` describes (solveRequest's fields; its solver fields are
 * replaced), by the page's optimal solver for `puzzle`'s size, in the solver pool:
 * { length (null when the solver gave up), solver (its name), status }, or null when no optimal
 * solver suits the board. Rejects with SolveCancelled when `signal` aborts.
 */
async function findOptimum(puzzle, request, signal) {
  const optimal = optimumSolver(puzzle);
  if (!optimal) return null;
  const result = await solver.solve({ ...request, ...optimal }, { signal });
  const length = result.status === "solved" && result.optimal ? result.length : null;
  return { length, solver: optimumSolverName(puzzle), status: result.status };
}

function setBusy(busy) {
  board.locked = busy;
  elements.solve.disabled = busy;
  elements.cancel.disabled = !busy;
  const { size, shuffle, reset, applyCustom, algorithm, weight } = elements;
  for (const control of [size, shuffle, reset, applyCustom, algorithm, weight]) control.disabled = busy;
  elements.heuristic.disabled = busy || usesNoHeuristic(elements.algorithm.value);
  document.body.toggleAttribute("data-solving", busy);
  if (busy) elements.cancel.focus({ preventScroll: true });
  else if (document.activeElement === elements.cancel || document.activeElement === document.body) {
    elements.solve.focus({ preventScroll: true });
  }
}

function setStatus(text) {
  elements.status.textContent = text;
}

function showLoadError(message) {
  elements.loadError.textContent = message;
  elements.loadError.hidden = false;
}
