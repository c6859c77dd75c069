"""Typed totals checked as a whole (:mod:`stichwerk.tournament.entry`): every problem at once, in
the form's order; and no rule refuses what a real score sheet adds up to (random Wielandstraße
lists at 4- and 5-tables, with solos and a Fuchs caught, always pass)."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.core.series import SeriesRules
from stichwerk.sheet import read_settings
from stichwerk.sheet.log import replay
from stichwerk.tournament import WIELANDSTRASSE, table_results
from stichwerk.tournament.entry import EntryProblems, Problem, check_totals, summary
from tests.tournament.test_cli_db import refused, run

NAMES = ["Anna", "Bernd", "Clara", "Dora", "Emil"]
CLI_NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"]
PLUS = SeriesRules(seats=4, games=8, zero_sum=False, duty_solos=1)


def _problems(rules: SeriesRules, lines: Any, owed: list[int] | None = None) -> list[Problem]:
    size = rules.seats
    with pytest.raises(EntryProblems) as caught:
        check_totals(rules, NAMES[:size], owed or [1] * size, lines)
    assert str(caught.value) == summary(caught.value.problems)
    return list(caught.value.problems)


def test_every_problem_of_an_entry_at_once_in_the_forms_order() -> None:
    lines = [
        {"points": 4, "duty_solos": 1, "games_won": 5},
        {"points": -2, "games_won": 1},
        {"points": 7, "duty_solos": 2, "games_won": 0},
        {"points": 1, "games_won": 1, "bonus": 3},
    ]
    found = _problems(PLUS, lines, [1, 1, 1, 0])
    assert [(p.code, p.seat, p.field) for p in found] == [
        ("wins_without_points", 0, "games_won"),
        ("negative", 1, "points"),
        ("duty_owed", 2, "duty_solos"),
        ("points_without_win", 2, "games_won"),
        ("keys", 3, None),
    ]
    assert found[0].text == "Anna won 5 games but has 4 points (each game won writes at least one)"
    assert found[2].text == "Clara owes 1 Pflicht-Solo at this table, not 2"


def test_the_old_single_messages_stay_the_error_line() -> None:
    """A single problem's line is the message the command line and the API always gave."""
    assert [p.text for p in _problems(PLUS, [{"points": 1}])] == [
        "enter one line for each of the table's 4 players"
    ]
    zero = SeriesRules(seats=4, games=24)
    (problem,) = _problems(zero, [{"points": p} for p in (10, 0, 0, 0)])
    assert problem.text == "the totals of a plus-minus table sum to zero; these sum to 10"
    parity = SeriesRules(seats=4, games=8, parity_check=True)
    (problem,) = _problems(parity, [{"points": p} for p in (3, -1, -2, 0)])
    assert problem.text == "at a plus-minus 4-table the totals are all even or all odd"
    assert [p.text for p in _problems(PLUS, [{"points": -1}, {"points": 0}] * 2)] == [
        "a plus-only table writes no negative totals (Anna)",
        "a plus-only table writes no negative totals (Clara)",
    ]


def test_games_won_add_up_to_at_most_three_winners_a_game() -> None:
    lines = [{"points": 8, "games_won": 6} for _ in range(4)]
    assert check_totals(PLUS, NAMES[:4], [1] * 4, lines)[0] == (8, 0, 6)  # 24 of 8 games
    lines[0] = {"points": 8, "games_won": 7}
    (problem,) = _problems(PLUS, lines)
    assert problem.code == "games_won_total" and dict(problem.params)["most"] == 24
    assert (
        problem.text == "the games won add up to 25, but 8 games have at most 24 winners (3 a game)"
    )


def _normal(re: list[int], augen: int, fuchs: bool) -> dict[str, Any]:
    deal: dict[str, Any] = {"game_type": "normal", "re": sorted(re), "re_augen": augen}
    if fuchs:
        deal["extras"] = {"kontra": ["fuchs"]}
    return deal


@st.composite
def _lists(draw: st.DrawFn) -> tuple[int, list[dict[str, Any]]]:
    seats = draw(st.sampled_from((4, 5)))
    games = WIELANDSTRASSE.games_at(seats)
    deals = []
    for k in range(games):
        playing = [s for s in range(seats) if not (seats == 5 and s == k % seats)]
        augen = draw(st.integers(0, 240))
        if seats == 4 and draw(st.integers(0, 5)) == 0:
            soloist = draw(st.sampled_from(playing))
            deals.append({"game_type": "solo-damen", "re": [soloist], "re_augen": augen})
        else:
            re = draw(st.lists(st.sampled_from(playing), min_size=2, max_size=2, unique=True))
            deals.append(_normal(re, augen, draw(st.booleans())))
    return seats, deals


@settings(max_examples=60, deadline=None, derandomize=True)
@given(_lists())
def test_what_a_real_sheet_adds_up_to_is_never_refused(made: tuple[int, list[Any]]) -> None:
    seats, deals = made
    header = {
        "game": "doppelkopf",
        "profile": "wielandstrasse",
        "seats": seats,
        "names": NAMES[:seats],
        "first_dealer": 0,
        "games": WIELANDSTRASSE.games_at(seats),
        "duty_solos": 0,
        "duty_penalty": 0,
        "title": "t",
    }
    changes = [
        {"op": "add", "summary": d, "entry": f"e{k}", "key": f"k{k}"} for k, d in enumerate(deals)
    ]
    sheet = replay(read_settings(header).to_json(), changes)
    assert sheet.is_over
    results = table_results(1, tuple(range(seats)), sheet.series)
    rules = SeriesRules(seats=seats, games=WIELANDSTRASSE.games_at(seats), zero_sum=False)
    typed = [{"points": r.points, "games_won": r.games_won} for r in results]
    lines = check_totals(rules, NAMES[:seats], [0] * seats, typed)
    assert [(p, w) for p, _, w in lines] == [(r.points, r.games_won) for r in results]


def test_a_game_that_nets_to_nothing_writes_no_winner() -> None:
    """Why the games won have no lower bound: won with 121 while Kontra caught a Fuchs."""
    header = {"game": "doppelkopf", "profile": "wielandstrasse", "seats": 4, "games": 8}
    header |= {"names": NAMES[:4], "first_dealer": 0, "duty_solos": 0, "title": "t"}
    deals = [_normal([0, 1], 121, True)] + [
        {"game_type": "solo-damen", "re": [k % 4], "re_augen": 200} for k in range(7)
    ]
    changes = [
        {"op": "add", "summary": d, "entry": f"e{k}", "key": f"k{k}"} for k, d in enumerate(deals)
    ]
    sheet = replay(read_settings(header).to_json(), changes)
    results = table_results(1, (0, 1, 2, 3), sheet.series)
    assert sheet.series.entries[0].written == (0, 0, 0, 0)
    assert sum(r.games_won for r in results) == 7  # of 8 games
    typed = [{"points": r.points, "games_won": r.games_won} for r in results]
    check_totals(PLUS, NAMES[:4], [0] * 4, typed)


def test_the_command_line_names_every_problem_in_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"
    run(db, "new", "--name", "Herbst", "--series", "Club", "--date", "04.10.2025", "--seed", "e")
    tid = json.loads(run(db, "list", "--json"))[0]["id"]
    run(db, "add", tid, "--file", "-", stdin="\n".join(CLI_NAMES))
    run(db, "draw", tid)
    enter = ("enter", tid, "1", "1", "--points", "-5,12,20,6", "--won", "2,9,3,0")
    refused(db, *enter, message="no negative totals")
    line = CliRunner().invoke(app, ["tournament", *enter, "--db", db]).stderr.strip()
    assert line.count("; ") == 2, line
    assert "games won must be a whole number from 0 to 8" in line
    assert "has 6 points but won no game" in line
