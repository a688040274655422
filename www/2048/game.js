// 2048 in the browser: the board view <game2048-board> and the game's constants. The shipped n-tuple
// network's download and the agent that plays a board are agent.js's; the 2048 mode of
// <puzzle-widget> is widget-panel.js's. The page (2048/app.js) and the widget (widget.js, which
// imports widget-panel.js only when a widget shows 2048) share all of it.
//
// The rules live in Rust (src/env/game2048/, through the Game2048 handle of src/web/game2048.rs);
// this file only draws what a move reports and turns keys, swipes and the agent's choices into moves.
//
// <game2048-board>: self-contained (its own shadow DOM and styles; sizes in px, em or container units,
// never rem, so that a host page's root font size cannot scale it).
//   board.game = g        hand over a Game2048 handle (the board owns it from then on and frees the
//                         previous one); redraws and hides any overlay
//   board.game            the handle shown (null before the first)
//   board.move(direction, source = "program", { slideMs } = {})
//                         plays "up" | "right" | "down" | "left" and animates it (slides of `slideMs`,
//                         default board.slideMs); returns the move's report (Game2048.play: moved,
//                         gained, score, tiles, spawned, ...) or null when there is no game or a
//                         person's move is refused (locked, an overlay is up)
//   board.undo()          takes the last move back (false when there is none)
//   board.best            the best score to show beside the score, or null to hide that box
//   board.locked          while true (attribute `locked`), a person's input is ignored
//   board.slideMs         duration of a slide in milliseconds (default 100; 0: no animation)
//   board.showHint(direction) / board.clearHint()
//                         an arrow over the board (until the next move or new game)
//   board.keepGoing()     dismisses the "You win!" overlay (its own button does the same)
//   board.settled         a Promise that resolves once the last move's animations have finished
// It takes arrow keys and W A S D while it has focus, and swipes (touch, pen or a mouse drag) on
// the board. The slot "actions" sits beside the score (the page's New game and Undo buttons).
// Attributes reflected for styling and tests: over, won, locked, score, moves.
// Events (bubbling, composed):
//   game-move    { direction, gained, score, moves, maxTile, over, board (tile values row-major,
//                0 = empty), source } after every move that changed the board
//   game-won     { score, moves, source } when a tile first reaches 2048 in this game
//   game-over    { score, moves, maxTile } when no move is left
//   game-retry   {} the person pressed "Try again" or "New game" on an overlay: the host starts one
//   game-reset   { game } a new game (or an undone move) was drawn

import { attachBoardShadow, defineBoard, describeBoard, fireEvent, replaceGame, setAriaDisabled } from "../common/board-element.js";
import { numberFormat } from "../common/number-format.js";


/** Directions in action order: DIRECTIONS[i] is the Rust `Move` with index i (src/env/game2048/board.rs). */
export const DIRECTIONS = ["up", "right", "down", "left"];
/** The tile whose first appearance wins the game. */
export const WIN_TILE = 2048;
/** Keys that play a move (the arrows and W A S D, as in the original game). */
export const KEY_DIRECTIONS = {
  ArrowUp: "up",
  ArrowRight: "right",
  ArrowDown: "down",
  ArrowLeft: "left",
  w: "up",
  d: "right",
  s: "down",
  a: "left",
};
/** Arrows drawn for hints and in messages. */
export const ARROWS = { up: "↑", right: "→", down: "↓", left: "←" };
/** The shipped network (`puzzlelab 2048 ntuple train`, f16 weights, gzip) and its manifest. */
export const SHIPPED_NETWORK_URL = new URL("../models/2048-ntuple.ntuple.gz", import.meta.url);
/** Expectimax depths the agent offers: 1 is the greedy 1-ply policy (NTupleAgent.bestMove). */
export const MAX_AGENT_DEPTH = 3;
/** Finger (or mouse) travel in CSS pixels that counts as a swipe. */
const SWIPE_MIN_DISTANCE = 24;
const DEFAULT_SLIDE_MS = 100;


/** The direction a key plays, or undefined (letters in either case). */
export function directionForKey(key) {
  return KEY_DIRECTIONS[key.length === 1 ? key.toLowerCase() : key];
}

/** A random seed for a new game (a whole number below 2^32). */
export function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/** A move's direction as said: "Up". */
const DIRECTION_WORDS = { up: "Up", right: "Right", down: "Down", left: "Left" };

/** The board (16 exponents, row-major, 0 = empty) in words, row by row: "Row 1: 2, empty, empty, 4. Row 2: …". */
export function tilesText(exponents) {
  const rows = [];
  for (let row = 0; row < 4; row++) {
    const cells = Array.from(exponents.slice(row * 4, row * 4 + 4), (exponent) => (exponent === 0 ? "empty" : String(2 ** exponent)));
    rows.push(`Row ${row + 1}: ${cells.join(", ")}.`);
  }
  return rows.join(" ");
}

const STYLE = `
:host {
  --board-background: #bbada0;
  --cell-background: rgb(238 228 218 / 0.35);
  --tile-text-dark: #776e65;
  --tile-text-light: #f9f6f2;
  --focus-color: #f59e0b;
  --slide-ms: ${DEFAULT_SLIDE_MS}ms;
  --gap: clamp(6px, 2.6cqi, 15px);
  display: block;
  container-type: inline-size;
  outline: none !important;
  -webkit-tap-highlight-color: transparent;
  font-family: "Clear Sans", "Helvetica Neue", Arial, system-ui, sans-serif;
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.header {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  margin-bottom: 10px;
}
.scores { display: flex; gap: 6px; }
.score-box {
  position: relative;
  display: grid;
  justify-items: center;
  min-width: 4.4em;
  padding: 0.3em 0.75em 0.35em;
  border-radius: 6px;
  background: var(--board-background);
  color: #ffffff;
  font-size: clamp(13px, 3.1cqi, 17px);
  line-height: 1.15;
}
.score-box .label {
  color: #eee4da;
  font-size: 0.72em;
  font-weight: 700;
  letter-spacing: 0.06em;
  text-transform: uppercase;
}
.score-box .value { font-size: 1.35em; font-weight: 700; font-variant-numeric: tabular-nums; }
.gain {
  position: absolute;
  inset-inline: 0;
  bottom: 0.35em;
  text-align: center;
  color: rgb(119 110 101 / 0.9);
  font-size: 1.25em;
  font-weight: 700;
  pointer-events: none;
  animation: float-up 600ms ease-in forwards;
}
@keyframes float-up {
  from { transform: translateY(0); opacity: 1; }
  to { transform: translateY(-2.4em); opacity: 0; }
}
.actions { display: flex; flex-wrap: wrap; gap: 6px; }
.frame {
  position: relative;
  width: min(100%, var(--board-max-size, 100%));
  aspect-ratio: 1;
  margin-inline: auto;
  padding: var(--gap);
  border-radius: clamp(6px, 2cqi, 12px);
  background: var(--board-background);
  touch-action: none;
  user-select: none;
  -webkit-user-select: none;
}
:host(:focus-visible) .frame { outline: 3px solid var(--focus-color); outline-offset: 3px; }
.cells, .grid {
  position: absolute;
  inset: var(--gap);
}
.cells {
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  grid-template-rows: repeat(4, 1fr);
  gap: var(--gap);
}
.cells span { border-radius: clamp(3px, 1.2cqi, 6px); background: var(--cell-background); }
.grid { container-type: size; }
.tile {
  position: absolute;
  top: 0;
  left: 0;
  z-index: 1;
  /* Each tile owns a quarter of the grid plus its share of the gaps. */
  width: calc((100% + var(--gap)) / 4);
  height: calc((100% + var(--gap)) / 4);
  padding-right: var(--gap);
  padding-bottom: var(--gap);
  transform: translate(calc(var(--c) * 100%), calc(var(--r) * 100%));
  transition: transform var(--slide-ms) ease-in-out;
}
.tile.leaving { z-index: 0; }
.tile.merged { z-index: 2; }
.face {
  display: flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  height: 100%;
  border-radius: clamp(3px, 1.2cqi, 6px);
  background: #eee4da;
  color: var(--tile-text-dark);
  font-weight: 700;
  font-size: calc(25cqw * 0.46);
  line-height: 1;
  font-variant-numeric: tabular-nums;
}
.tile[data-digits="3"] .face { font-size: calc(25cqw * 0.38); }
.tile[data-digits="4"] .face { font-size: calc(25cqw * 0.3); }
.tile[data-digits="5"] .face { font-size: calc(25cqw * 0.25); }
.tile[data-value="2"] .face { background: #eee4da; }
.tile[data-value="4"] .face { background: #ede0c8; }
.tile[data-value="8"] .face { background: #f2b179; color: var(--tile-text-light); }
.tile[data-value="16"] .face { background: #f59563; color: var(--tile-text-light); }
.tile[data-value="32"] .face { background: #f67c5f; color: var(--tile-text-light); }
.tile[data-value="64"] .face { background: #f65e3b; color: var(--tile-text-light); }
.tile[data-value="128"] .face { background: #edcf72; color: var(--tile-text-light); box-shadow: 0 0 30px 10px rgb(243 215 116 / 0.24), inset 0 0 0 1px rgb(255 255 255 / 0.14); }
.tile[data-value="256"] .face { background: #edcc61; color: var(--tile-text-light); box-shadow: 0 0 30px 10px rgb(243 215 116 / 0.32), inset 0 0 0 1px rgb(255 255 255 / 0.19); }
.tile[data-value="512"] .face { background: #edc850; color: var(--tile-text-light); box-shadow: 0 0 30px 10px rgb(243 215 116 / 0.4), inset 0 0 0 1px rgb(255 255 255 / 0.24); }
.tile[data-value="1024"] .face { background: #edc53f; color: var(--tile-text-light); box-shadow: 0 0 30px 10px rgb(243 215 116 / 0.48), inset 0 0 0 1px rgb(255 255 255 / 0.29); }
.tile[data-value="2048"] .face { background: #edc22e; color: var(--tile-text-light); box-shadow: 0 0 30px 10px rgb(243 215 116 / 0.56), inset 0 0 0 1px rgb(255 255 255 / 0.33); }
.tile.super .face { background: #3c3a32; color: var(--tile-text-light); }
.tile.new .face { animation: appear 200ms ease var(--slide-ms) backwards; }
.tile.merged .face { animation: pop 200ms ease var(--slide-ms) backwards; }
@keyframes appear {
  from { transform: scale(0); opacity: 0; }
  to { transform: scale(1); opacity: 1; }
}
@keyframes pop {
  0% { transform: scale(0); }
  50% { transform: scale(1.2); }
  100% { transform: scale(1); }
}
.overlay {
  position: absolute;
  inset: 0;
  z-index: 3;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 0.5em;
  padding: 1em;
  border-radius: inherit;
  background: rgb(238 228 218 / 0.73);
  color: var(--tile-text-dark);
  text-align: center;
  animation: fade-in 600ms ease 300ms backwards;
}
.overlay.won { background: rgb(237 194 46 / 0.55); color: var(--tile-text-light); }
.overlay .title { margin: 0; font-size: clamp(28px, 11cqi, 60px); font-weight: 700; line-height: 1.1; }
.overlay .detail { margin: 0; font-size: clamp(14px, 3.6cqi, 18px); font-weight: 600; }
.overlay .buttons { display: flex; flex-wrap: wrap; justify-content: center; gap: 8px; margin-top: 0.6em; }
.overlay button {
  all: initial;
  box-sizing: border-box;
  padding: 0 1.1em;
  height: 40px;
  display: inline-flex;
  align-items: center;
  border-radius: 6px;
  background: #8f7a66;
  color: #f9f6f2;
  font: 700 15px/1 "Clear Sans", "Helvetica Neue", Arial, system-ui, sans-serif;
  cursor: pointer;
}
.overlay button:hover { background: #9f8b77; }
.overlay button:focus-visible { outline: 3px solid var(--focus-color); outline-offset: 2px; }
@keyframes fade-in { from { opacity: 0; } }
.note {
  position: absolute;
  top: 8%;
  left: 50%;
  z-index: 3;
  padding: 0.45em 1em;
  border-radius: 999px;
  background: #edc22e;
  color: #f9f6f2;
  font-size: clamp(14px, 4cqi, 20px);
  font-weight: 700;
  white-space: nowrap;
  box-shadow: 0 6px 20px rgb(0 0 0 / 0.2);
  pointer-events: none;
  transform: translateX(-50%);
  animation: note 2600ms ease forwards;
}
@keyframes note {
  0% { opacity: 0; transform: translate(-50%, -30%); }
  12%, 80% { opacity: 1; transform: translate(-50%, 0); }
  100% { opacity: 0; transform: translate(-50%, 0); }
}
.hint {
  position: absolute;
  top: 50%;
  left: 50%;
  z-index: 3;
  display: grid;
  place-items: center;
  width: 28%;
  aspect-ratio: 1;
  border-radius: 50%;
  background: rgb(79 70 229 / 0.85);
  color: #ffffff;
  font-size: clamp(28px, 13cqi, 72px);
  font-weight: 700;
  line-height: 1;
  box-shadow: 0 8px 30px rgb(49 46 129 / 0.35);
  pointer-events: none;
  transform: translate(-50%, -50%);
  animation: fade-in 200ms ease;
}
@media (prefers-reduced-motion: reduce) {
  .tile { transition: none; }
  .tile.new .face, .tile.merged .face, .gain, .overlay, .hint { animation: none; }
}
`;

export class Game2048Board extends HTMLElement {
  #game = null;
  /** The live tile element in each cell (tiles that merged away are not in it). */
  #tiles = new Map();
  /** Tiles sliding into a merge, removed once the slide is over. */
  #leaving = [];
  #settleTimer = 0;
  #settled = Promise.resolve();
  #resolveSettled = null;
  #won = false;
  #best = null;
  #slideMs = DEFAULT_SLIDE_MS;
  #swipe = null;
  #parts;

  constructor() {
    super();
    this.#parts = attachBoardShadow(this, {
      style: STYLE,
      markup: `
      <div class="header" part="header">
        <div class="scores">
          <div class="score-box" part="score"><span class="label">Score</span><span class="value" data-score>0</span></div>
          <div class="score-box" part="best" hidden><span class="label">Best</span><span class="value" data-best>0</span></div>
        </div>
        <div class="actions" part="actions"><slot name="actions"></slot></div>
      </div>
      <div class="frame" part="frame">
        <div class="cells" aria-hidden="true">${"<span></span>".repeat(16)}</div>
        <div class="grid" part="grid" role="img" aria-label="No game"></div>
        <div class="hint" part="hint" hidden></div>
        <div class="note" part="note" hidden></div>
        <div class="overlay" part="overlay" role="dialog" aria-modal="false" hidden>
          <p class="title"></p>
          <p class="detail"></p>
          <div class="buttons">
            <button type="button" data-action="keep-going">Keep going</button>
            <button type="button" data-action="retry">Try again</button>
          </div>
        </div>
      </div>`,
      parts: {
        score: "[data-score]",
        scoreBox: "[part=score]",
        best: "[data-best]",
        bestBox: "[part=best]",
        frame: ".frame",
        grid: ".grid",
        hint: ".hint",
        note: ".note",
        overlay: ".overlay",
        title: ".overlay .title",
        detail: ".overlay .detail",
        keepGoing: "[data-action=keep-going]",
        retry: "[data-action=retry]",
      },
    });
    this.#parts.keepGoing.addEventListener("click", () => this.keepGoing());
    this.#parts.retry.addEventListener("click", () => fireEvent(this, "game-retry", {}));
    this.#parts.note.addEventListener("animationend", () => (this.#parts.note.hidden = true));
    this.addEventListener("keydown", (event) => this.#onKeyDown(event));
    const frame = this.#parts.frame;
    frame.addEventListener("pointerdown", (event) => this.#onPointerDown(event));
    frame.addEventListener("pointerup", (event) => this.#onPointerUp(event));
    frame.addEventListener("pointercancel", () => (this.#swipe = null));
  }

  connectedCallback() {
    describeBoard(this, {
      kind: "2048 board",
      label: "2048",
      description: "Arrow keys or W A S D slide every tile; equal tiles that meet merge. Swipe on a touch screen.",
    });
  }

  disconnectedCallback() {
    this.#finishAnimations();
  }

  get game() {
    return this.#game;
  }

  set game(game) {
    this.#game = replaceGame(this.#game, game);
    this.#won = Boolean(game) && game.maxTile >= WIN_TILE;
    this.#redraw();
  }

  get best() {
    return this.#best;
  }

  set best(value) {
    this.#best = value === null || value === undefined ? null : Number(value);
    this.#parts.bestBox.hidden = this.#best === null;
    this.#parts.best.textContent = numberFormat.format(this.#best ?? 0);
  }

  get slideMs() {
    return this.#slideMs;
  }

  set slideMs(milliseconds) {
    this.#slideMs = Math.max(0, Math.round(Number(milliseconds) || 0));
  }

  /** Resolves once the last move's slides, merges and new tile have finished animating. */
  get settled() {
    return this.#settled;
  }

  /** Whether no move is left. */
  get over() {
    return Boolean(this.#game?.isOver());
  }

  /** Plays `direction` on the game and animates it; see the module comment. */
  move(direction, source = "program", { slideMs = this.#slideMs } = {}) {
    const game = this.#game;
    if (!game) return null;
    if (source === "user" && (this.locked || this.#blockingOverlay())) return null;
    this.#finishAnimations();
    const report = game.play(direction);
    if (!report.moved) return report;
    this.clearHint();
    this.#parts.note.hidden = source === "user" ? true : this.#parts.note.hidden;
    if (!this.#parts.overlay.hidden) this.#hideOverlay();
    const duration = Math.max(0, Math.round(slideMs));
    this.style.setProperty("--slide-ms", `${duration}ms`);
    this.#animate(report, duration);
    this.#showScore(report.score, report.gained, duration > 0);
    this.#reflect();
    // A player's move is said with the board it leaves (the end and a win are said below).
    if (source === "user" && !report.over) {
      const gained = report.gained ? ` (+${numberFormat.format(report.gained)})` : "";
      this.#parts.live.textContent = `${DIRECTION_WORDS[report.direction] ?? report.direction}: score ${numberFormat.format(report.score)}${gained}. ${tilesText(report.board)}`;
    }
    fireEvent(this, "game-move", {
      direction: report.direction,
      gained: report.gained,
      score: report.score,
      moves: report.moves,
      maxTile: report.maxTile,
      over: report.over,
      board: report.board.map((e) => (e === 0 ? 0 : 2 ** e)),
      source,
    });
    if (!this.#won && report.maxTile >= WIN_TILE) {
      this.#won = true;
      this.#reflect();
      this.#showWin(source, report);
      fireEvent(this, "game-won", { score: report.score, moves: report.moves, source });
    }
    if (report.over) {
      this.#showGameOver(report);
      fireEvent(this, "game-over", { score: report.score, moves: report.moves, maxTile: report.maxTile });
    }
    return report;
  }

  /** Takes the last move back; false when there is nothing to undo. */
  undo() {
    if (!this.#game?.undo()) return false;
    if (this.#game.maxTile < WIN_TILE) this.#won = false;
    this.#redraw();
    return true;
  }

  /** Shows an arrow for `direction` over the board until the next move. */
  showHint(direction) {
    const hint = this.#parts.hint;
    hint.textContent = ARROWS[direction] ?? "";
    hint.dataset.direction = direction;
    hint.hidden = !ARROWS[direction];
  }

  clearHint() {
    this.#parts.hint.hidden = true;
    delete this.#parts.hint.dataset.direction;
  }

  /** Dismisses the "You win!" overlay: the game goes on. */
  keepGoing() {
    if (this.#parts.overlay.dataset.kind !== "won") return;
    this.#hideOverlay();
    this.focus({ preventScroll: true });
  }

  // ---- drawing -----------------------------------------------------------------------------

  #redraw() {
    this.#finishAnimations();
    const game = this.#game;
    this.#parts.grid.replaceChildren();
    this.#tiles.clear();
    this.#hideOverlay();
    this.#parts.note.hidden = true;
    this.clearHint();
    this.#showScore(game?.score ?? 0, 0, false);
    if (game) {
      const exponents = game.board();
      exponents.forEach((exponent, cell) => {
        if (exponent !== 0) this.#tiles.set(cell, this.#newTile(cell, exponent));
      });
      if (game.isOver()) this.#showGameOver({ score: game.score, maxTile: game.maxTile, moves: game.moves });
    }
    this.#reflect();
    fireEvent(this, "game-reset", { game });
  }

  #newTile(cell, exponent, kind = "") {
    const tile = document.createElement("div");
    tile.className = kind ? `tile ${kind}` : "tile";
    const value = 2 ** exponent;
    tile.dataset.value = String(value);
    tile.dataset.digits = String(String(value).length);
    if (value > WIN_TILE) tile.classList.add("super");
    const face = document.createElement("div");
    face.className = "face";
    face.setAttribute("part", "tile");
    face.textContent = String(value);
    tile.append(face);
    this.#place(tile, cell);
    this.#parts.grid.append(tile);
    return tile;
  }

  #place(tile, cell) {
    tile.dataset.cell = String(cell);
    tile.style.setProperty("--r", Math.floor(cell / 4));
    tile.style.setProperty("--c", cell % 4);
  }

  /** Moves the tile elements as the report says, then adds merged and new tiles (delayed pops). */
  #animate(report, duration) {
    const next = new Map();
    const merges = new Set();
    for (const { from, to, merged } of report.tiles) {
      const tile = this.#tiles.get(from);
      if (!tile) return this.#redraw();
      this.#place(tile, to);
      if (merged) {
        tile.classList.add("leaving");
        delete tile.dataset.cell;
        this.#leaving.push(tile);
        merges.add(to);
      } else {
        next.set(to, tile);
      }
    }
    // No pops without slides (the agent at full speed): they would only flicker.
    const pop = (kind) => (duration > 0 ? kind : "");
    for (const cell of merges) next.set(cell, this.#newTile(cell, report.board[cell], pop("merged")));
    if (report.spawned) next.set(report.spawned.cell, this.#newTile(report.spawned.cell, report.spawned.exponent, pop("new")));
    this.#tiles = next;
    // The game is the source of truth: if the picture ever disagrees, draw it again.
    const drawn = report.board.every((exponent, cell) => (exponent === 0 ? !next.has(cell) : next.get(cell)?.dataset.value === String(2 ** exponent)));
    if (!drawn) return this.#redraw();
    if (duration <= 0) {
      this.#removeLeaving();
      return;
    }
    const { promise, resolve } = Promise.withResolvers();
    this.#settled = promise;
    this.#resolveSettled = resolve;
    // Slide, then the 200 ms pop of merged and new tiles.
    this.#settleTimer = setTimeout(() => this.#finishAnimations(), duration + 220);
  }

  #removeLeaving() {
    for (const tile of this.#leaving) tile.remove();
    this.#leaving = [];
  }

  /** Ends the running animations at once (a move arrived before they finished, or a redraw). */
  #finishAnimations() {
    clearTimeout(this.#settleTimer);
    this.#removeLeaving();
    for (const animation of this.shadowRoot.getAnimations()) {
      // Only the tiles' slides and pops: the overlay, score and note animations keep their pace.
      if (animation.effect?.target?.closest?.(".grid")) animation.finish();
    }
    this.#resolveSettled?.();
    this.#resolveSettled = null;
  }

  #showScore(score, gained, animate) {
    this.#parts.score.textContent = numberFormat.format(score);
    if (gained > 0 && animate) {
      const gain = document.createElement("span");
      gain.className = "gain";
      gain.textContent = `+${numberFormat.format(gained)}`;
      gain.addEventListener("animationend", () => gain.remove());
      this.#parts.scoreBox.append(gain);
      // Many quick moves (the agent at full speed) would pile them up.
      const gains = this.#parts.scoreBox.querySelectorAll(".gain");
      if (gains.length > 3) gains[0].remove();
    }
  }

  #reflect() {
    const game = this.#game;
    this.toggleAttribute("over", Boolean(game?.isOver()));
    this.toggleAttribute("won", this.#won);
    this.setAttribute("score", String(game?.score ?? 0));
    this.setAttribute("moves", String(game?.moves ?? 0));
    // The tiles are drawn for the eye; a screen reader reads them from the grid's label.
    this.#parts.grid.setAttribute("aria-label", game ? `Tiles: ${tilesText(game.board())}` : "No game");
  }

  #showGameOver({ score, maxTile }) {
    this.#showOverlay("over", "Game over!", `Score ${numberFormat.format(score)} · largest tile ${numberFormat.format(maxTile)}`);
    this.#parts.live.textContent = `Game over. Score ${numberFormat.format(score)}.`;
  }

  #showWin(source, { score }) {
    if (source === "user") {
      this.#showOverlay("won", "You win!", `You made ${WIN_TILE} with a score of ${numberFormat.format(score)}. Keep going?`);
      this.#parts.retry.textContent = "New game";
    } else {
      // A program (the agent) plays on: a note that fades, nothing to dismiss.
      const note = this.#parts.note;
      note.hidden = true;
      note.textContent = `${WIN_TILE}! Keep going…`;
      void note.offsetWidth; // restart its animation
      note.hidden = false;
    }
    this.#parts.live.textContent = `${WIN_TILE} reached with a score of ${numberFormat.format(score)}.`;
  }

  #showOverlay(kind, title, detail) {
    const overlay = this.#parts.overlay;
    overlay.dataset.kind = kind;
    overlay.classList.toggle("won", kind === "won");
    this.#parts.title.textContent = title;
    this.#parts.detail.textContent = detail;
    this.#parts.keepGoing.hidden = kind !== "won";
    this.#parts.retry.textContent = "Try again";
    overlay.setAttribute("aria-label", title);
    overlay.hidden = false;
  }

  #hideOverlay() {
    const overlay = this.#parts.overlay;
    overlay.hidden = true;
    delete overlay.dataset.kind;
  }

  /** The "You win!" overlay waits for Keep going or New game before a person plays on. */
  #blockingOverlay() {
    return this.#parts.overlay.dataset.kind === "won";
  }

  // ---- input -------------------------------------------------------------------------------

  #onKeyDown(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // Keys on the overlay's buttons are theirs.
    if (event.composedPath()[0]?.localName === "button") return;
    const direction = directionForKey(event.key);
    if (!direction) return;
    event.preventDefault();
    this.move(direction, "user");
  }

  #onPointerDown(event) {
    if (event.button !== 0 || event.target.closest?.("button")) return;
    this.#swipe = { x: event.clientX, y: event.clientY, id: event.pointerId };
    this.#parts.frame.setPointerCapture?.(event.pointerId);
  }

  #onPointerUp(event) {
    const start = this.#swipe;
    this.#swipe = null;
    if (!start || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_MIN_DISTANCE) return;
    const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : dy > 0 ? "down" : "up";
    // Keys go on where the finger left off; no focus ring for a swipe.
    this.focus({ preventScroll: true, focusVisible: false });
    this.move(direction, "user");
  }
}

defineBoard("game2048-board", Game2048Board, ["locked"], setAriaDisabled);
