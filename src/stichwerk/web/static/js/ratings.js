// @ts-check
// The leaderboards: one game and rule set at a time, bots marked, uncertainty and provisional
// ratings shown; a chosen player's rating over their rated deals as a chart. The address keeps
// the choice (?game=&profile=&player=), so a board or a player's chart can be linked.

import { api, el, formatNumber, loadTexts, t, tOr, toast } from "./common.js";
import { ratingChart } from "./chart.js";
import { botKind, personName } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("ratings-app"));
/** @type {{game: string, profile: string, players: number}[]} */ let boards = [];
let provisional = 30;

/** @param {number} n */
function num(n) {
  return formatNumber(Math.round(n * 100) / 100);
}

/** The choice in the address. */
function chosen() {
  const params = new URLSearchParams(location.search);
  return { game: params.get("game"), profile: params.get("profile"), player: params.get("player") };
}

/**
 * @param {string} game
 * @param {string} profile
 * @param {string|null} player
 */
function remember(game, profile, player) {
  const params = new URLSearchParams({ game, profile });
  if (player) params.set("player", player);
  history.replaceState(null, "", `${location.pathname}?${params}`);
  // The language links come back to the same choice.
  for (const link of document.querySelectorAll("a[hreflang]")) {
    const code = link.getAttribute("hreflang") || "";
    link.setAttribute("href", `/lang/${code}?next=${encodeURIComponent(location.pathname + location.search)}`);
  }
}

async function start() {
  await loadTexts();
  const data = await api("/api/ratings");
  boards = data.boards;
  provisional = data.provisional_deals;
  const want = chosen();
  const first = boards.find((b) => b.game === want.game && b.profile === want.profile)
    || boards.find((b) => b.players > 0) || boards[0];
  const select = /** @type {HTMLSelectElement} */ (el("select", { id: "board", "aria-label": t("ratings.board") }));
  for (const b of boards) {
    const value = `${b.game}/${b.profile}`;
    select.append(el("option", {
      value, selected: first && b.game === first.game && b.profile === first.profile,
      text: `${tOr(`game.${b.game}`, b.game)} – ${tOr(`profile.${b.profile}`, b.profile)} (${b.players})`,
    }));
  }
  const boardBox = el("div", { id: "leaderboard" });
  const chartBox = el("section", { class: "panel", id: "history" }, [el("p", { class: "note", text: t("ratings.history_hint") })]);
  select.addEventListener("change", () => {
    const [game, profile] = select.value.split("/");
    showBoard(game, profile, null, boardBox, chartBox).catch((error) => toast(error.message));
  });
  root.replaceChildren(
    el("h1", { text: t("ratings.title") }),
    el("section", { class: "panel" }, [
      el("label", {}, [t("ratings.board"), " ", select]),
      el("p", { class: "note", text: t("ratings.explain", { n: provisional }) }),
      boardBox,
    ]),
    chartBox,
  );
  if (first) await showBoard(first.game, first.profile, want.player, boardBox, chartBox);
}

/**
 * @param {string} game
 * @param {string} profile
 * @param {string|null} player
 * @param {HTMLElement} boardBox
 * @param {HTMLElement} chartBox
 */
async function showBoard(game, profile, player, boardBox, chartBox) {
  const data = await api(`/api/ratings/${encodeURIComponent(game)}/${encodeURIComponent(profile)}`);
  remember(game, profile, player);
  chartBox.replaceChildren(el("p", { class: "note", text: t("ratings.history_hint") }));
  if (!data.players.length) {
    boardBox.replaceChildren(el("p", { class: "note", id: "no-ratings", text: t("ratings.none") }));
    return;
  }
  const body = el("tbody");
  for (const row of data.players) {
    const name = el("button", {
      type: "button", class: "link player", "data-player": row.player,
      onclick: () => {
        remember(game, profile, row.player);
        showHistory(game, profile, row.player, chartBox).catch((error) => toast(error.message));
      },
    }, row.bot
      // A bot by the words people use, its id beside it (not a word to translate).
      ? [botKind(row.name), " ", el("span", { class: "bot-id", translate: "no", text: `(${row.name})` })]
      : [personName(row.name)]);
    body.append(el("tr", { class: [row.bot ? "bot" : "", row.provisional ? "provisional" : ""].join(" ").trim() }, [
      el("td", { class: "num", text: String(row.rank) }),
      el("td", { class: "name" }, [
        name,
        row.bot ? el("span", { class: "badge bot-badge", text: t("ratings.bot") }) : null,
        row.provisional ? el("span", {
          class: "badge provisional-badge", title: t("ratings.provisional_title", { n: provisional }), text: t("ratings.provisional"),
        }) : null,
      ]),
      el("td", { class: "num rating", text: num(row.rating) }),
      el("td", { class: "num", text: num(row.mu) }),
      el("td", { class: "num sigma", text: `± ${num(row.sigma)}` }),
      el("td", { class: "num", text: String(row.deals) }),
    ]));
  }
  // A phone scrolls the table inside its panel, the name column kept in view (app.css).
  boardBox.replaceChildren(el("div", { class: "scroll-x wide-table" }, [el("table", { class: "leaderboard" }, [
    el("thead", {}, [el("tr", {}, [
      el("th", { class: "num", text: t("ratings.rank") }),
      el("th", { class: "name", text: t("ratings.player") }),
      el("th", { class: "num", text: t("ratings.rating") }),
      el("th", { class: "num", text: t("ratings.mu") }),
      el("th", { class: "num", text: t("ratings.sigma") }),
      el("th", { class: "num", text: t("ratings.deals") }),
    ])]),
    body,
  ])]));
  if (player && data.players.some((/** @type {any} */ r) => r.player === player)) {
    await showHistory(game, profile, player, chartBox);
  }
}

/**
 * @param {string} game
 * @param {string} profile
 * @param {string} player
 * @param {HTMLElement} chartBox
 */
async function showHistory(game, profile, player, chartBox) {
  const path = `/api/ratings/${encodeURIComponent(game)}/${encodeURIComponent(profile)}/history?player=${encodeURIComponent(player)}`;
  const data = await api(path);
  const chart = ratingChart(data.points, {
    label: t("ratings.chart_label", { name: data.name }),
    axisDeals: t("ratings.axis_deals"),
    axisRating: t("ratings.axis_rating"),
    band: t("ratings.band"),
    pointTitle: (p) => t("ratings.after", { n: p.deals, mu: num(p.mu), sigma: num(p.sigma) }),
  }, { format: (n) => formatNumber(n) });
  chartBox.replaceChildren(el("h2", { text: t("ratings.history", { name: data.name }) }), chart);
}

start().catch((error) => toast(error.message));
