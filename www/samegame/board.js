// The dust puzzle and SameGame in the browser: the board view <samegame-board>. The rules live in
// Rust (src/env/samegame/, through the SameGameHandle handle of src/web/samegame.rs); this file draws
// the piles, shows the group under the pointer, and animates a click: the group goes, the piles
// above fall, then the empty columns close (toward the centre for dust, to the left for SameGame).
//
// <samegame-board>: self-contained (its own shadow DOM and styles).
//   board.game = g          hand over a SameGameHandle handle (the board owns it and frees the previous)
//   board.game              the handle shown (null before the first)
//   board.click(cell, source = "program")   clicks a pile as a person would (animated); returns
//                           SameGameHandle.click's report, or throws its Error (nothing changes)
//   board.undo(source), board.restart(source)   take back the last click / go back to the start
//   board.showHint(hint)    rings SameGameHandle.hint's group until the next move (null clears)
//   board.settled           a Promise that resolves once the running animations have finished
//   board.locked            while true (attribute `locked`), a person's clicks are ignored
// Input: hover (or focus) a pile to see its group, its size and (SameGame) the points it earns;
// click (Enter, Space) removes it. Keys: Tab comes to the board once (one pile is its Tab stop,
// the last focused), arrows move between piles, U or Ctrl+Z undoes. The keyboard
// focus stays on the board when its pile goes (a click, an undo, the last pile cleared): on the
// pile now at the same cell, else on the grid itself, from where the arrows go to the nearest pile.
// Attributes reflected for styling and tests: rules (dust, samegame), status (playing, over, cleared).
// Events (bubbling, composed):
//   samegame-move   { action: "click" | "undo" | "restart", cell, cells, moved, points, score,
//                     clicks, over, cleared, source }
//   samegame-over   { clicks, score, cleared, piles, source }
//   samegame-hover  { cell, size, points, legal } (null fields when the pointer leaves the piles)

import { attachBoardShadow, defineBoard, fireEvent, replaceGame } from "../common/board-element.js";

/** Pile colours 1–9 (index 0 unused); they mirror no Rust constant: Rust numbers colours only. */
export const COLOURS = [null, "#e5484d", "#3e63dd", "#30a46c", "#f5b90a", "#8e4ec6", "#f76b15", "#12a594", "#d6409f", "#8d6e4c"];

/** Milliseconds of the removal, then of the fall and the closing (each half of the move). */
const FADE_MS = 140;
const MOVE_MS = 320;

const STYLE = `
  :host { display: inline-block; font: 14px/1.3 system-ui, sans-serif; color: #1d2433; outline: none;
    --cell-gap: 3px; --board-bg: #eef0f6; --cut: #9aa3bb; }
  :host([hidden]) { display: none; }
  .frame { display: flex; flex-direction: column; gap: 8px; width: 100%; max-width: var(--board-width, 560px); margin-inline: auto; }
  .counts { font-weight: 600; font-variant-numeric: tabular-nums; }
  /* Under the board, one line of fixed height: what the pointer hovers never moves the board. */
  .group-info { height: 1.3em; color: #5b6175; font-variant-numeric: tabular-nums;
    white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .wrap { position: relative; }
  .grid { position: relative; width: 100%; aspect-ratio: var(--cols) / var(--rows); background: var(--board-bg);
    border-radius: 10px; overflow: hidden; user-select: none; -webkit-user-select: none; touch-action: manipulation; }
  .cut { position: absolute; top: 0; bottom: 0; left: 50%; width: 0; border-left: 2px dashed var(--cut); opacity: 0.6; }
  .pile { all: unset; box-sizing: border-box; position: absolute; cursor: pointer;
    left: calc(var(--col) * 100% / var(--cols)); top: calc(var(--row) * 100% / var(--rows));
    width: calc(100% / var(--cols)); height: calc(100% / var(--rows)); padding: calc(var(--cell-gap) / 2); }
  .pile::before { content: ""; display: block; width: 100%; height: 100%; border-radius: 22%;
    background: var(--colour); box-shadow: inset 0 -3px 0 rgb(0 0 0 / 0.18); transition: transform 90ms, filter 90ms; }
  .pile.group::before { transform: scale(0.86); filter: brightness(1.18) saturate(1.1); box-shadow: inset 0 0 0 3px rgb(255 255 255 / 0.85); }
  .pile.small::before { filter: grayscale(0.4); }
  .pile.hint::after { content: ""; position: absolute; inset: 1px; border: 3px solid #111827; border-radius: 26%; }
  .pile:focus-visible { outline: 3px solid #f59e0b; outline-offset: -3px; z-index: 1; }
  .grid:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  .badge { position: absolute; z-index: 2; pointer-events: none; transform: translate(-50%, -110%);
    background: #111827; color: #fff; font: 700 12px/1 system-ui, sans-serif; padding: 4px 7px; border-radius: 999px;
    white-space: nowrap; }
  .badge.below { transform: translate(-50%, 40%); }
  .badge[hidden] { display: none; }
  .end { position: absolute; inset: 0; display: grid; place-items: center; pointer-events: none; }
  .end[hidden] { display: none; }
  .end span { background: rgb(17 24 39 / 0.86); color: #fff; font: 700 20px/1.3 system-ui, sans-serif;
    padding: 10px 18px; border-radius: 12px; text-align: center; max-width: 80%; }
  :host([status="cleared"]) .end span { background: rgb(22 163 74 / 0.92); }
  :host([locked]) .pile { cursor: default; }
  @media (prefers-reduced-motion: reduce) {
    .pile::before { transition: none; }
  }
  @media (prefers-color-scheme: dark) {
    :host { color: #e7e9f3; --board-bg: #20253b; --cut: #5b6385; }
    .group-info { color: #a2a8c0; }
    .pile.hint::after { border-color: #fff; }
  }
`;

const reducedMotion = () => globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export class SameGameBoard extends HTMLElement {
  #game = null;
  #grid;
  #counts;
  #info;
  /** The live region a player's click is said in (screen readers only). */
  #live;
  #badge;
  #end;
  /** The pile elements by the cell they stand on. */
  #piles = new Map();
  /** The cells highlighted as the hovered group. */
  #group = [];
  #hovered = null;
  /** The cell the keyboard focus was last on: the grid's own focus starts the arrows from there. */
  #cursor = 0;
  #hint = null;
  #locked = false;
  /** Animations running (their `finished` promises). */
  #running = new Set();

  constructor() {
    super();
    ({
      grid: this.#grid,
      counts: this.#counts,
      info: this.#info,
      badge: this.#badge,
      end: this.#end,
      live: this.#live,
    } = attachBoardShadow(this, {
      style: STYLE,
      markup: `
      <div class="frame" part="frame">
        <div class="counts" part="counts"></div>
        <div class="wrap">
          <div class="grid" part="grid" role="grid" aria-label="Board"></div>
          <div class="badge" part="badge" hidden></div>
          <div class="end" hidden><span></span></div>
        </div>
        <div class="group-info" part="group-info" aria-live="polite"></div>
      </div>`,
      parts: { grid: ".grid", counts: ".counts", info: ".group-info", badge: ".badge", end: ".end" },
    }));
    // Focusable by script only while it has piles (#updateTabStop): it keeps the focus when the
    // focused pile goes.
    this.#grid.tabIndex = -1;
    this.#grid.addEventListener("pointerover", (event) => this.#hover(this.#cellOf(event.target)));
    this.#grid.addEventListener("focusin", (event) => {
      const cell = this.#cellOf(event.target);
      if (cell !== null) this.#cursor = cell;
      this.#updateTabStop();
      this.#hover(cell);
    });
    this.#grid.addEventListener("pointerleave", () => this.#hover(null));
    this.#grid.addEventListener("focusout", (event) => {
      if (!this.#grid.contains(event.relatedTarget)) this.#hover(null);
    });
    this.#grid.addEventListener("click", (event) => {
      const cell = this.#cellOf(event.target);
      if (cell === null || this.#locked) return;
      this.#userClick(cell);
    });
    this.#grid.addEventListener("keydown", (event) => this.#onKey(event));
  }

  get game() {
    return this.#game;
  }

  set game(game) {
    this.#game = replaceGame(this.#game, game);
    this.#hint = null;
    this.#render();
  }

  get locked() {
    return this.#locked;
  }

  set locked(value) {
    this.#locked = Boolean(value);
    this.toggleAttribute("locked", this.#locked);
    if (this.#locked) this.#hover(null);
  }

  /** Resolves once every running animation has finished. */
  get settled() {
    return Promise.all([...this.#running]).then(() => {});
  }

  /** Clicks `cell` (animated); SameGameHandle.click's report, or throws its Error. */
  click(cell, source = "program") {
    const game = this.#game;
    const report = game.click(cell);
    const focused = this.#focusedCell();
    this.#hint = null;
    this.#animate(report);
    if (focused !== null && !this.#pileFocused()) this.#refocus(focused);
    this.#updateTabStop();
    this.#hoverAfterMove();
    if (source === "user") this.#live.textContent = this.#clickText(report);
    const detail = { action: "click", cell, ...report, source };
    fireEvent(this, "samegame-move", detail);
    if (report.over) fireEvent(this, "samegame-over", { clicks: report.clicks, score: report.score, cleared: report.cleared, piles: game.piles, source });
    return report;
  }

  /** Takes back the last click; false when there was none. */
  undo(source = "program") {
    if (!this.#game?.undo()) return false;
    this.#afterJump("undo", source);
    return true;
  }

  /** Back to the board the game started from. */
  restart(source = "program") {
    if (!this.#game) return;
    this.#game.restart();
    this.#afterJump("restart", source);
  }

  /** Rings the hinted group (SameGameHandle.hint's answer) until the next move; null clears it. */
  showHint(hint) {
    this.#hint = hint;
    for (const [cell, pile] of this.#piles) pile.classList.toggle("hint", Boolean(hint?.group.includes(cell)));
  }

  /** Redraws from the game (after a change made to the handle directly). */
  refresh() {
    this.#render();
  }

  // ---- drawing ------------------------------------------------------------------------------------

  #render() {
    const focused = this.#focusedCell();
    for (const animation of this.#grid.getAnimations({ subtree: true })) animation.cancel();
    this.#running.clear();
    this.#grid.replaceChildren();
    this.#piles.clear();
    const game = this.#game;
    if (!game) return;
    this.setAttribute("rules", game.rules);
    this.#grid.style.setProperty("--cols", game.width);
    this.#grid.style.setProperty("--rows", game.height);
    if (game.rules === "dust" && game.width > 1) {
      const cut = document.createElement("div");
      cut.className = "cut";
      cut.style.left = `${((game.width >> 1) * 100) / game.width}%`;
      this.#grid.append(cut);
    }
    const cells = game.cells();
    cells.forEach((colour, cell) => {
      if (colour !== 0) this.#grid.append(this.#newPile(cell, colour));
    });
    this.#hover(null);
    this.#showCounts();
    if (this.#hint) this.showHint(this.#hint);
    if (focused !== null) this.#refocus(focused);
    this.#updateTabStop();
  }

  #newPile(cell, colour) {
    const pile = document.createElement("button");
    pile.type = "button";
    pile.className = "pile";
    pile.dataset.colour = colour;
    pile.style.setProperty("--colour", COLOURS[colour] ?? "#888");
    this.#place(pile, cell);
    this.#piles.set(cell, pile);
    return pile;
  }

  #place(pile, cell) {
    const { width } = this.#game;
    pile.dataset.cell = cell;
    pile.style.setProperty("--col", cell % width);
    pile.style.setProperty("--row", Math.floor(cell / width));
    pile.setAttribute("aria-label", `colour ${pile.dataset.colour}, row ${Math.floor(cell / width) + 1}, column ${(cell % width) + 1}`);
  }

  /** The removed piles fade, then each pile left falls (down first) and slides to its column. */
  #animate(report) {
    const animate = !reducedMotion();
    const { width } = this.#game;
    for (const cell of report.cells) {
      const pile = this.#piles.get(cell);
      this.#piles.delete(cell);
      if (!pile) continue;
      pile.disabled = true;
      if (!animate) {
        pile.remove();
        continue;
      }
      pile.style.zIndex = "0";
      this.#track(pile.animate([{ opacity: 1, transform: "scale(1)" }, { opacity: 0, transform: "scale(0.3)" }], { duration: FADE_MS, easing: "ease-in", fill: "forwards" }), () => pile.remove());
    }
    const next = new Map();
    for (const [from, to] of report.moved) {
      const pile = this.#piles.get(from);
      if (!pile) continue;
      this.#piles.delete(from);
      next.set(to, pile);
      if (from === to) continue;
      this.#place(pile, to);
      if (!animate) continue;
      const dx = (from % width) - (to % width);
      const dy = Math.floor(from / width) - Math.floor(to / width);
      const frames = [{ transform: `translate(${dx * 100}%, ${dy * 100}%)` }];
      if (dx !== 0 && dy !== 0) frames.push({ transform: `translate(${dx * 100}%, 0)`, offset: 0.5 });
      frames.push({ transform: "translate(0, 0)" });
      this.#track(pile.animate(frames, { duration: MOVE_MS * (dx !== 0 && dy !== 0 ? 2 : 1), delay: FADE_MS * 0.8, easing: "ease-in-out", fill: "backwards" }));
    }
    for (const pile of this.#piles.values()) pile.remove();
    this.#piles = next;
    this.#showCounts();
  }

  #track(animation, then) {
    const done = animation.finished.then(
      () => then?.(),
      () => then?.(),
    );
    this.#running.add(done);
    done.then(() => this.#running.delete(done));
  }

  #afterJump(action, source) {
    this.#hint = null;
    this.#render();
    const game = this.#game;
    fireEvent(this, "samegame-move", { action, cell: null, cells: [], moved: [], points: 0, score: game.score, clicks: game.clicks, over: game.isOver, cleared: game.isCleared, source });
  }

  #showCounts() {
    const game = this.#game;
    const clicks = `${game.clicks} ${game.clicks === 1 ? "click" : "clicks"}`;
    const piles = `${game.piles} ${game.piles === 1 ? "pile" : "piles"} left`;
    this.#counts.textContent = game.rules === "samegame" ? `Score ${game.score} · ${clicks} · ${piles}` : `${clicks} · ${piles}`;
    const status = game.isCleared ? "cleared" : game.isOver ? "over" : "playing";
    this.setAttribute("status", status);
    this.#end.hidden = status === "playing";
    if (status === "cleared") {
      this.#end.firstElementChild.textContent = game.rules === "samegame" ? `Cleared! Score ${game.score}` : `Cleared in ${clicks}`;
    } else if (status === "over") {
      this.#end.firstElementChild.textContent = `No groups left · score ${game.score}`;
    }
  }

  // ---- hover, focus and keys ----------------------------------------------------------------------

  /**
   * The cell of the focused pile (the grid itself focused: the cell last focused), or null when
   * the focus is not on the board.
   */
  #focusedCell() {
    const active = this.shadowRoot.activeElement;
    if (active === this.#grid) return this.#cursor;
    return active?.classList?.contains("pile") ? Number(active.dataset.cell) : null;
  }

  /** Whether a pile still on the board has the focus. */
  #pileFocused() {
    const active = this.shadowRoot.activeElement;
    return Boolean(active?.classList?.contains("pile") && !active.disabled && active.isConnected);
  }

  /**
   * Focuses the pile at `cell`, else (none there) the pile nearest it, else (no pile left) the
   * grid, remembering `cell` for the arrows.
   */
  #refocus(cell) {
    const atCell = this.#piles.get(cell);
    const pile = atCell && !atCell.disabled ? atCell : this.#nearestPile(cell);
    (pile ?? this.#grid).focus({ preventScroll: true });
    this.#cursor = pile ? Number(pile.dataset.cell) : cell;
  }

  /** A player's click in words: what went, what is left, and the end when it came. */
  #clickText(report) {
    const game = this.#game;
    const removed = report.cells.length;
    const points = game.rules === "samegame" ? `, +${report.points} points` : "";
    const left = `${game.piles} ${game.piles === 1 ? "pile" : "piles"} left`;
    const end = game.isCleared ? ` ${this.#end.textContent}.` : game.isOver ? ` ${this.#end.textContent}.` : "";
    return `Removed ${removed} ${removed === 1 ? "pile" : "piles"}${points}; ${left}.${end}`;
  }

  /**
   * One Tab stop for the whole board (a roving tabindex; the arrows move between piles): the pile
   * at the cursor, else the one nearest it; on a board with no pile left, the grid itself (so that
   * U still undoes from the keyboard).
   */
  #updateTabStop() {
    const atCursor = this.#piles.get(this.#cursor);
    const stop = atCursor && !atCursor.disabled ? atCursor : this.#game ? this.#nearestPile(this.#cursor) : null;
    for (const pile of this.#piles.values()) pile.tabIndex = pile === stop ? 0 : -1;
    this.#grid.tabIndex = stop ? -1 : 0;
  }

  /** The pile nearest `cell` (rows and columns apart, added), or null on an empty board. */
  #nearestPile(cell) {
    const { width } = this.#game;
    let nearest = null;
    let distance = Infinity;
    for (const [at, pile] of this.#piles) {
      if (pile.disabled) continue;
      const d = Math.abs((at % width) - (cell % width)) + Math.abs(Math.floor(at / width) - Math.floor(cell / width));
      if (d < distance) [nearest, distance] = [pile, d];
    }
    return nearest;
  }

  #cellOf(target) {
    const pile = target?.closest?.(".pile");
    return pile && !pile.disabled ? Number(pile.dataset.cell) : null;
  }

  /** Highlights the group of `cell` (null: none) and says its size (and points). */
  #hover(cell) {
    for (const c of this.#group) this.#piles.get(c)?.classList.remove("group", "small");
    this.#group = [];
    this.#hovered = cell;
    const game = this.#game;
    const group = cell === null || !game || this.#locked ? null : game.group(cell);
    if (!group) {
      this.#info.textContent = "";
      this.#badge.hidden = true;
      if (cell === null) fireEvent(this, "samegame-hover", { cell: null, size: null, points: null, legal: null });
      return;
    }
    this.#group = group.cells;
    for (const c of group.cells) {
      this.#piles.get(c)?.classList.add("group");
      if (!group.legal) this.#piles.get(c)?.classList.add("small");
    }
    const samegame = game.rules === "samegame";
    const size = `${group.size} ${group.size === 1 ? "pile" : "piles"}`;
    let text = size;
    if (samegame) text = group.legal ? `${size} · +${group.points}` : `${size} · too small`;
    this.#info.textContent = `Group: ${text}`;
    this.#badge.textContent = samegame ? (group.legal ? `${group.size} · +${group.points}` : `${group.size}`) : String(group.size);
    const pile = this.#piles.get(cell);
    const col = cell % game.width;
    const row = Math.floor(cell / game.width);
    this.#badge.style.left = `${((col + 0.5) * 100) / game.width}%`;
    // On the top row the badge goes inside the board, under the pile's top edge.
    this.#badge.classList.toggle("below", row === 0);
    this.#badge.style.top = `${(row * 100) / game.height}%`;
    this.#badge.hidden = !pile;
    fireEvent(this, "samegame-hover", { cell, size: group.size, points: group.points, legal: group.legal });
  }

  /** After a move the pointer may rest over another pile: show that one's group. */
  #hoverAfterMove() {
    const cell = this.#hovered;
    this.#hover(null);
    const active = this.shadowRoot.activeElement;
    if (active?.classList?.contains("pile") && !active.disabled) this.#hover(Number(active.dataset.cell));
    else if (cell !== null && this.#piles.has(cell)) this.#hover(cell);
  }

  #userClick(cell) {
    try {
      this.click(cell, "user");
    } catch (error) {
      this.#info.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  #onKey(event) {
    const game = this.#game;
    if (!game) return;
    if ((event.key === "z" && (event.ctrlKey || event.metaKey)) || event.key === "u" || event.key === "U") {
      if (!this.#locked) this.undo("user");
      event.preventDefault();
      return;
    }
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!step) return;
    // From the grid itself (its focused pile went), an arrow goes to the pile nearest where it was.
    if (event.target === this.#grid) {
      event.preventDefault();
      this.#nearestPile(this.#cursor)?.focus();
      return;
    }
    const from = this.#cellOf(event.target);
    if (from === null) return;
    event.preventDefault();
    let col = from % game.width;
    let row = Math.floor(from / game.width);
    for (;;) {
      col += step[0];
      row += step[1];
      if (col < 0 || row < 0 || col >= game.width || row >= game.height) return;
      const pile = this.#piles.get(row * game.width + col);
      if (pile && !pile.disabled) {
        pile.focus();
        return;
      }
    }
  }
}

defineBoard("samegame-board", SameGameBoard);
