#!/usr/bin/env node
// A release an author can host: the widget (www/widget.js and every module it loads, found by
// following its imports, its workers and the registry's modules), the WebAssembly bundles (pkg/,
// pkg/learn/) and the models (www/models/), in a versioned folder and a .tar.gz of it, with
// integrity.json: each file's SHA-384 as Subresource Integrity ("sha384-…"), the lines to embed it,
// and pkg/asset-index.json (the checksums browsers keep the files under: www/common/asset-cache.js).
// No page of the site goes in: a host serves only what <puzzle-widget> needs.
//
//   node scripts/dist.mjs [--out DIR]      # DIR/puzzlelab-<version>/ and DIR/puzzlelab-<version>.tar.gz
//
// `bash scripts/dist.sh` builds the WebAssembly first and then runs this (default DIR: dist/).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { INDEX_PATH, assetIndex, listFiles } from "./asset-index.mjs";
import { relativeSpecifiers } from "./module-specifiers.mjs";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** The version in Cargo.toml. */
async function version() {
  const cargo = await readFile(join(ROOT, "Cargo.toml"), "utf8");
  const match = /^version\s*=\s*"([^"]+)"/m.exec(cargo);
  if (!match) throw new Error("no version in Cargo.toml");
  return match[1];
}

/**
 * The files the widget needs, as paths from ROOT: widget.js and the closure of what it names (the
 * registry's modules too: widget modes and learning jobs are imported by computed URL), the
 * bundles and the models.
 */
export async function releaseFiles() {
  const { PUZZLES } = await import(pathToFileURL(join(ROOT, "www/common/puzzles.js")).href);
  const entries = ["www/widget.js", ...PUZZLES.flatMap((puzzle) => [puzzle.widget.module, puzzle.learner?.jobs].filter(Boolean).map((path) => `www/${path}`))];
  const found = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const path = queue.pop();
    if (found.has(path)) continue;
    found.add(path);
    if (!/\.m?js$/.test(path)) continue;
    const source = await readFile(join(ROOT, path), "utf8");
    for (const specifier of relativeSpecifiers(source, { dynamic: true })) {
      if (specifier.endsWith("/")) continue; // a folder (www/) is no file
      const target = relative(ROOT, resolve(ROOT, dirname(path), specifier));
      if (target.startsWith("pkg/") || target.startsWith("www/models")) continue; // added whole below
      queue.push(target);
    }
  }
  for (const wasm of ["pkg/puzzlelab_bg.wasm", "pkg/learn/puzzlelab_bg.wasm"]) {
    await stat(join(ROOT, wasm)).catch(() => {
      throw new Error(`${wasm} is missing: build the WebAssembly first (bash scripts/build-wasm.sh all, or bash scripts/dist.sh)`);
    });
  }
  const bundles = (await listFiles(ROOT, "pkg")).filter((path) => /\.(js|wasm)$/.test(path));
  const models = await listFiles(ROOT, "www/models");
  for (const path of [...found]) await stat(join(ROOT, path)); // every named file is there
  return [...found, ...bundles, ...models].sort();
}

/** "sha384-…" of a file's bytes. */
function integrity(bytes) {
  return `sha384-${createHash("sha384").update(bytes).digest("base64")}`;
}

/** Builds the release under `out`; resolves to { folder, archive, files, widgetIntegrity }. */
export async function buildRelease(out) {
  const name = `puzzlelab-${await version()}`;
  const folder = join(out, name);
  const archive = join(out, `${name}.tar.gz`);
  await rm(folder, { recursive: true, force: true });
  await rm(archive, { force: true });
  const files = await releaseFiles();
  const hashes = {};
  for (const path of files) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await cp(join(ROOT, path), join(folder, path));
    hashes[path] = integrity(await readFile(join(ROOT, path)));
  }
  const widgetIntegrity = hashes["www/widget.js"];
  // The release's own asset index: browsers keep its files under these checksums between visits.
  await writeFile(join(folder, INDEX_PATH), `${JSON.stringify(await assetIndex(folder, files))}\n`);
  await writeFile(
    join(folder, "integrity.json"),
    `${JSON.stringify({ name, files: hashes }, null, 2)}\n`,
  );
  await writeFile(
    join(folder, "EMBED.txt"),
    `${name}: host this folder, with CORS headers (docs/widget.md), then in a page:

<script type="module" src="https://YOUR.HOST/${name}/www/widget.js"
        integrity="${widgetIntegrity}" crossorigin="anonymous"></script>
<puzzle-widget size="3"></puzzle-widget>

integrity.json has every file's SHA-384 (Subresource Integrity form).
`,
  );
  execFileSync("tar", ["-czf", archive, "-C", out, name]);
  return { folder, archive, files, widgetIntegrity };
}

const runDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  const at = process.argv.indexOf("--out");
  const out = resolve(at > 0 ? process.argv[at + 1] : join(ROOT, "dist"));
  await mkdir(out, { recursive: true });
  const { folder, archive, files, widgetIntegrity } = await buildRelease(out);
  const bytes = (await stat(archive)).size;
  console.log(`${relative(process.cwd(), folder)}/: ${files.length} files`);
  console.log(`${relative(process.cwd(), archive)}: ${(bytes / 1e6).toFixed(1)} MB`);
  console.log(`widget.js integrity: ${widgetIntegrity}`);
}
