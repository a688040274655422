#!/usr/bin/env node
// Writes, in each page of www/, a <link rel="modulepreload"> for every module its module scripts
// import statically (the whole graph, not only the first level), between the markers
//   <!-- module preloads: scripts/module-preloads.mjs -->  …  <!-- /module preloads -->
// so that the browser fetches the graph at once instead of one level of imports after another
// (on this machine a second visit of the sliding page was ready in about 0.37 s with them against
// 0.64 s without; docs/benchmarks.md, "First and second visits"). Modules a page imports
// dynamically (the learning cards after the page is ready) are left to load when asked for.
//
//   node scripts/module-preloads.mjs           # writes the pages' blocks
//   node scripts/module-preloads.mjs --check   # exits 1, naming the pages, when a block is out of date
//
// A page without the markers gets none; one with module scripts needs them (--check says so), but
// for embed.html, the example of the three lines an author's page embeds the widget with.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { relativeSpecifiers } from "./module-specifiers.mjs";

const WWW = join(dirname(fileURLToPath(import.meta.url)), "..", "www");
const BEGIN = "<!-- module preloads: scripts/module-preloads.mjs -->";
const END = "<!-- /module preloads -->";

/** The generated wasm-bindgen modules (pkg/, not in a fresh checkout until built): listed, not read. */
const GENERATED = join(WWW, "..", "pkg");

/** The files of the static import graph from `entries` (absolute paths), in the order first met. */
function graph(entries) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.startsWith(GENERATED)) return;
    for (const specifier of relativeSpecifiers(readFileSync(file, "utf8"))) visit(resolve(dirname(file), specifier));
  };
  entries.forEach(visit);
  return [...seen];
}

/** The block a page should have: its module scripts' graph, as links relative to the page. */
function preloadBlock(page, html) {
  const entries = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((match) => resolve(dirname(page), match[1]));
  const links = graph(entries).map((file) => {
    const href = relative(dirname(page), file);
    return `    <link rel="modulepreload" href="${href.startsWith(".") ? href : `./${href}`}" />`;
  });
  return { entries, block: `${BEGIN}\n${links.join("\n")}\n    ${END}` };
}

const check = process.argv.includes("--check");
const stale = [];
for (const name of readdirSync(WWW).filter((file) => file.endsWith(".html"))) {
  const page = join(WWW, name);
  const html = readFileSync(page, "utf8");
  const start = html.indexOf(BEGIN);
  const end = html.indexOf(END);
  const { entries, block } = preloadBlock(page, html);
  if (start < 0 || end < start) {
    if (entries.length > 0 && name !== "embed.html") stale.push(`${name} (no markers)`);
    continue;
  }
  const current = html.slice(start, end + END.length);
  if (current === block) continue;
  if (check) stale.push(name);
  else writeFileSync(page, html.slice(0, start) + block + html.slice(end + END.length));
}
if (stale.length > 0) {
  console.error(`module preloads out of date in www/${stale.join(", www/")}: run node scripts/module-preloads.mjs`);
  process.exit(1);
}
