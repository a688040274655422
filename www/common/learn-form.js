// The Learn card's form (learn-card.js): its fields described as data — a number with its kind and
// bound, a choice, a text the puzzle parses, a checkbox — written as HTML, read into the values of
// the worker's "train" request (by option name, a FieldError naming the field in error), and filled
// back (a preset, a network's defaults, a model's settings).
//
//   const fields = [dqnField("lr", 0.001), numberField("layers", "Layers", 5, "count", 20), choiceField("net", "Network", { cells: "Per cell" })];
//   body.innerHTML = fieldsHtml("mdqn", fields);
//   readFields(body, "mdqn", fields);   // { learningRate: 0.001, layers: 5, net: "cells" }

import { FieldError, readNumber } from "./card-helpers.js";

/**
 * The DQN's settings that most puzzles' trainers take: id → [label, option (DqnConfig's field in
 * camelCase, as the trainers' create() take it), kind (card-helpers.js readNumber's), bound].
 */
const DQN_FIELDS = {
  lr: ["Learning rate", "learningRate", "positive", 1],
  gamma: ["Discount γ", "gamma", "fraction"],
  batch: ["Batch", "batchSize", "count", 4096],
  replay: ["Replay capacity", "replayCapacity", "count", 1_000_000],
  "target-update": ["Target update (steps)", "targetUpdateInterval", "count", 1_000_000],
  envs: ["Games at once", "numEnvs", "count", 256],
  "epsilon-start": ["ε start", "epsilonStart", "fraction"],
  "epsilon-decay": ["ε decay per episode", "epsilonDecay", "fraction"],
  "epsilon-min": ["ε minimum", "epsilonMin", "fraction"],
  warmup: ["Warm-up episodes", "warmupEpisodes", "whole", 10_000],
  seed: ["Seed", "seed", "whole", 2 ** 32 - 1],
  "eval-every": ["Validate every (steps)", "evalEvery", "whole", 1e9],
};

/** "eval-every" → "evalEvery". */
const camelCase = (id) => id.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/** The field's name in messages: its label without "(steps)" or "per game". */
const nameOf = (label) => label.replace(/ \([^)]*\)$/, "").replace(/ per (game|episode)$/, "");

/** A number field (id PREFIX-ID, default `value`, read as `option`); kinds and bound as card-helpers.js readNumber's. */
export function numberField(id, label, value, kind, max = Infinity, option = camelCase(id)) {
  return { type: "number", id, label, value, kind, max, option };
}

/** One of the DQN's usual settings (DQN_FIELDS) with its default `value`; `overrides` change its id, label, bound or option. */
export function dqnField(id, value, overrides = {}) {
  const [label, option, kind, max = Infinity] = DQN_FIELDS[id];
  return { type: "number", id, label, value, kind, max, option, ...overrides };
}

/** A choice: `choices` by value, the first chosen. */
export function choiceField(id, label, choices, option = camelCase(id)) {
  return { type: "select", id, label, choices, option };
}

/** A text field; `parse(input)` turns it into the option's value or throws a FieldError. */
export function textField(id, label, value, parse, option = camelCase(id)) {
  return { type: "text", id, label, value, parse, option };
}

/**
 * The network's hidden layers (option `hidden`): `value` like "250,250,250", read as 1 to 8 widths of
 * 1 to 4,096 units separated by commas, spaces or ×.
 */
export function hiddenLayersField(value, label = "Hidden layers (units, comma separated)") {
  return textField("hidden", label, value, readHiddenLayers);
}

/** The widths of a hidden layers field; throws a FieldError. */
function readHiddenLayers(input) {
  const widths = input.value.split(/[\s,×x]+/).filter(Boolean).map(Number);
  if (widths.length === 0 || widths.length > 8 || !widths.every((width) => Number.isInteger(width) && width >= 1 && width <= 4096)) {
    throw new FieldError(input, "Hidden layers: 1 to 8 widths from 1 to 4,096 units, separated by commas, like 250,250,250.");
  }
  return widths;
}

/** A checkbox (`label` is HTML). */
export function checkField(id, label, option = camelCase(id), checked = false) {
  return { type: "check", id, label, option, checked };
}

/** Input attributes after a number's kind: its bounds, step and keyboard. */
function numberAttributes({ kind, max }) {
  if (kind === "count" || kind === "whole") {
    const top = Number.isFinite(max) ? ` max="${max}"` : "";
    return `min="${kind === "count" ? 1 : 0}"${top} step="1" inputmode="numeric"`;
  }
  return `min="0"${kind === "fraction" ? ' max="1"' : ""} step="any" inputmode="decimal"`;
}

/** One field's HTML (a label.field, or a label.check for a checkbox). */
export function fieldHtml(prefix, field) {
  const id = `${prefix}-${field.id}`;
  const labelled = (control) => `<label class="field"><span class="field-label">${field.label}</span>${control}</label>`;
  switch (field.type) {
    case "number":
      return labelled(`<input id="${id}" type="number" value="${field.value}" ${numberAttributes(field)} />`);
    case "select": {
      const options = Object.entries(field.choices).map(([value, text]) => `<option value="${value}">${text}</option>`);
      return labelled(`<select id="${id}">${options.join("")}</select>`);
    }
    case "text":
      return labelled(`<input id="${id}" type="text" value="${field.value}" spellcheck="false" autocomplete="off" />`);
    case "check":
      return `<label class="check"><input id="${id}" type="checkbox"${field.checked ? " checked" : ""} /> ${field.label}</label>`;
    default:
      throw new Error(`A field of an unknown type: ${field.type}`);
  }
}

/** Several fields' HTML, one a line. */
export function fieldsHtml(prefix, fields) {
  return fields.map((field) => fieldHtml(prefix, field)).join("\n");
}

/** The fields' values by option name; throws a FieldError naming the first field in error. */
export function readFields(root, prefix, fields) {
  const values = {};
  for (const field of fields) {
    const input = root.querySelector(`#${prefix}-${field.id}`);
    if (field.type === "number") values[field.option] = readNumber(input, nameOf(field.label), field.kind, field.max);
    else if (field.type === "text") values[field.option] = field.parse(input);
    else if (field.type === "check") values[field.option] = input.checked;
    else values[field.option] = input.value;
  }
  return values;
}

/**
 * Sets fields by id (after PREFIX-): a checkbox from a boolean, a choice to one of its options (a
 * value it does not offer is left out), any other field from its text; marks none invalid.
 */
export function fillFields(root, prefix, values) {
  for (const [id, value] of Object.entries(values)) {
    const input = root.querySelector(`#${prefix}-${id}`);
    if (!input || value === undefined || value === null) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else if (input.tagName === "SELECT" && ![...input.options].some((option) => option.value === String(value))) continue;
    else input.value = String(value);
    input.removeAttribute("aria-invalid");
  }
}

/** A model's setting as the form shows it: six significant digits at most (0.9995 stays, 0.1 + 0.2 does not). */
export function settingText(value) {
  return typeof value === "number" ? Number(value.toPrecision(6)) : value;
}
