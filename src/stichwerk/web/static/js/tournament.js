// @ts-check
// A tournament's page: the director's whole day (registration, the draw, each table's score
// sheet, typed totals or an online table, withdrawals, the Endrunde, finishing) with the
// director's link; the same page read-only with the public link. The server sends the whole
// tournament over a websocket after every change; this page only draws it and sends changes.

import { api, copyText, el, formatNumber, joinNames, loadAddress, loadTexts, lookup, publicOrigin, refusalText, t, tOr, toast, warnIfLoopback } from "./common.js";
import { formatDescription, formatName, longDate } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("tournament-app"));
const token = root.dataset.token || "";
const DEVICE_KEY = "stichwerk.tournaments";
const SECRET_KEY = "stichwerk.series_secret";
/** A series' secret made with this tournament (or by a history import), shown until closed. */
let newSecret = takeSecret();

/** The secret the new-tournament page handed over, once (it is not kept anywhere after). */
function takeSecret() {
  try {
    const found = JSON.parse(sessionStorage.getItem(SECRET_KEY) || "null");
    sessionStorage.removeItem(SECRET_KEY);
    return found && typeof found.secret === "string" ? found : null;
  } catch {
    return null;
  }
}

function secretPanel() {
  if (!newSecret || (newSecret.id && newSecret.id !== state.tournament.id)) return null;
  return el("section", { class: "panel", id: "series-secret" }, [
    el("p", {}, [t("tournament.secret_shown", { series: newSecret.series, secret: "" }), el("code", { id: "series-secret-value", text: newSecret.secret })]),
    el("button", { type: "button", id: "series-secret-close", text: t("tournament.secret_noted"), onclick: () => { newSecret = null; render(); } }),
  ]);
}

/** @type {any} */ let state = null;
/** @type {WebSocket|null} */ let socket = null;
let retry = 500;
/** Values typed into forms, kept across redraws (by the input's id). @type {Record<string, string|boolean>} */
const drafts = {};
/** Which collapsible parts are open (by id). @type {Record<string, boolean>} */
const opened = {};
/** @type {number|undefined} */ let hintTimer;
/** The problems of a table's typed totals as the server named them, by the form's id, until a
 * save succeeds. @type {Record<string, any[]>} */
const entryProblems = {};

// -- talking to the server ------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    document.body.classList.remove("offline");
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "tournament") show(message.state);
  });
  socket.addEventListener("close", () => {
    document.body.classList.add("offline");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

/**
 * One change by the director; the answer is the tournament as it is now. ``onProblems`` takes
 * a refused entry's list of problems (typed totals) in place of the English line's toast.
 * @param {Record<string, any>} body
 * @param {(problems: any[]) => void} [onProblems]
 * @returns {Promise<boolean>}
 */
async function change(body, onProblems) {
  try {
    show(await api(`/api/tournaments/${encodeURIComponent(token)}/changes`, body));
    return true;
  } catch (error) {
    const problems = /** @type {any} */ (error).data?.problems;
    if (onProblems && Array.isArray(problems) && problems.length) onProblems(problems);
    else toast(/** @type {Error} */ (error).message);
    return false;
  }
}

/**
 * One problem of typed totals in the page's language (``entry.<code>``), the English line
 * the server sent where the catalogue has none.
 * @param {any} problem
 */
function problemText(problem) {
  const params = { ...(problem.params || {}) };
  let key = `entry.${problem.code}`;
  if (problem.code === "duty_owed" && !params.owed) key = "entry.duty_owed_none";
  if (problem.code === "whole") key = `entry.whole_${problem.field}`;
  return t(key, params);
}

/**
 * Where a table's typed totals were refused: each problem beside its seat's line (the field
 * marked), the table's own below the grid.
 * @param {string} id the form's id
 * @param {HTMLElement} grid
 */
function markProblems(id, grid) {
  const problems = entryProblems[id] || [];
  for (const problem of problems) {
    const field = { points: "points", duty_solos: "solo", games_won: "won" }[/** @type {string} */ (problem.field)];
    const inputs = problem.seat === null || problem.seat === undefined
      ? grid.querySelectorAll(`input[data-q="${field}"]`)
      : grid.querySelectorAll(`input[data-q="${field}"][data-seat="${problem.seat}"]`);
    inputs.forEach((input) => { input.setAttribute("aria-invalid", "true"); input.classList.add("invalid"); });
    const where = problem.seat === null || problem.seat === undefined ? "table" : String(problem.seat);
    const line = /** @type {HTMLElement|null} */ (grid.querySelector(`#${id}-problems-${where}`));
    if (line) {
      line.hidden = false;
      line.append(el("span", { class: "q-problem", "data-code": problem.code, "data-field": problem.field || "", text: problemText(problem) }));
    }
  }
}

/** The tournament last drawn, as JSON text. @type {string} */ let shownText = "";

/**
 * Draw the tournament as the server sent it. A frame the same as the one drawn (the socket's
 * first, just after the page's own request) is not drawn again: a redraw between the press and
 * the release of a click replaces what was pressed, and the click is lost.
 * @param {any} next
 */
function show(next) {
  if (state && next.tournament.seq < state.tournament.seq) return; // an older frame
  const text = JSON.stringify(next);
  if (text === shownText) return;
  shownText = text;
  state = next;
  if (state.role === "director") remember();
  render();
}

/** The director's tournaments on this device, for the new-tournament page. */
function remember() {
  try {
    /** @type {any[]} */
    const known = JSON.parse(localStorage.getItem(DEVICE_KEY) || "[]");
    const link = state.links.director;
    const entry = { name: state.tournament.name, date: state.tournament.date, link };
    const others = known.filter((k) => k.link !== link);
    localStorage.setItem(DEVICE_KEY, JSON.stringify([entry, ...others].slice(0, 30)));
  } catch {
    // private mode: nothing to remember
  }
}

// -- drawing ----------------------------------------------------------------------------------

function render() {
  const focus = document.activeElement instanceof HTMLElement ? document.activeElement.id : "";
  for (const node of root.querySelectorAll("details[id]")) opened[node.id] = /** @type {HTMLDetailsElement} */ (node).open;
  const director = state.role === "director";
  const info = state.tournament;
  root.dataset.seq = String(info.seq);
  root.dataset.status = info.status;
  root.dataset.rounds = String(state.rounds.length);
  root.dataset.role = state.role;
  const parts = [secretPanel(), headPanel(director), nextPanel(director), problemsPanel()];
  if (info.status === "registration") parts.push(playersPanel(director));
  for (const round of [...state.rounds].reverse()) parts.push(roundPanel(round, director));
  if (state.ranking) parts.push(rankingPanel());
  if (state.standings && state.rounds.length) parts.push(standingsPanel());
  if (info.status !== "registration") parts.push(playersPanel(director));
  if (director) parts.push(extrasPanel());
  root.replaceChildren(...parts.filter((p) => p !== null));
  for (const node of root.querySelectorAll("details[id]")) {
    if (node.id in opened) /** @type {HTMLDetailsElement} */ (node).open = opened[node.id];
  }
  if (focus) {
    const again = document.getElementById(focus);
    if (again) again.focus();
  }
}

/** The round's name in the page's language: "Round 2", "Endrunde". @param {any} round */
function roundLabel(round) {
  return round.final ? t("tournament.endrunde_points") : t("tournament.round", { n: round.number });
}

/** @param {number} n */
function nameOf(n) {
  const p = state.players.find((/** @type {any} */ x) => x.number === n);
  return p ? p.name : `#${n + 1}`;
}

/**
 * An input whose value survives redraws.
 * @param {string} id
 * @param {Record<string, any>} attrs
 * @param {string} initial
 */
function draftInput(id, attrs, initial = "") {
  const input = /** @type {HTMLInputElement} */ (el("input", { id, ...attrs }));
  if (input.type === "checkbox") {
    input.checked = id in drafts ? Boolean(drafts[id]) : initial === "true";
    input.addEventListener("change", () => { drafts[id] = input.checked; });
  } else {
    input.value = id in drafts ? String(drafts[id]) : initial;
    input.addEventListener("input", () => { drafts[id] = input.value; });
  }
  return input;
}

/** @param {string} prefix */
function clearDrafts(prefix) {
  for (const key of Object.keys(drafts)) if (key.startsWith(prefix)) delete drafts[key];
}

/**
 * A change of the tournament's log in words: the round, table and players it concerns and what
 * changed ("Runde 1, Tisch 2 berichtigt: Anna 12 → 15 Punkte"), from the change's data and its
 * ``about`` (the server's ``log_about``); an op the page does not know shows as it was logged.
 * @param {any} c
 */
function logText(c) {
  const d = c.data || {};
  const about = c.about;
  const where = (/** @type {any} */ x) => `${t("tournament.round", { n: x.round })}, ${t("tournament.table", { n: x.table })}`;
  const known = lookup(`tournament.log_op.${c.op}`);
  if (about) {
    const line = (/** @type {any[]|null} */ results) => (results || []).map((r, seat) => `${about.players[seat] ? about.players[seat].name : `#${seat + 1}`} ${formatNumber(r.points)}`).join(", ");
    const changed = about.changes.length && typeof lookup(`tournament.log_op.${c.op}_changed`) === "string" ? `${c.op}_changed` : c.op;
    let text = t(`tournament.log_op.${typeof known === "string" ? changed : "table"}`, { where: where(about) });
    if (about.changes.length) {
      text += `: ${about.changes.map((/** @type {any} */ x) => t(`tournament.log_field.${x.field}`, { name: x.name, from: formatNumber(x.from), to: formatNumber(x.to) })).join(", ")}`;
    } else if (d.results) {
      text += ` (${line(d.results)})`;
    }
    return text;
  }
  const vars = {
    name: d.name ?? "", from: d.from ?? "", to: d.to ?? "", n: d.round ?? d.participants ?? "", after: d.after_round ?? "",
    players: Array.isArray(d.players) ? d.players.map((/** @type {any} */ p) => (typeof p === "string" ? p : p.name ?? "")).join(", ") : "",
    count: Array.isArray(d.players) ? d.players.length : 0,
    fields: Object.entries(d).map(([k, v]) => `${tOr(`tournament.${k}`, k)}: ${v}`).join(", "),
    where: typeof d.round === "number" && typeof d.table === "number" ? where(d) : "",
  };
  if (c.op === "draw" && d.final) return t("tournament.log_op.draw_final");
  if (typeof known === "string") return t(`tournament.log_op.${c.op}`, vars);
  return `${c.op} · ${JSON.stringify(d)}`;
}

/** @param {boolean} director */
function headPanel(director) {
  const info = state.tournament;
  const fmt = state.format;
  const links = [
    el("a", { href: state.links.public, id: "public-link", text: t("tournament.public_link") }),
    el("a", { href: state.links.projector, id: "projector-link", text: t("tournament.projector") }),
    el("a", { href: `/tournaments/${token}/print/results`, id: "print-results", target: "_blank", text: t("tournament.print_results") }),
  ];
  if (state.ranking) links.push(el("a", { href: `/api/tournaments/${token}/results.csv`, id: "results-csv", text: t("tournament.results_csv") }));
  if (director) links.push(el("a", { href: `/api/tournaments/${token}/backup.json`, id: "backup-link", text: t("tournament.backup") }));
  const active = state.players.filter((/** @type {any} */ p) => !p.withdrawn).length;
  const gone = state.players.length - active;
  return el("section", { class: "panel", id: "t-head" }, [
    el("h1", { id: "t-name", text: info.name }),
    el("p", { class: "meta" }, [
      `${longDate(info.date)}${info.place ? ` · ${info.place}` : ""} · ${info.series} · ${formatName(fmt)} · `,
      el("span", { class: `badge-status ${info.status}`, id: "t-status", text: t(`tournament.status.${info.status}`) }),
      ` · ${t("tournament.n_players", { n: active })}${gone ? `, ${t("tournament.n_withdrawn", { n: gone })}` : ""}`,
      director ? "" : ` · ${t("tournament.read_only")}`,
    ]),
    el("p", { class: "note" }, [formatDescription(fmt)]),
    el("nav", { class: "t-links" }, links),
    director ? el("p", { class: "note", text: t("tournament.backup_note") }) : null,
    director ? cliLine(info.id) : null,
    el("span", { class: "offline-note", text: t("tournament.reconnecting") }),
  ]);
}

/**
 * The tournament's id and the director's command for it, copyable: the command line and the
 * page name the same tournament the same way (the CLI takes the id, its start or the link).
 * @param {string} id
 */
function cliLine(id) {
  const command = el("code", { id: "cli-command", text: `stichwerk tournament standings ${id}` });
  return el("div", { class: "t-cli", id: "t-cli" }, [
    el("p", {}, [`${t("tournament.id")}: `, el("code", { id: "t-id", text: id })]),
    el("p", {}, [`${t("tournament.cli")}: `, command, " ",
      el("button", { type: "button", id: "cli-copy", text: t("tournament.cli_copy"), onclick: () => copyText(command.textContent || "", command) })]),
    el("p", { class: "note", text: t("tournament.cli_hint") }),
  ]);
}

/** @param {boolean} director */
function nextPanel(director) {
  const next = state.next;
  if (!director) return null;
  if (!next.action) return el("section", { class: "panel next-bar", id: "next" }, [el("span", { text: t("tournament.finished_note") })]);
  const label = next.action === "draw" ? t("tournament.draw", { n: next.round })
    : next.action === "endrunde" ? t("tournament.endrunde") : t("tournament.finish");
  const button = el("button", {
    type: "button", class: "primary", id: "next-action", "data-action": next.action, disabled: Boolean(next.blocked), text: label,
    onclick: () => {
      if (next.action === "finish") {
        if (!confirm(t("tournament.finish_confirm", { series: state.tournament.series }))) return;
        change({ op: "finish" });
      } else change({ op: "draw" });
    },
  });
  return el("section", { class: "panel next-bar", id: "next" }, [
    button,
    next.blocked ? el("span", { class: "blocked", id: "next-blocked", text: t("tournament.not_yet", { why: refusalText(next.blocked) }) }) : null,
    state.can_undraw ? el("button", {
      type: "button", id: "undraw", text: t("tournament.undraw"),
      onclick: () => { if (confirm(t("tournament.undraw_confirm"))) change({ op: "undraw" }); },
    }) : null,
  ]);
}

function problemsPanel() {
  if (!state.problems.length) return null;
  return el("section", { class: "panel problems", id: "problems" }, [
    el("h2", { text: t("tournament.problems") }),
    el("ul", {}, state.problems.map((/** @type {string} */ p) => el("li", { text: p }))),
  ]);
}

/** @param {boolean} director */
function playersPanel(director) {
  const info = state.tournament;
  const list = el("ol", { class: "player-list", id: "player-list" });
  for (const p of [...state.players].sort((a, b) => a.number - b.number)) {
    const buttons = [];
    if (director && info.status === "registration") {
      buttons.push(el("button", { type: "button", "data-remove": p.number, text: t("tournament.remove"), onclick: () => change({ op: "remove_player", player: p.number }) }));
    }
    if (director && info.status === "running" && !p.withdrawn) {
      buttons.push(el("button", {
        type: "button", "data-withdraw": p.number, text: t("tournament.withdraw"),
        onclick: () => { if (confirm(t("tournament.withdraw_confirm", { name: p.name }))) change({ op: "withdraw", player: p.number }); },
      }));
    }
    if (director && info.status === "running" && p.withdrawn && p.withdrawn_after === state.rounds.length) {
      buttons.push(el("button", { type: "button", "data-reinstate": p.number, text: t("tournament.reinstate"), onclick: () => change({ op: "reinstate", player: p.number }) }));
    }
    if (director) {
      buttons.push(el("button", {
        type: "button", "data-rename": p.number, text: t("tournament.rename"),
        onclick: () => {
          const name = prompt(t("tournament.rename_prompt", { name: p.name }), p.name);
          if (name && name !== p.name) change({ op: "rename_player", player: p.number, name });
        },
      }));
    }
    list.append(el("li", { class: p.withdrawn ? "withdrawn" : "", "data-player": p.number, value: p.number + 1 }, [
      el("span", { class: "pname", text: p.name }),
      p.withdrawn ? el("span", { class: "note", text: ` (${t("tournament.withdrawn")})` }) : null,
      ...buttons,
    ]));
  }
  const children = [el("h2", { text: `${t("tournament.players")} (${state.players.length})` }), list];
  if (director && info.status === "registration") {
    const name = draftInput("add-name", { list: "known-names", autocomplete: "off", placeholder: t("tournament.add_name"), "aria-label": t("tournament.add_name"), maxlength: 40 });
    const known = el("datalist", { id: "known-names" });
    name.addEventListener("input", () => {
      clearTimeout(hintTimer);
      hintTimer = window.setTimeout(() => hints(name.value, known), 150);
    });
    const add = async () => {
      const value = name.value.trim();
      if (!value) return;
      if (await change({ op: "add_players", names: [value] })) {
        // Only the name just added is cleared: the projector's websocket may have shown the
        // new list before this answer came, and the next name may be typed already.
        const again = /** @type {HTMLInputElement|null} */ (document.getElementById("add-name"));
        if (String(drafts["add-name"] ?? "").trim() === value) delete drafts["add-name"];
        if (again && again.value.trim() === value) { again.value = ""; again.focus(); }
      }
    };
    name.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); add(); } });
    const paste = /** @type {HTMLTextAreaElement} */ (el("textarea", { id: "paste-names", placeholder: t("tournament.paste_hint") }));
    paste.value = String(drafts["paste-names"] || "");
    paste.addEventListener("input", () => { drafts["paste-names"] = paste.value; });
    children.push(
      el("div", { class: "add-row" }, [name, known, el("button", { type: "button", class: "primary", id: "add-player", text: t("tournament.add"), onclick: add })]),
      el("details", { id: "paste" }, [
        el("summary", { text: t("tournament.paste") }),
        paste,
        el("button", {
          type: "button", id: "add-pasted", text: t("tournament.add_list"),
          onclick: async () => {
            const text = paste.value;
            if (await change({ op: "add_players", text }) && drafts["paste-names"] === text) delete drafts["paste-names"];
          },
        }),
      ]),
      el("p", { class: "note", text: t("tournament.late_note") }),
    );
  }
  return el("section", { class: "panel", id: "players" }, children);
}

/**
 * Names from earlier tournaments for the registration's suggestions.
 * @param {string} query @param {HTMLElement} list
 */
async function hints(query, list) {
  if (query.trim().length < 2) return;
  try {
    const found = await api(`/api/tournaments/${encodeURIComponent(token)}/names?q=${encodeURIComponent(query.trim())}`);
    list.replaceChildren(...found.names.map((/** @type {string} */ n) => el("option", { value: n })));
  } catch {
    // suggestions are a help, not a need
  }
}

/** @param {any} round @param {boolean} director */
function roundPanel(round, director) {
  const prints = [el("a", { href: `/tournaments/${token}/print/seating?round=${round.number}`, class: "print-seating", target: "_blank", text: t("tournament.print_seating") })];
  if (director) prints.push(el("a", { href: `/tournaments/${token}/print/sheets?round=${round.number}`, class: "print-sheets", target: "_blank", text: t("tournament.print_sheets") }));
  return el("section", { class: "panel round", id: `round-${round.number}`, "data-complete": String(round.complete) }, [
    el("h2", { text: roundLabel(round) }),
    el("nav", { class: "t-links" }, prints),
    ...round.by_lot.map((/** @type {number[]} */ g) => el("p", { class: "note by-lot", text: t("tournament.by_lot", { names: joinNames(g.map(nameOf)) }) })),
    el("div", { class: "tables-grid" }, round.tables.map((/** @type {any} */ table) => tableCard(round, table, director))),
  ]);
}

/** @param {any} round @param {any} table @param {boolean} director */
function tableCard(round, table, director) {
  const r = round.number;
  const n = table.number;
  const progress = table.progress;
  let status;
  if (table.entered) status = `✓ ${t("tournament.entered")} (${t(`tournament.from_${table.source}`)})`;
  else if (progress && progress.games) status = t("tournament.progress", { played: progress.played, games: progress.games });
  else if (progress && table.mode === "online") status = t("tournament.progress_online", { played: progress.played });
  else status = t("tournament.not_begun");
  const title = `${t("tournament.table", { n })}${round.final && n === 1 ? ` · ${t("tournament.title_table")}` : ""}`;
  const seats = el("ol", { class: "seats" });
  table.seating.forEach((/** @type {number} */ p, /** @type {number} */ seat) => {
    let points = null;
    if (table.results) points = el("span", { class: "pts", text: formatNumber(table.results[seat].points) });
    else if (progress && progress.totals) points = el("span", { class: "pts note", text: formatNumber(progress.totals[seat]) });
    const owes = table.duty_owed && table.duty_owed[seat] && !table.entered;
    seats.append(el("li", { "data-player": p }, [
      nameOf(p), owes ? el("span", { class: "owes", text: ` · ${t("tournament.owes_solo")}` }) : null, points,
    ]));
  });
  const children = [
    el("h3", {}, [el("span", { text: title }), el("span", { class: "state", text: status })]),
    el("div", { class: "note", text: `${t("tournament.games", { n: table.games })}${table.sitting_dealer ? ` · ${t("tournament.sits_out")}` : ""} · ${t("tournament.deal_order")}` }),
    progress && progress.games && !table.entered ? el("progress", { class: "progress", value: progress.played, max: progress.games }) : null,
    seats,
  ];
  if (table.follower && table.mode === "sheet") {
    children.push(el("div", {}, [el("a", { href: table.follower, class: "follower-link", target: "_blank", text: t("tournament.follower_link") })]));
  }
  if (director) children.push(...directorTools(round, table));
  else if (table.web_table) children.push(el("a", { href: table.web_table, class: "web-table-link", text: t("tournament.web_table") }));
  return el("div", {
    class: `ttable${table.entered ? " entered" : ""}`, "data-round": r, "data-table": n,
    "data-entered": String(table.entered), "data-mode": table.mode,
  }, children);
}

/** @param {any} round @param {any} table */
function directorTools(round, table) {
  const r = round.number;
  const n = table.number;
  const out = [];
  if (table.mode === "sheet" && table.scorer) {
    const scorerToken = table.scorer.slice(3);
    out.push(el("details", { id: `sheet-${r}-${table.number}`, class: "sheet-tools" }, [
      el("summary", { text: t("tournament.sheet_links") }),
      el("img", { class: "qr-img", src: `/api/sheets/${scorerToken}/qr/scorer.svg`, alt: t("tournament.scorer_link") }),
      el("p", {}, [el("a", { href: table.scorer, class: "scorer-link", target: "_blank", text: t("tournament.scorer_link") })]),
      el("p", { class: "note", text: `${publicOrigin()}${table.scorer}` }),
    ]));
  }
  if (table.mode === "online") {
    const links = el("ul", { class: "seat-links" });
    (table.seat_links || []).forEach((/** @type {string|null} */ link, /** @type {number} */ seat) => {
      const who = nameOf(table.seating[seat]);
      links.append(el("li", {}, link
        ? [el("a", { href: link, class: "seat-link", "data-seat": seat, target: "_blank", text: who }), el("span", { class: "note", text: ` ${publicOrigin()}${link}` })]
        : [`${who}: ${t("tournament.bot_seat")}`]));
    });
    out.push(el("div", { class: "online-tools" }, [
      el("strong", { text: t("tournament.seat_links") }), links,
      table.web_table ? el("a", { href: table.web_table, class: "web-table-link", target: "_blank", text: t("tournament.web_table") }) : null,
    ]));
  }
  if (state.tournament.status === "finished" && !table.entered) return out;
  // Typed totals (quick mode): always offered, a correction too.
  const id = `q-${r}-${n}`;
  const grid = el("div", { class: "quick-grid" }, [
    el("span", {}), el("span", { class: "note", text: t("tournament.points") }),
    el("span", { class: "note", text: table.duty_owed ? t("tournament.duty_solo") : "" }), el("span", { class: "note", text: t("tournament.games_won") }),
  ]);
  table.seating.forEach((/** @type {number} */ p, /** @type {number} */ seat) => {
    const result = table.results ? table.results[seat] : null;
    grid.append(
      el("span", { text: nameOf(p) }),
      draftInput(`${id}-points-${seat}`, { type: "number", step: 1, "data-q": "points", "data-seat": seat, "aria-label": `${nameOf(p)}: ${t("tournament.points")}` }, result ? String(result.points) : ""),
      table.duty_owed && table.duty_owed[seat]
        ? draftInput(`${id}-solo-${seat}`, { type: "checkbox", "data-q": "solo", "data-seat": seat, "aria-label": `${nameOf(p)}: ${t("tournament.duty_solo")}` }, result ? String(result.duty_solos > 0) : "false")
        : el("span", {}),
      draftInput(`${id}-won-${seat}`, { type: "number", min: 0, max: table.games, step: 1, "data-q": "won", "data-seat": seat, "aria-label": `${nameOf(p)}: ${t("tournament.games_won")}` }, result ? String(result.games_won) : ""),
      el("div", { class: "q-problems", id: `${id}-problems-${seat}`, role: "alert", hidden: true }),
    );
  });
  grid.append(el("div", { class: "q-problems", id: `${id}-problems-table`, role: "alert", hidden: true }));
  markProblems(id, grid);
  const save = el("button", {
    type: "button", class: "primary q-save", id: `${id}-save`, text: t("tournament.save"),
    onclick: async () => {
      const results = table.seating.map((/** @type {number} */ _p, /** @type {number} */ seat) => {
        const value = (/** @type {string} */ name) => /** @type {HTMLInputElement|null} */ (document.getElementById(`${id}-${name}-${seat}`));
        const points = value("points");
        const solo = value("solo");
        const won = value("won");
        return {
          points: Number(points && points.value !== "" ? points.value : NaN),
          duty_solos: solo && solo.checked ? 1 : 0,
          games_won: Number(won && won.value !== "" ? won.value : 0),
        };
      });
      if (results.some((/** @type {any} */ x) => !Number.isInteger(x.points))) {
        toast(t("tournament.points") + ": ?");
        return;
      }
      const refused = (/** @type {any[]} */ problems) => {
        entryProblems[id] = problems;
        render();
        toast(t("entry.refused", { n: problems.length }));
      };
      delete entryProblems[id]; // the answer draws the page again: with new problems or none
      if (await change({ op: "enter", round: r, table: n, results, explain: true }, refused)) {
        clearDrafts(id);
        toast(t("tournament.saved"));
      }
    },
  });
  out.push(el("details", { id: `quick-${r}-${n}`, class: "quick-tools", open: table.mode === "quick" && !table.entered }, [
    el("summary", { text: t("tournament.quick") }),
    el("p", { class: "note", text: t("tournament.quick_hint") }),
    grid, save,
    table.mode === "quick" ? el("button", { type: "button", class: "to-sheet", text: t("tournament.back_to_sheet"), onclick: () => change({ op: "mode", round: r, table: n, mode: "sheet" }) }) : null,
  ]));
  if (!table.entered && table.mode !== "online" && !table.sheet_changes) {
    const boxes = table.seating.map((/** @type {number} */ p, /** @type {number} */ seat) => el("label", {}, [
      draftInput(`online-${r}-${n}-bot-${seat}`, { type: "checkbox", "data-bot": seat }), ` ${nameOf(p)}: ${t("tournament.bot_seat")}`,
    ]));
    out.push(el("details", { id: `online-${r}-${n}`, class: "online-tools" }, [
      el("summary", { text: t("tournament.online") }),
      el("p", { class: "note", text: t("tournament.online_hint") }),
      ...boxes.map((/** @type {HTMLElement} */ b) => el("div", {}, [b])),
      el("button", {
        type: "button", class: "go-online", text: t("tournament.open_online"),
        onclick: () => {
          const bots = table.seating.map((/** @type {number} */ _p, /** @type {number} */ seat) => seat).filter((/** @type {number} */ seat) => {
            const box = /** @type {HTMLInputElement|null} */ (document.getElementById(`online-${r}-${n}-bot-${seat}`));
            return box && box.checked;
          });
          change({ op: "online", round: r, table: n, bots });
        },
      }),
    ]));
  }
  return out;
}

/** @param {any} v */
function num(v) {
  return v === null || v === undefined ? "–" : formatNumber(v);
}

function standingsPanel() {
  const swm = !state.format.final_round;
  const rows = state.standings.map((/** @type {any} */ s) => el("tr", { "data-player": s.player, class: s.withdrawn ? "withdrawn" : "" }, [
    el("td", { class: "num place", text: `${s.place}${s.shared ? "=" : ""}` }),
    el("td", { text: s.name + (s.withdrawn ? ` (${t("tournament.withdrawn")})` : "") }),
    el("td", { class: "num", text: num(s.preliminary) }),
    el("td", { class: "num", text: s.penalty ? num(s.penalty) : "" }),
    el("td", { class: "num score", text: num(s.preliminary_total) }),
    el("td", { class: "num", text: String(s.games_won) }),
    el("td", { class: "num", text: String(s.rounds) }),
  ]));
  return el("section", { class: "panel", id: "standings" }, [
    el("h2", { text: swm ? t("tournament.standings_swm") : t("tournament.standings") }),
    // tabindex: on a phone the table scrolls inside its panel, and a keyboard must reach it.
    el("table", { class: "standings", tabindex: 0 }, [
      el("thead", {}, [el("tr", {}, [
        el("th", { class: "num", text: t("tournament.place") }), el("th", { text: t("tournament.player") }),
        el("th", { class: "num", text: t("tournament.points") }), el("th", { class: "num", text: t("tournament.penalty") }),
        el("th", { class: "num", text: t("tournament.total") }), el("th", { class: "num", text: t("tournament.games_won_long") }),
        el("th", { class: "num", text: t("tournament.rounds_played") }),
      ])]),
      el("tbody", {}, rows),
    ]),
  ]);
}

function rankingPanel() {
  const final = state.format.final_round;
  const done = state.tournament.status === "finished";
  const rows = state.ranking.map((/** @type {any} */ s, /** @type {number} */ i) => {
    const start = i > 0 && state.ranking[i - 1].group !== s.group;
    return el("tr", { "data-player": s.player, class: `${s.withdrawn ? "withdrawn" : ""}${start ? " group-start" : ""}` }, [
      el("td", { class: "num place", text: `${s.place}${s.shared ? "=" : ""}` }),
      el("td", { text: s.name + (s.withdrawn ? ` (${t("tournament.withdrawn")})` : "") + (s.group === "title" ? ` · ${t("tournament.title_table")}` : "") }),
      final ? el("td", { class: "num", text: num(s.final) }) : null,
      final ? el("td", { class: "num", text: num(s.preliminary_total) }) : null,
      el("td", { class: "num score", text: num(s.score) }),
      el("td", { class: "num", text: String(s.games_won) }),
      el("td", { class: "num rp", text: num(s.ranking_points) }),
    ]);
  });
  return el("section", { class: "panel", id: "ranking" }, [
    el("h2", { text: done || !final ? t("tournament.ranking") : t("tournament.ranking_live") }),
    el("table", { class: "standings", tabindex: 0 }, [
      el("thead", {}, [el("tr", {}, [
        el("th", { class: "num", text: t("tournament.place") }), el("th", { text: t("tournament.player") }),
        final ? el("th", { class: "num", text: t("tournament.endrunde_points") }) : null,
        final ? el("th", { class: "num", text: t("tournament.vorrunde") }) : null,
        el("th", { class: "num", text: t("tournament.score") }), el("th", { class: "num", text: t("tournament.games_won_long") }),
        el("th", { class: "num", text: t("tournament.ranking_points") }),
      ])]),
      el("tbody", {}, rows),
    ]),
  ]);
}

function extrasPanel() {
  const info = state.tournament;
  const fields = [["name", info.name], ["date", info.date], ["place", info.place], ["series", info.series]].map(([key, value]) =>
    el("label", { class: "edit-field" }, [t(`tournament.${key}`), " ", draftInput(`edit-${key}`, { type: key === "date" ? "date" : "text", maxlength: 120 }, value)]));
  const history = /** @type {HTMLTextAreaElement} */ (el("textarea", { id: "history-text", placeholder: "date;player;place;participants;tournament" }));
  history.value = String(drafts["history-text"] || "");
  history.addEventListener("input", () => { drafts["history-text"] = history.value; });
  const file = /** @type {HTMLInputElement} */ (el("input", { type: "file", accept: ".csv,text/csv", id: "history-file" }));
  file.addEventListener("change", async () => {
    if (file.files && file.files[0]) {
      history.value = await file.files[0].text();
      drafts["history-text"] = history.value;
    }
  });
  const logBox = el("div", { class: "log-list", id: "log-list" });
  const logDetails = el("details", { id: "log" }, [el("summary", { text: t("tournament.log") }), logBox]);
  logDetails.addEventListener("toggle", async () => {
    if (!(/** @type {HTMLDetailsElement} */ (logDetails).open)) return;
    try {
      const log = await api(`/api/tournaments/${encodeURIComponent(token)}/log`);
      logBox.replaceChildren(el("ol", { id: "log-items" }, log.changes.map((/** @type {any} */ c) =>
        el("li", { value: c.seq, "data-op": c.op, text: `${c.at.slice(0, 19).replace("T", " ")} · ${tOr(`tournament.log_source.${c.source}`, c.source)} · ${logText(c)}` }))));
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });
  if (opened.log) setTimeout(() => logDetails.dispatchEvent(new Event("toggle")));
  return el("section", { class: "panel", id: "extras" }, [
    el("details", { id: "edit" }, [
      el("summary", { text: t("tournament.edit") }), ...fields,
      el("label", { class: "edit-field" }, [t("tournament.secret"), " ", draftInput("edit-secret", { maxlength: 64, autocomplete: "off" }),
        el("span", { class: "note", text: " " + t("tournament.secret_move_hint") })]),
      el("button", {
        type: "button", id: "edit-save", text: t("tournament.save"),
        onclick: async () => {
          /** @type {Record<string, any>} */ const body = { op: "edit" };
          for (const key of ["name", "date", "place", "series"]) {
            const input = /** @type {HTMLInputElement} */ (document.getElementById(`edit-${key}`));
            body[key] = input.value;
          }
          const secret = /** @type {HTMLInputElement} */ (document.getElementById("edit-secret"));
          if (secret.value) body.secret = secret.value;
          if (await change(body)) clearDrafts("edit-");
        },
      }),
    ]),
    el("details", { id: "history" }, [
      el("summary", { text: t("tournament.history") }),
      el("p", { class: "note", text: t("tournament.history_hint", { series: info.series }) }),
      file, history,
      el("label", {}, [t("tournament.secret"), " ", draftInput("history-secret", { maxlength: 64, autocomplete: "off" }),
        el("span", { class: "note", text: " " + t("tournament.secret_history_hint") })]),
      el("button", {
        type: "button", id: "history-import", text: t("tournament.import_file"),
        onclick: async () => {
          try {
            const secret = /** @type {HTMLInputElement} */ (document.getElementById("history-secret")).value;
            const done = await api(`/api/tournaments/${encodeURIComponent(token)}/history`, { text: history.value, ...(secret ? { secret } : {}) });
            toast(t("tournament.history_done", { rows: done.rows, tournaments: done.tournaments }));
            if (done.series_secret) {
              newSecret = { id: state.tournament.id, series: done.series, secret: done.series_secret };
              render();
            }
            delete drafts["history-text"];
            history.value = "";
          } catch (error) {
            toast(/** @type {Error} */ (error).message);
          }
        },
      }),
      el("p", {}, [el("a", { href: `/rankings?series=${encodeURIComponent(info.series)}`, text: t("tournament.rankings_link") })]),
    ]),
    logDetails,
  ]);
}

await Promise.all([loadTexts(), loadAddress()]);
try {
  show(await api(`/api/tournaments/${encodeURIComponent(token)}`));
  if (state.role === "director") warnIfLoopback(root); // the director hands out the links
  connect();
} catch (error) {
  root.replaceChildren(el("p", { class: "note", text: /** @type {Error} */ (error).message }));
}
