#!/usr/bin/env node
// Minesweeper solver benchmark: the same seeded games played by the probability solver natively
// (`puzzlelab minesweeper eval`, the release CLI) and in headless Chromium (the core bundle's
// minesweeperSolverEval, on the page's main thread), and the probability overlay's redraw time on
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

function nativeBinary() {
  if (args.native) return args.native;
  const dirs = [process.env.CARGO_TARGET_DIR, join(homedir(), ".cache", "puzzlelab", "target"), join(REPOSITORY_ROOT, "target")];
  return dirs.filter(Boolean).map((d) => join(d, "release", "puzzlelab")).find((p) => existsSync(p)) ?? null;
}

function native(binary, run) {
  const result = spawnSync(
    binary,
    ["minesweeper", "eval", "--level", run.level, "--first-click", run.rule, "--first-cell", run.first.join(","), "--games", String(games), "--seed", String(seed)],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`native eval failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const report = {
  benchmark: "minesweeper solver",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, browser: `Chromium ${browser.version()}` },
  games,
  seed,
  runs: [],
  notes: [],
};
try {
  const page = await browser.newPage();
  await page.goto(new URL("/www/minesweeper.html", server.url).href);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  const binary = nativeBinary();
  if (!binary) report.notes.push("no release puzzlelab binary: the native side was left out");
  for (const run of RUNS) {
    const [width, height, mines] = run.layout;
    const firstCell = run.first[1] * width + run.first[0];
    const browserResult = await page.evaluate(
      async ({ width, height, mines, rule, firstCell, games, seed }) => {
        const api = await import("../pkg/puzzlelab.js");
        return api.minesweeperSolverEval(width, height, mines, rule, firstCell, games, seed);
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
} finally {
  await browser.close();
  await server.close();
}
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(out);
