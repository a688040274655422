// The Learn card: one card for every puzzle's deep Q-network, configured per puzzle by a small
// description (2048/dqn-panel.js, minesweeper/dqn-panel.js, sudoku/dqn-panel.js,
// samegame/dqn-panel.js, sliding/train-panel.js). It trains in the learning worker (learn-client.js; WebGPU or the CPU),
// and a model — the network trained here, a file, or the shipped one — plays the page's board and
// is evaluated. Nothing heavy happens when it mounts: the worker and the learning bundle load when
// one of its buttons is first used.
//
//   import { LearnCard } from "../common/learn-card.js";
//   const card = new LearnCard(section, DESCRIPTION, api);   // section: a section.card, its h2 stays first
//
// What every card does the same way:
//   - the form (learn-form.js): the puzzle's fields and the backend, "More settings", presets, a
//     note under the fields, "Start from its weights" where the puzzle can go on from a file;
//   - the run (run-controls.js): Train, Pause, Resume, Stop, Save; its start stage by stage in
//     plain words, the technical details folded under the status; the statistics (steps,
//     episodes, TD loss, ε, steps/s, the puzzle's validation numbers, backend, parameters) and the
//     charts, the TD loss, ε and speed drawn here, the puzzle's own from its hooks;
//   - the models (model-sources.js): the model line, the model choice (with the choice among the
//     shipped models where several ship), Load…, a model's URL where the description asks for it,
//     Load the shipped model (its manifest read after it where the description uses it);
//   - playing: the puzzle's buttons, the play status and error lines, ask() for the worker's answer
//     and playLoop() for moves on the page's board, one at a time, until done or Stop;
//   - evaluating (evaluation-table.js): the puzzle's fields, Evaluate (Cancel where the worker can
//     stop one), the results, newest first.
// For tests the card carries data-learn-ready once it is set up (the pages set their cards up after
// they are ready: wait for it before using the card), data-state (the run's) and data-playing, its
// statistics data-steps, data-loss, data-backend and data-validations, and each line chart
// data-points.
//
// The description (every hook gets the card; see the five puzzles' files):
//   puzzle           its id in the registry (puzzles.js: its title, its shipped model or index of
//                    shipped models, the worker's key of its trained network); every request to the
//                    worker names it
//   prefix           element ids start with PREFIX- (and classes PREFIX-card, PREFIX-fields, …)
//   cli              { train, eval }: the commands that train the shipped model and read a saved one
//   intro            HTML: what is trained, and how
//   form: { head (HTML), changed(card) (the page's board changed: the head says so),
//           fields (learn-form.js; the backend choice comes after them), more: { label, fields, checks },
//           presets: [{ id, label, title, values by id, or "defaults": every field's default }], nets: { defaults: { NET: values }, locked: { NET: [ids] } },
//           note(read) (the line under the fields; read(id) is a field's number),
//           request(values, card) → the train request's own part ({ options, evalEvery, … }),
//           starting(settings) (words after "building the network" while the run gets ready: what
//           else the trainer sets up, such as "; generating 200 training puzzles"),
//           continueFrom: { fill(model) → values by id (its network; its training settings are filled
//           by option name; a shipped model's `manifest` once read), mismatch(model, settings) → why it
//           cannot go on from `model`, or "", shipped (also from the shipped model, not only a file),
//           accepts(info) → whether the trainer can go on from it at all (default: yes) } }
//   saveName(steps, settings)        the saved file's name
//   stats: { episodes: [id, label], validation: [[id, label]], setup: [[id, label]],
//            render({ report, validation, setup }) → texts by id }
//   charts: { help (HTML), list: [{ id, wide, points, make(canvas) }], evaluation: [{ id, make(canvas) }] }
//   training: { report(card, report), started(progress, text) → the model line while it trains,
//               validated(card, progress) → what is kept of it, validationText(kept) → words after
//               "Training on …" (or status({ report, validation })), validating(progress) → words while
//               it runs, stoppedText, pausedText (after "Stopped after N steps." and "Paused at N steps") }
//   modelText(info)  a model in words
//   modelUrl         (optional) a URL field and Load URL beside Load… (its placeholder: an example URL)
//   loaded(card, model)  (optional) told when a model was loaded: { source ("file" | "shipped"), info, file (a File, when
//                    read from the disk) }; the card itself puts a file read while a run is paused into the paused
//                    network, and otherwise ticks "Start from its weights" where the form has it
//   play: { heading, help, html (after the play status), fields (learn-form.js; beside the model choice: how it plays),
//           lock(card, on) (default: api.board.locked),
//           render(card) (the puzzle's play markup after the card's state: the chosen model, the board),
//           buttons: [{ id, label (text, or by model choice), title, toggle, available(api), run(card) }] }
//   evaluation: { heading, label, fields, help, columns, cancellable, read(card), run(card, chosen, values, ctx)
//                 (ctx: evaluation-table.js's, and evaluateModel(request, onProgress?): the chosen model's
//                 evaluation of `request` in the worker, learn-client.js's evaluate()),
//                 html (the puzzle's own markup after the results and charts: a breakdown of the last one),
//                 manifest(card, manifest, model) → a shipped model's evaluation from its manifest, shown
//                 as run() returns it (a row, its status) without running anything, or null (none in it) }
// The training half (form, run, statistics, training charts) is learn-training.js's.

import { chooseFilesWith, elementsByPrefix, hideAlerts, megabytes, renderCard, showAlert, whole, writeModelLine } from "./card-helpers.js";
import { NO_ANSWER } from "./download.js";
import { BarChart, LineChart } from "./chart.js";
import { EvaluationTable, evaluationResultsHtml } from "./evaluation-table.js";
import { fieldHtml, fieldsHtml, readFields } from "./learn-form.js";
import { LearnTraining } from "./learn-training.js";
import { ModelSources, modelChoiceHtml } from "./model-sources.js";
import { shippedModels, trainedModelKey } from "./learn-client.js";
import { byId, wwwUrl } from "./puzzles.js";
import { backendFieldHtml, backendHelpHtml, cardLearnClient, learnRunHtml } from "./run-controls.js";
import { numberFormat } from "./number-format.js";

// The cards format their numbers with the pages' one formatter.
export { numberFormat };

/** "1 game", "5 games". */
export function plural(count, noun) {
  return `${numberFormat.format(count)} ${noun}${count === 1 ? "" : "s"}`;
}

// ---- charts ---------------------------------------------------------------------------------------

/** A series of a chart: [name, colour (a --chart-N property), dots]. */
const seriesOf = (series) => series.map(([name, color, dots = false]) => ({ name, color, dots }));

/** A line chart of the card over steps (chart.js LineChart's `options`); `series`: [name, colour, dots] each. */
export function lineChart(id, title, series, options = {}, { wide = false } = {}) {
  return { id, wide, make: (canvas) => new LineChart(canvas, { title, xLabel: "steps", series: seriesOf(series), ...options }) };
}

/** A bar chart of the card (chart.js BarChart's `options`); `series`: [name, colour] each. */
export function barChart(id, title, series, options = {}) {
  return { id, make: (canvas) => new BarChart(canvas, { title, series: seriesOf(series), ...options }) };
}

/** A y axis of percents, 0 to 100. */
export const PERCENT_AXIS = { yMin: 0, yMax: 100, formatY: (y) => `${y.toFixed(1)}%` };

/** The TD loss, on a log scale (the card adds each chunk's). */
export const lossChart = (color = "--chart-1") => lineChart("loss", "TD loss", [["TD loss", color]], { yScale: "log", formatY: (y) => y.toPrecision(3) });

/** ε, from 0 to 1 (the card adds each chunk's). */
export const epsilonChart = () => lineChart("epsilon", "ε (exploration)", [["ε", "--chart-3"]], { yMin: 0, yMax: 1, formatY: (y) => y.toFixed(3) });

/** Steps per second (the card adds each chunk's), on a log scale: warm-up (no gradient steps) runs a hundred times faster than training. */
export const speedChart = (layout) =>
  lineChart("speed", "Steps per second", [["steps/s", "--chart-4"]], { yScale: "log", formatY: whole }, layout);

// ---- the template -----------------------------------------------------------------------------------

/** The card's HTML after its heading; `title` is the puzzle's name, `shippedUrl` its shipped model. */
function cardHtml(config, { title, shippedUrl }) {
  const { prefix: p, form, stats, charts, play, evaluation, cli } = config;
  const shippedFrom = shippedUrl ? `www/models/${fileName(shippedUrl)}` : "the chosen one";
  const runStats = [
    ["steps", "Steps"],
    stats.episodes ?? ["episodes", "Episodes"],
    ["loss", "TD loss"],
    ["epsilon", 'Explore <span class="symbol">ε</span>'],
    ["speed", "Steps/s"],
    ...(stats.validation ?? []),
    ["backend", "Backend"],
    ["params", "Parameters"],
    ...(stats.setup ?? []),
  ];
  const presets = (form.presets ?? []).map(({ id, label, title: tip }) => `<button id="${p}-${id}" type="button" title="${tip}">${label}</button>`).join("\n    ");
  const canvas = ({ id, wide }) => `<canvas id="${p}-chart-${id}" class="chart${wide ? " t2048-wide" : ""}"></canvas>`;
  const playButtons = play.buttons.map(({ id, title: tip }, index) => `<button id="${p}-${id}"${index === 0 ? ' class="primary"' : ""} type="button"${tip ? ` title="${tip}"` : ""}></button>`);
  return `
<p class="help learn-intro ${p}-intro">${config.intro}</p>
<form class="learn-form ${p}-form" novalidate>
  ${form.head ?? ""}
  <div class="field-grid learn-fields ${p}-fields">
    ${fieldsHtml(p, form.fields)}
    ${backendFieldHtml(p)}
  </div>
  ${form.note ? `<p id="${p}-params" class="help" aria-live="polite"></p>` : ""}
  ${backendHelpHtml(p)}
  <details class="hyper">
    <summary>More settings <span class="optional">(${form.more.label})</span></summary>
    <div class="field-grid hyper-grid">
      ${fieldsHtml(p, form.more.fields)}
    </div>
    ${(form.more.checks ?? []).map((check) => fieldHtml(p, check)).join("\n")}
  </details>
  ${form.continueFrom ? `<label class="check learn-continue" hidden><input id="${p}-continue" type="checkbox" /> <span id="${p}-continue-label">Start from its weights</span></label>` : ""}
  ${learnRunHtml(p, { saveTitle: `Download the network (.dqn; ${cli.eval} reads it)`, stats: runStats, buttons: presets })}
<p class="help">${charts.help}</p>
<div class="chart-grid t2048-charts">
  ${charts.list.map(canvas).join("\n  ")}
</div>

<h3 class="subheading">${play.heading}</h3>
${modelChoiceHtml(p, fieldsHtml(p, play.fields ?? []))}
<div class="buttons">
  ${playButtons.join("\n  ")}
  <button id="${p}-load" type="button" title="Load a ${title} DQN model file (.dqn)">Load…</button>
  <button id="${p}-load-shipped" type="button" title="Fetch the model trained by ${cli.train} (${shippedFrom})">Load the shipped model</button>
  <input id="${p}-file" type="file" accept=".dqn,application/octet-stream" aria-label="${title} DQN model file" hidden />
</div>
${config.modelUrl ? modelUrlHtml(p, config.modelUrl) : ""}
<p id="${p}-play-status" class="status" role="status" aria-live="polite"></p>
${play.html ?? ""}
<p id="${p}-play-error" class="error" role="alert" hidden></p>
${play.help ? `<p class="help">${play.help}</p>` : ""}

<h3 class="subheading">${evaluation.heading}</h3>
<div class="field-grid learn-eval-fields ${p}-eval-fields">
  ${fieldsHtml(p, evaluation.fields)}
</div>
<div class="buttons">
  <button id="${p}-evaluate" type="button">${evaluation.label ?? "Evaluate"}</button>
  <button id="${p}-eval-cancel" type="button" disabled${evaluation.cancellable ? "" : " hidden"}>Cancel</button>
</div>
<p class="help">${evaluation.help}</p>
${evaluationResultsHtml(p, evaluation.columns)}
${evaluationChartsHtml((charts.evaluation ?? []).map(canvas))}
${evaluation.html ?? ""}
`;
}

/** The evaluation's charts: one as it is, several side by side. */
function evaluationChartsHtml(canvases) {
  return canvases.length > 1 ? `<div class="chart-grid learn-eval-charts">\n  ${canvases.join("\n  ")}\n</div>` : canvases.join("\n");
}

/**
 * What a Load URL that failed says: a download the host refused or never answered, in words (the
 * browser's own "Failed to fetch" says neither which nor why); a file that came but is not a
 * model of this puzzle, as the worker said it.
 */
export function urlLoadError(wanted, message) {
  const status = /answered HTTP (\d+)/.exec(message);
  if (status) return `“${wanted}” could not be downloaded: the host answered HTTP ${status[1]}${status[1] === "404" ? " (no such file)" : ""}.`;
  if (message.includes(NO_ANSWER) || /Failed to fetch|NetworkError|Load failed/i.test(message)) return `“${wanted}” ${NO_ANSWER}.`;
  return message;
}

/** A model's URL field (`PREFIX-url`, `placeholder` an example) and its Load URL button (`PREFIX-load-url`). */
function modelUrlHtml(p, placeholder) {
  return `<div class="load-row pair learn-url">
  <label class="field"><span class="field-label">or a model's URL</span><input id="${p}-url" type="text" placeholder="${placeholder}" spellcheck="false" autocomplete="off" /></label>
  <button id="${p}-load-url" type="button">Load URL</button>
</div>`;
}

/** "2048-dqn.dqn": the last part of a URL's path. */
function fileName(url) {
  return new URL(url).pathname.split("/").at(-1);
}

/** A shipped model by its URL alone (model-sources.js's entry): its manifest beside it (NAME.dqn.json). */
function shippedEntry(url) {
  const file = fileName(url);
  return { url, file, title: file, manifestUrl: `${url}.json` };
}

// ---- the card ---------------------------------------------------------------------------------------

export class LearnCard {
  #root;
  #api;
  #config;
  #elements;
  /** The training half: form, run, statistics and training charts (learn-training.js). */
  #training;
  /** The evaluation's charts by id. */
  #evaluationCharts;
  /** The evaluations: progress, status, error and results table (evaluation-table.js). */
  #evaluations;
  /** The models: trained here, a file, the shipped one (model-sources.js). */
  #sources;
  /** The learning client (started by the first button that needs it, its download in the card's progress box). */
  #client;
  /** The model playing the board ({ timer, done }) or null; whether the worker is being asked about a model. */
  #playing = null;
  #asking = false;
  /** The network trained here as a model (its info once the run stopped or paused), or null. */
  #trainedInfo = null;

  constructor(container, config, api = {}) {
    const { prefix, puzzle } = config;
    const { title, learner } = byId(puzzle);
    if (!container) throw new Error(`The ${title} Learn card needs the element to render into.`);
    this.#root = container;
    this.#config = config;
    this.#api = api ?? {};
    // The shipped models: the registry's file (or the page's), or the registry's index of several.
    const shippedUrl = learner.shippedIndex && !this.#api.shippedUrl ? null : String(this.#api.shippedUrl ?? wwwUrl(learner.shipped[0]));
    const body = renderCard(container, { cardClass: "learn-card", bodyClass: `t2048-body learn-body ${prefix}-body`, html: cardHtml(config, { title, shippedUrl }) });
    container.classList.add(`${prefix}-card`);
    const elements = { form: body.querySelector("form"), continueField: body.querySelector(".learn-continue"), ...elementsByPrefix(body, prefix) };
    this.#elements = elements;
    const download = { box: elements.progress, text: elements.progressText, bar: elements.progressBar };
    this.#evaluationCharts = Object.fromEntries((config.charts.evaluation ?? []).map(({ id, make }) => [id, make(body.querySelector(`#${prefix}-chart-${id}`))]));

    const render = () => this.#render();
    this.#client = cardLearnClient(download, (message) => this.#training.run.showError(message));
    this.#training = new LearnTraining(container, {
      config,
      elements,
      client: () => this.#client(),
      render,
      owner: this,
      hooks: {
        trained: (trained) => {
          this.#sources.trained = trained && { ...trained, info: this.#trainedInfo };
          this.#renderModels();
        },
        started: (text) => {
          this.#trainedInfo = null;
          this.#setModelLine("The network trained here", text, "trained");
        },
        model: (info, how) => {
          this.#trainedInfo = info;
          if (how === "stopped") this.#setModelLine("The network trained here", info, "trained");
        },
        continueFrom: () => (elements.continue?.checked ? this.#continuable() : null),
      },
    });
    this.#evaluations = new EvaluationTable(elements, { render });
    const readsManifest = Boolean(config.evaluation.manifest || config.form.continueFrom?.shipped);
    this.#sources = new ModelSources({
      client: () => this.#client(),
      select: elements.model,
      shippedSelect: elements.shipped,
      puzzle,
      keys: { trained: trainedModelKey(puzzle), file: `file-${puzzle}`, shipped: `shipped-${puzzle}`, play: `play-${puzzle}` },
      shippedList: shippedUrl ? [shippedEntry(shippedUrl)] : shippedModels(),
      download,
      missingText: (entry) => `There is no shipped ${title} DQN model on this server (models/${entry.file}): train one here, or load a model file.`,
      onShipped: (loaded, entry) => {
        this.#setModelLine(this.#sources.several ? `The shipped model “${entry.title}”` : "The shipped model", loaded.info, "shipped");
        // What the model is, the model line above says.
        this.setPlayStatus(`Loaded ${entry.file} (${megabytes(loaded.size)}).`);
        this.#renderModels();
        config.loaded?.(this, { source: "shipped", info: loaded.info });
      },
      onManifest: readsManifest ? (entry, manifest, error) => this.#manifestRead(entry, manifest, error) : null,
    });
    this.#sources
      .listed()
      .catch((error) => this.setPlayStatus(`The shipped models could not be listed (${error.message}); load a model file instead.`))
      .finally(render);

    const on = (element, type, listener) => element.addEventListener(type, listener);
    if (elements.continue) {
      on(elements.continue, "change", () => {
        const model = this.#continuable();
        if (elements.continue.checked && model) this.#training.fillFromModel(model);
        render();
      });
    }
    chooseFilesWith(elements.load, elements.file, (file) => this.loadFile(file));
    on(elements.loadShipped, "click", () => this.loadShipped().catch(() => {}));
    if (elements.loadUrl) {
      on(elements.loadUrl, "click", () => this.loadUrl(elements.url.value));
      on(elements.url, "keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        this.loadUrl(elements.url.value);
      });
    }
    for (const button of config.play.buttons) {
      const element = this.#element(button.id);
      element.hidden = button.available ? !button.available(this.#api) : false;
      on(element, "click", () => (button.toggle && this.#playing ? this.stopPlaying() : button.run(this)));
    }
    on(elements.evaluate, "click", () => this.evaluate());
    on(elements.evalCancel, "click", () => this.cancelEvaluation());
    on(elements.shipped, "change", render);
    on(elements.model, "change", render);
    this.boardChanged();
    container.dataset.learnReady = "true";
  }

  // ---- for the puzzles' hooks, the page and tests -----------------------------------------------------

  /** The card's elements by id (after PREFIX-, in camelCase), with `form` and `continueField`. */
  get elements() {
    return this.#elements;
  }

  /** The card (section.card). */
  get root() {
    return this.#root;
  }

  /** What the page gave the card (its board, its speed, …). */
  get api() {
    return this.#api;
  }

  /** The charts by id (the training's and the evaluation's). */
  get charts() {
    return { ...this.#training.charts, ...this.#evaluationCharts };
  }

  /** The learning client (the worker starts on first use, its bundle's download shown in the card). */
  client() {
    return this.#client();
  }

  /** "idle" | "starting" | "running" | "pausing" | "paused" | "stopping" | "stopped". */
  get state() {
    return this.#training.run.state;
  }

  /** The training half (learn-training.js): its run (state, status line), fill(), fillFromModel(). */
  get training() {
    return this.#training;
  }

  /** The evaluation reports so far, oldest first. */
  get evaluations() {
    return this.#evaluations.reports;
  }

  /** The evaluations' progress box and lines (evaluation-table.js), for a hook's words while it runs. */
  get evaluationTable() {
    return this.#evaluations;
  }

  /** The page's board or its settings changed: the form's head says what Train would train on. */
  boardChanged() {
    this.#config.form.changed?.(this);
    this.#render();
  }

  /** Trains with the form's settings; resolves when the run stops. */
  start() {
    return this.#training.start();
  }

  // ---- models -----------------------------------------------------------------------------------------

  /** Reads a model file (to play, evaluate, and train on from); a damaged or foreign file is refused and nothing changes. */
  async loadFile(file) {
    this.clearPlayError();
    try {
      const loaded = await this.#sources.loadFile(file);
      this.#fileLoaded(`“${file.name}”`, loaded, file);
    } catch (error) {
      this.showPlayError(error.message);
    }
    this.#renderModels();
  }

  /** Fetches a model file from a URL (relative to the page; the description's modelUrl field) as the loaded file. */
  async loadUrl(text) {
    this.clearPlayError();
    const wanted = String(text ?? "").trim();
    let url = null;
    try {
      url = wanted ? new URL(wanted, this.#root.ownerDocument.baseURI).href : null;
    } catch {
      return this.showPlayError(`“${wanted}” is not a URL.`);
    }
    if (!url) return this.showPlayError(`Enter the URL of a model file (.dqn), such as ${this.#config.modelUrl}.`);
    try {
      this.#fileLoaded(wanted, await this.#sources.loadUrl(url, wanted), null);
    } catch (error) {
      this.showPlayError(urlLoadError(wanted, error.message));
    }
    this.#renderModels();
  }

  /**
   * A model file (`file` when read from the disk) or a URL's was loaded as `name`: the model line, the
   * play status, the description's loaded(). A file read while a run is paused also goes into the
   * paused network (Resume goes on from its weights); otherwise the next Start goes on from it where
   * the trainer can (form.continueFrom).
   */
  #fileLoaded(name, loaded, file) {
    this.#setModelLine(`Loaded ${name}`, loaded.info, "file");
    this.setPlayStatus(`Loaded ${name} (${megabytes(loaded.size)}).`);
    this.#renderModels();
    this.#config.loaded?.(this, { source: "file", info: loaded.info, file });
    if (this.state === "paused" && file) return this.#loadIntoPaused(file);
    const box = this.#elements.continue;
    if (box && !box.disabled && !box.checked) {
      box.checked = true;
      box.dispatchEvent(new Event("change"));
    }
  }

  /** Loads a model file's weights into the paused run's network: Resume goes on from them. */
  async #loadIntoPaused(file) {
    const run = this.#training.run;
    try {
      await this.#client().loadWeights(new Uint8Array(await file.arrayBuffer()));
      run.setStatus(`Loaded the weights of “${file.name}” into the paused network: Resume goes on from them.`);
    } catch (error) {
      run.showError(error.message);
    }
  }

  /** Fetches the shipped model into the worker once and chooses it; resolves to its info (a failure is said and rejects). */
  async loadShipped() {
    this.clearPlayError();
    try {
      const { info } = await this.#sources.fetchShipped();
      this.#elements.model.value = "shipped";
      this.#renderModels();
      return info;
    } catch (error) {
      this.showPlayError(error.message);
      throw error;
    }
  }

  /**
   * The chosen model's key in the worker, fetching or snapshotting it first: { key, name, info,
   * source, steps } (model-sources.js). `forPlay`: the run's network as it is now (training may go on).
   */
  chosen({ forPlay = false } = {}) {
    return this.#sources.chosen({ forPlay });
  }

  /** The chosen model's info where it is known without asking the worker (the run's once it stopped or paused), else null. */
  get chosenInfo() {
    return this.#sources.chosenInfo;
  }

  /**
   * The loaded model the next run can go on from ({ key, name, info, source, manifest }), or null:
   * the file, or (form.continueFrom.shipped) the fetched shipped model, the chosen one where both are.
   */
  #continuable() {
    const continueFrom = this.#config.form.continueFrom;
    if (!continueFrom) return null;
    const sources = this.#sources;
    const file = sources.file ? { key: sources.keys.file, source: "file", ...sources.file } : null;
    const shipped = continueFrom.shipped ? sources.fetchedShipped : null;
    return (this.#elements.model.value === "shipped" ? shipped ?? file : file ?? shipped) ?? null;
  }

  /**
   * A fetched shipped model's manifest (or why it could not be read): the form takes it where the
   * next run goes on from that model, and the description's evaluation.manifest shows what it says.
   */
  #manifestRead(entry, manifest, error) {
    if (this.#sources.shippedEntry !== entry) return;
    const chosen = this.#sources.fetchedShipped;
    if (chosen && this.#elements.continue?.checked && this.#continuable()?.key === chosen.key) this.#training.fillFromModel(chosen);
    const show = this.#config.evaluation.manifest;
    if (!show) return;
    const unread = (reason) => this.#evaluations.setStatus(`The model's manifest could not be read (${reason}); Evaluate measures the model here.`);
    if (error) return unread(error.message);
    try {
      const shown = show(this, manifest, chosen);
      if (shown) this.#evaluations.show(shown);
    } catch (failure) {
      unread(failure.message);
    }
  }

  #setModelLine(title, what, source) {
    writeModelLine(this.#elements.modelLine, title, what, source, this.#config.modelText);
  }

  #renderModels() {
    this.#sources.relabel();
    // The network trained here is the model once there is one, unless the shipped one was fetched.
    if (this.#sources.trained && this.#elements.model.value === "shipped" && !this.#sources.shipped) this.#elements.model.value = "trained";
    this.#render();
  }

  // ---- playing the page's board -------------------------------------------------------------------------

  /** Whether a model is playing the page's board. */
  get playing() {
    return Boolean(this.#playing);
  }

  setPlayStatus(text) {
    this.#elements.playStatus.textContent = text;
  }

  showPlayError(message) {
    showAlert(this.#elements.playError, message);
  }

  clearPlayError() {
    hideAlerts(this.#elements.playError);
  }

  /**
   * Asks the worker something for the play buttons (`question()`, a promise), with the buttons
   * disabled meanwhile; resolves to the answer, or to undefined after showing an error in the play
   * error line (or when a question is already out).
   */
  async ask(question) {
    if (this.#asking) return undefined;
    this.clearPlayError();
    this.#asking = true;
    this.#render();
    try {
      return await question();
    } catch (error) {
      this.showPlayError(error.message);
      return undefined;
    } finally {
      this.#asking = false;
      this.#render();
    }
  }

  /**
   * ask() about the chosen model (the network trained here as it is now): `question(chosen, learn)`
   * (optional) asks the worker; resolves to { chosen, answer }, or undefined after an error.
   */
  askModel(question) {
    return this.ask(async () => {
      const chosen = await this.chosen({ forPlay: true });
      return { chosen, answer: await question?.(chosen, this.#client()) };
    });
  }

  /** The model `chosen` (askModel's) plays `request`, a position of the card's puzzle (learn-client.js's play()). */
  playModel(chosen, request) {
    return this.#client().play(chosen.key, this.#config.puzzle, request);
  }

  /**
   * Plays on the page's board: `step()` makes one move (it may be async) and resolves to whether
   * there is another; the next comes api.speedMs() (or `delay` ms) later. The page's board is
   * locked meanwhile (#lock). Stop (stopPlaying()) ends it. Resolves
   * to true when step() said it was done, false when it was stopped (or a move threw: the error
   * line says why).
   */
  playLoop(step, { delay = 0 } = {}) {
    if (this.#playing) return Promise.resolve(false);
    const playing = { timer: 0, done: null };
    this.#playing = playing;
    this.#lock(true);
    this.#render();
    return new Promise((resolve) => {
      playing.done = resolve;
      const tick = async () => {
        if (this.#playing !== playing) return;
        let more;
        try {
          more = await step();
        } catch (error) {
          this.showPlayError(error.message);
          return this.stopPlaying(playing);
        }
        if (this.#playing !== playing) return;
        if (!more) return this.#endPlaying(playing, true);
        playing.timer = setTimeout(tick, this.#api.speedMs?.() ?? delay);
      };
      playing.timer = setTimeout(tick, 0);
    });
  }

  /** Stops the model's play (the one given, or whichever runs); its moves so far stay on the board. */
  stopPlaying(which = this.#playing) {
    if (!which || this.#playing !== which) return;
    this.#endPlaying(which, false);
  }

  #endPlaying(playing, finished) {
    clearTimeout(playing.timer);
    this.#playing = null;
    this.#lock(false);
    playing.done(finished);
    this.#render();
  }

  /** Locks the page's board while a model plays (the description's play.lock, else api.board.locked). */
  #lock(on) {
    const { lock } = this.#config.play;
    if (lock) lock(this, on);
    else if (this.#api.board) this.#api.board.locked = on;
  }

  /**
   * Puts `moves` (the worker's answer) on the page's board one at a time through `apply(move)`
   * (it may be async) while the board still shows `game`; resolves as playLoop() does.
   */
  playMoves(moves, apply, { game = this.#api.board?.game, delay = 0 } = {}) {
    let index = 0;
    const step = async () => {
      if (this.#api.board?.game !== game) return this.stopPlaying();
      if (index >= moves.length) return false;
      await apply(moves[index++]);
      return true;
    };
    return this.playLoop(step, { delay });
  }

  // ---- evaluating -------------------------------------------------------------------------------------

  /** The chosen model plays the evaluation's seeded games; a row shows what the puzzle's hook says. */
  evaluate() {
    const { prefix, evaluation } = this.#config;
    return this.#evaluations.run({
      read: () => ({ ...readFields(this.#root, prefix, evaluation.fields), ...evaluation.read?.(this) }),
      play: async (values, context) => {
        const chosen = await this.#sources.chosen();
        // The chosen model's evaluation of `request` in the worker, with progress and Cancel.
        const evaluateModel = (request, onProgress = ({ done, total }) => context.progress(done, total)) =>
          context.request(this.#client().evaluate(chosen.key, this.#config.puzzle, request, { onProgress }));
        return evaluation.run(this, chosen, values, { ...context, evaluateModel });
      },
      cancelledText: (error) => (/cancelled/.test(error.message) ? "Evaluation cancelled." : null),
    });
  }

  /** Cancels the running evaluation where the worker can (it stops after its current batch of games). */
  cancelEvaluation() {
    if (!this.#config.evaluation.cancellable) return Promise.resolve();
    return this.#evaluations.cancel((id) => this.#client().cancelEvaluation(id));
  }

  // ---- rendering ----------------------------------------------------------------------------------------

  /** An element by id after PREFIX-. */
  #element(id) {
    return this.#root.querySelector(`#${this.#config.prefix}-${id}`);
  }

  /** Enables the buttons and fields that make sense now. */
  #render() {
    const config = this.#config;
    const elements = this.#elements;
    if (!this.#training || !this.#sources || !this.#evaluations) return;
    this.#training.render();
    const from = this.#continuable();
    if (elements.continueField) {
      // A model the trainer cannot go on from (continueFrom.accepts) is shown, its box disabled.
      const accepted = Boolean(from) && (config.form.continueFrom.accepts?.(from.info) ?? true);
      elements.continueField.hidden = !from;
      elements.continue.disabled = !accepted || this.#training.run.active;
      if (!accepted) elements.continue.checked = false;
      if (from) elements.continueLabel.textContent = `Start from its weights (${from.source === "file" ? `“${from.name}”` : "the shipped model"})`;
    }
    const haveModel = this.#sources.haveChosen;
    const playing = Boolean(this.#playing);
    const asking = this.#asking;
    const evaluating = this.#evaluations.running;
    const choice = elements.model.value;
    for (const button of config.play.buttons) {
      const element = this.#element(button.id);
      const label = typeof button.label === "string" ? button.label : button.label[choice];
      element.disabled = button.toggle ? (!haveModel || asking) && !playing : !haveModel || playing || asking;
      element.textContent = button.toggle && playing ? "Stop" : label;
    }
    elements.model.disabled = playing || asking || evaluating;
    elements.shipped.disabled = playing || asking || evaluating;
    elements.loadShipped.disabled = !this.#sources.shippedEntry;
    elements.evaluate.disabled = evaluating || !haveModel;
    elements.evalCancel.disabled = !this.#evaluations.cancellable;
    for (const { id } of config.evaluation.fields) this.#element(id).disabled = evaluating;
    this.#root.dataset.playing = String(playing);
    config.play.render?.(this);
  }
}
