// The Sudoku page's Learn card: a deep Q-network — puzzlelab's network shared by all 810 actions
// over per-action features, or the one dense layer of Mehta's paper (src/agent/dqn/sudoku.rs) —
// trained on a small pool of generated puzzles, on the shared Learn card (common/learn-card.js).
// What is Sudoku's own: the givens and the pool, the validation puzzles solved in each of the
// paper's bins beside the paper's 7%, 2.1% and 1.2%, the model playing the board's position digit
// by digit ("Watch", its first wrong digit struck through), and its evaluation on seeded puzzles by
// bin. For tests the card carries data-outcome after a play.
//
//   import { mountSudokuDqnPanel } from "./dqn-panel.js";
//   const card = mountSudokuDqnPanel(document.querySelector("#dqn"), { board });
//
// `api`: `board` (the page's <sudoku-board>), `speedMs()` (the pause between two moves while a
// model plays, default 80 ms).

import { FieldError, percent } from "../common/card-helpers.js";
import { LearnCard, PERCENT_AXIS, barChart, epsilonChart, lineChart, lossChart, numberFormat, plural } from "../common/learn-card.js";
import { choiceField, dqnField, numberField, textField } from "../common/learn-form.js";
import { binList } from "./bins.js";

/** Mehta's DQN's published solved rates in its bins, easy, medium, hard (GuessBin::published_solved_rate). */
const PUBLISHED_SOLVED_RATES = [0.07, 0.021, 0.012];

/**
 * Each network's defaults for the fields below, as `puzzlelab sudoku train` has them
 * (cells_config and dense_config in src/agent/dqn/sudoku.rs): switching the network fills them in.
 */
const NET_DEFAULTS = {
  cells: { lr: 0.001, batch: 32, "epsilon-start": 0.3, "epsilon-decay": 0.995, "epsilon-min": 0.05, replay: 4000, warmup: 4 },
  dense: { lr: 0.001, batch: 64, "epsilon-start": 1, "epsilon-decay": 0.999, "epsilon-min": 0.1, replay: 100000, warmup: 10 },
};

/** The givens field: whole numbers from 17 to 80, comma-separated; throws a FieldError. */
function readGivens(input) {
  const givens = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
  if (givens.length === 0 || !givens.every((g) => Number.isInteger(g) && g >= 17 && g <= 80)) throw new FieldError(input, "Givens: whole numbers from 17 to 80, comma-separated.");
  return givens;
}

/** The card's description (common/learn-card.js says what each part is). */
export const SUDOKU_DQN = {
  puzzle: "sudoku",
  prefix: "sdqn",
  cli: { train: "puzzlelab sudoku train --net cells", eval: "puzzlelab sudoku eval" },
  intro: `A <strong>deep Q-network</strong> learns to fill the grid. puzzlelab's network reads a few facts about every
    (cell, digit) — is it a candidate, the cell's only one, the digit's only place in its row, column or box — through
    one small network shared by all 810 actions, learns the odds that each legal digit is right, and writes the digit it
    is surest of; a wrong digit ends the game. The paper's network (Mehta's RL paper) reads the one-hot grid through one
    dense layer of 810 × 810 weights. The same Rust code as <code>puzzlelab sudoku train</code>, here in a Web Worker on
    WebGPU or the CPU.`,
  form: {
    fields: [choiceField("net", "Network", { cells: "puzzlelab's", dense: "Mehta's (dense)" }), numberField("layers", "Layers", 2, "count", 20), numberField("filters", "Units", 32, "count", 256)],
    more: {
      label: "puzzlelab sudoku train's",
      fields: [
        numberField("puzzles", "Training puzzles", 200, "count", 10_000),
        // `puzzlelab sudoku train`'s --givens.
        textField("givens", "Givens", "22,23,24,26,28", readGivens),
        dqnField("seed", 0),
        dqnField("lr", 0.001),
        dqnField("batch", 32),
        dqnField("replay", 4000),
        dqnField("epsilon-start", 0.3),
        dqnField("epsilon-decay", 0.995),
        dqnField("epsilon-min", 0.05),
        dqnField("warmup", 4),
        dqnField("eval-every", 100),
        numberField("eval-per-bin", "Validation puzzles a bin", 10, "count", 1000, "validationSize"),
      ],
    },
    nets: { defaults: NET_DEFAULTS, locked: { dense: ["layers", "filters"] } },
    request: ({ layers, filters, evalEvery, ...options }) => ({ options: { ...options, ...(options.net === "cells" ? { layers, filters } : {}) }, evalEvery }),
    starting: ({ options }) => `; generating ${plural(options.puzzles, "training puzzle")} and the validation puzzles`,
  },
  saveName: (steps, { options }) => `sudoku-${options.net}-${steps}steps.dqn`,
  stats: {
    validation: [["solved", "Solved (easy · medium · hard)"]],
    setup: [["puzzles", "Puzzles: pool · validation"]],
    render: ({ validation, setup }) => ({
      ...(validation ? { solved: validation.bins.map((bin) => (bin.puzzles ? percent(bin.solved_rate) : "–")).join(" · ") } : {}),
      // The pool, and the validation puzzles asked for in each bin (easy/medium/hard).
      ...(setup ? { puzzles: `${numberFormat.format(setup.count)} · ${Array(3).fill(numberFormat.format(setup.validationSize)).join("/")}` } : {}),
    }),
  },
  charts: {
    help: `A step plays one move and takes one gradient step. Every few steps the network plays the validation puzzles greedily:
      puzzles binned as the paper bins them, by the guesses an exact solver needs (easy &lt; 3, medium 3–5, hard ≥ 6). The
      paper's DQN solved 7%, 2.1% and 1.2% of them.`,
    list: [
      lineChart("solved", "Validation solved, % by bin", [["easy", "--chart-2", true], ["medium", "--chart-1", true], ["hard", "--chart-4", true]], {
        ...PERCENT_AXIS,
        emptyText: "Each validation adds a point a bin",
      }),
      barChart("published", "Last validation vs the paper, %", [["this network", "--chart-1"], ["Mehta's DQN", "--chart-3"]], { yMax: 100, emptyText: "No validation yet", formatY: PERCENT_AXIS.formatY }),
      lossChart(),
      epsilonChart(),
    ],
  },
  training: {
    validated: (card, { steps, evaluation }) => {
      const bins = binList(evaluation);
      const rate = (bin) => (bin.puzzles ? 100 * bin.solved_rate : null);
      bins.forEach((bin, index) => card.charts.solved.add(index, steps, rate(bin)));
      card.charts.published.setData(
        bins.map((bin) => `${bin.bin} (${bin.puzzles})`),
        [bins.map(rate), bins.map((bin) => 100 * bin.published_solved_rate)],
      );
      return { steps, bins };
    },
    validationText: ({ steps, bins }) => ` Last validation (${numberFormat.format(steps)} steps): solved ${binsText(bins)}.`,
  },
  modelText,
  play: {
    heading: "Watch it play the board",
    buttons: [
      {
        id: "watch",
        label: { shipped: "Watch the shipped model", trained: "Watch the network trained here", file: "Watch the loaded model" },
        title: "The model fills the board's empty cells one digit at a time, from the position shown",
        toggle: true,
        run: watch,
      },
    ],
  },
  evaluation: {
    heading: "Evaluate by bin",
    fields: [numberField("eval-n", "Puzzles a bin", 50, "count", 2000, "perBin"), numberField("eval-seed", "Seed", 1, "whole", 2 ** 32 - 1, "seed")],
    help: `Plays <var>n</var> puzzles of each bin drawn from seed <var>s</var> with the givens above, as
      <code>puzzlelab sudoku eval --seed s --per-bin n</code> does.`,
    columns: ["Model", "A bin", "Seed", "Easy", "Medium", "Hard"],
    read: (card) => ({ givens: readGivens(card.elements.givens) }),
    cancellable: true,
    run: async (card, chosen, { perBin, seed, givens }, { evaluateModel, elapsed }) => {
      // The worker draws each bin's puzzles, then plays them: `done` and `total` count both (the
      // puzzles kept, then those played; twice the puzzles wanted while drawing, twice those kept after).
      const wanted = 3 * perBin;
      const progress = ({ done, total }) => {
        const count = numberFormat.format;
        const text =
          total === 2 * wanted && done < wanted
            ? `Drawing ${plural(perBin, "puzzle")} of each bin (${count(done)} of ${count(wanted)} kept), then playing them`
            : `Playing the drawn puzzles: ${count(done - total / 2)} of ${count(total / 2)}`;
        card.evaluationTable.showProgress(text, total ? done / total : null);
      };
      const { evaluation: bins } = await evaluateModel({ perBin, seed, givens: Array.from(givens) }, progress);
      const report = { bins: binList(bins), seed, perBin };
      const cell = (bin, index) => (bin.puzzles ? `${percent(bin.solved_rate)} of ${bin.puzzles} (paper ${percent(PUBLISHED_SOLVED_RATES[index])})` : "no puzzles");
      return {
        report: { ...report, name: chosen.name },
        cells: [chosen.name, numberFormat.format(perBin), String(seed), ...report.bins.map(cell)],
        status: `${chosen.name} solved ${binsText(report.bins)} (${elapsed()}); the paper's DQN 7%, 2.1% and 1.2%.`,
      };
    },
  },
};

/** Renders the card into `container` (a section.card whose h2 is already there); `api` as in the file's header. */
export function mountSudokuDqnPanel(container, api = {}) {
  return new LearnCard(container, SUDOKU_DQN, api);
}

/**
 * The chosen model plays the board from the position shown: the worker works out its moves
 * (greedy, until solved, a wrong digit, a dead end or 162 moves), then they go onto the board one
 * at a time; the status says whether it solved the puzzle or where it went wrong. A position the
 * model cannot be asked about (not 9 × 9, or a digit on it is wrong) is refused in words and the
 * board stays as it was. Resolves when the moves are on the board.
 */
async function watch(card) {
  const { board } = card.api;
  const game = board?.game;
  if (!game) return;
  card.clearPlayError();
  if (game.isSolved()) return card.setPlayStatus("The board is solved already: pick a new puzzle first.");
  const asked = await card.askModel((chosen) => card.playModel(chosen, { grid: game.text() }));
  if (!asked || board.game !== game) return; // refused, or a new puzzle came meanwhile
  const { chosen, answer: played } = asked;
  card.root.dataset.outcome = "";
  card.setPlayStatus(`${chosen.name} plays ${plural(played.moves.length, "move")}…`);
  const write = ({ cell, digit }) => {
    board.write(digit, cell, "dqn");
    board.selected = cell;
  };
  const finished = await card.playMoves(played.moves, write, { game, delay: 80 });
  if (finished) finish(card, chosen, played, board);
}

/** Says how the play ended: solved, or the first wrong digit (struck through) and what the solution has there. */
function finish(card, chosen, { moves, outcome, firstMistake, solution }, board) {
  const where = (cell) => `row ${Math.floor(cell / 9) + 1}, column ${(cell % 9) + 1}`;
  let text;
  if (outcome === "solved") {
    text = `${chosen.name} solved the board: ${plural(moves.length, "digit")}, none wrong.`;
  } else if (firstMistake !== null && firstMistake !== undefined) {
    const { cell, digit } = moves[firstMistake];
    const right = moves.slice(0, firstMistake).filter((move) => move.digit !== 0).length;
    text =
      `${chosen.name} went wrong at move ${firstMistake + 1}: it wrote ${digit} at ${where(cell)}, where the solution has ${solution[cell]} ` +
      `(struck through), after ${plural(right, "right digit")}.${outcome === "limit" ? " It then ran into the paper's 162-move limit." : ""}`;
    board.showMistakes([cell]);
  } else if (outcome === "stuck") {
    text = `${chosen.name} is stuck after ${plural(moves.length, "right digit")}: no digit fits an empty cell.`;
  } else {
    text = `${chosen.name} stopped at the paper's 162-move limit without finishing.`;
  }
  card.root.dataset.outcome = outcome;
  card.setPlayStatus(text);
}

/** "40% easy, 10% medium, 0% hard" (bins with no puzzle left out). */
function binsText(bins) {
  return bins
    .filter((bin) => bin.puzzles > 0)
    .map((bin) => `${percent(bin.solved_rate)} ${bin.bin}`)
    .join(", ");
}

/** "shared per action, 2 × 32 units, 1,473 parameters, 600 steps". */
function modelText(info) {
  const grid = info.network.grid;
  const net = info.net === "cells" ? `shared per action, ${grid.layers.length} × ${grid.layers[0]?.[0] ?? 0} units` : "the paper's network (810 → 810)";
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps` : "";
  return `${net}, ${numberFormat.format(info.numParams)} parameters${steps}`;
}
