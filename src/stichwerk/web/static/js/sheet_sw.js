// @ts-check
// The score sheet's service worker (served as /s/sw.js with SHEET_OFFLINE set before this text:
// the version of everything it keeps and the URLs to keep). It makes the sheet pages open with
// no connection: on install it keeps the pages' code, texts and the project's pure Python; a
// list's page is kept each time it loads, Pyodide the first time a scorer's page loads it. The JSON API and the websockets are never
// answered from here: the page keeps its lists itself (IndexedDB) and knows when it is offline.

/** @type {any} */
const sw = self;
/** @type {{version: string, precache: string[]}} */
const OFFLINE = sw.SHEET_OFFLINE;
const CODE = `stichwerk-sheet-${OFFLINE.version}`;
const PAGES = "stichwerk-sheet-pages";

sw.addEventListener("install", (/** @type {any} */ event) => {
  event.waitUntil(caches.open(CODE).then((cache) => cache.addAll(OFFLINE.precache)).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (/** @type {any} */ event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("stichwerk-sheet-") && name !== CODE && name !== PAGES) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

/** @param {Request} request */
async function page(request) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(new URL(request.url).pathname, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(new URL(request.url).pathname);
    if (kept) return kept;
    const code = await caches.open(CODE);
    return (await code.match("/s/new")) || Response.error();
  }
}

/** The code and Pyodide: from the phone when kept, else fetched and kept (Pyodide is fetched
 * only by a scorer's page, whose worker scores entries offline). @param {Request} request */
async function kept(request) {
  const cache = await caches.open(CODE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

sw.addEventListener("fetch", (/** @type {any} */ event) => {
  const request = /** @type {Request} */ (event.request);
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/s/py/")) {
    event.respondWith(kept(request));
  }
});
