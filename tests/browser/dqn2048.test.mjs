// Mehta's RL paper's deep Q-network on the 2048 page (www/2048/dqn-panel.js, learn-client.js and
// learn-worker.js with the learning bundle's LearnerTrainer / LearnedModel): the page loads the
// learning bundle only once the card is used; training a tiny network on the CPU moves the charts
// and the step counter, Pause, Resume and Stop act between chunks, and Save downloads a model that
// Load reads back; a sliding-puzzle model and a missing shipped model are refused in words (and the
// sliding-puzzle page refuses a 2048 model in the same way); "Watch it play" plays the model's
// moves on the page's board; and an evaluation in the browser plays exactly the games of the native
// `puzzlelab 2048 eval --agent dqn` for the same model and seed (fixtures/2048-dqn-native-eval.json, made
// from fixtures/2048-dqn-tiny.dqn by the commands it lists). A run's start says each of its stages in
// order in plain words (the technical details folded away). The card is folded on the page until
// opened. Tiny networks (4/4 filters, hidden 16) and a few hundred steps: the machine running these
// may have two cores.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, canvasInk, recordRequests, screenshotPath, startSession } from "./helpers.mjs";

const options = { timeout: TEST_TIMEOUT_MS };
/** Loading the 3 MB learning bundle and training take longer. */
const slow = { timeout: 2 * TEST_TIMEOUT_MS };
const FIXTURES = join(REPOSITORY_ROOT, "tests", "browser", "fixtures");
const TINY_MODEL = await readFile(join(FIXTURES, "2048-dqn-tiny.dqn"));
const NATIVE = JSON.parse(await readFile(join(FIXTURES, "2048-dqn-native-eval.json"), "utf8"));
const SLIDING_MODEL = await readFile(join(REPOSITORY_ROOT, "www", "models", "8puzzle.dqn"));
/** The tiny network of these tests: its settings by field id (after "d2048-"). */
const TINY = { filters1: 4, filters2: 4, hidden: 16, warmup: 2, batch: 16, "eval-every": 150, "eval-games": 2 };

/** Words of the machinery that the card's status line must not use (they belong in its technical details). */
const JARGON = /kernel|cubek|burn|tiled|matrix|probe|adapter|swiftshader|wasm|backend|steps\/s/i;

/**
 * Opens the 2048 page in a new context, recording every request of the page and its workers, and
 * opens the card (folded on the page, as it loads).
 */
async function openPage(session) {
  const page = await session.open("/www/2048.html", { acceptDownloads: true }, { beforeGoto: recordRequests });
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true" && document.querySelector("#d2048-start"));
  assert.equal(await page.locator("#dqn-2048").evaluate((card) => card.open), false, "the card is folded");
  assert.ok(await page.locator("#d2048-start").isHidden());
  await page.locator("#dqn-2048 > summary").click();
  assert.ok(await page.locator("#d2048-start").isVisible(), "and opens");
  return page;
}

/**
 * Before Train: records, in window.startLog, the stages of the start in the order the card runs
 * them (its data-start-stage) and every text of its status line.
 */
async function recordStart(page) {
  await page.evaluate(() => {
    const card = document.querySelector("#dqn-2048");
    const status = document.querySelector("#d2048-status");
    const log = (window.startLog = { stages: [], texts: [] });
    const seen = () => {
      const stage = card.dataset.startStage;
      if (stage && log.stages.at(-1) !== stage) log.stages.push(stage);
      if (log.texts.at(-1) !== status.textContent) log.texts.push(status.textContent);
    };
    new MutationObserver(seen).observe(card, { attributes: true, attributeFilter: ["data-start-stage"] });
    new MutationObserver(seen).observe(status, { childList: true, characterData: true, subtree: true });
  });
}

/** What the card shows about training. */
async function readTraining(page) {
  return page.evaluate(() => {
    const stats = document.querySelector("#d2048-stats");
    const points = (id) => Number(document.querySelector(`#d2048-chart-${id}`).dataset.points ?? 0);
    const error = document.querySelector("#d2048-error");
    return {
      state: document.querySelector("#dqn-2048").dataset.state,
      steps: Number(stats.dataset.steps),
      loss: stats.dataset.loss === "" ? null : Number(stats.dataset.loss),
      backend: stats.dataset.backend ?? "",
      validations: Number(stats.dataset.validations),
      points: { loss: points("loss"), epsilon: points("epsilon"), score: points("score"), reach: points("reach"), speed: points("speed") },
      epsilon: Number(document.querySelector("#d2048-stat-epsilon").textContent),
      params: document.querySelector("#d2048-stat-params").textContent,
      status: document.querySelector("#d2048-status").textContent,
      error: error.hidden ? "" : error.textContent,
    };
  });
}

/** Fills the card's form (ids after "d2048-"), the "More settings" included. */
async function fillForm(page, fields) {
  await page.locator("#dqn-2048 details.hyper summary").click();
  for (const [id, value] of Object.entries(fields)) await page.fill(`#d2048-${id}`, String(value));
}

/** Loads a model file through the card's Load… button; resolves to the error shown, or "". */
async function loadModelFile(page, name, buffer) {
  await page.evaluate(() => {
    document.querySelector("#d2048-play-error").hidden = true;
    document.querySelector("#d2048-play-status").textContent = "";
  });
  await page.setInputFiles("#d2048-file", { name, mimeType: "application/octet-stream", buffer });
  await page.waitForFunction(() => !document.querySelector("#d2048-play-error").hidden || /^Loaded/.test(document.querySelector("#d2048-play-status").textContent), null, {
    timeout: 45_000,
  });
  const error = page.locator("#d2048-play-error");
  return (await error.isVisible()) ? error.textContent() : "";
}

/** Everything of a summary but the clock. */
function games(summary) {
  const { seconds, games_per_s, moves_per_s, ...rest } = summary;
  return rest;
}

describe("Mehta's RL paper's deep Q-network on the 2048 page", () => {
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("training on the CPU moves the charts and the step counter; Pause, Resume, Stop; Save downloads a model that Load reads back", slow, async () => {
    const page = await openPage(session);
    assert.ok(!page.requests.some((path) => path.startsWith("/pkg/learn/")), "the learning bundle waits until the card is used");
    assert.ok(!page.requests.includes("/www/common/learn-worker.js"), "so does the learning worker");
    assert.match(await page.locator("#d2048-params").textContent(), /^1,255,428 parameters — the paper's network/, "the seed's network and what it costs");
    // A preset fills its fields; "The paper's settings" puts every field back to its default.
    const values = (ids) => Promise.all(ids.map((id) => page.locator(`#d2048-${id}`).inputValue()));
    const ids = ["filters1", "hidden", "epsilon-decay", "eval-every", "warmup"];
    const defaults = await values(ids);
    await page.click("#d2048-quick");
    assert.deepEqual(await values(ids), ["32", "64", "0.99", "2000", defaults[4]]);
    await page.locator("#d2048-warmup").evaluate((input) => (input.value = "3")); // in "More settings", folded
    await page.check("#d2048-demonstrations");
    await page.click("#d2048-defaults");
    assert.deepEqual(await values(ids), defaults);
    assert.equal(await page.locator("#d2048-demonstrations").isChecked(), false);
    assert.match(await page.locator("#d2048-params").textContent(), /^1,255,428 parameters — the paper's network/);

    await fillForm(page, TINY);
    await page.selectOption("#d2048-backend", "cpu");
    assert.match(await page.locator("#d2048-params").textContent(), /^2,668 parameters: small enough to train/);
    await recordStart(page);
    await page.click("#d2048-start");
    await page.waitForFunction(
      () => Number(document.querySelector("#d2048-chart-loss").dataset.points ?? 0) >= 3 && Number(document.querySelector("#d2048-stats").dataset.validations) >= 1,
      null,
      { timeout: 90_000 },
    );
    assert.ok(page.requests.includes("/pkg/learn/puzzlelab_bg.wasm"), "the learning bundle is loaded now");
    let training = await readTraining(page);
    assert.equal(training.state, "running");
    assert.equal(training.backend, "cpu");
    assert.equal(training.params, "2,668", "the network the form described");
    assert.ok(training.steps >= 150, `steps done (${training.steps})`);
    assert.ok(Number.isFinite(training.loss) && training.loss >= 0, `the TD loss is a finite number (${training.loss})`);
    assert.ok(training.epsilon > 0 && training.epsilon < 0.9, `ε falls from 0.9 game by game (${training.epsilon})`);
    assert.ok(training.points.epsilon >= 3 && training.points.speed >= 3 && training.points.score >= 1 && training.points.reach >= 1, JSON.stringify(training.points));
    assert.match(training.status, /^Training on the CPU…( Last evaluation \(2 games at [\d,]+ steps\): mean score [\d,]+, 512 reached in [\d.]+%, 1024 in [\d.]+%, 2048 in [\d.]+%\.)?/);
    // On the CPU the start has no graphics card to check: the learning code, the network, the first steps.
    const start = await page.evaluate(() => window.startLog);
    assert.deepEqual(start.stages, ["download", "prepare", "network", "first"]);
    const getting = start.texts.filter((text) => text.startsWith("Getting ready"));
    assert.match(getting[0], /^Getting ready to train \(1 of 4\): downloading the learning code/);
    assert.ok(getting.some((text) => /^Getting ready to train \(4 of 4\): taking the first training steps on the CPU…/.test(text)), JSON.stringify(getting));
    for (const text of start.texts) assert.doesNotMatch(text, JARGON);
    assert.match(await page.locator("#d2048-tech-lines").textContent(), /^Getting ready took [\d.]+ s: Download the learning code [\d.]+ s; Prepare it for this browser [\d.]+ s; Build the network [\d.]+ s; Take the first training steps [\d.]+ s\.$/);
    assert.ok((await canvasInk(page, "#d2048-chart-loss")) > 1000, "the TD-loss chart has a line");
    assert.ok((await canvasInk(page, "#d2048-chart-score")) > 1000, "so does the evaluation's");
    await page.waitForFunction((steps) => Number(document.querySelector("#d2048-stats").dataset.steps) > steps, training.steps);
    await page.locator("#dqn-2048").scrollIntoViewIfNeeded();
    await page.locator("#dqn-2048").screenshot({ path: await screenshotPath("2048-dqn.png") });

    await page.click("#d2048-pause");
    await page.waitForFunction(() => document.querySelector("#dqn-2048").dataset.state === "paused", null, { timeout: 30_000 });
    const paused = await readTraining(page);
    assert.match(paused.status, new RegExp(`^Paused at ${paused.steps.toLocaleString("en")} steps`));
    await page.waitForTimeout(800);
    assert.equal((await readTraining(page)).steps, paused.steps, "no steps while paused");
    assert.ok(await page.locator("#d2048-start").isDisabled(), "a paused run is still a run");
    assert.ok(await page.locator("#d2048-filters1").isDisabled(), "whose settings are locked");

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#d2048-save")]);
    assert.equal(download.suggestedFilename(), `2048-dqn-${paused.steps}steps.dqn`);
    const saved = await readFile(await download.path());
    assert.equal(saved.subarray(0, 13).toString("latin1"), "puzzlelab-dqn", "Save downloads a model file");

    // A model file read while the run is paused goes into the paused network (the shared card does it for every puzzle).
    assert.equal(await loadModelFile(page, "saved.dqn", saved), "");
    await page.waitForFunction(() => document.querySelector("#d2048-status").textContent.startsWith("Loaded the weights of “saved.dqn” into the paused network: Resume goes on from them."));
    await page.selectOption("#d2048-model", "trained");

    await page.click("#d2048-resume");
    await page.waitForFunction((steps) => Number(document.querySelector("#d2048-stats").dataset.steps) > steps, paused.steps, { timeout: 30_000 });
    assert.equal((await readTraining(page)).state, "running");
    await page.click("#d2048-stop");
    await page.waitForFunction(() => document.querySelector("#dqn-2048").dataset.state === "stopped", null, { timeout: 30_000 });
    training = await readTraining(page);
    assert.match(training.status, new RegExp(`^Stopped after ${training.steps.toLocaleString("en")} steps`));
    await page.waitForTimeout(600);
    assert.equal((await readTraining(page)).steps, training.steps, "no steps after Stop");
    assert.ok(await page.locator("#d2048-start").isEnabled());
    assert.match(await page.locator("#d2048-model-line").textContent(), new RegExp(`^The network trained here: filters 4/4, hidden 16, 2,668 parameters, ${training.steps.toLocaleString("en")} steps trained\\.$`));

    // The network trained here plays on the page's board.
    assert.equal(await page.locator("#d2048-model").inputValue(), "trained");
    await page.click("#d2048-watch");
    await page.waitForFunction(() => Number(document.querySelector("#agent-stat-moves").textContent) >= 3, null, { timeout: 30_000 });
    assert.match(await page.locator("#agent-model").textContent(), new RegExp(`^Mehta's DQN, trained here \\(${training.steps.toLocaleString("en")} steps\\)`));
    await page.click("#agent-play");

    // The saved file is a 2048 model (LearnedModel.fromBytes reads it) with its network and steps.
    assert.equal(await loadModelFile(page, "saved.dqn", saved), "");
    assert.match(await page.locator("#d2048-play-status").textContent(), /^Loaded “saved\.dqn” \([\d.]+ MB\)\.$/);
    assert.equal(await page.locator("#d2048-model").inputValue(), "file");
    assert.match(await page.locator("#d2048-model-line").textContent(), new RegExp(`^Loaded “saved\\.dqn”: filters 4/4, hidden 16, 2,668 parameters, ${paused.steps.toLocaleString("en")} steps trained`));
    assert.equal(training.error, "");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("learning from the n-tuple agent's demonstrations in the tab: its games are recorded, the imitation charts fill, then it plays on its own", slow, async () => {
    const page = await openPage(session);
    await fillForm(page, { ...TINY, "demo-games": 1, "pretrain-steps": 300, "demo-weight": 10 });
    await page.check("#d2048-demonstrations");
    await page.selectOption("#d2048-backend", "cpu");
    await recordStart(page);
    // The network's agreement with the demonstrator, chunk by chunk.
    await page.evaluate(() => {
      const cell = document.querySelector("#d2048-stat-agreement");
      window.agreements = [];
      new MutationObserver(() => window.agreements.push(cell.textContent)).observe(cell, { childList: true, characterData: true, subtree: true });
    });
    await page.click("#d2048-start");
    await page.waitForFunction(
      () => Number(document.querySelector("#d2048-stats").dataset.steps) > 450 && Number(document.querySelector("#d2048-stats").dataset.validations) >= 2,
      null,
      { timeout: 120_000 },
    );
    assert.ok(page.requests.includes("/www/models/2048-ntuple.ntuple.gz"), "the worker downloaded the demonstrator");
    const start = await page.evaluate(() => window.startLog);
    assert.deepEqual(start.stages.slice(-3), ["network", "demonstrations", "first"], JSON.stringify(start.stages));
    assert.ok(
      start.texts.some((text) => /^Getting ready to train \(\d of \d\): recording the demonstrator's games: the n-tuple network plays 1 game…/.test(text)),
      JSON.stringify(start.texts),
    );
    assert.match(await page.locator("#d2048-tech-lines").textContent(), /Build the network [\d.]+ s; Record the demonstrations [\d.]+ s; Take the first training steps/);
    // Pre-training on the demonstrations alone, then play with some of every batch demonstrated.
    const said = (pattern) => start.texts.some((text) => pattern.test(text));
    assert.ok(said(/^Training on the CPU… Learning from the n-tuple agent's demonstrations, pre-training on them alone: its move is the network's best in [\d.]+% of demonstrated positions\./), JSON.stringify(start.texts.slice(-5)));
    assert.ok(said(/Learning from the n-tuple agent's demonstrations, playing on its own with some of every batch demonstrated: its move is the network's best in [\d.]+%/), JSON.stringify(start.texts.slice(-5)));
    const training = await readTraining(page);
    const points = await page.evaluate(() => ["margin", "agreement"].map((id) => Number(document.querySelector(`#d2048-chart-${id}`).dataset.points ?? 0)));
    assert.ok(points.every((n) => n >= 3), `the imitation charts have lines (${points})`);
    assert.ok((await canvasInk(page, "#d2048-chart-agreement")) > 1000, "drawn");
    const agreements = await page.evaluate(() => window.agreements.filter((text) => /%$/.test(text)));
    assert.ok(agreements.length >= 3, JSON.stringify(agreements));
    await page.click("#d2048-stop");
    await page.waitForFunction(() => document.querySelector("#dqn-2048").dataset.state === "stopped", null, { timeout: 30_000 });
    const stopped = await readTraining(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#d2048-save")]);
    assert.equal(download.suggestedFilename(), `2048-dqn-demonstrations-${stopped.steps}steps.dqn`, "the saved file says how it was trained");
    await page.click("#d2048-watch");
    await page.waitForFunction(() => Number(document.querySelector("#agent-stat-moves").textContent) >= 2, null, { timeout: 30_000 });
    assert.match(await page.locator("#agent-model").textContent(), /^Mehta's DQN, trained here \([\d,]+ steps, from the n-tuple agent's demonstrations\)/);
    await page.click("#agent-play");
    await page.locator("#dqn-2048").scrollIntoViewIfNeeded();
    await page.locator("#dqn-2048").screenshot({ path: await screenshotPath("2048-dqn-demonstrations.png") });
    assert.equal(stopped.error, "");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("Auto times this network on WebGPU and on the CPU and trains on the faster, saying both figures; its start says each stage in plain words", { timeout: 4 * TEST_TIMEOUT_MS }, async () => {
    const page = await openPage(session);
    await fillForm(page, TINY);
    await page.selectOption("#d2048-backend", "auto");
    await recordStart(page);
    await page.click("#d2048-start");
    // During the start: the list of its stages, the one running said in plain words.
    await page.waitForFunction(() => document.querySelector("#dqn-2048").dataset.startStage === "check", null, { timeout: 90_000 });
    assert.match(await page.locator("#d2048-status").textContent(), /^Getting ready to train \(3 of 6\): checking that the graphics card \(WebGPU\) can train here…( \d+ s)?$/);
    assert.deepEqual(await page.locator("#d2048-getting-ready li .step-label").allTextContents(), [
      "Download the learning code",
      "Prepare it for this browser",
      "Check the graphics card",
      "Build the network",
      "Time it on the CPU and the graphics card",
      "Take the first training steps",
    ]);
    // The screen around the status line, its seconds running (SwiftShader's check takes many seconds).
    await page.locator("#d2048-status").evaluate((status) => status.scrollIntoView({ block: "center" }));
    await page.waitForTimeout(2_200);
    await page.screenshot({ path: await screenshotPath("2048-dqn-start.png") });
    await page.waitForFunction(() => Number(document.querySelector("#d2048-chart-loss").dataset.points ?? 0) >= 2, null, { timeout: 180_000 });
    const start = await page.evaluate(() => window.startLog);
    assert.deepEqual(start.stages.filter((stage) => stage !== "move"), ["download", "prepare", "check", "network", "timing", "first"]);
    const training = await readTraining(page);
    for (const text of [...start.texts, training.status]) assert.doesNotMatch(text, JARGON, "the status line speaks plainly");
    const plain = training.status.match(/^The graphics card \(WebGPU\) works here\. Timed on this network, it trains at ([\d.]+) steps a second and the CPU at ([\d.]+): training on (the graphics card|the CPU), the faster\./);
    assert.ok(plain, `the status line says both timings and the choice: ${training.status} ${training.error}`);
    // The technical details (folded): the same figures, with the kernels' race.
    const details = await page.locator("#d2048-tech-lines").textContent();
    const choice = details.match(
      /WebGPU agrees with the CPU \(largest difference [\d.e+-]+\)\. Its matrix products use (?:cubek's tiled|burn's default) kernel \([\d.e+]+ ms a product against [\d.e+]+ ms for [^)]+\)\. Timed on this network: WebGPU ([\d.]+) steps\/s, the CPU ([\d.]+) steps\/s; training on (WebGPU|the CPU), the faster\./,
    );
    assert.ok(choice, `the details say both timings and the choice: ${details}`);
    assert.deepEqual(plain.slice(1), [choice[1], choice[2], choice[3] === "WebGPU" ? "the graphics card" : "the CPU"]);
    const [webgpuRate, cpuRate] = [Number(choice[1]), Number(choice[2])];
    assert.ok(webgpuRate > 0 && cpuRate > 0, choice[0]);
    const faster = webgpuRate > cpuRate ? "webgpu" : "cpu";
    assert.equal(training.backend, faster, `trains on the faster (${choice[0]})`);
    await page.click("#d2048-stop");
    await page.waitForFunction(() => document.querySelector("#dqn-2048").dataset.state === "stopped", null, { timeout: 60_000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("a sliding-puzzle model is refused in words, and so is a shipped model that is not there", slow, async () => {
    const page = await openPage(session);
    const refusal = await loadModelFile(page, "8puzzle.dqn", SLIDING_MODEL);
    assert.match(
      refusal,
      /^The file "8puzzle\.dqn" could not be loaded: the model plays "sliding 3x3 goal 1,2,3,4,5,6,7,8,_", not 2048\. This is a sliding puzzle model: load it on the sliding puzzle page \(sliding\.html\)\.$/,
    );
    assert.equal(await page.locator("#d2048-play-error").getAttribute("role"), "alert");
    assert.ok(await page.locator("#d2048-model option[value=file]").evaluate((option) => option.disabled), "no model was taken");
    assert.match(await loadModelFile(page, "notes.txt", Buffer.from("not a model")), /could not be loaded: not a puzzlelab DQN model/);

    // www/models/2048-dqn.dqn may or may not ship: here the server answers 404 for it.
    await page.route("**/www/models/2048-dqn.dqn", (route) => route.fulfill({ status: 404, body: "not here" }));
    await page.evaluate(() => (document.querySelector("#d2048-play-error").hidden = true));
    await page.click("#d2048-load-shipped");
    await page.locator("#d2048-play-error").waitFor({ state: "visible" });
    assert.equal(
      await page.locator("#d2048-play-error").textContent(),
      "There is no shipped 2048 DQN model on this server (models/2048-dqn.dqn): train one here, or load a model file.",
    );
    assert.ok(await page.locator("#d2048-load-shipped").isEnabled(), "it can be tried again");
    // Watch and Evaluate with the shipped model say the same beside their buttons.
    await page.click("#d2048-evaluate");
    await page.locator("#d2048-eval-error").waitFor({ state: "visible" });
    assert.match(await page.locator("#d2048-eval-error").textContent(), /^There is no shipped 2048 DQN model on this server/);
    assert.ok(await page.locator("#d2048-evaluate").isEnabled());
    // 404s are logged by the browser as console errors; nothing else may be.
    assert.deepEqual(page.errors.filter((error) => !/404/.test(error)), []);
    await page.context().close();
  });

  test("the shipped model loads, and its manifest's games are shown with how it was trained", slow, async () => {
    const manifest = JSON.parse(await readFile(join(REPOSITORY_ROOT, "www", "models", "2048-dqn.dqn.json"), "utf8"));
    const page = await openPage(session);
    await page.click("#d2048-load-shipped");
    await page.waitForFunction(() => document.querySelector("#d2048-eval-table").dataset.rows === "1", null, { timeout: 60_000 });
    const status = await page.locator("#d2048-eval-status").textContent();
    const games = manifest.validation.games;
    assert.match(status, /From the model's manifest \(not run here\)/);
    assert.ok(status.includes(`over ${games} games`), status);
    // Pre-trained only, or then by self-play: its last run played on its own past its pre-training
    // steps; with the n-tuple agent's labels of its own games' positions (DAgger) when it had them.
    const selfPlay = manifest.hyperparameters.pretrainSteps < manifest.steps;
    const labelled = manifest.setup.demonstrations.labelled ? " and its moves in the positions of the network's own games (DAgger)" : "";
    assert.ok(status.includes(`Mehta's network, trained from the n-tuple agent's demonstrations${labelled}${selfPlay ? ", then by self-play" : ""}.`), status);
    assert.ok(labelled, "the shipped model learned from labelled positions of its own games");
    await page.locator("#d2048-eval-status").scrollIntoViewIfNeeded();
    await page.locator("#d2048-eval-status").screenshot({ path: await screenshotPath("2048-dqn-shipped.png") });
    const cells = await page.locator("#d2048-eval-table tbody tr").first().locator("th, td").allTextContents();
    assert.equal(cells[1], String(games));
    assert.equal(cells[3], Math.round(manifest.validation.mean_score).toLocaleString("en"));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("and the sliding-puzzle page refuses a 2048 model the same way", options, async () => {
    const page = await session.newPage();
    await page.setInputFiles("#dqn-file", { name: "2048-dqn-tiny.dqn", mimeType: "application/octet-stream", buffer: TINY_MODEL });
    await page.locator("#dqn-play-error").waitFor({ state: "visible", timeout: 45_000 });
    assert.equal(
      await page.locator("#dqn-play-error").textContent(),
      'The file "2048-dqn-tiny.dqn" could not be loaded: the model plays "2048 4x4", not a sliding puzzle. This is a 2048 model: load it on the 2048 page (2048.html).',
    );
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("\"Watch it play\" plays the model's moves on the page's board", options, async () => {
    const page = await openPage(session);
    assert.equal(await loadModelFile(page, "2048-dqn-tiny.dqn", TINY_MODEL), "");
    await page.evaluate(() => (document.querySelector("#game").dataset.movesBefore = String(document.querySelector("#game").game.moves)));
    await page.click("#d2048-watch");
    await page.waitForFunction(() => Number(document.querySelector("#agent-stat-moves").textContent) >= 5, null, { timeout: 30_000 });
    assert.match(await page.locator("#agent-model").textContent(), /^Mehta's DQN from “2048-dqn-tiny\.dqn”: filters 4\/4, hidden 16, 2,668 parameters, 2,000 steps trained/);
    assert.match(await page.locator("#d2048-play-status").textContent(), /plays on the board above/);
    assert.equal(await page.locator("#agent").getAttribute("data-state"), "playing");
    const moves = await page.evaluate(() => document.querySelector("#game").game.moves);
    assert.ok(moves >= 5, `the board moved (${moves} moves)`);
    // The player's own buttons still work: Pause stops it, Hint asks the model.
    await page.click("#agent-play");
    await page.waitForFunction(() => document.querySelector("#agent").dataset.state === "idle");
    const stopped = await page.evaluate(() => document.querySelector("#game").game.moves);
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => document.querySelector("#game").game.moves), stopped, "no moves once paused");
    if (!(await page.evaluate(() => document.querySelector("#game").game.isOver()))) {
      await page.click("#agent-hint");
      await page.waitForFunction(() => /^Hint: . (up|right|down|left)\.$/.test(document.querySelector("#agent-status").textContent));
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("an evaluation in the browser plays exactly the native evaluator's games for the same model and seed", options, async () => {
    const page = await openPage(session);
    assert.equal(await loadModelFile(page, "2048-dqn-tiny.dqn", TINY_MODEL), "");
    await page.evaluate(() => {
      window.progressSeen = [];
      const text = document.querySelector("#d2048-eval-progress-text");
      new MutationObserver(() => window.progressSeen.push(text.textContent)).observe(text, { childList: true, characterData: true, subtree: true });
    });
    await page.fill("#d2048-eval-games-n", String(NATIVE.summary.games));
    await page.fill("#d2048-eval-seed", String(NATIVE.seed));
    await page.click("#d2048-evaluate");
    await page.waitForFunction(() => document.querySelector("#d2048-eval-table").dataset.rows === "1" || !document.querySelector("#d2048-eval-error").hidden, null, {
      timeout: 30_000,
    });
    assert.ok(await page.locator("#d2048-eval-error").isHidden(), await page.locator("#d2048-eval-error").textContent());
    const report = JSON.parse(await page.locator("#d2048-eval-table tbody tr").first().getAttribute("data-report"));
    assert.deepEqual(games(report.summary), NATIVE.summary, `the same games as \`${NATIVE.made_by.at(-1)}\``);
    assert.equal(report.seed, NATIVE.seed);
    assert.equal(report.info.numParams, NATIVE.network.parameters);
    assert.equal(report.stats.scores.length, NATIVE.summary.games);
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.some((text) => /^[12] of 3 games \(\d+%\)$/.test(text)), `the games showed their progress (${JSON.stringify(seen)})`);
    const row = await page.locator("#d2048-eval-table tbody tr").first().textContent();
    assert.match(row, /^“2048-dqn-tiny\.dqn”37919/, "model, games, seed");
    assert.match(await page.locator("#d2048-eval-status").textContent(), /^“2048-dqn-tiny\.dqn”: mean score 919 over 3 games; 512 reached in 0%, 2048 in 0%/);
    assert.ok(await page.locator("#d2048-eval-progress").isHidden());
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
