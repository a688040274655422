// The sliding-puzzle mode of <puzzle-widget> (widget.js, the default puzzle): the <sliding-board>,
// the Shuffle / Solve / Reset buttons and the solution player, the sliding attributes (size,
// preset, start, goal, solver, model, controls, speed, autoplay) and the solves (the shared solver
// pool, or a DQN model in the learning worker). widget.js owns the shadow DOM shell, the attribute
// errors, the status line and the events; it hands this panel the elements it drives and a host:
//   host.api                   the wasm API (null until loaded)
//   host.apply(names, action)  runs action, showing an AttributeError it throws for those attributes
//   host.attributeErrors()     the messages of the attribute errors shown
//   host.emit(type, detail)    fires one of the widget's events
//   host.setStatus(text), host.setSolveError(message)

import { BLANK_STEP } from "./board.js";
import { SolutionPlayer } from "./player.js";
import { SolveCancelled } from "./solver-client.js";
import { sharedSolverPool } from "./solver-pool.js";
import {
  ALGORITHMS,
  DEFAULT_DIFFICULTY,
  DEFAULT_WEIGHT,
  SMALL_BOARD_CELLS,
  copyAtGoal,
  defaultAlgorithm,
  defaultHeuristic,
  offersAlgorithm,
  shuffleByCheckedWalk,
  shufflePuzzle,
  solveRequest,
  solverLabel,
  usesPatternDatabases,
} from "./solvers.js";
import { errorMessage } from "../common/wasm.js";
import { AttributeError, DEFAULT_SPEED, PUZZLE_KINDS, checkModel, parseControls, parseSpeed } from "../common/widget-attributes.js";
import { numberFormat } from "../common/number-format.js";

/** The sliding puzzle's buttons (`controls`). */
const CONTROLS = ["shuffle", "solve", "step", "reset"];
/** Solvers that play a trained neural model (learn-client.js), not a search of the solver pool. */
const NEURAL_SOLVERS = ["dqn"];
/** Attributes that define the puzzle: a change to any of them shows a new one. */
export const PUZZLE_ATTRIBUTES = ["puzzle", "size", "preset", "start", "goal"];
/** Attributes only the sliding mode reads: their errors go when the widget shows another puzzle. */
export const SLIDING_ATTRIBUTES = ["size", "goal", "preset", "solver"];


/** learn-client.js, imported at the first dqn solve of the page (none of it loads before). */
let learnClientModule = null;
function learnClient() {
  learnClientModule ??= import("../common/learn-client.js");
  return learnClientModule;
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

/** The sliding part of the widget's shadow DOM (widget.js places it in its shell). */
export const SLIDING_BOARD_MARKUP = `<sliding-board part="board" hidden></sliding-board>`;
export const SLIDING_CONTROLS_MARKUP = `
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
  </div>`;
/** The sliding part of the widget's shadow-DOM styles. */
export const SLIDING_STYLE = `
sliding-board { display: block; width: 100%; }
.controls, .player {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
}
.position {
  margin-inline-start: auto;
  color: var(--muted);
  font-size: 12px;
  font-variant-numeric: tabular-nums;
}
`;

export class SlidingPanel {
  #element;
  #host;
  #board;
  #player;
  #parts;
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
  /** The board as of the last tile move (for `move` details). */
  #lastBoard = [];
  /** The running solve: { controller, promise }, or null. */
  #solving = null;

  /** `root` holds the elements of SLIDING_BOARD_MARKUP and SLIDING_CONTROLS_MARKUP; `element` is the widget. */
  constructor(root, element, host) {
    this.#element = element;
    this.#host = host;
    this.#board = root.querySelector("sliding-board");
    const part = (selector) => root.querySelector(selector);
    this.#parts = {
      controls: part(".controls"),
      shuffle: part('[data-action="shuffle"]'),
      solve: part('[data-action="solve"]'),
      reset: part('[data-action="reset"]'),
      player: part(".player"),
      position: part(".position"),
    };
    this.#player = new SolutionPlayer(this.#parts.player, this.#board);
    this.#player.movesPerSecond = this.#speed;

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
      this.#host.emit("solved", { moves: event.detail.moveCount, source });
    });
    this.#renderControls();
  }

  /** The inner <sliding-board>. */
  get board() {
    return this.#board;
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
      moves: this.#board.moveCount,
    };
  }

  /** Applies the sliding attributes; an invalid one is reported and leaves its part as it was. */
  update() {
    this.#host.apply(["controls"], () => {
      this.#controls = parseControls(this.#element.getAttribute("controls"), CONTROLS);
      this.#renderControls();
    });
    this.#host.apply(["speed"], () => {
      this.#speed = parseSpeed(this.#element.getAttribute("speed"));
      this.#player.movesPerSecond = this.#speed;
    });
    let puzzleChanged = false;
    const key = this.#attributeKey();
    this.#host.apply(PUZZLE_ATTRIBUTES, () => {
      // Unchanged attributes (or changed back to those of the board shown) keep the board as it is.
      if (key === this.#puzzleKey) return;
      const puzzle = this.#puzzleFromAttributes();
      this.#puzzleKey = key;
      this.#setPuzzle(puzzle, { fromAttributes: true });
      puzzleChanged = true;
    });
    this.#applySolver();
    this.#host.apply(["model"], () => checkModel(this.#element));

    const autoplay = this.#element.hasAttribute("autoplay");
    const autoplayAdded = autoplay && !this.#autoplayApplied;
    this.#autoplayApplied = autoplay;
    if (puzzleChanged) this.#preparePatternDatabases();
    if (autoplay && (puzzleChanged || autoplayAdded)) this.#autoplay();
  }

  /** Leaves the sliding puzzle for another one: its solve and playback stop, its parts hide. */
  hide() {
    this.cancel();
    this.#player.pause();
    this.#player.clear();
    this.#board.hidden = true;
    this.#parts.controls.hidden = true;
    this.#parts.player.hidden = true;
    // Coming back to a sliding puzzle builds it again.
    this.#puzzleKey = null;
  }

  /** Back from another puzzle: the buttons as the controls attribute asks (the board shows with its puzzle). */
  show() {
    this.#renderControls();
  }

  /** The widget left the page: any solve and playback stop. */
  stop() {
    this.cancel();
    this.#player.pause();
  }

  /** Shuffles from the goal; returns "exact" or "random-walk" (see Puzzle.shuffle). */
  shuffle(difficulty = DEFAULT_DIFFICULTY) {
    const current = this.#loadedPuzzle();
    const puzzle = copyAtGoal(this.#host.api, current);
    const { mode } = shufflePuzzle(puzzle, Number(difficulty));
    this.#setPuzzle(puzzle);
    return mode;
  }

  /** Shows `start` (and `goal`, default: the current goal) as parsed by Puzzle.parse; throws its Error. */
  setState(start, goal) {
    const current = this.#loadedPuzzle();
    const goalText = goal === undefined || goal === null ? current.goalText() : String(goal);
    let puzzle;
    try {
      puzzle = this.#host.api.Puzzle.parse(current.rows, current.cols, String(start ?? ""), goalText, current.presetName);
    } catch (error) {
      throw new Error(errorMessage(error));
    }
    this.#setPuzzle(puzzle);
  }

  /** Solves from the current position and plays the solution; resolves to the `solution` detail. */
  solve() {
    if (this.#solving) return this.#solving.promise;
    const puzzle = this.#board.puzzle;
    if (!this.#host.api || !puzzle) {
      const problem = this.#host.attributeErrors()[0] ?? "the widget has not loaded yet";
      return Promise.reject(new Error(problem));
    }
    if (this.#solverError) return Promise.reject(new Error(this.#solverError));
    const algorithm = this.#solver ?? defaultAlgorithm(puzzle);
    const neural = NEURAL_SOLVERS.includes(algorithm);
    const heuristic = neural ? null : defaultHeuristic(puzzle, algorithm);
    const weight = algorithm === "wastar" ? DEFAULT_WEIGHT : undefined;
    const label = neural ? "DQN" : solverLabel(algorithm, heuristic, weight);
    if (puzzle.isSolved()) {
      const detail = { moves: [], tiles: [], length: 0, optimal: true, algorithm, heuristic: null, nodes: 0, ms: 0 };
      this.#host.setStatus("Already at the goal.");
      this.#host.emit("solution", detail);
      return Promise.resolve(detail);
    }
    if (!puzzle.isSolvable()) return Promise.reject(this.#failSolve("This start cannot reach the goal (the two have different parity)."));

    const controller = new AbortController();
    this.#player.clear();
    this.#host.setSolveError(null);
    const doing = neural ? "loading the model" : heuristic === "pdb" ? "preparing" : algorithm === "qlearning" ? "training" : "searching";
    this.#host.setStatus(`${label}: ${doing}…`);
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

  /** Stops a running solve (its promise rejects with SolveCancelled). */
  cancel() {
    const solving = this.#solving;
    if (!solving) return;
    // At once, so that a solve started right after this one (autoplay) is not taken for it.
    this.#solving = null;
    solving.controller.abort();
    this.#renderBusy();
    this.#host.setStatus("Cancelled.");
  }

  #attributeKey() {
    return JSON.stringify(PUZZLE_ATTRIBUTES.map((name) => this.#element.getAttribute(name)));
  }

  /** Checks the `solver` attribute against the board shown (the size decides what it may be). */
  #applySolver() {
    this.#host.apply(["solver"], () => {
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
    const api = this.#host.api;
    const value = (name) => (this.#element.getAttribute(name) ?? "").trim();
    const kind = value("puzzle").toLowerCase();
    if (kind && !PUZZLE_KINDS.includes(kind)) {
      const quoted = PUZZLE_KINDS.map((name) => `"${name}"`);
      const kinds = `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
      throw new AttributeError("puzzle", value("puzzle"), `unknown puzzle; choose ${kinds}`);
    }
    const preset = value("preset").toLowerCase();
    const size = parseSize(this.#element.getAttribute("size"));
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
      // Shuffled without building the exact-distance table, so that a widget starts without that
      // wait (shuffle() builds it when it is first called).
      shuffleByCheckedWalk(puzzle, DEFAULT_DIFFICULTY);
      return puzzle;
    } finally {
      base?.free();
    }
  }

  /** The `solver` attribute checked against the board shown (null: none given). */
  #solverFromAttributes() {
    const raw = this.#element.getAttribute("solver");
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

  #loadedPuzzle() {
    if (!this.#host.api) throw new Error("The widget has not loaded yet: wait for `await widget.ready`.");
    const puzzle = this.#board.puzzle;
    if (!puzzle) throw new Error(`The widget has no board: ${this.#host.attributeErrors().join(" ")}`);
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
    if (this.#host.api) this.#applySolver();
    this.#preparePatternDatabases();
    if (this.#element.hasAttribute("autoplay")) this.#autoplay();
  }

  #resetToStart() {
    const current = this.#loadedPuzzle();
    const puzzle = this.#host.api.Puzzle.parse(current.rows, current.cols, this.#startText, current.goalText(), current.presetName);
    this.#setPuzzle(puzzle);
  }

  #onBoardReset() {
    // A new puzzle, whoever set it (this widget, or the page through `board`).
    this.cancel();
    this.#lastBoard = Array.from(this.#board.puzzle?.board() ?? []);
    this.#host.setSolveError(null);
    this.#host.setStatus("");
  }

  /**
   * One `move` event per tile, with the board as it was after that tile moved and the board's count
   * of tile moves (every move, by anyone) as it stood then.
   */
  #onBoardMove({ moves, source, moveCount }) {
    const cols = this.#board.puzzle.cols;
    const board = this.#lastBoard;
    let count = moveCount - moves.length;
    if (source === "user") this.#host.setSolveError(null);
    for (const direction of moves) {
      const blank = board.indexOf(0);
      const [dr, dc] = BLANK_STEP[direction];
      const from = blank + dr * cols + dc;
      const tile = board[from];
      board[blank] = tile;
      board[from] = 0;
      count += 1;
      this.#host.emit("move", {
        direction,
        tile,
        board: [...board],
        moves: count,
        source: source === "user" ? "user" : "playback",
      });
    }
    // The Puzzle is the source of truth.
    this.#lastBoard = Array.from(this.#board.puzzle.board());
  }

  /** Pattern databases are prepared in the background when this widget may solve a 15-puzzle with them. */
  #preparePatternDatabases() {
    const puzzle = this.#board.puzzle;
    if (!puzzle || !usesPatternDatabases(puzzle) || this.#solverError) return;
    if (!this.#controls.has("solve") && !this.#element.hasAttribute("autoplay")) return;
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
    const { sharedLearnClient, shippedModelFor, shippedModels, solvesBoard } = await learnClient();
    const cancelled = () => {
      if (signal.aborted) throw new SolveCancelled();
    };
    let url;
    const attribute = (this.#element.getAttribute("model") ?? "").trim();
    if (attribute) {
      url = new URL(attribute, document.baseURI).href;
    } else {
      const models = await shippedModels();
      cancelled();
      const shipped = shippedModelFor(models, rows, cols, goal);
      if (!shipped) {
        const available = [...new Set(models.map((model) => `${model.size.replace("x", "×")} with the goal ${model.goal}`))].join("; ");
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
      this.#host.setStatus(`DQN: loading the model… ${Math.floor((100 * loaded) / total)}%`);
    };
    const loaded = await client.loadModelUrl(url, { puzzle: "sliding", onProgress: showDownload });
    cancelled();
    if (!solvesBoard(loaded.info, rows, cols, goal)) {
      throw new Error(
        `the model ${attribute || url} was trained for ${loaded.info.rows}×${loaded.info.cols} boards with the goal ` +
          `${loaded.info.goal}; this board is ${rows}×${cols} with the goal ${goalText}`,
      );
    }
    this.#host.setStatus("DQN: solving…");
    const result = await client.play(loaded.key, "sliding", { rows, cols, goal, cells });
    cancelled();
    return { ...result, ms: Math.round(result.ms) };
  }

  #showProgress(label, progress) {
    const seconds = (progress.ms / 1000).toFixed(1);
    this.#host.setStatus(
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
        ? solverLabel(result.algorithm, result.heuristic, result.weight)
        : label;
    const quality = detail.optimal
      ? "optimal"
      : result.algorithm === "wastar"
        ? `at most ${numberFormat.format(result.weight ?? DEFAULT_WEIGHT)} × optimal`
        : neural && detail.optimalLength !== null
          ? `${detail.length - detail.optimalLength} more than optimal`
          : "not proven optimal";
    const moves = `${detail.length} ${detail.length === 1 ? "move" : "moves"}`;
    this.#host.setStatus(`${used}: ${moves}, ${quality} · ${numberFormat.format(result.ms)} ms`);
    this.#host.emit("solution", detail);
    this.#player.load(detail.moves);
    this.#player.play();
    return detail;
  }

  /** Shows and reports a solve's failure; returns the Error to reject with. */
  #failSolve(message) {
    this.#host.setStatus("");
    this.#host.setSolveError(message);
    this.#host.emit("error", { message, attribute: null });
    return new Error(message);
  }

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
    this.#element.toggleAttribute("solving", busy);
    this.#board.locked = busy;
    this.#parts.solve.textContent = busy ? "Cancel" : "Solve";
    this.#parts.solve.classList.toggle("primary", !busy);
  }
}
