// @ts-check
// The table page: one websocket to the server, one store fed by its frames, and the table drawn
// by components (view.js: Preact with htm). A frame changes the store; the renderer patches only
// the nodes whose data changed (cards are keyed by their code), so a button that stays keeps its
// focus and a click that lands between two frames still lands. The server sends each seat only
// what the engine's view of that seat holds; this page never decides what is legal, it offers
// exactly the view's legal_actions, shows only what the view holds, and sorts the hand in the
// order the view gives (the engine's trumps of the game being played, then the Fehl suits).

import { analysisPanel } from "./analysis.js";
import { Card, CardBack } from "./card_view.js";
import { actLabel, actTitle, api, cardName, copyText, el, joinNames, loadAddress, loadTexts, publicOrigin, t, toast } from "./common.js";
import { dealtHands, gameLine, gamePanel, laidOutBeside, neverWinsBadge, ownBlind, resultCard } from "./panels.js";
import { closingRoundControls, closingView, overridesView, settingMeanings } from "./rules.js";
import { Dom, Store, html, render, useLayoutEffect, useRef, useStore } from "./view.js";
import { botKind, sheetLabel, tableTitle } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("table-app"));
const tableId = root.dataset.table || "";
const invite = new URLSearchParams(location.search).get("invite");

/**
 * Everything the page draws from.
 * @typedef {{
 *   frame: any, info: any, tableMeta: any, profileDefaults: any,
 *   settingDocs: Record<string, string>, dealTypes: string[], mySeat: number|null,
 *   waiting: boolean, selected: string[], gone: boolean
 * }} TableState
 */

/** @type {Store<TableState>} */
const store = new Store(/** @type {TableState} */ ({
  frame: null,          // the latest "state" frame
  info: null,           // the table's public info (from "welcome")
  tableMeta: null,      // the lobby record (invite link for the people at it)
  profileDefaults: null, // the profile's settings (to show overrides against)
  settingDocs: {},      // each setting's meaning (a tooltip on the rules table)
  dealTypes: [],        // the deal types the game may close a list with
  mySeat: null,
  waiting: false,       // an action was sent and not yet answered
  selected: [],         // cards chosen for a several-card action
  gone: false,          // no such table for this session
}));

/** @type {WebSocket|null} */ let socket = null;
let retry = 500;
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
    store.set({ waiting: false });
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
      store.set({ gone: true });
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
  const { waiting, frame } = store.state;
  if (waiting || !frame) return;
  /** @type {{act: string, card?: string, cards?: string[], type?: string}} */
  const body = { act: action.act };
  if (action.card) body.card = action.card;
  if (action.cards && action.cards.length) body.cards = action.cards;
  if (action.type) body.type = action.type;
  send({ type: "act", version: frame.version, action: body });
  store.set({ waiting: true, selected: [] });
}

/** @param {any} message */
function onFrame(message) {
  const state = store.state;
  if (message.type === "welcome") {
    store.set({ info: message.table, mySeat: message.you.seat });
    refreshMeta();
    loadDefaults();
  } else if (message.type === "state") {
    const old = state.frame;
    const changedDeal = !old || !old.deal || !message.deal || old.deal.id !== message.deal.id;
    store.set({ frame: message, mySeat: message.you, waiting: false, selected: changedDeal ? [] : state.selected });
  } else if (message.type === "presence") {
    // Who is here changed (someone came, left, or a stand-in bot took over): not the game.
    if (!state.frame) return;
    const seats = state.frame.seats.map((/** @type {any} */ seat) => {
      const s = message.seats.find((/** @type {any} */ p) => p.seat === seat.seat);
      return s ? { ...seat, connected: s.connected, bot_playing: s.bot_playing } : seat;
    });
    store.set({ frame: { ...state.frame, seats, spectators: message.spectators } });
  } else if (message.type === "error") {
    store.set({ waiting: false });
    toast(message.message);
  }
}

async function refreshMeta() {
  try {
    store.set({ tableMeta: (await api(`/api/tables/${encodeURIComponent(tableId)}`)).table });
  } catch (error) {
    store.set({ tableMeta: null });
  }
}

/** The profile's own settings, so the overrides can be shown beside what they replace, and the
 * deal types the game's closing rounds may be of. */
async function loadDefaults() {
  const { profileDefaults, info } = store.state;
  if (profileDefaults || !info) return;
  try {
    const games = (await api("/api/games")).games;
    const game = games.find((/** @type {any} */ g) => g.name === info.game);
    store.set({
      profileDefaults: game ? game.settings[info.profile] || {} : {},
      settingDocs: settingMeanings(game),
      dealTypes: game ? game.deal_types || [] : [],
    });
  } catch (error) {
    store.set({ profileDefaults: {} });
  }
}

// -- names and places ----------------------------------------------------------------------------

/**
 * A seat's name: the person's name, or "Computer 2" for a bot seat; "(du)" for the viewer.
 * @param {TableState} s
 * @param {number} seat
 */
function seatName(s, seat) {
  const name = plainName(s, seat);
  return seat === s.mySeat ? `${name} (${t("table.you")})` : name;
}

/** @param {TableState} s @param {number} seat */
function plainName(s, seat) {
  const entry = s.frame && s.frame.seats[seat];
  if (entry && entry.kind === "bot") return `${t("lobby.bot")} ${seat + 1}`;
  return entry && entry.name ? entry.name : t("table.seat_label", { n: seat + 1 });
}

/** @param {TableState} s @returns {import("./panels.js").Ctx} */
function ctx(s) {
  return { name: (seat) => seatName(s, seat), me: s.mySeat };
}

/** The seat's place around the table, seen from the viewer (bottom). */
function position(/** @type {number|null} */ mySeat, /** @type {number} */ seat, /** @type {number} */ n) {
  const base = mySeat === null ? 0 : mySeat;
  const rel = (seat - base + n) % n;
  const layouts = {
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
  };
  return (layouts[/** @type {3} */ (n)] || layouts[4])[rel];
}

/** "1 Karte", "3 Karten". @param {number} n */
function cardsText(n) {
  return n === 1 ? t("table.card_1") : t("table.cards_n", { n });
}

// -- components ------------------------------------------------------------------------------------

/**
 * A collapsible panel that stays as the person left it across frames.
 * @param {{id: string, openByDefault: boolean, summary: string, extraClass?: string, children?: any}} props
 */
function Collapsible({ id, openByDefault, summary, extraClass = "", children }) {
  const open = id in openState ? openState[id] : openByDefault;
  return html`<details class=${`panel ${extraClass}`.trim()} id=${id} open=${open}
    onToggle=${(/** @type {Event} */ e) => { openState[id] = /** @type {HTMLDetailsElement} */ (e.currentTarget).open; }}>
    <summary>${summary}</summary>${children}</details>`;
}

/** The whole page. */
function App() {
  const s = useStore(store);
  // For people: nothing. For tests and tools: where the table stands (set once the nodes are).
  useLayoutEffect(() => {
    if (!s.frame) return;
    root.dataset.version = String(s.frame.version);
    root.dataset.phase = s.frame.phase;
    root.dataset.waiting = s.waiting ? "1" : "";
  });
  if (s.gone) return html`<p class="panel note" id="no-table">${t("table.no_table")}</p>`;
  if (!s.frame || !s.info) return null;
  const view = s.frame.view;
  const withInfo = !!(view && !view.result);
  return html`
    <${Header} s=${s} view=${view} />
    ${s.frame.phase === "waiting" ? html`<${WaitingPanel} s=${s} />` : null}
    <div class=${"play-zone" + (withInfo ? " with-info" : "")}>
      <${TableArea} s=${s} view=${view} />
      ${view ? html`<${ActionBar} s=${s} view=${view} />` : null}
      ${view && view.hand && view.hand.length ? html`<${HandPanel} s=${s} view=${view} />`
        : s.mySeat === null ? html`<p class="note">${t("table.spectator")}</p>` : null}
      ${view && view.blind && view.declarer === s.mySeat && !view.result ? html`
        <${Collapsible} id="my-blind" openByDefault=${view.phase === "exchange"} summary=${t("cego.my_blind")} extraClass="my-blind">
          <${Dom} id="own-blind" build=${() => ownBlind(view)} deps=${[view]} />
        <//>` : null}
      ${withInfo ? html`<${Dom} id="game-panel" build=${() => gamePanel(view, ctx(s))} deps=${[view, s.frame.seats, s.mySeat]} />` : null}
    </div>
    ${view && view.result ? html`<${ResultPanel} s=${s} view=${view} />` : null}
    <div class="side">
      ${view ? html`<${HistoryPanel} s=${s} view=${view} />` : null}
      <${SheetPanel} s=${s} />
      <${RulesPanel} s=${s} />
    </div>`;
}

/** @param {{s: TableState, view: any}} props */
function Header({ s, view }) {
  const { frame, info, mySeat } = s;
  const line = gameLine(view, ctx(s));
  let status = "";
  if (frame.phase === "waiting") status = t("table.waiting");
  else if (frame.phase === "finished") status = t("table.series_over");
  else if (frame.phase === "stopped") status = t("table.stopped");
  else if (view && view.to_act !== null && view.to_act !== undefined && !view.result) {
    status = view.to_act === mySeat ? t("table.your_turn") : t("table.to_act", { name: seatName(s, view.to_act) });
  }
  const mine = view && view.to_act === mySeat && !view.result;
  return html`<header class="table-header">
    <strong>${tableTitle(info.game, info.profile)}</strong>
    ${frame.deal ? html`<span>${t("table.deal", { n: frame.deal.number + 1 })}</span>` : null}
    ${line ? html`<span class="game-line" id="game-line">${line}</span>` : null}
    ${frame.spectators ? html`<span class="watching" id="watching">${frame.spectators === 1 ? t("table.watching_1") : t("table.watching", { n: frame.spectators })}</span>` : null}
    <span class=${"status" + (mine ? " mine" : "")} id="status" role="status" aria-live="polite">${status}</span>
    <span class="offline-note">${t("table.reconnecting")}</span>
  </header>`;
}

/**
 * The invite link, for those the server shows it to (the creator and the people seated): it
 * lets a person sit down while seats are free, and watch, a private table too.
 * @param {{s: TableState, id: string}} props
 */
function InviteLine({ s, id }) {
  if (!s.tableMeta || !s.tableMeta.invite) return null;
  const link = `${publicOrigin()}/t/${tableId}?invite=${s.tableMeta.invite}`; // for other devices
  return html`<p class="invite">
    <label for=${id}>${t("table.invite") + ": "}</label>
    <input id=${id} readonly value=${link} size="48" />
    <button type="button" onClick=${() => copyText(link, /** @type {HTMLElement} */ (document.getElementById(id)))}>${t("table.copy")}</button>
  </p>`;
}

/** @param {{s: TableState}} props */
function WaitingPanel({ s }) {
  const { frame, info, mySeat, profileDefaults, settingDocs } = s;
  const closing = frame.sheet.closing;
  const free = mySeat === null && (info.public || invite)
    ? frame.seats.filter((/** @type {any} */ seat) => seat.kind === "human" && !seat.taken) : [];
  return html`<section class="panel waiting">
    <h2>${t("table.waiting")}</h2>
    <${InviteLine} s=${s} id="invite-link" />
    <${Dom} id="waiting-rules" build=${() => overridesView(info, profileDefaults, "waiting-rules", settingDocs)} deps=${[info, profileDefaults, settingDocs]} />
    <${Dom} id="waiting-closing" build=${() => closingView({ ...info, closing_rounds: closing }, "waiting-closing")} deps=${[info, closing.join(" ")]} />
    ${free.map((/** @type {any} */ seat) => html`<button type="button" class="primary" key=${seat.seat}
      data-join=${seat.seat} onClick=${() => takeSeat(seat.seat)}>${t("table.take_seat", { n: seat.seat + 1 })}</button>`)}
  </section>`;
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

/** @param {{s: TableState, view: any}} props */
function TableArea({ s, view }) {
  const n = s.info.seats;
  return html`<section class=${`table-area seats-${n}`} aria-label=${t("table.current_trick")}>
    ${s.frame.seats.map((/** @type {any} */ seat) => html`<${Seat} key=${seat.seat} s=${s} view=${view} seat=${seat} n=${n} />`)}
    <div class="trick-zone">${view ? html`<${Trick} s=${s} view=${view} n=${n} />` : null}</div>
  </section>`;
}

/** @param {{s: TableState, view: any, seat: any, n: number}} props */
function Seat({ s, view, seat, n }) {
  const { frame, mySeat } = s;
  const at = seat.seat;
  const toAct = view && view.to_act === at && !view.result;
  const size = view && view.hand_sizes ? view.hand_sizes[at] : null;
  const tricks = view && view.tricks_won ? view.tricks_won[at] : null;
  const sitting = (view && view.sitting === at) || (view && view.game === "cego" && view.seats === 5 && view.dealer === at);
  const flags = [];
  if (seat.bot_account) flags.push(t("table.bot_account"));  // a program plays it (bot websocket)
  if (seat.kind === "bot") flags.push(botKind(seat.name));  // "Computer – mittel", not its id
  else if (!seat.taken) flags.push(t("lobby.free"));
  else if (seat.bot_playing) flags.push(t("table.bot_plays"));
  else if (!seat.connected) flags.push(t("table.away"));
  if (seat.ready && frame.phase === "between") flags.push("✓ " + t("table.ready"));
  const dealer = (view && view.dealer === at) || (!view && frame.deal && frame.deal.dealer === at);
  const vorhand = view && view.vorhand === at && !view.result;
  const counts = [];
  if (sitting) counts.push(t("table.sits_out"));
  else {
    if (size !== null && size !== undefined) counts.push(cardsText(size));
    if (tricks !== null && tricks !== undefined) counts.push(tricks === 1 ? t("table.trick_1") : t("table.tricks_n", { n: tricks }));
  }
  const backs = at !== mySeat && size ? Math.min(size, 6) : 0;
  const laid = view && view.game === "cego" && view.declarer === at && (view.laid_out || []).length;
  return html`<div class=${`seat pos-${position(mySeat, at, n)}` + (toAct ? " to-act" : "") + (at === mySeat ? " me" : "")} data-seat=${at}>
    <div class="seat-name">
      <span class=${"dot" + (seat.connected || seat.kind === "bot" ? " on" : "")}></span>
      <span class="name">${seatName(s, at)}</span>
      ${dealer ? html`<span class="badge" title=${t("table.dealer")}>${t("table.dealer_short")}</span>` : null}
      ${vorhand ? html`<span class="badge vorhand" title=${t("table.vorhand")}>${t("table.vorhand_short")}</span>` : null}
    </div>
    <div class="seat-info">${counts.join(" · ")}</div>
    ${flags.length ? html`<div class="seat-flags">${flags.join(" · ")}</div>` : null}
    ${backs ? html`<div class="backs">${Array.from({ length: backs }, (_, i) => html`<${CardBack} key=${i} />`)}</div>` : null}
    ${laid ? html`<${Dom} id=${`laid-${at}`} build=${() => laidOutBeside(view, at)} deps=${[view]} />` : null}
  </div>`;
}

/** @param {{s: TableState, view: any, n: number}} props */
function Trick({ s, view, n }) {
  const never = new Set(view.never_wins || []);
  const last = view.last_trick;
  return html`
    <div class=${`trick seats-${n}`} role="group" aria-label=${t("table.current_trick")} id="trick">
      ${(view.trick || []).map((/** @type {any} */ play) => html`<div key=${`${play.seat}:${play.card}`}
        class=${`trick-card pos-${position(s.mySeat, play.seat, n)}`} data-seat=${play.seat} title=${seatName(s, play.seat)}>
        <${Card} code=${play.card} badge=${never.has(play.card) ? neverWinsBadge() : undefined} />
      </div>`)}
    </div>
    ${last ? html`<div class="last-trick" id="last-trick">
      <span class="label">${`${t("table.last_trick")}: ${seatName(s, last.winner)}`}</span>
      ${last.cards.map((/** @type {any} */ entry, /** @type {number} */ i) => html`<${Card} key=${i} small code=${typeof entry === "string" ? entry : entry.card} />`)}
    </div>` : null}`;
}

/**
 * The view's legal actions for this seat, grouped for the buttons.
 * @param {TableState} s
 * @param {any} view
 */
function groupActions(s, view) {
  const legal = s.mySeat !== null && !view.result ? view.legal_actions || [] : [];
  /** @type {Set<string>} */ const plays = new Set();
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

/** @param {{s: TableState, view: any}} props */
function ActionBar({ s, view }) {
  const { frame, mySeat, waiting, selected } = s;
  const buttons = [];
  if (frame.phase === "between" && mySeat !== null) {
    const ready = frame.seats[mySeat] && frame.seats[mySeat].ready;
    buttons.push(html`<button type="button" class="primary" id="next-deal" key="next" disabled=${!!ready}
      onClick=${() => send({ type: "next" })}>${t("table.next")}</button>`);
    const notReady = frame.seats.filter((/** @type {any} */ x) => x.kind === "human" && x.connected && !x.ready)
      .map((/** @type {any} */ x) => plainName(s, x.seat));
    if (ready && notReady.length) buttons.push(html`<span class="note" key="next-note">${t("table.next_waiting", { names: joinNames(notReady) })}</span>`);
  }
  const { multi, simple } = groupActions(s, view);
  for (const a of simple) {
    buttons.push(html`<button type="button" class="act" key=${`${a.act}:${a.type || ""}`} data-act=${a.act}
      data-type=${a.type || ""} disabled=${waiting} title=${actTitle(a)} onClick=${() => act(a)}>${actLabel(a)}</button>`);
  }
  for (const [name, options] of multi) {
    if (options.length <= 8) {
      // Few choices: one button each, naming the cards.
      for (const a of options) {
        const names = a.cards.map(cardName).join(", ");
        buttons.push(html`<button type="button" class="act" key=${`${name}:${a.cards.join(" ")}`} data-act=${name}
          data-cards=${a.cards.join(" ")} disabled=${waiting} title=${names} onClick=${() => act(a)}>${`${actLabel(a)}: ${names}`}</button>`);
      }
    } else {
      const match = options.find((a) => sameCards(a.cards, selected));
      const n = options[0].cards.length;
      buttons.push(html`<button type="button" class="act" key=${`${name}:select`} data-act=${name} data-select="1"
        disabled=${waiting || !match} onClick=${() => match && act(match)}>${`${actLabel(options[0])} (${t("table.selected", { n: selected.length })})`}</button>`);
      if (!match) buttons.push(html`<span class="note choose" key=${`${name}:choose`}>${n === 1 ? t("table.choose_1") : t("table.choose_n", { n })}</span>`);
    }
  }
  return html`<section class="actions" aria-label=${t("table.actions")}>${buttons}</section>`;
}

/** The hand's keyboard state: whether the person works the hand by keyboard, and the card last
 * focused there (a card that becomes unplayable loses the browser's focus: it comes back to the
 * hand when the person may act again). */
/** @type {{inHand: boolean, card: string|null}} */
const handFocus = { inHand: false, card: null };

/** @param {{s: TableState, view: any}} props */
function HandPanel({ s, view }) {
  const { waiting, selected } = s;
  const { plays, multi } = groupActions(s, view);
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
  // The hand as players hold it: the Doppelkopf view's hand_sorted (the engine's order of the
  // game in force); Cego's view lists its hand so already.
  /** @type {string[]} */ const cards = view.hand_sorted || view.hand || [];
  const enabled = waiting ? [] : cards.filter((c) => plays.has(c) || selectable.has(c));
  // One card of the hand is in the tab order (arrow keys move within the hand).
  const current = handFocus.card && enabled.includes(handFocus.card) ? handFocus.card : enabled[0];
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  useLayoutEffect(() => {
    // A person playing by keyboard whose focus fell out with an unplayable card gets it back.
    const active = document.activeElement;
    if (!handFocus.inHand || !current || !ref.current) return;
    if (active && active !== document.body && !ref.current.contains(active)) return;
    const button = /** @type {HTMLElement|null} */ (ref.current.querySelector(`button[data-card="${current}"]`));
    // Without scrolling: a person reading the score sheet further down stays where they are.
    if (button && active !== button) button.focus({ preventScroll: true });
  });
  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const keys = ["ArrowLeft", "ArrowRight", "Home", "End"];
    if (!keys.includes(event.key) || !ref.current) return;
    const buttons = /** @type {HTMLElement[]} */ ([...ref.current.querySelectorAll("button.card:not([disabled])")]);
    if (!buttons.length) return;
    const at = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const next = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1
      : event.key === "ArrowLeft" ? Math.max(0, at - 1) : Math.min(buttons.length - 1, at + 1);
    buttons[next].focus();
    event.preventDefault();
  }
  /** @param {FocusEvent} event */
  function onFocusOut(event) {
    // Leaving the hand on purpose (Tab, a click elsewhere) ends the keyboard hold; a card that
    // is disabled under the focus drops it to nowhere (relatedTarget null) and keeps it.
    const to = /** @type {Node|null} */ (event.relatedTarget);
    if (to && ref.current && !ref.current.contains(to)) handFocus.inHand = false;
  }
  return html`<section class="panel hand-panel">
    <h2 class="sr-only">${t("table.hand")}</h2>
    <div class=${"hand" + (idle ? " idle" : "")} role="group" aria-label=${t("table.hand")} id="hand" ref=${ref}
      data-count=${cards.length} onKeyDown=${onKey} onFocusOut=${onFocusOut}>
      ${cards.map((card, i) => {
        const focus = () => { handFocus.inHand = true; handFocus.card = card; };
        // A Doppelkopf hand holds each card up to twice: the second one is keyed apart (two
        // equal keys would let a frame swap or drop a button), and only the first takes the tab.
        const twin = cards.indexOf(card) !== i;
        const key = twin ? `${card}:2` : card;
        const tab = card === current && !twin ? 0 : -1;
        if (plays.has(card)) {
          return html`<${Card} key=${key} code=${card} legal disabled=${waiting} badge=${badge(card)} tabIndex=${tab}
            onFocus=${focus} onClick=${() => act({ act: "play", card })} />`;
        }
        if (selectable.has(card)) {
          const isSelected = selected.includes(card);
          return html`<${Card} key=${key} code=${card} legal selected=${isSelected} disabled=${waiting} badge=${badge(card)}
            tabIndex=${tab} onFocus=${focus} onClick=${() => store.set({
              selected: isSelected ? store.state.selected.filter((c) => c !== card) : [...store.state.selected, card],
            })} />`;
        }
        return html`<${Card} key=${key} code=${card} disabled badge=${badge(card)} tabIndex=${-1} onClick=${() => {}} />`;
      })}
    </div>
  </section>`;
}

/** @param {{s: TableState, view: any}} props */
function ResultPanel({ s, view }) {
  const { frame, mySeat } = s;
  const c = ctx(s);
  return html`<section class="panel result">
    <h2>${t("table.result")}</h2>
    <${Dom} id="result-card" build=${() => resultCard(view, c)} deps=${[view, mySeat]} />
    ${view.deal ? html`<${Collapsible} id="dealt-panel" openByDefault=${true} summary=${t("table.dealt")} extraClass="inner">
      <${Dom} id="dealt" build=${() => dealtHands(view, c)} deps=${[view, mySeat]} />
    <//>` : null}
    ${frame.deal ? html`<p>
      <a href=${`/d/${frame.deal.id}`}>${t("table.replay")}</a>${" · "}
      <a href=${`/api/deals/${frame.deal.id}/record`} download>${t("table.download")}</a>
    </p>` : null}
    ${frame.deal && mySeat !== null && mySeat !== undefined
      ? html`<${Dom} id="analysis" build=${() => analysisPanel(frame.deal.id, null, { name: c.name })} deps=${[frame.deal.id]} />` : null}
  </section>`;
}

/** @param {{s: TableState, view: any}} props */
function HistoryPanel({ s, view }) {
  const entries = (view.history || []).slice(-40);
  const ref = useRef(/** @type {HTMLOListElement|null} */ (null));
  // The newest entries of the history are the ones to see. The list scrolls, so a keyboard
  // can reach it (tabindex; WCAG 2.1.1).
  useLayoutEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [(view.history || []).length]);
  return html`<${Collapsible} id="history-panel" openByDefault=${true} summary=${t("table.history")}>
    <ol class="history" id="history" ref=${ref} tabindex="0" aria-label=${t("table.history")}>
      ${entries.map((/** @type {any} */ entry, /** @type {number} */ i) => {
        const bits = [`${seatName(s, entry.seat)}: ${actLabel(entry)}`];
        if (entry.card) bits.push(" " + cardName(entry.card));
        if (entry.cards) bits.push(" " + entry.cards.map(cardName).join(", "));
        else if (entry.count) bits.push(` (${cardsText(entry.count)})`);
        return html`<li key=${(view.history || []).length - entries.length + i}>${bits.join("")}</li>`;
      })}
    </ol>
  <//>`;
}

/** A name short enough for a score sheet column on a phone. @param {string} name */
function shortName(name) {
  return name.length > 10 ? name.slice(0, 9) + "…" : name;
}

/** The sheet's column name on a phone: "C2" for a computer, a person's name cut to five letters.
 * @param {TableState} s @param {number} seat */
function compactName(s, seat) {
  const entry = s.frame && s.frame.seats[seat];
  if (entry && entry.kind === "bot") return `${t("lobby.bot").slice(0, 1)}${seat + 1}`;
  const name = plainName(s, seat);
  return name.length > 6 ? name.slice(0, 5) + "…" : name;
}

/** @param {{s: TableState}} props */
function SheetPanel({ s }) {
  const { frame, info, mySeat } = s;
  const sheet = frame.sheet;
  /** @param {number} v @param {number} seat */
  const cell = (v, seat) => html`<td class=${"num" + (v > 0 ? " plus" : v < 0 ? " minus" : "") + (seat === mySeat ? " me" : "")}>${String(v)}</td>`;
  return html`<${Collapsible} id="sheet-panel" openByDefault=${true} summary=${`${t("table.sheet")} (${sheet.counted}/${sheet.length})`}>
    <div class="scroll-x"><table class="sheet" id="sheet">
      <thead><tr><th>#</th><th></th>
        ${frame.seats.map((/** @type {any} */ x) => html`<th class=${"num" + (x.seat === mySeat ? " me" : "")} title=${plainName(s, x.seat)}>
          <span class="name-long">${shortName(plainName(s, x.seat))}</span><span class="name-short">${compactName(s, x.seat)}</span>
        </th>`)}
      </tr></thead>
      <tbody>
        ${sheet.rows.map((/** @type {any} */ row, /** @type {number} */ i) => html`<tr key=${i} class=${row.counts ? "" : "void"}
          title=${row.counts ? undefined : t("table.not_counted")}>
          <td>${row.game_no === null ? "–" : String(row.game_no)}</td>
          <td class="label">${sheetLabel(info.game, row.label) + (row.multiplier > 1 ? ` ×${row.multiplier}` : "")}</td>
          ${row.settlement.map(cell)}
        </tr>`)}
        <tr class="total" key="total"><td></td><td>${t("table.total")}</td>
          ${sheet.totals.map((/** @type {number} */ v, /** @type {number} */ seat) => html`<td class=${"num" + (seat === mySeat ? " me" : "")}>${String(v)}</td>`)}
        </tr>
      </tbody>
    </table></div>
  <//>`;
}

/**
 * The table's creator may change the closing rounds still to come (the server refuses, with
 * its reason, to change one that has begun): a ✕ per round, a button per round the rules allow.
 * @param {TableState} s
 */
function closingEditor(s) {
  const { tableMeta, frame, dealTypes, profileDefaults, info } = s;
  if (!tableMeta || !tableMeta.yours || frame.status === "finished" || !dealTypes.length || !profileDefaults) return null;
  const options = info.options || {};
  const allowed = dealTypes.filter((kind) => (kind in options ? options[kind] : profileDefaults[kind]) === true);
  const rounds = frame.sheet.closing;
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

/** @param {{s: TableState}} props */
function RulesPanel({ s }) {
  const { frame, info, profileDefaults, settingDocs, tableMeta, dealTypes } = s;
  const closing = frame.sheet.closing;
  const special = Object.keys(info.options || {}).length > 0 || closing.length > 0;
  // Open while people gather, and through the first deal when the table changes the rules or
  // closes its list with special rounds.
  const openByDefault = frame.phase === "waiting" || (special && (!frame.deal || frame.deal.number === 0));
  const closingKey = closing.join(" ");
  return html`<${Collapsible} id="rules-panel" openByDefault=${openByDefault} summary=${t("table.settings")}>
    <p>${`${t("lobby.series")}: ${info.series_length} · ${t("lobby.time_limit")}: ${info.time_limit}`}</p>
    <${Dom} id="closing" build=${() => closingView({ ...info, closing_rounds: closing }, "closing")} deps=${[info, closingKey]} />
    <${Dom} id="closing-editor" build=${() => closingEditor(s)} deps=${[tableMeta, frame.status, dealTypes, profileDefaults, info, closingKey]} />
    <${Dom} id="rules" build=${() => overridesView(info, profileDefaults, "rules", settingDocs)} deps=${[info, profileDefaults, settingDocs]} />
    ${frame.phase === "waiting" ? null : html`<${InviteLine} s=${s} id="invite-watch-link" />`}
  <//>`;
}

await Promise.all([loadTexts(), loadAddress()]);
render(html`<${App} />`, root);
await redeemInvite();
connect();
