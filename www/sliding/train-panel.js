// The sliding page's "Deep Q-learning" card (sliding.html, section#dqn): the dissertation's DQN on the
// shared Learn card (common/learn-card.js). What is the sliding puzzles' own: the form (the
// dissertation's hyper-parameters, `puzzlelab sliding train`'s reward and mixed difficulties), the
// training's solved % and difficulty, the shipped models of www/models/dqn-index.json (a value
// network among them, which the Q-learner cannot go on from; the menu offers only those that fit
// the page's board, and says so when none does), "Solve with the model" (greedy, then beam search,
// or batch-weighted A*: the page shows the solution as its Solve card's result, against the
// optimum, and plays it), and the evaluation by exact optimal distance (solved % and mean extra moves
// per distance, charted and tabled; a shipped model's from its manifest first).
//
//   import { mountSlidingDqnCard } from "./train-panel.js";
//   const card = mountSlidingDqnCard(document.querySelector("#dqn"), { board, isBusy, showSolution });

import { percentText } from "../common/card-helpers.js";
import { BarChart, LineChart } from "../common/chart.js";
import { shippedModels, solvesBoard } from "../common/learn-client.js";
import { LearnCard, lineChart, lossChart, numberFormat, speedChart } from "../common/learn-card.js";
import { checkField, choiceField, dqnField, hiddenLayersField, numberField } from "../common/learn-form.js";

/**
 * Reward names that manifests written before the rewards were named by behaviour record, and the
 * names the form's menu and the trainer use now (RewardScheme::from_name in
 * src/env/sliding/environment.rs reads both).
 */
const REWARD_NAMES = { "thesis": "heuristic-penalty", "seed000": "heuristic-penalty", "seed003": "step-cost-goal-bonus", "seed001": "steps" };
/** The shipped models of the index (learn-client.js shippedModels()) by card, once it is read. */
const shippedLists = new WeakMap();
/** The boards the form trains on. */
const TRAIN_SIZES = { "3x3": "3 × 3 (8-puzzle)", "4x4": "4 × 4 (15-puzzle)", "2x2": "2 × 2", "2x3": "2 × 3", "3x2": "3 × 2" };
/** The greedy and beam-search series of the evaluation's charts. */
const SEARCHES = [["greedy", "--chart-1", true], ["beam search", "--chart-2", true]].map(([name, color, dots]) => ({ name, color, dots }));

/** The card's description (common/learn-card.js says what each part is). */
export const SLIDING_DQN = {
  puzzle: "sliding",
  prefix: "dqn",
  cli: { train: "puzzlelab sliding train", eval: "puzzlelab sliding eval" },
  intro: `A neural network learns how many moves each position is worth (the deep Q-network of the N-puzzle DQN
    dissertation, 2021). It trains in its own worker, on the graphics card where it is faster; the learning module (several megabytes) downloads the first time you use this card.`,
  modelUrl: "models/8puzzle.dqn",
  // The options: LearnerTrainer.create's camelCase, mirroring DqnConfig in src/agent/dqn/, plus `reward`, `difficulty` and the switches.
  form: {
    fields: [choiceField("size", "Puzzle", TRAIN_SIZES)],
    more: {
      label: "the dissertation's defaults",
      fields: [
        hiddenLayersField("250,250,250"),
        choiceField("reward", "Reward", { "heuristic-penalty": "−(Manhattan + 2·LC) (the N-puzzle DQN dissertation)", steps: "−1 a move (the dust-puzzle blog post)" }),
        dqnField("lr", 0.0001),
        dqnField("gamma", 0.9),
        dqnField("batch", 100, { label: "Batch size" }),
        dqnField("replay", 100000),
        dqnField("target-update", 10),
        dqnField("epsilon-start", 0.9),
        dqnField("epsilon-decay", 0.999),
        dqnField("epsilon-min", 0.3),
        numberField("episode-moves", "Moves per episode", 50, "count", 10_000, "maxEpisodeSteps"),
        dqnField("warmup", 100),
        dqnField("envs", 1),
        numberField("eval-interval", "Evaluate every (episodes)", 50, "whole", 1e9, "evalIntervalEpisodes"),
        numberField("eval-episodes", "Puzzles per evaluation", 10, "count", 10_000, "evalEpisodes"),
        numberField("difficulty", "Start difficulty", 1, "count", 1000),
        numberField("failure-share", "With full backups: share of each batch from the greedy policy's failures", 0, "fraction", 1, "failureShare"),
        dqnField("seed", 0),
      ],
      checks: [
        checkField("curriculum", "Curriculum: raise the difficulty after 3 evaluations in a row above 80%", "curriculum", true),
        checkField("mixed", "Mixed difficulties: each episode's difficulty drawn from 1 to the current one"),
        checkField("uniform-starts", "Uniform starts: with mixed difficulties, every other episode starts from a uniformly random position"),
        checkField("full-backups", "Full backups: no play or replay; each step backs up every move of a batch of fresh starts (evaluations then come every so many steps)"),
        checkField("double", "Double DQN", "doubleDqn"),
        checkField("huber", "Huber loss", "huberLoss"),
        checkField("mask", "Mask illegal moves", "maskActions"),
        checkField("prioritized", "Prioritised replay (α 0.6, β 0.4 → 1)", "prioritizedReplay"),
      ],
    },
    request: ({ size, ...options }) => {
      const [rows, cols] = size.split("x").map(Number);
      return { rows, cols, goal: "", options };
    },
    continueFrom: {
      shipped: true,
      // A value network gives the moves left, not a Q-value per move: the Q-learner cannot go on from it.
      accepts: (info) => !isValueNetwork(info),
      // A shipped model's manifest (`puzzlelab sliding train`'s record: its `setup`, or in older
      // manifests the same fields at the top level) adds its reward and mixed difficulties;
      // without one: the dissertation's reward, one difficulty at a time.
      fill: ({ info, manifest }) => {
        const setup = manifest?.setup ?? manifest;
        return {
          size: `${info.rows}x${info.cols}`,
          hidden: (info.network?.hidden ?? []).join(","),
          ...(setup ? { reward: REWARD_NAMES[setup.reward] ?? setup.reward, mixed: (setup.mixed ?? setup.mixed_difficulty) === true, "uniform-starts": setup.uniform_starts === true } : {}),
        };
      },
      mismatch: ({ info }, { rows, cols }) =>
        info.rows === rows && info.cols === cols ? "" : `The loaded model is for ${info.rows} × ${info.cols} boards: choose that puzzle, or untick “Start from its weights”.`,
    },
  },
  saveName: (steps, { rows, cols }) => `dqn-${rows}x${cols}.dqn`,
  // The chunk report's `setup` is the learner's after the chunk: the curriculum's difficulty.
  stats: { validation: [["difficulty", "Difficulty"]], render: ({ report }) => (report ? { difficulty: String(report.setup?.difficulty) } : {}) },
  charts: {
    help: `A step is one move of a training episode (or, with full backups, one backed-up batch) and a gradient step. Every few
      episodes the network solves a few puzzles greedily at the current difficulty; the curriculum raises it when it solves most.`,
    list: [
      lossChart(),
      // Its data-points count the exploring games' series, its data-evaluations the evaluations'.
      { ...lineChart("solved", "Solved %", [["evaluation", "--chart-2", true], ["exploring", "--chart-1"]], { yMin: 0, yMax: 100, formatY: (y) => `${Math.round(y)}%` }), points: 1 },
      lineChart("difficulty", "Difficulty", [["difficulty", "--chart-3"]], { integerY: true }),
      speedChart(),
    ],
    evaluation: [
      { id: "eval-solved", make: (canvas) => new BarChart(canvas, { title: "Solved % by optimal distance", yMax: 100, xLabel: "optimal moves", series: SEARCHES, formatY: (y) => `${Math.round(y)}%` }) },
      {
        id: "eval-extra",
        make: (canvas) => new LineChart(canvas, { title: "Mean extra moves", xLabel: "optimal", integerX: true, series: SEARCHES, emptyText: "No evaluation yet", formatY: (y) => y.toFixed(2) }),
      },
    ],
  },
  training: {
    report: ({ charts: { solved, difficulty } }, { stepsDone: x, evalSolvedRate, solvedRate, setup }) => {
      if (evalSolvedRate !== null && evalSolvedRate !== undefined) solved.add(0, x, evalSolvedRate * 100);
      solved.add(1, x, solvedRate === null ? null : solvedRate * 100);
      difficulty.add(0, x, setup?.difficulty);
      solved.canvas.dataset.evaluations = String(solved.pointCount(0));
    },
    status: ({ report }) =>
      report?.evalSolvedRate !== null && report?.evalSolvedRate !== undefined ? ` Last evaluation: ${Math.round(report.evalSolvedRate * 100)}% solved at difficulty ${report.setup?.difficulty}.` : "",
    stoppedText: "The trained network is now the model: solve the board with it, evaluate it, or Save it.",
    pausedText: ". The network so far is the model: solve or evaluate with it, Save it, or Resume.",
  },
  modelText,
  // A value network is made for the search.
  loaded: (card, { info }) => {
    if (isValueNetwork(info)) card.elements.search.value = "bwas";
  },
  play: {
    heading: "Solve the board",
    fields: [choiceField("search", "Search", { greedy: "Greedy, then beam search", bwas: "Batch-weighted A*" })],
    html: `<p id="dqn-fit" class="help"></p>`,
    help: `Solve plays the network's best move until the goal (at most 50 moves), else runs a beam search that the network guides;
      or runs DeepCubeA's batch-weighted A* over the network's estimate of the moves left (slower, and most often optimal:
      f = λ·g + h with λ 1.2 over a Q-network, 1.08 over the 15-puzzle value network, which learned the moves left from optimal
      solutions). The solution plays on the player above, and the Solve card shows how it compares with the optimum.`,
    buttons: [{ id: "solve", label: "Solve with the model", run: solve }],
    // The shipped-model menu follows the board; whether the chosen model fits the page's board is
    // said under the buttons (or that no shipped one does); a value network is marked on the model line.
    render: (card) => {
      const { elements } = card;
      const fitting = offerFittingModels(card);
      const info = card.chosenInfo;
      const puzzle = card.api.board?.puzzle;
      const noneFits = fitting?.length === 0 ? noShippedModel(card) : "";
      elements.fit.textContent = info && puzzle ? misfit(info, puzzle) : noneFits;
      // Nothing to fetch from an empty menu, nor a shipped model to solve with or evaluate before one was loaded.
      if (fitting?.length === 0) elements.loadShipped.disabled = true;
      if (noneFits && !info) elements.solve.disabled = elements.evaluate.disabled = true;
      elements.modelLine.dataset.values = String(isValueNetwork(info));
    },
  },
  evaluation: {
    heading: "Evaluate it by optimal distance",
    fields: [numberField("per-distance", "Positions per distance", 10, "count", 100, "perDistance")],
    help: `Evaluate draws fresh positions at every exact optimal distance (boards of up to 9 cells; <code>puzzlelab sliding eval</code>
      evaluates 4 × 4) and solves each greedily and with the beam search: the share solved and the moves over the optimum.`,
    columns: ["Model", "Positions", "Greedy solved", "Greedy extra", "Search solved", "Search extra"],
    html: `<div id="dqn-evaluation" class="evaluation" hidden>
  <details class="eval-table">
    <summary>The last evaluation by optimal distance</summary>
    <div class="table-scroll">
      <table id="dqn-distance-table">
        <thead><tr>${["Optimal moves", "Positions", "Greedy solved", "Greedy extra moves", "Search solved", "Search extra moves"].map((name) => `<th scope="col">${name}</th>`).join("")}</tr></thead>
        <tbody></tbody>
      </table>
    </div>
  </details>
</div>`,
    cancellable: true,
    run: async (card, chosen, { perDistance }, { evaluateModel, elapsed }) => {
      const { rows, cols } = chosen.info;
      if (rows * cols > 9) throw new Error("The page evaluates models of boards up to 9 cells (3 × 3): exact optimal distances are known only there. Use `puzzlelab sliding eval` for 4 × 4.");
      const progress = ({ done, total }) =>
        card.evaluationTable.showProgress(`${numberFormat.format(done)} of ${numberFormat.format(total)} positions (${perDistance} at every optimal distance)`, total ? done / total : null);
      const { evaluation: table } = await evaluateModel({ perDistance }, progress);
      const { overall } = table;
      return {
        ...showDistances(card, table, chosen.name, { perDistance, time: elapsed() }),
        status:
          `${chosen.name}. Measured here: ${numberFormat.format(overall.positions)} positions (${perDistance} per distance) in ${elapsed()}. ` +
          `Greedy solved ${percentText(field(overall, "greedySolvedPercent"))}, the beam search ${percentText(field(overall, "searchSolvedPercent"))}.`,
      };
    },
    // Its last validation (`validation`; `evaluation` in older manifests), drawn without running anything.
    manifest: (card, manifest, model) => {
      const evaluation = manifest?.validation ?? manifest?.evaluation;
      if (!Array.isArray(evaluation?.rows) || evaluation.rows.length === 0) return null;
      if (!evaluation.rows.every((row) => row !== null && typeof row === "object")) throw new Error("its evaluation rows are not rows");
      const perDistance = evaluation.settings?.perDistance ?? evaluation.settings?.per_distance;
      // A mean of models' weights (`puzzlelab sliding average`) lists them; its steps are its first model's.
      const averaged = Array.isArray(manifest.inputs) ? manifest.inputs.length : 0;
      const steps = averaged ? null : (manifest.evaluation_step ?? manifest.training_curve?.at(-1)?.step ?? manifest.steps);
      return {
        ...showDistances(card, evaluation, `${model.name} (manifest)`, { perDistance, steps }),
        status:
          `${model.name}. From the model's manifest (not run here): ${numberFormat.format(field(evaluation.overall, "positions"))} positions` +
          `${perDistance ? `, ${perDistance} per distance` : ""}${steps ? `, after ${numberFormat.format(steps)} training steps` : ""}. ` +
          `${averaged ? `The model is the weighted mean of ${averaged} trained models' weights. ` : ""}` +
          everyPositionText(manifest) +
          "Evaluate measures it again in this tab.",
      };
    },
  },
};

/**
 * Renders the card into `container` (section#dqn, its h2 already there). `api`: `board` (the page's
 * <sliding-board>, its `puzzle` the board solved), `isBusy()` (whether the page's own solver works
 * on the board: the model then waits), `showSolution(result, puzzle, label)` (shows and plays a
 * model's solution of `puzzle`, the worker's report, as found by `label`; returns the sentence said).
 */
export function mountSlidingDqnCard(container, api) {
  const card = new LearnCard(container, SLIDING_DQN, api);
  api.board.addEventListener("board-reset", () => card.boardChanged());
  // The card lists the same index (and says why, when it cannot be read): its menu is then narrowed to the board.
  shippedModels().then(
    (models) => {
      shippedLists.set(card, models);
      card.boardChanged();
    },
    () => {},
  );
  return card;
}

/** Solves the page's board with the chosen model and plays the solution on the page's player. */
async function solve(card) {
  const { board, isBusy } = card.api;
  const puzzle = board.puzzle;
  const say = (text) => card.setPlayStatus(text);
  if (!puzzle) return;
  if (isBusy?.()) return say("The page's solver is working on the board: wait for it, or cancel it.");
  const problem = card.chosenInfo ? misfit(card.chosenInfo, puzzle) : noShippedModel(card);
  if (problem) return say(problem);
  if (puzzle.isSolved()) return say("The board is already solved — shuffle it first.");
  if (!puzzle.isSolvable()) return say("This start cannot reach the goal (the two have different parity).");
  const cells = Array.from(puzzle.board());
  say("Solving with the model…");
  const search = card.elements.search.value === "bwas" ? { method: "bwas" } : {};
  const position = { ...search, rows: puzzle.rows, cols: puzzle.cols, goal: Array.from(puzzle.goal()), cells };
  const answer = await card.askModel((chosen) => misfit(chosen.info, puzzle) || card.playModel(chosen, position));
  if (!answer) return say("");
  if (typeof answer.answer === "string") return say(answer.answer);
  // A person may have moved a tile meanwhile: the solution starts from the board sent.
  if (board.puzzle !== puzzle || Array.from(puzzle.board()).join() !== cells.join()) return say("The board changed while the model was solving it: solve again.");
  const how = { greedy: "greedy", bwas: "batch-weighted A*" }[answer.answer.method] ?? "beam search";
  say(card.api.showSolution(answer.answer, puzzle, `The ${isValueNetwork(answer.chosen.info) ? "value network" : "DQN model"} (${how})`));
}

/**
 * Shows an evaluation by distance ({ rows, overall }) in the charts and the table by distance;
 * returns its row of the card's results: { report (with `about`: its settings), cells } (`name` the model's).
 */
function showDistances(card, table, name, about) {
  const rows = table.rows ?? [];
  const { "eval-solved": evalSolved, "eval-extra": evalExtra } = card.charts;
  const distances = rows.map((row) => field(row, "optimal"));
  evalSolved.setData(distances, [rows.map((row) => field(row, "greedySolvedPercent")), rows.map((row) => field(row, "searchSolvedPercent"))]);
  ["greedyMeanExtra", "searchMeanExtra"].forEach((name, series) => evalExtra.setPoints(series, rows.map((row) => ({ x: field(row, "optimal"), y: field(row, name) }))));
  // Mean extra moves are over the solved positions: an evaluation that solved none has no line.
  evalExtra.emptyText = "Nothing solved";
  const cells = (row) => [
    numberFormat.format(field(row, "positions")),
    percentText(field(row, "greedySolvedPercent")),
    extraText(field(row, "greedyMeanExtra")),
    percentText(field(row, "searchSolvedPercent")),
    extraText(field(row, "searchMeanExtra")),
  ];
  const document = card.root.ownerDocument;
  const tableRow = (label, values, overall = false) => {
    const tr = document.createElement("tr");
    const th = Object.assign(document.createElement("th"), { scope: "row", textContent: label });
    tr.append(th, ...values.map((value) => Object.assign(document.createElement("td"), { textContent: value })));
    if (overall) tr.className = "overall";
    return tr;
  };
  const body = card.elements.distanceTable.tBodies[0];
  body.replaceChildren(...rows.map((row) => tableRow(String(field(row, "optimal")), cells(row))));
  if (table.overall) body.append(tableRow("All", cells(table.overall), true));
  card.elements.evaluation.hidden = false;
  card.elements.evaluation.dataset.rows = String(rows.length);
  const [positions, ...rest] = cells(table.overall);
  return { report: { model: name, ...about, overall: table.overall, rows: rows.length }, cells: [name, positions, ...rest] };
}

/**
 * The score on every position a manifest records (`puzzlelab sliding eval --every-position --record
 * every_position`): "On all 181,440 positions (…): 99.60% solved greedily, 1.98% more moves than
 * the optimum (147,930 optimal, 27,027 with 2 extra, …). " — "" when it records none.
 */
function everyPositionText(manifest) {
  const score = manifest?.evaluations?.every_position?.every_position;
  if (!Number.isFinite(score?.positions) || !Number.isFinite(score?.solved_percent) || !Number.isFinite(score?.extra_moves_percent)) return "";
  const counts = Array.isArray(score.extra_moves) ? score.extra_moves.map((count, extra) => [extra, count]).filter(([, count]) => count > 0) : [];
  const spread = counts.map(([extra, count]) => `${numberFormat.format(count)} ${extra ? `with ${extra} extra` : "optimal"}`).join(", ");
  return (
    `On all ${numberFormat.format(score.positions)} positions (checked against the exact distances): ${score.solved_percent.toFixed(2)}% solved greedily, ` +
    `${score.extra_moves_percent.toFixed(2)}% more moves than the optimum${spread ? ` (${spread})` : ""}. `
  );
}

/** Why the model (`info`) cannot solve `puzzle`, or "" when it can. */
function misfit(info, puzzle) {
  if (puzzle.presetName) return "The board is the sun & moon preset: the DQN models solve numbered sliding puzzles only.";
  if (solvesBoard(info, puzzle.rows, puzzle.cols, Array.from(puzzle.goal()))) return "";
  const sameSize = info.rows === puzzle.rows && info.cols === puzzle.cols;
  const board = sameSize ? `this board has the goal ${puzzle.goalText()}` : `this board is ${puzzle.rows} × ${puzzle.cols}`;
  return (
    `This model solves ${info.rows} × ${info.cols} boards with the goal ${info.goal}; ${board}. ` +
    (sameSize ? "Reset the goal under Puzzle to use it." : `Choose ${info.rows} × ${info.cols} under Puzzle → Size to use it.`)
  );
}

/** Whether a shipped model (an entry of the index) solves `puzzle`: a numbered board of its size and goal. */
function fits(model, puzzle) {
  return !puzzle.presetName && solvesBoard(model, puzzle.rows, puzzle.cols, Array.from(puzzle.goal()));
}

/**
 * Offers in the shipped-model menu only the models of the index that fit the page's board, keeping
 * the one chosen where it still fits (else the first that does); where none fits, the menu's one
 * entry, disabled, says so. That entry keeps the value chosen before, so that the card's shipped
 * model (model-sources.js takes the first listed for a value it does not know) stays the one it was:
 * the model line and the fit line keep speaking of the same model. Returns the models that fit, or
 * null while the index is not read.
 */
function offerFittingModels(card) {
  const models = shippedLists.get(card);
  const puzzle = card.api.board?.puzzle;
  if (!models || !puzzle) return null;
  const fitting = models.filter((model) => fits(model, puzzle));
  const select = card.elements.shipped;
  const chosen = select.value;
  const sameSize = models.some((model) => model.size === `${puzzle.rows}x${puzzle.cols}`);
  const none = puzzle.presetName ? "None for sun & moon" : sameSize ? "None for this goal" : `None for ${puzzle.rows} × ${puzzle.cols} boards`;
  const wanted =
    fitting.length > 0
      ? fitting.map(({ file, title }) => ({ value: file, text: title, disabled: false }))
      : [{ value: chosen, text: none, disabled: true }];
  const shown = Array.from(select.options, ({ value, textContent: text, disabled }) => ({ value, text, disabled }));
  if (JSON.stringify(shown) !== JSON.stringify(wanted)) {
    const document = select.ownerDocument;
    select.replaceChildren(...wanted.map(({ value, text, disabled }) => Object.assign(document.createElement("option"), { value, textContent: text, disabled })));
    select.value = wanted.some((option) => option.value === chosen) ? chosen : wanted[0].value;
  }
  return fitting;
}

/** Why no shipped model can solve the page's board, when the shipped model is the one chosen and none of the index fits it; else "". */
function noShippedModel(card) {
  const models = shippedLists.get(card);
  const puzzle = card.api.board?.puzzle;
  if (card.elements.model.value !== "shipped" || !models || !puzzle || models.some((model) => fits(model, puzzle))) return "";
  if (puzzle.presetName) return "No shipped model fits the sun & moon preset: the DQN models solve numbered sliding puzzles only.";
  const kinds = [...new Set(models.map((model) => `${model.size.replace("x", " × ")} boards with the goal ${model.goal}`))];
  const size = `${puzzle.rows}x${puzzle.cols}`;
  const sameSize = models.some((model) => model.size === size);
  const board = `this ${puzzle.rows} × ${puzzle.cols} board${sameSize ? ` with the goal ${puzzle.goalText()}` : ""}`;
  const instead = size in TRAIN_SIZES ? "Train one here, or load a model file." : "Load a model file for it.";
  return `No shipped model fits ${board}: they solve ${kinds.join(" and ")}. ${instead}`;
}

/** "3 × 3 · hidden layers 250-250-250 · 136,004 parameters · 20,000 training steps". */
function modelText(info) {
  const hidden = info.network?.hidden?.length ? info.network.hidden.join("-") : "none";
  return [
    `${info.rows} × ${info.cols}`,
    isValueNetwork(info) ? "value network (moves left)" : "",
    `hidden layers ${hidden}`,
    `${numberFormat.format(info.numParams)} parameters`,
    info.training ? `${numberFormat.format(info.training.steps)} training steps` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** Whether a model gives one value per board (the moves left) rather than a Q-value per move. */
function isValueNetwork(info) {
  return info?.network?.numActions === 1;
}

/** A field of an evaluation row, whichever case its keys are in (the bundle: camelCase). */
function field(row, name) {
  if (!row) return undefined;
  if (row[name] !== undefined) return row[name];
  return row[name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

/** Mean extra moves with two decimals, "–" when nothing was solved. */
function extraText(value) {
  return value === null || value === undefined ? "–" : Number(value).toFixed(2);
}
