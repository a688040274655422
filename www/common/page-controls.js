// What the puzzle pages' scripts share (every page's app.js): random seeds, the error lines under
// their cards, the speed slider of a solver card, setting up a card whose module loads after the
// page has started, and what a page keeps in the browser's storage (a game carried on over a reload,
// or when Back returns to an address the page left by a link).

import { errorMessage } from "./worker-protocol.js";

/** A random seed for a new game (a whole number below 2^32). */
export function randomSeed() {
  return Math.floor(Math.random() * 2 ** 32);
}

/**
 * The JSON kept under `key` in the browser's `storage` ("local": for later visits, "session": for
 * this tab), or null when there is none, it is not JSON, or storage is turned off.
 */
export function readKept(storage, key) {
  try {
    return JSON.parse(globalThis[`${storage}Storage`].getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/**
 * Keeps `value` as JSON under `key` in `storage` (see readKept); null forgets it. Where storage is
 * turned off or full, nothing is kept (the page goes on; a reload then starts afresh).
 */
export function writeKept(storage, key, value) {
  try {
    if (value === null) globalThis[`${storage}Storage`].removeItem(key);
    else globalThis[`${storage}Storage`].setItem(key, JSON.stringify(value));
  } catch {
    // storage turned off or full
  }
}

/** How many games a tab keeps by their address (keptFor, keepFor): the latest ones. */
const GAMES_KEPT = 10;

/**
 * The game kept under `key` in `storage` for the address (or position) `id`, or null: a tab keeps
 * the games of its last few addresses (keepFor), so that a reload, or Back to an address the page
 * followed a link from, carries on the game that was there.
 */
export function keptFor(storage, key, id) {
  const kept = readKept(storage, key);
  return (Array.isArray(kept) && kept.find((entry) => entry?.id === id)?.game) || null;
}

/** Keeps `game` for the address `id` (the latest GAMES_KEPT addresses are kept); null forgets that address's game. */
export function keepFor(storage, key, id, game) {
  const kept = readKept(storage, key);
  const others = Array.isArray(kept) ? kept.filter((entry) => entry?.id !== id) : [];
  const games = [...(game === null ? [] : [{ id, game }]), ...others].slice(0, GAMES_KEPT);
  writeKept(storage, key, games.length > 0 ? games : null);
}

/**
 * Sets up a card whose module the page imports only after it has started (`load`: the dynamic
 * import, so that the board does not wait for it): resolves to `mount(module)`; where the module
 * cannot be loaded or the card not set up, `container` says "<what> is not available in this
 * build." and the console says why (`name`: the module), and it resolves to null. Nothing happens
 * without a container (a page built without the card).
 */
export async function mountLaterCard(container, { load, mount, what, name }) {
  if (!container) return null;
  try {
    return mount(await load());
  } catch (error) {
    const note = container.ownerDocument.createElement("p");
    note.className = "help";
    note.textContent = `${what} is not available in this build.`;
    container.append(note);
    console.warn(`${name}: ${errorMessage(error)}`);
    return null;
  }
}

/** Shows `message` in the error line `element`, hidden while the message is "". */
export function showError(element, message) {
  element.textContent = message;
  element.hidden = !message;
}

/**
 * The speed slider of a solver card: `input`, a range whose value picks one of `speeds` (moves a
 * second), and `output`, which shows the speed picked followed by `unit` ("moves/s"), from show()
 * on and whenever the slider moves.
 */
export class SpeedSlider {
  #input;
  #output;
  #speeds;
  #unit;

  constructor(input, output, speeds, unit) {
    this.#input = input;
    this.#output = output;
    this.#speeds = speeds;
    this.#unit = unit;
    input.addEventListener("input", () => this.show());
  }

  /** The speed picked, in moves a second. */
  get perSecond() {
    return this.#speeds[Number(this.#input.value)];
  }

  /** Milliseconds between two moves at the speed picked. */
  get intervalMs() {
    return 1000 / this.perSecond;
  }

  show() {
    this.#output.textContent = `${this.perSecond} ${this.#unit}`;
  }
}
