"""Both games as OpenSpiel Python games: OpenSpiel's random simulation test (with
serialization), resampling from a seat's information, and IS-MCTS playing whole deals."""

import json
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game
from stichwerk.research import spiel
from stichwerk.research.table import Table
from stichwerk.research.worlds import resample


@pytest.mark.parametrize(
    "name",
    [
        "stichwerk_cego",
        "stichwerk_cego(profile=titisee,players=5)",
        "stichwerk_cego(profile=zego,players=3)",
        "stichwerk_doppelkopf",
        "stichwerk_doppelkopf(profile=ddv,players=5,dealer=2)",
    ],
)
def test_random_sim_test_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_games_and_their_parameters() -> None:
    game = spiel.load("cego", profile="zego")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 289
    assert game.max_chance_outcomes() == 54
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    doko = spiel.load("doppelkopf", players=5)
    assert doko.num_players() == 5 and doko.num_distinct_actions() == 95
    with pytest.raises(Exception, match="unknown cego profile 'tarock'"):
        spiel.load("cego", profile="tarock")
    with pytest.raises(StichwerkError, match="unknown game"):
        spiel.load("skat")


def dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def test_chance_nodes_deal_a_whole_deal() -> None:
    game = spiel.load("doppelkopf")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 24
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    state = dealt(game, 3)
    assert state.current_player() == 0  # the dealer is the last seat: seat 0 is Vorhand
    view = json.loads(state.information_state_string(0))["view"]
    assert len(view["hand"]) == 12 and view["seat"] == 0
    assert "history" not in json.loads(state.observation_string(0))["view"]
    tensor = np.array(state.information_state_tensor(0))
    assert tensor.shape == (game.information_state_tensor_size(),)


@pytest.mark.parametrize(("game", "profile", "seats"), [("cego", "schwarzwald", 4),
                                                         ("cego", "titisee", 5),
                                                         ("doppelkopf", "wielandstrasse", 4),
                                                         ("doppelkopf", "ddv", 5)])  # fmt: skip
def test_resampled_worlds_look_the_same_to_the_seat(game: str, profile: str, seats: int) -> None:
    """A resampled world replays legally to the seat's very view, and differs elsewhere."""
    differ = 0
    for deal in range(6):
        rng = random.Random(deal)
        table = Table.deal(game, profile=profile, seats=seats, dealer=deal % seats, seed=deal)
        while not table.is_over:
            seat = table.to_act
            assert seat is not None
            if rng.random() < 0.2:
                record = resample(table.state, seat, random.Random(rng.random()))
                world = get_game(game).deal_from_record(record)
                for raw in record["actions"]:
                    world.apply(Action.from_json(raw))
                assert world.view(seat) == table.view(seat)
                true_hands = table.state.to_record()["hands"]
                assert record["hands"][seat] == true_hands[seat]
                differ += record["hands"] != true_hands
            table.step(rng.choice(table.legal()))
    assert differ > 10


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_ismcts_plays_a_whole_deal(game: str) -> None:
    """OpenSpiel's IS-MCTS bot holds seat 0 for a whole deal; it samples worlds through
    ``resample_from_infostate`` and checks each has the seat's information state."""
    spiel_game = spiel.load(game)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        spiel_game,
        evaluator,
        uct_c=2.0,
        max_simulations=12,
        max_world_samples=4,
        random_state=np.random.RandomState(2),
    )
    worlds = random.Random(3)
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, worlds.random))
    rng = np.random.default_rng(4)
    state = dealt(spiel_game, 5)
    decisions = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            decisions += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    record = state.table.state.to_record()
    assert decisions >= 3
    assert any(a["seat"] == 0 and a["act"] == "play" for a in record["actions"])
    returns = state.returns()
    assert returns == state.table.settlement()
    if game == "cego":
        assert sum(returns) == 0
