// The dust page's Learn card (www/samegame/dqn-panel.js, with learn-client.js, learn-worker.js and
// samegame/learn-jobs.js over the learning bundle's LearnerTrainer / LearnedModel): the page loads
// the learning bundle only once the card is used; the shipped model (www/models/dust-backups.dqn,
// fetched) clears the page's board click by click while the exact solver finds the optimum, shown
// beside it, and is evaluated on seeded boards beside the greedy rule; a short training run on the
// CPU in the worker reports a finite loss and a validation, its charts draw, and Save downloads the
// network; the blog's learner (mean target) plays games whose length and return are charted; a
// Sudoku model is refused in words; under SameGame's rules the card is hidden. Tiny networks and
// a few steps: the machine may have two cores.
// Screenshots: target/screenshots/dust-dqn-played.png (the card after the shipped model's play)
// and dust-dqn-training.png (the card after a short run).

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, canvasInk, recordRequests, screenshotPath, setRange, startSession } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** Loading the learning bundle and training take longer. */
const slow = { timeout: 2 * TEST_TIMEOUT_MS };
const SUDOKU_MODEL = await readFile(join(REPOSITORY_ROOT, "www", "models", "sudoku-cells.dqn"));
/** What the page says once a model's clicks are on the board and the optimum is known. */
const PLAYED = 'document.querySelector("#dqn").dataset.optimum';
/** A tiny network and a validation every few steps (ids after "ddqn-"). */
const TINY = { hidden: "16,16", batch: 8, "eval-every": 3, "eval-boards": 5 };

/** The file's server and browser, started by the first page (startSession) and closed after the last test. */
let session = null;
after(() => session?.close(), options);

/** Opens the dust page on seeded board `seed`, recording every request, and waits for the Learn card. */
async function openPage(seed = 5) {
  session ??= await startSession();
  const page = await session.open(`/www/samegame.html#rules=dust&seed=${seed}`, { acceptDownloads: true }, { beforeGoto: recordRequests });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.querySelector("#ddqn-start"));
  return page;
}

/** The board's status attribute (playing, over, cleared) and its clicks so far. */
const readBoard = (page) => page.locator("#game").evaluate((board) => ({ status: board.getAttribute("status"), clicks: board.game.clicks }));

/** The card's statistics by name (the texts of #ddqn-stat-NAME) and the stats' data attributes. */
const readStats = (page) =>
  page.locator("#ddqn-stats").evaluate((stats) => ({
    ...Object.fromEntries([...stats.querySelectorAll("dd")].map((dd) => [dd.id.replace("ddqn-stat-", ""), dd.textContent])),
    data: { ...stats.dataset },
  }));

/** Waits until the page's expression `ready` holds or the error line `error` shows; resolves to that error's text ("" when none). */
async function waitOrError(page, ready, error, timeout) {
  await page.waitForFunction(`!document.querySelector(${JSON.stringify(error)}).hidden || (${ready})`, null, { timeout });
  const line = page.locator(error);
  return (await line.isVisible()) ? line.textContent() : "";
}

describe("the Learn card on the dust page", () => {
  test("the shipped model clears the board click by click beside the optimum, and is evaluated beside the greedy rule", slow, async () => {
    const page = await openPage();
    assert.ok(!page.requests.some((path) => path.startsWith("/pkg/learn/")), "the learning bundle waits until the card is used");
    assert.equal(await page.locator("#ddqn-play").textContent(), "Play the shipped model");
    const clicks = [];
    await page.exposeFunction("recordClick", (detail) => clicks.push(detail));
    await page.evaluate(() => document.querySelector("#game").addEventListener("samegame-move", (event) => window.recordClick(event.detail)));
    await setRange(page, "#speed", 5); // 32 clicks a second

    await page.click("#ddqn-play");
    assert.equal(await waitOrError(page, PLAYED, "#ddqn-play-error", 90_000), "");
    assert.ok(page.requests.includes("/www/models/dust-backups.dqn"), "the shipped model is fetched");
    assert.ok(page.requests.includes("/pkg/learn/puzzlelab_bg.wasm"), "the learning bundle is loaded now");
    const card = await page.locator("#dqn").evaluate((element) => ({ ...element.dataset }));
    const modelClicks = Number(card.modelClicks);
    const optimum = Number(card.optimum);
    const board = await readBoard(page);
    assert.equal(board.status, "cleared", "the model cleared the board");
    assert.equal(board.clicks, modelClicks);
    assert.equal(clicks.length, modelClicks, "one move a click, each on the board in turn");
    assert.ok(clicks.every((click) => click.action === "click" && click.source === "dqn"));
    assert.ok(optimum >= 1 && optimum <= 48, `the optimum (${optimum})`);
    const optimumText = await page.locator("#ddqn-optimum").textContent();
    if (card.optimumProved === "true") {
      assert.equal(optimumText, `${optimum} clicks (proved)`);
      assert.ok(modelClicks >= optimum, `no fewer than the proved optimum (${modelClicks} < ${optimum})`);
    } else {
      assert.equal(optimumText, `≤ ${optimum} (not proved)`);
    }
    assert.equal(await page.locator("#ddqn-model-clicks").textContent(), `${modelClicks} clicks`);
    // The page's end-of-game line waited for the card's search (no second one of its own) and says the same.
    const proved = card.optimumProved === "true";
    const endLine = proved
      ? modelClicks <= optimum ? `Cleared in ${modelClicks} clicks: the fewest possible (proved).` : `Cleared in ${modelClicks} clicks; the fewest is ${optimum} (proved): `
      : modelClicks <= optimum ? `Cleared in ${modelClicks} clicks: as few as the solver's best from the start (` : `Cleared in ${modelClicks} clicks; the solver's best from the start is ${optimum} (`;
    assert.ok((await page.textContent("#end-status")).startsWith(endLine), `the page's line (${await page.textContent("#end-status")}) begins "${endLine}"`);
    assert.match(await page.locator("#ddqn-play-status").textContent(), new RegExp(`^Shipped cleared the board in ${modelClicks} clicks`));
    assert.equal(await page.locator("#ddqn-model-line").getAttribute("data-source"), "shipped");
    assert.match(await page.locator("#ddqn-model-line").textContent(), /^The shipped model: puzzlelab's full backups, .*units, [\d,]+ parameters, [\d,]+ steps\.$/);
    assert.equal(await page.locator("#game").evaluate((element) => element.locked), false, "the board is the person's again");
    assert.equal(await page.locator("#solve").isDisabled(), true, "the board is cleared: nothing to solve");
    await page.locator("#ddqn-versus").scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath("dust-dqn-played.png") });

    // Evaluate: seeded boards, the model's mean clicks beside the greedy rule's.
    await page.fill("#ddqn-eval-n", "20");
    await page.fill("#ddqn-eval-seed", "1");
    await page.click("#ddqn-evaluate");
    assert.equal(await waitOrError(page, 'document.querySelector("#ddqn-eval-table").dataset.rows === "1"', "#ddqn-eval-error", 60_000), "");
    const report = JSON.parse(await page.locator("#ddqn-eval-table tbody tr").first().getAttribute("data-report"));
    assert.equal(report.boards, 20);
    assert.equal(report.greedy.boards, 20);
    assert.equal(Object.values(report.distribution).reduce((a, b) => a + b, 0), 20);
    const row = await page.locator("#ddqn-eval-table tbody tr").first().locator("th, td").allTextContents();
    assert.deepEqual(row.slice(0, 5), ["Shipped", "20", "1", report.mean_clicks.toFixed(2), report.greedy.mean_clicks.toFixed(2)]);
    assert.ok((await canvasInk(page, "#ddqn-chart-distribution")) > 1000, "the distribution chart draws");
    assert.deepEqual(page.errors, []);
  });

  test("a few training steps on the CPU update the statistics and the charts, and Save downloads the network", slow, async () => {
    const page = await openPage();
    await page.fill("#ddqn-hidden", TINY.hidden);
    await page.locator("#dqn details.hyper summary").click();
    for (const [id, value] of Object.entries(TINY)) if (id !== "hidden") await page.fill(`#ddqn-${id}`, String(value));
    await page.selectOption("#ddqn-backend", "cpu");
    await page.click("#ddqn-start");
    const ready = 'Number(document.querySelector("#ddqn-chart-loss").dataset.points ?? 0) >= 2 && Number(document.querySelector("#ddqn-stats").dataset.validations) >= 2';
    assert.equal(await waitOrError(page, ready, "#ddqn-error", 100_000), "");
    const stats = await readStats(page);
    assert.equal(await page.locator("#dqn").getAttribute("data-state"), "running");
    assert.equal(stats.data.backend, "cpu");
    assert.equal(stats.params, "8,016", "432 inputs (the one-hot six planes and three features of 48 cells), 16, 16, 48 outputs: 432·16+16 + 16·16+16 + 16·48+48");
    assert.ok(Number(stats.data.steps) >= 3, `steps done (${stats.data.steps})`);
    const loss = Number(stats.data.loss);
    assert.ok(stats.data.loss !== "" && Number.isFinite(loss) && loss >= 0, `the TD loss is a finite number (${stats.data.loss})`);
    assert.match(stats.clicks, /^\d+\.\d\d \(5 boards\)$/, "the last validation's mean clicks");
    // A number cut short to fit its cell shows whole on hover.
    const tips = await page.locator("#ddqn-stats").evaluate((element) =>
      [...element.querySelectorAll("dd")].map((dd) => ({ id: dd.id, clipped: dd.scrollWidth > dd.clientWidth, title: dd.getAttribute("title"), text: dd.textContent })),
    );
    for (const tip of tips.filter(({ clipped }) => clipped)) assert.equal(tip.title, tip.text, JSON.stringify(tip));
    assert.match(await page.locator("#ddqn-status").textContent(), /^Training on the CPU…/);
    for (const chart of ["clicks", "loss"]) {
      assert.ok((await canvasInk(page, `#ddqn-chart-${chart}`)) > 1000, `the ${chart} chart draws`);
    }
    await page.locator("#dqn").scrollIntoViewIfNeeded();
    await page.locator("#dqn").screenshot({ path: await screenshotPath("dust-dqn-training.png") });

    await page.click("#ddqn-stop");
    assert.equal(await waitOrError(page, 'document.querySelector("#dqn").dataset.state === "stopped"', "#ddqn-error", 30_000), "");
    assert.match(await page.locator("#ddqn-status").textContent(), /^Stopped after [\d,]+ steps\./);
    const downloaded = page.waitForEvent("download");
    await page.click("#ddqn-save");
    const download = await downloaded;
    const header = (await readFile(await download.path())).subarray(0, 14).toString();
    assert.deepEqual([download.suggestedFilename().replace(/\d+steps/, "Nsteps"), header], ["dust-backups-Nsteps.dqn", "puzzlelab-dqn\n"], "a model file");

    // The network trained here plays the board too.
    await page.selectOption("#ddqn-model", "trained");
    await page.click("#ddqn-play");
    assert.equal(await waitOrError(page, PLAYED, "#ddqn-play-error", 60_000), "");
    assert.equal((await readBoard(page)).status, "cleared");
    assert.deepEqual(page.errors, []);
  });

  test("the blog's learner plays games at once: its episode charts draw", slow, async () => {
    const page = await openPage();
    await page.selectOption("#ddqn-net", "batched");
    assert.equal(await page.locator("#ddqn-hidden").inputValue(), "256,256,256,256,256", "the blog's layers, fewer units");
    await page.fill("#ddqn-hidden", "16");
    await page.locator("#dqn details.hyper summary").click();
    for (const [id, value] of Object.entries({ envs: 20, batch: 20, replay: 40, "eval-every": 0 })) await page.fill(`#ddqn-${id}`, String(value));
    await page.selectOption("#ddqn-target", "mean");
    await page.selectOption("#ddqn-backend", "cpu");
    await page.click("#ddqn-start");
    const ready = 'Number(document.querySelector("#ddqn-chart-length").dataset.points ?? 0) >= 2';
    assert.equal(await waitOrError(page, ready, "#ddqn-error", 100_000), "");
    for (const chart of ["length", "return", "loss"]) assert.ok((await canvasInk(page, `#ddqn-chart-${chart}`)) > 1000, `the ${chart} chart draws`);
    await page.click("#ddqn-stop");
    assert.equal(await waitOrError(page, 'document.querySelector("#dqn").dataset.state === "stopped"', "#ddqn-error", 30_000), "");
    assert.match(await page.locator("#ddqn-model-line").textContent(), /^The network trained here: the blog's batched DQN \(mean target\), 1 × 16 units, /);
    assert.deepEqual(page.errors, []);
  });

  test("an empty chart's message wraps inside a narrow chart (the episode charts' before any game ended)", options, async () => {
    const page = await openPage();
    const drawn = await page.evaluate(async () => {
      const { LineChart } = await import("/www/common/chart.js");
      const canvas = document.createElement("canvas");
      canvas.style.cssText = "width: 220px; height: 160px";
      document.body.append(canvas);
      const text = "No game ended yet (the blog's learner plays games)";
      const chart = new LineChart(canvas, { title: "Training episodes: return", series: [{ name: "return" }], emptyText: text });
      const context = canvas.getContext("2d");
      const lines = [];
      const fillText = context.fillText.bind(context);
      context.fillText = (line, x, y) => {
        if (text.includes(line)) lines.push({ line, left: x - context.measureText(line).width / 2, right: x + context.measureText(line).width / 2 });
        fillText(line, x, y);
      };
      chart.draw();
      chart.dispose();
      canvas.remove();
      return { lines, width: 220, joined: lines.map(({ line }) => line).join(" ") };
    });
    assert.ok(drawn.lines.length >= 2, `wrapped: ${JSON.stringify(drawn.lines)}`);
    assert.equal(drawn.joined, "No game ended yet (the blog's learner plays games)", "every word, in order");
    for (const { line, left, right } of drawn.lines) assert.ok(left >= 0 && right <= drawn.width, `"${line}" fits (${left.toFixed(1)} to ${right.toFixed(1)})`);
    assert.deepEqual(page.errors, []);
  });

  test("a chart of one point labels its x axis with distinct ticks (a first evaluation at 2,000 steps)", options, async () => {
    const page = await openPage();
    const labels = await page.evaluate(async () => {
      const { LineChart } = await import("/www/common/chart.js");
      const canvas = document.createElement("canvas");
      canvas.style.cssText = "width: 320px; height: 180px";
      document.body.append(canvas);
      const chart = new LineChart(canvas, { title: "Evaluation: mean score", series: [{ name: "mean" }], xLabel: "steps" });
      chart.add(0, 2000, 1234);
      const context = canvas.getContext("2d");
      const texts = [];
      const fillText = context.fillText.bind(context);
      context.fillText = (line, x, y) => {
        texts.push({ line, y });
        fillText(line, x, y);
      };
      chart.draw();
      chart.dispose();
      canvas.remove();
      // The x axis's labels are the lowest drawn.
      const bottom = Math.max(...texts.map(({ y }) => y));
      return texts.filter(({ y }) => y === bottom).map(({ line }) => line);
    });
    const xLabels = labels;
    assert.ok(xLabels.length >= 2, `x ticks: ${labels}`);
    assert.equal(new Set(xLabels.map((text) => text.replace(" steps", ""))).size, xLabels.length, `each tick once: ${xLabels}`);
    assert.ok(xLabels.at(-1) === "2k steps", `the point's step ends the axis: ${xLabels}`);
    assert.deepEqual(page.errors, []);
  });

  test("a Sudoku model is refused in words, and under SameGame's rules the card is hidden", slow, async () => {
    const page = await openPage();
    await page.setInputFiles("#ddqn-file", { name: "sudoku.dqn", mimeType: "application/octet-stream", buffer: SUDOKU_MODEL });
    await page.waitForFunction(() => !document.querySelector("#ddqn-play-error").hidden, null, { timeout: 45_000 });
    assert.match(
      await page.locator("#ddqn-play-error").textContent(),
      /^The file "sudoku\.dqn" could not be loaded: the model plays "sudoku[^"]*", not the dust puzzle\. This is a Sudoku model: load it on the Sudoku page \(sudoku\.html\)\.$/,
    );
    assert.equal(await page.locator("#ddqn-model").inputValue(), "shipped", "the shipped model is still the one chosen");
    await page.selectOption("#rules", "samegame");
    assert.equal(await page.locator("#dqn").isHidden(), true);
    await page.selectOption("#rules", "dust");
    assert.equal(await page.locator("#dqn").isVisible(), true);
    assert.deepEqual(page.errors, []);
  });
});
