#!/usr/bin/env node
// How fast Mehta's 2048 network learns from the n-tuple agent's demonstrations in a tab: opens the
// 2048 page in headless Chromium, opens its deep Q-network card, presses *From demonstrations*
// (www/2048/dqn-panel.js's preset: 64/64 filters, 10 demonstrated games, pre-training, then
// self-play), trains on the chosen backend for --minutes, and records what a user sees: every
// in-training evaluation (steps, seconds since Train, mean score, share of games reaching 512, 1024
// and 2048, the network's agreement with the demonstrator), the start's stages and when an
// evaluation first reached 1024 and 2048. Writes JSON (target/bench/2048-demonstrations.json by
// default). Timings only: nothing here passes or fails.
//
//   node scripts/bench-2048-demonstrations.mjs [--minutes 10] [--backend cpu|webgpu|auto] [--out FILE]
//
// Needs pkg/ and pkg/learn/ (bash scripts/build-wasm.sh all).

import { join } from "node:path";
import { REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { runPageBenchmark } from "./page-benchmark.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const minutes = Number(args.minutes ?? 10);
const backend = args.backend ?? "cpu";
const out = args.out ?? join(REPOSITORY_ROOT, "target", "bench", "2048-demonstrations.json");
if (!(minutes > 0)) throw new Error("--minutes must be a positive number");

/** "1,234" → 1234. */
const number = (text) => Number(text.replaceAll(",", ""));

await runPageBenchmark({ benchmark: "2048-demonstrations", page: "/www/2048.html", fields: { minutes, backend }, out }, async ({ page, report }) => {
  await page.locator("#dqn-2048 > summary").click();
  await page.click("#d2048-from-demonstrations");
  await page.selectOption("#d2048-backend", backend);
  report.settings = await page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll(".d2048-form input, .d2048-form select")].map((input) => [input.id.replace(/^d2048-/, ""), input.type === "checkbox" ? input.checked : input.value])),
  );
  await page.click("#d2048-start");
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  report.evaluations = [];
  report.firstReached = { 1024: null, 2048: null };
  let seen = 0;
  while (Date.now() - started < minutes * 60_000) {
    await page.waitForTimeout(1000);
    const now = await page.evaluate(() => ({
      validations: Number(document.querySelector("#d2048-stats").dataset.validations ?? 0),
      steps: Number(document.querySelector("#d2048-stats").dataset.steps ?? 0),
      status: document.querySelector("#d2048-status").textContent,
      agreement: document.querySelector("#d2048-stat-agreement").textContent,
      error: document.querySelector("#d2048-error").hidden ? "" : document.querySelector("#d2048-error").textContent,
    }));
    if (now.error) throw new Error(`training failed: ${now.error}`);
    if (Math.floor(seconds()) % 30 === 0) console.error(`${seconds()} s, ${now.steps} steps: ${now.status}`);
    if (now.validations === seen) continue;
    seen = now.validations;
    const last = now.status.match(/Last evaluation \(([\d,]+) games? at ([\d,]+) steps\): mean score ([\d,]+), 512 reached in ([\d.]+)%, 1024 in ([\d.]+)%, 2048 in ([\d.]+)%/);
    if (!last) continue;
    const evaluation = {
      seconds: seconds(),
      steps: number(last[2]),
      games: number(last[1]),
      meanScore: number(last[3]),
      reach: { 512: Number(last[4]), 1024: Number(last[5]), 2048: Number(last[6]) },
      agreement: now.agreement,
    };
    report.evaluations.push(evaluation);
    for (const tile of [1024, 2048]) if (report.firstReached[tile] === null && evaluation.reach[tile] > 0) report.firstReached[tile] = { seconds: evaluation.seconds, steps: evaluation.steps };
    console.error(JSON.stringify(evaluation));
  }
  await page.click("#d2048-stop");
  await page.waitForFunction(() => document.querySelector("#dqn-2048").dataset.state === "stopped", null, { timeout: 120_000 });
  report.steps = number(await page.locator("#d2048-stat-steps").textContent());
  report.seconds = seconds();
  report.start = await page.locator("#d2048-tech-lines").textContent();
});
