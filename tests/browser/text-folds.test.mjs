// The folds that take a board as text (Minesweeper's "Set up a board from text", Sudoku's "Paste a
// puzzle", dust and SameGame's "Set up a board from text"), opened at 1280 × 900 and on a 390 px
// phone: their help reads as one wrapped sentence, and the page does not grow wider than the
// screen (their code chips once became tall bars that pushed the Minesweeper page sideways).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: 2 * TEST_TIMEOUT_MS };
const PAGES = ["/www/minesweeper.html", "/www/sudoku.html", "/www/samegame.html"];
const SCREENS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

describe("text folds", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("open, their help wraps as a sentence and the page keeps to the screen's width", options, async () => {
    for (const viewport of SCREENS) {
      for (const path of PAGES) {
        const page = await session.open(path, { viewport });
        await waitForApp(page);
        const shown = await page.evaluate(() => {
          const fold = document.querySelector("details:has(textarea)");
          fold.open = true;
          const label = fold.querySelector(".field-label");
          const lineHeight = Number.parseFloat(getComputedStyle(label).lineHeight);
          const chips = [...label.querySelectorAll("code")].map((code) => code.getBoundingClientRect().height);
          return {
            pageWidth: document.documentElement.scrollWidth,
            display: getComputedStyle(label).display,
            tallestChip: Math.max(...chips),
            lineHeight,
          };
        });
        const where = `${path} at ${viewport.width} px`;
        assert.equal(shown.display, "block", `${where}: the help is one block of text`);
        assert.ok(shown.tallestChip <= shown.lineHeight * 1.5, `${where}: a code chip is ${shown.tallestChip} px tall (a line is ${shown.lineHeight})`);
        assert.ok(shown.pageWidth <= viewport.width, `${where}: the page is ${shown.pageWidth} px wide`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      }
    }
  });
});
