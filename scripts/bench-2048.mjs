#!/usr/bin/env node
// 2048 agents benchmark: the shipped n-tuple network (www/models/2048-ntuple.ntuple.gz) played
// greedily (1-ply) and by expectimax (depth 2) over N seeded games, and Mehta's RL paper's deep Q-network
// (www/models/2048-dqn.dqn) played greedily (the legal move with the highest Q-value), in
// headless Chromium — in the page's own workers: www/2048/ntuple-worker.js (core bundle pkg/) for the
// n-tuple network, the learning worker www/common/learn-worker.js (learning bundle pkg/learn/), driven
// through www/common/learn-client.js as the 2048 page's DQN card does, for the DQN — and natively with
// the release CLI (`puzzlelab 2048 eval`; `puzzlelab 2048 eval --agent dqn` from a build with the learn
// feature) when it is built. Writes JSON (target/bench/2048.json by default): per agent ("greedy",
// "expectimax", "dqn") and runtime, games, seed, reach rates, mean/median score, moves/s, and
// whether the two runtimes played identical games (game g of seed s is the same game in both:
// they must agree to the last point). Timings only: nothing here passes or fails on speed.
//
//   node scripts/bench-2048.mjs [--greedy-games 200] [--expectimax-games 50] [--depth 2]
//                               [--dqn-games 100] [--seed 1] [--native PATH]
//                               [--native-learn PATH] [--out FILE]
//
// --dqn-games 0 leaves the DQN out (so does a missing www/models/2048-dqn.dqn, with a note).
// Needs pkg/ (bash scripts/build-wasm.sh core) and, for the DQN, pkg/learn/ (bash
// scripts/build-wasm.sh learn). The native n-tuple side needs `cargo build --release --bin
// puzzlelab` (its binary is looked for in $CARGO_TARGET_DIR, else $HOME/.cache/puzzlelab/target,
// else target/); the native DQN side needs `cargo build --release --features learn --bin
// puzzlelab`: --native-learn PATH, else target/release/puzzlelab, else
// $CARGO_TARGET_DIR/release/puzzlelab, whichever was built with the learn feature (a
// build without it answers `2048 eval --agent dqn` with "needs the deep-learning build"). Either native side is left out with a note when no such binary is found.
//
// The DQN's moves/s are not like for like: natively `2048 eval --agent dqn` steps all its games together
// (one batched forward pass for up to 256 boards), while the worker plays one game per call, one
// board per forward pass.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, homedir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "2048.json");
const seed = Number(args.seed ?? 1);
const depth = Number(args.depth ?? 2);
const MODEL = "www/models/2048-ntuple.ntuple.gz";
const agents = [
  { agent: "greedy", cli: "ntuple", depth: 1, games: Number(args["greedy-games"] ?? 200) },
  { agent: "expectimax", cli: "expectimax", depth, games: Number(args["expectimax-games"] ?? 50) },
].filter((entry) => entry.games > 0);
const DQN_MODEL = "www/models/2048-dqn.dqn";
const dqnGames = Number(args["dqn-games"] ?? 100);
/** Why the DQN is left out, or null when it is benchmarked. */
const dqnSkipped =
  dqnGames <= 0
    ? "--dqn-games 0: the DQN was left out"
    : existsSync(join(REPOSITORY_ROOT, DQN_MODEL))
      ? null
      : `${DQN_MODEL} is missing: the DQN was left out (train one with \`puzzlelab 2048 train\`)`;
const dqn = dqnSkipped ? null : { agent: "dqn", depth: 1, games: dqnGames };

/** The release CLI, if built. */
function nativeBinary() {
  if (args.native) return args.native;
  const targets = [process.env.CARGO_TARGET_DIR, join(homedir(), ".cache", "puzzlelab", "target"), join(REPOSITORY_ROOT, "target")];
  return targets.filter(Boolean).map((dir) => join(dir, "release", "puzzlelab")).find((path) => existsSync(path)) ?? null;
}

/** What the two runtimes must agree on: everything but the clock, as text with sorted keys. */
function games(summary) {
  const { seconds, games_per_s, moves_per_s, ...rest } = summary;
  const sorted = (value) =>
    value && typeof value === "object" ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])])) : value;
  return JSON.stringify(sorted(rest));
}

const sameGames = (a, b) => games(a) === games(b);

/**
 * The release CLI built with the learn feature, or null, with notes on the binaries refused: the
 * one given by --native-learn, else target/release/, else $CARGO_TARGET_DIR/release/.
 */
function nativeLearnBinary() {
  const given = args["native-learn"];
  const candidates = given
    ? [given]
    : [join(REPOSITORY_ROOT, "target"), process.env.CARGO_TARGET_DIR].filter(Boolean).map((dir) => join(dir, "release", "puzzlelab"));
  const refused = [];
  for (const path of [...new Set(candidates)]) {
    if (!existsSync(path)) {
      refused.push(`${path}: not found`);
      continue;
    }
    // Every build lists every command; a build without the learn feature refuses the DQN ones
    // with "needs the deep-learning build", a learn build tries to read the (missing) model.
    const probe = spawnSync(path, ["2048", "eval", "--agent", "dqn", "--model", join(REPOSITORY_ROOT, "no-such-model.dqn")], { encoding: "utf8" });
    if (!probe.error && !/needs the deep-learning build/.test(probe.stderr ?? "")) return { path, refused };
    refused.push(`${path}: built without the learn feature (${(probe.stderr || probe.error?.message || "no answer").trim()})`);
  }
  return { path: null, refused };
}

const reachLine = (s) => `mean ${Math.round(s.mean_score)}, 2048 ${(100 * s.reach["2048"]).toFixed(1)}%`;

// ---- Chromium: the page's worker ------------------------------------------------------------------

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const chromiumResults = {};
let browserName = "";
try {
  const page = await browser.newPage();
  await page.goto(new URL("sliding.html", server.url).href);
  browserName = `Chromium ${browser.version()} (headless)`;
  for (const { agent, depth: d, games: n } of agents) {
    const started = Date.now();
    const report = await page.evaluate(
      async ({ agent, depth, games, seed, model }) => {
        const worker = new Worker("/www/2048/ntuple-worker.js", { type: "module" });
        let next = 1;
        const pending = new Map();
        const ready = new Promise((resolve, reject) => {
          worker.onmessage = ({ data }) => {
            if (data.type === "ready") return resolve();
            if (data.id === null) return reject(new Error(data.message));
            const request = pending.get(data.id);
            if (!request || data.type === "progress") return;
            pending.delete(data.id);
            if (data.type === "result") request.resolve(data.result);
            else request.reject(new Error(data.message));
          };
          worker.onerror = (event) => reject(new Error(event.message));
        });
        const ask = (message) =>
          new Promise((resolve, reject) => {
            const id = next++;
            pending.set(id, { resolve, reject });
            worker.postMessage({ ...message, id });
          });
        try {
          await ready;
          await ask({ type: "load-url", key: "shipped", url: `/${model}` });
          return await ask({ type: "evaluate", network: "shipped", agent, depth, games, seed });
        } finally {
          worker.terminate();
        }
      },
      { agent, depth: d, games: n, seed, model: MODEL },
    );
    chromiumResults[agent] = { ...report, wall_seconds: (Date.now() - started) / 1000 };
    const s = report.summary;
    console.error(`chromium ${agent}: ${s.games} games, mean ${Math.round(s.mean_score)}, 2048 ${(100 * s.reach["2048"]).toFixed(1)}%, ${Math.round(s.moves_per_s)} moves/s`);
  }
  if (dqn) {
    const started = Date.now();
    // The learning worker, as the 2048 page's DQN card uses it (www/2048/dqn-panel.js).
    const report = await page.evaluate(
      async ({ games, seed, model }) => {
        const { LearnClient } = await import("/www/common/learn-client.js");
        const client = new LearnClient();
        try {
          await client.ready;
          const loaded = await client.loadModelUrl(`/${model}`, { key: "shipped", puzzle: "2048" });
          const { evaluation, ...report } = await client.evaluate("shipped", "2048", { games, seed });
          return { ...report, ...evaluation, seed, size: loaded.size };
        } finally {
          client.dispose();
        }
      },
      { games: dqn.games, seed, model: DQN_MODEL },
    );
    chromiumResults.dqn = { agent: "dqn", depth: 1, ...report, wall_seconds: (Date.now() - started) / 1000 };
    const s = chromiumResults.dqn.summary;
    console.error(`chromium dqn: ${s.games} games, ${reachLine(s)}, ${Math.round(s.moves_per_s)} moves/s`);
  }
} finally {
  await browser.close();
  await server.close();
}

// ---- native: the release CLI --------------------------------------------------------------------

const binary = nativeBinary();
const nativeResults = {};
let nativeNote = null;
if (binary) {
  for (const { agent, cli, depth: d, games: n } of agents) {
    const flags = ["2048", "eval", "--model", MODEL, "--games", String(n), "--seed", String(seed), "--agent", cli, "--depth", String(d)];
    const text = execFileSync(binary, flags, { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    nativeResults[agent] = { ...JSON.parse(text), command: `puzzlelab ${flags.join(" ")}` };
    const s = nativeResults[agent].summary;
    console.error(`native ${agent}: ${s.games} games, mean ${Math.round(s.mean_score)}, 2048 ${(100 * s.reach["2048"]).toFixed(1)}%, ${Math.round(s.moves_per_s)} moves/s`);
  }
} else {
  nativeNote = "no release CLI found: build it with `cargo build --release --bin puzzlelab` (or pass --native PATH)";
  console.error(nativeNote);
}

const learnBinary = dqn ? nativeLearnBinary() : { path: null, refused: [] };
let dqnNativeNote = null;
if (learnBinary.path) {
  const flags = ["2048", "eval", "--agent", "dqn", "--model", DQN_MODEL, "--games", String(dqn.games), "--seed", String(seed)];
  const text = execFileSync(learnBinary.path, flags, { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  nativeResults.dqn = { agent: "dqn", depth: 1, ...JSON.parse(text), command: `puzzlelab ${flags.join(" ")}` };
  const s = nativeResults.dqn.summary;
  console.error(`native dqn: ${s.games} games, ${reachLine(s)}, ${Math.round(s.moves_per_s)} moves/s`);
} else if (dqn) {
  dqnNativeNote =
    "no release CLI with the learn feature found (build it with `cargo build --release --features learn --bin puzzlelab`, " +
    `or pass --native-learn PATH): the DQN ran in Chromium only. ${learnBinary.refused.join("; ")}`;
  console.error(dqnNativeNote);
}
if (dqnSkipped) console.error(dqnSkipped);

// ---- the report ---------------------------------------------------------------------------------

const row = (report, runtime) =>
  report && {
    runtime,
    agent: report.agent === "ntuple" ? "greedy" : report.agent,
    depth: report.depth ?? 1,
    games: report.summary.games,
    seed: report.seed,
    reach: report.summary.reach,
    mean_score: report.summary.mean_score,
    median_score: report.summary.median_score,
    max_score: report.summary.max_score,
    mean_moves: report.summary.mean_moves,
    moves_per_s: Math.round(report.summary.moves_per_s),
    games_per_s: Number(report.summary.games_per_s.toFixed(2)),
    seconds: Number(report.summary.seconds.toFixed(3)),
    chance_nodes: report.chance_nodes ?? undefined,
  };

const results = [...agents, ...(dqn ? [dqn] : [])].map(({ agent }) => {
  const browserReport = chromiumResults[agent];
  const nativeReport = nativeResults[agent];
  return {
    agent,
    depth: browserReport.depth ?? 1,
    ...(agent === "dqn" ? { model: DQN_MODEL } : {}),
    chromium: row(browserReport, browserName),
    native: row(nativeReport, nativeReport?.machine ?? null) ?? null,
    identical_games: nativeReport ? sameGames(browserReport.summary, nativeReport.summary) : null,
    native_speedup: nativeReport ? Number((nativeReport.summary.moves_per_s / browserReport.summary.moves_per_s).toFixed(2)) : null,
  };
});

const report = {
  what: "puzzlelab 2048 benchmark: the shipped n-tuple network, greedy and expectimax, in headless Chromium's worker (WebAssembly) and natively",
  date: new Date().toISOString(),
  model: MODEL,
  games_trained: chromiumResults[agents[0]?.agent]?.games_trained ?? null,
  tuple_set: chromiumResults[agents[0]?.agent]?.tuple_set ?? null,
  machine: `${process.platform} ${process.arch}, ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores`,
  results,
  chromium: chromiumResults,
  native: binary || nativeResults.dqn ? nativeResults : null,
  note:
    nativeNote ??
    "moves/s counts only the time spent playing (the worker's pauses between chunks are left out); identical_games compares every number of the two summaries except the timings.",
  dqn_model: dqn ? DQN_MODEL : null,
  dqn_info: chromiumResults.dqn
    ? {
        network: chromiumResults.dqn.info?.network ?? null,
        parameters: chromiumResults.dqn.info?.numParams ?? null,
        steps_trained: chromiumResults.dqn.info?.training?.steps ?? null,
        bytes: chromiumResults.dqn.size ?? null,
      }
    : null,
  dqn_native_binary: learnBinary.path,
  dqn_note:
    dqnSkipped ??
    dqnNativeNote ??
    (dqn
      ? "DQN: greedy legal moves, one game per call in the learning worker (one board per forward pass) against all games stepped together natively (up to 256 boards per forward pass), so native_speedup includes batching; moves/s counts only the time spent playing."
      : null),
};
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + "\n");
for (const r of results) {
  const name = `${r.agent}${r.agent === "expectimax" ? ` depth ${r.depth}` : ""}`;
  if (r.native) console.error(`${name}: identical games natively and in Chromium: ${r.identical_games}; native ${r.native_speedup}× faster`);
  else console.error(`${name}: Chromium only (no native run)`);
}
console.error(`wrote ${out}`);
