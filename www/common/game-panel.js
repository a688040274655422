// What the game modes of <puzzle-widget> share (2048/, minesweeper/, sudoku/ and
// samegame/widget-panel.js): the base class of their panels, which lays out the panel's board and
// buttons, holds the widget's callbacks and passes the board's events on as the widget's, and the
// reading of the `start` attribute, which each checks with its own game's parser.

import { adoptStyle } from "./style-sheets.js";
import { errorMessage } from "./wasm.js";
import { AttributeError } from "./widget-attributes.js";

/**
 * The `start` attribute of `element`, trimmed ("" when absent or blank). A board given is checked
 * with `check(start)`, which throws the game's own error when it cannot read it: that error is
 * raised as the attribute's AttributeError.
 */
export function parseStart(element, check) {
  const start = (element.getAttribute("start") ?? "").trim();
  if (start) {
    try {
      check(start);
    } catch (error) {
      throw new AttributeError("start", start, errorMessage(error));
    }
  }
  return start;
}

/** "row R, column C" (counted from 1) of the cell numbered `cell` on a board `width` cells wide. */
export function cellName(cell, width) {
  return `row ${Math.floor(cell / width) + 1}, column ${(cell % width) + 1}`;
}

/**
 * The markup of a panel's button `[action, label, { primary, slot }]`: `data-action` names it in
 * the panel's `buttons`, `part` lets the page style it, `primary` marks the panel's main action and
 * `slot` puts it in the board's slot of that name.
 */
function buttonMarkup([action, label, { primary = false, slot = null } = {}]) {
  return `<button type="button"${slot ? ` slot="${slot}"` : ""} part="button ${action}"${primary ? ' class="primary"' : ""} data-action="${action}">${label}</button>`;
}

/**
 * A game mode's panel: the widget (widget.js) creates it with the panel's `container` and `host`
 * ({ api, emit, setStatus, showError }: the wasm API, and the callbacks that fire the widget's
 * events and write its status and error lines), reads and checks the attributes and calls
 * `configure`. The subclass says what the panel holds:
 * - `name`: the container's class; the panel shows the board <`name`-board part="board"> above a
 *   wrapping row of buttons <div class=`controls` part="controls"> (`name`-controls unless given);
 * - `buttons`: [action, label, options] of each button (see buttonMarkup), and `moreControls`:
 *   markup after them in the row; `style`: the panel's CSS beyond the layout;
 * - `clicks`: by action, what a click on its button does (the `new` button starts a new game and
 *   `hint` asks for a hint unless these say otherwise);
 * - `events`: [board event, widget event] pairs: the board's events the widget fires again under
 *   its own name; `onEvent(type, event)` runs first (the widget event's type, the board's event).
 * The board is `board`, and every element with a `data-action` is `buttons[action]`.
 */
export class GamePanel {
  #board;
  #buttons;
  #host;
  /** The options of the last `configure` (optionsFromAttributes' answer), null before. */
  options = null;

  constructor(container, host, { name, controls = `${name}-controls`, style, buttons, moreControls = "", clicks = {}, events = [], onEvent = () => {} }) {
    this.#host = host;
    const slotted = buttons.filter(([, , options]) => options?.slot);
    const inRow = buttons.filter(([, , options]) => !options?.slot);
    const row = (markup) => markup.map((line) => `\n        ${line}`).join("");
    container.innerHTML = `
      <${name}-board part="board">${slotted.length > 0 ? `${row(slotted.map(buttonMarkup))}\n      ` : ""}</${name}-board>
      <div class="${controls}" part="controls">${row([...inRow.map(buttonMarkup), moreControls].filter(Boolean))}
      </div>`;
    adoptStyle(
      container.getRootNode(),
      `.${name} { display: flex; flex-direction: column; gap: 10px; align-items: stretch; }
.${name} .${controls} { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
${style}`,
    );
    this.#board = container.querySelector(`${name}-board`);
    this.#buttons = Object.fromEntries(Array.from(container.querySelectorAll("[data-action]"), (element) => [element.dataset.action, element]));
    const actions = { new: () => this.newGame(), hint: () => this.hint().catch(() => {}), ...clicks };
    for (const [action, click] of Object.entries(actions)) this.#buttons[action]?.addEventListener("click", click);
    for (const [from, to] of events) {
      this.#board.addEventListener(from, (event) => {
        event.stopPropagation();
        onEvent(to, event);
        this.emit(to, event.detail);
      });
    }
  }

  /** The inner board element. */
  get board() {
    return this.#board;
  }

  /** The panel's buttons (and other controls with a data-action) by name. */
  get buttons() {
    return this.#buttons;
  }

  /** The wasm module's API. */
  get api() {
    return this.#host.api;
  }

  /** Fires the widget's event `type`. */
  emit(type, detail) {
    this.#host.emit(type, detail);
  }

  /** Writes the widget's status line ("" empties it). */
  setStatus(text) {
    this.#host.setStatus(text);
  }

  /** Shows `message` in the widget's error line (null clears it). */
  showError(message) {
    this.#host.showError(message);
  }

  /**
   * Keeps `options` as the panel's; whether they ask for another game than the previous ones did
   * (always at the first call): `gameOf(options)` lists the options that make the game.
   */
  takeOptions(options, gameOf) {
    const previous = this.options;
    this.options = options;
    return !previous || JSON.stringify(gameOf(previous)) !== JSON.stringify(gameOf(options));
  }

  /** Shows the buttons named in `options.controls` out of `names`, and hides the others. */
  showControls(names) {
    for (const name of names) this.#buttons[name].hidden = !this.options.controls.has(name);
  }
}
