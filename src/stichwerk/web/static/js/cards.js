// @ts-check
// Playing cards drawn as SVG by our own code: a French deck for Doppelkopf (A 10 K Q J 9) and the
// Cego tarot deck (trumps 1-21, the Gstieß, courts with the Reiter, black 10-7 and red 1-4 pips).

import { LANG, cardName } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
const W = 64;
const H = 96;
const RED = "#c0262d";
const BLACK = "#1c1c1c";

/** Suit symbols, drawn around (0,0) within about ±10 units. */
const SUITS = {
  H: '<path d="M0,9 C-12,0 -11,-9 -5.5,-9 C-2.5,-9 0,-6.5 0,-4.5 C0,-6.5 2.5,-9 5.5,-9 C11,-9 12,0 0,9 Z"/>',
  D: '<path d="M0,-10 L7.5,0 L0,10 L-7.5,0 Z"/>',
  S: '<path d="M0,-10 C-3,-5 -11,-1 -10,4 C-9,8 -4,8 -1.5,5 L-3,10 L3,10 L1.5,5 C4,8 9,8 10,4 C11,-1 3,-5 0,-10 Z"/>',
  C: '<circle cx="0" cy="-5" r="4.4"/><circle cx="-5.2" cy="2" r="4.4"/><circle cx="5.2" cy="2" r="4.4"/><path d="M-1.4,2 L-3,10 L3,10 L1.4,2 Z"/>',
};

/** Pip positions for 1 to 10 pips inside the card. */
const L = 21, M = 32, R = 43;
const PIPS = {
  1: [[M, 48]],
  2: [[M, 26], [M, 70]],
  3: [[M, 26], [M, 48], [M, 70]],
  4: [[L, 26], [R, 26], [L, 70], [R, 70]],
  5: [[L, 26], [R, 26], [M, 48], [L, 70], [R, 70]],
  6: [[L, 26], [R, 26], [L, 48], [R, 48], [L, 70], [R, 70]],
  7: [[L, 26], [R, 26], [M, 37], [L, 48], [R, 48], [L, 70], [R, 70]],
  8: [[L, 26], [R, 26], [M, 37], [L, 48], [R, 48], [M, 59], [L, 70], [R, 70]],
  9: [[L, 24], [R, 24], [L, 40], [R, 40], [M, 48], [L, 56], [R, 56], [L, 72], [R, 72]],
  10: [[L, 24], [R, 24], [M, 32], [L, 40], [R, 40], [L, 56], [R, 56], [M, 64], [L, 72], [R, 72]],
};

const COURT_LETTER = {
  de: { A: "A", K: "K", Q: "D", R: "R", J: "B" },
  en: { A: "A", K: "K", Q: "Q", R: "C", J: "J" },
};

/** Small ornaments that tell the court cards apart at a glance. */
const COURT_MOTIF = {
  K: '<path d="M-11,6 L-11,-6 L-5.5,0 L0,-9 L5.5,0 L11,-6 L11,6 Z" fill="#e0b21b" stroke="#6b4e00" stroke-width="1"/>',
  Q: '<path d="M-9,6 L-9,-2 L-4.5,2 L0,-6 L4.5,2 L9,-2 L9,6 Z" fill="#e0b21b" stroke="#6b4e00" stroke-width="1"/><circle cx="0" cy="-8" r="2" fill="#c0262d"/>',
  R: '<path d="M-8,8 C-9,0 -5,-8 3,-9 L6,-12 L7,-7 C10,-5 10,-1 8,0 L3,-1 C2,3 4,6 5,8 Z" fill="#8a5a2b" stroke="#3e2710" stroke-width="1"/>',
  J: '<path d="M-3,9 C-6,2 -2,-6 6,-11 C4,-4 3,2 2,9 Z" fill="#2f7d4a" stroke="#173d24" stroke-width="1"/>',
};

const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
  "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"];

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} scale
 * @param {boolean} [flip]
 */
function pip(suit, x, y, scale, flip = false) {
  const rot = flip ? " rotate(180)" : "";
  return `<g transform="translate(${x},${y})${rot} scale(${scale})">${SUITS[/** @type {"H"} */ (suit)]}</g>`;
}

/** @param {string} code */
function frontSvg(code) {
  const parts = [`<rect x="0.75" y="0.75" width="${W - 1.5}" height="${H - 1.5}" rx="5" class="card-face"/>`];
  if (code.startsWith("T")) {
    const n = Number(code.slice(1));
    parts[0] = `<rect x="0.75" y="0.75" width="${W - 1.5}" height="${H - 1.5}" rx="5" class="card-face trump-face"/>`;
    parts.push(`<rect x="5" y="5" width="${W - 10}" height="${H - 10}" rx="3" fill="none" stroke="#8a6d3b" stroke-width="0.8"/>`);
    if (n === 22) {
      // The Gstieß (Sküs): the fool, drawn as a jester's star.
      parts.push('<path d="M32,22 L36,40 L52,36 L40,48 L52,60 L36,56 L32,74 L28,56 L12,60 L24,48 L12,36 L28,40 Z" fill="#6a3d9a" stroke="#2e1846" stroke-width="1"/>');
      parts.push('<circle cx="32" cy="48" r="5" fill="#f2c14e"/>');
      parts.push(`<text x="32" y="88" class="trump-label">Gstieß</text>`);
      parts.push(`<text x="8" y="15" class="corner">★</text>`);
    } else {
      parts.push(`<circle cx="32" cy="46" r="18" fill="#fbf4e4" stroke="#8a6d3b" stroke-width="1.2"/>`);
      parts.push(`<text x="32" y="53" class="trump-number">${n}</text>`);
      parts.push(`<text x="32" y="78" class="roman">${ROMAN[n]}</text>`);
      const label = n === 21 ? "Mund" : n === 1 ? "Geiß" : "";
      if (label) parts.push(`<text x="32" y="88" class="trump-label">${label}</text>`);
      parts.push(`<text x="9" y="15" class="corner">${n}</text>`);
      parts.push(`<text x="55" y="88" class="corner">${n}</text>`);
    }
    return parts.join("");
  }
  const suit = code[0];
  const rank = code.slice(1);
  const colour = suit === "H" || suit === "D" ? RED : BLACK;
  const letters = COURT_LETTER[LANG] || COURT_LETTER.de;
  const index = /^\d+$/.test(rank) ? rank : letters[/** @type {"K"} */ (rank)] || rank;
  parts.push(`<g fill="${colour}">`);
  parts.push(`<text x="8" y="14" class="corner" fill="${colour}">${index}</text>`);
  parts.push(pip(suit, 8, 21, 0.38));
  parts.push(`<g transform="rotate(180 32 48)"><text x="8" y="14" class="corner" fill="${colour}">${index}</text>${pip(suit, 8, 21, 0.38)}</g>`);
  if (/^\d+$/.test(rank)) {
    const count = Number(rank);
    const spots = PIPS[/** @type {1} */ (count)] || PIPS[1];
    const scale = count === 1 ? 1.3 : count >= 9 ? 0.55 : 0.62;
    for (const [x, y] of spots) parts.push(pip(suit, x, y, scale, y > 50));
  } else if (rank === "A") {
    parts.push(pip(suit, 32, 48, 1.7));
  } else {
    parts.push(`<rect x="13" y="17" width="38" height="62" rx="3" fill="#f7f1e3" stroke="${colour}" stroke-width="1"/>`);
    parts.push(`<g transform="translate(32,34)">${COURT_MOTIF[/** @type {"K"} */ (rank)] || ""}</g>`);
    parts.push(`<text x="32" y="62" class="court-letter" fill="${colour}">${index}</text>`);
    parts.push(pip(suit, 32, 71, 0.45));
  }
  parts.push("</g>");
  return parts.join("");
}

/** The drawing of each card, made once (the letters follow the page's language). @type {Map<string, string>} */
const MARKUP = new Map();

/** The SVG viewBox every card is drawn in. */
export const VIEW_BOX = `0 0 ${W} ${H}`;

/**
 * The inner SVG markup of the card ``code`` (``null``: the back of a card), made once per card.
 * @param {string|null} code
 * @returns {string}
 */
export function cardMarkup(code) {
  const key = code === null ? "" : code;
  let markup = MARKUP.get(key);
  if (markup === undefined) {
    markup = code === null
      ? `<rect x="0.75" y="0.75" width="${W - 1.5}" height="${H - 1.5}" rx="5" class="card-back"/>` +
        `<rect x="5" y="5" width="${W - 10}" height="${H - 10}" rx="3" class="card-back-inner"/>` +
        `<path d="M32,20 L44,48 L32,76 L20,48 Z" class="card-back-mark"/>`
      : frontSvg(code);
    MARKUP.set(key, markup);
  }
  return markup;
}

/**
 * An SVG element showing the card ``code`` (``null``: the back of a card); with ``name`` it is
 * an image of that name (it names a card button), else hidden from assistive technology.
 * @param {string|null} code
 * @param {string} [name]
 * @returns {SVGSVGElement}
 */
export function cardSvg(code, name = "") {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", VIEW_BOX);
  if (name) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", name);
  } else svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "card-svg");
  svg.innerHTML = cardMarkup(code);
  return svg;
}

/**
 * A card as a labelled element: a button when ``onClick`` is given, otherwise an image.
 * @param {string} code
 * ``badge`` puts a small mark on the card (e.g. a laid-out card that never wins) and adds its
 * words to the card's label; ``dim`` shows a card that is no longer on the table.
 * @param {{onClick?: () => void, disabled?: boolean, selected?: boolean, small?: boolean, legal?: boolean,
 *   dim?: boolean, badge?: {text: string, title: string, kind?: string}}} [opts]
 */
export function cardElement(code, opts = {}) {
  const name = cardName(code) + (opts.badge ? ` (${opts.badge.title})` : "");
  /** @type {HTMLElement} */
  let node;
  if (opts.onClick) {
    node = document.createElement("button");
    node.setAttribute("type", "button");
    if (opts.disabled) node.setAttribute("disabled", "");
    node.addEventListener("click", opts.onClick);
  } else {
    node = document.createElement("span");
    node.setAttribute("role", "img");
  }
  // A button is named by its drawing (see card_view.js Card: WCAG 2.5.3, Label in Name).
  if (!opts.onClick) node.setAttribute("aria-label", name);
  node.setAttribute("title", name);
  node.dataset.card = code;
  node.className = "card" + (opts.small ? " small" : "") + (opts.legal ? " legal" : "") +
    (opts.selected ? " selected" : "") + (opts.disabled ? " unplayable" : "") +
    (opts.dim ? " dim" : "");
  if (opts.selected) node.setAttribute("aria-pressed", "true");
  node.append(cardSvg(code, opts.onClick ? name : ""));
  if (opts.badge) {
    const badge = document.createElement("span");
    badge.className = "card-badge" + (opts.badge.kind ? ` ${opts.badge.kind}` : "");
    badge.textContent = opts.badge.text;
    badge.setAttribute("aria-hidden", "true");
    node.append(badge);
  }
  return node;
}

/**
 * A face-down card (another seat's hand).
 * @param {boolean} [small]
 */
export function cardBack(small = true) {
  const node = document.createElement("span");
  node.className = "card back" + (small ? " small" : "");
  node.append(cardSvg(null));
  return node;
}
