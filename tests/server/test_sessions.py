"""Sessions end on the server: a cookie copied before a logout, a password change or "log out
everywhere" stops working at once, over HTTP and on a websocket already open."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from stichwerk.server import sessions
from stichwerk.server.sessions import ENDED_CLOSE_CODE
from tests.server.helpers import ORIGIN, new_table, receive_until

CREDENTIALS = {"username": "Hansi", "password": "geheim123"}


def me(client: TestClient, jar: dict[str, str]) -> Any:
    client.cookies.clear()
    client.cookies.update(jar)
    return client.get("/api/me").json()["user"]


def login(client: TestClient) -> dict[str, str]:
    client.cookies.clear()
    r = client.post("/api/login", json=CREDENTIALS)
    assert r.status_code == 200, r.text
    return dict(client.cookies)


def closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(500):
            ws.receive_text()
    return closed.value.code


@pytest.fixture
def account(client: TestClient) -> None:
    assert client.post("/api/register", json=CREDENTIALS).status_code == 200
    client.cookies.clear()


def test_a_copied_cookie_is_dead_after_logout(client: TestClient, account: None) -> None:
    jar = login(client)
    copy = dict(jar)
    assert me(client, jar)["username"] == "Hansi"
    assert client.post("/api/logout", json={}).json() == {"user": None}
    assert me(client, copy) is None
    # The copy cannot act for the account either.
    r = client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "bot"}] * 4})
    assert r.status_code == 401


def test_log_out_everywhere_ends_every_session_and_closes_sockets(
    client: TestClient, account: None
) -> None:
    phone, laptop = login(client), login(client)
    assert phone != laptop
    assert me(client, laptop)["username"] == "Hansi"
    table = new_table(client)
    client.cookies.clear()
    client.cookies.update(phone)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        assert receive_until(ws, lambda m: m["type"] == "welcome")["you"]["seat"] == 0
        client.cookies.clear()
        client.cookies.update(laptop)
        r = client.post("/api/logout_everywhere", json={})
        assert r.json() == {"user": None, "ended": 3}  # and the registration's
        assert closed_with(ws) == ENDED_CLOSE_CODE
    assert me(client, phone) is None and me(client, laptop) is None
    # Reconnecting with the old cookie: a spectator now, not the seat.
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        assert receive_until(ws, lambda m: m["type"] == "welcome")["you"]["seat"] is None
    client.cookies.clear()
    assert client.post("/api/logout_everywhere", json={}).status_code == 401


def test_a_new_password_ends_the_other_sessions(client: TestClient, account: None) -> None:
    other, here = login(client), login(client)
    change = {"old_password": "falsch123", "new_password": "neuer-Schluessel"}
    r = client.post("/api/password", json=change)
    assert r.status_code == 400 and r.json() == {"error": "the old password is wrong"}
    assert me(client, other)["username"] == "Hansi"
    client.cookies.clear()
    client.cookies.update(here)
    r = client.post("/api/password", json={**change, "old_password": "geheim123"})
    assert r.status_code == 200 and r.json()["ended"] == 3
    renewed = {"stichwerk": r.cookies["stichwerk"]}
    assert renewed != here
    assert me(client, other) is None and me(client, here) is None
    assert me(client, renewed)["username"] == "Hansi"
    client.cookies.clear()
    r = client.post("/api/login", json=CREDENTIALS)
    assert r.status_code == 401
    r = client.post("/api/login", json={**CREDENTIALS, "password": "neuer-Schluessel"})
    assert r.status_code == 200
    # A guest has no password to change.
    client.cookies.clear()
    client.post("/api/guest", json={})
    r = client.post("/api/password", json={**change, "old_password": "x"})
    assert r.status_code == 400 and "guest" in r.json()["error"]


def test_a_socket_notices_a_session_ended_elsewhere(
    client: TestClient, account: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ended by another process (straight in the database): the next message finds out."""
    monkeypatch.setattr(sessions, "RECHECK", 0.0)
    jar = login(client)
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "welcome")
        ws.send_json({"type": "ping", "t": 1})
        receive_until(ws, lambda m: m["type"] == "pong")
        repo = client.app.state.services.repo  # type: ignore[attr-defined]
        user = repo.user_by_name("Hansi")
        assert len(repo.end_sessions(user.id)) == 2  # the registration's and this one
        ws.send_json({"type": "ping", "t": 2})
        assert closed_with(ws) == ENDED_CLOSE_CODE
    assert me(client, jar) is None


def test_old_cookies_without_a_session_are_logged_out(client: TestClient) -> None:
    """A cookie from before sessions were stored (it held the user id) names no session."""
    from itsdangerous import TimestampSigner

    repo = client.app.state.services.repo  # type: ignore[attr-defined]
    repo.create_user("Alt", None, True)
    import base64
    import json

    payload = base64.b64encode(json.dumps({"uid": 1}).encode())
    client.cookies.set("stichwerk", TimestampSigner(repo.secret()).sign(payload).decode())
    assert client.get("/api/me").json() == {"user": None}
