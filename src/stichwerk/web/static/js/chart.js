// @ts-check
// A rating history as plain SVG: μ after each rated deal as a line, the band μ ± 2σ behind it.

const SVG = "http://www.w3.org/2000/svg";

/**
 * @typedef {{deals: number, mu: number, sigma: number}} Point
 * @typedef {{label: string, axisDeals: string, axisRating: string, band: string,
 *   pointTitle: (p: Point) => string}} ChartTexts
 */

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string|number>} [attrs]
 * @param {string} [text]
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}, text) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Round steps for an axis from ``low`` to ``high``: about ``count`` of 1, 2 or 5 times a power of ten.
 * @param {number} low
 * @param {number} high
 * @param {number} count
 * @returns {number[]}
 */
export function ticks(low, high, count) {
  const span = Math.max(high - low, 1e-9);
  const raw = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) out.push(Number(v.toFixed(10)));
  return out;
}

/**
 * The chart of ``points`` (at least one), ``width`` × ``height`` user units, scaled to its box.
 * @param {Point[]} points
 * @param {ChartTexts} texts
 * @param {{width?: number, height?: number, format?: (n: number) => string}} [options]
 * @returns {SVGElement}
 */
export function ratingChart(points, texts, options = {}) {
  const width = options.width || 640;
  const height = options.height || 260;
  const format = options.format || ((n) => String(n));
  const pad = { left: 44, right: 12, top: 12, bottom: 34 };
  const lows = points.map((p) => p.mu - 2 * p.sigma);
  const highs = points.map((p) => p.mu + 2 * p.sigma);
  const yLow = Math.floor(Math.min(...lows));
  const yHigh = Math.ceil(Math.max(...highs));
  const xLow = Math.min(...points.map((p) => p.deals));
  const xHigh = Math.max(xLow + 1, ...points.map((p) => p.deals));
  /** @param {number} d */
  const x = (d) => pad.left + ((d - xLow) / (xHigh - xLow)) * (width - pad.left - pad.right);
  /** @param {number} v */
  const y = (v) => pad.top + ((yHigh - v) / Math.max(yHigh - yLow, 1e-9)) * (height - pad.top - pad.bottom);

  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": texts.label, class: "rating-chart",
    preserveAspectRatio: "xMidYMid meet",
  });
  root.append(svg("title", {}, texts.label));
  // Axes with round ticks.
  const axes = svg("g", { class: "axes" });
  for (const v of ticks(yLow, yHigh, 5)) {
    axes.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    axes.append(svg("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end" }, format(v)));
  }
  for (const d of ticks(xLow, xHigh, 6).filter((v) => Number.isInteger(v))) {
    axes.append(svg("text", { x: x(d), y: height - pad.bottom + 16, "text-anchor": "middle" }, String(d)));
  }
  axes.append(svg("text", { x: (pad.left + width - pad.right) / 2, y: height - 4, "text-anchor": "middle", class: "axis-label" }, texts.axisDeals));
  axes.append(svg("text", { x: 12, y: pad.top + 10, class: "axis-label" }, texts.axisRating));
  root.append(axes);
  // The band μ ± 2σ, then the line of μ, then a dot per deal with its numbers as a tooltip.
  const upper = points.map((p) => `${x(p.deals).toFixed(1)},${y(p.mu + 2 * p.sigma).toFixed(1)}`);
  const lower = points.map((p) => `${x(p.deals).toFixed(1)},${y(p.mu - 2 * p.sigma).toFixed(1)}`).reverse();
  const band = svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" });
  band.append(svg("title", {}, texts.band));
  root.append(band);
  root.append(svg("polyline", {
    points: points.map((p) => `${x(p.deals).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" "), class: "mu",
  }));
  const dots = svg("g", { class: "dots" });
  for (const p of points) {
    const dot = svg("circle", { cx: x(p.deals).toFixed(1), cy: y(p.mu).toFixed(1), r: points.length > 60 ? 1.5 : 3 });
    dot.append(svg("title", {}, texts.pointTitle(p)));
    dots.append(dot);
  }
  root.append(dots);
  return root;
}
