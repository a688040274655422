// What the puzzle pages' scripts share (minesweeper/, sudoku/ and samegame/app.js): random seeds,
// the error lines under their cards, and the speed slider of a solver card.

/** A random seed for a new game (a whole number below 2^32). */
export function randomSeed() {
  return Math.floor(Math.random() * 2 ** 32);
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
