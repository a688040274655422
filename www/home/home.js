// The home page (index.html): a card per puzzle of the registry (common/puzzles.js), each with a
// live <puzzle-widget> of its mode, one sentence, what a visitor can do on its page, a link
// there and one to its docs page (rendered by the server: scripts/markdown-page.mjs); the site nav (common/site-nav.js); what this browser keeps of the site (asset-cache.js),
// listed, with a control that forgets it. A link of the old home (the sliding page used to be
// index.html, so shared links such as index.html#size=4x4&start=… still circulate) goes on to the
// sliding page with its hash.

import "../common/site-nav.js";
import { clearKept, keptFiles, siteCopyBytes } from "../common/asset-cache.js";
import { OFFERS, PUZZLES, wwwUrl } from "../common/puzzles.js";

/** Hash keys of the sliding page's shared links. */
const SLIDING_LINK_KEYS = ["size", "start", "goal", "preset"];

/** The sliding page with this page's hash, when the hash is a sliding link; else null. */
export function slidingLinkTarget(hash = location.hash) {
  const keys = hash.replace(/^#/, "").split("&").map((pair) => pair.split("=")[0]);
  return keys.some((key) => SLIDING_LINK_KEYS.includes(key)) ? `sliding.html${hash}` : null;
}

/** A card's list item for `puzzle`. */
function puzzleCard(puzzle) {
  const { link, blurb, offers, preview } = puzzle.home;
  const item = document.createElement("li");
  item.className = "card home-puzzle";
  item.dataset.puzzle = puzzle.id;
  const heading = document.createElement("h2");
  const anchor = document.createElement("a");
  anchor.href = wwwUrl(link).href;
  anchor.textContent = puzzle.nav.includes("·") ? puzzle.title.replace(/^./, (c) => c.toUpperCase()) : puzzle.nav;
  heading.append(anchor);
  const widget = document.createElement("puzzle-widget");
  widget.setAttribute("puzzle", puzzle.widget.mode);
  for (const [name, value] of Object.entries(preview)) widget.setAttribute(name, value);
  const text = document.createElement("p");
  text.textContent = blurb;
  const list = document.createElement("ul");
  list.className = "home-offers";
  list.setAttribute("aria-label", "On its page");
  for (const offer of offers) {
    const entry = document.createElement("li");
    entry.textContent = OFFERS[offer];
    entry.dataset.offer = offer;
    list.append(entry);
  }
  const open = document.createElement("a");
  open.className = "button home-open";
  open.href = anchor.href;
  open.textContent = `Open ${anchor.textContent}`;
  const docs = document.createElement("a");
  docs.className = "home-docs";
  docs.href = wwwUrl(`../${puzzle.docs}`).href;
  docs.textContent = "How it works";
  const actions = document.createElement("p");
  actions.className = "home-actions";
  actions.append(open, docs);
  item.append(heading, widget, text, list, actions);
  return item;
}

/** "12.3 MB". */
function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Which showKept call is the latest: an earlier one still reading the cache writes nothing. */
let listing = 0;

/**
 * Lists the kept files (#kept-list) and their total (#kept-summary). Only the latest call writes
 * them: the list read when the page loaded must not reappear after Forget them emptied it.
 */
export async function showKept() {
  const call = ++listing;
  let files;
  let copy = 0;
  try {
    [files, copy] = await Promise.all([keptFiles(), siteCopyBytes()]);
  } catch (error) {
    files = null;
    if (call === listing) document.getElementById("kept-summary").textContent = `The kept files could not be listed: ${error.message}`;
  }
  if (call !== listing || !files) return files ?? [];
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  document.getElementById("kept-summary").textContent =
    files.length === 0
      ? "Nothing is kept yet."
      : `${files.length} files kept, ${megabytes(total)}${copy ? `, and a second copy of the site's code (${megabytes(copy)}) that lets its pages open sooner` : ""}.`;
  document.getElementById("kept-list").replaceChildren(
    ...files.map((file) => {
      const item = document.createElement("li");
      item.textContent = `${file.path} · ${megabytes(file.bytes)}${file.current ? "" : " (an older version)"}`;
      return item;
    }),
  );
  document.getElementById("kept-clear").disabled = files.length === 0;
  return files;
}

document.getElementById("kept-clear").addEventListener("click", async () => {
  await clearKept();
  await showKept();
});
document.getElementById("kept-details").addEventListener("toggle", () => showKept());
// A first visit's files are kept after the page has loaded: the site's service worker says when.
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data?.type === "kept") showKept();
});

const target = slidingLinkTarget();
if (target) {
  location.replace(target);
} else {
  document.getElementById("puzzles").replaceChildren(...PUZZLES.map(puzzleCard));
  import("../widget.js")
    .then(() => {
      document.documentElement.dataset.ready = "true";
      showKept();
    })
    .catch((error) => {
      const banner = document.getElementById("load-error");
      banner.textContent = `The puzzles could not load: ${error.message}`;
      banner.hidden = false;
    });
}
