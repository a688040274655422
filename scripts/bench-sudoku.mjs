#!/usr/bin/env node
// Sudoku exact-solver benchmark: the same puzzle files solved (up to two solutions each: the
// solution and the proof that it is unique) natively (`puzzlelab sudoku bench`, the release CLI)
// and in headless Chromium (the core bundle's sudokuSolveAll, on the page's main thread). Writes
// JSON (target/bench/sudoku.json by default): per file the puzzles, puzzles/s in each runtime
// (best and median of the repeats), the browser/native ratio, and whether both found the same
// number of unique puzzles. Timings only: nothing here passes or fails on speed.
//
//   node scripts/bench-sudoku.mjs --file F [--file F2 ...] [--repeat 5] [--native PATH] [--out FILE]
//
// Default files: the three tdoku sets in data/sudoku/ (docs/sudoku-data.md). Needs
// pkg/ (bash scripts/build-wasm.sh core) and a release puzzlelab (looked for in $CARGO_TARGET_DIR,
// else $HOME/.cache/puzzlelab/target, else target/; left out with a note when missing).

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { runPageBenchmark } from "./page-benchmark.mjs";

const argv = process.argv.slice(2);
const files = argv.flatMap((arg, i) => (arg === "--file" ? [argv[i + 1]] : []));
const option = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const out = option("out") ?? join(REPOSITORY_ROOT, "target", "bench", "sudoku.json");
const repeat = Number(option("repeat") ?? 5);
if (files.length === 0) {
  const data = join(REPOSITORY_ROOT, "data", "sudoku");
  files.push(...["tdoku_17_clue_49158.txt.gz", "magictour_top1465.txt", "forum_hardest_1106.txt"].map((f) => join(data, f)));
}

/// The puzzles of a file as one string of digits (81 a puzzle, 0 empty), as the CLI reads them.
function digits(path) {
  const bytes = readFileSync(path);
  const text = (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  for (const [n, line] of lines.entries()) {
    if (!/^[0-9.]{81}/.test(line)) throw new Error(`${path}:${n + 1}: not a puzzle`);
  }
  return { count: lines.length, digits: lines.map((l) => l.slice(0, 81).replaceAll(".", "0")).join("") };
}

function bestAndMedian(rates) {
  const sorted = [...rates].sort((a, b) => b - a);
  return { best: sorted[0], median: sorted[Math.floor(sorted.length / 2)] };
}

const fields = { solutions_looked_for: 2, repeat, files: [] };
const benchmark = { benchmark: "sudoku exact solver", page: "/www/sudoku.html", fields, native: option("native"), out };
await runPageBenchmark(benchmark, async ({ page, report, binary }) => {
  for (const file of files) {
    const { count, digits: text } = digits(file);
    const browserRun = await page.evaluate(
      async ({ text, repeat }) => {
        const api = await import("../pkg/puzzlelab.js");
        const cells = Uint8Array.from(text, (c) => c.charCodeAt(0) - 48);
        const rates = [];
        let unique = 0;
        for (let r = 0; r < repeat; r++) {
          const start = performance.now();
          unique = api.sudokuSolveAll(cells, 2);
          rates.push((cells.length / 81) / ((performance.now() - start) / 1000));
        }
        return { rates, unique };
      },
      { text, repeat },
    );
    const entry = { file: basename(file), puzzles: count, browser: { ...bestAndMedian(browserRun.rates), unique: browserRun.unique } };
    if (binary) {
      const result = spawnSync(binary, ["sudoku", "bench", "--file", file, "--repeat", String(repeat)], { encoding: "utf8", maxBuffer: 1 << 26 });
      if (result.status !== 0) throw new Error(`native bench failed: ${result.stderr}`);
      const native = JSON.parse(result.stdout).files[0];
      entry.native = { best: native.ours_per_s, median: native.ours_per_s_median, unique: native.unique };
      entry.sameUnique = native.unique === browserRun.unique;
      entry.browserOverNative = entry.browser.best / entry.native.best;
    }
    report.files.push(entry);
    console.error(
      `${entry.file}: browser ${Math.round(entry.browser.best)}/s` +
        (entry.native ? `, native ${Math.round(entry.native.best)}/s, ratio ${entry.browserOverNative.toFixed(2)}` : ""),
    );
  }
});
