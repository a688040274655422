// Numbers as the pages write them, in English ("12,345", "0.125"). Chromium spends 30–80 ms on a
// page's first Intl.NumberFormat (setting up ICU), which every page paid while it started when its
// modules each made one on import; whole numbers, the common case, are grouped here instead, and
// Intl's formatter is made only when a number with a fraction (or beyond 2⁵³) first needs it.
// Plain module, no DOM: pages and workers use it.

let intl = null;

/** Formats as `new Intl.NumberFormat("en").format` does (3 fraction digits at most, commas between thousands). */
export function formatNumber(value) {
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value).replace(/\B(?=(\d{3})+$)/g, ",");
  intl ??= new Intl.NumberFormat("en");
  return intl.format(value);
}

/** The formatter the cards and reports take (an object with `format`, as an Intl.NumberFormat). */
export const numberFormat = Object.freeze({ format: formatNumber });
