"""The crafted deals of ``test_deals`` once more under ``titisee`` and ``zego`` rules.

The cards fall the same way; what changes is worked out by hand per profile: the words of the
bidding (zego has no Halbe, no special round and no Räuber), the contract values (zego's ladder
runs 1..6), the fixed games (50 in titisee) and titisee's money (one cent a point).
"""

from collections.abc import Callable

import pytest

from stichwerk.cego.state import CegoState
from tests.cego.helpers import deal, do, say, tricks
from tests.cego.test_deals import (
    D1,
    D1_BLIND,
    D1_CEGO_TRICKS,
    D1_EINE_TRICKS,
    D1_GEGENSOLO_TRICKS,
    D1_HALBE_TRICKS,
    D1_SOLO_TRICKS,
    D2,
    D2_BETTEL_TRICKS,
    D2_BLIND,
    D2_GEISS_TRICKS,
    D2_LEERE_TRICKS,
    D2_ZWEI_LEERE_TRICKS,
    D2_ZWEI_VERSCHIEDENE_TRICKS,
    D5,
    D5_BLIND,
    D5_PICCOLO_TRICKS,
    FORT4,
)

Steps = Callable[[CegoState], None]

TITISEE_SPEECH = {
    "cego": [*FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen"],
    "halbe": [*FORT4, *FORT4, "cego", "halbe", "selbst", "gut", "gut", "gut"],
    "eine": [*FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "gut", "gut", "gut"],
    "leere": [*FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst",
              "gut", "gut", "gut"],
    "zwei-leere": [*FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere",
                   "selbst", "zwei-leere", "selbst", "gut", "gut", "gut"],
    "zwei-verschiedene": [*FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere",
                          "selbst", "zwei-leere", "selbst", "gut", "zwei-verschiedene", "selbst",
                          "gut", "gut"],
    "geiss": [*FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst",
              "zwei-leere", "selbst", "zwei-verschiedene", "gut", "gut", "geiss", "gut"],
    "solo": ["solo", "fort", "fort", "fort", "fort", "fort", "fort"],
    "gegensolo": ["solo", "fort", "fort", "fort", "gegensolo", "gut", "gut"],
    "bettel": [*FORT4, "bettel", "fort", "fort", "fort"],
    "piccolo": [*FORT4, "piccolo"],
}  # fmt: skip

ZEGO_SPEECH = {
    "cego": [*FORT4, "cego", "gut", "gut", "gut"],
    "eine": [*FORT4, "cego", "eine", "selbst", "gut", "gut", "gut"],
    "leere": [*FORT4, "cego", "eine", "selbst", "leere", "selbst", "gut", "gut", "gut"],
    "geiss": [*FORT4, "cego", "eine", "selbst", "leere", "selbst", "zwei-leere", "selbst",
              "zwei-verschiedene", "gut", "gut", "geiss", "gut"],
    "solo": ["solo", "fort", "fort", "fort", "fort", "fort", "fort"],
    "gegensolo": ["solo", "fort", "fort", "fort", "gegensolo", "gut", "gut"],
}  # fmt: skip

EXCHANGE: dict[str, list[tuple[str, str]]] = {
    "cego": [("keep", "T22 T21"), ("press", "D4")],
    "halbe": [("lay-out", "H3"), ("keep", "T22"), ("press", "D4")],
    "eine": [("keep", "T22")],
    "leere": [("lay-out", "H4")],
    "zwei-leere": [("lay-out", "C7 C8")],
    "zwei-verschiedene": [("lay-out", "C7 H4")],
    "geiss": [("lay-out", "T1")],
    "solo": [],
    "gegensolo": [("keep", "T15 SK"), ("press", "D4")],
    "bettel": [],
    "piccolo": [],
}

CARDS = {
    "cego": (D1, D1_BLIND, 3, D1_CEGO_TRICKS),
    "halbe": (D1, D1_BLIND, 3, D1_HALBE_TRICKS),
    "eine": (D1, D1_BLIND, 3, D1_EINE_TRICKS),
    "leere": (D2, D2_BLIND, 3, D2_LEERE_TRICKS),
    "zwei-leere": (D2, D2_BLIND, 3, D2_ZWEI_LEERE_TRICKS),
    "zwei-verschiedene": (D2, D2_BLIND, 3, D2_ZWEI_VERSCHIEDENE_TRICKS),
    "geiss": (D2, D2_BLIND, 0, D2_GEISS_TRICKS),
    "solo": (D1, D1_BLIND, 3, D1_SOLO_TRICKS),
    "gegensolo": (D1, D1_BLIND, 3, D1_GEGENSOLO_TRICKS),
    "bettel": (D2, D2_BLIND, 3, D2_BETTEL_TRICKS),
    "piccolo": (D5, D5_BLIND, 3, D5_PICCOLO_TRICKS),
}


def run(profile: str, name: str, speech: list[str]) -> CegoState:
    hands, blind, dealer, trick_lines = CARDS[name]
    state = deal(hands, blind, dealer=dealer, profile=profile)
    say(state, *speech)
    for act, cards in EXCHANGE[name]:
        do(state, act, cards)
    tricks(state, *trick_lines)
    assert state.is_over
    return state


# Titisee: same cards, same points; Bettel and Piccolo count 50; every deal is paid in cents.
TITISEE_EXPECTED = {
    "cego": [90, -30, -30, -30],
    "halbe": [-90, 30, 30, 30],
    "eine": [-180, 60, 60, 60],
    "leere": [240, -80, -80, -80],
    "zwei-leere": [300, -100, -100, -100],
    "zwei-verschiedene": [360, -120, -120, -120],
    "geiss": [420, -140, -140, -140],
    "solo": [180, -60, -60, -60],
    "gegensolo": [80, -240, 80, 80],
    "bettel": [150, -50, -50, -50],
    "piccolo": [150, -50, -50, -50],
}


@pytest.mark.parametrize("name", list(TITISEE_EXPECTED))
def test_titisee_contract(name: str) -> None:
    state = run("titisee", name, TITISEE_SPEECH[name])
    result = state.result()
    assert result is not None
    assert result["score"]["settlement"] == TITISEE_EXPECTED[name]
    assert result["score"]["money"]["cents"] == TITISEE_EXPECTED[name]


# Zego at a four-table: Eine is worth 2, Leere 3, Geiß 6 (no Halbe on the ladder).
# Eine lost, loser 22: 4 Fächer → 20 × 2 = 40. Leere won, loser 20: 4 → 20 × 3 = 60.
# Geiß won, loser 24: 4 → 20 × 6 = 120. Cego, Solo and Gegensolo as in schwarzwald.
ZEGO_EXPECTED = {
    "cego": [90, -30, -30, -30],
    "eine": [-120, 40, 40, 40],
    "leere": [180, -60, -60, -60],
    "geiss": [360, -120, -120, -120],
    "solo": [180, -60, -60, -60],
    "gegensolo": [80, -240, 80, 80],
}


@pytest.mark.parametrize("name", list(ZEGO_EXPECTED))
def test_zego_contract_at_four(name: str) -> None:
    state = run("zego", name, ZEGO_SPEECH[name])
    result = state.result()
    assert result is not None
    assert result["score"]["settlement"] == ZEGO_EXPECTED[name]
    assert "money" not in result["score"]
