// @ts-check
// A table's rules as everyone at it sees them: the profile, and each setting the table changes
// beside the profile's own value.

import { LANG, el, t, tOr, toast } from "./common.js";
import { closingRoundsText, dealTypeName } from "./words.js";

/**
 * A setting's value as a person reads it.
 * @param {any} value
 * @returns {string}
 */
export function settingValue(value) {
  if (value === true) return t("table.yes");
  if (value === false) return t("table.no");
  if (value === null || value === undefined || value === "") return "–";
  if (Array.isArray(value)) return value.length ? value.map(settingValue).join(", ") : "–";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * Each setting's meaning in the page's language, in English where that language has none.
 * @param {any} game the game's entry of /api/games (``setting_docs``: language → setting → meaning)
 * @returns {Record<string, string>}
 */
export function settingMeanings(game) {
  const docs = (game && game.setting_docs) || {};
  return { ...(docs.en || {}), ...(docs[LANG] || {}) };
}

/** A setting's name: "raeuber_value" → "raeuber value". @param {string} key */
export function settingName(key) {
  return key.replaceAll("_", " ");
}

/**
 * "The table plays Titisee with these changes:" and a table of the overrides.
 * @param {{game: string, profile: string, options?: Record<string, any>}} table
 * @param {Record<string, any>|null} defaults the profile's settings, when known
 * @param {string} id
 * @param {Record<string, string>} [docs] each setting's meaning, when known
 */
export function overridesView(table, defaults, id, docs = {}) {
  const options = table.options || {};
  const keys = Object.keys(options);
  const profile = tOr(`profile.${table.profile}`, table.profile);
  const intro = `${t("table.rules_of", { profile })} ${keys.length ? t("table.rules_changed") : t("table.rules_plain")}`;
  const box = el("div", { class: "overrides", id, "data-overrides": keys.length });
  box.append(el("p", { text: intro }));
  if (!keys.length) return box;
  const body = el("tbody");
  for (const key of keys) {
    body.append(el("tr", { "data-setting": key }, [
      el("td", { text: settingName(key), title: docs[key] || "" }),
      el("td", { class: "changed", text: settingValue(options[key]) }),
      el("td", { class: "note", text: defaults && key in defaults ? settingValue(defaults[key]) : "" }),
    ]));
  }
  box.append(el("div", { class: "scroll-x" }, [el("table", { class: "overrides-table" }, [
    el("thead", {}, [el("tr", {}, [
      el("th", { text: t("table.setting") }), el("th", { text: t("table.value") }), el("th", { text: t("table.profile_value") }),
    ])]),
    body,
  ])]));
  return box;
}

/**
 * The closing rounds after the list's deals, in a line (``null`` when the table has none):
 * "Schlussrunden: Drescher, Pflichträuber – jeder gibt je Runde einmal (8 Spiele mehr)."
 * @param {{seats: number|any[], closing_rounds?: string[]}} table
 * @param {string} id
 */
export function closingView(table, id) {
  const rounds = table.closing_rounds || [];
  if (!rounds.length) return null;
  const seats = Array.isArray(table.seats) ? table.seats.length : table.seats;
  return el("p", {
    class: "closing-rounds", id, "data-rounds": rounds.join(" "),
    text: t("table.closing", { rounds: closingRoundsText(rounds), n: rounds.length * seats }),
  });
}

/**
 * Controls for a list of closing rounds: the list with a ✕ per round, and a "+ round" button per
 * deal type in ``allowed``; ``change`` gets the whole new list (the lobby's form and the table's
 * editor both use them).
 * @param {string[]} rounds
 * @param {string[]} allowed
 * @param {string} listId
 * @param {(next: string[]) => void} change
 * @returns {{list: HTMLElement, adders: HTMLElement[]}}
 */
export function closingRoundControls(rounds, allowed, listId, change) {
  const list = el("ol", { class: "closing-list", id: listId });
  rounds.forEach((kind, i) => {
    list.append(el("li", { "data-round": kind }, [
      t("lobby.round_of", { name: dealTypeName(kind) }), " ",
      el("button", {
        type: "button", class: "remove-round", "aria-label": `${t("lobby.remove_round")}: ${dealTypeName(kind)}`, text: "✕",
        onclick: () => change(rounds.filter((_, j) => j !== i)),
      }),
    ]));
  });
  const adders = allowed.map((kind) => el("button", {
    type: "button", class: "add-round", "data-add-round": kind, title: tOr(`cego.explain.${kind}`, ""),
    text: `+ ${t("lobby.round_of", { name: dealTypeName(kind) })}`,
    onclick: () => change([...rounds, kind]),
  }));
  return { list, adders };
}

/**
 * The settings a form's ``input[data-setting]`` fields change from ``defaults``, by name; null
 * (with a toast naming the setting) when a field does not read.
 * @param {HTMLElement} box
 * @param {Record<string, any>} defaults
 * @returns {Record<string, any>|null}
 */
export function changedSettings(box, defaults) {
  /** @type {Record<string, any>} */ const options = {};
  for (const input of box.querySelectorAll("input[data-setting]")) {
    const node = /** @type {HTMLInputElement} */ (input);
    const key = node.dataset.setting || "";
    let value;
    try {
      if (node.type === "checkbox") value = node.checked;
      else if (node.type === "number") value = Number(node.value);
      else if (node.dataset.json) value = JSON.parse(node.value);
      else value = node.value;
    } catch (error) {
      toast(`${key}: ${/** @type {Error} */ (error).message}`);
      return null;
    }
    if (JSON.stringify(value) !== JSON.stringify(defaults[key])) options[key] = value;
  }
  return options;
}
