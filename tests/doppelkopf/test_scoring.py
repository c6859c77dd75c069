"""Scoring from deal summaries: the seed's examples, the TSR 7.1 table, the Verwerfen table."""

from typing import Any

import pytest

from stichwerk.core.errors import RecordError
from stichwerk.doppelkopf.summary import score_summary


def summary(
    re_augen: int,
    re: list[str] | None = None,
    kontra: list[str] | None = None,
    *,
    profile: str = "wielandstrasse",
    game_type: str = "normal",
    re_seats: list[int] | None = None,
    re_tricks: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    if re_tricks is None:
        re_tricks = 0 if re_augen == 0 else (12 if re_augen == 240 else 6)
    return {
        "game": "doppelkopf",
        "profile": profile,
        "players": 4,
        "game_type": game_type,
        "re": re_seats
        if re_seats is not None
        else ([0] if game_type.startswith("solo") else [0, 2]),
        "re_augen": re_augen,
        "re_tricks": re_tricks,
        "kontra_tricks": 12 - re_tricks,
        "announcements": {"re": re or [], "kontra": kontra or []},
        **extra,
    }


# --- the seed's examples (Wielandstraße V., plus-only) ---------------------------------------


@pytest.mark.parametrize("augen", [120, 135, 150])
def test_beispiel_1_re_wins_with_120_to_150(augen: int) -> None:
    out = score_summary(summary(augen, kontra=["kontra", "keine-90"]))
    assert out["winner"] == "re"
    assert out["value"] == 5
    assert out["settlement"] == [5, 0, 5, 0]
    assert [i["name"] for i in out["items"]] == [
        "gewonnen",
        "120 gegen keine 90",
        "Kontra angesagt",
        "keine 90 angesagt (Kontra)",
    ]


@pytest.mark.parametrize("augen", [90, 100, 119])
def test_beispiel_1_re_wins_with_90_to_119_scores_4(augen: int) -> None:
    out = score_summary(summary(augen, kontra=["kontra", "keine-90"]))
    assert out["winner"] == "re"
    assert out["value"] == 4


def test_beispiel_1_mirror_gegen_die_kreuzdamen() -> None:
    # Re said Re and keine 90 and lost with 120: Kontra reached 120 against keine 90 (A18): 6.
    out = score_summary(summary(120, re=["re", "keine-90"]))
    assert out["winner"] == "kontra"
    assert out["value"] == 6
    assert out["settlement"] == [0, 6, 0, 6]
    # With Re 121..150 Kontra has less than 120: 5.
    assert score_summary(summary(135, re=["re", "keine-90"]))["value"] == 5


@pytest.mark.parametrize("augen", [151, 165, 180])
def test_beispiel_2_scores_9(augen: int) -> None:
    out = score_summary(summary(augen, re=["re", "keine-90"], kontra=["kontra", "keine-90"]))
    assert out["winner"] == "re"
    assert out["value"] == 9
    assert out["settlement"] == [9, 0, 9, 0]


# --- TSR 7.1: who wins, row by row (ddv) ------------------------------------------------------

ROWS = [
    # (re announcements, kontra announcements, re Augen, re tricks, expected winner)
    ([], [], 121, 6, "re"),
    ([], [], 120, 6, "kontra"),
    (["re"], [], 121, 6, "re"),
    (["re"], [], 120, 6, "kontra"),
    (["re"], ["kontra"], 121, 6, "re"),
    (["re"], ["kontra"], 120, 6, "kontra"),
    ([], ["kontra"], 120, 6, "re"),
    ([], ["kontra"], 119, 6, "kontra"),
    (["re", "keine-90"], [], 151, 6, "re"),
    (["re", "keine-90"], [], 150, 6, "kontra"),
    (["re", "keine-90", "keine-60"], [], 181, 6, "re"),
    (["re", "keine-90", "keine-60"], [], 180, 6, "kontra"),
    (["re", "keine-90", "keine-60", "keine-30"], [], 211, 6, "re"),
    (["re", "keine-90", "keine-60", "keine-30"], [], 210, 6, "kontra"),
    (["re", "keine-90", "keine-60", "keine-30", "schwarz"], [], 240, 12, "re"),
    (["re", "keine-90", "keine-60", "keine-30", "schwarz"], [], 240, 11, "kontra"),
    ([], ["kontra", "keine-90"], 90, 6, "re"),
    ([], ["kontra", "keine-90"], 89, 6, "kontra"),
    ([], ["kontra", "keine-90", "keine-60"], 60, 6, "re"),
    ([], ["kontra", "keine-90", "keine-60"], 59, 6, "kontra"),
    ([], ["kontra", "keine-90", "keine-60", "keine-30"], 30, 6, "re"),
    ([], ["kontra", "keine-90", "keine-60", "keine-30"], 29, 6, "kontra"),
    ([], ["kontra", "keine-90", "keine-60", "keine-30", "schwarz"], 0, 1, "re"),
    ([], ["kontra", "keine-90", "keine-60", "keine-30", "schwarz"], 0, 0, "kontra"),
    (["re"], ["kontra", "keine-90"], 90, 6, "re"),
    (["re", "keine-90"], ["kontra", "keine-90"], 151, 6, "re"),
    (["re", "keine-90"], ["kontra", "keine-90"], 89, 6, "kontra"),
    (["re", "keine-90"], ["kontra", "keine-90"], 120, 6, None),
    (["re", "keine-90", "keine-60"], ["kontra", "keine-90"], 160, 6, None),
]


@pytest.mark.parametrize(("re", "kontra", "augen", "tricks", "winner"), ROWS)
def test_tsr_7_1_who_wins(
    re: list[str], kontra: list[str], augen: int, tricks: int, winner: str | None
) -> None:
    out = score_summary(summary(augen, re, kontra, profile="ddv", re_tricks=tricks))
    assert out["winner"] == winner
    assert sum(out["settlement"]) == 0


def test_both_announced_wielandstrasse_last_announcer_needs_121() -> None:
    base = summary(120, ["re"], ["kontra"])
    assert score_summary({**base, "last_announcer": "kontra"})["winner"] == "re"
    assert score_summary({**base, "last_announcer": "re"})["winner"] == "kontra"
    with pytest.raises(RecordError, match="last_announcer"):
        score_summary(base)
    assert score_summary(summary(121, ["re"], ["kontra"]))["winner"] == "re"


def test_no_winner_scores_levels_and_reached_points() -> None:
    # Both said keine 90; Re 100, Kontra 140: nobody wins; Kontra reached 120 against Re's
    # keine 90 (+1); nobody is under 90. Net 1 for Kontra (A16).
    out = score_summary(summary(100, ["re", "keine-90"], ["kontra", "keine-90"], profile="ddv"))
    assert out["winner"] is None
    assert out["value"] == 1
    assert out["settlement"] == [-1, 1, -1, 1]


# --- game value details -------------------------------------------------------------------------


def test_solo_factor_and_gegen_die_alten() -> None:
    # Damen solo won by seat 0 with 130: gewonnen 1 = value 1; soloist 3 (plus-only).
    out = score_summary(summary(130, game_type="solo-damen"))
    assert out["settlement"] == [3, 0, 0, 0]
    # Lost: each opponent gets gewonnen 1 + gegen die Alten 1 = 2.
    out = score_summary(summary(110, game_type="solo-damen"))
    assert out["settlement"] == [0, 2, 2, 2]
    # DDV: plus-minus, no gegen die Alten in a solo.
    out = score_summary(summary(110, game_type="solo-damen", profile="ddv"))
    assert out["settlement"] == [-3, 1, 1, 1]


def test_fox_counts_in_karo_solo_under_wielandstrasse_only() -> None:
    s = summary(130, game_type="solo-trumpf", extras={"re": ["fuchs"]})
    assert score_summary(s)["settlement"] == [6, 0, 0, 0]
    with pytest.raises(RecordError, match="does not count"):
        score_summary({**s, "profile": "ddv"})


def test_losers_extras_are_netted() -> None:
    # Re wins 125 (value 1) but Kontra caught both Füchse: net -1.
    s = summary(125, extras={"kontra": ["fuchs", "fuchs"]})
    assert score_summary({**s, "profile": "ddv"})["settlement"] == [-1, 1, -1, 1]
    # Plus-only: a net value of 0 or less scores nothing (A15).
    assert score_summary(s)["settlement"] == [0, 0, 0, 0]


def test_doppelkarlchen_is_two_points() -> None:
    s = summary(125, extras={"re": ["karlchen", "doppelkarlchen"]})
    assert score_summary(s)["value"] == 3
    with pytest.raises(RecordError, match="does not count"):
        score_summary({**s, "profile": "ddv"})
    with pytest.raises(RecordError, match="comes with its Karlchen"):
        score_summary(summary(125, extras={"re": ["doppelkarlchen"]}))


def test_re_kontra_doubling_option() -> None:
    s = summary(130, ["re"], [], profile="ddv", options={"re_kontra_doubles": True})
    assert score_summary(s)["value"] == 2


# --- the Verwerfen table (Wielandstraße V.) ---------------------------------------------------


def verworfen(
    culprit: int, game_type: str = "normal", re: list[str] | None = None,
    kontra: list[str] | None = None, profile: str = "wielandstrasse", **extra: Any,
) -> dict[str, Any]:  # fmt: skip
    return {
        "game": "doppelkopf",
        "profile": profile,
        "players": 4,
        "game_type": game_type,
        "re": [1] if game_type.startswith("solo") else [0, 2],
        "announcements": {"re": re or [], "kontra": kontra or []},
        "verworfen_by": culprit,
        **extra,
    }


VERWERFEN_ROWS = [
    # (culprit, game type, Re/Kontra said, settlement)
    (1, "solo-damen", 0, [6, 0, 6, 6]),  # Solist: B, C, D 6
    (1, "solo-damen", 1, [8, 0, 8, 8]),  # +2
    (1, "solo-damen", 2, [10, 0, 10, 10]),
    (0, "solo-damen", 0, [0, 15, 0, 0]),  # Kontrasager: the soloist 15, A's partners nothing
    (0, "solo-damen", 1, [0, 21, 0, 0]),  # +6
    (0, "normal", 0, [0, 6, 0, 6]),  # Alten-Besitzer: Kontra 6, A's partner nothing
    (0, "normal", 1, [0, 8, 0, 8]),
    (1, "normal", 0, [5, 0, 5, 0]),  # gegen die Alten: Re 5
    (1, "normal", 2, [9, 0, 9, 0]),
    (2, "armut", 0, [0, 6, 0, 6]),  # Armutspartei: 6
    (3, "armut", 1, [7, 0, 7, 0]),  # gegen die Armutspartei: 5 + 2
]


@pytest.mark.parametrize(("culprit", "game_type", "said", "settlement"), VERWERFEN_ROWS)
def test_verwerfen_table(culprit: int, game_type: str, said: int, settlement: list[int]) -> None:
    re = ["re"] if said >= 1 else []
    kontra = ["kontra"] if said >= 2 else []
    out = score_summary(verworfen(culprit, game_type, re, kontra))
    assert out["settlement"] == settlement


def test_verwerfen_at_a_five_table_gives_the_sitter_nothing() -> None:
    s = verworfen(1, "solo-damen", seats=5, dealer=4)
    assert score_summary(s)["settlement"] == [6, 0, 6, 6, 0]


def test_ddv_graded_penalties() -> None:
    assert score_summary(verworfen(0, profile="ddv"))["settlement"] == [-12, 4, 4, 4]
    out = score_summary(verworfen(0, kontra=["kontra", "keine-90"], profile="ddv"))
    assert out["settlement"] == [-15, 5, 5, 5]
    # The soloist's own violation voids the game; an opponent's pays the soloist.
    assert score_summary(verworfen(1, "solo-buben", profile="ddv"))["settlement"] == [0] * 4
    assert score_summary(verworfen(0, "solo-buben", profile="ddv"))["settlement"] == [-12, 12, 0, 0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game_type": "solo-x"}, "unknown game_type"),
        ({"re": [0]}, "two seats"),
        ({"re": [0, 0]}, "twice"),
        ({"re_augen": 241}, "from 0 to 240"),
        ({"re_tricks": 3}, "add up to 12"),
        ({"announcements": {"re": ["kontra"]}}, "cannot announce"),
        ({"extras": {"re": ["schwein"]}}, "unknown extra"),
        ({"profile": "skat"}, "unknown doppelkopf profile"),
        ({"options": {"sau": 1}}, "must be true or false"),
        ({"options": {"nonsense": 1}}, "unknown option"),
        ({"hand": []}, "unknown key"),
    ],
)
def test_bad_summaries_get_one_line(change: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message) as info:
        score_summary({**summary(130), **change})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("game_type", "profile", "augen", "settlement"),
    [
        # Armut party (seats 0, 2) loses with 115: gewonnen + gegen die Alten (A2) = 2.
        ("armut", "wielandstrasse", 115, [0, 2, 0, 2]),
        ("armut", "ddv+armut", 115, [-2, 2, -2, 2]),
        # Hochzeit won by Re with 150: gewonnen + unter 90 = 2.
        ("hochzeit", "wielandstrasse", 151, [2, 0, 2, 0]),
        ("hochzeit", "ddv", 100, [-2, 2, -2, 2]),
    ],
)
def test_armut_and_hochzeit_by_hand(
    game_type: str, profile: str, augen: int, settlement: list[int]
) -> None:
    options = {"armut": True} if profile.endswith("+armut") else {}
    s = summary(augen, profile=profile.removesuffix("+armut"), game_type=game_type)
    assert score_summary({**s, "options": options})["settlement"] == settlement
    if options:
        with pytest.raises(RecordError, match="plays no Armut"):
            score_summary(s)


def test_stilles_solo_by_hand() -> None:
    # Lost with 100 and a Fuchs caught by the soloist: opponents' value = gewonnen 1 + gegen die
    # Alten 1 - Fuchs 1 = 1 each (Wielandstraße); DDV: no Sonderpunkte in a solo, value 1.
    s = summary(100, game_type="solo-still", extras={"re": ["fuchs"]})
    assert score_summary(s)["settlement"] == [0, 1, 1, 1]
    s = summary(100, game_type="solo-still", profile="ddv")
    assert score_summary(s)["settlement"] == [-3, 1, 1, 1]
