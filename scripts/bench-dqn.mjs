#!/usr/bin/env node
// Deep Q-learning benchmark: training steps per second and the latency of one greedy move for
// the thesis's network (three hidden layers of 250, batch 100, Adam), natively (`puzzlelab
// bench-dqn`, burn's CPU backend) and in headless Chromium in a Web Worker, on the CPU backend
// (flex) and on WebGPU, written as JSON (target/bench/dqn.json by default). Timings only: nothing
// here passes or fails. Needs the release CLI built with --features learn and pkg/learn/
// (scripts/build-wasm.sh learn).
//
// Headless Chromium's WebGPU here is SwiftShader (a CPU emulation): its numbers say that WebGPU
// works and what it costs on this machine, not what a real GPU does.
//
//   node scripts/bench-dqn.mjs [--steps 1000] [--webgpu-steps 20] [--backends cpu,webgpu] [--out FILE]

import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "dqn.json");
const steps = Number(args.steps ?? 1000);
const webgpuSteps = Number(args["webgpu-steps"] ?? 20);
const backends = (args.backends ?? "cpu,webgpu").split(",");

const cli = execFileSync(
  "cargo",
  ["run", "--quiet", "--release", "--features", "learn", "--bin", "puzzlelab", "--", "sliding", "bench-dqn", "--steps", String(steps)],
  { cwd: REPOSITORY_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
const native = JSON.parse(cli);

/**
 * Runs in a module worker of the page: for each backend, trains the thesis's network on 3×3 and
 * 4×4 (timed after the buffer holds a batch, so every timed step takes a gradient step) and times
 * the network's Q-values for one board (one greedy move) on that backend.
 */
const workerSource = (bundleUrl) => `
import init, { LearnerTrainer } from "${bundleUrl}";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
self.onmessage = async ({ data: { backend, steps } }) => {
  try {
    await init();
    const cases = [];
    for (const size of [3, 4]) {
      const options = { size: size + "x" + size, warmupEpisodes: 2, evalIntervalEpisodes: 0, seed: 0, curriculum: false, difficulty: 10 };
      const trainer = await LearnerTrainer.create("sliding", options, backend);
      let report;
      do report = await trainer.trainSteps(50); while (report.updatesDone < 10);
      const clock = performance.now();
      report = await trainer.trainSteps(steps);
      const seconds = (performance.now() - clock) / 1000;
      const cells = Uint8Array.from({ length: size * size }, (_, i) => (i + 1) % (size * size));
      const latencies = [];
      for (let i = 0; i < 30; i += 1) {
        const t = performance.now();
        await trainer.qValues({ cells: Array.from(cells) });
        latencies.push((performance.now() - t) * 1000);
      }
      cases.push({
        puzzle: size + "x" + size,
        parameters: trainer.numParams,
        train_steps: steps,
        gradient_steps: report.updates,
        train_seconds: seconds,
        train_steps_per_s: steps / seconds,
        greedy_move_us_median: median(latencies),
      });
      trainer.free();
    }
    postMessage({ cases });
  } catch (error) {
    postMessage({ error: String(error?.stack ?? error) });
  }
};`;

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const chromiumResults = {};
try {
  const page = await browser.newPage();
  await page.goto(new URL("sliding.html", server.url).href);
  const version = browser.version();
  for (const [backend, n] of [["cpu", steps], ["webgpu", webgpuSteps]].filter(([b]) => backends.includes(b))) {
    const bundleUrl = new URL("../pkg/learn/puzzlelab.js", server.url).href;
    const result = await page.evaluate(
      ({ source, backend, steps }) =>
        new Promise((resolve) => {
          const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
          worker.onmessage = ({ data }) => resolve(data);
          worker.onerror = (event) => resolve({ error: event.message });
          worker.postMessage({ backend, steps });
        }),
      { source: workerSource(bundleUrl), backend, steps: n },
    );
    if (result.error) throw new Error(`${backend}: ${result.error}`);
    chromiumResults[backend] = { ...result, browser: `Chromium ${version} (headless)` };
    console.error(`chromium ${backend}: ${result.cases.map((c) => `${c.puzzle} ${c.train_steps_per_s.toFixed(1)} steps/s, ${c.greedy_move_us_median.toFixed(0)} µs/move`).join("; ")}`);
  }
} finally {
  await browser.close();
  await server.close();
}

const report = {
  what: "puzzlelab DQN benchmark: training steps/s and greedy-move latency of the thesis's network (250-250-250, batch 100, Adam)",
  date: new Date().toISOString(),
  native,
  chromium: chromiumResults,
  note: "Chromium's WebGPU in this headless set-up is SwiftShader, a software emulation: its timings are not a GPU's.",
};
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + "\n");
for (const c of native.cases) console.error(`native cpu: ${c.puzzle} ${c.train_steps_per_s.toFixed(0)} steps/s, ${c.greedy_move_us_median.toFixed(1)} µs/move`);
console.error(`wrote ${out}`);
