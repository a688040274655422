#!/usr/bin/env node
// 2048 agents benchmark: the shipped n-tuple network (www/models/2048-ntuple.ntuple.gz) played
// greedily (1-ply) and by expectimax (depth 2) over N seeded games, in headless Chromium — in the
// page's own worker (www/ntuple-worker.js, core bundle pkg/) — and natively with the release CLI
// (`puzzlelab eval-2048`) when it is built. Writes JSON (target/bench/2048.json by default): per
// agent and runtime, games, seed, reach rates, mean/median score, moves/s, and whether the two
// runtimes played identical games (game g of seed s is the same game in both: they must agree
// to the last point). Timings only: nothing here passes or fails on speed.
//
//   node scripts/bench-2048.mjs [--greedy-games 200] [--expectimax-games 50] [--depth 2]
//                               [--seed 1] [--native PATH] [--out FILE]
//
// Needs pkg/ (bash scripts/build-wasm.sh core); the native side needs
// `cargo build --release --bin puzzlelab` (its binary is looked for in $CARGO_TARGET_DIR, else
// $HOME/.cache/puzzlelab/target, else target/), and is left out with a note when it is missing.

import { execFileSync } from "node:child_process";
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

// ---- Chromium: the page's worker ------------------------------------------------------------------

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const chromiumResults = {};
let browserName = "";
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  browserName = `Chromium ${browser.version()} (headless)`;
  for (const { agent, depth: d, games: n } of agents) {
    const started = Date.now();
    const report = await page.evaluate(
      async ({ agent, depth, games, seed, model }) => {
        const worker = new Worker("/www/ntuple-worker.js", { type: "module" });
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
    const flags = ["eval-2048", "--model", MODEL, "--games", String(n), "--seed", String(seed), "--agent", cli, "--depth", String(d)];
    const text = execFileSync(binary, flags, { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    nativeResults[agent] = { ...JSON.parse(text), command: `puzzlelab ${flags.join(" ")}` };
    const s = nativeResults[agent].summary;
    console.error(`native ${agent}: ${s.games} games, mean ${Math.round(s.mean_score)}, 2048 ${(100 * s.reach["2048"]).toFixed(1)}%, ${Math.round(s.moves_per_s)} moves/s`);
  }
} else {
  nativeNote = "no release CLI found: build it with `cargo build --release --bin puzzlelab` (or pass --native PATH)";
  console.error(nativeNote);
}

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

const results = agents.map(({ agent }) => {
  const browserReport = chromiumResults[agent];
  const nativeReport = nativeResults[agent];
  return {
    agent,
    depth: browserReport.depth ?? 1,
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
  native: binary ? nativeResults : null,
  note:
    nativeNote ??
    "moves/s counts only the time spent playing (the worker's pauses between chunks are left out); identical_games compares every number of the two summaries except the timings.",
};
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + "\n");
for (const r of results) {
  console.error(`${r.agent}${r.agent === "expectimax" ? ` depth ${r.depth}` : ""}: identical games natively and in Chromium: ${r.identical_games}; native ${r.native_speedup}× faster`);
}
console.error(`wrote ${out}`);
