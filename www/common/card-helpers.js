import { numberFormat } from "./number-format.js";
// Small pieces the training cards share (2048/train-panel.js, the n-tuple network; learn-card.js,
// every puzzle's Learn card, and the puzzles' descriptions of it): the cards'
// stylesheet, their elements by id, reading number fields with a message that names
// the field, error lines, progress boxes, downloads and file choosers, and the way they write
// whole numbers, percents, sizes and durations. run-controls.js and evaluation-table.js build on them.

const STYLESHEET_URL = new URL("./cards.css", import.meta.url);

/** What a form field holds that training cannot use; the message names the field. */
export class FieldError extends Error {
  constructor(input, message) {
    super(message);
    this.input = input;
  }
}

/**
 * Adds common/cards.css (the training cards' stylesheet, on top of common/base.css) to the document
 * once; resolves once it is loaded (or failed to load).
 */
export function addCardStylesheet(document) {
  let link = document.querySelector("link[data-train2048]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLESHEET_URL.href;
    link.dataset.train2048 = "";
    document.head.append(link);
  } else if (link.sheet) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

// The cards are imported once a page is ready: this module, which every card imports, waits for
// their stylesheet, so that no card is drawn without it (a frame of a card without its styles once
// widened the dust page by its evaluation table).
if (globalThis.document) await addCardStylesheet(globalThis.document);

/**
 * Renders a training card into `container` (a section.card whose h2 is already there): the
 * cards' stylesheet, `cardClass` and data-state="idle" on the card, and `html` in a div of
 * `bodyClass` after the heading. Returns that div.
 */
export function renderCard(container, { cardClass, bodyClass, html }) {
  const document = container.ownerDocument;
  addCardStylesheet(document);
  container.classList.add(cardClass);
  container.dataset.state = "idle";
  const body = document.createElement("div");
  body.className = bodyClass;
  body.innerHTML = html;
  container.append(body);
  return body;
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
  if ((kind === "rate" || kind === "positive") && !(value > 0 && value <= top)) {
    throw new FieldError(input, top === Infinity ? `${label} must be above 0.` : `${label} must lie above 0 and at most ${top}.`);
  }
  if (kind === "fraction" && !(value >= 0 && value <= 1)) throw new FieldError(input, `${label} must lie between 0 and 1.`);
  if (whole && !Number.isSafeInteger(value)) throw new FieldError(input, `${label} must be a whole number.`);
  if (kind === "count" && value < 1) throw new FieldError(input, `${label} must be at least 1.`);
  if (kind === "whole" && value < 0) throw new FieldError(input, `${label} cannot be negative.`);
  if (whole && value > max) throw new FieldError(input, `${label}: at most ${numberFormat.format(max)}.`);
  return value;
}

/** A FieldError's field: marked invalid (until it is edited) and focused. Other errors name no field. */
export function markField(error) {
  error.input?.setAttribute("aria-invalid", "true");
  error.input?.focus();
}

/**
 * The elements with ids PREFIX-ID below `root`, by the ids' names in camelCase: elementsById(body,
 * "t2048", ["start", "eval-games"]) is { start: #t2048-start, evalGames: #t2048-eval-games }.
 */
export function elementsById(root, prefix, ids) {
  const camelCase = (id) => id.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
  return Object.fromEntries(ids.map((id) => [camelCase(id), root.querySelector(`#${prefix}-${id}`)]));
}

/** Every element below `root` whose id starts with PREFIX-, by the rest of its id in camelCase (as elementsById). */
export function elementsByPrefix(root, prefix) {
  const ids = [...root.querySelectorAll(`[id^="${prefix}-"]`)].map((element) => element.id.slice(prefix.length + 1));
  return elementsById(root, prefix, ids);
}

/** "97.8%" ("100%" and "0%" whole), "–" when missing. */
export function percent(rate) {
  return rate === null || rate === undefined ? "–" : percentText(100 * rate);
}

/** A value already in percent as "88.4%", "7%" when whole (100 × 0.07 too, whatever its float noise), "–" when there is none. */
export function percentText(value) {
  if (value === null || value === undefined) return "–";
  const nearest = Math.round(value);
  return `${Math.abs(value - nearest) < 1e-9 ? nearest : Number(value).toFixed(1)}%`;
}

/** "0.59 MB", "10.7 MB". */
export function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
}

/** A count or rate rounded to a whole number, with thousands grouped: "3,460". */
export function whole(value) {
  return numberFormat.format(Math.round(value));
}

/** "420 ms" below a second, "3.2 s" above. */
export function duration(ms) {
  return ms < 1000 ? `${whole(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
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

/** A download's progress in a progress box: "WHAT: 1.2 MB of 3.4 MB (35%)" (an indeterminate bar while the size is unknown). */
export function showDownload(progress, what, loaded, total) {
  showProgress(progress, `${what}: ${megabytes(loaded)}${total ? ` of ${megabytes(total)}` : ""}`, total ? loaded / total : null);
}

/** Hides a progress box and empties its text line. */
export function hideProgress({ box, text }) {
  box.hidden = true;
  text.textContent = "";
}

/** Shows `message` in an error line (a p.error, hidden while it has nothing to say). */
export function showAlert(line, message) {
  line.textContent = message;
  line.hidden = false;
}

/** Empties and hides error lines. */
export function hideAlerts(...lines) {
  for (const line of lines) {
    line.hidden = true;
    line.textContent = "";
  }
}

/** Hands `bytes` to the browser as a download called `name` (of MIME type `type`). */
export function downloadBytes(document, bytes, name, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([bytes], { type }));
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * A Load… `button` that opens a hidden file `input`; `onFile(file)` gets the file chosen (the input
 * is emptied, so that choosing the same file again is seen).
 */
export function chooseFilesWith(button, input, onFile) {
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    input.value = "";
    if (file) onFile(file);
  });
}

/**
 * Writes a model card's model line, "<strong>title</strong>: what.", with data-source = source;
 * `what` is words, or a model's info that `describe` turns into words.
 */
export function writeModelLine(line, title, what, source, describe) {
  line.dataset.source = source;
  line.replaceChildren();
  const name = line.ownerDocument.createElement("strong");
  name.textContent = title;
  line.append(name, `: ${typeof what === "string" ? what : describe(what)}.`);
}

/** Enables and names a model select's "trained" and "file" options after the models at hand. */
export function labelModelOptions(select, trained, file) {
  const trainedOption = select.querySelector('option[value="trained"]');
  trainedOption.disabled = !trained;
  trainedOption.textContent = trained ? "Trained here" : "Trained here (nothing yet)";
  const fileOption = select.querySelector('option[value="file"]');
  fileOption.disabled = !file;
  fileOption.textContent = file ? `Loaded: “${file.name}”` : "Loaded file (none)";
}
