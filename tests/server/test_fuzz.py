"""Fuzzing every HTTP endpoint (schemathesis, from the OpenAPI schema the app publishes) and
every websocket message type (hypothesis): no 500, no traceback, every error the app's JSON
error with one line, and the socket never dropped for bad input.

Each HTTP case is sent twice, anonymous and with a guest's session; a second pass aims the
generated bodies at a real table and a real finished deal, so the handlers past the look-up
are fuzzed too. Seeded (derandomized) and bounded, so the run is the same every time and
takes well under a minute.
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.templating import Jinja2Templates
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.server.app import create_app
from stichwerk.server.jsonsafe import loads
from stichwerk.server.routers import accounts, bots, pages, ratings, tables, websockets
from stichwerk.server.routers.sheets import sheet_api, sheet_pages, sheet_socket
from stichwerk.server.routers.tournaments import tournament_api, tournament_pages
from stichwerk.web import TEMPLATES
from tests.server.helpers import ORIGIN, make_settings, new_table, play_until, receive_until

FUZZ = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)


class World:
    """An app with a guest, a table whose first deal is over, and one still playing."""

    def __init__(self, tmp: Path) -> None:
        self.app: FastAPI = create_app(make_settings(f"sqlite:///{tmp}/fuzz.db"))
        self.client = TestClient(self.app)
        self.client.__enter__()
        self.client.post("/api/guest", json={})
        self.cookie = f"stichwerk={self.client.cookies['stichwerk']}"
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
        self.table = new_table(self.client, series_length=2, seats=seats)
        with self.client.websocket_connect(f"/ws/tables/{self.table['id']}", headers=ORIGIN) as ws:
            first = receive_until(ws, lambda m: m["type"] == "state")
            done = play_until(ws, first, lambda m: m["phase"] in ("between", "finished"))
        self.deal = done["deal"]["id"]

    def close(self) -> None:
        self.client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, toy: None) -> Iterator[World]:
    w = World(tmp_path_factory.mktemp("fuzz"))
    yield w
    w.close()


@pytest.fixture(scope="module")
def toy() -> Iterator[None]:
    """The test double game, for the whole module."""
    from stichwerk import games

    games._MODULES["toy"] = "tests.server.toygame"  # type: ignore[index]
    yield
    games._MODULES.pop("toy", None)  # type: ignore[attr-defined]


def published_schema() -> dict[str, Any]:
    """The OpenAPI schema the app publishes at ``/openapi.json`` (its routes, no database)."""
    app = FastAPI(title="Stichwerk")
    app.include_router(accounts.router())
    app.include_router(tables.router())
    app.include_router(ratings.router())
    app.include_router(bots.router())
    app.include_router(pages.address_router())
    app.include_router(sheet_api())
    app.include_router(pages.router())
    templates = Jinja2Templates(directory=str(TEMPLATES))
    app.include_router(sheet_pages(templates))
    app.add_api_websocket_route("/ws/sheets/{token}", sheet_socket)
    app.include_router(tournament_api())
    app.include_router(tournament_pages(templates))
    app.include_router(websockets.router())
    return app.openapi()


# The cases go through the world's own client (its event loop runs the table actors).
schema = schemathesis.openapi.from_dict(published_schema())


def test_the_schema_is_the_one_published(world: World) -> None:
    assert world.client.get("/openapi.json").json()["paths"] == published_schema()["paths"]


def check(response: Any) -> None:
    """No 500, no traceback; an error is ``{"error": one line}`` as JSON."""
    status = response.status_code
    text = response.text
    assert status < 500, (status, text[:300])
    assert "Traceback" not in text
    if status >= 400 or response.headers.get("content-type", "").startswith("application/json"):
        body = loads(text)  # strict: no NaN/Infinity either
        if status >= 400:
            assert isinstance(body, dict) and set(body) == {"error"}, text[:300]
            assert isinstance(body["error"], str) and body["error"]
            assert "\n" not in body["error"]


@schema.parametrize()
@FUZZ
def test_every_endpoint_with_generated_input(case: Any, world: World) -> None:
    client = world.client
    for cookie in (None, world.cookie):
        client.cookies.clear()
        if cookie:
            client.cookies.set("stichwerk", cookie.split("=", 1)[1])
        kwargs = case.as_transport_kwargs(base_url="http://testserver", headers={**ORIGIN})
        kwargs.pop("cookies", None)
        check(client.request(**kwargs, follow_redirects=False))


ENDPOINTS = [
    ("GET", "/api/tables/{table}"),
    ("GET", "/api/tables/{table}/deals"),
    ("POST", "/api/tables/{table}/join"),
    ("POST", "/api/tables/{table}/watch"),
    ("PUT", "/api/tables/{table}/closing_rounds"),
    ("GET", "/api/deals/{deal}/record"),
    ("GET", "/api/deals/{deal}/replay"),
    ("POST", "/api/tables"),
    ("POST", "/api/login"),
    ("POST", "/api/register"),
    ("POST", "/api/password"),
    ("GET", "/lang/{text}"),
]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
BODY_KEYS = st.sampled_from(
    ["seat", "invite", "closing_rounds", "game", "seats", "options", "username", "password",
     "old_password", "new_password", "public", "series_length", "first_dealer", "kind", "x"]
)  # fmt: skip


@FUZZ
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=st.dictionaries(BODY_KEYS, JSON_VALUES, max_size=5) | JSON_VALUES,
    raw=st.sampled_from([None, b"{", b"NaN", b'{"x": Infinity}', b"[" * 3000, b"\xff\xfe"]),
    text=st.text(max_size=30),
)
def test_the_real_table_and_deal_with_generated_bodies(
    world: World, endpoint: tuple[str, str], body: Any, raw: bytes | None, text: str
) -> None:
    method, path = endpoint
    # A browser sends the text percent-encoded (httpx refuses a raw control character in a URL).
    url = path.format(table=world.table["id"], deal=world.deal, text=quote(text or "x", safe=""))
    client = world.client
    client.cookies.set("stichwerk", world.cookie.split("=", 1)[1])
    headers = {**ORIGIN, "content-type": "application/json"}
    if method == "GET":
        response = client.request(method, url, params={"next": text}, follow_redirects=False)
    elif raw is not None:
        response = client.request(method, url, content=raw, headers=headers)
    else:
        response = client.request(method, url, content=json.dumps(body), headers=headers)
    check(response)


MESSAGES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "next", "sync", "ping", "dance", ""])},
        optional={
            "version": JSON_VALUES,
            "t": JSON_VALUES,
            "action": st.fixed_dictionaries(
                {"act": st.sampled_from(["fort", "solo", "play", "x" * 30]) | st.text(max_size=5)},
                optional={"card": JSON_VALUES, "cards": JSON_VALUES, "type": JSON_VALUES},
            )
            | JSON_VALUES,
            "extra": JSON_VALUES,
        },
    ).map(json.dumps),
    JSON_VALUES.map(json.dumps),
    st.text(max_size=60),
    st.sampled_from(['{"type": "ping", "t": NaN}', '{"type":"ping","t":1e999}', "[" * 2000]),
)


@FUZZ
@given(messages=st.lists(MESSAGES, min_size=1, max_size=8))
def test_every_websocket_message_type(world: World, messages: list[str]) -> None:
    client = world.client
    client.cookies.set("stichwerk", world.cookie.split("=", 1)[1])
    with client.websocket_connect(f"/ws/tables/{world.table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        for text in messages:
            ws.send_text(text)
        # Still connected, still answering: every message got its answer in order.
        ws.send_text('{"type": "ping", "t": 7}')
        while True:
            frame = loads(ws.receive_text())
            assert frame["type"] in ("state", "presence", "error", "pong"), frame
            if frame["type"] == "error":
                assert frame["code"] != "internal", frame
                assert "\n" not in frame["message"]
            if frame == {"type": "pong", "t": 7}:
                break
