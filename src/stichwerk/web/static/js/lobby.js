// @ts-check
// The lobby: log in or play as a guest, see open tables, open a new one.

import { api, el, loadTexts, t, tOr, toast } from "./common.js";
import { changedSettings, closingRoundControls, settingMeanings, settingName, settingValue } from "./rules.js";
import { botKind, closingRoundsText, personName, tableTitle } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("lobby-app"));
/** Profile facts a table does not override (the seat count is chosen above). */
const FIXED_SETTINGS = new Set(["name", "players", "allowed_players"]);
/** The bot offered first: sensible play without the search bot's thinking time. */
const DEFAULT_BOT = "heuristic";
/** @type {any} */ let me = null;
/** @type {any} */ let catalogue = { games: [], bots: [] };
/** The account's bot accounts (players over the bot websocket). @type {any[]} */ let myBots = [];

async function refresh() {
  me = (await api("/api/me")).user;
  catalogue = await api("/api/games");
  const lists = await api("/api/tables");
  myBots = me && !me.guest ? (await api("/api/bots")).bots : [];
  root.replaceChildren(
    // The score sheet for a game with real cards needs no account.
    el("p", { class: "panel sheet-link" }, [
      el("a", { href: "/s/new", id: "sheet-link", text: t("sheet.app_name") }), ` – ${t("sheet.lobby_link")}`,
      " · ", el("a", { href: "/ratings", id: "ratings-link", text: t("ratings.link") }),
    ]),
    // A tournament and the ranking lists need no account either.
    el("p", { class: "panel tournament-link" }, [
      el("a", { href: "/tournaments/new", id: "tournament-link", text: t("tournament.app_name") }), ` – ${t("tournament.lobby_link")} · `,
      el("a", { href: "/rankings", id: "rankings-link", text: t("rankings.title") }),
    ]),
    accountPanel(),
    ...(me && !me.guest ? [botsPanel()] : []),
    me ? createPanel() : el("p", { class: "note", text: t("lobby.login_first") }),
    tableList(t("lobby.mine"), lists, "mine"),
    tableList(t("lobby.open"), lists, "open"),
    tableList(t("lobby.playing"), lists, "playing"),
  );
}

function accountPanel() {
  if (me) {
    return el("section", { class: "panel account" }, [
      el("span", { id: "whoami", text: t("auth.hello", { name: personName(me.username) }) + (me.guest ? ` (${t("auth.guest_note")})` : "") }),
      " ",
      el("button", { type: "button", id: "logout", text: t("auth.logout"), onclick: () => call("/api/logout", {}) }),
      " ",
      // Ends this account's sessions on every device (a lost phone, a shared computer).
      el("button", {
        type: "button", id: "logout-all", title: t("auth.logout_all_title"), text: t("auth.logout_all"),
        onclick: () => call("/api/logout_everywhere", {}),
      }),
      me.guest ? null : passwordForm(),
    ]);
  }
  const user = el("input", { name: "username", autocomplete: "username", required: true, "aria-label": t("auth.username"), placeholder: t("auth.username") });
  const pass = el("input", { name: "password", type: "password", autocomplete: "current-password", required: true, "aria-label": t("auth.password"), placeholder: t("auth.password") });
  const creds = () => ({ username: /** @type {HTMLInputElement} */ (user).value, password: /** @type {HTMLInputElement} */ (pass).value });
  return el("section", { class: "panel account" }, [
    el("form", { class: "login", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); call("/api/login", creds()); } }, [
      user, pass,
      el("button", { type: "submit", text: t("auth.login") }),
      el("button", { type: "button", text: t("auth.register"), onclick: () => call("/api/register", creds()) }),
    ]),
    el("button", { type: "button", class: "primary", id: "guest", text: t("auth.guest"), onclick: () => call("/api/guest", {}) }),
  ]);
}

/** A new password; the server ends every other login of the account. */
function passwordForm() {
  const old = el("input", { type: "password", id: "old-password", autocomplete: "current-password", required: true, "aria-label": t("auth.old_password"), placeholder: t("auth.old_password") });
  const fresh = el("input", { type: "password", id: "new-password", autocomplete: "new-password", required: true, minlength: 8, "aria-label": t("auth.new_password"), placeholder: t("auth.new_password") });
  const form = el("form", { class: "login", id: "password-form" }, [
    old, fresh, el("button", { type: "submit", text: t("auth.change_password") }),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("/api/password", {
        old_password: /** @type {HTMLInputElement} */ (old).value,
        new_password: /** @type {HTMLInputElement} */ (fresh).value,
      });
      toast(t("auth.password_changed"));
      await refresh();
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });
  return el("details", { class: "password" }, [el("summary", { text: t("auth.change_password") }), form]);
}

/** The account's bot accounts: make one, get a new token, revoke one. A token is shown once. */
function botsPanel() {
  const shown = el("div", { id: "bot-token-box" });
  /** @param {string} name @param {string} token */
  function showToken(name, token) {
    shown.replaceChildren(
      el("p", { text: t("bots.token_once", { name }) }),
      el("input", { class: "bot-token", id: "bot-token", readonly: true, value: token, "aria-label": t("bots.token_once", { name }) }),
    );
  }
  const list = el("ul", { id: "bot-list" });
  for (const bot of myBots) {
    list.append(el("li", { "data-bot": bot.name }, [
      el("strong", { text: bot.name }), " – ",
      bot.token_hint ? t("bots.token", { hint: bot.token_hint }) : t("bots.no_token"), " ",
      el("button", { type: "button", class: "new-token", text: t("bots.new_token"), onclick: async () => {
        try {
          const made = await api(`/api/bots/${encodeURIComponent(bot.name)}/token`, {});
          await refresh();
          showTokenAfter(made.bot.name, made.token);
        } catch (error) { toast(/** @type {Error} */ (error).message); }
      } }), " ",
      bot.token_hint ? el("button", { type: "button", class: "revoke", text: t("bots.revoke"), onclick: async () => {
        try {
          await api(`/api/bots/${encodeURIComponent(bot.name)}/revoke`, {});
          toast(t("bots.revoked"));
          await refresh();
        } catch (error) { toast(/** @type {Error} */ (error).message); }
      } }) : null,
    ]));
  }
  if (!myBots.length) list.append(el("li", { class: "note", text: t("bots.none") }));
  const name = el("input", { id: "bot-name", required: true, minlength: 3, maxlength: 24, "aria-label": t("bots.name"), placeholder: t("bots.name") });
  const form = el("form", { class: "login", id: "bot-form" }, [name, el("button", { type: "submit", text: t("bots.create") })]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/bots", { name: /** @type {HTMLInputElement} */ (name).value });
      await refresh();
      showTokenAfter(made.bot.name, made.token);
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });
  pendingToken = showToken;
  return el("details", { class: "panel bots", id: "bots-panel", open: Boolean(shownToken) }, [
    el("summary", { text: t("bots.title") }),
    el("p", { class: "note", text: t("bots.hint") }),
    list, form, shown,
  ]);
}

/** Shows a new token in the (redrawn) bots panel. @type {((name: string, token: string) => void)|null} */
let pendingToken = null;
/** @type {string|null} */ let shownToken = null;
/** @param {string} name @param {string} token */
function showTokenAfter(name, token) {
  shownToken = token;
  const panel = document.getElementById("bots-panel");
  if (panel) panel.setAttribute("open", "");
  if (pendingToken) pendingToken(name, token);
}

/** @param {string} path @param {any} body */
async function call(path, body) {
  try {
    await api(path, body);
    await refresh();
  } catch (error) {
    toast(/** @type {Error} */ (error).message);
  }
}

/**
 * One of the lobby's lists, a page at a time: "more" asks the server for the next page.
 * @param {string} title
 * @param {any} lists the lobby's answer (``open``, ``playing``, ``mine``, ``more``, ``limit``)
 * @param {"open" | "playing" | "mine"} id
 */
function tableList(title, lists, id) {
  const list = el("ul", { class: "tables", id: `tables-${id}` });
  const limit = lists.limit || 50;
  let offset = 0;
  const more = el("button", { type: "button", class: "more", id: `more-${id}`, text: t("lobby.more") });
  more.hidden = !(lists.more && lists.more[id]);
  more.addEventListener("click", async () => {
    try {
      offset += limit;
      const page = await api(`/api/tables?limit=${limit}&offset=${offset}`);
      addTables(list, page[id]);
      more.hidden = !page.more[id];
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });
  addTables(list, lists[id]);
  if (!lists[id].length) list.append(el("li", { class: "note", text: t("lobby.none") }));
  return el("section", { class: "panel" }, [el("h2", { text: title }), list, more]);
}

/**
 * @param {HTMLElement} list
 * @param {any[]} tables
 */
function addTables(list, tables) {
  for (const table of tables) {
    const seats = table.seats.map((/** @type {any} */ s) => s.kind === "bot" ? botKind(s.bot) : s.name ? personName(s.name) : t("lobby.free")).join(", ");
    const link = table.invite ? `/t/${table.id}?invite=${table.invite}` : `/t/${table.id}`;
    const overrides = Object.entries(table.options || {});
    list.append(el("li", {}, [
      el("a", { href: link, text: tableTitle(table.game, table.profile) }),
      ` – ${seats} – ${t(`lobby.status.${table.status}`)}`,
      // Changed rules show in the lobby already, before anyone sits down.
      overrides.length ? el("span", {
        class: "overrides-note", title: overrides.map(([k, v]) => `${settingName(k)}: ${settingValue(v)}`).join("\n"),
        text: ` – ${t("lobby.n_overrides", { n: overrides.length })}: ${overrides.map(([k, v]) => `${settingName(k)} ${settingValue(v)}`).join(", ")}`,
      }) : null,
      (table.closing_rounds || []).length
        ? el("span", { class: "closing-note", text: ` – ${t("lobby.closing")}: ${closingRoundsText(table.closing_rounds)}` })
        : null,
      // The creator may stop a running table nobody else plays at (e.g. one of bots only).
      table.stoppable ? el("button", {
        type: "button", class: "stop-table", "data-stop": table.id, title: t("lobby.stop_title"), text: t("lobby.stop"),
        onclick: () => { if (window.confirm(t("lobby.stop_confirm"))) call(`/api/tables/${table.id}/stop`, {}); },
      }) : null,
    ]));
  }
}

function createPanel() {
  const form = el("form", { class: "create", id: "create-table" });
  const game = /** @type {HTMLSelectElement} */ (el("select", { name: "game", id: "game" }));
  for (const g of catalogue.games) game.append(el("option", { value: g.name, text: tOr(`game.${g.name}`, g.name) }));
  const profile = /** @type {HTMLSelectElement} */ (el("select", { name: "profile", id: "profile" }));
  const seatCount = /** @type {HTMLSelectElement} */ (el("select", { name: "seats", id: "seat-count" }));
  for (const n of [3, 4, 5]) seatCount.append(el("option", { value: n, text: String(n), selected: n === 4 }));
  const seatsBox = el("div", { class: "seats-box" });
  const settingsBox = el("div", { class: "settings-box" });
  const closingBox = el("div", { class: "closing-box", id: "closing-rounds" });
  /** The closing rounds chosen so far, in order (deal types). @type {string[]} */ let closing = [];
  const series = el("input", { type: "number", name: "series", id: "series", min: 1, max: 200, value: 24 });
  const limit = el("input", { type: "number", name: "time_limit", id: "time-limit", min: 5, max: 3600, value: 60 });
  const isPublic = el("input", { type: "checkbox", name: "public", id: "public", checked: true });
  const mySeat = /** @type {HTMLSelectElement} */ (el("select", { name: "creator_seat", id: "creator-seat" }));
  // Who deals first: drawn by lot (the server draws) unless the table names a seat.
  const firstDealer = /** @type {HTMLSelectElement} */ (el("select", { name: "first_dealer", id: "first-dealer" }));
  /** @type {Record<string, any>} */ let defaults = {};

  function drawProfiles() {
    const g = catalogue.games.find((/** @type {any} */ x) => x.name === game.value);
    profile.replaceChildren(...(g ? g.profiles : []).map((/** @type {string} */ p) => el("option", { value: p, text: tOr(`profile.${p}`, p) })));
    drawSettings();
  }
  function drawSettings() {
    const g = catalogue.games.find((/** @type {any} */ x) => x.name === game.value);
    defaults = g ? g.settings[profile.value] || {} : {};
    const docs = settingMeanings(g);
    const rows = [];
    for (const [key, value] of Object.entries(defaults)) {
      if (FIXED_SETTINGS.has(key)) continue;
      let input;
      if (typeof value === "boolean") input = el("input", { type: "checkbox", "data-setting": key, checked: value });
      else if (typeof value === "number") input = el("input", { type: "number", step: "any", "data-setting": key, value });
      else if (typeof value === "string") input = el("input", { "data-setting": key, value });
      else input = el("input", { "data-setting": key, "data-json": "1", value: JSON.stringify(value) });
      const doc = docs[key] || "";
      rows.push(el("label", { class: "setting", title: doc }, [
        el("span", { class: "setting-name", text: settingName(key) }), input,
        el("small", { class: "setting-doc", text: doc }),
      ]));
    }
    settingsBox.replaceChildren(el("p", { class: "note", text: t("lobby.options_hint") }), ...rows);
    drawClosing();
  }
  /** The deal types the table's rules allow now: the profile's settings as the form changes them. */
  function allowedRounds() {
    const g = catalogue.games.find((/** @type {any} */ x) => x.name === game.value);
    return (g ? g.deal_types || [] : []).filter((/** @type {string} */ kind) => {
      const box = /** @type {HTMLInputElement|null} */ (settingsBox.querySelector(`input[data-setting="${kind}"]`));
      return box ? box.checked : defaults[kind] === true;
    });
  }
  function drawClosing() {
    const g = catalogue.games.find((/** @type {any} */ x) => x.name === game.value);
    const kinds = g ? g.deal_types || [] : [];
    const allowed = allowedRounds();
    // Only what the rules allow stays on the list.
    closing = closing.filter((kind) => allowed.includes(kind));
    if (!kinds.length) {
      closingBox.replaceChildren();
      closingBox.hidden = true;
      return;
    }
    closingBox.hidden = false;
    const { list, adders } = closingRoundControls(closing, allowed, "closing-list", (next) => {
      closing = next;
      drawClosing();
    });
    closingBox.replaceChildren(
      el("span", { class: "closing-title", text: t("lobby.closing") }),
      closing.length ? list : el("span", { class: "note", text: ` ${t("lobby.closing_empty")}` }),
      adders.length ? el("div", { class: "closing-add" }, adders)
        : el("p", { class: "note", id: "closing-none", text: t("lobby.closing_none", { kinds: kinds.join(", ") }) }),
      el("small", { class: "setting-doc", text: t("lobby.closing_hint") }),
    );
  }
  function drawSeats() {
    const n = Number(seatCount.value);
    seatsBox.replaceChildren();
    mySeat.replaceChildren(el("option", { value: "", text: t("lobby.watch_only") }));
    firstDealer.replaceChildren(el("option", { value: "", text: t("lobby.by_lot") }));
    for (let i = 0; i < n; i += 1) {
      const kind = el("select", { "data-seat-kind": i, "aria-label": t("lobby.seat", { n: i + 1 }) }, [
        el("option", { value: "human", text: t("lobby.person"), selected: i === 0 }),
        el("option", { value: "bot", text: t("lobby.bot"), selected: i !== 0 }),
        // The account's own bot accounts take a person's seat and play over the bot websocket.
        ...myBots.map((b) => el("option", { value: `account:${b.name}`, text: t("bots.account", { name: b.name }) })),
      ]);
      const bot = el("select", { "data-seat-bot": i, "aria-label": `${t("lobby.seat", { n: i + 1 })}: ${t("lobby.bot")}` },
        catalogue.bots.map((/** @type {string} */ b) => el("option", { value: b, text: botKind(b), selected: b === DEFAULT_BOT })));
      seatsBox.append(el("div", { class: "seat-row" }, [el("span", { text: t("lobby.seat", { n: i + 1 }) }), kind, bot]));
      mySeat.append(el("option", { value: i, text: t("lobby.seat", { n: i + 1 }), selected: i === 0 }));
      firstDealer.append(el("option", { value: i, text: t("lobby.seat", { n: i + 1 }) }));
    }
  }
  game.addEventListener("change", drawProfiles);
  profile.addEventListener("change", drawSettings);
  // Switching a deal type's setting on or off changes what the closing rounds may hold.
  settingsBox.addEventListener("change", drawClosing);
  seatCount.addEventListener("change", drawSeats);
  drawProfiles();
  drawSeats();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = changedSettings(settingsBox, defaults);
    if (options === null) return;
    const seats = [];
    for (let i = 0; i < Number(seatCount.value); i += 1) {
      const kind = /** @type {HTMLSelectElement} */ (seatsBox.querySelector(`[data-seat-kind="${i}"]`)).value;
      const bot = /** @type {HTMLSelectElement} */ (seatsBox.querySelector(`[data-seat-bot="${i}"]`)).value;
      if (kind.startsWith("account:")) seats.push({ kind: "human", account: kind.slice("account:".length), bot });
      else seats.push({ kind, bot });
    }
    try {
      const { table } = await api("/api/tables", {
        game: game.value, profile: profile.value, options, seats,
        creator_seat: mySeat.value === "" ? null : Number(mySeat.value),
        series_length: Number(/** @type {HTMLInputElement} */ (series).value),
        closing_rounds: closing,
        first_dealer: firstDealer.value === "" ? null : Number(firstDealer.value),
        time_limit: Number(/** @type {HTMLInputElement} */ (limit).value),
        public: /** @type {HTMLInputElement} */ (isPublic).checked,
      });
      location.href = `/t/${table.id}` + (table.invite ? `?invite=${table.invite}` : "");
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });

  form.append(
    el("h2", { text: t("lobby.create") }),
    el("label", {}, [t("lobby.game"), " ", game]),
    el("label", {}, [t("lobby.profile"), " ", profile]),
    el("label", {}, [t("lobby.seats"), " ", seatCount]),
    seatsBox,
    el("label", {}, [t("lobby.my_seat"), " ", mySeat]),
    el("label", {}, [t("lobby.first_dealer"), " ", firstDealer]),
    el("label", {}, [t("lobby.series"), " ", series]),
    closingBox,
    el("label", {}, [t("lobby.time_limit"), " ", limit]),
    el("label", {}, [isPublic, " ", t("lobby.public")]),
    el("details", {}, [el("summary", { text: t("lobby.options") }), settingsBox]),
    el("button", { type: "submit", class: "primary", id: "create", text: t("lobby.open_table") }),
  );
  return el("section", { class: "panel" }, [form]);
}

await loadTexts();
refresh().catch((error) => toast(error.message));
