// Where a puzzle's Learn card takes the model that plays and is evaluated: the network trained
// here (snapshotted in the learning worker), a file the person loaded, or the shipped model
// (fetched once, with its download shown). The card keeps its own words; this keeps the models.
// learn-card.js uses it for every puzzle's Learn card.
//
//   const sources = new ModelSources({ client: () => learnClient, select, puzzle: "dust",
//     keys: { trained, file, shipped, play }, shippedUrl, download, missingText, onShipped });
//   await sources.loadFile(file);           // { key, info, size }
//   const { key, name, info, source, steps } = await sources.chosen({ forPlay: true });

import { hideProgress, labelModelOptions, showDownload } from "./card-helpers.js";

const numberFormat = new Intl.NumberFormat("en");

export class ModelSources {
  /** The run's network: { steps } once a run started, else null. */
  trained = null;
  /** The loaded file: { name, info }, or null. */
  file = null;
  /** The shipped model once fetched: { info, size }, or null. */
  shipped = null;
  #options;
  #shippedLoading = null;

  /**
   * `client()`: the learning client; `select`: the card's model choice (options "trained", "file",
   * "shipped"); `puzzle`: the worker's name for the models; `keys`: the worker keys { trained (the
   * run's), file, shipped, play (the run's network as it was when asked to play) }; `shippedUrl`;
   * `download`: the card's progress box ({ box, text, bar }); `missingText`: what to say when the
   * server has no shipped model; `onShipped(loaded)` (optional): told once the shipped model is in.
   */
  constructor(options) {
    this.#options = options;
  }

  /** The worker's keys of the models: { trained, file, shipped, play }. */
  get keys() {
    return this.#options.keys;
  }

  /** Whether the model chosen is at hand (the shipped one always is: it is fetched on use). */
  get haveChosen() {
    const choice = this.#options.select.value;
    return choice === "trained" ? Boolean(this.trained) : choice === "file" ? Boolean(this.file) : true;
  }

  /** Enables and names the "trained" and "file" options after the models at hand. */
  relabel() {
    labelModelOptions(this.#options.select, this.trained, this.file);
  }

  /** Reads a model file in the worker and chooses it; resolves to { key, info, size }. */
  async loadFile(file) {
    const { client, keys, puzzle, select } = this.#options;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const loaded = await client().loadModelBytes(bytes, { key: keys.file, name: file.name, puzzle });
    this.file = { name: file.name, info: loaded.info };
    select.value = "file";
    this.relabel();
    return loaded;
  }

  /** Fetches the shipped model into the worker once (a failure is forgotten); resolves to { key, info, size }. */
  fetchShipped() {
    const { client, keys, puzzle, shippedUrl, download, missingText } = this.#options;
    this.#shippedLoading ??= client()
      .loadModelUrl(shippedUrl, { key: keys.shipped, puzzle, onProgress: ({ loaded, total }) => showDownload(download, "Downloading the shipped model", loaded, total) })
      .then(
        (loaded) => {
          hideProgress(download);
          this.shipped = { info: loaded.info, size: loaded.size };
          this.#options.onShipped?.(loaded);
          return loaded;
        },
        (error) => {
          hideProgress(download);
          this.#shippedLoading = null;
          throw new Error(/answered HTTP 404/.test(error.message) ? missingText : error.message);
        },
      );
    return this.#shippedLoading;
  }

  /**
   * The chosen model's key in the worker, fetching or snapshotting it first: { key, name, info,
   * source ("trained" | "file" | "shipped"), steps (the run's, for the network trained here) }.
   * `forPlay`: the run's network is kept under the play key (training may go on meanwhile).
   */
  async chosen({ forPlay = false } = {}) {
    const { client, keys, select } = this.#options;
    const choice = select.value;
    if (choice === "trained") {
      if (!this.trained) throw new Error("Nothing has been trained yet.");
      const snapshot = await client().snapshot(forPlay ? keys.play : keys.trained);
      return { key: snapshot.key, name: `Trained here (${numberFormat.format(snapshot.steps)} steps)`, info: snapshot.info, source: choice, steps: snapshot.steps };
    }
    if (choice === "file") {
      if (!this.file) throw new Error("Load a model file first.");
      return { key: keys.file, name: `“${this.file.name}”`, info: this.file.info, source: choice };
    }
    const { info } = this.shipped ?? (await this.fetchShipped());
    return { key: keys.shipped, name: "Shipped", info, source: "shipped" };
  }
}

/**
 * A Learn card's model line and model choice (ids `PREFIX-model-line`, `PREFIX-model`; the field
 * grid has the classes `learn-model-fields` and `PREFIX-model-fields`), the shipped model chosen.
 */
export function modelChoiceHtml(prefix) {
  const options = [
    ["trained", "Trained here (nothing yet)", "disabled"],
    ["file", "Loaded file (none)", "disabled"],
    ["shipped", "Shipped", "selected"],
  ].map(([value, label, flag]) => `<option value="${value}" ${flag}>${label}</option>`);
  return `<p id="${prefix}-model-line" class="model-line" data-source="">The shipped model: loaded on first use.</p>
<div class="field-grid learn-model-fields ${prefix}-model-fields">
  <label class="field"><span class="field-label">Model</span><select id="${prefix}-model">${options.join("")}</select></label>
</div>`;
}
