#!/usr/bin/env node
// Minesweeper solver benchmark: the same seeded games played by the probability solver natively
// (`puzzlelab minesweeper eval`, the release CLI) and in headless Chromium (the core bundle's
// minesweeperSolverEvaluation, on the page's main thread), and the probability overlay's redraw time on
// expert boards in the page (analysis and drawing of all 480 cells, <mines-board>'s
// lastOverlayMs). Writes JSON (target/bench/minesweeper.json by default): per level, rule and
// runtime the games, win rate, guesses and ms a game, and whether both runtimes won the same
// number of games (game g of seed s is the same game in both); the overlay's mean and largest
// time. Timings only: nothing here passes or fails on speed.
//
//   node scripts/bench-minesweeper.mjs [--games 1000] [--seed 1] [--overlay-positions 40]
//                                      [--native PATH] [--out FILE]
//
// Needs pkg/ (bash scripts/build-wasm.sh core) and `cargo build --release --bin puzzlelab` (the
// binary is looked for in $CARGO_TARGET_DIR, else $HOME/.cache/puzzlelab/target, else target/;
// left out with a note when missing).

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { runPageBenchmark } from "./page-benchmark.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "minesweeper.json");
const games = Number(args.games ?? 1000);
const seed = Number(args.seed ?? 1);
const overlayPositions = Number(args["overlay-positions"] ?? 40);
const RUNS = [
  { level: "beginner", layout: [9, 9, 10], rule: "safe", first: [0, 0] },
  { level: "intermediate", layout: [16, 16, 40], rule: "safe", first: [0, 0] },
  { level: "expert", layout: [30, 16, 99], rule: "safe", first: [0, 0] },
  { level: "expert", layout: [30, 16, 99], rule: "opening", first: [3, 3] },
];

function native(binary, run) {
  const result = spawnSync(
    binary,
    ["minesweeper", "eval", "--level", run.level, "--first-click", run.rule, "--first-cell", run.first.join(","), "--games", String(games), "--seed", String(seed)],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`native eval failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

const benchmark = { benchmark: "minesweeper solver", page: "/www/minesweeper.html", fields: { games, seed, runs: [] }, native: args.native, out };
await runPageBenchmark(benchmark, async ({ page, report, binary }) => {
  for (const run of RUNS) {
    const [width, height, mines] = run.layout;
    const firstCell = run.first[1] * width + run.first[0];
    const browserResult = await page.evaluate(
      async ({ width, height, mines, rule, firstCell, games, seed }) => {
        const api = await import("../pkg/puzzlelab.js");
        const evaluation = api.minesweeperSolverEvaluation({ width, height, mines, rule, firstCell, games, seed });
        try {
          evaluation.step(games);
          return evaluation.result();
        } finally {
          evaluation.free();
        }
      },
      { width, height, mines, rule: run.rule, firstCell, games, seed },
    );
    const entry = { level: run.level, rule: run.rule, firstCell: run.first, browser: browserResult };
    if (binary) {
      entry.native = native(binary, run);
      entry.sameWins = entry.native.wins === browserResult.wins;
      entry.browserVsNativeMs = browserResult.ms_per_game / entry.native.ms_per_game;
    }
    report.runs.push(entry);
    console.error(`${run.level} ${run.rule}: browser ${browserResult.ms_per_game.toFixed(2)} ms a game${entry.native ? `, native ${entry.native.ms_per_game.toFixed(2)}` : ""}`);
  }
  // The overlay on expert: play the solver's moves and time every redraw with the overlay on.
  const overlay = await page.evaluate(async (positions) => {
    const board = document.querySelector("#game");
    const api = await import("../pkg/puzzlelab.js");
    const times = [];
    let seedNo = 100;
    board.overlay = true;
    while (times.length < positions) {
      board.game = new api.MinesGame(30, 16, 99, "safe", seedNo++, false);
      board.reveal(0, "bench");
      while (board.game.status === "playing" && times.length < positions) {
        times.push(board.lastOverlayMs);
        const hint = board.game.hint();
        board.reveal(hint.cell, "bench");
      }
    }
    return { positions: times.length, meanMs: times.reduce((a, b) => a + b, 0) / times.length, maxMs: Math.max(...times) };
  }, overlayPositions);
  report.overlay = { level: "expert", ...overlay };
  console.error(`overlay on expert: mean ${overlay.meanMs.toFixed(2)} ms, largest ${overlay.maxMs.toFixed(2)} ms over ${overlay.positions} positions`);
});
