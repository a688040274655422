// The Sudoku page's genetic-algorithm card (www/sudoku/ga-panel.js, its worker ga-worker.js): a
// run on grid1 at population 10,000 fills the chart generation by generation, its best rises to 243
// at the generation `puzzlelab sudoku ga` reaches it with the same seed, and the card says solved;
// the worker's generations equal the CLI's trace for the same seed and a generation cap; the time
// limit ends a run that is not solved (the best grid shown with its repeated digits marked); Stop
// stops; a puzzle the GA cannot use (a 4 × 4 board) or a bad time limit shows the error and nothing
// starts. Screenshot: target/screenshots/sudoku-ga.png (the card after a run ended by its limit).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, screenshotPath, startSession, waitForApp } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const PAGE = "/www/sudoku.html";

/**
 * `puzzlelab sudoku ga --puzzle grid1 --population 10000 --seed 1 --seconds 20`: solved, 243 at
 * generation 37.
 */
const SOLVED_AT = 37;
/**
 * `puzzlelab sudoku ga --puzzle grid1 --population 1000 --seed 1 --generations 20 --trace`: each
 * generation's best and mean (generation 0 the first), and the best grid after 20.
 */
const CLI_BEST = [211, 211, 213, 214, 215, 218, 218, 219, 219, 221, 222, 222, 224, 224, 226, 226, 226, 228, 230, 231, 231];
const CLI_MEAN = [
  194.78, 197.83, 200.161, 201.888, 203.538, 205.434, 206.962, 208.073, 209.205, 210.293, 211.607, 212.607, 213.465,
  214.256, 215.302, 216.305, 217.03, 217.929, 218.609, 219.386, 220.245,
];
const CLI_GRID = "784195263169283457235476819165482973327914568498537621971628435842357196653149782";

async function openSudoku(session) {
  const page = await session.open(PAGE);
  await waitForApp(page);
  // The card loads once the page is ready (its first puzzle shows), and then says it is idle.
  await page.waitForFunction(() => document.querySelector("#ga-card").dataset.state === "idle");
  return page;
}

/** Sets the card's fields; `puzzle` is "board" or a grid's name. */
async function configure(page, { puzzle, population, seconds, seed, init = "rows", repair = false }) {
  await page.selectOption("#ga-puzzle", puzzle);
  await page.selectOption("#ga-population", String(population));
  await page.fill("#ga-seconds", String(seconds));
  await page.fill("#ga-seed", String(seed));
  await page.selectOption("#ga-init", init);
  await page.locator("#ga-repair").setChecked(repair);
}

/** Records every data-best the card shows while it runs (in window.gaBests). */
async function recordBests(page) {
  await page.evaluate(() => {
    const card = document.querySelector("#ga-card");
    window.gaBests = [];
    new MutationObserver(() => {
      const best = Number(card.dataset.best);
      if (card.dataset.state === "running" && window.gaBests.at(-1) !== best) window.gaBests.push(best);
    }).observe(card, { attributes: true, attributeFilter: ["data-best"] });
  });
}

async function waitForEnd(page, timeout = 45_000) {
  await page.waitForFunction(() => !["idle", "running"].includes(document.querySelector("#ga-card").dataset.state), null, { timeout });
  return page.evaluate(() => {
    const card = document.querySelector("#ga-card");
    const chart = card.gaPanel.chart;
    return {
      state: card.dataset.state,
      generation: Number(card.dataset.generation),
      best: Number(card.dataset.best),
      bestPoints: chart.pointCount(0),
      meanPoints: chart.pointCount(1),
      lastBest: chart.lastValue(0),
      status: card.querySelector("#ga-status").textContent,
      error: card.querySelector("#ga-error").hidden ? null : card.querySelector("#ga-error").textContent,
      gridShown: !card.querySelector(".ga-best").hidden,
      cells: [...card.querySelectorAll(".ga-cell")].map((cell) => cell.textContent).join(""),
      repeated: card.querySelectorAll(".ga-cell.repeat").length,
      startEnabled: !card.querySelector("#ga-start").disabled,
      stopEnabled: !card.querySelector("#ga-stop").disabled,
    };
  });
}

describe("the Sudoku page's genetic algorithm", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(async () => session?.close(), options);

  test("grid1 at population 10,000 climbs to 243 on the chart, at the CLI's generation", options, async () => {
    const page = await openSudoku(session);
    await configure(page, { puzzle: "grid1", population: 10000, seconds: 60, seed: 1 });
    await recordBests(page);
    await page.click("#ga-start");
    const end = await waitForEnd(page);
    assert.equal(end.error, null);
    assert.equal(end.state, "solved");
    assert.equal(end.best, 243);
    assert.equal(end.generation, SOLVED_AT);
    // Every generation is a point, the first (random) one included.
    assert.equal(end.bestPoints, SOLVED_AT + 1);
    assert.equal(end.meanPoints, SOLVED_AT + 1);
    assert.equal(end.lastBest, 243);
    const bests = await page.evaluate(() => window.gaBests);
    assert.ok(bests.length >= 2 && bests[0] < 243, `the best shown rose over several reports: ${bests}`);
    assert.deepEqual(bests, [...bests].sort((a, b) => a - b), "the best never falls");
    assert.match(end.status, /^Solved in \d+\.\d+ s, at generation 37/);
    assert.ok(end.gridShown);
    assert.equal(end.repeated, 0);
    assert.ok(end.startEnabled && !end.stopEnabled);
    assert.deepEqual(page.errors, []);
  });

  test("the worker's generations equal the CLI's for the same seed and a generation cap", options, async () => {
    const page = await openSudoku(session);
    const run = await page.evaluate(async () => {
      const { WorkerClient } = await import("./common/worker-protocol.js");
      const client = new WorkerClient(new URL("./sudoku/ga-worker.js", location.href), { name: "GA worker" });
      await client.ready;
      const points = [];
      const request = { type: "run", puzzle: "grid1", population: 1000, init: "rows", repair: false, seed: 1, seconds: 60, generations: 20 };
      const result = await client.request(request, (progress) => points.push(...progress.points));
      client.dispose();
      return { points, result: { ...result, bestGrid: Array.from(result.bestGrid).join("") } };
    });
    assert.deepEqual(run.points.map((point) => point.generation), [...CLI_BEST.keys()]);
    assert.deepEqual(run.points.map((point) => point.best), CLI_BEST);
    run.points.forEach((point, generation) => assert.ok(Math.abs(point.mean - CLI_MEAN[generation]) < 1e-9, `mean at ${generation}`));
    assert.equal(run.result.reason, "generations");
    assert.equal(run.result.generation, 20);
    assert.equal(run.result.best, 231);
    assert.equal(run.result.bestGrid, CLI_GRID);
    assert.equal(run.result.solved, false);
  });

  test("the time limit ends a run that is not solved; the best grid marks its repeats", options, async () => {
    const page = await openSudoku(session);
    await configure(page, { puzzle: "grid3", population: 1000, seconds: 2, seed: 3 });
    const started = Date.now();
    await page.click("#ga-start");
    const end = await waitForEnd(page);
    assert.ok(Date.now() - started >= 2000);
    assert.equal(end.state, "time");
    assert.ok(end.best < 243 && end.best > 200, `best ${end.best}`);
    // One point a generation, until the chart merges them pairwise beyond its 4,000 (common/chart.js).
    const pointsExpected = end.generation + 1 <= 4000 ? end.bestPoints === end.generation + 1 : end.bestPoints > 2000 && end.bestPoints <= 4000;
    assert.ok(end.generation > 0 && pointsExpected, `${end.bestPoints} points for ${end.generation} generations`);
    assert.match(end.status, /^Not solved within the 2 s limit: the best has fitness \d+ of 243 at generation [\d,]+/);
    assert.ok(end.gridShown);
    assert.match(end.cells, /^[1-9]{81}$/);
    assert.ok(end.repeated >= 2, `${end.repeated} cells marked`);
    // grid3's givens are bold in the best grid.
    const givens = await page.locator("#ga-card .ga-cell.given").count();
    assert.equal(givens, 23);
    await page.locator("#ga-card").scrollIntoViewIfNeeded();
    await page.locator("#ga-card").screenshot({ path: await screenshotPath("sudoku-ga.png") });
    assert.deepEqual(page.errors, []);
  });

  test("Stop stops a run between slices", options, async () => {
    const page = await openSudoku(session);
    await configure(page, { puzzle: "grid3", population: 10000, seconds: 60, seed: 1 });
    await page.click("#ga-start");
    await page.waitForFunction(() => Number(document.querySelector("#ga-card").dataset.generation) >= 3, null, { timeout: 30_000 });
    await page.click("#ga-stop");
    const end = await waitForEnd(page, 10_000);
    assert.equal(end.state, "stopped");
    assert.match(end.status, /^Stopped after [\d.]+ s at generation [\d,]+: the best has fitness \d+ of 243/);
    assert.ok(end.startEnabled && !end.stopEnabled);
    await page.waitForTimeout(500);
    const later = await page.evaluate(() => [document.querySelector("#ga-card").dataset.generation, document.querySelector("#ga-card").gaPanel.chart.pointCount(0)]);
    assert.deepEqual(later, [String(end.generation), end.bestPoints], "nothing more arrives after Stop");
    assert.deepEqual(page.errors, []);
  });

  test("a puzzle the GA cannot use, or a bad time limit, shows why and nothing starts", options, async () => {
    const page = await openSudoku(session);
    await configure(page, { puzzle: "grid1", population: 100, seconds: 0, seed: 1 });
    await page.click("#ga-start");
    const refused = await page.evaluate(() => {
      const card = document.querySelector("#ga-card");
      return {
        state: card.dataset.state,
        error: card.querySelector("#ga-error").textContent,
        invalid: card.querySelector("#ga-seconds").getAttribute("aria-invalid"),
        points: card.gaPanel.chart.pointCount(0),
      };
    });
    assert.deepEqual(refused, { state: "idle", error: "Time limit: a number of seconds above 0 and at most 3,600.", invalid: "true", points: 0 });

    await page.selectOption("#size", "4");
    await page.waitForFunction(() => document.querySelector("#game").game?.size === 4);
    await configure(page, { puzzle: "board", population: 100, seconds: 5, seed: 1 });
    await page.click("#ga-start");
    const end = await waitForEnd(page, 10_000);
    assert.equal(end.state, "error");
    assert.equal(end.error, "the genetic algorithm plays 9 × 9 grids, not 4 × 4");
    assert.equal(end.bestPoints, 0);
    assert.ok(!end.gridShown);
    assert.equal(end.status, "");
    assert.ok(end.startEnabled && !end.stopEnabled);
    assert.deepEqual(page.errors, []);
  });
});
