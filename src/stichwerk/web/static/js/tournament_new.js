// @ts-check
// A new tournament: its name, format, date, place and the club or series whose ranking lists
// it joins; or a tournament taken over from a backup file (a second laptop). Below, the
// tournaments this device has directed. A series that has an owner asks for its secret; a new
// one's secret is handed to the tournament's page, which shows it once.

import { api, el, loadAddress, loadTexts, t, toast, warnIfLoopback } from "./common.js";
import { formatDescription, formatName } from "./words.js";

const root = /** @type {HTMLElement} */ (document.getElementById("tournament-new"));
const DEVICE_KEY = "stichwerk.tournaments";
const SECRET_KEY = "stichwerk.series_secret";

/**
 * A series' secret made just now: the tournament's page shows it once (sessionStorage).
 * @param {any} made
 */
function handOver(made) {
  if (!made.series_secret) return;
  try {
    sessionStorage.setItem(SECRET_KEY, JSON.stringify({ id: made.tournament.id, series: made.tournament.series, secret: made.series_secret }));
  } catch {
    alert(t("tournament.secret_shown", { series: made.tournament.series, secret: made.series_secret }));
  }
}

async function draw() {
  const [formats, series] = await Promise.all([api("/api/tournaments/formats"), api("/api/rankings")]);
  const format = /** @type {HTMLSelectElement} */ (el("select", { id: "t-format" },
    formats.formats.map((/** @type {any} */ f) => el("option", { value: f.name, text: formatName(f) }))));
  const describe = el("p", { class: "note", id: "t-format-note" });
  const note = () => {
    const f = formats.formats.find((/** @type {any} */ x) => x.name === format.value);
    describe.textContent = f ? formatDescription(f) : "";
  };
  format.addEventListener("change", note);
  note();
  const today = new Date();
  const iso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
  const name = /** @type {HTMLInputElement} */ (el("input", { id: "t-name", required: true, maxlength: 120, placeholder: t("tournament.name_hint") }));
  const date = /** @type {HTMLInputElement} */ (el("input", { id: "t-date", type: "date", required: true, value: iso }));
  const place = /** @type {HTMLInputElement} */ (el("input", { id: "t-place", maxlength: 120 }));
  const club = /** @type {HTMLInputElement} */ (el("input", { id: "t-series", required: true, maxlength: 120, list: "known-series" }));
  const seed = /** @type {HTMLInputElement} */ (el("input", { id: "t-seed", maxlength: 40, pattern: "[A-Za-z0-9_.\\-]+" }));
  const known = el("datalist", { id: "known-series" }, series.series.map((/** @type {any} */ s) => el("option", { value: s.series })));
  if (series.series.length === 1) club.value = series.series[0].series;
  const secret = /** @type {HTMLInputElement} */ (el("input", { id: "t-secret", maxlength: 64, autocomplete: "off" }));
  const secretField = el("label", { id: "t-secret-field", hidden: true }, [t("tournament.secret"), " ", secret,
    el("span", { class: "note", text: " " + t("tournament.secret_hint") })]);
  let asked = "";
  const askOwner = async () => {
    const wanted = club.value.trim();
    if (wanted === asked) return;
    asked = wanted;
    if (!wanted) {
      secretField.hidden = true;
      return;
    }
    try {
      const found = await api(`/api/rankings/owner?series=${encodeURIComponent(wanted)}`);
      if (asked === wanted) secretField.hidden = !found.owned;
    } catch {
      secretField.hidden = false;
    }
  };
  club.addEventListener("change", askOwner);
  club.addEventListener("input", askOwner);
  askOwner();
  const form = el("form", { class: "create", id: "create-tournament" }, [
    el("h2", { text: t("tournament.new_title") }),
    el("label", {}, [t("tournament.name"), " ", name]),
    el("label", {}, [t("tournament.format"), " ", format]), describe,
    el("label", {}, [t("tournament.date"), " ", date]),
    el("label", {}, [t("tournament.place"), " ", place]),
    el("label", {}, [t("tournament.series"), " ", club, known]),
    secretField,
    el("details", {}, [el("summary", { text: t("tournament.seed") }), el("p", { class: "note", text: t("tournament.seed_hint") }), seed]),
    el("button", { type: "submit", class: "primary", id: "t-create", text: t("tournament.create") }),
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/tournaments", {
        name: name.value, format: format.value, date: date.value, place: place.value, series: club.value,
        ...(seed.value ? { seed: seed.value } : {}),
        ...(!secretField.hidden && secret.value ? { secret: secret.value } : {}),
      });
      handOver(made);
      location.href = made.links.director;
    } catch (error) {
      toast(/** @type {Error} */ (error).message);
    }
  });
  const file = /** @type {HTMLInputElement} */ (el("input", { type: "file", id: "backup-file", "aria-labelledby": "take-over-title", accept: ".json,application/json" }));
  const replace = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "backup-replace" }));
  const backupSecret = /** @type {HTMLInputElement} */ (el("input", { id: "backup-secret", maxlength: 64, autocomplete: "off" }));
  const takeOver = el("section", { class: "panel", id: "take-over" }, [
    el("h2", { id: "take-over-title", text: t("tournament.import") }),
    el("p", { class: "note", text: t("tournament.import_hint") }),
    file,
    el("label", {}, [replace, " ", t("tournament.replace")]),
    el("label", {}, [t("tournament.secret"), " ", backupSecret, el("span", { class: "note", text: " " + t("tournament.secret_backup_hint") })]),
    el("button", {
      type: "button", id: "backup-import", text: t("tournament.import_button"),
      onclick: async () => {
        if (!file.files || !file.files[0]) return;
        try {
          const backup = JSON.parse(await file.files[0].text());
          const made = await api("/api/tournaments/import", {
            backup, replace: replace.checked, ...(backupSecret.value ? { secret: backupSecret.value } : {}),
          });
          handOver(made);
          location.href = made.links.director;
        } catch (error) {
          toast(/** @type {Error} */ (error).message);
        }
      },
    }),
  ]);
  /** @type {any[]} */ let mine = [];
  try {
    mine = JSON.parse(localStorage.getItem(DEVICE_KEY) || "[]");
  } catch {
    mine = [];
  }
  const parts = [el("section", { class: "panel" }, [form])];
  if (mine.length) {
    parts.push(el("section", { class: "panel" }, [
      el("h2", { text: t("tournament.on_this_device") }),
      el("ul", { class: "device-list" }, mine.map((m) => el("li", {}, [el("a", { href: m.link, text: `${m.date} · ${m.name}` })]))),
    ]));
  }
  parts.push(takeOver, el("p", { class: "panel" }, [el("a", { href: "/rankings", text: t("tournament.rankings_link") })]));
  root.replaceChildren(...parts);
}

await Promise.all([loadTexts(), loadAddress()]);
warnIfLoopback(root);
draw().catch((error) => toast(error.message));
