"""The real server process against Slowloris: a request head that does not arrive in time is
closed, one address may hold only so many connections, and a websocket handshake over the
rate is told to try again later (1013) on the wire, not refused with HTTP 403.

Every wait is on an event (the server closing a socket, a frame) with a deadline; nothing
sleeps for a fixed time.
"""

import asyncio
import contextlib
import json
import resource
import selectors
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.server.serverproc import Server
from tests.server.test_process import BOTS_ONLY, create_table, in_thread

HALF = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
DEADLINE = 30.0
"""Seconds a socket may stay open before the test says the server never closed it."""
CAP = 6


def open_socket(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), DEADLINE, source_address=(source, 0))


def read_until_closed(sock: socket.socket, deadline: float = DEADLINE) -> bytes:
    """Everything the server sends until it closes the connection (fails at the deadline)."""
    end = time.monotonic() + deadline
    data = b""
    while True:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        except TimeoutError:
            raise AssertionError(f"the server kept the connection open; it sent {data!r}") from None
        if not chunk:
            return data
        data += chunk


def healthz(sock: socket.socket) -> bytes:
    """One kept-alive ``GET /healthz`` on ``sock``: the response's head and body."""
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    sock.settimeout(DEADLINE)
    data = b""
    while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    return data


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that gives a request head one second, started with a soft file limit of 512
    (systemd starts services with 1,024) below the hard one."""
    server = Server(tmp_path_factory.mktemp("quick"), env={"STICHWERK_HEADER_TIMEOUT": "1"})
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(512, hard), hard))
    try:
        server.start()  # the child inherits the limits
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that lets one address hold six connections, and one handshake at once."""
    env = {
        "STICHWERK_HEADER_TIMEOUT": "120",
        "STICHWERK_MAX_CONNECTIONS_PER_ADDRESS": str(CAP),
        "STICHWERK_WS_CONNECT_RATE": "0.1",
    }
    server = Server(tmp_path_factory.mktemp("capped"), env=env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_request_head_that_does_not_arrive_in_time_is_closed(quick: Server) -> None:
    half = open_socket(quick.port)
    half.sendall(b"GET /heal")
    silent = open_socket(quick.port)
    kept = open_socket(quick.port)
    assert b" 200 " in healthz(kept)
    kept.sendall(b"GET /hea")  # the next request on a kept-alive connection, half of it
    for sock in (half, silent, kept):
        with sock:
            assert read_until_closed(sock) == b""


def test_a_head_that_trickles_in_is_closed_too(quick: Server) -> None:
    # A byte of a header every tenth of a second keeps the connection busy, never idle: the
    # deadline is for the whole head, not for the gap between bytes.
    with open_socket(quick.port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            try:
                sock.sendall(b"a")
            except (BrokenPipeError, ConnectionResetError):
                return  # closed while we were still sending
            sock.settimeout(0.1)
            try:
                if sock.recv(65536) == b"":
                    return
            except TimeoutError:
                continue
            except ConnectionResetError:
                return
        raise AssertionError("a trickled head kept its connection for the whole deadline")


def test_websockets_and_requests_outlive_the_head_timeout(quick: Server) -> None:
    with httpx.Client(base_url=quick.url, headers={"origin": quick.url}) as http:
        account = {"username": "Wirt", "password": "geheim123"}
        assert http.post("/api/register", json=account).status_code == 200
        cookie = f"stichwerk={http.cookies['stichwerk']}"
    # A table of bots only: its frames keep coming.
    table = create_table(quick, cookie, {**BOTS_ONLY, "series_length": 8})

    async def watch() -> int:
        url = f"ws://127.0.0.1:{quick.port}/ws/tables/{table}"
        frames = 0
        async with connect(url, additional_headers={"origin": quick.url}) as ws:
            opened = time.monotonic()
            # Three head timeouts with the socket open: its frames keep coming.
            while time.monotonic() - opened < 3.0:
                json.loads(await asyncio.wait_for(ws.recv(), timeout=DEADLINE))
                frames += 1
        return frames

    assert in_thread(lambda: asyncio.run(watch())) > 1
    with httpx.Client(base_url=quick.url, timeout=DEADLINE) as http:
        assert http.get("/healthz").status_code == 200


def test_one_address_holds_only_so_many_connections(capped: Server) -> None:
    held = [open_socket(capped.port) for _ in range(CAP)]
    try:
        # Each was accepted before the next (the listen queue is first in, first out): the next
        # one from this address is answered 503 with one line and closed at once.
        over = [open_socket(capped.port) for _ in range(30)]
        for sock in over:
            with sock:
                answer = read_until_closed(sock)
                assert answer.startswith(b"HTTP/1.1 503 "), answer
                body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
                assert body == {"error": "too many connections from your address; try again later"}
        # Another address is served meanwhile (on Linux all of 127/8 is this machine).
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=capped.url, transport=transport, timeout=DEADLINE) as http:
            assert http.get("/healthz").status_code == 200
        # One of the six gone: its place is free again (once the server has seen it close).
        held.pop().close()
        end = time.monotonic() + DEADLINE
        while True:
            with open_socket(capped.port) as sock:
                answer = healthz(sock) if time.monotonic() < end else b"deadline"
            if b" 200 " in answer.split(b"\r\n", 1)[0]:
                break
            assert answer != b"deadline", "the closed connection's place never came free"
    finally:
        for sock in held:
            sock.close()
    # 30 refusals within moments: a few log lines, not 30.
    refusals = capped.log.read_text().count("refused a connection from 127.0.0.1")
    assert 1 <= refusals <= 6, capped.log.read_text()[-3000:]


def test_a_handshake_over_the_rate_is_told_to_try_later(capped: Server) -> None:
    url = f"ws://127.0.0.1:{capped.port}/ws/tables/nosuchtable00000"
    headers = {"origin": capped.url}

    async def handshakes() -> tuple[int, int | None]:
        # Burst 1.2: the first handshake finds no table (refused: HTTP 403, like "no such
        # table"); the second, at once, is over the rate and must be told "try again later".
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, additional_headers=headers, local_addr=("127.0.0.3", 0)):
                pass
        async with connect(url, additional_headers=headers, local_addr=("127.0.0.3", 0)) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), timeout=DEADLINE)
        assert closed.value.rcvd is not None
        return refused.value.response.status_code, closed.value.rcvd.code

    assert in_thread(lambda: asyncio.run(handshakes())) == (403, 1013)


def test_the_soft_file_limit_is_raised_to_the_hard_one(quick: Server) -> None:
    limits = Path(f"/proc/{quick.pid}/limits").read_text().splitlines()
    files = next(line for line in limits if line.startswith("Max open files")).split()
    assert files[3] == files[4], files  # soft == hard


def test_a_crowd_of_half_heads_does_not_run_the_server_out_of_files(tmp_path: Path) -> None:
    # 300 connections from one address, each with half a request head, against a server
    # allowed 256 open files: the 64 the cap lets in stay (for the head timeout), the rest are
    # refused and closed, so accept never fails, nothing floods the log, and another visitor
    # gets in. (Before: every one was kept, the server ran out of files and let nobody in.)
    env = {"STICHWERK_HEADER_TIMEOUT": "120"}
    server = Server(tmp_path, env=env, files=256)
    server.start()
    crowd: list[socket.socket] = []
    try:
        for _ in range(300):
            sock = open_socket(server.port)
            crowd.append(sock)
            with contextlib.suppress(OSError):  # refused and closed already
                sock.sendall(HALF)
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=server.url, transport=transport, timeout=DEADLINE) as http:
            assert http.get("/healthz").status_code == 200
        # One after the other, they were accepted in order: all after the 64th are closed.
        assert refused_among(crowd[64:], len(crowd) - 64) == len(crowd) - 64
    finally:
        for sock in crowd:
            sock.close()
        server.stop()
    log = server.log.read_text()
    assert "Too many open files" not in log, log[-3000:]
    # At most five such lines in ten seconds (and the test is over well within 30 s).
    assert log.count("refused a connection from") <= 15, log[-3000:]


def refused_among(crowd: list[socket.socket], expected: int) -> int:
    """How many of ``crowd`` the server closes, waiting (on the sockets, with a deadline) until
    ``expected`` have been. (A refused socket is answered 503 first, but the server closes it
    with the half head unread, so the kernel resets it and the answer may be lost.)"""
    closed = 0
    end = time.monotonic() + DEADLINE
    with selectors.DefaultSelector() as selector:
        for sock in crowd:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        while closed < expected and time.monotonic() < end:
            for key, _ in selector.select(max(0.01, end - time.monotonic())):
                sock = crowd[[s.fileno() for s in crowd].index(key.fd)]
                try:
                    if sock.recv(65536):
                        continue  # (part of) the 503 answer
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    pass
                selector.unregister(sock)
                closed += 1
    return closed
