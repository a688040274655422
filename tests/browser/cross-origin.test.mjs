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
import { authorPage, openAuthorPage, playEveryMode, widgetPolicy } from "./author-page.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, TEST_TIMEOUT_MS } from "./helpers.mjs";

const slow = { timeout: 4 * TEST_TIMEOUT_MS };

let host;
let pages = [];
let folder;
let browser;

before(async () => {
  host = await startServer(0);
  folder = await mkdtemp(join(tmpdir(), "puzzlelab-author-"));
  await writeFile(join(folder, "index.html"), authorPage(`${host.origin}/www/widget.js`));
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

describe("<puzzle-widget> from another origin", () => {
  test("every mode plays and solves on an author's page of another origin", slow, async () => {
    const page = await openAuthorPage(browser, `${pages[0].origin}/index.html`);
    await playEveryMode(page);
    // The workers ran from blob: shims on the author's origin; everything came from the host.
    assert.ok(page.workers.length >= 3 && page.workers.every((url) => url.startsWith("blob:")), `workers: ${page.workers}`);
    assert.deepEqual(page.failed, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the same page under docs/widget.md's Content-Security-Policy: nothing is refused", slow, async () => {
    const page = await openAuthorPage(browser, `${pages[1].origin}/index.html`);
    assert.match(page.policy, /default-src 'none'/, "the page is served under the policy");
    await playEveryMode(page);
    assert.deepEqual(page.failed, []);
    assert.deepEqual(page.errors, [], "no CSP violation or other error");
    await page.context().close();
  });
});
