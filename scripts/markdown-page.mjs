// The repository's Markdown (README.md, docs/) as the site's pages: scripts/serve.mjs answers a
// browser that opens a .md file (a navigation, such as the home page's "Widget reference" link)
// with this HTML page, and anything else that reads the file (fetch, curl, `?raw`) with the text.
// The page has the site's nav (from the puzzle registry, www/common/puzzles.js), the site's styles
// and no script; GitHub's heading ids, so the docs' links to a section (`page.md#speed`) land.
// Rendering: marked (npm, MIT), a devDependency; without it (no `npm ci` yet) the text is served.

import { HOME, sitePages } from "../www/common/puzzles.js";

let markedModule;
try {
  markedModule = await import("marked");
} catch {
  markedModule = null;
}

/** Whether .md files can be rendered here (marked is installed). */
export const canRenderMarkdown = markedModule !== null;

const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** `html`'s text: tags dropped, the entities marked writes read back. */
function textOf(html) {
  return html.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (character) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[character]};`);
}

/**
 * GitHub's id for a heading's text: lower case, punctuation dropped (letters, digits, `_`, `-` and
 * spaces stay), each space a `-`; a repeated id gets `-1`, `-2`, … (github-slugger's rule).
 */
export function headingSlugger() {
  const seen = new Map();
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

/** The site's nav, as www/common/site-nav.js draws it, with links that work from any folder of the served root. */
function siteNav() {
  const links = [HOME, ...sitePages()].map(({ page, nav }) => `<a href="/www/${page}">${escapeHtml(nav)}</a>`);
  return `<nav class="site-nav" aria-label="Puzzles">${links.join("")}</nav>`;
}

/** A page of the site with `title` and a card of `cardBody` (HTML). */
function sitePage(title, cardBody) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${escapeHtml(title === "puzzlelab" ? title : `${title} — puzzlelab`)}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/www/common/base.css" />
    <link rel="stylesheet" href="/www/common/docs.css" />
  </head>
  <body>
    <header class="site-header">
      ${siteNav()}
    </header>
    <main class="card docs-page">
${cardBody}
    </main>
  </body>
</html>
`;
}

/**
 * The HTML page for the Markdown `text` of the file at `pathname` (its URL path under the served
 * root), or null when marked is not installed.
 */
export function markdownPage(text, pathname) {
  if (!markedModule) return null;
  const slug = headingSlugger();
  let title = null;
  const marked = new markedModule.Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const plain = textOf(inner);
        title ??= depth === 1 ? plain : null;
        return `<h${depth} id="${escapeHtml(slug(plain))}">${inner}</h${depth}>\n`;
      },
    },
  });
  const body = marked.parse(text);
  const source = `<p class="docs-source">${escapeHtml(pathname.replace(/^\//, ""))} · <a href="?raw">the Markdown</a></p>`;
  return sitePage(title ?? pathname.split("/").pop(), `${source}\n${body}`);
}

/**
 * A page listing a docs folder that has no index.html (`pathname` ends with "/"): a link to each
 * of `entries` ({ name, folder }), folders first, as a repository's folder view does.
 */
export function folderPage(pathname, entries) {
  const sorted = [...entries].filter(({ name }) => !name.startsWith(".")).sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name));
  const items = sorted.map(({ name, folder }) => {
    const shown = folder ? `${name}/` : name;
    return `<li><a href="${encodeURIComponent(name)}${folder ? "/" : ""}">${escapeHtml(shown)}</a></li>`;
  });
  const title = pathname.replace(/^\//, "");
  return sitePage(title, `<h1>${escapeHtml(title)}</h1>\n<p><a href="../">Up a folder</a></p>\n<ul>\n${items.join("\n")}\n</ul>`);
}
