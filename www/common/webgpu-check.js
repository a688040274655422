// Whether WebGPU can train in this browser, asked from the learning worker (learn-worker.js): is
// there an adapter, what is it, and does it compute what the CPU computes (the bundle's cpuProbe
// and webgpuProbe: a small network's outputs and gradients after a few Adam steps on both
// backends, compared number by number).

import { errorMessage as messageOf } from "./worker-protocol.js";

/** "auto" trains on WebGPU only when its probe agrees with the CPU's this closely. */
const WEBGPU_TOLERANCE = 1e-3;
/** Adam steps of the probe that "auto" runs. */
const AUTO_PROBE_ADAM_STEPS = 3;
/** Why there is no WebGPU, in words, when the browser offers no adapter. */
const NO_ADAPTER =
  "the browser offers no WebGPU adapter (WebGPU may be switched off, or not supported on this device)";

/**
 * Whether WebGPU is there and computes what the CPU computes: { ok, message (with the technical
 * details), summary (the same in plain words), adapter }.
 */
export async function checkWebGpu(bundle) {
  const missing = await whyNoWebGpu();
  if (missing) return { ok: false, message: missing, summary: "This browser offers no graphics card to train on (WebGPU).", adapter: "" };
  const failed = "The graphics card (WebGPU) could not run a small test network.";
  const differs = "The graphics card (WebGPU) did not compute the same numbers as the CPU on a small test network.";
  let comparison;
  try {
    comparison = await runProbes(bundle, AUTO_PROBE_ADAM_STEPS);
  } catch (error) {
    return { ok: false, message: messageOf(error), summary: failed, adapter: "" };
  }
  const adapter = await adapterName();
  if (!comparison.finite) return { ok: false, message: "its probe computed numbers that are not finite", summary: differs, adapter };
  if (!(comparison.maxDifference <= WEBGPU_TOLERANCE)) {
    const difference = comparison.maxDifference.toExponential(1);
    return { ok: false, message: `its probe differs from the CPU's by ${difference} (more than ${WEBGPU_TOLERANCE})`, summary: differs, adapter };
  }
  const difference = comparison.maxDifference.toExponential(1);
  return {
    ok: true,
    message: `WebGPU agrees with the CPU (largest difference ${difference}).${productsNote(bundle)}`,
    summary: "The graphics card (WebGPU) works here.",
    adapter,
  };
}

/** Which kernel the WebGPU device multiplies with, as its set-up raced them (webgpuProducts). */
function productsNote(bundle) {
  const race = bundle.webgpuProducts();
  if (!race) return "";
  const ms = (value) => `${value.toPrecision(3)} ms`;
  return race.tiled
    ? ` Its matrix products use cubek's tiled kernel (${ms(race.tiledMs)} a product against ${ms(race.defaultMs)} for burn's default).`
    : ` Its matrix products use burn's default kernel (${ms(race.defaultMs)} a product against ${ms(race.tiledMs)} for cubek's tiled one).`;
}

/** Why WebGPU cannot be used at all (no API, no adapter), or "" when an adapter is offered. */
export async function whyNoWebGpu() {
  if (!navigator.gpu) return "this browser has no navigator.gpu";
  try {
    return (await navigator.gpu.requestAdapter()) ? "" : NO_ADAPTER;
  } catch (error) {
    return `the browser could not offer a WebGPU adapter (${messageOf(error)})`;
  }
}

/** A few words on the GPU ("google swiftshader"), or "" when the browser tells nothing. */
export async function adapterName() {
  try {
    const adapter = await navigator.gpu?.requestAdapter();
    const info = adapter?.info ?? {};
    return [info.vendor, info.architecture, info.description].filter(Boolean).join(" ").trim();
  } catch {
    return "";
  }
}

/**
 * Runs cpuProbe and webgpuProbe with `adamSteps` Adam steps: { cpu, webgpu, maxDifference (outputs
 * and gradients), outputsDifference, gradientsDifference, finite, ms: { cpu, webgpu } }.
 */
export async function runProbes(bundle, adamSteps) {
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
