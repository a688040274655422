#!/usr/bin/env node
// First visit against second visit (www/common/asset-cache.js, www/service-worker.js), in Debian's
// Chromium, from a slow host (scripts/serve.mjs throttled: by default 40 ms before each answer, then
// 25 Mbit/s per file, no compression; the page, its workers and the service worker alike): the time
// to a playable board and the time to a loaded model, on the site's sliding
// page (service worker) and on an author's page of another origin that embeds the widget (the
// widget's own keeping, no service worker; its host sends the modules with the long-lived
// Cache-Control a versioned release is served with). Each run is a fresh browser profile on disk (a
// returning visitor's profile keeps its HTTP cache and the code Chromium compiled, which an
// in-memory context forgets): visit 1, wait
// until the files are kept (on the site, every file its service worker keeps after a first visit),
// visit 2. Writes JSON on stdout (medians and every run).
//
//   node scripts/bench-visits.mjs [--runs N] [--mbps M] [--latency MS] [--pages site,embedded] [--third] [--restart] [--warm]
//     # defaults 3, 25, 40, both pages; needs pkg/ built. --third: a third visit as well (Chromium
//     # keeps compiled code for scripts it ran from Cache Storage, which a second visit is the first to do)

import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "./serve.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, waitForAsync } from "../tests/browser/helpers.mjs";
import { authorPage } from "../tests/browser/author-page.mjs";
import { cpus } from "node:os";

/** The value after `flag` on the command line, or `fallback`. */
function option(flag, fallback) {
  const at = process.argv.indexOf(flag);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const RUNS = option("--runs", 3);
const MBPS = option("--mbps", 25);
/** The pages measured: --pages site,embedded (the default: both). */
const PAGES = (process.argv.includes("--pages") ? process.argv[process.argv.indexOf("--pages") + 1] : "site,embedded").split(",");
const THIRD = process.argv.includes("--third");
/** --restart: the browser is closed and started again between the visits, as a visitor who comes back another day finds it (no service worker running, nothing in memory). */
const RESTART = process.argv.includes("--restart");
/** --warm: one more visit, not measured, between the first and the second (Chromium then has compiled code for the scripts it ran from Cache Storage, which a second visit is otherwise the first to do). */
const WARM = process.argv.includes("--warm");
const THROTTLE = { latencyMs: option("--latency", 40), bytesPerSecond: (MBPS * 1e6) / 8 };

const server = await startServer(0, undefined, { throttle: THROTTLE });
const folder = await mkdtemp(join(tmpdir(), "puzzlelab-visits-"));
// The widget's host for the author's page: the same files, sent as a host of a versioned release
// would (docs/widget.md: cached for good), so the browser's HTTP cache keeps the modules.
const release = await startServer(0, undefined, { throttle: THROTTLE, headers: { "Cache-Control": "public, max-age=31536000, immutable" } });
await writeFile(join(folder, "index.html"), authorPage(`${release.origin}/www/widget.js`));
const author = await startServer(0, folder);
/**
 * A browser with a fresh profile in its own folder (removed by close()); restart() closes the
 * browser and starts it again on the same profile.
 */
async function freshProfile() {
  const profile = await mkdtemp(join(tmpdir(), "puzzlelab-profile-"));
  const browser = { context: await launch(profile) };
  browser.restart = async () => {
    await browser.context.close();
    browser.context = await launch(profile);
  };
  browser.close = async () => (await browser.context.close(), await rm(profile, { recursive: true, force: true }));
  return browser;
}

/** Chromium on `profile`, its pages marking the moment the sliding page says it is ready. */
async function launch(profile) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  // The moment the sliding page says it is ready, in the page's own clock (see sitePage).
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.documentElement?.dataset.ready !== "true") return;
      performance.mark("puzzlelab-ready");
      observer.disconnect();
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  });
  return context;
}
/** "156.0.8078.108": the version Chromium says it is (a persistent context has no Browser to ask). */
const browserVersion = execFileSync(CHROMIUM_PATH, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).match(/[\d.]+\d/)?.[0] ?? "unknown";


/** Milliseconds `work` takes. */
async function timed(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** The sliding page: to a playable board (the page says it is ready), then a solve by the shipped 8-puzzle model. */
async function sitePage(context) {
  const page = await context.newPage();
  const board = await timed(async () => {
    await page.goto(`${server.url}sliding.html#size=3x3&start=1,2,3,4,5,6,_,7,8`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true", null, { timeout: 120_000 });
  });
  // Where the page's time went, from its navigation: the first byte of the page (through the
  // service worker on a second visit), its modules loaded and run (DOMContentLoaded), ready.
  const phases = await page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0];
    return {
      response_ms: navigation.responseStart,
      modules_run_ms: navigation.domContentLoadedEventEnd,
      ready_ms: performance.getEntriesByName("puzzlelab-ready")[0]?.startTime ?? null,
    };
  });
  const model = await timed(() =>
    page.evaluate(async () => {
      const widget = document.querySelector("#board");
      widget.setAttribute("solver", "dqn");
      await new Promise((resolve) => setTimeout(resolve, 0));
      return widget.solve();
    }),
  );
  return { page, board_ms: board, model_ms: model, phases };
}

/** The author's page: to every widget ready, then the model widget's solve. */
async function embeddedPage(context) {
  const page = await context.newPage();
  const board = await timed(async () => {
    await page.goto(`${author.origin}/index.html`);
    await page.waitForFunction(() => [...document.querySelectorAll("puzzle-widget")].every((widget) => widget.hasAttribute("ready")), null, { timeout: 120_000 });
  });
  const model = await timed(() => page.evaluate(() => document.getElementById("dqn").solve()));
  return { page, board_ms: board, model_ms: model };
}

/**
 * Waits until `page`'s origin keeps the learning bundle, the 8-puzzle model and the core bundle,
 * and, with `siteCode` (the site's service worker), the rest of the site's code that the worker
 * keeps after a first visit (asset-cache.js isSiteCode: every file of the index but the models
 * and the learning bundle), so that the second visit does not share the browser with that
 * download, as a visitor's later visit would not.
 */
async function waitUntilKept(page, moduleUrl, siteCode) {
  await waitForAsync(
    page,
    async ([url, siteCode]) => {
      const { assetIndex, isSiteCode, keptFiles, publishedPaths } = await import(url);
      const kept = new Set((await keptFiles()).map((file) => file.path));
      const used = kept.has("pkg/learn/puzzlelab_bg.wasm") && kept.has("www/models/8puzzle.dqn") && kept.has("pkg/puzzlelab_bg.wasm");
      if (!used || !siteCode) return used;
      const paths = Object.keys((await assetIndex())?.files ?? {});
      // and published to the site cache, which the browser answers the pages from (static routes;
      // a version of the site before them has no publishedPaths)
      const published = publishedPaths ? await publishedPaths() : kept;
      return paths.every((path) => !isSiteCode(path) || (kept.has(path) && published.has(path)));
    },
    [moduleUrl, siteCode],
    { timeout: 120_000, polling: 500 },
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const results = {};
for (const [name, visit] of [["site", sitePage], ["embedded", embeddedPage]].filter(([name]) => PAGES.includes(name))) {
  const runs = [];
  for (let run = 0; run < RUNS; run += 1) {
    const browser = await freshProfile();
    const first = await visit(browser.context);
    await waitUntilKept(first.page, `${name === "site" ? server.origin : release.origin}/www/common/asset-cache.js`, name === "site");
    await first.page.close();
    if (WARM) await (await visit(browser.context)).page.close();
    if (RESTART) await browser.restart();
    const second = await visit(browser.context);
    await second.page.close();
    const third = THIRD ? await visit(browser.context) : null;
    await third?.page.close();
    await browser.close();
    const measured = (visit) => ({ board_ms: visit.board_ms, model_ms: visit.model_ms, ...(visit.phases && { phases: visit.phases }) });
    runs.push({ first: measured(first), second: measured(second), ...(third && { third: measured(third) }) });
  }
  const pick = (visitName, key) => median(runs.map((run) => run[visitName][key]));
  results[name] = {
    ...(THIRD && { third_board_ms: pick("third", "board_ms"), third_model_ms: pick("third", "model_ms") }),
    first_board_ms: pick("first", "board_ms"),
    second_board_ms: pick("second", "board_ms"),
    board_speedup: pick("first", "board_ms") / pick("second", "board_ms"),
    first_model_ms: pick("first", "model_ms"),
    second_model_ms: pick("second", "model_ms"),
    model_speedup: pick("first", "model_ms") / pick("second", "model_ms"),
    runs,
  };
}

await server.close();
await release.close();
await author.close();
await rm(folder, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      what: "first vs second visit: time to a playable board and to a solve by the shipped 8-puzzle model (medians of runs, each a fresh profile)",
      host: `scripts/serve.mjs throttled: ${THROTTLE.latencyMs} ms before each answer, then ${MBPS} Mbit/s per file, no compression`,
      runs: RUNS,
      second_visit: `${RESTART ? "after the browser was closed and started again on the same profile" : "in the same browser, right after the first"}${WARM ? ", with one more visit, not measured, before it" : ""}`,
      machine: `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Chromium ${browserVersion}`,
      date: new Date().toISOString(),
      ...results,
    },
    null,
    2,
  ),
);
