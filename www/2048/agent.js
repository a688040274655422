// 2048's agents in the browser: the shipped n-tuple network (downloaded once per page), networks
// from files or URLs, and AgentRunner, which plays a <game2048-board> with an agent. The page
// (2048/app.js) and the widget's 2048 panel (widget-panel.js) share it.

import { fetchBytes, gunzipIfNeeded, isGzip } from "../common/download.js";
import { errorMessage, loadWasm } from "../common/wasm.js";
import { SHIPPED_NETWORK_URL } from "./game.js";

// ---- networks ----------------------------------------------------------------------------------

/** Downloads and gzip (common/download.js), re-exported for the page's callers. */
export { fetchBytes, gunzipIfNeeded, isGzip };

/** An NTupleAgent from a network file's bytes (gzip or plain); rejects with a readable Error. */
export async function networkFromBytes(bytes) {
  const api = await loadWasm();
  const plain = await gunzipIfNeeded(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  try {
    return api.NTupleAgent.fromBytes(plain);
  } catch (error) {
    throw new Error(errorMessage(error));
  }
}

/** The shipped network's download, shared by the page and every widget: { promise, listeners }. */
let shipped = null;

/**
 * The shipped network as an NTupleAgent, downloaded once per page however many callers ask;
 * `onProgress({ loaded, total })` follows the download (also one another caller started). A
 * failed download is forgotten, so that the next call tries again.
 */
export function shippedNetwork({ onProgress } = {}) {
  if (!shipped) {
    const entry = { listeners: new Set(), promise: null };
    entry.promise = fetchBytes(SHIPPED_NETWORK_URL, (progress) => entry.listeners.forEach((listener) => listener(progress)))
      .then((bytes) => networkFromBytes(bytes))
      .then(
        (agent) => {
          entry.listeners.clear();
          return agent;
        },
        (error) => {
          entry.listeners.clear();
          if (shipped === entry) shipped = null;
          throw new Error(`the shipped 2048 network could not be loaded: ${errorMessage(error)}`);
        },
      );
    shipped = entry;
  }
  if (onProgress) shipped.listeners.add(onProgress);
  return shipped.promise;
}

/** An NTupleAgent from a network file at `url` (gzip or plain), resolved against the page. */
export async function networkFromUrl(url, { onProgress } = {}) {
  const bytes = await fetchBytes(new URL(url, document.baseURI).href, onProgress);
  return networkFromBytes(bytes);
}

// ---- the agent ---------------------------------------------------------------------------------

/**
 * Plays a <game2048-board> with an NTupleAgent: Play (a move every 1/movesPerSecond s until
 * paused or the game ends), Step, Hint. `getAgent()` returns a Promise of the agent (it may
 * download it first); the runner asks for it at every start, so the host may swap networks. Any
 * object with `bestMove(game, depth)` is an agent; it may answer with a Promise of the direction
 * (a network in a worker, such as the 2048 page's DQN): a move that comes back after the board
 * changed (the person moved, a new game) is dropped.
 * Events: "change" { playing, loading } when either changes, "move" { direction, ms, report }
 * after each agent move (ms: time the decision took), "error" { message }, "finished" when the
 * game is over.
 */
export class AgentRunner extends EventTarget {
  /** Expectimax depth: 1 = greedy 1-ply. */
  depth = 1;
  /** Agent moves per second while playing. */
  movesPerSecond = 4;
  #board;
  #getAgent;
  #playing = false;
  #loading = 0;
  #timer = 0;
  #agent = null;
  /** Bumped by every pause, so that a start still waiting for its agent is dropped. */
  #generation = 0;

  constructor(board, getAgent) {
    super();
    this.#board = board;
    this.#getAgent = getAgent;
  }

  get playing() {
    return this.#playing;
  }

  get loading() {
    return this.#loading > 0;
  }

  /** Starts playing (after loading the agent); resolves once started, rejects when loading fails. */
  async play() {
    if (this.#playing) return;
    const generation = ++this.#generation;
    this.#playing = true;
    this.#changed();
    let agent;
    try {
      agent = await this.#agentNow();
    } catch (error) {
      if (generation === this.#generation) {
        this.#playing = false;
        this.#changed();
      }
      throw error;
    }
    if (generation !== this.#generation || !this.#playing) return;
    this.#agent = agent;
    this.#tick(generation);
  }

  pause() {
    this.#generation += 1;
    clearTimeout(this.#timer);
    if (!this.#playing) return;
    this.#playing = false;
    this.#changed();
  }

  /** One agent move (pauses first); resolves to the move's report, or null when the game is over. */
  async step() {
    this.pause();
    const agent = await this.#agentNow();
    return this.#playOne(agent);
  }

  /** The agent's move for the board shown (null when the game is over). */
  async hint() {
    const agent = await this.#agentNow();
    const game = this.#board.game;
    if (!game || game.isOver()) return null;
    return (await agent.bestMove(game, this.depth)) ?? null;
  }

  async #agentNow() {
    this.#loading += 1;
    if (this.#loading === 1) this.#changed();
    try {
      return await this.#getAgent();
    } catch (error) {
      const message = errorMessage(error);
      this.dispatchEvent(new CustomEvent("error", { detail: { message } }));
      throw new Error(message);
    } finally {
      this.#loading -= 1;
      if (this.#loading === 0) this.#changed();
    }
  }

  async #tick(generation) {
    if (generation !== this.#generation || !this.#playing) return;
    const started = performance.now();
    const report = await this.#playOne(this.#agent, generation);
    if (generation !== this.#generation || !this.#playing) return;
    if (!report) {
      this.pause();
      return;
    }
    const interval = 1000 / this.movesPerSecond;
    this.#timer = setTimeout(() => this.#tick(generation), Math.max(0, interval - (performance.now() - started)));
  }

  /** One move of `agent`; `generation` (from a Play) drops an answer that comes after a pause. */
  async #playOne(agent, generation = this.#generation) {
    const board = this.#board;
    const game = board.game;
    if (!game || game.isOver()) {
      this.dispatchEvent(new CustomEvent("finished"));
      return null;
    }
    const started = performance.now();
    const position = `${game.moves}:${game.board().join(",")}`;
    let direction;
    try {
      direction = agent.bestMove(game, this.depth);
      // An agent in a worker answers later; by then the board may have moved on.
      if (typeof direction?.then === "function") {
        direction = await direction;
        const now = board.game;
        if (generation !== this.#generation || now !== game || `${now.moves}:${now.board().join(",")}` !== position) return null;
      }
    } catch (error) {
      this.pause();
      this.dispatchEvent(new CustomEvent("error", { detail: { message: errorMessage(error) } }));
      return null;
    }
    const ms = performance.now() - started;
    if (!direction) return null;
    // Slides shorter than the time between moves, none at all at high speed.
    const interval = 1000 / this.movesPerSecond;
    const slideMs = interval < 40 ? 0 : Math.min(board.slideMs, interval * 0.6);
    const report = board.move(direction, "agent", { slideMs });
    this.dispatchEvent(new CustomEvent("move", { detail: { direction, ms, report } }));
    if (report?.over) {
      this.pause();
      this.dispatchEvent(new CustomEvent("finished"));
    }
    return report;
  }

  #changed() {
    this.dispatchEvent(new CustomEvent("change", { detail: { playing: this.#playing, loading: this.loading } }));
  }
}
