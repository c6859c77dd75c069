"""Ranking lists: points summed over tournaments, the five-year window, CSV in and out."""

import datetime
from dataclasses import replace

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.tournament import (
    WIELANDSTRASSE,
    PastResult,
    Round,
    all_time_list,
    final_ranking,
    five_year_list,
    ranking_list,
    read_results_csv,
    results_of_ranking,
    write_list_csv,
    write_results_csv,
)
from stichwerk.tournament.standings import Result

d = datetime.date

HISTORY = [
    # 2019: 12 players
    PastResult(d(2019, 3, 2), "Anna", 1, 12),
    PastResult(d(2019, 3, 2), "Ben", 2, 12),
    PastResult(d(2019, 3, 2), "Carl", 12, 12),
    # 2023: 15 players, Ben and Carl share place 2
    PastResult(d(2023, 10, 7), "Ben", 1, 15),
    PastResult(d(2023, 10, 7), "Carl", 2, 15),
    PastResult(d(2023, 10, 7), "Dora", 2, 15),
    # 2024: two tournaments on one day, told apart by name
    PastResult(d(2024, 6, 1), "Anna", 3, 8, "Frühjahr"),
    PastResult(d(2024, 6, 1), "Anna", 1, 8, "Sommer"),
]


def test_all_time_list_sums_points_counts_tournaments_and_wins() -> None:
    entries = all_time_list(HISTORY)
    assert [(e.place, e.player, e.points, e.tournaments, e.wins) for e in entries] == [
        (1, "Anna", 12 + 6 + 8, 3, 2),
        (2, "Ben", 11 + 15, 2, 1),
        (3, "Carl", 1 + 14, 2, 0),
        (4, "Dora", 14, 1, 0),
    ]


def test_five_year_list_ends_with_the_latest_tournament() -> None:
    entries = five_year_list(HISTORY)  # 2020..2024: Anna's 2019 win is out
    # equal on points, Anna's win puts her first; Carl and Dora share the place
    assert [(e.place, e.player, e.points, e.wins, e.shared) for e in entries] == [
        (1, "Ben", 15, 1, False),
        (2, "Anna", 14, 1, False),
        (3, "Carl", 14, 0, True),
        (3, "Dora", 14, 0, True),
    ]
    by_wins = five_year_list(HISTORY, years=1)  # 2024 only
    assert [(e.player, e.points, e.wins) for e in by_wins] == [("Anna", 14, 1)]
    assert [e.player for e in five_year_list(HISTORY, latest=2019)] == ["Anna", "Ben", "Carl"]
    assert five_year_list([]) == []
    with pytest.raises(StichwerkError, match="at least one year"):
        five_year_list(HISTORY, years=0)


def test_points_then_wins_decide() -> None:
    rows = [PastResult(d(2020, 1, 1), "X", 1, 4), PastResult(d(2020, 1, 1), "Y", 2, 4),
            PastResult(d(2020, 2, 1), "Y", 4, 5), PastResult(d(2020, 2, 1), "Z", 1, 5),
            PastResult(d(2020, 3, 1), "X", 4, 4)]  # fmt: skip
    # X: 4 + 1 = 5 with a win; Y: 3 + 2 = 5 without one; Z: 5 with a win
    entries = ranking_list(rows)
    assert [(e.place, e.player) for e in entries] == [(1, "X"), (1, "Z"), (3, "Y")]


def test_shared_places_and_other_point_rules() -> None:
    rows = HISTORY[3:6]
    average = replace(WIELANDSTRASSE, shared_points="average")
    assert {e.player: e.points for e in ranking_list(rows, average)} == {
        "Ben": 15, "Carl": 13.5, "Dora": 13.5,
    }  # fmt: skip
    fixed = replace(WIELANDSTRASSE, ranking_points="table", points_table=(10, 5))
    assert {e.player: e.points for e in ranking_list(rows, fixed)} == {
        "Ben": 10, "Carl": 5, "Dora": 5,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([PastResult(d(2020, 1, 1), " ", 1, 4)], "has no player name"),
        ([PastResult(d(2020, 1, 1), "A", 5, 4)], "A is placed 5 of 4 participants"),
        ([PastResult(d(2020, 1, 1), "A", 1, 0)], "0 participants is not a field"),
        ([PastResult(d(2020, 1, 1), "A", 1, 4), PastResult(d(2020, 1, 1), "B", 2, 5)],
         "the rows give 4 and 5 participants"),
        ([PastResult(d(2020, 1, 1), "A", 1, 4), PastResult(d(2020, 1, 1), "A ", 2, 4)],
         "A has two rows"),
        ([PastResult(d(2020, 1, 1), n, 1, 2) for n in "ABC"], "more rows than its 2"),
    ],
)  # fmt: skip
def test_bad_history_is_refused(rows: list[PastResult], message: str) -> None:
    with pytest.raises(StichwerkError, match=message):
        all_time_list(rows)


def test_names_are_compared_with_spaces_folded() -> None:
    rows = [PastResult(d(2020, 1, 1), "Anna  Maier", 1, 4),
            PastResult(d(2021, 1, 1), " Anna Maier", 1, 4)]  # fmt: skip
    assert [(e.player, e.tournaments) for e in all_time_list(rows)] == [("Anna Maier", 2)]


def test_csv_import_comma_semicolon_german_dates_and_bom() -> None:
    comma = "date,player,place,participants\n2024-03-09,Anna Maier,1,12\n2024-03-09,Ben,2,12\n"
    semi = "\ufeffTeilnehmer;x\n"  # not our header: refused below
    rows = read_results_csv(comma)
    assert rows == [PastResult(d(2024, 3, 9), "Anna Maier", 1, 12),
                    PastResult(d(2024, 3, 9), "Ben", 2, 12)]  # fmt: skip
    german = "\ufeffPlayer;Place;Participants;Date;Tournament\nAnna;1;9;09.03.2024;Frühjahr\n\n"
    assert read_results_csv(german) == [PastResult(d(2024, 3, 9), "Anna", 1, 9, "Frühjahr")]
    with pytest.raises(StichwerkError, match="lacks the columns date, player, place"):
        read_results_csv(semi)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("date,player,place\n", "lacks the column participants"),
        ("date,player,place,participants\n2024-13-01,A,1,4\n", "line 2: '2024-13-01' is not a"),
        ("date,player,place,participants\n1.2.24x,A,1,4\n", "line 2: '1.2.24x' is not a date"),
        ("date,player,place,participants\n2024-01-01,A,first,4\n",
         "line 2: place 'first' is not a whole number"),
        ("date,player,place,participants\n2024-01-01,A,1\n", "line 2: 3 fields, the header"),
        ("date,player,place,participants\n2024-01-01,A,5,4\n", "in the CSV file: 2024-01-01: A"),
    ],
)  # fmt: skip
def test_csv_import_errors_say_where(text: str, message: str) -> None:
    with pytest.raises(StichwerkError, match=message):
        read_results_csv(text)


def test_csv_round_trip_and_list_export() -> None:
    text = write_results_csv(HISTORY)
    assert text.splitlines()[0] == "date,tournament,player,place,participants"
    assert sorted(read_results_csv(text), key=repr) == sorted(HISTORY, key=repr)
    listing = write_list_csv(all_time_list(HISTORY))
    assert listing.splitlines() == [
        "place,player,points,tournaments,wins",
        "1,Anna,26,3,2",
        "2,Ben,26,2,1",
        "3,Carl,15,2,0",
        "4,Dora,14,1,0",
    ]


def test_a_finished_tournament_joins_the_history() -> None:
    vor = [Result(r, p, 100 - p if r == 1 else 0, int(r == 1)) for p in range(8) for r in (1, 2, 3)]
    fin = [Result(4, p, 8 - p) for p in range(8)]
    ranking = final_ranking(WIELANDSTRASSE, list(range(8)), vor + fin,
                            Round(4, ((0, 1, 2, 3), (4, 5, 6, 7))))  # fmt: skip
    names = {p: f"Player {p}" for p in range(8)}
    rows = results_of_ranking(ranking, names, d(2025, 5, 17), "Mai")
    assert rows[0] == PastResult(d(2025, 5, 17), "Player 0", 1, 8, "Mai")
    assert [e.points for e in all_time_list(rows)] == [8, 7, 6, 5, 4, 3, 2, 1]
    with pytest.raises(StichwerkError, match="player 7 has no name"):
        results_of_ranking(ranking, dict.fromkeys(range(7), "x"), d(2025, 5, 17))
