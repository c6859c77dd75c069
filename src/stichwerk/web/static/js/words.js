// @ts-check
// The games' words in the page's language: contracts, game types, phases, announcements and the
// names of Doppelkopf's scoring items. German keeps the game's words; English adds a short
// explanation where a Stammtisch word needs one (shown as a tooltip or in brackets).

import { LANG, lookup, t, tOr } from "./common.js";

/** @param {string} game @param {string} profile */
export function tableTitle(game, profile) {
  return `${tOr(`game.${game}`, game)} · ${tOr(`profile.${profile}`, profile)}`;
}

/** A Cego contract's name: "Halbe", "Zwei Verschiedene". @param {string} contract */
export function contractName(contract) {
  return tOr(`cego.contract.${contract}`, contract);
}

/** What a Cego contract means, for a tooltip. @param {string} contract @returns {string|undefined} */
export function contractExplain(contract) {
  const text = lookup(`cego.explain.${contract}`);
  return typeof text === "string" ? text : undefined;
}

/** A closing round's deal type: "Drescher", "Pflichträuber". @param {string} type */
export function dealTypeName(type) {
  return tOr(`cego.contract.${type}`, type);
}

/**
 * A Cego deal's name: a closing round's deal goes by its deal type (a Pflichträuber is a Räuber
 * nobody chose), any other by its contract.
 * @param {string} contract
 * @param {string|null|undefined} dealType
 */
export function cegoDealName(contract, dealType) {
  return dealType ? dealTypeName(dealType) : contractName(contract);
}

/** The closing rounds in a line: "Drescher, Pflichträuber". @param {string[]} rounds */
export function closingRoundsText(rounds) {
  return rounds.map(dealTypeName).join(", ");
}

/** A Doppelkopf game type's name: "Damen-Solo". @param {string} type */
export function gameTypeName(type) {
  return tOr(`doko.game_type.${type}`, type);
}

/** A game type's name without the English gloss, for tight places: "Hochzeit". @param {string} type */
export function gameTypeShort(type) {
  return gameTypeName(type).replace(/ \(.*\)$/, "");
}

/** @param {string} type @returns {string|undefined} */
export function gameTypeExplain(type) {
  const text = lookup(`doko.explain.${type}`);
  return typeof text === "string" ? text : undefined;
}

/** The phase of a deal in words. @param {string} game @param {string} phase */
export function phaseName(game, phase) {
  return tOr(`${game === "cego" ? "cego" : "doko"}.phase.${phase}`, phase);
}

/** "Re", "Kontra". @param {string} party */
export function partyName(party) {
  return tOr(`doko.party.${party}`, party);
}

/** An announcement: "Re", "keine 90". @param {string} word */
export function announcementName(word) {
  return tOr(`doko.ann.${word}`, word);
}

/** A Sonderpunkt of the Doppelkopf summary: "fuchs" → "Fuchs gefangen". @param {string} word */
export function extraName(word) {
  return tOr(`doko.extra.${word}`, word);
}

/**
 * The name of a Doppelkopf scoring item. The engine names items in German as a score sheet does
 * ("keine 90 angesagt (Re)"); German shows them as they are, English translates them.
 * @param {string} name
 */
export function itemName(name) {
  const direct = lookup(`doko_item.${name}`);
  if (typeof direct === "string") return direct;
  if (LANG === "de") return name.charAt(0).toUpperCase() + name.slice(1);
  const match = /^(.+?) angesagt( \(x2\))?(?: \((Re|Kontra)\))?$/.exec(name);
  if (match) {
    const what = match[1];
    let text = match[3]
      ? t("doko_item.announced_by", { what, party: match[3] })
      : t("doko_item.announced", { what });
    if (match[2]) text += ` ${t("doko_item.doubles")}`;
    return text;
  }
  return name;
}

/**
 * The short label of a score sheet row: the contract or game type in words.
 * @param {string} game
 * @param {string} label
 */
export function sheetLabel(game, label) {
  if (!label) return "";
  if (label === "redeal") return tOr("act.neu-geben", label).replace(/ \(.*\)$/, "");
  return game === "cego" ? contractName(label) : gameTypeShort(label);
}

/** A bot kind in words people use: "Computer – stark" (the id stays the option's value).
 * @param {string} kind */
export function botKind(kind) {
  return tOr(`bot_kind.${kind}`, kind);
}

/**
 * A tournament format's name: "Wielandstraße (Doppelkopf)", not its id.
 * @param {{name: string, game: string}} fmt
 */
export function formatName(fmt) {
  return tOr(`tformat.${fmt.name}.name`, `${fmt.name} (${tOr(`game.${fmt.game}`, fmt.game)})`);
}

/** What a format plays, in the page's language. @param {{name: string, description: string}} fmt */
export function formatDescription(fmt) {
  return tOr(`tformat.${fmt.name}.description`, fmt.description);
}

/**
 * A date in the reader's language: "4. Dezember 2026" / "4 December 2026" (not ISO).
 * @param {string} iso "2026-12-04"
 */
export function longDate(iso) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
  if (!match) return iso;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(LANG === "de" ? "de-DE" : "en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

/**
 * A person's name as the page shows it: a guest's "Gast-11451" is "Guest-11451" in English
 * (the server names guests in German; the name is the same account).
 * @param {string} name
 */
export function personName(name) {
  const guest = /^Gast-(\d+)$/.exec(name || "");
  return guest ? t("auth.guest_name", { n: guest[1] }) : name;
}
