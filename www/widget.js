/**
 * <puzzle-widget>: a live, solvable puzzlelab puzzle for any page, in one line of HTML.
 *
 *   <script type="module" src="https://your.site/puzzlelab/www/widget.js"></script>
 *   <puzzle-widget size="3" solver="astar"></puzzle-widget>
 *
 * It renders into its own shadow DOM, so the host page's CSS cannot break it and its CSS cannot
 * leak out, and it composes <sliding-board> (board.js) and the solution player (player.js): the
 * puzzlelab page shows its board through this element too. The wasm, the solver worker and the
 * models are found next to this file (import.meta.url), never relative to the page. All widgets of
 * a page share one wasm instance (wasm.js), at most MAX_WORKERS solver workers whose jobs queue
 * (solver-pool.js), and one download of each pattern-database file (pdb-files.js). A widget with
 * solver="dqn" solves with a trained neural network in the learning worker (learn-client.js),
 * which — with its several-MB learning bundle — starts only at the first such solve on the page;
 * all widgets and the page share it and each model's download.
 *
 * Attributes (all optional; changing one updates the widget):
 *   puzzle    "sliding" (the default) or "2048" (see "2048" below)
 *   size      "3", "4x4", "2x3", … (2 to 5 rows by 2 to 5 columns); default 3×3
 *   start     the start position as text: "1,2,3,4,5,6,7,_,8", "123456780", one row per line;
 *             0 or _ is the blank, ☼ ☾ (or s m) for sun-moon. Default: shuffled 12 moves from the
 *             goal (a preset: its own start)
 *   goal      the goal position, same format; default: tiles in order, blank last
 *   preset    "sun-moon": the sun/moon Q-learning README's 3×3 game of four suns and four moons
 *   solver    astar | idastar | wastar | bfs | qlearning | dqn. Default: IDA* with pattern
 *             databases on 4×4, weighted A* (w = 2.5) on boards of more than 16 cells, A*
 *             elsewhere. bfs and qlearning only for boards of at most 9 cells. dqn: a deep
 *             Q-network plays greedily (at most 50 moves), else guides a beam search; it uses the
 *             shipped model for the board (www/models/dqn-index.json: the 3×3 and 4×4 boards
 *             with the standard goal) or the `model` attribute's. A board no model fits (another size
 *             or goal, the sun-moon preset) gets an error saying so when it is solved.
 *   model     URL of a DQN model file (.dqn, as `puzzlelab train` or the page's Save writes),
 *             resolved against the page; solver="dqn" uses it instead of the shipped model
 *   controls  the buttons to show, any of "shuffle solve step reset" (space or comma separated;
 *             that is the default); "" shows none. step: step back, play/pause, step forward
 *   autoplay  boolean: solve and play the solution when the widget appears and when its puzzle
 *             changes
 *   speed     playback speed in moves per second: default 4, from 0.5 to 60
 * An invalid value shows its error inside this widget (part="error", role="alert"), fires
 * `error`, and leaves the board as it was (or empty, when there never was a valid one).
 *
 * Events (bubbling and composed, so they reach listeners on any ancestor):
 *   move      { direction, tile, board, moves, source }: one tile slid. direction: where the
 *             blank went ("up" | "down" | "left" | "right"); tile: the label that slid; board: the
 *             labels row-major after the move (0 = blank); moves: tile moves since the puzzle was
 *             set, by anyone; source: "user" | "playback"
 *   solved    { moves, source }: a move brought the board to the goal
 *   solution  { moves, tiles, length, optimal, algorithm, heuristic, nodes, ms }: a solve found
 *             a solution (moves: the blank's directions; tiles: the label slid by each move).
 *             dqn adds method ("greedy" | "beam-search") and optimalLength (null when unknown:
 *             boards over 9 cells); its optimal is true when the length equals optimalLength
 *   error     { message, attribute }: an invalid attribute (its name) or a solve that failed
 *             (attribute null)
 *
 * Properties and methods:
 *   shuffle(difficulty = 12)  a new position `difficulty` moves from the goal (exactly, on boards
 *                             of up to 9 cells, "exact"; else a random walk, "random-walk"):
 *                             returns that word
 *   solve()                   solves from the current position and plays the solution; a Promise
 *                             of the `solution` detail that rejects with an Error when there is
 *                             none (invalid solver, unsolvable start, cancelled: SolveCancelled)
 *   cancel()                  stops a running solve
 *   setState(start, goal?)    shows a position (and goal) given as text, of the current size;
 *                             throws the parser's Error and leaves the widget unchanged when invalid
 *   state                     { rows, cols, preset, board, goal, start, goalText, solved, moves }
 *                             (board, goal: labels row-major; start, goalText: as text), or null
 *                             while there is no board
 *   ready                     a Promise that resolves once the widget has loaded
 * For the puzzlelab page (advanced): `board` is the inner <sliding-board>, and `puzzle` its Puzzle
 * handle (setting one shows it and hands it over to the board).
 *
 * 2048 (puzzle="2048"): the board from game2048.js (imported only then), played with the arrow
 * keys or W A S D while it has focus, or by swiping; the shipped n-tuple network can play it or
 * hint. Attributes (size, goal, preset and solver do not apply):
 *   seed        the first game's seed, a whole number (the same seed, the same game); default random.
 *               New game then starts a randomly seeded one
 *   start       a board to start from instead: 16 tile values row-major, "." or 0 for empty
 *               ("2 4 8 16 / . . . . / ..." or one row per line)
 *   always-two  boolean: every new tile is a 2 (the rule in Mehta's RL paper for constraint-satisfaction games) instead of a 2 (90%) or a 4 (10%)
 *   agent       "ntuple": the shipped n-tuple network (www/models/2048-ntuple.ntuple.gz, 4 MB,
 *               downloaded at its first use and shared by every widget of the page) plays on Play
 *               and Step and shows its move on Hint
 *   model       with agent: URL of another network file (.ntuple or .ntuple.gz, as `puzzlelab
 *               train-2048` writes it), resolved against the page
 *   depth       the agent's search: 1 greedy (the default), 2 or 3 expectimax that many moves deep
 *   speed       the agent's moves per second, 0.5 to 60 (default 4)
 *   autoplay    boolean: with agent, the agent plays as soon as the widget appears and at each new game
 *   controls    any of "new undo hint play" (hint and play only with an agent); default "new hint play"
 * Events: move { direction, gained, score, moves, maxTile, over, board (tile values row-major, 0 =
 * empty), source: "user" | "agent" }; won { score, moves } when a tile first reaches 2048;
 * gameover { score, moves, maxTile }; error as above. Methods: newGame(seed?), move(direction) (a
 * boolean: whether the board changed), play() and pause() (the agent), hint() (a Promise of the
 * agent's direction), setState(boardText); state is { puzzle: "2048", board, score, moves,
 * maxTile, over, won, seed, playing }; `board` is the inner <game2048-board>. shuffle() and solve()
 * are for sliding puzzles only (they throw / reject).
 *
 * Styling: an inline-block 340px wide. Custom properties: --puzzle-widget-width,
 * --puzzle-widget-display, --board-max-height. Parts: widget, board, controls, button, player,
 * error, status. While it works, the element has the attributes `ready` (loaded) and `solving`.
 */

import { BLANK_STEP } from "./sliding/board.js";
import { SolutionPlayer } from "./sliding/player.js";
import { SolveCancelled } from "./sliding/solver-client.js";
import { sharedSolverPool } from "./sliding/solver-pool.js";
import {
  ALGORITHMS,
  DEFAULT_DIFFICULTY,
  DEFAULT_WEIGHT,
  SMALL_BOARD_CELLS,
  copyAtGoal,
  defaultAlgorithm,
  defaultHeuristic,
  offersAlgorithm,
  shufflePuzzle,
  solveRequest,
  solverLabel,
  usesPatternDatabases,
} from "./sliding/solvers.js";
import { errorMessage, loadWasm } from "./shared/wasm.js";

const CONTROLS = ["shuffle", "solve", "step", "reset"];
const PUZZLE_KINDS = ["sliding", "2048"];
/** The buttons of a 2048 widget, and those shown when `controls` is absent. */
const CONTROLS_2048 = ["new", "undo", "hint", "play"];
const DEFAULT_CONTROLS_2048 = ["new", "hint", "play"];
/** Agents a 2048 widget offers (game2048.js), and its deepest search. */
const AGENTS_2048 = ["ntuple"];
const MAX_DEPTH_2048 = 3;
/** Attributes that only a 2048 widget reads: their errors go when the widget shows a sliding puzzle. */
const ATTRIBUTES_2048 = ["seed", "agent", "depth", "always-two"];
/** Solvers that play a trained neural model (learn-client.js), not a search of the solver pool. */
const NEURAL_SOLVERS = ["dqn"];
const DEFAULT_SPEED = 4;
const MIN_SPEED = 0.5;
const MAX_SPEED = 60;
/** Attributes that define the puzzle: a change to any of them shows a new one. */
const PUZZLE_ATTRIBUTES = ["puzzle", "size", "preset", "start", "goal"];

const numberFormat = new Intl.NumberFormat("en");

/** game2048.js, imported when a widget first shows 2048 (sliding-only pages never load it). */
let game2048Module = null;
/** Its exports once loaded (so that a widget can use them without waiting another turn). */
let game2048Exports = null;
function game2048() {
  game2048Module ??= import("./2048/game.js").then((module) => (game2048Exports = module));
  return game2048Module;
}

/** learn-client.js, imported at the first dqn solve of the page (none of it loads before). */
let learnClientModule = null;
function learnClient() {
  learnClientModule ??= import("./shared/learn-client.js");
  return learnClientModule;
}

/** An attribute's value the widget cannot use; `message` says why, for a person. */
class AttributeError extends Error {
  constructor(attribute, value, reason) {
    const shown = value.length > 40 ? `${value.slice(0, 39)}…` : value;
    super(`${attribute}="${shown}": ${reason}`);
    this.name = "AttributeError";
    this.attribute = attribute;
  }
}

/**
 * The set of buttons a `controls` value names (null: the attribute is absent, `defaults`), out of
 * `known` (the sliding puzzle's buttons unless told).
 */
function parseControls(value, known = CONTROLS, defaults = known) {
  if (value === null) return new Set(defaults);
  const names = value.toLowerCase().split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const named = unknown.map((name) => `"${name}"`).join(", ");
    const reason = `unknown ${unknown.length === 1 ? "control" : "controls"} ${named}; choose from ${known.join(", ")}`;
    throw new AttributeError("controls", value, reason);
  }
  return new Set(names);
}

/** A 2048 game's seed from a `seed` value (null: absent, a random seed at each game). */
function parseSeed(value) {
  if (value === null || value.trim() === "") return null;
  const seed = Number(value.trim());
  if (!Number.isSafeInteger(seed) || seed < 0) throw new AttributeError("seed", value, "the seed is a whole number, 0 or more");
  return seed;
}

/** The search depth of a 2048 agent from a `depth` value (null: absent, greedy). */
function parseDepth(value) {
  if (value === null || value.trim() === "") return 1;
  const depth = Number(value.trim());
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH_2048) {
    throw new AttributeError("depth", value, `the depth is 1 (greedy) to ${MAX_DEPTH_2048} (expectimax)`);
  }
  return depth;
}

/** Moves per second from a `speed` value (null: absent), clamped to MIN_SPEED..MAX_SPEED. */
function parseSpeed(value) {
  if (value === null || value.trim() === "") return DEFAULT_SPEED;
  const speed = Number(value.trim());
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new AttributeError("speed", value, `the speed is a number of moves per second, from ${MIN_SPEED} to ${MAX_SPEED}`);
  }
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

/**
 * { rows, cols } from a `size` value ("3", "4x4", "2×3"), or null when it is empty. The range is
 * checked by Puzzle.standard; the message mirrors PuzzleError::BadSizeText (src/env/sliding/mod.rs).
 */
function parseSize(value) {
  if (value === null || value.trim() === "") return null;
  const match = /^\s*(\d+)\s*(?:[x×*]\s*(\d+)\s*)?$/i.exec(value);
  if (!match) throw new AttributeError("size", value, "this is not a size: write it like 3, 4x4 or 2x3");
  const rows = Number(match[1]);
  return { rows, cols: match[2] === undefined ? rows : Number(match[2]) };
}

const STYLE = `
:host {
  /* !important: the host element itself is styled by the page too (a global "* { all: unset }"
     would make it inline), and in the cascade :host rules lose to the page's unless important. */
  display: var(--puzzle-widget-display, inline-block) !important;
  box-sizing: border-box !important;
  width: var(--puzzle-widget-width, 340px) !important;
  max-width: 100% !important;
  contain: layout style !important;
  vertical-align: top;
}
:host([hidden]) { display: none !important; }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
.widget {
  /* Nothing inherited from the page: its fonts, colours, letter spacing or direction. */
  all: initial;
  box-sizing: border-box;
  display: flex;
  flex-direction: column;
  gap: 10px;
  width: 100%;
  padding: 12px;
  border: 1px solid #dfe2ee;
  border-radius: 16px;
  background: #ffffff;
  color: #1c1f2e;
  box-shadow: 0 1px 2px rgb(16 24 40 / 0.06), 0 8px 24px rgb(16 24 40 / 0.06);
  font: 400 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  direction: ltr;
  text-align: start;
  --accent: #4f46e5;
  --accent-hover: #4338ca;
  --muted: #5b6175;
  --border: #d0d4e4;
  --button-background: #ffffff;
  --button-hover: #f3f4fa;
}
@media (prefers-color-scheme: dark) {
  .widget {
    border-color: #2c3250;
    background: #181c2e;
    color: #e7e9f3;
    --accent: #7c83ff;
    --accent-hover: #959bff;
    --muted: #a2a8c0;
    --border: #3a4166;
    --button-background: #20253b;
    --button-hover: #2a3050;
  }
}
sliding-board { display: block; width: 100%; }
.controls, .player {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
}
button {
  all: initial;
  box-sizing: border-box;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 4px;
  min-width: 34px;
  height: 34px;
  padding: 0 12px;
  border: 1px solid var(--border);
  border-radius: 10px;
  background: var(--button-background);
  color: inherit;
  font: 600 13px/1 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  white-space: nowrap;
  cursor: pointer;
  user-select: none;
  -webkit-tap-highlight-color: transparent;
}
button:hover:not(:disabled) { background: var(--button-hover); }
button.primary { border-color: var(--accent); background: var(--accent); color: #ffffff; }
button.primary:hover:not(:disabled) { background: var(--accent-hover); }
button.icon { padding: 0 8px; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
button:disabled { opacity: 0.45; cursor: default; }
svg { display: block; width: 16px; height: 16px; fill: currentColor; }
.position {
  margin-inline-start: auto;
  color: var(--muted);
  font-size: 12px;
  font-variant-numeric: tabular-nums;
}
.error {
  margin: 0;
  padding: 8px 10px;
  border-radius: 10px;
  background: #fef3f2;
  color: #b42318;
  font-size: 13px;
  white-space: pre-line;
  overflow-wrap: anywhere;
}
.status {
  margin: 0;
  color: var(--muted);
  font-size: 12.5px;
  overflow-wrap: anywhere;
}
.status:empty { display: none; }
`;

const TEMPLATE = `
<style>${STYLE}</style>
<div class="widget" part="widget">
  <sliding-board part="board" hidden></sliding-board>
  <div class="game2048" part="game2048" hidden></div>
  <p class="error" part="error" role="alert" hidden></p>
  <div class="controls" part="controls">
    <button type="button" part="button shuffle" data-action="shuffle">Shuffle</button>
    <button type="button" part="button solve" class="primary" data-action="solve">Solve</button>
    <button type="button" part="button reset" data-action="reset" title="Back to the start position">Reset</button>
  </div>
  <div class="player" part="player" role="group" aria-label="Solution playback" tabindex="-1">
    <button type="button" part="button" class="icon" data-player="back" aria-label="Step back" title="Step back (←)"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M18 5v14L7 12z"/></svg></button>
    <button type="button" part="button" data-player="play">Play</button>
    <button type="button" part="button" class="icon" data-player="forward" aria-label="Step forward" title="Step forward (→)"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 5v14l11-7z"/></svg></button>
    <span class="position" data-player="position" hidden></span>
  </div>
  <p class="status" part="status" role="status" aria-live="polite"></p>
</div>`;

export class PuzzleWidget extends HTMLElement {
  static observedAttributes = [...PUZZLE_ATTRIBUTES, "solver", "model", "controls", "autoplay", "speed", ...ATTRIBUTES_2048];

  /** The wasm API once loaded. */
  #api = null;
  #loading = null;
  #ready = Promise.withResolvers();
  #board;
  #player;
  #parts;
  /** Attribute errors shown, by attribute name. */
  #attributeErrors = new Map();
  /** The error of the last solve, shown until the puzzle changes or the person moves. */
  #solveError = null;
  /** The attribute values the shown puzzle came from (null before the first). */
  #puzzleKey = null;
  /** The position Reset goes back to: the last one set by attributes, shuffle() or setState(). */
  #startText = null;
  #controls = new Set(CONTROLS);
  #speed = DEFAULT_SPEED;
  /** Whether autoplay was on at the last update (so that adding the attribute starts it). */
  #autoplayApplied = false;
  /** The validated `solver` attribute (null: the board's default); #solverError when invalid. */
  #solver = null;
  #solverError = null;
  /** Tile moves since the puzzle was set, and the board as of the last one (for `move` details). */
  #moveCount = 0;
  #lastBoard = [];
  /** The running solve: { controller, promise }, or null. */
  #solving = null;
  #updateQueued = false;
  /** The 2048 mode (game2048.js's Game2048Panel) once the widget has shown 2048, and whether it shows it now. */
  #panel2048 = null;
  #showing2048 = false;
  /** The last valid 2048 settings given to the panel. */
  #options2048 = null;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: "open" });
    shadow.innerHTML = TEMPLATE;
    this.#board = shadow.querySelector("sliding-board");
    const part = (selector) => shadow.querySelector(selector);
    this.#parts = {
      error: part(".error"),
      controls: part(".controls"),
      shuffle: part('[data-action="shuffle"]'),
      solve: part('[data-action="solve"]'),
      reset: part('[data-action="reset"]'),
      player: part(".player"),
      position: part(".position"),
      status: part(".status"),
      game2048: part(".game2048"),
    };
    this.#player = new SolutionPlayer(this.#parts.player, this.#board);
    this.#player.movesPerSecond = this.#speed;
    this.#ready.promise.catch(() => {});

    this.#parts.shuffle.addEventListener("click", () => this.#run(() => this.shuffle()));
    this.#parts.solve.addEventListener("click", () => {
      if (this.#solving) this.cancel();
      else this.solve().catch(() => {}); // shown inside the widget
    });
    this.#parts.reset.addEventListener("click", () => this.#run(() => this.#resetToStart()));
    this.#parts.player.addEventListener("player-change", (event) => {
      this.#parts.position.hidden = event.detail.length === 0;
    });
    this.#board.addEventListener("board-reset", () => this.#onBoardReset());
    this.#board.addEventListener("board-move", (event) => this.#onBoardMove(event.detail));
    this.#board.addEventListener("board-solved", (event) => {
      const source = event.detail.source === "user" ? "user" : "playback";
      this.#emit("solved", { moves: this.#moveCount, source });
    });
    this.#renderControls();
  }

  connectedCallback() {
    // A 2048 widget needs game2048.js before its first update.
    const modules = this.#kind() === "2048" ? Promise.all([loadWasm(), game2048()]).then(([api]) => api) : loadWasm();
    this.#loading ??= modules.then(
      (api) => {
        this.#api = api;
        this.#update();
        this.setAttribute("ready", "");
        this.#ready.resolve();
      },
      (error) => {
        const message = `puzzlelab could not load its WebAssembly module: ${errorMessage(error)}`;
        this.#solveError = message;
        this.#renderErrors();
        this.#emit("error", { message, attribute: null });
        this.#ready.reject(new Error(message));
      },
    );
  }

  disconnectedCallback() {
    this.cancel();
    this.#player.pause();
    this.#panel2048?.stop();
  }

  attributeChangedCallback() {
    // Several attributes often change together (size and start): apply them once.
    if (this.#updateQueued) return;
    this.#updateQueued = true;
    queueMicrotask(() => {
      this.#updateQueued = false;
      this.#update();
    });
  }

  // ---- the public API ---------------------------------------------------------------------------

  /** Resolves once the widget has loaded its wasm and applied its attributes. */
  get ready() {
    return this.#ready.promise;
  }

  /** The inner <sliding-board> (for the puzzlelab page); a 2048 widget's <game2048-board>. */
  get board() {
    return this.#showing2048 ? this.#panel2048.board : this.#board;
  }

  /** The Puzzle handle shown, or null. */
  get puzzle() {
    return this.#board.puzzle;
  }

  /** Shows a Puzzle handle (the board owns it from then on); attributes set later still apply. */
  set puzzle(puzzle) {
    // A puzzle handed over before the attributes were first applied is not replaced by them.
    this.#puzzleKey ??= this.#attributeKey();
    this.#setPuzzle(puzzle);
  }

  get state() {
    if (this.#showing2048) return this.#panel2048.state;
    const puzzle = this.#board.puzzle;
    if (!puzzle) return null;
    return {
      rows: puzzle.rows,
      cols: puzzle.cols,
      preset: puzzle.presetName,
      board: Array.from(puzzle.board()),
      goal: Array.from(puzzle.goal()),
      start: puzzle.startText(),
      goalText: puzzle.goalText(),
      solved: puzzle.isSolved(),
      moves: this.#moveCount,
    };
  }

  /** Shuffles from the goal; returns "exact" or "random-walk" (see Puzzle.shuffle). */
  shuffle(difficulty = DEFAULT_DIFFICULTY) {
    this.#refuseIn2048("shuffle()", "newGame()");
    const current = this.#loadedPuzzle();
    const puzzle = copyAtGoal(this.#api, current);
    const { mode } = shufflePuzzle(puzzle, Number(difficulty));
    this.#setPuzzle(puzzle);
    return mode;
  }

  /** Shows `start` (and `goal`, default: the current goal) as parsed by Puzzle.parse; throws its Error. */
  setState(start, goal) {
    if (this.#showing2048) return this.#panel2048.setBoard(start);
    const current = this.#loadedPuzzle();
    const goalText = goal === undefined || goal === null ? current.goalText() : String(goal);
    let puzzle;
    try {
      puzzle = this.#api.Puzzle.parse(current.rows, current.cols, String(start ?? ""), goalText, current.presetName);
    } catch (error) {
      throw new Error(errorMessage(error));
    }
    this.#setPuzzle(puzzle);
  }

  /** Solves from the current position and plays the solution; resolves to the `solution` detail. */
  solve() {
    if (this.#showing2048) {
      return Promise.reject(new Error("solve() is for sliding puzzles: on a 2048 widget, play() lets its agent play"));
    }
    if (this.#solving) return this.#solving.promise;
    const puzzle = this.#board.puzzle;
    if (!this.#api || !puzzle) {
      const problem = [...this.#attributeErrors.values()][0] ?? "the widget has not loaded yet";
      return Promise.reject(new Error(problem));
    }
    if (this.#solverError) return Promise.reject(new Error(this.#solverError));
    const algorithm = this.#solver ?? defaultAlgorithm(puzzle);
    const neural = NEURAL_SOLVERS.includes(algorithm);
    const heuristic = neural ? null : defaultHeuristic(puzzle, algorithm);
    const weight = algorithm === "wastar" ? DEFAULT_WEIGHT : undefined;
    const label = neural ? "DQN" : solverLabel(algorithm, heuristic, weight, numberFormat);
    if (puzzle.isSolved()) {
      const detail = { moves: [], tiles: [], length: 0, optimal: true, algorithm, heuristic: null, nodes: 0, ms: 0 };
      this.#setStatus("Already at the goal.");
      this.#emit("solution", detail);
      return Promise.resolve(detail);
    }
    if (!puzzle.isSolvable()) return Promise.reject(this.#failSolve("This start cannot reach the goal (the two have different parity)."));

    const controller = new AbortController();
    this.#player.clear();
    this.#setSolveError(null);
    const doing = neural ? "loading the model" : heuristic === "pdb" ? "preparing" : algorithm === "qlearning" ? "training" : "searching";
    this.#setStatus(`${label}: ${doing}…`);
    const solving = neural
      ? this.#solveWithModel(puzzle, controller.signal)
      : sharedSolverPool().solve(solveRequest(puzzle, { algorithm, heuristic, weight }), {
          signal: controller.signal,
          // Progress sent before the worker read the cancel is not shown over "Cancelled.".
          onProgress: (progress) => controller.signal.aborted || this.#showProgress(label, progress),
        });
    const promise = solving
      .then(
        (result) => {
          // A result may cross a cancel on its way from the worker.
          if (controller.signal.aborted) throw new SolveCancelled();
          return this.#finishSolve(result, label);
        },
        (error) => {
          if (error instanceof SolveCancelled || controller.signal.aborted) throw error;
          throw this.#failSolve(`${label} failed: ${error?.message ?? error}`);
        },
      )
      .finally(() => {
        if (this.#solving?.controller !== controller) return;
        this.#solving = null;
        this.#renderBusy();
      });
    this.#solving = { controller, promise };
    this.#renderBusy();
    return promise;
  }

  /** 2048: starts a new game, seeded with `seed` (a whole number) or at random. */
  newGame(seed) {
    const panel = this.#require2048("newGame()");
    if (seed !== undefined && seed !== null && (!Number.isSafeInteger(seed) || seed < 0)) {
      throw new Error(`the seed must be a whole number, 0 or more, not ${seed}`);
    }
    panel.newGame(seed ?? null);
  }

  /** 2048: plays "up" | "right" | "down" | "left" as a person would; whether the board changed. */
  move(direction) {
    return this.#require2048("move()").move(String(direction));
  }

  /** 2048: the agent plays (after loading its network); resolves once it has started. */
  play() {
    return this.#require2048("play()").play();
  }

  /** 2048: the agent stops playing. */
  pause() {
    this.#require2048("pause()").pause();
  }

  /** 2048: resolves to the agent's move for the board shown (also drawn as an arrow), or null. */
  hint() {
    return this.#require2048("hint()").hint();
  }

  #require2048(method) {
    if (!this.#showing2048) throw new Error(`${method} is for 2048 widgets (puzzle="2048")`);
    return this.#panel2048;
  }

  #refuseIn2048(method, instead) {
    if (this.#showing2048) throw new Error(`${method} is for sliding puzzles: use ${instead} on a 2048 widget`);
  }

  /** Stops a running solve (its promise rejects with SolveCancelled). */
  cancel() {
    const solving = this.#solving;
    if (!solving) return;
    // At once, so that a solve started right after this one (autoplay) is not taken for it.
    this.#solving = null;
    solving.controller.abort();
    this.#renderBusy();
    this.#setStatus("Cancelled.");
  }

  // ---- attributes ---------------------------------------------------------------------------------

  #attributeKey() {
    return JSON.stringify(PUZZLE_ATTRIBUTES.map((name) => this.getAttribute(name)));
  }

  /** The `puzzle` attribute as written, lower case. */
  #kind() {
    return (this.getAttribute("puzzle") ?? "").trim().toLowerCase();
  }

  /** Applies every attribute; an invalid one is reported and leaves its part of the widget as it was. */
  #update() {
    if (!this.#api) return;
    if (this.#kind() === "2048") {
      this.#update2048();
      return;
    }
    if (this.#showing2048) this.#leave2048();
    this.#apply(["controls"], () => {
      this.#controls = parseControls(this.getAttribute("controls"));
      this.#renderControls();
    });
    this.#apply(["speed"], () => {
      this.#speed = parseSpeed(this.getAttribute("speed"));
      this.#player.movesPerSecond = this.#speed;
    });
    let puzzleChanged = false;
    const key = this.#attributeKey();
    this.#apply(PUZZLE_ATTRIBUTES, () => {
      // Unchanged attributes (or changed back to those of the board shown) keep the board as it is.
      if (key === this.#puzzleKey) return;
      const puzzle = this.#puzzleFromAttributes();
      this.#puzzleKey = key;
      this.#setPuzzle(puzzle, { fromAttributes: true });
      puzzleChanged = true;
    });
    this.#applySolver();
    this.#apply(["model"], () => this.#checkModel());

    const autoplay = this.hasAttribute("autoplay");
    const autoplayAdded = autoplay && !this.#autoplayApplied;
    this.#autoplayApplied = autoplay;
    if (puzzleChanged) this.#preparePatternDatabases();
    if (autoplay && (puzzleChanged || autoplayAdded)) this.#autoplay();
  }

  /** Shows 2048 (loading game2048.js first when needed) with the attributes' settings. */
  #update2048() {
    if (!game2048Exports) {
      game2048().then(
        () => this.#update(),
        (error) => this.#setSolveError(`2048 could not be loaded: ${errorMessage(error)}`),
      );
      return;
    }
    this.#panel2048 ??= new game2048Exports.Game2048Panel(this.#parts.game2048, {
      api: this.#api,
      emit: (type, detail) => this.#emit(type, detail),
      setStatus: (text) => this.#setStatus(text),
      showError: (message) => this.#setSolveError(message),
    });
    if (!this.#showing2048) {
      // Leave the sliding puzzle: its solve, playback and the errors of its own attributes.
      this.cancel();
      this.#player.pause();
      this.#player.clear();
      for (const name of ["size", "goal", "preset", "solver"]) this.#attributeErrors.delete(name);
      this.#board.hidden = true;
      this.#parts.controls.hidden = true;
      this.#parts.player.hidden = true;
      this.#parts.game2048.hidden = false;
      this.#setSolveError(null);
      this.#setStatus("");
      this.#showing2048 = true;
      // Coming back to a sliding puzzle builds it again.
      this.#puzzleKey = null;
    }
    const previous = this.#options2048;
    const options = {
      seed: previous?.seed ?? null,
      start: previous?.start ?? "",
      alwaysTwo: this.hasAttribute("always-two"),
      agent: previous?.agent ?? null,
      model: previous?.model ?? "",
      depth: previous?.depth ?? 1,
      speed: previous?.speed ?? DEFAULT_SPEED,
      controls: previous?.controls ?? new Set(DEFAULT_CONTROLS_2048),
      autoplay: this.hasAttribute("autoplay"),
    };
    this.#apply(["seed"], () => (options.seed = parseSeed(this.getAttribute("seed"))));
    this.#apply(["start"], () => {
      const start = (this.getAttribute("start") ?? "").trim();
      if (start) {
        try {
          this.#api.Game2048.fromText(start, 0, false).free();
        } catch (error) {
          throw new AttributeError("start", start, errorMessage(error));
        }
      }
      options.start = start;
    });
    this.#apply(["agent"], () => {
      const agent = (this.getAttribute("agent") ?? "").trim().toLowerCase();
      if (agent && !AGENTS_2048.includes(agent)) {
        throw new AttributeError("agent", this.getAttribute("agent"), `unknown agent; the 2048 agents are ${AGENTS_2048.join(", ")}`);
      }
      options.agent = agent || null;
    });
    this.#apply(["model"], () => {
      this.#checkModel();
      options.model = (this.getAttribute("model") ?? "").trim();
    });
    this.#apply(["depth"], () => (options.depth = parseDepth(this.getAttribute("depth"))));
    this.#apply(["speed"], () => (options.speed = parseSpeed(this.getAttribute("speed"))));
    this.#apply(["controls"], () => {
      options.controls = parseControls(this.getAttribute("controls"), CONTROLS_2048, DEFAULT_CONTROLS_2048);
    });
    this.#options2048 = options;
    this.#panel2048.configure(options);
  }

  /** Back from 2048 to a sliding puzzle (built from the attributes by the update that follows). */
  #leave2048() {
    this.#panel2048.stop();
    this.#parts.game2048.hidden = true;
    this.#showing2048 = false;
    this.#options2048 = null;
    for (const name of ATTRIBUTES_2048) this.#attributeErrors.delete(name);
    this.#setSolveError(null);
    this.#setStatus("");
    this.#renderControls();
  }

  /**
   * Runs `action`, which applies `attributes`; an AttributeError it throws is shown (and fired as
   * `error` when it is new), and the errors of the other attributes in the list are cleared.
   */
  #apply(attributes, action) {
    let error = null;
    try {
      action();
    } catch (caught) {
      if (!(caught instanceof AttributeError)) throw caught;
      error = caught;
    }
    for (const name of attributes) {
      if (name !== error?.attribute) this.#attributeErrors.delete(name);
    }
    const isNew = error !== null && this.#attributeErrors.get(error.attribute) !== error.message;
    if (error) this.#attributeErrors.set(error.attribute, error.message);
    this.#renderErrors();
    if (isNew) this.#emit("error", { message: error.message, attribute: error.attribute });
  }

  /** Checks the `solver` attribute against the board shown (the size decides what it may be). */
  #applySolver() {
    this.#apply(["solver"], () => {
      this.#solver = null;
      this.#solverError = null;
      try {
        this.#solver = this.#solverFromAttributes();
      } catch (error) {
        this.#solverError = error.message;
        throw error;
      }
    });
  }

  /** A new Puzzle from the puzzle, size, preset, start and goal attributes; AttributeError when one is wrong. */
  #puzzleFromAttributes() {
    const api = this.#api;
    const value = (name) => (this.getAttribute(name) ?? "").trim();
    const kind = value("puzzle").toLowerCase();
    if (kind && !PUZZLE_KINDS.includes(kind)) {
      const kinds = PUZZLE_KINDS.map((name) => `"${name}"`).join(" or ");
      throw new AttributeError("puzzle", value("puzzle"), `unknown puzzle; choose ${kinds}`);
    }
    const preset = value("preset").toLowerCase();
    const size = parseSize(this.getAttribute("size"));
    let base;
    try {
      base = preset ? api.Puzzle.preset(preset) : api.Puzzle.standard(size?.rows ?? 3, size?.cols ?? 3);
    } catch (error) {
      throw new AttributeError(preset ? "preset" : "size", preset ? value("preset") : value("size"), errorMessage(error));
    }
    try {
      const { rows, cols } = base;
      if (preset && size && (size.rows !== rows || size.cols !== cols)) {
        throw new AttributeError("size", value("size"), `the ${preset} preset is ${rows}×${cols}`);
      }
      const goal = value("goal");
      const start = value("start");
      if (goal) {
        try {
          api.Puzzle.parse(rows, cols, goal, goal, preset).free();
        } catch (error) {
          throw new AttributeError("goal", goal, errorMessage(error).replace(/^goal: /, ""));
        }
      }
      if (start) {
        try {
          return api.Puzzle.parse(rows, cols, start, goal, preset);
        } catch (error) {
          throw new AttributeError("start", start, errorMessage(error));
        }
      }
      if (preset && !goal) {
        const puzzle = base;
        base = null;
        return puzzle;
      }
      const goalText = goal || base.goalText();
      const puzzle = api.Puzzle.parse(rows, cols, goalText, goalText, preset);
      shufflePuzzle(puzzle, DEFAULT_DIFFICULTY);
      return puzzle;
    } finally {
      base?.free();
    }
  }

  /** The `solver` attribute checked against the board shown (null: none given). */
  #solverFromAttributes() {
    const raw = this.getAttribute("solver");
    const solver = (raw ?? "").trim().toLowerCase();
    if (!solver) return null;
    if (!ALGORITHMS.includes(solver) && !NEURAL_SOLVERS.includes(solver)) {
      throw new AttributeError("solver", raw, `unknown solver; choose one of ${[...ALGORITHMS, ...NEURAL_SOLVERS].join(", ")}`);
    }
    const puzzle = this.#board.puzzle;
    if (NEURAL_SOLVERS.includes(solver)) {
      // Which sizes and goals have a model is known once the model index or file is read: solve() says.
      if (puzzle?.presetName) {
        throw new AttributeError("solver", raw, `the DQN models solve numbered sliding puzzles, not the ${puzzle.presetName} preset`);
      }
      return solver;
    }
    if (puzzle && !offersAlgorithm(puzzle, solver)) {
      const cells = puzzle.rows * puzzle.cols;
      throw new AttributeError("solver", raw, `${solver} is for boards of at most ${SMALL_BOARD_CELLS} cells; this one has ${cells}`);
    }
    return solver;
  }

  /** `model` is an author's URL, resolved against the page; checked to be one here, read at a dqn solve. */
  #checkModel() {
    const model = this.getAttribute("model");
    if (model === null || model.trim() === "") return;
    try {
      new URL(model.trim(), document.baseURI);
    } catch {
      throw new AttributeError("model", model, "this is not a URL");
    }
  }

  // ---- puzzles and moves ----------------------------------------------------------------------------

  #loadedPuzzle() {
    if (!this.#api) throw new Error("The widget has not loaded yet: wait for `await widget.ready`.");
    const puzzle = this.#board.puzzle;
    if (!puzzle) throw new Error(`The widget has no board: ${[...this.#attributeErrors.values()].join(" ")}`);
    return puzzle;
  }

  /**
   * The single place a puzzle is shown. Puzzles from attributes leave preparing and autoplay to
   * #update, which knows whether the autoplay attribute itself changed.
   */
  #setPuzzle(puzzle, { fromAttributes = false } = {}) {
    this.cancel();
    this.#board.puzzle = puzzle; // fires board-reset: see #onBoardReset
    this.#board.hidden = false;
    this.#startText = puzzle.startText();
    if (fromAttributes) return;
    // The size may have changed what the solver attribute allows.
    if (this.#api) this.#applySolver();
    this.#preparePatternDatabases();
    if (this.hasAttribute("autoplay")) this.#autoplay();
  }

  #resetToStart() {
    const current = this.#loadedPuzzle();
    const puzzle = this.#api.Puzzle.parse(current.rows, current.cols, this.#startText, current.goalText(), current.presetName);
    this.#setPuzzle(puzzle);
  }

  #onBoardReset() {
    // A new puzzle, whoever set it (this widget, or the page through `board`).
    this.cancel();
    this.#moveCount = 0;
    this.#lastBoard = Array.from(this.#board.puzzle?.board() ?? []);
    this.#setSolveError(null);
    this.#setStatus("");
  }

  /** One `move` event per tile, with the board as it was after that tile moved. */
  #onBoardMove({ moves, source }) {
    const cols = this.#board.puzzle.cols;
    const board = this.#lastBoard;
    if (source === "user") this.#setSolveError(null);
    for (const direction of moves) {
      const blank = board.indexOf(0);
      const [dr, dc] = BLANK_STEP[direction];
      const from = blank + dr * cols + dc;
      const tile = board[from];
      board[blank] = tile;
      board[from] = 0;
      this.#moveCount += 1;
      this.#emit("move", {
        direction,
        tile,
        board: [...board],
        moves: this.#moveCount,
        source: source === "user" ? "user" : "playback",
      });
    }
    // The Puzzle is the source of truth.
    this.#lastBoard = Array.from(this.#board.puzzle.board());
  }

  // ---- solving ------------------------------------------------------------------------------------

  /** Pattern databases are prepared in the background when this widget may solve a 15-puzzle with them. */
  #preparePatternDatabases() {
    const puzzle = this.#board.puzzle;
    if (!puzzle || !usesPatternDatabases(puzzle) || this.#solverError) return;
    if (!this.#controls.has("solve") && !this.hasAttribute("autoplay")) return;
    const algorithm = this.#solver ?? defaultAlgorithm(puzzle);
    if (NEURAL_SOLVERS.includes(algorithm) || defaultHeuristic(puzzle, algorithm) !== "pdb") return;
    sharedSolverPool().preparePatternDatabases({ rows: puzzle.rows, cols: puzzle.cols, goal: puzzle.goalText() });
  }

  #autoplay() {
    if (this.#solverError || !this.#board.puzzle) return;
    // After the current task, so that the attributes of the same change are all applied.
    queueMicrotask(() => this.solve().catch(() => {}));
  }

  /**
   * Solves the board with a DQN model in the learning worker: the `model` attribute's, else the
   * shipped one for the board's size and goal. Resolves to the model's report (as the solver
   * pool's results, plus method, optimalLength, extraMoves); rejects with SolveCancelled when
   * `signal` aborts (a download goes on in the background, for the next solve).
   */
  async #solveWithModel(puzzle, signal) {
    const { rows, cols } = puzzle;
    const goal = Array.from(puzzle.goal());
    const cells = Array.from(puzzle.board());
    const goalText = puzzle.goalText();
    const { goalLabels, sharedLearnClient, shippedModelFor, shippedModels } = await learnClient();
    const cancelled = () => {
      if (signal.aborted) throw new SolveCancelled();
    };
    let url;
    const attribute = (this.getAttribute("model") ?? "").trim();
    if (attribute) {
      url = new URL(attribute, document.baseURI).href;
    } else {
      const models = await shippedModels();
      cancelled();
      const shipped = shippedModelFor(models, rows, cols, goal);
      if (!shipped) {
        const available = models.map((model) => `${model.size.replace("x", "×")} with the goal ${model.goal}`).join("; ");
        throw new Error(
          `no trained model fits this ${rows}×${cols} board with the goal ${goalText}` +
            (available ? ` (models ship for: ${available})` : "") +
            "; give one with the model attribute, or choose another solver",
        );
      }
      url = shipped.url;
    }
    const client = sharedLearnClient();
    const showDownload = ({ loaded, total }) => {
      if (signal.aborted || !total) return;
      this.#setStatus(`DQN: loading the model… ${Math.floor((100 * loaded) / total)}%`);
    };
    const loaded = await client.loadModelUrl(url, { onProgress: showDownload });
    cancelled();
    const fits =
      loaded.info.rows === rows &&
      loaded.info.cols === cols &&
      goalLabels(loaded.info.goal).every((label, i) => label === goal[i]);
    if (!fits) {
      throw new Error(
        `the model ${attribute || url} was trained for ${loaded.info.rows}×${loaded.info.cols} boards with the goal ` +
          `${loaded.info.goal}; this board is ${rows}×${cols} with the goal ${goalText}`,
      );
    }
    this.#setStatus("DQN: solving…");
    const result = await client.solve(loaded.key, { rows, cols, goal, cells });
    cancelled();
    return { ...result, ms: Math.round(result.ms) };
  }

  #showProgress(label, progress) {
    const seconds = (progress.ms / 1000).toFixed(1);
    this.#setStatus(
      progress.waiting === "pdb"
        ? `${label}: waiting for the pattern databases…`
        : progress.episodes !== undefined
          ? `${label}: ${numberFormat.format(progress.episodes)} episodes · ${seconds} s`
          : `${label}: ${numberFormat.format(progress.nodes)} nodes · ${seconds} s`,
    );
  }

  #finishSolve(result, label) {
    const neural = NEURAL_SOLVERS.includes(result.algorithm);
    if (result.status !== "solved") {
      const reasons = {
        unsolvable: "this start cannot reach the goal",
        "budget-exhausted": `gave up after ${numberFormat.format(result.nodes)} nodes (node budget exhausted)`,
        "not-solved": neural
          ? `the model found no way to the goal (greedy play, then a beam search of ${numberFormat.format(result.nodes)} nodes)`
          : `did not learn a way to the goal in ${numberFormat.format(result.episodes ?? 0)} episodes`,
      };
      throw this.#failSolve(`${label}: ${reasons[result.status] ?? result.status}.`);
    }
    const detail = {
      moves: Array.from(result.moves),
      tiles: Array.from(result.tiles),
      length: result.length,
      optimal: Boolean(result.optimal),
      algorithm: result.algorithm,
      heuristic: result.heuristic ?? null,
      nodes: result.nodes ?? 0,
      ms: result.ms,
    };
    if (neural) {
      detail.method = result.method;
      detail.optimalLength = result.optimalLength ?? null;
    }
    const used = neural
      ? `${label} (${result.method === "greedy" ? "greedy" : "beam search"})`
      : result.heuristic
        ? solverLabel(result.algorithm, result.heuristic, result.weight, numberFormat)
        : label;
    const quality = detail.optimal
      ? "optimal"
      : result.algorithm === "wastar"
        ? `at most ${numberFormat.format(result.weight ?? DEFAULT_WEIGHT)} × optimal`
        : neural && detail.optimalLength !== null
          ? `${detail.length - detail.optimalLength} more than optimal`
          : "not proven optimal";
    const moves = `${detail.length} ${detail.length === 1 ? "move" : "moves"}`;
    this.#setStatus(`${used}: ${moves}, ${quality} · ${numberFormat.format(result.ms)} ms`);
    this.#emit("solution", detail);
    this.#player.load(detail.moves);
    this.#player.play();
    return detail;
  }

  /** Shows and reports a solve's failure; returns the Error to reject with. */
  #failSolve(message) {
    this.#setStatus("");
    this.#setSolveError(message);
    this.#emit("error", { message, attribute: null });
    return new Error(message);
  }

  // ---- rendering ----------------------------------------------------------------------------------

  /** Runs an action of a button, showing its error (there is no caller to throw to). */
  #run(action) {
    try {
      action();
    } catch (error) {
      this.#failSolve(errorMessage(error));
    }
  }

  #renderControls() {
    const { shuffle, solve, reset, player, controls } = this.#parts;
    shuffle.hidden = !this.#controls.has("shuffle");
    solve.hidden = !this.#controls.has("solve");
    reset.hidden = !this.#controls.has("reset");
    player.hidden = !this.#controls.has("step");
    controls.hidden = shuffle.hidden && solve.hidden && reset.hidden;
  }

  #renderBusy() {
    const busy = this.#solving !== null;
    this.toggleAttribute("solving", busy);
    this.#board.locked = busy;
    this.#parts.solve.textContent = busy ? "Cancel" : "Solve";
    this.#parts.solve.classList.toggle("primary", !busy);
  }

  #setSolveError(message) {
    if (this.#solveError === message) return;
    this.#solveError = message;
    this.#renderErrors();
  }

  #renderErrors() {
    const messages = [...this.#attributeErrors.values()];
    if (this.#solveError) messages.push(this.#solveError);
    this.#parts.error.textContent = messages.join("\n");
    this.#parts.error.hidden = messages.length === 0;
    this.toggleAttribute("invalid", this.#attributeErrors.size > 0);
  }

  #setStatus(text) {
    this.#parts.status.textContent = text;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true, detail }));
  }
}

if (!customElements.get("puzzle-widget")) customElements.define("puzzle-widget", PuzzleWidget);
