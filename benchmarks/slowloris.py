"""Slowloris against the real server: can a visitor still get in, and how much does it log?

Starts ``python -m stichwerk.server`` on 127.0.0.1 with its file limit set to 1,024 (soft and
hard, as systemd gives a service that sets nothing higher), then an attacker on 127.0.0.1
holds ``--connections`` connections that each send half a request head and nothing more,
opening a new one whenever the server closes one (after a short pause). Meanwhile another
visitor (from 127.0.0.2: on Linux all of 127/8 is this machine) asks ``/healthz`` every
``--probe-every`` seconds. Prints JSON: the visitor's answers and their latency, how many
connections the attacker held, the server's open files at most, and the lines it logged.

    .venv/bin/python benchmarks/slowloris.py                 # this tree
    .venv/bin/python benchmarks/slowloris.py --src /tmp/old/src   # an older tree's server

Bounded: ``--seconds`` of attack (default 20), every request with a timeout.
"""

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


LIMITED = (
    "import resource, runpy; "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)); "
    "runpy.run_module('stichwerk.server', run_name='__main__', alter_sys=True)"
)
"""The server, with 1,024 open files (soft and hard) set in its own process before it starts."""


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


async def attacker(port: int, stop: float, held: list[int], opened: list[int]) -> None:
    """One slot of the attack: a connection with half a head, reopened when closed."""
    while time.monotonic() < stop:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.1", 0)), 5
            )
        except (OSError, TimeoutError):
            await asyncio.sleep(0.5)
            continue
        opened[0] += 1
        held[0] += 1
        try:
            writer.write(HALF_HEAD)
            await writer.drain()
            left = stop - time.monotonic()
            if left > 0:
                await asyncio.wait_for(reader.read(), left)  # until the server closes it
        except (OSError, TimeoutError):
            pass
        finally:
            held[0] -= 1
            writer.close()
        await asyncio.sleep(0.5)  # then try again, as a patient attacker does


async def visitor(port: int, stop: float, every: float, samples: list[dict[str, Any]]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2", retries=0)
    async with httpx.AsyncClient(transport=transport, timeout=10.0) as http:
        while time.monotonic() < stop:
            started = time.monotonic()
            try:
                r = await http.get(f"http://127.0.0.1:{port}/healthz")
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            samples.append({"ok": ok, "seconds": time.monotonic() - started})
            await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))


async def attack(args: argparse.Namespace, port: int, pid: int) -> dict[str, Any]:
    stop = time.monotonic() + args.seconds
    held, opened = [0], [0]
    samples: list[dict[str, Any]] = []
    most_held, most_files = 0, 0
    tasks = [
        asyncio.create_task(attacker(port, stop, held, opened)) for _ in range(args.connections)
    ]
    tasks.append(asyncio.create_task(visitor(port, stop, args.probe_every, samples)))
    while time.monotonic() < stop:
        await asyncio.sleep(0.25)
        most_held = max(most_held, held[0])
        most_files = max(most_files, open_files(pid))
    await asyncio.wait(tasks, timeout=15)
    answered = [s["seconds"] for s in samples if s["ok"]]
    return {
        "attack_seconds": args.seconds,
        "attack_connections_wanted": args.connections,
        "attack_connections_held_at_most": most_held,
        "attack_connections_opened": opened[0],
        "server_open_files_at_most": most_files,
        "visitor_requests": len(samples),
        "visitor_answered": len(answered),
        "visitor_latency_median_s": round(statistics.median(answered), 4) if answered else None,
        "visitor_latency_max_s": round(max(answered), 4) if answered else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--probe-every", type=float, default=0.5)
    parser.add_argument("--src", help="run the server from this source tree (PYTHONPATH)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.connections + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.connections + 256), hard))
    workdir = Path(tempfile.mkdtemp(prefix="slowloris_"))
    port = free_port()
    env = {**os.environ, "STICHWERK_DATABASE_URL": f"sqlite:///{workdir}/bench.db"}
    if args.src:
        env["PYTHONPATH"] = args.src + os.pathsep + env.get("PYTHONPATH", "")
    log_path = workdir / "server.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-c", LIMITED, "--port", str(port)],
            cwd=workdir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start:\n" + log_path.read_text())
            time.sleep(0.2)
        lines_before = len(log_path.read_bytes().splitlines())
        result = asyncio.run(attack(args, port, server.pid))
        text = log_path.read_text(errors="replace")
        result["server_log_lines_during_attack"] = len(text.splitlines()) - lines_before
        result["server_log_lines_too_many_open_files"] = text.count("Too many open files")
        result["server_log_bytes"] = len(text.encode())
        result["server_alive"] = server.poll() is None
        result["source"] = args.src or "this tree"
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(30)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
