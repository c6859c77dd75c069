"""Does a big score sheet stall the server? ``/healthz`` latency while corrections run.

Starts ``python -m stichwerk.server`` (one uvicorn worker, a fresh SQLite file), imports one
open-ended Doppelkopf list of ``--deals`` deals (the attack used the old line cap, 4,999; the
cap now is ``stichwerk.sheet.MAX_DEALS``), keeps one follower websocket open on it, then sends
corrections, correction previews, deletions and re-insertions of the list's first deals (the
worst case: every later deal is scored anew) back to back for ``--seconds``, while a probe
thread asks ``/healthz`` every 20 ms. It prints the probe's worst, p99 and median latency, the
changes served, the 503 "busy" answers, and the mean size of a change's answer, a preview's
answer and a follower's frame.

    python benchmarks/sheet_stall.py --deals 1500 --seconds 20

``--imports N`` then sends N imports of ``--deals`` deals at once (the issue's eight large
imports) while the probe asks ``/healthz`` and the lobby (``/api/tables``) goes on being read,
and prints both latencies and how many imports were answered 503 "busy".

``--lag`` also has the server report each time its event loop came to a 5 ms timer more than
20 ms late, with the share of that time its thread was on the CPU (near 100%: work on the loop;
low: the thread waited for the interpreter's lock or for a CPU).

Everything runs on loopback; the load client shares the machine with the server.
"""

import argparse
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import httpx
from websockets.sync.client import connect

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
WATCH = """
import asyncio, runpy, sys, time
import uvicorn
serve = uvicorn.Server.serve
async def lag():
    while True:
        wall, cpu = time.perf_counter(), time.thread_time()
        await asyncio.sleep(0.005)
        late = time.perf_counter() - wall - 0.005
        if late > 0.02:
            busy = (time.thread_time() - cpu) / (late + 0.005)
            print(f"loop: {late * 1000:.0f} ms late, its thread on the CPU {busy:.0%} of it",
                  file=sys.stderr)
async def watched(self, *args, **kwargs):
    task = asyncio.create_task(lag())
    return await serve(self, *args, **kwargs)
uvicorn.Server.serve = watched
sys.argv = ["stichwerk.server", *sys.argv[1:]]
runpy.run_module("stichwerk.server", run_name="__main__", alter_sys=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def summary(rng: random.Random) -> dict[str, Any]:
    re = rng.sample(range(4), 2)
    return {"game_type": "normal", "re": re, "re_augen": rng.randint(60, 200)}


class Probe:
    """``path`` asked every 20 ms (from the end of one answer) by a process of its own: the
    load's threads in this process would otherwise hold up the probe itself."""

    def __init__(self, base: str, path: str = "/healthz") -> None:
        ctx = multiprocessing.get_context("spawn")
        self.stop = ctx.Event()
        self.out: Any = ctx.Queue()
        self.proc = ctx.Process(target=_probe, args=(base, path, self.stop, self.out))
        self.proc.start()

    def finish(self) -> list[float]:
        """Stop it; every answer's latency in seconds."""
        self.stop.set()
        latencies: list[float] = self.out.get(timeout=120)
        self.proc.join(60)
        return latencies


def _probe(base: str, path: str, stop: Any, out: Any) -> None:
    latencies: list[float] = []
    with httpx.Client(base_url=base, timeout=120) as http:
        while not stop.is_set():
            started = time.perf_counter()
            http.get(path).raise_for_status()
            latencies.append(time.perf_counter() - started)
            stop.wait(0.02)
    out.put(latencies)


def follow(url: str, origin: str, stop: threading.Event, sizes: list[int]) -> None:
    """A follower's page: the size of every frame after the first."""
    with connect(url, additional_headers={"Origin": origin}, max_size=2**26) as ws:
        first = True
        while not stop.is_set():
            try:
                message = ws.recv(timeout=0.5)
            except TimeoutError:
                continue
            if first and '"type": "sheet"' in str(message)[:40]:
                first = False
                continue
            if not first:
                sizes.append(len(message))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lag", action="store_true", help="report the event loop's lags")
    parser.add_argument("--imports", type=int, default=0, help="then N imports at once")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    workdir = tempfile.mkdtemp(prefix="sheet_stall_")
    env = {**os.environ, "STICHWERK_DATABASE_URL": f"sqlite:///{workdir}/stall.db"}
    start = ["-c", WATCH] if args.lag else ["-m", "stichwerk.server"]
    server = subprocess.Popen(
        [sys.executable, *start, "--port", str(port), "--log-level", "warning"],
        cwd=workdir,
        env=env,
    )
    stop = threading.Event()
    latencies: list[float] = []
    frames: list[int] = []
    try:
        with httpx.Client(base_url=base, timeout=300) as http:
            for _ in range(600):
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            header = {"list": {"game": "doppelkopf", "profile": "wielandstrasse", "games": None,
                               "names": NAMES}}  # fmt: skip
            lines = [json.dumps(header)] + [json.dumps(summary(rng)) for _ in range(args.deals)]
            started = time.perf_counter()
            r = http.post("/api/sheets/import", json={"text": "\n".join(lines)})
            r.raise_for_status()
            import_seconds = time.perf_counter() - started
            made = r.json()
            scorer = made["links"]["scorer"][3:]
            follower = made["links"]["follower"][3:]
            rows = http.get(f"/api/sheets/{scorer}").json()["sheet"]["rows"]
            ids = [row["id"] for row in rows[:10]]
            probe = Probe(base)
            threads = [
                threading.Thread(
                    target=follow,
                    args=(f"ws://127.0.0.1:{port}/ws/sheets/{follower}", base, stop, frames),
                ),
            ]
            for thread in threads:
                thread.start()
            answers: dict[str, list[int]] = {"correct": [], "preview": [], "delete": [], "add": []}
            busy = 0
            end = time.monotonic() + args.seconds
            n = 0
            while time.monotonic() < end:
                n += 1
                i = n % len(ids)
                entry = ids[i]
                kind = ("correct", "preview", "delete")[n % 3]
                if kind == "preview":
                    r = http.post(
                        f"/api/sheets/{scorer}/preview",
                        json={"summary": summary(rng), "entry": entry},
                    )
                elif kind == "correct":
                    r = http.post(
                        f"/api/sheets/{scorer}/changes",
                        json={"op": "correct", "entry": entry, "summary": summary(rng)},
                    )
                else:
                    r = http.post(
                        f"/api/sheets/{scorer}/changes", json={"op": "delete", "entry": entry}
                    )
                    if r.status_code == 200:
                        answers["delete"].append(len(r.content))
                        new = f"again{n}"
                        nxt = ids[(i + 1) % len(ids)]
                        r = http.post(
                            f"/api/sheets/{scorer}/changes",
                            json={"op": "add", "summary": summary(rng), "entry": new,
                                  "before": nxt},
                        )  # fmt: skip
                        ids[i] = new
                        kind = "add"
                if r.status_code == 503:
                    busy += 1
                    continue
                r.raise_for_status()
                answers[kind].append(len(r.content))
            stop.set()
            latencies = probe.finish()
            for thread in threads:
                thread.join(60)
            if args.imports:
                imports = imports_at_once(base, args.imports, lines)
    finally:
        stop.set()
        server.terminate()
        server.wait(30)
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"deals {args.deals}, import {import_seconds:.2f} s, {args.seconds:.0f} s of changes")
    print(
        f"/healthz: {len(ms)} probes, worst {ms[-1]:.1f} ms, p99 {p99:.1f} ms, "
        f"median {statistics.median(ms):.1f} ms"
    )
    for kind, sizes in answers.items():
        if sizes:
            print(f"{kind}: {len(sizes)} answers, mean {statistics.mean(sizes) / 1024:.1f} KiB")
    if frames:
        print(f"follower frames: {len(frames)}, mean {statistics.mean(frames) / 1024:.1f} KiB")
    print(f"503 busy: {busy}")
    if args.imports:
        print(imports)


def imports_at_once(base: str, n: int, lines: list[str]) -> str:
    """``n`` imports of the same list at once while ``/healthz`` and the lobby are probed."""
    statuses: list[int] = []

    def send() -> None:
        with httpx.Client(base_url=base, timeout=300) as http:
            r = http.post("/api/sheets/import", json={"text": "\n".join(lines)})
            statuses.append(r.status_code)

    health, lobby = Probe(base), Probe(base, "/api/tables")
    senders = [threading.Thread(target=send) for _ in range(n)]
    started = time.perf_counter()
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join(300)
    took = time.perf_counter() - started
    healthz, tables = health.finish(), lobby.finish()
    ok, busy = statuses.count(200), statuses.count(503)
    return (
        f"{n} imports at once: {ok} stored, {busy} busy, all answered in {took:.2f} s; "
        f"/healthz worst {max(healthz) * 1000:.1f} ms (median "
        f"{statistics.median(healthz) * 1000:.1f}), lobby worst {max(tables) * 1000:.1f} ms "
        f"(median {statistics.median(tables) * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
