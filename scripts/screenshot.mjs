// Writes docs/images/page.png, the README's picture of the page: starts the static server of
// scripts/serve.mjs on a free port, opens /www/sliding.html in Debian's Chromium (never a downloaded
// browser) with the browser tests' flags, shuffles, solves, and photographs the page once the
// solution is shown. Needs the wasm bundles in pkg/ (./scripts/serve.sh or ./scripts/test.sh builds them).
//
//   node scripts/screenshot.mjs [OUTPUT.png]

import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "./serve.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/browser/helpers.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const output = process.argv[2] ?? join(root, "docs", "images", "page.png");

const server = await startServer(0);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(new URL("/www/sliding.html", server.url).href);
  await page.waitForFunction(
    () => document.documentElement.dataset.ready === "true" || !document.querySelector("#load-error")?.hidden,
    null,
    { timeout: 60_000 },
  );
  if (await page.locator("#load-error").isVisible()) {
    throw new Error(`the page failed to load: ${await page.locator("#load-error").textContent()}`);
  }
  // Something to look at: a shuffled board and its optimal solution.
  await page.click("#shuffle");
  await page.waitForTimeout(800);
  await page.click("#solve");
  await page.waitForFunction(() => /\d/.test(document.querySelector("#solver-status")?.textContent ?? ""), null, {
    timeout: 60_000,
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(800);
  await mkdir(dirname(output), { recursive: true });
  await page.screenshot({ path: output });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
  await server.close();
}
