"""A list whose seats start owing different Pflicht-Soli (a tournament table after its first
Vorrunde round): ``duty_owed`` in the settings line."""

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.sheet import Sheet, read_lines, read_settings, write_lines

HEADER = {
    "game": "doppelkopf",
    "profile": "wielandstrasse",
    "names": ["Anna", "Bernd", "Clara", "Dieter"],
    "duty_owed": [1, 0, 1, 1],
}


def test_a_seat_that_owes_nothing_plays_a_lust_solo() -> None:
    sheet = Sheet(read_settings(HEADER))
    assert sheet.to_json()["duty_owed"] == [1, 0, 1, 1]
    # Bernd (seat 1) owes no Pflicht-Solo: his solo is a Lust-Solo and the deal passes on.
    row = sheet.add({"game_type": "solo-damen", "re": [1], "re_augen": 150})
    assert row.outcome.duty_solo_by is None and sheet.next_context().dealer == 1
    # Clara (seat 2) owes one: her solo is it, and the same dealer deals again.
    row = sheet.add({"game_type": "solo-damen", "re": [2], "re_augen": 150})
    assert row.outcome.duty_solo_by == 2 and sheet.next_context().dealer == 1
    assert sheet.to_json()["duty_owed"] == [1, 0, 0, 1]
    assert sheet.duty_played() == [0, 0, 1, 0]


def test_duty_owed_survives_the_file_and_is_checked() -> None:
    sheet = Sheet(read_settings(HEADER))
    sheet.add({"game_type": "normal", "re": [0, 2], "re_augen": 130})
    again = read_lines(write_lines(sheet))
    assert again.settings.duty_owed == (1, 0, 1, 1)
    assert again.totals() == sheet.totals()
    assert "duty_owed" not in read_settings({"game": "doppelkopf"}).to_json()
    for bad, message in (
        ([1, 0, 1], "each of the 4 seats 0 to 1"),
        ([1, 0, 2, 1], "each of the 4 seats 0 to 1"),
        ([1, 0, True, 1], "each of the 4 seats"),
        ("1,0,1,1", "each of the 4 seats"),
    ):
        with pytest.raises(StichwerkError, match=message):
            read_settings({**HEADER, "duty_owed": bad})
    with pytest.raises(StichwerkError, match="needs a list with Pflicht-Soli"):
        read_settings({**HEADER, "duty_solos": 0})
