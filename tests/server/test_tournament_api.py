"""The tournament API: every refusal is the app's one-line JSON error with its status; a round's
tables bring in their results from the score sheets (over the sheets' own API), from typed
totals and from an online table played by bots; the pages follow over the websocket; a seat
link seats a player at an online table; a server started again on the same database carries
on mid-round; a backup taken over by a second server plays on exactly as the first would."""

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES, doko_deals

CREATE = {
    "name": "Frühjahr",
    "series": "Club",
    "date": "2025-03-08",
    "place": "Hirschen",
    "seed": "api",
}


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/t.db"))) as client:
        yield client


def _new(client: TestClient, players: int = 9, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tournaments", json={**CREATE, **extra}, headers=ORIGIN)
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    if players:
        state = _change(client, state, {"op": "add_players", "names": NAMES[:players]})
    return state


def _token(state: dict[str, Any], role: str = "director") -> str:
    return str(state["links"][role].rsplit("/", 1)[1])


def _change(client: TestClient, state: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/tournaments/{_token(state)}/changes", json=body, headers=ORIGIN)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _refused(client: TestClient, path: str, body: Any, status: int, words: str) -> None:
    r = client.post(path, json=body, headers=ORIGIN)
    assert r.status_code == status, (path, body, r.text)
    error = r.json()["error"]
    assert words in error and "\n" not in error, error


def _until(ws: WebSocketTestSession, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Frames of the tournament's websocket until one shows what ``ok`` waits for."""
    for _ in range(500):
        frame = json.loads(ws.receive_text())
        if frame["type"] == "tournament" and ok(frame["state"]):
            state: dict[str, Any] = frame["state"]
            return state
    raise AssertionError("the tournament never got there")


def _sheet_deals(
    client: TestClient, scorer: str, deals: list[dict[str, Any]], first: int = 0
) -> None:
    """Enter ``deals`` on a table's score sheet, the first being deal number ``first``."""
    for k, summary in enumerate(deals, start=first):
        r = client.post(
            f"/api/sheets/{scorer}/changes",
            json={"op": "add", "summary": summary, "key": f"{scorer}-{k}"},
            headers=ORIGIN,
        )
        assert r.status_code == 200, r.text
        assert r.json()["applied"]["duplicate"] is False


def _quick(table: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"points": 10 + 3 * seat, "games_won": seat + 1} for seat in range(table["size"])]


def test_every_refusal_is_one_line(app_client: TestClient) -> None:
    c = app_client
    bad_create = [
        ({"series": "Club"}, 400, "name"),
        ({**CREATE, "format": "skat"}, 400, "unknown tournament format"),
        ({**CREATE, "date": "31.02.2025"}, 400, "is not a date"),
        ({**CREATE, "series": ""}, 400, "club or series"),
        ({**CREATE, "colour": "red"}, 400, "unknown key 'colour'"),
        ({**CREATE, "seed": "a b"}, 400, "the seed"),
        ({**CREATE, "name": "x" * 121}, 400, "at most 120"),
    ]
    for body, status, words in bad_create:
        _refused(c, "/api/tournaments", body, status, words)
    r = c.post(
        "/api/tournaments", content=b"name=x", headers={**ORIGIN, "content-type": "text/plain"}
    )
    assert r.status_code == 415
    r = c.post(
        "/api/tournaments",
        content=b"{" + b" " * 9000 + b"}",
        headers={**ORIGIN, "content-type": "application/json"},
    )
    assert r.status_code == 413 and "too large" in r.json()["error"]
    state = _new(c, players=0)
    path = f"/api/tournaments/{_token(state)}/changes"
    public = f"/api/tournaments/{_token(state, 'public')}/changes"
    for url in ("/api/tournaments/nope", "/api/tournaments/" + "x" * 22):
        r = c.get(url)
        assert r.status_code == 404 and "no such tournament" in r.json()["error"]
    _refused(c, public, {"op": "draw"}, 403, "read-only link")
    _refused(c, path, {"op": "jump"}, 400, "unknown op 'jump'")
    _refused(c, path, {"op": "draw", "now": True}, 400, "unknown key 'now'")
    _refused(c, path, {"op": "draw"}, 409, "register the players first")
    _refused(c, path, {"op": "add_players", "names": []}, 400, "1 to 200 players")
    # A change may be larger than the gate's usual 16 KiB cap (a hall of players at once).
    padded = b'{"op": "add_players", "names": []' + b" " * 20000 + b"}"
    r = c.post(path, content=padded, headers={**ORIGIN, "content-type": "application/json"})
    assert r.status_code == 400 and "1 to 200 players" in r.json()["error"]
    _refused(c, path, {"op": "add_players", "names": ["A" * 41]}, 400, "longer than 40")
    _refused(c, path, {"op": "add_players", "names": ["Anna", "anna"]}, 400, "registered already")
    _refused(c, path, {"op": "add_players", "names": [7]}, 400, "must be text")
    state = _change(c, state, {"op": "add_players", "text": "\n".join(NAMES[:7])})
    _refused(c, path, {"op": "draw"}, 409, "7 players cannot be seated")
    _refused(c, path, {"op": "withdraw", "player": 1}, 409, "take Bernd off the list")
    _refused(c, path, {"op": "remove_player", "player": 99}, 404, "no player 100")
    _refused(c, path, {"op": "remove_player", "player": -1}, 400, "'player' must be a whole number")
    _refused(c, path, {"op": "remove_player", "player": True}, 400, "'player' must be a whole")
    state = _change(c, state, {"op": "add_players", "names": NAMES[7:9]})
    state = _change(c, state, {"op": "draw"})
    table = state["rounds"][0]["tables"][0]  # a 4-table: plus points, no negative totals
    enter = {"op": "enter", "round": 1, "table": 1}
    _refused(c, path, {"op": "add_players", "names": ["Zoe"]}, 409, "late arrival")
    _refused(c, path, {"op": "remove_player", "player": 0}, 409, "can withdraw")
    _refused(c, path, {**enter, "results": _quick(table)[:3]}, 400, "one line for each of the")
    negative = [{**e, "points": -5 if s == 0 else e["points"]} for s, e in enumerate(_quick(table))]
    _refused(c, path, {**enter, "results": negative}, 400, "no negative totals")
    twice = [{**e, "duty_solos": 2} for e in _quick(table)]
    _refused(c, path, {**enter, "results": twice}, 400, "owes 1 Pflicht-Solo at this table, not 2")
    many = [{**e, "games_won": 9} for e in _quick(table)]
    _refused(
        c, path, {**enter, "results": many}, 400, "games won must be a whole number from 0 to 8"
    )
    _refused(c, path, {**enter, "results": [{"points": "ten"}] * 4}, 400, "points must be a whole")
    _refused(c, path, {**enter, "results": [{"points": 1, "x": 1}] * 4}, 400, "send points")
    _refused(c, path, {**enter, "table": 3, "results": []}, 404, "round 1 has no table 3")
    _refused(c, path, {**enter, "round": 2, "results": []}, 404, "no round 2 has been drawn")
    _refused(c, path, {**enter, "round": 0, "results": []}, 400, "'round' must be a whole number")
    _refused(c, path, {**enter, "table": "1", "results": []}, 400, "'table' must be a whole")
    _refused(c, path, {"op": "mode", "round": 1, "table": 1, "mode": "sheet"}, 409, "already")
    _refused(c, path, {"op": "mode", "round": 1, "table": 1, "mode": "paper"}, 400, "'sheet'")
    _refused(c, path, {"op": "online", "round": 1, "table": 1, "bots": [4]}, 400, "'bots' lists")
    _refused(c, path, {"op": "online", "round": 1, "table": 1, "bots": [0, 0]}, 400, "each once")
    _refused(c, path, {"op": "finish"}, 409, "round 2 is still to be drawn")
    _refused(c, path, {"op": "draw"}, 409, "round 1 is not complete: tables 1, 2 have no results")
    state = _change(c, state, {"op": "withdraw", "player": 0})
    _refused(c, path, {"op": "withdraw", "player": 0}, 409, "withdrawn already")
    _refused(c, path, {"op": "reinstate", "player": 1}, 409, "has not withdrawn")
    _refused(c, path, {"op": "edit"}, 400, "change one of")
    _refused(c, path, {"op": "edit", "date": "someday"}, 400, "is not a date")
    # A table that began on its score sheet cannot go online; its draw stays.
    scorer = state["rounds"][0]["tables"][1]["scorer"][3:]
    _sheet_deals(c, scorer, doko_deals(5, 1))
    _refused(c, path, {"op": "online", "round": 1, "table": 2, "bots": []}, 409, "has begun")
    _refused(c, path, {"op": "undraw"}, 409, "table 2 has begun")
    token, pub = _token(state), _token(state, "public")
    # Query and path parameters, the other routes.
    for url, status, words in [
        (f"/api/tournaments/{token}/log?since=-1", 422, "'since'"),
        (f"/api/tournaments/{token}/log?since=x", 422, "'since'"),
        (f"/api/tournaments/{token}/names?q={'a' * 41}", 422, "'q'"),
        (f"/api/tournaments/{pub}/names?q=an", 403, "read-only"),
        (f"/api/tournaments/{pub}/backup.json", 403, "read-only"),
        (f"/api/tournaments/{token}/results.csv", 409, "no ranking yet"),
        (f"/tournaments/{token}/print/menu", 404, "'seating', 'sheets' or 'results'"),
        (f"/tournaments/{token}/print/seating?round=9", 404, "no round 9"),
        (f"/tournaments/{token}/print/seating?round=x", 422, "'round'"),
        (f"/tournaments/{pub}/print/sheets", 403, "read-only"),
        ("/api/rankings/list", 422, "'series'"),
        ("/api/rankings/list?series=Club&kind=best", 422, "'kind'"),
        ("/api/rankings/list?series=Club&kind=five&years=0", 422, "'years'"),
        ("/api/rankings/list?series=Club&latest=20000", 422, "'latest'"),
        (f"/tournaments/join/{state['tournament']['id']}/1/1/0/{'a' * 16}", 404, "no such seat"),
        (f"/tournaments/join/{state['tournament']['id']}/1/1/9/{'a' * 16}", 400, "'seat'"),
        ("/tournaments/join/short/1/1/0/code", 404, "no such seat"),
    ]:
        r = c.get(url)
        assert r.status_code == status, (url, r.text)
        assert words in r.json()["error"], (url, r.json())
    history = f"/api/tournaments/{token}/history"
    _refused(c, history, {"text": "who;when\n"}, 400, "lacks the columns")
    _refused(c, history, {"csv": ""}, 400, "send the CSV file")
    _refused(c, f"/api/tournaments/{pub}/history", {"text": ""}, 403, "read-only")
    good = "date,player,place,participants\n2020-05-01,Anna,1,2\n2020-05-01,Bernd,2,2\n"
    assert c.post(history, json={"text": good}, headers=ORIGIN).json()["rows"] == 2
    _refused(c, history, {"text": good}, 409, "already")
    _refused(c, "/api/tournaments/import", {"backup": {"kind": "x"}}, 400, "not a Stichwerk")
    _refused(c, "/api/tournaments/import", {"backup": {}, "replace": "yes"}, 400, "send")
    backup = c.get(f"/api/tournaments/{token}/backup.json").json()
    _refused(c, "/api/tournaments/import", {"backup": backup}, 409, "is here already")
    broken = {**backup, "tables": [{**backup["tables"][0], "seating": [0, 1, 2, 99]}]}
    _refused(c, "/api/tournaments/import", {"backup": broken, "replace": True}, 400, "seats")
    with (
        pytest.raises(WebSocketDisconnect),
        c.websocket_connect("/ws/tournaments/nope", headers=ORIGIN),
    ):
        pass


def test_a_round_entered_from_sheets_typed_totals_and_an_online_table(
    app_client: TestClient,
) -> None:
    c = app_client
    state = _new(c, players=13)  # two 4-tables and a 5-table
    state = _change(c, state, {"op": "draw"})
    tables = state["rounds"][0]["tables"]
    assert [t["size"] for t in tables] == [4, 4, 5]
    with c.websocket_connect(f"/ws/tournaments/{_token(state, 'public')}", headers=ORIGIN) as ws:
        first = _until(ws, lambda s: True)
        assert "scorer" not in first["rounds"][0]["tables"][0]  # the public page gets no links
        assert first["rounds"][0]["tables"][0]["follower"].startswith("/s/")
        # Table 3 (the 5-table) enters on its score sheet: progress shows, then its results.
        scorer = tables[2]["scorer"][3:]
        deals = doko_deals(5, 10)
        _sheet_deals(c, scorer, deals[:4])
        seen = _until(
            ws, lambda s: (s["rounds"][0]["tables"][2]["progress"] or {}).get("played") == 4
        )
        assert seen["rounds"][0]["tables"][2]["entered"] is False
        _sheet_deals(c, scorer, deals[4:], 4)
        seen = _until(ws, lambda s: s["rounds"][0]["tables"][2]["entered"])
        sheet = c.get(f"/api/sheets/{scorer}").json()["sheet"]
        points = [r["points"] for r in seen["rounds"][0]["tables"][2]["results"]]
        assert points == sheet["running_totals"]
        # Table 1: the director types its totals.
        state = _change(
            c, state, {"op": "enter", "round": 1, "table": 1, "results": _quick(tables[0])}
        )
        _until(ws, lambda s: s["rounds"][0]["tables"][0]["entered"])
        # Table 2 plays online, every seat a bot: its results come in when its list is over.
        state = _change(c, state, {"op": "online", "round": 1, "table": 2, "bots": [0, 1, 2, 3]})
        online = state["rounds"][0]["tables"][1]
        assert online["mode"] == "online" and online["seat_links"] == [None] * 4
        done = _until(ws, lambda s: s["rounds"][0]["complete"])
    # The online table is private (the director's link is no account): the database holds it.
    repo = c.app.state.services.repo  # type: ignore[attr-defined]
    assert c.get(f"/api/tables/{online['web_table'][3:]}/deals").status_code == 404
    web = repo.deals_of_table(online["web_table"][3:])
    assert sum(1 for d in web if d.counts) == 8
    # The Pflicht-Solo is owed over the Vorrunde (three rounds of 8 games): the first deal of
    # round 1 has 8 + 16 games to the deadline, and the count goes down with the list.
    left = [d.record["duty_solo_games_left"] for d in web if "duty_solo_games_left" in d.record]
    assert left[0] == 24 and left == sorted(left, reverse=True) and min(left) >= 17
    assert done["rounds"][0]["tables"][1]["source"] == "online"
    assert done["next"] == {"action": "draw", "round": 2, "blocked": None}
    ops = [x["op"] for x in c.get(f"/api/tournaments/{_token(state)}/log").json()["changes"]]
    assert ops[-3:] == ["enter", "online", "online_results"] and "sheet" in ops


def test_a_seat_link_seats_its_player(app_client: TestClient, tmp_path: Path) -> None:
    c = app_client
    state = _new(c, players=9)
    state = _change(c, state, {"op": "draw"})
    state = _change(c, state, {"op": "online", "round": 1, "table": 1, "bots": [1, 2, 3]})
    table = state["rounds"][0]["tables"][0]
    link = table["seat_links"][0]
    r = c.get(link, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == table["web_table"]
    info = c.get(f"/api/tables/{table['web_table'][3:]}").json()["table"]
    assert info["your_seat"] == 0 and info["public"] is False
    assert c.get(link, follow_redirects=False).status_code == 303  # again: still seated
    c.cookies.clear()  # another phone with the same link
    r = c.get(link, follow_redirects=False)
    assert r.status_code == 409 and "taken already" in r.json()["error"]
    wrong = link[:-3] + ("aaa" if not link.endswith("aaa") else "bbb")
    assert c.get(wrong).status_code == 404


def test_a_restarted_server_carries_on_mid_round(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path}/t.db")
    with TestClient(create_app(settings)) as c:
        state = _new(c, players=9)
        state = _change(c, state, {"op": "draw"})
        tables = state["rounds"][0]["tables"]
        scorer = tables[1]["scorer"][3:]
        deals = doko_deals(5, 10)
        _sheet_deals(c, scorer, deals[:6])
        state = _change(
            c, state, {"op": "enter", "round": 1, "table": 1, "results": _quick(tables[0])}
        )
        before = c.get(f"/api/tournaments/{_token(state)}").json()
    with TestClient(create_app(settings)) as c:
        after = c.get(f"/api/tournaments/{_token(state)}").json()
        assert after == before
        assert after["rounds"][0]["tables"][1]["progress"]["played"] == 6
        with c.websocket_connect(f"/ws/tournaments/{_token(state)}", headers=ORIGIN) as ws:
            _sheet_deals(c, scorer, deals[6:], 6)
            done = _until(ws, lambda s: s["rounds"][0]["complete"])
        assert done["next"]["action"] == "draw" and done["next"]["blocked"] is None


def test_a_backup_taken_over_plays_on_as_the_first_server_would(tmp_path: Path) -> None:
    first = make_settings(f"sqlite:///{tmp_path}/a.db")
    second = make_settings(f"sqlite:///{tmp_path}/b.db")
    with TestClient(create_app(first)) as a, TestClient(create_app(second)) as b:
        state = _new(a, players=9)
        state = _change(a, state, {"op": "draw"})
        for table in state["rounds"][0]["tables"]:
            state = _change(
                a,
                state,
                {"op": "enter", "round": 1, "table": table["number"], "results": _quick(table)},
            )
        state = _change(a, state, {"op": "draw"})
        scorer = state["rounds"][1]["tables"][0]["scorer"][3:]
        _sheet_deals(a, scorer, doko_deals(4, 3))
        t2 = state["rounds"][1]["tables"][1]
        state = _change(a, state, {"op": "enter", "round": 2, "table": 2, "results": _quick(t2)})
        token = _token(state)
        # The automatic copy after that entry and the download are the same tournament; the
        # first laptop fails, the second takes over from the copy.
        folder = next((tmp_path / "backups").iterdir())
        latest = json.loads((folder / "latest.json").read_text())
        backup = a.get(f"/api/tournaments/{token}/backup.json").json()
        assert {**latest, "exported_at": None} == {**backup, "exported_at": None}
        r = b.post("/api/tournaments/import", json={"backup": latest}, headers=ORIGIN)
        assert r.status_code == 200, r.text
        taken = b.get(f"/api/tournaments/{token}").json()
        original = a.get(f"/api/tournaments/{token}").json()
        for s in (taken, original):
            s["tournament"].pop("seq")
        assert taken == original  # the same links, tables, sheets and standings
        # The table's phone carries on at the second laptop with the same link.
        assert b.get(f"/api/sheets/{scorer}").json()["sheet"]["games_played"] == 3
        for client in (a, b):
            with client.websocket_connect(f"/ws/tournaments/{token}", headers=ORIGIN) as ws:
                _sheet_deals(client, scorer, doko_deals(4, 8)[3:], 3)
                _until(ws, lambda s: s["rounds"][1]["complete"])
        drawn = [
            _change(cl, {"links": {"director": f"/x/{token}"}}, {"op": "draw"}) for cl in (a, b)
        ]
        seatings = [[t["seating"] for t in d["rounds"][2]["tables"]] for d in drawn]
        assert seatings[0] == seatings[1]  # the same third round
        assert drawn[0]["standings"] == drawn[1]["standings"]
