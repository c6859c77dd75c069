"""A Hochzeit that finds no partner, crafted trick by trick and scored by hand.

The hands of ``test_crafted_normal`` with seat 0 holding both Kreuz-Damen (seat 2 has a second
Herz Dame instead). Seat 0 announces the Hochzeit and wins tricks 1-3 itself, so it plays a Karo
solo from trick 3 on (IV.1 / TSR 5.3). Tricks and winners as in the normal deal:
seat 0 takes 181 Augen (tricks 1-5, 10-12), the others 59.

Wielandstraße: gewonnen 1, unter 90 1, unter 60 1, and two Füchse caught (trick 4 seat 1's,
trick 10 seat 2's) because the Fuchs counts in a Karo solo (II.2): value 5, soloist 3 x 5 = 15.
DDV: no Sonderpunkte in a solo: value 3, soloist +9, each opponent -3.
"""

import pytest

from .helpers import deal, play_tricks, run
from .test_crafted_normal import HANDS, WINNERS

HOCHZEIT = [
    "CA SA HA CQ H10 D9 SK C9 DK CJ CQ CJ",
    HANDS[1],
    "CA SK H9 D10 HQ HQ S9 C9 H9 DA D10 HJ",
    HANDS[3],
]
TRICKS = [
    "0: CA C10 CA C10",
    "0: SA S10 SK S9",
    "0: HA HK H9 HA",
    "0: CQ DA D10 DK",
    "0: H10 SQ HQ DQ",
    "0: D9 H10 HQ SQ",
    "1: SA S9 S10 SK",
    "1: CK C9 CK C9",
    "1: HK H9 HJ DK",
    "3: DJ CJ D9 DA",
    "0: CQ SJ D10 DQ",
    "0: CJ SJ HJ DJ",
]


@pytest.mark.parametrize(
    ("profile", "settlement", "value"),
    [("wielandstrasse", [15, 0, 0, 0], 5), ("ddv", [9, -3, -3, -3], 3)],
)
def test_failed_hochzeit_is_a_karo_solo(profile: str, settlement: list[int], value: int) -> None:
    state = deal(HOCHZEIT, profile)
    run(state, "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 hochzeit")
    assert play_tricks(state, TRICKS) == WINNERS
    result = state.result()
    assert result is not None
    assert result["game_type"] == "solo-trumpf" and result["soloist"] == 0
    assert result["hochzeit"] == {"seat": 0, "klaerungsstich": 3}
    assert result["duty_solo"] is False
    assert result["augen"] == {"re": 181, "kontra": 59}
    assert result["score"]["value"] == value
    assert result["score"]["settlement"] == settlement


@pytest.mark.parametrize("counts", [False, True])
def test_failed_hochzeit_is_the_pflicht_solo_where_the_table_counts_it(counts: bool) -> None:
    """With ``failed_hochzeit_counts_as_duty`` the Karo solo of a Hochzeit without partner is
    the Pflicht-Solo of a Hochzeiter who owes one, in the result as on the score sheet (its
    summary); without it, it is not."""
    from stichwerk.doppelkopf.summary import read_summary

    options = {"failed_hochzeit_counts_as_duty": counts}
    state = deal(HOCHZEIT, "ddv", options, duty_solo_owed=[0])
    run(state, "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 hochzeit")
    assert play_tricks(state, TRICKS) == WINNERS
    result = state.result()
    assert result is not None
    assert result["duty_solo"] is counts
    assert result["summary"]["duty_solo"] is counts
    assert read_summary(result["summary"]).duty_solo is counts
