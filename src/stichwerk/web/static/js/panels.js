// @ts-check
// What the table and the replay page show of a deal besides the cards in play: the game panel
// (contract, declarer, auction, parties, announcements ...), the laid-out cards, the result card
// and the dealt hands. Everything is drawn from the engine's view of the viewer's seat and
// nothing else: what the view does not hold is not shown, and never worked out.

import { el, formatNumber, joinNames, money, signed, t, tOr } from "./common.js";
import { cardElement } from "./cards.js";
import {
  announcementName, cegoDealName, contractExplain, contractName, dealTypeName, gameTypeExplain, gameTypeName,
  gameTypeShort, itemName, partyName, phaseName,
} from "./words.js";

/**
 * How the page names seats and who is looking.
 * @typedef {{name: (seat: number) => string, me: number|null}} Ctx
 */

const CEGO_SAID = new Set(["solo", "ulti", "soli-ulti", "gegensolo", "piccolo", "bettel"]);
const DOKO_DECLARED = new Set(["solo", "hochzeit", "armut", "schmeissen", "neu-geben"]);

/**
 * A row of the game panel: a term and what it is.
 * @param {string} term
 * @param {Node|string} value
 * @param {{id?: string, title?: string}} [opts]
 */
function row(term, value, opts = {}) {
  return [
    el("dt", { text: term }),
    el("dd", { id: opts.id, title: opts.title }, [value]),
  ];
}

/**
 * Small cards in a row; laid-out cards that never win carry a mark.
 * @param {string[]} cards
 * @param {{neverWins?: string[], dimmed?: (card: string) => boolean, id?: string}} [opts]
 */
export function cardRow(cards, opts = {}) {
  const never = new Set(opts.neverWins || []);
  const box = el("span", { class: "card-row", id: opts.id });
  for (const card of cards) {
    box.append(cardElement(card, {
      small: true,
      dim: opts.dimmed ? opts.dimmed(card) : false,
      badge: never.has(card) ? neverWinsBadge() : undefined,
    }));
  }
  return box;
}

export function neverWinsBadge() {
  return { text: t("cego.never_wins_short"), title: t("cego.never_wins"), kind: "never-wins" };
}

/** @param {string} contract */
function contractWithValue(/** @type {any} */ view, contract) {
  const bits = [contractName(contract)];
  if (typeof view.value === "number" && !["raeuber", "drescher"].includes(contract)) {
    bits.push(t("cego.value", { n: view.value }));
  }
  if (view.gegensolo) bits.push(t("cego.gegensolo"));
  return bits.join(" · ");
}

/**
 * Who has said what so far in the Solo, Gegensolo and Piccolo/Bettel rounds (public words).
 * @param {any[]} history
 */
function cegoSaid(history) {
  return (history || []).filter((/** @type {any} */ a) => CEGO_SAID.has(a.act));
}

// -- the game panel ------------------------------------------------------------------------------

/**
 * The game in a few words for the page's header: "Halbe – Anna", "Damen-Solo – Bernd".
 * @param {any} view
 * @param {Ctx} ctx
 */
export function gameLine(view, ctx) {
  if (!view || view.result) return "";
  if (view.game === "cego" && view.contract) {
    const who = view.declarer ?? (view.contract === "raeuber" ? view.announcer : null);
    return cegoDealName(view.contract, view.deal_type) + (who !== null && who !== undefined ? ` – ${ctx.name(who)}` : "");
  }
  if (view.game === "doppelkopf" && !["reservations", "declarations"].includes(view.phase) && view.game_type) {
    const name = gameTypeShort(view.game_type);
    return name + (view.soloist !== null && view.soloist !== undefined ? ` – ${ctx.name(view.soloist)}` : "");
  }
  return "";
}

/**
 * The panel that says where the deal stands, in words.
 * @param {any} view
 * @param {Ctx} ctx
 * @param {{toAct?: boolean}} [opts]
 */
export function gamePanel(view, ctx, opts = {}) {
  const dl = el("dl", { class: "kv game-info" });
  const rows = view.game === "cego" ? cegoRows(view, ctx) : view.game === "doppelkopf" ? dokoRows(view, ctx) : [];
  if (opts.toAct !== false && view.to_act !== null && view.to_act !== undefined && !view.result) {
    rows.push(row(t("table.to_act_label"), ctx.name(view.to_act), { id: "info-to-act" }));
  }
  for (const pair of rows) dl.append(...pair);
  return el("section", { class: "panel game-panel", id: "game-info", "data-game-phase": view.phase }, [
    el("h2", { text: phaseName(view.game, view.phase) }),
    dl,
  ]);
}

/** @param {any} view @param {Ctx} ctx */
function cegoRows(view, ctx) {
  const rows = [];
  const bidding = ["solo", "gegensolo", "special", "auction", "raeuber"].includes(view.phase);
  if (view.deal_type) {
    // A closing round's deal, dealt as such: no bidding, everyone plays for himself.
    const kind = view.deal_type;
    rows.push(row(t("cego.closing_round"), el("span", { class: "deal-type" }, [
      el("strong", { text: dealTypeName(kind) }), ` – ${tOr(`cego.explain.${kind}`, "")}`,
    ]), { id: "info-deal-type" }));
  }
  if (view.contract) {
    const contract = view.contract;
    if (contract !== view.deal_type) {
      rows.push(row(t("table.contract"), contractWithValue(view, contract), { id: "info-contract", title: contractExplain(contract) }));
    }
    if (view.declarer !== null && view.declarer !== undefined) {
      rows.push(row(t("cego.declarer"), ctx.name(view.declarer), { id: "info-declarer" }));
    }
    if (contract === "raeuber" && view.announcer !== null && view.announcer !== undefined) {
      rows.push(row(contractName("raeuber"), raeuberBy(view.deal_type, ctx.name(view.announcer))));
    }
  }
  if (bidding) {
    rows.push(row(t("table.vorhand"), ctx.name(view.vorhand), { id: "info-vorhand" }));
    const said = cegoSaid(view.history).map((/** @type {any} */ a) => t("cego.said_by", { contract: contractName(a.act), name: ctx.name(a.seat) }));
    if (said.length) rows.push(row(t("cego.said"), said.join(" · "), { id: "info-said" }));
  }
  if (view.auction) {
    const a = view.auction;
    // Who said the standing bid: the raise that made it, or the holder's "selbst" to it.
    const last = [...(view.history || [])].reverse()
      .find((/** @type {any} */ h) => h.act === a.level || h.act === "selbst" || h.act === "gegensolo");
    const contract = contractName(a.level);
    const bid = !last ? contract
      : t(last.act === "selbst" ? "cego.held_by" : "cego.bid_by", { contract, name: ctx.name(last.seat) });
    rows.push(row(t("cego.holder"), bid, { id: "info-auction", title: contractExplain(a.level) }));
    if (a.challenger !== null && a.challenger !== undefined) {
      rows.push(row(t("cego.challenger"), t("cego.versus", { holder: ctx.name(a.holder), challenger: ctx.name(a.challenger) })));
    }
    if (a.dropped && a.dropped.length) {
      rows.push(row(t("cego.dropped"), joinNames(a.dropped.map(ctx.name)), { id: "info-dropped" }));
    }
  }
  if (bidding || view.phase === "exchange") {
    rows.push(row(t("cego.blind"), t("cego.blind_hidden", { n: view.blind_size })));
  }
  const shown = view.shown || [];
  if (shown.length) {
    const onTable = new Set(view.laid_out || []);
    rows.push(row(t("cego.laid_out"), cardRow(shown, {
      neverWins: view.never_wins, dimmed: (card) => !onTable.has(card) && view.phase !== "over", id: "info-laid-out",
    })));
  }
  if (view.shown_press && view.shown_press.length) {
    rows.push(row(t("cego.shown_press"), cardRow(view.shown_press, { id: "info-shown-press" })));
  }
  if (view.phase === "play" && typeof view.trick_no === "number") {
    const total = view.players === 3 ? 13 : 11;
    rows.push(row(t("table.trick_no"), t("table.trick_of", { n: view.trick_no + 1, m: total })));
  }
  return rows;
}

/** @param {any} view @param {Ctx} ctx */
function dokoRows(view, ctx) {
  const rows = [];
  const history = view.history || [];
  if (view.phase === "reservations" || view.phase === "declarations") {
    rows.push(row(t("table.vorhand"), ctx.name(view.vorhand), { id: "info-vorhand" }));
    const holders = history.filter((/** @type {any} */ a) => a.act === "vorbehalt").map((/** @type {any} */ a) => ctx.name(a.seat));
    if (holders.length) rows.push(row(t("doko.vorbehalt"), joinNames(holders)));
    const declared = history.filter((/** @type {any} */ a) => DOKO_DECLARED.has(a.act));
    for (const a of declared) {
      rows.push(row(ctx.name(a.seat), a.type ? `${t(`act.${a.act}`)}: ${t(`type.${a.type}`)}` : t(`act.${a.act}`)));
    }
    return rows;
  }
  const type = view.game_type;
  if (type) {
    rows.push(row(t("doko.game_type_label"), gameTypeName(type), { id: "info-contract", title: gameTypeExplain(type) }));
  }
  if (view.soloist !== null && view.soloist !== undefined) {
    rows.push(row(t("doko.soloist"), ctx.name(view.soloist), { id: "info-soloist" }));
  }
  if (view.hochzeit) {
    const h = view.hochzeit;
    let text = h.partner !== null && h.partner !== undefined
      ? t("doko.hochzeit_with", { name: ctx.name(h.seat), partner: ctx.name(h.partner) })
      : h.klaerungsstich ? t("doko.hochzeit_alone", { name: ctx.name(h.seat) }) : t("doko.hochzeit_seeks", { name: ctx.name(h.seat) });
    if (h.klaerungsstich) text += ` (${t("doko.klaerung", { n: h.klaerungsstich })})`;
    rows.push(row(gameTypeShort("hochzeit"), text, { id: "info-hochzeit" }));
  }
  if (view.armut) rows.push(...armutRows(view.armut, ctx));
  const parties = view.parties || [];
  if (parties.some((/** @type {any} */ p) => p)) {
    /** @type {(Node|string)[]} */ const bits = [];
    for (const party of ["re", "kontra"]) {
      const seats = parties.map((/** @type {any} */ p, /** @type {number} */ s) => (p === party ? s : -1)).filter((/** @type {number} */ s) => s >= 0);
      if (!seats.length) continue;
      if (bits.length) bits.push(" · ");
      bits.push(el("span", { class: `party party-${party}` }, [el("strong", { text: partyName(party) }), `: ${joinNames(seats.map(ctx.name))}`]));
    }
    const unknown = parties.map((/** @type {any} */ p, /** @type {number} */ s) => (p === null && s !== view.sitting ? s : -1))
      .filter((/** @type {number} */ s) => s >= 0);
    if (unknown.length && bits.length) bits.push(` · ${t("doko.unknown")}: ${joinNames(unknown.map(ctx.name))}`);
    rows.push(row(t("doko.parties"), el("span", {}, bits), { id: "info-parties" }));
  }
  if (view.my_party) rows.push(row(t("doko.my_party"), partyName(view.my_party), { id: "info-my-party" }));
  const ann = view.announcements || {};
  const said = ["re", "kontra"].filter((p) => ann[p] && ann[p].length)
    .map((p) => `${partyName(p)}: ${ann[p].map(announcementName).join(", ")}`);
  if (said.length) rows.push(row(t("doko.announcements"), said.join(" · "), { id: "info-announcements" }));
  if (view.sau !== null && view.sau !== undefined) rows.push(row(t("doko.sau"), ctx.name(view.sau), { id: "info-sau" }));
  if (view.supersau !== null && view.supersau !== undefined) rows.push(row(t("doko.supersau"), ctx.name(view.supersau)));
  if (view.phase === "play") {
    const done = (view.tricks_won || []).reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0);
    rows.push(row(t("table.trick_no"), t("table.trick_of", { n: done + 1, m: 12 })));
  }
  return rows;
}

/**
 * The Armut as the viewer may see it: who gives, who takes, and the cards only for the two of them.
 * @param {any} armut
 * @param {Ctx} ctx
 */
function armutRows(armut, ctx) {
  const rows = [];
  let text = t("doko.armut_by", { name: ctx.name(armut.seat), n: armut.cards });
  text += " · " + (armut.taker !== null && armut.taker !== undefined ? t("doko.armut_taken", { taker: ctx.name(armut.taker) }) : t("doko.armut_open"));
  if (typeof armut.returned_trumps === "number") {
    text += " · " + (armut.returned_trumps === 1 ? t("doko.returned_trump_1") : t("doko.returned_trumps", { n: armut.returned_trumps }));
  } else if (typeof armut.returned_trump === "boolean") {
    text += " · " + t("doko.returned_trump", { yesno: t(armut.returned_trump ? "table.yes" : "table.no") });
  }
  rows.push(row(gameTypeShort("armut"), text, { id: "info-armut" }));
  if (armut.passed) rows.push(row(t("doko.passed"), cardRow(armut.passed, { id: "armut-passed" })));
  if (armut.returned) rows.push(row(t("doko.returned"), cardRow(armut.returned, { id: "armut-returned" })));
  return rows;
}

/**
 * The declarer's own look at the blind: what he picked up, laid away and pressed (only his view
 * holds these).
 * @param {any} view
 */
export function ownBlind(view) {
  if (!view.blind) return null;
  const dl = el("dl", { class: "kv" }, [
    ...row(t("cego.picked_up"), cardRow(view.blind)),
    ...(view.laid_away && view.laid_away.length ? row(t("cego.laid_away"), cardRow(view.laid_away)) : []),
    ...(view.pressed && view.pressed.length ? row(t("cego.pressed"), cardRow(view.pressed)) : []),
  ]);
  return dl;
}

/**
 * The cards laid out on the table beside the declarer's seat (those not yet played).
 * @param {any} view
 * @param {number} seat
 */
export function laidOutBeside(view, seat) {
  if (!view || view.game !== "cego" || view.declarer !== seat) return null;
  const cards = view.laid_out || [];
  if (!cards.length) return null;
  return el("div", { class: "laid-out", id: `laid-out-${seat}` }, [
    el("span", { class: "laid-out-label", text: t("cego.laid_out") }),
    cardRow(cards, { neverWins: view.never_wins }),
  ]);
}

// -- the result card -----------------------------------------------------------------------------

/**
 * A settlement table: one row per seat, + and − coloured.
 * @param {Ctx} ctx
 * @param {number[]} settlement
 * @param {{label: string, cells: (seat: number) => (string|Node)}[]} columns
 * @param {number[]|null} [cents]
 */
function settlementTable(ctx, settlement, columns, cents = null) {
  const head = el("tr", {}, [
    el("th", { text: t("table.player") }),
    ...columns.map((c) => el("th", { class: "num", text: c.label })),
    el("th", { class: "num", text: t("table.points") }),
    cents ? el("th", { class: "num", text: t("table.money") }) : null,
  ]);
  const body = el("tbody");
  settlement.forEach((points, seat) => {
    const sign = points > 0 ? "plus" : points < 0 ? "minus" : "zero";
    body.append(el("tr", { class: sign + (seat === ctx.me ? " me" : ""), "data-seat": seat }, [
      el("td", { text: ctx.name(seat) }),
      ...columns.map((c) => el("td", { class: "num" }, [c.cells(seat)])),
      el("td", { class: `num points ${sign}`, text: signed(points) }),
      cents ? el("td", { class: `num ${sign}`, text: money(cents[seat]) }) : null,
    ]));
  });
  return el("div", { class: "scroll-x" }, [el("table", { class: "settlement", id: "settlement" }, [el("thead", {}, [head]), body])]);
}

/**
 * The result of a finished deal as a card: a headline, the facts and the settlement.
 * @param {any} view a view whose ``result`` is set (its ``deal`` holds the hands)
 * @param {Ctx} ctx
 */
export function resultCard(view, ctx) {
  const result = view.result;
  const parts = result.game === "cego" || view.game === "cego" ? cegoResult(result, ctx, view.deal_type) : view.game === "doppelkopf" ? dokoResult(view, result, ctx) : genericResult(result, ctx);
  return el("div", { class: "result-card", id: "result" }, parts);
}

/** @param {any} result @param {Ctx} ctx */
function genericResult(result, ctx) {
  const settlement = result.score && result.score.settlement;
  return settlement ? [settlementTable(ctx, settlement, [])] : [];
}

/** @param {number} n */
function each(n, won = true) {
  return t(won ? "cego_res.from_each" : "cego_res.to_each", { n: formatNumber(n) });
}

/** @param {any} r @param {Ctx} ctx */
function cegoHeadline(r, ctx) {
  const s = r.score || {};
  const losers = (s.losers || []).map(ctx.name);
  if (r.aufgedeckt) {
    const schinder = (r.aufgedeckt.schinder || []).map(ctx.name);
    return schinder.length
      ? `${t("cego_res.schinder", { names: joinNames(schinder) })} – ${each(s.written, false)}`
      : `${t("cego_res.aufgedeckt_berg", { name: ctx.name(r.declarer) })} – ${each(s.written, false)}`;
  }
  if (r.contract === "raeuber") {
    const key = losers.length > 1 ? "cego_res.raeuber_many" : "cego_res.raeuber";
    return `${t(key, { names: joinNames(losers), points: formatNumber(s.loser_points) })} – ${each(s.written, false)}`;
  }
  if (r.contract === "drescher") {
    return `${t("cego_res.drescher", { name: joinNames(losers) })} – ${each(s.written, false)}`;
  }
  if (r.declarer === null || r.declarer === undefined) return contractName(r.contract);
  const won = s.winner === "declarer";
  let text = t(won ? "cego_res.won" : "cego_res.lost", { contract: contractName(r.contract), name: ctx.name(r.declarer) });
  text += ` – ${each(s.written, won)}`;
  if (s.berg) text += ` · ${t("cego_res.berg")}`;
  return text;
}

/**
 * Who plays the Räuber: "X announced Räuber", or in a Pflichträuber round "X plays Räuber as Vorhand".
 * @param {string|null|undefined} dealType
 * @param {string} name
 */
function raeuberBy(dealType, name) {
  return t(dealType === "pflichtraeuber" ? "cego.pflicht_by" : "cego.raeuber_by", { name });
}

/** @param {any} r @param {Ctx} ctx @param {string|null} [dealType] a closing round's deal type */
function cegoResult(r, ctx, dealType = null) {
  const s = r.score || {};
  const settlement = s.settlement || [];
  const head = el("h3", { class: "headline", id: "result-headline", text: cegoHeadline(r, ctx) });
  const bits = [cegoDealName(r.contract, dealType)];
  if (!["raeuber", "drescher"].includes(r.contract) && typeof r.value === "number") bits.push(t("cego.value", { n: r.value }));
  if (r.gegensolo) bits.push(t("cego.gegensolo"));
  const explain = contractExplain(dealType || r.contract);
  const sub = el("p", { class: "subline" }, [el("strong", { text: bits.join(" · ") }), explain ? ` – ${explain}` : ""]);
  const dl = el("dl", { class: "kv result-facts" });
  const cp = r.card_points || {};
  if (typeof cp.declarer === "number") {
    const pts = [`${t("cego.declarer")} ${formatNumber(cp.declarer)}`, `${t("cego.defenders")} ${formatNumber(cp.defenders)}`];
    if (cp.out_of_play) pts.push(`${t("cego_res.out_of_play")} ${formatNumber(cp.out_of_play)}`);
    dl.append(...row(t("cego_res.points"), pts.join(" · "), { id: "result-points" }));
  } else if (cp.out_of_play) {
    dl.append(...row(t("cego_res.points"), `${t("cego_res.out_of_play")} ${formatNumber(cp.out_of_play)}`));
  }
  if (typeof s.faecher === "number") {
    dl.append(...row(t("cego_res.faecher"), String(s.faecher)));
  }
  if (typeof s.written === "number") {
    dl.append(...row(t("cego_res.written"), formatNumber(s.written) + (s.berg ? ` · ${t("cego_res.berg")}` : "")));
  }
  if (s.parts) {
    const lines = Object.entries(s.parts).map(([name, part]) => {
      const p = /** @type {any} */ (part);
      const won = p.winner === "declarer";
      return t(won ? "cego_res.part_won" : "cego_res.part_lost", { part: contractName(name), n: formatNumber(p.written) }) +
        (p.berg ? ` (${t("cego_res.berg")})` : "");
    });
    dl.append(...row(t("cego_res.parts"), lines.join(" · ")));
  }
  if (typeof r.last_trick_with_geiss === "boolean") {
    dl.append(...row(contractName("ulti"), t(r.last_trick_with_geiss ? "cego_res.last_geiss" : "cego_res.last_geiss_no")));
  }
  if (s.jungfrauen && s.jungfrauen.length) {
    dl.append(...row(t("cego_res.jungfrau"), t("cego_res.jungfrau_line", { names: joinNames(s.jungfrauen.map(ctx.name)) }), { id: "result-jungfrau" }));
  }
  if (r.contract === "raeuber" && r.announcer !== null && r.announcer !== undefined) {
    const double = (s.losers || []).includes(r.announcer) ? ` ${t("cego_res.announcer_double")}` : "";
    dl.append(...row(contractName("raeuber"), raeuberBy(dealType, ctx.name(r.announcer)) + double));
  }
  if (r.aufgedeckt && (r.aufgedeckt.schinder || []).length) {
    dl.append(...row(t("cego_res.schinder_line"), joinNames(r.aufgedeckt.schinder.map(ctx.name))));
  }
  for (const [key, label] of [["laid_out", "cego.laid_out"], ["laid_away", "cego.laid_away"], ["pressed", "cego.pressed"]]) {
    const cards = r[key];
    if (cards && cards.length) dl.append(...row(t(label), cardRow(cards)));
  }
  if (s.money) dl.append(...row(t("table.money"), tOr(`cego_res.stake.${s.money.stake}`, s.money.stake)));
  const perSeatPoints = cp.seats;
  /** @type {{label: string, cells: (seat: number) => (string|Node)}[]} */
  // Only columns that mean something for the deal: a score sheet's entry counts no tricks.
  const columns = Array.isArray(r.tricks) ? [{ label: t("table.tricks"), cells: (/** @type {number} */ seat) => String(r.tricks[seat] ?? "") }] : [];
  if (perSeatPoints) columns.push({ label: t("cego_res.points"), cells: (seat) => formatNumber(perSeatPoints[seat]) });
  return [head, sub, dl, settlementTable(ctx, settlement, columns, s.money ? s.money.cents : null)];
}

/** @param {any} view @param {any} r @param {Ctx} ctx */
function dokoResult(view, r, ctx) {
  const s = r.score || {};
  const settlement = s.settlement || [];
  const history = view.history || [];
  let headline;
  const subBits = [];
  if (r.redeal) {
    headline = t("doko_res.redeal");
    const by = history.find((/** @type {any} */ a) => a.act === r.redeal);
    subBits.push(tOr(`doko_res.redeal_why.${r.redeal}`, r.redeal, { name: by ? ctx.name(by.seat) : "" }));
  } else {
    if (s.winner) {
      const augen = r.augen ? r.augen[s.winner] : null;
      headline = augen === null || augen === undefined
        ? t("doko_res.wins_plain", { party: partyName(s.winner), n: s.value })
        : t(s.value === 1 ? "doko_res.wins_1" : "doko_res.wins", { party: partyName(s.winner), augen, n: s.value });
    } else if (r.forfeit !== null && r.forfeit !== undefined) {
      headline = s.value ? t("doko_res.penalty", { n: s.value }) : t("table.not_counted");
    } else {
      headline = t("doko_res.none_wins");
      if (r.augen) headline += ` (${partyName("re")} ${r.augen.re} · ${partyName("kontra")} ${r.augen.kontra})`;
    }
    if (r.forfeit !== null && r.forfeit !== undefined) headline = `${t("doko_res.forfeit", { name: ctx.name(r.forfeit) })} – ${headline}`;
    let type = gameTypeName(r.game_type);
    if (r.soloist !== null && r.soloist !== undefined) type += ` – ${t("doko.soloist")}: ${ctx.name(r.soloist)}`;
    if (r.duty_solo) type += ` (${t("doko.duty_solo")})`;
    subBits.push(type);
  }
  const head = el("h3", { class: "headline", id: "result-headline", text: headline });
  const sub = el("p", { class: "subline" }, [el("strong", { text: subBits.join(" · ") })]);
  if (r.redeal) return [head, sub];
  const dl = el("dl", { class: "kv result-facts" });
  if (r.augen) {
    dl.append(...row(t("doko_res.augen"), `${partyName("re")} ${r.augen.re} · ${partyName("kontra")} ${r.augen.kontra}`, { id: "result-augen" }));
  }
  for (const party of ["re", "kontra"]) {
    const seats = r[party] || [];
    if (seats.length) dl.append(...row(partyName(party), joinNames(seats.map(ctx.name))));
  }
  const ann = r.announcements || {};
  const said = ["re", "kontra"].filter((p) => ann[p] && ann[p].length).map((p) => `${partyName(p)}: ${ann[p].map(announcementName).join(", ")}`);
  if (said.length) dl.append(...row(t("doko.announcements"), said.join(" · ")));
  if (r.hochzeit) {
    const partner = (r.re || []).find((/** @type {number} */ s) => s !== r.hochzeit.seat);
    dl.append(...row(gameTypeShort("hochzeit"), partner === undefined
      ? t("doko.hochzeit_alone", { name: ctx.name(r.hochzeit.seat) })
      : `${t("doko.hochzeit_with", { name: ctx.name(r.hochzeit.seat), partner: ctx.name(partner) })}${r.hochzeit.klaerungsstich ? ` (${t("doko.klaerung", { n: r.hochzeit.klaerungsstich })})` : ""}`));
  }
  if (r.armut) dl.append(...armutRows(r.armut, ctx).flat());
  if (s.bock) dl.append(...row(t("doko_res.bock"), ""));
  const items = s.items || [];
  const itemBody = el("tbody");
  for (const item of items) {
    itemBody.append(el("tr", { class: `party-${item.party}` }, [
      el("td", { text: itemName(item.name) }),
      el("td", { text: partyName(item.party) }),
      el("td", { class: "num", text: String(item.points) }),
    ]));
  }
  const foot = el("tfoot", {}, [el("tr", {}, [
    el("td", { colspan: 2, text: t("doko_res.value") }),
    el("td", { class: "num", text: String(s.value ?? 0) }),
  ])]);
  if (s.solo_factor) {
    foot.append(el("tr", {}, [el("td", { colspan: 3, text: t("doko_res.solo_factor", { n: s.solo_factor }) })]));
  }
  const itemsTable = items.length
    ? el("table", { class: "items", id: "result-items" }, [
      el("thead", {}, [el("tr", {}, [el("th", { text: t("doko_res.item") }), el("th", { text: t("doko_res.party") }), el("th", { class: "num", text: t("doko_res.points") })])]),
      itemBody, foot,
    ])
    : el("p", { class: "note", text: t("doko_res.no_items") });
  const parties = (/** @type {number} */ seat) => ((r.re || []).includes(seat) ? partyName("re") : (r.kontra || []).includes(seat) ? partyName("kontra") : "–");
  // Only columns that mean something for the deal: a score sheet's entry counts no tricks.
  const columns = [{ label: t("doko_res.party"), cells: parties }];
  if (Array.isArray(r.tricks)) columns.push({ label: t("table.tricks"), cells: (/** @type {number} */ seat) => String(r.tricks[seat] ?? "") });
  return [head, sub, dl, el("div", { class: "scroll-x" }, [itemsTable]), settlementTable(ctx, settlement, columns)];
}

/**
 * The hands as they were dealt (every view holds them once the deal is over).
 * @param {any} view
 * @param {Ctx} ctx
 */
export function dealtHands(view, ctx) {
  const deal = view.deal;
  if (!deal) return null;
  const box = el("div", { class: "dealt", id: "dealt" });
  (deal.hands || []).forEach((/** @type {string[]} */ hand, /** @type {number} */ seat) => {
    if (!hand.length) return;
    box.append(el("div", { class: "dealt-hand", "data-seat": seat }, [el("strong", { text: ctx.name(seat) }), cardRow(hand)]));
  });
  if (deal.blind && deal.blind.length) {
    box.append(el("div", { class: "dealt-hand" }, [el("strong", { text: t("table.blind") }), cardRow(deal.blind)]));
  }
  return box;
}
