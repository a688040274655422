// Second visits and offline (www/common/asset-cache.js, www/service-worker.js): after one visit to
// the sliding page that solved with the shipped neural model, the files are kept under their
// checksums, and with the network gone the page loads again, plays, solves by search and by the
// model. The home page lists what is kept and forgets it, also while an earlier listing is still
// reading the cache (that listing once brought the old list back after Forget them). A widget
// embedded on another origin (no service worker there) keeps the WebAssembly and the model too:
// its second visit downloads neither. A file whose checksum changes is fetched again. A page loads
// from the kept files without waiting for the host's index, and says when the host has a newer
// version (target/screenshots/site-update.png); every open page is told, and after the notice a
// reload has the host's changed file; a version that cannot be kept whole is not published (no
// notice, the site still opens offline). In Chromium a second visit's page, modules, workers and core bundle come from the site
// cache by static routes, without the service worker (resource timing says which route answered),
// and a worker that replaces one from before static routes fills that cache at once, so the site
// still opens offline; where the browser refuses the routes, no second copy is kept and the site
// opens offline through the worker.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { authorPage } from "./author-page.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, REPOSITORY_ROOT, TEST_TIMEOUT_MS, screenshotPath, waitForApp, waitForAsync } from "./helpers.mjs";

const slow = { timeout: 4 * TEST_TIMEOUT_MS };
/** 2 moves from the 3×3 goal. */
const NEAR_GOAL = "#size=3x3&start=1,2,3,4,5,6,_,7,8";

let server;
let browser;
let folder;
let authorServer;

before(async () => {
  server = await startServer(0);
  folder = await mkdtemp(join(tmpdir(), "puzzlelab-offline-"));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}, slow);

after(async () => {
  await browser?.close().catch(() => {});
  await server?.close();
  await authorServer?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
}, slow);

/**
 * A route handler whose failure is ignored: one still answering when its test closes the context
 * (the service worker reads the index in the background) must not fail the file afterwards.
 */
const guarded = (handler) => (route) => handler(route).catch(() => {});

/** A page of a new context (service workers allowed) whose errors go to page.errors. */
async function newPage(context) {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && page.errors.push(message.text()));
  return page;
}

/** A first visit in a new context: the sliding page near its goal, ready, its service worker active. */
async function firstVisit() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await newPage(context);
  await page.goto(`${server.url}sliding.html${NEAR_GOAL}`);
  await waitForApp(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  return { context, page };
}

/**
 * Waits until the site's files at `paths` (the index's paths) are kept, and those the browser
 * answers by address (asset-cache.js isSiteCode) are in the site cache too.
 */
function waitUntilKept(page, paths) {
  return waitForAsync(
    page,
    async (paths) => {
      const { isSiteCode, keptFiles, publishedPaths } = await import("./common/asset-cache.js");
      const kept = new Set((await keptFiles()).map((file) => file.path));
      const published = await publishedPaths();
      return paths.every((path) => kept.has(path) && (!isSiteCode(path) || published.has(path)));
    },
    paths,
    { timeout: 60_000, polling: 500 },
  );
}

/** Solves the sliding page's board with `solver`; resolves to the solution's detail. */
function solveWith(page, solver) {
  return page.evaluate((name) => {
    const board = document.querySelector("#board");
    board.setAttribute("solver", name);
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => board.solve());
  }, solver);
}

/**
 * A copy of the site (www/ and pkg/) in `name` under the test's folder whose service worker is
 * `edit(the real one's text)`, served by a server of its own (its own origin: its own storage).
 */
async function siteWithWorker(name, edit) {
  const copy = join(folder, name);
  await cp(join(REPOSITORY_ROOT, "www"), join(copy, "www"), { recursive: true });
  await cp(join(REPOSITORY_ROOT, "pkg"), join(copy, "pkg"), { recursive: true });
  const real = await readFile(join(REPOSITORY_ROOT, "www", "service-worker.js"), "utf8");
  const worker = edit(real);
  assert.notEqual(worker, real, "the worker was changed");
  await writeFile(join(copy, "www", "service-worker.js"), worker);
  return startServer(0, copy);
}

/** A page of `context` at `url` once its service worker says it kept the site's code ({ type: "kept" }). */
async function visitUntilKept(context, url) {
  const page = await newPage(context);
  await page.addInitScript(() => navigator.serviceWorker.addEventListener("message", (event) => event.data?.type === "kept" && (window.keptSaid = true)));
  await page.goto(url);
  await waitForApp(page);
  await page.waitForFunction(() => window.keptSaid === true, null, { timeout: 60_000 });
  return page;
}

/**
 * With `context` offline, the sliding page near its goal at `url` loads in a new page and solves by
 * search; resolves to what answered its navigation (workerFinalSourceType: "cache", a static route).
 */
async function openOffline(context, url) {
  await context.setOffline(true);
  const page = await newPage(context);
  await page.goto(url);
  await waitForApp(page);
  assert.equal((await solveWith(page, "astar")).length, 2, "search offline");
  assert.deepEqual(page.errors.filter((message) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(message)), []);
  return page.evaluate(() => performance.getEntriesByType("navigation")[0].workerFinalSourceType);
}

describe("second visits and offline", () => {
  test("after one visit the sliding page loads, plays and solves (search and model) offline; the home page lists what is kept and forgets it", slow, async () => {
    const { context, page } = await firstVisit();
    // A search solve and a model solve load the solver worker, the learning bundle and the model.
    assert.equal((await solveWith(page, "astar")).length, 2);
    assert.equal((await solveWith(page, "dqn")).length, 2);
    // Kept in the background once each file's checksum is checked.
    const wanted = ["www/sliding.html", "www/widget.js", "pkg/puzzlelab_bg.wasm", "pkg/learn/puzzlelab_bg.wasm", "www/models/8puzzle.dqn", "www/sliding/solver-worker.js"];
    await waitUntilKept(page, wanted);
    // The home page, visited once online, so that it too is there offline.
    await page.goto(server.url);
    await waitForApp(page);

    // The solves above played their solution: this tab would carry those moves on (a reload plays
    // them again), so they are forgotten, for the board of the link.
    await page.evaluate(() => sessionStorage.clear());
    await context.setOffline(true);
    await page.goto(`${server.url}sliding.html${NEAR_GOAL}`);
    await waitForApp(page);
    assert.equal((await solveWith(page, "astar")).length, 2, "search offline");
    const model = await solveWith(page, "dqn");
    assert.deepEqual([model.length, model.optimal], [2, true], "the model offline");
    const before = await page.evaluate(() => document.querySelector("#board").state.moves);
    await page.locator("#board sliding-board .tile[data-index='7']").click();
    assert.equal(await page.evaluate(() => document.querySelector("#board").state.moves), before + 1, "plays offline");

    // The home page offline: it lists the kept files, and Forget them empties the list.
    await page.goto(server.url);
    await waitForApp(page);
    await page.click("#kept-details summary");
    await page.waitForFunction(() => document.querySelectorAll("#kept-list li").length > 0);
    const listed = await page.locator("#kept-list li").allTextContents();
    for (const path of wanted) assert.ok(listed.some((line) => line.startsWith(`${path} · `)), `${path} is listed`);
    assert.match(await page.locator("#kept-summary").textContent(), /^\d+ files kept, \d+\.\d MB, and a second copy of the site's code \(\d+\.\d MB\) that lets its pages open sooner\.$/);
    await page.click("#kept-clear");
    await page.waitForFunction(() => document.querySelector("#kept-summary").textContent === "Nothing is kept yet.");
    assert.equal(await page.locator("#kept-list li").count(), 0);
    assert.equal(await page.locator("#kept-clear").isDisabled(), true);
    assert.deepEqual(page.errors.filter((message) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(message)), []);
    await context.close();
  });

  test("a first visit to the home page lists the files once its service worker has kept them", slow, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await newPage(context);
    await page.goto(server.url);
    await waitForApp(page);
    // The worker keeps the site's code after the page has loaded, and says so: the card follows
    // without a reload (it had stayed at what was kept when the page loaded, or at "Nothing is
    // kept yet.").
    await waitUntilKept(page, ["www/index.html", "www/home/home.js", "www/sudoku/app.js", "www/minesweeper/board.js"]);
    const count = async () => (await page.evaluate(async () => (await (await import("./common/asset-cache.js")).keptFiles()).length));
    await waitForAsync(
      page,
      async () => {
        const { keptFiles } = await import("./common/asset-cache.js");
        return document.querySelector("#kept-summary").textContent.startsWith(`${(await keptFiles()).length} files kept, `);
      },
      undefined,
      { timeout: 10_000, polling: 200 },
    );
    assert.ok((await count()) > 30, "the site's code is kept");
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test("Forget them empties the list even while an earlier listing is still reading the cache", slow, async () => {
    const { context, page } = await firstVisit();
    await waitUntilKept(page, ["www/sliding.html"]);
    // On the home page, a listing started while window.slowKeys is set reads the cache's keys
    // 3 s late: the one that opening the list starts, not the one Forget them starts.
    await page.addInitScript(() => {
      const keys = Cache.prototype.keys;
      Cache.prototype.keys = function (...args) {
        const late = window.slowKeys;
        return keys.apply(this, args).then((found) => (late ? new Promise((resolve) => setTimeout(() => resolve(found), 3000)) : found));
      };
    });
    await page.goto(server.url);
    await waitForApp(page);
    await page.waitForFunction(() => /^\d+ files kept/.test(document.querySelector("#kept-summary").textContent));
    await page.evaluate(() => (window.slowKeys = true));
    await page.click("#kept-details summary");
    await page.evaluate(() => (window.slowKeys = false));
    await page.click("#kept-clear");
    await page.waitForFunction(() => document.querySelector("#kept-summary").textContent === "Nothing is kept yet.");
    // The slow listing has ended by now; it must not have brought the old list back.
    await page.waitForTimeout(4000);
    assert.equal(await page.locator("#kept-summary").textContent(), "Nothing is kept yet.");
    assert.equal(await page.locator("#kept-list li").count(), 0);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test("a page loads from the kept files without waiting for the host's index, and offers a reload when the host has a newer version", slow, async () => {
    const { context, page } = await firstVisit();
    await waitUntilKept(page, ["www/sliding.html", "www/sliding/app.js", "www/common/site-nav.js", "pkg/puzzlelab_bg.wasm"]);
    assert.equal(await page.locator(".site-update").count(), 0, "no newer version on the first visit");
    await page.close();

    // The host now has a newer version of one file (the README: no page loads it), and answers
    // its index 5 s late.
    const readme = `${await (await fetch(`${server.url}README.md?raw`)).text()}\nA newer line.\n`;
    await context.route("**/www/README.md", guarded(async (route) => route.fulfill({ status: 200, contentType: "text/markdown; charset=utf-8", body: readme })));
    const answered = [];
    await context.route("**/pkg/asset-index.json", guarded(async (route) => {
      const response = await route.fetch();
      const index = await response.json();
      index.files["www/README.md"] = createHash("sha256").update(readme).digest("hex");
      await new Promise((resolve) => setTimeout(resolve, 5000));
      answered.push(Date.now());
      await route.fulfill({ response, json: index });
    }));
    const second = await newPage(context);
    await second.goto(`${server.url}sliding.html${NEAR_GOAL}`);
    await waitForApp(second);
    assert.equal(answered.length, 0, "the page is ready before the host's index is answered");
    await second.locator(".site-update").waitFor({ timeout: 30_000 });
    assert.match(await second.locator(".site-update").textContent(), /A newer version of puzzlelab is here: reload to use it/);
    await second.screenshot({ path: await screenshotPath("site-update.png"), clip: { x: 0, y: 0, width: 1280, height: 400 } });
    assert.ok(answered.length > 0);
    // The page loaded from the kept version plays and solves.
    assert.equal((await solveWith(second, "astar")).length, 2);

    // Reloading uses the newer index: no notice once the host has answered again.
    const before = answered.length;
    await second.locator(".site-update button").click();
    await waitForApp(second);
    const deadline = Date.now() + 30_000;
    while (answered.length === before && Date.now() < deadline) await second.waitForTimeout(200);
    assert.ok(answered.length > before, "the reload's index was read");
    await second.waitForTimeout(1000);
    assert.equal(await second.locator(".site-update").count(), 0, "no notice after the reload");
    assert.deepEqual(second.errors, []);
    await context.close();
  });

  test("a second visit's page, its modules, workers and core bundle come from the site cache without the service worker (static routes); models through it", slow, async () => {
    const { context, page } = await firstVisit();
    assert.equal((await solveWith(page, "dqn")).length, 2);
    await waitUntilKept(page, ["www/sliding.html", "www/sliding/app.js", "www/widget.js", "pkg/puzzlelab.js", "pkg/puzzlelab_bg.wasm", "www/models/8puzzle.dqn"]);
    await page.close();
    const second = await newPage(context);
    await second.goto(`${server.url}sliding.html${NEAR_GOAL}`);
    await waitForApp(second);
    assert.equal((await solveWith(second, "dqn")).length, 2);
    // Chromium's resource timing says which route answered each request (workerFinalSourceType:
    // "cache", the site cache with no worker; "fetch-event", the service worker; "" when no route
    // was asked, as for a module a worker's start asked for again) and whence (deliveryType).
    const routes = await second.evaluate(() => {
      const routes = {};
      for (const entry of [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]) {
        const path = new URL(entry.name).pathname.replace(/^.*?\/(www|pkg)\//, "$1/");
        (routes[path] ??= []).push(`${entry.workerFinalSourceType}:${entry.deliveryType}`);
      }
      return routes;
    });
    const site = ["www/sliding.html", "www/sliding/app.js", "www/widget.js", "www/common/site-nav.js", "www/sliding/solver-worker.js", "www/common/learn-worker.js", "pkg/puzzlelab.js", "pkg/puzzlelab_bg.wasm"];
    for (const path of site) assert.ok(routes[path]?.includes("cache:cache-storage"), `${path} from the site cache: ${JSON.stringify(routes)}`);
    for (const [path, sources] of Object.entries(routes)) {
      if (path.startsWith("www/models/")) assert.ok(sources.every((source) => source.startsWith("fetch-event:")), `${path} through the service worker: ${sources}`);
      else if (path !== "pkg/asset-index.json") assert.ok(sources.every((source) => /^(cache)?:cache-storage$/.test(source)), `${path} from the site cache: ${sources}`);
    }
    assert.ok(routes["www/models/dqn-index.json"], "the models' index was asked for");
    assert.deepEqual(second.errors, []);
    await context.close();
  });

  test("a service worker that replaces one without static routes fills the site cache from the kept files: the site opens offline from it at once", slow, async () => {
    // The first visit's host serves a worker as it was before static routes (it keeps, routes
    // nothing); then the same origin, another server on the same port, serves this one, found by
    // an update check.
    const oldHost = await siteWithWorker("old-site", (real) => real.replace('const ROUTES = "addRoutes" in', "const ROUTES = false && "));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await visitUntilKept(context, `${oldHost.url}sliding.html${NEAR_GOAL}`);
    const held = () => page.evaluate(async () => (await (await import("./common/asset-cache.js")).publishedPaths()).size);
    assert.equal(await held(), 0, "the old worker left no site cache");
    await oldHost.close();

    const newHost = await startServer(oldHost.port);
    try {
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
      await waitForAsync(page, async () => (await (await import("./common/asset-cache.js")).publishedPaths()).size > 30, undefined, { timeout: 30_000, polling: 250 });
      assert.equal(await openOffline(context, `${newHost.url}sliding.html${NEAR_GOAL}`), "cache", "the page from the site cache");
    } finally {
      await context.close();
      await newHost.close();
    }
  });

  test("where the browser refuses the static routes, no second copy of the site is kept, and the site still opens offline through the worker", slow, async () => {
    // A host whose worker has its routes refused (as an older Chromium without routes to a cache does).
    const host = await siteWithWorker("refused-site", (real) => real.replace("event.addRoutes(routes)", 'Promise.reject(new TypeError("refused"))'));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await visitUntilKept(context, `${host.url}sliding.html${NEAR_GOAL}`);
      // The page's idle check too, which would publish where the routes were taken.
      await page.waitForTimeout(2_000);
      const copy = await page.evaluate(async () => ({ site: await caches.has("puzzlelab-site"), bytes: await (await import("./common/asset-cache.js")).siteCopyBytes() }));
      assert.deepEqual(copy, { site: false, bytes: 0 }, "no copy of the site's code");
      assert.notEqual(await openOffline(context, `${host.url}sliding.html${NEAR_GOAL}`), "cache", "the page through the worker, not a route");
    } finally {
      await context.close();
      await host.close();
    }
  });

  test("when the host changes a file the pages load, every open page is told, and the next load after the notice has the new file", slow, async () => {
    const { context, page } = await firstVisit();
    await waitUntilKept(page, ["www/sliding.html", "www/sliding/sliding.css", "www/common/site-nav.js"]);
    // The host's new version: sliding.css with one more rule, under its new checksum.
    const changed = await (await fetch(`${server.url}sliding/sliding.css`)).text().then((text) => `${text}\n:root { --puzzlelab-version: 2; }\n`);
    const hash = createHash("sha256").update(changed).digest("hex");
    await context.route("**/www/sliding/sliding.css", guarded(async (route) => route.fulfill({ status: 200, contentType: "text/css; charset=utf-8", body: changed })));
    await context.route("**/pkg/asset-index.json", guarded(async (route) => {
      const response = await route.fetch();
      const index = await response.json();
      index.files["www/sliding/sliding.css"] = hash;
      await route.fulfill({ response, json: index });
    }));
    const version = (page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--puzzlelab-version").trim());
    const second = await newPage(context);
    await second.goto(`${server.url}sliding.html${NEAR_GOAL}`);
    await waitForApp(second);
    assert.equal(await version(second), "", "loaded from the version kept");
    await second.locator(".site-update").waitFor({ timeout: 30_000 });
    // The first page, still open on the version before, is told too.
    await page.locator(".site-update").waitFor({ timeout: 10_000 });
    await second.locator(".site-update button").click();
    await waitForApp(second);
    assert.equal(await version(second), "2", "the reload has the host's new file");
    // from the site cache, which holds the new version (static routes)
    const sources = await second.evaluate(() =>
      [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
        .filter((entry) => /\/sliding(\.html|\/sliding\.css)$/.test(new URL(entry.name).pathname))
        .map((entry) => entry.workerFinalSourceType),
    );
    assert.deepEqual(sources, ["cache", "cache"]);
    assert.deepEqual(second.errors, []);
    await context.close();
  });

  test("a version the worker could not keep whole is not published: no notice, and the site still opens offline", slow, async () => {
    const { context, page } = await firstVisit();
    await waitUntilKept(page, ["www/sliding.html", "www/sliding/app.js", "www/README.md"]);
    await page.close();
    // The host lists a README whose bytes never match its checksum (it cannot be kept).
    let read = 0;
    await context.route("**/pkg/asset-index.json", guarded(async (route) => {
      const response = await route.fetch();
      const index = await response.json();
      index.files["www/README.md"] = "0".repeat(64);
      read += 1;
      await route.fulfill({ response, json: index });
    }));
    const second = await newPage(context);
    await second.goto(`${server.url}sliding.html${NEAR_GOAL}`);
    await waitForApp(second);
    const deadline = Date.now() + 30_000;
    while (read === 0 && Date.now() < deadline) await second.waitForTimeout(200);
    assert.ok(read > 0, "the host's index was read");
    await second.waitForTimeout(3000);
    assert.equal(await second.locator(".site-update").count(), 0, "no notice for a version not kept whole");
    const published = await second.evaluate(async () => (await (await import("./common/asset-cache.js")).publishedIndex())?.files["www/README.md"]);
    assert.notEqual(published, "0".repeat(64), "the version published is still the whole one");
    await context.setOffline(true);
    const third = await newPage(context);
    await third.goto(`${server.url}sliding.html${NEAR_GOAL}`);
    await waitForApp(third);
    assert.equal((await solveWith(third, "astar")).length, 2, "search offline");
    await context.close();
  });

  test("a widget embedded on another origin keeps the WebAssembly and the model: the second visit downloads neither", slow, async () => {
    await writeFile(join(folder, "index.html"), authorPage(`${server.origin}/www/widget.js`));
    authorServer = await startServer(0, folder);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const downloads = [];
    context.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (/\.(wasm|dqn|gz)$/.test(pathname)) downloads.push(pathname);
    });
    const visit = async () => {
      const page = await newPage(context);
      await page.goto(`${authorServer.origin}/index.html`);
      await page.waitForFunction(() => [...document.querySelectorAll("puzzle-widget")].every((widget) => widget.hasAttribute("ready")), null, { timeout: 60_000 });
      const solution = await page.evaluate(() => document.getElementById("dqn").solve());
      assert.equal(solution.length, 2);
      assert.equal((await page.evaluate(() => document.getElementById("fifteen").solve())).length, 2);
      return page;
    };
    const first = await visit();
    for (const path of ["/pkg/puzzlelab_bg.wasm", "/pkg/learn/puzzlelab_bg.wasm", "/www/models/8puzzle.dqn", "/www/models/pdb-4x4-6-6-3-standard.pdb.gz"]) {
      assert.ok(downloads.includes(path), `the first visit downloads ${path}`);
    }
    // Kept on the author's origin once checked.
    await waitForAsync(
      first,
      async (host) => {
        const { keptFiles } = await import(`${host}/www/common/asset-cache.js`);
        return (await keptFiles()).length >= 4;
      },
      server.origin,
      { timeout: 60_000, polling: 500 },
    );
    await first.close();
    downloads.length = 0;
    const second = await visit();
    assert.deepEqual(downloads, [], "the second visit downloads no WebAssembly, model or database");
    assert.deepEqual(second.errors, []);
    await second.close();

    // The host's core bundle changes (its checksum in the index): the next visit fetches it again.
    await context.route("**/pkg/asset-index.json", guarded(async (route) => {
      const response = await route.fetch();
      const index = await response.json();
      index.files["pkg/puzzlelab_bg.wasm"] = "0".repeat(64);
      await route.fulfill({ response, json: index });
    }));
    downloads.length = 0;
    const third = await visit();
    assert.ok(downloads.length > 0 && downloads.every((path) => path === "/pkg/puzzlelab_bg.wasm"), `only the changed file is downloaded (by the page and each worker that loads it): ${downloads}`);
    assert.deepEqual(third.errors, []);
    await context.close();
  });
});
