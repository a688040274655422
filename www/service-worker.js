// The site's service worker (registered by common/site-nav.js on every page of the site, scope
// www/): every file of the host's asset index (pkg/asset-index.json) that a page or its workers
// load — pages, modules, WebAssembly, models — comes from the files kept under their checksums
// (common/asset-cache.js), else from the network and is then kept. Anything not in the index
// (another origin, a file the host does not list) goes to the network untouched.
//
// A page loads at once from the files kept (offline first), while the host's index is read again in
// the background; when the host has a newer version, the page is told ({ type: "updated" }:
// site-nav.js offers a reload), and the next load uses it. After one visit the site works offline.
// Where the browser takes static routes (Chromium), it answers the site's code itself from a copy by
// address (the site cache, below), so a page does not wait for this worker to start; a newer
// version is copied there once it is wholly kept, and every open page is told, but a page open
// across it loads what it loads later (a worker's code) from the newer one, as from a host with no
// service worker. Elsewhere every request comes through this worker, and a page and everything it
// loads later come from the version its load found kept. What a page loaded before this worker
// controlled it, the page lists in a message ({ type: "keep", urls }): those files are kept too,
// with the rest of the site's code (asset-cache.js isSiteCode), so that after one visit every page
// plays and solves offline.

import {
  SITE_CACHE_NAME,
  assetIndex,
  dropOutdated,
  isSiteCode,
  keepFiles,
  keepUrls,
  keptFetch,
  lastIndex,
  publishSite,
  publishedIndex,
} from "./common/asset-cache.js";

/** How long the host's index may take when no page waits for it. */
const BACKGROUND_WAIT_MS = 60_000;

/** The index each page (by client id) was loaded with: its later requests come from that version. */
const loadedWith = new Map();

/** The folder that holds www/ and pkg/, as the start of a URL pattern (its path's pattern syntax escaped). */
const ROOT = (({ origin, pathname }) => `${origin}${pathname.replace(/[\\:*+?(){}]/g, "\\$&")}`)(new URL("../", self.location.href));

/** Whether this browser offers static routes. */
const ROUTES = "addRoutes" in (self.InstallEvent?.prototype ?? {});

/**
 * Where this worker records that the browser refused its static routes (its globals do not outlive
 * a stop): a cache of its own, which Forget them (asset-cache.js clearKept) leaves alone. Without
 * the record (the usual case, or the storage cleared) the routes are taken to hold.
 */
const ROUTES_CACHE_NAME = "puzzlelab-routes";
const ROUTES_REFUSED = new URL("routes-refused", self.location.href).href;

/** Whether the browser answers the site's code from the site cache (it took this worker's static routes). */
async function routesTaken() {
  if (!ROUTES) return false;
  const refused = await caches.open(ROUTES_CACHE_NAME).then((cache) => cache.match(ROUTES_REFUSED)).catch(() => undefined);
  return refused === undefined;
}

/** Records whether the browser took the routes; where it refused them, the site cache would only take room, and goes. */
async function recordRoutes(taken) {
  const cache = await caches.open(ROUTES_CACHE_NAME);
  if (taken) return cache.delete(ROUTES_REFUSED);
  await cache.put(ROUTES_REFUSED, new Response("refused"));
  await caches.delete(SITE_CACHE_NAME);
}

// Where the browser offers static routes (Chromium), it answers the site's code (asset-cache.js
// isSiteCode: pages, modules, workers' scripts, the core bundle) from the site cache itself
// (publishSite), without starting this worker: a visit after the worker has stopped (30 s idle)
// does not wait for it to start. The models and the learning bundle still come through this worker;
// an address the site cache lacks goes to the host.
self.addEventListener("install", (event) => {
  const throughWorker = (pattern) => ({ condition: { urlPattern: `${ROOT}${pattern}` }, source: "fetch-event" });
  const fromSite = (pattern) => ({ condition: { urlPattern: `${ROOT}${pattern}`, requestMethod: "GET" }, source: { cacheName: SITE_CACHE_NAME } });
  const routes = [throughWorker("www/models/*"), throughWorker("pkg/learn/*"), fromSite("www/*"), fromSite("pkg/*")];
  if (ROUTES) event.waitUntil(event.addRoutes(routes).then(() => recordRoutes(true), () => recordRoutes(false)).catch(() => {}));
  self.skipWaiting();
});

// A worker that replaces one without static routes fills the site cache from the files already kept,
// so that the site still opens offline (an address the site cache lacks goes to the host).
self.addEventListener("activate", (event) =>
  event.waitUntil(
    Promise.all([
      self.clients.claim(),
      (async () => {
        if (!(await routesTaken()) || (await publishedIndex())) return;
        const index = await lastIndex();
        if (index) await publishSite(index);
      })(),
    ]).catch(() => {}),
  ),
);

// A page lists what it loaded before this worker controlled it: kept too, where the index lists it,
// and the rest of the site's code with it, so that every page works offline after one visit; the
// page is told once they are kept ({ type: "kept" }: the home page lists them again).
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  const own = event.data.urls.filter((url) => typeof url === "string" && URL.canParse(url) && new URL(url).origin === self.location.origin);
  event.waitUntil(
    keepUrls(own.map((url) => url.split("#")[0]))
      .then(() => keepFiles(isSiteCode))
      .then(async () => (await routesTaken()) && publishSite(await assetIndex()))
      .then(() => event.source?.postMessage({ type: "kept" }))
      .catch(() => {}),
  );
});

// A page the browser answered from the site cache (static routes: this worker saw no navigation)
// asks for the host's index to be read again ({ type: "check" }): its version is the one published
// to the site cache; a newer one is kept, and once wholly kept it is published and every open page
// told ({ type: "updated" }: each was loaded from the version before).
self.addEventListener("message", (event) => {
  const page = event.source?.id;
  if (!ROUTES || event.data?.type !== "check" || !page || loadedWith.has(page)) return;
  event.waitUntil(
    (async () => {
      if (!(await routesTaken())) return;
      const loaded = (await publishedIndex()) ?? (await lastIndex());
      if (loaded) loadedWith.set(page, loaded);
      const fresh = await assetIndex({ refresh: true, waitMs: BACKGROUND_WAIT_MS });
      if (!fresh) return;
      await keepFiles(isSiteCode);
      const before = await publishedIndex();
      if (!(await publishSite(fresh))) return;
      await forgetClosed(page);
      await dropOutdated([...loadedWith.values()]);
      if (before && JSON.stringify(before.files) !== JSON.stringify(fresh.files)) {
        for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage({ type: "updated" });
      }
    })().catch(() => {}),
  );
});

/** Forgets the versions of the pages no longer open (but `page`'s). */
async function forgetClosed(page) {
  const open = new Set((await self.clients.matchAll()).map((client) => client.id));
  for (const id of loadedWith.keys()) if (id !== page && !open.has(id)) loadedWith.delete(id);
}

/**
 * A page's load: answered from the index last read (the host's, when there is none yet), while the
 * host's index is read again; then the files no open page uses are dropped, and the page is told
 * when the host's version is newer than the one it was loaded with.
 */
function navigate(event) {
  const { request, resultingClientId: page } = event;
  const kept = lastIndex();
  // Read in the background when the page does not wait for it: a slow host may take its time.
  const refreshed = kept.then((index) => assetIndex({ refresh: true, ...(index && { waitMs: BACKGROUND_WAIT_MS }) }));
  const loaded = kept.then((index) => index ?? refreshed);
  const waitUntil = (promise) => event.waitUntil(promise);
  event.respondWith(
    loaded.then((index) => {
      if (page) loadedWith.set(page, index);
      return keptFetch(request, undefined, { index, waitUntil });
    }),
  );
  event.waitUntil(
    Promise.all([loaded, refreshed])
      .then(async ([index, fresh]) => {
        if (!fresh) return;
        await forgetClosed(page);
        await dropOutdated([...loadedWith.values()]);
        if (page && index && JSON.stringify(index.files) !== JSON.stringify(fresh.files)) await tell(page, { type: "updated" });
      })
      .catch(() => {}),
  );
}

/** Posts `message` to the page `id` once it is there (a page being loaded becomes a client when its answer arrives). */
async function tell(id, message) {
  for (let tries = 0; tries < 50; tries += 1) {
    const client = await self.clients.get(id);
    if (client) return client.postMessage(message);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") return navigate(event);
  // A page's request, and its workers', from the version the page was loaded with (else the index last read).
  const version = loadedWith.get(event.clientId);
  if (version && event.resultingClientId) loadedWith.set(event.resultingClientId, version);
  // A client of a page answered from the site cache (a worker the page started) is of the version published there.
  const index = version ?? (ROUTES ? publishedIndex() : Promise.resolve(null)).then((published) => published ?? lastIndex().then((last) => last ?? assetIndex()));
  event.respondWith(keptFetch(request, undefined, { index, waitUntil: (promise) => event.waitUntil(promise) }));
});
