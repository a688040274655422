// The pages' nav, drawn from the puzzle registry (puzzles.js): the home page (index.html), then a
// link per puzzle page, the page shown marked aria-current="page". Every page loads this module and has an empty
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
