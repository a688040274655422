// The Sudoku mode of <puzzle-widget puzzle="sudoku"> (widget.js imports this module only when a
// widget first shows Sudoku): the grid with its digit pad (pencil marks, undo, redo), the hint,
// candidates and check buttons, and the Sudoku attributes read into the panel's options.

import { errorMessage } from "../common/wasm.js";
import { GamePanel, parseStart } from "../common/game-panel.js";
import { AttributeError, parseControls, parseSeed } from "../common/widget-attributes.js";
import { LEVELS_BY_SIZE } from "./levels.js";
import { helpText } from "./board.js";

/** The buttons of a Sudoku widget, and those shown when `controls` is absent. */
const CONTROLS_SUDOKU = ["new", "hint", "candidates", "check"];
/** Attributes that only a Sudoku widget reads (with `size` and `start`, which sliding puzzles read too). */
export const ATTRIBUTES_SUDOKU = ["size", "start", "difficulty", "seed", "pencil"];

/**
 * The panel's options from the widget's attributes (`element`), starting from the `previous` valid
 * ones: each attribute is read inside `apply(attributes, action)`, which shows an AttributeError
 * and keeps the previous value of that attribute.
 */
export function optionsFromAttributes(element, previous, apply, api) {
  const options = {
    size: previous?.size ?? 9,
    difficulty: previous?.difficulty ?? "easy",
    seed: previous?.seed ?? null,
    start: previous?.start ?? "",
    pencil: element.hasAttribute("pencil"),
    controls: previous?.controls ?? new Set(CONTROLS_SUDOKU),
  };
  apply(["size", "difficulty"], () => {
    const sizeText = (element.getAttribute("size") ?? "9").trim() || "9";
    if (!(sizeText in LEVELS_BY_SIZE)) throw new AttributeError("size", element.getAttribute("size"), "a Sudoku is 4, 6 or 9 cells a side");
    const size = Number(sizeText);
    const difficulty = (element.getAttribute("difficulty") ?? "easy").trim().toLowerCase() || "easy";
    const levels = LEVELS_BY_SIZE[size];
    if (!levels.includes(difficulty)) {
      const reason = `a ${size} × ${size} Sudoku is one of ${levels.join(", ")}`;
      throw new AttributeError("difficulty", element.getAttribute("difficulty"), reason);
    }
    options.size = size;
    options.difficulty = difficulty;
  });
  apply(["seed"], () => (options.seed = parseSeed(element.getAttribute("seed"))));
  apply(["start"], () => (options.start = parseStart(element, (start) => api.SudokuGame.parse(start).free())));
  apply(["controls"], () => {
    options.controls = parseControls(element.getAttribute("controls"), CONTROLS_SUDOKU);
  });
  return options;
}

/**
 * What <puzzle-widget puzzle="sudoku"> shows: the grid, its pad and the help buttons (a
 * GamePanel, common/game-panel.js); this class owns the game.
 */
export class SudokuPanel extends GamePanel {
  constructor(container, host) {
    super(container, host, {
      name: "sudoku",
      style: ".sudoku sudoku-board { display: block; width: 100%; }",
      buttons: [["new", "New"], ["hint", "Hint", { primary: true }], ["candidates", "Candidates"], ["check", "Check"]],
      clicks: { candidates: () => this.board.fillCandidates("user"), check: () => this.check() },
      // The board's own events, renamed as the widget's.
      events: [["sudoku-move", "move"], ["sudoku-solved", "solved"]],
      // The end is said in the status line (a live region), so the board does not say it again.
      onEvent: (type, event) => {
        if (type === "solved") event.preventDefault();
        this.setStatus(type === "solved" ? this.#solvedText() : "");
      },
    });
  }

  /** Applies options (from optionsFromAttributes); a change of puzzle starts a new game. */
  configure(options) {
    if (this.takeOptions(options, (o) => [o.size, o.difficulty, o.seed, o.start])) this.newGame(options.seed);
    this.board.pencil = options.pencil;
    this.showControls(CONTROLS_SUDOKU);
  }

  /** A new game: the `start` puzzle (unless a seed is given), else a generated one seeded with `seed` (random when null). */
  newGame(seed = null) {
    const options = this.options;
    let game;
    try {
      if (seed === null && options.start) {
        game = this.api.SudokuGame.parse(options.start);
      } else {
        game = this.api.SudokuGame.generate(options.size, options.difficulty, seed ?? Math.floor(Math.random() * 2 ** 32));
      }
    } catch (error) {
      this.showError(errorMessage(error));
      return;
    }
    this.board.game = game;
    this.showError(null);
    this.setStatus(this.#ratingText());
  }

  /** Shows a puzzle text (see SudokuGame.parse); throws its Error and keeps the game when invalid. */
  setBoard(text) {
    const game = this.api.SudokuGame.parse(String(text));
    this.board.game = game;
    this.showError(null);
    this.setStatus(this.#ratingText());
  }

  /** "Solved in 45 s.", and the help the game had, as the grid says it: "Solved in 45 s · with 2 hints." */
  #solvedText() {
    const helped = helpText(this.board.help);
    return `Solved in ${this.board.seconds} s${helped ? ` · ${helped}` : ""}.`;
  }

  #ratingText() {
    const rating = this.board.game.rate();
    return `Rating ${rating.rating.toFixed(1)}${rating.difficulty ? ` (${rating.difficulty})` : ""}`;
  }

  /** Resolves to the hint's steps (SudokuGame.hint; also highlighted and named in the status line). */
  async hint() {
    const game = this.board.game;
    try {
      if (game.conflicts().length > 0) throw new Error("equal digits share a row, column or box: take one out first");
      const steps = game.isSolved() ? [] : game.hint();
      this.board.showHint(steps);
      const last = steps.at(-1);
      this.setStatus(last ? last.explanation : game.isSolved() ? "Solved." : "None of the solver's techniques applies.");
      this.showError(null);
      return steps;
    } catch (error) {
      this.board.showMistakes(game.mistakes());
      this.showError(errorMessage(error));
      throw error;
    }
  }

  /** Strikes through the player's digits that are not the solution's; returns their cells. */
  check() {
    const wrong = Array.from(this.board.game.mistakes());
    this.board.showMistakes(wrong);
    this.setStatus(wrong.length === 0 ? "No mistakes so far." : `${wrong.length} wrong (struck through).`);
    return wrong;
  }

  get state() {
    const game = this.board.game;
    if (!game) return null;
    return {
      puzzle: "sudoku",
      size: game.size,
      givens: Array.from(game.givens()),
      cells: Array.from(game.cells()),
      marks: this.board.marks,
      puzzleText: game.puzzleText(),
      text: game.text(),
      solved: game.isSolved(),
      seconds: this.board.seconds,
      seed: game.seed ?? null,
    };
  }

  /** A Sudoku widget has no player: its help is hint(). */
  async play() {
    throw new Error("a Sudoku widget has no player: hint() shows the next step");
  }

  pause() {}

  stop() {}
}
