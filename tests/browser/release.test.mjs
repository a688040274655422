// The release an author hosts (scripts/dist.mjs): the archive is built, unpacked into an empty
// folder, served from one origin (with scripts/serve.mjs's CORS headers) and embedded in an
// author's page on another with the Subresource Integrity the release gives for widget.js; every
// mode plays and solves from it. The archive holds no page of the site, and integrity.json's
// hashes are those of the unpacked files.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { buildRelease } from "../../scripts/dist.mjs";
import { startServer } from "../../scripts/serve.mjs";
import { authorPage, openAuthorPage, playEveryMode } from "./author-page.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, TEST_TIMEOUT_MS } from "./helpers.mjs";

const slow = { timeout: 4 * TEST_TIMEOUT_MS };

let work;
let release;
let unpacked;
let servers = [];
let browser;

before(async () => {
  work = await mkdtemp(join(tmpdir(), "puzzlelab-release-"));
  release = await buildRelease(join(work, "built"));
  unpacked = join(work, "host");
  execFileSync("mkdir", ["-p", unpacked]);
  execFileSync("tar", ["-xzf", release.archive, "-C", unpacked]);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}, slow);

after(async () => {
  await browser?.close().catch(() => {});
  for (const server of servers) await server.close();
  if (work) await rm(work, { recursive: true, force: true });
}, slow);

/** Every file under `folder`, as paths from it. */
async function listFiles(folder, prefix = "") {
  const out = [];
  for (const entry of await readdir(join(folder, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(folder, path)));
    else out.push(path);
  }
  return out.sort();
}

describe("the release archive", () => {
  test("holds the widget, its modules, the bundles and the models, no page, and integrity.json says each file's hash", slow, async () => {
    const name = release.folder.split("/").pop();
    assert.match(name, /^puzzlelab-\d+\.\d+\.\d+$/);
    const root = join(unpacked, name);
    const files = await listFiles(root);
    for (const needed of ["pkg/asset-index.json", "www/widget.js", "www/common/worker-protocol.js", "www/sliding/solver-worker.js", "www/common/learn-worker.js", "pkg/puzzlelab_bg.wasm", "pkg/learn/puzzlelab_bg.wasm", "www/models/dqn-index.json", "www/models/pdb-index.json", "integrity.json", "EMBED.txt"]) {
      assert.ok(files.includes(needed), `${needed} is in the archive`);
    }
    assert.deepEqual(files.filter((path) => path.endsWith(".html") || path.endsWith("/app.js")), [], "no page of the site");
    const { files: hashes } = JSON.parse(await readFile(join(root, "integrity.json"), "utf8"));
    assert.deepEqual(Object.keys(hashes).sort(), files.filter((path) => !["integrity.json", "EMBED.txt", "pkg/asset-index.json"].includes(path)));
    const { files: kept } = JSON.parse(await readFile(join(root, "pkg/asset-index.json"), "utf8"));
    assert.deepEqual(Object.keys(kept).sort(), Object.keys(hashes).sort(), "the asset index lists every file of the release");
    for (const [path, hash] of Object.entries(hashes)) {
      const actual = `sha384-${createHash("sha384").update(await readFile(join(root, path))).digest("base64")}`;
      assert.equal(actual, hash, path);
    }
    assert.match(await readFile(join(root, "EMBED.txt"), "utf8"), new RegExp(`integrity="${hashes["www/widget.js"].replace(/[+/]/g, "\\$&")}"`));
  });

  test("unpacked into an empty folder and served, it plays and solves every mode on an author's page elsewhere, checked by its integrity", slow, async () => {
    const name = release.folder.split("/").pop();
    const host = await startServer(0, unpacked);
    servers.push(host);
    const pageFolder = join(work, "author");
    execFileSync("mkdir", ["-p", pageFolder]);
    await writeFile(join(pageFolder, "index.html"), authorPage(`${host.origin}/${name}/www/widget.js`, release.widgetIntegrity));
    const author = await startServer(0, pageFolder);
    servers.push(author);
    const page = await openAuthorPage(browser, `${author.origin}/index.html`);
    await playEveryMode(page);
    assert.deepEqual(page.failed, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();

    // A widget.js that is not the release's is refused by its integrity.
    await writeFile(join(pageFolder, "tampered.html"), authorPage(`${host.origin}/${name}/www/widget.js`, `sha384-${createHash("sha384").update("something else").digest("base64")}`));
    const context = await browser.newContext();
    const tampered = await context.newPage();
    const errors = [];
    tampered.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await tampered.goto(`${author.origin}/tampered.html`);
    await tampered.waitForTimeout(1000);
    assert.equal(await tampered.evaluate(() => customElements.get("puzzle-widget")), undefined, "the widget did not load");
    assert.ok(errors.some((message) => /integrity/i.test(message)), `an integrity error: ${errors}`);
    await context.close();
  });
});
