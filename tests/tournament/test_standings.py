"""Standings: the Pflicht-Solo penalty, tie-breaks, the Endrunde's seating, the final ranking and
its ranking points, withdrawn players, and a table's results read off its list."""

from dataclasses import replace

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import DealOutcome, Series, SeriesRules
from stichwerk.tournament import (
    SWM,
    WIELANDSTRASSE,
    PlayerCountError,
    Result,
    Round,
    duty_owed,
    final_ranking,
    place_points,
    seat_endrunde,
    table_results,
    table_series_rules,
    vorrunde_standings,
)

W = WIELANDSTRASSE


def vorrunde(points: dict[int, int], *, solo: bool = True, won: int = 0) -> list[Result]:
    """Each player's Vorrunde: ``points`` in round 1 (with his Pflicht-Solo), 0 in rounds 2-3."""
    out = []
    for p, pts in points.items():
        out.append(Result(1, p, pts, int(solo), won))
        out += [Result(2, p, 0), Result(3, p, 0)]
    return out


def test_the_penalty_comes_off_once_the_vorrunde_is_over() -> None:
    results = [Result(1, 0, 30), Result(2, 0, 10), Result(1, 1, 20, duty_solos=1)]
    s = {x.player: x for x in vorrunde_standings(W, [0, 1], results)}
    assert (s[0].penalty, s[0].score) == (0, 40)  # round 3 may still bring the solo
    results += [Result(3, 0, 5), Result(2, 1, 0), Result(3, 1, 0)]
    s = {x.player: x for x in vorrunde_standings(W, [0, 1], results)}
    assert (s[0].preliminary, s[0].penalty, s[0].score) == (45, -15, 30)
    assert (s[1].penalty, s[1].score, s[1].duty_solos) == (0, 20, 1)
    assert [x.player for x in vorrunde_standings(W, [0, 1], results)] == [0, 1]


def test_a_withdrawn_players_vorrunde_is_over_too() -> None:
    results = [Result(1, 0, 30), Result(1, 1, 0, duty_solos=1)]
    s = vorrunde_standings(W, [0, 1], results, withdrawn=[0])
    assert [(x.player, x.group, x.penalty, x.score) for x in s] == [
        (1, "field", 0, 0),
        (0, "withdrawn", -15, 15),
    ]


def test_vorrunde_ties_go_to_games_won_then_share_the_place() -> None:
    results = vorrunde({0: 20, 1: 20, 2: 20, 3: 25})
    results = [replace(r, games_won=4) if r.player == 2 and r.round == 1 else r for r in results]
    s = vorrunde_standings(W, [3, 2, 1, 0], results)
    assert [(x.place, x.player, x.shared) for x in s] == [
        (1, 3, False),
        (2, 2, False),
        (3, 0, True),
        (3, 1, True),
    ]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (Result(1, 9, 0), "player 9, who is not registered"),
        (Result(5, 0, 0), "rounds 1 to 4"),
        (Result(0, 0, 0), "rounds 1 to 4"),
        (Result(2, 0, 0, duty_solos=-1), "cannot be < 0"),
        (Result(2, 0, float("nan")), "finite"),
        (Result(2, 0, 0, duty_solos=1), "2 Pflicht-Soli in the Vorrunde; the wielandstrasse "),
        (Result(1, 0, 3), "player 0 has two results for round 1"),
    ],
)
def test_bad_results_are_refused(result: Result, message: str) -> None:
    results = [Result(1, 0, 10, duty_solos=1), Result(1, 1, 0), result]
    with pytest.raises(StichwerkError, match=message):
        vorrunde_standings(W, [0, 1], results)


def test_unknown_withdrawn_player_and_duplicate_registration() -> None:
    with pytest.raises(StichwerkError, match="player 7 withdrew but is not registered"):
        vorrunde_standings(W, [0, 1], [], withdrawn=[7])
    with pytest.raises(StichwerkError, match="registered twice"):
        vorrunde_standings(W, [0, 0], [])


# ------------------------------------------------------------------------------ Endrunde


def test_endrunde_best_4_at_the_title_table_then_by_rank() -> None:
    results = vorrunde({p: 100 - p for p in range(9)})
    seating = seat_endrunde(W, list(range(9)), results, seed=1)
    title, rest = seating.round.tables
    assert seating.round.number == 4
    assert sorted(title) == [0, 1, 2, 3] and sorted(rest) == [4, 5, 6, 7, 8]
    assert seating.by_lot == ()


def test_endrunde_title_table_of_5_where_every_table_is_a_5_table() -> None:
    results = vorrunde({p: 100 - p for p in range(15)})
    tables = seat_endrunde(W, list(range(15)), results).round.tables
    assert [sorted(t) for t in tables] == [list(range(5)), list(range(5, 10)), list(range(10, 15))]


def test_endrunde_5_tables_sit_lowest() -> None:
    results = vorrunde({p: 100 - p for p in range(14)})
    tables = seat_endrunde(W, list(range(14)), results).round.tables
    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7, 8], [9, 10, 11, 12, 13]]


def test_a_tie_across_the_title_tables_edge_is_decided_by_a_seeded_lot() -> None:
    points = {0: 50, 1: 40, 2: 40, 3: 30, 4: 30, 5: 30, 6: 10, 7: 5}
    results = vorrunde(points)
    picks = set()
    for seed in range(12):
        seating = seat_endrunde(W, list(range(8)), results, seed=seed)
        title = set(seating.round.tables[0])
        assert {0, 1, 2} <= title
        assert seating.by_lot[0] == tuple(sorted(seating.by_lot[0], key=lambda p: p not in title))
        assert set(seating.by_lot[0]) == {3, 4, 5}
        picks |= title & {3, 4, 5}
        assert seat_endrunde(W, list(range(8)), results, seed=seed) == seating
    assert picks == {3, 4, 5}  # each of the tied players can win the lot


def test_endrunde_needs_a_complete_vorrunde_and_a_fitting_field() -> None:
    results = vorrunde({p: p for p in range(12)})
    with pytest.raises(StichwerkError, match="player 0 has results for 2 of 3 rounds"):
        seat_endrunde(W, list(range(12)), [r for r in results if (r.player, r.round) != (0, 3)])
    with pytest.raises(PlayerCountError, match="11 players cannot be seated"):
        seat_endrunde(W, list(range(12)), results, withdrawn=[5])
    with pytest.raises(StichwerkError, match="swm format has no Endrunde"):
        seat_endrunde(SWM, list(range(12)), [])
    seating = seat_endrunde(W, list(range(12)), results, withdrawn=[5, 6, 7, 8])
    assert sorted(seating.round.players()) == [0, 1, 2, 3, 4, 9, 10, 11]


# ------------------------------------------------------------------------------ final ranking


def finished(
    final: dict[int, int], vor: dict[int, int], won: dict[int, int] | None = None
) -> list[Result]:
    """A Vorrunde as :func:`vorrunde` gives it and the Endrunde's ``final`` points."""
    won = won or {}
    results = vorrunde(vor)
    results += [Result(4, p, pts, games_won=won.get(p, 0)) for p, pts in final.items()]
    return results


def test_title_table_plays_without_vorrunde_points_the_rest_with_them() -> None:
    vor = {0: 90, 1: 80, 2: 70, 3: 60, 4: 50, 5: 40, 6: 30, 7: 20, 8: 10}
    final = {0: 0, 1: 5, 2: 30, 3: 10, 4: 0, 5: 0, 6: 60, 7: 0, 8: 0}
    endrunde = Round(4, ((0, 1, 2, 3), (4, 5, 6, 7, 8)))
    ranking = final_ranking(W, list(range(9)), finished(final, vor), endrunde)
    assert [s.player for s in ranking] == [2, 3, 1, 0, 6, 4, 5, 7, 8]
    assert [s.score for s in ranking] == [30, 10, 5, 0, 90, 50, 40, 20, 10]
    assert [s.group for s in ranking] == ["title"] * 4 + ["field"] * 5
    assert [s.ranking_points for s in ranking] == [9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_final_tie_breaks_in_order() -> None:
    # title table: 0 and 1 equal in the Endrunde, 0 better in the Vorrunde; 2 and 3 equal in
    # both, 3 won more games; field: 4 and 5 equal on total, 5 better in the Endrunde; 6 and 7
    # equal on everything: a shared place
    vor = {0: 90, 1: 80, 2: 70, 3: 70, 4: 40, 5: 30, 6: 20, 7: 20}
    final = {0: 10, 1: 10, 2: 5, 3: 5, 4: 0, 5: 10, 6: 0, 7: 0}
    results = finished(final, vor, won={3: 2})
    endrunde = Round(4, ((0, 1, 2, 3), (4, 5, 6, 7)))
    ranking = final_ranking(W, list(range(8)), results, endrunde)
    assert [(s.place, s.player) for s in ranking] == [
        (1, 0), (2, 1), (3, 3), (4, 2), (5, 5), (6, 4), (7, 6), (7, 7),
    ]  # fmt: skip
    assert [s.ranking_points for s in ranking][-2:] == [2, 2]
    average = replace(W, shared_points="average")
    assert [s.ranking_points for s in final_ranking(average, list(range(8)), results, endrunde)][
        -2:
    ] == [1.5, 1.5]


def test_variants_carry_and_rank_by_table() -> None:
    vor = {0: 90, 1: 80, 2: 70, 3: 60, 4: 50, 5: 40, 6: 30, 7: 20}
    final = {0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 100}
    endrunde = Round(4, ((0, 1, 2, 3), (4, 5, 6, 7)))
    carried = replace(W, title_table_carries=True)
    ranking = final_ranking(carried, list(range(8)), finished(final, vor), endrunde)
    assert [s.player for s in ranking] == [0, 1, 2, 3, 7, 4, 5, 6]
    three = Round(4, ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)))
    vor12 = {**vor, 8: 10, 9: 9, 10: 8, 11: 7}
    final12 = {**final, 7: 0, 11: 500}
    by_table = replace(W, others_ranked_together=False)
    ranking = final_ranking(by_table, list(range(12)), finished(final12, vor12), three)
    assert [s.player for s in ranking][8:] == [11, 8, 9, 10]  # not above table 2's players
    together = final_ranking(W, list(range(12)), finished(final12, vor12), three)
    assert [s.player for s in together][4] == 11


def test_withdrawn_players_keep_their_points_and_rank_last() -> None:
    vor = {p: 100 - 10 * p for p in range(9)}
    results = [r for r in vorrunde(vor) if not (r.player == 0 and r.round > 1)]
    results += [Result(4, p, 0) for p in range(1, 9)]
    endrunde = Round(4, ((1, 2, 3, 4), (5, 6, 7, 8)))
    ranking = final_ranking(W, list(range(9)), results, endrunde, withdrawn=[0])
    last = ranking[-1]
    assert (last.player, last.place, last.group, last.withdrawn) == (0, 9, "withdrawn", True)
    assert last.preliminary == 100 and last.rounds == 1
    assert last.ranking_points == 1  # N counts the withdrawn player: 9 participants


def test_withdrawn_players_rank_by_rounds_then_points() -> None:
    results = [
        Result(1, 0, 80, 1), Result(1, 1, 10, 1), Result(2, 1, 10), Result(1, 2, 0, 1),
        Result(2, 2, 0), Result(3, 2, 0),
    ]  # fmt: skip
    s = vorrunde_standings(W, [0, 1, 2], results, withdrawn=[0, 1])
    assert [x.player for x in s] == [2, 1, 0]


def test_final_ranking_errors() -> None:
    results = vorrunde({p: p for p in range(8)})
    players = list(range(8))
    with pytest.raises(StichwerkError, match="needs the Endrunde's seating"):
        final_ranking(W, players, results)
    with pytest.raises(StichwerkError, match="player 7 has no seat"):
        final_ranking(W, players, results, Round(4, ((0, 1, 2, 3), (4, 5, 6))))
    with pytest.raises(StichwerkError, match="seated twice"):
        final_ranking(W, players, results, Round(4, ((0, 1, 2, 3), (4, 5, 6, 6))))
    with pytest.raises(StichwerkError, match="player 9 is seated but not registered"):
        final_ranking(W, players, results, Round(4, ((0, 1, 2, 3), (4, 5, 6, 7, 9))))
    with pytest.raises(StichwerkError, match="player 7 has an Endrunde result but no seat"):
        final_ranking(W, players, [*results, Result(4, 7, 1)], Round(4, ((0, 1, 2, 3),)),
                      withdrawn=[4, 5, 6, 7])  # fmt: skip
    with pytest.raises(StichwerkError, match="swm format has no Endrunde"):
        final_ranking(SWM, players, [], Round(3, ((0, 1, 2, 3),)))
    # results may come as any iterable, read once
    endrunde = Round(4, ((0, 1, 2, 3), (4, 5, 6, 7)))
    assert final_ranking(W, players, iter(results), endrunde) == final_ranking(
        W, players, results, endrunde
    )


def test_swm_ranks_by_the_sum_of_settlements_then_games_won() -> None:
    results = [Result(1, p, s, games_won=g) for p, s, g in [(0, 30, 2), (1, 30, 5), (2, -60, 0)]]
    results += [Result(2, p, 0) for p in range(3)]
    ranking = final_ranking(SWM, [0, 1, 2], results)
    assert [(s.place, s.player, s.score, s.ranking_points) for s in ranking] == [
        (1, 1, 30, 3),
        (2, 0, 30, 2),
        (3, 2, -60, 1),
    ]


def test_place_points() -> None:
    assert [place_points(W, p, 15) for p in (1, 2, 3, 15)] == [15, 14, 13, 1]
    assert [place_points(W, p, 12) for p in (1, 2, 3)] == [12, 11, 10]
    avg = replace(W, shared_points="average")
    assert place_points(avg, 2, 10, sharing=3) == 8  # places 2, 3, 4: (9 + 8 + 7) / 3
    assert place_points(avg, 2, 10, sharing=2) == 8.5
    table = replace(W, ranking_points="table", points_table=(10, 6, 3))
    assert [place_points(table, p, 5) for p in range(1, 6)] == [10, 6, 3, 0, 0]
    with pytest.raises(StichwerkError, match="place 6 of 5 is not a place"):
        place_points(W, 6, 5)


# ------------------------------------------------------------------------------ tables


def test_table_results_from_a_finished_list() -> None:
    rules = table_series_rules(W, SeriesRules(seats=5, duty_enforcement="penalty"), 2)
    assert (rules.games, rules.dealer_sits, rules.duty_solos, rules.duty_penalty) == (
        10,
        True,
        1,
        0,  # the solo may still come in round 3: the list of round 2 fines nobody
    )
    assert table_series_rules(W, SeriesRules(seats=5), 3).duty_penalty == 15
    series = Series(rules, duty_owed=[1, 0, 1, 1, 0])
    series.record(DealOutcome(settlement=(0, 3, 0, 3, 0)))
    series.record(DealOutcome(settlement=(9, 0, 0, 0, 0), duty_solo_by=0))
    while not series.is_over:
        series.record(DealOutcome(settlement=(0, 0, 1, 1, 0)))
    results = table_results(2, (10, 11, 12, 13, 14), series)
    assert [r.player for r in results] == [10, 11, 12, 13, 14]
    assert [r.duty_solos for r in results] == [1, 0, 0, 0, 0]
    assert [r.points for r in results] == [9, 3, 8, 11, 0]  # no list penalty: the Vorrunde's
    assert [r.games_won for r in results] == [1, 1, 8, 9, 0]
    with pytest.raises(StichwerkError, match="seats 4 players but its list has 5 seats"):
        table_results(2, (1, 2, 3, 4), series)
    with pytest.raises(StichwerkError, match="not complete"):
        table_results(2, (1, 2, 3, 4, 5), Series(rules))
    endrunde = table_series_rules(W, SeriesRules(seats=4), 4)
    assert (endrunde.games, endrunde.duty_solos) == (8, 0)
    with pytest.raises(StichwerkError, match="no 6-tables"):
        table_series_rules(W, SeriesRules(seats=6), 1)


def test_duty_owed_over_the_vorrunde() -> None:
    results = [Result(1, 0, 0, duty_solos=1), Result(1, 1, 0), Result(4, 1, 0, duty_solos=1)]
    assert (duty_owed(W, results, 0), duty_owed(W, results, 1)) == (0, 1)


def test_result_json() -> None:
    r = Result(2, 5, 12.5, 1, 3)
    assert Result.from_json(r.to_json()) == r
    assert Result.from_json({"round": 1, "player": 2, "points": 3}) == Result(1, 2, 3)
    for bad, message in [
        ({"round": 1, "player": 2}, "'points' must be a number"),
        ({"round": "1", "player": 2, "points": 0}, "'round' must be a whole number"),
        ({"round": 1, "player": 2, "points": True}, "'points' must be a number"),
        ({"round": 1, "player": 2, "points": 0, "games_won": 1.5}, "'games_won' must be a whole"),
    ]:
        with pytest.raises(StichwerkError, match=message):
            Result.from_json(bad)
