// The Minesweeper mode of <puzzle-widget puzzle="minesweeper"> (widget.js imports this module only
// when a widget first shows Minesweeper): the board, its buttons and the probability solver, and
// the Minesweeper attributes read into the panel's options.

import { errorMessage } from "../common/wasm.js";
import { GamePanel, cellName, parseStart } from "../common/game-panel.js";
import { AttributeError, DEFAULT_SPEED, parseControls, parseSeed, parseSpeed } from "../common/widget-attributes.js";
import { percent } from "./board.js";

/** The buttons of a Minesweeper widget, and those shown when `controls` is absent. */
const CONTROLS_MINES = ["new", "hint", "play", "overlay"];
const DEFAULT_CONTROLS_MINES = ["new", "hint", "play", "overlay"];
const LEVELS = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [30, 16, 99] };
const RULES = ["safe", "opening", "none"];
/** Attributes that only a Minesweeper widget reads: their errors go when the widget shows another puzzle. */
export const ATTRIBUTES_MINES = ["seed", "level", "width", "height", "mines", "first-click", "no-guess", "overlay", "question-marks"];

function parseSide(name, value, fallback) {
  if (value === null || value.trim() === "") return fallback;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new AttributeError(name, value, "a whole number");
  return n;
}

/**
 * The panel's options from the widget's attributes (`element`), starting from the `previous` valid
 * ones: each attribute is read inside `apply(attributes, action)`, which shows an AttributeError
 * and keeps the previous value of that attribute. The size is checked by the game itself.
 */
export function optionsFromAttributes(element, previous, apply, api) {
  const options = {
    layout: previous?.layout ?? LEVELS.beginner,
    rule: previous?.rule ?? "safe",
    seed: previous?.seed ?? null,
    start: previous?.start ?? "",
    noGuess: element.hasAttribute("no-guess"),
    overlay: element.hasAttribute("overlay"),
    questionMarks: element.hasAttribute("question-marks"),
    speed: previous?.speed ?? DEFAULT_SPEED,
    controls: previous?.controls ?? new Set(DEFAULT_CONTROLS_MINES),
    autoplay: element.hasAttribute("autoplay"),
  };
  apply(["first-click"], () => {
    const rule = (element.getAttribute("first-click") ?? "safe").trim().toLowerCase() || "safe";
    if (!RULES.includes(rule)) throw new AttributeError("first-click", element.getAttribute("first-click"), `the rule is one of ${RULES.join(", ")}`);
    options.rule = rule;
  });
  apply(["level", "width", "height", "mines"], () => {
    const level = (element.getAttribute("level") ?? "beginner").trim().toLowerCase() || "beginner";
    if (!(level in LEVELS)) throw new AttributeError("level", element.getAttribute("level"), `the level is one of ${Object.keys(LEVELS).join(", ")}`);
    const [w, h, m] = LEVELS[level];
    const layout = [
      parseSide("width", element.getAttribute("width"), w),
      parseSide("height", element.getAttribute("height"), h),
      parseSide("mines", element.getAttribute("mines"), m),
    ];
    try {
      new api.MinesGame(...layout, options.rule, 0, false).free();
    } catch (error) {
      const attribute = element.hasAttribute("mines") ? "mines" : element.hasAttribute("width") ? "width" : "level";
      throw new AttributeError(attribute, element.getAttribute(attribute) ?? level, errorMessage(error));
    }
    options.layout = layout;
  });
  apply(["seed"], () => (options.seed = parseSeed(element.getAttribute("seed"))));
  apply(["start"], () => (options.start = parseStart(element, (start) => api.MinesGame.fromText(start).free())));
  apply(["speed"], () => (options.speed = parseSpeed(element.getAttribute("speed"))));
  apply(["controls"], () => {
    options.controls = parseControls(element.getAttribute("controls"), CONTROLS_MINES, DEFAULT_CONTROLS_MINES);
  });
  return options;
}

/**
 * What <puzzle-widget puzzle="minesweeper"> shows: the board, its buttons and the solver (a
 * GamePanel, common/game-panel.js); this class owns the game.
 */
export class MinesPanel extends GamePanel {
  #seed = 0;
  #playing = 0;

  constructor(container, host) {
    super(container, host, {
      name: "mines",
      style: `
.mines mines-board { display: block; width: fit-content; max-width: 100%; margin-inline: auto; }
.mines .mines-controls label { display: inline-flex; align-items: center; gap: 4px; font-size: 13px; }
`,
      buttons: [["new", "New game"], ["hint", "Hint"], ["play", "Solver plays", { primary: true }]],
      moreControls: `<label part="overlay"><input type="checkbox" data-action="overlay" /> Odds</label>`,
      clicks: { play: () => (this.#playing ? this.pause() : this.play()) },
      // The board's own events, renamed as the widget's.
      events: [["mines-move", "move"], ["mines-won", "won"], ["mines-lost", "lost"]],
      // A hint speaks of the position it was asked on: a move makes it stale. The end is said in
      // the status line (a live region), so the board does not say it again.
      onEvent: (type, event) => {
        if (type === "move") return this.setStatus("");
        event.preventDefault();
        this.setStatus(type === "won" ? `Cleared in ${event.detail.seconds} seconds.` : "A mine went off.");
      },
    });
    this.buttons.overlay.addEventListener("change", () => (this.board.overlay = this.buttons.overlay.checked));
    this.board.addEventListener("mines-restart", (event) => {
      event.stopPropagation();
      this.newGame();
    });
  }

  /** Applies options (from optionsFromAttributes); a change of board starts a new game. */
  configure(options) {
    if (this.takeOptions(options, (o) => [o.layout, o.rule, o.seed, o.start, o.noGuess])) this.newGame(options.seed);
    this.board.overlay = options.overlay;
    this.buttons.overlay.checked = options.overlay;
    this.board.toggleAttribute("question-marks", options.questionMarks);
    this.showControls(["new", "hint", "play"]);
    this.buttons.overlay.parentElement.hidden = !options.controls.has("overlay");
    if (options.autoplay && !this.#playing && this.board.game?.status !== "won" && this.board.game?.status !== "lost") this.play();
  }

  /** A new game: seeded with `seed`, else the `start` board, else a random seed. */
  newGame(seed = null) {
    this.pause();
    const options = this.options;
    let game;
    if (seed === null && options.start) {
      game = this.api.MinesGame.fromText(options.start);
    } else {
      this.#seed = seed ?? options.seed ?? Math.floor(Math.random() * 2 ** 32);
      game = new this.api.MinesGame(...options.layout, options.rule, this.#seed, options.noGuess);
    }
    this.board.game = game;
    this.showError(null);
    this.setStatus("");
    if (options.autoplay) this.play();
  }

  /** Shows a board text (see MinesGame.fromText); throws its Error and keeps the game when invalid. */
  setBoard(text) {
    const game = this.api.MinesGame.fromText(String(text));
    this.pause();
    this.board.game = game;
    this.setStatus("");
  }

  /** Resolves to the solver's next cell ({ cell, reason, probability, ... }, also ringed), or null. */
  async hint() {
    const game = this.board.game;
    try {
      const choice = game.hint();
      this.board.showHint(choice);
      if (choice) {
        const where = cellName(choice.cell, game.width);
        this.setStatus(choice.reason === "certain" ? `${where} is certainly safe.` : `Best guess: ${where}, ${percent(choice.probability)} chance of a mine.`);
      }
      return choice;
    } catch (error) {
      this.showError(errorMessage(error));
      throw error;
    }
  }

  /** The solver plays, `speed` moves a second, until the game ends or pause(). */
  async play() {
    if (this.#playing) return;
    this.buttons.play.textContent = "Stop";
    this.board.locked = true;
    const tick = () => {
      const game = this.board.game;
      if (!game || game.status === "won" || game.status === "lost") {
        this.pause();
        return;
      }
      const choice = game.hint();
      if (!choice) {
        this.pause();
        return;
      }
      this.board.reveal(choice.cell, "solver");
      this.#playing = setTimeout(tick, 1000 / this.options.speed);
    };
    this.#playing = setTimeout(tick, 0);
  }

  /** The solver stops. */
  pause() {
    clearTimeout(this.#playing);
    this.#playing = 0;
    this.buttons.play.textContent = "Solver plays";
    this.board.locked = false;
  }

  get state() {
    const game = this.board.game;
    if (!game) return null;
    return {
      puzzle: "minesweeper",
      width: game.width,
      height: game.height,
      mines: game.mines,
      flags: game.flags,
      status: game.status,
      cells: Array.from(game.cells()),
      seed: this.#seed,
      playing: Boolean(this.#playing),
    };
  }

  stop() {
    this.pause();
  }
}
