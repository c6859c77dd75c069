// @ts-check
// What a phone keeps of its score sheets (IndexedDB), so a list opens and takes entries with no
// connection: each list's last known state from the server (settings, change log, sheet), and
// the entries made here that the server has not acknowledged yet ("waiting"), each with its
// idempotency key, or refused by the server ("refused": shown until the person acts on it).

const DB_NAME = "stichwerk-sheets";
const DB_VERSION = 1;

/**
 * A list as the phone last saw it.
 * @typedef {{token: string, role: string, links: Record<string, string>, seq: number,
 *   settings: any, rules: any, deck_points: number|null, log: any[], sheet: any, seen: number}} KeptList
 */
/**
 * An entry made on this phone: waiting to be sent, or refused by the server.
 * @typedef {{key: string, token: string, change: any, made: number, state: "waiting"|"refused",
 *   error: string|null, conflict: boolean}} Outgoing
 */

/** @type {Promise<IDBDatabase>|null} */
let opening = null;

/** @returns {Promise<IDBDatabase>} */
function db() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = () => {
        const base = request.result;
        base.createObjectStore("lists", { keyPath: "token" });
        const out = base.createObjectStore("outbox", { keyPath: "key" });
        out.createIndex("token", "token");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opening;
}

/**
 * Run one request in a transaction and wait until the transaction has committed.
 * @template T
 * @param {string} store
 * @param {IDBTransactionMode} mode
 * @param {(s: IDBObjectStore) => IDBRequest<T>} work
 * @returns {Promise<T>}
 */
async function run(store, mode, work) {
  const base = await db();
  return new Promise((resolve, reject) => {
    const tx = base.transaction(store, mode);
    const request = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** @param {KeptList} list */
export async function keepList(list) {
  await run("lists", "readwrite", (s) => s.put(list));
}

/** @param {string} token @returns {Promise<KeptList|undefined>} */
export async function keptList(token) {
  return run("lists", "readonly", (s) => s.get(token));
}

/** Every list this phone has opened, the latest first. @returns {Promise<KeptList[]>} */
export async function keptLists() {
  const all = /** @type {KeptList[]} */ (await run("lists", "readonly", (s) => s.getAll()));
  return all.sort((a, b) => b.seen - a.seen);
}

/**
 * Keep an entry before anything else happens to it: once this resolves, closing the page or
 * losing the connection cannot lose it.
 * @param {string} token
 * @param {any} change
 */
export async function queue(token, change) {
  /** @type {Outgoing} */
  const item = { key: change.key, token, change, made: Date.now(), state: "waiting", error: null, conflict: false };
  await run("outbox", "readwrite", (s) => s.put(item));
  return item;
}

/** The list's entries not yet acknowledged or refused, oldest first. @param {string} token */
export async function outgoing(token) {
  const items = /** @type {Outgoing[]} */ (await run("outbox", "readonly", (s) => s.index("token").getAll(token)));
  return items.sort((a, b) => a.made - b.made);
}

/** The server has the entry: forget it here. @param {string} key */
export async function done(key) {
  await run("outbox", "readwrite", (s) => s.delete(key));
}

/**
 * The server refused the entry: keep it, with the server's line, until the person decides.
 * @param {Outgoing} item
 * @param {string} error
 * @param {boolean} conflict
 */
export async function refused(item, error, conflict) {
  await run("outbox", "readwrite", (s) => s.put({ ...item, state: "refused", error, conflict }));
}
