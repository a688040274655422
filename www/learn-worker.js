// Module Web Worker for deep Q-learning: it loads the learning bundle (pkg/learn/, the crate built
// with burn, several MB) — only here, never on the page — and runs one training at a time in
// chunks, plus quick jobs on trained models between the chunks. The page side is learn-client.js.
//
// Models are kept by a key the page chooses (the URL of a shipped model, "trained" for the
// network being trained, "file" for one the person loaded): each is a DqnModel with its file's
// bytes, so that training can go on from it and Save can hand it back.
//
// Protocol ({ type, id, ... }; every request gets exactly one "result" or "error" with its id):
//   in : { type: "load-model", id, key, url }       fetch a model file (download progress reported)
//        { type: "load-model", id, key, bytes, name } read a model from bytes (a file the person chose)
//        { type: "solve", id, key, rows, cols, goal, cells, options? }
//             goal and cells: labels row-major (0 = blank); options: DqnModel.solve's
//        { type: "evaluate", id, key, options }      DqnModel.evaluate's options ({ perDistance, seed })
//        { type: "train", id, rows, cols, goal, options, backend, continueFrom? }
//             goal: text ("" = standard); options: DqnTrainer.create's; backend "auto" | "webgpu" |
//             "cpu"; continueFrom: the key of a kept model whose weights the trainer starts from
//        { type: "pause", id } | { type: "resume", id } | { type: "stop", id }
//        { type: "save", id }                        the trainer's network as a model file
//        { type: "load-weights", id, bytes }         weights into the paused trainer
//        { type: "probe", id, adamSteps }            cpuProbe and webgpuProbe, compared
//   out: { type: "ready" }                            the bundle is loaded
//        { type: "progress", id: null, stage: "bundle", loaded, total }   while the bundle downloads
//        { type: "progress", id, stage: "download", loaded, total }       a model download
//        { type: "progress", id, stage: "evaluate", done, total }         positions evaluated
//        { type: "progress", id, stage: "backend", message }              how the backend was chosen
//        { type: "progress", id, stage: "started", backend, adapter, numParams, chunkSteps }
//        { type: "progress", id, stage: "chunk", report, chunkSteps }     after every training chunk
//        { type: "result", id, result }
//        { type: "error", id, message }                id null: the bundle could not be loaded

import { goalLabels } from "./learn-client.js";

/** The learning bundle, resolved against this file (so www/ and pkg/ may live anywhere, side by side). */
const BUNDLE_URL = new URL("../pkg/learn/puzzlelab.js", import.meta.url);
const BUNDLE_WASM_URL = new URL("../pkg/learn/puzzlelab_bg.wasm", import.meta.url);

/** A training chunk aims at this much wall time: short enough for Pause and Stop to answer soon. */
const CHUNK_TARGET_MS = 300;
/** Steps per chunk, first and bounds, per backend. WebGPU steps wait for readbacks: fewer per chunk. */
const CHUNK_STEPS = {
  cpu: { first: 200, min: 20, max: 500 },
  webgpu: { first: 5, min: 1, max: 50 },
};
/** "auto" trains on WebGPU only when its probe agrees with the CPU's this closely. */
const WEBGPU_TOLERANCE = 1e-3;
/** Adam steps of the probe that "auto" runs. */
const AUTO_PROBE_ADAM_STEPS = 3;
/** Why there is no WebGPU, in words, when the browser offers no adapter. */
const NO_ADAPTER =
  "the browser offers no WebGPU adapter (WebGPU may be switched off, or not supported on this device)";

/** Kept models by key: { model (DqnModel), bytes (the file), info (DqnModel.info()) }. */
const models = new Map();
/**
 * The trainer and its run: { id (of the "train" request), trainer (DqnTrainer), backend, state
 * ("running" | "paused" | "stopping" | "stopped"), wake (resolver that ends a pause), waiters
 * (pause/stop requests answered when the loop gets there), lastReport, chunkSteps }, or null.
 */
let run = null;
/** Whether a "train" request is setting its trainer up (before `run` holds it). */
let settingUp = false;
/** Calls into the trainer, one after another (DqnTrainer refuses a call while a chunk is pending). */
let trainerQueue = Promise.resolve();
/** The outcome of the WebGPU check of "auto", once made: { ok, message, adapter }. */
let webGpuCheck = null;

/** The bundle's exports; every job awaits it, so a failed load is every job's error too. */
const bundleReady = loadBundle().catch((error) => {
  throw new Error(
    `The learning module (pkg/learn/) could not be loaded: ${messageOf(error)}. ` +
      "Build it with `bash scripts/build-wasm.sh learn`.",
  );
});
bundleReady.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "error", id: null, message: error.message }),
);

self.onmessage = (event) => {
  const message = event.data ?? {};
  const handler = HANDLERS[message.type];
  if (!handler) {
    postMessage({ type: "error", id: message.id ?? null, message: `Unknown request "${message.type}".` });
    return;
  }
  // "train" answers when training ends; it reports through progress messages meanwhile.
  Promise.resolve()
    .then(() => handler(message))
    .then(
      (answer) => {
        if (answer === undefined) return;
        const { result, transfer = [] } = answer;
        postMessage({ type: "result", id: message.id, result }, transfer);
      },
      (error) => postMessage({ type: "error", id: message.id, message: messageOf(error) }),
    );
};

const HANDLERS = {
  "load-model": loadModel,
  solve,
  evaluate,
  train,
  pause,
  resume,
  stop,
  save,
  "load-weights": loadWeights,
  probe,
};

// ---- the bundle -----------------------------------------------------------------------------------

/** Imports the bundle's JS and instantiates its wasm, reporting the download; resolves to its exports. */
async function loadBundle() {
  const bundle = await import(BUNDLE_URL.href);
  const response = await fetch(BUNDLE_WASM_URL);
  if (!response.ok) throw new Error(`${BUNDLE_WASM_URL.pathname} answered HTTP ${response.status}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  let loaded = 0;
  let reported = -1;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        // Whole percents only.
        const percent = total ? Math.floor((100 * loaded) / total) : -1;
        if (percent > reported) {
          reported = percent;
          postMessage({ type: "progress", id: null, stage: "bundle", loaded, total });
        }
        controller.enqueue(chunk);
      },
    }),
  );
  // A Response with the wasm MIME type lets the bundle compile while it downloads.
  await bundle.default({ module_or_path: new Response(counted, { headers: { "Content-Type": "application/wasm" } }) });
  return bundle;
}

// ---- models ---------------------------------------------------------------------------------------

/** Fetches (with progress) or reads a model file and keeps it under `key`; resolves to its info. */
async function loadModel({ id, key, url, bytes, name }) {
  const bundle = await bundleReady;
  const started = performance.now();
  const body = url ? await download(url, id) : toBytes(bytes);
  const downloadMs = performance.now() - started;
  let model;
  try {
    model = bundle.DqnModel.fromBytes(body);
  } catch (error) {
    const what = url ? `The model at ${url}` : `The file${name ? ` "${name}"` : ""}`;
    throw new Error(`${what} could not be loaded: ${messageOf(error)}`);
  }
  const info = model.info();
  keepModel(key, { model, bytes: body, info });
  return { result: { key, info, size: body.byteLength, ms: Math.round(performance.now() - started), downloadMs: Math.round(downloadMs) } };
}

/** Keeps `entry` under `key`, freeing the model it replaces. */
function keepModel(key, entry) {
  const previous = models.get(key);
  models.set(key, entry);
  if (previous && previous.model !== entry.model) previous.model.free();
}

/** The model kept under `key`, or an Error a person can act on. */
function keptModel(key) {
  const entry = models.get(key);
  if (!entry) throw new Error(key === "trained" ? "Nothing has been trained yet." : "Load a model first.");
  return entry;
}

/** The body of `url` as bytes, reporting { loaded, total } as it arrives. */
async function download(url, id) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const total = Number(response.headers.get("Content-Length")) || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  let lastReport = 0;
  postMessage({ type: "progress", id, stage: "download", loaded, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    const now = performance.now();
    if (now - lastReport > 50) {
      lastReport = now;
      postMessage({ type: "progress", id, stage: "download", loaded, total });
    }
  }
  postMessage({ type: "progress", id, stage: "download", loaded, total: total || loaded });
  const body = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Solves a board with a kept model, after checking that the model was trained for that puzzle. */
async function solve({ key, rows, cols, goal, cells, options }) {
  await bundleReady;
  const entry = keptModel(key);
  const problem = misfit(entry.info, rows, cols, goal);
  if (problem) throw new Error(problem);
  const result = entry.model.solve(Uint8Array.from(cells), options ?? undefined);
  return { result };
}

/** Why a model does not fit a rows × cols puzzle with `goal` (labels), or "" when it does. */
function misfit(info, rows, cols, goal) {
  const modelGoal = goalLabels(info.goal);
  const sameGoal = modelGoal.length === goal.length && modelGoal.every((label, i) => label === Number(goal[i]));
  if (info.rows === rows && info.cols === cols && sameGoal) return "";
  const shownGoal = goal.map((label) => (Number(label) === 0 ? "_" : label)).join(",");
  return (
    `This model was trained for the ${info.rows} × ${info.cols} puzzle with the goal ${info.goal}; ` +
    `the board is ${rows} × ${cols}${info.rows === rows && info.cols === cols ? ` with the goal ${shownGoal}` : ""}.`
  );
}

/** Positions an evaluation plays between progress reports (a few tens of milliseconds' work). */
const EVALUATION_BATCH = 8;

/**
 * The evaluation by exact optimal distance of a kept model (boards of at most 9 cells), a batch of
 * positions at a time: progress goes to the page after each batch, and the event loop turns
 * between them so that training chunks and other messages are not held up.
 */
async function evaluate({ id, key, options }) {
  await bundleReady;
  const entry = keptModel(key);
  const started = performance.now();
  const job = entry.model.startEvaluation(options ?? undefined);
  try {
    while (!job.step(EVALUATION_BATCH)) {
      postMessage({ type: "progress", id, stage: "evaluate", done: job.done, total: job.total });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return { result: { ...job.result(), key, ms: Math.round(performance.now() - started) } };
  } finally {
    job.free();
  }
}

// ---- training -------------------------------------------------------------------------------------

/** Runs `call(trainer)` after every earlier trainer call has settled. */
function withTrainer(trainer, call) {
  const next = trainerQueue.then(() => call(trainer));
  trainerQueue = next.catch(() => {});
  return next;
}

/** Trains chunk after chunk until stopped; resolves (as this request's result) to the last report. */
async function train(message) {
  if (settingUp || (run && run.state !== "stopped")) throw new Error("A training run is already going: stop it first.");
  settingUp = true;
  let made;
  try {
    made = await newTrainer(message);
  } finally {
    settingUp = false;
  }
  const { trainer, backend, adapter } = made;
  const { id } = message;
  // The previous run's trainer goes once the calls queued for it (a Save) are done.
  if (run) withTrainer(run.trainer, (previous) => previous.free());
  const bounds = CHUNK_STEPS[backend];
  run = { id, trainer, backend, state: "running", wake: null, waiters: [], lastReport: null, chunkSteps: bounds.first };
  const current = run;
  postMessage({ type: "progress", id, stage: "started", backend, adapter, numParams: trainer.numParams, chunkSteps: current.chunkSteps });

  try {
    for (;;) {
      if (current.state === "paused") {
        await snapshotTrained(current);
        answerWaiters(current, "pause");
        await new Promise((resolve) => (current.wake = resolve));
        current.wake = null;
        continue;
      }
      if (current.state === "stopping") break;
      const steps = current.chunkSteps;
      const started = performance.now();
      const report = await withTrainer(trainer, (t) => t.trainSteps(steps));
      current.chunkSteps = nextChunkSteps(steps, performance.now() - started, bounds);
      current.lastReport = report;
      postMessage({ type: "progress", id, stage: "chunk", report, chunkSteps: steps });
      // Let pause, stop, save and model jobs in.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await snapshotTrained(current);
    current.state = "stopped";
    answerWaiters(current, "stop");
    answerWaiters(current, "pause");
    return { result: { stopped: true, report: current.lastReport, backend, model: models.get("trained")?.info ?? null } };
  } catch (error) {
    current.state = "stopped";
    const failure = new Error(`Training stopped: ${messageOf(error)}`);
    for (const waiter of current.waiters.splice(0)) waiter.reject(failure);
    throw failure;
  }
}

/**
 * A trainer for a "train" request on the backend it asks for ("auto": see chooseBackend), with its
 * weights when it goes on from a kept model: { trainer, backend, adapter }.
 */
async function newTrainer(message) {
  const bundle = await bundleReady;
  const { backend, note, adapter } = await chooseBackend(bundle, message.backend ?? "auto");
  if (note) postMessage({ type: "progress", id: message.id, stage: "backend", message: note });
  let trainer;
  try {
    trainer = await bundle.DqnTrainer.create(message.rows, message.cols, message.goal ?? "", message.options ?? {}, backend);
  } catch (error) {
    throw new Error(`The trainer could not be set up: ${messageOf(error)}`);
  }
  if (message.continueFrom) {
    try {
      trainer.loadModel(keptModel(message.continueFrom).bytes);
    } catch (error) {
      trainer.free();
      throw new Error(`Training cannot go on from the loaded model: ${messageOf(error)}`);
    }
  }
  return { trainer, backend, adapter };
}

/** Steps for the next chunk: towards CHUNK_TARGET_MS, at most doubling, within `bounds`. */
function nextChunkSteps(steps, elapsedMs, { min, max }) {
  const ideal = (steps * CHUNK_TARGET_MS) / Math.max(1, elapsedMs);
  return Math.round(Math.min(max, Math.max(min, Math.min(steps * 2, ideal))));
}

/** Keeps the trainer's network as the model "trained", so that it can solve and be evaluated. */
async function snapshotTrained(current) {
  const bundle = await bundleReady;
  const bytes = await withTrainer(current.trainer, (t) => t.saveModel());
  const model = bundle.DqnModel.fromBytes(bytes);
  keepModel("trained", { model, bytes, info: model.info() });
}

/** Answers the pause or stop requests waiting for the loop. */
function answerWaiters(current, kind) {
  const state = { state: current.state, report: current.lastReport, model: models.get("trained")?.info ?? null };
  current.waiters = current.waiters.filter((waiter) => {
    if (waiter.kind !== kind) return true;
    waiter.resolve({ result: state });
    return false;
  });
}

/** Resolves once the loop has paused (after its current chunk; the network is then kept as "trained"). */
function pause() {
  const current = activeRun();
  if (current.state === "paused" && !current.wake) return waitFor(current, "pause"); // pausing right now
  if (current.state === "paused") return { result: { state: "paused", report: current.lastReport, model: models.get("trained")?.info ?? null } };
  current.state = "paused";
  return waitFor(current, "pause");
}

/** Ends a pause: the loop trains on from where it stopped. */
function resume() {
  const current = activeRun();
  if (current.state !== "paused") return { result: { state: current.state } };
  current.state = "running";
  current.wake?.();
  return { result: { state: "running" } };
}

/** Resolves once the loop has stopped; the run's own request then resolves too. */
function stop() {
  const current = activeRun();
  const wasPaused = current.state === "paused";
  current.state = "stopping";
  const answer = waitFor(current, "stop");
  if (wasPaused) current.wake?.();
  return answer;
}

/** The run that pause, resume and stop act on, or an Error when none is going. */
function activeRun() {
  if (!run || run.state === "stopped") throw new Error("No training is running.");
  return run;
}

/** A promise answered by answerWaiters(current, kind) when the loop gets there. */
function waitFor(current, kind) {
  return new Promise((resolve, reject) => current.waiters.push({ kind, resolve, reject }));
}

/** The trainer's network as a model file (between chunks). */
async function save() {
  if (!run) throw new Error("Nothing has been trained yet.");
  const bytes = await withTrainer(run.trainer, (t) => t.saveModel());
  return { result: { bytes, steps: run.lastReport?.stepsDone ?? 0, backend: run.backend }, transfer: [bytes.buffer] };
}

/** Loads a model file's weights into the paused trainer (it goes on from them on Resume). */
async function loadWeights({ bytes }) {
  if (!run || run.state !== "paused") throw new Error("Pause a training run before loading weights into it.");
  const body = toBytes(bytes);
  await withTrainer(run.trainer, (t) => t.loadModel(body));
  await snapshotTrained(run);
  return { result: { model: models.get("trained").info } };
}

// ---- backends -------------------------------------------------------------------------------------

/**
 * The backend to train on: "cpu" and "webgpu" as asked ("webgpu" fails with the reason when there
 * is none); "auto" is WebGPU only when it is there and its probe agrees with the CPU's.
 * Resolves to { backend, note (why, for the page), adapter (a description of the GPU) }.
 */
async function chooseBackend(bundle, wanted) {
  if (wanted === "cpu") return { backend: "cpu", note: "", adapter: "" };
  if (wanted === "webgpu") {
    const missing = await whyNoWebGpu();
    if (missing) throw new Error(`WebGPU is not available: ${missing}. Choose the CPU or auto.`);
    return { backend: "webgpu", note: "", adapter: await adapterName() };
  }
  if (wanted !== "auto") throw new Error(`Unknown backend "${wanted}".`);
  webGpuCheck ??= checkWebGpu(bundle);
  const check = await webGpuCheck;
  if (check.ok) return { backend: "webgpu", note: check.message, adapter: check.adapter };
  return { backend: "cpu", note: `WebGPU unavailable: ${check.message}; training on the CPU.`, adapter: "" };
}

/** Whether WebGPU is there and computes what the CPU computes: { ok, message, adapter }. */
async function checkWebGpu(bundle) {
  const missing = await whyNoWebGpu();
  if (missing) return { ok: false, message: missing, adapter: "" };
  let comparison;
  try {
    comparison = await runProbes(bundle, AUTO_PROBE_ADAM_STEPS);
  } catch (error) {
    return { ok: false, message: messageOf(error), adapter: "" };
  }
  const adapter = await adapterName();
  if (!comparison.finite) return { ok: false, message: "its probe computed numbers that are not finite", adapter };
  if (!(comparison.maxDifference <= WEBGPU_TOLERANCE)) {
    const difference = comparison.maxDifference.toExponential(1);
    return { ok: false, message: `its probe differs from the CPU's by ${difference} (more than ${WEBGPU_TOLERANCE})`, adapter };
  }
  const difference = comparison.maxDifference.toExponential(1);
  return { ok: true, message: `WebGPU checked against the CPU (largest difference ${difference}); training on WebGPU.`, adapter };
}

/** Why WebGPU cannot be used at all (no API, no adapter), or "" when an adapter is offered. */
async function whyNoWebGpu() {
  if (!navigator.gpu) return "this browser has no navigator.gpu";
  try {
    return (await navigator.gpu.requestAdapter()) ? "" : NO_ADAPTER;
  } catch (error) {
    return `the browser could not offer a WebGPU adapter (${messageOf(error)})`;
  }
}

/** A few words on the GPU ("google swiftshader"), or "" when the browser tells nothing. */
async function adapterName() {
  try {
    const adapter = await navigator.gpu?.requestAdapter();
    const info = adapter?.info ?? {};
    return [info.vendor, info.architecture, info.description].filter(Boolean).join(" ").trim();
  } catch {
    return "";
  }
}

/** The "probe" request: both probes and how far apart they are. */
async function probe({ adamSteps = 3 }) {
  const bundle = await bundleReady;
  const missing = await whyNoWebGpu();
  if (missing) throw new Error(`WebGPU is not available: ${missing}.`);
  const comparison = await runProbes(bundle, adamSteps);
  return { result: { ...comparison, adapter: await adapterName() } };
}

/**
 * Runs cpuProbe and webgpuProbe with `adamSteps` Adam steps: { cpu, webgpu, maxDifference (outputs
 * and gradients), outputsDifference, gradientsDifference, finite, ms: { cpu, webgpu } }.
 */
async function runProbes(bundle, adamSteps) {
  let started = performance.now();
  const cpu = await bundle.cpuProbe(adamSteps);
  const cpuMs = performance.now() - started;
  started = performance.now();
  let webgpu;
  try {
    webgpu = await bundle.webgpuProbe(adamSteps);
  } catch (error) {
    throw new Error(`WebGPU could not run the probe: ${messageOf(error)}`);
  }
  const webgpuMs = performance.now() - started;
  const outputsDifference = largestDifference(cpu.outputs, webgpu.outputs);
  const gradientsDifference = largestDifference(cpu.gradients, webgpu.gradients);
  const finite = [cpu, webgpu].every((side) => [...side.outputs, ...side.gradients, ...side.losses].every(Number.isFinite));
  return {
    cpu,
    webgpu,
    outputsDifference,
    gradientsDifference,
    maxDifference: Math.max(outputsDifference, gradientsDifference),
    finite,
    ms: { cpu: Math.round(cpuMs), webgpu: Math.round(webgpuMs) },
  };
}

/** The largest |a[i] − b[i]| (Infinity when the lengths differ or a value is not finite). */
function largestDifference(a, b) {
  if (a.length !== b.length) return Infinity;
  let largest = 0;
  for (let i = 0; i < a.length; i++) {
    const difference = Math.abs(a[i] - b[i]);
    if (!Number.isFinite(difference)) return Infinity;
    largest = Math.max(largest, difference);
  }
  return largest;
}

// ---- helpers --------------------------------------------------------------------------------------

/** The model bytes a request carried, as a Uint8Array. */
function toBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  throw new Error("no model bytes were given");
}

/** The message of whatever was thrown (the bundle throws Error objects; be lenient anyway). */
function messageOf(error) {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return String(error);
}
