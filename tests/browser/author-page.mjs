// An author's page that embeds <puzzle-widget> from elsewhere, as tests/browser/cross-origin.test.mjs
// and release.test.mjs serve it: one widget of every mode, opened in Chromium, and every mode
// played and solved (the sliding solver worker and its pattern databases, a shipped model in the
// learning worker, 2048's agent, Minesweeper's solver, a Sudoku hint, the dust and SameGame
// solvers).

import assert from "node:assert/strict";

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

/**
 * The author's page: one widget of every mode, the script from `widgetUrl` (with `integrity`, its
 * Subresource Integrity, when given).
 */
export function authorPage(widgetUrl, integrity = null) {
  const checked = integrity ? ` integrity="${integrity}" crossorigin="anonymous"` : "";
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>An author's page on another origin</title>
    <link rel="icon" href="data:," />
    <script type="module" src="${widgetUrl}"${checked}></script>
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

/**
 * Opens the author's page at `url` in a new context of `browser` and waits for its widgets; console
 * errors (CSP violations among them) go to page.errors, responses of 400 or more to page.failed,
 * workers' URLs to page.workers, the page's Content-Security-Policy header to page.policy.
 */
export async function openAuthorPage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.errors = [];
  page.failed = [];
  page.workers = [];
  page.on("pageerror", (error) => page.errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && page.errors.push(message.text()));
  page.on("worker", (worker) => page.workers.push(worker.url()));
  page.on("response", (response) => response.status() >= 400 && page.failed.push(`${response.status()} ${response.url()}`));
  page.policy = (await page.goto(url)).headers()["content-security-policy"] ?? null;
  await page.waitForFunction(() => {
    const widgets = [...document.querySelectorAll("puzzle-widget")];
    return widgets.length === 8 && widgets.every((widget) => widget.hasAttribute("ready"));
  }, null, { timeout: 60_000 });
  return page;
}

/** Every mode plays and solves on `page`; returns what the widgets showed. */
export async function playEveryMode(page) {
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

