// The dust and SameGame modes of <puzzle-widget puzzle="dust"> and <puzzle-widget
// puzzle="samegame"> (widget.js imports this module only when a widget first shows one of them):
// the board (<samegame-board>), its buttons (new, undo, restart, hint, solve), the solver in
// samegame/solver-worker.js, and the attributes read into the panel's options.

import { errorMessage } from "../common/wasm.js";
import { GamePanel, cellName, parseStart } from "../common/game-panel.js";
import { parseControls, parseSeed, parseSpeed } from "../common/widget-attributes.js";
import "./board.js";
import { SameGameSolver, SolveCancelled } from "./solver-client.js";

/** The buttons of a dust or SameGame widget (all shown when `controls` is absent). */
const CONTROLS_CLUSTERS = ["new", "undo", "restart", "hint", "solve"];
/** Seconds a widget's solve searches: the exact solver's limit (dust), the search's budget (SameGame). */
const SOLVE_SECONDS = { dust: 10, samegame: 5 };
/** Attributes that only these widgets read (with `start`, which sliding puzzles read too). */
export const ATTRIBUTES_CLUSTERS = ["seed", "start"];

/** Board text from an attribute: rows separated by newlines, "/", "-" or ",". */
function boardText(value) {
  return value.replace(/[-/,]/g, "\n");
}

/**
 * The panel's options from the widget's attributes (`element`), starting from the `previous` valid
 * ones: each attribute is read inside `apply(attributes, action)`, which shows an AttributeError
 * and keeps the previous value of that attribute. The rules are the `puzzle` attribute's.
 */
export function optionsFromAttributes(element, previous, apply, api) {
  const rules = (element.getAttribute("puzzle") ?? "dust").trim().toLowerCase();
  const options = {
    rules,
    seed: previous?.seed ?? null,
    start: previous?.start ?? "",
    speed: previous?.speed ?? 4,
    controls: previous?.controls ?? new Set(CONTROLS_CLUSTERS),
  };
  apply(["seed"], () => (options.seed = parseSeed(element.getAttribute("seed"))));
  apply(["start"], () => (options.start = parseStart(element, (start) => api.SameGameHandle.fromText(rules, boardText(start)).free())));
  apply(["speed"], () => (options.speed = parseSpeed(element.getAttribute("speed"))));
  apply(["controls"], () => {
    options.controls = parseControls(element.getAttribute("controls"), CONTROLS_CLUSTERS);
  });
  return options;
}

/**
 * What <puzzle-widget puzzle="dust"> and puzzle="samegame" show: the board, its buttons and the
 * solver (a GamePanel, common/game-panel.js); this class owns the game.
 */
export class SameGamePanel extends GamePanel {
  #seed = null;
  #solver = new SameGameSolver();
  #playing = 0;
  #solving = false;

  constructor(container, host) {
    super(container, host, {
      name: "samegame",
      style: ".samegame samegame-board { display: block; width: 100%; }",
      buttons: [["new", "New"], ["undo", "Undo"], ["restart", "Restart"], ["hint", "Hint"], ["solve", "Solve", { primary: true }]],
      clicks: {
        new: () => this.newGame(Math.floor(Math.random() * 2 ** 32)),
        undo: () => this.undo(),
        restart: () => this.restart(),
        solve: () => (this.#solving || this.#playing ? this.pause() : this.solve().catch(() => {})),
      },
      // The board's own events, renamed as the widget's.
      events: [["samegame-move", "move"], ["samegame-over", "over"]],
      // A hint or a search's result speaks of the position it was found on: a click of the
      // player's, an undo or a restart makes it stale (the solver's own clicks play what it said).
      onEvent: (type, event) => {
        if (type === "move" && event.detail.source !== "solver") this.setStatus("");
        if (type === "over") this.setStatus(this.#endText(event.detail));
      },
    });
  }

  /** Applies options (from optionsFromAttributes); a change of board starts a new game. */
  configure(options) {
    // A start board comes before the seed; New then draws random boards.
    if (this.takeOptions(options, (o) => [o.rules, o.seed, o.start])) this.newGame(options.start ? null : options.seed);
    this.showControls(CONTROLS_CLUSTERS);
  }

  /** A new game: seeded with `seed`, else the `start` board, else the `seed` attribute's, else a random one. */
  newGame(seed = null) {
    this.pause();
    const options = this.options;
    let game;
    if (seed === null && options.start) {
      game = this.api.SameGameHandle.fromText(options.rules, boardText(options.start));
      this.#seed = null;
    } else {
      this.#seed = seed ?? options.seed ?? Math.floor(Math.random() * 2 ** 32);
      game = new this.api.SameGameHandle(options.rules, this.#seed);
    }
    this.board.game = game;
    this.showError(null);
    this.setStatus("");
  }

  /** Shows a board text (see SameGameHandle.fromText); throws its Error and keeps the game when invalid. */
  setBoard(text) {
    const game = this.api.SameGameHandle.fromText(this.options.rules, boardText(String(text)));
    this.pause();
    this.board.game = game;
    this.#seed = null;
    this.setStatus("");
  }

  undo() {
    if (this.#solving || this.#playing) return false;
    return this.board.undo("user");
  }

  restart() {
    if (this.#solving || this.#playing) return;
    this.board.restart("user");
    this.setStatus("");
  }

  /** Resolves to the hint ({ cell, group, clicksLeft, optimal, lineScore, method }, ringed), or null. */
  async hint() {
    const game = this.board.game;
    try {
      const found = game.hint();
      this.board.showHint(found);
      if (found) {
        const where = cellName(found.cell, game.width);
        this.setStatus(
          found.method === "greedy"
            ? `Click ${where}: it leaves the fewest groups.`
            : game.rules === "dust"
              ? `Click ${where}: ${found.clicksLeft} clicks from here${found.optimal ? " (the fewest)" : ""}.`
              : `Click ${where}: a short search scores ${found.lineScore} more.`,
        );
      }
      return found;
    } catch (error) {
      this.showError(errorMessage(error));
      throw error;
    }
  }

  /**
   * Searches from the board shown (the exact solver for dust, NRPA for SameGame) in the solver
   * worker, then plays what it found at `speed` clicks a second. Resolves to { cells, optimal?,
   * score? } once the search is done (the playing goes on); rejects with its Error, or
   * SolveCancelled on pause().
   */
  async solve() {
    const game = this.board.game;
    if (!game || game.isOver || this.#solving || this.#playing) throw new Error("Nothing to solve now.");
    const rules = game.rules;
    const seconds = SOLVE_SECONDS[rules];
    this.#solving = true;
    this.board.locked = true;
    this.buttons.solve.textContent = "Stop";
    this.showError(null);
    let found;
    try {
      if (rules === "dust") {
        this.setStatus("Searching…");
        found = await this.#solver.exact(rules, game.toText(), seconds, ({ depth, best }) => this.setStatus(`Searching: at least ${depth} clicks, best found ${best}…`));
        this.setStatus(`${found.cells.length} clicks${found.optimal ? ", the fewest" : ` (best found in ${seconds} s)`}.`);
      } else {
        this.setStatus(`Searching for ${seconds} s…`);
        found = await this.#solver.search(rules, game.toText(), "nrpa", seconds, Math.floor(Math.random() * 2 ** 32), ({ best }) =>
          this.setStatus(`Searching for ${seconds} s: best game so far ${best} points…`),
        );
        this.setStatus(`Best game found: ${found.score} more points${found.cleared ? ", board cleared" : ""}.`);
      }
    } catch (error) {
      this.#solving = false;
      this.pause();
      if (!(error instanceof SolveCancelled)) this.showError(errorMessage(error));
      throw error;
    }
    this.#solving = false;
    this.#play(found.cells);
    return found;
  }

  #play(cells) {
    let next = 0;
    const tick = async () => {
      if (next >= cells.length || !this.#playing) {
        this.pause();
        return;
      }
      try {
        this.board.click(cells[next], "solver");
      } catch (error) {
        this.pause();
        this.showError(errorMessage(error));
        return;
      }
      next += 1;
      // The last click ends the playing at once: Undo works on the board it leaves.
      if (next >= cells.length) {
        this.pause();
        return;
      }
      // Slow playback lets each click's animation finish; fast playback overlaps them.
      if (this.options.speed <= 4) await this.board.settled;
      if (this.#playing) this.#playing = setTimeout(tick, 1000 / this.options.speed);
    };
    this.#playing = setTimeout(tick, 0);
  }

  /** Stops a solve (its promise rejects with SolveCancelled) or the playing of its answer. */
  pause() {
    clearTimeout(this.#playing);
    this.#playing = 0;
    if (this.#solver.busy) this.#solver.cancel();
    this.#solving = false;
    this.board.locked = false;
    this.buttons.solve.textContent = "Solve";
  }

  /** Plays the solver (as solve()); resolves once it has started searching. */
  play() {
    this.solve().catch(() => {});
    return Promise.resolve();
  }

  #endText({ clicks, score, cleared, piles }) {
    if (this.board.game.rules === "samegame") {
      return cleared ? `Cleared! Score ${score} in ${clicks} clicks.` : `No groups left: score ${score}, ${piles} piles left.`;
    }
    return `Cleared in ${clicks} clicks.`;
  }

  get state() {
    const game = this.board.game;
    if (!game) return null;
    return {
      puzzle: game.rules,
      width: game.width,
      height: game.height,
      cells: Array.from(game.cells()),
      clicks: game.clicks,
      score: game.score,
      over: game.isOver,
      cleared: game.isCleared,
      text: game.toText(),
      startText: game.startText(),
      seed: this.#seed,
      solving: this.#solving,
      playing: Boolean(this.#playing),
    };
  }

  stop() {
    this.pause();
    this.#solver.dispose();
  }
}
