// @ts-check
// The entry form of a score sheet, built for the list's game and for this moment of the list: the
// game types or contracts the rules allow, the seats dealt in (the sitting dealer of a 5-table
// cannot be tapped), a closing round's own deal type. It only collects what the table knows
// into a deal summary (docs/sheet.md); the scoring is the engine's, shown by the page's preview.

import { el, t, tOr } from "./common.js";
import { announcementName, contractName, dealTypeName, extraName, gameTypeShort, partyName } from "./words.js";

/**
 * What the form needs to know of the list and the moment.
 * @typedef {{game: string, rules: any, names: string[], dealer: number, sitting: number|null,
 *   vorhand: number, dealType: string|null, owed: number[]|null, onChange: () => void}} FormCtx
 */

const LEVELS = ["keine-90", "keine-60", "keine-30", "schwarz"];
const LADDER_GAMES = new Set(["cego", "halbe", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss"]);
const NORMAL_GAMES = new Set(["normal", "hochzeit", "armut"]);

/**
 * A row of toggle buttons, one per choice; ``pick`` is called with the chosen value.
 * @param {string} id
 * @param {{value: string, label: string, title?: string, disabled?: boolean}[]} choices
 * @param {string|null} current
 * @param {(value: string) => void} pick
 */
function choiceRow(id, choices, current, pick) {
  return el("div", { class: "choices", id, role: "group" }, choices.map((c) => el("button", {
    type: "button", class: `choice${c.value === current ? " on" : ""}`, "data-value": c.value, title: c.title,
    "aria-pressed": c.value === current ? "true" : "false", disabled: c.disabled,
    text: c.label, onclick: () => pick(c.value),
  })));
}

/**
 * A number field with − and + for one hand: ``step`` per tap, within ``lo``..``hi``; ``label``
 * names the field for a screen reader (the words beside it are not a <label> of it).
 * @param {string} id
 * @param {number|null} value
 * @param {{lo: number, hi: number, step?: number, big?: number, label: string}} range
 * @param {(value: number|null, typing?: boolean) => void} set ``typing``: a keystroke (the form is
 *   not redrawn, so the field keeps the focus)
 */
function stepper(id, value, range, set) {
  const input = /** @type {HTMLInputElement} */ (el("input", {
    id, type: "number", inputmode: "decimal", min: range.lo, max: range.hi, step: range.step || 1,
    value: value === null ? "" : value, "aria-label": range.label,
  }));
  input.addEventListener("input", () => set(input.value === "" ? null : Number(input.value), true));
  const bump = (/** @type {number} */ by) => {
    const next = Math.min(range.hi, Math.max(range.lo, (value ?? 0) + by));
    set(next);
  };
  const big = range.big || 0;
  return el("span", { class: "stepper" }, [
    big ? el("button", { type: "button", class: "step", text: `−${big}`, onclick: () => bump(-big), "data-step": -big }) : null,
    el("button", { type: "button", class: "step", text: "−", onclick: () => bump(-(range.step || 1)), "data-step": -(range.step || 1) }),
    input,
    el("button", { type: "button", class: "step", text: "+", onclick: () => bump(range.step || 1), "data-step": range.step || 1 }),
    big ? el("button", { type: "button", class: "step", text: `+${big}`, onclick: () => bump(big), "data-step": big }) : null,
  ]);
}

/** @param {string} label @param {Node} control @param {string} [id] */
function field(label, control, id) {
  return el("div", { class: "field", id }, [el("span", { class: "field-label", text: label }), control]);
}

/**
 * Seats as buttons to tap: ``chosen`` are on; the sitting dealer is left out.
 * @param {FormCtx} ctx
 * @param {string} id
 * @param {number[]} chosen
 * @param {(seat: number) => void} tap
 */
function seatButtons(ctx, id, chosen, tap) {
  return el("div", { class: "choices seats", id, role: "group" }, ctx.names.map((name, seat) => seat === ctx.sitting ? null : el("button", {
    type: "button", class: `choice${chosen.includes(seat) ? " on" : ""}`, "data-seat": seat,
    "aria-pressed": chosen.includes(seat) ? "true" : "false", text: name, onclick: () => tap(seat),
  })));
}

// -- Doppelkopf ----------------------------------------------------------------------------------

/** @param {any} rules @returns {{value: string, label: string}[]} */
function dokoKinds(rules) {
  const kinds = [
    { value: "normal", label: gameTypeShort("normal") },
    { value: "hochzeit", label: gameTypeShort("hochzeit") },
    { value: "hochzeit-alone", label: t("sheet.hochzeit_alone") },
  ];
  if (rules.armut) kinds.push({ value: "armut", label: gameTypeShort("armut") });
  for (const type of rules.solo_types || []) kinds.push({ value: `solo-${type}`, label: gameTypeShort(`solo-${type}`) });
  if (!(rules.solo_types || []).includes("trumpf")) kinds.push({ value: "solo-trumpf", label: gameTypeShort("solo-trumpf") });
  if (rules.silent_solo) kinds.push({ value: "solo-still", label: gameTypeShort("solo-still") });
  if (rules.neu_geben_below_trumps > 0) kinds.push({ value: "redeal-neu-geben", label: t("act.neu-geben") });
  if (rules.schmeissen_min_nines > 0) kinds.push({ value: "redeal-schmeissen", label: t("act.schmeissen") });
  if (rules.armut) kinds.push({ value: "redeal-armut", label: t("sheet.armut_redeal") });
  return kinds;
}

/** @param {string} kind */
function gameTypeOf(kind) {
  return kind === "hochzeit-alone" ? "solo-trumpf" : kind;
}

/**
 * The Doppelkopf entry form.
 * @param {FormCtx} ctx
 */
export function dokoForm(ctx) {
  /** @type {any} */
  let s = blankDoko();
  const box = el("div", { class: "entry-form doko", id: "entry-form" });

  function blankDoko() {
    return {
      kind: "normal", re: [], augen: null, schwarz: "", verworfen: null, notDuty: false, redealBy: null, last: "",
      ann: { re: [], kontra: [] }, extras: { re: {}, kontra: {} },
    };
  }
  const solo = () => gameTypeOf(s.kind).startsWith("solo-");
  const redeal = () => s.kind.startsWith("redeal-");

  function draw() {
    const rules = ctx.rules;
    const parts = [field(t("sheet.game_type"), choiceRow("f-kind", dokoKinds(rules), s.kind, (v) => {
      s.kind = v;
      if (solo() && s.re.length > 1) s.re = s.re.slice(-1);
      changed();
    }))];
    if (redeal()) {
      parts.push(field(t("sheet.redeal_by"), seatButtons(ctx, "f-redeal-by", s.redealBy === null ? [] : [s.redealBy], (seat) => {
        s.redealBy = s.redealBy === seat ? null : seat;
        changed();
      })));
      box.replaceChildren(...parts);
      return;
    }
    const reLabel = solo() ? t("sheet.soloist") : t("sheet.re_party");
    parts.push(field(reLabel, seatButtons(ctx, "f-re", s.re, (seat) => {
      if (s.re.includes(seat)) s.re = s.re.filter((/** @type {number} */ x) => x !== seat);
      else s.re = solo() ? [seat] : [...s.re, seat].slice(-2);
      changed();
    })));
    if (solo() && s.re.length === 1 && ctx.owed && ctx.owed[s.re[0]] > 0) {
      parts.push(el("p", { class: "duty-note", id: "f-duty", text: t("sheet.duty_this", { name: ctx.names[s.re[0]] }) }));
    }
    parts.push(field(t("sheet.verwerfen"), el("div", {}, [
      seatButtons(ctx, "f-verworfen", s.verworfen === null ? [] : [s.verworfen], (seat) => {
        s.verworfen = s.verworfen === seat ? null : seat;
        changed();
      }),
      s.verworfen !== null ? el("small", { class: "note", id: "f-verworfen-role", text: t("sheet.verwerfen_role", {
        name: ctx.names[s.verworfen], party: partyName(s.re.includes(s.verworfen) ? "re" : "kontra"),
      }) }) : null,
      s.verworfen !== null && solo() ? el("label", { class: "check" }, [
        el("input", { type: "checkbox", id: "f-not-duty", checked: s.notDuty, onchange: (/** @type {Event} */ e) => {
          s.notDuty = /** @type {HTMLInputElement} */ (e.target).checked; changed();
        } }), ` ${t("sheet.not_duty")}`,
      ]) : null,
    ])));
    if (s.verworfen === null) {
      parts.push(field(t("sheet.re_augen"), el("div", {}, [
        stepper("f-augen", s.schwarz === "re" ? 0 : s.schwarz === "kontra" ? 240 : s.augen, { lo: 0, hi: 240, step: 1, big: 10, label: t("sheet.re_augen") }, (v, typing) => {
          s.augen = v;
          if (!typing) {
            s.schwarz = "";
            changed();
            return;
          }
          s.schwarz = "";
          const note = box.querySelector("#f-kontra-augen");
          if (note) note.textContent = v === null ? "" : t("sheet.kontra_augen", { n: 240 - v });
          ctx.onChange();
        }),
        el("small", { class: "note", id: "f-kontra-augen", text: s.augen === null && !s.schwarz ? "" : t("sheet.kontra_augen", {
          n: 240 - (s.schwarz === "re" ? 0 : s.schwarz === "kontra" ? 240 : s.augen || 0),
        }) }),
      ])));
      parts.push(field(t("sheet.schwarz"), choiceRow("f-schwarz", [
        { value: "", label: t("sheet.schwarz_none") },
        { value: "re", label: t("sheet.schwarz_party", { party: partyName("re") }) },
        { value: "kontra", label: t("sheet.schwarz_party", { party: partyName("kontra") }) },
      ], s.schwarz, (v) => { s.schwarz = v; changed(); })));
    }
    for (const party of ["re", "kontra"]) {
      const said = s.ann[party];
      parts.push(field(`${t("doko.announcements")}: ${partyName(party)}`, choiceRow(`f-ann-${party}`,
        [party, ...LEVELS].map((word) => ({ value: word, label: announcementName(word) })), null, (word) => {
          s.ann[party] = said.includes(word) ? said.filter((/** @type {string} */ w) => w !== word) : [...said, word];
          changed();
        })));
      // choiceRow marks one value; announcements are several: mark each said one.
      const row = /** @type {HTMLElement} */ (parts[parts.length - 1]);
      for (const button of row.querySelectorAll("button.choice")) {
        const on = said.includes(/** @type {HTMLElement} */ (button).dataset.value || "");
        button.classList.toggle("on", on);
        button.setAttribute("aria-pressed", on ? "true" : "false");
      }
    }
    if (s.ann.re.length && s.ann.kontra.length && rules.both_announced === "last-needs-121") {
      parts.push(field(t("sheet.last_announcer"), choiceRow("f-last", ["re", "kontra"].map((p) => ({ value: p, label: partyName(p) })),
        s.last, (v) => { s.last = s.last === v ? "" : v; changed(); })));
    }
    if (s.verworfen === null) {
      const extras = allowedExtras(rules, gameTypeOf(s.kind));
      if (extras.length) {
        const grid = el("div", { class: "extras", id: "f-extras" });
        for (const party of ["re", "kontra"]) {
          for (const [name, most] of extras) {
            const n = s.extras[party][name] || 0;
            grid.append(el("span", { class: "extra" }, [
              el("span", { text: `${extraName(name)} (${partyName(party)})` }),
              stepper(`f-extra-${party}-${name}`, n, { lo: 0, hi: most, label: `${extraName(name)} (${partyName(party)})` }, (v, typing) => {
                s.extras[party][name] = v || 0;
                if (typing) ctx.onChange();
                else changed();
              }),
            ]));
          }
        }
        parts.push(field(t("doko.extras"), grid));
      }
    }
    box.replaceChildren(...parts);
  }

  function changed() {
    draw();
    ctx.onChange();
  }

  /** The summary so far, or null while the form is not filled in enough to score. */
  function summary() {
    if (redeal()) {
      /** @type {any} */ const out = { redeal: s.kind.slice(7) };
      if (s.redealBy !== null) out.redeal_by = s.redealBy;
      return out;
    }
    /** @type {any} */ const out = { game_type: gameTypeOf(s.kind), re: [...s.re].sort() };
    if (s.kind === "hochzeit-alone") out.hochzeit = true;
    const ann = Object.fromEntries(["re", "kontra"].filter((p) => s.ann[p].length).map((p) => [p, s.ann[p]]));
    if (Object.keys(ann).length) out.announcements = ann;
    if (s.last) out.last_announcer = s.last;
    if (s.verworfen !== null) {
      out.verworfen_by = s.verworfen;
      if (s.notDuty && solo()) out.duty_solo = false;
      return out;
    }
    if (s.schwarz) {
      out.schwarz = s.schwarz;
      out.re_augen = s.schwarz === "re" ? 0 : 240;
    } else if (s.augen === null) {
      return null;
    } else {
      out.re_augen = s.augen;
    }
    const extras = Object.fromEntries(["re", "kontra"].map((party) => [party, Object.entries(s.extras[party])
      .flatMap(([name, n]) => Array(Number(n) || 0).fill(name))]).filter(([, list]) => list.length));
    if (Object.keys(extras).length) out.extras = extras;
    return out;
  }

  /** Fill the form from a saved summary (to correct it, or kept across a redraw); like any
   * change of the form, its line is scored anew. @param {any} summary */
  function fill(summary) {
    s = blankDoko();
    if (summary.redeal) {
      s.kind = `redeal-${summary.redeal}`;
      s.redealBy = summary.redeal_by ?? null;
    } else {
      s.kind = summary.hochzeit ? "hochzeit-alone" : summary.game_type;
      s.re = [...(summary.re || [])];
      s.verworfen = summary.verworfen_by ?? null;
      s.notDuty = summary.duty_solo === false;
      s.schwarz = summary.schwarz || "";
      s.augen = summary.re_augen ?? null;
      s.last = summary.last_announcer || "";
      for (const party of ["re", "kontra"]) {
        s.ann[party] = [...((summary.announcements || {})[party] || [])];
        for (const name of ((summary.extras || {})[party] || [])) s.extras[party][name] = (s.extras[party][name] || 0) + 1;
      }
    }
    changed();
  }

  function reset() {
    s = blankDoko();
    draw();
  }

  draw();
  return { element: box, summary, fill, reset };
}

/**
 * The Sonderpunkte the rules count in this game type, with how many there can be in one deal.
 * @param {any} rules
 * @param {string} gameType
 * @returns {[string, number][]}
 */
function allowedExtras(rules, gameType) {
  /** @type {[string, number][]} */ const out = [];
  if ((rules.fox_game_types || []).includes(gameType)) out.push(["fuchs", 2]);
  if (NORMAL_GAMES.has(gameType)) {
    if (rules.karlchen) out.push(["karlchen", 1]);
    if (rules.karlchen && rules.doppelkarlchen) out.push(["doppelkarlchen", 1]);
    if (rules.karlchen_gefangen) out.push(["karlchen-gefangen", 2]);
    if (rules.doppelkopf_min_augen > 0) out.push(["doppelkopf", 6]);
  }
  return out;
}

// -- Cego ----------------------------------------------------------------------------------------

/** The contracts a Cego list may enter now. @param {FormCtx} ctx */
function cegoContracts(ctx) {
  const rules = ctx.rules;
  if (ctx.dealType === "drescher") return ["drescher"];
  if (ctx.dealType === "pflichtraeuber") return ["raeuber"];
  const out = [...(rules.ladder || [])];
  if (rules.solo) out.push("solo");
  if (rules.soli_ulti) out.push("soli-ulti");
  if (rules.ulti) out.push("ulti");
  if (rules.piccolo) out.push("piccolo");
  if (rules.bettel) out.push("bettel");
  if (rules.raeuber || rules.pflichtraeuber) out.push("raeuber");
  return out;
}

/** All card points of the Cego deck under these rules. @param {any} rules */
export function deckPoints(rules) {
  return rules.counting === "pairs" ? 79 : 70;
}

/**
 * The Cego entry form.
 * @param {FormCtx} ctx
 */
export function cegoForm(ctx) {
  /** @type {any} */
  let s = blankCego();
  const box = el("div", { class: "entry-form cego", id: "entry-form" });
  const total = deckPoints(ctx.rules);
  const dealt = () => ctx.names.map((_, seat) => seat).filter((seat) => seat !== ctx.sitting);

  function blankCego() {
    const contracts = cegoContracts(ctx);
    return {
      contract: contracts.length === 1 ? contracts[0] : null, declarer: null, gegensolo: false, points: null,
      tricks: null, berg: "", geiss: null, seatPoints: ctx.names.map(() => null), seatTricks: ctx.names.map(() => null),
      outOfPlay: null, lastTrick: null, aufdecken: false, schinder: [],
    };
  }

  function draw() {
    const rules = ctx.rules;
    const c = s.contract;
    const parts = [];
    if (ctx.dealType) {
      parts.push(el("p", { class: "deal-type", id: "f-deal-type" }, [el("strong", { text: dealTypeName(ctx.dealType) }), ` – ${t("sheet.closing_deal")}`]));
    }
    parts.push(field(t("table.contract"), choiceRow("f-contract", cegoContracts(ctx).map((k) => ({ value: k, label: contractName(k) })), c, (v) => {
      s.contract = v;
      changed();
    })));
    if (!c) {
      box.replaceChildren(...parts);
      return;
    }
    if (c === "raeuber") {
      parts.push(el("p", { class: "note", id: "f-announcer", text: t(ctx.dealType === "pflichtraeuber" ? "cego.pflicht_by" : "cego.raeuber_by", { name: ctx.names[ctx.vorhand] }) }));
      const grid = el("div", { class: "raeuber-grid", id: "f-raeuber" });
      for (const seat of dealt()) {
        grid.append(el("span", { class: "seat-name", text: ctx.names[seat] }),
          stepper(`f-points-${seat}`, s.seatPoints[seat], { lo: 0, hi: total, step: 0.5, label: `${ctx.names[seat]}: ${t("sheet.points")}` }, (v, typing) => { s.seatPoints[seat] = v; update(typing); }),
          stepper(`f-tricks-${seat}`, s.seatTricks[seat], { lo: 0, hi: 13, label: `${ctx.names[seat]}: ${t("table.tricks")}` }, (v, typing) => { s.seatTricks[seat] = v; update(typing); }));
      }
      parts.push(field(`${t("sheet.points")} · ${t("table.tricks")}`, grid));
      parts.push(field(t("sheet.out_of_play"), stepper("f-out-of-play", s.outOfPlay, { lo: 0, hi: total, step: 0.5, label: t("sheet.out_of_play") }, (v, typing) => { s.outOfPlay = v; update(typing); })));
      box.replaceChildren(...parts);
      return;
    }
    if (c === "drescher") {
      parts.push(field(t("sheet.last_trick"), seatButtons(ctx, "f-last-trick", s.lastTrick === null ? [] : [s.lastTrick], (seat) => {
        s.lastTrick = s.lastTrick === seat ? null : seat; changed();
      })));
      box.replaceChildren(...parts);
      return;
    }
    parts.push(field(t("cego.declarer"), seatButtons(ctx, "f-declarer", s.declarer === null ? [] : [s.declarer], (seat) => {
      s.declarer = s.declarer === seat ? null : seat; changed();
    })));
    if (LADDER_GAMES.has(c) && rules.gegensolo) {
      parts.push(el("label", { class: "check" }, [el("input", { type: "checkbox", id: "f-gegensolo", checked: s.gegensolo, onchange: (/** @type {Event} */ e) => {
        s.gegensolo = /** @type {HTMLInputElement} */ (e.target).checked; changed();
      } }), ` ${t("cego.gegensolo")}`]));
    }
    if (LADDER_GAMES.has(c) && rules.pflichtsolo) {
      parts.push(el("label", { class: "check" }, [el("input", { type: "checkbox", id: "f-aufdecken", checked: s.aufdecken, onchange: (/** @type {Event} */ e) => {
        s.aufdecken = /** @type {HTMLInputElement} */ (e.target).checked; changed();
      } }), ` ${t("act.aufdecken")}`]));
      if (s.aufdecken) {
        parts.push(field(t("cego_res.schinder_line"), seatButtons(ctx, "f-schinder", s.schinder, (seat) => {
          s.schinder = s.schinder.includes(seat) ? s.schinder.filter((/** @type {number} */ x) => x !== seat) : [...s.schinder, seat];
          changed();
        })));
        box.replaceChildren(...parts);
        return;
      }
    }
    if (LADDER_GAMES.has(c) || c === "solo" || c === "soli-ulti") {
      parts.push(field(t("sheet.declarer_points"), el("div", {}, [
        stepper("f-points", s.points, { lo: 0, hi: total, step: 0.5, big: 5, label: t("sheet.declarer_points") }, (v, typing) => {
          s.points = v;
          const note = box.querySelector("#f-defender-points");
          if (typing && note) note.textContent = v === null ? "" : t("sheet.defender_points", { n: total - v });
          update(typing);
        }),
        el("small", { class: "note", id: "f-defender-points", text: s.points === null ? "" : t("sheet.defender_points", { n: total - s.points }) }),
      ])));
    }
    if (c === "piccolo" || c === "bettel") {
      parts.push(field(t("sheet.declarer_tricks"), stepper("f-tricks", s.tricks, { lo: 0, hi: 13, label: t("sheet.declarer_tricks") }, (v, typing) => { s.tricks = v; update(typing); })));
    }
    if (c === "ulti" || c === "soli-ulti") {
      parts.push(field(t("sheet.last_geiss"), choiceRow("f-geiss", [
        { value: "yes", label: t("table.yes") }, { value: "no", label: t("table.no") },
      ], s.geiss === null ? null : s.geiss ? "yes" : "no", (v) => { s.geiss = v === "yes"; changed(); })));
    }
    if (c !== "piccolo" && c !== "bettel") {
      parts.push(field(t("cego_res.berg"), choiceRow("f-berg", [
        { value: "", label: t("sheet.berg_none") },
        { value: "declarer", label: t("cego.declarer") },
        { value: "defenders", label: t("cego.defenders") },
      ], s.berg, (v) => { s.berg = v; changed(); })));
    }
    box.replaceChildren(...parts);
  }

  function changed() {
    draw();
    ctx.onChange();
  }

  /** @param {boolean|undefined} typing */
  function update(typing) {
    if (typing) ctx.onChange();
    else changed();
  }

  function summary() {
    const c = s.contract;
    if (!c) return null;
    if (c === "raeuber") {
      const seats = ctx.names.map((_, seat) => seat);
      if (dealt().some((seat) => s.seatPoints[seat] === null || s.seatTricks[seat] === null)) return null;
      /** @type {any} */ const out = {
        contract: c, announcer: ctx.vorhand,
        points: seats.map((seat) => (seat === ctx.sitting ? 0 : s.seatPoints[seat])),
        tricks: seats.map((seat) => (seat === ctx.sitting ? 0 : s.seatTricks[seat])),
      };
      if (s.outOfPlay !== null) out.out_of_play = s.outOfPlay;
      return out;
    }
    if (c === "drescher") return s.lastTrick === null ? null : { contract: c, last_trick: s.lastTrick };
    if (s.declarer === null) return null;
    /** @type {any} */ const out = { contract: c, declarer: s.declarer };
    if (s.gegensolo && LADDER_GAMES.has(c)) out.gegensolo = true;
    if (s.aufdecken && LADDER_GAMES.has(c)) {
      out.aufdecken = { schinder: [...s.schinder].sort() };
      return out;
    }
    if (LADDER_GAMES.has(c) || c === "solo" || c === "soli-ulti") {
      if (s.points === null) return null;
      out.declarer_points = s.points;
    }
    if (c === "piccolo" || c === "bettel") {
      if (s.tricks === null) return null;
      out.declarer_tricks = s.tricks;
    }
    if (c === "ulti" || c === "soli-ulti") {
      if (s.geiss === null) return null;
      out.last_trick_with_geiss = s.geiss;
    }
    if (s.berg && c !== "piccolo" && c !== "bettel") out.berg = s.berg;
    return out;
  }

  /** As the Doppelkopf form's ``fill``. @param {any} summary */
  function fill(summary) {
    s = blankCego();
    s.contract = summary.contract;
    s.declarer = summary.declarer ?? null;
    s.gegensolo = Boolean(summary.gegensolo);
    s.points = summary.declarer_points ?? null;
    s.tricks = summary.declarer_tricks ?? null;
    s.berg = summary.berg || "";
    s.geiss = summary.last_trick_with_geiss ?? null;
    if (summary.points) s.seatPoints = [...summary.points];
    if (summary.tricks) s.seatTricks = [...summary.tricks];
    s.outOfPlay = summary.out_of_play ?? null;
    s.lastTrick = summary.last_trick ?? null;
    if (summary.aufdecken) {
      s.aufdecken = true;
      s.schinder = [...summary.aufdecken.schinder];
    }
    changed();
  }

  function reset() {
    s = blankCego();
    draw();
  }

  draw();
  return { element: box, summary, fill, reset };
}

/**
 * The form for the list's game.
 * @param {FormCtx} ctx
 * @returns {{element: HTMLElement, summary: () => any, fill: (summary: any) => void, reset: () => void}}
 */
export function entryForm(ctx) {
  return ctx.game === "cego" ? cegoForm(ctx) : dokoForm(ctx);
}

/** A summary's game in a few words, for a waiting or refused entry. @param {string} game @param {any} summary */
export function summaryLabel(game, summary) {
  if (!summary) return "";
  if (game === "cego") return contractName(summary.contract || "");
  if (summary.redeal) return tOr(`act.${summary.redeal}`, summary.redeal);
  return summary.hochzeit ? t("sheet.hochzeit_alone") : gameTypeShort(summary.game_type || "");
}
