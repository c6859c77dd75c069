"""The rule-of-thumb Doppelkopf bot: always legal, and better than random play."""

import pytest

from stichwerk.bots.base import Bot, RandomBot
from stichwerk.bots.doppelkopf_basic import DoppelkopfBasicBot
from stichwerk.doppelkopf.record import new_deal


def play(profile: str, seed: int, bots: list[Bot], players: int = 4) -> list[int]:
    state = new_deal(profile=profile, seed=seed, dealer=seed % players, players=players)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = bots[seat].act(view)
        assert action.to_json() in view["legal_actions"]
        state.apply(action)
    result = state.result()
    assert result is not None
    settlement: list[int] = result["score"]["settlement"]
    return settlement


@pytest.mark.parametrize("profile", ["wielandstrasse", "ddv"])
def test_basic_bot_beats_random_on_duplicate_deals(profile: str) -> None:
    basic = random = 0
    for seed in range(60):
        for basic_seats in ((0, 2), (1, 3)):
            bots: list[Bot] = [
                DoppelkopfBasicBot(seed) if s in basic_seats else RandomBot(seed) for s in range(4)
            ]
            out = play(profile, seed, bots)
            basic += sum(out[s] for s in basic_seats)
            random += sum(out[s] for s in range(4) if s not in basic_seats)
    assert basic > random


def test_basic_bot_at_a_five_table() -> None:
    for seed in range(10):
        play("wielandstrasse", seed, [DoppelkopfBasicBot(s) for s in range(5)], players=5)
