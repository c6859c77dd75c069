"""Idle tables and the lobby: the server's memory with many unfinished tables nobody attends,
and the lobby's answer with many open tables.

Starts ``python -m stichwerk.server`` (one uvicorn worker, a fresh SQLite file) and

1. **memory**: opens ``--idle`` tables (a guest's seat and three random bots, Cego; nobody
   connects, so each table plays to the guest's first turn and waits there), twice, and reads
   the server's RSS after each batch (with ``--release`` seconds of idle time the actors are
   released in between: it waits until ``/healthz`` counts no table in memory);
2. **lobby**: opens ``--open`` tables waiting for a second person and times ``GET /api/tables``
   (the default page, and ``--pages`` more pages), with the answer's size.

``--src DIR`` runs the server from another source tree (e.g. the code before a change, from
``git archive``), so the same script measures before and after::

    python benchmarks/idle_tables.py --idle 500 --open 2000 --release 3
    python benchmarks/idle_tables.py --idle 500 --open 2000 --src /tmp/before/src
"""

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def wait_until(probe: httpx.AsyncClient, pred: Any, seconds: float) -> dict[str, Any]:
    """Poll ``/healthz`` until ``pred(answer)`` (or the time is up); returns the last answer."""
    end = time.monotonic() + seconds
    answer: dict[str, Any] = {}
    while time.monotonic() < end:
        try:
            answer = (await probe.get("/healthz")).json()
            if pred(answer):
                break
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.2)
    return answer


async def open_tables(
    http: httpx.AsyncClient, cookie: str, count: int, seats: list[dict[str, Any]]
) -> list[str]:
    made: list[str] = []
    sem = asyncio.Semaphore(8)

    async def one() -> None:
        async with sem:
            body = {
                "game": "cego",
                "seats": seats,
                "series_length": 24,
                "time_limit": 3600,
                "first_dealer": 0,
            }
            r = await http.post("/api/tables", json=body, headers={"cookie": cookie})
            r.raise_for_status()
            made.append(r.json()["table"]["id"])

    await asyncio.gather(*(one() for _ in range(count)))
    return made


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    workdir = tempfile.mkdtemp(prefix="idle_tables_")
    env = {
        **os.environ,
        "STICHWERK_DATABASE_URL": f"sqlite:///{workdir}/idle.db",
        "STICHWERK_LOGIN_RATE": "100000",
        "STICHWERK_WRITE_RATE": "100000",
        "STICHWERK_MAX_CONNECTIONS_PER_ADDRESS": "0",
        "STICHWERK_BOT_DELAY": "0",
        "STICHWERK_IDLE_RELEASE": str(args.release),
    }
    if args.src:
        env["PYTHONPATH"] = args.src
    server = subprocess.Popen(
        [sys.executable, "-m", "stichwerk.server", "--port", str(port), "--log-level", "warning"],
        cwd=workdir,
        env=env,
    )
    out: dict[str, Any] = {"idle": args.idle, "open": args.open, "release": args.release}
    try:
        async with httpx.AsyncClient(base_url=base, timeout=120, headers={"origin": base}) as http:
            await wait_until(http, lambda a: a.get("ok"), 60)
            await asyncio.sleep(1.0)
            out["rss_start_mib"] = round(rss_mib(server.pid), 1)
            r = await http.post("/api/guest", json={})
            r.raise_for_status()
            cookie = f"stichwerk={r.cookies['stichwerk']}"

            # 1. Memory: tables that wait at their person's first turn, nobody connected.
            one_person = [{"kind": "human", "bot": "random"}] + [
                {"kind": "bot", "bot": "random"}
            ] * 3
            for batch in (1, 2):
                started = time.monotonic()
                await open_tables(http, cookie, args.idle, one_person)
                out[f"batch{batch}_open_s"] = round(time.monotonic() - started, 1)
                # Let every table's bots reach the person's turn (and, with a release time,
                # the actors go).
                if args.src:
                    await asyncio.sleep(args.settle)
                    live = (await http.get("/healthz")).json()
                else:
                    live = await wait_until(
                        http, lambda a: a.get("tables", 1) == 0, args.release + args.settle + 60
                    )
                    await asyncio.sleep(1.0)
                out[f"batch{batch}_live_tables"] = live.get("tables")
                out[f"batch{batch}_rss_mib"] = round(rss_mib(server.pid), 1)

            # 2. The lobby with many open tables (each waits for a second person).
            two_people = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot"}] * 2
            await open_tables(http, cookie, args.open, two_people)
            times: list[float] = []
            sizes: list[int] = []
            listed = 0
            for _ in range(args.repeat):
                started = time.perf_counter()
                r = await http.get("/api/tables", headers={"cookie": cookie})
                times.append(time.perf_counter() - started)
                sizes.append(len(r.content))
                listed = len(r.json()["open"])
            out["lobby_open_listed"] = listed
            out["lobby_bytes"] = sizes[-1]
            out["lobby_ms_median"] = round(statistics.median(times) * 1000, 1)
            out["lobby_ms_max"] = round(max(times) * 1000, 1)
            page_times: list[float] = []
            for page in range(1, args.pages + 1):
                started = time.perf_counter()
                r = await http.get(f"/api/tables?offset={50 * page}", headers={"cookie": cookie})
                page_times.append(time.perf_counter() - started)
            if page_times:
                out["lobby_later_pages_ms_median"] = round(statistics.median(page_times) * 1000, 1)
            out["rss_end_mib"] = round(rss_mib(server.pid), 1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=500, help="idle tables per batch (two)")
    parser.add_argument("--open", type=int, default=2000, help="open tables for the lobby")
    parser.add_argument("--release", type=float, default=3.0, help="STICHWERK_IDLE_RELEASE")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds for the bots")
    parser.add_argument("--repeat", type=int, default=20, help="lobby requests timed")
    parser.add_argument("--pages", type=int, default=10, help="later lobby pages timed")
    parser.add_argument("--src", help="run the server from this source tree (before a change)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
