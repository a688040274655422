#!/usr/bin/env node
// Pattern-database benchmark: `puzzlelab sliding bench-pdb` natively (Korf's 100 and 100 uniformly random
// positions, with the pathfinding crate's IDA* + Manhattan distance as a baseline), then the same
// positions with the same shipped databases in headless Chromium, written as JSON
// (target/bench/pdb.json by default) with the wasm/native comparison. Timings only: nothing here
// passes or fails. Needs the release CLI and pkg/ (scripts/build-wasm.sh). A full run takes minutes.
//
//   node scripts/bench-pdb.mjs [--set korf|random|all] [--count 100] [--seed 2026]
//                              [--baseline-count 10] [--baseline-timeout-ms 10000] [--out FILE]
//   node scripts/bench-pdb.mjs --set random --count 20 --baseline-count 0     # a quick run

import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "pdb.json");
const passed = ["set", "count", "seed", "korf", "baseline-count", "baseline-timeout-ms"].filter((name) => args[name] !== undefined);

const cli = execFileSync(
  "cargo",
  ["run", "--quiet", "--release", "--bin", "puzzlelab", "--", "sliding", "bench-pdb", ...passed.flatMap((name) => [`--${name}`, String(args[name])])],
  { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
);
const native = JSON.parse(cli);

/** The q-quantile, interpolated between closest ranks (as `puzzlelab sliding bench-pdb` computes it). */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}
const round = (x) => Math.round(x * 1000) / 1000;
const sum = (values) => values.reduce((a, b) => a + b, 0);
const distribution = (values) => ({
  median: round(quantile(values, 0.5)),
  p90: round(quantile(values, 0.9)),
  max: round(Math.max(...values)),
  total: round(sum(values)),
});

/** Solves one set in the page: fetch + gunzip + decode the set's databases, then every position. */
async function solveInPage({ name, goal, databases, starts }) {
  const api = await import(new URL("../pkg/puzzlelab.js", location.href).href);
  await api.default();
  const { gunzip } = await import(new URL("./common/download.js", location.href).href);
  let clock = performance.now();
  const response = await fetch(new URL(`../${databases}`, location.href));
  if (!response.ok) throw new Error(`${databases}: HTTP ${response.status}`);
  const bytes = await gunzip(new Uint8Array(await response.arrayBuffer()));
  const fetchMs = performance.now() - clock;
  const goalPuzzle = api.Puzzle.parse(4, 4, goal, goal, "");
  clock = performance.now();
  const db = api.PatternDatabases.fromBytes(goalPuzzle, bytes);
  const decodeMs = performance.now() - clock;
  goalPuzzle.free();
  const positions = [];
  for (const start of starts) {
    const puzzle = api.Puzzle.parse(4, 4, start, goal, "");
    const t = performance.now();
    const job = api.SearchJob.withPatternDatabases(puzzle, db, 0);
    while (!job.step(1e6));
    const result = job.result();
    const ms = performance.now() - t;
    positions.push({ start, status: result.status, length: result.length, nodes: result.nodes, ms });
    job.free();
    puzzle.free();
    if (positions.length % 10 === 0 || positions.length === starts.length) {
      console.log(`bench-pdb: ${name} in Chromium ${positions.length}/${starts.length}`);
    }
  }
  db.free();
  return { fetch_and_gunzip_ms: fetchMs, decode_ms: decodeMs, bytes: bytes.length, positions };
}

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  page.on("console", (message) => console.error(message.text()));
  await page.goto(new URL("sliding.html", server.url).href);
  const engine = await page.evaluate(() => navigator.userAgent);
  const wasm = { engine, sets: {} };
  const comparison = { sets: {} };
  for (const [name, set] of Object.entries(native.sets)) {
    const starts = set.positions.map((p) => p.start);
    const solved = await page.evaluate(solveInPage, { name, goal: set.goal, databases: set.databases, starts });
    const positions = solved.positions.map((p, i) => ({
      id: set.positions[i].id,
      ...p,
      ms: round(p.ms),
      same_length_as_native: p.length === set.positions[i].length,
    }));
    wasm.sets[name] = {
      databases: set.databases,
      fetch_and_gunzip_ms: round(solved.fetch_and_gunzip_ms),
      decode_ms: round(solved.decode_ms),
      decompressed_bytes: solved.bytes,
      ms: distribution(positions.map((p) => p.ms)),
      nodes: distribution(positions.map((p) => p.nodes)),
      positions,
    };
    const ratios = positions.map((p, i) => p.ms / Math.max(set.positions[i].ms, 1e-3));
    const wasmMs = positions.map((p) => p.ms);
    const nativeMs = set.positions.map((p) => p.ms);
    comparison.sets[name] = {
      lengths_agree: positions.every((p) => p.same_length_as_native),
      nodes_agree: positions.every((p, i) => p.nodes === set.positions[i].nodes),
      native_ms: set.ours.ms,
      wasm_ms: wasm.sets[name].ms,
      wasm_over_native_median: round(quantile(ratios, 0.5)),
      wasm_over_native_total: round(sum(wasmMs) / sum(nativeMs)),
    };
  }
  const random = comparison.sets.random;
  const totals = Object.values(comparison.sets);
  comparison.goals = {
    random_median_ms_in_browser_below_50: random ? random.wasm_ms.median < 50 : null,
    random_worst_ms_in_browser_below_5000: random ? random.wasm_ms.max < 5000 : null,
    wasm_within_2x_native_total: totals.every((s) => s.wasm_over_native_total <= 2),
    wasm_within_2x_native_median: totals.every((s) => s.wasm_over_native_median <= 2),
  };
  const report = {
    date: new Date().toISOString(),
    settings: native.settings,
    native,
    wasm_chromium: wasm,
    comparison,
  };
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify(report, null, 2) + "\n");
  console.log(`wrote ${out}`);
  for (const [name, s] of Object.entries(comparison.sets)) {
    const baseline = native.sets[name].baseline;
    const speedup = baseline.on_both_solved.speedup_median;
    console.log(
      `${name} (${native.sets[name].positions.length}): ms median/p90/max native ${s.native_ms.median}/${s.native_ms.p90}/${s.native_ms.max}` +
        ` (total ${s.native_ms.total}), Chromium ${s.wasm_ms.median}/${s.wasm_ms.p90}/${s.wasm_ms.max} (total ${s.wasm_ms.total});` +
        ` wasm/native median ${s.wasm_over_native_median}, total ${s.wasm_over_native_total};` +
        ` baseline solved ${baseline.solved}/${baseline.positions}${speedup === null ? "" : `, speed-up median ${speedup}×`}`,
    );
  }
  console.log(JSON.stringify(comparison.goals));
} finally {
  await browser.close();
  await server.close();
}
