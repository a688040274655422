// The Minesweeper page (minesweeper.html): the board (<mines-board> from minesweeper/board.js), the
// board card (level or custom size, first-click rule, no-guess boards, "?" marks), the solver
// card (probability overlay, hint, the solver playing step by step) and the deep Q-network card
// (minesweeper/dqn-panel.js: training in the learning worker, the model playing the board and
// measured against the solver). A board can also be set up from text (mines included), for
// puzzles and for trying the solver on a given position.
//
// A game's seed may come from the URL (minesweeper.html#seed=42&level=beginner: the same seed and
// first click give the same mines); later games are seeded at random. The page opens on beginner
// with the "opening" first-click rule; the player's own choice of level, custom size and rule is
// remembered (localStorage) for the next visit, and the URL's settings win over it. The game going
// on is kept for this tab (sessionStorage: its board's URL, its moves and its timer), so a reload
// carries it on; a game that is over is not kept.

import "./board.js";
import { percent } from "./board.js";
import { SpeedSlider, keepFor, keptFor, mountLaterCard, randomSeed, readKept, showError, writeKept } from "../common/page-controls.js";
import { errorMessage, loadWasm } from "../common/wasm.js";

/** Solver speeds in moves per second, one per step of the speed slider. */
const SPEEDS = [1, 2, 4, 8, 16, 32, 64];
const LEVELS = {
  beginner: [9, 9, 10],
  intermediate: [16, 16, 40],
  expert: [30, 16, 99],
};
const LEVEL_NAMES = [...Object.keys(LEVELS), "custom"];
const RULES = ["safe", "opening", "none"];
/** localStorage key of the board card's last choice: { level, rule, width, height, mines } as text, and questionMarks (a boolean). */
const SETTINGS_KEY = "puzzlelab-minesweeper-settings";
/** sessionStorage key of the games going on in this tab (page-controls.js keepFor), each under its board's URL: { moves ("r40 f12 c33": reveal, flag, "?" flag, chord), seconds }. */
const GAME_KEY = "puzzlelab-minesweeper-game";
/** A move's letter: how it is played again on a MinesGame handle. */
const REPLAY = {
  r: (game, cell) => game.reveal(cell),
  c: (game, cell) => game.chord(cell),
  f: (game, cell) => game.toggleFlag(cell, false),
  q: (game, cell) => game.toggleFlag(cell, true),
};

const $ = (selector) => document.querySelector(selector);
const elements = {
  board: $("#game"),
  loadError: $("#load-error"),
  seedLine: $("#seed-line"),
  level: $("#level"),
  firstClick: $("#first-click"),
  custom: $("#custom"),
  width: $("#width"),
  height: $("#height"),
  mines: $("#mines"),
  noGuess: $("#no-guess"),
  questionMarks: $("#question-marks"),
  newGame: $("#new-game"),
  boardText: $("#board-text"),
  applyText: $("#apply-text"),
  boardError: $("#board-error"),
  boardStatus: $("#board-status"),
  solver: $("#solver"),
  overlay: $("#overlay"),
  hint: $("#hint"),
  step: $("#solver-step"),
  play: $("#solver-play"),
  speed: $("#speed"),
  speedValue: $("#speed-value"),
  solverStatus: $("#solver-status"),
  solverError: $("#solver-error"),
  dqn: $("#dqn"),
};
const speed = new SpeedSlider(elements.speed, elements.speedValue, SPEEDS, "moves/s");

let api = null;
let seed = 0;
let playing = 0;
/** The deep Q-network card (minesweeper/dqn-panel.js), once mounted. */
let dqnPanel = null;

/** Sets the board card's level, first-click rule and custom size from `settings` (text); what is missing or unknown stays. */
function applySettings({ level, rule, width, height, mines, questionMarks }) {
  if (LEVEL_NAMES.includes(level)) elements.level.value = level;
  if (typeof questionMarks === "boolean") elements.questionMarks.checked = questionMarks;
  if (RULES.includes(rule)) elements.firstClick.value = rule;
  for (const [input, value] of [[elements.width, width], [elements.height, height], [elements.mines, mines]]) {
    if (typeof value === "string" && /^\d{1,4}$/.test(value)) input.value = value;
  }
}

/** Puts the player's last choice (SETTINGS_KEY) into the board card. */
function recallSettings() {
  const saved = readKept("local", SETTINGS_KEY);
  if (saved && typeof saved === "object") applySettings(saved);
}

/** Remembers the board card's level, first-click rule and custom size for the next visit. */
function rememberSettings() {
  const settings = {
    level: elements.level.value,
    rule: elements.firstClick.value,
    width: elements.width.value,
    height: elements.height.value,
    mines: elements.mines.value,
    questionMarks: elements.questionMarks.checked,
  };
  writeKept("local", SETTINGS_KEY, settings);
}

/** The URL keys of a board (newGame writes them). */
const HASH_KEYS = ["seed", "level", "first-click", "width", "height", "mines", "no-guess"];

/**
 * Reads #seed=N&level=…&first-click=… (and a custom size) from `hash` (the URL's) into the board
 * card; returns the seed, or null.
 */
function fromHash(hash = location.hash) {
  const params = new URLSearchParams(hash.slice(1));
  const wanted = params.get("seed");
  applySettings({
    level: params.get("level"),
    rule: params.get("first-click"),
    width: params.get("width"),
    height: params.get("height"),
    mines: params.get("mines"),
  });
  if (params.get("no-guess") === "1") elements.noGuess.checked = true;
  return wanted !== null && /^\d{1,15}$/.test(wanted) ? Number(wanted) : null;
}

function layout() {
  const level = elements.level.value;
  if (level in LEVELS) return LEVELS[level];
  return [elements.width, elements.height, elements.mines].map((input) => Number(input.value));
}

/**
 * Starts a game with the form's settings and returns true; an invalid custom size keeps the
 * current game, says why and returns false.
 */
function newGame(withSeed = randomSeed()) {
  stopSolver();
  const [width, height, mines] = layout();
  let game;
  try {
    game = new api.MinesGame(width, height, mines, elements.firstClick.value, withSeed, elements.noGuess.checked);
  } catch (error) {
    showError(elements.boardError, errorMessage(error));
    return false;
  }
  showError(elements.boardError, "");
  showError(elements.solverError, "");
  seed = withSeed;
  elements.board.game = game;
  moves = [];
  elements.board.toggleAttribute("question-marks", elements.questionMarks.checked);
  delete elements.boardStatus.dataset.seed;
  elements.boardStatus.textContent = elements.noGuess.checked
    ? "No-guess board: the mines are drawn at your first click."
    : "";
  elements.solverStatus.textContent = "";
  const params = new URLSearchParams({ seed: String(seed), level: elements.level.value });
  if (elements.level.value === "custom") {
    for (const [key, value] of Object.entries({ width, height, mines })) params.set(key, String(value));
  }
  params.set("first-click", elements.firstClick.value);
  if (elements.noGuess.checked) params.set("no-guess", "1");
  elements.seedLine.innerHTML = "";
  const link = document.createElement("a");
  link.href = `#${params}`;
  link.textContent = "link to this board";
  elements.seedLine.append(`Board seed ${seed} (the same seed and first click give the same mines): `, link);
  gameHash = `#${params}`;
  history.replaceState(null, "", gameHash);
  dqnPanel?.boardChanged();
  return true;
}

/** The moves of the seeded game shown (a board from text has none kept). */
let moves = null;
/** The URL of the seeded game shown (newGame), under which this tab keeps it. */
let gameHash = null;

/** Keeps the seeded game going on for a reload of this tab, or Back to its URL (a game that is over is forgotten). */
function keepGame() {
  if (gameHash === null || moves === null) return;
  const going = moves.length > 0 && elements.board.game?.status === "playing";
  keepFor("session", GAME_KEY, gameHash, going ? { moves: moves.join(" "), seconds: elements.board.seconds } : null);
}

/** Plays the kept moves again on the game just started when this tab kept a game of its board (a reload, Back). */
function carryOnKeptGame() {
  const kept = keptFor("session", GAME_KEY, location.hash);
  if (!kept || typeof kept.moves !== "string") return;
  const game = elements.board.game;
  const played = [];
  for (const move of kept.moves.split(" ").filter(Boolean)) {
    const replay = REPLAY[move[0]];
    const cell = Number(move.slice(1));
    if (!replay || !Number.isInteger(cell) || cell < 0 || cell >= game.width * game.height || game.status === "won" || game.status === "lost") break;
    try {
      replay(game, cell);
    } catch {
      break;
    }
    played.push(move);
  }
  moves = played;
  elements.board.carryOn({ seconds: kept.seconds });
}

/** A new game with the board card's level, size or rule just chosen; remembered once a game takes it. */
function choose() {
  if (newGame()) rememberSettings();
}

/** Shows the board written in the text box; a mistake is explained and the game stays. */
function showText() {
  let game;
  try {
    game = api.MinesGame.fromText(elements.boardText.value);
  } catch (error) {
    showError(elements.boardError, errorMessage(error));
    return;
  }
  stopSolver();
  showError(elements.boardError, "");
  elements.board.game = game;
  moves = null;
  elements.boardStatus.textContent = `A board from text: ${game.width} × ${game.height}, ${game.mines} mines.`;
  elements.seedLine.textContent = "";
  dqnPanel?.boardChanged();
}

/** The solver's next move, said in words. */
function describe(choice) {
  const { width } = elements.board.game;
  const where = `row ${Math.floor(choice.cell / width) + 1}, column ${(choice.cell % width) + 1}`;
  if (choice.reason === "certain") return `${where} is certainly safe.`;
  const progress = choice.progress == null ? "" : `; ${percent(choice.progress)} chance it proves another cell safe`;
  return `Nothing is certain: best guess ${where}, ${percent(choice.probability)} chance of a mine${progress}.`;
}

function hint() {
  const game = elements.board.game;
  if (!game) return null;
  try {
    const choice = game.hint();
    if (!choice) {
      elements.solverStatus.textContent = "The game is over.";
      return null;
    }
    elements.board.showHint(choice);
    elements.solverStatus.textContent = describe(choice);
    showError(elements.solverError, "");
    return choice;
  } catch (error) {
    showError(elements.solverError, errorMessage(error));
    return null;
  }
}

/** The solver reveals one cell; false when the game is over. */
function step() {
  const game = elements.board.game;
  if (!game || game.status === "won" || game.status === "lost") return false;
  const choice = hint();
  if (!choice) return false;
  elements.board.reveal(choice.cell, "solver");
  const status = game.status;
  if (status === "won") elements.solverStatus.textContent = "The solver cleared the board.";
  if (status === "lost") elements.solverStatus.textContent = `The solver's guess hit a mine (${percent(choice.probability)} chance).`;
  return status === "playing";
}

function stopSolver() {
  clearTimeout(playing);
  playing = 0;
  elements.solver.dataset.state = "idle";
  elements.play.textContent = "Solver plays";
  elements.board.locked = false;
}

function play() {
  if (playing) {
    stopSolver();
    return;
  }
  dqnPanel?.stopPlaying();
  elements.solver.dataset.state = "playing";
  elements.play.textContent = "Stop";
  elements.board.locked = true;
  const tick = () => {
    if (!step()) {
      stopSolver();
      return;
    }
    playing = setTimeout(tick, speed.intervalMs);
  };
  playing = setTimeout(tick, 0);
}

/**
 * Loads the deep Q-network card (minesweeper/dqn-panel.js); it loads nothing heavy itself: the
 * learning worker and its bundle start when the card is first used. It trains on, plays on and
 * evaluates the board the page shows.
 */
function mountDqnPanel() {
  if (!elements.dqn) return;
  const api = {
    board: elements.board,
    settings: () => {
      const game = elements.board.game;
      return game ? { width: game.width, height: game.height, mines: game.mines, rule: elements.firstClick.value } : null;
    },
    stopSolver,
    speedMs: () => speed.intervalMs,
  };
  mountLaterCard(elements.dqn, {
    load: () => import("./dqn-panel.js"),
    mount: (module) => (dqnPanel = module.mountMinesDqnPanel(elements.dqn, api)),
    what: "The deep Q-network card",
    name: "minesweeper/dqn-panel.js",
  });
}

elements.level.addEventListener("change", () => {
  elements.custom.hidden = elements.level.value !== "custom";
  choose();
});
elements.firstClick.addEventListener("change", () => choose());
elements.noGuess.addEventListener("change", () => newGame());
// The "?" marks are the player's way of playing: remembered at once, beside the last board chosen.
elements.questionMarks.addEventListener("change", () => {
  elements.board.toggleAttribute("question-marks", elements.questionMarks.checked);
  const saved = readKept("local", SETTINGS_KEY);
  writeKept("local", SETTINGS_KEY, { ...(saved && typeof saved === "object" ? saved : {}), questionMarks: elements.questionMarks.checked });
});
for (const input of [elements.width, elements.height, elements.mines]) input.addEventListener("change", () => choose());
elements.newGame.addEventListener("click", () => newGame());
elements.applyText.addEventListener("click", () => showText());
elements.board.addEventListener("mines-restart", () => newGame());
elements.overlay.addEventListener("change", () => (elements.board.overlay = elements.overlay.checked));
elements.hint.addEventListener("click", () => hint());
elements.step.addEventListener("click", () => step());
elements.play.addEventListener("click", () => play());
elements.board.addEventListener("mines-move", (event) => {
  const { action, cell } = event.detail;
  moves?.push(`${action === "flag" ? (elements.board.hasAttribute("question-marks") ? "q" : "f") : action[0]}${cell}`);
  // A no-guess board is drawn at the first reveal: say how long that took.
  const game = elements.board.game;
  if (event.detail.action === "flag" || !game.noGuessAttempts || elements.boardStatus.dataset.seed === String(seed)) return;
  elements.boardStatus.dataset.seed = String(seed);
  const ms = game.noGuessMs.toFixed(0);
  elements.boardStatus.textContent = game.noGuessFound
    ? `No-guess board found in ${ms} ms (${game.noGuessAttempts} boards drawn).`
    : `No board without guesses turned up in ${game.noGuessAttempts} draws (${ms} ms): this one may need a guess.`;
});
// The page's status line says the end (a live region): the board need not say it too.
elements.board.addEventListener("mines-won", (event) => {
  event.preventDefault();
  elements.boardStatus.textContent = `Cleared in ${event.detail.seconds} s.`;
});
elements.board.addEventListener("mines-lost", (event) => {
  event.preventDefault();
  elements.boardStatus.textContent = "A mine went off. Press the face or New game to play again.";
});

try {
  api = await loadWasm();
  speed.show();
  recallSettings();
  const wanted = fromHash() ?? randomSeed();
  elements.custom.hidden = elements.level.value !== "custom";
  if (!newGame(wanted)) {
    // A custom size from the URL or the last visit that no game takes: beginner instead, and why.
    const reason = elements.boardError.textContent;
    elements.level.value = "beginner";
    elements.custom.hidden = true;
    newGame(wanted);
    showError(elements.boardError, `${reason} A beginner game instead.`);
  }
  carryOnKeptGame();
  addEventListener("pagehide", () => keepGame());
  // A link followed on this page, or a board typed into its address: that game, as a visit to the
  // link would start it (a new seed when it names none), carried on when this tab kept a game of
  // it (Back); the game left is kept for Back. A link that no game takes is explained, and the
  // board card and the address go back to the game shown. (The page's own updates of the URL use
  // replaceState.)
  addEventListener("hashchange", () => {
    const params = new URLSearchParams(location.hash.slice(1));
    if (!HASH_KEYS.some((key) => params.has(key))) return;
    keepGame();
    const wanted = fromHash();
    elements.custom.hidden = elements.level.value !== "custom";
    if (newGame(wanted ?? randomSeed())) {
      carryOnKeptGame();
      return;
    }
    if (gameHash !== null) {
      fromHash(gameHash);
      elements.custom.hidden = elements.level.value !== "custom";
      history.replaceState(null, "", gameHash);
    }
  });
  mountDqnPanel();
  document.documentElement.dataset.ready = "true";
} catch (error) {
  showError(elements.loadError, `The game could not start: ${errorMessage(error)}`);
}
