"""The HTTP API: accounts, games, tables, seats, deals; every bad input gets a clear refusal."""

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.cli.replay import replay_record
from tests.server.helpers import ORIGIN, guest, member, new_table, receive_until


def error_of(response: Any) -> str:
    message: str = response.json()["error"]
    return message


def test_register_login_logout(client: TestClient) -> None:
    r = client.post("/api/register", json={"username": "Hansi", "password": "geheim123"})
    assert r.status_code == 200 and r.json()["user"]["username"] == "Hansi"
    assert client.get("/api/me").json()["user"]["username"] == "Hansi"
    assert client.post("/api/logout", json={}).json() == {"user": None}
    assert client.get("/api/me").json() == {"user": None}
    r = client.post("/api/login", json={"username": "hansi", "password": "geheim123"})
    assert r.status_code == 200 and not r.json()["user"]["guest"]
    assert client.get("/api/me").json()["user"]["username"] == "Hansi"


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"username": "ab", "password": "geheim123"}, 400, "3 to 24"),
        ({"username": "Gast-1", "password": "geheim123"}, 400, "3 to 24"),
        ({"username": "a b c", "password": "geheim123"}, 400, "3 to 24"),
        ({"username": "Sepp", "password": "short"}, 400, "8 to 128"),
        ({"username": "Sepp"}, 422, "password"),
        ({"username": "Sepp", "password": "geheim123", "admin": True}, 422, "admin"),
        ({"username": 5, "password": "geheim123"}, 422, "username"),
    ],
)
def test_register_refuses_bad_input(
    client: TestClient, body: dict[str, Any], status: int, fragment: str
) -> None:
    r = client.post("/api/register", json=body)
    assert r.status_code == status
    assert fragment in error_of(r)


def test_register_taken_name_and_bad_login(client: TestClient) -> None:
    client.post("/api/register", json={"username": "Vreni", "password": "geheim123"})
    r = client.post("/api/register", json={"username": "VRENI", "password": "anders123"})
    assert r.status_code == 400 and "taken" in error_of(r)
    r = client.post("/api/login", json={"username": "Vreni", "password": "falsch123"})
    assert r.status_code == 401 and error_of(r) == "wrong username or password"
    r = client.post("/api/login", json={"username": "Niemand", "password": "falsch123"})
    assert r.status_code == 401 and error_of(r) == "wrong username or password"


def test_password_is_stored_as_argon2(client: TestClient) -> None:
    client.post("/api/register", json={"username": "Toni", "password": "geheim123"})
    repo = client.app.state.services.repo  # type: ignore[attr-defined]
    stored = repo.user_by_name("Toni").password_hash
    assert stored.startswith("$argon2id$") and "geheim123" not in stored


def test_guest_accounts(client: TestClient) -> None:
    user = guest(client)
    assert user["guest"] and user["username"].startswith("Gast-")
    r = client.post("/api/login", json={"username": user["username"], "password": "whatever1"})
    assert r.status_code == 401


def test_writes_need_json_and_same_origin(client: TestClient) -> None:
    r = client.post("/api/guest", content=b"x", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/guest", json={}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and "cross-site" in error_of(r)
    r = client.post("/api/guest", json={}, headers=ORIGIN)
    assert r.status_code == 200


def test_malformed_json_body(client: TestClient) -> None:
    r = client.post("/api/register", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_session_cookie_is_signed(client: TestClient) -> None:
    guest(client)
    cookie = client.cookies.get("stichwerk")
    assert cookie
    client.cookies.set("stichwerk", cookie[:-3] + "abc")
    assert client.get("/api/me").json() == {"user": None}


def test_security_headers(client: TestClient) -> None:
    r = client.get("/")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"


def test_games_lists_engines_profiles_settings_and_bots(client: TestClient) -> None:
    data = client.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert "cego" in names
    cego = next(g for g in data["games"] if g["name"] == "cego")
    assert cego["profiles"][0] == "schwarzwald"
    assert "ladder" in cego["settings"]["schwarzwald"]
    assert "random" in data["bots"]
    docs = cego["setting_docs"]
    assert docs["en"]["drescher_value"] == "What the Drescher loser pays every other seat."
    assert docs["de"]["drescher_value"] == "Was der Verlierer im Drescher jedem anderen zahlt."
    for game in data["games"]:
        assert set(game["setting_docs"]) == {"de", "en"}, game["name"]
        for values in game["settings"].values():
            # Every setting the lobby offers comes with its meaning, in each language.
            for lang in ("de", "en"):
                assert set(values) - {"name"} <= set(game["setting_docs"][lang]), game["name"]


def test_create_table_needs_a_user(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "toy", "seats": [{"kind": "bot"}] * 4})
    assert r.status_code == 401


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"game": "skat"}, 400, "unknown game"),
        ({"profile": "berlin"}, 400, "unknown profile"),
        ({"seats": [{"kind": "human", "bot": "deep-blue"}] + [{"kind": "bot"}] * 3}, 400, "bot"),
        ({"seats": [{"kind": "human"}, {"kind": "bot"}]}, 422, "seats"),
        ({"seats": [{"kind": "alien"}] * 4}, 422, "kind"),
        ({"creator_seat": 1}, 400, "creator"),
        ({"options": {"no_such_setting": 1}}, 400, "no_such_setting"),
        ({"series_length": 0}, 422, "series_length"),
        ({"time_limit": 100000}, 422, "time_limit"),
        ({"first_dealer": 4}, 400, "the first dealer must be a seat from 0 to 3"),
        ({"first_dealer": -1}, 422, "first_dealer"),
        ({"extra": 1}, 422, "extra"),
    ],
)
def test_create_table_refuses_bad_input(
    client: TestClient, body: dict[str, Any], status: int, fragment: str
) -> None:
    guest(client)
    payload: dict[str, Any] = {
        "game": "toy",
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
    }
    payload.update(body)
    r = client.post("/api/tables", json=payload)
    assert r.status_code == status, r.text
    assert fragment in error_of(r)


def test_cego_table_checks_seats_and_overrides(client: TestClient) -> None:
    guest(client)
    seats = [{"kind": "human"}] + [{"kind": "bot"}] * 3
    ok = client.post(
        "/api/tables",
        json={"game": "cego", "profile": "titisee", "seats": seats, "options": {"berg": 50}},
    )
    assert ok.status_code == 200, ok.text
    assert ok.json()["table"]["options"] == {"berg": 50}
    bad = client.post(
        "/api/tables", json={"game": "cego", "seats": seats, "options": {"berg": "lots"}}
    )
    assert bad.status_code == 400


CEGO_SEATS = [{"kind": "human"}] + [{"kind": "bot"}] * 3


def test_cego_table_with_closing_rounds(client: TestClient) -> None:
    guest(client)
    games = client.get("/api/games").json()["games"]
    assert next(g for g in games if g["name"] == "cego")["deal_types"] == [
        "drescher",
        "pflichtraeuber",
    ]
    assert next(g for g in games if g["name"] == "doppelkopf")["deal_types"] == []
    rounds = ["drescher", "pflichtraeuber", "drescher"]
    table = new_table(
        client, game="cego", profile="titisee", seats=CEGO_SEATS, closing_rounds=rounds
    )
    assert table["closing_rounds"] == rounds
    stored = client.get(f"/api/tables/{table['id']}").json()["table"]
    assert stored["closing_rounds"] == rounds and stored["series_length"] == 2
    # A table override can allow what the profile does not.
    allowed = new_table(
        client,
        game="cego",
        profile="schwarzwald",
        seats=CEGO_SEATS,
        options={"drescher": True},
        closing_rounds=["drescher"],
    )
    assert allowed["closing_rounds"] == ["drescher"]
    assert new_table(client, game="cego", seats=CEGO_SEATS)["closing_rounds"] == []


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (
            {"profile": "schwarzwald", "closing_rounds": ["drescher"]},
            400,
            "closing rounds: drescher deals are not played under these rules",
        ),
        (
            {"options": {"pflichtraeuber": False}, "closing_rounds": ["pflichtraeuber"]},
            400,
            "closing rounds: pflichtraeuber deals are not played under these rules",
        ),
        (
            {"closing_rounds": ["drescher", "ramsch"]},
            400,
            "unknown closing round 'ramsch' (known: drescher, pflichtraeuber)",
        ),
        (
            {"game": "doppelkopf", "profile": None, "closing_rounds": ["drescher"]},
            400,
            "doppelkopf has no closing rounds (only cego)",
        ),
        ({"closing_rounds": ["drescher"] * 11}, 422, "closing_rounds: List should have at most"),
    ],
)
def test_closing_rounds_the_rules_do_not_allow_are_refused(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    guest(client)
    payload: dict[str, Any] = {"game": "cego", "profile": "titisee", "seats": CEGO_SEATS}
    payload.update(body)
    r = client.post("/api/tables", json=payload)
    assert r.status_code == status, r.text
    assert error_of(r).startswith(message)
    assert "\n" not in error_of(r)
    assert client.get("/api/tables").json()["mine"] == []


def test_the_first_dealer_is_drawn_by_lot_unless_chosen(client: TestClient) -> None:
    member(client)  # a table of bots only needs an account
    chosen = new_table(client, creator_seat=None, seats=[{"kind": "bot"}] * 4, first_dealer=3)
    assert chosen["first_dealer"] == 3
    assert client.get(f"/api/tables/{chosen['id']}").json()["table"]["first_dealer"] == 3
    with client.websocket_connect(f"/ws/tables/{chosen['id']}", headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["table"]["first_dealer"] == 3
        state = receive_until(ws, lambda m: m["type"] == "state" and m["deal"] is not None)
        assert state["deal"]["number"] == 0 and state["deal"]["dealer"] == 3
    # Without a choice the server draws: every seat can come up, and the table keeps its draw.
    drawn = []
    for _ in range(40):
        r = client.post(
            "/api/tables",
            json={"game": "toy", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3},
        )
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        stored = client.get(f"/api/tables/{table['id']}").json()["table"]
        assert stored["first_dealer"] == table["first_dealer"]
        drawn.append(table["first_dealer"])
    assert set(drawn) == {0, 1, 2, 3}


def test_lobby_join_and_invites(client: TestClient) -> None:
    alice = guest(client)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    public = new_table(client, seats=seats)
    private = new_table(client, seats=seats, public=False)
    assert public["invite"] and public["your_seat"] == 0
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby["open"]] == [public["id"]]
    assert {t["id"] for t in lobby["mine"]} == {public["id"], private["id"]}

    client.cookies.clear()
    guest(client)
    # A private table is no table at all to someone without its invite.
    r = client.get(f"/api/tables/{private['id']}")
    assert r.status_code == 404 and r.json() == {"error": "no such table"}
    r = client.post(f"/api/tables/{private['id']}/join", json={})
    assert r.status_code == 404 and r.json() == {"error": "no such table"}
    r = client.post(f"/api/tables/{private['id']}/join", json={"invite": "wrong"})
    assert r.status_code == 404 and r.json() == {"error": "no such table"}
    seen = client.get(f"/api/tables/{public['id']}").json()["table"]
    assert seen["invite"] is None
    r = client.post(
        f"/api/tables/{private['id']}/join", json={"seat": 0, "invite": private["invite"]}
    )
    assert r.status_code == 409 and "not free" in error_of(r)
    r = client.post(f"/api/tables/{private['id']}/join", json={"invite": private["invite"]})
    assert r.status_code == 200 and r.json()["table"]["your_seat"] == 1
    r = client.post(f"/api/tables/{private['id']}/join", json={"invite": private["invite"]})
    assert r.status_code == 409
    r = client.post(f"/api/tables/{public['id']}/join", json={"seat": 2})
    assert r.status_code == 409
    r = client.post(f"/api/tables/{public['id']}/join", json={"seat": 7})
    assert r.status_code == 422
    r = client.post("/api/tables/nope/join", json={})
    assert r.status_code == 404
    assert alice["username"] in json.dumps(client.get(f"/api/tables/{public['id']}").json())


def play_out(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Play seat 0 with its first legal action until the deal is over; the last frame."""
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        while True:
            msg = receive_until(ws, lambda m: m["type"] == "state")
            if msg["phase"] in ("between", "finished"):
                return msg
            view = msg["view"]
            if view and view["to_act"] == 0 and view["legal_actions"]:
                act = {k: v for k, v in view["legal_actions"][0].items() if k != "seat"}
                ws.send_json({"type": "act", "version": msg["version"], "action": act})


def test_deals_records_and_replay(client: TestClient) -> None:
    guest(client)
    table = new_table(client, game="cego", series_length=1)
    for _ in range(100):  # the table's actor deals the first deal right after it opens
        first = client.get(f"/api/tables/{table['id']}/deals").json()["deals"]
        if first:
            break
        time.sleep(0.05)
    assert len(first) == 1 and first[0]["status"] == "active" and first[0]["result"] is None
    deal_id = first[0]["id"]
    assert isinstance(deal_id, str) and len(deal_id) == 16  # random, not a counter
    assert client.get(f"/api/deals/{deal_id}/record").status_code == 403
    assert client.get(f"/api/deals/{deal_id}/replay").status_code == 403
    last = play_out(client, table)
    assert last["phase"] == "finished" and last["status"] == "finished"
    r = client.get(f"/api/deals/{deal_id}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["game"] == "cego" and record["actions"] and record["result"]
    assert replay_record(record) == record["result"]
    replay = client.get(f"/api/deals/{deal_id}/replay").json()
    assert len(replay["steps"]) == len(record["actions"]) + 1
    assert replay["steps"][-1]["view"]["result"] == record["result"]
    assert all(len(step["hands"]) == 4 for step in replay["steps"])
    assert [s["seat"] for s in replay["seats"]] == [0, 1, 2, 3]
    assert replay["seats"][0]["kind"] == "human" and replay["seats"][0]["name"]
    assert client.get("/api/deals/999999/record").status_code == 404
    assert table["id"] not in r.headers["content-disposition"]


def test_pages_render_in_both_languages(client: TestClient) -> None:
    r = client.get("/", headers={"accept-language": "de-DE"})
    assert '<html lang="de">' in r.text and "Schwarzwälder" in r.text
    r = client.get("/lang/en?next=/t/abc", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/t/abc"
    r = client.get("/t/abc")
    assert '<html lang="en">' in r.text and 'data-table="abc"' in r.text
    r = client.get("/lang/en?next=//evil.example", follow_redirects=False)
    assert r.headers["location"] == "/"
    assert client.get("/d/AbC-12_x").status_code == 200
    assert client.get("/static/js/table.js").status_code == 200
    assert client.get("/static/i18n/de.json").json()["act"]["fort"] == "Fort"
