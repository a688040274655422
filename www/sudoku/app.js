// The Sudoku page (sudoku.html): the grid (<sudoku-board> from sudoku/board.js), the puzzle card
// (size, difficulty, new puzzles from the generator, the rating, a link to the position, a pasted
// puzzle), the help card (pencil mode, hint, candidates, check), the genetic-algorithm card
// (sudoku/ga-panel.js, which runs in its own worker) and the Learn card (sudoku/dqn-panel.js: a
// deep Q-network trained in the learning worker, and a model playing the board).
//
// The URL holds the position: sudoku.html#puzzle=<givens>&digits=<digits shown> (one line each,
// "." empty), kept up to date as you play, or #size=9&difficulty=hard&seed=42 for a generated one
// (the same seed, the same puzzle).

import "./board.js";
import { clock } from "./board.js";
import { GaPanel } from "./ga-panel.js";
import { LEVELS_BY_SIZE } from "./levels.js";
import { randomSeed, showError } from "../common/page-controls.js";
import { errorMessage, loadWasm } from "../common/wasm.js";

const $ = (selector) => document.querySelector(selector);
const elements = {
  board: $("#game"),
  loadError: $("#load-error"),
  size: $("#size"),
  difficulty: $("#difficulty"),
  newPuzzle: $("#new-puzzle"),
  rating: $("#rating"),
  shareLine: $("#share-line"),
  puzzleText: $("#puzzle-text"),
  applyText: $("#apply-text"),
  puzzleError: $("#puzzle-error"),
  boardStatus: $("#board-status"),
  pencil: $("#pencil"),
  hint: $("#hint"),
  candidates: $("#candidates"),
  check: $("#check"),
  hintSteps: $("#hint-steps"),
  hintError: $("#hint-error"),
  dqn: $("#dqn"),
};

let api = null;
/** The Learn card (sudoku/dqn-panel.js), once mounted. */
let dqnPanel = null;
/** Generations started; a slower one that finishes after a newer one is dropped. */
let generation = 0;

/** Fills the difficulty menu with the levels `size` can have (Rust's ranges), keeping the choice when it can. */
function showLevels(wanted = elements.difficulty.value) {
  const size = Number(elements.size.value);
  const available = LEVELS_BY_SIZE[size];
  elements.difficulty.replaceChildren(
    ...api.sudokuLevels().map(({ name, floor, ceiling }) => {
      const option = document.createElement("option");
      option.value = name;
      const range = floor === 0 ? `rating ≤ ${ceiling}` : `rating ${floor}–${ceiling}`;
      option.textContent = `${name[0].toUpperCase()}${name.slice(1)} · ${range}`;
      option.disabled = !available.includes(name);
      return option;
    }),
  );
  elements.difficulty.value = available.includes(wanted) ? wanted : available[0];
}

/** Shows a game: the board takes it over; the rating, the link and the notes follow. */
function show(game, note = "", error = "") {
  dqnPanel?.stopPlaying();
  elements.board.game = game;
  elements.board.pencil = elements.pencil.checked;
  showError(elements.puzzleError, error);
  showError(elements.hintError, "");
  elements.hintSteps.replaceChildren();
  elements.boardStatus.textContent = note;
  if (String(game.size) !== elements.size.value) {
    elements.size.value = String(game.size);
    showLevels();
  }
  const rating = game.rate();
  const level = rating.difficulty ? ` (${rating.difficulty})` : rating.solved ? "" : " (beyond the techniques: guessing needed)";
  const hardest = rating.hardest ? ` · hardest step: ${rating.hardest}` : "";
  elements.rating.textContent = `Rating ${rating.rating.toFixed(1)}${level}${hardest}`;
  elements.rating.dataset.rating = String(rating.rating);
  elements.rating.dataset.difficulty = rating.difficulty ?? "";
  updateLink();
  document.documentElement.dataset.ready = "true";
}

/** The URL (and the link under the rating) hold the puzzle and the digits shown. */
function updateLink() {
  const game = elements.board.game;
  if (!game) return;
  const params = new URLSearchParams({ puzzle: game.puzzleText() });
  const digits = game.text();
  if (digits !== game.puzzleText()) params.set("digits", digits);
  history.replaceState(null, "", `#${params}`);
  const link = document.createElement("a");
  link.href = `#${params}`;
  link.textContent = "link to this position";
  const seed = game.seed === undefined ? "" : `Generated from seed ${game.seed} · `;
  elements.shareLine.replaceChildren(`${seed}${game.size} × ${game.size}, ${game.givens().filter((d) => d).length} givens · `, link);
}

/** A new puzzle from the generator at the chosen size and difficulty (in a moment: the page says so first). */
function newPuzzle(seed = randomSeed(), error = "") {
  const size = Number(elements.size.value);
  const difficulty = elements.difficulty.value;
  const mine = ++generation;
  elements.boardStatus.textContent = `Generating a ${difficulty} ${size} × ${size} puzzle…`;
  elements.newPuzzle.disabled = true;
  // Let the message paint: the generator runs on this thread (a fraction of a second).
  setTimeout(() => {
    if (mine !== generation) return;
    elements.newPuzzle.disabled = false;
    let game;
    try {
      game = api.SudokuGame.generate(size, difficulty, seed);
    } catch (failure) {
      elements.boardStatus.textContent = "";
      showError(elements.puzzleError, errorMessage(failure));
      document.documentElement.dataset.ready = "true";
      return;
    }
    show(game, "", error);
  }, 30);
}

/** Plays the pasted puzzle; a mistake is explained beside the box and the game shown stays. */
function playText() {
  let game;
  try {
    game = api.SudokuGame.parse(elements.puzzleText.value);
  } catch (error) {
    showError(elements.puzzleError, errorMessage(error));
    return;
  }
  generation++;
  show(game, "Your puzzle: it has exactly one solution.");
}

/** Starts from the URL's position, if it holds one: true, or else the reason it could not (or ""). */
function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const puzzle = params.get("puzzle");
  if (puzzle) {
    let game;
    try {
      game = api.SudokuGame.parse(puzzle);
    } catch (error) {
      elements.puzzleText.value = puzzle;
      return `The link's puzzle: ${errorMessage(error)}`;
    }
    const digits = params.get("digits");
    let note = "";
    if (digits) {
      try {
        game.restore(Uint8Array.from(digits, (c) => (c >= "1" && c <= "9" ? Number(c) : 0)));
      } catch (error) {
        note = `The link's digits were left out: ${errorMessage(error)}`;
      }
    }
    show(game, note);
    return true;
  }
  const size = params.get("size");
  const difficulty = params.get("difficulty");
  const seed = params.get("seed");
  if (size && size in LEVELS_BY_SIZE) elements.size.value = size;
  showLevels(difficulty ?? undefined);
  if (seed !== null && /^\d{1,15}$/.test(seed)) {
    newPuzzle(Number(seed));
    return true;
  }
  return "";
}

function hint() {
  const board = elements.board;
  const game = board.game;
  showError(elements.hintError, "");
  elements.hintSteps.replaceChildren();
  if (!game) return;
  if (game.isSolved()) {
    elements.boardStatus.textContent = "The puzzle is solved.";
    return;
  }
  if (game.conflicts().length > 0) {
    showError(elements.hintError, "Equal digits share a row, column or box (dashed): take one out first.");
    return;
  }
  let steps;
  try {
    steps = game.hint();
  } catch (error) {
    showError(elements.hintError, errorMessage(error));
    board.showMistakes(game.mistakes());
    return;
  }
  if (steps.length === 0) {
    showError(elements.hintError, "None of the solver's techniques applies to this position.");
    return;
  }
  board.showHint(steps);
  // The hint selects the cell to fill: the digit can be typed at once.
  board.focus({ preventScroll: true });
  for (const step of steps) {
    const item = document.createElement("li");
    const technique = document.createElement("span");
    technique.className = "technique";
    technique.textContent = step.technique;
    const colon = step.explanation.indexOf(": ");
    item.append(technique, ` (${step.rating.toFixed(1)})`, step.explanation.slice(colon));
    elements.hintSteps.append(item);
  }
}

function check() {
  const game = elements.board.game;
  if (!game) return;
  const wrong = game.mistakes();
  elements.board.showMistakes(wrong);
  const filled = game.cells().filter((d) => d).length - game.givens().filter((d) => d).length;
  elements.boardStatus.textContent =
    wrong.length === 0
      ? `No mistakes so far (${filled} digits of yours).`
      : `${wrong.length} of your digits ${wrong.length === 1 ? "is" : "are"} not the solution's (struck through).`;
}

elements.size.addEventListener("change", () => {
  showLevels();
  newPuzzle();
});
elements.difficulty.addEventListener("change", () => newPuzzle());
elements.newPuzzle.addEventListener("click", () => newPuzzle());
elements.applyText.addEventListener("click", () => playText());
elements.pencil.addEventListener("change", () => (elements.board.pencil = elements.pencil.checked));
elements.hint.addEventListener("click", () => hint());
elements.candidates.addEventListener("click", () => elements.board.fillCandidates("user"));
elements.check.addEventListener("click", () => check());
elements.board.addEventListener("sudoku-move", () => {
  elements.hintSteps.replaceChildren();
  showError(elements.hintError, "");
  if (!elements.board.solved) elements.boardStatus.textContent = "";
  updateLink();
});
elements.board.addEventListener("sudoku-solved", (event) => {
  elements.boardStatus.textContent = `Solved in ${clock(event.detail.seconds)}!`;
});
// The pad's pencil button and the P key switch the board's mode: the checkbox follows.
new MutationObserver(() => (elements.pencil.checked = elements.board.pencil)).observe(elements.board, {
  attributes: true,
  attributeFilter: ["pencil"],
});

/**
 * Loads the Learn card (sudoku/dqn-panel.js); it loads nothing heavy itself: the learning worker
 * and its bundle start when the card is first used.
 */
function mountDqnPanel() {
  if (!elements.dqn) return;
  import("./dqn-panel.js")
    .then((module) => {
      dqnPanel = module.mountSudokuDqnPanel(elements.dqn, { board: elements.board });
    })
    .catch((error) => {
      const note = document.createElement("p");
      note.className = "help";
      note.textContent = "The Learn card is not available in this build.";
      elements.dqn.append(note);
      console.warn(`sudoku/dqn-panel.js: ${errorMessage(error)}`);
    });
}

try {
  api = await loadWasm();
  new GaPanel($("#ga-card"), { board: elements.board, api });
  mountDqnPanel();
  showLevels("easy");
  // The page is ready (data-ready) once a puzzle shows: a generated one comes a moment later.
  const started = fromHash();
  if (started !== true) newPuzzle(randomSeed(), started);
} catch (error) {
  showError(elements.loadError, `The game could not start: ${errorMessage(error)}`);
}
