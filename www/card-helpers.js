// Small pieces the 2048 page's two training cards share (train2048-panel.js, the n-tuple network;
// dqn2048-panel.js, seed 004's DQN): their stylesheet, reading number fields with a message that
// names the field, and the way they write percents, sizes and durations.

const numberFormat = new Intl.NumberFormat("en");
const STYLESHEET_URL = new URL("./train2048.css", import.meta.url);

/** What a form field holds that training cannot use; the message names the field. */
export class FieldError extends Error {
  constructor(input, message) {
    super(message);
    this.input = input;
  }
}

/** Adds train2048.css (the 2048 cards' stylesheet, on top of style.css) to the document once. */
export function addCardStylesheet(document) {
  if (document.querySelector("link[data-train2048]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET_URL.href;
  link.dataset.train2048 = "";
  document.head.append(link);
}

/**
 * A number field's value, or a FieldError naming it. Kinds: "rate" (0 < x ≤ 1), "positive"
 * (0 < x ≤ max), "fraction" (0 ≤ x ≤ 1), "count" (whole, 1 ≤ x ≤ max), "whole" (whole, 0 ≤ x ≤ max).
 */
export function readNumber(input, label, kind, max = Infinity) {
  const text = input.value.trim();
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) throw new FieldError(input, `${label}: enter a number.`);
  const whole = kind === "count" || kind === "whole";
  const top = kind === "rate" ? 1 : max;
  if ((kind === "rate" || kind === "positive") && !(value > 0 && value <= top)) throw new FieldError(input, `${label} must lie above 0 and at most ${top}.`);
  if (kind === "fraction" && !(value >= 0 && value <= 1)) throw new FieldError(input, `${label} must lie between 0 and 1.`);
  if (whole && !Number.isSafeInteger(value)) throw new FieldError(input, `${label} must be a whole number.`);
  if (kind === "count" && value < 1) throw new FieldError(input, `${label} must be at least 1.`);
  if (kind === "whole" && value < 0) throw new FieldError(input, `${label} cannot be negative.`);
  if (whole && value > max) throw new FieldError(input, `${label}: at most ${numberFormat.format(max)}.`);
  return value;
}

/** "97.8%" ("100%" and "0%" whole), "–" when missing. */
export function percent(rate) {
  if (rate === null || rate === undefined) return "–";
  const value = 100 * rate;
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}

/** "0.59 MB", "10.7 MB". */
export function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
}

/** "420 ms" below a second, "3.2 s" above. */
export function duration(ms) {
  return ms < 1000 ? `${numberFormat.format(Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Shows a progress box (a .download-status with its text line and <progress>): `message`, and
 * the fraction done as a percent and on the bar; `fraction` null: an indeterminate bar.
 */
export function showProgress({ box, text, bar }, message, fraction) {
  box.hidden = false;
  text.textContent = fraction === null ? message : `${message} (${Math.floor(Math.min(1, fraction) * 100)}%)`;
  if (fraction === null) bar.removeAttribute("value");
  else bar.value = Math.min(1, fraction);
}

/** Hides a progress box and empties its text line. */
export function hideProgress({ box, text }) {
  box.hidden = true;
  text.textContent = "";
}
