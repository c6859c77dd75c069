// @ts-check
// Replay of a finished deal, step by step, with every hand open (the deal is over).

import { actLabel, api, cardName, el, loadTexts, t, toast } from "./common.js";
import { cardElement } from "./cards.js";

const root = /** @type {HTMLElement} */ (document.getElementById("replay-app"));
const dealId = root.dataset.deal || "";
/** @type {any} */ let data = null;
let step = 0;

function render() {
  const steps = data.steps;
  const current = steps[step];
  const view = current.view;
  const controls = el("div", { class: "actions" }, [
    el("button", { type: "button", id: "first", text: t("replay.start"), onclick: () => go(0) }),
    el("button", { type: "button", id: "back", text: t("replay.back"), onclick: () => go(step - 1) }),
    el("span", { id: "step", text: t("replay.step", { n: step, m: steps.length - 1 }) }),
    el("button", { type: "button", id: "forward", text: t("replay.forward"), onclick: () => go(step + 1) }),
    el("button", { type: "button", id: "last", text: t("replay.end"), onclick: () => go(steps.length - 1) }),
    el("a", { href: `/api/deals/${dealId}/record`, download: true, text: t("table.download") }),
  ]);
  const action = current.action;
  const said = action
    ? `${t("table.seat_label", { n: action.seat + 1 })}: ${actLabel(action)}${action.card ? " " + cardName(action.card) : ""}${action.cards ? " " + action.cards.map(cardName).join(", ") : ""}`
    : "";
  const hands = el("div", { class: "replay-hands" });
  current.hands.forEach((/** @type {string[]|null} */ hand, /** @type {number} */ seat) => {
    const row = el("div", { class: "replay-hand" + (view.to_act === seat ? " to-act" : "") }, [
      el("strong", { text: t("table.seat_label", { n: seat + 1 }) + (view.dealer === seat ? " (" + t("table.dealer") + ")" : "") }),
    ]);
    for (const card of hand || []) row.append(cardElement(card, { small: true }));
    hands.append(row);
  });
  const trick = el("div", { class: "replay-trick" }, [el("strong", { text: t("table.current_trick") + ": " })]);
  for (const play of view.trick || []) trick.append(cardElement(play.card, { small: true }));
  const last = el("div", { class: "replay-trick" }, [el("strong", { text: t("table.last_trick") + ": " })]);
  if (view.last_trick) {
    for (const entry of view.last_trick.cards) last.append(cardElement(typeof entry === "string" ? entry : entry.card, { small: true }));
  }
  const parts = [
    el("h1", { text: `${t("replay.title")}: ${data.record.game} · ${data.record.profile}` }),
    controls,
    el("p", { id: "said", "aria-live": "polite", text: said }),
    hands, trick, last,
    step === steps.length - 1 && view.result ? el("pre", { class: "result-json", text: JSON.stringify(view.result, null, 1) }) : null,
  ];
  root.replaceChildren(...parts.filter((p) => p !== null));
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
} catch (error) {
  toast(/** @type {Error} */ (error).message);
}
