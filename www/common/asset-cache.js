// Keeps puzzlelab's downloads in the browser's Cache Storage between visits, under their checksums:
// the WebAssembly bundles and the models (for the widget on any page: wasm.js, learn-worker.js and
// download.js fetch through keptFetch), and on the site's own pages every file (service-worker.js),
// so that a second visit loads from the cache and a page works offline after one visit.
//
// The host lists its files with their SHA-256 in pkg/asset-index.json (scripts/asset-index.mjs). A
// file in the index is looked up under its checksum; on a miss it is downloaded and kept (once its
// bytes are checked against the checksum), so a changed file is fetched again and an unchanged one
// never is. Without the index (a host that has none, offline on a first visit) or without Cache
// Storage (a page that is not a secure context), everything is fetched as before. Plain module, no
// DOM: pages, workers and the service worker load it.

import { WWW_URL } from "./puzzles.js";

/** The one cache puzzlelab keeps its files in (on the origin of the page that uses them). */
export const CACHE_NAME = "puzzlelab-files";

/** The folder that holds www/ and pkg/: the index's paths are relative to it. */
const ROOT_URL = new URL("../", WWW_URL);
const INDEX_URL = new URL("pkg/asset-index.json", ROOT_URL);
/** Where the last index read is kept, for offline visits. */
const INDEX_KEY = new URL("pkg/asset-index.json?kept", ROOT_URL).href;

let index = null;

/** The responses keptFetch answered from the cache (isKept). */
const fromCache = new WeakSet();

/**
 * Whether keptFetch answered `response` from the cache: a caller that would wrap its body (to
 * report a download) passes it on as it is instead, so that the browser may reuse what it
 * compiled of a kept WebAssembly module last time.
 */
export function isKept(response) {
  return fromCache.has(response);
}

/** The cache, or null where the browser offers none. */
async function openCache() {
  if (!globalThis.caches) return null;
  return caches.open(CACHE_NAME).catch(() => null);
}

/** The cache key of a file with checksum `hash` (a URL nothing answers: only a key). */
function keyOf(hash) {
  return new URL(`pkg/.kept/${hash}`, ROOT_URL).href;
}

/**
 * The host's index ({ files: { path: sha256 } }), read once per page or worker (`refresh`: read
 * again, as the service worker does on every page load); offline, the last one read; null when
 * there is none.
 */
export function assetIndex({ refresh = false } = {}) {
  if (!index || refresh) {
    index = (async () => {
      const cache = await openCache();
      if (!cache) return null;
      try {
        const response = await fetch(INDEX_URL, { cache: "no-store" });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        await cache.put(INDEX_KEY, response.clone());
        return await response.json();
      } catch {
        const kept = await cache.match(INDEX_KEY);
        return kept ? kept.json() : null;
      }
    })().catch(() => null);
  }
  return index;
}

/** The index's path of `url` (a page's folder URL is its index.html), or null outside the host's files. */
function pathOf(url) {
  const { href } = new URL(url);
  if (!href.startsWith(ROOT_URL.href)) return null;
  const path = decodeURIComponent(href.slice(ROOT_URL.href.length).split(/[?#]/)[0]);
  return path.endsWith("/") || path === "www" ? `${path.replace(/\/?$/, "/")}index.html` : path;
}

/** Lowercase hex SHA-256 of `bytes`. */
async function sha256(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Keeps `response` under `hash` once its bytes are checked (a file that changed meanwhile is not kept). */
async function keep(cache, hash, response) {
  const bytes = await response.clone().arrayBuffer();
  if ((await sha256(bytes)) !== hash) return;
  await cache.put(keyOf(hash), response);
}

/**
 * fetch(input, init) through the kept files (`input`: a URL, its text, or a Request, passed on as
 * it is): a file of the index comes from the cache when its checksum is kept there, else from the
 * network (and is then kept); anything else from the network.
 */
export async function keptFetch(input, init) {
  // A page the site's service worker controls: the worker answers from the kept files itself.
  if (globalThis.navigator?.serviceWorker?.controller) return fetch(input, init);
  const path = pathOf(input instanceof Request ? input.url : new URL(input, globalThis.location?.href));
  const hash = path && (await assetIndex())?.files?.[path];
  const cache = hash && (await openCache());
  if (!cache) return fetch(input, init);
  const kept = await cache.match(keyOf(hash));
  if (kept) {
    fromCache.add(kept);
    return kept;
  }
  const response = await fetch(input, init);
  if (response.ok && (response.type === "basic" || response.type === "cors") && !response.redirected) keep(cache, hash, response.clone()).catch(() => {});
  return response;
}

/**
 * Keeps every file of the index for which `wanted(path)` is true and that is not kept yet (the
 * service worker keeps the site's code this way on a first visit); resolves to how many it kept.
 */
export async function keepFiles(wanted) {
  const files = (await assetIndex())?.files;
  const cache = await openCache();
  if (!files || !cache) return 0;
  let kept = 0;
  for (const [path, hash] of Object.entries(files)) {
    if (!wanted(path) || (await cache.match(keyOf(hash)))) continue;
    const response = await fetch(new URL(path, ROOT_URL)).catch(() => null);
    if (!response?.ok) continue;
    await keep(cache, hash, response);
    kept += 1;
  }
  return kept;
}

/**
 * What is kept: [{ path, bytes, current }] (path: the file's path in the index, or its checksum
 * when the index no longer lists it; current: whether the index lists that checksum).
 */
export async function keptFiles() {
  const cache = await openCache();
  if (!cache) return [];
  const paths = new Map(Object.entries((await assetIndex())?.files ?? {}).map(([path, hash]) => [hash, path]));
  const out = [];
  for (const request of await cache.keys()) {
    const hash = request.url.split("/.kept/")[1];
    if (!hash) continue;
    const response = await cache.match(request);
    const bytes = Number(response.headers.get("Content-Length")) || (await response.arrayBuffer()).byteLength;
    out.push({ path: paths.get(hash) ?? hash, bytes, current: paths.has(hash) });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Drops the kept files whose checksum the index no longer lists (older versions); resolves to how many. */
export async function dropOutdated() {
  const cache = await openCache();
  const files = (await assetIndex())?.files;
  if (!cache || !files) return 0;
  const current = new Set(Object.values(files));
  let dropped = 0;
  for (const request of await cache.keys()) {
    const hash = request.url.split("/.kept/")[1];
    if (hash && !current.has(hash)) dropped += Number(await cache.delete(request));
  }
  return dropped;
}

/** Forgets every kept file (the next visit downloads again). */
export async function clearKept() {
  index = null;
  if (globalThis.caches) await caches.delete(CACHE_NAME);
}
