// <sliding-board>: shows one puzzlelab Puzzle handle and lets a person play it by clicking or
// tapping tiles, swiping, or with the arrow keys / WASD while the board has focus.
//
// Self-contained on purpose (its own shadow DOM, styles and state, no page globals): the
// embeddable <puzzle-widget> (widget.js) composes it, and the page shows it through that widget.
// Sizes are in px or em, never rem, so that a host page's root font size cannot scale it.
//
// Public API
//   board.puzzle = p         hand over a Puzzle (the board owns it from then on and frees the
//                            previous one); resets the move counter and redraws
//   board.puzzle             the Puzzle being shown (null before the first one)
//   board.refresh()          redraw after the Puzzle was changed from outside (e.g. setBoard)
//   board.moveBlank(dir, { takesBack })  move the blank "up" | "down" | "left" | "right" as a
//                            program would (the solution player; `takesBack`: the move takes the
//                            previous one back, and the counter goes down); animates, returns
//                            false into a wall
//   board.moveCount          tile moves since the puzzle was set, by anyone: the person, or a
//                            program such as the solution player (whose steps back take moves
//                            back: on a replay it counts from the solution's start again); the
//                            counter under the board shows it
//   board.carryOn({ moveCount })   after the Puzzle was moved on from outside (a reload's moves
//                            played again): redraws, and the counter shows `moveCount`
//   board.solved             whether the current board is the goal
//   board.locked             while true (attribute `locked`), input from the person is ignored
//   board.slideMs            duration of one tile slide in milliseconds
//   board.highlightTiles     labels of the tiles marked as the current sub-goal (class
//                            "subgoal" on their .tile elements and on their cells in the goal
//                            preview): the solution player sets it while local value iteration's
//                            solution plays; [] for none
// Attributes reflected for styling and tests: solved, locked, preset (the Puzzle's presetName),
// rows, cols, moves.
// Custom properties it inherits: --board-max-height (default 70vh): the tallest the board grows.
// Events (bubbling, composed):
//   board-move   detail { moves: [blank directions], source: "user" | "program", moveCount, solved }
//   board-solved detail { source, moveCount } when a move turns the board into the goal
//   board-reset  detail { puzzle } when a new puzzle is shown or the board is redrawn

import { attachBoardShadow, defineBoard, describeBoard, fireEvent, replaceGame, setAriaDisabled } from "../common/board-element.js";

/** Deltas of a blank move as [row, column]; mirrors the direction names of `Puzzle.moveBlank`. */
const BLANK_STEP = {
  up: [-1, 0],
  down: [1, 0],
  left: [0, -1],
  right: [0, 1],
};

/** The blank move that undoes each blank move. */
const OPPOSITE_DIRECTION = { up: "down", down: "up", left: "right", right: "left" };

/**
 * Keys name the direction the TILE moves, so the blank moves the opposite way: ArrowUp slides
 * the tile below the gap up, which is the blank moving "down".
 */
const BLANK_MOVE_FOR_KEY = {
  ArrowUp: "down",
  ArrowDown: "up",
  ArrowLeft: "right",
  ArrowRight: "left",
  w: "down",
  s: "up",
  a: "right",
  d: "left",
};

/** Finger travel (CSS pixels) that counts as a swipe rather than a tap. */
const SWIPE_MIN_DISTANCE = 24;

const STYLE = `
:host {
  --tile-gap: clamp(4px, 1.2cqi, 8px);
  --board-background: #d8dbe8;
  --tile-background: linear-gradient(160deg, #6f7cf5 0%, #4f46e5 100%);
  --tile-color: #ffffff;
  --tile-shadow: 0 2px 0 rgb(0 0 0 / 0.18), 0 6px 14px rgb(49 46 129 / 0.25);
  --sun-background: linear-gradient(160deg, #fcd34d 0%, #f59e0b 100%);
  --sun-color: #7c2d12;
  --moon-background: linear-gradient(160deg, #64748b 0%, #1e293b 100%);
  --moon-color: #e0e7ff;
  --focus-color: #f59e0b;
  --solved-color: #16a34a;
  --subgoal-background: linear-gradient(160deg, #fcd34d 0%, #f59e0b 100%);
  --subgoal-color: #451a03;
  --subgoal-ring: #b45309;
  --slide-ms: 140ms;
  display: block;
  /* The frame draws the focus ring; !important so a page's global :focus-visible rule does not add a second one. */
  outline: none !important;
  container-type: inline-size;
  -webkit-tap-highlight-color: transparent;
}
:host([hidden]) { display: none; }
@media (prefers-color-scheme: dark) {
  :host { --board-background: #252a3d; }
}
.frame {
  position: relative;
  box-sizing: border-box;
  aspect-ratio: var(--cols) / var(--rows);
  width: min(100%, calc(var(--board-max-height, 70vh) * var(--cols) / var(--rows)));
  margin-inline: auto;
  padding: calc(var(--tile-gap) / 2);
  border-radius: 18px;
  background: var(--board-background);
  box-shadow: inset 0 2px 6px rgb(0 0 0 / 0.12);
  touch-action: none;
  user-select: none;
  transition: box-shadow 200ms ease;
}
:host(:focus-visible) .frame {
  outline: 3px solid var(--focus-color);
  outline-offset: 4px;
}
:host([locked]) .grid { cursor: progress; }
:host([locked]) .tile.movable { cursor: inherit; }
:host([solved]) .frame {
  box-shadow: inset 0 2px 6px rgb(0 0 0 / 0.12), 0 0 0 3px var(--solved-color);
}
.grid {
  position: relative;
  width: 100%;
  height: 100%;
  container-type: size;
}
.tile {
  all: unset;
  position: absolute;
  top: 0;
  left: 0;
  box-sizing: border-box;
  width: calc(100% / var(--cols));
  height: calc(100% / var(--rows));
  padding: calc(var(--tile-gap) / 2);
  transform: translate(calc(var(--c) * 100%), calc(var(--r) * 100%));
  transition: transform var(--slide-ms) cubic-bezier(0.2, 0.7, 0.3, 1);
  cursor: default;
}
.tile.movable { cursor: pointer; }
.face {
  display: flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  height: 100%;
  box-sizing: border-box;
  border-radius: 12%;
  background: var(--tile-background);
  color: var(--tile-color);
  box-shadow: var(--tile-shadow);
  font: 700 calc(min(100cqw / var(--cols), 100cqh / var(--rows)) * 0.42) / 1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  font-variant-numeric: tabular-nums;
  transition: filter 120ms ease, transform 120ms ease;
}
.tile.movable:hover .face { filter: brightness(1.08); }
.tile:active .face { transform: scale(0.97); }
.tile:focus-visible .face { outline: 3px solid var(--focus-color); outline-offset: -3px; }
.tile[data-label="1"].symbol .face { background: var(--sun-background); color: var(--sun-color); }
.tile[data-label="2"].symbol .face { background: var(--moon-background); color: var(--moon-color); }
.tile.subgoal .face {
  background: var(--subgoal-background);
  color: var(--subgoal-color);
  box-shadow: inset 0 0 0 3px var(--subgoal-ring), var(--tile-shadow);
}
.symbol .face { font-size: calc(min(100cqw / var(--cols), 100cqh / var(--rows)) * 0.55); }
/* Under the board: the move counter, the "Solved!" banner between it and the goal preview (in its
   own column, so that it never covers a tile and the bar keeps its place while it is hidden). */
.bar {
  display: grid;
  grid-template-columns: auto minmax(0, 1fr) auto;
  align-items: center;
  gap: 1.05em;
  margin-top: 0.79em;
  font: 500 0.95em/1.3 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: inherit;
}
.moves { grid-column: 1; }
.moves strong { font-variant-numeric: tabular-nums; }
.banner {
  grid-column: 2;
  justify-self: center;
  padding: 0.2em 0.8em;
  border-radius: 1em;
  background: var(--solved-color);
  color: #fff;
  font: 700 clamp(13px, 3.6cqi, 20px) / 1.1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  text-align: center;
  box-shadow: 0 4px 12px rgb(22 163 74 / 0.3);
  animation: pop 320ms cubic-bezier(0.2, 0.9, 0.3, 1.3);
}
.banner[hidden] { display: none; }
@keyframes pop {
  from { transform: scale(0.6); opacity: 0; }
}
.goal {
  grid-column: 3;
  display: flex;
  align-items: center;
  gap: 0.53em;
  opacity: 0.85;
}
.goal-grid {
  display: grid;
  grid-template-columns: repeat(var(--cols), 1.21em);
  grid-auto-rows: 1.21em;
  gap: 2px;
}
.goal-grid span {
  display: flex;
  align-items: center;
  justify-content: center;
  border-radius: 3px;
  background: var(--board-background);
  font-size: 0.74em;
  font-weight: 700;
}
.goal-grid span.tile-cell { background: #6f7cf5; color: #fff; }
.goal-grid span.tile-cell.sun { background: #f59e0b; color: #7c2d12; }
.goal-grid span.tile-cell.moon { background: #334155; color: #e0e7ff; }
.goal-grid span.tile-cell.subgoal { background: #f59e0b; color: #451a03; }
@media (prefers-reduced-motion: reduce) {
  .tile, .face { transition: none; }
  .banner { animation: none; }
}
`;

class SlidingBoard extends HTMLElement {
  #puzzle = null;
  /** The tile element sitting in each cell (null for the blank): element identity per tile. */
  #cellElements = [];
  /** Labels as this element last drew them, row-major (0 = blank). */
  #labels = [];
  #symbols = [];
  #labelNames = [];
  #moveCount = 0;
  /** Labels marked as the current sub-goal (see highlightTiles). */
  #highlight = new Set();
  #swipeStart = null;
  #ignoreClicksUntil = 0;
  #grid;
  #banner;
  #movesOutput;
  #goalGrid;
  #liveRegion;

  constructor() {
    super();
    ({
      grid: this.#grid,
      banner: this.#banner,
      moves: this.#movesOutput,
      goalGrid: this.#goalGrid,
      live: this.#liveRegion,
    } = attachBoardShadow(this, {
      style: STYLE,
      markup: `
      <div class="frame" part="frame">
        <div class="grid" part="grid"></div>
      </div>
      <div class="bar" part="bar">
        <span class="moves" part="moves">Moves: <strong>0</strong></span>
        <div class="banner" part="banner" hidden>Solved!</div>
        <span class="goal" part="goal" aria-hidden="true">Goal <span class="goal-grid"></span></span>
      </div>`,
      parts: { grid: ".grid", banner: ".banner", moves: ".moves strong", goalGrid: ".goal-grid" },
    }));

    this.addEventListener("keydown", (event) => this.#onKeyDown(event));
    this.#grid.addEventListener("click", (event) => this.#onClick(event));
    this.#grid.addEventListener("pointerdown", (event) => this.#onPointerDown(event));
    this.#grid.addEventListener("pointerup", (event) => this.#onPointerUp(event));
    this.#grid.addEventListener("pointercancel", () => (this.#swipeStart = null));
  }

  connectedCallback() {
    describeBoard(this, {
      kind: "sliding puzzle",
      description: "Arrow keys or W A S D slide a tile into the gap; click or tap a tile in the gap's row or column to slide it.",
    });
    this.#updateLabel();
  }

  get puzzle() {
    return this.#puzzle;
  }

  set puzzle(puzzle) {
    this.#puzzle = replaceGame(this.#puzzle, puzzle);
    this.#moveCount = 0;
    this.refresh();
  }

  get moveCount() {
    return this.#moveCount;
  }

  /** See the module comment: the Puzzle moved on from outside, and the counter carried on. */
  carryOn({ moveCount = 0 } = {}) {
    this.#moveCount = Math.max(0, Math.floor(Number(moveCount)) || 0);
    this.refresh();
  }

  get solved() {
    return Boolean(this.#puzzle?.isSolved());
  }

  get slideMs() {
    return Number.parseFloat(getComputedStyle(this).getPropertyValue("--slide-ms")) || 0;
  }

  set slideMs(milliseconds) {
    this.style.setProperty("--slide-ms", `${Math.max(0, Math.round(milliseconds))}ms`);
  }

  /** Labels of the tiles marked as the current sub-goal, in increasing order. */
  get highlightTiles() {
    return [...this.#highlight].sort((a, b) => a - b);
  }

  /** Marks these labels' tiles (and their goal cells in the preview) as the current sub-goal. */
  set highlightTiles(labels) {
    const next = new Set(Array.from(labels ?? [], Number));
    if (next.size === this.#highlight.size && [...next].every((label) => this.#highlight.has(label))) return;
    this.#highlight = next;
    this.#drawHighlight();
  }

  #drawHighlight() {
    for (const tile of this.#cellElements) tile?.classList.toggle("subgoal", this.#highlight.has(Number(tile.dataset.label)));
    for (const cell of this.#goalGrid.children) {
      cell.classList.toggle("subgoal", cell.dataset.label !== undefined && this.#highlight.has(Number(cell.dataset.label)));
    }
  }

  /** Redraws everything from the Puzzle (new puzzle, or its board was set from outside). */
  refresh() {
    const puzzle = this.#puzzle;
    this.#grid.replaceChildren();
    this.#cellElements = [];
    this.#labels = [];
    this.#banner.hidden = true;
    this.#liveRegion.textContent = "";
    this.#movesOutput.textContent = String(this.#moveCount);
    this.setAttribute("moves", String(this.#moveCount));
    if (!puzzle) return;

    const { rows, cols } = puzzle;
    this.#symbols = puzzle.symbols();
    this.#labelNames = this.#symbols.map((_, label) => (label === 0 ? "blank" : puzzle.labelName(label)));
    this.style.setProperty("--rows", rows);
    this.style.setProperty("--cols", cols);
    this.setAttribute("rows", rows);
    this.setAttribute("cols", cols);
    if (puzzle.presetName) this.setAttribute("preset", puzzle.presetName);
    else this.removeAttribute("preset");

    this.#labels = Array.from(puzzle.board());
    const fragment = document.createDocumentFragment();
    this.#labels.forEach((label, index) => {
      if (label === 0) {
        this.#cellElements.push(null);
        return;
      }
      const tile = document.createElement("button");
      tile.type = "button";
      tile.tabIndex = -1;
      tile.className = "tile";
      tile.dataset.label = String(label);
      if (puzzle.presetName) tile.classList.add("symbol");
      const face = document.createElement("span");
      face.className = "face";
      face.setAttribute("part", "tile");
      face.textContent = this.#symbols[label] ?? String(label);
      tile.append(face);
      this.#cellElements.push(tile);
      this.#place(tile, index);
      fragment.append(tile);
    });
    this.#grid.append(fragment);
    this.#drawGoal();
    this.#drawHighlight();
    this.#updateLabel();
    this.#updateState(null);
    fireEvent(this, "board-reset", { puzzle });
  }

  /** Moves the blank on behalf of a program (the solution player); false into a wall. */
  moveBlank(direction, { takesBack = false } = {}) {
    return this.#moveBlank(direction, "program", takesBack ? -1 : 1);
  }

  /** Moves the blank; `counted` (+1, or −1 for a move that takes the previous one back) goes on the counter. */
  #moveBlank(direction, source, counted = 1) {
    if (!this.#puzzle) return false;
    const wasSolved = this.#puzzle.isSolved();
    if (!this.#puzzle.moveBlank(direction)) return false;
    this.#applyBlankMoves([direction]);
    this.#afterMoves([direction], source, wasSolved, counted);
    return true;
  }

  #onKeyDown(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const direction = BLANK_MOVE_FOR_KEY[key];
    if (!direction) return;
    event.preventDefault();
    if (this.locked) return;
    this.#moveBlank(direction, "user");
  }

  #onClick(event) {
    const tile = event.target.closest(".tile");
    if (!tile || !this.#puzzle || this.locked || performance.now() < this.#ignoreClicksUntil) return;
    const index = this.#cellElements.indexOf(tile);
    if (index < 0) return;
    const wasSolved = this.#puzzle.isSolved();
    const moves = Array.from(this.#puzzle.clickTile(index));
    if (moves.length === 0) return;
    this.#applyBlankMoves(moves);
    this.#afterMoves(moves, "user", wasSolved);
  }

  #onPointerDown(event) {
    if (event.pointerType === "mouse") return;
    this.#swipeStart = { x: event.clientX, y: event.clientY, id: event.pointerId };
  }

  #onPointerUp(event) {
    const start = this.#swipeStart;
    this.#swipeStart = null;
    if (!start || start.id !== event.pointerId || this.locked) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_MIN_DISTANCE) return;
    // The swipe names where the tile goes; the blank goes the other way.
    const tileDirection = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : dy > 0 ? "down" : "up";
    const blankDirection = OPPOSITE_DIRECTION[tileDirection];
    this.#ignoreClicksUntil = performance.now() + 400;
    this.focus({ preventScroll: true });
    this.#moveBlank(blankDirection, "user");
  }

  /** Mirrors blank moves the Puzzle already made: each neighbour tile slides into the gap. */
  #applyBlankMoves(moves) {
    const cols = this.#puzzle.cols;
    for (const direction of moves) {
      const blank = this.#labels.indexOf(0);
      const [dr, dc] = BLANK_STEP[direction];
      const from = blank + dr * cols + dc;
      this.#labels[blank] = this.#labels[from];
      this.#labels[from] = 0;
      this.#cellElements[blank] = this.#cellElements[from];
      this.#cellElements[from] = null;
      this.#place(this.#cellElements[blank], blank);
    }
    // The Puzzle is the source of truth: if the mirror ever disagrees, redraw from it.
    const actual = this.#puzzle.board();
    if (actual.length !== this.#labels.length || actual.some((label, i) => label !== this.#labels[i])) {
      const moveCount = this.#moveCount;
      this.refresh();
      this.#moveCount = moveCount;
    }
  }

  #afterMoves(moves, source, wasSolved, counted = moves.length) {
    this.#moveCount = Math.max(0, this.#moveCount + counted);
    this.#movesOutput.textContent = String(this.#moveCount);
    this.setAttribute("moves", String(this.#moveCount));
    const solved = this.#puzzle.isSolved();
    // A screen reader hears a player's move (the solve, below, says itself).
    if (source === "user" && moves.length > 0 && !solved) this.#liveRegion.textContent = this.#moveText(moves);
    this.#updateState(source, solved && !wasSolved);
    fireEvent(this, "board-move", { moves, source, moveCount: this.#moveCount, solved });
    if (solved && !wasSolved) fireEvent(this, "board-solved", { source, moveCount: this.#moveCount });
  }

  /** A player's move in words: "Tile 5 slid left. 3 moves." (the tiles slide against the blank's `moves`). */
  #moveText(moves) {
    const last = moves.at(-1);
    const [dr, dc] = BLANK_STEP[last];
    const blank = this.#labels.indexOf(0);
    const moved = this.#labels[blank - dr * this.#puzzle.cols - dc];
    const way = { up: "down", down: "up", left: "right", right: "left" }[last];
    const what = moves.length === 1 ? `Tile ${this.#labelNames[moved]} slid ${way}` : `${moves.length} tiles slid ${way}`;
    return `${what}. ${this.#moveCount} ${this.#moveCount === 1 ? "move" : "moves"}.`;
  }

  #place(tile, index) {
    const cols = this.#puzzle.cols;
    const row = Math.floor(index / cols);
    const col = index % cols;
    tile.style.setProperty("--r", row);
    tile.style.setProperty("--c", col);
    tile.dataset.index = String(index);
    const label = Number(tile.dataset.label);
    tile.setAttribute("aria-label", `tile ${this.#labelNames[label]}, row ${row + 1} column ${col + 1}`);
  }

  #updateState(source, justSolved = false) {
    const solved = this.solved;
    this.toggleAttribute("solved", solved);
    const blank = this.#labels.indexOf(0);
    const cols = this.#puzzle?.cols ?? 1;
    this.#cellElements.forEach((tile, index) => {
      if (!tile) return;
      const inLine = Math.floor(index / cols) === Math.floor(blank / cols) || index % cols === blank % cols;
      tile.classList.toggle("movable", inLine);
    });
    if (!solved) {
      this.#banner.hidden = true;
      return;
    }
    if (justSolved) {
      const message =
        source === "user"
          ? `Solved in ${this.#moveCount} ${this.#moveCount === 1 ? "move" : "moves"}!`
          : "Solved!";
      this.#banner.textContent = message;
      this.#banner.hidden = false;
      this.#liveRegion.textContent = `Puzzle solved. ${message}`;
    }
  }

  #drawGoal() {
    const puzzle = this.#puzzle;
    this.#goalGrid.replaceChildren(
      ...Array.from(puzzle.goal(), (label) => {
        const cell = document.createElement("span");
        if (label !== 0) {
          cell.className = "tile-cell";
          cell.dataset.label = String(label);
          if (puzzle.presetName) cell.classList.add(label === 1 ? "sun" : "moon");
          cell.textContent = this.#symbols[label] ?? String(label);
        }
        return cell;
      }),
    );
  }

  #updateLabel() {
    const puzzle = this.#puzzle;
    if (!puzzle) return;
    const kind = puzzle.presetName === "sun-moon" ? "Sun and moon puzzle" : "Sliding puzzle";
    const label = `${kind}, ${puzzle.rows} by ${puzzle.cols}`;
    if (!this.hasAttribute("aria-label") || this.dataset.autoLabel === "true") {
      this.setAttribute("aria-label", label);
      this.dataset.autoLabel = "true";
    }
  }
}

defineBoard("sliding-board", SlidingBoard, ["locked"], setAriaDisabled);

export { SlidingBoard, BLANK_STEP, BLANK_MOVE_FOR_KEY, OPPOSITE_DIRECTION };
