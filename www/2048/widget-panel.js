// The 2048 mode of <puzzle-widget puzzle="2048"> (widget.js imports this module only when a widget
// first shows 2048): the board, its buttons and the agent, and the 2048 attributes read into the
// panel's options.

import { errorMessage } from "../common/wasm.js";
import { GamePanel, parseStart } from "../common/game-panel.js";
import { AttributeError, DEFAULT_SPEED, checkModel, parseControls, parseSeed, parseSpeed } from "../common/widget-attributes.js";
import { networkFromUrl, shippedNetwork, AgentRunner } from "./agent.js";
import { ARROWS, DIRECTIONS, randomSeed } from "./game.js";

/** The buttons of a 2048 widget, and those shown when `controls` is absent. */
const CONTROLS_2048 = ["new", "undo", "hint", "play"];
const DEFAULT_CONTROLS_2048 = ["new", "hint", "play"];
/** Agents a 2048 widget offers (agent.js), and its deepest search. */
const AGENTS_2048 = ["ntuple"];
const MAX_DEPTH_2048 = 3;
/** Attributes that only a 2048 widget reads: their errors go when the widget shows a sliding puzzle. */
export const ATTRIBUTES_2048 = ["seed", "agent", "depth", "always-two"];

/** The search depth of a 2048 agent from a `depth` value (null: absent, greedy). */
function parseDepth(value) {
  if (value === null || value.trim() === "") return 1;
  const depth = Number(value.trim());
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH_2048) {
    throw new AttributeError("depth", value, `the depth is 1 (greedy) to ${MAX_DEPTH_2048} (expectimax)`);
  }
  return depth;
}

/**
 * The panel's options from the widget's attributes (`element`), starting from the `previous` valid
 * ones: each attribute is read inside `apply(attributes, action)`, which shows an AttributeError
 * and keeps the previous value of that attribute.
 */
export function optionsFromAttributes(element, previous, apply, api) {
  const options = {
    seed: previous?.seed ?? null,
    start: previous?.start ?? "",
    alwaysTwo: element.hasAttribute("always-two"),
    agent: previous?.agent ?? null,
    model: previous?.model ?? "",
    depth: previous?.depth ?? 1,
    speed: previous?.speed ?? DEFAULT_SPEED,
    controls: previous?.controls ?? new Set(DEFAULT_CONTROLS_2048),
    autoplay: element.hasAttribute("autoplay"),
  };
  apply(["seed"], () => (options.seed = parseSeed(element.getAttribute("seed"))));
  apply(["start"], () => (options.start = parseStart(element, (start) => api.Game2048.fromText(start, 0, false).free())));
  apply(["agent"], () => {
    const agent = (element.getAttribute("agent") ?? "").trim().toLowerCase();
    if (agent && !AGENTS_2048.includes(agent)) {
      throw new AttributeError("agent", element.getAttribute("agent"), `unknown agent; the 2048 agents are ${AGENTS_2048.join(", ")}`);
    }
    options.agent = agent || null;
  });
  apply(["model"], () => {
    checkModel(element);
    options.model = (element.getAttribute("model") ?? "").trim();
  });
  apply(["depth"], () => (options.depth = parseDepth(element.getAttribute("depth"))));
  apply(["speed"], () => (options.speed = parseSpeed(element.getAttribute("speed"))));
  apply(["controls"], () => {
    options.controls = parseControls(element.getAttribute("controls"), CONTROLS_2048, DEFAULT_CONTROLS_2048);
  });
  return options;
}

/**
 * What <puzzle-widget puzzle="2048"> shows: the board, its buttons and the agent (a GamePanel,
 * common/game-panel.js); this class owns the game and the agent runner.
 */
export class Game2048Panel extends GamePanel {
  #root;
  #runner;
  /** The seed of the game shown. */
  #seed = 0;
  /** Whether the status line shows a hint (cleared by the next move). */
  #hinted = false;
  /** The agent in use: { key, promise } (key: "ntuple" or a model URL). */
  #agent = null;

  constructor(container, host) {
    super(container, host, {
      name: "game2048",
      controls: "agent-controls",
      style: `
game2048-board { display: block; width: 100%; }
game2048-board button { height: 32px; padding: 0 10px; }
`,
      buttons: [
        ["new", "New game", { slot: "actions" }],
        ["undo", "Undo", { slot: "actions" }],
        ["hint", "Hint"],
        ["play", "Play", { primary: true }],
        ["step", "Step"],
      ],
      clicks: {
        undo: () => this.#undo(),
        play: () => (this.#runner.playing ? this.pause() : this.play().catch(() => {})),
        step: () => this.#runner.step().catch(() => {}),
      },
    });
    this.#root = container;
    this.#runner = new AgentRunner(this.board, () => this.#loadAgent());

    this.board.addEventListener("game-retry", () => this.newGame());
    this.board.addEventListener("game-move", (event) => {
      const { source, ...detail } = event.detail;
      if (source === "user") {
        this.#runner.pause();
        this.showError(null);
      }
      // A hint is about the board before this move.
      if (this.#hinted) {
        this.#hinted = false;
        this.setStatus("");
      }
      this.emit("move", { ...detail, source: source === "user" ? "user" : "agent" });
      this.#renderButtons();
    });
    this.board.addEventListener("game-won", (event) => this.emit("won", { score: event.detail.score, moves: event.detail.moves }));
    this.board.addEventListener("game-over", (event) => this.emit("gameover", event.detail));
    this.board.addEventListener("game-reset", () => this.#renderButtons());
    this.#runner.addEventListener("change", () => this.#renderButtons());
    this.#runner.addEventListener("error", (event) => {
      this.setStatus("");
      this.showError(event.detail.message);
      this.emit("error", { message: event.detail.message, attribute: null });
    });
  }

  /**
   * Applies checked attribute values: { seed (null: random), start (board text or ""), alwaysTwo,
   * agent ("ntuple" | null), model (URL or ""), depth, speed, controls (Set of new undo hint
   * play), autoplay }. A new game starts when seed, start or alwaysTwo changed (or at the first call).
   */
  configure(options) {
    const previous = this.options;
    this.options = options;
    const agentKey = options.agent ? options.model || options.agent : null;
    if (this.#agent?.key !== agentKey) {
      this.#runner.pause();
      this.#agent = null;
    }
    this.#runner.depth = options.depth;
    this.#runner.movesPerSecond = options.speed;
    const gameChanged =
      !previous || previous.seed !== options.seed || previous.start !== options.start || previous.alwaysTwo !== options.alwaysTwo;
    if (gameChanged) this.#startGame(options.seed, { fromAttributes: true });
    else this.#renderButtons();
    // Autoplay just turned on (or the agent changed): the agent plays the game shown.
    const agentStarts = !previous?.autoplay || (previous?.agent ? previous.model || previous.agent : null) !== agentKey;
    if (!gameChanged && options.autoplay && options.agent && agentStarts) this.play().catch(() => {});
  }

  /** Starts a new game seeded with `seed` (null: a random seed); the agent plays it under autoplay. */
  newGame(seed = null) {
    this.#startGame(seed);
  }

  /** A new game; `fromAttributes`: the attributes' game (their `start` board, when given). */
  #startGame(seed, { fromAttributes = false } = {}) {
    const options = this.options;
    this.#runner.pause();
    this.showError(null);
    this.setStatus("");
    const chosenSeed = seed ?? randomSeed();
    this.board.game =
      fromAttributes && options.start
        ? this.api.Game2048.fromText(options.start, chosenSeed, options.alwaysTwo)
        : new this.api.Game2048(chosenSeed, options.alwaysTwo);
    this.#seed = chosenSeed;
    if (options.autoplay && options.agent) this.play().catch(() => {});
  }

  /** Shows a board given as text (16 tile values, "." or 0 for empty); throws the parser's Error. */
  setBoard(text) {
    let game;
    try {
      game = this.api.Game2048.fromText(String(text), randomSeed(), this.options.alwaysTwo);
    } catch (error) {
      throw new Error(errorMessage(error));
    }
    this.#runner.pause();
    this.board.game = game;
  }

  /** Plays a move as a person would; false when it changes nothing. */
  move(direction) {
    if (!DIRECTIONS.includes(direction)) throw new Error(`unknown direction "${direction}": use ${DIRECTIONS.join(", ")}`);
    return Boolean(this.board.move(direction, "user")?.moved);
  }

  async play() {
    this.#requireAgent();
    this.showError(null);
    await this.#runner.play();
  }

  pause() {
    this.#runner.pause();
  }

  /** Resolves to the agent's move for the board shown (and shows it as an arrow), or null. */
  async hint() {
    this.#requireAgent();
    const direction = await this.#runner.hint();
    if (direction) {
      this.board.showHint(direction);
      this.setStatus(`Hint: ${ARROWS[direction]} ${direction}`);
      this.#hinted = true;
    }
    return direction;
  }

  get state() {
    const game = this.board.game;
    if (!game) return null;
    return {
      puzzle: "2048",
      board: Array.from(game.board(), (e) => (e === 0 ? 0 : 2 ** e)),
      score: game.score,
      moves: game.moves,
      maxTile: game.maxTile,
      over: game.isOver(),
      won: this.board.hasAttribute("won"),
      seed: this.#seed,
      playing: this.#runner.playing,
    };
  }

  /** Stops the agent (the widget left the page or shows another puzzle). */
  stop() {
    this.#runner.pause();
  }

  #requireAgent() {
    if (!this.options?.agent) {
      const message = 'this widget has no agent: add agent="ntuple"';
      this.showError(message);
      throw new Error(message);
    }
  }

  #loadAgent() {
    const options = this.options;
    const key = options.model || options.agent;
    if (this.#agent?.key !== key) {
      const showProgress = ({ loaded, total }) => {
        if (total > 0) this.setStatus(`Loading the network… ${Math.floor((100 * loaded) / total)}%`);
      };
      this.setStatus("Loading the network…");
      const promise = (options.model ? networkFromUrl(options.model, { onProgress: showProgress }) : shippedNetwork({ onProgress: showProgress })).then(
        (agent) => {
          this.setStatus("");
          return agent;
        },
        (error) => {
          if (this.#agent?.promise === promise) this.#agent = null;
          throw error;
        },
      );
      this.#agent = { key, promise };
    }
    return this.#agent.promise;
  }

  #undo() {
    this.#runner.pause();
    this.board.undo();
  }

  #renderButtons() {
    const options = this.options;
    if (!options) return;
    const controls = options.controls;
    const game = this.board.game;
    const hasAgent = Boolean(options.agent);
    this.buttons.new.hidden = !controls.has("new");
    this.buttons.undo.hidden = !controls.has("undo");
    this.buttons.undo.disabled = !game || game.undoDepth === 0;
    this.buttons.hint.hidden = !(hasAgent && controls.has("hint"));
    this.buttons.play.hidden = !(hasAgent && controls.has("play"));
    this.buttons.step.hidden = this.buttons.play.hidden;
    const over = !game || game.isOver();
    this.buttons.hint.disabled = over;
    this.buttons.step.disabled = over;
    this.buttons.play.disabled = over && !this.#runner.playing;
    this.buttons.play.textContent = this.#runner.playing ? "Pause" : "Play";
    this.#root.querySelector(".agent-controls").hidden = this.buttons.hint.hidden && this.buttons.play.hidden;
    this.board.toggleAttribute("data-agent-playing", this.#runner.playing);
  }
}
