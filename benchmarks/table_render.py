"""The table page in the browser: its first render, a frame's update and the JavaScript shipped.

Debian's chromium through Playwright against a real server (``tests/server/serverproc``), a
Doppelkopf table of one person and three bots played by the e2e driver:

- first render: from the navigation's start to the table drawn (``#table-app`` gets its
  ``data-version``), over several loads of the table page;
- a frame's update: from a websocket message's arrival (a listener registered before the
  page's own) to the nodes patched (the ``data-version`` the page sets after drawing), and to the
  next animation frame (layout and style included), over every state frame of a few deals;
- JavaScript shipped: every script the table page loads, raw and gzip-compressed (level 6).

Before and after a change, point ``--src`` at another checkout's ``src`` (e.g. a worktree made
with ``git worktree add /tmp/before <commit>``)::

    .venv/bin/python benchmarks/table_render.py --src /tmp/before/src
    .venv/bin/python benchmarks/table_render.py
"""

import argparse
import gzip
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.driver import attr, create_table, my_turn, next_deal, take_turn  # noqa: E402
from tests.server.serverproc import Server  # noqa: E402

PROBE = """
(() => {
  window.__frames = []; window.__firstRender = null;
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', (event) => {
      let type = ''; try { type = JSON.parse(event.data).type; } catch (e) {}
      if (type === 'state') window.__pending = performance.now();
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2 });
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.attributeName !== 'data-version') continue;
      const now = performance.now();
      if (window.__firstRender === null) window.__firstRender = now;
      else if (window.__pending !== undefined) {
        const start = window.__pending; window.__pending = undefined;
        requestAnimationFrame(() => window.__frames.push([now - start, performance.now() - start]));
      }
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-version'] });
})();
"""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(src: Path | None, loads: int, deals: int, seed: int) -> dict[str, Any]:
    env = {"STICHWERK_BOT_DELAY": "0.05"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    with tempfile.TemporaryDirectory() as work:
        server = Server(Path(work), env=env)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_init_script(PROBE)
                page = context.new_page()
                url = create_table(page, server.url, "doppelkopf", series=deals + 2)
                firsts = []
                for _ in range(loads):
                    page.goto(url)
                    page.wait_for_function("() => window.__firstRender !== null")
                    firsts.append(page.evaluate("() => window.__firstRender"))
                # Every script the page loaded (resource timing), fetched again for its bytes.
                names = page.evaluate(
                    "() => performance.getEntriesByType('resource').map(e => e.name)"
                    ".filter(n => /\\.m?js(\\?|$)/.test(n))"
                )
                scripts = {name: page.request.get(name).body() for name in set(names)}
                frames = _play(page, deals, random.Random(seed))
                browser.close()
        finally:
            server.stop()
    raw = sum(len(body) for body in scripts.values())
    packed = sum(len(gzip.compress(body, 6)) for body in scripts.values())
    patched = [f[0] for f in frames]
    painted = [f[1] for f in frames]
    return {
        "first_render_ms_median": round(statistics.median(firsts), 1),
        "frames": len(frames),
        "frame_update_ms_median": round(statistics.median(patched), 2),
        "frame_update_ms_p95": round(_percentile(patched, 0.95), 2),
        "frame_to_next_paint_ms_median": round(statistics.median(painted), 2),
        "js_files": len(scripts),
        "js_bytes": raw,
        "js_gzip_bytes": packed,
    }


def _play(page: Page, deals: int, rng: random.Random) -> list[list[float]]:
    """Play ``deals`` deals as the e2e driver does; the frames' timings measured meanwhile."""
    page.evaluate("() => { window.__frames = []; }")
    done = 0
    while done < deals:
        phase = attr(page, "phase")
        if phase == "between":
            done += 1
            if done < deals:
                next_deal(page, "the series ended")
            continue
        if phase == "finished":
            break
        if my_turn(page):
            take_turn(page, rng)
        else:
            version = attr(page, "version")
            page.wait_for_function(
                "v => { const r = document.getElementById('table-app');"
                " return r.dataset.version !== v || document.querySelector('#status.mine') !== null"
                " || ['between', 'finished'].includes(r.dataset.phase); }",
                arg=version,
                timeout=60_000,
            )
    frames: list[list[float]] = page.evaluate("() => window.__frames")
    return frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, help="another checkout's src (default: this one)")
    parser.add_argument("--loads", type=int, default=7, help="loads of the page for first render")
    parser.add_argument("--deals", type=int, default=3, help="deals played for the frames")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure(args.src, args.loads, args.deals, args.seed), indent=2))


if __name__ == "__main__":
    main()
