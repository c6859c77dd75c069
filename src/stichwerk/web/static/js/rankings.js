// @ts-check
// The public ranking lists of a club or series: the all-time list (Ewige Rangliste) and the
// five-year list, with their CSV files. Read-only; the choice is kept in the address.

import { api, el, formatNumber, loadTexts, t, toast } from "./common.js";

const root = /** @type {HTMLElement} */ (document.getElementById("rankings-app"));

async function draw() {
  const params = new URLSearchParams(location.search);
  const { series } = await api("/api/rankings");
  if (!series.length) {
    root.replaceChildren(el("section", { class: "panel" }, [el("h1", { text: t("rankings.title") }), el("p", { class: "note", text: t("rankings.no_series") })]));
    return;
  }
  const chosen = params.get("series") || series[0].series;
  const kind = params.get("kind") === "five" ? "five" : "all";
  const picker = /** @type {HTMLSelectElement} */ (el("select", { id: "series" },
    series.map((/** @type {any} */ s) => el("option", { value: s.series, text: s.series, selected: s.series === chosen }))));
  const kinds = /** @type {HTMLSelectElement} */ (el("select", { id: "kind", "aria-label": t("rankings.title") }, [
    el("option", { value: "all", text: t("rankings.all_time"), selected: kind === "all" }),
    el("option", { value: "five", text: t("rankings.five_year"), selected: kind === "five" }),
  ]));
  const go = () => {
    const next = new URLSearchParams({ series: picker.value, kind: kinds.value });
    history.replaceState(null, "", `/rankings?${next}`);
    draw().catch((error) => toast(error.message));
  };
  picker.addEventListener("change", go);
  kinds.addEventListener("change", go);
  const query = new URLSearchParams({ series: chosen, kind });
  const list = await api(`/api/rankings/list?${query}`);
  const window = list.first_year !== null ? t("rankings.window", { first: list.first_year, last: list.last_year }) : "";
  const rows = list.entries.map((/** @type {any} */ e) => el("tr", { "data-player": e.player }, [
    el("td", { class: "num place", text: `${e.place}${e.shared ? "=" : ""}` }),
    el("td", { class: "name", text: e.player }),
    el("td", { class: "num points", text: formatNumber(e.points) }),
    el("td", { class: "num", text: String(e.tournaments) }),
    el("td", { class: "num", text: String(e.wins) }),
  ]));
  root.dataset.series = chosen;
  root.dataset.kind = kind;
  root.dataset.entries = String(list.entries.length);
  root.replaceChildren(el("section", { class: "panel" }, [
    el("h1", { text: `${t("rankings.title")}: ${chosen}` }),
    el("p", {}, [el("label", {}, [t("rankings.series"), " ", picker]), " ", kinds]),
    el("p", { class: "meta", id: "window", text: [kind === "five" ? window : t("rankings.all_time"), t("rankings.tournaments_counted", { n: list.tournaments })].filter(Boolean).join(" · ") }),
    list.entries.length ? el("table", { class: "standings", id: "ranking-table", tabindex: 0 }, [
      el("thead", {}, [el("tr", {}, [
        el("th", { class: "num", text: t("rankings.place") }), el("th", { text: t("rankings.player") }),
        el("th", { class: "num", text: t("rankings.points") }), el("th", { class: "num", text: t("rankings.tournaments") }),
        el("th", { class: "num", text: t("rankings.wins") }),
      ])]),
      el("tbody", {}, rows),
    ]) : el("p", { class: "note", text: t("rankings.none") }),
    el("p", { class: "note", text: `${t("rankings.points_note")} ${kind === "five" ? t("rankings.window_note") : ""}` }),
    el("nav", { class: "t-links" }, [
      el("a", { href: `/api/rankings/list.csv?${query}`, id: "ranking-csv", text: t("rankings.csv") }),
      el("a", { href: `/api/rankings/history.csv?${new URLSearchParams({ series: chosen })}`, id: "history-csv", text: t("rankings.history_csv") }),
    ]),
  ]));
}

await loadTexts();
draw().catch((error) => toast(error.message));
