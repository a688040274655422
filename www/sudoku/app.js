// The Sudoku page (sudoku.html): the grid (<sudoku-board> from sudoku/board.js), the puzzle card
// (size, difficulty, new puzzles from the generator, the rating, a link to the position, a pasted
// puzzle), the help card (pencil mode; the hint, one step at a time; candidates; check; reveal a
// cell or the solution; a solve that had help says so), the genetic-algorithm card
// (sudoku/ga-panel.js, which runs in its own worker) and the Learn card (sudoku/dqn-panel.js: a
// deep Q-network trained in the learning worker, and a model playing the board).
//
// The URL holds the position: sudoku.html#puzzle=<givens>&digits=<digits shown> (one line each,
// "." empty), kept up to date as you play, or #size=9&difficulty=hard&seed=42 for a generated one
// (the same seed, the same puzzle). This tab also keeps the game's timer, its help and its pencil
// marks (sessionStorage), so that a reload carries the game on where the URL left it: the timer
// does not start again, and a solve after hints still says it had them.

import "./board.js";
import { clock, isAssisted, solvedText } from "./board.js";
import { LEVELS_BY_SIZE } from "./levels.js";
import { keepFor, keptFor, mountLaterCard, randomSeed, showError } from "../common/page-controls.js";
import { errorMessage, loadWasm } from "../common/wasm.js";

/** sessionStorage key of the games this tab showed (page-controls.js keepFor), each under its puzzle: { digits, seconds, help, marks }. */
const PROGRESS_KEY = "puzzlelab-sudoku-progress";

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
  revealCell: $("#reveal-cell"),
  revealSolution: $("#reveal-solution"),
  hintBox: $("#hint-box"),
  hintText: $("#hint-text"),
  hintMore: $("#hint-more"),
  hintError: $("#hint-error"),
  dqn: $("#dqn"),
};

let api = null;
/** The Learn card (sudoku/dqn-panel.js), once mounted. */
let dqnPanel = null;
/** Generations started; a slower one that finishes after a newer one is dropped. */
let generation = 0;
/**
 * The hint shown: the solver's steps from the digits shown (`digits`, as SudokuGame.text() wrote
 * them) and the one on the board (`step`); null when none is.
 */
let shownHint = null;

/** Each technique's idea in plain words (the names are Technique::name's, src/env/sudoku/logic.rs). */
const TECHNIQUE_IDEAS = {
  "hidden single (box)": "A digit with only one empty cell left for it in a box goes there.",
  "hidden single (line)": "A digit with only one empty cell left for it in a row or column goes there.",
  "naked single": "A cell that sees every digit but one in its row, column and box takes that one.",
  pointing:
    "When a digit's cells in a box all lie in one row or column, the digit is in that part of the line, so it cannot go anywhere else in the line.",
  "direct pointing":
    "When a digit's cells in a box all lie in one row or column, it cannot go anywhere else in the line — and that leaves some digit a single cell.",
  claiming:
    "When a digit's cells in a row or column all lie in one box, the digit is in that part of the box, so it cannot go anywhere else in the box.",
  "direct claiming":
    "When a digit's cells in a row or column all lie in one box, it cannot go anywhere else in the box — and that leaves some digit a single cell.",
  "naked pair": "Two cells of a row, column or box that can hold only the same two digits take those two, so no other cell of it can hold them.",
  "naked triple": "Three cells of a row, column or box that can hold only three digits between them take those three, so no other cell of it can hold them.",
  "naked quad": "Four cells of a row, column or box that can hold only four digits between them take those four, so no other cell of it can hold them.",
  "hidden pair": "When two digits fit only the same two cells of a row, column or box, those cells hold them, so no other digit can go there.",
  "hidden triple": "When three digits fit only the same three cells of a row, column or box, those cells hold them, so no other digit can go there.",
  "hidden quad": "When four digits fit only the same four cells of a row, column or box, those cells hold them, so no other digit can go there.",
  "direct hidden pair":
    "When two digits fit only the same two cells of a row, column or box, no other digit can go there — and that leaves some digit a single cell.",
  "direct hidden triple":
    "When three digits fit only the same three cells of a row, column or box, no other digit can go there — and that leaves some digit a single cell.",
  "X-wing":
    "When a digit fits only the same two columns in each of two rows (or the same two rows in two columns), it takes opposite corners, so the rest of those lines cannot hold it.",
  swordfish: "An X-wing on three lines: a digit confined to the same three columns in three rows (or the other way round) is ruled out of the rest of them.",
  jellyfish: "An X-wing on four lines: a digit confined to the same four columns in four rows (or the other way round) is ruled out of the rest of them.",
  "XY-wing":
    "A two-digit cell (the pivot) sees two cells (the pincers) that share one digit each with it and a third between them: whichever the pivot holds, a pincer holds the third digit, so no cell that sees both pincers can.",
  "XYZ-wing": "An XY-wing whose pivot may hold the third digit too: a cell that sees the pivot and both pincers cannot hold it.",
  "unique rectangle":
    "Four cells on two rows, two columns and two boxes must not end up holding two digits that could swap places (the puzzle would have two solutions), which rules a digit out.",
  "bivalue universal grave":
    "If every empty cell had just two candidates the puzzle would have two solutions, so the one cell with more holds the digit that breaks the pattern.",
  "forcing chain": "Trying a digit in a cell leads, step by step, to a contradiction, so that digit cannot go there.",
  "nested forcing chain": "A forcing chain whose steps need chains of their own: a digit in a cell leads to a contradiction, so it cannot go there.",
};

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
  clearHint();
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
  pageReady();
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
      pageReady();
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
    carryOnKeptProgress();
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

/** The game shown, as this tab keeps it for a reload or Back (see PROGRESS_KEY). */
function keepProgress() {
  const board = elements.board;
  if (!board.game) return;
  keepFor("session", PROGRESS_KEY, board.game.puzzleText(), { digits: board.game.text(), seconds: board.seconds, help: board.help, marks: board.marks });
}

/** When this tab kept the position the URL shows (a reload, Back), its timer, help and marks go on. */
function carryOnKeptProgress() {
  const game = elements.board.game;
  const kept = keptFor("session", PROGRESS_KEY, game.puzzleText());
  if (!kept || kept.digits !== game.text()) return;
  elements.board.carryOn({ seconds: kept.seconds, help: kept.help ?? {}, marks: kept.marks });
  if (elements.board.solved) elements.boardStatus.textContent = solvedLine(elements.board.seconds, elements.board.help);
}

/** The page's line for a solved grid: a solve with help (hints, reveals, a model's digits) says which, and is not an unaided one. */
function solvedLine(seconds, help) {
  return isAssisted(help) ? `${solvedText(seconds, help)} (helped: not an unaided solve).` : `Solved in ${clock(seconds)}!`;
}

/** A cell as Step::explain names it: "r2c5". */
function cellName(cell) {
  const size = elements.board.game.size;
  return `r${Math.floor(cell / size) + 1}c${(cell % size) + 1}`;
}

/** "8 from r4c5, 9 from r4c5" (`word` between the digit and the cell). */
function pairsText(pairs, word) {
  return pairs.map(([cell, digit]) => `${digit} ${word} ${cellName(cell)}`).join(", ");
}

/** A paragraph of the hint box. */
function paragraph(className, ...content) {
  const p = document.createElement("p");
  p.className = className;
  p.append(...content);
  return p;
}

/**
 * Shows the step `shownHint.step` on the board (only its highlights) and in the hint box: its
 * technique, the idea in plain words, this step's reasoning, and what to do. Eliminations are
 * split by the player's pencil marks: those pencilled are struck through on the grid, the others
 * only named. `options` as board.showHint's.
 */
function showStep(options) {
  const board = elements.board;
  const { steps, step: index } = shownHint;
  const step = steps[index];
  board.showHint([step], options);
  const marks = board.marks;
  const pencilled = (pair) => (marks[pair[0]] & (1 << pair[1])) !== 0;
  const struck = step.eliminations.filter(pencilled);
  const named = step.eliminations.filter((pair) => !pencilled(pair));
  // Step::explain writes "<technique>: <reasoning>; <places and removes>.": the box keeps the
  // reasoning and says what to do itself, with the player's pencil marks in mind.
  const reasoning = step.explanation.slice(step.technique.length + 2).split("; ")[0];
  const technique = document.createElement("strong");
  technique.className = "technique";
  technique.textContent = step.technique;
  const content = [
    paragraph("hint-head", `Step ${index + 1} of ${steps.length}: `, technique, ` (rating ${step.rating.toFixed(1)})`),
    paragraph("hint-idea", TECHNIQUE_IDEAS[step.technique] ?? ""),
    paragraph("hint-reason", `Here: ${reasoning}.`),
  ];
  for (const [cell, digit] of step.placements) {
    content.push(paragraph("hint-place", `So ${digit} goes in ${cellName(cell)} (ringed in green): type ${digit}.`));
  }
  if (struck.length > 0) content.push(paragraph("hint-struck", `Cross out the pencil marks struck through: ${pairsText(struck, "from")}.`));
  if (named.length > 0) {
    const also = struck.length > 0 ? "It also rules out" : "It rules out";
    content.push(paragraph("hint-named", `${also} ${pairsText(named, "in")}: not among your pencil marks, so nothing is struck for ${named.length === 1 ? "it" : "them"}.`));
  }
  elements.hintText.replaceChildren(...content);
  const more = index + 1 < steps.length;
  elements.hintMore.hidden = !more;
  if (more) elements.hintMore.textContent = `More: step ${index + 2} of ${steps.length}`;
  elements.hintBox.hidden = false;
}

/** Takes the hint box away (the board drops the hint's highlights itself at a move or a new game). */
function clearHint() {
  shownHint = null;
  elements.hintBox.hidden = true;
  elements.hintText.replaceChildren();
}

/** The solver's next step from the digits shown, on the board and in the hint box; More shows the steps after it. */
function hint() {
  const board = elements.board;
  const game = board.game;
  showError(elements.hintError, "");
  if (!game) return;
  if (game.isSolved()) {
    clearHint();
    elements.boardStatus.textContent = "The puzzle is solved.";
    return;
  }
  if (game.conflicts().length > 0) {
    clearHint();
    showError(elements.hintError, "Equal digits share a row, column or box (dashed): take one out first.");
    return;
  }
  let steps;
  try {
    steps = game.hint();
  } catch (error) {
    clearHint();
    showError(elements.hintError, errorMessage(error));
    board.showMistakes(game.mistakes());
    return;
  }
  if (steps.length === 0) {
    clearHint();
    showError(elements.hintError, "None of the solver's techniques applies to this position.");
    return;
  }
  // Asked again at the same position: the same hint from its first step, not one more hint.
  const again = shownHint?.digits === game.text();
  shownHint = { steps, step: 0, digits: game.text() };
  showStep({ counted: !again });
  // The hint selects a cell to fill: the digit can be typed at once.
  board.focus({ preventScroll: true });
}

/** The hint's following step (a further step of the same hint: not counted again). */
function moreHint() {
  if (!shownHint || shownHint.step + 1 >= shownHint.steps.length) return;
  shownHint.step++;
  showStep({ counted: false });
  // The step that places a digit selects its cell: the digit can be typed at once (More keeps
  // the focus otherwise, for the next step).
  if (shownHint.steps[shownHint.step].placements.length > 0) elements.board.focus({ preventScroll: true });
}

/** Writes the solution's digit in the selected cell, or says why nothing changed. */
function revealCell() {
  const board = elements.board;
  const game = board.game;
  if (!game) return;
  const cell = board.selected;
  const where = `row ${Math.floor(cell / game.size) + 1}, column ${(cell % game.size) + 1}`;
  if (board.reveal(cell, "user")) {
    if (!board.solved) elements.boardStatus.textContent = `Revealed: ${game.cells()[cell]} at ${where}.`;
  } else {
    elements.boardStatus.textContent = game.isSolved()
      ? "The puzzle is solved."
      : board.locked
        ? "The board is locked while a model plays."
        : game.givens()[cell] !== 0
          ? `${where} is a given: select an empty cell (or one of your digits) to reveal it.`
          : `The ${game.cells()[cell]} at ${where} is the solution's already.`;
  }
  board.focus({ preventScroll: true });
}

/** Writes the whole solution in (the solved line then says it was revealed). */
function revealSolution() {
  const board = elements.board;
  if (!board.game || board.revealSolution("user")) return;
  elements.boardStatus.textContent = board.solved ? "The puzzle is solved." : "The board is locked while a model plays.";
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
elements.hintMore.addEventListener("click", () => moreHint());
elements.revealCell.addEventListener("click", () => revealCell());
elements.revealSolution.addEventListener("click", () => revealSolution());
elements.candidates.addEventListener("click", () => elements.board.fillCandidates("user"));
elements.check.addEventListener("click", () => check());
elements.board.addEventListener("sudoku-move", () => {
  // A move that leaves the digits as they were (pencil marks) keeps the hint, redrawn with the
  // marks as they are now; a digit placed, cleared or revealed takes it away.
  if (shownHint?.digits === elements.board.game.text()) showStep({ counted: false, select: false });
  else clearHint();
  showError(elements.hintError, "");
  if (!elements.board.solved) elements.boardStatus.textContent = "";
  updateLink();
});
addEventListener("pagehide", () => keepProgress());
// The page's status line says it (a live region): the board need not say it too.
elements.board.addEventListener("sudoku-solved", (event) => {
  event.preventDefault();
  elements.boardStatus.textContent = solvedLine(event.detail.seconds, event.detail.help);
});
// The pad's pencil button and the P key switch the board's mode: the checkbox follows.
new MutationObserver(() => (elements.pencil.checked = elements.board.pencil)).observe(elements.board, {
  attributes: true,
  attributeFilter: ["pencil"],
});

/**
 * The page is ready (data-ready) once its first puzzle shows (or could not be made); only then
 * do the two cards below the board load: the genetic algorithm's (sudoku/ga-panel.js, which runs
 * in its own worker) and the Learn card (sudoku/dqn-panel.js; the learning worker and its bundle
 * start when it is first used). The GA card's section (#ga-card) carries data-state once the card is set up.
 */
function pageReady() {
  if (document.documentElement.dataset.ready === "true") return;
  document.documentElement.dataset.ready = "true";
  const ga = $("#ga-card");
  mountLaterCard(ga, {
    load: () => import("./ga-panel.js"),
    mount: ({ GaPanel }) => new GaPanel(ga, { board: elements.board, api }),
    what: "The genetic-algorithm card",
    name: "sudoku/ga-panel.js",
  });
  mountLaterCard(elements.dqn, {
    load: () => import("./dqn-panel.js"),
    mount: (module) => (dqnPanel = module.mountSudokuDqnPanel(elements.dqn, { board: elements.board })),
    what: "The Learn card",
    name: "sudoku/dqn-panel.js",
  });
}

try {
  api = await loadWasm();
  showLevels("easy");
  // The page is ready (data-ready) once a puzzle shows: a generated one comes a moment later.
  const started = fromHash();
  if (started !== true) newPuzzle(randomSeed(), started);
  // A link followed on this page, or a position typed into its address: that position (the page's
  // own updates of the URL use replaceState); one that cannot be read is explained and the game stays.
  // The game left is kept for Back (its timer, help and marks); after a link that cannot be read,
  // the address goes back to the game shown.
  addEventListener("hashchange", () => {
    keepProgress();
    const shown = fromHash();
    if (typeof shown === "string" && shown) {
      showError(elements.puzzleError, shown);
      updateLink();
    }
  });
} catch (error) {
  showError(elements.loadError, `The game could not start: ${errorMessage(error)}`);
}
