/**
 * <puzzle-widget>: a live, solvable puzzlelab puzzle for any page, in one line of HTML.
 *
 *   <script type="module" src="https://your.site/puzzlelab/www/widget.js"></script>
 *   <puzzle-widget size="3" solver="astar"></puzzle-widget>
 *
 * It renders into its own shadow DOM, so the host page's CSS cannot break it and its CSS cannot
 * leak out. Each puzzle's mode is its own panel class: sliding/widget-panel.js (the default; it
 * composes <sliding-board> and the solution player) and those of the other puzzles of the registry
 * (common/puzzles.js: each mode's module and panel class, imported when first shown). This file is the
 * element: the attributes, the shadow-DOM shell, the status and error lines and the events. The
 * puzzlelab page shows its board through this element too. The wasm, the solver worker and the
 * models are found next to this file (import.meta.url), never relative to the page. All widgets of
 * a page share one wasm instance (wasm.js), at most MAX_WORKERS solver workers whose jobs queue
 * (solver-pool.js), and one download of each pattern-database file (pdb-files.js). A widget with
 * solver="dqn" solves with a trained neural network in the learning worker (learn-client.js),
 * which — with its several-MB learning bundle — starts only at the first such solve on the page;
 * all widgets and the page share it and each model's download.
 *
 * Attributes (all optional; changing one updates the widget):
 *   puzzle    "sliding" (the default), "2048", "minesweeper", "sudoku", "dust" or "samegame" (see those below)
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
 *   model     URL of a DQN model file (.dqn, as `puzzlelab sliding train` or the page's Save writes),
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
 * 2048 (puzzle="2048"): the board from 2048/game.js (with 2048/widget-panel.js, imported only then), played with the arrow
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
 *               2048 ntuple train` writes it), resolved against the page
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
 * Minesweeper (puzzle="minesweeper"): the board from minesweeper/board.js (with
 * minesweeper/widget-panel.js, imported only then). Attributes: level (beginner | intermediate |
 * expert), width, height, mines (a custom size), first-click (safe | opening | none), seed, start (a
 * board text), no-guess, overlay and question-marks (booleans), speed, autoplay, controls (any of
 * "new hint play overlay"). Events: move { action, cell, revealed, exploded, status, source }, won
 * { seconds, source }, lost { cell, seconds, source }, error. Methods: newGame(seed?), hint(),
 * play(), pause(), setState(boardText); state is { puzzle: "minesweeper", width, height, mines,
 * flags, status, cells, seed, playing }. docs/widget.md has the details.
 *
 * Sudoku (puzzle="sudoku"): the grid and digit pad from sudoku/board.js (with
 * sudoku/widget-panel.js, imported only then): click a cell, then a digit (pad or keys: arrows,
 * 1–9, Shift+digit or P for pencil marks, Backspace clears, Ctrl+Z / Ctrl+Y undo and redo).
 * Attributes: size (4 | 6 | 9, default 9), difficulty (easy | medium | hard | expert, default
 * easy; 4 × 4 only easy, 6 × 6 not medium), seed (the generated puzzle's), start (a puzzle text:
 * 16, 36 or 81 cells, "." or 0 empty; it must have exactly one solution), pencil (boolean: start
 * in pencil mode), controls (any of "new hint candidates check"). Events: move { action: "digit" |
 * "mark" | "erase" | "candidates" | "undo" | "redo", cell, digit, source }, solved { seconds,
 * source }, error. Methods: newGame(seed?), hint() (a Promise of the steps, each { technique,
 * rating, explanation, placements, eliminations, cells, units, unitCells, digits }, highlighted on
 * the grid), setState(puzzleText); state is { puzzle: "sudoku", size, givens, cells, marks,
 * puzzleText, text, solved, seconds, seed }. play() rejects: Sudoku has no player.
 *
 * Dust and SameGame (puzzle="dust" | "samegame"): the board from samegame/board.js (with
 * samegame/widget-panel.js, imported only then): hover a pile to see its group's size (and
 * SameGame's points), click to remove it; the piles fall and the columns close (dust: toward the
 * middle; SameGame: to the left). Attributes: seed, start (a board text, rows top first separated
 * by "/" or "-": 1–9 colours, "." empty; any size), speed (the solver's clicks per second),
 * controls (any of "new undo restart hint solve"). Events: move { action: "click" | "undo" |
 * "restart", cell, cells, moved, points, score, clicks, over, cleared, source }, over { clicks,
 * score, cleared, piles, source }, error. Methods: newGame(seed?), undo(), hint(), solve() (the
 * exact fewest clicks within 10 s for dust, NRPA for 5 s for SameGame, in a worker; then played;
 * a Promise of { cells, … }), play() (as solve()), pause() (stops both), setState(boardText);
 * state is { puzzle, width, height, cells, clicks, score, over, cleared, text, startText, seed,
 * solving, playing }.
 *
 * Styling: an inline-block 340px wide. Custom properties: --puzzle-widget-width,
 * --puzzle-widget-display, --board-max-height. Parts: widget, board, controls, button, player,
 * error, status. While it works, the element has the attributes `ready` (loaded) and `solving`.
 */

import { adoptStyle } from "./common/style-sheets.js";
import { errorMessage, loadWasm } from "./common/wasm.js";
import { AttributeError } from "./common/widget-attributes.js";
import { DEFAULT_WIDGET_MODE, widgetModes, wwwUrl } from "./common/puzzles.js";
import { PUZZLE_ATTRIBUTES, SLIDING_ATTRIBUTES, SLIDING_BOARD_MARKUP, SLIDING_CONTROLS_MARKUP, SLIDING_STYLE, SlidingPanel } from "./sliding/widget-panel.js";

/**
 * The puzzles that a panel module of their own shows (every widget mode of the registry,
 * common/puzzles.js, but the default sliding one), imported when a widget first shows that puzzle
 * (pages without it never load it): by mode, the module, its panel class, the widget's container
 * for it (`part`, `className`), the attributes only it reads (their errors go when the widget shows
 * another puzzle; known before the module loads) and its name in messages (`title`).
 */
const GAME_MODES = Object.assign(
  Object.create(null), // `kind in GAME_MODES` is true for the modes only ("constructor" is no mode)
  Object.fromEntries(
    widgetModes()
      .filter(({ mode }) => mode !== DEFAULT_WIDGET_MODE)
      .map((mode) => [mode.mode, { ...mode, load: () => import(wwwUrl(mode.module).href) }]),
  ),
);
/** Per game mode: { promise, exports } of its module once asked for. */
const modeModules = {};
function loadMode(kind) {
  const entry = (modeModules[kind] ??= {});
  entry.promise ??= GAME_MODES[kind].load().then((module) => (entry.exports = module));
  return entry.promise;
}

/**
 * Widgets set themselves up (their first board, their panels) in turns of at most SETUP_SLICE_MS
 * of main-thread time per task: fifty widgets on one page, whose modules all arrive at once, then
 * never hold the main thread for more than about a frame together (one widget takes 1–6 ms).
 */
const SETUP_SLICE_MS = 8;
const setupQueue = [];
let setupScheduled = false;
function queueSetup(job) {
  setupQueue.push(job);
  if (setupScheduled) return;
  setupScheduled = true;
  setTimeout(runSetups, 0);
}
function runSetups() {
  const end = performance.now() + SETUP_SLICE_MS;
  do {
    const job = setupQueue.shift();
    try {
      job();
    } catch (error) {
      reportError(error);
    }
  } while (setupQueue.length > 0 && performance.now() < end);
  if (setupQueue.length > 0) setTimeout(runSetups, 0);
  else setupScheduled = false;
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
${SLIDING_STYLE}button {
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
<div class="widget" part="widget">
  ${SLIDING_BOARD_MARKUP}
  ${Object.values(GAME_MODES).map(({ className, part }) => `<div class="${className}" part="${part}" hidden></div>`).join("\n  ")}
  <p class="error" part="error" role="alert" hidden></p>${SLIDING_CONTROLS_MARKUP}
  <p class="status" part="status" role="status" aria-live="polite"></p>
</div>`;

export class PuzzleWidget extends HTMLElement {
  static observedAttributes = [
    ...PUZZLE_ATTRIBUTES,
    ...["solver", "model", "controls", "autoplay", "speed"],
    ...new Set(Object.values(GAME_MODES).flatMap((mode) => mode.attributes)),
  ];

  /** The wasm API once loaded. */
  #api = null;
  #loading = null;
  #ready = Promise.withResolvers();
  #parts;
  /** Attribute errors shown, by attribute name. */
  #attributeErrors = new Map();
  /** The error of the last solve, shown until the puzzle changes or the person moves. */
  #solveError = null;
  #updateQueued = false;
  /** The sliding mode (sliding/widget-panel.js), shown unless a game mode is. */
  #sliding;
  /** The game modes' panels (GAME_MODES) by kind, once shown; the kind shown (null: sliding). */
  #panels = {};
  #shown = null;
  /** The last valid settings given to the panel shown. */
  #modeOptions = null;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: "open" });
    shadow.innerHTML = TEMPLATE;
    adoptStyle(shadow, STYLE);
    const part = (selector) => shadow.querySelector(selector);
    this.#parts = {
      error: part(".error"),
      status: part(".status"),
      ...Object.fromEntries(Object.values(GAME_MODES).map((mode) => [mode.part, part(`[part="${mode.part}"]`)])),
    };
    this.#ready.promise.catch(() => {});
    const widget = this;
    this.#sliding = new SlidingPanel(shadow, this, {
      get api() {
        return widget.#api;
      },
      apply: (attributes, action) => this.#apply(attributes, action),
      attributeErrors: () => [...this.#attributeErrors.values()],
      emit: (type, detail) => this.#emit(type, detail),
      setStatus: (text) => this.#setStatus(text),
      setSolveError: (message) => this.#setSolveError(message),
    });
  }

  connectedCallback() {
    // A game mode's widget needs its panel's module before its first update.
    const kind = this.#kind();
    const modules = kind in GAME_MODES ? Promise.all([loadWasm(), loadMode(kind)]).then(([api]) => api) : loadWasm();
    this.#loading ??= modules.then(
      (api) =>
        queueSetup(() => {
          this.#api = api;
          this.#update();
          this.setAttribute("ready", "");
          this.#ready.resolve();
        }),
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
    this.#sliding.stop();
    for (const panel of Object.values(this.#panels)) panel.stop();
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

  /** The inner <sliding-board> (for the puzzlelab page); a 2048 widget's <game2048-board>, a Minesweeper widget's <mines-board>, a Sudoku widget's <sudoku-board>, a dust or SameGame widget's <samegame-board>. */
  get board() {
    return this.#game()?.board ?? this.#sliding.board;
  }

  /** The Puzzle handle shown, or null. */
  get puzzle() {
    return this.#sliding.puzzle;
  }

  /** Shows a Puzzle handle (the board owns it from then on); attributes set later still apply. */
  set puzzle(puzzle) {
    this.#sliding.puzzle = puzzle;
  }

  get state() {
    return this.#game()?.state ?? this.#sliding.state;
  }

  /** Shuffles from the goal; returns "exact" or "random-walk" (see Puzzle.shuffle). */
  shuffle(difficulty) {
    this.#refuseInGame("shuffle()", "newGame()");
    return this.#sliding.shuffle(difficulty);
  }

  /** Shows `start` (and `goal`, default: the current goal) as parsed by Puzzle.parse; throws its Error. */
  setState(start, goal) {
    const game = this.#game();
    if (game) return game.setBoard(start);
    return this.#sliding.setState(start, goal);
  }

  /** Solves from the current position and plays the solution; resolves to the `solution` detail. */
  solve() {
    if (this.#shown === "dust" || this.#shown === "samegame") return this.#game().solve();
    if (this.#shown) {
      const player = { 2048: "play() lets its agent play", minesweeper: "play() lets its solver play", sudoku: "hint() shows the next step" };
      return Promise.reject(new Error(`solve() is for sliding puzzles: on a ${GAME_MODES[this.#shown].title} widget, ${player[this.#shown]}`));
    }
    return this.#sliding.solve();
  }

  /** Dust and SameGame: takes back the last click; whether there was one to take back. */
  undo() {
    const game = this.#game();
    if (this.#shown !== "dust" && this.#shown !== "samegame") throw new Error('undo() is for dust and SameGame widgets (puzzle="dust" or "samegame")');
    return game.undo();
  }

  /** 2048, Minesweeper, Sudoku, dust and SameGame: starts a new game, seeded with `seed` (a whole number) or at random. */
  newGame(seed) {
    const panel = this.#requireGame("newGame()");
    if (seed !== undefined && seed !== null && (!Number.isSafeInteger(seed) || seed < 0)) {
      throw new Error(`the seed must be a whole number, 0 or more, not ${seed}`);
    }
    panel.newGame(seed ?? null);
  }

  /** 2048: plays "up" | "right" | "down" | "left" as a person would; whether the board changed. */
  move(direction) {
    return this.#require2048("move()").move(String(direction));
  }

  /**
   * 2048: the agent plays (after loading its network); Minesweeper: the solver plays; dust and
   * SameGame: the solver searches, then plays. Resolves once it has started.
   */
  play() {
    return this.#requireGame("play()").play();
  }

  /** 2048, Minesweeper, dust and SameGame: the agent (solver) stops playing (or searching). */
  pause() {
    this.#requireGame("pause()").pause();
  }

  /**
   * 2048: resolves to the agent's move for the board shown (also drawn as an arrow), or null.
   * Minesweeper: to the solver's next cell ({ cell, reason, probability, progress }, ringed), or null.
   * Sudoku: to the logical solver's steps up to the next digit (named, highlighted on the grid).
   * Dust and SameGame: to the next click of a quick search ({ cell, group, clicksLeft, optimal,
   * lineScore, method }, ringed), or null.
   */
  hint() {
    return this.#requireGame("hint()").hint();
  }

  /** The game mode's panel shown (2048, Minesweeper, Sudoku, dust, SameGame), or null for a sliding puzzle. */
  #game() {
    return this.#shown ? this.#panels[this.#shown] : null;
  }

  #require2048(method) {
    if (this.#shown !== "2048") throw new Error(`${method} is for 2048 widgets (puzzle="2048")`);
    return this.#panels["2048"];
  }

  #requireGame(method) {
    const game = this.#game();
    if (!game) {
      const modes = Object.values(GAME_MODES);
      const list = (names, last) => `${names.slice(0, -1).join(", ")} ${last} ${names.at(-1)}`;
      const titles = list(modes.map((mode) => mode.title), "and");
      throw new Error(`${method} is for ${titles} widgets (puzzle=${list(modes.map((mode) => `"${mode.mode}"`), "or")})`);
    }
    return game;
  }

  #refuseInGame(method, instead) {
    if (this.#shown) throw new Error(`${method} is for sliding puzzles: use ${instead} on a ${GAME_MODES[this.#shown].title} widget`);
  }

  /** Stops a running solve (its promise rejects with SolveCancelled). */
  cancel() {
    this.#sliding.cancel();
  }

  // ---- attributes ---------------------------------------------------------------------------------

  /** The `puzzle` attribute as written, lower case. */
  #kind() {
    return (this.getAttribute("puzzle") ?? "").trim().toLowerCase();
  }

  /** Applies every attribute; an invalid one is reported and leaves its part of the widget as it was. */
  #update() {
    if (!this.#api) return;
    const kind = this.#kind();
    if (this.#shown && this.#shown !== kind) this.#leaveGame();
    if (kind in GAME_MODES) this.#updateGame(kind);
    else this.#sliding.update();
  }

  /** Shows a game mode (loading its panel's module first when needed) with the attributes' settings. */
  #updateGame(kind) {
    const mode = GAME_MODES[kind];
    const exports = modeModules[kind]?.exports;
    if (!exports) {
      loadMode(kind).then(
        () => this.#update(),
        (error) => this.#setSolveError(`${mode.title} could not be loaded: ${errorMessage(error)}`),
      );
      return;
    }
    this.#panels[kind] ??= new exports[mode.panel](this.#parts[mode.part], {
      api: this.#api,
      emit: (type, detail) => this.#emit(type, detail),
      setStatus: (text) => this.#setStatus(text),
      showError: (message) => this.#setSolveError(message),
    });
    if (this.#shown !== kind) {
      // Leave the sliding puzzle: its solve, playback and the errors of its own attributes.
      this.#sliding.hide();
      for (const name of SLIDING_ATTRIBUTES) this.#attributeErrors.delete(name);
      this.#parts[mode.part].hidden = false;
      this.#setSolveError(null);
      this.#setStatus("");
      this.#shown = kind;
    }
    const apply = (attributes, action) => this.#apply(attributes, action);
    this.#modeOptions = exports.optionsFromAttributes(this, this.#modeOptions, apply, this.#api);
    this.#panels[kind].configure(this.#modeOptions);
  }

  /** Back from a game mode to a sliding puzzle (built from the attributes by the update that follows). */
  #leaveGame() {
    const mode = GAME_MODES[this.#shown];
    this.#panels[this.#shown].stop();
    this.#parts[mode.part].hidden = true;
    this.#shown = null;
    this.#modeOptions = null;
    for (const name of mode.attributes) this.#attributeErrors.delete(name);
    this.#setSolveError(null);
    this.#setStatus("");
    this.#sliding.show();
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

  // ---- rendering ----------------------------------------------------------------------------------

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
