// @ts-check
// Shared helpers: JSON API calls, texts in the page's language, card names and action labels.

/** @type {Record<string, any>} */
let TEXTS = {};
export const LANG = document.documentElement.lang === "en" ? "en" : "de";

/**
 * The API's refusals by code (``static/i18n/refusals.json``, the server's table too).
 * @type {{prefixes: {pattern: string, param: string}[], patterns: {code: string, pattern: string, params: string[]}[], status: Record<string, string>}|null}
 */
let REFUSALS = null;

/** Load the texts of the page's language (the same JSON the server's templates use) and the
 * refusals' table. */
export async function loadTexts() {
  const [texts, refusals] = await Promise.all([
    fetch(`/static/i18n/${LANG}.json`).then((r) => r.json()),
    fetch("/static/i18n/refusals.json").then((r) => r.json()).catch(() => null),
  ]);
  TEXTS = texts;
  REFUSALS = refusals;
}

/**
 * A refusal's code and params: the server's ``x-refusal`` header, else read out of its English
 * line by the table the server uses (a score sheet's preview on the phone has no header).
 * @param {string} line
 * @param {string|null} [header]
 * @returns {{code: string, params: Record<string, string>}|null}
 */
export function refusalOf(line, header) {
  if (header) {
    try { return JSON.parse(header); } catch { /* read the line */ }
  }
  if (!REFUSALS) return null;
  /** @type {Record<string, string>} */
  const params = {};
  let rest = line;
  for (const prefix of REFUSALS.prefixes) {
    const found = new RegExp(prefix.pattern).exec(rest);
    if (found) { params[prefix.param] = found[1]; rest = found[2]; break; }
  }
  for (const pattern of REFUSALS.patterns) {
    const found = new RegExp(pattern.pattern).exec(rest);
    if (found) {
      pattern.params.forEach((name, i) => { if (found[i + 1]) params[name] = found[i + 1]; });
      return { code: pattern.code, params };
    }
  }
  return null;
}

/**
 * A refusal in the page's language, naming the field a person sees ("Spiel 4: Augen von Re
 * müssen zwischen 0 und 240 liegen"); the server's line where the catalogue has no words.
 * @param {string} line the one-line English ``error``
 * @param {{code: string, params: Record<string, string>}|null} [info] its code, if known
 */
export function refusalText(line, info) {
  const found = info || refusalOf(line);
  // A refusal known only by its HTTP status keeps the server's line: it says more than
  // "forbidden" would (which secret, which link).
  if (!found || !REFUSALS || !REFUSALS.patterns.some((p) => p.code === found.code)) return line;
  const template = lookup(`refusal.${found.code}`);
  if (typeof template !== "string") return line;
  /** @type {Record<string, string>} */
  const vars = { text: line };
  for (const [name, value] of Object.entries(found.params || {})) {
    const field = name === "field" ? lookup(`field.${value}`) : undefined;
    vars[name] = typeof field === "string" ? field : String(value);
  }
  let text = fill(template, vars);
  if (vars.deal && !template.includes("{deal}") && !template.includes("{text}")) text = tOr("refusal._deal", text, { deal: vars.deal, text });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The text at a dotted key, with {placeholders} filled in.
 * @param {string} key
 * @param {Record<string, string|number>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const node = counted(key, vars);
  return fill(typeof node === "string" ? node : key.split(".").pop() || key, vars);
}

/**
 * The text at a dotted key, or ``fallback`` when there is none.
 * @param {string} key
 * @param {string} fallback
 * @param {Record<string, string|number>} [vars]
 */
export function tOr(key, fallback, vars = {}) {
  const node = counted(key, vars);
  return fill(typeof node === "string" ? node : fallback, vars);
}

/**
 * The entry at ``key`` for the count ``vars.n``: ``<key>_one`` when there is one thing ("1 Punkt",
 * "1 Turnier"), else ``<key>``.
 * @param {string} key
 * @param {Record<string, string|number>} vars
 * @returns {any}
 */
function counted(key, vars) {
  if (vars.n !== undefined && Number(vars.n) === 1) {
    const one = lookup(`${key}_one`);
    if (typeof one === "string") return one;
  }
  return lookup(key);
}

/**
 * The raw entry at a dotted key (the last part may contain dots or spaces: it is looked up whole).
 * @param {string} key
 * @returns {any}
 */
export function lookup(key) {
  /** @type {any} */
  let node = TEXTS;
  const parts = key.split(".");
  for (let i = 0; i < parts.length; i += 1) {
    if (node == null || typeof node !== "object") return undefined;
    const rest = parts.slice(i).join(".");
    if (i > 0 && rest in node && typeof node[rest] === "string") return node[rest];
    node = node[parts[i]];
  }
  return node;
}

/** @param {string} text @param {Record<string, string|number>} vars */
function fill(text, vars) {
  for (const [name, value] of Object.entries(vars)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/**
 * Call the JSON API; throws an Error with the server's one-line message.
 * @param {string} path
 * @param {any} [body] when given, the request sends this JSON (a POST unless ``method`` says)
 * @param {string} [method]
 */
export async function api(path, body, method = "POST") {
  /** @type {RequestInit} */
  const init = { credentials: "same-origin" };
  if (body !== undefined) {
    init.method = method;
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  // The answer's body rides along (typed totals' problems, each at its field).
  // The message in the page's language, by the refusal's code (the x-refusal header).
  if (!response.ok) {
    const line = data.error || response.statusText;
    const refusal = refusalOf(line, response.headers.get("x-refusal"));
    throw Object.assign(new Error(refusalText(line, refusal)), { data, refusal });
  }
  return data;
}

/**
 * A person's name for a card code: "Herz König" / "King of hearts", "Trumpf 21 (Mund)".
 * @param {string} code
 */
export function cardName(code) {
  if (code.startsWith("T")) {
    const n = code.slice(1);
    const special = t(`trump.${n}`);
    const base = t("trump.name", { n });
    if (n === "22") return special;
    return special !== n ? `${base} (${special})` : base;
  }
  const suit = t(`suit.${code[0]}`);
  const rankCode = code.slice(1);
  const rank = /^\d+$/.test(rankCode) ? rankCode : t(`rank.${rankCode}`);
  return LANG === "de" ? `${suit} ${rank}` : `${rank} of ${suit}`;
}

/**
 * The label of an action: "Solo", "Re", "Solo: Damen".
 * @param {{act: string, type?: string}} action
 */
export function actLabel(action) {
  const base = t(`act.${action.act}`);
  return action.type ? `${base}: ${t(`type.${action.type}`)}` : base;
}

/**
 * A short explanation of an action for its tooltip, if the texts have one.
 * @param {{act: string}} action
 * @returns {string|undefined}
 */
export function actTitle(action) {
  const text = lookup(`act_explain.${action.act}`);
  return typeof text === "string" ? text : undefined;
}

/**
 * Points with their sign: "+30", "−30", "0".
 * @param {number} n
 */
export function signed(n) {
  const text = formatNumber(Math.abs(n));
  return n > 0 ? `+${text}` : n < 0 ? `−${text}` : "0";
}

/**
 * A number as the page's language writes it (34,5 / 34.5).
 * @param {number} n
 */
export function formatNumber(n) {
  return new Intl.NumberFormat(LANG === "de" ? "de-DE" : "en-GB", { maximumFractionDigits: 2 }).format(n);
}

/**
 * Cents as euros with their sign: "+1,30 €" / "−€1.30".
 * @param {number} cents
 */
export function money(cents) {
  const text = new Intl.NumberFormat(LANG === "de" ? "de-DE" : "en-GB", { style: "currency", currency: "EUR" })
    .format(Math.abs(cents) / 100);
  return cents > 0 ? `+${text}` : cents < 0 ? `−${text}` : text;
}

/**
 * Names joined as a sentence says them: "Anna, Bernd und Carl".
 * @param {string[]} names
 */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  const and = LANG === "de" ? " und " : " and ";
  return names.slice(0, -1).join(", ") + and + names[names.length - 1];
}

/**
 * Create an element with attributes and children.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {(Node|string|null|undefined|false)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/**
 * Show a short message at the bottom of the page.
 * @param {string} message
 */
export function toast(message) {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", role: "alert" });
    document.body.append(box);
  }
  box.textContent = message;
  box.classList.add("show");
  clearTimeout(Number(box.dataset.timer || 0));
  box.dataset.timer = String(setTimeout(() => box && box.classList.remove("show"), 4000));
}

/**
 * Copy ``text`` for the person, its element ``node`` selected to show what was taken: by the
 * clipboard where the browser allows it, else by the browser's copy command. A page opened at a
 * LAN's http:// address has no ``navigator.clipboard`` and a permission may be refused; where
 * both fail the text stays selected for Ctrl+C or the phone's menu. A toast says which.
 * @param {string} text
 * @param {HTMLElement} node the element showing ``text`` (an input, or any element)
 */
export async function copyText(text, node) {
  const select = () => {
    if (node instanceof HTMLInputElement) {
      node.focus();
      node.select();
      return;
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  };
  select();
  let copied = false;
  try {
    copied = document.execCommand("copy"); // while the click's activation lasts
  } catch {
    copied = false;
  }
  if (!copied && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch {
      copied = false; // refused: the text stays selected
    }
  }
  select();
  toast(t(copied ? "address.copied" : "address.selected"));
  return copied;
}

// -- the public address -----------------------------------------------------------------------

/** The server's public address (GET /api/address), once asked. @type {{public: string, loopback: boolean, reachable: boolean}|null} */
let ADDRESS = null;

/** Ask the server the address phones reach it at (offline: links stay on this page's own). */
export async function loadAddress() {
  try {
    const response = await fetch("/api/address", { credentials: "same-origin", cache: "no-store" });
    if (response.ok) ADDRESS = await response.json();
  } catch {
    // offline: the page's own address
  }
  return ADDRESS;
}

/** The origin links and QR codes are made of: the public one, not the address this browser used. */
export function publicOrigin() {
  return ADDRESS ? ADDRESS.public : location.origin;
}

/**
 * On a page opened on a loopback address (127.x, localhost, ::1), a warning above ``root``
 * naming the address phones reach (or saying none can): no phone in the hall reaches 127.0.0.1.
 * @param {HTMLElement} root
 */
export function warnIfLoopback(root) {
  document.getElementById("loopback-warning")?.remove();
  if (!ADDRESS || !ADDRESS.loopback) return;
  const here = location.host;
  const children = ADDRESS.reachable
    ? [
      el("p", { text: t("address.loopback", { here, url: ADDRESS.public }) }),
      el("a", { id: "loopback-open", href: ADDRESS.public + location.pathname + location.search + location.hash, text: t("address.open_there") }),
    ]
    : [el("p", { text: t("address.loopback_only", { here }) })];
  root.before(el("div", { class: "panel loopback-warning", id: "loopback-warning", role: "alert", "data-public": ADDRESS.public }, children));
}
