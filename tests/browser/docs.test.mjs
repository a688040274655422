// The docs as pages of the site (scripts/markdown-page.mjs through scripts/serve.mjs): the home
// page's links open README.md and docs/widget.md rendered (headings, code, tables, the site's
// nav), a link to a section lands on it, a docs folder is listed, and what reads the files
// (fetch, `?raw`) still gets the Markdown. And every link in every tracked Markdown file lands:
// on a file that exists and, for a section of a .md file, on a heading the rendered page has.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { after, describe, test } from "node:test";
import { REPOSITORY_ROOT, TEST_TIMEOUT_MS, startSession } from "./helpers.mjs";
import { headingSlugger, markdownPage } from "../../scripts/markdown-page.mjs";
import { HOME, sitePages } from "../../www/common/puzzles.js";

const options = { timeout: TEST_TIMEOUT_MS };

let session = null;
after(() => session?.close(), options);

/** Opens `path` (from the server's root) as a reader would, and fails on any page error. */
async function openPage(path, contextOptions) {
  session ??= await startSession();
  return session.open(path, contextOptions);
}

describe("the docs as pages", () => {
  test("the home page's reference link opens the widget's docs rendered, with the site's nav back home", options, async () => {
    const page = await openPage("/www/index.html");
    await page.getByRole("link", { name: "Widget reference" }).click();
    await page.waitForURL(/\/docs\/widget\.md$/);
    assert.match(await page.title(), /^The widget: embedding puzzlelab — puzzlelab$/);
    assert.equal(await page.locator("main h1").innerText(), "The widget: embedding puzzlelab");
    assert.ok((await page.locator("main h2").count()) >= 3, "its sections are headings");
    assert.ok((await page.locator("main pre code").count()) >= 1, "its code is set as code");
    assert.ok((await page.locator("main table th").count()) >= 2, "its tables are tables");
    assert.doesNotMatch(await page.locator("main").innerText(), /^#+ |```/m, "no Markdown left as text");
    const nav = await page.locator("nav.site-nav a").allInnerTexts();
    assert.deepEqual(nav, [HOME, ...sitePages()].map((entry) => entry.nav), "the site's nav: home and each puzzle page");
    await page.getByRole("link", { name: "Home" }).click();
    await page.waitForURL(/\/www\/index\.html$/);
    assert.deepEqual(page.errors, []);
  });

  test("the README opens rendered from the home page, and its links to the docs open them rendered too", options, async () => {
    const page = await openPage("/www/index.html");
    await page.getByRole("link", { name: /Source, documentation/ }).click();
    await page.waitForURL(/\/README\.md$/);
    assert.equal(await page.locator("main h1").innerText(), "puzzlelab");
    const docsLink = page.locator('main a[href="docs/page.md"]').first();
    await docsLink.click();
    await page.waitForURL(/\/docs\/page\.md$/);
    assert.ok((await page.locator("main h1").count()) === 1);
    assert.deepEqual(page.errors, []);
  });

  test("a link to a section lands on its heading; on a phone the page does not scroll sideways", options, async () => {
    const page = await openPage("/docs/benchmarks.md#first-and-second-visits-bench-visits", { viewport: { width: 390, height: 844 } });
    const heading = page.locator("#first-and-second-visits-bench-visits");
    assert.equal(await heading.evaluate((element) => element.tagName), "H2");
    assert.ok(await page.evaluate(() => scrollY > 0), "scrolled to the section");
    assert.ok((await heading.boundingBox()).y < 844, "its heading is in view");
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, "wide tables and code scroll inside the column");
    assert.deepEqual(page.errors, []);
  });

  test("a docs folder is listed; fetch and ?raw read the Markdown itself", options, async () => {
    const page = await openPage("/docs/notes/visits/");
    const names = await page.locator("main li a").allInnerTexts();
    assert.ok(names.length >= 1 && names.every((name) => name.endsWith(".json")), `the folder's files: ${names}`);
    const read = await page.evaluate(async () => {
      const response = await fetch("/docs/widget.md");
      return { type: response.headers.get("content-type"), text: await response.text() };
    });
    assert.match(read.type, /^text\/plain/);
    assert.match(read.text, /^# The widget: embedding puzzlelab\n/);
    await page.goto(new URL("/docs/widget.md?raw", page.url()).href);
    assert.match(await page.locator("body").innerText(), /^# The widget: embedding puzzlelab/);
  });
});

describe("links in the Markdown", () => {
  test("GitHub's heading ids", () => {
    const slug = headingSlugger();
    assert.equal(slug("First and second visits (`bench-visits`)"), "first-and-second-visits-bench-visits");
    assert.equal(slug("8-puzzle: every position, 1.5×"), "8-puzzle-every-position-15");
    assert.equal(slug("Speed"), "speed");
    assert.equal(slug("Speed"), "speed-1");
  });

  test("every tracked Markdown file's headings form an outline: one h1 first, and no level skipped on the way down", () => {
    const files = execFileSync("git", ["ls-files", "*.md"], { cwd: REPOSITORY_ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    const skips = [];
    for (const file of files) {
      const levels = [...markdownPage(readFileSync(join(REPOSITORY_ROOT, file), "utf8"), `/${file}`).matchAll(/<h([1-6]) id=/g)].map((match) => Number(match[1]));
      if (levels[0] !== 1 || levels.filter((level) => level === 1).length !== 1) skips.push(`${file}: h1s ${levels.filter((level) => level === 1).length}, first h${levels[0]}`);
      levels.forEach((level, index) => {
        if (index > 0 && level > levels[index - 1] + 1) skips.push(`${file}: h${levels[index - 1]} then h${level} (heading ${index + 1})`);
      });
    }
    assert.deepEqual(skips, []);
  });

  test("every link in every tracked Markdown file lands on a file, and on a heading of it", () => {
    const files = execFileSync("git", ["ls-files", "*.md"], { cwd: REPOSITORY_ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    const pages = new Map(files.map((file) => [file, markdownPage(readFileSync(join(REPOSITORY_ROOT, file), "utf8"), `/${file}`)]));
    const idsOf = (file) => new Set([...pages.get(file).matchAll(/ id="([^"]*)"/g)].map((match) => match[1]));
    const broken = [];
    let checked = 0;
    for (const [file, html] of pages) {
      for (const [, href] of html.matchAll(/<a href="([^"]*)"/g)) {
        if (/^(https?:|mailto:|\?raw$|\/www\/)/.test(href)) continue;
        const [path, section] = href.replaceAll("&amp;", "&").split("#");
        const target = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
        checked += 1;
        if (!existsSync(join(REPOSITORY_ROOT, target))) broken.push(`${file}: ${href} (no such file)`);
        else if (section && target.endsWith(".md") && !idsOf(target).has(section)) broken.push(`${file}: ${href} (no such heading)`);
      }
    }
    assert.ok(checked > 100, `links checked: ${checked}`);
    assert.deepEqual(broken, []);
  });
});
