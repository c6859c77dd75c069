"""The gate's checks that come before everything else: the ``Host`` a request names (DNS
rebinding), the cap on open websockets per address and the 1013 answer to a handshake over a
limit; and names checked whole (a final newline is not a name's last character)."""

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from stichwerk.server.app import create_app
from stichwerk.server.auth import AuthError, check_new_account
from stichwerk.server.config import SettingError, Settings, load_external_bots
from stichwerk.server.listener import (
    ConnectionLimits,
    FloodGuard,
    accept_backlog,
    connection_budget,
    file_reserve,
)
from tests.server.helpers import ORIGIN, guest, make_settings, new_table

REBOUND = "rebound.evil.example:8000"
"""The host a DNS-rebinding page names: its own, now resolving to this server."""


@pytest.fixture
def gate_client(db_url: str, toy: None) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(db_url, max_sockets_per_address=2))) as client:
        yield client


# -- Host --------------------------------------------------------------------------------------


def test_a_rebound_host_is_refused_before_anything_else(gate_client: TestClient) -> None:
    client = gate_client
    assert client.get("/healthz").status_code == 200
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "LOCALHOST.:1"):
        assert client.get("/healthz", headers={"host": host}).status_code == 200, host
    r = client.get("/healthz", headers={"host": REBOUND})
    assert r.status_code == 400
    assert r.json() == {"error": "unknown host; this server answers only to its own names"}
    assert r.headers["x-frame-options"] == "DENY"
    # The rebinding page's writes are "same-origin" (its Origin names its own host): the Host
    # check refuses them, anonymous or not, before the Origin check would let them through.
    rebound = {"host": REBOUND, "origin": f"http://{REBOUND}"}
    r = client.post("/api/guest", json={}, headers=rebound)
    assert r.status_code == 400, r.text
    for host in ("evil.example@localhost", "localhost:80:80", "local host", ""):
        assert client.get("/healthz", headers={"host": host}).status_code == 400, host


def test_a_rebound_host_gets_no_websocket(gate_client: TestClient) -> None:
    client = gate_client
    guest(client)
    table = new_table(client)
    headers = {"host": REBOUND, "origin": f"http://{REBOUND}"}
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect(f"/ws/tables/{table['id']}", headers=headers),
    ):
        pass
    assert refused.value.status_code == 400
    assert "unknown host" in refused.value.json()["error"]


def test_allowed_hosts_and_the_wildcard(db_url: str, toy: None) -> None:
    settings = make_settings(db_url, allowed_hosts=("testserver", "karten.example"))
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz", headers={"host": "Karten.Example:443"}).status_code == 200
        assert client.get("/healthz", headers={"host": REBOUND}).status_code == 400
    with TestClient(create_app(make_settings(db_url, allowed_hosts=("*",)))) as client:
        assert client.get("/healthz", headers={"host": REBOUND}).status_code == 200


def test_the_hosts_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STICHWERK_ALLOWED_HOSTS", " Karten.example., 10.0.0.7 ,[fd00::1]")
    monkeypatch.setenv("STICHWERK_PUBLIC_URL", "https://Stich.Example:8443/lobby")
    hosts = Settings.from_env().allowed_hosts
    assert hosts == ("karten.example", "10.0.0.7", "fd00::1", "stich.example")
    monkeypatch.setenv("STICHWERK_PUBLIC_URL", "not a url")
    with pytest.raises(SettingError, match="STICHWERK_PUBLIC_URL"):
        Settings.from_env()
    # The address the server was started on is its own name; on every interface, the
    # machine's names are.
    from stichwerk.server.__main__ import own_hosts

    assert own_hosts("192.168.1.5") == ("192.168.1.5",)
    assert own_hosts("[fd00::2]") == ("fd00::2",)
    import socket

    assert socket.gethostname().lower() in own_hosts("0.0.0.0")


# -- websockets per address, and 1013 ------------------------------------------------------------


def closed_with(ws: Any) -> int:
    """The close code of an accepted socket the server closes at once."""
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    return closed.value.code


def test_open_websockets_per_address_are_capped_with_1013(gate_client: TestClient) -> None:
    client = gate_client
    guest(client)
    table = new_table(client)
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(url, headers=ORIGIN) as first:
        assert "type" in first.receive_json()
        with client.websocket_connect(url, headers=ORIGIN) as second:
            assert "type" in second.receive_json()
            # A third from the same address: accepted, then closed with "try again later".
            with client.websocket_connect(url, headers=ORIGIN) as third:
                assert closed_with(third) == 1013
            # Every websocket route counts: a score sheet's socket too.
            with client.websocket_connect("/ws/sheets/nosuchsheet", headers=ORIGIN) as sheet:
                assert closed_with(sheet) == 1013
        # One closed, a place is free again.
        with client.websocket_connect(url, headers=ORIGIN) as again:
            assert "type" in again.receive_json()


def test_a_bot_handshake_over_the_rate_is_told_to_try_later(db_url: str, toy: None) -> None:
    # Burst 20: the 21st handshake at once is over the bot sockets' rate. Without a token the
    # first twenty are refused as "not yours" (1008, before accepting: HTTP 403); the 21st
    # must say "try again later" (1013), which only an accepted socket can carry.
    settings = make_settings(db_url, bot_connect_rate=0.001)
    with TestClient(create_app(settings)) as client:
        for _ in range(20):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect("/ws/bots/nosuchtable00000", headers={}),
            ):
                pass
            assert refused.value.code == 1008
        with client.websocket_connect("/ws/bots/nosuchtable00000", headers={}) as ws:
            assert closed_with(ws) == 1013


# -- names checked whole ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Hansi\n", "Hansi\r\n", "\nHansi", "Han\nsi"])
def test_a_username_with_a_newline_is_refused(name: str, gate_client: TestClient) -> None:
    with pytest.raises(AuthError):
        check_new_account(name, "geheim123")
    r = gate_client.post("/api/register", json={"username": name, "password": "geheim123"})
    assert r.status_code == 400, r.text
    assert "username" in r.json()["error"]


def test_a_bot_name_with_a_newline_is_refused(gate_client: TestClient) -> None:
    client = gate_client
    r = client.post("/api/register", json={"username": "Olga", "password": "geheim123"})
    assert r.status_code == 200, r.text
    r = client.post("/api/bots", json={"name": "Robo\n"})
    # The body's name is stripped first: "Robo\n" names Robo. A newline inside is refused.
    assert r.status_code == 200, r.text
    assert r.json()["bot"]["name"] == "Robo"
    r = client.post("/api/bots", json={"name": "Ro\nbo"})
    assert r.status_code == 400, r.text


def test_an_outside_bots_name_with_a_newline_is_refused(tmp_path: Any) -> None:
    path = tmp_path / "bots.toml"
    path.write_text('[bots."first\\n"]\ncommand = "python3 bot.py"\n', encoding="utf-8")
    with pytest.raises(SettingError, match="a name has 1 to 24"):
        load_external_bots(str(path))


# -- the listener's parts, as units -------------------------------------------------------------


def test_a_flood_of_one_log_line_writes_a_bounded_number() -> None:
    clock = [0.0]
    handler = logging.Handler()
    lines: list[str] = []
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    guard = FloodGuard(interval=10.0, burst=5, now=lambda: clock[0], report=lines.append)
    handler.addFilter(guard)
    logger = logging.getLogger("tests.flood")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        # 57,263 failed accepts within five seconds, as the probe saw, then one a minute later.
        for i in range(57_263):
            clock[0] = i * 5.0 / 57_263
            logger.error("socket.accept() out of system resource")
            if i % 100 == 0:
                logger.warning("refused a connection from %s", f"127.0.0.{i % 7}")
        clock[0] = 60.0
        logger.error("socket.accept() out of system resource")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    assert lines.count("socket.accept() out of system resource") == 6
    assert len([line for line in lines if line.startswith("refused")]) == 5
    assert lines[-2] == (
        "57258 more lines like 'socket.accept() out of system resource' (tests.flood) were "
        "left out in the last 10 s"
    )
    assert len(lines) == 12
    # A record is never changed (uvicorn's access lines are formatted from their arguments),
    # and lines below WARNING (every request's access line) all pass.
    for _ in range(50):
        record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, "%s", ("x",), None)
        assert guard.filter(record) and record.args == ("x",)
    record = logging.LogRecord("x", logging.WARNING, "", 0, "%s", ("y",), None)
    assert guard.filter(record) and record.args == ("y",)


def test_connection_limits_per_address_and_in_all() -> None:
    limits = ConnectionLimits(per_address=2, total=3)
    assert [limits.admit("a"), limits.admit("a"), limits.admit("a")] == [True, True, False]
    assert limits.admit("b") is True
    assert limits.admit("c") is False  # three in all
    limits.release("a")
    assert limits.admit("c") is True
    assert ConnectionLimits(per_address=0, total=10).admit("x") is True
    assert file_reserve(1024) == 128
    # A refused connection is closed a few turns of the loop after it was accepted: the
    # accepts of one go (the backlog) and the budget fit the file limit together.
    for soft in (256, 1024, 4096, 1 << 20):
        assert connection_budget(soft) + 3 * accept_backlog(soft) + file_reserve(soft) <= soft


# -- numbers from outside are ASCII digits -------------------------------------------------------


@pytest.mark.parametrize("query", ["latest=%C2%B2", "years=%C2%B2", "years=%D9%A5"])
def test_a_number_in_a_query_is_ascii_digits(query: str, gate_client: TestClient) -> None:
    # "²".isdigit() is true and int("²") raises: it was a 500.
    r = gate_client.get(f"/api/rankings/list?series=x&{query}")
    assert r.status_code == 422, r.text
    assert "whole number" in r.json()["error"]


def test_a_content_length_is_ascii_digits(gate_client: TestClient) -> None:
    import asyncio
    import concurrent.futures

    app = gate_client.app
    sent: list[dict[str, Any]] = []

    async def call() -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/guest",
            "raw_path": b"/api/guest",
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"testserver"),
                (b"content-type", b"application/json"),
                (b"content-length", "²".encode("latin-1")),
            ],
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"{}", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(scope, receive, send)  # type: ignore[arg-type]

    # A loop of its own on a thread of its own: an earlier test on this xdist worker (a browser
    # test's Playwright) may have left an event loop running in the main thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, call()).result()
    assert sent[0]["status"] == 400
    assert b"Content-Length" in sent[1]["body"]
