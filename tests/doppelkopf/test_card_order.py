"""The order a seat's hand is shown in (the view's ``hand_sorted``, in ``card_order``; the
table page shows it as listed) is the engine's order of the game in force, checked against the
engine's own trick rule: of two neighbours, the earlier card beats the later one when the later
one is led. Every game type is reached (seeded random deals) and checked at every step, so the
order follows the game type the moment it is known (and a Sau once announced)."""

from itertools import pairwise

import pytest

from stichwerk.doppelkopf.cards import code_of
from stichwerk.doppelkopf.state import DokoState
from stichwerk.doppelkopf.trumps import SCHEME_OF_GAME, TRUMP, winner_of
from stichwerk.doppelkopf.view import card_order
from tests.doppelkopf.randomplay import random_deal

DEALS = {
    "normal": ("wielandstrasse", 2, {}),
    "normal without Dulle": ("wielandstrasse", 2, {"dulle_is_trump": False}),
    "normal with Schweinchen": ("wielandstrasse", 59, {}),
    "solo-still": ("wielandstrasse", 6, {}),
    "solo-trumpf": ("wielandstrasse", 22, {}),
    "solo-kreuz": ("wielandstrasse", 1, {}),
    "solo-pik": ("wielandstrasse", 5, {}),
    "solo-herz": ("wielandstrasse", 0, {}),
    "solo-damen": ("wielandstrasse", 33, {}),
    "solo-buben": ("wielandstrasse", 3, {}),
    "solo-fleischlos": ("wielandstrasse", 8, {}),
    "armut": ("wielandstrasse", 66, {}),
    "hochzeit": ("wielandstrasse", 118, {}),
}
"""A seeded random deal that reaches each game type (and the Sau, and a table without Dulle)."""


def _beats(state: DokoState, high: str, low: str) -> bool:
    """Whether ``high`` wins a trick that ``low`` leads."""
    order = state.snapshot().order
    return winner_of([code_of(low) * 2, code_of(high) * 2 + 1], order, False) == 1


def _check(state: DokoState, seen: set[str]) -> None:
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        order = card_order(state.snapshot().order)
        assert "card_order" not in view, "the whole order would name every card of the deck"
        assert sorted(order) == sorted(set(order)), "each card once"
        snapshot = state.snapshot()
        trumps = [c for c in order if snapshot.order.cls[code_of(c)] == TRUMP]
        assert order[: len(trumps)] == trumps, "the trumps first"
        for high, low in pairwise(order):
            cls = snapshot.order.cls
            if cls[code_of(high)] == cls[code_of(low)] or cls[code_of(high)] == TRUMP:
                # The same suit (or trumps), or the last trump before the first Fehl card.
                assert _beats(state, high, low), (view["game_type"], high, low)
        if view["hand"] is None:
            assert view["hand_sorted"] is None
        else:
            assert view["hand_sorted"] == sorted(view["hand"], key=order.index), "held in order"
        seen.add(view["game_type"])


def test_every_game_type_is_reached() -> None:
    assert {name.split()[0] for name in DEALS} == set(SCHEME_OF_GAME)


@pytest.mark.parametrize("name", DEALS)
def test_the_hand_order_is_the_engines(name: str) -> None:
    profile, seed, options = DEALS[name]
    seen: set[str] = set()
    state = random_deal(
        profile, seed, options=options, forfeits=False, hook=lambda s: _check(s, seen)
    )
    _check(state, seen)
    assert state.game_type == name.split(maxsplit=1)[0]
    assert state.game_type in seen  # shown while the deal was played, not only at its end
    if "Schweinchen" in name:
        assert state.snapshot().sau_seat is not None
        assert card_order(state.snapshot().order)[0] == "DA"
    if "without Dulle" in name:
        assert "H10" not in card_order(state.snapshot().order)[:12]
