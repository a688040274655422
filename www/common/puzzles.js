// The one list of puzzlelab's puzzles, read by everything that is the same for every puzzle: the
// pages' nav (site-nav.js), the widget's modes (widget.js, widget-attributes.js's PUZZLE_KINDS) and
// the learning worker's job table (learn-worker.js, learn-client.js). Adding a puzzle is a line
// here (plus its own folder, www/<puzzle>/); nothing else keeps a second list. Plain data and small
// lookups: no DOM, nothing runs on import, so pages, widgets and workers all load it.
//
// Paths are relative to www/ (the folder above this file) and resolved with wwwUrl(), so that a
// site may copy www/ anywhere.

/**
 * Every puzzle, in the nav's order:
 *   id        the puzzle's name everywhere (the widget's `puzzle` attribute, the learning worker's
 *             `puzzle` field, www/<folder>/)
 *   title     its name in a sentence ("a Sudoku model", "the dust page")
 *   page      its page; puzzles that share one (dust and SameGame: two rule sets of one family,
 *             one page with a rules menu) share its nav link
 *   nav       the nav link's label
 *   docs      its reference page (docs/<x>.md, from the repository root)
 *   widget    its <puzzle-widget> mode: `mode` (the `puzzle` attribute), `module` (its panel's
 *             module) and `panel` (the panel class it exports); for every mode but the default one
 *             (DEFAULT_WIDGET_MODE, built into widget.js) also `part` (the part and container of the
 *             widget's shadow DOM it draws into), `className` (that container's class, which the
 *             panel's style names) and `attributes` (those only this mode reads: the widget observes
 *             them before the module loads)
 *   home      its card on the home page (index.html, home.js): `link` (where the card leads: its
 *             page, with a hash for a rule set), `blurb` (one sentence for a newcomer), `offers`
 *             (what a visitor can do there, any of OFFERS' keys) and `preview` (the attributes of
 *             the card's live <puzzle-widget>)
 *   learner   the deep Q-learner of the learning worker (null: none): `jobs` (the module of its
 *             jobs in the learning worker, exporting learnJobs: see common/learn-jobs.js; the
 *             learning bundle's LearnerTrainer and LearnedModel train and play it), `puzzleIds` (the
 *             beginnings of the `puzzleId` its model files carry in their header: the Rust
 *             `Environment::puzzle_id` of src/env/<puzzle>/), `trainedKey` (the worker's key of the
 *             network being trained, as a model) and `shipped` (its shipped model files, or
 *             `shippedIndex`: the index that lists them)
 */
export const PUZZLES = deepFreeze([
  {
    id: "sliding",
    title: "sliding puzzle",
    page: "sliding.html",
    nav: "Sliding puzzles",
    docs: "docs/sliding.md",
    widget: { mode: "sliding", module: "sliding/widget-panel.js", panel: "SlidingPanel" },
    home: {
      link: "sliding.html",
      blurb: "The 8- and 15-puzzle: slide the tiles home, or watch A*, IDA* with pattern databases, Q-learning and a deep Q-network find the way.",
      offers: ["play", "solve", "watch", "train"],
      preview: { size: "3", controls: "shuffle solve" },
    },
    learner: {
      jobs: "sliding/learn-jobs.js",
      puzzleIds: ["sliding "],
      trainedKey: "trained",
      shippedIndex: "models/dqn-index.json",
    },
  },
  {
    id: "2048",
    title: "2048",
    page: "2048.html",
    nav: "2048",
    docs: "docs/2048.md",
    widget: {
      mode: "2048",
      module: "2048/widget-panel.js",
      panel: "Game2048Panel",
      part: "game2048",
      className: "game2048",
      attributes: ["seed", "agent", "depth", "always-two"],
    },
    home: {
      link: "2048.html",
      blurb: "Merge equal tiles to reach 2048, or watch an n-tuple network that taught itself the game play it.",
      offers: ["play", "watch", "train"],
      preview: { agent: "ntuple", seed: "2048", controls: "new hint play" },
    },
    learner: {
      jobs: "2048/learn-jobs.js",
      puzzleIds: ["2048 "],
      trainedKey: "trained-2048",
      shipped: ["models/2048-dqn.dqn"],
    },
  },
  {
    id: "minesweeper",
    title: "Minesweeper",
    page: "minesweeper.html",
    nav: "Minesweeper",
    docs: "docs/minesweeper.md",
    widget: {
      mode: "minesweeper",
      module: "minesweeper/widget-panel.js",
      panel: "MinesPanel",
      part: "minesweeper",
      className: "mines",
      attributes: ["seed", "level", "width", "height", "mines", "first-click", "no-guess", "overlay", "question-marks"],
    },
    home: {
      link: "minesweeper.html",
      blurb: "Clear the field without a blast, with an exact probability solver that shows every cell’s odds.",
      offers: ["play", "solve", "watch", "train"],
      preview: { level: "beginner", seed: "7", controls: "new hint play" },
    },
    learner: {
      jobs: "minesweeper/learn-jobs.js",
      puzzleIds: ["minesweeper-"],
      trainedKey: "trained-minesweeper",
      shipped: ["models/minesweeper-dqn.dqn"],
    },
  },
  {
    id: "sudoku",
    title: "Sudoku",
    page: "sudoku.html",
    nav: "Sudoku",
    docs: "docs/sudoku.md",
    widget: {
      mode: "sudoku",
      module: "sudoku/widget-panel.js",
      panel: "SudokuPanel",
      part: "sudoku",
      className: "sudoku",
      attributes: ["size", "difficulty", "seed", "pencil"],
    },
    home: {
      link: "sudoku.html",
      blurb: "Fill the grid with pencil marks and undo, and get hints that name the technique behind each step.",
      offers: ["play", "solve", "watch", "train"],
      preview: { size: "4", seed: "1", controls: "new hint check" },
    },
    learner: {
      jobs: "sudoku/learn-jobs.js",
      puzzleIds: ["sudoku-"],
      trainedKey: "trained-sudoku",
      shipped: ["models/sudoku-cells.dqn", "models/sudoku-paper.dqn"],
    },
  },
  {
    id: "dust",
    title: "dust",
    page: "samegame.html",
    nav: "Dust · SameGame",
    docs: "docs/samegame.md",
    widget: { mode: "dust", module: "samegame/widget-panel.js", panel: "SameGamePanel", part: "dust", className: "samegame", attributes: ["seed"] },
    home: {
      link: "samegame.html#rules=dust",
      blurb: "Clear the board in the fewest clicks; an exact solver proves the optimum on small boards.",
      offers: ["play", "solve", "watch", "train"],
      preview: { seed: "3", controls: "new undo solve" },
    },
    learner: {
      jobs: "samegame/learn-jobs.js",
      puzzleIds: ["dust-"],
      trainedKey: "trained-dust",
      shipped: ["models/dust-backups.dqn"],
    },
  },
  {
    id: "samegame",
    title: "SameGame",
    page: "samegame.html",
    nav: "Dust · SameGame",
    docs: "docs/samegame.md",
    widget: { mode: "samegame", module: "samegame/widget-panel.js", panel: "SameGamePanel", part: "samegame", className: "samegame", attributes: ["seed"] },
    home: {
      link: "samegame.html#rules=samegame",
      blurb: "Remove groups of one colour for the highest score, against nested Monte Carlo search.",
      offers: ["play", "solve"],
      preview: { seed: "3", controls: "new undo hint" },
    },
    learner: null,
  },
]);

/** The home page (home/home.js draws its cards from the registry) and its nav link's label. */
export const HOME = deepFreeze({ page: "index.html", nav: "Home" });

/** What a visitor can do on a puzzle's page (a registry entry's `home.offers`), in words. */
export const OFFERS = deepFreeze({
  play: "Play",
  solve: "Watch it solved",
  watch: "Watch a trained agent",
  train: "Train an agent in your tab",
});

/** The widget mode of a <puzzle-widget> without a `puzzle` attribute (its panel is widget.js's own). */
export const DEFAULT_WIDGET_MODE = "sliding";

/** www/, the folder every registry path is relative to. */
export const WWW_URL = new URL("../", import.meta.url);

/** A registry path (a page, a module, a model) as an absolute URL. */
export function wwwUrl(path) {
  return new URL(path, WWW_URL);
}

/** The puzzle with this id, or null. */
export function byId(id) {
  return PUZZLES.find((puzzle) => puzzle.id === id) ?? null;
}

/** The puzzles with a learner (the learning worker's jobs), in the registry's order. */
export function learnablePuzzles() {
  return PUZZLES.filter((puzzle) => puzzle.learner);
}

/** The learnable puzzle whose model files carry `puzzleId` in their header, or null. */
export function puzzleOfModel(puzzleId) {
  const id = String(puzzleId ?? "");
  return learnablePuzzles().find((puzzle) => puzzle.learner.puzzleIds.some((start) => id.startsWith(start))) ?? null;
}

/** The learnable puzzle whose network being trained is kept under `key`, or null. */
export function puzzleOfTrainedKey(key) {
  return learnablePuzzles().find((puzzle) => puzzle.learner.trainedKey === key) ?? null;
}

/** The nav's links, one per page in the registry's order: [{ page, nav, puzzles (their ids) }]. */
export function sitePages() {
  const pages = new Map();
  for (const puzzle of PUZZLES) {
    const entry = pages.get(puzzle.page) ?? { page: puzzle.page, nav: puzzle.nav, puzzles: [] };
    entry.puzzles.push(puzzle.id);
    pages.set(puzzle.page, entry);
  }
  return [...pages.values()];
}

/** Every widget mode: [{ mode, module, panel, …, title, puzzle (its puzzle's id) }]. */
export function widgetModes() {
  return PUZZLES.map((puzzle) => ({ ...puzzle.widget, title: puzzle.title, puzzle: puzzle.id }));
}

/** `value` with every object and array in it frozen (the registry is read by everyone, changed by no one). */
function deepFreeze(value) {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
