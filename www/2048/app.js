// The 2048 page (2048.html): the board (<game2048-board> from 2048/game.js) played with keys, swipes
// and the buttons, the best score (localStorage), the "Watch the agent" card, and the training
// cards (folded <details> under the game and the agent until opened), which 2048/train-panel.js
// (the n-tuple network) and 2048/dqn-panel.js (Mehta's deep Q-network) fill in when they are there.
//
// A game's first seed may come from the URL (2048.html#seed=42: the same seed and moves give the
// same game); later games are seeded at random. The best score counts the person's own games only:
// once the agent has played a move in a game, that game's score is not a best. The game going on
// is kept in localStorage as its seed and its moves (an undo takes one back, and the game's
// generator with it), so a reload or a later visit goes on with it, as the original game does; a
// game that is over is not kept.

import { AgentRunner, fetchBytes, gunzipIfNeeded, networkFromBytes, shippedNetwork } from "./agent.js";
import { ARROWS, DIRECTIONS, SHIPPED_NETWORK_URL, directionForKey, randomSeed } from "./game.js";
import { errorMessage, loadWasm } from "../common/wasm.js";
import { mountLaterCard, readKept, writeKept } from "../common/page-controls.js";
import { numberFormat } from "../common/number-format.js";

/** localStorage key of the person's best score. */
const BEST_KEY = "puzzlelab-2048-best";
/** localStorage key of the game going on: { seed, alwaysTwo, moves (a letter a move: u r d l), assisted }. */
const GAME_KEY = "puzzlelab-2048-game";
/** Agent speeds in moves per second, one per step of the speed slider. */
const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120, 240];

const $ = (selector) => document.querySelector(selector);
const elements = {
  board: $("#game"),
  loadError: $("#load-error"),
  newGame: $("#new-game"),
  undo: $("#undo"),
  assistedNote: $("#assisted-note"),
  newTiles: $("#new-tiles"),
  seedLine: $("#seed-line"),
  agent: $("#agent"),
  download: $("#agent-download"),
  downloadText: $("#agent-download-text"),
  downloadBar: $("#agent-download-bar"),
  model: $("#agent-model"),
  depth: $("#agent-depth"),
  speed: $("#agent-speed"),
  speedValue: $("#agent-speed-value"),
  play: $("#agent-play"),
  step: $("#agent-step"),
  hint: $("#agent-hint"),
  status: $("#agent-status"),
  error: $("#agent-error"),
  statMoves: $("#agent-stat-moves"),
  statMs: $("#agent-stat-ms"),
  statTile: $("#agent-stat-tile"),
  statScore: $("#agent-stat-score"),
  train: $("#train-2048"),
  dqn: $("#dqn-2048"),
};

let api = null;
let board = null;
let runner = null;
let best = 0;
/** Whether the agent has played in the game shown (then its score is not the person's best). */
let assisted = false;
/**
 * The network the agent plays with: { label, promise of an NTupleAgent, handedOver } (null: the
 * shipped one, not asked for yet). A network the training card handed over is the page's to free.
 */
let network = null;
/** Whether the agent's network is in memory (so that asking for it shows no "Loading"). */
let networkLoaded = false;
/** Agent moves in this game and the time their decisions took. */
let agentMoves = 0;
let agentMs = 0;
/** The game shown, as it is kept: its seed, its rule for new tiles and its moves so far. */
let kept = { seed: 0, alwaysTwo: false, moves: "" };
/** The pending write of the kept game (moves come fast when the agent plays). */
let keepTimer = 0;

main();

async function main() {
  try {
    api = await loadWasm();
  } catch (error) {
    showLoadError(
      `The WebAssembly module could not be loaded (${errorMessage(error)}). ` +
        "Build it with `bash scripts/build-wasm.sh` and serve the repository with `node scripts/serve.mjs`.",
    );
    return;
  }
  board = elements.board;
  best = readBest();
  board.best = best;
  runner = new AgentRunner(board, () => currentNetwork());

  elements.newGame.addEventListener("click", () => newGame());
  elements.undo.addEventListener("click", () => {
    runner.pause();
    if (board.undo()) {
      kept.moves = kept.moves.slice(0, -1);
      keepGame();
    }
  });
  elements.newTiles.addEventListener("change", () => newGame());
  board.addEventListener("game-retry", () => newGame());
  board.addEventListener("game-move", (event) => onMove(event.detail));
  board.addEventListener("game-reset", () => {
    updateUndo();
    updateAgentStats();
  });
  board.addEventListener("game-over", () => setStatus(agentMoves > 0 ? "Game over." : ""));
  document.addEventListener("keydown", onKeyDown);

  elements.depth.addEventListener("change", () => (runner.depth = Number(elements.depth.value)));
  elements.speed.addEventListener("input", () => applySpeed());
  elements.play.addEventListener("click", () => (runner.playing ? runner.pause() : startAgent()));
  elements.step.addEventListener("click", () => runner.step().catch(() => {}));
  elements.hint.addEventListener("click", () => showHint());
  runner.addEventListener("change", () => renderAgent());
  runner.addEventListener("move", (event) => {
    agentMoves += 1;
    agentMs += event.detail.ms;
    updateAgentStats();
  });
  runner.addEventListener("error", (event) => showAgentError(event.detail.message));
  runner.depth = Number(elements.depth.value);
  applySpeed();

  addEventListener("pagehide", () => keepGame({ now: true }));
  // A seed typed into the address (or a #seed= link followed on this page) starts that game.
  addEventListener("hashchange", () => {
    const named = seedFromHash();
    if (named !== null && named !== kept.seed) newGame(named);
  });
  const seed = seedFromHash();
  if (!resumeKeptGame(seed)) newGame(seed);
  renderAgent();
  document.documentElement.dataset.ready = "true";
  mountTrainPanel();
  mountDqnPanel();
}

// ---- games ----------------------------------------------------------------------------------

/** A new game with `seed`, else a random one, under the chosen rule for new tiles. */
function newGame(seed = null) {
  runner.pause();
  const chosen = seed ?? randomSeed();
  const alwaysTwo = elements.newTiles.value === "always-two";
  board.game = new api.Game2048(chosen, alwaysTwo);
  kept = { seed: chosen, alwaysTwo, moves: "" };
  keepGame();
  // An address that names a seed names this game's, so that a reload goes on with this game.
  const named = seedFromHash();
  if (named !== null && named !== chosen) history.replaceState(null, "", `#seed=${chosen}`);
  showGame(false);
}

/** After a game is set on the board: the page's state of it (`assisted`: the agent played in it). */
function showGame(wasAssisted) {
  assisted = wasAssisted;
  agentMoves = 0;
  agentMs = 0;
  elements.assistedNote.hidden = !assisted;
  elements.seedLine.textContent = `This game's seed: ${kept.seed} (2048.html#seed=${kept.seed} plays it again).`;
  clearAgentMessages();
  updateAgentStats();
  updateUndo();
}

/**
 * Goes on with the kept game when there is one that is not over (and, when the URL names a seed,
 * one of that seed): its seed and moves played again. Returns whether it did.
 */
function resumeKeptGame(seed) {
  const saved = readKeptGame();
  if (!saved || (seed !== null && saved.seed !== seed)) return false;
  let game;
  try {
    game = new api.Game2048(saved.seed, saved.alwaysTwo);
    for (const letter of saved.moves) {
      const direction = DIRECTIONS.find((name) => name[0] === letter);
      if (!direction || !game.play(direction).moved) throw new Error(`not a move of this game: ${letter}`);
    }
  } catch {
    game?.free();
    return false; // a damaged or foreign entry: a new game instead
  }
  if (game.isOver()) {
    game.free();
    return false;
  }
  elements.newTiles.value = saved.alwaysTwo ? "always-two" : "original";
  board.game = game;
  kept = { seed: saved.seed, alwaysTwo: saved.alwaysTwo, moves: saved.moves };
  showGame(saved.assisted);
  return true;
}

/** The kept game ({ seed, alwaysTwo, moves, assisted }) or null. */
function readKeptGame() {
  const saved = readKept("local", GAME_KEY);
  const valid = saved && Number.isSafeInteger(saved.seed) && saved.seed >= 0 && typeof saved.moves === "string" && /^[urdl]*$/.test(saved.moves);
  return valid ? { seed: saved.seed, alwaysTwo: saved.alwaysTwo === true, moves: saved.moves, assisted: saved.assisted === true } : null;
}

/** Writes the game shown to localStorage (soon, or `now`); a game that is over is forgotten. */
function keepGame({ now = false } = {}) {
  clearTimeout(keepTimer);
  keepTimer = 0;
  const write = () => {
    keepTimer = 0;
    writeKept("local", GAME_KEY, board.game && !board.game.isOver() ? { ...kept, assisted } : null);
  };
  if (now) write();
  else keepTimer = setTimeout(write, 200);
}

/** The seed in the URL (#seed=42), or null. */
function seedFromHash() {
  const value = new URLSearchParams(location.hash.slice(1)).get("seed");
  if (value === null || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Keys anywhere on the page play, except where a control needs them (the board handles its own). */
function onKeyDown(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest("input, select, textarea, [role=slider]"))) return;
  const direction = directionForKey(event.key);
  if (!direction) return;
  event.preventDefault();
  board.move(direction, "user");
}

function onMove({ direction, score, source }) {
  kept.moves += direction[0];
  if (source === "user") {
    runner.pause();
    clearAgentMessages();
  } else if (!assisted) {
    assisted = true;
    elements.assistedNote.hidden = false;
  }
  if (!assisted && score > best) {
    best = score;
    board.best = best;
    writeBest(best);
  }
  keepGame();
  updateUndo();
  updateAgentStats();
}

function updateUndo() {
  elements.undo.disabled = !board.game || board.game.undoDepth === 0;
}

/** The person's best score kept for later visits (0 when none). */
function readBest() {
  const value = Number(readKept("local", BEST_KEY));
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function writeBest(value) {
  writeKept("local", BEST_KEY, value);
}

// ---- the agent ------------------------------------------------------------------------------

/** The agent's network: the one the training card handed over, else the shipped one (downloaded once). */
function currentNetwork() {
  if (network) return network.promise;
  const label = "the shipped network";
  const promise = shippedNetwork({ onProgress: showDownload }).then(
    (agent) => {
      elements.download.hidden = true;
      networkLoaded = true;
      showModel(agent, "Shipped network");
      return agent;
    },
    (error) => {
      elements.download.hidden = true;
      if (network?.promise === promise) network = null;
      throw error;
    },
  );
  network = { label, promise };
  return promise;
}

function showDownload({ loaded, total }) {
  elements.download.hidden = false;
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
  if (total > 0) {
    elements.downloadBar.value = loaded / total;
    elements.downloadText.textContent = `Downloading the network… ${megabytes(loaded)} of ${megabytes(total)} MB`;
  } else {
    elements.downloadBar.removeAttribute("value");
    elements.downloadText.textContent = `Downloading the network… ${megabytes(loaded)} MB`;
  }
  if (total > 0 && loaded >= total) elements.downloadText.textContent = "Unpacking the network…";
}

function showModel(agent, label) {
  elements.model.dataset.source = label;
  elements.model.replaceChildren();
  const name = document.createElement("strong");
  name.textContent = label;
  elements.model.append(
    name,
    `: ${tupleSetName(agent.tupleSet)}, ${numberFormat.format(agent.weightCount)} weights, ` +
      `trained on ${numberFormat.format(agent.gamesTrained)} games.`,
  );
}

/** "4x5" (NTupleAgent.tupleSet) as people write it: "4 × 5-tuples". */
function tupleSetName(name) {
  const match = /^(\d+)x(\d+)$/.exec(name);
  return match ? `${match[1]} × ${match[2]}-tuples` : `tuple set ${name}`;
}

function startAgent() {
  clearAgentMessages();
  if (board.game?.isOver()) {
    setStatus("The game is over: start a new one for the agent.");
    return;
  }
  runner.play().catch(() => {}); // shown by the runner's error event
}

async function showHint() {
  clearAgentMessages();
  try {
    const direction = await runner.hint();
    if (!direction) {
      setStatus("No move is left.");
      return;
    }
    board.showHint(direction);
    setStatus(`Hint: ${ARROWS[direction]} ${direction}.`);
  } catch {
    // shown by the runner's error event
  }
}

function applySpeed() {
  const speed = SPEEDS[Number(elements.speed.value)] ?? 4;
  runner.movesPerSecond = speed;
  elements.speedValue.textContent = `${speed} ${speed === 1 ? "move" : "moves"}/s`;
}

function renderAgent() {
  const { playing, loading } = runner;
  elements.agent.dataset.state = playing ? "playing" : loading ? "loading" : "idle";
  elements.play.textContent = playing ? "Pause" : "Play";
  elements.step.disabled = loading;
  elements.hint.disabled = loading;
  if (loading && !networkLoaded) setStatus("Loading the network…");
  else if (elements.status.textContent === "Loading the network…") setStatus("");
}

function updateAgentStats() {
  const game = board.game;
  elements.statMoves.textContent = numberFormat.format(agentMoves);
  elements.statMs.textContent = agentMoves > 0 ? `${(agentMs / agentMoves).toFixed(agentMs / agentMoves < 10 ? 2 : 0)} ms` : "–";
  elements.statTile.textContent = game ? numberFormat.format(game.maxTile) : "–";
  elements.statScore.textContent = numberFormat.format(game?.score ?? 0);
}

function setStatus(text) {
  elements.status.textContent = text;
}

function showAgentError(message) {
  elements.error.textContent = message;
  elements.error.hidden = false;
  setStatus("");
}

function clearAgentMessages() {
  elements.error.hidden = true;
  elements.error.textContent = "";
  if (!runner.loading) setStatus("");
}

function showLoadError(message) {
  elements.loadError.textContent = message;
  elements.loadError.hidden = false;
}

// ---- the training card ----------------------------------------------------------------------

/**
 * What the training card (2048/train-panel.js: mountTrain2048Panel(section, api)) may use:
 *   useNetwork(bytes, label = "Your network")
 *                         plays and hints with this network from now on (a network file's bytes,
 *                         gzip or plain, as NTupleTrainer.saveNetwork or `puzzlelab 2048 ntuple train`
 *                         writes them); resolves to { tupleSet, gamesTrained, weights } once it is
 *                         loaded, rejects with an Error saying why it cannot be used (the agent then
 *                         keeps its network)
 *   useShippedNetwork()   back to the shipped network
 *   shippedNetworkBytes({ onProgress })
 *                         the shipped network's file, unpacked (a Promise of a Uint8Array), e.g. to
 *                         train on from there; onProgress({ loaded, total }) follows the download
 *   shippedNetworkUrl     its URL (gzip)
 *   board                 the <game2048-board> (read only: its game is the page's)
 *   wasm                  the core module's exports (Game2048, NTupleAgent, …), already loaded
 */
const trainApi = {
  async useNetwork(bytes, label = "Your network") {
    const agent = await networkFromBytes(bytes);
    runner.pause();
    releaseHandedOverNetwork();
    network = { label, promise: Promise.resolve(agent), handedOver: agent };
    networkLoaded = true;
    showModel(agent, label);
    clearAgentMessages();
    setStatus(`${label} plays from now on.`);
    return { tupleSet: agent.tupleSet, gamesTrained: agent.gamesTrained, weights: agent.weightCount };
  },
  useShippedNetwork() {
    runner.pause();
    releaseHandedOverNetwork();
    network = null;
    networkLoaded = false;
    elements.model.dataset.source = "";
    elements.model.textContent = "The shipped network plays from now on (it downloads at its first move).";
  },
  async shippedNetworkBytes({ onProgress } = {}) {
    return gunzipIfNeeded(await fetchBytes(SHIPPED_NETWORK_URL, onProgress));
  },
  shippedNetworkUrl: SHIPPED_NETWORK_URL.href,
  get board() {
    return board;
  },
  get wasm() {
    return api;
  },
  useAgent,
  playAgent,
};

// ---- other agents (the DQN card) --------------------------------------------------------------

/**
 * Another kind of agent plays and hints from now on: `bestMove(exponents)` gets the board as 16
 * exponents (row-major, 0 = empty, e = the tile 2^e) and resolves to 0 up, 1 right, 2 down, 3 left
 * (−1: no move); `label` names it on the card, `details` (optional) says more. The Agent choice
 * (expectimax depth) is for the n-tuple network only: such an agent plays its own move. Until
 * useNetwork() or useShippedNetwork(), this agent plays.
 */
function useAgent({ label, details = "", bestMove }) {
  if (typeof bestMove !== "function") throw new Error("useAgent needs bestMove(exponents).");
  runner.pause();
  releaseHandedOverNetwork();
  const agent = {
    async bestMove(game) {
      const move = await bestMove(Uint8Array.from(game.board()));
      return DIRECTIONS[move] ?? null;
    },
  };
  network = { label, promise: Promise.resolve(agent) };
  networkLoaded = true;
  elements.model.dataset.source = label;
  elements.model.replaceChildren();
  const name = document.createElement("strong");
  name.textContent = label;
  elements.model.append(name, details ? `: ${details}` : "", " (it plays its own greedy move: the Agent choice does not apply).");
  clearAgentMessages();
  setStatus(`${label} plays from now on.`);
}

/** The agent plays (a new game first when this one is over), with the board scrolled into view. */
function playAgent() {
  if (board.game?.isOver()) newGame();
  board.scrollIntoView({ block: "nearest", behavior: "smooth" });
  startAgent();
}

/** Frees the network the training card handed over last (16 MB of wasm memory), once nothing plays it. */
function releaseHandedOverNetwork() {
  network?.handedOver?.free();
}

/**
 * Loads the DQN card (2048/dqn-panel.js); it loads nothing heavy itself: the learning worker and its
 * bundle start when the card is first used. The card hands its network to the player through
 * trainApi.useAgent and trainApi.playAgent.
 */
function mountDqnPanel() {
  mountLaterCard(elements.dqn, {
    load: () => import("./dqn-panel.js"),
    mount: (module) => module.mountDqn2048Panel(elements.dqn, trainApi),
    what: "Training the deep Q-network in the page",
    name: "2048/dqn-panel.js",
  });
}

/** Loads the training card; without 2048/train-panel.js the page works on and the card says so. */
function mountTrainPanel() {
  mountLaterCard(elements.train, {
    load: () => import("./train-panel.js"),
    mount: (module) => module.mountTrain2048Panel(elements.train, trainApi),
    what: "Training in the page",
    name: "2048/train-panel.js",
  });
}
