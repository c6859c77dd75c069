// @ts-check
// The projector: the tournament in large type for the hall's wall, updated by the server over
// a websocket after every change. While a round is played it shows its tables (who sits where,
// games played); beside them the standings, or the ranking once the Endrunde is seated. A list
// longer than the screen is shown a page at a time.

import { el, formatNumber, loadTexts, t } from "./common.js";
import { longDate } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("projector-app"));
const token = root.dataset.token || "";
const PAGE_SECONDS = 12;
/** @type {any} */ let state = null;
let retry = 500;
let page = 0;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => { retry = 500; root.classList.remove("offline"); });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "tournament") return;
    state = message.state;
    render();
  });
  socket.addEventListener("close", () => {
    root.classList.add("offline");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

/** @param {number} n */
function nameOf(n) {
  const p = state.players.find((/** @type {any} */ x) => x.number === n);
  return p ? p.name : `#${n + 1}`;
}

/** @param {any} v */
function num(v) {
  return v === null || v === undefined ? "–" : formatNumber(v);
}

function render() {
  const info = state.tournament;
  root.dataset.seq = String(info.seq);
  const current = state.rounds.length ? state.rounds[state.rounds.length - 1] : null;
  const playing = current && !current.complete && info.status !== "finished";
  const rows = state.ranking || state.standings || [];
  // As many rows as fit below the heading (about 1.6 lines of text each).
  const perPage = Math.max(6, Math.floor((window.innerHeight / parseFloat(getComputedStyle(document.body).fontSize) - 8) / 1.6));
  const pages = Math.max(1, Math.ceil(rows.length / perPage));
  page %= pages;
  const shown = rows.slice(page * perPage, (page + 1) * perPage);
  const ranking = Boolean(state.ranking);
  const final = state.format.final_round;
  const table = el("table", { class: "standings", id: "projector-standings", tabindex: 0 }, [
    el("thead", {}, [el("tr", {}, [
      el("th", { class: "num", text: t("tournament.place") }), el("th", { text: t("tournament.player") }),
      ranking && final ? el("th", { class: "num", text: t("tournament.endrunde_points") }) : null,
      el("th", { class: "num", text: ranking ? t("tournament.score") : t("tournament.total") }),
      el("th", { class: "num", text: t("tournament.games_won_long") }),
    ])]),
    el("tbody", {}, shown.map((/** @type {any} */ s, /** @type {number} */ i) => {
      const before = i > 0 ? shown[i - 1] : null;
      return el("tr", { "data-player": s.player, class: before && before.group !== s.group ? "group-start" : "" }, [
        el("td", { class: "num", text: `${s.place}${s.shared ? "=" : ""}` }),
        el("td", { text: s.name + (s.withdrawn ? ` (${t("tournament.withdrawn")})` : "") }),
        ranking && final ? el("td", { class: "num", text: num(s.final) }) : null,
        el("td", { class: "num score", text: num(ranking ? s.score : s.preliminary_total) }),
        el("td", { class: "num", text: String(s.games_won) }),
      ]);
    })),
  ]);
  const heading = ranking ? (info.status === "finished" || !final ? t("tournament.ranking") : t("tournament.ranking_live"))
    : final ? t("tournament.standings") : t("tournament.standings_swm");
  const standings = el("section", {}, [
    el("h2", { text: heading }), table,
    pages > 1 ? el("p", { class: "page-note", text: `${page + 1} / ${pages}` }) : null,
  ]);
  const parts = [];
  if (playing) {
    parts.push(el("section", {}, [
      el("h2", { text: t("tournament.projector_round", { label: current.final ? t("tournament.endrunde_points") : t("tournament.round", { n: current.number }) }) }),
      el("div", { class: "ptables" }, current.tables.map((/** @type {any} */ tb) => {
        const p = tb.progress;
        return el("div", { class: `ptable${tb.entered ? " entered" : ""}` }, [
          el("h3", {}, [
            el("span", { text: t("tournament.table", { n: tb.number }) }),
            el("span", { text: tb.entered ? "✓" : p && p.games ? `${p.played}/${p.games}` : "" }),
          ]),
          p && p.games && !tb.entered ? el("progress", { class: "progress", value: p.played, max: p.games }) : null,
          el("ol", {}, tb.seating.map((/** @type {number} */ n) => el("li", { text: nameOf(n) }))),
        ]);
      })),
    ]));
  }
  if (rows.length) parts.push(standings);
  root.replaceChildren(
    el("h1", { text: info.name }),
    el("p", { class: "sub" }, [`${longDate(info.date)}${info.place ? ` · ${info.place}` : ""} · ${t("tournament.n_players", { n: state.players.length })}`,
      el("span", { class: "offline", text: root.classList.contains("offline") ? ` · ${t("tournament.reconnecting")}` : "" })]),
    el("div", { class: `cols${parts.length === 1 ? " single" : ""}` }, parts),
  );
}

await loadTexts();
connect();
setInterval(() => {
  page += 1;
  if (state) render();
}, PAGE_SECONDS * 1000);
