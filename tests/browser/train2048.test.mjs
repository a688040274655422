// Training 2048's n-tuple network in the page (www/2048/train-panel.js, ntuple-worker.js and the
// core bundle's NTupleTrainer / NTupleEvaluation), on a fixture page that mounts the card alone
// (tests/browser/fixtures/train2048.html) and on www/2048.html: chunks of training games move the
// live charts and the games count; Pause, Resume and Stop act between chunks; Save downloads a
// network file that Load reads back (and training goes on from it), while a damaged file is
// refused in words; "Use this network" hands the network to the page; evaluating the shipped
// network plays exactly the native evaluator's games for the same seed
// (fixtures/2048-native-eval.json, which tests/game2048.rs keeps in step with the CLI). Small
// tuple sets and few games: the machine running these may have two cores.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, canvasInk, screenshotPath, startSession } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
const FIXTURE = "/tests/browser/fixtures/train2048.html";
const NATIVE = JSON.parse(await readFile(join(REPOSITORY_ROOT, "tests", "browser", "fixtures", "2048-native-eval.json"), "utf8"));

/** Opens `path` in a new context, 1000 pixels wide, that accepts downloads. */
function open(session, path) {
  return session.open(path, { viewport: { width: 1000, height: 900 }, acceptDownloads: true });
}

/** The fixture page, its card ready (the worker loaded and the tuple sets listed). */
async function openPanel(session, query = "") {
  const page = await open(session, FIXTURE + query);
  await page.waitForFunction(() => document.querySelector("#train-2048").dataset.ready === "true");
  return page;
}

/** What the card shows about training. */
async function readTraining(page) {
  return page.evaluate(() => {
    const points = (id) => Number(document.querySelector(`#t2048-chart-${id}`).dataset.points ?? 0);
    const error = document.querySelector("#t2048-error");
    return {
      state: document.querySelector("#train-2048").dataset.state,
      games: Number(document.querySelector("#t2048-stats").dataset.gamesTrained),
      points: { score: points("score"), reach: points("reach"), speed: points("speed") },
      status: document.querySelector("#t2048-status").textContent,
      error: error.hidden ? "" : error.textContent,
    };
  });
}

/** Starts training with small settings and waits for `chunks` chunks. */
async function trainChunks(page, { tuples = "5x4", chunk = 20, seed = 3, chunks = 3 } = {}) {
  await page.selectOption("#t2048-tuples", tuples);
  await page.fill("#t2048-chunk", String(chunk));
  await page.fill("#t2048-seed", String(seed));
  await page.click("#t2048-start");
  await waitForPoints(page, chunks);
}

async function waitForPoints(page, count) {
  await page.waitForFunction((wanted) => Number(document.querySelector("#t2048-chart-score").dataset.points ?? 0) >= wanted, count, {
    timeout: 30_000,
  });
}

/** Everything but the clock, with sorted keys, as text. */
function games(summary) {
  const { seconds, games_per_s, moves_per_s, ...rest } = summary;
  const sorted = (value) =>
    value && typeof value === "object" ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])])) : value;
  return JSON.stringify(sorted(rest));
}

/** Evaluates with the form's choices and resolves to the newest report. */
async function evaluate(page, { network, agent, depth, games: count, seed }) {
  const rows = Number(await page.locator("#t2048-eval-table").getAttribute("data-rows"));
  await page.selectOption("#t2048-eval-network", network);
  await page.selectOption("#t2048-eval-agent", agent);
  if (agent === "expectimax") await page.fill("#t2048-eval-depth", String(depth));
  await page.fill("#t2048-eval-games", String(count));
  await page.fill("#t2048-eval-seed", String(seed));
  await page.click("#t2048-evaluate");
  await page.waitForFunction(
    (before) => Number(document.querySelector("#t2048-eval-table").dataset.rows) > before || !document.querySelector("#t2048-eval-error").hidden,
    rows,
    { timeout: 45_000 },
  );
  const error = page.locator("#t2048-eval-error");
  if (await error.isVisible()) throw new Error(`evaluation failed: ${await error.textContent()}`);
  return page.evaluate(() => window.panel.evaluations.at(-1));
}

describe("training 2048's n-tuple network in the page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("chunks of training games move the charts and the games count; Pause, Resume and Stop act between chunks", options, async () => {
    const page = await openPanel(session);
    const offered = await page.locator("#t2048-tuples option").evaluateAll((options) => options.map((option) => option.value));
    assert.deepEqual(offered.sort(), ["4x5", "5x4"], "only the tuple sets that fit in a tab are offered");
    assert.match(await page.locator("#t2048-tuples-help").textContent(), /4 × 6-tuples.*256 MiB/s, "and the page says why 4 × 6 is not");

    await trainChunks(page, { chunks: 3 });
    let training = await readTraining(page);
    assert.equal(training.state, "running");
    assert.ok(training.games >= 60 && training.games % 20 === 0, `games come in chunks of 20 (${training.games})`);
    assert.ok(training.points.reach >= 3 && training.points.speed >= 3, JSON.stringify(training.points));
    assert.match(training.status, /Training 5 × 4-tuples \(327,680 weights\), α 0\.1, seed 3/);
    assert.ok((await canvasInk(page, "#t2048-chart-score")) > 1500, "the score chart has a line");
    assert.ok(Number(await page.locator("#t2048-stats").getAttribute("data-mean-score")) > 0);
    await page.screenshot({ path: await screenshotPath("2048-training.png"), fullPage: true });

    await page.click("#t2048-pause");
    await page.waitForFunction(() => document.querySelector("#train-2048").dataset.state === "paused");
    const paused = await readTraining(page);
    assert.match(paused.status, new RegExp(`Paused at ${paused.games.toLocaleString("en")} games`));
    await page.waitForTimeout(400);
    assert.equal((await readTraining(page)).games, paused.games, "nothing is trained while paused");
    assert.ok(await page.locator("#t2048-resume").isEnabled());
    assert.ok(await page.locator("#t2048-start").isDisabled(), "a paused run is still a run");

    // "Use this network" hands the page an uncompressed network file.
    await page.click("#t2048-use");
    await page.waitForFunction(() => window.usedNetworks.length === 1);
    const used = await page.evaluate(() => window.usedNetworks[0]);
    assert.equal(used.magic, "PZL2048N");
    assert.equal(used.label, "The network trained here", "a name: the page's model line says the tuples, weights and games");

    await page.click("#t2048-resume");
    await page.waitForFunction((before) => Number(document.querySelector("#t2048-stats").dataset.gamesTrained) > before, paused.games);
    assert.equal((await readTraining(page)).state, "running");

    await page.click("#t2048-stop");
    await page.waitForFunction(() => document.querySelector("#train-2048").dataset.state === "stopped");
    training = await readTraining(page);
    assert.match(training.status, new RegExp(`Stopped after ${training.games.toLocaleString("en")} games`));
    await page.waitForTimeout(300);
    assert.equal((await readTraining(page)).games, training.games, "nothing is trained once stopped");
    assert.ok(await page.locator("#t2048-start").isEnabled());
    assert.equal(training.error, "");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("Save downloads a network that Load reads back and trains on; damaged files are refused in words", options, async () => {
    const page = await openPanel(session);
    await trainChunks(page, { chunks: 2, seed: 5 });
    await page.click("#t2048-pause");
    await page.waitForFunction(() => document.querySelector("#train-2048").dataset.state === "paused");
    const { games: saved } = await readTraining(page);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#t2048-save")]);
    assert.equal(download.suggestedFilename(), `2048-5x4-${saved}games.ntuple.gz`);
    const gzipped = await readFile(await download.path());
    const raw = gunzipSync(gzipped);
    assert.equal(raw.subarray(0, 8).toString("latin1"), "PZL2048N", "a gzip-compressed network file");
    assert.ok(raw.length > 4 * 327_680, "f32 weights");
    assert.match(await page.locator("#t2048-status").textContent(), /Saved 2048-5x4-\d+games\.ntuple\.gz/);

    await page.click("#t2048-stop");
    await page.waitForFunction(() => document.querySelector("#train-2048").dataset.state === "stopped");
    // A fresh page: the file is all it knows of that network.
    await page.context().close();
    const fresh = await openPanel(session);
    await fresh.setInputFiles("#t2048-file", { name: "saved.ntuple.gz", mimeType: "application/gzip", buffer: gzipped });
    await fresh.waitForFunction(() => document.querySelector("#t2048-stats").dataset.loadedGames !== undefined);
    assert.match(await fresh.locator("#t2048-status").textContent(), new RegExp(`Loaded “saved\\.ntuple\\.gz”: 5 × 4-tuples, ${saved} games trained`));
    assert.equal(await fresh.locator("#t2048-from").inputValue(), "loaded", "Start goes on from the file");
    assert.ok(await fresh.locator("#t2048-tuples").isDisabled(), "whose tuple set it keeps");
    await fresh.fill("#t2048-chunk", "20");
    await fresh.click("#t2048-start");
    await waitForPoints(fresh, 1);
    const resumed = await readTraining(fresh);
    assert.ok(resumed.games >= saved + 20, `training went on from ${saved} games (${resumed.games})`);
    await fresh.click("#t2048-stop");
    await fresh.waitForFunction(() => document.querySelector("#train-2048").dataset.state === "stopped");

    // The uncompressed file loads too; one flipped bit does not, nor does another kind of file.
    await fresh.setInputFiles("#t2048-file", { name: "plain.ntuple", mimeType: "application/octet-stream", buffer: raw });
    await fresh.waitForFunction(() => /Loaded “plain\.ntuple”/.test(document.querySelector("#t2048-status").textContent));
    const damaged = Buffer.from(raw);
    damaged[damaged.length >> 1] ^= 0x10;
    const errorText = async (name, buffer) => {
      await fresh.evaluate(() => (document.querySelector("#t2048-error").hidden = true));
      await fresh.setInputFiles("#t2048-file", { name, mimeType: "application/octet-stream", buffer });
      await fresh.locator("#t2048-error").waitFor({ state: "visible" });
      return fresh.locator("#t2048-error").textContent();
    };
    assert.match(await errorText("damaged.ntuple", damaged), /The file "damaged\.ntuple" could not be loaded: the n-tuple network file is damaged/);
    assert.match(await errorText("cut.ntuple.gz", gzipped.subarray(0, gzipped.length >> 1)), /could not be loaded: it is gzip-compressed but does not decompress/);
    assert.match(await errorText("notes.txt", Buffer.from("hello, 2048")), /could not be loaded: this is not a puzzlelab 2048 n-tuple network file/);
    assert.deepEqual(fresh.errors, []);
    await fresh.context().close();
  });

  test("the shipped network plays in the browser exactly the native evaluator's games for the same seed", options, async () => {
    const page = await openPanel(session);
    await page.evaluate(() => {
      window.progressSeen = [];
      const text = document.querySelector("#t2048-eval-progress-text");
      new MutationObserver(() => window.progressSeen.push(text.textContent)).observe(text, { childList: true, characterData: true, subtree: true });
    });
    for (const expected of NATIVE.evaluations) {
      const agent = expected.agent === "ntuple" ? "greedy" : expected.agent;
      const report = await evaluate(page, { network: "shipped", agent, depth: expected.depth, games: expected.summary.games, seed: expected.seed });
      assert.equal(games(report.summary), games(expected.summary), `${agent}: the same games as \`${expected.command}\``);
      for (const key of ["agent", "depth", "seed", "games_trained", "tuple_set", "chance_nodes"]) assert.equal(report[key], expected[key], `${agent}: ${key}`);
      assert.equal(report.model, "2048-ntuple.ntuple.gz");
      assert.ok(report.summary.moves_per_s > 0);
    }
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.some((text) => /Downloading the shipped network: .* MB of .* MB/.test(text)), "the download showed its progress");
    assert.ok(seen.some((text) => /\d+ of 12 games \(\d+%\)/.test(text)), "and so did the games");
    const rows = await page.locator("#t2048-eval-table tbody tr").allTextContents();
    assert.equal(rows.length, 2);
    assert.match(rows[0], /ShippedExpectimax, depth 22.*100%/, "newest first");
    assert.match(await page.locator("#t2048-eval-status").textContent(), /Expectimax, depth 2 play of the shipped network: mean score [\d,]+, 2048 reached in 100% of 2 games/);

    // A long evaluation stops when cancelled.
    await page.fill("#t2048-eval-games", "100000");
    await page.selectOption("#t2048-eval-agent", "greedy");
    await page.click("#t2048-evaluate");
    await page.waitForFunction(() => /[1-9][\d,]* of 100,000 games/.test(document.querySelector("#t2048-eval-progress-text").textContent));
    await page.click("#t2048-eval-cancel");
    await page.waitForFunction(() => /Evaluation cancelled after \d+ games/.test(document.querySelector("#t2048-eval-status").textContent));
    assert.equal(await page.locator("#t2048-eval-table").getAttribute("data-rows"), "2");
    assert.ok(await page.locator("#t2048-evaluate").isEnabled());
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("without a player to hand it to, the card offers no \"Use this network\"", options, async () => {
    const page = await openPanel(session, "?no-player");
    assert.ok(await page.locator("#t2048-use").isHidden());
    assert.ok(await page.locator("#t2048-start").isEnabled());
    await page.context().close();
  });

  test("the card appears on the 2048 page, folded until opened", { ...options, skip: !existsSync(join(REPOSITORY_ROOT, "www", "2048.html")) && "www/2048.html is not there yet" }, async () => {
    const page = await open(session, "/www/2048.html");
    await page.waitForFunction(() => document.querySelector("#train-2048")?.dataset.ready === "true", null, { timeout: 30_000 });
    const card = page.locator("#train-2048");
    assert.equal(await card.evaluate((element) => element.open), false, "folded");
    assert.ok(await card.locator("#t2048-start").isHidden());
    await card.locator("> summary").click();
    assert.ok(await card.locator("#t2048-start").isVisible());
    assert.ok(await card.locator("#t2048-chart-score").isVisible());
    assert.equal(await page.locator("link[data-train2048]").count(), 1, "the card brought its stylesheet");
    assert.ok(await page.locator("#t2048-use").isVisible(), "the page takes trained networks");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
