// @ts-check
// A score sheet's page: the running list (a row per deal, a column per player, totals, whose deal
// is next, Pflicht-Soli, Bock, the checks, the end), the entry form with the scored line before
// saving, corrections and deletions, sharing, export and print. It keeps working offline: the
// list and every entry made here are kept on the phone (sheet_store.js) before they are sent,
// waiting entries are scored on the phone by the server's own Python (sheet_worker.js), and they
// are sent, with their idempotency keys, as soon as the server can be reached.

import { copyText, el, formatNumber, joinNames, loadAddress, loadTexts, lookup, publicOrigin, refusalText, signed, t, tOr, toast, warnIfLoopback } from "./common.js";
import { resultCard } from "./panels.js";
import { deckPoints, entryForm, summaryLabel } from "./sheet_form.js";
import * as store from "./sheet_store.js";
import { announcementName, cegoDealName, closingRoundsText, extraName, gameTypeShort, partyName, tableTitle } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("sheet-app"));
const token = root.dataset.token || "";

/** @type {import("./sheet_store.js").KeptList|null} */ let list = null;
/** @type {import("./sheet_store.js").Outgoing[]} */ let outbox = [];
/** The list with this phone's waiting entries, scored on the phone. @type {any} */ let local = null;
let online = navigator.onLine;
let syncing = false;
let retryTimer = 0;
/** @type {WebSocket|null} */ let socket = null;
let socketRetry = 500;
/** The deal being corrected, or null for a new deal. @type {{entry: string, version: number, row: any}|null} */
let editing = null;
/** The row shown with its result card. @type {string|null} */ let shown = null;
/** @type {ReturnType<typeof entryForm>|null} */ let form = null;
let formMoment = "";
/** The last preview: a row or a refusal. @type {{row?: any, error?: string}|null} */ let preview = null;
let previewTimer = 0;
let previewRun = 0;

// -- talking to the server -------------------------------------------------------------------------

/**
 * A JSON request that tells a network failure (``network``) from the server's refusal.
 * @param {string} path
 * @param {any} [body]
 * @returns {Promise<{ok: boolean, status: number, data: any, network: boolean}>}
 */
async function request(path, body) {
  /** @type {RequestInit} */
  const init = { credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    init.method = "POST";
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, init);
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, data, network: false };
  } catch (error) {
    return { ok: false, status: 0, data: {}, network: true };
  }
}

/** @param {boolean} value */
function setOnline(value) {
  if (online === value) return;
  online = value;
  render();
}

/** Bring the phone's copy of the change log up to the server's. */
async function fetchLog() {
  if (!list) return;
  const since = list.log.length > list.seq ? 0 : list.log.length;
  const got = await request(`/api/sheets/${token}/changes?since=${since}`);
  if (!got.ok) return;
  const changes = got.data.changes.map((/** @type {any} */ c) => c.change);
  list.log = since === 0 ? changes : [...list.log, ...changes];
  list.settings = got.data.settings;
}

/**
 * The server's answer to a change or a frame: adopt its sheet and follow the log. A part of the
 * sheet (``base`` > 0) holds the rows from index ``from`` on (the rows before it are as they
 * were at position ``base`` of the log), a row that only moved or changed its running totals as
 * ``{id, index, totals, same: true}``: it applies to a sheet at ``base`` or later; a page
 * further behind reads the whole sheet anew.
 * @param {number} seq
 * @param {any} sheet
 * @param {any} change the change stored at ``seq`` (if known)
 * @param {number} [from] the index of the sheet's first row (0: the whole sheet)
 * @param {number} [base] the position a part applies to
 */
async function adopt(seq, sheet, change, from = 0, base = 0) {
  if (!list || seq < list.seq) return;
  if (from > 0 || base > 0) {
    if (base > list.seq || !list.sheet || list.sheet.rows.length < from) {
      await reload();
      return;
    }
    const had = new Map(list.sheet.rows.map((/** @type {any} */ r) => [r.id, r]));
    const rows = [];
    for (const row of sheet.rows) {
      const old = row.same ? had.get(row.id) : row;
      if (!old) {
        await reload();
        return;
      }
      rows.push(row.same ? { ...old, index: row.index, totals: row.totals } : row);
    }
    sheet = { ...sheet, rows: [...list.sheet.rows.slice(0, from), ...rows] };
  }
  list.sheet = sheet;
  if (change && seq === list.log.length + 1) list.log.push(change);
  list.seq = seq;
  if (list.log.length !== seq) await fetchLog();
  list.seen = Date.now();
  root.dataset.seq = String(list.seq);
  await store.keepList(list);
}

/** Read the whole sheet anew (a part came that this page is too far behind for). */
async function reload() {
  const got = await request(`/api/sheets/${token}`);
  // Offline: the sheet stays as it was; the socket's first frame on reconnecting is whole.
  if (got.ok && list) await adopt(got.data.seq, got.data.sheet, null);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/sheets/${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => {
    socketRetry = 500;
    setOnline(true);
    sync();
  });
  socket.addEventListener("message", async (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type !== "sheet") return;
    // A whole sheet the same as the one shown (the first frame after the page's own request,
    // the echo of its own change) is not drawn again: a redraw between the press and the
    // release of a click replaces what was pressed, and the click is lost.
    const same = list && frame.seq === list.seq && !frame.from && !frame.base && JSON.stringify(frame.sheet) === JSON.stringify(list.sheet);
    if (!same) {
      await adopt(frame.seq, frame.sheet, frame.change, frame.from || 0, frame.base || 0);
      await rescore();
      render();
    }
    root.dataset.frames = String(Number(root.dataset.frames || 0) + 1); // frames taken in
  });
  socket.addEventListener("close", () => {
    socket = null;
    setTimeout(connect, socketRetry);
    socketRetry = Math.min(socketRetry * 2, 8000);
  });
}

/** Send every waiting entry, oldest first; a refusal is kept and shown, never dropped. */
async function sync() {
  if (syncing || !list) return;
  const waiting = outbox.filter((o) => o.state === "waiting");
  if (!waiting.length) return;
  syncing = true;
  render();
  try {
    for (const item of waiting) {
      const got = await request(`/api/sheets/${token}/changes`, item.change);
      if (got.network) {
        setOnline(false);
        break;
      }
      setOnline(true);
      if (got.ok) {
        await store.done(item.key);
        const applied = got.data.applied;
        await adopt(got.data.seq, got.data.sheet, applied.duplicate ? null : { ...item.change, key: applied.key, entry: applied.entry },
          got.data.from || 0, got.data.base || 0);
      } else if (got.status >= 500 || got.status === 429) {
        break;
      } else {
        await store.refused(item, got.data.error || String(got.status), got.status === 409);
      }
    }
  } finally {
    syncing = false;
    outbox = await store.outgoing(token);
    await rescore();
    render();
    clearTimeout(retryTimer);
    if (outbox.some((o) => o.state === "waiting")) retryTimer = window.setTimeout(sync, 3000);
  }
}

// -- scoring on the phone ------------------------------------------------------------------------

/** @type {Worker|null} */ let worker = null;
let scorerReady = false;
let callId = 0;
/** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
const calls = new Map();

/** Start the phone's scorer (a scorer's page only, once the page may work offline). */
async function startScorer() {
  if (!list || list.role !== "scorer" || !root.dataset.pyodide) {
    root.dataset.scorer = "server";
    return;
  }
  await offlineReady;
  worker = new Worker(root.dataset.worker || "");
  worker.onmessage = (event) => {
    const message = event.data;
    if ("ready" in message) {
      scorerReady = Boolean(message.ready);
      root.dataset.scorer = scorerReady ? "phone" : "server";
      if (!scorerReady) console.warn("the phone's scorer did not start:", message.error);
      markOffline();
      rescore().then(render);
      return;
    }
    const call = calls.get(message.id);
    if (!call) return;
    calls.delete(message.id);
    if (message.error) call.reject(new Error(message.error));
    else call.resolve(JSON.parse(message.result));
  };
  worker.postMessage({ init: { pyodide: root.dataset.pyodide, zip: root.dataset.zip } });
}

/**
 * Ask the phone's scorer (stichwerk.sheet.log.phone).
 * @param {any} call
 * @returns {Promise<any>}
 */
function phone(call) {
  return new Promise((resolve, reject) => {
    if (!worker || !scorerReady || !list) {
      reject(new Error("the phone's scorer is not ready"));
      return;
    }
    callId += 1;
    calls.set(callId, { resolve, reject });
    worker.postMessage({ id: callId, request: JSON.stringify({ settings: list.settings, log: list.log, ...call }) });
  });
}

/** The waiting changes, in order. */
function waitingChanges() {
  return outbox.filter((o) => o.state === "waiting").map((o) => o.change);
}

let rescoreRun = 0;

/** Score the list with the waiting entries on the phone (when there are some). Only the latest
 * call counts: an answer that comes after a newer call (the outbox changed meanwhile) is dropped. */
async function rescore() {
  const run = ++rescoreRun;
  const pending = waitingChanges();
  if (!pending.length || !scorerReady) {
    local = null;
    return;
  }
  const got = await phone({ pending }).catch(() => null);
  if (run === rescoreRun) local = got;
}

/** The sheet to show: the server's, or the phone's with its waiting entries. */
function view() {
  if (local && local.deleted && !local.sheet.deleted) local.sheet.deleted = local.deleted;
  return local ? local.sheet : list ? list.sheet : null;
}

// -- offline ---------------------------------------------------------------------------------------

/** @type {(value?: any) => void} */ let offlineDone = () => {};
const offlineReady = new Promise((resolve) => { offlineDone = resolve; });

/** Register the service worker and keep this page, so it opens with no connection. */
async function installOffline() {
  if (!("serviceWorker" in navigator)) {
    offlineDone();
    return;
  }
  try {
    await navigator.serviceWorker.register("/s/sw.js", { scope: "/s/" });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
        setTimeout(resolve, 3000);
      });
    }
    const pages = await caches.open("stichwerk-sheet-pages");
    await pages.add(location.pathname);
    root.dataset.sw = "1";
  } catch (error) {
    console.warn("offline use is not available:", error);
  }
  offlineDone();
  markOffline();
}

function markOffline() {
  const need = list && list.role === "scorer" && root.dataset.pyodide ? scorerReady : true;
  if (root.dataset.sw === "1" && need) root.dataset.offline = "ready";
}

// -- entering --------------------------------------------------------------------------------------

/** A new idempotency key or entry id. */
function newId() {
  return crypto.randomUUID();
}

/**
 * Keep a change on the phone, show it at once (scored on the phone), and send it.
 * @param {any} change
 */
async function enter(change) {
  await store.queue(token, change);
  outbox = await store.outgoing(token);
  await rescore();
  render();
  sync();
}

async function save() {
  if (!form) return;
  const summary = form.summary();
  if (!summary) {
    toast(t("sheet.incomplete"));
    return;
  }
  if (preview && preview.error) {
    toast(refusalText(preview.error));
    return;
  }
  const change = editing
    ? { op: "correct", entry: editing.entry, base: editing.version, summary, key: newId() }
    : { op: "add", entry: newId(), summary, key: newId() };
  editing = null;
  formMoment = "";
  preview = null;
  await enter(change);
}

/** @param {any} row */
async function remove(row) {
  if (!confirm(t("sheet.delete_confirm", { n: row.index }))) return;
  shown = null;
  await enter({ op: "delete", entry: row.id, base: row.version, key: newId() });
}

/** @param {any} row */
function correct(row) {
  editing = { entry: row.id, version: row.version, row };
  shown = null;
  formMoment = "";
  render();
  if (form) form.fill(row.summary);
  document.getElementById("entry")?.scrollIntoView({ block: "start" });
}

/** The form changed: the line shown is no longer its line (and Save waits for the new one). */
function schedulePreview() {
  previewRun += 1;
  if (preview) {
    preview = null;
    drawPreview();
  }
  clearTimeout(previewTimer);
  previewTimer = window.setTimeout(runPreview, 120);
}

async function runPreview() {
  if (!form || !list) return;
  const run = ++previewRun;
  const summary = form.summary();
  if (!summary) {
    preview = null;
    drawPreview();
    return;
  }
  /** @type {{row?: any, error?: string}|null} */ let got = null;
  if (scorerReady) {
    try {
      const answer = await phone({ pending: waitingChanges(), preview: { summary, entry: editing ? editing.entry : undefined } });
      got = answer.preview;
    } catch (error) {
      got = null;
    }
  }
  if (!got) {
    const asked = await request(`/api/sheets/${token}/preview`, { summary, ...(editing ? { entry: editing.entry } : {}) });
    if (asked.network) got = { error: t("sheet.preview_offline") };
    else got = asked.ok ? { row: asked.data.row } : { error: asked.data.error };
  }
  if (run !== previewRun) return;
  preview = got;
  drawPreview();
}

function drawPreview() {
  const box = document.getElementById("preview");
  const button = /** @type {HTMLButtonElement|null} */ (document.getElementById("save"));
  if (!box || !list) return;
  if (!preview) {
    box.replaceChildren(el("p", { class: "note", text: t("sheet.preview_hint") }));
    if (button) button.disabled = true;
    return;
  }
  if (preview.error) {
    box.replaceChildren(el("p", { class: "refusal", id: "preview-error", role: "alert", text: refusalText(preview.error) }));
    if (button) button.disabled = true;
    return;
  }
  const row = preview.row;
  box.replaceChildren(settlementLine(row, "preview-line"), rowCard(row));
  if (button) button.disabled = false;
  root.dataset.preview = JSON.stringify(row.settlement);
}

// -- drawing ---------------------------------------------------------------------------------------

/** The players' names (or the seats numbered). @returns {string[]} */
function names() {
  const s = view();
  const given = s ? s.list.names : [];
  const seats = s ? s.list.seats : 4;
  return given.length ? given : Array.from({ length: seats }, (_, i) => t("table.seat_label", { n: i + 1 }));
}

/** @param {number} seat */
function nameOf(seat) {
  return names()[seat] ?? `#${seat + 1}`;
}

/** A row's game in words: the contract or game type, a redeal, a closing round. @param {any} row */
function rowLabel(row) {
  const s = view();
  const game = s ? s.list.game : "";
  const summary = row.summary || {};
  if (summary.redeal) return `${tOr(`act.${summary.redeal}`, summary.redeal)}`;
  if (game === "cego") return cegoDealName(summary.contract, row.deal_type);
  if (summary.hochzeit) return t("sheet.hochzeit_alone");
  return gameTypeShort(summary.game_type || row.label);
}

/**
 * The deal's line as the sheet writes it: "Anna +3 · Bernd 0 ...".
 * @param {any} row
 * @param {string} id
 */
function settlementLine(row, id) {
  return el("p", { class: "settlement-line", id }, row.settlement.map((/** @type {number} */ v, /** @type {number} */ seat) =>
    el("span", { class: `${v > 0 ? "plus" : v < 0 ? "minus" : "zero"}${seat === row.sitting ? " sits" : ""}`, "data-seat": seat, text: `${nameOf(seat)} ${signed(v)}` })));
}

/**
 * The result card of a deal on the sheet: the online result card, drawn from the summary and
 * the engine's score.
 * @param {any} row
 */
function rowCard(row) {
  const s = view();
  const ctx = { name: nameOf, me: null };
  const summary = row.summary;
  if (s && s.list.game === "cego") {
    /** @type {any} */ const r = {
      game: "cego", contract: summary.contract, declarer: summary.declarer ?? null, gegensolo: Boolean(summary.gegensolo),
      value: row.score.value, score: row.score, announcer: summary.announcer,
    };
    if (summary.contract === "raeuber") {
      r.card_points = { seats: summary.points, out_of_play: summary.out_of_play };
      r.tricks = summary.tricks;
    } else if (typeof summary.declarer_points === "number") {
      const total = list ? deckPoints(list.rules) : 79;
      r.card_points = { declarer: summary.declarer_points, defenders: total - summary.declarer_points };
    }
    if (typeof summary.last_trick_with_geiss === "boolean") r.last_trick_with_geiss = summary.last_trick_with_geiss;
    if (summary.aufdecken) r.aufgedeckt = { schinder: summary.aufdecken.schinder };
    return resultCard({ game: "cego", deal_type: row.deal_type, result: r }, ctx);
  }
  if (summary.redeal) {
    const history = summary.redeal_by === undefined ? [] : [{ act: summary.redeal, seat: summary.redeal_by }];
    return resultCard({ game: "doppelkopf", history, result: { game: "doppelkopf", redeal: summary.redeal, score: row.score } }, ctx);
  }
  const dealt = names().map((_, seat) => seat).filter((seat) => seat !== row.sitting);
  /** @type {any} */ const r = {
    game: "doppelkopf", game_type: summary.game_type, re: summary.re, kontra: dealt.filter((x) => !summary.re.includes(x)),
    soloist: summary.game_type.startsWith("solo-") ? summary.re[0] : null, duty_solo: row.duty_solo_by !== null,
    announcements: summary.announcements || {}, score: row.score,
  };
  if (summary.verworfen_by !== undefined) r.forfeit = summary.verworfen_by;
  else r.augen = { re: summary.re_augen, kontra: 240 - summary.re_augen };
  if (summary.hochzeit) r.hochzeit = { seat: summary.re[0] };
  return resultCard({ game: "doppelkopf", history: [], result: r }, ctx);
}

function header() {
  const s = view();
  if (!s || !list) return el("div");
  const waiting = outbox.filter((o) => o.state === "waiting").length;
  let state;
  if (!online) state = waiting ? t("sheet.offline_waiting", { n: waiting }) : t("sheet.offline");
  else if (waiting) state = t("sheet.sending", { n: waiting });
  else state = t("sheet.online");
  root.dataset.waiting = String(waiting);
  root.dataset.online = online ? "1" : "0";
  return el("header", { class: "sheet-header" }, [
    el("h1", { id: "sheet-title", text: s.list.title || tableTitle(s.list.game, s.list.profile) }),
    s.list.title ? el("span", { class: "note", text: tableTitle(s.list.game, s.list.profile) }) : null,
    el("span", { class: `sync-state${online ? "" : " off"}${waiting ? " waiting" : ""}`, id: "sync-state", role: "status", text: state }),
    list.role === "follower" ? el("span", { class: "badge", id: "read-only", text: t("sheet.read_only") }) : null,
    // A printout says when it was printed (set again just before printing).
    el("p", { class: "print-only note", id: "printed", text: printedLine() }),
  ]);
}

/** "Printed 05/12/2026, 14:03" in the page's language. */
function printedLine() {
  return t("sheet.printed", { date: new Date().toLocaleString(document.documentElement.lang || undefined, { dateStyle: "long", timeStyle: "short" }) });
}

function nextLine() {
  const s = view();
  if (!s) return null;
  if (!s.next) {
    const owed = (s.penalties || []).some((/** @type {number} */ p) => p);
    return el("div", { class: "panel list-end", id: "list-end" }, [
      el("strong", { text: t("sheet.complete") }),
      owed ? el("p", { id: "penalty-note", text: t("sheet.penalty_note", {
        names: joinNames(s.penalties.map((/** @type {number} */ p, /** @type {number} */ seat) => (p ? `${nameOf(seat)} ${signed(p)}` : "")).filter(Boolean)),
      }) }) : null,
    ]);
  }
  const n = s.next;
  const bits = [t("sheet.next_deal", { n: n.index, dealer: nameOf(n.dealer) })];
  if (n.sitting !== null) bits.push(t("sheet.sits_out", { name: nameOf(n.sitting) }));
  bits.push(t("sheet.vorhand", { name: nameOf(n.vorhand) }));
  if (n.deal_type) bits.push(t("sheet.closing_round", { kind: cegoDealName("", n.deal_type) }));
  if (n.forced !== null && n.forced !== undefined) bits.push(t("sheet.forced", { name: nameOf(n.forced) }));
  if (n.multiplier > 1) bits.push(t("sheet.bock", { n: n.multiplier }));
  if (s.games_left !== null) bits.push(t(s.games_left === 1 ? "sheet.games_left_1" : "sheet.games_left", { n: s.games_left }));
  return el("p", { class: "next-deal", id: "next" }, [bits.join(" · ")]);
}

function sheetTable() {
  const s = view();
  const seats = names();
  const waitingEntries = new Set(outbox.filter((o) => o.state === "waiting").map((o) => o.change.entry));
  const head = el("tr", {}, [
    el("th", { class: "num", text: "#" }),
    el("th", { text: t("sheet.game") }),
    ...seats.map((name, seat) => el("th", { class: "num player", "data-seat": seat, text: name })),
  ]);
  const body = el("tbody");
  for (const row of s.rows) {
    const badges = [];
    if (row.duty_solo_by !== null) badges.push(el("span", { class: "tag duty", title: t("sheet.duty_solo"), text: "P" }));
    if (row.multiplier > 1) badges.push(el("span", { class: "tag bock", title: t("sheet.bock", { n: row.multiplier }), text: `×${row.multiplier}` }));
    if (waitingEntries.has(row.id)) badges.push(el("span", { class: "tag wait", title: t("sheet.waiting_one"), text: "⏳" }));
    // A corrected row is marked: what changed is in the log (Every change).
    if (row.version > 1) {
      const said = t("sheet.corrected", { n: row.version - 1 });
      badges.push(el("span", { class: "tag corrected", title: said, "aria-label": said, "data-corrected": row.version - 1, text: "✎" }));
    }
    const tr = el("tr", {
      class: `deal${row.counts ? "" : " redeal"}${shown === row.id ? " shown" : ""}`, "data-entry": row.id, "data-index": row.index,
      tabindex: 0, onclick: () => { shown = shown === row.id ? null : row.id; render(); },
      onkeydown: (/** @type {KeyboardEvent} */ e) => { if (e.key === "Enter") { shown = shown === row.id ? null : row.id; render(); } },
    }, [
      el("td", { class: "num", text: row.number === null ? "–" : String(row.number) }),
      el("td", { class: "game", title: t("sheet.dealt_by", { name: nameOf(row.dealer) }) }, [rowLabel(row), ...badges]),
      // The dealer who sits out is marked; he writes what the rules give him (Cego: he settles
      // like a defender; Doppelkopf: nothing).
      ...seats.map((_, seat) => el("td", {
        class: `num ${row.settlement[seat] > 0 ? "plus" : row.settlement[seat] < 0 ? "minus" : "zero"}${seat === row.sitting ? " sits" : ""}`,
        "data-seat": seat, title: seat === row.sitting ? t("sheet.sits_out", { name: nameOf(seat) }) : undefined,
      }, [signed(row.settlement[seat]), el("small", { text: formatNumber(row.totals[seat]) })])),
    ]);
    body.append(tr);
    if (shown === row.id) body.append(el("tr", { class: "detail" }, [el("td", { colspan: seats.length + 2 }, [dealDetail(row)])]));
  }
  // Deleted rows stay in sight, struck through, below the list (their totals no longer count;
  // they are no deal of the list: no "deal" class, no place, not in an export).
  for (const gone of s.deleted || []) {
    const said = t("sheet.deleted_row", { what: dealName(gone) });
    body.append(el("tr", { class: "deleted", "data-deleted": gone.id, title: said, "aria-label": said }, [
      // No number of its own: the game that took its place has it (the tooltip names it).
      el("td", { class: "num", text: "–" }),
      el("td", { class: "game" }, [el("del", { text: labelOf(gone.label) }), el("span", { class: "tag gone", title: said, text: t("sheet.deleted_tag") })]),
      ...seats.map((_, seat) => el("td", { class: "num", "data-seat": seat }, [el("del", { text: signed(gone.settlement[seat]) })])),
    ]));
  }
  const foot = el("tfoot");
  if (s.is_over && (s.penalties || []).some((/** @type {number} */ p) => p)) {
    foot.append(el("tr", { class: "penalties", id: "penalties" }, [
      el("td"), el("td", { text: t("sheet.penalties") }),
      ...seats.map((_, seat) => el("td", { class: "num", "data-seat": seat, text: s.penalties[seat] ? signed(s.penalties[seat]) : "" })),
    ]));
  }
  foot.append(el("tr", { class: "totals", id: "totals" }, [
    el("td"), el("td", { text: t("table.total") }),
    ...seats.map((_, seat) => el("td", { class: "num", id: `total-${seat}`, "data-seat": seat, text: formatNumber(s.totals[seat]) })),
  ]));
  return el("div", { class: "scroll-x sheet-wrap" }, [el("table", { class: "sheet-table", id: "sheet-table" }, [el("thead", {}, [head]), body, foot])]);
}

/** @param {any} row */
function dealDetail(row) {
  const scorer = list && list.role === "scorer";
  return el("div", { class: "deal-detail", id: "deal-detail" }, [
    el("p", { class: "note", text: `${t("sheet.deal_n", { n: row.index })} · ${t("sheet.dealt_by", { name: nameOf(row.dealer) })}${row.version > 1 ? ` · ${t("sheet.corrected", { n: row.version - 1 })}` : ""}` }),
    rowCard(row),
    scorer ? el("div", { class: "row-actions" }, [
      el("button", { type: "button", id: "correct", text: t("sheet.correct"), onclick: () => correct(row) }),
      el("button", { type: "button", id: "delete", class: "danger", text: t("sheet.delete"), onclick: () => remove(row) }),
    ]) : null,
  ]);
}

function dutyLine() {
  const s = view();
  if (!s.duty_owed) return null;
  const parts = names().map((name, seat) => {
    const played = s.duty_played[seat];
    const owed = s.duty_owed[seat];
    return el("span", { class: owed ? "owed" : "done", "data-seat": seat, text: `${name} ${played}/${played + owed}${owed ? "" : " ✓"}` });
  });
  return el("p", { class: "duty-line", id: "duty" }, [el("strong", { text: `${t("sheet.duty_solos")}: ` }), ...parts.flatMap((p, i) => (i ? [" · ", p] : [p]))]);
}

function checksLine() {
  const s = view();
  const bits = [];
  for (const [key, label] of [["rows_sum_zero", "sheet.check_zero"], ["parity", "sheet.check_parity"]]) {
    const ok = s.checks[key];
    if (ok === null || ok === undefined) continue;
    bits.push(el("span", { class: ok ? "ok" : "wrong", "data-check": key, text: `${t(label)} ${ok ? "✓" : "✗"}` }));
  }
  if (!bits.length) return null;
  return el("p", { class: "checks", id: "checks" }, [el("strong", { text: `${t("sheet.checks")}: ` }), ...bits.flatMap((b, i) => (i ? [" · ", b] : [b]))]);
}

function outboxPanel() {
  if (!outbox.length || !list) return null;
  const game = list.sheet.list.game;
  const waiting = outbox.filter((o) => o.state === "waiting");
  const refusedItems = outbox.filter((o) => o.state === "refused");
  const outcomes = new Map((local ? local.pending : []).map((/** @type {any} */ p) => [p.key, p]));
  return el("section", { class: "panel outbox", id: "outbox" }, [
    waiting.length ? el("p", { id: "waiting" }, [
      t(online ? "sheet.sending" : "sheet.offline_waiting", { n: waiting.length }),
      ...waiting.map((o) => {
        const outcome = outcomes.get(o.key);
        return el("span", { class: "waiting-item", "data-key": o.key, text: ` · ${changeLabel(game, o.change)}${outcome && !outcome.ok ? ` (${refusalText(outcome.error || "")})` : ""}` });
      }),
    ]) : null,
    ...refusedItems.map((o) => el("div", { class: "refused", "data-key": o.key, role: "alert" }, [
      el("strong", { text: `${t(o.conflict ? "sheet.conflict" : "sheet.refused")}: ${changeLabel(game, o.change)}` }),
      el("p", { class: "refusal", text: refusalText(o.error || "") }),
      o.change.summary ? el("button", { type: "button", class: "again", text: t("sheet.enter_again"), onclick: () => again(o) }) : null,
      el("button", { type: "button", class: "discard", text: t("sheet.discard"), onclick: () => discard(o) }),
    ])),
  ]);
}

/** A row's label (``Row.label``: the contract, game type or ``redeal-...``) in words. @param {string} label */
function labelOf(label) {
  const s = view();
  const game = s ? s.list.game : "";
  if (label.startsWith("redeal-")) return tOr(`act.${label.slice(7)}`, label.slice(7));
  return game === "cego" ? cegoDealName(label, null) : gameTypeShort(label);
}

/** "Spiel 3", or for a deal that counts no game (a redeal) "Ausgabe 4". @param {{number: number|null, index: number}} where */
function dealName(where) {
  return where.number === null || where.number === undefined ? t("sheet.deal_index", { n: where.index }) : t("sheet.game_n", { n: where.number });
}

/** A value of a summary's field in words. @param {string} field @param {any} value */
function fieldValue(field, value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value) && value.every((v) => typeof v === "number") && ["re", "declarer", "schinder"].some((f) => field.endsWith(f))) {
    return joinNames(value.map(nameOf));
  }
  if (typeof value === "number" && ["declarer", "announcer", "redeal_by", "verworfen_by"].includes(field)) return nameOf(value);
  if (field === "game_type") return gameTypeShort(value);
  if (field === "contract") return cegoDealName(value, null);
  if (field === "redeal") return tOr(`act.${value}`, value);
  if (field === "schwarz") return partyName(value);
  if (typeof value === "boolean") return t(value ? "table.yes" : "table.no");
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * One field a correction changed, in words: "Re 150 → 160 Augen", "Re: Keine 90 angesagt".
 * @param {any} change ``{field, from, to}`` or ``{field, added, removed}`` (``sheet.diff``)
 */
function fieldText(change) {
  const [head, party] = change.field.split(".");
  if (change.added || change.removed) {
    const words = head === "announcements" ? announcementName : head === "extras" ? extraName : (/** @type {string} */ w) => w;
    const bits = [];
    const who = party ? `${partyName(party)}: ` : "";
    if (change.added.length) bits.push(`${who}${t(`sheet.diff.${head === "extras" ? "extras_added" : head === "announcements" ? "said" : "added"}`, { what: change.added.map(words).join(", ") })}`);
    if (change.removed.length) bits.push(`${who}${t(`sheet.diff.${head === "extras" ? "extras_removed" : head === "announcements" ? "unsaid" : "removed"}`, { what: change.removed.map(words).join(", ") })}`);
    return bits.join(", ");
  }
  const from = fieldValue(change.field, change.from);
  const to = fieldValue(change.field, change.to);
  const known = lookup(`sheet.diff.${change.field}`);
  if (typeof known === "string") return t(`sheet.diff.${change.field}`, { from, to });
  const name = tOr(`sheet.field.${change.field}`, change.field);
  return t("sheet.diff.other", { field: name, from, to });
}

/**
 * What a change of the log did, in the page's language, from ``about`` (``sheet.diff.describe``):
 * "Spiel 1 berichtigt: Re 150 → 160 Augen, Re: Keine 90 angesagt; 3 → 5 Punkte".
 * @param {any} about
 */
function aboutText(about) {
  if (!about || about.duplicate) return "";
  const what = dealName(about);
  const label = labelOf(about.label || "");
  const line = (/** @type {number[]} */ values) => values.map((v, seat) => (v ? `${nameOf(seat)} ${signed(v)}` : "")).filter(Boolean).join(", ");
  if (about.op === "add") {
    const written = line(about.written || []);
    return t("sheet.log.add", { what, label }) + (written ? ` (${written})` : "");
  }
  if (about.op === "delete") return t("sheet.log.delete", { what, label });
  const bits = [];
  if (about.was_label) bits.push(t("sheet.diff.game", { from: labelOf(about.was_label), to: label }));
  for (const change of about.fields || []) {
    if (["game_type", "contract", "redeal"].includes(change.field) && about.was_label) continue;
    bits.push(fieldText(change));
  }
  let text = t("sheet.log.correct", { what }) + (bits.length ? `: ${bits.join(", ")}` : `: ${t("sheet.log.same")}`);
  if (about.value && typeof about.value.from === "number" && typeof about.value.to === "number") {
    text += `; ${t("sheet.diff.value", { from: formatNumber(about.value.from), to: formatNumber(about.value.to) })}`;
  } else if ((about.settlement || []).length) {
    text += `; ${about.settlement.map((/** @type {any} */ c) => `${nameOf(c.seat)} ${signed(c.from)} → ${signed(c.to)}`).join(", ")}`;
  }
  return text;
}

/** @param {string} game @param {any} change */
function changeLabel(game, change) {
  const what = change.summary ? summaryLabel(game, change.summary) : "";
  const op = t(`sheet.op_${change.op}`);
  return what ? `${op}: ${what}` : op;
}

/** Put a refused entry back into the form, against the list as it is now. @param {import("./sheet_store.js").Outgoing} item */
async function again(item) {
  const current = view() ? view().rows.find((/** @type {any} */ r) => r.id === item.change.entry) : null;
  editing = item.change.op === "correct" && current ? { entry: current.id, version: current.version, row: current } : null;
  await store.done(item.key);
  outbox = await store.outgoing(token);
  formMoment = "";
  render();
  if (form) form.fill(item.change.summary);
}

/** @param {import("./sheet_store.js").Outgoing} item */
async function discard(item) {
  if (!confirm(t("sheet.discard_confirm"))) return;
  await store.done(item.key);
  outbox = await store.outgoing(token);
  render();
}

function entryPanel() {
  const s = view();
  if (!list || list.role !== "scorer" || (!s.next && !editing)) return null;
  const moment = editing
    ? { key: `edit:${editing.entry}`, dealer: editing.row.dealer, sitting: editing.row.sitting, dealType: editing.row.deal_type, owed: null, index: editing.row.index }
    : { key: `next:${s.next.index}:${s.next.dealer}:${s.next.deal_type}:${JSON.stringify(s.duty_owed)}`, dealer: s.next.dealer, sitting: s.next.sitting, dealType: s.next.deal_type, owed: s.duty_owed, index: s.next.index };
  if (!form || formMoment !== moment.key) {
    const seats = names().length;
    const kept = form && !editing && formMoment.startsWith("next:") ? form.summary() : null;
    form = entryForm({
      game: s.list.game, rules: list.rules, names: names(), dealer: moment.dealer, sitting: moment.sitting,
      vorhand: (moment.dealer + 1) % seats, dealType: moment.dealType, owed: moment.owed, onChange: schedulePreview,
    });
    formMoment = moment.key;
    preview = null;
    if (kept) form.fill(kept); // (filling a form scores it anew)
  }
  const title = editing ? t("sheet.correct_deal", { n: moment.index }) : t("sheet.enter_deal", { n: moment.index });
  const panel = el("section", { class: "panel entry", id: "entry" }, [
    el("h2", { text: title }),
    form.element,
    el("div", { class: "preview", id: "preview", "aria-live": "polite" }),
    el("div", { class: "save-bar" }, [
      el("button", { type: "button", class: "primary", id: "save", disabled: true, text: editing ? t("sheet.save_correction") : t("sheet.save"), onclick: save }),
      editing ? el("button", { type: "button", id: "cancel-edit", text: t("sheet.cancel"), onclick: () => { editing = null; formMoment = ""; preview = null; render(); } }) : null,
    ]),
  ]);
  return panel;
}

function sharePanel() {
  if (!list) return null;
  const links = list.links;
  const origin = publicOrigin(); // phones follow these links: not this browser's 127.0.0.1
  const item = (/** @type {string} */ which) => {
    const input = el("input", { readonly: true, id: `link-${which}`, value: origin + links[which], onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() });
    // A phone at the LAN's http:// address has no navigator.clipboard: copyText selects then.
    return el("div", { class: "share-link" }, [
      el("p", { text: t(`sheet.link_${which}`) }),
      input,
      el("button", { type: "button", id: `copy-${which}`, text: t("table.copy"), onclick: () => copyText(origin + links[which], input) }),
      el("img", { class: "qr", id: `qr-${which}`, alt: t("sheet.qr_alt", { which: t(`sheet.link_${which}`) }), src: `/api/sheets/${token}/qr/${which}.svg`, width: 164, height: 164 }),
    ]);
  };
  return el("details", { class: "panel share", id: "share" }, [
    el("summary", { text: t("sheet.share") }),
    item("follower"),
    links.scorer ? item("scorer") : null,
    links.scorer ? el("p", { class: "note", text: t("sheet.scorer_hint") }) : null,
  ]);
}

function exportPanel() {
  return el("section", { class: "panel export no-print", id: "export" }, [
    el("a", { href: `/api/sheets/${token}/export.jsonl`, id: "export-jsonl", download: true, text: t("sheet.export_jsonl") }), " · ",
    el("a", { href: `/api/sheets/${token}/export.csv`, id: "export-csv", download: true, text: t("sheet.export_csv") }), " · ",
    el("button", { type: "button", id: "print", text: t("sheet.print"), onclick: () => window.print() }), " · ",
    el("a", { href: "/s/new", text: t("sheet.new_list") }),
  ]);
}

function rulesPanel() {
  const s = view();
  const settings = s.list;
  const rows = [[t("lobby.profile"), tableTitle(settings.game, settings.profile)]];
  const overrides = Object.entries(settings.options || {});
  if (overrides.length) rows.push([t("table.overrides"), overrides.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(", ")]);
  rows.push([t("sheet.games"), settings.games === null ? t("sheet.open_ended") : String(settings.games)]);
  if (settings.duty_solos) {
    rows.push([t("sheet.duty_solos"), t(`sheet.duty_${settings.duty_enforcement}`, { n: settings.duty_solos, penalty: formatNumber(settings.duty_penalty) })]);
  }
  if (settings.bock) rows.push([t("sheet.bock_rounds"), t("table.yes")]);
  if (settings.closing.length) rows.push([t("lobby.closing"), closingRoundsText(settings.closing)]);
  rows.push([t("lobby.first_dealer"), nameOf(settings.first_dealer)]);
  const dl = el("dl", { class: "kv", id: "rules-in-force" });
  for (const [term, value] of rows) dl.append(el("dt", { text: term }), el("dd", { text: value }));
  return el("details", { class: "panel rules print-open", id: "rules" }, [el("summary", { text: t("sheet.rules") }), dl]);
}

function historyPanel() {
  const box = el("div", { id: "history-list" }, [el("p", { class: "note", text: t("sheet.loading") })]);
  const details = el("details", { class: "panel history no-print", id: "history" }, [el("summary", { text: t("sheet.history") }), box]);
  details.addEventListener("toggle", async () => {
    if (!(/** @type {HTMLDetailsElement} */ (details)).open) return;
    const got = await request(`/api/sheets/${token}/changes?about=1`);
    if (!got.ok) {
      box.replaceChildren(el("p", { class: "note", text: got.network ? t("sheet.offline") : got.data.error ? refusalText(got.data.error) : t("sheet.offline") }));
      return;
    }
    const game = view().list.game;
    // Each change names its game by number and says what it did (``about``, worded here).
    box.replaceChildren(el("ol", { id: "history-items" }, got.data.changes.map((/** @type {any} */ c) => el("li", {
      class: `log-${c.change.op}`, "data-seq": c.seq, "data-op": c.change.op, "data-number": c.about && c.about.number !== null ? c.about.number : "",
      text: `${new Date(c.at).toLocaleString()} – ${aboutText(c.about) || changeLabel(game, c.change)}${c.link === "import" ? ` · ${t("sheet.imported")}` : ""}`,
    }))));
  });
  return details;
}

function render() {
  if (!list) return;
  const s = view();
  root.dataset.role = list.role;
  root.dataset.rows = String(s.rows.length);
  const entry = entryPanel();
  // Panels the person opened stay open when the list changes.
  const open = [...root.querySelectorAll("details[open]")].map((d) => d.id);
  root.replaceChildren(
    header(),
    nextLine() || "",
    outboxPanel() || "",
    el("section", { class: "panel list" }, [sheetTable(), dutyLine() || "", checksLine() || ""]),
    entry || "",
    sharePanel() || "",
    rulesPanel(),
    exportPanel(),
    historyPanel(),
  );
  for (const id of open) document.getElementById(id)?.setAttribute("open", "");
  if (entry) drawPreview();
}

// -- start -----------------------------------------------------------------------------------------

async function start() {
  await Promise.all([loadTexts(), loadAddress()]);
  warnIfLoopback(root);
  outbox = await store.outgoing(token);
  const kept = await store.keptList(token);
  const got = await request(`/api/sheets/${token}`);
  if (got.ok) {
    const data = got.data;
    const sameLog = kept && kept.seq <= data.seq ? kept.log : [];
    list = {
      token, role: data.role, links: data.links, seq: data.seq, settings: data.sheet.list, rules: data.rules,
      deck_points: null, log: sameLog, sheet: data.sheet, seen: Date.now(),
    };
    if (list.log.length !== list.seq) await fetchLog();
    await store.keepList(list);
  } else if (!got.network) {
    root.replaceChildren(el("p", { class: "refusal", text: got.data.error ? refusalText(got.data.error) : t("sheet.not_found") }));
    return;
  } else if (kept) {
    list = kept;
    online = false;
  } else {
    root.replaceChildren(el("p", { class: "refusal", text: t("sheet.never_opened") }));
    return;
  }
  root.dataset.seq = String(list.seq);
  render();
  connect();
  installOffline();
  startScorer();
  window.addEventListener("online", () => { setOnline(true); sync(); });
  window.addEventListener("offline", () => setOnline(false));
  // The print shows the rules in force: open their panel for it.
  window.addEventListener("beforeprint", () => {
    document.getElementById("rules")?.setAttribute("open", "");
    const printed = document.getElementById("printed");
    if (printed) printed.textContent = printedLine();
  });
  sync();
}

start().catch((error) => toast(error.message));
