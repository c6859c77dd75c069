"""The action table covers every legal action exactly once; observations hold no hidden card.

The leak check uses the web app's oracle (``tests/server/leaks.py``): which cards a seat may know
after k actions, computed from the true deal, not from the observation under test."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction
from stichwerk.research.actions import Choice, space_for
from stichwerk.research.observation import encoder_for
from stichwerk.research.table import Table
from tests.server.leaks import DealTruth

TABLES = [
    ("cego", "schwarzwald", 4),
    ("cego", "titisee", 4),
    ("cego", "titisee", 5),
    ("cego", "zego", 3),
    ("doppelkopf", "wielandstrasse", 4),
    ("doppelkopf", "ddv", 5),
]


def test_the_action_tables() -> None:
    cego = space_for("cego")
    assert cego.size == 19 + 5 * 54
    assert cego.describe(0) == "fort"
    assert cego.describe(cego.card_index("play", "T22")) == "play T22"
    assert cego.encode(Action(0, "keep", cards=("CK", "C10"))) == (
        cego.card_index("keep", "C10"),
        cego.card_index("keep", "CK"),
    )
    doko = space_for("doppelkopf")
    assert doko.size == 23 + 3 * 24
    assert doko.describe(doko.word_index("solo", "damen")) == "solo damen"
    # both copies of a card: the same index twice
    twice = doko.encode(Action(0, "return", cards=("DA", "DA", "C10")))
    assert twice == (doko.card_index("return", "C10"),) + (doko.card_index("return", "DA"),) * 2
    with pytest.raises(IllegalAction, match="outside"):
        doko.describe(doko.size)


def test_a_choice_refuses_what_cannot_complete_a_legal_action() -> None:
    space = space_for("cego")
    legal = [Action(0, "keep", cards=("CK", "C10")), Action(0, "keep", cards=("CK", "T3"))]
    choice = Choice(space, legal)
    assert choice.legal() == sorted(
        {space.card_index("keep", "C10"), space.card_index("keep", "T3")}
    )
    assert choice.pick(space.card_index("keep", "T3")) is None
    assert choice.legal() == [space.card_index("keep", "CK")]
    with pytest.raises(IllegalAction, match="not legal now"):
        choice.pick(space.card_index("keep", "C10"))
    assert choice.pick(space.card_index("keep", "CK")) == legal[1]


@pytest.mark.parametrize(("game", "profile", "seats"), TABLES)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_every_legal_action_is_one_run_of_indices(
    game: str, profile: str, seats: int, seed: int
) -> None:
    """Every legal engine action is reachable, and every reachable run is a legal action."""
    rng = random.Random(seed)
    table = Table.deal(game, profile=profile, seats=seats, dealer=seed % seats, seed=seed)
    space = table.space
    while not table.is_over:
        legal = table.state.legal_actions()
        runs = {space.encode(a): a for a in legal}
        assert len(runs) == len(legal)  # no two actions share a run
        for run, action in list(runs.items())[:40]:
            choice = Choice(space, legal)
            for k, index in enumerate(run):
                assert index in choice.legal()
                done = choice.pick(index)
                assert (done is not None) == (k == len(run) - 1)
            assert done == action
        firsts = {run[0] for run in runs}
        assert table.legal() == sorted(firsts)
        # play on by indices, as an agent does
        while True:
            if table.step(rng.choice(table.legal())) is not None:
                break


def cards_in_observation(game: str, seats: int, obs: np.ndarray) -> set[str]:
    """Every card code some card column of the observation marks."""
    encoder = encoder_for(game, seats)
    codes = encoder.space.cards
    found: set[str] = set()
    for field in encoder.fields:
        if field.shape[-1] != len(codes) or field.name == "said":
            continue
        part = encoder.part(obs, field.name).reshape(-1, len(codes))
        found.update(codes[i] for i in np.flatnonzero(part.any(axis=0)))
    return found


@pytest.mark.parametrize(("game", "profile", "seats"), TABLES)
def test_observations_hold_no_hidden_card(game: str, profile: str, seats: int) -> None:
    """Every seat's observation after every action names only cards the seat may know."""
    from stichwerk.research import env

    checked = 0
    for deal in range(4):
        e = env(game, profile=profile, players=seats, seed=f"leak-{deal}")
        e.reset()
        table = e.unwrapped.table
        rng = np.random.default_rng(deal)
        observations: list[list[np.ndarray]] = []
        for _agent in e.agent_iter():
            obs, _, done, _, _ = e.last()
            if len(observations) == len(table.state.to_record()["actions"]):
                observations.append([e.observe(a)["observation"] for a in e.possible_agents])
            action = None if done else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(action)
        truth = DealTruth(table.state.to_record())
        for k, per_seat in enumerate(observations):
            for seat, obs in enumerate(per_seat):
                leaked = cards_in_observation(game, seats, obs) - truth.allowed(k, seat)
                assert not leaked, f"seat {seat} sees {sorted(leaked)} after {k} actions"
                checked += 1
    assert checked > 100
    # the check can fail: an observation that names every card leaks
    encoder = encoder_for(game, seats)
    full = observations[0][0].copy()
    encoder.part(full, "hand")[:] = 1.0
    assert cards_in_observation(game, seats, full) - truth.allowed(0, 0)


def test_the_observation_is_the_view_encoded() -> None:
    """Two seats see different things; the encoder reads nothing but the view."""
    table = Table.deal("cego", seed=3)
    encoder = encoder_for("cego", 4)
    a, b = (encoder.encode(table.view(s)) for s in (0, 1))
    assert not np.array_equal(a, b)
    assert np.array_equal(a, encoder.encode(table.clone().view(0)))
    hand = encoder.part(a, "hand")
    assert {encoder.space.cards[i] for i in np.flatnonzero(hand)} == set(table.view(0)["hand"])
