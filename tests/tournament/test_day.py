"""The rules of a tournament day over a snapshot written by hand: no database, no server."""

import datetime as dt
from dataclasses import replace

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import SeriesRules
from stichwerk.tournament.cleaning import check_seed, clean_edit, clean_history, clean_new
from stichwerk.tournament.day import (
    PlannedRound,
    can_undraw,
    check_finish,
    check_may_go_online,
    check_new_players,
    check_quick,
    check_reinstate,
    check_remove,
    check_rename,
    check_set_mode,
    check_undraw,
    check_withdraw,
    compute,
    downstream_problems,
    draw_details,
    follows_sheet,
    log_about,
    next_step,
    plan_next,
    ranking_follows,
    ranking_rows,
    sheet_change_op,
    takes_online,
)
from stichwerk.tournament.entry import EntryProblems
from stichwerk.tournament.snapshot import (
    PlayerRow,
    RoundRow,
    TableRow,
    TournamentData,
    TournamentError,
    UnknownTournament,
    results_from_plain,
    results_to_plain,
)
from stichwerk.tournament.standings import Result

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna", "Ida", "Jakob"]
WHEN = dt.datetime(2025, 3, 8, 10, tzinfo=dt.UTC)


def day(players: int = 8, fmt: str = "wielandstrasse") -> TournamentData:
    return TournamentData(
        id="t1",
        name="Frühjahrsturnier",
        game="doppelkopf" if fmt == "wielandstrasse" else "cego",
        format_name=fmt,
        profile="wielandstrasse" if fmt == "wielandstrasse" else "schwarzwald",
        held_on=WHEN.date(),
        place="Saal",
        series="Club",
        seed="unit-1",
        status="registration",
        director_token="d" * 22,
        public_token="p" * 22,
        created_at=WHEN,
        finished_at=None,
        seq=1,
        players=tuple(PlayerRow(i, NAMES[i], None) for i in range(players)),
        rounds=(),
    )


def drawn(data: TournamentData, plan: PlannedRound) -> TournamentData:
    """The snapshot after ``plan`` is stored: its tables typed in (``quick``), none entered."""
    tables = tuple(
        TableRow(
            round=plan.number,
            number=n,
            seating=seating,
            duty_owed=owed,
            mode="quick",
            list_id=None,
            scorer_token=None,
            follower_token=None,
            sheet_changes=0,
            web_table_id=None,
            online=None,
            results=None,
            source=None,
            entered_at=None,
        )
        for n, (seating, owed) in enumerate(zip(plan.tables, plan.owed, strict=True), start=1)
    )
    new_round = RoundRow(plan.number, plan.final, plan.by_lot, tables)
    return replace(data, status="running", rounds=(*data.rounds, new_round))


def entered(
    data: TournamentData, round_number: int, table_number: int, results: list[Result]
) -> TournamentData:
    rounds = []
    for r in data.rounds:
        if r.number != round_number:
            rounds.append(r)
            continue
        tables = tuple(
            replace(t, results=tuple(results)) if t.number == table_number else t for t in r.tables
        )
        rounds.append(replace(r, tables=tables))
    return replace(data, rounds=tuple(rounds))


def play(
    data: TournamentData, round_number: int, solo_by: frozenset[int] | set[int] = frozenset()
) -> TournamentData:
    """Every table of the round entered: seat i scores 10 * (size - i); ``solo_by`` played
    their Pflicht-Solo there."""
    r = next(x for x in data.rounds if x.number == round_number)
    for t in r.tables:
        results = [
            Result(round_number, p, 10 * (t.size - i), int(p in solo_by), 1)
            for i, p in enumerate(t.seating)
        ]
        data = entered(data, round_number, t.number, results)
    return data


def test_the_next_step_of_an_empty_day_is_to_register() -> None:
    empty = day(players=0)
    assert next_step(empty).to_json() == {
        "action": "draw",
        "round": 1,
        "blocked": "register the players first",
    }
    seven = next_step(day(players=7))
    assert seven.action == "draw" and seven.blocked is not None
    assert next_step(day()).blocked is None


def test_a_round_without_results_blocks_the_next_draw_and_names_its_tables() -> None:
    data = drawn(day(), plan_next(day()))
    step = next_step(data)
    assert (step.action, step.round) == ("draw", 2)
    assert step.blocked == "round 1 is not complete: tables 1, 2 have no results yet"
    with pytest.raises(TournamentError, match="tables 1, 2 have no results"):
        plan_next(data)
    data = entered(data, 1, 1, [Result(1, p, 0) for p in data.rounds[0].tables[0].seating])
    assert next_step(data).blocked == "round 1 is not complete: table 2 has no results yet"


def test_a_whole_day_draws_three_rounds_seats_the_endrunde_and_finishes() -> None:
    data = day()
    for number in (1, 2, 3):
        plan = plan_next(data)
        assert (plan.number, plan.final) == (number, False)
        assert sorted(p for t in plan.tables for p in t) == list(range(8))
        data = play(drawn(data, plan), number, solo_by=set(range(8)) if number == 1 else set())
    assert next_step(data).action == "endrunde"
    with pytest.raises(TournamentError, match="the Endrunde is still to be drawn and played"):
        check_finish(data)
    final = plan_next(data)
    assert (final.number, final.final) == (4, True)
    data = play(drawn(data, final), 4)
    assert next_step(data).to_json() == {"action": "finish", "round": None, "blocked": None}
    check_finish(data)
    computed = compute(data)
    assert computed.problems == []
    assert computed.standings is not None and computed.ranking is not None
    assert [s.place for s in computed.ranking] == sorted(s.place for s in computed.ranking)
    rows = ranking_rows(data)
    assert len(rows) == 8 and {r.participants for r in rows} == {8}
    assert [r.player for r in rows] == [data.names[s.player] for s in computed.ranking]
    finished = replace(data, status="finished")
    assert next_step(finished).action is None
    assert ranking_follows(finished) and not ranking_follows(data)
    final_round = finished.rounds[3]
    table_1_reopened = tuple(
        replace(t, results=None) if t.number == 1 else t for t in final_round.tables
    )
    reopened = replace(
        finished, rounds=(*finished.rounds[:3], replace(final_round, tables=table_1_reopened))
    )
    assert not ranking_follows(reopened)
    with pytest.raises(TournamentError, match="finished already"):
        check_finish(finished)
    with pytest.raises(TournamentError, match="is finished"):
        plan_next(finished)


def test_the_same_day_draws_the_same_round_and_a_plan_is_logged_by_name() -> None:
    data = day()
    assert plan_next(data) == plan_next(data)
    plan = plan_next(data)
    details = draw_details(data, plan)
    assert details["round"] == 1 and details["final"] is False
    assert sorted(n for t in details["tables"] for n in t) == sorted(NAMES[:8])


def test_a_corrected_pflicht_solo_shows_at_the_table_drawn_after_it() -> None:
    data = day()
    data = play(drawn(data, plan_next(data)), 1, solo_by={0})
    data = drawn(data, plan_next(data))
    r2 = data.rounds[1]
    seat_of_0 = next(t for t in r2.tables if 0 in t.seating)
    assert seat_of_0.duty_owed[seat_of_0.seating.index(0)] == 0
    assert downstream_problems(data, data.results()) == []
    # Anna's solo in round 1 is taken back: round 2 was drawn with her owing none.
    table = next(t for t in data.rounds[0].tables if 0 in t.seating)
    corrected = [replace(res, duty_solos=0) for res in table.results or ()]
    data = entered(data, 1, table.number, corrected)
    problems = downstream_problems(data, data.results())
    assert problems == [
        f"round 2, table {seat_of_0.number} was drawn with Anna owing 0 Pflicht-Solo; after a "
        "correction it is 1: enter that table's totals by hand"
    ]
    assert compute(data).problems == problems


def test_a_corrected_vorrunde_that_seats_the_endrunde_otherwise_is_named() -> None:
    data = day()
    for number in (1, 2, 3):
        solos = set(range(8)) if number == 1 else set()
        data = play(drawn(data, plan_next(data)), number, solo_by=solos)
    data = drawn(data, plan_next(data))
    title = set(data.rounds[3].tables[0].seating)
    assert downstream_problems(data, data.results()) == []
    # The last of the title table wins round 3 by a mile: the Endrunde's seating changes.
    last = min(title, key=lambda p: sum(r.points for r in data.results() if r.player == p))
    outsider = next(p for p in range(8) if p not in title)
    table = next(t for t in data.rounds[2].tables if outsider in t.seating)
    boosted = [
        replace(res, points=1000) if res.player == outsider else res for res in table.results or ()
    ]
    data = entered(data, 3, table.number, boosted)
    assert last in title
    assert downstream_problems(data, data.results()) == [
        "after a correction the Vorrunde standings seat the Endrunde differently: undo the "
        "Endrunde's draw and seat it again"
    ]
    data = play(data, 4)
    assert downstream_problems(data, data.results())[-1].endswith(
        " (its tables have begun; it stays as drawn)"
    )


def test_a_draw_is_taken_back_only_before_its_tables_begin() -> None:
    with pytest.raises(TournamentError, match="no round has been drawn"):
        check_undraw(day())
    data = drawn(day(), plan_next(day()))
    assert can_undraw(data) and check_undraw(data) is data.rounds[-1]
    begun = entered(data, 1, 2, [Result(1, p, 0) for p in data.rounds[0].tables[1].seating])
    assert not can_undraw(begun)
    with pytest.raises(TournamentError, match=r"^Runde 1: table 2 has begun; its draw stays$"):
        check_undraw(begun)
    on_sheet = replace(
        data,
        rounds=(
            replace(
                data.rounds[0],
                tables=(
                    data.rounds[0].tables[0],
                    replace(data.rounds[0].tables[1], sheet_changes=1),
                ),
            ),
        ),
    )
    assert not can_undraw(on_sheet)


def test_registration_closes_with_the_first_draw_and_withdrawals_follow_the_rounds() -> None:
    data = day(players=6)
    assert check_new_players(data, ["  Ida  ", "Jakob"]) == ["Ida", "Jakob"]
    with pytest.raises(StichwerkError, match=r"anna is registered already \(as Anna\)"):
        check_new_players(data, ["anna"])
    with pytest.raises(StichwerkError, match=r"IDA is registered already \(as Ida\)"):
        check_new_players(data, ["Ida", "IDA"])
    assert check_remove(data, 5).name == "Frieda"
    with pytest.raises(UnknownTournament, match="no player 10"):
        check_remove(data, 9)
    assert check_rename(data, 1, " Bernd  Roth ") == (data.players[1], "Bernd Roth")
    with pytest.raises(StichwerkError, match=r"clara is registered already \(as Clara\)"):
        check_rename(data, 1, "clara")
    with pytest.raises(TournamentError, match="no round is drawn yet: take Anna off"):
        check_withdraw(data, 0)
    nine = day(players=9)
    running = drawn(nine, plan_next(nine))
    with pytest.raises(TournamentError, match="round 1 is drawn: a late arrival"):
        check_new_players(running, ["Ida"])
    with pytest.raises(TournamentError, match="Anna can withdraw, not be taken off"):
        check_remove(running, 0)
    player, after = check_withdraw(running, 0)
    assert (player.name, after) == ("Anna", 1)
    gone = replace(
        running, players=(replace(running.players[0], withdrawn_after=1), *running.players[1:])
    )
    with pytest.raises(TournamentError, match="Anna has withdrawn already"):
        check_withdraw(gone, 0)
    assert check_reinstate(gone, 0).name == "Anna"
    with pytest.raises(TournamentError, match="Bernd has not withdrawn"):
        check_reinstate(gone, 1)
    later = drawn(play(gone, 1), plan_next(play(gone, 1)))
    assert all(0 not in t.seating for t in later.rounds[1].tables)
    with pytest.raises(TournamentError, match="a round has been drawn since Anna withdrew"):
        check_reinstate(later, 0)


def test_typed_totals_are_checked_against_the_tables_rules() -> None:
    data = drawn(day(), plan_next(day()))
    table = data.rounds[0].tables[0]
    rules = SeriesRules(seats=4, games=8, zero_sum=False, duty_solos=1, duty_penalty=15)
    lines = [{"points": 10, "games_won": 3, "duty_solos": 1}] + [
        {"points": 0, "games_won": 0, "duty_solos": 0}
    ] * 3
    results = check_quick(data, table, rules, lines)
    assert [r.player for r in results] == list(table.seating)
    assert results[0] == Result(1, table.seating[0], 10, 1, 3)
    with pytest.raises(EntryProblems):
        check_quick(data, table, rules, [{"points": -5, "games_won": 0}] * 4)


def test_where_a_tables_results_come_from() -> None:
    data = drawn(day(), plan_next(day()))
    table = data.rounds[0].tables[0]
    with pytest.raises(TournamentError, match="come from its quick already"):
        check_set_mode(data, table, "quick")
    with pytest.raises(TournamentError, match="the table has no score sheet"):
        check_set_mode(data, table, "sheet")
    on_sheet = replace(table, mode="sheet", list_id="L1")
    check_set_mode(data, on_sheet, "quick")
    assert follows_sheet(on_sheet) and not follows_sheet(table)
    check_may_go_online(data, table)
    online = replace(table, mode="online", web_table_id="w1")
    with pytest.raises(TournamentError, match="plays online already"):
        check_may_go_online(data, online)
    with pytest.raises(TournamentError, match="begun on its score sheet"):
        check_may_go_online(data, replace(on_sheet, sheet_changes=2))
    assert takes_online(online, "w1") and not takes_online(online, "w2")
    assert not takes_online(replace(online, mode="quick"), "w1")
    first = (Result(1, 0, 5),)
    assert sheet_change_op(None, first) == "sheet"
    assert sheet_change_op(first, (Result(1, 0, 6),)) == "correction"
    assert sheet_change_op(first, None) == "reopened"


def test_the_log_says_whom_a_correction_concerns_and_what_changed() -> None:
    data = drawn(day(), plan_next(day()))
    table = data.rounds[0].tables[0]
    before = [Result(1, p, 0) for p in table.seating]
    after = [replace(before[0], points=20, games_won=2), *before[1:]]
    about = log_about(
        {
            "round": 1,
            "table": 1,
            "results": results_to_plain(after),
            "before": results_to_plain(before),
        },
        data,
    )
    assert about is not None
    first = data.names[table.seating[0]]
    assert about["players"][0] == {"number": table.seating[0], "name": first}
    assert about["changes"] == [
        {"seat": 0, "number": table.seating[0], "name": first, "field": f, "from": 0, "to": v}
        for f, v in (("points", 20), ("games_won", 2))
    ]
    assert log_about({"round": 1, "table": 9, "results": []}, data) is None
    assert log_about({"name": "x"}, data) is None
    plain = results_to_plain(after)
    assert results_from_plain(1, table.seating, plain) == tuple(after)
    assert results_from_plain(1, table.seating, None) is None


def test_the_directors_fields_are_cleaned_one_line_each() -> None:
    new = clean_new(
        name=" Frühjahr ",
        format_name="swm",
        held_on="8.3.2025",
        place="",
        series="Club",
        seed="s-1",
    )
    assert (new.name, new.fmt.game, new.held_on.isoformat()) == ("Frühjahr", "cego", "2025-03-08")
    assert new.log_entry()["format"] == "swm"
    with pytest.raises(StichwerkError, match="the seed is 1 to 40"):
        check_seed("a b")
    with pytest.raises(StichwerkError, match="change one of date, name, place, series"):
        clean_edit({"status": "finished"})
    with pytest.raises(StichwerkError, match="change one of"):
        clean_edit({})
    assert clean_edit({"series": " Club  2 "}) == {"series": "Club 2"}


def test_a_history_file_is_cleaned_and_capped_before_anything_is_written() -> None:
    text = "date,player,place,participants,tournament\n2024-05-01, Anna  Maier ,1,8, Mai \n"
    rows = clean_history(text, max_rows=5)
    assert [(r.player, r.tournament) for r in rows] == [("Anna Maier", "Mai")]
    many = text + "2024-05-01,Ben,2,8,Mai\n" * 5
    with pytest.raises(StichwerkError, match="at most 5 rows, this file has 6: split it by years"):
        clean_history(many, max_rows=5)
    with pytest.raises(StichwerkError, match="the CSV file has no rows"):
        clean_history("date,player,place,participants\n", max_rows=5)
