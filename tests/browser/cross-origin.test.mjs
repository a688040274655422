// <puzzle-widget> embedded from another origin, as an author embeds it: the repository is served on
// one port (the widget's host, with the CORS headers scripts/serve.mjs sends), the author's page on
// another (a second origin) with `<script type="module" src="http://host/www/widget.js">`. Every
// mode plays and solves there: the sliding solver worker (and its pattern databases), a shipped
// neural model in the learning worker (its several-MB bundle and the model fetched across
// origins), 2048's agent, Minesweeper's solver, a Sudoku hint, and the dust and SameGame solvers.
// The same page again under the Content-Security-Policy docs/widget.md documents: nothing refused
// (no inline style, workers from blob: shims), and no console error on either.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, TEST_TIMEOUT_MS } from "./helpers.mjs";

const slow = { timeout: 4 * TEST_TIMEOUT_MS };

/** docs/widget.md's policy for a page that embeds the widget from `host` (an origin). */
export function widgetPolicy(host) {
  return [
    "default-src 'none'",
    `script-src ${host} 'wasm-unsafe-eval'`,
    `worker-src ${host} blob:`,
    `connect-src ${host}`,
    "style-src 'none'",
  ].join("; ");
}

/** The author's page: one widget of every mode, the script from `host`. */
function authorPage(host) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>An author's page on another origin</title>
    <link rel="icon" href="data:," />
    <script type="module" src="${host}/www/widget.js"></script>
  </head>
  <body>
    <h1>Embedded from elsewhere</h1>
    <puzzle-widget id="eight" size="3" start="1,2,3,4,5,6,_,7,8" speed="60"></puzzle-widget>
    <puzzle-widget id="fifteen" size="4x4" start="1,2,3,4,5,6,7,8,9,10,11,12,13,_,14,15" speed="60"></puzzle-widget>
    <puzzle-widget id="dqn" size="3" solver="dqn" start="1,2,3,4,_,6,7,5,8" speed="60"></puzzle-widget>
    <puzzle-widget id="g2048" puzzle="2048" agent="ntuple" seed="5" speed="60"></puzzle-widget>
    <puzzle-widget id="mines" puzzle="minesweeper" level="beginner" seed="7" speed="60"></puzzle-widget>
    <puzzle-widget id="sudoku" puzzle="sudoku" seed="1"></puzzle-widget>
    <puzzle-widget id="dust" puzzle="dust" start="1122/1212/2211" speed="60"></puzzle-widget>
    <puzzle-widget id="same" puzzle="samegame" seed="3" speed="60"></puzzle-widget>
  </body>
</html>
`;
}

let host;
let pages = [];
let folder;
let browser;

before(async () => {
  host = await startServer(0);
  folder = await mkdtemp(join(tmpdir(), "puzzlelab-author-"));
  await writeFile(join(folder, "index.html"), authorPage(host.origin));
  // The same page on two more origins: without a policy, and under the documented one (plus what
  // the page itself needs: its data: icon).
  pages = [await startServer(0, folder), await startServer(0, folder, { headers: { "Content-Security-Policy": `${widgetPolicy(host.origin)}; img-src data:` } })];
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}, slow);

after(async () => {
  await browser?.close().catch(() => {});
  for (const server of [host, ...pages]) await server?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
}, slow);

/** Opens the author's page of `server`; console errors (CSP violations among them) go to page.errors. */
async function openAuthorPage(server) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.errors = [];
  page.failed = [];
  page.workers = [];
  page.on("pageerror", (error) => page.errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && page.errors.push(message.text()));
  page.on("worker", (worker) => page.workers.push(worker.url()));
  page.on("response", (response) => response.status() >= 400 && page.failed.push(`${response.status()} ${response.url()}`));
  page.policy = (await page.goto(`${server.origin}/index.html`)).headers()["content-security-policy"] ?? null;
  await page.waitForFunction(() => {
    const widgets = [...document.querySelectorAll("puzzle-widget")];
    return widgets.length === 8 && widgets.every((widget) => widget.hasAttribute("ready"));
  }, null, { timeout: 60_000 });
  return page;
}

/** Every mode plays and solves on `page`; returns what the widgets showed. */
async function playEveryMode(page) {
  const call = (id, method, ...args) => page.evaluate(([id, method, args]) => document.getElementById(id)[method](...args), [id, method, args]);
  const state = (id) => page.evaluate((id) => document.getElementById(id).state, id);

  // Styled: the board has its size and grid (a refused style would leave rows of raw buttons).
  const layout = await page.evaluate(() => {
    const board = document.getElementById("eight").board;
    const tile = board.shadowRoot.querySelector(".tile");
    return { position: getComputedStyle(tile).position, height: board.getBoundingClientRect().height };
  });
  assert.equal(layout.position, "absolute", "the widget's styles apply");
  assert.ok(layout.height > 100, `the board is laid out (${layout.height} px)`);

  // Sliding: A* in the solver worker, IDA* over the pattern databases, a shipped model.
  const eight = await call("eight", "solve");
  assert.deepEqual([eight.length, eight.optimal], [2, true]);
  const fifteen = await call("fifteen", "solve");
  assert.deepEqual([fifteen.heuristic, fifteen.length], ["pdb-6-6-3", 2]);
  const dqn = await call("dqn", "solve");
  assert.deepEqual([dqn.length, dqn.optimal], [2, true], JSON.stringify(dqn));

  // 2048: a key, then the n-tuple agent plays.
  await page.click("#g2048 >> game2048-board");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowUp");
  assert.equal((await state("g2048")).moves >= 1, true);
  await call("g2048", "play");
  await page.waitForFunction(() => document.getElementById("g2048").state.moves >= 20, null, { timeout: 30_000 });
  await call("g2048", "pause");

  // Minesweeper: a click, then the solver finishes the game.
  await page.locator("#mines >> mines-board >> .cell[data-cell='40']").click();
  assert.notEqual((await state("mines")).status, "ready");
  await call("mines", "play");
  await page.waitForFunction(() => ["won", "lost"].includes(document.getElementById("mines").state.status), null, { timeout: 30_000 });

  // Sudoku: a hint names a step.
  const steps = await call("sudoku", "hint");
  assert.ok(Array.isArray(steps) && steps.length > 0, "a hint");

  // Dust and SameGame: their solver workers.
  const dust = await call("dust", "solve");
  assert.deepEqual([dust.cells.length, dust.optimal], [3, true], JSON.stringify(dust));
  await call("same", "play");
  await page.waitForFunction(() => document.getElementById("same").state.clicks >= 1, null, { timeout: 30_000 });

  return { eight, fifteen, dqn };
}

describe("<puzzle-widget> from another origin", () => {
  test("every mode plays and solves on an author's page of another origin", slow, async () => {
    const page = await openAuthorPage(pages[0]);
    await playEveryMode(page);
    // The workers ran from blob: shims on the author's origin; everything came from the host.
    assert.ok(page.workers.length >= 3 && page.workers.every((url) => url.startsWith("blob:")), `workers: ${page.workers}`);
    assert.deepEqual(page.failed, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the same page under docs/widget.md's Content-Security-Policy: nothing is refused", slow, async () => {
    const page = await openAuthorPage(pages[1]);
    assert.match(page.policy, /default-src 'none'/, "the page is served under the policy");
    await playEveryMode(page);
    assert.deepEqual(page.failed, []);
    assert.deepEqual(page.errors, [], "no CSP violation or other error");
    await page.context().close();
  });
});
