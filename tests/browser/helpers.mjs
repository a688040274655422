// Shared set-up for the browser tests: the static server from scripts/serve.mjs on a free port,
// and Debian's Chromium driven by playwright-core (never a downloaded browser).

import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";

export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SCREENSHOT_DIR = join(REPOSITORY_ROOT, "target", "screenshots");

/**
 * Per-test limit; every test (and before/after hook) passes it to node:test. Suites (describe) get
 * none: node:test applies a suite's timeout to the whole suite, not to each of its tests.
 */
export const TEST_TIMEOUT_MS = 60_000;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--enable-unsafe-webgpu",
];

/**
 * Starts the server and a browser. playwright's launch() gives Chromium a fresh temporary
 * --user-data-dir and deletes it on close. Returns { url, browser, open, newPage, newWidgetPage,
 * close }.
 */
export async function startSession() {
  const server = await startServer(0);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const contexts = [];
  /** Opens `url` in a new context; page errors are collected in page.errors. */
  async function open(url, contextOptions, beforeGoto) {
    // The site's service worker (www/service-worker.js) is off unless a test asks for it: with it,
    // page.route() would not see the requests it answers. tests/browser/offline.test.mjs turns it on.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: "block", ...contextOptions });
    contexts.push(context);
    const page = await context.newPage();
    page.errors = [];
    page.on("pageerror", (error) => page.errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") page.errors.push(message.text());
    });
    await beforeGoto?.(page);
    await page.goto(url);
    return page;
  }
  return {
    url: server.url,
    browser,
    /**
     * Opens a page by its path from the server's root (such as "/www/2048.html") in a new context
     * (viewport 1280×900 unless `contextOptions` say otherwise) without waiting for anything else.
     * Page errors are collected in page.errors; `beforeGoto(page)` may set up routes, init scripts
     * or listeners before the page loads.
     */
    open(path, contextOptions = {}, { beforeGoto } = {}) {
      return open(new URL(path, server.url).href, contextOptions, beforeGoto);
    },
    /**
     * Opens the sliding page (optionally with a "#…" hash) in a new context and waits until the app
     * finished starting. Page errors are collected in page.errors. `beforeGoto(page)` may set up
     * routes or init scripts before the page loads.
     */
    async newPage(hash = "", contextOptions = {}, { beforeGoto } = {}) {
      const page = await open(`${server.url}sliding.html${hash}`, contextOptions, beforeGoto);
      await waitForApp(page);
      return page;
    },
    /**
     * Opens a page that embeds <puzzle-widget>s, by its path from the server's root (such as
     * "/www/embed.html"), and waits until every widget on it has loaded. Options as for newPage.
     */
    async newWidgetPage(path, contextOptions = {}, { beforeGoto } = {}) {
      const page = await open(new URL(path, server.url).href, contextOptions, beforeGoto);
      await page.waitForFunction(() => {
        const widgets = [...document.querySelectorAll("puzzle-widget")];
        return widgets.length > 0 && widgets.every((widget) => widget.hasAttribute("ready"));
      });
      return page;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.close();
    },
  };
}

/** Waits for the app to finish starting (or throws its load error). */
export async function waitForApp(page) {
  await page.waitForFunction(
    () => document.documentElement.dataset.ready === "true" || !document.querySelector("#load-error").hidden,
  );
  const loadError = await page.locator("#load-error").textContent();
  if (await page.locator("#load-error").isVisible()) throw new Error(`page failed to load: ${loadError}`);
}

/**
 * Waits until `predicate(arg)`, an async function run in `page`, resolves to a truthy value
 * (checked every `polling` ms, up to `timeout` ms); resolves to that value. page.waitForFunction
 * does not await a promise: it takes the promise itself for a truthy answer and returns at once.
 */
export async function waitForAsync(page, predicate, arg, { timeout = TEST_TIMEOUT_MS, polling = 250 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(predicate, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitForAsync: still false after ${timeout} ms: ${predicate.toString().slice(0, 200)}`);
    await new Promise((resolve) => setTimeout(resolve, polling));
  }
}

/**
 * Waits until the page's Learn card (`card`: its section) is set up: the pages set their cards up
 * after they are ready (the sliding page once it is idle), and the section then carries
 * data-learn-ready (common/learn-card.js).
 */
export async function waitForLearnCard(page, card = "#dqn") {
  await page.waitForFunction((selector) => document.querySelector(selector)?.dataset.learnReady === "true", card);
}

/**
 * The board as the DOM shows it, once slides have finished: labels row-major from where each
 * tile element actually sits on screen (0 = blank), next to the Puzzle's own board, the move
 * counter and the solved flag. `widget` selects the <puzzle-widget> (the page's own by default).
 */
export async function readBoard(page, widget = "#board") {
  return page.evaluate(async (selector) => {
    const board = document.querySelector(selector).board;
    await Promise.all(board.shadowRoot.getAnimations().map((animation) => animation.finished.catch(() => {})));
    const { rows, cols } = board.puzzle;
    const grid = board.shadowRoot.querySelector(".grid").getBoundingClientRect();
    const cellWidth = grid.width / cols;
    const cellHeight = grid.height / rows;
    const dom = new Array(rows * cols).fill(0);
    for (const tile of board.shadowRoot.querySelectorAll(".tile")) {
      const rect = tile.getBoundingClientRect();
      const col = Math.round((rect.left - grid.left) / cellWidth);
      const row = Math.round((rect.top - grid.top) / cellHeight);
      dom[row * cols + col] = Number(tile.dataset.label);
    }
    return {
      rows,
      cols,
      dom,
      model: Array.from(board.puzzle.board()),
      texts: Array.from(board.shadowRoot.querySelectorAll(".tile"), (tile) => tile.textContent),
      moves: Number(board.shadowRoot.querySelector("[part=moves] strong").textContent),
      solved: board.hasAttribute("solved"),
      bannerVisible: !board.shadowRoot.querySelector("[part=banner]").hidden,
    };
  }, widget);
}

/** Clicks the tile element that sits in cell `index` (row-major) of a widget's board. */
export async function clickCell(page, index, widget = "#board") {
  await page.locator(`${widget} sliding-board .tile[data-index="${index}"]`).click();
}

/** Sets a range input's value the way a person dragging it would (input event). */
export async function setRange(page, selector, value) {
  await page.locator(selector).evaluate((input, wanted) => {
    input.value = String(wanted);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);
}

/** Sets the puzzle through the custom start/goal form. */
export async function setCustomStart(page, start, goal = "") {
  await page.fill("#start-input", start);
  await page.fill("#goal-input", goal);
  await page.click("#apply-custom");
}

/** Index of the fastest entry of player.js SPEEDS (the speed slider's maximum). */
export const FASTEST_SPEED = 10;

/** Chooses `algorithm` and `heuristic` (when enabled), then solves as solveAsChosen does. */
export async function solveAndWait(page, algorithm, heuristic = "manhattan") {
  await page.selectOption("#algorithm", algorithm);
  if (!(await page.locator("#heuristic").isDisabled())) await page.selectOption("#heuristic", heuristic);
  return solveAsChosen(page);
}

/** Clicks Solve with the choices the page shows and waits for the stats of a finished run; returns them. */
export async function solveAsChosen(page, { timeout = 45_000 } = {}) {
  await page.click("#solve");
  await page.locator("#stats").waitFor({ state: "visible", timeout });
  return page.evaluate(() => {
    const stats = document.querySelector("#stats");
    const text = (selector) => document.querySelector(selector).textContent;
    return {
      status: stats.dataset.status,
      length: Number(stats.dataset.length),
      optimal: stats.dataset.optimal === "true",
      heuristic: stats.dataset.heuristic,
      lowerBound: Number(stats.dataset.lowerBound),
      moves: text("#stat-moves"),
      nodes: text("#stat-nodes"),
      time: text("#stat-time"),
      optimalText: text("#stat-optimal"),
      boundShown: !document.querySelector("#stat-bound").parentElement.hidden,
      boundText: text("#stat-bound"),
      lowerBoundText: text("#stat-lower-bound"),
      statusText: text("#solver-status"),
    };
  });
}

/** Waits until the solution player has played all `length` moves and the board shows the goal. */
export async function waitUntilPlayedAndSolved(page, length, timeout = 30_000) {
  await page.waitForFunction(
    (expected) =>
      document.querySelector("#player [data-player=position]").textContent === `Step ${expected} of ${expected}` &&
      document.querySelector("#board").board.hasAttribute("solved"),
    length,
    { timeout },
  );
}

/** Before a page loads (a beforeGoto): remembers every request of the page and its workers in page.requests. */
export async function recordRequests(page) {
  page.requests = [];
  page.context().on("request", (request) => page.requests.push(new URL(request.url()).pathname));
}

/** How many pixels a canvas has drawn (not fully transparent). */
export async function canvasInk(page, selector) {
  return page.locator(selector).evaluate((canvas) => {
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    let inked = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked += 1;
    return inked;
  });
}

/** Numbers from text such as "1,234 nodes". */
export function parseCount(text) {
  return Number(String(text).replace(/[^0-9]/g, ""));
}

export async function screenshotPath(name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, name);
}

/** Goal of a numbered rows×cols board as the page writes it (commas, _ for the blank). */
export function standardGoalText(rows, cols) {
  const cells = rows * cols;
  return Array.from({ length: cells }, (_, i) => (i === cells - 1 ? "_" : String(i + 1))).join(",");
}

/** The hash that reproduces a numbered puzzle. */
export function hashFor(rows, cols, start, goal = standardGoalText(rows, cols)) {
  return `#size=${rows}x${cols}&start=${start}&goal=${goal}`;
}
