// @ts-check
// The table page: one websocket to the server, and the whole table drawn from the latest frame.
// The server sends each seat only what the engine's view of that seat holds; this page never
// decides what is legal, it offers exactly the view's legal_actions.

import { LANG, actLabel, api, cardName, el, loadTexts, t, toast } from "./common.js";
import { cardBack, cardElement } from "./cards.js";

const root = /** @type {HTMLElement} */ (document.getElementById("table-app"));
const tableId = root.dataset.table || "";
const invite = new URLSearchParams(location.search).get("invite");

/** @type {any} */ let frame = null;     // the latest "state" frame
/** @type {any} */ let info = null;      // the table's public info (from "welcome")
/** @type {any} */ let tableMeta = null; // the lobby record (invite link for the people at it)
/** @type {number|null} */ let mySeat = null;
/** @type {string|null} */ let myName = null;
/** @type {WebSocket|null} */ let socket = null;
let waiting = false;                     // an action was sent and not yet answered
let retry = 500;
/** @type {string[]} */ let selected = [];

const STANDARD_KEYS = new Set(["game", "profile", "options", "seats", "players", "dealer", "seat", "phase",
  "to_act", "hand", "hand_sizes", "history", "trick", "last_trick", "tricks_won", "legal_actions", "result", "deal"]);

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    document.body.classList.remove("offline");
  });
  socket.addEventListener("message", (event) => onFrame(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    document.body.classList.add("offline");
    waiting = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

/** @param {any} message */
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/** @param {{act: string, card?: string, cards?: string[], type?: string}} action */
function act(action) {
  if (waiting || !frame) return;
  waiting = true;
  const body = { act: action.act };
  if (action.card) body.card = action.card;
  if (action.cards && action.cards.length) body.cards = action.cards;
  if (action.type) body.type = action.type;
  send({ type: "act", version: frame.version, action: body });
  selected = [];
  render();
}

/** @param {any} message */
function onFrame(message) {
  if (message.type === "welcome") {
    info = message.table;
    mySeat = message.you.seat;
    myName = message.you.user;
    refreshMeta();
  } else if (message.type === "state") {
    const changedDeal = !frame || !frame.deal || !message.deal || frame.deal.id !== message.deal.id;
    if (changedDeal) selected = [];
    frame = message;
    mySeat = message.you;
    waiting = false;
    render();
  } else if (message.type === "error") {
    waiting = false;
    toast(message.message);
    render();
  }
}

async function refreshMeta() {
  try {
    tableMeta = (await api(`/api/tables/${encodeURIComponent(tableId)}`)).table;
  } catch (error) {
    tableMeta = null;
  }
  render();
}

/** @param {number} seat */
function seatName(seat) {
  const entry = frame && frame.seats[seat];
  let name = entry && entry.name ? entry.name : t("table.seat_label", { n: seat + 1 });
  if (entry && entry.kind === "bot") name = `${t("lobby.bot")} ${seat + 1} (${entry.name})`;
  return seat === mySeat ? `${name} (${t("table.you")})` : name;
}

/** The seat's place around the table, seen from the viewer (bottom). */
function position(/** @type {number} */ seat, /** @type {number} */ n) {
  const base = mySeat === null ? 0 : mySeat;
  const rel = (seat - base + n) % n;
  const layouts = {
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
  };
  return (layouts[/** @type {3} */ (n)] || layouts[4])[rel];
}

// -- rendering ---------------------------------------------------------------------------------

function render() {
  if (!frame || !info) return;
  const view = frame.view;
  const parts = [
    header(view),
    frame.phase === "waiting" ? waitingPanel() : null,
    tableArea(view),
    view ? actionBar(view) : null,
    view && view.hand ? handPanel(view) : mySeat === null ? el("p", { class: "note", text: t("table.spectator") }) : null,
    view && view.result ? resultPanel(view) : null,
    el("div", { class: "side" }, [view ? extrasPanel(view) : null, view ? historyPanel(view) : null, sheetPanel(), rulesPanel()]),
  ];
  root.replaceChildren(...parts.filter((p) => p !== null));
  // For people: nothing. For tests and tools: where the table stands.
  root.dataset.version = String(frame.version);
  root.dataset.phase = frame.phase;
  root.dataset.waiting = waiting ? "1" : "";
}

/** @param {any} view */
function header(view) {
  const bits = [el("strong", { text: `${info.game} · ${info.profile}` })];
  if (frame.deal) bits.push(el("span", { text: t("table.deal", { n: frame.deal.number + 1 }) }));
  let status = "";
  if (frame.phase === "waiting") status = t("table.waiting");
  else if (frame.phase === "finished") status = t("table.series_over");
  else if (view && view.to_act !== null && view.to_act !== undefined && !view.result) {
    status = view.to_act === mySeat ? t("table.your_turn") : t("table.to_act", { name: seatName(view.to_act) });
  }
  return el("header", { class: "table-header" }, [
    ...bits,
    el("span", { class: "status" + (view && view.to_act === mySeat && !view.result ? " mine" : ""), id: "status", role: "status", "aria-live": "polite", text: status }),
    el("span", { class: "offline-note", text: t("table.reconnecting") }),
  ]);
}

function waitingPanel() {
  const children = [el("h2", { text: t("table.waiting") })];
  if (tableMeta && tableMeta.invite) {
    const link = `${location.origin}/t/${tableId}?invite=${tableMeta.invite}`;
    children.push(el("p", {}, [
      el("label", { for: "invite-link", text: t("table.invite") + ": " }),
      el("input", { id: "invite-link", readonly: true, value: link, size: 48 }),
      el("button", { type: "button", text: t("table.copy"), onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }),
    ]));
  }
  if (mySeat === null) {
    const free = frame.seats.filter((/** @type {any} */ s) => s.kind === "human" && !s.taken);
    const mayJoin = info.public || invite;
    for (const seat of free) {
      if (!mayJoin) break;
      children.push(el("button", {
        type: "button", class: "primary", "data-join": seat.seat, text: t("table.take_seat", { n: seat.seat + 1 }),
        onclick: () => takeSeat(seat.seat),
      }));
    }
  }
  return el("section", { class: "panel waiting" }, children);
}

/** @param {number} seat */
async function takeSeat(seat) {
  try {
    const me = await api("/api/me");
    if (!me.user) await api("/api/guest", {});
    await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { seat, invite });
    // The session cookie may be new: reconnect so the server knows who we are.
    if (socket) socket.close();
  } catch (error) {
    toast(String(/** @type {Error} */ (error).message));
  }
}

/** @param {any} view */
function tableArea(view) {
  const n = info.seats;
  const area = el("section", { class: `table-area seats-${n}`, "aria-label": "table" });
  for (const seat of frame.seats) {
    const s = seat.seat;
    const pos = position(s, n);
    const toAct = view && view.to_act === s && !view.result;
    const size = view && view.hand_sizes ? view.hand_sizes[s] : null;
    const tricks = view && view.tricks_won ? view.tricks_won[s] : null;
    const flags = [];
    if (seat.kind === "bot") {
      // The name says it is a computer.
    } else if (!seat.taken) flags.push(t("lobby.free"));
    else if (seat.bot_playing) flags.push(t("table.bot_plays"));
    else if (!seat.connected) flags.push(t("table.away"));
    if (seat.ready && frame.phase === "between") flags.push("✓ " + t("table.ready"));
    const dealer = (view && view.dealer === s) || (!view && frame.deal && frame.deal.dealer === s);
    const backs = el("div", { class: "backs" });
    if (s !== mySeat && size) for (let i = 0; i < Math.min(size, 6); i += 1) backs.append(cardBack(true));
    area.append(el("div", {
      class: `seat pos-${pos}` + (toAct ? " to-act" : "") + (s === mySeat ? " me" : ""),
      "data-seat": s,
    }, [
      el("div", { class: "seat-name" }, [
        el("span", { class: "dot" + (seat.connected || seat.kind === "bot" ? " on" : "") }),
        seatName(s),
        dealer ? el("span", { class: "badge", title: t("table.dealer"), text: LANG === "de" ? "G" : "D" }) : null,
      ]),
      el("div", { class: "seat-info" }, [
        size !== null && size !== undefined ? `${t("table.cards")}: ${size}` : "",
        tricks !== null && tricks !== undefined ? ` · ${t("table.tricks")}: ${tricks}` : "",
        flags.length ? ` · ${flags.join(" · ")}` : "",
      ]),
      backs,
    ]));
  }
  const middle = el("div", { class: "trick-zone" });
  if (view) {
    const trick = el("div", { class: `trick seats-${n}`, "aria-label": t("table.current_trick"), id: "trick" });
    for (const play of view.trick || []) {
      trick.append(el("div", { class: `trick-card pos-${position(play.seat, n)}`, "data-seat": play.seat }, [cardElement(play.card)]));
    }
    middle.append(trick);
    if (view.last_trick) {
      const last = el("div", { class: "last-trick", id: "last-trick" }, [
        el("span", { class: "label", text: `${t("table.last_trick")} (${seatName(view.last_trick.winner)})` }),
      ]);
      for (const entry of view.last_trick.cards) {
        last.append(cardElement(typeof entry === "string" ? entry : entry.card, { small: true }));
      }
      middle.append(last);
    }
  }
  area.append(middle);
  return area;
}

/**
 * The view's legal actions for this seat, grouped for the buttons.
 * @param {any} view
 */
function groupActions(view) {
  const legal = mySeat !== null && !view.result ? view.legal_actions || [] : [];
  const plays = new Set();
  /** @type {Map<string, any[]>} */ const multi = new Map();
  /** @type {any[]} */ const simple = [];
  for (const a of legal) {
    if (a.act === "play" && a.card) plays.add(a.card);
    else if (a.cards && a.cards.length) {
      if (!multi.has(a.act)) multi.set(a.act, []);
      /** @type {any[]} */ (multi.get(a.act)).push(a);
    } else simple.push(a);
  }
  return { plays, multi, simple };
}

/** @param {string[]} a @param {string[]} b */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/** @param {any} view */
function actionBar(view) {
  const bar = el("section", { class: "actions", "aria-label": "actions" });
  if (frame.phase === "between" && mySeat !== null) {
    const ready = frame.seats[mySeat] && frame.seats[mySeat].ready;
    bar.append(el("button", {
      type: "button", class: "primary", id: "next-deal", disabled: ready, text: t("table.next"),
      onclick: () => send({ type: "next" }),
    }));
  }
  const { multi, simple } = groupActions(view);
  for (const a of simple) {
    bar.append(el("button", {
      type: "button", class: "act", "data-act": a.act, "data-type": a.type || "", disabled: waiting,
      text: actLabel(a), onclick: () => act(a),
    }));
  }
  for (const [name, options] of multi) {
    if (options.length <= 8) {
      // Few choices: one button each, naming the cards.
      for (const a of options) {
        bar.append(el("button", {
          type: "button", class: "act", "data-act": name, "data-cards": a.cards.join(" "), disabled: waiting,
          title: a.cards.map(cardName).join(", "),
          text: `${actLabel(a)}: ${a.cards.map(cardName).join(", ")}`, onclick: () => act(a),
        }));
      }
    } else {
      const match = options.find((a) => sameCards(a.cards, selected));
      bar.append(el("button", {
        type: "button", class: "act", "data-act": name, "data-select": "1", disabled: waiting || !match,
        text: `${actLabel(options[0])} (${t("table.selected", { n: selected.length })})`,
        onclick: () => match && act(match),
      }));
    }
  }
  return bar;
}

/** @param {any} view */
function handPanel(view) {
  const { plays, multi } = groupActions(view);
  /** @type {Set<string>} */ const selectable = new Set();
  for (const options of multi.values()) {
    if (options.length > 8) for (const a of options) for (const c of a.cards) selectable.add(c);
  }
  const hand = el("div", { class: "hand", role: "group", "aria-label": t("table.hand"), id: "hand" });
  for (const card of view.hand) {
    if (plays.has(card)) {
      hand.append(cardElement(card, { legal: true, disabled: waiting, onClick: () => act({ act: "play", card }) }));
    } else if (selectable.has(card)) {
      const isSelected = selected.includes(card);
      hand.append(cardElement(card, {
        legal: true, selected: isSelected, disabled: waiting,
        onClick: () => {
          selected = isSelected ? selected.filter((c) => c !== card) : [...selected, card];
          render();
        },
      }));
    } else {
      hand.append(cardElement(card, { disabled: true, onClick: () => {} }));
    }
  }
  return el("section", { class: "panel hand-panel" }, [el("h2", { class: "sr-only", text: t("table.hand") }), hand]);
}

/**
 * Any JSON as readable HTML: card codes become small cards, per-seat lists get seat names.
 * @param {any} value
 * @param {number} [depth]
 * @returns {Node}
 */
function renderValue(value, depth = 0) {
  if (value === null || value === undefined) return document.createTextNode("–");
  if (typeof value === "string") {
    if (/^(T([1-9]|1\d|2[0-2])|[CSHD](A|K|Q|R|J|10|[1-9]))$/.test(value)) return cardElement(value, { small: true });
    return document.createTextNode(t(`act.${value}`) !== value ? t(`act.${value}`) : value);
  }
  if (typeof value !== "object") return document.createTextNode(String(value));
  if (Array.isArray(value)) {
    const seats = info ? info.seats : 0;
    if (value.length === seats && value.every((v) => typeof v === "number")) {
      const dl = el("dl", { class: "per-seat" });
      value.forEach((v, i) => dl.append(el("dt", { text: seatName(i) }), el("dd", { text: String(v) })));
      return dl;
    }
    const box = el("span", { class: "list" });
    value.forEach((v) => box.append(renderValue(v, depth + 1), " "));
    return box;
  }
  const dl = el("dl", { class: "kv" });
  for (const [key, v] of Object.entries(value)) {
    dl.append(el("dt", { text: key.replaceAll("_", " ") }), el("dd", {}, [renderValue(v, depth + 1)]));
  }
  return dl;
}

/** @param {any} view */
function resultPanel(view) {
  const children = [el("h2", { text: t("table.result") })];
  children.push(el("div", { class: "result-body", id: "result" }, [renderValue(view.result)]));
  if (view.deal) {
    children.push(el("h3", { text: t("table.dealt") }));
    children.push(renderValue(view.deal));
  }
  if (frame.deal) {
    children.push(el("p", {}, [
      el("a", { href: `/d/${frame.deal.id}`, text: t("table.replay") }), " · ",
      el("a", { href: `/api/deals/${frame.deal.id}/record`, download: true, text: t("table.download") }),
    ]));
  }
  return el("section", { class: "panel result" }, children);
}

/** Engine-specific parts of the view (contract, laid-out cards, announcements ...). */
function extrasPanel(/** @type {any} */ view) {
  const extras = Object.entries(view).filter(([key]) => !STANDARD_KEYS.has(key));
  if (!extras.length) return null;
  const dl = el("dl", { class: "kv extras", id: "extras" });
  for (const [key, value] of extras) {
    const label = key === "laid_out" ? t("table.laid_out") : key === "contract" ? t("table.contract")
      : key === "declarer" ? t("table.declarer") : key.replaceAll("_", " ");
    dl.append(el("dt", { text: label }), el("dd", {}, [
      key === "declarer" && typeof value === "number" ? document.createTextNode(seatName(value)) : renderValue(value),
    ]));
  }
  return el("section", { class: "panel" }, [el("h2", { text: t("table.phase") + ": " + (view.phase || "") }), dl]);
}

/** @param {any} view */
function historyPanel(view) {
  const list = el("ol", { class: "history", id: "history" });
  for (const entry of (view.history || []).slice(-40)) {
    const bits = [`${seatName(entry.seat)}: ${actLabel(entry)}`];
    if (entry.card) bits.push(" " + cardName(entry.card));
    if (entry.cards) bits.push(" " + entry.cards.map(cardName).join(", "));
    else if (entry.count) bits.push(` (${entry.count} ${t("table.cards")})`);
    list.append(el("li", { text: bits.join("") }));
  }
  return el("details", { class: "panel", open: true }, [el("summary", { text: t("table.history") }), list]);
}

function sheetPanel() {
  const sheet = frame.sheet;
  const head = el("tr", {}, [el("th", { text: "#" }), el("th", { text: "" }),
    ...frame.seats.map((/** @type {any} */ s) => el("th", { text: seatName(s.seat) }))]);
  const body = el("tbody");
  for (const row of sheet.rows) {
    body.append(el("tr", { class: row.counts ? "" : "void" }, [
      el("td", { text: row.game_no === null ? "–" : String(row.game_no) }), el("td", { text: row.label + (row.multiplier > 1 ? ` ×${row.multiplier}` : "") }),
      ...row.settlement.map((/** @type {number} */ v) => el("td", { class: "num", text: String(v) })),
    ]));
  }
  body.append(el("tr", { class: "total" }, [el("td", { text: "" }), el("td", { text: t("table.total") }),
    ...sheet.totals.map((/** @type {number} */ v) => el("td", { class: "num", text: String(v) }))]));
  return el("details", { class: "panel", open: true }, [
    el("summary", { text: `${t("table.sheet")} (${sheet.counted}/${sheet.length})` }),
    el("table", { class: "sheet", id: "sheet" }, [el("thead", {}, [head]), body]),
  ]);
}

function rulesPanel() {
  const overrides = Object.keys(info.options || {}).length ? renderValue(info.options) : document.createTextNode(t("table.no_overrides"));
  return el("details", { class: "panel", open: frame.phase === "waiting" }, [
    el("summary", { text: t("table.settings") }),
    el("p", {}, [`${t("lobby.profile")}: ${info.profile} · ${t("lobby.series")}: ${info.series_length} · ${t("lobby.time_limit")}: ${info.time_limit}`]),
    el("p", {}, [`${t("table.overrides")}: `, overrides]),
  ]);
}

await loadTexts();
connect();
