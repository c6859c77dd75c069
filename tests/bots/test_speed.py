"""The search bots' throughput measurement (benchmarks/search_speed.py) measures real work."""

import importlib
import random

import pytest

from stichwerk.bots.base import make_bot
from stichwerk.bots.speed import mid_deal_views, rates
from stichwerk.games import get_game


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_positions_are_card_choices_in_the_play(game: str) -> None:
    views = mid_deal_views(
        get_game(game).new_deal,
        lambda seat: make_bot("heuristic", game, seat),
        random.Random(3),
        max_skip=20,
        count=5,
    )
    assert len(views) == 5
    for view in views:
        assert view["phase"] == "play"
        # A choice of cards (Doppelkopf may offer an announcement beside them).
        assert sum(a["act"] == "play" for a in view["legal_actions"]) > 1


def test_rates_count_both_halves() -> None:
    sampled: list[int] = []
    played: list[int] = []
    out = rates([1, 2, 3], sampled.append, played.append, 0.02)
    assert sampled and played
    assert set(sampled) == set(played) == {1, 2, 3}
    assert out["determinizations_per_s"] > 0 and out["rollouts_per_s"] > 0


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_each_search_measures_its_own_worlds(game: str) -> None:
    figures = importlib.import_module(f"stichwerk.bots.{game}.search").throughput(0.1)
    assert figures["determinizations_per_s"] > 0
    assert figures["rollouts_per_s"] > 0
