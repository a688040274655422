// Screenshots of the page for people to look at: target/screenshots/page.png (desktop, a
// 15-puzzle solved with the shipped pattern databases), target/screenshots/phone.png (390×844,
// the sun & moon preset), and the deep Q-learning card: dqn-idle.png (as the page opens),
// dqn-trained.png and dqn-trained-dark.png (after a short training run on the CPU and an
// evaluation of the network it learned).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, hashFor, readBoard, screenshotPath, setRange, standardGoalText, startSession, waitForLearnCard } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };

describe("screenshots", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("desktop: a 15-puzzle solved with pattern databases, paused half way through its playback", options, async () => {
    const page = await session.newPage(hashFor(4, 4, "12,1,10,2,7,11,4,14,5,_,9,15,8,13,6,3", standardGoalText(4, 4)));
    await page.waitForFunction(() => document.querySelector("#pdb-status").dataset.state === "ready", null, { timeout: 30_000 });
    await setRange(page, "#player [data-player=speed]", 10);
    await page.click("#solve");
    await page.locator("#stats").waitFor({ state: "visible", timeout: 45_000 });
    const length = Number(await page.locator("#stats").getAttribute("data-length"));
    await page.click("#player [data-player=play]"); // pause
    await page.click("#player [data-player=start]");
    for (let step = 0; step < Math.floor(length / 2); step++) await page.click("#player [data-player=forward]");
    await readBoard(page); // slides finished
    await page.evaluate(() => window.scrollTo(0, 0)); // the board card is sticky
    const file = await screenshotPath("page.png");
    await page.screenshot({ path: file, fullPage: true });
    assert.deepEqual(page.errors, []);
  });

  test("the deep Q-learning card, idle, then trained and evaluated (light and dark)", { timeout: 2 * TEST_TIMEOUT_MS }, async () => {
    const page = await session.newPage();
    await waitForLearnCard(page);
    const card = page.locator("#dqn");
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: await screenshotPath("dqn-idle.png") });

    // A small network on the 2×3 puzzle learns enough in 15,000 steps (seconds) for the charts to tell a story.
    await page.locator("#dqn .hyper summary").click();
    await page.selectOption("#dqn-size", "2x3");
    await page.selectOption("#dqn-backend", "cpu");
    await page.fill("#dqn-hidden", "64,64");
    await page.fill("#dqn-warmup", "10");
    await page.fill("#dqn-eval-interval", "20");
    await page.locator("#dqn .hyper summary").click();
    await page.click("#dqn-start");
    await page.waitForFunction(() => Number(document.querySelector("#dqn-stats").dataset.steps ?? 0) >= 15_000, null, { timeout: 80_000 });
    await page.click("#dqn-stop");
    await page.waitForFunction(() => document.querySelector("#dqn").dataset.state === "stopped", null, { timeout: 20_000 });
    await page.selectOption("#size", "2x3");
    await page.click("#dqn-solve");
    await page.waitForFunction(() => document.querySelector("#stats").dataset.method);
    await page.fill("#dqn-per-distance", "5");
    await page.click("#dqn-evaluate");
    await page.waitForFunction(() => document.querySelector("#dqn-evaluation").dataset.rows === "21", null, { timeout: 30_000 });
    // Charts draw on the next animation frame.
    const frame = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await frame();
    await card.screenshot({ path: await screenshotPath("dqn-trained.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    await frame();
    await card.screenshot({ path: await screenshotPath("dqn-trained-dark.png") });
    assert.deepEqual(page.errors, []);
  });

  test("phone: the layout fits a 390×844 screen and the board fills its width", options, async () => {
    const page = await session.newPage("", {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      hasTouch: true,
      isMobile: true,
    });
    await page.selectOption("#size", "sun-moon");
    const widths = await page.evaluate(() => ({
      document: document.documentElement.scrollWidth,
      board: document.querySelector("#board").board.shadowRoot.querySelector(".frame").getBoundingClientRect().width,
    }));
    assert.ok(widths.document <= 390, `no sideways scrolling (${widths.document}px)`);
    assert.ok(widths.board >= 300, `the board uses the screen's width (${widths.board}px)`);
    await readBoard(page);
    await page.screenshot({ path: await screenshotPath("phone.png"), fullPage: true });
    assert.deepEqual(page.errors, []);
  });
});
