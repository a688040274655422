// The Minesweeper page's Learn card: puzzlelab's fully convolutional DQN (one Q-value per cell from
// its neighbourhood; src/agent/dqn/minesweeper.rs) or the network of Mehta's paper, on the shared
// Learn card (common/learn-card.js). What is Minesweeper's own: training on the board size the page
// shows, the validation win rate, the model revealing cells on the page's board ("DQN move", "DQN
// plays") beside the solver's exact odds, and its evaluation beside the exact solver on the same
// seeded boards.
//
//   import { mountMinesDqnPanel } from "./dqn-panel.js";
//   const card = mountMinesDqnPanel(document.querySelector("#dqn"), api);
//
// `api` (minesweeper/app.js's): `board` (the <mines-board>), `settings()` → { width, height, mines,
// rule } (the board card's choice), `stopSolver()` (before the DQN plays), `speedMs()` (the pause
// between two moves when it plays). The page calls card.boardChanged() when its settings change.

import { FieldError, percent } from "../common/card-helpers.js";
import { LearnCard, PERCENT_AXIS, epsilonChart, lineChart, lossChart, numberFormat, plural } from "../common/learn-card.js";
import { choiceField, dqnField, numberField } from "../common/learn-form.js";

/** The validation boards' seed (MinesweeperLearner's VALIDATION_SEED in src/agent/dqn/minesweeper.rs); evaluations use 0, the CLI's default. */
const VALIDATION_SEED = 0x4d1e5eed;

/** The card's description (common/learn-card.js says what each part is). */
export const MINES_DQN = {
  puzzle: "minesweeper",
  prefix: "mdqn",
  cli: { train: "puzzlelab minesweeper train", eval: "puzzlelab minesweeper eval --agent dqn" },
  intro: `A <strong>deep Q-network</strong> learns to play from the numbers alone: puzzlelab's network is fully convolutional
    (five 3 × 3 convolutions, then one Q-value per cell from its neighbourhood, so it plays any board size), learns the
    odds that revealing each covered cell of the positions it visits does not hit a mine (cross-entropy), and reveals the cell
    with the highest value. The paper's network (Mehta's RL paper) reads the whole board through dense weights and
    fits one size. The same Rust code as <code>puzzlelab minesweeper train</code>, here in a Web Worker on WebGPU or
    the CPU; below, the model plays the board above and is measured against the exact solver on the same boards.`,
  form: {
    head: `<p id="mdqn-board" class="help"></p>`,
    changed: (card) => {
      const board = card.api.settings?.();
      card.elements.board.textContent = board ? `Trains on the board chosen above: ${boardText(board)}, first click ${board.rule}.` : "Trains on the board chosen above.";
    },
    fields: [
      choiceField("net", "Network", { cells: "Per cell (any size)", "conv-dense": "The paper's" }),
      numberField("layers", "Layers", 5, "count", 20),
      numberField("filters", "Filters", 32, "count", 256),
    ],
    more: {
      label: "puzzlelab minesweeper train's",
      fields: [
        dqnField("lr", 0.001),
        dqnField("batch", 32),
        dqnField("envs", 16),
        dqnField("epsilon-start", 0.3),
        dqnField("epsilon-decay", 0.995, { label: "ε decay per game" }),
        dqnField("epsilon-min", 0.02),
        dqnField("replay", 20000),
        dqnField("warmup", 10, { label: "Warm-up games" }),
        dqnField("seed", 0),
        dqnField("eval-every", 500),
        numberField("eval-games", "Validation games", 100, "whole", 10_000),
      ],
    },
    nets: { locked: { "conv-dense": ["layers", "filters"] } },
    request: ({ layers, filters, evalEvery, evalGames, ...options }, card) => {
      const board = card.api.settings?.();
      if (!board) throw new FieldError(null, "The board above is not set up yet.");
      // The per-cell network learns each cell's log-odds of surviving (cross-entropy), the recipe
      // of the shipped model (docs/minesweeper.md, "Learners").
      const cells = options.net === "cells" ? { layers, filters, survivalLogits: true } : {};
      // Validation games click first where the page's first click would go ([column, row]).
      const first = firstCell(board);
      const at = [first % board.width, Math.floor(first / board.width)];
      return {
        options: { width: board.width, height: board.height, mines: board.mines, firstClick: board.rule, firstCell: at, ...options, ...cells },
        evalEvery,
        evalGames,
        evalSeed: VALIDATION_SEED,
      };
    },
  },
  saveName: (steps, { options }) => `minesweeper-${options.width}x${options.height}-dqn-${steps}steps.dqn`,
  stats: {
    episodes: ["games", "Games"],
    validation: [["won", "Validation won"]],
    render: ({ validation }) => (validation ? { won: percent(validation.evaluation.win_rate) } : {}),
  },
  charts: {
    help: `A step moves every training game once and takes one gradient step. Every few hundred steps the network plays the
      validation boards greedily (the first click in the corner, in the third row and column under “opening”).`,
    list: [
      lineChart("won", "Games won, %", [["validation", "--chart-1", true], ["while exploring", "--chart-3"]], PERCENT_AXIS, { wide: true }),
      lossChart(),
      epsilonChart(),
    ],
  },
  training: {
    // With the per-cell network's reward (+1 won, −1 lost) the mean return says how often exploring games won.
    report: (card, report) => {
      if (card.elements.net.value === "cells" && typeof report.episodeReturn === "number") card.charts.won.add(1, report.stepsDone, 50 * (report.episodeReturn + 1));
    },
    validated: (card, { steps, evaluation }) => {
      card.charts.won.add(0, steps, 100 * evaluation.win_rate);
      return { steps, evaluation };
    },
    validating: ({ steps, games }) => ` Validating at ${numberFormat.format(steps)} steps (${plural(games, "game")})…`,
    validationText: ({ steps, evaluation }) =>
      ` Last validation (${plural(evaluation.games, "game")} at ${numberFormat.format(steps)} steps): won ${percent(evaluation.win_rate)}, ` +
      `${evaluation.guesses_per_game.toFixed(2)} guesses a game.`,
  },
  modelText,
  play: {
    heading: "Play the board",
    buttons: [
      { id: "move", label: "DQN move", title: "The network reveals the covered cell with the highest Q-value", run: (card) => move(card) },
      { id: "play", label: "DQN plays", toggle: true, run: play },
    ],
  },
  evaluation: {
    heading: "Compare with the solver",
    label: "Evaluate against the solver",
    fields: [numberField("eval-games-n", "Games", 200, "count", 100_000, "games"), numberField("eval-seed", "Seed", 0, "whole", 2 ** 32 - 1, "seed")],
    help: `Evaluate plays game <var>g</var> of seed <var>s</var> with the model and with the solver: the same mines, the same first
      click, as <code>puzzlelab minesweeper eval --seed s</code> does, on the board size chosen above (a per-cell model plays
      any size). The gap is the solver's win rate minus the model's.`,
    columns: ["Model", "Board", "Games", "Seed", "DQN won", "Solver won", "Gap", "DQN guesses", "Solver guesses"],
    cancellable: true,
    read: (card) => {
      const board = card.api.settings?.();
      if (!board) throw new FieldError(null, "The board above is not set up yet.");
      return { board };
    },
    run: async (card, chosen, { board, games, seed }, { request, evaluateModel, elapsed }) => {
      const question = { ...board, firstCell: firstCell(board), games, seed };
      const progress = (player) => ({ done, total }) => card.evaluationTable.showProgress(`${player} played ${numberFormat.format(done)} of ${plural(total, "game")}`, done / total);
      const { key, info, evaluation: model } = await evaluateModel(question, progress("The model"));
      const solverGames = card.client().request({ type: "evaluate-minesweeper-solver", request: question }, progress("The solver, on the same boards,"));
      const report = { key, info, model, solver: await request(solverGames) };
      const { solver } = report;
      const gap = solver.win_rate - model.win_rate;
      const interval = ({ win_rate, win_rate_95: [low, high] }) => `${percent(win_rate)} [${percent(low)}, ${percent(high)}]`;
      return {
        report: { ...report, board, seed, name: chosen.name },
        cells: [
          chosen.name,
          `${boardText(board)}, ${board.rule}`,
          numberFormat.format(model.games),
          String(seed),
          interval(model),
          interval(solver),
          `${gap >= 0 ? "+" : "−"}${(100 * Math.abs(gap)).toFixed(1)} points`,
          model.guesses_per_game.toFixed(2),
          solver.guesses_per_game.toFixed(2),
        ],
        status:
          `${chosen.name} won ${percent(model.win_rate)} of ${plural(model.games, "game")}, the solver ${percent(solver.win_rate)} of the same boards ` +
          `(${gap >= 0 ? `${(100 * gap).toFixed(1)} points more` : `${(-100 * gap).toFixed(1)} points fewer`}; ${elapsed()}).`,
      };
    },
  },
};

/** Renders the card into `container` (a section.card whose h2 is already there); `api` as in the file's header. */
export function mountMinesDqnPanel(container, api = {}) {
  return new LearnCard(container, MINES_DQN, api);
}

/** The model reveals its greedy covered cell on the page's board; resolves to whether the game goes on. */
async function move(card, chosen = null) {
  const { board } = card.api;
  const game = board?.game;
  if (!game || game.status === "won" || game.status === "lost") return false;
  const goesOn = await card.ask(async () => {
    chosen ??= await card.chosen({ forPlay: true });
    const { width, height, mines } = game;
    const { cell, values } = await card.playModel(chosen, { width, height, mines, cells: Array.from(game.cells()) });
    if (board.game !== game || cell < 0) return false; // a new game began meanwhile, or nothing is covered
    const risk = solverRisk(game, cell);
    board.reveal(cell, "dqn");
    const where = `row ${Math.floor(cell / width) + 1}, column ${(cell % width) + 1}`;
    const odds = risk === null ? "" : `; the solver's exact chance of a mine there was ${percent(risk)}`;
    const outcome = game.status === "won" ? " It cleared the board." : game.status === "lost" ? " It hit a mine." : "";
    card.setPlayStatus(`${chosen.name}: revealed ${where} (Q-value ${values[cell].toFixed(3)}${odds}).${outcome}`);
    card.elements.playStatus.dataset.cell = String(cell);
    return game.status === "playing";
  });
  return Boolean(goesOn);
}

/** The model plays the page's game to its end, a move every api.speedMs() ms (Stop ends it). */
async function play(card) {
  const game = card.api.board?.game;
  if (!game) return;
  card.api.stopSolver?.();
  const { chosen } = (await card.askModel()) ?? {};
  if (!chosen) return;
  await card.playLoop(async () => card.api.board.game === game && (await move(card, chosen)), { delay: 125 });
}

/**
 * Where seeded games click first: the corner, or under "opening" the third row and column (the
 * solver's hint and docs/minesweeper.md: where each rule wins most often).
 */
export function firstCell({ width, height, rule }) {
  if (rule !== "opening") return 0;
  return Math.min(2, height - 1) * width + Math.min(2, width - 1);
}

/** "9 × 9, 10 mines". */
function boardText({ width, height, mines }) {
  return `${width} × ${height}, ${plural(mines, "mine")}`;
}

/** The solver's exact mine probability of `cell` before it is revealed, or null when it cannot say. */
function solverRisk(game, cell) {
  if (game.status !== "playing") return null;
  try {
    return game.analyse().probabilities[cell] ?? null;
  } catch {
    return null;
  }
}

/** "per cell, 5 × 32 filters (any board size), 37,921 parameters, trained on 9 × 9 / 10, 5,000 steps". */
function modelText(info) {
  const grid = info.network.grid;
  const net = info.anySize ? `per cell, ${grid.layers.length} × ${grid.layers[0]?.[0] ?? 0} filters (any board size)` : "the paper's network";
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps` : "";
  return `${net}, ${numberFormat.format(info.numParams)} parameters, trained on ${info.width} × ${info.height} / ${info.mines}${steps}`;
}
