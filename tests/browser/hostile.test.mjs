// Hostile input in the page (issue 20): random and hostile strings, from a seeded generator, fed
// to every page's URL hash, to <puzzle-widget> attributes (at creation and on a live widget) and
// to the text inputs that take a board. Invariants: no uncaught error and no wasm panic, the page
// still starts (a bad hash falls back to a default game), a bad attribute is reported inside its
// own widget and a live widget keeps its game, a bad board text (sliding, Minesweeper, dust,
// Sudoku) is refused with a message and the board the user had is untouched.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_TIMEOUT_MS, readBoard, setCustomStart, startSession, waitForApp } from "./helpers.mjs";

/** HOSTILE_SCALE=10 runs ten times the cases (and allows ten times the time) for a longer hunt. */
const SCALE = Math.max(1, Number(process.env.HOSTILE_SCALE ?? 1));
const options = { timeout: 4 * SCALE * TEST_TIMEOUT_MS };

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  { path: "/www/index.html", keys: ["size", "start", "goal", "preset"] },
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
    const random = generator(20261126);
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
    const random = generator(7);
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
    const random = generator(99);
    const page = await session.open("/www/index.html");
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
    const random = generator(123);
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
});
