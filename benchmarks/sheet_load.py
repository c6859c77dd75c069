"""Load test of the score sheet: many lists kept at once on one server process.

Starts ``python -m stichwerk.server`` (one uvicorn worker, a fresh SQLite file), imports
``--lists`` Doppelkopf lists of ``--deals`` deals each, opens ``--followers`` websockets per
list (the phones following it) and lets each list's scorer enter a deal over HTTP every
``--think`` seconds (0.5–1.5 ×, far faster than a real table, which enters one every few
minutes). It measures, for every deal entered, the time from the scorer sending it to each
follower's socket receiving the new sheet (p50/p95/p99 over every follower and deal), the
server's CPU, and the same for a reference run of a single list in the same script, so the
figure is also a ratio against the unloaded server on the same machine.

    python benchmarks/sheet_load.py --lists 200 --followers 3 --seconds 60

Everything runs on loopback; the load client shares the machine with the server.
"""

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

SEQ = re.compile(rb'"seq": (\d+)')
NAMES = ["Anna", "Bernd", "Clara", "Dieter"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summary(rng: random.Random) -> dict[str, Any]:
    """A Normalspiel as a table enters it: the Re party, Re's Augen, now and then an Ansage."""
    re = rng.sample(range(4), 2)
    out: dict[str, Any] = {"game_type": "normal", "re": re, "re_augen": rng.randint(60, 200)}
    if rng.random() < 0.3:
        out["announcements"] = {"re": ["re"]}
    return out


@dataclass
class ListRun:
    token: str
    follower: str
    sent: dict[int, float] = field(default_factory=dict)
    seq: int = 0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    entries: int = 0
    errors: int = 0


async def follow(url: str, origin: str, run: ListRun, stats: Stats, stop_at: float,
                 connected: list[int]) -> None:  # fmt: skip
    async with connect(url, additional_headers={"Origin": origin}, max_size=2**23) as ws:
        connected[0] += 1
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(decode=False), stop_at - time.monotonic())
            except TimeoutError:
                return
            now = time.perf_counter()
            found = SEQ.search(raw[:80])
            if found is None:
                continue
            sent = run.sent.get(int(found.group(1)))
            if sent is not None:
                stats.latencies.append(now - sent)


async def score(base: str, run: ListRun, stats: Stats, think: float, stop_at: float,
                rng: random.Random) -> None:  # fmt: skip
    # A client of its own, as each scorer is a phone of its own (one shared pool of many
    # connections makes the load client, not the server, the bottleneck).
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await enter_deals(http, run, stats, think, stop_at, rng)


async def enter_deals(http: httpx.AsyncClient, run: ListRun, stats: Stats, think: float,
                      stop_at: float, rng: random.Random) -> None:  # fmt: skip
    while True:
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        if time.monotonic() >= stop_at:
            return
        key = f"bench-{run.seq + 1}-{rng.getrandbits(32)}"
        run.sent[run.seq + 1] = time.perf_counter()
        change = {"op": "add", "key": key, "summary": summary(rng)}
        r = await http.post(f"/api/sheets/{run.token}/changes", json=change)
        if r.status_code != 200:
            stats.errors += 1
            continue
        run.seq = r.json()["seq"]
        stats.entries += 1


async def measure(args: argparse.Namespace, lists: int) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    workdir = tempfile.mkdtemp(prefix="sheet_load_")
    env = {
        **os.environ,
        "STICHWERK_DATABASE_URL": f"sqlite:///{workdir}/load.db",
        "STICHWERK_SHEET_CREATE_RATE": "100000",
        # Every simulated visitor comes from 127.0.0.1: no caps per address (a real crowd has
        # an address each).
        "STICHWERK_MAX_CONNECTIONS_PER_ADDRESS": "0",
        "STICHWERK_MAX_SOCKETS_PER_ADDRESS": "0",
        "STICHWERK_WS_CONNECT_RATE": "100000",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "stichwerk.server", "--port", str(port), "--log-level", "warning"],
        cwd=workdir,
        env=env,
    )
    rng = random.Random(args.seed)
    try:
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            for _ in range(300):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            runs: list[ListRun] = []
            header = {"list": {"game": "doppelkopf", "profile": "wielandstrasse", "games": None,
                               "names": NAMES}}  # fmt: skip
            for _ in range(lists):
                lines = [json.dumps(header)] + [json.dumps(summary(rng)) for _ in range(args.deals)]
                r = await http.post("/api/sheets/import", json={"text": "\n".join(lines)})
                r.raise_for_status()
                made = r.json()
                run = ListRun(made["links"]["scorer"][3:], made["links"]["follower"][3:])
                run.seq = made["seq"]
                runs.append(run)
            stats = Stats()
            connected = [0]
            stop_at = time.monotonic() + args.seconds + 30
            ws_base = f"ws://127.0.0.1:{port}/ws/sheets/"
            followers = [
                asyncio.create_task(
                    follow(ws_base + run.follower, base, run, stats, stop_at, connected)
                )
                for run in runs
                for _ in range(args.followers)
            ]
            while connected[0] < len(followers):
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.0)
            cpu_start, started = cpu_seconds(server.pid), time.monotonic()
            client_start = time.process_time()
            stop = started + args.seconds
            scorers = [
                asyncio.create_task(
                    score(base, run, stats, args.think, stop, random.Random(rng.random()))
                )
                for run in runs
            ]
            await asyncio.gather(*scorers)
            await asyncio.sleep(1.0)  # the last broadcasts arrive
            elapsed = time.monotonic() - started
            server_cpu = (cpu_seconds(server.pid) - cpu_start) / elapsed
            client_cpu = (time.process_time() - client_start) / elapsed
            for task in followers:
                task.cancel()
            await asyncio.gather(*followers, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(10)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

    expected = stats.entries * args.followers
    return {
        "lists": lists,
        "followers": lists * args.followers,
        "entries_per_s": round(stats.entries / args.seconds, 1),
        "deliveries": len(lat),
        "missed": expected - len(lat),
        "errors": stats.errors,
        "p50_ms": round(pct(50), 1),
        "p95_ms": round(pct(95), 1),
        "p99_ms": round(pct(99), 1),
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "server_cpu": round(server_cpu, 2),
        "client_cpu": round(client_cpu, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--followers", type=int, default=3)
    parser.add_argument("--deals", type=int, default=16, help="deals on each list to start with")
    parser.add_argument("--think", type=float, default=2.0, help="seconds between two entries")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    reference = asyncio.run(measure(args, 1))
    loaded = asyncio.run(measure(args, args.lists))
    ratio = loaded["p99_ms"] / reference["p99_ms"] if reference["p99_ms"] else float("nan")
    print(json.dumps({"reference": reference, "loaded": loaded, "p99_ratio": round(ratio, 2)},
                     indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
