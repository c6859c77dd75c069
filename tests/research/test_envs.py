"""The PettingZoo environment passes PettingZoo's own API and seed tests; the Gymnasium wrapper
plays whole deals against the bots; both are reproducible from a seed."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from stichwerk.core.errors import StichwerkError
from stichwerk.research import env
from stichwerk.research.gym import SeatEnv

# PettingZoo's checks advise Box observations; a dict with an action mask is the classic games' way.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

TABLES = [
    ("cego", "schwarzwald", 4),
    ("cego", "titisee", 5),
    ("cego", "zego", 3),
    ("doppelkopf", "wielandstrasse", 4),
    ("doppelkopf", "ddv", 5),
]


@pytest.mark.parametrize(("game", "profile", "players"), TABLES)
def test_pettingzoo_api_and_seed(game: str, profile: str, players: int) -> None:
    api_test(env(game, profile=profile, players=players, seed=7), num_cycles=200)
    seed_test(lambda: env(game, profile=profile, players=players), num_cycles=200)


def play_random(e: object, seed: int) -> list[tuple[str, int, float]]:
    """One deal of random masked actions: (agent, action, reward) per step."""
    rng = np.random.default_rng(seed)
    steps = []
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, done, _, _ = e.last()  # type: ignore[attr-defined]
        action = None if done else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        steps.append((agent, -1 if action is None else action, float(reward)))
        e.step(action)  # type: ignore[attr-defined]
    return steps


@pytest.mark.parametrize(("game", "profile", "players"), TABLES[::2])
def test_a_seed_replays_the_same_deals(game: str, profile: str, players: int) -> None:
    runs = []
    for _ in range(2):
        e = env(game, profile=profile, players=players)
        e.reset(seed=11)
        first = play_random(e, 3)
        e.reset()
        second = play_random(e, 4)
        runs.append((first, second))
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[0][1]  # the next deal is another deal
    rewards = [r for _, a, r in runs[0][0] if a == -1]
    assert len(rewards) == players
    if game == "cego":
        assert sum(rewards) == 0  # Cego settles to zero


def test_the_dealer_rotates_and_a_sitting_dealer_never_acts() -> None:
    e = env("doppelkopf", profile="ddv", players=5, seed=1)
    for k in range(5):
        e.reset()
        assert e.unwrapped.table.view(None)["dealer"] == k
        acted = {agent for agent, action, _ in play_random(e, k) if action >= 0}
        assert f"seat_{k}" not in acted
        assert len(acted) == 4


def test_relative_rewards_sum_to_zero_where_only_winners_write() -> None:
    e = env("doppelkopf", profile="wielandstrasse", seed=2, reward="relative")
    e.reset()
    rewards = [r for _, a, r in play_random(e, 1) if a == -1]
    assert abs(sum(rewards)) < 1e-9
    assert any(r < 0 for r in rewards)


def test_bad_arguments_are_one_line_errors() -> None:
    with pytest.raises(StichwerkError, match="unknown cego profile 'tarock'"):
        env("cego", profile="tarock")
    with pytest.raises(StichwerkError, match="at 4, 5 seats, not 3"):
        env("doppelkopf", players=3)
    with pytest.raises(StichwerkError, match="unknown reward"):
        env("cego", reward="money")
    e = env("cego", seed=1)
    e.reset()
    illegal = int(np.flatnonzero(e.last()[0]["action_mask"] == 0)[0])
    with pytest.raises(StichwerkError, match="is not legal now"):
        e.step(illegal)


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_gymnasium_seat_against_bots(game: str) -> None:
    def episode(seed: int) -> tuple[list[int], float, int]:
        e = SeatEnv(game, seat=1, opponents="heuristic", seed=seed)
        rng = np.random.default_rng(seed)
        obs, info = e.reset()
        assert e.observation_space.contains(obs)
        assert (info["action_mask"] == obs["action_mask"]).all()
        actions = []
        done = False
        reward = 0.0
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            action = int(rng.choice(legal))
            actions.append(action)
            obs, reward, done, truncated, info = e.step(action)
            assert not truncated
            assert e.observation_space.contains(obs)
        assert e.table is not None
        assert reward == e.table.settlement()[1]
        return actions, reward, e.table.state.to_record()["dealer"]

    assert episode(5) == episode(5)
    assert episode(5) != episode(6)


def test_gymnasium_skips_deals_where_the_learner_sits_out() -> None:
    e = SeatEnv("cego", players=5, seat=0, opponents="random", seed=3)
    _, info = e.reset()
    assert info["skipped"] == 1  # deal 0 is dealt by seat 0, who sits out
    assert e.table is not None and e.table.view(None)["dealer"] == 1


def test_gymnasium_bad_arguments() -> None:
    with pytest.raises(StichwerkError, match="unknown bot"):
        SeatEnv("cego", opponents="genius")
    with pytest.raises(StichwerkError, match="name 3 opponents"):
        SeatEnv("cego", opponents=["random", "heuristic"])
    with pytest.raises(StichwerkError, match="seat must be"):
        SeatEnv("doppelkopf", seat=4)
