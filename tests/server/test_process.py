"""The server as a real process: killed with -9 it leaves nothing running, and 20 oversized
request bodies at once neither grow it nor slow its tables.

Both start ``python -m stichwerk.server`` (``serverproc``), wait on events (the server's log,
frames, the process table through pidfds), never a fixed time, and bound every wait.
"""

import asyncio
import json
import multiprocessing
import os
import select
import signal
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.server.serverproc import Server

T = TypeVar("T")
MiB = 1024 * 1024


def in_thread(fn: Callable[[], T]) -> T:
    """Run ``fn`` in a thread of its own (an event loop of its own, whatever this one has)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result()


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid`` in the process table, with its command line."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                try:
                    with open(f"/proc/{child}/cmdline", "rb") as handle:
                        found[child] = handle.read().replace(b"\0", b" ").decode()
                except OSError:
                    found[child] = "?"
                frontier.append(child)
    return found


def wait_for_exit(pids: list[int], timeout: float) -> list[int]:
    """Wait until every process in ``pids`` has ended (pidfds: woken by each exit); returns
    those still alive at the deadline."""
    fds: dict[int, int] = {}
    for pid in pids:
        try:
            fds[os.pidfd_open(pid)] = pid
        except ProcessLookupError:
            continue  # gone already
    deadline = time.monotonic() + timeout
    try:
        while fds:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select(list(fds), [], [], left)
            for fd in ready:
                os.close(fd)
                del fds[fd]
        return sorted(fds.values())
    finally:
        for fd in fds:
            os.close(fd)


def guest_cookie(server: Server) -> str:
    with httpx.Client(base_url=server.url, headers={"origin": server.url}) as http:
        assert http.post("/api/guest", json={}).status_code == 200
        return f"stichwerk={http.cookies['stichwerk']}"


def member_cookie(server: Server) -> str:
    """A logged-in account with a password (a table of bots only needs one)."""
    with httpx.Client(base_url=server.url, headers={"origin": server.url}) as http:
        body = {"username": "operator1", "password": "a long password"}
        assert http.post("/api/register", json=body).status_code == 200
        return f"stichwerk={http.cookies['stichwerk']}"


def create_table(server: Server, cookie: str, body: dict[str, Any]) -> str:
    headers = {"origin": server.url, "cookie": cookie}
    with httpx.Client(base_url=server.url, headers=headers) as http:
        r = http.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        table_id: str = r.json()["table"]["id"]
        return table_id


async def frames_until(ws: ClientConnection, pred: Callable[[dict[str, Any]], bool]) -> Any:
    """The first frame that satisfies ``pred`` (bounded: 60 s without one fails)."""
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
        if pred(msg):
            return msg


def watch_until(server: Server, table: str, pred: Callable[[dict[str, Any]], bool]) -> Any:
    async def run() -> Any:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
        async with connect(url, additional_headers={"origin": server.url}) as ws:
            return await frames_until(ws, pred)

    return in_thread(lambda: asyncio.run(run()))


BOTS_ONLY = {
    "game": "cego",
    "seats": [{"kind": "bot", "bot": "random"}] * 4,
    "creator_seat": None,
    "series_length": 200,
    "first_dealer": 0,
}


def test_a_killed_server_leaves_no_process_behind(tmp_path: Path) -> None:
    # A table of bots only needs an account, and may play 200 deals only if the operator says.
    server = Server(tmp_path, env={"STICHWERK_BOT_DELAY": "0", "STICHWERK_BOT_TABLE_DEALS": "200"})
    server.start()
    try:
        table = create_table(server, member_cookie(server), BOTS_ONLY)
        # A bot has moved: the bot worker runs (and with it multiprocessing's resource_tracker).
        before = watch_until(
            server, table, lambda m: m["type"] == "state" and bool(m["view"]["history"])
        )
        helpers = descendants(server.pid)
        assert any("multiprocessing" in cmd and "spawn" in cmd for cmd in helpers.values())
        assert any("resource_tracker" in cmd for cmd in helpers.values()), helpers
        server.kill()
        left = wait_for_exit(list(helpers), timeout=60)
        for pid in left:  # a failing run leaves nothing behind either
            os.kill(pid, signal.SIGKILL)
        assert not left, {pid: helpers[pid] for pid in left}

        # A new server on the same database does not need (or meet) anything left behind: its
        # own worker plays the table on from where the log stands.
        server.start()
        after = watch_until(
            server,
            table,
            lambda m: m["type"] == "state" and m["version"] > before["version"] + 5,
        )
        assert after["deal"]["number"] >= before["deal"]["number"]
        helpers = descendants(server.pid)
        assert helpers
        server.stop()
        assert not wait_for_exit(list(helpers), timeout=60)
    finally:
        server.stop()


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of ``/proc/PID/status`` in bytes."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field}")


BODY_SIZE = 300_000_000
CHUNK = b"a" * (1 << 20)


async def oversized_login(port: int, *, declared: bool) -> int:
    """POST /api/login with a 300 MB JSON body (declared by Content-Length, or chunked with
    none); sends until the server answers or closes; returns the status it answered, 0 if the
    connection was reset before the answer could be read (the server closed it with the body
    unread: its kernel resets, and the client's may drop the answer; the server's access log
    has it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + (f"Content-Length: {BODY_SIZE}\r\n" if declared else "Transfer-Encoding: chunked\r\n")
        + "\r\n"
    )
    answer = asyncio.create_task(reader.readline())
    try:
        writer.write(head.encode() + (b'{"username": "' if declared else b""))
        sent = 0
        while sent < BODY_SIZE and not answer.done():
            data = CHUNK if declared else b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK)
            writer.write(data)
            sent += len(CHUNK)
            await writer.drain()
    except ConnectionError:
        pass  # the server closed the connection after its answer
    try:
        status_line = await asyncio.wait_for(answer, timeout=60)
    except ConnectionError:
        return 0
    finally:
        writer.close()
    return int(status_line.split()[1]) if status_line else 0


def attack_wave(port: int) -> list[int]:
    """20 oversized logins at once, half declared, half chunked (runs in a worker process;
    port 0: none, to start the process)."""
    if port == 0:
        return []

    async def wave() -> list[int]:
        return await asyncio.gather(
            *(oversized_login(port, declared=i % 2 == 0) for i in range(20))
        )

    return asyncio.run(wave())


async def play_and_time(
    server: Server,
    cookie: str,
    table: str,
    moves: int,
    stop: asyncio.Event | None = None,
    latencies: list[float] | None = None,
) -> list[float]:
    """Seat 0 plays ``moves`` moves (or until ``stop``); each one's time from sending it to
    the state frame that shows it (appended to ``latencies`` as they come)."""
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
    latencies = [] if latencies is None else latencies
    headers = {"origin": server.url, "cookie": cookie}

    def actionable(m: dict[str, Any]) -> bool:
        return m["type"] == "state" and (
            m["phase"] == "between" or (m["view"] or {}).get("to_act") == 0
        )

    async with connect(url, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "sync"}))
        frame = await frames_until(ws, actionable)
        while len(latencies) < moves and not (stop is not None and stop.is_set()):
            if frame["phase"] == "between":
                await ws.send(json.dumps({"type": "next"}))
                frame = await frames_until(ws, lambda m: actionable(m) and m["phase"] != "between")
                continue
            legal = frame["view"]["legal_actions"][0]
            action = {k: v for k, v in legal.items() if k != "seat"}
            sent = time.perf_counter()
            await ws.send(
                json.dumps({"type": "act", "version": frame["version"], "action": action})
            )
            answer = await frames_until(
                ws,
                lambda m, v=frame["version"]: (
                    m["type"] == "error" or (m["type"] == "state" and m["version"] > v)
                ),
            )
            assert answer["type"] == "state", answer
            latencies.append(time.perf_counter() - sent)
            frame = answer if actionable(answer) else await frames_until(ws, actionable)
    return latencies


def test_oversized_bodies_leave_memory_and_move_latency_alone(tmp_path: Path) -> None:
    # Every login reaches the body check (the login rate limit has a test of its own), and the
    # seat may answer as fast as bots without a delay move.
    limits = {
        "STICHWERK_LOGIN_RATE": "1000",
        "STICHWERK_WS_RATE": "1000",
        "STICHWERK_WS_BURST": "1000",
    }
    server = Server(tmp_path, env={"STICHWERK_BOT_DELAY": "0", **limits})
    server.start()
    try:
        cookie = guest_cookie(server)
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
        body = {"game": "doppelkopf", "seats": seats, "series_length": 200, "first_dealer": 0}
        table = create_table(server, cookie, body)

        async def run() -> tuple[list[float], list[float], list[int], int, int, float]:
            loop = asyncio.get_running_loop()
            # The attack runs in a process of its own, started before anything is measured, so
            # it does not hold up the player's client (the server shares the machine's two
            # cores with both all the same).
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                assert await loop.run_in_executor(pool, attack_wave, 0) == []
                baseline = await play_and_time(server, cookie, table, 30)
                idle = rss(server.pid)
                # Reset the peak (VmHWM) so it measures the attack alone.
                Path(f"/proc/{server.pid}/clear_refs").write_text("5")
                cpu = cpu_seconds(server.pid)
                stop = asyncio.Event()
                timed: list[float] = []
                during = asyncio.create_task(
                    play_and_time(server, cookie, table, 10_000, stop, timed)
                )
                statuses: list[int] = []
                # At least 5 waves of 20 at once, and until 20 moves were timed under them.
                while len(statuses) < 5 * 20 or (len(timed) < 20 and len(statuses) < 50 * 20):
                    statuses += await loop.run_in_executor(pool, attack_wave, server.port)
                spent = cpu_seconds(server.pid) - cpu
                stop.set()
                await during
            return baseline, timed, statuses, idle, rss(server.pid, "VmHWM"), spent

        baseline, during, statuses, idle, peak, spent = in_thread(lambda: asyncio.run(run()))
    finally:
        server.stop()
    grown = (peak - idle) / MiB
    print(
        f"idle {idle / MiB:.0f} MiB, peak during {len(statuses)} bodies of 300 MB"
        f" {peak / MiB:.0f} MiB"
        f" (+{grown:.1f} MiB); move latency p50/max {statistics.median(baseline) * 1000:.1f}/"
        f"{max(baseline) * 1000:.1f} ms before, {statistics.median(during) * 1000:.1f}/"
        f"{max(during) * 1000:.1f} ms during ({len(during)} moves); server CPU"
        f" {spent:.2f} s in all, moves included"
    )
    # 413 refused by size, 429 by the rate limit before any body is read, 0 cut off.
    assert set(statuses) <= {413, 429, 0} and statuses.count(413) > 0, statuses
    # Every body was refused by the server with a 413 or a 429 (its access log); the attacker
    # may see the refusal as a cut-off (0): the server closes with the body unread, and the
    # kernel's reset can overtake the answer.
    log = server.log.read_text()
    answered = sum(log.count(f'"POST /api/login HTTP/1.1" {s}') for s in (413, 429))
    assert answered == len(statuses), (answered, len(statuses), log[-3000:])
    assert grown < 50, f"the server grew by {grown:.0f} MiB"
    assert during, "no move was timed during the attack"
    # The server's own work is a refusal per body (reading a 300 MB body, before the fix,
    # cost seconds of CPU each); CPU time, so other work on the machine does not count.
    assert spent / len(statuses) < 0.02, spent
    # Latency as unchanged as a shared two-core machine allows (the attacker's own process
    # competes for the cores): a body read whole stalled every table for seconds.
    assert max(during) < max(2.0, 10 * max(baseline)), (baseline, during)
