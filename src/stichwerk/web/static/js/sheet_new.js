// @ts-check
// A new score sheet: the game, the rules and their overrides, 3/4/5 seats with the players'
// names, who deals first, the list's length (or open-ended), Pflicht-Soli, Bock, Cego's closing
// rounds, a title. Also: import a list exported before, and the lists this phone has opened.

import { api, el, loadAddress, loadTexts, t, tOr, toast, warnIfLoopback } from "./common.js";
import { changedSettings, closingRoundControls, settingMeanings, settingName } from "./rules.js";
import * as store from "./sheet_store.js";
import { tableTitle } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("sheet-new-app"));
/** Profile facts a list does not override (the seats are chosen above). */
const FIXED_SETTINGS = new Set(["name", "players", "allowed_players"]);
/** @type {any} */ let catalogue = { games: [] };

function createPanel() {
  const form = el("form", { class: "create sheet-create", id: "create-sheet" });
  const game = /** @type {HTMLSelectElement} */ (el("select", { id: "game" }));
  for (const g of catalogue.games) game.append(el("option", { value: g.name, text: tOr(`game.${g.name}`, g.name) }));
  const profile = /** @type {HTMLSelectElement} */ (el("select", { id: "profile" }));
  const seatCount = /** @type {HTMLSelectElement} */ (el("select", { id: "seat-count" }));
  const namesBox = el("div", { class: "names-box", id: "names" });
  const firstDealer = /** @type {HTMLSelectElement} */ (el("select", { id: "first-dealer" }));
  const games = /** @type {HTMLInputElement} */ (el("input", { type: "number", id: "games", min: 1, max: 1000 }));
  const openEnded = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "open-ended" }));
  const duty = /** @type {HTMLInputElement} */ (el("input", { type: "number", id: "duty-solos", min: 0, max: 10 }));
  const dutyBox = el("div", { class: "duty-box" });
  const bock = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "bock" }));
  const title = /** @type {HTMLInputElement} */ (el("input", { id: "title", maxlength: 120, placeholder: t("sheet.title_hint") }));
  const settingsBox = el("div", { class: "settings-box" });
  const closingBox = el("div", { class: "closing-box", id: "closing-rounds" });
  /** @type {string[]} */ let closing = [];
  /** @type {Record<string, any>} */ let defaults = {};

  const current = () => catalogue.games.find((/** @type {any} */ x) => x.name === game.value);

  function drawProfiles() {
    const g = current();
    profile.replaceChildren(...(g ? g.profiles : []).map((/** @type {string} */ p) => el("option", { value: p, text: tOr(`profile.${p}`, p) })));
    drawSettings();
  }
  function drawSettings() {
    const g = current();
    defaults = g ? g.settings[profile.value] || {} : {};
    const allowed = defaults.allowed_players || [4, 5];
    const keep = seatCount.value || String(defaults.players || 4);
    seatCount.replaceChildren(...[3, 4, 5].filter((n) => allowed.includes(n)).map((n) => el("option", { value: n, text: String(n), selected: String(n) === keep })));
    const docs = settingMeanings(g);
    const rows = [];
    for (const [key, value] of Object.entries(defaults)) {
      if (FIXED_SETTINGS.has(key)) continue;
      let input;
      if (typeof value === "boolean") input = el("input", { type: "checkbox", "data-setting": key, checked: value });
      else if (typeof value === "number") input = el("input", { type: "number", step: "any", "data-setting": key, value });
      else if (typeof value === "string") input = el("input", { "data-setting": key, value });
      else input = el("input", { "data-setting": key, "data-json": "1", value: JSON.stringify(value) });
      rows.push(el("label", { class: "setting", title: docs[key] || "" }, [
        el("span", { class: "setting-name", text: settingName(key) }), input,
        el("small", { class: "setting-doc", text: docs[key] || "" }),
      ]));
    }
    settingsBox.replaceChildren(el("p", { class: "note", text: t("lobby.options_hint") }), ...rows);
    drawSeats();
    drawLength();
    drawClosing();
  }
  function drawSeats() {
    const n = Number(seatCount.value);
    const old = [...namesBox.querySelectorAll("input")].map((i) => /** @type {HTMLInputElement} */ (i).value);
    namesBox.replaceChildren(...Array.from({ length: n }, (_, i) => el("input", {
      "data-name": i, maxlength: 40, autocomplete: "off", value: old[i] || "", placeholder: t("table.seat_label", { n: i + 1 }),
      "aria-label": t("sheet.name_of", { n: i + 1 }),
    })));
    const keep = firstDealer.value || "0";
    firstDealer.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: i, text: t("table.seat_label", { n: i + 1 }), selected: String(i) === keep })));
    drawLength();
  }
  function drawLength() {
    const doko = game.value === "doppelkopf";
    const five = Number(seatCount.value) === 5;
    const standard = doko ? (five ? defaults.games_per_list_five : defaults.games_per_list) : null;
    if (!games.dataset.touched) games.value = standard ? String(standard) : "";
    openEnded.checked = !games.value;
    games.disabled = openEnded.checked;
    dutyBox.hidden = !doko;
    if (!duty.dataset.touched) duty.value = String(doko && games.value === String(standard) ? defaults.duty_solos || 0 : 0);
    bock.checked = Boolean((defaults.bock_triggers || []).length);
  }
  function allowedRounds() {
    const g = current();
    return (g ? g.deal_types || [] : []).filter((/** @type {string} */ kind) => {
      const box = /** @type {HTMLInputElement|null} */ (settingsBox.querySelector(`input[data-setting="${kind}"]`));
      return box ? box.checked : defaults[kind] === true;
    });
  }
  function drawClosing() {
    const g = current();
    const kinds = g ? g.deal_types || [] : [];
    const allowed = allowedRounds();
    closing = closing.filter((kind) => allowed.includes(kind));
    closingBox.hidden = !kinds.length;
    if (!kinds.length) return;
    const { list, adders } = closingRoundControls(closing, allowed, "closing-list", (next) => { closing = next; drawClosing(); });
    closingBox.replaceChildren(
      el("span", { class: "closing-title", text: t("lobby.closing") }),
      closing.length ? list : el("span", { class: "note", text: ` ${t("lobby.closing_empty")}` }),
      adders.length ? el("div", { class: "closing-add" }, adders)
        : el("p", { class: "note", text: t("lobby.closing_none", { kinds: kinds.join(", ") }) }),
    );
  }
  game.addEventListener("change", () => { games.dataset.touched = ""; duty.dataset.touched = ""; closing = []; drawProfiles(); });
  profile.addEventListener("change", () => { games.dataset.touched = ""; duty.dataset.touched = ""; drawSettings(); });
  seatCount.addEventListener("change", drawSeats);
  settingsBox.addEventListener("change", drawClosing);
  games.addEventListener("input", () => { games.dataset.touched = "1"; });
  duty.addEventListener("input", () => { duty.dataset.touched = "1"; });
  openEnded.addEventListener("change", () => {
    games.dataset.touched = "1";
    games.disabled = openEnded.checked;
    if (openEnded.checked) { games.value = ""; duty.value = "0"; } else if (!games.value) games.value = "8";
  });
  drawProfiles();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = changedSettings(settingsBox, defaults);
    if (options === null) return;
    const names = [...namesBox.querySelectorAll("input")].map((i) => /** @type {HTMLInputElement} */ (i).value.trim());
    /** @type {Record<string, any>} */ const body = {
      game: game.value, profile: profile.value, options, seats: Number(seatCount.value),
      first_dealer: Number(firstDealer.value), games: openEnded.checked || !games.value ? null : Number(games.value),
      bock: bock.checked, closing, title: title.value.trim(),
    };
    if (names.some((n) => n)) body.names = names;
    if (game.value === "doppelkopf") body.duty_solos = Number(duty.value || 0);
    try {
      const made = await api("/api/sheets", body);
      location.href = made.links.scorer;
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });

  form.append(
    el("h2", { text: t("sheet.new_title") }),
    el("label", {}, [t("lobby.game"), " ", game]),
    el("label", {}, [t("lobby.profile"), " ", profile]),
    el("label", {}, [t("lobby.seats"), " ", seatCount, el("small", { class: "note", text: ` ${t("sheet.five_hint")}` })]),
    el("fieldset", { class: "names" }, [el("legend", { text: t("sheet.names") }), namesBox]),
    el("label", {}, [t("lobby.first_dealer"), " ", firstDealer]),
    el("label", {}, [t("sheet.games"), " ", games, " ", el("label", { class: "check" }, [openEnded, ` ${t("sheet.open_ended")}`])]),
    el("div", {}, [dutyBox]),
    closingBox,
    el("label", { class: "check" }, [bock, ` ${t("sheet.bock_rounds")}`]),
    el("label", {}, [t("sheet.title"), " ", title]),
    el("details", {}, [el("summary", { text: t("lobby.options") }), settingsBox]),
    el("button", { type: "submit", class: "primary", id: "create", text: t("sheet.create") }),
  );
  dutyBox.append(el("label", {}, [t("sheet.duty_solos"), " ", duty, el("small", { class: "note", text: ` ${t("sheet.duty_hint")}` })]));
  return el("section", { class: "panel" }, [form]);
}

function importPanel() {
  const file = /** @type {HTMLInputElement} */ (el("input", { type: "file", id: "import-file", "aria-labelledby": "import-title", accept: ".jsonl,.json,.txt,application/json" }));
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    try {
      const made = await api("/api/sheets/import", { text: await chosen.text() });
      location.href = made.links.scorer;
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
      file.value = "";
    }
  });
  return el("section", { class: "panel" }, [
    el("h2", { id: "import-title", text: t("sheet.import") }),
    el("p", { class: "note", text: t("sheet.import_hint") }),
    file,
  ]);
}

async function knownPanel() {
  /** @type {import("./sheet_store.js").KeptList[]} */ let lists = [];
  try {
    lists = await store.keptLists();
  } catch (error) {
    lists = [];
  }
  if (!lists.length) return null;
  return el("section", { class: "panel" }, [
    el("h2", { text: t("sheet.on_this_phone") }),
    el("ul", { class: "tables", id: "known-lists" }, lists.map((l) => el("li", {}, [
      el("a", { href: `/s/${l.token}`, text: l.sheet.list.title || tableTitle(l.sheet.list.game, l.sheet.list.profile) }),
      ` – ${t("sheet.n_deals", { n: l.sheet.rows.length })} · ${t(l.role === "scorer" ? "sheet.role_scorer" : "sheet.role_follower")}`,
    ]))),
  ]);
}

async function start() {
  await Promise.all([loadTexts(), loadAddress()]);
  warnIfLoopback(root);
  const known = await knownPanel();
  try {
    catalogue = await api("/api/games");
  } catch (error) {
    root.replaceChildren(el("p", { class: "note", text: t("sheet.offline_new") }), known || "");
    return;
  }
  root.replaceChildren(createPanel(), importPanel(), known || "");
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/s/sw.js", { scope: "/s/" }).catch(() => {});
}

start().catch((error) => toast(error.message));
