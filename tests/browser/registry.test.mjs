// The puzzle registry (www/common/puzzles.js) checked against everything it drives: every puzzle
// has its page, docs page, widget panel module and (when it learns) its jobs module and shipped
// models on disk; every page's nav lists every page of the registry with its own marked; every
// widget mode renders a board in a <puzzle-widget>; the learning worker has a job table entry
// for every learnable puzzle (its model and trainer classes in the learning bundle, its own
// requests answered), refuses a request that names no puzzle, and refuses a model file of one
// puzzle loaded as another's with a sentence naming the page where it loads (the shipped models,
// every pair).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, startSession, waitForApp } from "./helpers.mjs";
import { DEFAULT_WIDGET_MODE, HOME, OFFERS, PUZZLES, byId, learnablePuzzles, puzzleOfModel, sitePages } from "../../www/common/puzzles.js";
import { PUZZLE_KINDS } from "../../www/common/widget-attributes.js";

const options = { timeout: TEST_TIMEOUT_MS };
/** Loading the learning bundle and every shipped model in every puzzle's class takes longer. */
const slow = { timeout: 3 * TEST_TIMEOUT_MS };
/** A page of the server's www/ that the tests write themselves (page.route), so that imports resolve as the pages' do. */
const TEST_PAGE = "/www/registry-test.html";
const WWW = join(REPOSITORY_ROOT, "www");

/** The shipped model files of a learnable puzzle, as paths from www/ (a sliding index's entries too). */
function shippedModels(puzzle) {
  const { shipped = [], shippedIndex } = puzzle.learner;
  if (!shippedIndex) return shipped;
  const index = JSON.parse(readFileSync(join(WWW, shippedIndex), "utf8"));
  const folder = shippedIndex.split("/").slice(0, -1).join("/");
  return [...shipped, ...index.models.map((model) => `${folder}/${model.file}`)];
}

/** The puzzleId in a model file's header (`puzzlelab-dqn\n`, a u32 LE length, the JSON header). */
function headerPuzzleId(path) {
  const bytes = readFileSync(join(WWW, path));
  const length = bytes.readUInt32LE(14);
  return JSON.parse(bytes.subarray(18, 18 + length).toString("utf8")).puzzleId;
}

let session = null;
after(() => session?.close(), options);

/** Opens TEST_PAGE with `body` (HTML) as its body. */
async function openTestPage(body = "") {
  session ??= await startSession();
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>registry test</title></head><body>${body}</body></html>`;
  return session.open(TEST_PAGE, {}, { beforeGoto: (page) => page.route(`**${TEST_PAGE}`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: html })) });
}

describe("the puzzle registry", () => {
  test("every puzzle's files are where the registry says, and the registry's lookups agree", options, () => {
    assert.deepEqual(
      PUZZLES.map((puzzle) => puzzle.id),
      ["sliding", "2048", "minesweeper", "sudoku", "dust", "samegame"],
    );
    assert.equal(new Set(PUZZLES.map((puzzle) => puzzle.id)).size, PUZZLES.length, "ids are unique");
    for (const puzzle of PUZZLES) {
      assert.equal(byId(puzzle.id), puzzle);
      for (const path of [join(WWW, puzzle.page), join(REPOSITORY_ROOT, puzzle.docs), join(WWW, puzzle.widget.module)]) {
        assert.ok(existsSync(path), `${puzzle.id}: ${path} exists`);
      }
      if (!puzzle.learner) continue;
      assert.ok(existsSync(join(WWW, puzzle.learner.jobs)), `${puzzle.id}: ${puzzle.learner.jobs} exists`);
      const models = shippedModels(puzzle);
      assert.ok(models.length > 0, `${puzzle.id} ships a model`);
      for (const model of models) {
        const puzzleId = headerPuzzleId(model);
        assert.equal(puzzleOfModel(puzzleId)?.id, puzzle.id, `${model} (puzzleId "${puzzleId}") is a ${puzzle.id} model`);
      }
    }
    assert.deepEqual(
      learnablePuzzles().map((puzzle) => puzzle.id),
      ["sliding", "2048", "minesweeper", "sudoku", "dust"],
    );
    assert.equal(new Set(learnablePuzzles().map((puzzle) => puzzle.learner.trainedKey)).size, 5, "trained keys are unique");
    assert.equal(byId("nonesuch"), null);
    assert.equal(puzzleOfModel("tetris 10x20"), null);
    assert.deepEqual(PUZZLE_KINDS, PUZZLES.map((puzzle) => puzzle.widget.mode), "the widget's puzzle attribute takes every mode");
    assert.ok(PUZZLE_KINDS.includes(DEFAULT_WIDGET_MODE));
    assert.ok(Object.isFrozen(PUZZLES) && Object.isFrozen(PUZZLES[0].learner), "nobody changes the registry");
  });

  test("on every page, with its learning card set up and its folds open, every control and board has an accessible name", slow, async () => {
    session ??= await startSession();
    const roles = new Set(["button", "checkbox", "combobox", "grid", "link", "listbox", "radio", "slider", "spinbutton", "textbox", "progressbar", "meter", "img"]);
    for (const { page: file } of [HOME, ...sitePages(), { page: "embed.html" }]) {
      const page = await session.open(`/www/${file}`);
      await page.waitForFunction(() => [...document.querySelectorAll("puzzle-widget")].every((widget) => widget.hasAttribute("ready")) && document.readyState === "complete", null, { timeout: 45_000 });
      if (file !== "embed.html") await waitForApp(page);
      if (await page.locator("[data-learn-ready], #dqn").count()) await page.waitForFunction(() => !document.querySelector("#dqn") || document.querySelector("[data-learn-ready]"), null, { timeout: 45_000 });
      await page.evaluate(() => document.querySelectorAll("details").forEach((details) => (details.open = true)));
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = await cdp.send("Accessibility.getFullAXTree");
      const unnamed = [];
      for (const node of nodes) {
        if (node.ignored || !roles.has(node.role?.value) || (node.name?.value ?? "").trim()) continue;
        const { node: element } = await cdp.send("DOM.describeNode", { backendNodeId: node.backendDOMNodeId });
        unnamed.push(`${node.role.value} <${element.localName} ${(element.attributes ?? []).join(" ").slice(0, 80)}>`);
      }
      assert.deepEqual(unnamed, [], `${file}: ${nodes.length} accessibility nodes`);
      assert.deepEqual(page.errors, [], file);
      await page.context().close();
    }
  });

  test("every puzzle's page loads, and its nav lists every page with its own marked", options, async () => {
    session ??= await startSession();
    const expected = [{ ...HOME, puzzles: [] }, ...sitePages()];
    assert.deepEqual(expected.flatMap((entry) => entry.puzzles).sort(), PUZZLES.map((puzzle) => puzzle.id).sort(), "every puzzle has its page");
    // The home page, then a page per puzzle, once (dust and SameGame share theirs), one after the other in one tab.
    let page = null;
    for (const own of expected) {
      if (page) await page.goto(new URL(own.page, session.url).href);
      else page = await session.open(`/www/${own.page}`);
      await waitForApp(page);
      const nav = await page.evaluate(() =>
        [...document.querySelectorAll("nav.site-nav a")].map((link) => ({
          label: link.textContent,
          path: new URL(link.href).pathname,
          current: link.getAttribute("aria-current"),
        })),
      );
      assert.deepEqual(
        nav,
        expected.map((entry) => ({ label: entry.nav, path: `/www/${entry.page}`, current: entry === own ? "page" : null })),
        `the nav of ${own.page}`,
      );
      // Every link leads to a page that is there.
      const statuses = await page.evaluate((paths) => Promise.all(paths.map((path) => fetch(path, { method: "HEAD" }).then((response) => response.status))), nav.map((link) => link.path));
      assert.deepEqual(statuses, nav.map(() => 200), `the links of ${own.page}`);
      assert.deepEqual(page.errors, [], own.page);
    }
    await page.context().close();
  });

  test("the home page: a live board, a sentence, what its page offers, a link and its docs for every puzzle; an old sliding link goes on", options, async () => {
    session ??= await startSession();
    const page = await session.open("/www/");
    await waitForApp(page);
    await page.waitForFunction(() => [...document.querySelectorAll("puzzle-widget")].every((widget) => widget.hasAttribute("ready")), null, { timeout: 45_000 });
    const cards = await page.evaluate(() =>
      [...document.querySelectorAll("#puzzles > li")].map((card) => {
        const widget = card.querySelector("puzzle-widget");
        const boards = [...widget.shadowRoot.querySelectorAll("*")].filter((element) => element.localName.endsWith("-board"));
        return {
          puzzle: card.dataset.puzzle,
          mode: widget.getAttribute("puzzle"),
          boardWidth: Math.max(0, ...boards.map((board) => board.getBoundingClientRect().width)),
          error: widget.shadowRoot.querySelector("[part=error]").hidden ? "" : widget.shadowRoot.querySelector("[part=error]").textContent,
          text: card.querySelector("p").textContent,
          offers: [...card.querySelectorAll("[data-offer]")].map((offer) => offer.dataset.offer),
          links: [...card.querySelectorAll("a")].map((link) => link.href),
        };
      }),
    );
    assert.deepEqual(cards.map((card) => card.puzzle), PUZZLES.map((puzzle) => puzzle.id), "a card per puzzle, in the registry's order");
    for (const [index, card] of cards.entries()) {
      const puzzle = PUZZLES[index];
      assert.equal(card.mode, puzzle.widget.mode);
      assert.ok(card.boardWidth > 100, `${puzzle.id}: its live board is shown (${card.boardWidth} px)`);
      assert.equal(card.error, "", `${puzzle.id}: no error`);
      assert.equal(card.text, puzzle.home.blurb);
      assert.deepEqual(card.offers, puzzle.home.offers);
      assert.ok(card.offers.every((offer) => offer in OFFERS));
      assert.deepEqual(card.links, [new URL(puzzle.home.link, session.url).href, new URL(puzzle.home.link, session.url).href, new URL(`../${puzzle.docs}`, session.url).href], `${puzzle.id}: links to its page (heading, button) and its docs`);
      assert.equal(card.offers.includes("train"), Boolean(puzzle.learner), `${puzzle.id}: offers training exactly when it learns`);
    }
    // The boards are live: the 8-puzzle solves.
    const solution = await page.evaluate(() => document.querySelector("#puzzles > li[data-puzzle=sliding] puzzle-widget").solve());
    assert.ok(solution.optimal);
    // The links at the foot lead somewhere.
    const foot = await page.evaluate(() => [...document.querySelectorAll(".home-links a, .home-start a")].map((link) => new URL(link.href).pathname));
    const statuses = await page.evaluate((paths) => Promise.all(paths.map((path) => fetch(path, { method: "HEAD" }).then((response) => response.status))), foot);
    assert.deepEqual(statuses, foot.map(() => 200), `the links: ${foot}`);
    assert.deepEqual(page.errors, []);

    // A link of the old form (the sliding page was index.html) opens the sliding page with its position.
    await page.goto(new URL("index.html#size=2x3&start=4,1,2,_,5,3", session.url).href);
    await page.waitForURL(/sliding\.html#size=2x3&start=/);
    await waitForApp(page);
    assert.deepEqual(await page.evaluate(() => document.querySelector("#board").state.board), [4, 1, 2, 0, 5, 3]);
    await page.context().close();
  });

  test("every widget mode of the registry renders a board in a <puzzle-widget>", options, async () => {
    const widgets = PUZZLES.map((puzzle) => `<puzzle-widget id="w-${puzzle.id}" puzzle="${puzzle.widget.mode}" seed="3"></puzzle-widget>`).join("\n");
    const page = await openTestPage(`${widgets}<script type="module" src="./widget.js"></script>`);
    await page.waitForFunction(() => [...document.querySelectorAll("puzzle-widget")].every((widget) => widget.hasAttribute("ready")), null, { timeout: 45_000 });
    for (const puzzle of PUZZLES) {
      // A shown board: the mode's board element (<sliding-board>, <game2048-board>, …), laid out.
      await page.waitForFunction(
        (id) => {
          const root = document.getElementById(id).shadowRoot;
          return [...root.querySelectorAll("*")].some((element) => element.localName.endsWith("-board") && element.getBoundingClientRect().width > 0);
        },
        `w-${puzzle.id}`,
        { timeout: 15_000 },
      );
      const shown = await page.evaluate((id) => {
        const root = document.getElementById(id).shadowRoot;
        return {
          boards: [...root.querySelectorAll("*")].filter((element) => element.localName.endsWith("-board") && element.getBoundingClientRect().width > 0).map((element) => element.localName),
          error: root.querySelector("[part=error]").hidden ? "" : root.querySelector("[part=error]").textContent,
        };
      }, `w-${puzzle.id}`);
      assert.equal(shown.boards.length, 1, `${puzzle.id}: one board shown (${shown.boards})`);
      assert.equal(shown.error, "", `${puzzle.id}: no error`);
    }
    // Each mode's module exports the panel class the registry names.
    const panels = await page.evaluate(async (modes) => {
      const found = {};
      for (const { mode, module, panel } of modes) found[mode] = typeof (await import(`./${module}`))[panel];
      return found;
    }, PUZZLES.map((puzzle) => puzzle.widget));
    assert.deepEqual(panels, Object.fromEntries(PUZZLES.map((puzzle) => [puzzle.widget.mode, "function"])));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the learning worker: a job table entry per learnable puzzle, no default puzzle, every foreign model file refused with its page, and a model plays and is evaluated only as its own puzzle's", slow, async () => {
    const page = await openTestPage();
    const learnable = learnablePuzzles().map(({ id, learner }) => ({ id, learner }));
    const known = learnable.map(({ id }) => `"${id}"`).join(", ");

    // Each jobs module gives the worker its part; the classes are the learning bundle's.
    const parts = await page.evaluate(async (puzzles) => {
      const bundle = await import("../pkg/learn/puzzlelab.js");
      const found = {};
      for (const puzzle of puzzles) {
        const { learnJobs } = await import(`./${puzzle.learner.jobs}`);
        const jobs = learnJobs({ puzzle, bundleReady: new Promise(() => {}), keptModel() {}, withTrainer() {}, snapshotTrained() {}, isKept() {} });
        found[puzzle.id] = {
          model: typeof bundle.LearnedModel?.forPuzzle,
          trainer: typeof bundle.LearnerTrainer?.create,
          own: Object.keys(bundle).filter((name) => /^Dqn.*(Model|Trainer)$/.test(name)),
          handlers: Object.keys(jobs.handlers ?? {}),
          chunkSteps: ["cpu", "webgpu"].every((backend) => ["first", "min", "max"].every((bound) => Number.isInteger(jobs.chunkSteps?.[backend]?.[bound]))),
        };
      }
      return found;
    }, learnable);
    assert.deepEqual(
      parts[learnable[0].id].own,
      [],
      "every learner trains and plays through the bundle's one LearnerTrainer and LearnedModel: no puzzle's own class is left",
    );
    for (const { id } of learnable) {
      assert.equal(parts[id].model, "function", `${id}: its model class loads files`);
      assert.equal(parts[id].trainer, "function", `${id}: its trainer class creates trainers`);
      assert.ok(parts[id].chunkSteps, `${id}: its chunk sizes`);
    }
    const types = Object.values(parts).flatMap((part) => part.handlers);
    assert.equal(new Set(types).size, types.length, `no two puzzles answer the same request (${types})`);

    const urls = Object.fromEntries(learnablePuzzles().map((puzzle) => [puzzle.id, shippedModels(puzzle)[0]]));
    const outcome = await page.evaluate(
      async ({ types, urls }) => {
        const { LearnClient } = await import("./common/learn-client.js");
        const learn = new LearnClient();
        await learn.ready;
        const refusal = (promise) => promise.then(() => "", (error) => error.message);
        const result = {
          // Every puzzle's own requests are in the worker's table (a missing model is what they say).
          answers: Object.fromEntries(await Promise.all(types.map(async (type) => [type, await refusal(learn.request({ type, key: "no-such-model", job: -1 }))]))),
          unknownType: await refusal(learn.request({ type: "no-such-request" })),
          loadWithout: await refusal(learn.request({ type: "load-model", key: "k", url: urls.sudoku })),
          clientWithout: await refusal(learn.loadModelUrl(urls.sudoku, { key: "k2" })),
          trainWithout: await refusal(learn.request({ type: "train", options: {}, backend: "cpu" })),
          trainSameGame: await refusal(learn.train({ puzzle: "samegame", backend: "cpu" })),
          loadUnknown: await refusal(learn.loadModelUrl(urls.sudoku, { key: "k3", puzzle: "tetris" })),
          notAModel: await refusal(learn.loadModelBytes(new TextEncoder().encode("hello"), { key: "k4", name: "notes.txt", puzzle: "sudoku" })),
          pairs: {},
          asOther: {},
        };
        // Every shipped model file loaded as every learnable puzzle's model.
        for (const [owner, url] of Object.entries(urls)) {
          for (const as of Object.keys(urls)) {
            const absolute = new URL(url, location.href).href;
            result.pairs[`${owner} as ${as}`] = await refusal(learn.loadModelUrl(absolute, { key: `${owner}-as-${as}`, puzzle: as }));
          }
        }
        // A kept model plays and is evaluated through the same two requests for every puzzle: asked
        // as another puzzle's, it is refused before anything runs.
        const owners = Object.keys(urls);
        for (const [i, owner] of owners.entries()) {
          const other = owners[(i + 1) % owners.length];
          const key = `${owner}-as-${owner}`;
          result.asOther[owner] = [await refusal(learn.play(key, other, {})), await refusal(learn.evaluate(key, other, {}))];
        }
        learn.dispose();
        return result;
      },
      { types, urls },
    );
    for (const [type, answer] of Object.entries(outcome.answers)) assert.doesNotMatch(answer, /Unknown request/, `${type} is answered: ${answer}`);
    assert.equal(outcome.unknownType, 'Unknown request "no-such-request".');
    assert.equal(outcome.loadWithout, `A "load-model" request names its puzzle: give puzzle ${known}.`);
    assert.equal(outcome.clientWithout, outcome.loadWithout, "the client sends no default either");
    assert.equal(outcome.trainWithout, `A "train" request names its puzzle: give puzzle ${known}.`);
    assert.equal(outcome.trainSameGame, `The learning worker has no jobs for SameGame ("samegame"); it has jobs for ${known}.`);
    assert.equal(outcome.loadUnknown, `Unknown puzzle "tetris": the learning worker has jobs for ${known}.`);
    assert.match(outcome.notAModel, /^The file "notes\.txt" could not be loaded: not a puzzlelab DQN model[^.]*$/, "no page is named for what is no model");
    // The page took the owners in the order of `urls`' keys ("2048", an index, first).
    const owners = Object.keys(urls).map((id) => learnablePuzzles().find((puzzle) => puzzle.id === id));
    for (const [i, owner] of owners.entries()) {
      const other = owners[(i + 1) % owners.length];
      const refusal = `The model "${owner.id}-as-${owner.id}" is a ${owner.title} model, not a ${other.title} one.`;
      assert.deepEqual(outcome.asOther[owner.id], [refusal, refusal], `a ${owner.id} model asked to play or be evaluated as ${other.id}`);
    }
    for (const owner of learnablePuzzles()) {
      for (const as of learnablePuzzles()) {
        const refused = outcome.pairs[`${owner.id} as ${as.id}`];
        if (owner === as) {
          assert.equal(refused, "", `a ${owner.id} model loads as one`);
          continue;
        }
        const sentence = `. This is a ${owner.title} model: load it on the ${owner.title} page (${owner.page}).`;
        assert.ok(refused.startsWith("The model at ") && refused.includes(" could not be loaded: "), `${owner.id} as ${as.id}: ${refused}`);
        assert.ok(refused.endsWith(sentence), `${owner.id} as ${as.id}: "${refused}" ends with "${sentence}"`);
      }
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
