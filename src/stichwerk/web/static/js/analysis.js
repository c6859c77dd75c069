// @ts-check
// Post-game analysis: ask the server to value a seat's decisions of a finished deal, show the
// progress while the workers search, then every decision with its choices, the loss and the
// Fehler. The server decides whose decisions the viewer may see; this only draws its answer.

import { actLabel, api, cardName, el, formatNumber, signed, t } from "./common.js";

/**
 * @typedef {{action: any, mean: number, half_width: number|null, samples: number}} Choice
 * @typedef {{seat: number, index: number, phase: string, choices: Choice[], chosen: any,
 *   best: any, loss: number, fehler: boolean, by_bot?: boolean}} Decision
 * @typedef {{deal: number, seat: number, status: string, done: number, total: number,
 *   threshold: number, decisions: Decision[], error: string|null}} Job
 * @typedef {{name: (seat: number) => string, onPick?: (index: number) => void}} Options
 */

/** @type {Map<string, HTMLElement>} */
const panels = new Map();
const POLL_MS = 400;

/** @param {any} action */
function label(action) {
  let text = actLabel(action);
  if (action.card) text = cardName(action.card);
  if (action.cards) text += " " + action.cards.map(cardName).join(", ");
  return text;
}

/** @param {any} a @param {any} b */
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** @param {Choice} c */
function expected(c) {
  const half = c.half_width === null ? "" : ` ±${formatNumber(Math.round(c.half_width * 10) / 10)}`;
  return signed(Math.round(c.mean * 100) / 100) + half;
}

/**
 * The analysis panel of one deal and seat (``seat`` null: the viewer's own seat, as the server
 * knows it). The same element comes back on every render of the page, so a running analysis
 * keeps its state while the page redraws.
 * @param {string|number} dealId
 * @param {number|null} seat
 * @param {Options} options
 * @returns {HTMLElement}
 */
export function analysisPanel(dealId, seat, options) {
  const key = `${dealId}:${seat}`;
  const known = panels.get(key);
  if (known) return known;
  const body = el("div", { class: "analysis-body" });
  const panel = el("section", { class: "panel analysis", id: "analysis", "data-seat": seat === null ? "own" : seat }, [
    el("h2", { text: t("analysis.title") }),
    el("p", { class: "note", text: t("analysis.explain") }),
    body,
  ]);
  panels.set(key, panel);
  const path = `/api/deals/${encodeURIComponent(String(dealId))}/analysis`;
  const query = seat === null ? "" : `?seat=${seat}`;

  /** @param {Job|null} job */
  function show(job) {
    panel.dataset.status = job ? job.status : "none";
    if (!job || job.status === "failed") {
      const button = el("button", { type: "button", id: "analyse", text: t(job ? "analysis.again" : "analysis.start"), onclick: start });
      body.replaceChildren(job && job.error ? el("p", { class: "error", text: t("analysis.failed", { msg: job.error }) }) : "", button);
      return;
    }
    if (job.status === "running") {
      const text = job.total ? t("analysis.running", { n: job.done, m: job.total }) : t("analysis.queued");
      body.replaceChildren(
        el("progress", { id: "analysis-progress", max: Math.max(job.total, 1), value: job.done }),
        el("span", { class: "note", role: "status", text }),
      );
      setTimeout(poll, POLL_MS);
      return;
    }
    body.replaceChildren(...results(job, options));
  }

  async function poll() {
    try {
      show((await api(path + query)).analysis);
    } catch (error) {
      body.replaceChildren(el("p", { class: "error", text: /** @type {Error} */ (error).message }));
    }
  }

  async function start() {
    try {
      show((await api(path, { seat })).analysis);
    } catch (error) {
      body.replaceChildren(el("p", { class: "error", text: /** @type {Error} */ (error).message }));
    }
  }

  poll();
  return panel;
}

/**
 * The finished analysis: a summary line, then a row per decision.
 * @param {Job} job
 * @param {Options} options
 */
function results(job, options) {
  const decisions = job.decisions;
  if (!decisions.length) return [el("p", { class: "note", text: t("analysis.none") })];
  const fehler = decisions.filter((d) => d.fehler);
  const loss = decisions.reduce((sum, d) => sum + d.loss, 0);
  const summary = el("p", { class: "analysis-summary", id: "analysis-summary", text: t("analysis.summary", {
    n: decisions.length, loss: formatNumber(Math.round(loss * 10) / 10), k: fehler.length, t: formatNumber(job.threshold), over: t("analysis.over", { n: formatNumber(job.threshold) }),
  }) });
  const head = el("tr", {}, [
    el("th", { text: t("analysis.step") }), el("th", { text: t("analysis.played") }),
    el("th", { text: t("analysis.best") }), el("th", { text: t("analysis.loss") }),
    el("th", { text: t("analysis.choices") }),
  ]);
  const rows = decisions.map((d) => {
    const made = d.choices.find((c) => same(c.action, d.chosen));
    const best = d.choices.find((c) => same(c.action, d.best));
    const step = options.onPick
      ? el("button", { type: "button", class: "link", title: t("analysis.show"), text: String(d.index + 1), onclick: () => options.onPick && options.onPick(d.index) })
      : String(d.index + 1);
    const choices = el("span", { class: "analysis-choices" }, d.choices.map((c) => el("span", {
      class: "choice" + (same(c.action, d.chosen) ? " chosen" : "") + (same(c.action, d.best) ? " best" : ""),
      title: `${c.samples}`,
    }, [`${label(c.action)} ${expected(c)}`])));
    const lossCell = el("td", { class: "num" }, [
      formatNumber(Math.round(d.loss * 100) / 100),
      d.fehler ? el("strong", { class: "fehler", text: " " + t("analysis.fehler", { loss: "−" + formatNumber(Math.round(d.loss * 10) / 10) }) }) : null,
    ]);
    return el("tr", { class: "decision" + (d.fehler ? " is-fehler" : ""), "data-index": d.index }, [
      el("td", {}, [step]),
      el("td", {}, [`${label(d.chosen)} ${made ? expected(made) : ""}`, d.by_bot ? el("em", { text: ` (${t("analysis.by_bot")})` }) : null]),
      el("td", { text: same(d.best, d.chosen) ? "✓" : `${label(d.best)} ${best ? expected(best) : ""}` }),
      lossCell,
      el("td", {}, [choices]),
    ]);
  });
  const table = el("table", { class: "analysis-table" }, [el("thead", {}, [head]), el("tbody", {}, rows)]);
  return [
    el("p", { class: "note", text: `${t("analysis.seat")}: ${options.name(job.seat)}` }),
    summary,
    el("div", { class: "analysis-scroll" }, [table]),
  ];
}
