// @ts-check
// The table page: one websocket to the server, and the whole table drawn from the latest frame.
// The server sends each seat only what the engine's view of that seat holds; this page never
// decides what is legal, it offers exactly the view's legal_actions, and it shows only what the
// view holds.

import { analysisPanel } from "./analysis.js";
import { actLabel, actTitle, api, cardName, el, joinNames, loadAddress, loadTexts, publicOrigin, t, toast } from "./common.js";
import { cardBack, cardElement } from "./cards.js";
import { dealtHands, gameLine, gamePanel, laidOutBeside, neverWinsBadge, ownBlind, resultCard } from "./panels.js";
import { closingRoundControls, closingView, overridesView, settingMeanings } from "./rules.js";
import { sheetLabel, tableTitle } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("table-app"));
const tableId = root.dataset.table || "";
const invite = new URLSearchParams(location.search).get("invite");

/** @type {any} */ let frame = null;     // the latest "state" frame
/** @type {any} */ let info = null;      // the table's public info (from "welcome")
/** @type {any} */ let tableMeta = null; // the lobby record (invite link for the people at it)
/** @type {any} */ let profileDefaults = null; // the profile's settings (to show overrides against)
/** @type {Record<string, string>} */ let settingDocs = {}; // each setting's meaning (a tooltip on the rules table)
/** @type {string[]} */ let dealTypes = []; // the deal types the game may close a list with
/** @type {number|null} */ let mySeat = null;
/** @type {WebSocket|null} */ let socket = null;
let waiting = false;                     // an action was sent and not yet answered
let retry = 500;
/** @type {string[]} */ let selected = [];
/** Whether each collapsible panel is open, as the person last left it (by the panel's id). */
/** @type {Record<string, boolean>} */ const openState = {};

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    document.body.classList.remove("offline");
  });
  socket.addEventListener("message", (event) => onFrame(JSON.parse(event.data)));
  socket.addEventListener("close", async (event) => {
    document.body.classList.add("offline");
    waiting = false;
    if (event.code === 1013) {
      // The server is busy for this address (too many handshakes or open sockets): try again
      // later, and not at once; the table is not gone.
      retry = Math.max(retry, 2000);
      setTimeout(connect, retry + Math.floor(Math.random() * 1000));
      retry = Math.min(retry * 2, 15000);
      return;
    }
    if (await tableGone()) {
      // Not let in (any more): no such table, or a private one this session may not watch
      // (never invited, or logged out). Say so, and stop trying.
      document.body.classList.remove("offline");
      root.replaceChildren(el("p", { class: "panel note", id: "no-table", text: t("table.no_table") }));
      return;
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

/** Whether the server says there is no such table for this session (a private table answers
 * only its members); a server that cannot be reached says nothing: keep reconnecting. */
async function tableGone() {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`, { credentials: "same-origin" });
    return response.status === 404;
  } catch (error) {
    return false;
  }
}

/**
 * An invite link (…/t/ID?invite=…) lets this account watch the table, a private one too: the
 * server remembers it, so later visits need no link. Signs in as a guest first if need be.
 */
async function redeemInvite() {
  if (!invite) return;
  try {
    const me = await api("/api/me");
    if (!me.user) await api("/api/guest", {});
    await api(`/api/tables/${encodeURIComponent(tableId)}/watch`, { invite });
  } catch (error) {
    toast(String(/** @type {Error} */ (error).message));
  }
}

/** @param {any} message */
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/** @param {{act: string, card?: string, cards?: string[], type?: string}} action */
function act(action) {
  if (waiting || !frame) return;
  waiting = true;
  /** @type {{act: string, card?: string, cards?: string[], type?: string}} */
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
    refreshMeta();
    loadDefaults();
  } else if (message.type === "state") {
    const changedDeal = !frame || !frame.deal || !message.deal || frame.deal.id !== message.deal.id;
    if (changedDeal) selected = [];
    frame = message;
    mySeat = message.you;
    waiting = false;
    render();
  } else if (message.type === "presence") {
    // Who is here changed (someone came, left, or a stand-in bot took over): not the game.
    if (!frame) return;
    for (const s of message.seats) {
      const seat = frame.seats[s.seat];
      if (seat) Object.assign(seat, { connected: s.connected, bot_playing: s.bot_playing });
    }
    frame.spectators = message.spectators;
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

/** The profile's own settings, so the overrides can be shown beside what they replace, and the
 * deal types the game's closing rounds may be of. */
async function loadDefaults() {
  if (profileDefaults || !info) return;
  try {
    const games = (await api("/api/games")).games;
    const game = games.find((/** @type {any} */ g) => g.name === info.game);
    profileDefaults = game ? game.settings[info.profile] || {} : {};
    settingDocs = settingMeanings(game);
    dealTypes = game ? game.deal_types || [] : [];
  } catch (error) {
    profileDefaults = {};
  }
  render();
}

/**
 * A seat's name: the person's name, or "Computer 2" for a bot seat; "(du)" for the viewer.
 * @param {number} seat
 */
function seatName(seat) {
  const entry = frame && frame.seats[seat];
  let name = entry && entry.name ? entry.name : t("table.seat_label", { n: seat + 1 });
  if (entry && entry.kind === "bot") name = `${t("lobby.bot")} ${seat + 1}`;
  return seat === mySeat ? `${name} (${t("table.you")})` : name;
}

/** @param {number} seat */
function plainName(seat) {
  const entry = frame && frame.seats[seat];
  if (entry && entry.kind === "bot") return `${t("lobby.bot")} ${seat + 1}`;
  return entry && entry.name ? entry.name : t("table.seat_label", { n: seat + 1 });
}

/** @returns {import("./panels.js").Ctx} */
function ctx() {
  return { name: seatName, me: mySeat };
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

/**
 * A collapsible panel that stays as the person left it across redraws.
 * @param {string} id
 * @param {boolean} openByDefault
 * @param {string} summary
 * @param {(Node|null)[]} children
 * @param {string} [extraClass]
 */
function collapsible(id, openByDefault, summary, children, extraClass = "") {
  const open = id in openState ? openState[id] : openByDefault;
  const node = el("details", { class: `panel ${extraClass}`.trim(), id, open }, [el("summary", { text: summary }), ...children]);
  node.addEventListener("toggle", () => { openState[id] = /** @type {HTMLDetailsElement} */ (node).open; });
  return node;
}

// -- rendering ---------------------------------------------------------------------------------

function render() {
  if (!frame || !info) return;
  const view = frame.view;
  // The play zone: the table, the buttons and the hand; on a wide screen the game panel stands
  // beside them, on a phone below the hand.
  const infoPanel = view && !view.result ? gamePanel(view, ctx()) : null;
  const zone = [
    tableArea(view),
    view ? actionBar(view) : null,
    view && view.hand && view.hand.length ? handPanel(view)
      : mySeat === null ? el("p", { class: "note", text: t("table.spectator") }) : null,
    view && view.blind && view.declarer === mySeat && !view.result ? blindPanel(view) : null,
    infoPanel,
  ];
  const parts = [
    header(view),
    frame.phase === "waiting" ? waitingPanel() : null,
    el("div", { class: "play-zone" + (infoPanel ? " with-info" : "") }, zone.filter((p) => p !== null)),
    view && view.result ? resultPanel(view) : null,
    el("div", { class: "side" }, [view ? historyPanel(view) : null, sheetPanel(), rulesPanel()]),
  ];
  root.replaceChildren(...parts.filter((p) => p !== null));
  // The newest entries of the history are the ones to see.
  const history = document.getElementById("history");
  if (history) history.scrollTop = history.scrollHeight;
  // For people: nothing. For tests and tools: where the table stands.
  root.dataset.version = String(frame.version);
  root.dataset.phase = frame.phase;
  root.dataset.waiting = waiting ? "1" : "";
}

/** @param {any} view */
function header(view) {
  const bits = [el("strong", { text: tableTitle(info.game, info.profile) })];
  if (frame.deal) bits.push(el("span", { text: t("table.deal", { n: frame.deal.number + 1 }) }));
  const line = gameLine(view, ctx());
  if (line) bits.push(el("span", { class: "game-line", id: "game-line", text: line }));
  let status = "";
  if (frame.phase === "waiting") status = t("table.waiting");
  else if (frame.phase === "finished") status = t("table.series_over");
  else if (frame.phase === "stopped") status = t("table.stopped");
  else if (view && view.to_act !== null && view.to_act !== undefined && !view.result) {
    status = view.to_act === mySeat ? t("table.your_turn") : t("table.to_act", { name: seatName(view.to_act) });
  }
  if (frame.spectators) {
    bits.push(el("span", {
      class: "watching", id: "watching",
      text: frame.spectators === 1 ? t("table.watching_1") : t("table.watching", { n: frame.spectators }),
    }));
  }
  return el("header", { class: "table-header" }, [
    ...bits,
    el("span", { class: "status" + (view && view.to_act === mySeat && !view.result ? " mine" : ""), id: "status", role: "status", "aria-live": "polite", text: status }),
    el("span", { class: "offline-note", text: t("table.reconnecting") }),
  ]);
}

/**
 * The invite link, for those the server shows it to (the creator and the people seated): it
 * lets a person sit down while seats are free, and watch, a private table too.
 * @param {string} id
 */
function inviteLine(id) {
  if (!tableMeta || !tableMeta.invite) return null;
  const link = `${publicOrigin()}/t/${tableId}?invite=${tableMeta.invite}`; // for other devices
  return el("p", { class: "invite" }, [
    el("label", { for: id, text: t("table.invite") + ": " }),
    el("input", { id, readonly: true, value: link, size: 48 }),
    el("button", { type: "button", text: t("table.copy"), onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }),
  ]);
}

function waitingPanel() {
  const children = [el("h2", { text: t("table.waiting") })];
  const line = inviteLine("invite-link");
  if (line) children.push(line);
  // Everyone sees the table's rules before the first deal, overrides first.
  children.push(overridesView(info, profileDefaults, "waiting-rules", settingDocs));
  const closing = closingView({ ...info, closing_rounds: closingNow() }, "waiting-closing");
  if (closing) children.push(closing);
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
  const area = el("section", { class: `table-area seats-${n}`, "aria-label": t("table.current_trick") });
  const never = new Set(view && view.never_wins ? view.never_wins : []);
  for (const seat of frame.seats) {
    const s = seat.seat;
    const pos = position(s, n);
    const toAct = view && view.to_act === s && !view.result;
    const size = view && view.hand_sizes ? view.hand_sizes[s] : null;
    const tricks = view && view.tricks_won ? view.tricks_won[s] : null;
    const sitting = view && view.sitting === s || (view && view.game === "cego" && view.seats === 5 && view.dealer === s);
    const flags = [];
    if (seat.bot_account) flags.push(t("table.bot_account"));  // a program plays it (bot websocket)
    if (seat.kind === "bot") flags.push(t("table.bot_kind", { name: seat.name }));
    else if (!seat.taken) flags.push(t("lobby.free"));
    else if (seat.bot_playing) flags.push(t("table.bot_plays"));
    else if (!seat.connected) flags.push(t("table.away"));
    if (seat.ready && frame.phase === "between") flags.push("✓ " + t("table.ready"));
    const dealer = (view && view.dealer === s) || (!view && frame.deal && frame.deal.dealer === s);
    const vorhand = view && view.vorhand === s && !view.result;
    const counts = [];
    if (sitting) counts.push(t("table.sits_out"));
    else {
      if (size !== null && size !== undefined) counts.push(cardsText(size));
      if (tricks !== null && tricks !== undefined) counts.push(tricks === 1 ? t("table.trick_1") : t("table.tricks_n", { n: tricks }));
    }
    const backs = el("div", { class: "backs" });
    if (s !== mySeat && size) for (let i = 0; i < Math.min(size, 6); i += 1) backs.append(cardBack(true));
    area.append(el("div", {
      class: `seat pos-${pos}` + (toAct ? " to-act" : "") + (s === mySeat ? " me" : ""),
      "data-seat": s,
    }, [
      el("div", { class: "seat-name" }, [
        el("span", { class: "dot" + (seat.connected || seat.kind === "bot" ? " on" : "") }),
        el("span", { class: "name", text: seatName(s) }),
        dealer ? el("span", { class: "badge", title: t("table.dealer"), text: t("table.dealer_short") }) : null,
        vorhand ? el("span", { class: "badge vorhand", title: t("table.vorhand"), text: t("table.vorhand_short") }) : null,
      ]),
      el("div", { class: "seat-info" }, [counts.join(" · ")]),
      flags.length ? el("div", { class: "seat-flags" }, [flags.join(" · ")]) : null,
      backs.childElementCount ? backs : null,
      laidOutBeside(view, s),
    ]));
  }
  const middle = el("div", { class: "trick-zone" });
  if (view) {
    const trick = el("div", { class: `trick seats-${n}`, "aria-label": t("table.current_trick"), id: "trick" });
    for (const play of view.trick || []) {
      trick.append(el("div", { class: `trick-card pos-${position(play.seat, n)}`, "data-seat": play.seat, title: seatName(play.seat) }, [
        cardElement(play.card, { badge: never.has(play.card) ? neverWinsBadge() : undefined }),
      ]));
    }
    middle.append(trick);
    if (view.last_trick) {
      const last = el("div", { class: "last-trick", id: "last-trick" }, [
        el("span", { class: "label", text: `${t("table.last_trick")}: ${seatName(view.last_trick.winner)}` }),
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
    const notReady = frame.seats.filter((/** @type {any} */ s) => s.kind === "human" && s.connected && !s.ready)
      .map((/** @type {any} */ s) => plainName(s.seat));
    if (ready && notReady.length) bar.append(el("span", { class: "note", text: t("table.next_waiting", { names: joinNames(notReady) }) }));
  }
  const { multi, simple } = groupActions(view);
  for (const a of simple) {
    bar.append(el("button", {
      type: "button", class: "act", "data-act": a.act, "data-type": a.type || "", disabled: waiting,
      title: actTitle(a), text: actLabel(a), onclick: () => act(a),
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
      const n = options[0].cards.length;
      bar.append(el("button", {
        type: "button", class: "act", "data-act": name, "data-select": "1", disabled: waiting || !match,
        text: `${actLabel(options[0])} (${t("table.selected", { n: selected.length })})`,
        onclick: () => match && act(match),
      }));
      if (!match) bar.append(el("span", { class: "note choose", text: n === 1 ? t("table.choose_1") : t("table.choose_n", { n }) }));
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
  // Cards I laid out stay in my hand until played; they carry the mark when they never win.
  const laidOut = new Set(view.laid_out || []);
  const never = new Set(view.never_wins || []);
  /** @param {string} card */
  const badge = (card) => (laidOut.has(card) && never.has(card) ? neverWinsBadge()
    : laidOut.has(card) ? { text: "▲", title: t("cego.laid_out"), kind: "laid" } : undefined);
  // Nothing to choose (another seat's turn, or a bid to make): the cards are shown plainly.
  const idle = plays.size === 0 && selectable.size === 0;
  const hand = el("div", { class: "hand" + (idle ? " idle" : ""), role: "group", "aria-label": t("table.hand"), id: "hand" });
  for (const card of view.hand) {
    if (plays.has(card)) {
      hand.append(cardElement(card, { legal: true, disabled: waiting, badge: badge(card), onClick: () => act({ act: "play", card }) }));
    } else if (selectable.has(card)) {
      const isSelected = selected.includes(card);
      hand.append(cardElement(card, {
        legal: true, selected: isSelected, disabled: waiting, badge: badge(card),
        onClick: () => {
          selected = isSelected ? selected.filter((c) => c !== card) : [...selected, card];
          render();
        },
      }));
    } else {
      hand.append(cardElement(card, { disabled: true, badge: badge(card), onClick: () => {} }));
    }
  }
  return el("section", { class: "panel hand-panel" }, [el("h2", { class: "sr-only", text: t("table.hand") }), hand]);
}

/** The declarer's own blind, laid-away and pressed cards (Cego), folded away once play starts. */
function blindPanel(/** @type {any} */ view) {
  return collapsible("my-blind", view.phase === "exchange", t("cego.my_blind"), [ownBlind(view)], "my-blind");
}

/** @param {any} view */
function resultPanel(view) {
  const children = [el("h2", { text: t("table.result") }), resultCard(view, ctx())];
  const hands = dealtHands(view, ctx());
  if (hands) children.push(collapsible("dealt-panel", true, t("table.dealt"), [hands], "inner"));
  if (frame.deal) {
    children.push(el("p", {}, [
      el("a", { href: `/d/${frame.deal.id}`, text: t("table.replay") }), " · ",
      el("a", { href: `/api/deals/${frame.deal.id}/record`, download: true, text: t("table.download") }),
    ]));
    // A person at the table may have their own decisions of the deal analysed.
    if (mySeat !== null && mySeat !== undefined) children.push(analysisPanel(frame.deal.id, null, { name: seatName }));
  }
  return el("section", { class: "panel result" }, children);
}

/** @param {any} view */
function historyPanel(view) {
  const list = el("ol", { class: "history", id: "history" });
  for (const entry of (view.history || []).slice(-40)) {
    const bits = [`${seatName(entry.seat)}: ${actLabel(entry)}`];
    if (entry.card) bits.push(" " + cardName(entry.card));
    if (entry.cards) bits.push(" " + entry.cards.map(cardName).join(", "));
    else if (entry.count) bits.push(` (${cardsText(entry.count)})`);
    list.append(el("li", { text: bits.join("") }));
  }
  return collapsible("history-panel", true, t("table.history"), [list]);
}

/** "1 Karte", "3 Karten". @param {number} n */
function cardsText(n) {
  return n === 1 ? t("table.card_1") : t("table.cards_n", { n });
}

/** A name short enough for a score sheet column on a phone. @param {string} name */
function shortName(name) {
  return name.length > 10 ? name.slice(0, 9) + "…" : name;
}

/** The sheet's column name on a phone: "C2" for a computer, a person's name cut to five letters. @param {number} seat */
function compactName(seat) {
  const entry = frame && frame.seats[seat];
  if (entry && entry.kind === "bot") return `${t("lobby.bot").slice(0, 1)}${seat + 1}`;
  const name = plainName(seat);
  return name.length > 6 ? name.slice(0, 5) + "…" : name;
}

function sheetPanel() {
  const sheet = frame.sheet;
  const head = el("tr", {}, [el("th", { text: "#" }), el("th", { text: "" }),
    ...frame.seats.map((/** @type {any} */ s) => el("th", {
      class: "num" + (s.seat === mySeat ? " me" : ""), title: plainName(s.seat),
    }, [
      el("span", { class: "name-long", text: shortName(plainName(s.seat)) }),
      el("span", { class: "name-short", text: compactName(s.seat) }),
    ]))]);
  const body = el("tbody");
  for (const row of sheet.rows) {
    const label = sheetLabel(info.game, row.label);
    body.append(el("tr", { class: row.counts ? "" : "void", title: row.counts ? undefined : t("table.not_counted") }, [
      el("td", { text: row.game_no === null ? "–" : String(row.game_no) }),
      el("td", { class: "label", text: label + (row.multiplier > 1 ? ` ×${row.multiplier}` : "") }),
      ...row.settlement.map((/** @type {number} */ v, /** @type {number} */ s) => el("td", {
        class: "num" + (v > 0 ? " plus" : v < 0 ? " minus" : "") + (s === mySeat ? " me" : ""), text: String(v),
      })),
    ]));
  }
  body.append(el("tr", { class: "total" }, [el("td", { text: "" }), el("td", { text: t("table.total") }),
    ...sheet.totals.map((/** @type {number} */ v, /** @type {number} */ s) => el("td", {
      class: "num" + (s === mySeat ? " me" : ""), text: String(v),
    }))]));
  return collapsible("sheet-panel", true, `${t("table.sheet")} (${sheet.counted}/${sheet.length})`, [
    el("div", { class: "scroll-x" }, [el("table", { class: "sheet", id: "sheet" }, [el("thead", {}, [head]), body])]),
  ]);
}

/**
 * The closing rounds as they stand now: every state frame's sheet carries them (the welcome's
 * table info says only what they were when this page connected).
 * @returns {string[]}
 */
function closingNow() {
  return frame.sheet.closing;
}

/**
 * The table's creator may change the closing rounds still to come (the server refuses, with
 * its reason, to change one that has begun): a ✕ per round, a button per round the rules allow.
 */
function closingEditor() {
  if (!tableMeta || !tableMeta.yours || frame.status === "finished" || !dealTypes.length || !profileDefaults) return null;
  const options = info.options || {};
  const allowed = dealTypes.filter((kind) => (kind in options ? options[kind] : profileDefaults[kind]) === true);
  const rounds = closingNow();
  if (!allowed.length && !rounds.length) return null;
  /** @param {string[]} next */
  async function change(next) {
    try {
      // The table broadcasts the changed sheet to every seat, this page included.
      await api(`/api/tables/${encodeURIComponent(tableId)}/closing_rounds`, { closing_rounds: next }, "PUT");
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  }
  const { list, adders } = closingRoundControls(rounds, allowed, "closing-edit-list", change);
  return el("div", { class: "closing-box", id: "closing-editor" }, [
    el("span", { class: "closing-title", text: t("lobby.closing") }),
    rounds.length ? list : el("span", { class: "note", text: ` ${t("lobby.closing_empty")}` }),
    el("div", { class: "closing-add" }, adders),
    el("small", { class: "setting-doc", text: t("table.closing_change") }),
  ]);
}

function rulesPanel() {
  const closing = closingNow();
  const special = Object.keys(info.options || {}).length > 0 || closing.length > 0;
  // Open while people gather, and through the first deal when the table changes the rules or
  // closes its list with special rounds.
  const openByDefault = frame.phase === "waiting" || (special && (!frame.deal || frame.deal.number === 0));
  return collapsible("rules-panel", openByDefault, t("table.settings"), [
    el("p", {}, [`${t("lobby.series")}: ${info.series_length} · ${t("lobby.time_limit")}: ${info.time_limit}`]),
    closingView({ ...info, closing_rounds: closing }, "closing"),
    closingEditor(),
    overridesView(info, profileDefaults, "rules", settingDocs),
    // Once play has begun the link still lets people watch (a private table needs it).
    frame.phase === "waiting" ? null : inviteLine("invite-watch-link"),
  ]);
}

await Promise.all([loadTexts(), loadAddress()]);
await redeemInvite();
connect();
