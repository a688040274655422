// What every mode of <puzzle-widget> (widget.js) reads its attributes with: the error an unusable
// value raises, and the parsers of the attributes all puzzles share (controls, speed, model). Each
// puzzle's panel (sliding/, 2048/, minesweeper/, sudoku/ and samegame/widget-panel.js) parses its own attributes with them.

import { PUZZLES } from "./puzzles.js";

/** The puzzles a widget shows (its `puzzle` attribute): the registry's widget modes (puzzles.js). */
export const PUZZLE_KINDS = PUZZLES.map((puzzle) => puzzle.widget.mode);
export const DEFAULT_SPEED = 4;
export const MIN_SPEED = 0.5;
export const MAX_SPEED = 60;

/** An attribute's value the widget cannot use; `message` says why, for a person. */
export class AttributeError extends Error {
  constructor(attribute, value, reason) {
    const shown = value.length > 40 ? `${value.slice(0, 39)}…` : value;
    super(`${attribute}="${shown}": ${reason}`);
    this.name = "AttributeError";
    this.attribute = attribute;
  }
}

/**
 * The set of buttons a `controls` value names (null: the attribute is absent, `defaults`), out of
 * `known` (the buttons of the panel shown).
 */
export function parseControls(value, known, defaults = known) {
  if (value === null) return new Set(defaults);
  const names = value.toLowerCase().split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const named = unknown.map((name) => `"${name}"`).join(", ");
    const reason = `unknown ${unknown.length === 1 ? "control" : "controls"} ${named}; choose from ${known.join(", ")}`;
    throw new AttributeError("controls", value, reason);
  }
  return new Set(names);
}

/** A game's seed from a `seed` value (null: absent, a random seed at each game). */
export function parseSeed(value) {
  if (value === null || value.trim() === "") return null;
  const seed = Number(value.trim());
  if (!Number.isSafeInteger(seed) || seed < 0) throw new AttributeError("seed", value, "the seed is a whole number, 0 or more");
  return seed;
}

/** Moves per second from a `speed` value (null: absent), clamped to MIN_SPEED..MAX_SPEED. */
export function parseSpeed(value) {
  if (value === null || value.trim() === "") return DEFAULT_SPEED;
  const speed = Number(value.trim());
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new AttributeError("speed", value, `the speed is a number of moves per second, from ${MIN_SPEED} to ${MAX_SPEED}`);
  }
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

/** `model` is an author's URL, resolved against the page; checked to be one here, read when used. */
export function checkModel(element) {
  const model = element.getAttribute("model");
  if (model === null || model.trim() === "") return;
  try {
    new URL(model.trim(), document.baseURI);
  } catch {
    throw new AttributeError("model", model, "this is not a URL");
  }
}
