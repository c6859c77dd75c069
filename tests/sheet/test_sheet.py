"""The score sheet: settings, entries checked against the list, changes, conflicts, lines."""

from typing import Any

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.sheet import (
    LineError,
    Sheet,
    SheetConflict,
    SheetError,
    read_lines,
    read_settings,
    write_csv,
    write_lines,
)

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]


def doko(**header: Any) -> Sheet:
    return Sheet(read_settings({"game": "doppelkopf", "names": NAMES, **header}))


def normal(re: list[int], augen: int, **more: Any) -> dict[str, Any]:
    return {"game_type": "normal", "re": re, "re_augen": augen, **more}


def solo(kind: str, soloist: int, augen: int, **more: Any) -> dict[str, Any]:
    return {"game_type": f"solo-{kind}", "re": [soloist], "re_augen": augen, **more}


# ---------------------------------------------------------------------- settings


def test_a_header_left_out_takes_the_profiles_list() -> None:
    s = read_settings({"game": "doppelkopf"})
    assert (s.profile, s.seats, s.games, s.duty_solos, s.duty_penalty) == (
        "wielandstrasse",
        4,
        8,
        1,
        15,
    )
    five = read_settings({"game": "doppelkopf", "seats": 5})
    assert five.games == 10
    ddv = read_settings({"game": "doppelkopf", "profile": "ddv"})
    assert (ddv.games, ddv.duty_enforcement) == (24, "forced")
    cego = read_settings(None, {"game": "cego", "players": 3})
    assert (cego.game, cego.profile, cego.seats, cego.games) == ("cego", "schwarzwald", 3, None)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"game": "skat"}, "unknown game 'skat'"),
        ({"game": "cego", "profile": "baden"}, "'profile': unknown cego profile 'baden'"),
        ({"game": "doppelkopf", "seats": 3}, "'seats'"),
        ({"game": "doppelkopf", "names": ["A", "B"]}, "'names' must name each of the 4 seats"),
        ({"game": "doppelkopf", "names": ["A", "a", "B", "C"]}, "same name"),
        ({"game": "doppelkopf", "first_dealer": 4}, "'first_dealer' must be a seat from 0 to 3"),
        ({"game": "doppelkopf", "games": 0}, "'games' of the list must be at least 1"),
        ({"game": "doppelkopf", "games": None, "duty_solos": 1}, "fixed number of games"),
        ({"game": "cego", "duty_solos": 1}, "cego has no Pflicht-Soli"),
        ({"game": "cego", "games": 8, "closing": ["drescher"]}, "'closing': drescher deals"),
        ({"game": "cego", "closing": ["drescher"], "profile": "titisee"}, "fixed number"),
        ({"game": "doppelkopf", "games": 8, "closing": ["drescher"]}, "unknown closing round"),
        ({"game": "doppelkopf", "duty_enforcement": "whip"}, "'duty_enforcement' must be"),
        ({"game": "doppelkopf", "colour": "red"}, "unknown key 'colour' in the list"),
        ({"game": "doppelkopf", "options": {"armut": "yes"}}, "armut"),
    ],
)
def test_bad_settings_get_one_line_naming_the_key(header: dict[str, Any], message: str) -> None:
    with pytest.raises(StichwerkError) as info:
        read_settings(header)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------------- a Doppelkopf list


def test_a_wielandstrasse_list_with_pflicht_soli_and_the_penalty_at_the_end() -> None:
    sheet = doko()
    # Re wins with 130 and said Re: gewonnen 1 + Re angesagt 2, to each winner (plus only).
    assert sheet.add(normal([0, 2], 130, announcements={"re": ["re"]})).settlement == (
        3,
        0,
        3,
        0,
    )
    row = sheet.add(solo("damen", 1, 150))
    assert row.outcome.duty_solo_by == 1
    assert row.settlement == (0, 3, 0, 0)
    # After a Pflicht-Solo the same dealer deals again (Bernd dealt deal 2).
    assert (row.dealer, sheet.next_context().dealer) == (1, 1)
    for deal in range(6):
        sheet.add(normal([0, 1], 100 + deal))
    assert sheet.is_over
    assert sheet.series.owed == [1, 0, 1, 1]
    assert sheet.penalties() == [-15, 0, -15, -15]
    assert sheet.totals() == [
        t + p for t, p in zip(sheet.series.totals, sheet.penalties(), strict=True)
    ]
    out = sheet.to_json()
    assert out["is_over"] and out["next"] is None
    assert out["duty_played"] == [0, 1, 0, 0]
    assert out["checks"] == {"rows_sum_zero": None, "parity": None}


def test_a_redeal_does_not_count_and_the_same_dealer_deals_again() -> None:
    sheet = doko()
    row = sheet.add({"redeal": "schmeissen", "redeal_by": 2})
    assert (row.number, row.settlement, row.label) == (None, (0, 0, 0, 0), "redeal-schmeissen")
    assert sheet.next_context().dealer == 0
    assert sheet.add(normal([1, 3], 121)).number == 1


def test_a_five_table_the_dealer_sits_out() -> None:
    sheet = Sheet(read_settings({"game": "doppelkopf", "seats": 5, "first_dealer": 4}))
    row = sheet.add(normal([0, 1], 160))  # Kontra unter 90: 2 each
    assert (row.dealer, row.sitting, row.settlement) == (4, 4, (2, 2, 0, 0, 0))
    assert row.summary["dealer"] == 4 and row.summary["seats"] == 5
    with pytest.raises(SheetError, match="deal 2: seat 0 sits out and cannot be in the Re party"):
        sheet.add(normal([0, 2], 150))
    with pytest.raises(SheetError, match="'dealer' is 3, but the list's is 0"):
        sheet.add({**normal([1, 2], 150), "dealer": 3})


def test_ddv_forces_the_pflicht_solo_when_the_games_left_run_out() -> None:
    sheet = Sheet(
        read_settings({"game": "doppelkopf", "profile": "ddv", "games": 6, "duty_solos": 1})
    )
    sheet.add(solo("buben", 0, 130))
    sheet.add(solo("damen", 1, 100))
    sheet.add(normal([0, 1], 130))
    assert sheet.next_context().forced is None
    sheet.add(normal([0, 1], 130))
    # Two games left, two Pflicht-Soli owed: Vorhand's side plays first (dealer 2, seat 3).
    ctx = sheet.next_context()
    assert (ctx.dealer, ctx.forced) == (2, 3)
    with pytest.raises(SheetError, match="seat 3 must play its Pflicht-Solo in this deal"):
        sheet.add(normal([0, 1], 130))
    row = sheet.add(solo("kreuz", 3, 90))
    assert row.outcome.forced and row.outcome.duty_solo_by == 3
    # A Vorführung passes the deal on.
    assert (sheet.next_context().dealer, sheet.next_context().forced) == (3, 2)
    assert sheet.checks() == {"rows_sum_zero": True, "parity": True}


def test_bock_doubles_the_round_after_a_trigger() -> None:
    sheet = doko(options={"bock_triggers": ["120-120"]}, games=8)
    assert sheet.settings.bock
    first = sheet.add(normal([0, 2], 120))
    assert first.outcome.bock and first.multiplier == 1
    rows = [sheet.add(normal([0, 2], 130)) for _ in range(5)]
    assert [r.multiplier for r in rows] == [2, 2, 2, 2, 1]
    assert rows[0].settlement == (2 * rows[4].settlement[0], 0, 2 * rows[4].settlement[2], 0)


@pytest.mark.parametrize(
    ("summary", "message"),
    [
        (normal([0, 2], 241), "'re_augen' must be from 0 to 240"),
        (normal([0, 2], -1), "'re_augen' of the summary must be at least 0"),
        ({**normal([0, 2], 100), "schwarz": "re"}, "Re took no trick and cannot have Augen"),
        ({**normal([0, 2], 200), "schwarz": "kontra"}, "Re has all 240 Augen"),
        (normal([0, 2], 130, announcements={"re": ["kontra"]}), "re cannot announce 'kontra'"),
        (solo("herz", 1, 130, extras={"re": ["fuchs"]}), "'fuchs' does not count in solo-herz"),
        (normal([0, 2], 130, extras={"re": ["karlchen", "karlchen"]}), "at most 1 'karlchen'"),
        ({**normal([0, 2], 130), "game_type": "solo-elf"}, "unknown game_type 'solo-elf'"),
        (solo("damen", 1, 130, duty_solo=False), "still owes its Pflicht-Solo"),
        (normal([0, 0], 130), "names a seat twice"),
        (normal([0, 5], 130), "names seat 5, not at the table"),
        ({"redeal": "misdeal"}, "unknown redeal 'misdeal'"),
        ({**normal([0, 2], 130), "profile": "ddv"}, "'profile' is 'ddv', but the list's is"),
        ({**normal([0, 2], 130), "surprise": 1}, "unknown key 'surprise' in the summary"),
        ({"game_type": "normal", "re": [0, 2], "verworfen_by": 7}, "'verworfen_by' must be"),
    ],
)
def test_an_impossible_entry_is_refused_with_one_line_and_nothing_saved(
    summary: dict[str, Any], message: str
) -> None:
    sheet = doko()
    sheet.add(normal([1, 3], 150))
    before = sheet.to_json()
    with pytest.raises(SheetError) as info:
        sheet.add(summary)
    assert message in str(info.value)
    assert str(info.value).startswith("deal 2: ")
    assert "\n" not in str(info.value)
    assert sheet.to_json() == before


def test_a_pflicht_solo_twice_is_refused() -> None:
    sheet = doko()
    sheet.add(solo("damen", 1, 150))
    sheet.add(solo("buben", 1, 150))  # a Lust-Solo now
    with pytest.raises(SheetError, match="seat 1 owes no Pflicht-Solo any more"):
        sheet.add(solo("buben", 1, 150, duty_solo=True))


# ---------------------------------------------------------------------- Cego


def cego(**header: Any) -> Sheet:
    return Sheet(read_settings({"game": "cego", **header}))


def test_a_cego_list_with_closing_rounds() -> None:
    sheet = cego(profile="titisee", games=1, closing=["drescher", "pflichtraeuber"])
    sheet.add({"contract": "eine", "declarer": 1, "declarer_points": 41})
    assert sheet.next_context().deal_type == "drescher"
    with pytest.raises(SheetError, match="this deal is in the Drescher round: a drescher"):
        sheet.add({"contract": "eine", "declarer": 1, "declarer_points": 41})
    for _ in range(4):
        row = sheet.add({"contract": "drescher", "last_trick": 2})
        assert row.deal_type == "drescher"
    ctx = sheet.next_context()
    assert ctx.deal_type == "pflichtraeuber"
    with pytest.raises(SheetError, match=r"'announcer': Vorhand \(seat 2\) announces"):
        sheet.add(
            {
                "contract": "raeuber",
                "announcer": 0,
                "points": [20, 20, 19, 20],
                "tricks": [3, 3, 2, 3],
            }
        )
    row = sheet.add(
        {"contract": "raeuber", "announcer": 2, "points": [20, 20, 19, 20], "tricks": [3, 3, 2, 3]}
    )
    assert row.settlement == (-40, -40, 120, -40)


@pytest.mark.parametrize(
    ("summary", "message"),
    [
        ({"contract": "eine", "declarer": 1, "declarer_points": 80}, "between 0 and 79"),
        ({"contract": "eine", "declarer": 1, "declarer_points": 40.25}, "whole or half"),
        ({"contract": "kaiser", "declarer": 1, "declarer_points": 40}, "unknown Cego contract"),
        ({"contract": "piccolo", "declarer": 1}, "no 'declarer_tricks'"),
        ({"contract": "drescher", "last_trick": 1}, "only in a Drescher round"),
        (
            {
                "contract": "raeuber",
                "announcer": 1,
                "points": [20, 20, 20, 20],
                "tricks": [3, 3, 2, 3],
            },
            "the card points exceed 79",
        ),
        (
            {
                "contract": "raeuber",
                "announcer": 1,
                "points": [20, 20, 10, 20],
                "tricks": [3, 3, 2, 3],
                "out_of_play": 4,
            },
            "must add up to the deck's 79",
        ),
        (
            {
                "contract": "eine",
                "declarer": 1,
                "declarer_points": 10,
                "declarer_tricks": 0,
                "defender_tricks": 11,
            },
            "a declarer without a trick has no card points",
        ),
    ],
)
def test_impossible_cego_entries(summary: dict[str, Any], message: str) -> None:
    with pytest.raises(SheetError) as info:
        cego().add(summary)
    assert message in str(info.value)


def test_zego_lacks_the_halbe() -> None:
    with pytest.raises(SheetError, match="halbe is not on this profile's ladder"):
        cego(profile="zego").add({"contract": "halbe", "declarer": 0, "declarer_points": 45})


# ---------------------------------------------------------------------- changes


def test_a_correction_moves_every_later_total_and_is_versioned() -> None:
    sheet = doko()
    first = sheet.add(normal([0, 2], 130), entry_id="a")
    sheet.add(normal([0, 2], 130), entry_id="b")
    assert sheet.totals() == [2, 0, 2, 0]  # Re won both with 130: gewonnen, 1 each
    sheet.apply(
        {"op": "correct", "entry": "a", "base": first.version, "summary": normal([1, 3], 130)}
    )
    assert sheet.rows[0].version == 2
    assert sheet.totals() == [1, 1, 1, 1]
    # A phone that still holds version 1 gets a conflict, and nothing changes.
    with pytest.raises(SheetConflict, match="deal 1 was changed on another phone"):
        sheet.apply({"op": "delete", "entry": "a", "base": 1})
    sheet.apply({"op": "delete", "entry": "a", "base": 2})
    assert [r.entry_id for r in sheet.rows] == ["b"]
    assert sheet.rows[0].dealer == 0
    with pytest.raises(SheetConflict, match="no longer on the list"):
        sheet.apply({"op": "correct", "entry": "a", "summary": normal([0, 1], 100)})


def test_a_correction_that_would_break_a_later_deal_is_refused_whole() -> None:
    sheet = doko()
    sheet.add(normal([0, 2], 130), entry_id="a")
    sheet.add(solo("damen", 1, 150), entry_id="b")
    sheet.add(solo("buben", 3, 150, duty_solo=True), entry_id="c")
    before = sheet.to_json()
    with pytest.raises(SheetError, match="deal 3: 'duty_solo': seat 3 owes no Pflicht-Solo"):
        sheet.apply({"op": "correct", "entry": "a", "summary": solo("pik", 3, 121)})
    assert sheet.to_json() == before


def test_a_change_sent_twice_is_applied_once() -> None:
    sheet = doko()
    change = {"op": "add", "entry": "x1", "key": "phone-1-7", "summary": normal([0, 2], 130)}
    first = sheet.apply(change)
    again = sheet.apply(change)
    assert not first.duplicate and again.duplicate
    assert len(sheet.rows) == 1
    with pytest.raises(SheetError, match="was used for another change"):
        sheet.apply({"op": "delete", "entry": "x1", "key": "phone-1-7"})


def test_a_forgotten_deal_goes_in_before_a_later_one() -> None:
    sheet = doko()
    sheet.add(normal([0, 2], 130), entry_id="a")
    sheet.add(normal([0, 2], 130), entry_id="c")
    sheet.add(normal([1, 3], 130), entry_id="b", before="c")
    assert [r.entry_id for r in sheet.rows] == ["a", "b", "c"]
    assert [r.dealer for r in sheet.rows] == [0, 1, 2]


def test_the_preview_shows_the_line_and_saves_nothing() -> None:
    sheet = doko()
    row = sheet.preview(normal([0, 2], 100, announcements={"kontra": ["kontra"]}))
    # Only Kontra was said, so Re needed 120: Kontra wins 1 + gegen die Alten 1 + Kontra 2.
    assert row.settlement == (0, 4, 0, 4)
    names = [item["name"] for item in row.score["items"]]
    assert names == ["gewonnen", "gegen die Alten", "Kontra angesagt"]
    assert sheet.rows == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"op": "move"}, "'op' must be one of add, correct, delete"),
        ({"op": "add"}, "needs the deal's 'summary'"),
        ({"op": "delete"}, "names its 'entry'"),
        ({"op": "add", "summary": {}, "entry": "a b"}, "'entry' must be 1 to 64"),
        ({"op": "add", "summary": {}, "base": 0}, "'base' must be the version"),
        ({"op": "delete", "entry": "a", "summary": {}}, "has no 'summary'"),
        ({"op": "add", "summary": {}, "extra": 1}, "unknown key 'extra' in the change"),
    ],
)
def test_a_malformed_change_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(SheetError) as info:
        doko().apply(change)
    assert message in str(info.value)


# ---------------------------------------------------------------------- lines and CSV


LIST = """\
{"list": {"game": "doppelkopf", "names": ["Anna", "Bernd", "Clara", "Dieter"], "games": 4}}
{"game_type": "normal", "re": [0, 2], "re_augen": 130, "announcements": {"re": ["re"]}}

{"game_type": "solo-damen", "re": [1], "re_augen": 150}
{"game": "doppelkopf", "profile": "wielandstrasse", "players": 4, "redeal": "schmeissen"}
"""


def test_lines_read_and_write_back() -> None:
    sheet = read_lines(LIST)
    assert [r.label for r in sheet.rows] == ["normal", "solo-damen", "redeal-schmeissen"]
    again = read_lines(write_lines(sheet))
    assert again.to_json()["totals"] == sheet.to_json()["totals"]
    assert write_lines(again) == write_lines(sheet)
    csv = write_csv(sheet).splitlines()
    assert csv[0] == "deal,game,dealer,played,bock,Anna,Bernd,Clara,Dieter," + ",".join(
        f"{n} total" for n in NAMES
    )
    assert csv[1] == "1,1,Anna,normal,,3,0,3,0,3,0,3,0"
    assert csv[-1] == "totals,,,,,3,3,3,0,,,,"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: the list is empty"),
        ('{"list": {"game": "doppelkopf"}}\n{"game_type": "normal"', "line 2: the line is not"),
        ('{"list": {"game": "doppelkopf"}}\n[1]', "line 2: the line must be a JSON object"),
        ('{"list": {"game": "doppelkopf"}, "x": 1}', "line 1: the settings line is"),
        ('{"game_type": "normal", "re": [0, 2]}', "line 1: the list has no 'game'"),
        (LIST + '{"list": {}}', "line 6: only the first line may hold"),
        (
            LIST + '{"game_type": "normal", "re": [0, 2], "re_augen": 300}',
            "line 6: deal 4: 're_augen' must be from 0 to 240",
        ),
    ],
)
def test_the_first_bad_line_is_named(text: str, message: str) -> None:
    with pytest.raises(LineError) as info:
        read_lines(text)
    assert str(info.value).startswith(message)


def test_announcements_entered_in_order_are_checked_by_the_reply_rule() -> None:
    said = [
        {"party": "re", "act": "re", "cards": 11},
        {"party": "kontra", "act": "kontra", "cards": 10},
        {"party": "kontra", "act": "keine-90", "cards": 10},
    ]
    late = {**normal([0, 2], 100), "said": said}
    with pytest.raises(SheetError, match=r"'said': .*replied late: .*makes no Absage \(TSR 6\)"):
        Sheet(read_settings({"game": "doppelkopf", "profile": "ddv"})).add(late)
    row = doko().add(late)  # Wielandstraße lets a replying party go on with Absagen
    assert row.summary["said"] == said
    names = [item["name"] for item in row.score["items"]]
    assert "keine 90 angesagt (Kontra)" in names
    hochzeit = {"game_type": "hochzeit", "re": [0, 2], "re_augen": 150, "said": said[:1]}
    with pytest.raises(SheetError, match="'klaerungsstich': a Hochzeit's announcements need"):
        doko().add(hochzeit)
    with pytest.raises(SheetError, match="no announcement before the Hochzeit partner is known"):
        doko().add({**hochzeit, "klaerungsstich": 2})
    assert doko().add(
        {**hochzeit, "said": [{"party": "re", "act": "re", "cards": 10}], "klaerungsstich": 2}
    ).settlement == (3, 0, 3, 0)
