"""Bad input at the edges: ids and parameters checked before the database, bodies capped and
rate-limited before they are parsed, numbers that are not JSON refused, every error JSON."""

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from stichwerk.server.jsonsafe import loads
from stichwerk.server.protocol import frame
from tests.server.helpers import ORIGIN, guest, make_settings, new_table, receive_until

JSON = {"content-type": "application/json"}


def one_json_error(r: Any, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"} and "\n" not in body["error"] and body["error"]
    message: str = body["error"]
    return message


@pytest.fixture
def any_client(any_url: str, toy: None) -> Iterator[TestClient]:
    """A client of an app on SQLite and on PostgreSQL."""
    with TestClient(create_app(make_settings(any_url))) as c:
        yield c


@pytest.mark.parametrize("what", ["record", "replay"])
def test_an_oversized_deal_id_is_a_json_error_on_both_databases(
    any_client: TestClient, what: str
) -> None:
    guest(any_client)
    # Past the 64-bit range: the shape of an id, so looked up (by its random public id) ...
    r = any_client.get(f"/api/deals/9223372036854775808/{what}")
    assert one_json_error(r, 404) == "no such deal"
    r = any_client.get(f"/api/deals/-9223372036854775809/{what}")
    assert one_json_error(r, 404) == "no such deal"
    # ... longer than any id the server makes: refused before the database.
    r = any_client.get(f"/api/deals/{'9' * 30}/{what}")
    assert "deal_id" in one_json_error(r, 422)


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/tables/" + "x" * 40, 422),
        ("/api/tables/a%00b", 422),
        ("/api/tables/%C3%A4%C3%B6/deals", 422),
        ("/api/tables/..%2F..%2Fetc", 404),
        ("/t/%3Cscript%3E", 422),
        ("/d/" + "1" * 30, 422),
        ("/lang/en?next=" + "a" * 400, 422),
        ("/lang/" + "x" * 20, 422),
        ("/api/no-such-thing", 404),
        ("/static/no-such-file.js", 404),
    ],
)
def test_every_parameter_is_checked_and_every_error_is_json(
    any_client: TestClient, path: str, status: int
) -> None:
    one_json_error(any_client.get(path, follow_redirects=False), status)


def test_wrong_methods_and_big_numbers_in_bodies(client: TestClient) -> None:
    one_json_error(client.request("DELETE", "/api/tables", json={}), 405)
    guest(client)
    table = new_table(client)
    r = client.post(f"/api/tables/{table['id']}/join", json={"seat": 10**30})
    assert "seat" in one_json_error(r, 422)
    r = client.post("/api/tables", content='{"game": "toy", "seats": [' + "[" * 5000, headers=JSON)
    one_json_error(r, 422)


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"])
def test_non_finite_numbers_are_refused_in_http_bodies(client: TestClient, text: str) -> None:
    guest(client)
    body = '{"game": "toy", "seats": [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],'
    body += f' "creator_seat": null, "options": {{"x": {text}}}}}'
    message = one_json_error(client.post("/api/tables", content=body, headers=JSON), 422)
    assert message.startswith("body: ") and ("JSON number" in message or "too large" in message)
    assert client.get("/api/tables").json()["mine"] == []


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_refused_on_the_websocket(client: TestClient, text: str) -> None:
    guest(client)
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        ws.send_text('{"type": "ping", "t": ' + text + "}")
        while True:
            reply = loads(ws.receive_text())  # strict: a NaN would not parse
            assert reply["type"] != "pong"
            if reply["type"] == "error":
                assert reply["code"] == "bad-message"
                break
        ws.send_text('{"type": "ping", "t": 1e300}')
        assert "t" in receive_until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_text('{"type": "ping", "t": 2.5}')
        assert receive_until(ws, lambda m: m["type"] == "pong")["t"] == 2.5
        ws.send_text('{"type": "act", "version": 1' + "0" * 30 + ', "action": {"act": "fort"}}')
        assert "version" in receive_until(ws, lambda m: m["type"] == "error")["message"]


def test_no_frame_is_written_with_a_non_finite_number() -> None:
    with pytest.raises(ValueError):
        frame("pong", t=float("nan"))
    assert frame("pong", t=1.5) == '{"type":"pong","t":1.5}'


def test_a_body_over_the_cap_is_refused_before_it_is_read(client: TestClient) -> None:
    big = json.dumps({"username": "a" * 20_000, "password": "geheim123"})
    message = one_json_error(client.post("/api/login", content=big, headers=JSON), 413)
    assert message == "the request body is over 16384 bytes"

    def chunks() -> Iterator[bytes]:
        # No Content-Length: the body is counted as it streams in.
        yield b'{"username": "'
        for _ in range(40):
            yield b"a" * 1024
        yield b'", "password": "geheim123"}'

    r = client.post("/api/register", content=chunks(), headers=JSON)
    assert "transfer-encoding" in r.request.headers
    one_json_error(r, 413)
    r = client.post("/api/login", content=b"1", headers={**JSON, "content-length": "-5"})
    one_json_error(r, 400)
    # Small bodies still work.
    assert client.post("/api/guest", json={}).status_code == 200


def test_logins_are_rate_limited_before_their_bodies_are_parsed(db_url: str, toy: None) -> None:
    with TestClient(create_app(make_settings(db_url, login_rate=0.001))) as client:
        for _ in range(10):  # the burst: each body is parsed, and refused
            r = client.post("/api/login", content=b"{not json", headers=JSON)
            assert r.status_code == 422
        # Past the burst the body is never looked at: not parsed, not even its size.
        r = client.post("/api/login", content=b"{not json", headers=JSON)
        assert one_json_error(r, 429) == "too many attempts; wait a little"
        r = client.post("/api/register", content=b"x" * 50_000, headers=JSON)
        one_json_error(r, 429)


def test_the_language_switch_goes_nowhere_but_this_site(client: TestClient) -> None:
    for target in ("//evil.example", "/\\evil.example", "https://evil.example", "/x\x00"):
        r = client.get("/lang/en", params={"next": target}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/", target


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("STICHWERK_BOT_WORKERS", "abc", "STICHWERK_BOT_WORKERS must be a whole number, not 'abc'"),
        ("STICHWERK_WS_RATE", "nan", "STICHWERK_WS_RATE must be a finite number of at least 0"),
        (
            "STICHWERK_WS_CONNECT_RATE",
            "-2",
            "STICHWERK_WS_CONNECT_RATE must be a finite number of at least 0",
        ),
        ("STICHWERK_MAX_BODY", "-1", "STICHWERK_MAX_BODY must be at least 0, not '-1'"),
    ],
)
def test_a_bad_setting_stops_the_server_with_one_line(
    name: str, value: str, message: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from stichwerk.server.__main__ import main

    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        main(["--port", "1"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stichwerk.server: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_bad_setting_stops_the_server_process_with_one_line() -> None:
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "stichwerk.server", "--port", "1"],
        env={**os.environ, "STICHWERK_BOT_WORKERS": "abc"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr == "stichwerk.server: STICHWERK_BOT_WORKERS must be a whole number, not 'abc'\n"
    )


def test_a_body_that_trickles_in_is_refused_with_408(tmp_path: Any) -> None:
    import socket

    from tests.server.serverproc import Server

    server = Server(tmp_path, env={"STICHWERK_BODY_TIMEOUT": "0.5"})
    server.start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            head = (
                "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            )
            sock.sendall(head.encode() + b'{"username": ')  # and then nothing more
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        status, _, body = answer.partition(b"\r\n\r\n")
        assert status.startswith(b"HTTP/1.1 408")
        assert json.loads(body) == {"error": "the request body did not arrive within 0.5 seconds"}
        # The server is well and answers the next request at once.
        with urllib.request.urlopen(server.url + "/healthz", timeout=30) as r:
            assert r.status == 200
    finally:
        server.stop()


def test_deep_and_non_finite_json_is_refused_on_every_sheet_and_tournament_write(
    tmp_path: Any,
) -> None:
    """The eight sheet and tournament write routes read their bodies with one strict reader:
    6 KB of nested arrays is a one-line 400, not a RecursionError's 500, and so is NaN."""
    app = create_app(make_settings(f"sqlite:///{tmp_path}/deep.db"))
    with TestClient(app) as client:
        sheet = client.post(
            "/api/sheets",
            json={"game": "doppelkopf", "profile": "ddv", "names": ["A", "B", "C", "D"]},
            headers=ORIGIN,
        )
        assert sheet.status_code == 200, sheet.text
        scorer = sheet.json()["links"]["scorer"].removeprefix("/s/")
        made = client.post(
            "/api/tournaments",
            json={"name": "Tief", "series": "Tiefen", "date": "2025-03-08", "seed": "d"},
            headers=ORIGIN,
        )
        assert made.status_code == 200, made.text
        director = made.json()["links"]["director"].rsplit("/", 1)[1]
        routes = [
            "/api/sheets",
            "/api/sheets/import",
            f"/api/sheets/{scorer}/preview",
            f"/api/sheets/{scorer}/changes",
            "/api/tournaments",
            "/api/tournaments/import",
            f"/api/tournaments/{director}/changes",
            f"/api/tournaments/{director}/history",
        ]
        deep = '{"a": ' + "[" * 3000 + "]" * 3000 + "}"
        for path in routes:
            for body in (deep, '{"a": NaN}', '{"a": 1e999}'):
                r = client.post(path, content=body, headers={**JSON, **ORIGIN})
                assert one_json_error(r, 400).startswith("the request is not valid JSON"), path
