// The 2048 page's Learn card: the deep Q-network of Mehta's RL paper (one-hot 4 × 4 × 16 board, two
// levels of (1, 2) and (2, 1) convolutions, a dense layer, a Q-value per move; src/agent/dqn/
// game2048.rs) on the shared Learn card (common/learn-card.js). What is 2048's own: the network's
// fields and its parameter count, the in-training evaluation games (mean score, tiles reached), the
// page's player playing the model's greedy moves ("Watch it play": api.useAgent and api.playAgent,
// 2048/app.js's trainApi; without them the button stays hidden), and the evaluation over the
// seeded games of `puzzlelab 2048 eval --agent dqn`, which Cancel stops after the current game.
//
//   import { mountDqn2048Panel } from "./dqn-panel.js";
//   const card = mountDqn2048Panel(document.querySelector("#dqn-2048"), trainApi);

import { percent, whole } from "../common/card-helpers.js";
import { LearnCard, PERCENT_AXIS, epsilonChart, lineChart, lossChart, numberFormat, plural, speedChart } from "../common/learn-card.js";
import { checkField, dqnField, numberField } from "../common/learn-form.js";
import { reachRate } from "./stats.js";

/** `puzzlelab 2048 eval --agent dqn`'s default seed (EVALUATION_SEED in src/agent/dqn/game2048.rs, 0x2048D090). */
const CLI_EVALUATION_SEED = 0x2048d090;
/** Tiles whose reach rates the charts and the table show; 512 is read from max_tile_counts. */
const CHART_TILES = [512, 1024, 2048];
const TABLE_TILES = [512, 1024, 2048, 4096];
/** Mehta's pair-convolution network (pair_conv_config in src/agent/dqn/game2048.rs). */
const PAIR_CONV_NETWORK = { filters1: 128, filters2: 128, hidden: 256 };
/** The demonstrator the worker downloads (2048/learn-jobs.js), as a run's setup names it. */
const DEMONSTRATOR = "2048-ntuple.ntuple.gz";
/**
 * Demonstrated moves kept at most: the n-tuple network plays about 4,900 moves a game, and a move
 * kept costs about 2 KB of the tab's memory (the board before and after, one-hot).
 */
const MAX_DEMONSTRATED_MOVES = 50_000;

/** The card's description (common/learn-card.js says what each part is). */
export const DQN_2048 = {
  puzzle: "2048",
  prefix: "d2048",
  cli: { train: "puzzlelab 2048 train", eval: "puzzlelab 2048 eval --agent dqn" },
  intro: `The <strong>deep Q-network</strong> of Mehta's RL paper for constraint-satisfaction games: the board as 16 one-hot layers, two
    levels of (1, 2) and (2, 1) convolutions that see neighbouring tiles, a dense layer and one Q-value per move, learned by deep
    Q-learning on the paper's shaped reward — the same Rust code as <code>puzzlelab 2048 train</code>, here in a Web Worker on
    WebGPU or the CPU. The paper reports 2048 in 40% of games after 200,000 games of training; the n-tuple network above, the
    field's best kind of agent, reaches it in 97.8% from its greedy move alone. The shipped model is the same network with another
    training recipe: it learned from the n-tuple network's demonstrations (DQfD), then from the n-tuple network's moves in the positions
    its own games reach (DAgger), as <code>puzzlelab 2048 train --demonstrations … --label-games-of …</code> does; its manifest says how. Tick <em>Learn from the n-tuple agent's demonstrations</em> (or press <em>From demonstrations</em>)
    to train that way here: the worker downloads the n-tuple network, records its games, pre-trains the network to prefer its moves
    (a large-margin loss) and then lets it play on its own with some of every batch still demonstrated.`,
  form: {
    fields: [
      numberField("filters1", "Filters, level 1", PAIR_CONV_NETWORK.filters1, "count", 512),
      numberField("filters2", "Filters, level 2", PAIR_CONV_NETWORK.filters2, "count", 512),
      numberField("hidden", "Hidden width", PAIR_CONV_NETWORK.hidden, "count", 4096),
      dqnField("lr", 0.0005),
      dqnField("gamma", 0.9),
      dqnField("batch", 64),
      dqnField("epsilon-decay", 0.9995, { label: "ε decay per game" }),
      checkField("demonstrations", "Learn from the n-tuple agent's demonstrations (DQfD)"),
    ],
    more: {
      label: "the paper's where it gives one",
      fields: [
        dqnField("epsilon-start", 0.9),
        dqnField("epsilon-min", 0.01),
        dqnField("replay", 100000),
        dqnField("warmup", 10, { label: "Warm-up games" }),
        dqnField("target-update", 100),
        dqnField("seed", 0),
        dqnField("eval-every", 5000, { label: "Evaluate every (steps)" }),
        numberField("eval-games", "Games per evaluation", 5, "whole", 1000),
        numberField("demo-games", "Demonstrated games", 10, "count", 100),
        numberField("pretrain-steps", "Pre-training steps (demonstrations only)", 8000, "whole", 10_000_000),
        numberField("demo-weight", "Imitation loss weight", 100, "positive", 1_000_000),
      ],
      checks: [checkField("double", "Double DQN (not in the paper)", "doubleDqn")],
    },
    presets: [
      {
        id: "quick",
        label: "Quick-run settings",
        title: "Filters 32/32, hidden 64, ε decay 0.99: learns something within minutes in a tab",
        values: { filters1: 32, filters2: 32, hidden: 64, "epsilon-decay": 0.99, "eval-every": 2000, "eval-games": 5 },
      },
      {
        id: "from-demonstrations",
        label: "From demonstrations",
        title:
          "Learn from the n-tuple agent's demonstrations: filters 64/64, hidden 256, batch 64, learning rate 0.001, 10 games shown, " +
          "8,000 steps of pre-training, imitation weight 100, ε 0.01, an evaluation of 20 games every 2,000 steps",
        values: {
          filters1: 64,
          filters2: 64,
          hidden: 256,
          lr: 0.001,
          batch: 64,
          demonstrations: true,
          "demo-games": 10,
          "pretrain-steps": 8000,
          "demo-weight": 100,
          "epsilon-start": 0.01,
          "epsilon-min": 0.01,
          double: true,
          "eval-every": 2000,
          "eval-games": 20,
        },
      },
      { id: "defaults", label: "The paper's settings", title: "Every field back to its default: the paper's network and hyper-parameters", values: "defaults" },
    ],
    note: (read) => paramsText(read("filters1"), read("filters2"), read("hidden")),
    request: ({ filters1, filters2, hidden, evalEvery, evalGames, demonstrations, demoGames, pretrainSteps, demoWeight, ...options }) => ({
      options: {
        ...options,
        conv: { channels: 16, height: 4, width: 4, filters1, filters2 },
        hidden: [hidden],
        // The setup of `puzzlelab 2048 train --demonstrations` (DemonstrationSetup in src/agent/dqn/game2048.rs).
        ...(demonstrations
          ? { demonstrations: { ntuple: DEMONSTRATOR, games: demoGames, maxTransitions: MAX_DEMONSTRATED_MOVES, pretrainSteps, weight: demoWeight } }
          : {}),
      },
      evalEvery,
      evalGames,
      evalSeed: CLI_EVALUATION_SEED,
    }),
    continueFrom: {
      fill: ({ info: { network } }) => ({ filters1: network.conv?.filters1 ?? 128, filters2: network.conv?.filters2 ?? 128, hidden: network.hidden[0] ?? 256 }),
      mismatch: ({ name, info: { network } }, { options }) => {
        const same = network.conv?.filters1 === options.conv.filters1 && network.conv?.filters2 === options.conv.filters2 && network.hidden.join() === options.hidden.join();
        return same ? "" : `“${name}” is ${networkText(network)}: keep its network, or untick “Start from its weights”.`;
      },
    },
  },
  saveName: (steps, { options }) => `2048-dqn-${options.demonstrations ? "demonstrations-" : ""}${steps}steps.dqn`,
  stats: {
    episodes: ["games", "Games"],
    validation: [
      ["score", "Eval. mean score"],
      ["reach", "Eval. reached 512"],
      ["agreement", "Plays the n-tuple's move"],
    ],
    render: ({ report, validation: last }) => ({
      ...(last ? { score: whole(last.summary.mean_score), reach: percent(reachRate(last.stats, 512)) } : {}),
      agreement: typeof report?.demonstrationAgreement === "number" ? percent(report.demonstrationAgreement) : "–",
    }),
  },
  charts: {
    help: `A step is one move of a training game and one gradient step on a batch of remembered moves. Every few thousand
      steps the network plays a few games greedily (the evaluation games of <code>puzzlelab 2048 train</code>): their mean
      score, and how many reached 512, 1024 and 2048. Learning from demonstrations, the first steps (pre-training) are gradient
      steps on the n-tuple agent's recorded moves alone: the imitation charts show the large-margin loss falling and the share
      of demonstrated positions where the network's best move is the n-tuple agent's rising.`,
    list: [
      lossChart(),
      epsilonChart(),
      lineChart("score", "Evaluation: mean score", [["mean score", "--chart-1", true]], { formatY: whole }),
      lineChart("reach", "Eval.: games reaching a tile, %", CHART_TILES.map((tile, index) => [String(tile), `--chart-${index + 1}`, true]), { ...PERCENT_AXIS, formatY: (y) => `${Math.round(y)}%` }),
      lineChart("margin", "Imitation: large-margin loss", [["margin loss", "--chart-2"]], { yScale: "log", formatY: (y) => y.toPrecision(3) }),
      lineChart("agreement", "Plays the n-tuple's move, %", [["agreement", "--chart-4"]], PERCENT_AXIS),
      speedChart({ wide: true }),
    ],
  },
  training: {
    report: (card, report) => {
      card.demonstrated = typeof report.demonstrationAgreement === "number";
      card.charts.margin.add(0, report.stepsDone, report.marginLoss ?? null);
      const agreement = report.demonstrationAgreement;
      card.charts.agreement.add(0, report.stepsDone, typeof agreement === "number" ? 100 * agreement : null);
    },
    validated: (card, { steps, evaluation: { stats, summary } }) => {
      card.charts.score.add(0, steps, summary.mean_score);
      CHART_TILES.forEach((tile, index) => card.charts.reach.add(index, steps, 100 * reachRate(stats, tile)));
      return { steps, stats, summary };
    },
    validating: ({ steps, done, total }) => ` Evaluating at ${numberFormat.format(steps)} steps: ${done} of ${total} games.`,
    status: ({ report, validation }) => `${imitationText(report)}${validation ? validationText(validation) : ""}`,
  },
  modelText,
  play: {
    heading: "Watch it play",
    help: "Watching, the page's player plays the model's greedy move (the legal move with the highest Q-value); its speed slider sets the pace.",
    buttons: [{ id: "watch", label: "Watch it play", available: (api) => typeof api.useAgent === "function", run: watch }],
  },
  evaluation: {
    heading: "Evaluate it",
    fields: [numberField("eval-games-n", "Games", 10, "count", 10_000, "games"), numberField("eval-seed", "Seed", CLI_EVALUATION_SEED, "whole", 2 ** 32 - 1, "seed")],
    help: `Game <var>g</var> of seed <var>s</var> is the same game here and in <code>puzzlelab 2048 eval --agent dqn --seed s</code> (the
      default seed is the CLI's), so the numbers compare exactly.`,
    columns: ["Model", "Games", "Seed", "Mean score", "Median", "Best", ...TABLE_TILES, "Moves/s"],
    cancellable: true,
    // A shipped model's last validation (its manifest's `validation`), drawn without running anything.
    manifest: (card, manifest, model) => {
      const summary = manifest?.validation;
      if (!summary || typeof summary.mean_score !== "number" || typeof summary.reach !== "object") return null;
      const recipe = recipeText(manifest);
      return {
        report: { summary, model: `${model.name} (manifest)`, seed: manifest.validation_seed, recipe },
        cells: evaluationCells(`${model.name} (manifest)`, manifest.validation_seed, summary, (tile) => summary.reach[tile]),
        status:
          `${model.name}. From the model's manifest (not run here): mean score ${whole(summary.mean_score)} over ` +
          `${plural(summary.games, "game")}, 1024 reached in ${percent(summary.reach["1024"])}, 2048 in ${percent(summary.reach["2048"])}` +
          `${recipe ? ` — Mehta's network, ${recipe}` : ""}. Evaluate measures it again in this tab.`,
      };
    },
    run: async (card, chosen, { games, seed }, { evaluateModel, elapsed }) => {
      const { key, info, evaluation, ms } = await evaluateModel({ games, seed });
      const { summary, stats } = evaluation;
      return {
        report: { key, info, seed, stats, summary, ms, model: chosen.name },
        cells: evaluationCells(chosen.name, seed, summary, (tile) => reachRate(stats, tile)),
        status:
          `${chosen.name}: mean score ${whole(summary.mean_score)} over ${plural(summary.games, "game")}; ` +
          `512 reached in ${percent(reachRate(stats, 512))}, 2048 in ${percent(summary.reach["2048"])} (${elapsed()}).`,
      };
    },
  },
};

/** An evaluation's row: the model, its games and seed, their scores, `reach(tile)` for each tile (undefined: "–") and moves/s. */
function evaluationCells(name, seed, summary, reach) {
  const { games, mean_score: mean, median_score: median, max_score: best, moves_per_s: speed } = summary;
  const rates = TABLE_TILES.map((tile) => (reach(tile) === undefined ? "–" : percent(reach(tile))));
  return [name, numberFormat.format(games), String(seed ?? ""), whole(mean), numberFormat.format(median), numberFormat.format(best), ...rates, whole(speed)];
}

/** Words on the last in-training evaluation. */
function validationText({ steps, stats, summary }) {
  return (
    ` Last evaluation (${plural(summary.games, "game")} at ${numberFormat.format(steps)} steps): mean score ` +
    `${whole(summary.mean_score)}, 512 reached in ${percent(reachRate(stats, 512))}, 1024 in ${percent(reachRate(stats, 1024))}, ` +
    `2048 in ${percent(reachRate(stats, 2048))}.`
  );
}

/** Words on a run that learns from demonstrations (its chunk reports carry the agreement); "" for others. */
function imitationText(report) {
  const agreement = report?.demonstrationAgreement;
  if (typeof agreement !== "number") return "";
  const pretraining = report.episodesDone === 0 ? ", pre-training on them alone" : ", playing on its own with some of every batch demonstrated";
  return ` Learning from the n-tuple agent's demonstrations${pretraining}: its move is the network's best in ${percent(agreement)} of demonstrated positions.`;
}

/** Renders the card into `container` (a section.card whose h2 is already there); `api`: 2048/app.js's trainApi. */
export function mountDqn2048Panel(container, api = {}) {
  return new LearnCard(container, DQN_2048, api);
}

/** Hands the chosen model to the page's player and starts it. */
async function watch(card) {
  const { chosen } = (await card.askModel()) ?? {};
  if (!chosen) return;
  const recipe = recipeText(chosen.manifest);
  const shipped = `Mehta's DQN, shipped model${recipe ? ` (${recipe})` : ""}`;
  const demonstrated = card.demonstrated ? ", from the n-tuple agent's demonstrations" : "";
  const label = { trained: `Mehta's DQN, trained here (${numberFormat.format(chosen.steps ?? 0)} steps${demonstrated})`, file: `Mehta's DQN from ${chosen.name}` }[chosen.source] ?? shipped;
  const bestMove = async (exponents) => (await card.playModel(chosen, { exponents: Array.from(exponents) })).move;
  card.api.useAgent({ label, details: modelText(chosen.info), bestMove });
  card.api.playAgent?.();
  card.setPlayStatus(`${label} plays on the board above (greedy: the legal move with the highest Q-value).`);
}

/**
 * Weights and biases of the paper's network with these filters and hidden width (mirrors
 * PairConvConfig::num_params and output_len in src/agent/dqn/, plus the dense layers): six
 * convolutions on 16 one-hot channels of a 4 × 4 board, 34 × filters2 values into the hidden layer.
 */
export function parameterCount(filters1, filters2, hidden) {
  const convolutions = (16 * filters1 * 2 + filters1) * 2 + (filters1 * filters2 * 2 + filters2) * 4;
  const convolved = (4 * 2 + 2 * 3 * 3 + 2 * 4) * filters2;
  return convolutions + convolved * hidden + hidden + hidden * 4 + 4;
}

/** The parameter count of the network the form describes, and what it costs. */
function paramsText(filters1, filters2, hidden) {
  const count = parameterCount(filters1, filters2, hidden);
  if (!Number.isFinite(count) || count <= 0) return "";
  const published = filters1 === PAIR_CONV_NETWORK.filters1 && filters2 === PAIR_CONV_NETWORK.filters2 && hidden === PAIR_CONV_NETWORK.hidden;
  const cost = published
    ? " — the paper's network. Every step pushes a batch through it forwards and backwards: on a CPU in a tab that is about 20 steps a second " +
      "(2-core test machine), while the paper trained on 200,000 games of hundreds of moves each. For a quick run in the tab choose 32/32 " +
      "filters and hidden width 64 (Quick-run settings: about 150 steps a second)."
    : count > 400_000
      ? ": a heavy network for a tab (a few tens of steps a second on a CPU)."
      : ": small enough to train at a hundred steps a second or more on a CPU.";
  return `${numberFormat.format(count)} parameters${cost}`;
}

/**
 * How a model was trained, when its manifest says it learned from demonstrations (the manifest's
 * `setup.demonstrations`, written by `puzzlelab 2048 train --demonstrations`); "" otherwise. Its
 * last run also learned the n-tuple agent's moves in its own games' positions when the setup has
 * `labelled` (`--label-games-of`, DAgger), and played on its own when it trained past its
 * pre-training steps (a run from another model's weights, `--init`, may have pre-trained only).
 */
export function recipeText(manifest) {
  const demonstrations = manifest?.setup?.demonstrations;
  if (!demonstrations || typeof demonstrations !== "object") return "";
  const labelled = demonstrations.labelled ? " and its moves in the positions of the network's own games (DAgger)" : "";
  const selfPlay = (manifest.hyperparameters?.pretrainSteps ?? 0) < (manifest.steps ?? 0);
  return `trained from the n-tuple agent's demonstrations${labelled}${selfPlay ? ", then by self-play" : ""}`;
}

/** "filters 32/32, hidden 64". */
function networkText(network) {
  const conv = network.conv ? `filters ${network.conv.filters1}/${network.conv.filters2}, ` : "";
  return `${conv}hidden ${network.hidden.join("-")}`;
}

/** "filters 32/32, hidden 64, 80,964 parameters, 12,000 steps trained". */
function modelText(info) {
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps trained` : "";
  return `${networkText(info.network)}, ${numberFormat.format(info.numParams)} parameters${steps}`;
}
