"""A clone is an independent copy: playing on one leaves the other as it was, and both play on
alike (the copy is written out per state class by ``stichwerk.core.clone``)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from stichwerk.cego.record import new_deal as new_cego
from stichwerk.core.clone import clone_function
from stichwerk.doppelkopf.record import new_deal as new_doko


def _play(state: object, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_over:  # type: ignore[attr-defined]
            return
        legal = state.legal_actions()  # type: ignore[attr-defined]
        if not legal:
            return
        state.apply(legal[rng.randrange(len(legal))])  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(["cego", "doppelkopf"]),
    seed=st.integers(0, 10**6),
    split=st.integers(0, 60),
)
def test_a_clone_plays_on_alone(game: str, seed: int, split: int) -> None:
    state = new_cego(seed=seed, dealer=seed % 4) if game == "cego" else new_doko(seed=seed)
    _play(state, random.Random(seed), split)
    before = state.to_record()
    copy = state.clone()
    assert copy.to_record() == before
    _play(copy, random.Random(seed + 1), 200)
    assert state.to_record() == before
    twin = state.clone()
    _play(state, random.Random(seed + 1), 200)
    _play(twin, random.Random(seed + 1), 200)
    assert state.to_record() == twin.to_record() == copy.to_record()


def test_lists_and_dicts_are_copied_and_the_rest_shared() -> None:
    class Table:
        __slots__ = ("name", "rules", "scores", "seats")

        def __init__(self) -> None:
            self.name = "Stammtisch"
            self.seats = [0, 1, 2]
            self.scores = {"0": 1}
            self.rules = ("pairs",)

    table = Table()
    other = clone_function(table)(table)
    assert type(other) is Table
    assert other.seats == table.seats and other.seats is not table.seats
    assert other.scores == table.scores and other.scores is not table.scores
    assert other.rules is table.rules and other.name is table.name
