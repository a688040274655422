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
/** The index last read here (from the host, or the one kept for offline visits), or null. */
let lastRead = null;

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

/** The checksum a cache key of this host's files stands for, or null (the index's own key, another host's). */
function hashOfKey(url) {
  const prefix = keyOf("");
  return url.startsWith(prefix) ? url.slice(prefix.length) : null;
}

/** The site's service worker (www/service-worker.js), which keeps the files of the pages it controls. */
const SERVICE_WORKER_URL = new URL("service-worker.js", WWW_URL).href;

/** How long a page load waits for the host's index before it uses the last one read. */
const INDEX_WAIT_MS = 3000;

/**
 * The host's index ({ files: { path: sha256 } }), read once per page or worker (`refresh`: read
 * again, as the service worker does on every page load). When the host cannot be reached (offline,
 * or no answer within `waitMs`), the last one read; when it answers without an index (an error,
 * or not an index), null: nothing is answered from the cache then.
 */
export function assetIndex({ refresh = false, waitMs = INDEX_WAIT_MS } = {}) {
  if (!index || refresh) {
    index = (async () => {
      const cache = await openCache();
      if (!cache) return null;
      let response;
      try {
        response = await fetch(INDEX_URL, { cache: "no-store", signal: AbortSignal.timeout(waitMs) });
      } catch {
        return keptIndex(cache);
      }
      if (!response.ok) return null;
      const read = await response.clone().json().catch(() => null);
      if (!read || typeof read.files !== "object") return null;
      await cache.put(INDEX_KEY, response).catch(() => {});
      lastRead = read;
      return read;
    })().catch(() => null);
  }
  return index;
}

/**
 * The index last read, without asking the host: this context's, else the one kept for offline
 * visits; null when there is none (a first visit).
 */
export async function lastIndex() {
  const cache = !lastRead && (await openCache());
  if (cache) lastRead = await keptIndex(cache);
  return lastRead;
}

/** The index kept in `cache` for offline visits (the last one read from the host), or null. */
async function keptIndex(cache) {
  const kept = await cache.match(INDEX_KEY).catch(() => undefined);
  const read = kept && (await kept.json().catch(() => null));
  return read && typeof read.files === "object" ? read : null;
}

/** The index's path of `url` (a page's folder URL is its index.html), or null outside the host's files. */
function pathOf(url) {
  const { href } = new URL(url);
  if (!href.startsWith(ROOT_URL.href)) return null;
  let path;
  try {
    path = decodeURIComponent(href.slice(ROOT_URL.href.length).split(/[?#]/)[0]);
  } catch {
    return null; // a malformed escape: the host answers it
  }
  return path.endsWith("/") || path === "www" ? `${path.replace(/\/?$/, "/")}index.html` : path;
}

/** Lowercase hex SHA-256 of `bytes`. */
async function sha256(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Keeps `response` under `hash` once its bytes are checked (a file that changed meanwhile is not
 * kept); a cache that refuses it (quota, private browsing) keeps nothing, and says nothing.
 */
async function keep(cache, hash, response) {
  const bytes = await response.arrayBuffer();
  if ((await sha256(bytes)) !== hash) return false;
  const headers = new Headers(response.headers);
  headers.set("Content-Length", String(bytes.byteLength));
  return cache
    .put(keyOf(hash), new Response(bytes, { status: response.status, statusText: response.statusText, headers }))
    .then(() => true, () => false);
}

/** Whether a response may be kept: a whole answer of the host, not a redirect's. */
function keepable(response) {
  return response.ok && response.status === 200 && (response.type === "basic" || response.type === "cors") && !response.redirected;
}

/**
 * fetch(input, init) through the kept files (`input`: a URL, its text, or a Request, passed on as
 * it is): a file of the index comes from the cache when its checksum is kept there, else from the
 * network (and is then kept); anything else from the network. `waitUntil` (a service worker's
 * event's) holds the worker until a download is kept.
 */
export async function keptFetch(input, init, { waitUntil = () => {}, index: given } = {}) {
  // A page the site's service worker controls: the worker answers from the kept files itself.
  if (globalThis.navigator?.serviceWorker?.controller?.scriptURL === SERVICE_WORKER_URL) return fetch(input, init);
  const path = pathOf(input instanceof Request ? input.url : new URL(input, globalThis.location?.href));
  const hash = path && (await (given ?? assetIndex()))?.files?.[path];
  const cache = hash && (await openCache());
  if (!cache) return fetch(input, init);
  const kept = await cache.match(keyOf(hash));
  if (kept) {
    fromCache.add(kept);
    return kept;
  }
  const response = await fetch(input, init);
  if (keepable(response)) waitUntil(keep(cache, hash, response.clone()).catch(() => false));
  return response;
}

/** Keeps the files at `urls` that the index lists and that are not kept yet (downloading them). */
export async function keepUrls(urls) {
  const files = (await assetIndex())?.files;
  const cache = await openCache();
  if (!files || !cache) return;
  for (const url of urls) {
    const path = pathOf(new URL(url));
    const hash = path && files[path];
    if (!hash || (await cache.match(keyOf(hash)))) continue;
    const response = await fetch(url).catch(() => null);
    if (response && keepable(response)) await keep(cache, hash, response).catch(() => false);
  }
}

/**
 * Whether the index's `path` is the site's code, which a first visit keeps whole beyond what the
 * page loaded (its pages, modules and core bundle, about 1.5 MB: every page then plays and
 * solves offline): everything but the models and the learning bundle, which are kept when they
 * are first used.
 */
export const isSiteCode = (path) => !path.startsWith("www/models/") && !path.startsWith("pkg/learn/");

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
    if (!response || !keepable(response)) continue;
    kept += Number(await keep(cache, hash, response).catch(() => false));
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
    const hash = hashOfKey(request.url);
    if (!hash) continue;
    // An entry may go between keys() and match(): the service worker drops outdated ones and
    // replaces others while a page lists them.
    const response = await cache.match(request).catch(() => undefined);
    if (!response) continue;
    const length = Number(response.headers.get("Content-Length"));
    const bytes = length || (await response.arrayBuffer().then((body) => body.byteLength, () => 0));
    out.push({ path: paths.get(hash) ?? hash, bytes, current: paths.has(hash) });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Drops the kept files whose checksum the index no longer lists (older versions), but for those
 * of the indexes in `inUse` (the versions open pages were loaded with); resolves to how many.
 */
export async function dropOutdated(inUse = []) {
  const cache = await openCache();
  const files = (await assetIndex())?.files;
  if (!cache || !files) return 0;
  const current = new Set([files, ...inUse.map((used) => used?.files ?? {})].flatMap(Object.values));
  let dropped = 0;
  for (const request of await cache.keys()) {
    const hash = hashOfKey(request.url);
    if (hash && !current.has(hash)) dropped += Number(await cache.delete(request));
  }
  return dropped;
}

/**
 * The site's code (isSiteCode: its pages, modules and core bundle) by address, for the browser to
 * answer the site's pages from without starting its service worker (service-worker.js routes them
 * here): a copy of the kept files of one version of the index, the one last published.
 */
export const SITE_CACHE_NAME = "puzzlelab-site";
/** Where the site cache records the index it holds. */
const PUBLISHED_KEY = new URL("pkg/asset-index.json?published", ROOT_URL).href;

/** The addresses `path` is asked for by (a folder's index.html by the folder's too). */
function addressesOf(path) {
  const url = new URL(path, ROOT_URL).href;
  return path.endsWith("/index.html") ? [url, url.slice(0, -"index.html".length)] : [url];
}

/**
 * Makes the site cache hold `version`'s site code (isSiteCode), when every file of it is kept under
 * its checksum: each is copied under its address, and the addresses of other versions are dropped.
 * A version not wholly kept is not published (the one there stays whole, so the site still opens
 * offline). One publish at a time on the origin (a worker taking over may run beside the one it
 * replaces). Resolves to whether the site cache now holds `version`.
 */
export async function publishSite(version) {
  const publish = async () => {
    const cache = await openCache();
    const site = cache && version?.files && (await caches.open(SITE_CACHE_NAME).catch(() => null));
    if (!site) return false;
    const code = Object.entries(version.files).filter(([path]) => isSiteCode(path));
    const kept = new Map();
    for (const [path, hash] of code) {
      const response = await cache.match(keyOf(hash));
      if (!response) return false;
      kept.set(path, response);
    }
    const published = (await publishedIndex())?.files ?? {};
    const held = new Set((await site.keys()).map((request) => request.url));
    const wanted = new Set([PUBLISHED_KEY]);
    for (const [path, hash] of code) {
      const urls = addressesOf(path);
      const current = published[path] === hash && urls.every((url) => held.has(url));
      for (const url of urls) {
        wanted.add(url);
        if (!current) await site.put(url, kept.get(path).clone());
      }
    }
    for (const url of held) if (!wanted.has(url)) await site.delete(url);
    if (JSON.stringify(published) !== JSON.stringify(version.files)) {
      await site.put(PUBLISHED_KEY, new Response(JSON.stringify(version), { headers: { "Content-Type": "application/json" } }));
    }
    return true;
  };
  return globalThis.navigator?.locks ? navigator.locks.request("puzzlelab-publish", publish) : publish();
}

/** The site cache, or null where there is none (asking does not make one). */
async function siteCache() {
  const there = globalThis.caches && (await caches.has(SITE_CACHE_NAME).catch(() => false));
  return there ? caches.open(SITE_CACHE_NAME).catch(() => null) : null;
}

/** The index whose files the site cache holds, or null. */
export async function publishedIndex() {
  const site = await siteCache();
  const kept = site && (await site.match(PUBLISHED_KEY).catch(() => undefined));
  const read = kept && (await kept.json().catch(() => null));
  return read && typeof read.files === "object" ? read : null;
}

/** The index's paths the site cache holds (empty where there is none). */
export async function publishedPaths() {
  const site = await siteCache();
  const urls = site ? (await site.keys()).map((request) => request.url).filter((url) => url !== PUBLISHED_KEY) : [];
  return new Set(urls.map(pathOf).filter(Boolean));
}

/** How many bytes the site cache's copy of the site's code takes (0 where there is none). */
export async function siteCopyBytes() {
  const site = await siteCache();
  if (!site) return 0;
  let bytes = 0;
  for (const request of await site.keys()) {
    if (request.url === PUBLISHED_KEY) continue;
    const response = await site.match(request).catch(() => undefined);
    bytes += Number(response?.headers.get("Content-Length")) || 0;
  }
  return bytes;
}

/** Forgets every kept file (the next visit downloads again). */
export async function clearKept() {
  index = null;
  if (globalThis.caches) await Promise.all([caches.delete(CACHE_NAME), caches.delete(SITE_CACHE_NAME)]);
}
