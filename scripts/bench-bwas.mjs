#!/usr/bin/env node
// Batch-weighted A* over a shipped 15-puzzle network, in the tab (issue 19, part 3): uniformly
// random 15-puzzles, each solved in Chromium by the learning worker (LearnedModel.play with method "bwas", as the
// sliding page's "Batch-weighted A*" search runs it), then solved optimally by the native release
// CLI (IDA* with the shipped pattern databases) for the optimum. Writes JSON: solved, optimal,
// extra moves, nodes, milliseconds per solve (timings only).
//
//   node scripts/bench-bwas.mjs [--model models/15puzzle.dqn] [--positions 100] [--seed 1]
//     [--lambda L (default: the model's, as LearnedModel.play chooses it)] [--out FILE]
//
// Needs the learning bundle (bash scripts/build-wasm.sh learn) and the release CLI
// ($CARGO_TARGET_DIR/release/puzzlelab, `cargo build --release`).

import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";
import { seededRandom } from "./seeded-random.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "bwas-tab.json");
const count = Number(args.positions ?? 100);
const seed = Number(args.seed ?? 1);
const lambda = args.lambda === undefined ? undefined : Number(args.lambda);
const model = args.model ?? "models/15puzzle.dqn";
const targetDir = process.env.CARGO_TARGET_DIR ?? join(REPOSITORY_ROOT, "target");
const cli = join(targetDir, "release", "puzzlelab");

/** Whether a 4×4 board (0 = blank) reaches the standard goal: inversions plus the blank's row from the bottom odd. */
function solvable(cells) {
  const tiles = cells.filter((tile) => tile !== 0);
  let inversions = 0;
  for (let i = 0; i < tiles.length; i++) for (let j = i + 1; j < tiles.length; j++) if (tiles[i] > tiles[j]) inversions++;
  const rowFromBottom = 4 - Math.floor(cells.indexOf(0) / 4);
  return (inversions + rowFromBottom) % 2 === 1;
}

const random = seededRandom(seed);
const positions = [];
while (positions.length < count) {
  const cells = Array.from({ length: 16 }, (_, i) => i);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cells[i], cells[j]] = [cells[j], cells[i]];
  }
  if (solvable(cells) && cells.some((tile, i) => tile !== (i + 1) % 16)) positions.push(cells);
}

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.goto(new URL("sliding.html", server.url).href);
const solves = await page.evaluate(
  async ({ positions, lambda, model }) => {
    const { sharedLearnClient } = await import("./common/learn-client.js");
    const client = sharedLearnClient();
    const { key } = await client.loadModelUrl(new URL(model, location.href).href, { puzzle: "sliding" });
    const goal = [...Array.from({ length: 15 }, (_, i) => i + 1), 0];
    const results = [];
    for (const cells of positions) {
      const started = performance.now();
      const result = await client.play(key, "sliding", { rows: 4, cols: 4, goal, cells, method: "bwas", ...(lambda === undefined ? {} : { lambda }) });
      results.push({ status: result.status, length: result.length, nodes: result.nodes, ms: result.ms, roundTripMs: performance.now() - started });
    }
    return results;
  },
  { positions, lambda, model },
);
const browserVersion = browser.version();
await browser.close();
await server.close();

// The optimum of each position: the native pattern-database IDA*.
const text = positions.map((cells) => cells.map((tile) => (tile === 0 ? "_" : tile)).join(",")).join("\n");
const optimal = execFileSync(cli, ["sliding", "solve", "--size", "4x4"], { input: text, maxBuffer: 1 << 26 })
  .toString()
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line).length);

const rows = solves.map((solve, i) => ({ ...solve, optimalLength: optimal[i], extra: solve.status === "solved" ? solve.length - optimal[i] : null }));
const solved = rows.filter((row) => row.status === "solved");
const sorted = rows.map((row) => row.ms).sort((a, b) => a - b);
const report = {
  benchmark: `batch-weighted A* over ${model}, in the tab`,
  machine: `${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}`,
  browser: `Chromium ${browserVersion}`,
  settings: { model, lambda: lambda ?? "the model's default", batch: 100, maxNodes: 1_000_000, positions: count, seed },
  solved: solved.length,
  optimal: solved.filter((row) => row.extra === 0).length,
  below_optimum: solved.filter((row) => row.extra < 0).length,
  mean_extra_moves_when_solved: solved.reduce((sum, row) => sum + row.extra, 0) / Math.max(1, solved.length),
  mean_nodes: rows.reduce((sum, row) => sum + row.nodes, 0) / rows.length,
  ms: { median: sorted[Math.floor(sorted.length / 2)], mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, max: sorted.at(-1) },
  under_1s: rows.filter((row) => row.ms < 1000).length,
  rows,
};
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
const { rows: _, ...summary } = report;
console.log(JSON.stringify(summary, null, 2));
