// The dust and SameGame page (samegame.html): the board (<samegame-board> from samegame/board.js),
// the board card (rules, new board, restart, undo, a link to the board, a board from text) and the
// solver card (a hint; Solve: the exact fewest clicks for dust, NRPA or nested Monte Carlo search
// for SameGame, in samegame/solver-worker.js with progress and Cancel, then played click by click;
// a dust solve that ran out of time says its best clearing and its lower bound, and Prove it
// searches again from the same position with no time limit). When a dust board is cleared the
// page compares the clicks with the optimum: what a solve of the start board found, else it asks
// the exact solver (within the time limit) in the worker. Under the dust rules the Learn card
// (samegame/dqn-panel.js, loaded when the page has started) trains a deep Q-network, plays the
// board with it beside the optimum and evaluates it.
//
// Keys: U or Ctrl+Z undoes anywhere on the page while no text field has the focus (the board
// handles them itself while it has the focus).
//
// The URL holds the board: samegame.html#rules=dust&board=<rows top first, "-" between rows>, or
// #rules=samegame&seed=42 for a random one (the same seed, the same board), and the clicks made on
// it so far (&clicks=12.5.33: cells, each on the board as it then was), so that a reload carries
// the game on; a game that is over keeps only its board. A board text that cannot be read is
// explained and a random board is shown instead.

import "./board.js";
import { SameGameSolver, SolveCancelled } from "./solver-client.js";
import { SpeedSlider, mountLaterCard, randomSeed, showError } from "../common/page-controls.js";
import { errorMessage, loadWasm } from "../common/wasm.js";

/** Solver playback speeds in clicks per second, one per step of the speed slider. */
const SPEEDS = [1, 2, 4, 8, 16, 32];
/** Up to this many clicks a second the playback waits for each click's animation to end. */
const SETTLE_SPEED = 4;
/** What the page says of each rule set. */
const RULES = {
  dust: {
    title: "Dust",
    help: "Any pile can be clicked: its whole group of one colour goes. Empty columns close toward the dashed cut in the middle (each half closes in). Clear the board in as few clicks as you can.",
    solverHelp:
      "The exact solver (iterative deepening with a transposition table and one click per colour left as its bound) searches for the fewest clicks within the time limit, then plays the best clearing it found and says whether it is proved the fewest; Prove it searches on until it is (on a full board it may take minutes). Hint: the first click of a quick search.",
  },
  samegame: {
    title: "SameGame",
    help: "Click a group of two or more piles of one colour: a group of n earns (n − 2)² points, and clearing the board 1,000 more. Empty columns close to the left.",
    solverHelp:
      "Nested Monte Carlo search and nested rollout policy adaptation (with playouts that keep the most common colour for last) search for the best score within the time limit, then play their best game. Hint: the first move of a short search.",
  },
};

const $ = (selector) => document.querySelector(selector);
const elements = {
  board: $("#game"),
  loadError: $("#load-error"),
  titleRules: $("#title-rules"),
  rulesHelp: $("#rules-help"),
  endStatus: $("#end-status"),
  rules: $("#rules"),
  newBoard: $("#new-board"),
  restart: $("#restart"),
  undo: $("#undo"),
  share: $("#share"),
  shareLine: $("#share-line"),
  boardText: $("#board-text"),
  applyText: $("#apply-text"),
  boardError: $("#board-error"),
  solver: $("#solver"),
  solverHelp: $("#solver-help"),
  algoField: $("#algo-field"),
  algo: $("#algo"),
  seconds: $("#seconds"),
  hint: $("#hint"),
  solve: $("#solve"),
  prove: $("#prove"),
  cancel: $("#cancel"),
  speed: $("#speed"),
  speedValue: $("#speed-value"),
  solverStatus: $("#solver-status"),
  solverError: $("#solver-error"),
  dqn: $("#dqn"),
};
const speed = new SpeedSlider(elements.speed, elements.speedValue, SPEEDS, "clicks/s");

let api = null;
const solver = new SameGameSolver();
/**
 * What the solves of dust boards from their start found, by start text: { clicks, optimal,
 * lowerBound } (the best clearing and lower bound of every search of that board).
 */
const optima = new Map();
/**
 * The Learn card's searches for the fewest clicks of a start board (a model asked to play from the
 * start), by start text: { known (a promise of what is known of the board once the search's answer
 * is remembered), seconds }. The end of a game the card's model played waits for the card's search
 * rather than starting a second one.
 */
const cardSearches = new Map();
/** The solution being played: a timer id, or 0. */
let playing = 0;
/**
 * The last solve's answer, from its search until a move that is not the solver's: { summary (what
 * it found, in words), cells, played (how many of them are on the board), clicks (the board's
 * clicks when the search started), optimal }, or null.
 */
let lastSolve = null;
/** Whether a person's Solve is searching (the end-of-game comparison runs in the same worker). */
let solving = false;
/** Bumped by every new board: answers about an older board are dropped. */
let boardVersion = 0;
/** The Learn card (samegame/dqn-panel.js) once mounted, and whether its model is playing the board. */
let dqnPanel = null;
let modelPlaying = false;
/** The URL of the board shown (without its clicks), and the clicks made on it since its start. */
let boardHash = "";
let clicksMade = [];

/** Board text from the URL's form (rows separated by "-", "/" or ","). */
function textFromUrl(value) {
  return value.replace(/[-/,]/g, "\n");
}

/** The URL's form of board text: rows joined by "-". */
function textForUrl(text) {
  return text.trim().split("\n").join("-");
}

function rules() {
  return elements.rules.value;
}

function showRules() {
  const r = RULES[rules()];
  elements.titleRules.textContent = r.title;
  elements.rulesHelp.textContent = r.help;
  elements.solverHelp.textContent = r.solverHelp;
  elements.algoField.hidden = rules() !== "samegame";
  // The networks learn the dust rules only.
  if (elements.dqn) elements.dqn.hidden = rules() !== "dust";
  document.title = `${r.title} — puzzlelab`;
}

/**
 * Shows `game` (a SameGameHandle); `hash` is the URL that brings the same board back, `clicks` the
 * clicks already made on the handle since its start (a game carried on from the URL).
 */
function show(game, hash, clicks = []) {
  stopAll();
  boardVersion += 1;
  lastSolve = null;
  elements.board.game = game;
  elements.rules.value = game.rules;
  showRules();
  elements.endStatus.textContent = "";
  elements.solverStatus.textContent = "";
  showError(elements.solverError, "");
  elements.boardText.value = game.startText().trim();
  boardHash = hash;
  clicksMade = [...clicks];
  keepClicksInUrl();
  elements.shareLine.innerHTML = "";
  const link = document.createElement("a");
  link.href = shareHash();
  link.textContent = "link to this board";
  elements.shareLine.append(game.seed === undefined ? "A board from text: " : `Board seed ${game.seed}: `, link);
  updateButtons();
}

/** The address bar: the board's URL and the clicks made, while the game goes on. */
function keepClicksInUrl() {
  const going = clicksMade.length > 0 && !elements.board.game?.isOver;
  history.replaceState(null, "", going ? `${boardHash}&clicks=${clicksMade.join(".")}` : boardHash);
}

/**
 * Plays the URL's clicks (`text`: "12.5.33") on `game` as far as they go; returns those played and,
 * when the link's clicks were not all played, a note that says why. A list that ends the game is
 * not played (a game that is over keeps only its board).
 */
function replayClicks(game, text) {
  if (!text) return { played: [], note: "" };
  if (!/^\d{1,4}(\.\d{1,4})*$/.test(text)) return { played: [], note: `The link's clicks (“${text}”) could not be read: the board is shown from its start.` };
  const wanted = text.split(".").map(Number);
  const played = [];
  for (const cell of wanted) {
    try {
      game.click(cell);
    } catch {
      break; // not a group on the board as it then was: the clicks before it stand
    }
    played.push(cell);
  }
  if (game.isOver) {
    game.restart();
    return { played: [], note: "The link's clicks end the game: the board is shown from its start." };
  }
  const note =
    played.length < wanted.length
      ? `The link's clicks were played up to ${played.length} of ${wanted.length}: click ${played.length + 1} is not a group on the board as it then is.`
      : "";
  return { played, note };
}

/** The URL hash that shows `game`'s start board. */
function shareHash(game = elements.board.game) {
  return `#${new URLSearchParams({ rules: game.rules, board: textForUrl(game.startText()) })}`;
}

/** A new board from `seed`; `clicks` (the URL's) are played on it first. */
function newBoard(seed = randomSeed(), clicks = "") {
  let game;
  try {
    game = new api.SameGameHandle(rules(), seed);
  } catch (error) {
    showError(elements.boardError, errorMessage(error));
    return;
  }
  const { played, note } = replayClicks(game, clicks);
  showError(elements.boardError, note);
  show(game, `#${new URLSearchParams({ rules: game.rules, seed: String(seed) })}`, played);
}

/** Shows the board written in the text box (`clicks`: the URL's, played on it first); a mistake is explained and the game stays. */
function showText(text = elements.boardText.value, clicks = "") {
  let game;
  try {
    game = api.SameGameHandle.fromText(rules(), text);
  } catch (error) {
    showError(elements.boardError, `This board cannot be used: ${errorMessage(error)}`);
    return false;
  }
  const { played, note } = replayClicks(game, clicks);
  showError(elements.boardError, note);
  show(game, shareHash(game), played);
  return true;
}

/**
 * Reads #rules=…&board=… or #rules=…&seed=… from the URL. A board that cannot be used is
 * explained: on a page with a game (a link followed on it), the game stays, and so does its
 * address; else a random board keeps the page usable.
 */
function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const wanted = params.get("rules");
  const shown = elements.board.game;
  const board = params.get("board");
  const clicks = params.get("clicks") ?? "";
  if (board !== null) {
    const rulesBefore = elements.rules.value;
    if (wanted in RULES) elements.rules.value = wanted;
    if (showText(textFromUrl(board), clicks)) return;
    const message = elements.boardError.textContent.replace(/([^.])$/, "$1.");
    if (shown) {
      elements.rules.value = rulesBefore;
      keepClicksInUrl();
      showError(elements.boardError, `${message} The game shown stays.`);
      return;
    }
    newBoard();
    showError(elements.boardError, `${message} A random board is shown instead.`);
    return;
  }
  if (wanted in RULES) elements.rules.value = wanted;
  const seed = params.get("seed");
  if (seed !== null && /^\d{1,15}$/.test(seed)) newBoard(Number(seed), clicks);
  else newBoard();
}

function updateButtons() {
  const game = elements.board.game;
  const busy = solving || playing !== 0 || modelPlaying;
  elements.undo.disabled = busy || !game || game.clicks === 0;
  elements.restart.disabled = busy || !game || game.clicks === 0;
  elements.hint.disabled = busy || !game || game.isOver;
  elements.solve.disabled = busy || !game || game.isOver;
  elements.solve.hidden = solving;
  // Prove it: after a dust solve that ran out of time, once its line has been played or stopped.
  elements.prove.hidden = busy || !lastSolve || lastSolve.optimal || !game || game.rules !== "dust";
  elements.cancel.hidden = !busy;
  elements.board.locked = busy;
  elements.solver.dataset.state = solving ? "solving" : playing ? "playing" : "idle";
}

// ---- hint, solve and playback ---------------------------------------------------------------------

function hint() {
  const game = elements.board.game;
  showError(elements.solverError, "");
  try {
    const found = game.hint();
    elements.board.showHint(found);
    if (!found) {
      elements.solverStatus.textContent = "The game is over.";
      return;
    }
    const where = `row ${Math.floor(found.cell / game.width) + 1}, column ${(found.cell % game.width) + 1}`;
    const group = `${found.group.length} ${found.group.length === 1 ? "pile" : "piles"}`;
    if (found.method === "greedy") {
      elements.solverStatus.textContent = `Click ${where} (${group}): it leaves the fewest groups (the exact solver does not take a board this large).`;
    } else if (game.rules === "dust") {
      elements.solverStatus.textContent = found.optimal
        ? `Click ${where} (${group}): the fewest clicks from here are ${found.clicksLeft}.`
        : `Click ${where} (${group}): a quick search clears the board from here in ${found.clicksLeft} clicks (not proved the fewest).`;
    } else {
      elements.solverStatus.textContent = `Click ${where} (${group}): a short search's best game scores ${found.lineScore} more from here.`;
    }
  } catch (error) {
    showError(elements.solverError, errorMessage(error));
  }
}

function stopPlaying() {
  clearTimeout(playing);
  playing = 0;
}

function stopAll() {
  stopPlaying();
  dqnPanel?.stopPlaying();
  if (solver.busy) solver.cancel();
  solving = false;
  updateButtons();
}

function cancel() {
  const wasSolving = solving;
  const wasPlaying = playing !== 0;
  stopAll();
  if (wasSolving) elements.solverStatus.textContent = "Cancelled.";
  else if (wasPlaying && lastSolve) elements.solverStatus.textContent = playedText(`Stopped after ${lastSolve.played} of ${plural(lastSolve.cells.length, "click")}.`);
  else elements.solverStatus.textContent = "Stopped.";
}

function plural(n, word) {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

function formatNodes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} k` : String(n);
}

/**
 * Searches from the board shown for the time limit chosen (`seconds`: null searches a dust board
 * until the fewest clicks are proved), then plays what it found.
 */
async function solve(seconds = Number(elements.seconds.value)) {
  const game = elements.board.game;
  if (!game || game.isOver || solving || playing) return;
  // The end-of-game comparison may be using the worker: a person's Solve comes first.
  if (solver.busy) solver.cancel();
  solving = true;
  lastSolve = null;
  const version = boardVersion;
  const text = game.toText();
  const clicks = game.clicks;
  showError(elements.solverError, "");
  elements.board.showHint(null);
  let found;
  let summary;
  let timer = 0;
  try {
    if (game.rules === "dust") {
      if (!game.exactSupported) throw new Error(game.exactRefusal);
      const searching = seconds === null ? "Searching until the fewest clicks are proved (it may take minutes; Cancel stops it)" : "Searching";
      const promise = solver.exact("dust", text, seconds, ({ nodes, depth, best, ms }) => {
        elements.solverStatus.textContent = `${searching}: best found ${best} clicks; it can't be done in fewer than ${depth}; ${formatNodes(nodes)} positions in ${(ms / 1000).toFixed(0)} s.`;
      });
      updateButtons();
      elements.solverStatus.textContent = `${searching}…`;
      found = await promise;
      if (clicks === 0) remember(text, found);
      summary = exactText(found, clicks);
    } else {
      const algo = elements.algo.value;
      let best = null;
      const promise = solver.search("samegame", text, algo, seconds, randomSeed(), (report) => {
        best = report;
        tick();
      });
      updateButtons();
      const started = performance.now();
      const tick = () => {
        const sofar = best ? `; best game so far ${best.best} points (${formatNodes(best.playouts)} playouts)` : "";
        elements.solverStatus.textContent = `Searching (${algo.toUpperCase()}): ${((performance.now() - started) / 1000).toFixed(0)} of ${seconds} s${sofar}…`;
      };
      tick();
      timer = setInterval(tick, 500);
      found = await promise;
      clearInterval(timer);
      summary = `Best game found: ${found.score} more points${found.cleared ? ", board cleared" : ""} (${formatNodes(found.playouts)} playouts in ${found.seconds.toFixed(1)} s).`;
    }
  } catch (error) {
    clearInterval(timer);
    if (version !== boardVersion) return;
    solving = false;
    updateButtons();
    if (error instanceof SolveCancelled) return;
    showError(elements.solverError, errorMessage(error));
    elements.solverStatus.textContent = "";
    return;
  }
  if (version !== boardVersion) return;
  solving = false;
  lastSolve = { summary, cells: found.cells, played: 0, clicks, optimal: game.rules === "dust" && found.optimal };
  play(lastSolve);
}

/**
 * What the exact solver's answer `found` says, in a player's words; `clicksBefore`: the clicks
 * already made on the board it searched (its counts are then of clicks more, from there).
 */
function exactText(found, clicksBefore = 0) {
  const length = found.cells.length;
  const searched = `${formatNodes(found.nodes)} positions searched in ${(found.ms / 1000).toFixed(1)} s`;
  if (clicksBefore > 0) {
    const here = `From here (after ${plural(clicksBefore, "click")})`;
    if (found.optimal) return `${here}: the fewest is ${plural(length, "more click")}, proved (${searched}).`;
    return `${here}: best found ${plural(length, "more click")}. It can't be done in fewer than ${found.lowerBound} more; not yet proved that ${length} is the fewest.`;
  }
  if (found.optimal) return `Fewest clicks: ${length}, proved (${searched}).`;
  return `Best found: ${length} clicks. It can't be done in fewer than ${found.lowerBound}; not yet proved that ${length} is the fewest.`;
}

/** The last solve's answer after `outcome` (how its playback ended), and what Prove it would do. */
function playedText(outcome) {
  const prove = lastSolve.optimal || elements.board.game.rules !== "dust" ? "" : " Prove it searches on from the same position until the fewest is proved (it may take minutes).";
  return `${outcome} ${lastSolve.summary}${prove}`;
}

/** Plays the solve's cells one click at a time at the chosen speed; the status then says how it ended. */
function play(solved) {
  const { cells } = solved;
  elements.solverStatus.textContent = `${solved.summary} Playing it…`;
  const tick = async () => {
    try {
      elements.board.click(cells[solved.played], "solver");
    } catch (error) {
      stopPlaying();
      updateButtons();
      showError(elements.solverError, errorMessage(error));
      elements.solverStatus.textContent = playedText(`Stopped after ${solved.played} of ${plural(cells.length, "click")}.`);
      return;
    }
    solved.played += 1;
    // Slow playback lets each click's animation finish; fast playback overlaps them.
    if (speed.perSecond <= SETTLE_SPEED) await elements.board.settled;
    if (!playing) return;
    if (solved.played < cells.length) {
      playing = setTimeout(tick, speed.intervalMs);
      return;
    }
    stopPlaying();
    updateButtons();
    elements.solverStatus.textContent = playedText(`Played to the end: ${outcomeText(elements.board.game)}`);
  };
  playing = setTimeout(tick, 0);
  updateButtons();
}

/** How the game shown stands once a solve's line has been played. */
function outcomeText(game) {
  if (game.rules === "dust") return game.isCleared ? `board cleared in ${plural(game.clicks, "click")}.` : `${plural(game.piles, "pile")} left.`;
  if (game.isCleared) return `board cleared, score ${game.score}.`;
  return game.isOver ? `no group of two is left, score ${game.score} with ${plural(game.piles, "pile")} left.` : `score ${game.score}.`;
}

/**
 * Prove it: the last dust solve ran out of time; the board goes back to the position it searched
 * (taking back the clicks played since) and the solver searches again with no time limit.
 */
function prove() {
  const from = lastSolve;
  if (!from || from.optimal || solving) return;
  stopPlaying();
  while (elements.board.game.clicks > from.clicks) elements.board.undo("solver");
  solve(null);
}

// ---- the end of a game ----------------------------------------------------------------------------

async function gameOver({ clicks, score, cleared, piles }) {
  const game = elements.board.game;
  if (game.rules === "samegame") {
    elements.endStatus.textContent = cleared
      ? `Board cleared: score ${score} (1,000 of it for clearing) in ${clicks} clicks.`
      : `No group of two is left: score ${score} in ${clicks} clicks, ${piles} piles left.`;
    return;
  }
  const start = game.startText();
  const said = `Cleared in ${clicks} clicks.`;
  elements.endStatus.textContent = said;
  // The Learn card's search of this board, still under way, is waited for even when an earlier
  // search found something: its answer joins what is known (remember) before the line is written.
  const card = cardSearches.get(start);
  let known = card ? null : optima.get(start);
  if (!known) {
    if (!card && (!game.exactSupported || solver.busy)) return;
    const version = boardVersion;
    const seconds = card?.seconds ?? Number(elements.seconds.value);
    elements.endStatus.textContent = `${said} Asking the exact solver for the fewest (up to ${seconds} s)…`;
    try {
      known = await (card?.known ?? solver.exact("dust", start, seconds, () => {}).then((found) => remember(start, found)));
    } catch (error) {
      if (version === boardVersion && game.isOver) elements.endStatus.textContent = error instanceof SolveCancelled ? said : `${said} (${errorMessage(error)})`;
      return;
    }
    // A new board, or an undo since the board was cleared: nothing to say.
    if (version !== boardVersion || !game.isOver) return;
  }
  elements.endStatus.textContent = endText(clicks, known);
}

/**
 * Keeps what a search of the start board `start` found beside what earlier ones did (the shorter
 * clearing, the higher lower bound; a proved optimum stays) and returns what is now known.
 */
function remember(start, found) {
  const before = optima.get(start);
  if (before?.optimal) return before;
  let known = { clicks: found.cells.length, optimal: found.optimal, lowerBound: found.lowerBound };
  if (before && !found.optimal) known = { clicks: Math.min(before.clicks, known.clicks), optimal: false, lowerBound: Math.max(before.lowerBound, known.lowerBound) };
  optima.set(start, known);
  return known;
}

/** What the page says of `clicks` against the optimum known. */
function endText(clicks, known) {
  if (known.optimal) {
    if (clicks <= known.clicks) return `Cleared in ${clicks} clicks: the fewest possible (proved).`;
    const more = clicks - known.clicks;
    return `Cleared in ${clicks} clicks; the fewest is ${known.clicks} (proved): ${plural(more, "click")} more.`;
  }
  const bound = `it can't be done in fewer than ${known.lowerBound}; not yet proved that ${known.clicks} is the fewest`;
  if (clicks <= known.clicks) return `Cleared in ${clicks} clicks: as few as the solver's best from the start (${bound}).`;
  return `Cleared in ${clicks} clicks; the solver's best from the start is ${known.clicks} (${bound}).`;
}

/** U or Ctrl+Z undoes while no text field has the focus (the board handles them itself when focused). */
function onKeyDown(event) {
  if (event.defaultPrevented || event.altKey) return;
  const control = event.ctrlKey || event.metaKey;
  const undo = (control && !event.shiftKey && event.key.toLowerCase() === "z") || (!control && event.key.toLowerCase() === "u");
  if (!undo) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest("textarea, select, input:not([type=range], [type=checkbox], [type=radio], [type=button])"))) return;
  event.preventDefault();
  if (!elements.board.locked) elements.board.undo("user");
}

// ---- wiring ---------------------------------------------------------------------------------------

async function copyLink() {
  const url = new URL(shareHash(), location.href).href;
  boardHash = shareHash();
  keepClicksInUrl();
  try {
    await navigator.clipboard.writeText(url);
    elements.solverStatus.textContent = "";
    elements.shareLine.lastChild.textContent = "link copied";
  } catch {
    elements.shareLine.lastChild.textContent = "link to this board (copy it from the address bar)";
  }
}

elements.rules.addEventListener("change", () => newBoard());
elements.newBoard.addEventListener("click", () => newBoard());
elements.restart.addEventListener("click", () => {
  elements.board.restart("user");
});
elements.undo.addEventListener("click", () => elements.board.undo("user"));
elements.share.addEventListener("click", () => copyLink());
elements.applyText.addEventListener("click", () => showText());
elements.hint.addEventListener("click", () => hint());
elements.solve.addEventListener("click", () => solve());
elements.prove.addEventListener("click", () => prove());
elements.cancel.addEventListener("click", () => cancel());
elements.board.addEventListener("samegame-move", (event) => {
  const { action, cell } = event.detail;
  if (action === "click") clicksMade.push(cell);
  else if (action === "undo") clicksMade.pop();
  else if (action === "restart") clicksMade = [];
  keepClicksInUrl();
  if (event.detail.action !== "click" || !event.detail.over) elements.endStatus.textContent = "";
  if (event.detail.source === "user") elements.solverStatus.textContent = "";
  // Prove it searches the position the last solve did: only the solver's own clicks may follow it.
  if (event.detail.source !== "solver") lastSolve = null;
  updateButtons();
});
elements.board.addEventListener("samegame-over", (event) => gameOver(event.detail));
// A link followed or a hash typed in: show that board (the page's own updates use replaceState).
window.addEventListener("hashchange", () => {
  if (api) fromHash();
});
document.addEventListener("keydown", onKeyDown);

/**
 * The Learn card: its module loads after the page has started, and the learning worker and bundle
 * only when the card is first used. The model plays at the solver's speed.
 */
function mountLearnCard() {
  return mountLaterCard(elements.dqn, {
    load: () => import("./dqn-panel.js"),
    mount: ({ mountDustDqnPanel }) =>
      (dqnPanel = mountDustDqnPanel(elements.dqn, {
        board: elements.board,
        speedMs: () => speed.intervalMs,
        onPlaying: (on) => {
          modelPlaying = on;
          updateButtons();
        },
        onOptimumSearch: (start, found, seconds) => {
          // Once answered, the page knows it as if its own Solve had searched that board.
          const search = { known: found.then((answer) => remember(start, answer)), seconds };
          cardSearches.set(start, search);
          const forget = () => cardSearches.get(start) === search && cardSearches.delete(start);
          search.known.then(forget, forget);
        },
      })),
    what: "The Learn card",
    name: "samegame/dqn-panel.js",
  });
}

try {
  api = await loadWasm();
  speed.show();
  fromHash();
  mountLearnCard();
  document.documentElement.dataset.ready = "true";
} catch (error) {
  showError(elements.loadError, `The game could not start: ${errorMessage(error)}`);
}
