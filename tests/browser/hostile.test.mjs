// Hostile input in the page (issue 20): random and hostile strings, from a seeded generator, fed
// to every page's URL hash, to <puzzle-widget> attributes (at creation and on a live widget) and
// to the text inputs that take a board. Invariants: no uncaught error and no wasm panic, the page
// still starts (a bad hash falls back to a default game), a bad attribute is reported inside its
// own widget and a live widget keeps its game, a bad board text (sliding, Minesweeper, dust,
// Sudoku) is refused with a message and the board the user had is untouched. Then hostile model
// indexes and manifests (the JSON files the page reads beside the models).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, clickCell, readBoard, setCustomStart, startSession, waitForApp, waitForLearnCard } from "./helpers.mjs";
import { seededRandom } from "../../scripts/seeded-random.mjs";

/** HOSTILE_SCALE=10 runs ten times the cases (and allows ten times the time) for a longer hunt. */
const SCALE = Math.max(1, Number(process.env.HOSTILE_SCALE ?? 1));
const options = { timeout: 4 * SCALE * TEST_TIMEOUT_MS };

const PIECES = [
  "", "0", "-1", "1e309", "NaN", "Infinity", "99999999999999999999", "4294967297", "2x3", "4x4", "3×3", "50x50",
  "51x51", "0x0", "%", "%ZZ", "%00", "<img src=x onerror=window.__hostile=1>", "\u0000", "\uFFFF", "\u202E", "😀",
  "_", ",", "&", "=", "#", "a".repeat(3000), "1,2,3,4,5,6,7,8,_", "1,1,1,1,1,1,1,1,1", ".", "\n", "beginner",
  "expert", "opening", "dust", "sliding", "sun-moon", "true", "9".repeat(400),
];

/** A hostile string: one to four pieces, or random code points. */
function hostile(random) {
  if (random() < 0.25) {
    const length = Math.floor(random() * 40);
    // Any code point but a lone surrogate (not a string a browser can hold in a URL).
    const point = () => {
      const p = Math.floor(random() * 0x2ffff);
      return p >= 0xd800 && p <= 0xdfff ? p - 0x800 : p;
    };
    return Array.from({ length }, () => String.fromCodePoint(point())).join("");
  }
  const count = 1 + Math.floor(random() * 4);
  return Array.from({ length: count }, () => PIECES[Math.floor(random() * PIECES.length)]).join("");
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** Errors that mean our code broke (anything uncaught counts; console errors are listed too). */
function broken(page) {
  return page.errors.filter((message) => !/Failed to load resource/.test(message));
}

const PAGES = [
  { path: "/www/sliding.html", keys: ["size", "start", "goal", "preset"] },
  { path: "/www/minesweeper.html", keys: ["seed", "level", "first-click", "no-guess"] },
  { path: "/www/samegame.html", keys: ["rules", "board", "seed"] },
  { path: "/www/sudoku.html", keys: ["puzzle", "digits", "size", "difficulty", "seed"] },
  { path: "/www/2048.html", keys: ["seed"] },
];

describe("hostile input in the page", () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.close();
  });

  test("every page starts under hostile URL hashes, without an uncaught error", options, async () => {
    const random = seededRandom(20261126);
    let cases = 0;
    for (const { path, keys } of PAGES) {
      const page = await session.open(path);
      await waitForApp(page);
      for (let i = 0; i < 8 * SCALE; i++) {
        const parts = Array.from({ length: 1 + Math.floor(random() * keys.length) }, () => {
          const value = hostile(random);
          // Half the values go in raw (the page must cope with bad %-escapes too).
          return `${pick(random, keys)}=${random() < 0.5 ? encodeURIComponent(value) : value.replace(/[#\s]/g, "")}`;
        });
        const hash = `#${parts.join("&")}`;
        await page.goto("about:blank");
        await page.goto(new URL(path + hash, session.url).href);
        await waitForApp(page);
        assert.deepEqual(broken(page), [], `${path}${hash.slice(0, 200)}`);
        assert.equal(await page.evaluate(() => window.__hostile), undefined, "markup from the hash ran");
        cases++;
      }
    }
    assert.equal(cases, PAGES.length * 8 * SCALE);
  });

  test("widgets with hostile attributes report them inside themselves; a live widget keeps its game", options, async () => {
    const random = seededRandom(7);
    const page = await session.newWidgetPage("/tests/browser/fixtures/elsewhere/host.html");
    const attributes = {
      "": ["size", "start", "goal", "preset", "solver", "speed", "controls"],
      minesweeper: ["seed", "level", "width", "height", "mines", "first-click", "no-guess", "overlay"],
      sudoku: ["size", "difficulty", "seed", "pencil"],
      2048: ["seed", "agent", "depth", "always-two"],
      dust: ["seed"],
      samegame: ["seed"],
    };
    const specs = Array.from({ length: 30 * SCALE }, (_, i) => {
      const puzzle = random() < 0.1 ? hostile(random) : pick(random, Object.keys(attributes));
      const names = attributes[puzzle] ?? attributes[""];
      const set = { puzzle };
      for (let k = 0; k < 1 + Math.floor(random() * 3); k++) set[pick(random, names)] = hostile(random);
      return { id: `hostile-${i}`, set };
    });
    await page.evaluate((specs) => {
      for (const { id, set } of specs) {
        const widget = document.createElement("puzzle-widget");
        widget.id = id;
        for (const [name, value] of Object.entries(set)) if (name !== "puzzle" || value) widget.setAttribute(name, value);
        document.body.append(widget);
      }
    }, specs);
    await page.waitForFunction(
      (count) => [...document.querySelectorAll("puzzle-widget[id^=hostile]")].filter((w) => w.hasAttribute("ready")).length === count,
      specs.length,
      { timeout: 60_000 },
    );
    assert.deepEqual(broken(page), []);
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll("puzzle-widget[id^=hostile]")].map((widget) => ({
        id: widget.id,
        invalid: widget.hasAttribute("invalid"),
        error: widget.shadowRoot.querySelector("[part=error]").textContent.trim(),
      })),
    );
    const invalid = shown.filter((w) => w.invalid);
    assert.ok(invalid.length >= 10 * SCALE, `most hostile widgets are invalid: ${invalid.length} of ${shown.length}`);
    for (const w of invalid) assert.ok(w.error.length > 0, `${w.id} says what is wrong`);

    // A live sliding widget: a hostile start leaves the board of the last valid one and says why
    // (a random text that happens to be a valid start is a new game).
    let last = (await readBoard(page, "#elsewhere")).model;
    let refused = 0;
    for (let i = 0; i < 10 * SCALE; i++) {
      const value = hostile(random);
      await page.evaluate((v) => document.querySelector("#elsewhere").setAttribute("start", v), value);
      await page.waitForTimeout(150);
      const now = (await readBoard(page, "#elsewhere")).model;
      const state = await page.evaluate(() => {
        const widget = document.querySelector("#elsewhere");
        return { invalid: widget.hasAttribute("invalid"), error: widget.shadowRoot.querySelector("[part=error]").textContent };
      });
      if (state.invalid) {
        refused++;
        assert.deepEqual(now, last, `start=${JSON.stringify(value).slice(0, 120)}`);
        assert.match(state.error, /start/);
      } else {
        last = now;
      }
    }
    assert.ok(refused >= 8 * SCALE, `hostile starts refused: ${refused}`);
    assert.deepEqual(broken(page), []);
  });

  test("hostile board texts are refused with a message and the board stays", options, async () => {
    const random = seededRandom(99);
    const page = await session.open("/www/sliding.html");
    await waitForApp(page);
    const before = await readBoard(page);
    let refused = 0;
    for (let i = 0; i < 25 * SCALE; i++) {
      const text = hostile(random);
      await setCustomStart(page, text, random() < 0.3 ? hostile(random) : "");
      const after = await readBoard(page);
      const error = page.locator("#input-error");
      const message = (await error.isVisible()) ? await error.textContent() : "";
      if (message.trim()) {
        refused++;
        assert.deepEqual(after.model, before.model, `refused ${JSON.stringify(text).slice(0, 120)} changed the board`);
      }
    }
    assert.ok(refused >= 20 * SCALE, `hostile texts refused: ${refused} of ${25 * SCALE}`);
    assert.deepEqual(broken(page), []);
  });

  test("hostile board texts on the Minesweeper, dust and Sudoku pages are refused; the game stays", options, async () => {
    const random = seededRandom(123);
    const pages = [
      { path: "/www/minesweeper.html#seed=1&level=beginner", details: ".board-text summary", input: "#board-text", error: "#board-error" },
      { path: "/www/samegame.html#rules=dust&seed=1", details: ".board-text summary", input: "#board-text", error: "#board-error" },
      { path: "/www/sudoku.html#seed=1", details: ".puzzle-text summary", input: "#puzzle-text", error: "#puzzle-error" },
    ];
    for (const { path, details, input, error } of pages) {
      const page = await session.open(path);
      await waitForApp(page);
      const game = () =>
        page.evaluate(() => {
          const g = document.querySelector("#game").game;
          return g.toText?.() ?? g.text?.() ?? g.puzzleText ?? null;
        });
      let last = await game();
      assert.ok(last, `${path}: the game can be read`);
      await page.click(details);
      let refused = 0;
      for (let i = 0; i < 15 * SCALE; i++) {
        const text = hostile(random);
        await page.fill(input, text);
        await page.click("#apply-text");
        const shown = (await page.locator(error).isVisible()) ? await page.locator(error).textContent() : "";
        const now = await game();
        if (shown.trim()) {
          refused++;
          assert.equal(now, last, `${path}: refused ${JSON.stringify(text).slice(0, 120)} changed the game`);
        } else {
          last = now;
        }
      }
      assert.ok(refused >= 12 * SCALE, `${path}: hostile texts refused: ${refused} of ${15 * SCALE}`);
      assert.deepEqual(broken(page), [], path);
      await page.context().close();
    }
  });

  test("hostile model indexes and manifests: the card says what it could not read, and the page plays on", options, async () => {
    const index = readFileSync(join(REPOSITORY_ROOT, "www/models/dqn-index.json"), "utf8");
    const json = (body) => ({ contentType: "application/json", body });
    const indexes = [
      ["an HTML page", { contentType: "text/html", body: "<!doctype html><title>Not found</title><h1>Sorry</h1>" }],
      ["cut halfway", json(index.slice(0, Math.floor(index.length / 2)))],
      ["another version", json('{"version": 99, "models": []}')],
      ["models that are not a list", json('{"version": 1, "models": "8puzzle.dqn"}')],
      ["entries of the wrong types", json('{"version": 1, "models": [null, 5, "x", {"file": 7, "size": [3, 3], "title": {"a": 1}}]}')],
      ["a number", json("1e400")],
    ];
    for (const [what, body] of indexes) {
      const page = await session.open("/www/sliding.html", {}, {
        beforeGoto: (page) => page.route("**/www/models/dqn-index.json", (route) => route.fulfill({ status: 200, ...body })),
      });
      await waitForApp(page);
      await page.waitForFunction(() => /could not be listed/.test(document.querySelector("#dqn-play-status")?.textContent ?? ""), null, { timeout: 30_000 });
      assert.match(await page.locator("#dqn-play-status").textContent(), /The shipped models could not be listed \(.+\); load a model file instead\./, what);
      assert.ok(await page.locator("#dqn-load-shipped").isDisabled(), `${what}: nothing to load`);
      // The page plays on: a tile beside the blank moves.
      const board = await readBoard(page);
      const blank = board.model.indexOf(0);
      await clickCell(page, blank % board.cols > 0 ? blank - 1 : blank + 1);
      assert.equal((await readBoard(page)).moves, board.moves + 1, `${what}: a move is played`);
      assert.deepEqual(broken(page), [], what);
      await page.context().close();
    }

    // The 8-puzzle model's manifest, hostile: the model still loads and solves; the card says the
    // manifest could not be read, or shows nothing from it.
    const manifests = [
      ["an HTML page", { contentType: "text/html", body: "<!doctype html><title>x</title>" }, true],
      ["cut halfway", json('{"evaluation": {"rows": ['), true],
      ["rows that are not a list", json('{"evaluation": {"rows": "abc"}}'), false],
      ["rows that are not rows", json('{"evaluation": {"rows": [null, 5, "x"]}}'), true],
      ["null", json("null"), false],
    ];
    for (const [what, body, refused] of manifests) {
      const page = await session.open("/www/sliding.html", {}, {
        beforeGoto: (page) => page.route("**/www/models/8puzzle.dqn.json", (route) => route.fulfill({ status: 200, ...body })),
      });
      await waitForApp(page);
      await waitForLearnCard(page);
      await page.waitForFunction(() => !document.querySelector("#dqn-load-shipped").disabled && document.querySelector("#dqn-shipped").value, null, { timeout: 30_000 });
      await page.selectOption("#dqn-shipped", "8puzzle.dqn");
      await page.click("#dqn-load-shipped");
      await page.waitForFunction(() => /Loaded 8puzzle\.dqn/.test(document.querySelector("#dqn-play-status").textContent), null, { timeout: 60_000 });
      // The manifest is read after the model: give it the time a fetch takes here.
      await page.waitForTimeout(500);
      const status = await page.locator("#dqn-eval-status").textContent();
      if (refused) assert.match(status, /^The model's manifest could not be read \(.+\); Evaluate measures the model here\.$/, what);
      else assert.equal(status, "", `${what}: nothing from it is shown`);
      assert.equal(await page.locator("#dqn-evaluation").getAttribute("data-rows"), null, `${what}: no evaluation table from it`);
      assert.equal(await page.locator("#dqn-model-line").getAttribute("data-source"), "shipped", `${what}: the model is loaded`);
      assert.deepEqual(broken(page), [], what);
      await page.context().close();
    }
  });
});
