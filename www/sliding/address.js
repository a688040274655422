// The sliding page's address: #size=3x3&start=…&goal=…[&preset=sun-moon], written when a puzzle is
// set (app.js setPuzzle) and read when the page loads or follows a link (app.js applyHash).

function encodeHashValue(text) {
  return encodeURIComponent(text).replaceAll("%2C", ",");
}

/** The address of `puzzle` as set: its size, start, goal and preset. */
export function hashFor(puzzle) {
  let hash = `#size=${puzzle.rows}x${puzzle.cols}&start=${encodeHashValue(puzzle.startText())}&goal=${encodeHashValue(puzzle.goalText())}`;
  if (puzzle.presetName) hash += `&preset=${encodeHashValue(puzzle.presetName)}`;
  return hash;
}

/** Puts `puzzle`'s address in the URL (replaceState: no history entry). */
export function writeHashFor(puzzle) {
  const hash = hashFor(puzzle);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** The fields of the URL's hash (a malformed escape drops its field). */
export function readHash() {
  const fields = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const equals = part.indexOf("=");
    if (equals <= 0) continue;
    try {
      fields[part.slice(0, equals)] = decodeURIComponent(part.slice(equals + 1).replaceAll("+", " "));
    } catch {
      // A malformed escape: ignore the field.
    }
  }
  return fields;
}
