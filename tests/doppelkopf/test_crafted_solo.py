"""A Fleischloser (no trumps) crafted trick by trick and scored by hand under both profiles.

Each seat holds three cards of every suit, so every trick is one suit. Seat 0 (Vorhand) plays
the solo and leads: it takes every Kreuz, Pik and Herz trick (3 x 60 Augen; the Herz 10 is a plain
heart here), then seat 1 takes the three Karo tricks with its two aces.

 1-3  Kreuz: CA C10 CK CQ -> 0 (28); CA CK CQ CJ -> 0 (20); C10 C9 CJ C9 -> 0 (12)
 4-6  Pik, 7-9 Herz: the same pattern -> 0
10   0: D10 DA DK DQ -> 1 (28)
11   1: DA DQ DJ DK  -> 1 (20)
12   1: D10 DJ D9 D9 -> 1 (12)

Soloist 180, opponents 60 in 3 tricks: gewonnen 1 + unter 90 1 (60 is not under 60) = 2;
with the soloist's Re 4. Soloist x3.
"""

import pytest

from .helpers import deal, play_tricks, run

HANDS = [
    "CA CA C10 SA SA S10 HA HA H10 D10 DK D9",
    "C10 CK C9 S10 SK S9 H10 HK H9 DA DA D10",
    "CK CQ CJ SK SQ SJ HK HQ HJ DK DQ DJ",
    "CQ CJ C9 SQ SJ S9 HQ HJ H9 DQ DJ D9",
]
TRICKS = [f"0: {s}A {s}10 {s}K {s}Q|0: {s}A {s}K {s}Q {s}J|0: {s}10 {s}9 {s}J {s}9" for s in "CSH"]
ALL = [t for group in TRICKS for t in group.split("|")] + [
    "0: D10 DA DK DQ",
    "1: DA DQ DJ DK",
    "1: D10 DJ D9 D9",
]


@pytest.mark.parametrize(
    ("profile", "said", "settlement"),
    [
        ("wielandstrasse", "", [6, 0, 0, 0]),
        ("ddv", "", [6, -2, -2, -2]),
        ("wielandstrasse", "0 re", [12, 0, 0, 0]),
        ("ddv", "0 re", [12, -4, -4, -4]),
    ],
)
def test_fleischloser_scored_by_hand(profile: str, said: str, settlement: list[int]) -> None:
    state = deal(HANDS, profile)
    run(state, "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 solo fleischlos")
    assert state.to_act == 0
    run(state, said)
    assert play_tricks(state, ALL) == [0] * 9 + [1, 1, 1]
    result = state.result()
    assert result is not None
    assert result["game_type"] == "solo-fleischlos" and result["soloist"] == 0
    assert result["augen"] == {"re": 180, "kontra": 60}
    assert result["extras"] == {"re": [], "kontra": []}
    assert result["score"]["settlement"] == settlement
    assert result["score"]["value"] == (4 if said else 2)
