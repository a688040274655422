// Where a puzzle's Learn card takes the model that plays and is evaluated: the network trained
// here (snapshotted in the learning worker), a file the person loaded (from their disk or a URL),
// or a shipped model (fetched once, with its download shown; a puzzle may ship several, one chosen
// in the shipped-model choice). The card keeps its own words; this keeps the models.
// learn-card.js uses it for every puzzle's Learn card.
//
//   const sources = new ModelSources({ client: () => learnClient, select, shippedSelect, puzzle: "dust",
//     keys: { trained, file, shipped, play }, shippedList, download, missingText, onShipped, onManifest });
//   await sources.loadFile(file);           // { key, info, size }
//   const { key, name, info, source, steps } = await sources.chosen({ forPlay: true });

import { hideProgress, labelModelOptions, showDownload } from "./card-helpers.js";
import { numberFormat } from "./number-format.js";


export class ModelSources {
  /** The run's network: { steps, info (once it stopped or paused) } once a run started, else null. */
  trained = null;
  /** The loaded file: { name, info }, or null. */
  file = null;
  #options;
  /** The shipped models: [{ url, file, title, bytes, manifestUrl }], [] until listed (or when listing failed). */
  #entries = [];
  /** Fetched shipped models by URL: { info, size, manifest (once read) }. */
  #shipped = new Map();
  /** Fetches under way by URL. */
  #loading = new Map();

  /**
   * `client()`: the learning client; `select`: the card's model choice (options "trained", "file",
   * "shipped"); `shippedSelect`: the choice among the shipped models (shown when there are several);
   * `puzzle`: the worker's name for the models; `keys`: the worker keys { trained (the run's), file,
   * shipped, play (the run's network as it was when asked to play) }; `shippedList`: the shipped
   * models, [{ url, file, title, bytes, manifestUrl }] or a promise of them (listed() says how it went);
   * `download`: the card's progress box ({ box, text, bar }); `missingText(entry)`: what to say when
   * the server lacks a shipped model; `onShipped(loaded, entry)` (optional): told once a shipped model
   * is in; `onManifest(entry, manifest, error)` (optional): its manifest (entry.manifestUrl) read after it.
   */
  constructor(options) {
    this.#options = options;
  }

  /** Lists the shipped models into the shipped-model choice; resolves to them, or rejects saying why there are none. */
  async listed() {
    const entries = await this.#options.shippedList;
    if (!Array.isArray(entries) || entries.length === 0) throw new Error("the index lists none");
    this.#entries = entries;
    const select = this.#options.shippedSelect;
    const document = select.ownerDocument;
    select.replaceChildren(...entries.map(({ file, title }) => Object.assign(document.createElement("option"), { value: file, textContent: title })));
    select.closest(".field").hidden = entries.length < 2;
    return entries;
  }

  /** The worker's keys of the models: { trained, file, shipped, play }. */
  get keys() {
    return this.#options.keys;
  }

  /** The shipped model chosen (an entry of the list), or null while none is listed. */
  get shippedEntry() {
    const value = this.#options.shippedSelect.value;
    return this.#entries.find((entry) => entry.file === value) ?? this.#entries[0] ?? null;
  }

  /** The chosen shipped model once fetched: { info, size, manifest }, or null. */
  get shipped() {
    return this.#shipped.get(this.shippedEntry?.url) ?? null;
  }

  /** Whether several models ship (each is then named by its title). */
  get several() {
    return this.#entries.length > 1;
  }

  /** The chosen shipped model once fetched, as chosen() gives it, or null. */
  get fetchedShipped() {
    const entry = this.shippedEntry;
    const shipped = this.shipped;
    if (!shipped) return null;
    return { key: this.#shippedKey(entry), name: this.several ? `Shipped: ${entry.title}` : "Shipped", info: shipped.info, source: "shipped", manifest: shipped.manifest };
  }

  /** Whether the model chosen is at hand (a shipped one is, once listed: it is fetched on use). */
  get haveChosen() {
    const choice = this.#options.select.value;
    return choice === "trained" ? Boolean(this.trained) : choice === "file" ? Boolean(this.file) : Boolean(this.shippedEntry);
  }

  /** The chosen model's info where it is known without asking the worker, else null. */
  get chosenInfo() {
    const choice = this.#options.select.value;
    return (choice === "trained" ? this.trained?.info : choice === "file" ? this.file?.info : this.shipped?.info) ?? null;
  }

  /** Enables and names the "trained" and "file" options after the models at hand. */
  relabel() {
    labelModelOptions(this.#options.select, this.trained, this.file);
  }

  /** Reads a model file in the worker and chooses it; resolves to { key, info, size }. */
  async loadFile(file) {
    const { client, keys, puzzle } = this.#options;
    const bytes = new Uint8Array(await file.arrayBuffer());
    return this.#useFile(file.name, await client().loadModelBytes(bytes, { key: keys.file, name: file.name, puzzle }));
  }

  /** Fetches a model file from `url` in the worker (its download shown) and chooses it as the loaded file, named `name`; resolves as loadFile(). */
  async loadUrl(url, name) {
    const { client, keys, puzzle, download } = this.#options;
    try {
      const loaded = await client().loadModelUrl(url, { key: keys.file, puzzle, onProgress: ({ loaded: received, total }) => showDownload(download, `Downloading ${name}`, received, total) });
      return this.#useFile(name, loaded);
    } finally {
      hideProgress(download);
    }
  }

  #useFile(name, loaded) {
    this.file = { name, info: loaded.info };
    this.#options.select.value = "file";
    this.relabel();
    return loaded;
  }

  /** The worker's key of a shipped model: the puzzle's shipped key, with the file's name where several ship. */
  #shippedKey(entry) {
    const { shipped } = this.#options.keys;
    return this.several ? `${shipped}:${entry.file}` : shipped;
  }

  /**
   * Fetches the chosen shipped model into the worker once (a failure is forgotten); resolves to
   * { key, info, size }. Its manifest, where it has one, is read afterwards (onManifest).
   */
  fetchShipped(entry = this.shippedEntry) {
    if (!entry) return Promise.reject(new Error("No shipped model is listed: load a model file."));
    const { client, puzzle, download, missingText } = this.#options;
    const key = this.#shippedKey(entry);
    const running = this.#loading.get(entry.url);
    if (running) return running;
    const sizeOf = (total) => total || entry.bytes || 0;
    const loading = client()
      .loadModelUrl(entry.url, { key, puzzle, onProgress: ({ loaded, total }) => showDownload(download, `Downloading ${entry.file}`, loaded, sizeOf(total)) })
      .then(
        (loaded) => {
          hideProgress(download);
          this.#shipped.set(entry.url, { info: loaded.info, size: loaded.size, manifest: null });
          this.#options.onShipped?.(loaded, entry);
          this.#readManifest(entry);
          return loaded;
        },
        (error) => {
          hideProgress(download);
          this.#loading.delete(entry.url);
          throw new Error(/answered HTTP 404/.test(error.message) ? missingText(entry) : error.message);
        },
      );
    this.#loading.set(entry.url, loading);
    return loading;
  }

  /** Reads a fetched shipped model's manifest (how it was trained, its evaluation) and tells onManifest. */
  async #readManifest(entry) {
    const { onManifest } = this.#options;
    if (!entry.manifestUrl || !onManifest) return;
    try {
      const response = await fetch(entry.manifestUrl);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const manifest = await response.json();
      this.#shipped.get(entry.url).manifest = manifest;
      onManifest(entry, manifest, null);
    } catch (error) {
      onManifest(entry, null, error);
    }
  }

  /**
   * The chosen model's key in the worker, fetching or snapshotting it first: { key, name, info,
   * source ("trained" | "file" | "shipped"), steps (the run's, for the network trained here),
   * manifest (a shipped model's, once read) }. `forPlay`: the run's network is kept under the play
   * key (training may go on meanwhile).
   */
  async chosen({ forPlay = false } = {}) {
    const { client, keys, select } = this.#options;
    const choice = select.value;
    if (choice === "trained") {
      if (!this.trained) throw new Error("Nothing has been trained yet.");
      const snapshot = await client().snapshot(forPlay ? keys.play : keys.trained);
      this.trained = { ...this.trained, info: snapshot.info };
      return { key: snapshot.key, name: `Trained here (${numberFormat.format(snapshot.steps)} steps)`, info: snapshot.info, source: choice, steps: snapshot.steps };
    }
    if (choice === "file") {
      if (!this.file) throw new Error("Load a model file first.");
      return { key: keys.file, name: `“${this.file.name}”`, info: this.file.info, source: choice };
    }
    if (!this.shipped) await this.fetchShipped();
    return this.fetchedShipped;
  }
}

/**
 * A Learn card's model line and model choice (ids `PREFIX-model-line`, `PREFIX-model`; the field
 * grid has the classes `learn-model-fields` and `PREFIX-model-fields`), the shipped model chosen,
 * the choice among the shipped models (`PREFIX-shipped`, hidden unless several ship), and `fields`
 * (HTML: the puzzle's own, such as how the model plays).
 */
export function modelChoiceHtml(prefix, fields = "") {
  const options = [
    ["trained", "Trained here (nothing yet)", "disabled"],
    ["file", "Loaded file (none)", "disabled"],
    ["shipped", "Shipped", "selected"],
  ].map(([value, label, flag]) => `<option value="${value}" ${flag}>${label}</option>`);
  return `<p id="${prefix}-model-line" class="model-line" data-source="">The shipped model: loaded on first use.</p>
<div class="field-grid learn-model-fields ${prefix}-model-fields">
  <label class="field"><span class="field-label">Model</span><select id="${prefix}-model">${options.join("")}</select></label>
  <label class="field" hidden><span class="field-label">Shipped model</span><select id="${prefix}-shipped"><option value="">Loading the list…</option></select></label>
  ${fields}
</div>`;
}
