// @ts-check
// Replay of a finished deal, step by step, with every hand open (the deal is over).

import { analysisPanel } from "./analysis.js";
import { actLabel, api, cardName, el, loadTexts, t, toast } from "./common.js";
import { cardElement } from "./cards.js";
import { dealtHands, gamePanel, neverWinsBadge, resultCard } from "./panels.js";
import { tableTitle } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("replay-app"));
const dealId = root.dataset.deal || "";
/** @type {any} */ let data = null;
let step = 0;
/** The seat whose analysis is shown: null for the viewer's own (a person seated at the table),
 * else a person's seat the viewer chose; undefined until the server said which applies. */
/** @type {number|null|undefined} */
let analysisSeat = undefined;

/** A seat's name as the table showed it. @param {number} seat */
function seatName(seat) {
  const entry = data && (data.seats || []).find((/** @type {any} */ s) => s.seat === seat);
  if (entry && entry.kind === "bot") return `${t("lobby.bot")} ${seat + 1}`;
  return entry && entry.name ? entry.name : t("table.seat_label", { n: seat + 1 });
}

/** @type {import("./panels.js").Ctx} */
const ctx = { name: seatName, me: null };

/** @param {any} action */
function said(action) {
  if (!action) return t("replay.deal_start");
  let text = `${seatName(action.seat)}: ${actLabel(action)}`;
  if (action.card) text += " " + cardName(action.card);
  if (action.cards) text += " " + action.cards.map(cardName).join(", ");
  return text;
}

function render() {
  const steps = data.steps;
  const current = steps[step];
  const view = current.view;
  const controls = el("div", { class: "actions replay-controls" }, [
    el("button", { type: "button", id: "first", text: t("replay.start"), onclick: () => go(0) }),
    el("button", { type: "button", id: "back", text: t("replay.back"), onclick: () => go(step - 1) }),
    el("span", { id: "step", text: t("replay.step", { n: step, m: steps.length - 1 }) }),
    el("button", { type: "button", id: "forward", text: t("replay.forward"), onclick: () => go(step + 1) }),
    el("button", { type: "button", id: "last", text: t("replay.end"), onclick: () => go(steps.length - 1) }),
    el("a", { href: `/api/deals/${dealId}/record`, download: true, text: t("table.download") }),
  ]);
  const laidOut = new Set(view.laid_out || []);
  const never = new Set(view.never_wins || []);
  const hands = el("div", { class: "replay-hands panel" });
  current.hands.forEach((/** @type {string[]|null} */ hand, /** @type {number} */ seat) => {
    const marks = [];
    if (view.dealer === seat) marks.push(t("table.dealer"));
    if (view.declarer === seat || view.soloist === seat) marks.push(view.game === "cego" ? t("cego.declarer") : t("doko.soloist"));
    const row = el("div", { class: "replay-hand" + (view.to_act === seat ? " to-act" : ""), "data-seat": seat }, [
      el("strong", { text: seatName(seat) + (marks.length ? ` (${marks.join(", ")})` : "") }),
    ]);
    for (const card of hand || []) {
      const badge = laidOut.has(card) && view.declarer === seat
        ? (never.has(card) ? neverWinsBadge() : { text: "▲", title: t("cego.laid_out"), kind: "laid" })
        : undefined;
      row.append(cardElement(card, { small: true, badge }));
    }
    hands.append(row);
  });
  const trick = el("div", { class: "replay-trick" }, [el("strong", { text: t("table.current_trick") + ": " })]);
  for (const play of view.trick || []) {
    trick.append(el("span", { class: "trick-play", title: seatName(play.seat) }, [
      cardElement(play.card, { small: true, badge: never.has(play.card) ? neverWinsBadge() : undefined }),
    ]));
  }
  const last = el("div", { class: "replay-trick" }, [
    el("strong", { text: t("table.last_trick") + (view.last_trick ? ` (${seatName(view.last_trick.winner)})` : "") + ": " }),
  ]);
  if (view.last_trick) {
    for (const entry of view.last_trick.cards) last.append(cardElement(typeof entry === "string" ? entry : entry.card, { small: true }));
  }
  const over = step === steps.length - 1 && view.result;
  const parts = [
    el("h1", { text: `${t("replay.title")}: ${tableTitle(data.record.game, data.record.profile)}` }),
    controls,
    el("p", { id: "said", "aria-live": "polite", text: said(current.action) }),
    hands,
    el("div", { class: "panel" }, [trick, last]),
    over ? el("section", { class: "panel result" }, [el("h2", { text: t("table.result") }), resultCard(view, ctx)]) : gamePanel(view, ctx),
    over ? el("details", { class: "panel", open: true }, [el("summary", { text: t("table.dealt") }), dealtHands(view, ctx)]) : null,
    analysisSection(),
  ];
  root.replaceChildren(...parts.filter((p) => p !== null));
}

/** The analysis: the viewer's own seat if they sat at the table, else a person's seat they choose. */
function analysisSection() {
  if (analysisSeat === undefined) return null;
  const options = { name: seatName, onPick: (/** @type {number} */ index) => go(index) };
  if (analysisSeat === null) return analysisPanel(dealId, null, options);
  const people = (data.seats || []).filter((/** @type {any} */ s) => s.kind === "human");
  return chooser(people, analysisPanel(dealId, analysisSeat, options));
}

/** A seat chooser above the chosen seat's analysis (for those who did not sit at the table).
 * @param {any[]} people @param {HTMLElement} panel */
function chooser(people, panel) {
  const select = el("select", { id: "analysis-seat", "aria-label": t("analysis.choose_seat"), onchange: () => {
    analysisSeat = Number(/** @type {HTMLSelectElement} */ (select).value);
    render();
  } }, people.map((/** @type {any} */ s) => el("option", { value: s.seat, selected: s.seat === analysisSeat, text: seatName(s.seat) })));
  return el("div", { class: "analysis-wrap" }, [el("label", { text: t("analysis.choose_seat") + " " }, [select]), panel]);
}

/** Whether the viewer sat at the table (the server then shows only their own seat). */
async function findAnalysisSeat() {
  try {
    await api(`/api/deals/${encodeURIComponent(dealId)}/analysis`);
    analysisSeat = null;
  } catch (error) {
    const first = (data.seats || []).find((/** @type {any} */ s) => s.kind === "human");
    analysisSeat = first ? first.seat : undefined;
  }
  render();
}

/** @param {number} n */
function go(n) {
  step = Math.max(0, Math.min(n, data.steps.length - 1));
  render();
}

document.addEventListener("keydown", (event) => {
  if (!data) return;
  if (event.key === "ArrowRight") go(step + 1);
  if (event.key === "ArrowLeft") go(step - 1);
});

await loadTexts();
try {
  data = await api(`/api/deals/${encodeURIComponent(dealId)}/replay`);
  render();
  findAnalysisSeat();
} catch (error) {
  toast(/** @type {Error} */ (error).message);
}
