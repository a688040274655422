// What the puzzles' board elements share (sliding/board.js, 2048/game.js, minesweeper/board.js,
// sudoku/board.js, samegame/board.js): the making of their shadow root, the accessible defaults a
// board sets when it joins a page, boolean properties reflected as attributes, the game handle a
// board owns, the clock of the boards that time their games, their events and their definition.

import { adoptStyle } from "./style-sheets.js";

/** The live region a board announces its moves in (for screen readers only), and its style. */
const LIVE_REGION = `
      <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>`;
const LIVE_REGION_STYLE = `
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }`;

/**
 * Gives `board` its (open) shadow root: `style` (an adopted sheet: adoptStyle), then `markup`, then, with `live`, the live region.
 * Returns the elements it will use: by name, the first that each selector of `parts` selects, and
 * the live region as `live`.
 */
export function attachBoardShadow(board, { style, markup, parts, live = true }) {
  const shadow = board.attachShadow({ mode: "open" });
  shadow.innerHTML = `${markup}${live ? LIVE_REGION : ""}`;
  adoptStyle(shadow, `${style}${live ? LIVE_REGION_STYLE : ""}`);
  const found = Object.fromEntries(Object.entries(parts).map(([name, selector]) => [name, shadow.querySelector(selector)]));
  if (live) found.live = shadow.lastElementChild;
  return found;
}

/**
 * Gives `board` what a board played with the keyboard needs, unless the page set it: a place in the
 * tab order, role "group", `label` (when given) and `description` (how to play it) as its
 * aria-label and aria-description; its aria-roledescription is always `kind`.
 */
export function describeBoard(board, { kind, label, description }) {
  if (!board.hasAttribute("tabindex")) board.tabIndex = 0;
  if (!board.hasAttribute("role")) board.setAttribute("role", "group");
  board.setAttribute("aria-roledescription", kind);
  if (label !== undefined && !board.hasAttribute("aria-label")) board.setAttribute("aria-label", label);
  if (!board.hasAttribute("aria-description")) board.setAttribute("aria-description", description);
}

/**
 * Gives the elements of class `BoardClass` a property per name of `names`: true while the element
 * has the attribute of that name, and setting it adds or removes the attribute. `onSet(element,
 * value)` runs after each setting (a locked board also says so as aria-disabled, say).
 */
export function reflectBooleanAttributes(BoardClass, names, onSet = () => {}) {
  for (const name of names) {
    Object.defineProperty(BoardClass.prototype, name, {
      configurable: true,
      get() {
        return this.hasAttribute(name);
      },
      set(value) {
        this.toggleAttribute(name, Boolean(value));
        onSet(this, Boolean(value));
      },
    });
  }
}

/**
 * Defines the element `name` as `BoardClass`, with the boolean properties `flags` (and `onSet`: see
 * reflectBooleanAttributes), unless the page has one of that name already.
 */
export function defineBoard(name, BoardClass, flags = [], onSet = undefined) {
  reflectBooleanAttributes(BoardClass, flags, onSet);
  if (!customElements.get(name)) customElements.define(name, BoardClass);
}

/**
 * Fires the board's event `type` with `detail`: it bubbles, out of shadow roots too. `cancelable`
 * events return false when a listener called preventDefault() (the end of a game: the page says
 * it in its own status line, so the board does not say it again).
 */
export function fireEvent(board, type, detail, { cancelable = false } = {}) {
  return board.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
}

/** A locked board's aria-disabled: reflectBooleanAttributes' `onSet` for `locked`. */
export function setAriaDisabled(board, locked) {
  board.setAttribute("aria-disabled", String(locked));
}

/**
 * The game handle (a wasm object) a board owns from now on: `next`, after freeing `previous`, the
 * one it owned, unless they are the same.
 */
export function replaceGame(previous, next) {
  if (previous && previous !== next) previous.free();
  return next;
}

/**
 * A game's clock: it runs from start() to stop(), calling `onTick` every second while it runs (the
 * board redraws its timer), and it counts whole seconds.
 */
export class GameClock {
  #startedAt = 0;
  #endedAt = 0;
  #timer = 0;
  #onTick;

  constructor(onTick) {
    this.#onTick = onTick;
  }

  /** Whether the clock was started (since the last reset). */
  get started() {
    return this.#startedAt !== 0;
  }

  /** Seconds on the clock: 0 before start(), frozen by stop(). */
  get seconds() {
    if (!this.#startedAt) return 0;
    return Math.floor(((this.#endedAt || performance.now()) - this.#startedAt) / 1000);
  }

  /** Starts the clock now, from 0 or from `seconds` already played (a game carried on). */
  start(seconds = 0) {
    this.#startedAt = performance.now() - Math.max(0, seconds) * 1000;
    this.resume();
  }

  /** Stops the clock at the end of the game (the first stop counts). */
  stop() {
    if (this.#endedAt) return;
    this.#endedAt = performance.now();
    this.suspend();
  }

  /** Back to 0, not started (a new game). */
  reset() {
    this.suspend();
    this.#startedAt = 0;
    this.#endedAt = 0;
  }

  /** Stops the ticks, not the time (the board left the page). */
  suspend() {
    clearInterval(this.#timer);
    this.#timer = 0;
  }

  /** Ticks again while the clock runs (the board is back on a page). */
  resume() {
    if (this.#startedAt && !this.#endedAt && !this.#timer) this.#timer = setInterval(this.#onTick, 1000);
  }
}
