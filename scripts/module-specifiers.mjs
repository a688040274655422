// The module specifiers a JavaScript source names as string literals, for the scripts that walk
// the site's module graph: module-preloads.mjs (the static imports a page's <link
// rel="modulepreload"> lists) and dist.mjs (everything a release needs, dynamic imports and
// `new URL("…", import.meta.url)` included). Statements are read where they start a line, as
// the site's modules are formatted, so that an example in a comment is not taken for an import.

/** `import … from "…"`, `export … from "…"` and `import "…"`. */
const STATIC_PATTERNS = [/^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms, /^\s*import\s*["']([^"']+)["']/gm];

/** `import("…")` and `new URL("…", import.meta.url)`. */
const DYNAMIC_PATTERNS = [/\bimport\(\s*["']([^"']+)["']\s*\)/g, /\bnew URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g];

/**
 * The relative specifiers (one or two dots, then a slash) `source` imports or re-exports
 * statically, in the order they appear; with `dynamic`, also those it imports dynamically or
 * makes URLs of.
 */
export function relativeSpecifiers(source, { dynamic = false } = {}) {
  const patterns = dynamic ? [...STATIC_PATTERNS, ...DYNAMIC_PATTERNS] : STATIC_PATTERNS;
  const found = patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => ({ at: match.index, specifier: match[1] })));
  return found
    .filter(({ specifier }) => /^\.{1,2}\//.test(specifier))
    .sort((a, b) => a.at - b.at)
    .map(({ specifier }) => specifier);
}
