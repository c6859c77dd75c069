"""The fast path (bit sets, no checks) and the validated path agree card for card."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.cego.cards import CODES
from stichwerk.cego.fast import FastPlay
from stichwerk.cego.record import new_deal
from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list
from tests.cego.test_properties import choose


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["schwarzwald", "titisee", "zego"]),
    seats=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 2**32),
    bias=st.sampled_from([0.0, 0.7, 0.95]),
)
def test_fast_path_agrees_with_the_engine(profile: str, seats: int, seed: int, bias: float) -> None:
    state = new_deal(profile=profile, players=seats, seed=seed, dealer=seed % seats)
    rng = random.Random(seed)
    while state.phase != "play" and not state.is_over:
        state.apply(choose(state, rng, bias))
    if state.is_over:
        return
    fast = FastPlay.from_state(state)
    while not state.is_over:
        assert fast.to_act == state.to_act
        mask = fast.legal()
        assert mask == state.legal_mask()
        card = rng.choice(bits_list(mask))
        state.apply(Action(state.to_act or 0, "play", card=CODES[card]))
        fast.play(card)
        assert fast.piles == state.piles and fast.tricks_won == state.tricks_won
    assert fast.trick_no == state.trick_no


def test_playout_finishes_every_trick() -> None:
    state = new_deal(seed=3)
    rng = random.Random(3)
    while state.phase != "play":
        state.apply(choose(state, rng, 0.9))
    fast = FastPlay.from_state(state)
    copy = fast.copy()
    fast.playout(rng)
    assert fast.over and sum(fast.tricks_won) == 11 and all(h == 0 for h in fast.hands)
    assert copy.trick_no == 0 and copy.hands == state.hands
