// 2048's jobs in the learning worker (common/learn-worker.js loads this through the puzzle
// registry; see its protocol): the greedy move of a kept model (LearnedModel), the seeded evaluation games
// of a model (cancellable), and the in-training evaluation of a run. Nothing here runs on import;
// the worker hands over what the jobs need of it.

import { emptyGameStats, mergeGameStats, summarizeGames } from "./stats.js";
import { fetchBytes, gunzipIfNeeded } from "../common/download.js";
import { postProgress } from "../common/worker-protocol.js";

/** The demonstrator of a run that learns from demonstrations: the shipped n-tuple network. */
const DEMONSTRATOR_URL = new URL("../models/2048-ntuple.ntuple.gz", import.meta.url);

/** Games an evaluation plays between two turns of the event loop (each is a whole game). */
const GAMES_PER_TURN = 1;

/**
 * 2048's part of the learning worker (common/learn-jobs.js says what it returns). `bundleReady`
 * (the learning bundle's exports), `keptModel(key, puzzle)` (a kept model's entry: { model, bytes,
 * info, puzzle }), `snapshotTrained(run)` (keeps and returns the run's network so far as a model)
 * and `isKept(key, model)` (whether `model` is still the one kept under `key`) are the worker's.
 */
export function learnJobs({ bundleReady, keptModel, snapshotTrained, isKept }) {
  /** Evaluations under way, by request id: { cancelled }. */
  const evaluations = new Map();

  /** The greedy move of the kept 2048 model `key` for a board of 16 exponents. */
  async function bestMove2048({ key, exponents }) {
    await bundleReady;
    const { model } = keptModel(key, "2048");
    return { result: { move: model.play({ exponents: Array.from(exponents) }).move } };
  }

  /**
   * Plays greedy games `from..to` of the evaluation run seeded with `seed` with `model`, a few per
   * turn of the event loop (so that training chunks, moves and Stop get in between), merging their
   * statistics; `onGames(done)` after each turn. Resolves to the stats, or to null once
   * `stillWanted()` says no. `timing.seconds` (if given) gains the time spent playing, without the
   * turns of the event loop between games.
   */
  async function playGames2048(model, { from = 0, to, seed, onGames = () => {}, stillWanted = () => true, timing = { seconds: 0 } }) {
    const stats = emptyGameStats();
    for (let game = from; game < to; ) {
      const end = Math.min(to, game + GAMES_PER_TURN);
      const playing = performance.now();
      mergeGameStats(stats, model.evaluate({ from: game, to: end, seed }).stats);
      timing.seconds += (performance.now() - playing) / 1000;
      game = end;
      onGames(game - from);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!stillWanted()) return null;
    }
    return stats;
  }

  /**
   * "evaluate-2048": { key, seed, info, stats, summary (as `puzzlelab 2048 eval --agent dqn`'s; its timings
   * over the wall time), ms (the wall time), playSeconds (the time spent playing only) }.
   */
  async function evaluate2048({ id, key, games, seed }) {
    const bundle = await bundleReady;
    const entry = keptModel(key, "2048");
    if (!(Number.isSafeInteger(games) && games >= 1)) throw new Error("Evaluate at least one game.");
    if (!(Number.isSafeInteger(seed) && seed >= 0 && seed < 2 ** 32)) throw new Error("The seed must be a whole number from 0 to 4,294,967,295.");
    const job = { cancelled: false };
    evaluations.set(id, job);
    // Its own copy: training may replace (and free) the kept model between two games.
    const model = bundle.LearnedModel.forPuzzle("2048", entry.bytes);
    const started = performance.now();
    const timing = { seconds: 0 };
    try {
      postProgress(id, { stage: "evaluate-2048", done: 0, total: games });
      const stats = await playGames2048(model, {
        to: games,
        seed,
        timing,
        onGames: (done) => postProgress(id, { stage: "evaluate-2048", done, total: games }),
        stillWanted: () => !job.cancelled,
      });
      if (!stats) throw new Error("The evaluation was cancelled.");
      const seconds = (performance.now() - started) / 1000;
      return { result: { key, seed, info: entry.info, stats, summary: summarizeGames(stats, seconds), ms: Math.round(seconds * 1000), playSeconds: timing.seconds } };
    } finally {
      evaluations.delete(id);
      model.free();
    }
  }

  /** Stops the 2048 evaluation that request `job` started (after its current game). */
  function cancelEvaluation({ job }) {
    const evaluation = evaluations.get(job);
    if (evaluation) evaluation.cancelled = true;
    return { result: { cancelled: Boolean(evaluation) } };
  }

  /**
   * The in-training evaluation of a 2048 run: the network so far plays the run's evaluation games,
   * one per turn, and the page gets the merged statistics. Pause and Stop drop an evaluation under
   * way (it would hold them up for whole games).
   */
  async function evaluateDuringTraining(current, steps) {
    const { evaluation } = current;
    evaluation.next = (Math.floor(steps / evaluation.every) + 1) * evaluation.every;
    if (current.state !== "running") return;
    const { model } = await snapshotTrained(current);
    const started = performance.now();
    const progress = (done) => postProgress(current.id, { stage: "evaluation", steps, done, total: evaluation.games });
    progress(0);
    const stats = await playGames2048(model, {
      to: evaluation.games,
      seed: evaluation.seed,
      onGames: progress,
      stillWanted: () => current.state === "running" && isKept(current.modelKey, model),
    });
    if (!stats) return;
    const summary = summarizeGames(stats, (performance.now() - started) / 1000);
    postProgress(current.id, { stage: "evaluated", steps, stats, summary });
  }

  /**
   * A run that learns from demonstrations (its options' `demonstrations`, as `puzzlelab 2048 train
   * --demonstrations`): downloads the shipped n-tuple network (kept by the browser after the first
   * time), unpacks it, and has it play the demonstrated games into the new trainer
   * (LearnerTrainer.addDemonstrations), saying how far it is at each stage.
   */
  async function prepare(trainer, message, step) {
    if (!message.options?.demonstrations) return;
    const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
    step("demonstrations", { detail: ": downloading the n-tuple network" });
    let packed;
    try {
      packed = await fetchBytes(DEMONSTRATOR_URL, ({ loaded, total }) =>
        step("demonstrations", { detail: `: downloading the n-tuple network, ${mb(loaded)}${total ? ` of ${mb(total)}` : ""}` }),
      );
    } catch (error) {
      throw new Error(`The n-tuple network to learn from could not be downloaded (${DEMONSTRATOR_URL}): ${error instanceof Error ? error.message : error}`);
    }
    const bytes = await gunzipIfNeeded(packed);
    const { games } = message.options.demonstrations;
    step("demonstrations", { detail: `: the n-tuple network plays ${games} game${games === 1 ? "" : "s"}` });
    // The worker's message loop has a turn to post that before the games take it over.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { transitions, seconds } = trainer.addDemonstrations(bytes);
    step("demonstrations", { detail: `: ${transitions.toLocaleString("en")} moves of ${games} game${games === 1 ? "" : "s"} recorded in ${seconds.toFixed(1)} s` });
  }

  return {
    prepare,
    handlers: { "best-move-2048": bestMove2048, "evaluate-2048": evaluate2048, "cancel-evaluation": cancelEvaluation },
    /**
     * Steps per chunk: a step of the paper's convolutional network (1.26 M parameters) takes about
     * 50 ms on a CPU in a tab, while warm-up steps (no gradient step) take microseconds: chunks
     * start small and grow towards the worker's target.
     */
    chunkSteps: {
      cpu: { first: 10, min: 1, max: 1000 },
      webgpu: { first: 2, min: 1, max: 50 },
    },
    validate: evaluateDuringTraining,
  };
}
