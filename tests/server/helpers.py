"""Helpers for the server tests: settings for a test app, API calls, reading frames."""

import json
import os
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.testclient import WebSocketTestSession

from stichwerk.server.config import Settings
from stichwerk.storage.db import Database

ORIGIN = {"origin": "http://testserver"}


def make_settings(url: str, **overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "database_url": url,
        "bot_delay": 0.0,
        "bot_workers": 0,
        "min_time_limit": 1,
        "login_rate": 1000.0,
        "write_rate": 1000.0,
        # A test's seat answers as fast as bots without delay move, many deals a second; the
        # rate limit has a test of its own (test_ws), with its own settings.
        "ws_rate": 1000.0,
        "ws_burst": 1000.0,
        "ws_connect_rate": 1000.0,
        # TestClient names its host "testserver"; the Host check (gate) answers only to names
        # it is told of besides the loopback ones.
        "allowed_hosts": ("testserver",),
    }
    base.update(overrides)
    return Settings(**base)


def guest(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/guest", json={})
    assert r.status_code == 200, r.text
    user: dict[str, Any] = r.json()["user"]
    return user


_members = iter(range(1, 10**9))


def member(client: TestClient) -> dict[str, Any]:
    """Register (and log in) a new account with a password: a table of bots only needs one."""
    name = f"member{next(_members)}"
    r = client.post("/api/register", json={"username": name, "password": "a long password"})
    assert r.status_code == 200, r.text
    user: dict[str, Any] = r.json()["user"]
    return user


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "game": "toy",
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        "series_length": 2,
        "time_limit": 30,
        "first_dealer": 0,  # the tests know who deals; a table's default is drawn by lot
    }
    payload.update(body)
    r = client.post("/api/tables", json=payload)
    assert r.status_code == 200, r.text
    table: dict[str, Any] = r.json()["table"]
    return table


def receive_until(
    ws: WebSocketTestSession, pred: Any, limit: int = 500, seen: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Frames until one satisfies ``pred``; every frame is appended to ``seen``."""
    for _ in range(limit):
        msg: dict[str, Any] = json.loads(ws.receive_text())
        if seen is not None:
            seen.append(msg)
        if pred(msg):
            return msg
    raise AssertionError("no such frame")


def play_until(ws: WebSocketTestSession, frame: dict[str, Any], stop: Any) -> dict[str, Any]:
    """Seat 0 takes its first legal action and moves on between deals until ``stop(frame)``."""
    while not stop(frame):
        if frame["phase"] == "between":
            ws.send_json({"type": "next"})
        elif frame["phase"] == "playing" and frame["view"]["to_act"] == 0:
            legal = frame["view"]["legal_actions"][0]
            act = {k: v for k, v in legal.items() if k != "seat"}
            ws.send_json({"type": "act", "version": frame["version"], "action": act})
        frame = receive_until(ws, lambda m: m["type"] == "state")
    return frame


def pg_url() -> str | None:
    return os.environ.get("STICHWERK_TEST_PG_URL") or None


_PG_BASE = os.environ.get(
    "STICHWERK_TEST_PG_URL",
    "postgresql+psycopg://stichwerk:stichwerk@127.0.0.1:5432/stichwerk_test",
)
# Under pytest-xdist (make test runs one worker per core) each worker keeps its tables in a
# schema of its own, named after it (gw0, gw1, ...) and chosen by the connection's search_path,
# so two workers never empty each other's database.
_PG_SCHEMA = os.environ.get("PYTEST_XDIST_WORKER", "public")
PG_URL = (
    _PG_BASE
    if _PG_SCHEMA == "public"
    else f"{_PG_BASE}{'&' if '?' in _PG_BASE else '?'}options=-csearch_path%3D{_PG_SCHEMA}"
)


def fresh_pg() -> str:
    """The test PostgreSQL database (this worker's schema), emptied."""
    db = Database(PG_URL)
    try:
        with db.write.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{_PG_SCHEMA}" CASCADE'))
            conn.execute(text(f'CREATE SCHEMA "{_PG_SCHEMA}"'))
    finally:
        db.dispose()
    return PG_URL
