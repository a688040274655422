#!/usr/bin/env node
// The asset index that lets browsers keep puzzlelab's files between visits
// (www/common/asset-cache.js): every file under www/ and pkg/ with its SHA-256, as paths from the
// folder that holds both ({ "files": { "www/widget.js": "<hex>", "pkg/puzzlelab_bg.wasm": … } }).
// A browser keeps a file under its checksum, so a changed file is fetched again and an unchanged
// one never is. scripts/serve.mjs answers /pkg/asset-index.json from here on every request (so it
// follows edits); scripts/build-wasm.sh writes pkg/asset-index.json for a host that copies www/ and
// pkg/; scripts/dist.mjs writes the release's own.
//
//   node scripts/asset-index.mjs [ROOT]     # the index of ROOT (default: the repository) on stdout

import { createHash } from "node:crypto";
import { readFile, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The index's own path: never listed in itself. */
export const INDEX_PATH = "pkg/asset-index.json";

/** Checksums already computed, by absolute path: { mtimeMs, size, hash }. */
const memo = new Map();

/** Every file under `folder` of `root` (paths from root), hidden ones and the index itself left out. */
export async function listFiles(root, folder) {
  const out = [];
  let entries;
  try {
    entries = await readdir(join(root, folder), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(root, path)));
    else if (entry.isFile() && path !== INDEX_PATH) out.push(path);
  }
  return out;
}

/** SHA-256 (hex) of the file at `absolute`, recomputed only when its size or time changed. */
async function checksum(absolute) {
  const info = await stat(absolute);
  const known = memo.get(absolute);
  if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return known.hash;
  const hash = createHash("sha256").update(await readFile(absolute)).digest("hex");
  memo.set(absolute, { mtimeMs: info.mtimeMs, size: info.size, hash });
  return hash;
}

/** The index of the www/ and pkg/ under `root` (only `paths` when given). */
export async function assetIndex(root, paths = null) {
  const listed = paths ?? [...(await listFiles(root, "www")), ...(await listFiles(root, "pkg"))];
  const files = {};
  for (const path of listed.sort()) files[path] = await checksum(join(root, path));
  return { files };
}

const runDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
  process.stdout.write(`${JSON.stringify(await assetIndex(root))}\n`);
}
