"""Load test: many players over real websockets against one server process.

Starts ``python -m stichwerk.server`` (one uvicorn worker, a fresh SQLite file), signs up
``4 × tables`` guests, seats them four to a table (every seat a person, so every move crosses the
network) and lets each client play random legal moves with a think time. It measures, for
every move, the time from sending it to each of the table's four connections receiving the
broadcast of the new state (p50/p95/p99), and the server's memory per connection.

    python benchmarks/ws_load.py --tables 250 --seconds 60

Everything runs on loopback; the run is bounded by ``--seconds``.
"""

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class TableRun:
    """Shared by a table's four clients: when each version's move was sent."""

    sent: dict[int, float] = field(default_factory=dict)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    deals: int = 0


async def player(
    url: str,
    origin: str,
    cookie: str,
    table: TableRun,
    stats: Stats,
    think: float,
    stop_at: float,
    rng: random.Random,
    ready: asyncio.Event,
    connected: list[int],
) -> None:
    headers = {"Cookie": cookie, "Origin": origin}
    async with connect(url, additional_headers=headers, compression=None, max_size=2**20) as ws:
        connected[0] += 1
        await ready.wait()
        moves: set[asyncio.Task[None]] = set()
        try:
            await play(ws, table, stats, think, stop_at, rng, moves)
        finally:
            # The run is over (or cancelled): moves still thinking must not send on a closed
            # socket.
            for task in list(moves):
                task.cancel()


async def play(
    ws: ClientConnection,
    table: TableRun,
    stats: Stats,
    think: float,
    stop_at: float,
    rng: random.Random,
    moves: set[asyncio.Task[None]],
) -> None:
    acted = -1
    ready_for = -1
    await ws.send(json.dumps({"type": "sync"}))
    while time.monotonic() < stop_at:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(stop_at - time.monotonic(), 0.01))
        except TimeoutError:
            break
        now = time.perf_counter()
        msg = json.loads(raw)
        if msg["type"] == "error":
            stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
            continue
        if msg["type"] != "state":
            continue
        version = msg["version"]
        sent = table.sent.get(version)
        if sent is not None:
            stats.latencies.append(now - sent)
        if msg["phase"] == "between":
            deal = msg["deal"]["id"]
            if deal != ready_for and not msg["seats"][msg["you"]]["ready"]:
                ready_for = deal
                await ws.send(json.dumps({"type": "next"}))
                stats.deals += 1
            continue
        view = msg["view"]
        if not view or view["to_act"] != msg["you"] or not view["legal_actions"]:
            continue
        if version == acted:
            continue
        acted = version

        async def move(version: int = version, legal: list[Any] = view["legal_actions"]) -> None:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            choice = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
            table.sent[version + 1] = time.perf_counter()
            stats.moves += 1
            await ws.send(json.dumps({"type": "act", "version": version, "action": choice}))

        task = asyncio.create_task(move())
        moves.add(task)
        task.add_done_callback(moves.discard)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    workdir = tempfile.mkdtemp(prefix="ws_load_")
    env = {
        **os.environ,
        "STICHWERK_DATABASE_URL": f"sqlite:///{workdir}/load.db",
        "STICHWERK_LOGIN_RATE": "100000",
        "STICHWERK_WRITE_RATE": "100000",
        "STICHWERK_WS_RATE": "1000",
        # Every simulated visitor comes from 127.0.0.1: no caps per address (a real crowd has
        # an address each).
        "STICHWERK_MAX_CONNECTIONS_PER_ADDRESS": "0",
        "STICHWERK_MAX_SOCKETS_PER_ADDRESS": "0",
        "STICHWERK_WS_CONNECT_RATE": "100000",
        "STICHWERK_BOT_DELAY": str(args.bot_delay),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "stichwerk.server", "--port", str(port), "--log-level", "warning"],
        cwd=workdir,
        env=env,
    )
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as probe:
            for _ in range(300):
                try:
                    if (await probe.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        base_rss = rss_kib(server.pid)

        # Sign up, open tables, sit down: four guests per table.
        seats: list[tuple[str, int, str]] = []  # (cookie, table index, table id)
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

            async def guest() -> str:
                r = await http.post("/api/guest", json={})
                r.raise_for_status()
                return f"stichwerk={r.cookies['stichwerk']}"

            async def open_table(index: int) -> None:
                cookies = [await guest() for _ in range(4)]
                body = {
                    "game": args.game,
                    "seats": [{"kind": "human", "bot": "random"}] * 4,
                    "series_length": 50,
                    "time_limit": 3600,
                    "public": False,
                }
                r = await http.post("/api/tables", json=body, headers={"cookie": cookies[0]})
                r.raise_for_status()
                table = r.json()["table"]
                for cookie in cookies[1:]:
                    j = await http.post(
                        f"/api/tables/{table['id']}/join",
                        json={"invite": table["invite"]},
                        headers={"cookie": cookie},
                    )
                    j.raise_for_status()
                seats.extend((c, index, table["id"]) for c in cookies)

            started = time.monotonic()
            sem = asyncio.Semaphore(20)

            async def limited(i: int) -> None:
                async with sem:
                    await open_table(i)

            await asyncio.gather(*(limited(i) for i in range(args.tables)))
            setup = time.monotonic() - started
            # Tables of bots only, playing on their own: their decisions run in the server's
            # bot process, and must not slow down the people's tables.
            owner = await guest()
            for _ in range(args.bot_tables):
                body = {
                    "game": args.game,
                    "seats": [{"kind": "bot", "bot": args.bot}] * 4,
                    "creator_seat": None,
                    "series_length": 200,
                }
                r = await http.post("/api/tables", json=body, headers={"cookie": owner})
                r.raise_for_status()
        tables = [TableRun() for _ in range(args.tables)]
        stats = Stats()
        ready = asyncio.Event()
        connected = [0]
        stop_at = time.monotonic() + args.seconds + 120
        rng = random.Random(args.seed)
        ws_base = f"ws://127.0.0.1:{port}/ws/tables/"
        tasks = [
            asyncio.create_task(
                player(
                    ws_base + table_id,
                    base,
                    cookie,
                    tables[i],
                    stats,
                    args.think,
                    stop_at,
                    random.Random(rng.random()),
                    ready,
                    connected,
                )
            )
            for cookie, i, table_id in seats
        ]
        while connected[0] < len(seats):
            await asyncio.sleep(0.2)
            if any(t.done() for t in tasks):
                for t in tasks:
                    if t.done() and t.exception():
                        raise t.exception()  # type: ignore[misc]
        await asyncio.sleep(1.0)
        connected_rss = rss_kib(server.pid)
        # Play for the given time, from now.
        play_started = time.monotonic()
        cpu_start = cpu_seconds(server.pid)
        stop = play_started + args.seconds
        for t in tables:
            t.sent.clear()
        stats.latencies.clear()
        ready.set()
        while time.monotonic() < stop:
            await asyncio.sleep(0.5)
        peak_rss = rss_kib(server.pid)
        elapsed = time.monotonic() - play_started
        server_cpu = (cpu_seconds(server.pid) - cpu_start) / elapsed
        lat = sorted(stats.latencies)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

        def pct(p: float) -> float:
            return 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] if lat else float("nan")

        return {
            "game": args.game,
            "tables": args.tables,
            "bot_tables": args.bot_tables,
            "bot": args.bot if args.bot_tables else None,
            "players_connected": len(seats),
            "setup_seconds": round(setup, 1),
            "seconds": round(elapsed, 1),
            "think_seconds": args.think,
            "moves": stats.moves,
            "moves_per_second": round(stats.moves / elapsed, 1),
            "broadcasts_measured": len(lat),
            "latency_ms": {
                "p50": round(pct(50), 2),
                "p95": round(pct(95), 2),
                "p99": round(pct(99), 2),
                "max": round(1000 * lat[-1], 2) if lat else None,
                "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
            },
            "error_frames": stats.errors,
            "server_cpu_utilisation": round(server_cpu, 2),
            "server_rss_mib": {
                "idle": round(base_rss / 1024, 1),
                "connected": round(connected_rss / 1024, 1),
                "playing_end": round(peak_rss / 1024, 1),
            },
            "memory_per_connection_kib": round((connected_rss - base_rss) / len(seats), 1),
        }
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--game", default="doppelkopf", choices=["doppelkopf", "cego"])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time per move (s)")
    parser.add_argument("--seed", default="ws-load")
    parser.add_argument("--bot-tables", type=int, default=0, help="extra tables of bots only")
    parser.add_argument("--bot", default="heuristic", help="the bots of those tables")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="server's bot delay (s)")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
