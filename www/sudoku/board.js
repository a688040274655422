// Sudoku in the browser: the board view <sudoku-board>. The rules, the solvers and the hint live
// in Rust (src/env/sudoku/, through the SudokuGame handle of src/web/sudoku.rs); this file draws the
// grid, keeps the player's pencil marks and the undo history, and turns clicks and keys into moves.
//
// <sudoku-board>: self-contained (its own shadow DOM and styles; sizes in px and em, never rem).
//   board.game = g          hand over a SudokuGame handle (the board owns it and frees the previous);
//                           pencil marks, history, hint and timer start afresh
//   board.game              the handle shown (null before the first)
//   board.selected          the selected cell (a number; setting it selects)
//   board.pencil            true (attribute `pencil`): digits typed or pressed go in as pencil marks
//   board.place(digit, cell = selected, source = "program")   a digit (0 clears); in pencil mode
//                           a mark is toggled instead. Placing a digit clears that cell's marks and
//                           the digit from its peers' marks
//   board.write(digit, cell, source)   a program's move (a model playing): as place(), but
//                           pencil mode and the lock do not apply
//   board.mark(digit, cell = selected, source)   toggles a pencil mark of an empty cell
//   board.erase(cell = selected, source)          clears the player's digit, else the cell's marks
//   board.fillCandidates()  every empty cell's marks become its candidates (from the digits shown)
//   board.reveal(cell = selected, source)   writes the solution's digit in `cell` (a wrong digit
//                           of the player's replaced; marks cleared as place() clears them);
//                           pencil mode does not apply. Returns whether the cell changed
//   board.revealSolution(source)   every cell not yet right gets the solution's digit (one move)
//   board.undo(), board.redo(), board.canUndo, board.canRedo   every move above is one step
//                           (a solved grid takes no more moves, undo included)
//   board.marks             the pencil marks, one bit mask a cell (bit d for digit d)
//   board.showHint(steps, { counted = true, select = true })   highlights what SudokuGame.hint's
//                           steps use (their units, cells, the digits they place and the pencil
//                           marks they remove, where the player has them) until the next move;
//                           selects the cell to fill (select) and counts one hint (counted: false
//                           for a further step of a hint already counted, or the same one redrawn)
//   board.showMistakes(cells)  marks those cells wrong until the next move
//   board.seconds           the timer: from the game's start until it is solved
//   board.help              the help this game had: { hints, revealed (cells), solution (true once
//                           revealed whole), written (digits a program wrote) }; board.assisted
//                           is true when any of them is
//   board.locked            while true (attribute `locked`), a person's input is ignored
//   board.carryOn({ seconds, help, marks })   right after `game` is set to a game shown before
//                           (the page reloaded): the timer goes on from `seconds`, and the help
//                           and the pencil marks are what they were
// Input: click a cell to select it, then a digit on the pad or the keyboard. Keys: arrows move,
// 1–9 place, Shift+digit (or P to switch pencil mode) writes pencil marks, Backspace, Delete or 0
// clear, Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes.
// Attributes reflected for styling and tests: status (playing, solved).
// Events (bubbling, composed):
//   sudoku-move    { action: "digit" | "mark" | "erase" | "candidates" | "reveal" | "undo" | "redo",
//                    cell, digit, source } (revealSolution's: cell null, digit 0)
//   sudoku-solved  { seconds, source, help } (help as board.help, when the last digit went in;
//                  cancelable: a page that says it in its own status cancels it, and the board's
//                  live region does not say it again)

import { GameClock, attachBoardShadow, defineBoard, describeBoard, fireEvent, replaceGame } from "../common/board-element.js";

const STYLE = `
  :host { display: inline-block; font: 15px/1.3 system-ui, sans-serif; color: #1d2433;
    /* The board rings its grid when focused (below): a page's own :focus-visible ring would be drawn
       round each of its bar, grid and pad (important: a host's rule wins over the page's so). */
    outline: none !important;
    --given: #1d2433; --entered: #2554c7; --line: #1d2433; --thin: #b5bccb; --cell-bg: #fff;
    --selected: #bcd3ff; --peer: #eef2fa; --same: #d5e3ff; --conflict: #c81e1e; --hint: #fdefbf; --hint-cell: #9333ea; }
  :host([hidden]) { display: none; }
  :host(:focus-visible) .grid { outline: 3px solid #f59e0b; outline-offset: 3px; }
  .frame { display: flex; flex-direction: column; gap: 8px; width: 100%; max-width: var(--board-width, 468px); }
  .bar { display: flex; align-items: center; justify-content: space-between; gap: 8px; font-size: 14px; }
  .timer { font: 600 15px/1 ui-monospace, monospace; }
  .mode { font-size: 13px; color: #5b6175; }
  .grid { display: grid; width: 100%; aspect-ratio: 1; border: 2px solid var(--line); box-sizing: border-box;
    user-select: none; -webkit-user-select: none; touch-action: manipulation; container-type: inline-size;
    background: var(--cell-bg); }
  .cell { all: unset; box-sizing: border-box; position: relative; display: grid; place-items: center; cursor: pointer;
    border-right: 1px solid var(--thin); border-bottom: 1px solid var(--thin); background: var(--cell-bg);
    color: var(--entered); font: 500 calc(62cqi / var(--n)) / 1 system-ui, sans-serif; min-width: 0; min-height: 0; }
  .cell.box-right { border-right: 2px solid var(--line); }
  .cell.box-bottom { border-bottom: 2px solid var(--line); }
  .cell.edge-right { border-right: 0; }
  .cell.edge-bottom { border-bottom: 0; }
  .cell.given { color: var(--given); font-weight: 700; }
  .cell.peer { background: var(--peer); }
  .cell.hint-unit { background: var(--hint); }
  .cell.same { background: var(--same); }
  .cell.selected { background: var(--selected); }
  .cell.hint-cell { box-shadow: inset 0 0 0 3px var(--hint-cell); }
  .cell.hint-target { box-shadow: inset 0 0 0 3px #16a34a; }
  .cell.conflict { color: var(--conflict); }
  .cell.conflict::after { content: ""; position: absolute; inset: 3px; border: 2px dashed var(--conflict); border-radius: 4px; }
  .cell.wrong { color: var(--conflict); text-decoration: line-through; }
  .marks { display: grid; width: 100%; height: 100%; padding: 1px; box-sizing: border-box;
    grid-template-columns: repeat(var(--mark-cols), 1fr); grid-template-rows: repeat(var(--mark-rows), 1fr);
    font: 500 max(11px, calc(27cqi / var(--n))) / 1 system-ui, sans-serif; color: #5b6175; }
  .marks span { display: grid; place-items: center; border-radius: 3px; }
  .marks span.same { background: #2554c7; color: #fff; }
  .marks span.removed { color: var(--conflict); text-decoration: line-through; font-weight: 700; }
  /* Once solved, "Solved in 0:13" takes the pad's place under the grid (a solved grid takes no more
     moves): it never covers a cell, and the page keeps its height. */
  .under { display: grid; }
  .under > * { grid-area: 1 / 1; }
  .solved { display: grid; place-items: center; }
  .solved[hidden] { display: none; }
  .solved span { background: rgb(22 163 74 / 0.92); color: #fff; font: 700 22px/1.3 system-ui, sans-serif;
    padding: 10px 18px; border-radius: 12px; text-align: center; animation: pop 320ms cubic-bezier(0.2, 0.9, 0.3, 1.3); }
  .solved small { display: block; font-size: 15px; font-weight: 600; }
  @keyframes pop { from { transform: scale(0.6); opacity: 0; } }
  @media (prefers-reduced-motion: reduce) { .solved span { animation: none; } }
  .pad { display: flex; flex-direction: column; gap: 6px; }
  .pad.covered { visibility: hidden; }
  .pad .digits, .pad .tools { display: grid; grid-template-columns: repeat(var(--columns), 1fr); gap: 6px; }
  .pad button { all: unset; box-sizing: border-box; text-align: center; padding: 8px 0; border-radius: 8px; cursor: pointer;
    border: 1px solid #c5cbd8; background: #f6f7fa; font: 600 18px/1.2 system-ui, sans-serif; color: inherit; }
  .pad button.tool { font-size: 14px; }
  .pad button:hover { background: #fff; }
  .pad button:focus-visible { outline: 3px solid #2563eb; outline-offset: 1px; }
  .pad button.same { background: #d5e3ff; }
  .pad button[aria-pressed="true"] { background: #2554c7; color: #fff; border-color: #2554c7; }
  .pad button:disabled { opacity: 0.4; cursor: default; }
  :host([locked]) .grid { cursor: progress; }
  @media (prefers-color-scheme: dark) {
    :host { color: #e6e9ef; --given: #e6e9ef; --entered: #8fb3ff; --line: #c9ced8; --thin: #4a5366; --cell-bg: #1f2430;
      --selected: #3a4f80; --peer: #262d3b; --same: #33446b; --conflict: #ff6b61; --hint: #4a3f1c; }
    .pad button { background: #2b3240; border-color: #454e60; }
    .pad button:hover { background: #3a4252; }
    .pad button.same { background: var(--same); border-color: #4d6199; }
    .marks { color: #a2a8c0; }
  }
`;

/** "m:ss" (or "h:mm:ss"). */
export function clock(seconds) {
  const s = seconds % 60;
  const m = Math.floor(seconds / 60) % 60;
  const h = Math.floor(seconds / 3600);
  const two = (x) => String(x).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** "1 hint", "3 hints". */
function count(n, thing) {
  return `${n} ${thing}${n === 1 ? "" : "s"}`;
}

/** The help a game had (board.help) in words: "with 3 hints · 2 cells revealed", "solution revealed"; "" for none. */
export function helpText(help) {
  const parts = [];
  if (help.hints > 0) parts.push(`with ${count(help.hints, "hint")}`);
  if (help.solution) parts.push("solution revealed");
  else if (help.revealed > 0) parts.push(`${count(help.revealed, "cell")} revealed`);
  if (help.written > 0) parts.push(`${count(help.written, "digit")} by a program`);
  return parts.join(" · ");
}

/** What the grid says once solved: "Solved in 0:13", and the help it had ("Solved in 0:13 · with 3 hints"). */
export function solvedText(seconds, help) {
  return [`Solved in ${clock(seconds)}`, helpText(help)].filter(Boolean).join(" · ");
}

/** A game's help before any: board.help's shape. */
function noHelp() {
  return { hints: 0, revealed: 0, solution: false, written: 0 };
}

/** Whether `help` (board.help) holds any help at all. */
export function isAssisted(help) {
  return helpText(help) !== "";
}

/** The digits of a mask, ascending. */
export function digitsOf(mask) {
  const digits = [];
  for (let d = 1; d <= 9; d++) if (mask & (1 << d)) digits.push(d);
  return digits;
}

/** The cells sharing a row, column or box with `cell` (not itself): Shape::peers of src/env/sudoku/grid.rs. */
function peersOf(cell, size, boxRows, boxCols) {
  const row = Math.floor(cell / size);
  const col = cell % size;
  const box = (r, c) => Math.floor(r / boxRows) * (size / boxCols) + Math.floor(c / boxCols);
  const peers = [];
  for (let other = 0; other < size * size; other++) {
    const [r, c] = [Math.floor(other / size), other % size];
    if (other !== cell && (r === row || c === col || box(r, c) === box(row, col))) peers.push(other);
  }
  return peers;
}

export class SudokuBoard extends HTMLElement {
  static observedAttributes = ["pencil"];
  #game = null;
  #parts;
  #buttons = [];
  #padButtons = [];
  #peers = [];
  #marks = new Uint16Array(0);
  #givens = new Uint8Array(0);
  #undo = [];
  #redo = [];
  #selected = 0;
  #hint = null;
  #mistakes = new Set();
  /** The help this game had (board.help). */
  #help = noHelp();
  #clock = new GameClock(() => this.#drawBar());
  /** Whether write() is placing a program's digit (pencil mode and the lock do not apply). */
  #writing = false;

  constructor() {
    super();
    this.#parts = attachBoardShadow(this, {
      style: STYLE,
      markup: `
      <div class="frame" part="frame">
        <div class="bar" part="bar">
          <span class="timer" part="timer" title="Time" role="timer" aria-label="Time">0:00</span>
          <span class="mode" part="mode"></span>
        </div>
        <div class="grid" part="grid" role="grid" aria-label="Board"></div>
        <div class="under">
          <div class="pad" part="pad"><div class="digits"></div><div class="tools"></div></div>
          <div class="solved" part="solved" hidden><span></span></div>
        </div>
      </div>`,
      parts: { timer: ".timer", mode: ".mode", grid: ".grid", solved: ".solved", pad: ".pad" },
    });
    this.#parts.grid.addEventListener("click", (event) => {
      const button = event.target.closest?.(".cell");
      if (!button) return;
      this.selected = Number(button.dataset.cell);
      this.focus({ preventScroll: true });
    });
    this.#parts.pad.addEventListener("click", (event) => this.#onPad(event));
    this.addEventListener("keydown", (event) => this.#onKeyDown(event));
  }

  connectedCallback() {
    describeBoard(this, {
      kind: "Sudoku board",
      label: "Sudoku",
      description: "Arrow keys move, digits place, Shift and a digit or P for pencil marks, Backspace clears, Control Z undoes, Control Y redoes.",
    });
    this.#clock.resume();
  }

  disconnectedCallback() {
    this.#clock.suspend();
  }

  attributeChangedCallback() {
    this.#drawBar();
    this.#drawPad();
  }

  get game() {
    return this.#game;
  }

  set game(game) {
    this.#game = replaceGame(this.#game, game);
    this.#undo = [];
    this.#redo = [];
    this.#hint = null;
    this.#mistakes = new Set();
    this.#help = noHelp();
    this.#selected = 0;
    this.#clock.reset();
    if (game) {
      const n = game.size;
      this.#marks = new Uint16Array(n * n);
      this.#givens = game.givens();
      this.#peers = Array.from({ length: n * n }, (_, cell) => peersOf(cell, n, game.boxRows, game.boxCols));
      this.#clock.start();
      if (game.isSolved()) this.#clock.stop();
    }
    this.#build();
    this.#draw();
  }

  get selected() {
    return this.#selected;
  }

  set selected(cell) {
    const cells = this.#buttons.length;
    if (!Number.isInteger(cell) || cell < 0 || cell >= cells) return;
    this.#selected = cell;
    this.#draw();
  }

  get marks() {
    return Array.from(this.#marks);
  }

  get canUndo() {
    return this.#undo.length > 0;
  }

  get canRedo() {
    return this.#redo.length > 0;
  }

  get solved() {
    return Boolean(this.#game?.isSolved());
  }

  /** Seconds on the timer. */
  get seconds() {
    return this.#clock.seconds;
  }

  /** The help this game had so far (a copy): hints shown, cells revealed, the whole solution revealed, digits a program wrote. */
  get help() {
    return { ...this.#help };
  }

  /** Carries on a game shown before (see the module comment); values that do not fit are left out. */
  carryOn({ seconds = 0, help = {}, marks = null } = {}) {
    const game = this.#game;
    if (!game) return;
    const count = (value) => (Number.isSafeInteger(value) && value >= 0 ? value : 0);
    this.#help = { hints: count(help.hints), revealed: count(help.revealed), solution: help.solution === true, written: count(help.written) };
    const digitBits = ((1 << (game.size + 1)) - 1) & ~1;
    if (Array.isArray(marks) && marks.length === this.#marks.length) this.#marks = Uint16Array.from(marks, (mask) => (Number.isInteger(mask) ? mask & digitBits : 0));
    this.#clock.reset();
    this.#clock.start(count(seconds));
    if (game.isSolved()) this.#clock.stop();
    this.#draw();
  }

  /** Whether the game had any help (a hint, a reveal, a program's digit). */
  get assisted() {
    return isAssisted(this.#help);
  }

  /**
   * Writes `digit` (0 clears) into `cell` as a program's move (a model playing the board): pencil
   * mode and the lock do not apply. One step of the history, as place(); false when nothing changed.
   */
  write(digit, cell, source = "program") {
    this.#writing = true;
    try {
      return this.place(digit, cell, source);
    } finally {
      this.#writing = false;
    }
  }

  /** Places `digit` (0 clears) in `cell`, or toggles its mark in pencil mode; false when nothing changed. */
  place(digit, cell = this.#selected, source = "program") {
    if (this.pencil && digit !== 0 && !this.#writing) return this.mark(digit, cell, source);
    const game = this.#game;
    if (!this.#playable(cell) || digit < 0 || digit > game.size) return false;
    if (digit === 0) return this.erase(cell, source);
    const before = this.#snapshot();
    if (!game.set(cell, digit) && this.#marks[cell] === 0) return false;
    this.#marks[cell] = 0;
    for (const peer of this.#peers[cell]) this.#marks[peer] &= ~(1 << digit);
    // A program's digit is help (counted before the move, which may solve the grid).
    if (this.#writing) this.#help.written++;
    this.#afterMove(before, { action: "digit", cell, digit, source });
    return true;
  }

  /** Toggles pencil mark `digit` of an empty `cell`; false when the cell holds a digit. */
  mark(digit, cell = this.#selected, source = "program") {
    const game = this.#game;
    if (!this.#playable(cell) || digit < 1 || digit > game.size || game.cells()[cell] !== 0) return false;
    const before = this.#snapshot();
    this.#marks[cell] ^= 1 << digit;
    this.#afterMove(before, { action: "mark", cell, digit, source });
    return true;
  }

  /** Clears the player's digit in `cell`, or else its pencil marks; false when there was nothing. */
  erase(cell = this.#selected, source = "program") {
    const game = this.#game;
    if (!this.#playable(cell)) return false;
    const before = this.#snapshot();
    if (game.cells()[cell] !== 0) game.set(cell, 0);
    else if (this.#marks[cell] !== 0) this.#marks[cell] = 0;
    else return false;
    this.#afterMove(before, { action: "erase", cell, digit: 0, source });
    return true;
  }

  /** Every empty cell's pencil marks become its candidates (one step of the history). */
  fillCandidates(source = "program") {
    const game = this.#game;
    if (!game || game.isSolved()) return false;
    const before = this.#snapshot();
    this.#marks = Uint16Array.from(game.candidates());
    this.#afterMove(before, { action: "candidates", cell: null, digit: 0, source });
    return true;
  }

  /**
   * Writes the solution's digit in `cell` (a given or a right digit stays; a wrong one is
   * replaced) as one move, clearing marks as place() does; pencil mode does not apply. Counted as
   * help; false when nothing changed.
   */
  reveal(cell = this.#selected, source = "program") {
    return this.#reveal([cell], source, false);
  }

  /** Writes the solution's digit in every cell not yet right (one move): the grid is then solved, and its help says so. */
  revealSolution(source = "program") {
    const cells = Array.from({ length: this.#buttons.length }, (_, cell) => cell);
    return this.#reveal(cells, source, true);
  }

  undo(source = "program") {
    return this.#travel(this.#undo, this.#redo, "undo", source);
  }

  redo(source = "program") {
    return this.#travel(this.#redo, this.#undo, "redo", source);
  }

  /**
   * Highlights the cells, units, placements and eliminations of a hint's steps (SudokuGame.hint):
   * a hint counts as help unless `counted` is false (a further step of one already counted); the
   * cell to fill is selected unless `select` is false.
   */
  showHint(steps, { counted = true, select = true } = {}) {
    if (!steps || steps.length === 0) {
      this.#hint = null;
    } else {
      const hint = { units: new Set(), cells: new Set(), targets: new Set(), removed: new Map() };
      for (const step of steps) {
        for (const cells of step.unitCells) for (const cell of cells) hint.units.add(cell);
        for (const cell of step.cells) hint.cells.add(cell);
        for (const [cell] of step.placements) hint.targets.add(cell);
        for (const [cell, digit] of step.eliminations) hint.removed.set(cell, (hint.removed.get(cell) ?? 0) | (1 << digit));
      }
      this.#hint = hint;
      if (counted) this.#help.hints++;
      const placed = steps.at(-1).placements[0];
      if (placed && select) this.#selected = placed[0];
    }
    this.#draw();
  }

  /** Marks `cells` wrong (struck through) until the next move. */
  showMistakes(cells) {
    this.#mistakes = new Set(cells);
    this.#draw();
  }

  #playable(cell) {
    const game = this.#game;
    return Boolean(game) && (!this.locked || this.#writing) && !game.isSolved() && Number.isInteger(cell) && cell >= 0 &&
      cell < this.#buttons.length && this.#givens[cell] === 0;
  }

  /**
   * Writes the solution's digit in those of `cells` that are playable and not right yet, as one
   * move; `whole`: the whole solution was asked for (the move names no cell).
   */
  #reveal(cells, source, whole) {
    const game = this.#game;
    if (!game) return false;
    const solution = game.solution();
    const digits = game.cells();
    const wrong = cells.filter((cell) => this.#playable(cell) && digits[cell] !== solution[cell]);
    if (wrong.length === 0) return false;
    const before = this.#snapshot();
    for (const cell of wrong) {
      const digit = solution[cell];
      game.set(cell, digit);
      this.#marks[cell] = 0;
      for (const peer of this.#peers[cell]) this.#marks[peer] &= ~(1 << digit);
    }
    this.#help.revealed += wrong.length;
    if (whole) this.#help.solution = true;
    const [cell, digit] = whole ? [null, 0] : [wrong[0], solution[wrong[0]]];
    this.#afterMove(before, { action: "reveal", cell, digit, source });
    return true;
  }

  #snapshot() {
    return { digits: this.#game.cells(), marks: Uint16Array.from(this.#marks), selected: this.#selected };
  }

  #travel(from, to, action, source) {
    const game = this.#game;
    if (!game || this.locked || game.isSolved() || from.length === 0) return false;
    const target = from.pop();
    to.push(this.#snapshot());
    game.restore(target.digits);
    this.#marks = target.marks;
    this.#selected = target.selected;
    this.#settle({ action, cell: target.selected, digit: 0, source });
    return true;
  }

  #afterMove(before, detail) {
    this.#undo.push(before);
    this.#redo = [];
    this.#settle(detail);
  }

  #settle(detail) {
    const game = this.#game;
    this.#hint = null;
    this.#mistakes = new Set();
    const solved = game.isSolved();
    if (solved) this.#clock.stop();
    this.#draw();
    // A screen reader hears what a player's move did to its cell (the selection is drawn, not focused).
    if (detail.source === "user" && !solved && detail.cell !== null && detail.cell !== undefined) this.#say(this.#cellText(detail.cell));
    fireEvent(this, "sudoku-move", detail);
    // The end is said here unless the page says it itself (it cancels the event).
    if (solved && fireEvent(this, "sudoku-solved", { seconds: this.seconds, source: detail.source, help: this.help }, { cancelable: true })) {
      this.#say(`${solvedText(this.seconds, this.#help)}.`);
    }
  }

  #build() {
    const grid = this.#parts.grid;
    this.#buttons = [];
    grid.replaceChildren();
    const [digitPad, toolPad] = this.#parts.pad.children;
    digitPad.replaceChildren();
    toolPad.replaceChildren();
    this.#padButtons = [];
    const game = this.#game;
    if (!game) return;
    const { size: n, boxRows, boxCols } = game;
    grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    grid.style.gridTemplateRows = `repeat(${n}, 1fr)`;
    grid.style.setProperty("--n", String(n));
    grid.style.setProperty("--mark-cols", String(boxCols));
    grid.style.setProperty("--mark-rows", String(boxRows));
    for (let cell = 0; cell < n * n; cell++) {
      const [row, col] = [Math.floor(cell / n), cell % n];
      const button = document.createElement("button");
      button.type = "button";
      button.tabIndex = -1;
      button.setAttribute("role", "gridcell");
      button.dataset.cell = String(cell);
      const edges = [];
      if (col === n - 1) edges.push("edge-right");
      else if ((col + 1) % boxCols === 0) edges.push("box-right");
      if (row === n - 1) edges.push("edge-bottom");
      else if ((row + 1) % boxRows === 0) edges.push("box-bottom");
      button.dataset.edges = edges.join(" ");
      grid.append(button);
      this.#buttons.push(button);
    }
    digitPad.style.setProperty("--columns", String(n));
    toolPad.style.setProperty("--columns", "4");
    const add = (pad, label, action, title, className = "") => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.dataset.action = action;
      button.title = title;
      button.setAttribute("aria-label", title);
      if (className) button.className = className;
      pad.append(button);
      this.#padButtons.push(button);
      return button;
    };
    for (let d = 1; d <= n; d++) add(digitPad, String(d), `digit-${d}`, `${d}`);
    add(toolPad, "⌫ Clear", "erase", "Clear the cell (Backspace)", "tool");
    add(toolPad, "✎ Pencil", "pencil", "Pencil marks (P, or Shift and a digit)", "tool");
    add(toolPad, "↶ Undo", "undo", "Undo (Ctrl+Z)", "tool");
    add(toolPad, "↷ Redo", "redo", "Redo (Ctrl+Y)", "tool");
  }

  #drawBar() {
    this.#parts.timer.textContent = clock(this.seconds);
    this.#parts.mode.textContent = this.pencil ? "✎ pencil marks" : "";
  }

  #drawPad() {
    const game = this.#game;
    if (!game) return;
    const digits = game.cells();
    const selectedDigit = digits[this.#selected];
    const solved = game.isSolved();
    for (const button of this.#padButtons) {
      const action = button.dataset.action;
      if (action.startsWith("digit-")) {
        button.classList.toggle("same", Number(action.slice(6)) === selectedDigit);
        button.disabled = solved;
      } else if (action === "pencil") {
        button.setAttribute("aria-pressed", String(this.pencil));
        button.disabled = solved;
      } else if (action === "undo") button.disabled = solved || !this.canUndo;
      else if (action === "redo") button.disabled = solved || !this.canRedo;
      else button.disabled = solved;
    }
  }

  #draw() {
    const game = this.#game;
    if (!game || this.#buttons.length === 0) return;
    const digits = game.cells();
    const n = game.size;
    const conflicts = new Set(game.conflicts());
    const solved = game.isSolved();
    this.setAttribute("status", solved ? "solved" : "playing");
    const selected = this.#selected;
    const selectedDigit = digits[selected];
    const peers = new Set(this.#peers[selected]);
    const hint = this.#hint;
    for (let cell = 0; cell < digits.length; cell++) {
      const button = this.#buttons[cell];
      const digit = digits[cell];
      const classes = ["cell", button.dataset.edges];
      const given = this.#givens[cell] !== 0;
      if (given) classes.push("given");
      if (hint?.units.has(cell)) classes.push("hint-unit");
      if (peers.has(cell)) classes.push("peer");
      if (selectedDigit !== 0 && digit === selectedDigit) classes.push("same");
      if (cell === selected) classes.push("selected");
      if (hint?.cells.has(cell)) classes.push("hint-cell");
      if (hint?.targets.has(cell)) classes.push("hint-target");
      if (conflicts.has(cell)) classes.push("conflict");
      if (this.#mistakes.has(cell)) classes.push("wrong");
      button.className = classes.join(" ");
      const row = Math.floor(cell / n) + 1;
      const col = (cell % n) + 1;
      let label;
      if (digit !== 0) {
        button.replaceChildren(String(digit));
        label = `${digit}${given ? " (given)" : ""}${conflicts.has(cell) ? ", breaks a rule" : ""}`;
      } else {
        const mask = this.#marks[cell];
        const removed = hint?.removed.get(cell) ?? 0;
        const marks = document.createElement("span");
        marks.className = "marks";
        for (let d = 1; d <= n; d++) {
          const span = document.createElement("span");
          if (mask & (1 << d)) {
            span.textContent = String(d);
            if (d === selectedDigit) span.className = "same";
            if (removed & (1 << d)) span.className = "removed";
          }
          marks.append(span);
        }
        button.replaceChildren(marks);
        label = mask ? `empty, pencil marks ${digitsOf(mask).join(" ")}` : "empty";
      }
      button.setAttribute("aria-label", `row ${row}, column ${col}: ${label}`);
    }
    this.#parts.solved.hidden = !solved;
    this.#parts.pad.classList.toggle("covered", solved);
    // "Solved in 0:13", and under it the help the game had, if any.
    const helped = helpText(this.#help);
    const note = document.createElement("small");
    note.textContent = helped;
    this.#parts.solved.firstElementChild.replaceChildren(`Solved in ${clock(this.seconds)}`, ...(helped ? [note] : []));
    this.#drawBar();
    this.#drawPad();
  }

  #onPad(event) {
    const button = event.target.closest?.("button");
    if (!button || this.locked) return;
    const action = button.dataset.action;
    if (action.startsWith("digit-")) this.place(Number(action.slice(6)), this.#selected, "user");
    else if (action === "erase") this.erase(this.#selected, "user");
    else if (action === "pencil") this.pencil = !this.pencil;
    else if (action === "undo") this.undo("user");
    else if (action === "redo") this.redo("user");
  }

  /** Says `text` in the board's live region (read by screen readers only). */
  #say(text) {
    this.#parts.live.textContent = text;
  }

  /** The cell's name and what it holds, as its button is labelled: "row 2, column 5: 7". */
  #cellText(cell) {
    return this.#buttons[cell]?.getAttribute("aria-label") ?? "";
  }

  #onKeyDown(event) {
    const game = this.#game;
    if (!game || this.locked || event.altKey || event.metaKey) return;
    const n = game.size;
    const key = event.key;
    if (event.ctrlKey) {
      if (key === "z" || key === "Z") event.shiftKey ? this.redo("user") : this.undo("user");
      else if (key === "y" || key === "Y") this.redo("user");
      else return;
      event.preventDefault();
      return;
    }
    const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    // Shift+digit types a symbol ("!" for 1): the key's code says which digit it was.
    const digitCode = /^(?:Digit|Numpad)(\d)$/.exec(event.code ?? "");
    const digit = digitCode ? Number(digitCode[1]) : /^\d$/.test(key) ? Number(key) : null;
    if (key in moves) {
      const [dx, dy] = moves[key];
      const row = Math.min(n - 1, Math.max(0, Math.floor(this.#selected / n) + dy));
      const col = Math.min(n - 1, Math.max(0, (this.#selected % n) + dx));
      this.selected = row * n + col;
      this.#say(this.#cellText(this.#selected));
    } else if (digit !== null && digit >= 1 && digit <= n) {
      if (event.shiftKey) this.mark(digit, this.#selected, "user");
      else this.place(digit, this.#selected, "user");
    } else if (digit === 0 || key === "Backspace" || key === "Delete") {
      this.erase(this.#selected, "user");
    } else if (key === "p" || key === "P") {
      this.pencil = !this.pencil;
    } else {
      return;
    }
    event.preventDefault();
  }
}

defineBoard("sudoku-board", SudokuBoard, ["pencil", "locked"]);
