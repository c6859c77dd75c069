"""Bots at web tables: the operator's outside programs (``ext:``) and bot accounts playing over
the bot websocket with an API token: whole deals, lost turns (hanging, garbage, illegal
answers) played by the stand-in with a log line, revoked tokens, rate limits, and the bot's
frames checked by the hidden-information oracle."""

import hashlib
import json
import logging
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from stichwerk.server.app import create_app
from stichwerk.server.botsockets import ActionMessage, LogMessage, Ping, Ready, parse_bot
from stichwerk.server.config import ExternalSpec, SettingError, load_external_bots
from stichwerk.storage.models import BotToken
from tests.server.helpers import ORIGIN, make_settings, member, receive_until
from tests.server.leaks import DealTruth, cards_in

FIRST_LEGAL = Path(__file__).resolve().parents[2] / "docs" / "examples" / "bots" / "first_legal.py"
LIMIT = 0.4
"""The bot accounts' time limit in these tests (seconds)."""


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    settings = make_settings(
        db_url,
        bot_time_limit=LIMIT,
        # The same cards every run: a deal that ended early could leave the bot too few turns.
        deal_seed="a",
        external_bots=(
            ExternalSpec("firstlegal", f"{sys.executable} {FIRST_LEGAL}"),
            ExternalSpec("crashes", f"{sys.executable} -c 'raise SystemExit(3)'", games=("cego",)),
        ),
    )
    with TestClient(create_app(settings)) as client:
        yield client


def owner_with_bot(client: TestClient, bot: str = "Robo") -> str:
    r = client.post("/api/register", json={"username": "Olga", "password": "geheim123"})
    assert r.status_code == 200, r.text
    r = client.post("/api/bots", json={"name": bot})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def bot_table(client: TestClient, game: str = "cego", **body: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "game": game,
        "profile": "schwarzwald" if game == "cego" else "ddv",
        "seats": [
            {"kind": "human", "account": "Robo", "bot": "random"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ],
        "creator_seat": None,
        "series_length": 1,
        "time_limit": 30,
        "first_dealer": 3,
    }
    payload.update(body)
    r = client.post("/api/tables", json=payload)
    assert r.status_code == 200, r.text
    table: dict[str, Any] = r.json()["table"]
    return table


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def play(ws: Any, misbehave: list[Any] | None = None) -> list[dict[str, Any]]:
    """Answer every ``act`` with a legal action (or the next misbehaviour) until ``bye``;
    returns every frame received."""
    frames: list[dict[str, Any]] = []
    todo = list(misbehave or [])
    rng = random.Random(5)
    while True:
        frame = json.loads(ws.receive_text())
        frames.append(frame)
        if frame["type"] == "bye":
            return frames
        if frame["type"] != "act":
            continue
        if todo:
            bad = todo.pop(0)
            if bad == "hang":
                continue
            if bad == "late":
                bad = {"type": "action", "id": frame["id"] - 1, "action": {"act": "play"}}
            ws.send_text(bad if isinstance(bad, str) else json.dumps(bad))
            continue
        legal = rng.choice(frame["view"]["legal_actions"])
        action = {k: v for k, v in legal.items() if k != "seat"}
        ws.send_json({"type": "action", "id": frame["id"], "action": action})


def test_a_bot_account_plays_a_whole_deal_and_sees_only_its_seat(
    app_client: TestClient,
) -> None:
    client = app_client
    token = owner_with_bot(client)
    table = bot_table(client, game="doppelkopf")
    assert table["seats"][0]["name"] == "Robo"
    with client.websocket_connect(f"/ws/bots/{table['id']}", headers=auth(token)) as ws:
        frames = play(ws)
    hello = frames[0]
    assert hello["type"] == "hello" and hello["seat"] == 0 and hello["game"] == "doppelkopf"
    assert hello["time_limit"] == LIMIT and hello["protocol"] == 1
    assert {f["type"] for f in frames} <= {"hello", "act", "bye"}
    acts = [f for f in frames if f["type"] == "act"]
    assert len(acts) >= 12 and not [f for f in frames if f["type"] == "error"]
    repo = client.app.state.services.repo  # type: ignore[attr-defined]
    (deal,) = repo.deals_of_table(table["id"], with_events=True)
    assert deal.status == "finished"
    # The oracle: each request names no card seat 0 could not see at that point of the deal.
    truth = DealTruth(deal.full_record())
    for frame in acts:
        k = len(frame["view"]["history"])
        assert truth.states[k].to_act == 0
        leaked = cards_in(frame) - truth.allowed(k, 0)
        assert not leaked, f"the bot saw {sorted(leaked)} at step {k}"
        assert set(frame) == {"type", "id", "view"}
    # Every one of its actions is the bot's own (its requests were all answered in time).
    mine = [a for a in deal.actions if a["seat"] == 0]
    assert len(mine) == len(acts)


def test_a_bot_that_hangs_answers_garbage_or_cheats_loses_those_turns(
    app_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_client
    token = owner_with_bot(client)
    table = bot_table(client)
    misbehave: list[Any] = [
        "hang",
        "this is not JSON",
        {"type": "action", "id": 0, "action": {"act": "PLAY!"}},
        "illegal",
        "late",
        {"type": "action", "id": 1, "action": {"act": "play", "card": "H10"}, "x": 1},
    ]
    caplog.set_level(logging.WARNING, logger="stichwerk.table")
    with client.websocket_connect(f"/ws/bots/{table['id']}", headers=auth(token)) as ws:
        frames: list[dict[str, Any]] = []
        rng = random.Random(2)
        while True:
            frame = json.loads(ws.receive_text())
            frames.append(frame)
            if frame["type"] == "bye":
                break
            if frame["type"] != "act":
                continue
            rid = frame["id"]
            if misbehave:
                bad = misbehave.pop(0)
                if bad == "illegal":
                    # A card it does not hold.
                    hand = set(frame["view"]["hand"])
                    card = next(c for c in ("T1", "T2", "T3", "H1", "HK", "SK") if c not in hand)
                    bad = {"type": "action", "id": rid, "action": {"act": "play", "card": card}}
                elif bad == "late":
                    bad = {"type": "action", "id": rid - 1, "action": {"act": "play"}}
                elif isinstance(bad, dict):
                    bad = {**bad, "id": rid}
                if bad != "hang":
                    ws.send_text(bad if isinstance(bad, str) else json.dumps(bad))
                continue
            legal = rng.choice(frame["view"]["legal_actions"])
            action = {k: v for k, v in legal.items() if k != "seat"}
            ws.send_json({"type": "action", "id": rid, "action": action})
    errors = [f for f in frames if f["type"] == "error"]
    reasons = [e["message"] for e in errors]
    assert len(errors) == 6, reasons
    assert all("id" in e for e in errors)
    assert reasons[0] == f"no answer within {LIMIT:g} s"
    assert reasons[1].startswith("its message is not JSON")
    assert reasons[2].startswith("bad action message: action.act")
    assert reasons[3].startswith("its seat may not play")
    assert reasons[4] == f"no answer within {LIMIT:g} s"  # the late answer was dropped
    assert reasons[5] == "bad action message: x: Extra inputs are not permitted"
    lines = [r.getMessage() for r in caplog.records if "lost a turn" in r.getMessage()]
    assert len(lines) == 6
    assert lines[0] == (
        f"table {table['id']}: bot account 'Robo' (seat 0) lost a turn: "
        f"no answer within {LIMIT:g} s; random plays it"
    )
    # The table went on: the deal is over, the stand-in played the lost turns.
    repo = client.app.state.services.repo  # type: ignore[attr-defined]
    (deal,) = repo.deals_of_table(table["id"], with_events=True)
    assert deal.status == "finished"
    acts = [f for f in frames if f["type"] == "act"]
    assert len([a for a in deal.actions if a["seat"] == 0]) == len(acts)


def test_tokens_are_hashed_shown_once_replaced_and_revoked(app_client: TestClient) -> None:
    client = app_client
    token = owner_with_bot(client)
    assert token.startswith("swb_") and len(token) > 40
    listed = client.get("/api/bots").json()["bots"]
    assert listed == [
        {"name": "Robo", "token_hint": token[:8], "token_made": listed[0]["token_made"]}
    ]
    assert token not in client.get("/api/bots").text
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with Session(db.read) as session:
        stored = session.scalars(select(BotToken.id)).all()
    assert stored == [hashlib.sha256(token.encode()).hexdigest()]
    # The bot account has no password: nobody logs in as it.
    r = client.post("/api/login", json={"username": "Robo", "password": "geheim123"})
    assert r.status_code == 401
    table = bot_table(client, series_length=5)
    url = f"/ws/bots/{table['id']}"
    with client.websocket_connect(url, headers=auth(token)) as ws:
        assert json.loads(ws.receive_text())["type"] == "hello"
        assert client.post("/api/bots/Robo/revoke", json={}).json()["revoked"] is True
        # Its open socket closes at once (4001), whatever it was waiting for.
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == 4001
    for headers in (auth(token), {}, {"authorization": "Bearer nonsense"}):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(url, headers=headers),
        ):
            pass
        assert refused.value.code == 1008
    # A new token works; a second new one replaces it.
    fresh = client.post("/api/bots/Robo/token", json={}).json()["token"]
    with client.websocket_connect(url, headers=auth(fresh)) as ws:
        assert json.loads(ws.receive_text())["type"] == "hello"
    newer = client.post("/api/bots/Robo/token", json={}).json()["token"]
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(url, headers=auth(fresh)):
        pass
    with client.websocket_connect(url, headers=auth(newer)) as ws:
        assert json.loads(ws.receive_text())["type"] == "hello"


def test_who_may_have_and_seat_bots(app_client: TestClient) -> None:
    client = app_client
    client.post("/api/guest", json={})
    r = client.post("/api/bots", json={"name": "GuestBot"})
    assert r.status_code == 403 and set(r.json()) == {"error"}
    client.post("/api/logout", json={})
    token = owner_with_bot(client)
    for body, status in [
        ({"name": "Robo"}, 409),
        ({"name": "x"}, 400),
        ({"name": "Olga"}, 409),
        ({"name": "a b"}, 400),
        ({"name": "ok", "admin": True}, 422),
    ]:
        r = client.post("/api/bots", json=body)
        assert r.status_code == status and set(r.json()) == {"error"}, (body, r.text)
    assert client.post("/api/bots/Nobody/revoke", json={}).status_code == 404
    # A web user names bots from the list, never a command line; an account seat must be
    # one's own bot.
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "cmd:python evil.py"}] + [
        {"kind": "bot"}
    ] * 2
    r = client.post("/api/tables", json={"game": "cego", "seats": seats})
    assert r.status_code == 400 and "unknown bot" in r.json()["error"]
    seats = [{"kind": "human"}, {"kind": "human", "account": "Somebody"}] + [{"kind": "bot"}] * 2
    r = client.post("/api/tables", json={"game": "cego", "seats": seats})
    assert r.status_code == 400 and "no bot called" in r.json()["error"]
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ext:crashes"}] + [{"kind": "bot"}] * 2
    r = client.post("/api/tables", json={"game": "doppelkopf", "seats": seats})
    assert r.status_code == 400 and "does not play doppelkopf" in r.json()["error"]
    assert "ext:firstlegal" in client.get("/api/games").json()["bots"]
    # Another person's private table: the bot takes a seat with the invite and its token.
    table = client.post(
        "/api/tables",
        json={"game": "cego", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2,
              "public": False, "first_dealer": 0},
    ).json()["table"]  # fmt: skip
    client.cookies.clear()
    path = f"/api/tables/{table['id']}/join"
    assert client.post(path, json={"seat": 1}, headers=auth(token)).status_code == 404
    r = client.post(path, json={"seat": 1, "invite": "wrong"}, headers=auth("swb_nope"))
    assert r.status_code == 401
    r = client.post(path, json={"seat": 1, "invite": table["invite"]}, headers=auth(token))
    assert r.status_code == 200, r.text
    assert r.json()["table"]["your_seat"] == 1
    with client.websocket_connect(f"/ws/bots/{table['id']}", headers=auth(token)) as ws:
        assert json.loads(ws.receive_text()) | {"options": {}} == {
            "type": "hello", "protocol": 1, "game": "cego", "profile": "schwarzwald",
            "options": {}, "seat": 1, "seats": 4, "time_limit": LIMIT, "table": table["id"],
            "deal": 0,
        }  # fmt: skip
    # A browser page of another site cannot use the socket.
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"/ws/bots/{table['id']}", headers={**auth(token), "origin": "https://evil.example"}
        ),
    ):
        pass


def test_the_bot_socket_is_rate_limited(db_url: str) -> None:
    settings = make_settings(db_url, ws_rate=1.0, ws_burst=3.0, bot_time_limit=30.0)
    with TestClient(create_app(settings)) as client:
        token = owner_with_bot(client)
        table = bot_table(client)
        with client.websocket_connect(f"/ws/bots/{table['id']}", headers=auth(token)) as ws:
            for _ in range(6):
                ws.send_text('{"type": "ping"}')
            frames = [json.loads(ws.receive_text()) for _ in range(8)]
        assert any(f["type"] == "error" and f.get("code") == "rate" for f in frames), frames
        assert sum(f["type"] == "pong" for f in frames) <= 3


def test_an_outside_program_plays_a_seat_at_a_web_table(
    app_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_client
    caplog.set_level(logging.INFO)
    member(client)  # a table of bots only needs an account
    seats = [{"kind": "bot", "bot": "ext:firstlegal"}] + [{"kind": "bot", "bot": "random"}] * 3
    table = client.post(
        "/api/tables",
        json={"game": "doppelkopf", "profile": "ddv", "seats": seats, "creator_seat": None,
              "series_length": 1, "first_dealer": 3},
    ).json()["table"]  # fmt: skip
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "finished")
    svc = client.app.state.services  # type: ignore[attr-defined]
    (deal,) = svc.repo.deals_of_table(table["id"], with_events=True)
    assert deal.status == "finished" and len([a for a in deal.actions if a["seat"] == 0]) >= 12
    # The program played every turn itself (a lost turn would say so), and is gone now.
    assert not [r for r in caplog.records if r.name.startswith("stichwerk.bots")]
    assert not svc.bots._programs


def test_an_outside_program_that_dies_is_replaced_never_the_table(
    app_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_client
    member(client)  # a table of bots only needs an account
    seats = [{"kind": "bot", "bot": "ext:crashes"}] + [{"kind": "bot", "bot": "random"}] * 3
    table = client.post(
        "/api/tables",
        json={"game": "cego", "seats": seats, "creator_seat": None, "series_length": 1,
              "first_dealer": 3},
    ).json()["table"]  # fmt: skip
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "finished")
    lines = [r.getMessage() for r in caplog.records if r.name == "stichwerk.bots.external"]
    assert lines == [
        "bot 'ext:crashes' (seat 0): it ended before saying ready; heuristic plays for it"
    ]


def test_the_operators_bot_file_is_checked(tmp_path: Path) -> None:
    good = tmp_path / "bots.toml"
    good.write_text('[bots.mine]\ncommand = "python3 bot.py"\ntime_limit = 2.5\ngames = ["cego"]\n')
    (spec,) = load_external_bots(str(good))
    assert (spec.bot_name, spec.time_limit, spec.games, spec.fallback) == (
        "ext:mine",
        2.5,
        ("cego",),
        "heuristic",
    )
    for text, fragment in [
        ("[bots.mine]\ncommand = 3\n", "command"),
        ('[bots.Mine]\ncommand = "x"\n', "a name has"),
        ('[bots.mine]\ncommand = "x"\ntime_limit = 0\n', "more than 0"),
        ('[bots.mine]\ncommand = "x"\nfallback = "cmd:x"\n', "fallback"),
        ('[bots.mine]\ncommand = "x"\ngames = ["skat"]\n', "games"),
        ('[bots.mine]\ncommand = "x"\nshell = true\n', "unknown key"),
        ("[bots.mine\n", "not TOML"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(SettingError) as error:
            load_external_bots(str(bad))
        assert fragment in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(SettingError, match="cannot read"):
        load_external_bots(str(tmp_path / "missing.toml"))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(["type", "id", "action", "act", "card", "cards", "name", "t", "message"])


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    st.one_of(
        st.text(max_size=60),
        JSON.map(json.dumps),
        st.dictionaries(KEYS, JSON, max_size=4).map(
            lambda d: json.dumps({"type": "action", "id": 1, **d})
        ),
    )
)
def test_every_bot_message_is_validated_without_an_exception(text: str) -> None:
    parsed = parse_bot(text)
    assert isinstance(parsed, str | Ready | ActionMessage | LogMessage | Ping)
    if isinstance(parsed, str):
        assert "\n" not in parsed and len(parsed) < 200
