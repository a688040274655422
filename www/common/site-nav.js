// The pages' nav, drawn from the puzzle registry (puzzles.js): the home page (index.html), then a
// link per puzzle page, the page shown marked aria-current="page"; and the site's service worker. Every page loads this module and has an empty
//   <nav class="site-nav" aria-label="Puzzles" data-puzzle="<its puzzle's id>"></nav>
// which it fills on import; base.css gives the links their look.

import { HOME, byId, sitePages, wwwUrl } from "./puzzles.js";

/**
 * Fills `nav` with the home link and a link per page; the link of `current`'s page (a puzzle id;
 * without one, the page whose file this document is) gets aria-current="page".
 */
export function renderSiteNav(nav, current = nav.dataset.puzzle) {
  const currentPage = byId(current)?.page ?? pageOfLocation();
  const links = [HOME, ...sitePages()].map(({ page, nav: label }) => {
    const link = document.createElement("a");
    link.href = wwwUrl(page).href;
    link.textContent = label;
    if (page === currentPage) link.setAttribute("aria-current", "page");
    return link;
  });
  nav.replaceChildren(...links);
}

/** The page file this document is ("index.html" for a folder's URL). */
function pageOfLocation() {
  return location.pathname.split("/").pop() || "index.html";
}

for (const nav of document.querySelectorAll("nav.site-nav")) renderSiteNav(nav);

// The site's pages keep their files for the next visit and for offline use (service-worker.js).
// A browser without module service workers, or a page that is not a secure context, works as
// before.
// What this page loaded before the worker controlled it (its first visit) is handed to the worker
// to keep as well. A page loads from the files kept: when the host has a newer version, the worker
// says so ({ type: "updated" }) and the nav offers a reload.
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data?.type === "updated") offerReload();
});
navigator.serviceWorker?.startMessages();
const controlled = Boolean(navigator.serviceWorker?.controller);
navigator.serviceWorker
  ?.register(wwwUrl("service-worker.js"), { type: "module", scope: wwwUrl("./").href })
  .then(() => navigator.serviceWorker.ready)
  .then((registration) => {
    // Answered from the site cache, this page asks the worker to read the host's index again, once
    // it has loaded and is idle (the worker's start and its reading then take nothing from the page's).
    if (controlled) return whenLoaded(() => whenIdle(() => navigator.serviceWorker.controller?.postMessage({ type: "check" }), 2000));
    const loaded = [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name)];
    registration.active?.postMessage({ type: "keep", urls: loaded });
  })
  .catch(() => {});

/**
 * Runs `task` once the page is idle (at the latest after `timeoutMs`); returns a handle for
 * cancelWhenIdle. Every page loads this module; the pages' scripts use these too.
 */
export const whenIdle = (task, timeoutMs = 1000) =>
  globalThis.requestIdleCallback ? requestIdleCallback(task, { timeout: timeoutMs }) : setTimeout(task, 0);

/** Cancels a task whenIdle has not run yet (`handle` null: nothing). */
export function cancelWhenIdle(handle) {
  if (handle === null) return;
  if (globalThis.cancelIdleCallback) cancelIdleCallback(handle);
  else clearTimeout(handle);
}

/** Runs `work` once the page has loaded (at once when it has). */
function whenLoaded(work) {
  if (document.readyState === "complete") work();
  else addEventListener("load", () => work(), { once: true });
}

/** Says under each nav that a newer version of the site is there, with a button that reloads the page. */
function offerReload() {
  for (const nav of document.querySelectorAll("nav.site-nav")) {
    if (nav.nextElementSibling?.classList.contains("site-update")) continue;
    const line = Object.assign(document.createElement("p"), { className: "site-update", role: "status" });
    const reload = Object.assign(document.createElement("button"), { type: "button", textContent: "Reload" });
    reload.addEventListener("click", () => location.reload());
    line.append("A newer version of puzzlelab is here: reload to use it (this page's game and any training on it start again). ", reload);
    nav.after(line);
  }
}
