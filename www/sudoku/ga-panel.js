// The Sudoku page's genetic-algorithm card: the coursework's GA (docs/sudoku.md, "Genetic
// algorithm") on the board's puzzle or one of the experiment's grids, run in sudoku/ga-worker.js
// with the population, time limit, initialisation, repair and seed chosen here; a live chart of
// the best and mean fitness by generation (common/chart.js), the run's numbers, and the best grid
// so far with its repeated digits marked. Start and Stop; one run at a time.
//
// For tests the card's section carries data-state ("idle" | "running" | "solved" | "time" |
// "stopped" | "error"), data-generation and data-best, and its `gaPanel` property is the panel.

import { LineChart } from "../common/chart.js";
import { WorkerClient, errorMessage } from "../common/worker-protocol.js";
import { numberFormat } from "../common/number-format.js";

const POPULATIONS = [10, 100, 1000, 10000];
const DEFAULT_POPULATION = 1000;
const DEFAULT_SECONDS = 60;
/** The longest time limit the card accepts (an hour). */
const MAX_SECONDS = 3600;
const MAX_FITNESS = 243;

const HTML = `
<p class="help">
  The coursework's genetic algorithm: each candidate grid keeps the givens and fills every row with a
  permutation of its missing digits; its fitness counts the distinct digits in each of the 27 rows,
  columns and boxes (243 = solved), and each generation keeps 40% by fitness bands and refills the
  rest by exchanging rows between two survivors and swapping two cells of a row.
  It is an experiment, not a good way to solve Sudoku: the exact solver behind <em>Hint</em> finishes
  any of these puzzles in milliseconds, while the GA may need thousands of generations or never get there.
</p>
<div class="field-grid">
  <label class="field">
    <span class="field-label">Puzzle</span>
    <select id="ga-puzzle"><option value="board">The board's puzzle</option></select>
  </label>
  <label class="field">
    <span class="field-label">Population</span>
    <select id="ga-population">${POPULATIONS.map(
      (size) => `<option value="${size}"${size === DEFAULT_POPULATION ? " selected" : ""}>${numberFormat.format(size)}</option>`,
    ).join("")}</select>
  </label>
  <label class="field">
    <span class="field-label">Time limit (s)</span>
    <input id="ga-seconds" type="number" min="1" max="${MAX_SECONDS}" step="1" value="${DEFAULT_SECONDS}" inputmode="numeric" />
  </label>
  <label class="field">
    <span class="field-label">Initialisation</span>
    <select id="ga-init">
      <option value="rows" selected>Rows</option>
      <option value="boxes">Boxes</option>
    </select>
  </label>
  <label class="field">
    <span class="field-label">Seed</span>
    <input id="ga-seed" type="number" min="0" step="1" value="1" inputmode="numeric" />
  </label>
</div>
<label class="check"><input id="ga-repair" type="checkbox" /> Repair: after mutation, each row's (or box's) best improving swap (ours, off in the coursework)</label>
<p id="ga-puzzle-help" class="help"></p>
<div class="buttons">
  <button id="ga-start" class="primary" type="button">Start</button>
  <button id="ga-stop" type="button" disabled>Stop</button>
</div>
<p id="ga-error" class="error" role="alert" hidden></p>
<p id="ga-status" class="status" role="status" aria-live="polite"></p>
<canvas id="ga-chart" class="chart ga-chart"></canvas>
<div class="ga-best" hidden>
  <div id="ga-grid" class="ga-grid" role="img"></div>
  <p id="ga-grid-note" class="help"></p>
</div>
`;

export class GaPanel {
  #section;
  #board;
  #grids;
  #elements;
  #chart;
  #client = null;
  /** The run under way: { request (its promise), seconds (its time limit) }, or null. */
  #run = null;
  /** Whether each cell of the last run's puzzle is a given (both puzzle sources are one line of 81). */
  #givens = [];

  /** `section`: the card (its h2 already there); `board`: the page's <sudoku-board>; `api`: the core bundle. */
  constructor(section, { board, api }) {
    this.#section = section;
    this.#board = board;
    this.#grids = api.sudokuGaGrids();
    const body = document.createElement("div");
    body.className = "ga-body";
    body.innerHTML = HTML;
    section.append(body);
    const $ = (id) => body.querySelector(`#ga-${id}`);
    this.#elements = {
      puzzle: $("puzzle"),
      puzzleHelp: $("puzzle-help"),
      population: $("population"),
      seconds: $("seconds"),
      init: $("init"),
      seed: $("seed"),
      repair: $("repair"),
      start: $("start"),
      stop: $("stop"),
      error: $("error"),
      status: $("status"),
      grid: $("grid"),
      gridNote: $("grid-note"),
      best: body.querySelector(".ga-best"),
    };
    for (const grid of this.#grids) {
      const option = document.createElement("option");
      option.value = grid.name;
      const givens = [...grid.puzzle].filter((digit) => digit !== "0").length;
      option.textContent = `${grid.name} (${givens} givens)`;
      this.#elements.puzzle.append(option);
    }
    this.#elements.puzzle.value = "grid1";
    this.#chart = new LineChart($("chart"), {
      title: "Fitness by generation",
      xLabel: "generations",
      includeZero: false,
      yMax: MAX_FITNESS,
      integerX: true,
      emptyText: "Start a run: its best and mean fitness show here",
      series: [
        { name: "best", color: "--chart-1" },
        { name: "mean", color: "--chart-2" },
      ],
      formatY: (y) => (Number.isInteger(y) ? String(y) : y.toFixed(1)),
    });
    this.#elements.puzzle.addEventListener("change", () => this.#describePuzzle());
    this.#elements.init.addEventListener("change", () => this.#describePuzzle());
    this.#elements.start.addEventListener("click", () => this.start());
    this.#elements.stop.addEventListener("click", () => this.stop());
    for (const input of [this.#elements.seconds, this.#elements.seed]) {
      input.addEventListener("input", () => input.removeAttribute("aria-invalid"));
    }
    this.#describePuzzle();
    this.#setState("idle");
    section.gaPanel = this;
  }

  get chart() {
    return this.#chart;
  }

  /** Says which puzzle runs (the board's changes as the player picks another) and what the initialisation means. */
  #describePuzzle() {
    const choice = this.#elements.puzzle.value;
    const grid = this.#grids.find((entry) => entry.name === choice);
    const init =
      this.#elements.init.value === "rows"
        ? "Rows: the coursework's (rows start as permutations; crossover exchanges rows)."
        : "Boxes: its proposal (boxes start as permutations; crossover exchanges boxes).";
    const puzzle = grid
      ? `${grid.name}, one of the experiment's three grids: ${grid.description}.`
      : "The puzzle on the board when Start is pressed (9 × 9 only; the digits you placed are left out).";
    this.#elements.puzzleHelp.textContent = `${puzzle} ${init}`;
  }

  /** The puzzle text to run: the chosen grid's, or the board's givens. */
  #puzzleText() {
    const choice = this.#elements.puzzle.value;
    if (choice !== "board") return this.#grids.find((grid) => grid.name === choice).puzzle;
    const game = this.#board.game;
    if (!game) throw new Error("The board has no puzzle yet.");
    return game.puzzleText();
  }

  /** The settings from the form, or an Error naming the field (which is marked). */
  #settings() {
    const { seconds: secondsInput, seed: seedInput } = this.#elements;
    const seconds = Number(secondsInput.value);
    if (secondsInput.value.trim() === "" || !(seconds > 0 && seconds <= MAX_SECONDS)) {
      secondsInput.setAttribute("aria-invalid", "true");
      throw new Error(`Time limit: a number of seconds above 0 and at most ${numberFormat.format(MAX_SECONDS)}.`);
    }
    const seed = Number(seedInput.value);
    if (seedInput.value.trim() === "" || !Number.isSafeInteger(seed) || seed < 0) {
      seedInput.setAttribute("aria-invalid", "true");
      throw new Error("Seed: a whole number from 0 to 2^53 − 1.");
    }
    return {
      puzzle: this.#puzzleText(),
      population: Number(this.#elements.population.value),
      init: this.#elements.init.value,
      repair: this.#elements.repair.checked,
      seed,
      seconds,
    };
  }

  #workerClient() {
    this.#client ??= new WorkerClient(new URL("./ga-worker.js", import.meta.url), { name: "genetic-algorithm worker" });
    return this.#client;
  }

  /** Starts a run with the form's settings; resolves when it ends (never rejects: errors are shown). */
  async start() {
    if (this.#run) return;
    this.#showError("");
    let settings;
    try {
      settings = this.#settings();
    } catch (error) {
      this.#showError(errorMessage(error));
      return;
    }
    const client = this.#workerClient();
    this.#givens = Array.from(settings.puzzle, (c) => c >= "1" && c <= "9");
    this.#chart.clear();
    this.#elements.best.hidden = true;
    this.#setState("running");
    this.#elements.status.textContent = "Starting…";
    const request = client.request({ type: "run", ...settings }, (progress) => this.#progress(progress));
    this.#run = { request, seconds: settings.seconds };
    try {
      const result = await request;
      this.#showBest(result);
      this.#elements.status.textContent = this.#endText(result, this.#run.seconds);
      this.#setState(result.reason, result);
    } catch (error) {
      this.#elements.status.textContent = "";
      this.#showError(errorMessage(error));
      this.#setState("error");
    } finally {
      this.#run = null;
    }
  }

  /** Stops the run after the worker's current slice. */
  async stop() {
    if (!this.#run) return;
    this.#elements.stop.disabled = true;
    try {
      await this.#client.stop();
    } catch (error) {
      this.#showError(errorMessage(error));
    }
  }

  #progress(progress) {
    for (const point of progress.points) {
      this.#chart.add(0, point.generation, point.best);
      this.#chart.add(1, point.generation, point.mean);
    }
    this.#section.dataset.generation = String(progress.generation);
    this.#section.dataset.best = String(progress.best);
    const rate = progress.ms > 0 ? (progress.generation / progress.ms) * 1000 : 0;
    this.#elements.status.textContent =
      `Generation ${numberFormat.format(progress.generation)} · best ${progress.best} of ${MAX_FITNESS} · ` +
      `mean ${progress.mean.toFixed(1)} · ${seconds(progress.ms)} · ${numberFormat.format(Math.round(rate))} generations/s`;
    this.#showBest(progress);
  }

  /** The status once a run is over; `limit`: its time limit in seconds. */
  #endText(result, limit) {
    const generation = `generation ${numberFormat.format(result.generation)}`;
    const rate = result.ms > 0 ? ` (${numberFormat.format(Math.round((result.generation / result.ms) * 1000))} generations/s)` : "";
    switch (result.reason) {
      case "solved":
        return `Solved in ${seconds(result.msToSolve)}, at ${generation}${rate}: fitness ${MAX_FITNESS}.`;
      case "time":
        return `Not solved within the ${numberFormat.format(limit)} s limit: the best has fitness ${result.best} of ${MAX_FITNESS} at ${generation}${rate}.`;
      case "stopped":
        return `Stopped after ${seconds(result.ms)} at ${generation}: the best has fitness ${result.best} of ${MAX_FITNESS}.`;
      default:
        return `After ${generation}: the best has fitness ${result.best} of ${MAX_FITNESS}.`;
    }
  }

  /** The best grid, small: givens bold, digits that repeat in a row, column or box marked. */
  #showBest({ bestGrid, conflicts, best }) {
    const repeated = new Set(conflicts);
    const givens = this.#givens;
    const cells = Array.from(bestGrid, (digit, cell) => {
      const span = document.createElement("span");
      span.className = "ga-cell";
      if (givens?.[cell]) span.classList.add("given");
      if (repeated.has(cell)) span.classList.add("repeat");
      span.textContent = String(digit);
      return span;
    });
    this.#elements.grid.replaceChildren(...cells);
    this.#elements.grid.setAttribute("aria-label", `The best grid so far, fitness ${best}: ${repeated.size} cells repeat a digit in a row, column or box.`);
    this.#elements.gridNote.textContent =
      repeated.size === 0
        ? `The best grid (fitness ${best}): no digit repeats, every row, column and box holds 1–9.`
        : `The best grid (fitness ${best}): the ${repeated.size} marked cells repeat a digit in a row, column or box; bold digits are givens.`;
    this.#elements.best.hidden = false;
  }

  #showError(message) {
    this.#elements.error.textContent = message;
    this.#elements.error.hidden = !message;
  }

  #setState(state, result = null) {
    const running = state === "running";
    this.#section.dataset.state = state;
    if (result) {
      this.#section.dataset.generation = String(result.generation);
      this.#section.dataset.best = String(result.best);
    }
    this.#elements.start.disabled = running;
    this.#elements.stop.disabled = !running;
    for (const input of [this.#elements.puzzle, this.#elements.population, this.#elements.seconds, this.#elements.init, this.#elements.seed, this.#elements.repair]) {
      input.disabled = running;
    }
  }
}

/** "0.42 s", "12.3 s". */
function seconds(ms) {
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}
