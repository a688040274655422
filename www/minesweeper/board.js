// Minesweeper in the browser: the board view <mines-board>. The rules and the solver live in Rust
// (src/env/minesweeper/, through the MinesGame handle of src/web/minesweeper.rs); this file draws
// what the game reports and turns clicks, long presses and keys into reveals, chords and flags.
//
// <mines-board>: self-contained (its own shadow DOM and styles; sizes in px and em, never rem).
//   board.game = g          hand over a MinesGame handle (the board owns it and frees the previous)
//   board.game              the handle shown (null before the first)
//   board.reveal(cell, source = "program")   reveal (or, on a revealed number, chord) like a click
//   board.flag(cell)        cycle the flag (and "?" with the question-marks attribute)
//   board.showHint(choice)  ring the cell of a hint ({ cell, reason, probability }); cleared by a move
//   board.overlay           true (attribute `overlay`): every covered cell shows the solver's mine
//                           probability as a colour (green safe … red mine) and, on hover or focus,
//                           as a number; redrawn after every move
//   board.locked            while true (attribute `locked`), a person's input is ignored
//   board.lastOverlayMs     how long the last overlay took (analysis and drawing), in ms
//   board.carryOn({ seconds })   after `game` is set to a game played on before (a reload): draws
//                           it, and its timer goes on from `seconds`
// Input: left click reveals, or chords on a number with as many flags around it; right click or a
// long press (half a second) flags; the arrow keys move the cursor, space or Enter reveals, F flags.
// The face button restarts (event mines-restart). The counter shows mines minus flags; the timer
// runs from the first reveal to the end. A won game shows every mine flagged and 0 mines left, as
// Windows Minesweeper does.
// Size: whole-pixel cells of 28 px that shrink down to 24 px (WCAG's smallest target) to fit the
// width the board is given; a board wider than that scrolls sideways inside it, and a line over
// it says which columns are in view.
// Attributes reflected for styling and tests: status (ready, playing, won, lost).

import { GameClock, attachBoardShadow, defineBoard, describeBoard, fireEvent, replaceGame } from "../common/board-element.js";
// Events (bubbling, composed):
//   mines-move     { action: "reveal" | "chord" | "flag", cell, revealed, exploded, status, source }
//   mines-won      { seconds, source }        mines-lost { cell, seconds, source }
//                  (both cancelable: a page that says the end in its own status cancels them, and
//                  the board's live region does not say it again)
//   mines-restart  {} the face was pressed: the host starts a new game

/** Cell codes of MinesGame.cells(): 0–8 revealed numbers, then these. */
export const COVERED = 9;
export const FLAGGED = 10;
export const MARKED = 11;
/** Cell sizes in px: what the board asks for, and the smallest it shrinks to before it scrolls. */
const CELL_MAX = 28;
const CELL_MIN = 24;
/** A press this long flags instead of revealing (touch screens). */
const LONG_PRESS_MS = 500;
/** Glyphs every system font has (emoji are missing on some). */
export const FLAG = "⚑";
export const MINE = "✹";
/** The face button by game status. */
export const FACES = { ready: "☺", playing: "☺", won: "☻", lost: "☹" };
/** The classic number colours. */
const NUMBER_COLOURS = ["", "#1b4fd8", "#17803d", "#c81e1e", "#1e1b8a", "#7a1c1c", "#0f7c7c", "#222", "#777"];

const STYLE = `
  :host { display: inline-block; max-width: 100%; font: 15px/1.3 system-ui, sans-serif; color: #1d2433; --cell: 28px;
    outline: none; }
  :host([hidden]) { display: none; }
  .frame { display: inline-flex; flex-direction: column; gap: 8px; padding: 10px; border-radius: 10px;
    background: #c9ced8; box-shadow: inset 0 0 0 1px #aab1bf; max-width: 100%; box-sizing: border-box; }
  .bar { display: flex; align-items: center; justify-content: space-between; gap: 12px; }
  .counter { font: 700 20px/1 ui-monospace, monospace; min-width: 3.2em; padding: 4px 6px; border-radius: 6px;
    background: #1d2433; color: #ff5a4f; text-align: center; }
  .face { font-size: 26px; line-height: 1; width: 40px; height: 40px; border-radius: 8px; border: 1px solid #8b93a3;
    background: #eef0f4; cursor: pointer; }
  .face:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .scroll { overflow: auto; max-width: 100%; }
  .grid { display: grid; gap: 1px; background: #8b93a3; border: 1px solid #8b93a3; user-select: none;
    -webkit-user-select: none; touch-action: manipulation; width: max-content; margin-inline: auto; }
  .cell { width: var(--cell); height: var(--cell); border: 0; padding: 0; margin: 0; font: 700 16px/1 system-ui, sans-serif;
    background: #e8ebf0; color: #1d2433; display: grid; place-items: center; position: relative; cursor: pointer; }
  .more { margin: 0; font-size: 13px; text-align: center; }
  .cell.covered { background: linear-gradient(#f6f7fa, #d5dae3); }
  .cell.covered:hover { background: #fff; }
  .cell.revealed { background: #f7f8fa; cursor: default; }
  .cell.exploded { background: #ff5a4f; }
  .cell.wrong::after { content: "✕"; position: absolute; color: #c81e1e; font-size: 20px; }
  .cell:focus-visible { outline: none; }
  .cell.cursor { outline: 3px solid #2563eb; outline-offset: -3px; z-index: 1; }
  .cell.hint { outline: 3px solid #9333ea; outline-offset: -3px; z-index: 2; }
  .cell[data-p] { background: var(--heat); }
  .cell.certain-safe { box-shadow: inset 0 0 0 3px #16a34a; }
  .cell.certain-mine { box-shadow: inset 0 0 0 3px #c81e1e; }
  .cell .p { display: none; position: absolute; inset: auto auto 100% 50%; transform: translateX(-50%); z-index: 3;
    background: #1d2433; color: #fff; font: 600 12px/1.2 system-ui, sans-serif; padding: 3px 6px; border-radius: 4px;
    white-space: nowrap; pointer-events: none; }
  .cell:hover .p, .cell:focus .p, .cell.cursor .p { display: block; }
  .timer { font: 700 20px/1 ui-monospace, monospace; min-width: 3.2em; padding: 4px 6px; border-radius: 6px;
    background: #1d2433; color: #ff5a4f; text-align: center; }
  :host([locked]) .grid { cursor: progress; }
  @media (prefers-color-scheme: dark) {
    :host { color: #e6e9ef; }
    .frame { background: #2b3240; box-shadow: inset 0 0 0 1px #454e60; }
    .face { background: #3a4252; border-color: #5b6477; color: #fff; }
    .grid { background: #454e60; border-color: #454e60; }
    .cell { background: #394152; color: #e6e9ef; }
    .cell.covered { background: linear-gradient(#5b6477, #465063); }
    .cell.covered:hover { background: #6b7589; }
    .cell.revealed { background: #252b36; }
  }
`;

/**
 * A mine probability as a background: green (0) through yellow to red (1), on a square-root scale
 * so that the odds where guesses are made (10–30%) look different.
 */
function heat(p) {
  const hue = Math.round(120 * (1 - Math.sqrt(p)));
  return `hsl(${hue} 70% ${p === 0 ? 60 : 62}%)`;
}

/** A probability for people: 0%, 100%, or one decimal. */
export function percent(p) {
  if (p === 0) return "0%";
  if (p === 1) return "100%";
  return `${(100 * p).toFixed(1)}%`;
}

export class MinesBoard extends HTMLElement {
  static observedAttributes = ["overlay"];
  #game = null;
  #parts;
  #buttons = [];
  #cursor = 0;
  #clock = new GameClock(() => this.#drawBar());
  #press = null;
  #hint = null;
  /** The solver's analysis of the position shown, kept until the next move (focus, hints and
   * toggling the overlay redraw without analysing again). */
  #analysis = null;
  lastOverlayMs = 0;

  constructor() {
    super();
    this.#parts = attachBoardShadow(this, {
      style: STYLE,
      markup: `
      <div class="frame" part="frame">
        <div class="bar" part="bar">
          <span class="counter" part="counter" title="Mines left (mines minus flags)" role="img" aria-label="Mines left">0</span>
          <button class="face" part="face" type="button" title="New game" aria-label="New game">☺</button>
          <span class="timer" part="timer" title="Seconds" role="timer" aria-label="Seconds">0</span>
        </div>
        <p class="more" part="more" hidden></p>
        <div class="scroll"><div class="grid" part="grid" role="grid" aria-label="Board"></div></div>
      </div>`,
      parts: { bar: ".bar", counter: ".counter", face: ".face", timer: ".timer", grid: ".grid", scroll: ".scroll", more: ".more" },
    });
    this.#parts.face.addEventListener("click", () => fireEvent(this, "mines-restart", {}));
    const grid = this.#parts.grid;
    grid.addEventListener("contextmenu", (event) => {
      event.preventDefault();
      const cell = this.#cellOf(event);
      if (cell !== null && !this.locked) this.flag(cell, "user");
    });
    grid.addEventListener("pointerdown", (event) => this.#onPointerDown(event));
    grid.addEventListener("pointerup", (event) => this.#onPointerUp(event));
    grid.addEventListener("pointercancel", () => this.#cancelPress());
    grid.addEventListener("pointerleave", () => this.#cancelPress());
    this.addEventListener("keydown", (event) => this.#onKeyDown(event));
    this.addEventListener("focus", () => this.#drawCells());
    this.addEventListener("blur", () => this.#drawCells());
    // The cells follow the room the board gets, watched on the bar: as wide as that room (where
    // it matters) and, unlike the grid's box, never resized by the cells, so that resizing them
    // cannot loop. The line over a board wider than its room follows the scrolling.
    new ResizeObserver(() => this.#fit()).observe(this.#parts.bar);
    this.#parts.scroll.addEventListener("scroll", () => this.#drawMore());
  }

  connectedCallback() {
    describeBoard(this, {
      kind: "Minesweeper board",
      label: "Minesweeper",
      description:
        "Arrow keys move, space reveals, F flags. Click reveals, right click or a long press flags; clicking a satisfied number reveals its other neighbours.",
    });
  }

  disconnectedCallback() {
    this.#clock.suspend();
  }

  attributeChangedCallback() {
    this.#drawCells();
  }

  get game() {
    return this.#game;
  }

  set game(game) {
    this.#game = replaceGame(this.#game, game);
    this.#analysis = null;
    this.#clock.reset();
    this.#hint = null;
    this.#cursor = 0;
    this.#build();
    this.#drawCells();
  }

  /** Seconds on the timer. */
  get seconds() {
    return this.#clock.seconds;
  }

  /**
   * Right after `game` is set to a game played on before (the page reloaded, its moves played
   * again on the handle): its cells are drawn, and its timer goes on from `seconds`.
   */
  carryOn({ seconds = 0 } = {}) {
    const game = this.#game;
    if (!game) return;
    this.#analysis = null;
    this.#clock.reset();
    if (game.status === "playing") this.#clock.start(Math.max(0, Number(seconds) || 0));
    this.#drawCells();
  }

  /** Reveals `cell`, or chords when it is a revealed number; returns the move's report (null if nothing could be done). */
  reveal(cell, source = "program") {
    const game = this.#game;
    if (!game || game.status === "won" || game.status === "lost") return null;
    const code = game.cells()[cell];
    if (code === FLAGGED) return null;
    const action = code <= 8 ? "chord" : "reveal";
    const report = action === "chord" ? game.chord(cell) : game.reveal(cell);
    if (action === "chord" && report.revealed.length === 0 && report.exploded == null) return null;
    this.#afterMove({ action, cell, ...report, source });
    return report;
  }

  /** Cycles the flag of a covered cell; returns its new code (null when the game is over). */
  flag(cell, source = "program") {
    const game = this.#game;
    if (!game || game.status === "won" || game.status === "lost") return null;
    const code = game.toggleFlag(cell, this.hasAttribute("question-marks"));
    this.#afterMove({ action: "flag", cell, revealed: [], exploded: null, status: game.status, source });
    return code;
  }

  /** Rings the cell of a solver hint until the next move. */
  showHint(choice) {
    this.#hint = choice ? choice.cell : null;
    this.#drawCells();
    if (choice) this.#reveal(choice.cell);
  }

  #afterMove(detail) {
    const game = this.#game;
    this.#hint = null;
    this.#analysis = null;
    if (detail.action !== "flag" && !this.#clock.started) this.#clock.start();
    if (game.status === "won" || game.status === "lost") this.#clock.stop();
    this.#drawCells();
    // A screen reader hears what a player's move did (the solver's own moves are not read out one
    // by one); the end is said below.
    if (detail.source === "user" && game.status === "playing") this.#say(this.#moveText(detail));
    fireEvent(this, "mines-move", detail);
    // The end is said here unless the page says it itself (it cancels the event).
    if (game.status === "won" && detail.action !== "flag") {
      if (fireEvent(this, "mines-won", { seconds: this.seconds, source: detail.source }, { cancelable: true })) this.#say(`Cleared in ${this.seconds} seconds.`);
    } else if (game.status === "lost" && detail.action !== "flag") {
      const lost = { cell: game.exploded, seconds: this.seconds, source: detail.source };
      if (fireEvent(this, "mines-lost", lost, { cancelable: true })) this.#say("A mine went off.");
    }
  }

  /** Says `text` in the board's live region (read by screen readers only). */
  #say(text) {
    this.#parts.live.textContent = text;
  }

  /** The cell's name and what it shows, as its button is labelled: "row 3, column 5: 2". */
  #cellText(cell) {
    return this.#buttons[cell]?.getAttribute("aria-label") ?? "";
  }

  /** What a player's move did, in words: the cell, and how many opened or how many mines are left. */
  #moveText({ action, cell, revealed = [] }) {
    const game = this.#game;
    if (action === "flag") return `${this.#cellText(cell)}. ${game.mines - game.flags} mines left.`;
    const opened = revealed.length > 1 ? `; ${revealed.length} cells opened` : "";
    return `${this.#cellText(cell)}${opened}.`;
  }

  #build() {
    const grid = this.#parts.grid;
    // First forget the old cells: removing a focused one fires blur, which redraws.
    this.#buttons = [];
    grid.replaceChildren();
    const game = this.#game;
    if (!game) return;
    const { width, height } = game;
    grid.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
    // The board asks for the room of CELL_MAX px cells (1 px lines between and around them) and
    // gets as much of it as its container has; #fit sizes the cells to what it got.
    this.#parts.scroll.style.width = `${width * (CELL_MAX + 1) + 1}px`;
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cell covered";
        button.tabIndex = -1;
        button.setAttribute("role", "gridcell");
        button.dataset.cell = String(row * width + col);
        grid.append(button);
        this.#buttons.push(button);
      }
    }
    this.#parts.scroll.scrollLeft = 0;
    this.#fit();
  }

  /** Sizes the cells to the board's room: the most that fit, from CELL_MIN px (then it scrolls) to CELL_MAX. */
  #fit() {
    const width = this.#game?.width;
    if (!width) return;
    const room = this.#parts.scroll.getBoundingClientRect().width;
    const cell = Math.max(CELL_MIN, Math.min(CELL_MAX, Math.floor((room - 1) / width) - 1));
    this.#parts.grid.style.setProperty("--cell", `${cell}px`);
    this.#drawMore();
  }

  /** Says which columns are in view when the board is wider than its room (hidden otherwise). */
  #drawMore() {
    const more = this.#parts.more;
    const scroll = this.#parts.scroll;
    const width = this.#game?.width ?? 0;
    if (width === 0 || scroll.scrollWidth <= scroll.clientWidth) {
      more.hidden = true;
      return;
    }
    const box = scroll.getBoundingClientRect();
    const shown = [];
    for (let col = 0; col < width; col++) {
      const cell = this.#buttons[col].getBoundingClientRect();
      if (cell.left >= box.left - 0.5 && cell.right <= box.left + scroll.clientWidth + 0.5) shown.push(col + 1);
    }
    const range = shown.length === 0 ? "No column" : `Columns ${shown[0]}–${shown.at(-1)} of ${width}`;
    more.textContent = `${range} in view: scroll the board sideways for the others.`;
    more.hidden = false;
  }

  #drawBar() {
    const game = this.#game;
    if (!game) return;
    // A won game shows every mine flagged (#drawCells), so none is left.
    const left = game.status === "won" ? 0 : game.mines - game.flags;
    this.#parts.counter.textContent = String(left);
    this.#parts.counter.setAttribute("aria-label", `${left} ${Math.abs(left) === 1 ? "mine" : "mines"} left`);
    this.#parts.timer.textContent = String(Math.min(999, this.seconds));
    this.#parts.face.textContent = FACES[game.status];
  }

  #drawCells() {
    const game = this.#game;
    if (!game || this.#buttons.length === 0) return;
    const started = performance.now();
    const codes = game.cells();
    if (codes.length !== this.#buttons.length) return;
    const status = game.status;
    this.setAttribute("status", status);
    const over = status === "won" || status === "lost";
    const mines = over ? game.mineMap() : null;
    const exploded = game.exploded;
    let analysis = null;
    if (this.overlay && !over && status !== "ready") {
      try {
        this.#analysis ??= game.analyse();
        analysis = this.#analysis;
      } catch {
        analysis = null; // flags never reach the solver; a contradiction cannot happen in a real game
      }
    }
    const { width } = game;
    for (let cell = 0; cell < codes.length; cell++) {
      const button = this.#buttons[cell];
      const code = codes[cell];
      const row = Math.floor(cell / width) + 1;
      const col = (cell % width) + 1;
      let text = "";
      let label;
      let className = "cell";
      if (code <= 8) {
        className += " revealed";
        text = code === 0 ? "" : String(code);
        button.style.color = NUMBER_COLOURS[code];
        label = code === 0 ? "empty" : `${code}`;
      } else {
        className += " covered";
        button.style.color = "";
        if (code === FLAGGED) {
          text = FLAG;
          label = "flagged";
        } else if (code === MARKED) {
          text = "?";
          label = "marked ?";
        } else {
          label = "covered";
        }
        if (mines) {
          if (mines[cell] && code !== FLAGGED && status === "won") {
            text = FLAG;
            label = "flagged";
          } else if (mines[cell] && code !== FLAGGED) {
            text = MINE;
            label = "mine";
          } else if (!mines[cell] && code === FLAGGED) {
            className += " wrong";
            label = "wrong flag";
          }
        }
      }
      if (cell === exploded) className += " exploded";
      if (cell === this.#cursor && this.matches(":focus")) className += " cursor";
      if (cell === this.#hint) className += " hint";
      button.replaceChildren(text);
      if (analysis && code > 8) {
        const p = analysis.probabilities[cell];
        button.dataset.p = String(p);
        button.style.setProperty("--heat", heat(p));
        if (analysis.safe.includes(cell)) className += " certain-safe";
        else if (p === 1) className += " certain-mine";
        const tip = document.createElement("span");
        tip.className = "p";
        tip.textContent = percent(p);
        button.append(tip);
        label += `, mine probability ${percent(p)}`;
      } else {
        delete button.dataset.p;
        button.style.removeProperty("--heat");
      }
      button.className = className;
      button.setAttribute("aria-label", `row ${row}, column ${col}: ${label}`);
    }
    this.#drawBar();
    if (analysis) this.lastOverlayMs = performance.now() - started;
  }

  /** Scrolls the board (and only the board) so that `cell` is in view. */
  #reveal(cell) {
    const button = this.#buttons[cell];
    const scroll = this.#parts.scroll;
    if (!button) return;
    const [b, s] = [button.getBoundingClientRect(), scroll.getBoundingClientRect()];
    if (b.left < s.left) scroll.scrollLeft -= s.left - b.left;
    else if (b.right > s.right) scroll.scrollLeft += b.right - s.right;
    if (b.top < s.top) scroll.scrollTop -= s.top - b.top;
    else if (b.bottom > s.bottom) scroll.scrollTop += b.bottom - s.bottom;
  }

  #cellOf(event) {
    const button = event.target.closest?.(".cell");
    return button ? Number(button.dataset.cell) : null;
  }

  #onPointerDown(event) {
    if (this.locked) return;
    const cell = this.#cellOf(event);
    if (cell === null) return;
    // The keyboard's cursor goes where the pointer pressed (a right click's flag too), so that one
    // ring shows where the keys act.
    if (this.#cursor !== cell) {
      this.#cursor = cell;
      this.#drawCells();
    }
    if (event.button !== 0) return;
    const timer = setTimeout(() => {
      this.#press = { cell, flagged: true, timer: 0 };
      this.flag(cell, "user");
    }, LONG_PRESS_MS);
    this.#press = { cell, flagged: false, timer };
  }

  #onPointerUp(event) {
    const press = this.#press;
    this.#press = null;
    if (!press) return;
    clearTimeout(press.timer);
    if (press.flagged || this.locked || event.button !== 0) return;
    const cell = this.#cellOf(event);
    if (cell === press.cell) this.reveal(cell, "user");
  }

  #cancelPress() {
    if (this.#press) clearTimeout(this.#press.timer);
    this.#press = null;
  }

  #onKeyDown(event) {
    const game = this.#game;
    if (!game || this.locked || event.altKey || event.ctrlKey || event.metaKey) return;
    const { width, height } = game;
    const row = Math.floor(this.#cursor / width);
    const col = this.#cursor % width;
    const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (event.key in moves) {
      const [dx, dy] = moves[event.key];
      const nc = Math.min(width - 1, Math.max(0, col + dx));
      const nr = Math.min(height - 1, Math.max(0, row + dy));
      this.#cursor = nr * width + nc;
      this.#drawCells();
      this.#reveal(this.#cursor);
      // The cursor is drawn, not focused: a screen reader hears where it went.
      this.#say(this.#cellText(this.#cursor));
    } else if (event.key === " " || event.key === "Enter") {
      this.reveal(this.#cursor, "user");
    } else if (event.key === "f" || event.key === "F") {
      this.flag(this.#cursor, "user");
    } else {
      return;
    }
    event.preventDefault();
  }
}

defineBoard("mines-board", MinesBoard, ["locked", "overlay"]);
