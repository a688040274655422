import { numberFormat } from "../common/number-format.js";
// The report of a model's solution in the page's "Deep Q-learning" card (train-panel.js): the
// Moves, Method, Optimal and Time lines (section#dqn #dqn-solve-stats, whose dataset holds status,
// length, method, optimalLength and, when the page's solver found the optimum, optimumBy), the
// card's play status sentence, and the solution played on the page's player. Where the learning worker
// does not know the optimum (boards over 9 cells), the page's own optimal solver finds it while
// the solution plays.


export class SolutionReport {
  #root;
  #stats;
  #player;
  #onSolution;
  #findOptimum;
  #setStatus;
  /** The running comparison with the page's optimal solver, or null. */
  #comparing = null;

  /**
   * `root`: section#dqn; `stats`: its #dqn-solve-stats; `player`: the page's SolutionPlayer;
   * `onSolution(text)`: told when a solution is shown; `findOptimum(puzzle, signal)` (null: none):
   * the page's optimal solver on the board as it is when called, a promise of { length (null when
   * it gave up), solver (its name) }, or null when no optimal solver suits the board;
   * `setStatus(text)`: the card's play status line.
   */
  constructor(root, { stats, player, onSolution = () => {}, findOptimum = null, setStatus }) {
    this.#root = root;
    this.#stats = stats;
    this.#player = player;
    this.#onSolution = onSolution;
    this.#findOptimum = findOptimum;
    this.#setStatus = setStatus;
  }

  /** Hides the lines and stops a comparison still running (a new solve begins). */
  hide() {
    this.#stats.hidden = true;
    this.#comparing?.abort();
    this.#comparing = null;
  }

  /**
   * Shows the worker's `result` for `puzzle` (still at the solution's start) solved by a `kind`
   * ("value network" or "DQN model"), and plays the solution.
   */
  show(result, puzzle, kind) {
    const stats = this.#stats;
    const method = { greedy: "Greedy", bwas: "Batch-weighted A*" }[result.method] ?? "Beam search";
    stats.dataset.status = result.status;
    stats.dataset.length = String(result.length ?? "");
    stats.dataset.optimalLength = String(result.optimalLength ?? "");
    stats.dataset.method = result.method ?? "";
    delete stats.dataset.optimumBy;
    if (result.status !== "solved") {
      this.#setStatus(
        result.method === "bwas"
          ? `The model found no way to the goal: the batch-weighted A* it guided gave up after ${numberFormat.format(result.nodes)} nodes.`
          : `The model found no way to the goal: greedy play failed within 50 moves, and the beam search it guided gave up after ${numberFormat.format(result.nodes)} nodes.`,
      );
      return;
    }
    const known = result.optimalLength !== null && result.optimalLength !== undefined;
    const extra = result.extraMoves ?? (known ? result.length - result.optimalLength : null);
    const line = (id) => this.#root.querySelector(`#dqn-stat-${id}`);
    line("length").textContent = numberFormat.format(result.length);
    line("method").textContent = method;
    line("optimal").textContent = !known ? "Unknown (board over 9 cells)" : optimalText(extra, result.optimalLength);
    line("time").textContent = `${result.ms < 10 ? result.ms.toFixed(1) : numberFormat.format(Math.round(result.ms))} ms`;
    stats.hidden = false;
    const distance = !known ? "" : extra === 0 ? ", optimal" : `, ${extra} ${extra === 1 ? "move" : "moves"} more than the optimal ${result.optimalLength}`;
    const how = result.method === "bwas" ? method : method.toLowerCase();
    const summary = `The ${kind} (${how}) found a ${result.length}-move solution${distance}.`;
    this.#setStatus(summary);
    this.#onSolution(summary);
    // The board is still at the solution's start: the page's optimal solver reads it now.
    if (!known) this.#compareWithOptimum(puzzle, result.length);
    this.#player.load(result.moves);
    this.#player.play();
  }

  /**
   * Puts the model's `length` against the optimum the page's own optimal solver finds for
   * `puzzle` (IDA* with pattern databases on the 15-puzzle) while the solution plays; a new solve
   * cancels it. Shows the result in the Optimal line and the stats' dataset.
   */
  async #compareWithOptimum(puzzle, length) {
    if (!this.#findOptimum) return;
    const controller = new AbortController();
    this.#comparing = controller;
    const line = this.#root.querySelector("#dqn-stat-optimal");
    let running;
    try {
      running = this.#findOptimum(puzzle, controller.signal);
    } catch (error) {
      line.textContent = `Unknown (the optimal solver did not start: ${error.message})`;
      return;
    }
    line.textContent = "Finding the optimum…";
    try {
      const found = await running;
      if (this.#comparing !== controller) return;
      if (!found) {
        line.textContent = "Unknown (no optimal solver for this board)";
      } else if (found.length === null || found.length === undefined) {
        line.textContent = `Unknown (${found.solver} gave up)`;
      } else {
        this.#stats.dataset.optimalLength = String(found.length);
        this.#stats.dataset.optimumBy = found.solver;
        line.textContent = `${optimalText(length - found.length, found.length)} · by ${found.solver}`;
      }
    } catch (error) {
      if (this.#comparing !== controller || controller.signal.aborted) return;
      line.textContent = `Unknown (the optimal solver failed: ${error.message})`;
    } finally {
      if (this.#comparing === controller) this.#comparing = null;
    }
  }
}

/** The Optimal line for a solution `extra` moves over the optimum `optimum`. */
function optimalText(extra, optimum) {
  return extra === 0 ? "Yes — optimal" : `${extra} more than optimal (${optimum})`;
}
