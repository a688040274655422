// The dust page's Learn card: a deep Q-network that clears the board — puzzlelab's full backups of
// every pile of boards from every stage of a game, or the blog post's batched DQN
// (src/agent/dqn/dust.rs) — on the shared Learn card (common/learn-card.js). What is the dust
// puzzle's own: the learners and their TD targets, the validation boards' mean clicks and the
// training episodes' length and return, the model clearing the board shown click by click beside
// the optimum the exact solver finds for the same board (its own solver worker,
// samegame/solver-worker.js), and its evaluation on seeded boards beside the greedy rule. For tests
// the card carries, after a play, data-model-clicks and data-optimum (the optimum's clicks,
// data-optimum-proved "true" or "false").
//
//   import { mountDustDqnPanel } from "./dqn-panel.js";
//   const card = mountDustDqnPanel(document.querySelector("#dqn"), { board, speedMs, onPlaying });
//
// `api`: `board` (the page's <samegame-board>), `speedMs()` (the pause between two clicks while a
// model plays, default 250 ms), `onPlaying(on)` (the page locks its own buttons while a model
// plays), `optimumSeconds` (the exact solver's budget, default 5), `onOptimumSearch(start, found,
// seconds)` (the card's search for the fewest clicks of board `start`: the page's end-of-game line
// waits for it rather than asking its own solver).

import { LearnCard, barChart, lineChart, lossChart, numberFormat, plural } from "../common/learn-card.js";
import { choiceField, dqnField, hiddenLayersField, numberField } from "../common/learn-form.js";
import { SameGameSolver, SolveCancelled } from "./solver-client.js";

/**
 * Each learner's settings as the learning bundle's trainer takes them by default (backups_config and batched_config in
 * src/agent/dqn/dust.rs, with hidden layers a tab trains): switching the network fills them in.
 */
const NET_DEFAULTS = {
  backups: { hidden: "256,256,256", lr: 0.0003, batch: 64, replay: 100000, "target-every": 250, envs: 1, "epsilon-start": 0.9, "epsilon-decay": 0.999, "epsilon-min": 0.3 },
  batched: { hidden: "256,256,256,256,256", lr: 0.001, batch: 1000, replay: 2000, "target-every": 10, envs: 1000, "epsilon-start": 1, "epsilon-decay": 0.999, "epsilon-min": 0.06 },
};
const { backups } = NET_DEFAULTS;

/** The episode charts before a game ends: puzzlelab's learner ends none (it backs up fresh boards), the blog's does. */
const NO_EPISODES = "No game ended yet (the blog's learner plays games)";
const episodeChart = (id, title, name, color) => lineChart(id, title, [[name, color]], { emptyText: NO_EPISODES, formatY: (y) => y.toFixed(1) });

/** The card's own exact solver (the page's may be busy with its own Solve), started when a model first plays. */
let solver = null;

/** The card's description (common/learn-card.js says what each part is). */
export const DUST_DQN = {
  puzzle: "dust",
  prefix: "ddqn",
  cli: { train: "puzzlelab dust train --net backups", eval: "puzzlelab dust eval --agent dqn" },
  intro: `A <strong>deep Q-network</strong> learns to clear the board in few clicks: it reads the board one-hot (8 × 6 cells,
    empty or one of five colours) and gives every cell a value; the pile with the highest is clicked. puzzlelab's learner
    backs up every pile of fresh boards from every stage of a game, so that a value learns 10 minus the clicks still
    needed. The blog post's learner plays 1,000 games at once and fits each round of clicks (−1 a click, −10 an empty
    cell, +10 the last click). The blog's own network is 5 × 1,500 units, as <code>puzzlelab dust train --net batched</code>
    has it (and 3 × 512 for puzzlelab's); here the defaults are smaller, to train in a tab. The same Rust code, in a Web
    Worker on WebGPU or the CPU.`,
  form: {
    fields: [
      choiceField("net", "Network", { backups: "puzzlelab's (full backups)", batched: "The blog's (batched DQN)" }),
      choiceField("target", "TD target", { max: "max of the next Q", mean: "mean of the next Q (the blog's)" }),
      hiddenLayersField(backups.hidden, "Hidden layers"),
    ],
    more: {
      label: "puzzlelab dust train's",
      fields: [
        dqnField("lr", backups.lr),
        dqnField("batch", backups.batch, { max: 10_000 }),
        dqnField("replay", backups.replay),
        dqnField("target-update", backups["target-every"], { id: "target-every", label: "Target update every (steps)" }),
        dqnField("envs", backups.envs, { max: 2_000 }),
        dqnField("epsilon-start", backups["epsilon-start"]),
        dqnField("epsilon-decay", backups["epsilon-decay"]),
        dqnField("epsilon-min", backups["epsilon-min"]),
        dqnField("seed", 0),
        dqnField("eval-every", 50),
        numberField("eval-boards", "Validation boards", 100, "count", 10_000, "validationSize"),
      ],
    },
    nets: { defaults: NET_DEFAULTS },
    request: ({ evalEvery, ...options }) => ({ options, evalEvery }),
  },
  saveName: (steps, { options }) => `dust-${options.net}-${steps}steps.dqn`,
  stats: {
    validation: [["clicks", "Validation clicks"]],
    render: ({ validation }) => (validation ? { clicks: `${validation.clicks.mean_clicks.toFixed(2)} (${numberFormat.format(validation.clicks.boards)} boards)` } : {}),
  },
  charts: {
    help: `Every few steps the network clears the validation boards greedily (<code>puzzlelab dust train</code>'s seeded boards):
      the fewer clicks a board, the better. The greedy rule (the click that leaves the fewest groups) needs about 16.6 a
      board, the exact solver's best clearings about 14, and the optimum lies near 13.`,
    list: [
      lineChart("clicks", "Validation: mean clicks a board", [["clicks", "--chart-1", true]], { emptyText: "Each validation adds a point", formatY: (y) => y.toFixed(2) }),
      episodeChart("length", "Training episodes: clicks", "episode length", "--chart-2"),
      episodeChart("return", "Training episodes: return", "episode return", "--chart-3"),
      lossChart("--chart-4"),
    ],
    evaluation: [
      barChart("distribution", "Last evaluation: boards by clicks", [["the model", "--chart-1"], ["greedy rule", "--chart-3"]], { emptyText: "No evaluation yet", formatY: (y) => String(Math.round(y)) }),
    ],
  },
  training: {
    report: (card, { stepsDone, episodeLength, episodeReturn }) => {
      card.charts.length.add(0, stepsDone, episodeLength ?? null);
      card.charts.return.add(0, stepsDone, episodeReturn ?? null);
    },
    started: ({ setup }, text) => `${layersText(setup?.hidden)}, ${text}; validation on ${plural(setup?.validationSize ?? 0, "board")}`,
    validated: (card, { steps, evaluation: clicks }) => {
      card.charts.clicks.add(0, steps, clicks.mean_clicks);
      return { steps, clicks };
    },
    validationText: ({ steps, clicks }) => ` Last validation (${numberFormat.format(steps)} steps): ${clicks.mean_clicks.toFixed(2)} clicks a board.`,
  },
  modelText,
  play: {
    heading: "Play the board",
    html: `<dl id="ddqn-versus" class="stats ddqn-versus" hidden>
  <div><dt>The model</dt><dd id="ddqn-model-clicks">–</dd></div>
  <div><dt>The optimum</dt><dd id="ddqn-optimum">–</dd></div>
</dl>`,
    buttons: [
      {
        id: "play",
        label: { shipped: "Play the shipped model", trained: "Play the network trained here", file: "Play the loaded model" },
        title: "The model clears the board shown, one click at a time; the exact solver looks for the fewest clicks meanwhile",
        toggle: true,
        run: play,
      },
    ],
    lock: (card, on) => card.api.onPlaying?.(on),
  },
  evaluation: {
    heading: "Evaluate on seeded boards",
    fields: [numberField("eval-n", "Boards", 200, "count", 10_000, "boards"), numberField("eval-seed", "Seed", 1, "whole", 2 ** 32 - 1, "seed")],
    help: `Clears boards 0 to <var>n</var> − 1 drawn from seed <var>s</var>, as <code>puzzlelab dust eval --agent dqn --boards n
      --seed s</code> does, and the greedy rule the same boards.`,
    columns: ["Model", "Boards", "Seed", "Model's clicks", "Greedy rule's", "Model's clicks: boards"],
    cancellable: true,
    run: async (card, chosen, { boards, seed }, { evaluateModel, elapsed }) => {
      const onProgress = ({ done, total }) =>
        card.evaluationTable.showProgress(`Cleared ${numberFormat.format(done)} of ${plural(total, "board")} with the model and with the greedy rule`, done / total);
      const { evaluation: report } = await evaluateModel({ boards, seed }, onProgress);
      const { mean_clicks: model, greedy } = report;
      card.charts.distribution.setData(...distributionBars(report));
      return {
        report: { ...report, name: chosen.name },
        cells: [chosen.name, numberFormat.format(boards), String(seed), model.toFixed(2), greedy.mean_clicks.toFixed(2), distributionText(report.distribution)],
        status: `${chosen.name} clears a board in ${model.toFixed(2)} clicks on average, the greedy rule in ${greedy.mean_clicks.toFixed(2)} (${elapsed()}).`,
      };
    },
  },
};

/** Renders the card into `container` (a section.card whose h2 is already there); `api` as in the file's header. */
export function mountDustDqnPanel(container, api = {}) {
  return new LearnCard(container, DUST_DQN, api);
}

/**
 * The chosen model clears the board shown: the learning worker works out its clicks while the
 * card's solver worker looks for the fewest (api.optimumSeconds), then the clicks go onto the board
 * one at a time, and the card shows the model's clicks beside the optimum ("≤ N (not proved)" when
 * the solver ran out of time). A board the model cannot play (not the dust rules' 8 × 6, 5 colours)
 * is refused in words. Resolves when the clicks are on the board.
 */
async function play(card) {
  const { board } = card.api;
  const game = board?.game;
  if (!game) return;
  card.clearPlayError();
  if (game.isOver) return card.setPlayStatus("The board is cleared already: pick a new board first.");
  card.root.dataset.optimum = "";
  const text = game.toText();
  const seconds = card.api.optimumSeconds ?? 5;
  solver ??= new SameGameSolver();
  if (solver.busy) solver.cancel();
  const optimum = game.exactSupported ? solver.exact("dust", text, seconds, () => {}) : Promise.resolve(null);
  optimum.catch(() => {});
  // From the board's start, the page's end-of-game line waits for this search (it compares clearings of the start).
  if (game.exactSupported && game.clicks === 0) card.api.onOptimumSearch?.(text, optimum, seconds);
  const asked = await card.askModel((chosen) => {
    card.setPlayStatus(`${chosen.name} is choosing its clicks; the exact solver looks for the fewest (up to ${seconds} s)…`);
    return card.playModel(chosen, { board: text });
  });
  if (!asked) return solver.cancel();
  if (board.game !== game) return; // a new board came meanwhile
  const { chosen, answer: played } = asked;
  const clicks = played.cells.length;
  showVersus(card, clicks, null);
  card.setPlayStatus(`${chosen.name} plays ${plural(clicks, "click")}…`);
  const click = async (cell) => {
    board.click(cell, "dqn");
    await board.settled;
  };
  if (!(await card.playMoves(played.cells, click, { game, delay: 250 }))) {
    card.setPlayStatus(board.game === game ? `${chosen.name} stopped; its clicks so far stay on the board.` : "");
    return;
  }
  card.setPlayStatus(`${chosen.name} cleared the board in ${plural(clicks, "click")}; the exact solver is still looking for the fewest…`);
  let found = null;
  try {
    found = await optimum;
  } catch (error) {
    if (!(error instanceof SolveCancelled)) card.showPlayError(`The exact solver: ${error.message}`);
  }
  if (board.game !== game) return;
  showVersus(card, clicks, found);
  card.setPlayStatus(versusText(chosen.name, clicks, found, seconds));
}

/** The model's clicks beside the optimum (`found`: the exact solver's answer, or null while it is unknown). */
function showVersus(card, clicks, found) {
  const { versus, modelClicks, optimum } = card.elements;
  versus.hidden = false;
  modelClicks.textContent = plural(clicks, "click");
  optimum.textContent = found ? (found.optimal ? `${plural(found.cells.length, "click")} (proved)` : `≤ ${found.cells.length} (not proved)`) : "…";
  Object.assign(card.root.dataset, { modelClicks: String(clicks), optimum: found ? String(found.cells.length) : "", optimumProved: found ? String(found.optimal) : "" });
}

/** What the card says after a play: the model's clicks against the optimum found. */
function versusText(name, clicks, found, seconds) {
  const said = `${name} cleared the board in ${plural(clicks, "click")}`;
  if (!found) return `${said} (the exact solver does not take this board).`;
  const fewest = found.cells.length;
  if (found.optimal) return clicks <= fewest ? `${said}: the fewest possible (proved).` : `${said}; the fewest is ${fewest} (proved): ${plural(clicks - fewest, "click")} more.`;
  return `${said}; the exact solver found ${fewest} in ${seconds} s (at least ${found.lowerBound} are needed; the fewest is not proved).`;
}

/** Bar-chart data of an evaluation: [labels (clicks), [the model's boards, the greedy rule's]]. */
function distributionBars({ distribution, greedy }) {
  const counts = [...Object.keys(distribution), ...Object.keys(greedy.distribution)].map(Number);
  const labels = [];
  for (let c = Math.min(...counts); c <= Math.max(...counts); c++) labels.push(c);
  return [labels.map(String), [labels.map((c) => distribution[c] ?? 0), labels.map((c) => greedy.distribution[c] ?? 0)]];
}

/** "14: 3 · 15: 20 · 16: 41 …" (boards by clicks). */
function distributionText(distribution) {
  return Object.entries(distribution)
    .map(([clicks, boards]) => `${clicks}: ${boards}`)
    .join(" · ");
}

/** "3 × 256 units": hidden layers in words. */
function layersText(hidden = []) {
  const same = hidden.length > 0 && hidden.every((w) => w === hidden[0]);
  return same ? `${hidden.length} × ${numberFormat.format(hidden[0])} units` : `layers ${hidden.join(", ")}`;
}

/** "puzzlelab's full backups, 3 × 256 units, 150,000 parameters, 600 steps". */
function modelText(info) {
  const net = { backups: "puzzlelab's full backups", batched: "the blog's batched DQN" }[info.net] ?? "a dust network";
  const target = info.target === "mean" ? " (mean target)" : "";
  const steps = info.training ? `, ${numberFormat.format(info.training.steps)} steps` : "";
  return `${net}${target}, ${layersText(info.network.hidden)}, ${numberFormat.format(info.numParams)} parameters${steps}`;
}
