"""A normal game crafted trick by trick and scored by hand under both profiles.

Seat 0 (Vorhand) and seat 2 hold the Kreuz-Damen (Re). The tricks, with their Augen:

 1  0: CA C10 CA C10   -> 0  42 (Doppelkopf for Re)
 2  0: SA S10 SK S9    -> 0  25
 3  0: HA HK H9 HA     -> 0  26
 4  0: CQ DA D10 DK    -> 0  28 (seat 1's Fuchs caught by Re)
 5  0: H10 SQ HQ DQ    -> 0  19
 6  0: D9 H10 CQ SQ    -> 1  16
 7  1: SA S9 S10 SK    -> 1  25
 8  1: CK C9 CK C9     -> 1   8
 9  1: HK H9 HJ DK     -> 3  10 (seats 3 and 0 are void in hearts)
10  3: DJ CJ D9 DA     -> 0  15 (seat 2's Fuchs won by its own party)
11  0: HQ SJ D10 DQ    -> 0  18
12  0: CJ SJ HJ DJ     -> 0   8 (Karlchen for Re)

Re 181, Kontra 59. Re said re, Kontra said kontra.
Value: gewonnen 1, unter 90 1, unter 60 1, Re 2, Kontra 2, Doppelkopf 1, Fuchs 1, Karlchen 1 = 10.
"""

from stichwerk.doppelkopf.summary import score_summary

from .helpers import deal, play_tricks, run

HANDS = [
    "CA SA HA CQ H10 D9 SK C9 DK CJ HQ CJ",
    "C10 S10 HK DA SQ H10 SA CK HK D9 SJ SJ",
    "CA SK H9 D10 HQ CQ S9 C9 H9 DA D10 HJ",
    "C10 S9 HA DK DQ SQ S10 CK HJ DJ DQ DJ",
]
TRICKS = [
    "0: CA C10 CA C10",
    "0: SA S10 SK S9",
    "0: HA HK H9 HA",
    "0: CQ DA D10 DK",
    "0: H10 SQ HQ DQ",
    "0: D9 H10 CQ SQ",
    "1: SA S9 S10 SK",
    "1: CK C9 CK C9",
    "1: HK H9 HJ DK",
    "3: DJ CJ D9 DA",
    "0: HQ SJ D10 DQ",
    "0: CJ SJ HJ DJ",
]
WINNERS = [0, 0, 0, 0, 0, 1, 1, 1, 3, 0, 0, 0]


def _played(profile: str) -> dict[str, object]:
    state = deal(HANDS, profile)
    run(state, "0 gesund; 1 gesund; 2 gesund; 3 gesund; 0 re; 1 kontra")
    assert play_tricks(state, TRICKS) == WINNERS
    result = state.result()
    assert result is not None
    return result


def test_wielandstrasse_plus_only() -> None:
    result = _played("wielandstrasse")
    assert result["game_type"] == "normal"
    assert result["re"] == [0, 2]
    assert result["augen"] == {"re": 181, "kontra": 59}
    assert result["tricks"] == [8, 3, 0, 1]
    assert result["extras"] == {"re": ["doppelkopf", "fuchs", "karlchen"], "kontra": []}
    score = result["score"]
    assert score["winner"] == "re"
    assert score["value"] == 10
    assert score["settlement"] == [10, 0, 10, 0]
    names = [i["name"] for i in score["items"]]
    assert names == [
        "gewonnen",
        "unter 90",
        "unter 60",
        "Re angesagt",
        "Kontra angesagt",
        "Doppelkopf",
        "Fuchs gefangen",
        "Karlchen",
    ]


def test_ddv_plus_minus() -> None:
    result = _played("ddv")
    assert result["score"]["value"] == 10
    assert result["score"]["settlement"] == [10, -10, 10, -10]


def test_summary_scores_the_same() -> None:
    result = _played("wielandstrasse")
    out = score_summary(result["summary"])
    assert out == result["score"]
    assert result["summary"]["announcements"] == {"re": ["re"], "kontra": ["kontra"]}
