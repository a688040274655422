#!/usr/bin/env node
// Load benchmark (issue 20, part 3): fifty <puzzle-widget>s of every kind on one page, and one
// widget solving again and again, in headless Chromium. Writes JSON (target/bench/load.json by
// default):
// - load: the time until all widgets are ready, and the main thread's long tasks meanwhile
//   (PerformanceObserver "longtask": tasks over 50 ms; count, longest, total);
// - interaction: every sliding widget shuffled and solved at once (the solves run in the shared
//   solver workers), with the long tasks and the longest gap between animation frames meanwhile;
// - memory: the JS heap (after a forced garbage collection, through the DevTools protocol) and
//   the core wasm instance's memory, before, during and after N shuffle-and-solve rounds on one
//   widget, to see whether either grows with use.
// Timings only: nothing here passes or fails; the browser tests check that the same page works.
//
// - training: the 8-puzzle DQN trained on the CPU in the learning worker for --train-seconds,
//   with the main thread's long tasks and longest frame gap meanwhile, and the learning bundle's
//   wasm memory after every chunk (the replay memory is kept to 2,000 transitions, full after
//   the first 2,000 steps, so that growth after them would be a leak).
//
//   node scripts/bench-load.mjs [--widgets 50] [--rounds 40] [--train-seconds 60] [--out FILE]
//
// Needs pkg/ and pkg/learn/ (bash scripts/build-wasm.sh all). WebGPU is SwiftShader here; no GPU is used.

import { mkdir, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "load.json");
const widgets = Number(args.widgets ?? 50);
const rounds = Number(args.rounds ?? 40);
const trainSeconds = Number(args["train-seconds"] ?? 60);

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const errors = [];
page.on("pageerror", (error) => errors.push(error.message));
await page.addInitScript(() => {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  /** Starts watching animation frames; the function it returns stops and gives the longest gap (ms). */
  window.watchFrames = () => {
    let longest = 0;
    let last = performance.now();
    let running = true;
    const frame = (now) => {
      longest = Math.max(longest, now - last);
      last = now;
      if (running) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    return () => {
      running = false;
      return longest;
    };
  };
});
await page.goto(new URL("/tests/browser/fixtures/elsewhere/host.html", server.url).href);
await page.waitForFunction(() => [...document.querySelectorAll("puzzle-widget")].every((w) => w.hasAttribute("ready")));
const cdp = await context.newCDPSession(page);

/** Long tasks since `since` (ms on the page's clock): count, longest and total ms. */
async function longTasksSince(since) {
  const tasks = await page.evaluate((t) => window.longTasks.filter((task) => task.start >= t), since);
  return {
    count: tasks.length,
    longest_ms: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
    total_ms: tasks.reduce((s, t) => s + t.duration, 0),
  };
}

async function heap() {
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  const wasmBytes = await page.evaluate(async () => {
    const module = await import("/pkg/puzzlelab.js");
    const exports = await module.default();
    return exports.memory.buffer.byteLength;
  });
  return { js_heap_bytes: usedSize, wasm_memory_bytes: wasmBytes };
}

// ---- load: `widgets` widgets of every kind ----------------------------------------------------
const kinds = [
  { count: 0.4, attributes: { size: "3x3" } },
  { count: 0.1, attributes: { size: "4x4" } },
  { count: 0.2, attributes: { puzzle: "minesweeper", level: "beginner" } },
  { count: 0.1, attributes: { puzzle: "2048" } },
  { count: 0.1, attributes: { puzzle: "sudoku", size: "4" } },
  { count: 0.1, attributes: { puzzle: "dust" } },
];
const specs = [];
for (const kind of kinds) {
  for (let i = 0; i < Math.round(kind.count * widgets); i++) specs.push({ ...kind.attributes, seed: String(specs.length + 1), speed: "60" });
}
const loadStart = await page.evaluate(() => performance.now());
const loadMs = await page.evaluate(async (specs) => {
  const started = performance.now();
  const created = specs.map((attributes, i) => {
    const widget = document.createElement("puzzle-widget");
    widget.id = `load-${i}`;
    for (const [name, value] of Object.entries(attributes)) widget.setAttribute(name, value);
    document.body.append(widget);
    return widget;
  });
  await Promise.all(created.map((w) => w.ready));
  return performance.now() - started;
}, specs);
const load = { widgets: specs.length, ready_ms: loadMs, long_tasks: await longTasksSince(loadStart) };

// ---- interaction: every sliding widget shuffled and solved at once ----------------------------
const interactionStart = await page.evaluate(() => performance.now());
const interaction = await page.evaluate(async () => {
  const sliding = [...document.querySelectorAll("puzzle-widget[id^=load-]")].filter((w) => w.state && !w.getAttribute("puzzle"));
  const stopWatching = window.watchFrames();
  const started = performance.now();
  const results = await Promise.allSettled(
    sliding.map((w) => {
      w.shuffle(w.state.rows * w.state.cols > 9 ? 20 : 14);
      return w.solve();
    }),
  );
  const ms = performance.now() - started;
  return {
    solves: results.length,
    solved: results.filter((r) => r.status === "fulfilled").length,
    all_solves_ms: ms,
    longest_frame_gap_ms: stopWatching(),
  };
});
interaction.long_tasks = await longTasksSince(interactionStart);

// ---- memory: one widget shuffled and solved `rounds` times ------------------------------------
const samples = [{ round: 0, ...(await heap()) }];
for (let round = 1; round <= rounds; round++) {
  await page.evaluate(async () => {
    const widget = document.querySelector("#elsewhere-fifteen");
    widget.cancel();
    widget.shuffle(24);
    await widget.solve().catch(() => {});
    widget.cancel();
  });
  if (round % Math.max(1, Math.floor(rounds / 8)) === 0 || round === rounds) samples.push({ round, ...(await heap()) });
}
const first = samples[1] ?? samples[0];
const last = samples.at(-1);
const memory = {
  rounds,
  samples,
  js_heap_growth_bytes: last.js_heap_bytes - first.js_heap_bytes,
  wasm_memory_growth_bytes: last.wasm_memory_bytes - first.wasm_memory_bytes,
};

// ---- training: a long run in the learning worker ---------------------------------------------
const trainingStart = await page.evaluate(() => performance.now());
const training = await page.evaluate(async (seconds) => {
  const { LearnClient } = await import("/www/common/learn-client.js");
  const client = new LearnClient();
  await client.ready;
  const chunks = [];
  const done = client.train(
    { rows: 3, cols: 3, goal: "", options: { seed: 1, replayCapacity: 2000 }, backend: "cpu" },
    {
      onProgress: (message) => {
        if (message.stage === "chunk") chunks.push({ at_ms: performance.now(), steps: message.report.stepsDone, wasm_bytes: message.wasmBytes });
      },
    },
  );
  // Frame gaps are counted from the first chunk on (the bundle's download and set-up before it).
  while (chunks.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const stopWatching = window.watchFrames();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await client.stop();
  const result = await done;
  const longestGap = stopWatching();
  return { seconds, chunks: chunks.length, steps: result.report?.stepsDone ?? null, longest_frame_gap_ms: longestGap, samples: chunks };
}, trainSeconds);
training.long_tasks = await longTasksSince(trainingStart);
const wasm = training.samples.map((c) => c.wasm_bytes).filter((b) => b !== null && b !== undefined);
training.wasm_memory_bytes = { first_chunk: wasm[0] ?? null, after_a_tenth: wasm[Math.floor(wasm.length / 10)] ?? null, last_chunk: wasm.at(-1) ?? null, largest: wasm.length ? Math.max(...wasm) : null };
// A dozen samples are enough in the report.
const every = Math.max(1, Math.floor(training.samples.length / 12));
training.samples = training.samples.filter((_, i) => i % every === 0 || i === training.samples.length - 1);

const report = {
  benchmark: "page under load",
  machine: `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}`,
  browser: `Chromium ${browser.version()}`,
  load,
  interaction,
  memory,
  training,
  page_errors: errors,
};
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + "\n");
console.log(JSON.stringify(report, null, 2));
await context.close();
await browser.close();
await server.close();
