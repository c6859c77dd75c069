"""The tournament's change log people can read (issue 32): a change of a table's results names
its round, table and players and says what changed (``about``), for the page to word."""

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/l.db"))) as c:
        yield c


def typed(size: int, bump: int = 0) -> list[dict[str, Any]]:
    """Totals a plus-only table of ``size`` could have written (8 or 10 games): each seat
    a point per game won and five more; ``bump`` more points and a game more for seat 0."""
    won = [3, 2, 0, 3, 2][:size]
    won[0] += 1 if bump else 0
    return [
        {
            "points": (w + 5 if w else 0) + (bump if seat == 0 else 0),
            "duty_solos": 0,
            "games_won": w,
        }
        for seat, w in enumerate(won)
    ]


def test_a_corrected_table_is_named_with_its_players_and_what_changed(client: TestClient) -> None:
    create = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "seed": "log"}
    r = client.post("/api/tournaments", json=create, headers=ORIGIN)
    assert r.status_code == 200, r.text
    director = r.json()["links"]["director"]

    def change(body: dict[str, Any]) -> dict[str, Any]:
        r = client.post(f"/api{director}/changes", json=body, headers=ORIGIN)
        assert r.status_code == 200, r.text
        state: dict[str, Any] = r.json()
        return state

    change({"op": "add_players", "names": NAMES[:9]})
    state = change({"op": "draw"})
    table = state["rounds"][0]["tables"][0]
    names = {p["number"]: p["name"] for p in state["players"]}
    seated = [{"number": p, "name": names[p]} for p in table["seating"]]
    change({"op": "enter", "round": 1, "table": 1, "results": typed(table["size"])})
    change({"op": "enter", "round": 1, "table": 1, "results": typed(table["size"], bump=3)})
    log = client.get(f"/api{director}/log").json()["changes"]
    assert [c["op"] for c in log] == ["create", "add_players", "draw", "enter", "enter"]
    assert [c["about"] for c in log[:3]] == [None, None, None]
    first, fixed = log[3]["about"], log[4]["about"]
    assert first == {"round": 1, "table": 1, "players": seated, "changes": []}
    who = seated[0]
    assert fixed["players"] == seated
    assert fixed["changes"] == [
        {"seat": 0, **who, "field": "points", "from": 8, "to": 12},
        {"seat": 0, **who, "field": "games_won", "from": 3, "to": 4},
    ]
