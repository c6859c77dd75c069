"""An Armut crafted trick by trick and scored by hand.

Seat 1 holds three trumps (D10 DJ SJ) and declares Armut; seat 2 takes them and gives back the
same three cards, declaring 3 trumps. Re = seats 1 and 2, Kontra = seats 0 and 3; seat 3 says
Kontra. Vorhand (seat 0) leads.

 1  0: CA C9 C10 CK    -> 0  25
 2  0: CA CK C10 D9    -> 3  25 (seat 3 is void in Kreuz)
 3  3: SA S9 S10 SK    -> 3  25
 4  3: SA DK S10 SK    -> 0  29
 5  0: HA H9 DA HA     -> 2  33 (seat 2's own Fuchs: not caught)
 6  2: CQ HJ DQ D10    -> 2  18
 7  2: H10 SQ CJ DJ    -> 2  17
 8  2: HQ DJ H10 SJ    -> 0  17
 9  0: CQ C9 SQ HJ     -> 0   8
10  0: DK S9 D10 DA    -> 3  25
11  3: H9 CJ HK HQ     -> 2   9
12  2: SJ D9 DQ HK     -> 0   9

Re 77, Kontra 163. Kontra wins: gewonnen 1, gegen die Alten 1 (the Armut party, A2), unter 90
1, Kontra angesagt 2 = 5.
"""

import pytest

from stichwerk.core.action import Action

from .helpers import deal, play_tricks, run

HANDS = [
    "CA CA S9 HA DK DQ CJ H10 CQ DK CJ DQ",
    "C9 CK S10 S10 H9 D10 DJ SJ C9 S9 HK HK",
    "C10 C10 SK SK DA CQ H10 HQ SQ D10 HQ SJ",
    "CK D9 SA SA HA HJ SQ DJ HJ DA H9 D9",
]
TRICKS = [
    "0: CA C9 C10 CK",
    "0: CA CK C10 D9",
    "3: SA S9 S10 SK",
    "3: SA DK S10 SK",
    "0: HA H9 DA HA",
    "2: CQ HJ DQ D10",
    "2: H10 SQ CJ DJ",
    "2: HQ DJ H10 SJ",
    "0: CQ C9 SQ HJ",
    "0: DK S9 D10 DA",
    "3: H9 CJ HK HQ",
    "2: SJ D9 DQ HK",
]


@pytest.mark.parametrize(
    ("profile", "options", "settlement"),
    [("wielandstrasse", {}, [5, 0, 0, 5]), ("ddv", {"armut": True}, [5, -5, -5, 5])],
)
def test_armut_scored_by_hand(
    profile: str, options: dict[str, bool], settlement: list[int]
) -> None:
    state = deal(HANDS, profile, options)
    run(state, "0 gesund; 1 vorbehalt; 2 gesund; 3 gesund; 1 armut; 2 take")
    state.apply(Action(2, "return", cards=("D10", "DJ", "SJ")))
    assert state.view(0)["armut"] == {
        "seat": 1, "taker": 2, "cards": 3, "returned_trumps": 3
    }  # fmt: skip
    run(state, "3 kontra")
    assert play_tricks(state, TRICKS) == [0, 3, 3, 0, 2, 2, 2, 0, 0, 3, 2, 0]
    result = state.result()
    assert result is not None
    assert result["game_type"] == "armut" and result["re"] == [1, 2]
    assert result["augen"] == {"re": 77, "kontra": 163}
    assert result["extras"] == {"re": [], "kontra": []}
    assert [i["name"] for i in result["score"]["items"]] == [
        "gewonnen",
        "gegen die Alten",
        "unter 90",
        "Kontra angesagt",
    ]
    assert result["score"]["settlement"] == settlement
