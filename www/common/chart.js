// Small dependency-free canvas charts for the deep Q-learning panel (train-panel.js):
//   LineChart  several series over a shared numeric x axis (linear or logarithmic y), with gaps
//              where a value is null or NaN, optional dots, and bounded memory (old points are
//              merged pairwise once a series grows past `maxPoints`)
//   BarChart   grouped bars over categories (the evaluation's solved % by optimal distance)
// Both draw a title, a legend and a few tick labels on a <canvas>, at the device's pixel ratio,
// follow the canvas's CSS size (ResizeObserver) and the colour scheme, and redraw at most once
// per animation frame however often data arrives. Colours come from CSS custom properties read
// on the canvas (common/base.css sets them for light and dark): --chart-text, --chart-muted,
// --chart-grid, and each series' own (a series colour "--name" is read the same way; any other
// string is used as a CSS colour). The canvas gets role="img" and an aria-label that says what
// the chart shows now.

const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
/** Space (CSS pixels) kept clear along the canvas's edges. */
const INSET = 8;
/** Fallback colours, for a page without the custom properties. */
const FALLBACK = { text: "#1c1f2e", muted: "#5b6175", grid: "#dfe2ee" };

/** A short label for a tick value: 0.0001 → "1e-4", 2500 → "2.5k", 0.25 → "0.25". */
export function formatTick(value) {
  if (value === 0) return "0";
  const size = Math.abs(value);
  if (size >= 1e6) return `${trimNumber(value / 1e6)}M`;
  if (size >= 1e3) return `${trimNumber(value / 1e3)}k`;
  if (size < 1e-3) {
    const exponent = Math.floor(Math.log10(size));
    const mantissa = value / 10 ** exponent;
    return `${Math.abs(mantissa - 1) < 1e-9 ? "" : `${trimNumber(mantissa)}×`}1e${exponent}`;
  }
  return trimNumber(value);
}

function trimNumber(value) {
  return String(Number(value.toPrecision(3)));
}

/**
 * About `count` round tick values (1, 2, 2.5 or 5 × a power of ten apart) covering min..max, at
 * least `minStep` apart (1 for whole numbers).
 */
export function niceTicks(min, max, count = 4, minStep = 0) {
  if (!(max > min)) return [min];
  const raw = Math.max(minStep, (max - min) / Math.max(1, count));
  const power = 10 ** Math.floor(Math.log10(raw));
  const factors = minStep >= 1 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  const step = factors.map((factor) => factor * power).find((candidate) => candidate >= raw) ?? 10 * power;
  const ticks = [];
  for (let tick = Math.ceil(min / step - 1e-9) * step; tick <= max + step * 1e-9; tick += step) {
    ticks.push(Math.abs(tick) < step * 1e-9 ? 0 : Number(tick.toPrecision(12)));
  }
  return ticks;
}

/** Whether `value` is a number that can be drawn. */
function drawable(value) {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * What both chart kinds share: the canvas, its size and pixel ratio, the colours, the once-a-frame
 * redraw, and the title and legend along the top. Subclasses implement #plot through `plot(context,
 * box)` and `describe()`.
 */
class CanvasChart {
  canvas;
  title;
  series;
  #frame = 0;
  #resizeObserver = null;
  #colorScheme = null;

  /**
   * `canvas`: the element to draw on (sized by CSS). Options: `title` (drawn at the top and used
   * for the accessible label), `series`: [{ name, color }].
   */
  constructor(canvas, { title = "", series = [] } = {}) {
    this.canvas = canvas;
    this.title = title;
    this.series = series.map((entry) => ({ name: entry.name, color: entry.color ?? "--chart-1", dots: Boolean(entry.dots) }));
    canvas.setAttribute("role", "img");
    this.#resizeObserver = new ResizeObserver(() => this.invalidate());
    this.#resizeObserver.observe(canvas);
    this.#colorScheme = matchMedia("(prefers-color-scheme: dark)");
    this.#colorScheme.addEventListener("change", () => this.invalidate());
    this.invalidate();
  }

  /** Asks for a redraw at the next animation frame (several calls in one frame draw once). */
  invalidate() {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.draw();
    });
  }

  /** Draws now (normally called through invalidate()). */
  draw() {
    const canvas = this.canvas;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    this.canvas.setAttribute("aria-label", this.describe());
    if (width === 0 || height === 0) return; // hidden: drawn again when it is resized
    const ratio = window.devicePixelRatio || 1;
    const pixelWidth = Math.round(width * ratio);
    const pixelHeight = Math.round(height * ratio);
    if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
      canvas.width = pixelWidth;
      canvas.height = pixelHeight;
    }
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    context.translate(INSET, INSET);
    const inner = { width: width - 2 * INSET, height: height - 2 * INSET };
    const colors = this.colors();
    const top = this.#drawHeader(context, inner.width, colors);
    this.plot(context, { left: 0, top, width: inner.width, height: inner.height - top }, colors);
  }

  /** Stops following the canvas's size. */
  dispose() {
    this.#resizeObserver?.disconnect();
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  /** { text, muted, grid } and a colour per series, from the canvas's CSS. */
  colors() {
    const style = getComputedStyle(this.canvas);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return {
      text: read("--chart-text", FALLBACK.text),
      muted: read("--chart-muted", FALLBACK.muted),
      grid: read("--chart-grid", FALLBACK.grid),
      series: this.series.map((entry) => (entry.color.startsWith("--") ? read(entry.color, "#4f46e5") : entry.color)),
    };
  }

  /** Title at the top left, legend to its right (or on a second line when it does not fit); returns the height used. */
  #drawHeader(context, width, colors) {
    context.textBaseline = "middle";
    context.font = `600 12px ${FONT_FAMILY}`;
    context.fillStyle = colors.text;
    context.fillText(this.title, 0, 7);
    const titleWidth = context.measureText(this.title).width;
    if (this.series.length < 2) return 20;
    context.font = `11px ${FONT_FAMILY}`;
    const entries = this.series.map((entry) => ({ ...entry, width: 16 + context.measureText(entry.name).width }));
    const legendWidth = entries.reduce((sum, entry) => sum + entry.width + 10, -10);
    const oneLine = titleWidth + 16 + legendWidth <= width;
    let x = oneLine ? width - legendWidth : 0;
    const y = oneLine ? 7 : 23;
    entries.forEach((entry, index) => {
      context.fillStyle = colors.series[index];
      context.fillRect(x, y - 4, 10, 8);
      context.fillStyle = colors.muted;
      context.fillText(entry.name, x + 14, y);
      x += entry.width + 10;
    });
    return oneLine ? 20 : 36;
  }

  /** Draws the y axis's grid lines and labels over `box`; returns the plot area { left, right, top, bottom }. */
  drawYAxis(context, box, ticks, toY, colors, { xLabelSpace = 18 } = {}) {
    context.font = `11px ${FONT_FAMILY}`;
    const labels = ticks.map((tick) => formatTick(tick));
    const labelWidth = Math.max(0, ...labels.map((label) => context.measureText(label).width));
    const area = { left: box.left + labelWidth + 8, right: box.left + box.width - 4, top: box.top + 4, bottom: box.top + box.height - xLabelSpace };
    context.strokeStyle = colors.grid;
    context.lineWidth = 1;
    context.fillStyle = colors.muted;
    context.textAlign = "right";
    context.textBaseline = "middle";
    ticks.forEach((tick, index) => {
      const y = Math.round(toY(tick, area)) + 0.5;
      context.beginPath();
      context.moveTo(area.left, y);
      context.lineTo(area.right, y);
      context.stroke();
      context.fillText(labels[index], area.left - 5, y);
    });
    context.textAlign = "left";
    return area;
  }

  /** A message in the middle of an empty plot, wrapped at spaces to the plot's width. */
  drawEmpty(context, box, colors, text) {
    context.font = `12px ${FONT_FAMILY}`;
    context.fillStyle = colors.muted;
    context.textAlign = "center";
    context.textBaseline = "middle";
    const lines = [];
    for (const word of text.split(" ")) {
      const joined = lines.length ? `${lines.at(-1)} ${word}` : word;
      if (lines.length && context.measureText(joined).width <= box.width - 8) lines[lines.length - 1] = joined;
      else lines.push(word);
    }
    const lineHeight = 16;
    lines.forEach((line, i) => context.fillText(line, box.left + box.width / 2, box.top + box.height / 2 + (i - (lines.length - 1) / 2) * lineHeight));
    context.textAlign = "left";
  }

  /** Subclasses: draw the data into `box` ({ left, top, width, height } in CSS pixels). */
  plot() {}

  /** Subclasses: the accessible description of what is shown. */
  describe() {
    return this.title;
  }
}

/**
 * A line chart: one array of points per series over a numeric x axis.
 *
 *   const chart = new LineChart(canvas, { title: "TD loss", yScale: "log", series: [{ name: "loss", color: "--chart-1" }] });
 *   chart.add(0, stepsDone, loss);    // series 0; a null or NaN y leaves a gap in the line
 *   chart.setPoints(1, [{ x, y }]);   // replaces series 1
 */
export class LineChart extends CanvasChart {
  /** Per series: { xs: number[], ys: (number|null)[] }. */
  #data;
  #options;

  /**
   * Options besides CanvasChart's: `yScale` "linear" (default) or "log" (values ≤ 0 are not
   * drawn); `yMin`, `yMax`: fixed bounds (otherwise the data's, with 0 included on a linear scale
   * when `includeZero`, the default); `xLabel`: the x axis's unit, after its last tick;
   * `formatY(value)`: the value shown in the accessible label; `maxPoints` per series (default 4000);
   * `emptyText`: shown before there is data; `integerX`, `integerY`: ticks only at whole numbers.
   * A series may set `dots: true` to mark each point.
   */
  constructor(canvas, options = {}) {
    super(canvas, options);
    this.#options = {
      yScale: "linear",
      includeZero: true,
      maxPoints: 4000,
      xLabel: "",
      emptyText: "No data yet",
      formatY: (value) => formatTick(value),
      ...options,
    };
    this.#data = this.series.map(() => ({ xs: [], ys: [] }));
    canvas.dataset.yScale = this.#options.yScale;
  }

  /** Appends the point (x, y) to series `index`; y null or NaN breaks the line there. */
  add(index, x, y) {
    const data = this.#data[index];
    data.xs.push(x);
    data.ys.push(drawable(y) ? y : null);
    if (data.xs.length > this.#options.maxPoints) this.#halve(data);
    this.invalidate();
  }

  /** Replaces series `index` with `points` ([{ x, y }]). */
  setPoints(index, points) {
    this.#data[index] = { xs: points.map((point) => point.x), ys: points.map((point) => (drawable(point.y) ? point.y : null)) };
    this.invalidate();
  }

  /** Empties every series. */
  clear() {
    this.#data = this.series.map(() => ({ xs: [], ys: [] }));
    this.invalidate();
  }

  /** What the chart says while it has nothing to draw (the `emptyText` option). */
  set emptyText(text) {
    this.#options.emptyText = text;
    this.invalidate();
  }

  /** Points of series `index` that can be drawn (finite y). */
  pointCount(index) {
    return this.#data[index].ys.filter((y) => y !== null && this.#onScale(y)).length;
  }

  /** The last drawable y of series `index`, or null. */
  lastValue(index) {
    const ys = this.#data[index].ys;
    for (let i = ys.length - 1; i >= 0; i--) if (ys[i] !== null) return ys[i];
    return null;
  }

  /** Merges neighbouring points pairwise: the mean of their drawable values at the later x. */
  #halve(data) {
    const xs = [];
    const ys = [];
    for (let i = 0; i < data.xs.length; i += 2) {
      const pair = data.ys.slice(i, i + 2).filter((y) => y !== null);
      xs.push(data.xs[Math.min(i + 1, data.xs.length - 1)]);
      ys.push(pair.length === 0 ? null : pair.reduce((sum, y) => sum + y, 0) / pair.length);
    }
    data.xs = xs;
    data.ys = ys;
  }

  #onScale(y) {
    return this.#options.yScale !== "log" || y > 0;
  }

  describe() {
    const latest = this.series
      .map((entry, index) => {
        const value = this.lastValue(index);
        return value === null ? null : `${entry.name} ${this.#options.formatY(value)}`;
      })
      .filter(Boolean);
    return latest.length === 0 ? `${this.title}: ${this.#options.emptyText}` : `${this.title}, latest: ${latest.join(", ")}`;
  }

  plot(context, box, colors) {
    const options = this.#options;
    const log = options.yScale === "log";
    let xMin = Infinity;
    let xMax = -Infinity;
    let yMin = Infinity;
    let yMax = -Infinity;
    for (const data of this.#data) {
      data.ys.forEach((y, i) => {
        if (y === null || !this.#onScale(y)) return;
        xMin = Math.min(xMin, data.xs[i]);
        xMax = Math.max(xMax, data.xs[i]);
        yMin = Math.min(yMin, y);
        yMax = Math.max(yMax, y);
      });
    }
    if (xMin === Infinity) {
      this.drawEmpty(context, box, colors, options.emptyText);
      return;
    }
    if (options.yMin !== undefined) yMin = options.yMin;
    if (options.yMax !== undefined) yMax = options.yMax;
    let ticks;
    let toValue; // the y value on the drawn (maybe logarithmic) axis
    if (log) {
      let low = Math.floor(Math.log10(yMin));
      let high = Math.ceil(Math.log10(yMax));
      if (high === low) high += 1;
      const every = Math.ceil((high - low) / 4);
      low = Math.floor(low / every) * every;
      high = Math.ceil(high / every) * every;
      ticks = [];
      for (let power = low; power <= high; power += every) ticks.push(10 ** power);
      yMin = 10 ** low;
      yMax = 10 ** high;
      toValue = (y) => Math.log10(y);
    } else {
      if (options.includeZero && options.yMin === undefined) yMin = Math.min(0, yMin);
      if (yMax === yMin) yMax = yMin + (Math.abs(yMin) || 1);
      ticks = niceTicks(yMin, yMax, 4, options.integerY ? 1 : 0);
      if (options.yMin === undefined) yMin = Math.min(yMin, ticks[0]);
      if (options.yMax === undefined) yMax = Math.max(yMax, ticks.at(-1));
      toValue = (y) => y;
    }
    const low = toValue(yMin);
    const span = toValue(yMax) - low || 1;
    const toY = (y, area) => area.bottom - ((toValue(y) - low) / span) * (area.bottom - area.top);
    const area = this.drawYAxis(context, box, ticks.filter((tick) => tick >= yMin && tick <= yMax), toY, colors);
    if (xMax === xMin) {
      // One point (a first evaluation at 2,000 steps): the axis from 0 to it, so that its ticks are
      // distinct round numbers (2,000 ± 1 labelled every tick "2k").
      if (xMin > 0) xMin = 0;
      else xMax = xMin + 1;
    }
    const toX = (x) => area.left + ((x - xMin) / (xMax - xMin)) * (area.right - area.left);
    this.#drawXTicks(context, area, xMin, xMax, toX, colors);

    context.save();
    context.beginPath();
    context.rect(area.left, area.top - 2, area.right - area.left, area.bottom - area.top + 4);
    context.clip();
    context.lineJoin = "round";
    context.lineWidth = 1.75;
    this.#data.forEach((data, index) => {
      context.strokeStyle = colors.series[index];
      context.fillStyle = colors.series[index];
      context.beginPath();
      let drawing = false;
      const lone = [];
      data.ys.forEach((y, i) => {
        if (y === null || !this.#onScale(y)) {
          drawing = false;
          return;
        }
        const px = toX(data.xs[i]);
        const py = toY(Math.min(yMax, Math.max(yMin, y)), area);
        const next = data.ys[i + 1];
        if (drawing) context.lineTo(px, py);
        else {
          context.moveTo(px, py);
          // A point with no neighbour to join would be invisible: it gets a dot.
          if (next === null || next === undefined) lone.push([px, py]);
        }
        drawing = true;
      });
      context.stroke();
      const dots = this.series[index].dots
        ? data.ys.map((y, i) => (y === null || !this.#onScale(y) ? null : [toX(data.xs[i]), toY(Math.min(yMax, Math.max(yMin, y)), area)])).filter(Boolean)
        : lone;
      for (const [px, py] of dots) {
        context.beginPath();
        context.arc(px, py, 2.5, 0, 2 * Math.PI);
        context.fill();
      }
    });
    context.restore();
  }

  #drawXTicks(context, area, xMin, xMax, toX, colors) {
    context.font = `11px ${FONT_FAMILY}`;
    context.fillStyle = colors.muted;
    context.textBaseline = "top";
    const width = area.right - area.left;
    const count = Math.max(3, Math.min(6, Math.floor(width / 55)));
    const ticks = niceTicks(xMin, xMax, count, this.#options.integerX ? 1 : 0).filter((tick) => tick >= xMin && tick <= xMax);
    // Labels left to right, skipping any that would overlap the one before; the last one (which
    // carries the unit) is always shown, in place of those it would overlap.
    const labels = ticks.map((tick, index) => {
      let text = formatTick(tick);
      if (index === ticks.length - 1 && this.#options.xLabel) text += ` ${this.#options.xLabel}`;
      const width = context.measureText(text).width;
      const left = Math.min(area.right - width, Math.max(area.left - 4, toX(tick) - width / 2));
      return { text, left, right: left + width };
    });
    const shown = [];
    labels.forEach((label, index) => {
      if (index === labels.length - 1) while (shown.length && shown.at(-1).right + 6 > label.left) shown.pop();
      // Two ticks a label cannot tell apart (1,999.5 and 2,000 are both "2k") show it once.
      if (shown.at(-1)?.text === label.text) return;
      if (!shown.length || shown.at(-1).right + 6 <= label.left) shown.push(label);
    });
    for (const label of shown) context.fillText(label.text, label.left, area.bottom + 4);
    context.strokeStyle = colors.muted;
    context.beginPath();
    context.moveTo(area.left, Math.round(area.bottom) + 0.5);
    context.lineTo(area.right, Math.round(area.bottom) + 0.5);
    context.stroke();
  }
}

/**
 * Grouped bars: for each category (an x label), one bar per series.
 *
 *   const chart = new BarChart(canvas, { title: "Solved %", yMax: 100, series: [{ name: "greedy" }, { name: "search" }] });
 *   chart.setData(["1", "2", …], [[100, 100, …], [100, 100, …]]);   // values[series][category]
 */
export class BarChart extends CanvasChart {
  #categories = [];
  #values = [];
  #options;

  /**
   * Options besides CanvasChart's: `yMin` (default 0), `yMax` (default: the data's), `xLabel`
   * (written under the axis), `formatY` (for the accessible label), `emptyText`.
   */
  constructor(canvas, options = {}) {
    super(canvas, options);
    this.#options = { yMin: 0, xLabel: "", emptyText: "No evaluation yet", formatY: (value) => formatTick(value), ...options };
  }

  /** Shows `categories` (labels) with `values[series][category]` (null: no bar). */
  setData(categories, values) {
    this.#categories = categories.map(String);
    this.#values = this.series.map((_, index) => (values[index] ?? []).map((value) => (drawable(value) ? value : null)));
    this.invalidate();
  }

  /** Categories shown. */
  get categoryCount() {
    return this.#categories.length;
  }

  describe() {
    if (this.#categories.length === 0) return `${this.title}: ${this.#options.emptyText}`;
    const parts = this.series.map((entry, index) => {
      const values = this.#values[index].filter((value) => value !== null);
      const mean = values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
      return `${entry.name} mean ${mean === null ? "–" : this.#options.formatY(mean)}`;
    });
    return `${this.title}, ${this.#categories.length} groups from ${this.#categories[0]} to ${this.#categories.at(-1)}: ${parts.join(", ")}`;
  }

  plot(context, box, colors) {
    if (this.#categories.length === 0) {
      this.drawEmpty(context, box, colors, this.#options.emptyText);
      return;
    }
    const all = this.#values.flat().filter((value) => value !== null);
    const yMin = this.#options.yMin;
    const yMax = this.#options.yMax ?? Math.max(yMin + 1, ...all);
    const ticks = niceTicks(yMin, yMax, 4).filter((tick) => tick >= yMin && tick <= yMax);
    const toY = (y, area) => area.bottom - ((Math.min(yMax, Math.max(yMin, y)) - yMin) / (yMax - yMin)) * (area.bottom - area.top);
    const xLabelSpace = this.#options.xLabel ? 30 : 18;
    const area = this.drawYAxis(context, box, ticks, toY, colors, { xLabelSpace });
    const groups = this.#categories.length;
    const groupWidth = (area.right - area.left) / groups;
    const barWidth = Math.max(1, (groupWidth * 0.8) / this.series.length);
    this.#values.forEach((values, seriesIndex) => {
      context.fillStyle = colors.series[seriesIndex];
      values.forEach((value, category) => {
        if (value === null) return;
        const x = area.left + category * groupWidth + groupWidth * 0.1 + seriesIndex * barWidth;
        const y = toY(value, area);
        // A zero still shows as a hairline, so "0%" differs from "not measured".
        context.fillRect(x, Math.min(y, area.bottom - 1), Math.max(1, barWidth - 0.5), Math.max(1, area.bottom - y));
      });
    });
    // Category labels: as many as fit.
    context.font = `11px ${FONT_FAMILY}`;
    context.fillStyle = colors.muted;
    context.textBaseline = "top";
    context.textAlign = "center";
    const widest = Math.max(...this.#categories.map((label) => context.measureText(label).width)) + 6;
    const every = Math.max(1, Math.ceil(widest / groupWidth));
    let lastRight = -Infinity;
    this.#categories.forEach((label, index) => {
      if (index % every !== 0 && index !== groups - 1) return;
      const center = area.left + (index + 0.5) * groupWidth;
      const half = context.measureText(label).width / 2;
      if (center - half < lastRight + 4) return; // the last label, too close to the one before
      context.fillText(label, center, area.bottom + 4);
      lastRight = center + half;
    });
    if (this.#options.xLabel) context.fillText(this.#options.xLabel, (area.left + area.right) / 2, area.bottom + 17);
    context.textAlign = "left";
    context.strokeStyle = colors.muted;
    context.beginPath();
    context.moveTo(area.left, Math.round(area.bottom) + 0.5);
    context.lineTo(area.right, Math.round(area.bottom) + 0.5);
    context.stroke();
  }
}
