#!/usr/bin/env node
// Solver benchmark, natively and in headless Chromium on the same positions, written as JSON
// (target/bench/solver.json by default) so runs can be compared. Timings only: nothing here passes
// or fails. Needs the release CLI and pkg/ (scripts/build-wasm.sh).
//
//   node scripts/bench.mjs [--count 20] [--difficulty 36] [--seed 1] [--out FILE]

import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const count = Number(args.count ?? 20);
const difficulty = Number(args.difficulty ?? 36);
const seed = Number(args.seed ?? 1);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "solver.json");

const cli = execFileSync(
  "cargo",
  ["run", "--quiet", "--release", "--bin", "puzzlelab", "--", "sliding", "bench", "--count", String(count), "--difficulty", String(difficulty), "--seed", String(seed)],
  { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
const native = JSON.parse(cli);
const positions = native.idastar_15_puzzle.positions.map((p) => p.start);

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.goto(new URL("sliding.html", server.url).href);
  const wasm = await page.evaluate(async (positions) => {
    const api = await import(new URL("../pkg/puzzlelab.js", location.href).href);
    await api.default();
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const table = [];
    for (let i = 0; i < 5; i++) {
      const p = api.Puzzle.standard(3, 3);
      const t = performance.now();
      p.shuffle(20, i); // builds the exact 3×3 table on first use
      table.push(performance.now() - t);
      p.free();
    }
    const q = [];
    const lengths = [];
    for (let seed = 0; seed < 5; seed++) {
      const p = api.Puzzle.preset("sun-moon");
      const t = performance.now();
      const job = new api.QLearningJob(p, { seed });
      while (!job.train(1000));
      lengths.push(job.result().length);
      q.push(performance.now() - t);
      job.free();
      p.free();
    }
    const solved = [];
    for (const start of positions) {
      const p = api.Puzzle.parse(4, 4, start, "", "");
      const t = performance.now();
      const job = new api.SearchJob(p, "idastar", "linear-conflict", 0);
      while (!job.step(1e6));
      const r = job.result();
      solved.push({ start, length: r.length, nodes: r.nodes, ms: performance.now() - t });
      job.free();
      p.free();
    }
    return {
      engine: navigator.userAgent,
      exact_table_3x3_ms_median: median(table),
      q_learning_sun_moon: { ms_median: median(q), lengths, episodes: 1000 },
      idastar_15_puzzle: {
        ms_median: median(solved.map((s) => s.ms)),
        ms_max: Math.max(...solved.map((s) => s.ms)),
        positions: solved,
      },
    };
  }, positions);
  const ratio = wasm.idastar_15_puzzle.positions.reduce((sum, p, i) => sum + p.ms, 0) /
    native.idastar_15_puzzle.positions.reduce((sum, p) => sum + p.ms, 0);
  const report = {
    date: new Date().toISOString(),
    settings: { count, difficulty, seed },
    native,
    wasm_chromium: wasm,
    wasm_over_native_total_time_idastar: ratio,
  };
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify(report, null, 2));
  console.log(`wrote ${out}`);
  console.log(JSON.stringify({
    exact_table_ms: [native.exact_table_3x3_ms_median, wasm.exact_table_3x3_ms_median],
    q_learning_ms: [native.q_learning_sun_moon.ms_median, wasm.q_learning_sun_moon.ms_median],
    idastar_median_ms: [native.idastar_15_puzzle.ms_median, wasm.idastar_15_puzzle.ms_median],
    idastar_max_ms: [native.idastar_15_puzzle.ms_max, wasm.idastar_15_puzzle.ms_max],
    wasm_over_native: ratio,
  }));
} finally {
  await browser.close();
  await server.close();
}
