// What the page benchmarks (bench-minesweeper.mjs, bench-sudoku.mjs) share: the release puzzlelab
// binary for the native side, and a run in headless Chromium that writes its report as JSON.

import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, homedir } from "node:os";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT } from "../tests/browser/helpers.mjs";
import { startServer } from "./serve.mjs";

/**
 * The release puzzlelab: `explicit` (the --native option) when given, else the first found in
 * $CARGO_TARGET_DIR, $HOME/.cache/puzzlelab/target and target/; null when there is none.
 */
export function releaseBinary(explicit) {
  if (explicit) return explicit;
  const dirs = [process.env.CARGO_TARGET_DIR, join(homedir(), ".cache", "puzzlelab", "target"), join(REPOSITORY_ROOT, "target")];
  return dirs.filter(Boolean).map((d) => join(d, "release", "puzzlelab")).find((p) => existsSync(p)) ?? null;
}

/**
 * Starts the static server and headless Chromium, opens `page` (a path from the server's root,
 * such as "/www/sudoku.html") and waits until the app is ready, then calls
 * `measure({ page, report, binary })`. The report starts as { benchmark, date, machine, ...fields,
 * notes } and `measure` adds its results to it; `binary` is releaseBinary(native), and when it is
 * null the report notes that the native side was left out. Then closes everything, writes the
 * report as JSON to `out` and prints that path.
 */
export async function runPageBenchmark({ benchmark, page: path, fields, native, out }, measure) {
  const server = await startServer(0);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const report = {
    benchmark,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, browser: `Chromium ${browser.version()}` },
    ...fields,
    notes: [],
  };
  try {
    const page = await browser.newPage();
    await page.goto(new URL(path, server.url).href);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    const binary = releaseBinary(native);
    if (!binary) report.notes.push("no release puzzlelab binary: the native side was left out");
    await measure({ page, report, binary });
  } finally {
    await browser.close();
    await server.close();
  }
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(out);
}
