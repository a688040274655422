// The site's service worker (registered by common/site-nav.js on every page of the site, scope
// www/): every file of the host's asset index (pkg/asset-index.json) that a page or its workers
// load — pages, modules, WebAssembly, models — comes from the files kept under their checksums
// (common/asset-cache.js), else from the network and is then kept. A page load reads the index
// afresh (offline: the last one read), so a changed file is fetched again; after one visit the
// site works offline. Anything not in the index (another origin, a file the host does not list)
// goes to the network untouched. What a page loaded before this worker controlled it, the page lists
// in a message ({ type: "keep", urls }): those files are kept too, with the rest of the site's code
// (asset-cache.js isSiteCode), so that after one visit every page plays and solves offline.

import { assetIndex, dropOutdated, isSiteCode, keepFiles, keepUrls, keptFetch } from "./common/asset-cache.js";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// A page lists what it loaded before this worker controlled it: kept too, where the index lists it,
// and the rest of the site's code with it, so that every page works offline after one visit.
self.addEventListener("message", (event) => {
  if (event.data?.type !== "keep" || !Array.isArray(event.data.urls)) return;
  const own = event.data.urls.filter((url) => typeof url === "string" && URL.canParse(url) && new URL(url).origin === self.location.origin);
  event.waitUntil(keepUrls(own.map((url) => url.split("#")[0])).then(() => keepFiles(isSiteCode)).catch(() => {}));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(
      assetIndex({ refresh: true }).then((index) => {
        if (index) event.waitUntil(dropOutdated().catch(() => {}));
        return keptFetch(request, undefined, { waitUntil: (promise) => event.waitUntil(promise) });
      }),
    );
    return;
  }
  event.respondWith(keptFetch(request, undefined, { waitUntil: (promise) => event.waitUntil(promise) }));
});
