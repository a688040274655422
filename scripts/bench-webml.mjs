#!/usr/bin/env node
// puzzlelab against TensorFlow.js in the same headless Chromium: one DQN gradient step of the same
// network (the N-puzzle DQN dissertation's: three hidden layers of 250, ReLU, batch 100, Adam,
// Huber loss, illegal next actions masked, the target copied every 10 steps) and one greedy move,
// on the CPU class (TF.js `cpu` and `wasm`, ours `flex`) and on WebGPU (TF.js `webgpu` and
// `webgl`, ours `webgpu`), each in a fresh Web Worker of the benchmark page scripts/webml/.
// Ours on WebGPU multiplies matrices with the kernel its set-up raced and chose (`webgpu`, what a
// user gets; src/agent/dqn/matmul.rs) and, as a second row, with burn's default kernel forced
// (`webgpu-default`, what burn alone gives).
// Writes one JSON (target/bench/webml.json by default) with every row, WebGPU call counts per
// step, our phase and single-operation times, and the ratios the targets are stated in.
// Timings only: nothing here passes or fails.
//
// Both sides time whole batches (a worker's clock ticks in 100 µs when the page is not
// cross-origin isolated): N steps between two clock reads, the loss read back every `readEvery`
// steps (1 by default, as a trainer that reports each loss), then M greedy moves. Our network's
// shape and hyper-parameters come from the trainer's own report, and TF.js builds the same.
// Headless Chromium's WebGPU here is SwiftShader (a CPU emulation): the same for both libraries,
// but not a GPU's timings. Needs pkg/learn/ (scripts/build-wasm.sh learn) and the npm dev
// dependencies (scripts/setup.sh).
//
//   node scripts/bench-webml.mjs [--sizes 3,4] [--backends flex,webgpu,webgpu-default,tfjs-cpu,tfjs-wasm,tfjs-webgl,tfjs-webgpu]
//        [--scale 1] [--read-every 1] [--out FILE]

import { cpus } from "node:os";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "webml.json");
const sizes = (args.sizes ?? "3,4").split(",").map(Number);
const wanted = (args.backends ?? "flex,webgpu,webgpu-default,tfjs-cpu,tfjs-wasm,tfjs-webgl,tfjs-webgpu").split(",");
const scale = Number(args.scale ?? 1);
const readEvery = Number(args["read-every"] ?? 1);
const RUN_TIMEOUT_MS = 600_000;

// Timed steps per backend: a few seconds of each at today's speeds (scaled by --scale).
const STEPS = { flex: 200, webgpu: 20, "webgpu-default": 20, "tfjs-cpu": 20, "tfjs-wasm": 100, "tfjs-webgl": 40, "tfjs-webgpu": 40 };
const MOVES = { flex: 500, webgpu: 50, "webgpu-default": 50, "tfjs-cpu": 200, "tfjs-wasm": 500, "tfjs-webgl": 100, "tfjs-webgpu": 100 };
const count = (table, backend) => Math.max(1, Math.round(table[backend] * scale));
// What our trainer is set up with; TF.js mirrors the shape and hyper-parameters it reports.
const TRAINER_OPTIONS = { huberLoss: true, maskActions: true };

/** Runs one benchmark in a fresh worker of the page; resolves with its result or throws. */
async function inWorker(page, url, type, message) {
  const reply = await page.evaluate(
    ({ url, type, message, timeout }) =>
      new Promise((resolve) => {
        const worker = new Worker(url, { type });
        const timer = setTimeout(() => {
          worker.terminate();
          resolve({ error: `timed out after ${timeout / 1000} s` });
        }, timeout);
        worker.onmessage = ({ data }) => {
          clearTimeout(timer);
          worker.terminate();
          resolve(data);
        };
        worker.onerror = (event) => {
          clearTimeout(timer);
          worker.terminate();
          resolve({ error: event.message || "worker error" });
        };
        worker.postMessage(message);
      }),
    { url, type, message, timeout: RUN_TIMEOUT_MS },
  );
  if (reply.error) throw new Error(reply.error);
  return reply.result;
}

const ratio = (a, b) => (a != null && b != null && b > 0 ? a / b : null);
const row = (rows, backend) => rows.find((r) => r.name === backend);

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const cases = [];
let browserVersion;
try {
  const page = await browser.newPage();
  await page.goto(new URL("/scripts/webml/index.html", server.url).href);
  const ours = new URL("/scripts/webml/puzzlelab-worker.js", server.url).href;
  const theirs = new URL("/scripts/webml/tfjs-worker.js", server.url).href;
  for (const size of sizes) {
    const rows = [];
    let shape = null;
    for (const backend of ["flex", "webgpu", "webgpu-default"].filter((b) => wanted.includes(b) || (!shape && b === "flex"))) {
      const result = await inWorker(page, ours, "module", {
        backend: backend === "flex" ? "cpu" : "webgpu",
        products: backend === "webgpu-default" ? "default" : "race",
        size,
        options: TRAINER_OPTIONS,
        steps: count(STEPS, backend),
        warmupSteps: 3,
        readEvery,
        moves: count(MOVES, backend),
        phases: true,
        counted: backend === "flex" ? 0 : 3,
        ops: backend === "flex" ? 50 : 10,
      });
      shape ??= result;
      if (wanted.includes(backend)) rows.push({ name: backend, ...result });
      console.error(`${size}x${size} puzzlelab ${backend}: ${result.stepsPerS.toFixed(2)} steps/s, greedy move ${result.greedyMoveMs.toFixed(3)} ms`);
    }
    for (const backend of ["tfjs-cpu", "tfjs-wasm", "tfjs-webgl", "tfjs-webgpu"].filter((b) => wanted.includes(b))) {
      const result = await inWorker(page, theirs, "classic", {
        backend: backend.slice("tfjs-".length),
        shape,
        steps: count(STEPS, backend),
        warmupSteps: 3,
        readEvery,
        moves: count(MOVES, backend),
        counted: backend === "tfjs-webgpu" ? 5 : 0,
        ops: backend === "tfjs-webgpu" || backend === "tfjs-webgl" ? 10 : 50,
      });
      rows.push({ name: backend, ...result });
      console.error(`${size}x${size} ${backend}: ${result.stepsPerS.toFixed(2)} steps/s, greedy move ${result.greedyMoveMs.toFixed(3)} ms`);
    }
    const steps = (name) => row(rows, name)?.stepsPerS;
    const move = (name) => row(rows, name)?.greedyMoveMs;
    const bestTfjsCpu = Math.max(steps("tfjs-cpu") ?? 0, steps("tfjs-wasm") ?? 0) || null;
    cases.push({
      puzzle: `${size}x${size}`,
      network: {
        layers: [shape.observationLen, ...shape.hidden, shape.numActions],
        parameters: shape.parameters,
        batchSize: shape.batchSize,
        learningRate: shape.learningRate,
        gamma: shape.gamma,
        huberLoss: shape.huberLoss,
        maskActions: shape.maskActions,
        targetUpdateInterval: shape.targetUpdateInterval,
      },
      rows,
      ratios: {
        webgpuStepsVsTfjsWebgpu: ratio(steps("webgpu"), steps("tfjs-webgpu")),
        webgpuStepsVsTfjsWebgl: ratio(steps("webgpu"), steps("tfjs-webgl")),
        webgpuStepsVsBurnDefaultKernel: ratio(steps("webgpu"), steps("webgpu-default")),
        webgpuDefaultKernelStepsVsTfjsWebgpu: ratio(steps("webgpu-default"), steps("tfjs-webgpu")),
        flexStepsVsBestTfjsCpuClass: ratio(steps("flex"), bestTfjsCpu),
        flexGreedyMoveVsTfjsWasm: ratio(move("flex"), move("tfjs-wasm")),
        webgpuGreedyMoveVsTfjsWebgpu: ratio(move("webgpu"), move("tfjs-webgpu")),
      },
      targets: {
        webgpuAtLeastTfjsWebgpu: ratio(steps("webgpu"), steps("tfjs-webgpu")) >= 1,
        flexAtLeastTwiceBestTfjsCpuClass: ratio(steps("flex"), bestTfjsCpu) >= 2,
        greedyMoveWithinTwiceTfjsWasm: ratio(move("flex"), move("tfjs-wasm")) <= 2,
      },
    });
  }
  browserVersion = browser.version();
} finally {
  await browser.close();
  await server.close();
}

const report = {
  what: "puzzlelab (burn 0.22) vs TensorFlow.js 4.22: one DQN gradient step and one greedy move of the same network, in the same headless Chromium, each in a Web Worker",
  date: new Date().toISOString(),
  browser: `Chromium ${browserVersion} (headless)`,
  machine: `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores`,
  timing: `whole batches between two clock reads; loss read back every ${readEvery} step(s); steps/s = timed steps / seconds; greedyMoveMs = mean over the moves`,
  note: "Headless Chromium's WebGPU here is SwiftShader (a CPU emulation), the same for both libraries: not a GPU's timings. countsPerStep are WebGPU calls per gradient step (loss read every step).",
  cases,
};
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + "\n");
for (const c of cases) console.error(`${c.puzzle}: ${JSON.stringify(c.ratios)}`);
console.error(`wrote ${out}`);
