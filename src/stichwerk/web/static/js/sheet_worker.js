// @ts-check
// The phone's scorer: Pyodide (CPython compiled to WebAssembly) running the project's own pure
// Python (stichwerk.sheet and the engines, from /s/py/stichwerk.zip) in a web worker, so a deal
// entered with no connection is scored by the very code the server uses. The page sends
// {init: {pyodide, zip}} once, then {id, request} calls of stichwerk.sheet.log.phone.

/** @type {any} */
const scope = self;
/** @type {any} */
let python = null;
/** @type {any} */
let phone = null;
/** @type {Promise<void>|null} */
let starting = null;

/** @param {{pyodide: string, zip: string}} where */
async function start(where) {
  scope.importScripts(`${where.pyodide}pyodide.js`);
  python = await scope.loadPyodide({ indexURL: where.pyodide, fullStdLib: false });
  const response = await fetch(where.zip);
  if (!response.ok) throw new Error(`${where.zip}: ${response.status}`);
  python.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/stichwerk-pure" });
  python.runPython([
    "import sys",
    "sys.path.insert(0, '/home/pyodide/stichwerk-pure')",
    "from stichwerk.sheet.log import phone",
  ].join("\n"));
  phone = python.globals.get("phone");
}

scope.onmessage = async (/** @type {MessageEvent} */ event) => {
  const message = event.data;
  if (message.init) {
    starting = starting || start(message.init);
    try {
      await starting;
      scope.postMessage({ ready: true });
    } catch (error) {
      scope.postMessage({ ready: false, error: String(error) });
    }
    return;
  }
  try {
    if (starting) await starting;
    const result = phone(message.request);
    scope.postMessage({ id: message.id, result });
  } catch (error) {
    scope.postMessage({ id: message.id, error: String(error) });
  }
};
