"""Typed totals are checked as a whole: every mistake of one entry is named at once, each with
its seat and field (``"explain": true`` asks for the list beside the one-line ``error``), and
what the list's rules say is checked (games won against the games, points against games won)."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES

CREATE = {"name": "Herbst", "series": "Club", "date": "2025-10-04", "seed": "typed"}


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/t.db"))) as client:
        yield client


def _drawn(c: TestClient, fmt: str = "wielandstrasse", players: int = 9) -> tuple[str, Any]:
    made = c.post("/api/tournaments", json={**CREATE, "format": fmt}, headers=ORIGIN).json()
    path = f"/api/tournaments/{made['links']['director'].rsplit('/', 1)[1]}/changes"
    r = c.post(path, json={"op": "add_players", "names": NAMES[:players]}, headers=ORIGIN)
    assert r.status_code == 200, r.text
    r = c.post(path, json={"op": "draw"}, headers=ORIGIN)
    assert r.status_code == 200, r.text
    return path, r.json()["rounds"][0]["tables"]


def _enter(c: TestClient, path: str, results: Any, table: int = 1, **extra: Any) -> Any:
    body = {"op": "enter", "round": 1, "table": table, "results": results, **extra}
    return c.post(path, json=body, headers=ORIGIN)


def _where(problems: list[dict[str, Any]]) -> list[tuple[str, int | None, str | None]]:
    return [(p["code"], p["seat"], p["field"]) for p in problems]


def test_three_mistakes_are_named_at_once_each_at_its_field(app_client: TestClient) -> None:
    c = app_client
    path, tables = _drawn(c)
    assert tables[0]["size"] == 4 and tables[0]["duty_owed"] == [1, 1, 1, 1]
    names = [NAMES[p] for p in tables[0]["seating"]]
    results = [
        {"points": -5, "games_won": 2},  # a plus-only list writes no negative totals
        {"points": 12, "duty_solos": 2, "games_won": 3},  # owes one Pflicht-Solo
        {"points": 20, "games_won": 9},  # a 4-table plays 8 games
        {"points": 6, "games_won": 2},
    ]
    r = _enter(c, path, results, explain=True)
    assert r.status_code == 400, r.text
    body = r.json()
    assert set(body) == {"error", "problems"} and "\n" not in body["error"]
    assert _where(body["problems"]) == [
        ("negative", 0, "points"),
        ("duty_owed", 1, "duty_solos"),
        ("whole", 2, "games_won"),
    ]
    assert body["problems"][1]["params"] == {"name": names[1], "owed": 1, "given": 2}
    assert body["problems"][2]["params"] == {"name": names[2], "lo": 0, "hi": 8}
    for words in (
        f"a plus-only table writes no negative totals ({names[0]})",
        f"{names[1]} owes 1 Pflicht-Solo at this table, not 2",
        f"{names[2]}'s games won must be a whole number from 0 to 8",
    ):
        assert words in body["error"], body["error"]
    # Without "explain" the answer is the app's usual one line, naming all three as well.
    r = _enter(c, path, results)
    assert r.status_code == 400 and set(r.json()) == {"error"}
    assert r.json()["error"] == body["error"]
    # Nothing was stored; the corrected entry is taken.
    fixed = [{"points": 5, "games_won": 2}, *results[1:]]
    fixed[1] = {"points": 12, "duty_solos": 1, "games_won": 3}
    fixed[2] = {"points": 20, "games_won": 8}
    r = _enter(c, path, fixed, explain=True)
    assert r.status_code == 200, r.text
    assert [x["games_won"] for x in r.json()["rounds"][0]["tables"][0]["results"]] == [2, 3, 8, 2]


def test_games_won_and_points_must_fit_the_list(app_client: TestClient) -> None:
    c = app_client
    path, tables = _drawn(c)
    five = tables[1]
    assert five["size"] == 5 and five["games"] == 10
    # Ten games at a 5-table: four play each one, at most three of them win it (30 in all).
    many = [{"points": 10, "games_won": 7} for _ in range(5)]
    r = _enter(c, path, many, table=2, explain=True)
    assert r.status_code == 400, r.text
    (problem,) = r.json()["problems"]
    assert problem == {
        "code": "games_won_total",
        "seat": None,
        "field": "games_won",
        "params": {"total": 35, "games": 10, "most": 30, "per_game": 3},
    }
    assert "the games won add up to 35, but 10 games have at most 30 winners" in r.json()["error"]
    # A plus-only list writes at least a point for each game won, and points only with a win.
    r = _enter(
        c,
        path,
        [{"points": p, "games_won": w} for p, w in ((3, 4), (9, 0), (0, 0), (8, 3), (1, 1))],
        table=2,
        explain=True,
    )
    assert _where(r.json()["problems"]) == [
        ("wins_without_points", 0, "games_won"),
        ("points_without_win", 1, "games_won"),
    ]
    # Points alone (no seat's games won typed) are taken as before.
    r = _enter(c, path, [{"points": p} for p in (3, 9, 0, 8, 1)], table=2)
    assert r.status_code == 200, r.text


def test_a_plus_minus_table_names_its_sum_and_seats_at_once(app_client: TestClient) -> None:
    c = app_client
    path, tables = _drawn(c, "swm", players=8)
    assert tables[0]["size"] == 4
    results: list[dict[str, Any]] = [
        {"points": 31, "games_won": 0},
        {"points": -10, "games_won": 5},
        {"points": -10, "games_won": 30},
        {"points": "7", "games_won": 4},
    ]
    r = _enter(c, path, results, explain=True)
    assert r.status_code == 400, r.text
    # The sum is not checked while a total is not a number; the rest is.
    assert _where(r.json()["problems"]) == [
        ("points_without_win", 0, "games_won"),
        ("whole", 2, "games_won"),
        ("whole", 3, "points"),
    ]
    results[2]["games_won"] = 3
    results[3]["points"] = 7
    r = _enter(c, path, results, explain=True)
    assert _where(r.json()["problems"]) == [
        ("points_without_win", 0, "games_won"),
        ("zero_sum", None, "points"),
    ]
    assert r.json()["problems"][1]["params"] == {"sum": 18}


def test_a_long_list_of_problems_is_the_first_and_how_many_more(app_client: TestClient) -> None:
    c = app_client
    path, _ = _drawn(c)
    wrong = [{"points": "x", "duty_solos": 5, "games_won": -1} for _ in range(5)]
    r = _enter(c, path, wrong, table=2, explain=True)
    body = r.json()
    assert r.status_code == 400 and len(body["problems"]) == 15
    assert body["error"].endswith("(and 14 more)") and len(body["error"]) < 300
    assert body["error"].startswith(body["problems"][0]["params"]["name"] + "'s points must")
    for bad in ("yes", 1, None):
        r = _enter(c, path, wrong, table=2, explain=bad)
        assert r.status_code == 400 and r.json() == {"error": "'explain' is true or false"}
    r = c.post(path, json={"op": "mode", "round": 1, "table": 1, "explain": True}, headers=ORIGIN)
    assert r.status_code == 400 and "unknown key 'explain'" in r.json()["error"]
