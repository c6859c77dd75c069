"""The compiled Cego kernel against the validated engine, the roll-out policy and itself."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.bots.cego import playout as P
from stichwerk.bots.cego import sampler as W
from stichwerk.bots.cego.knowledge import read
from stichwerk.bots.cego.rollouts import Packed
from stichwerk.cego import cards as C
from stichwerk.cego import kernel as K
from stichwerk.cego.contracts import EXCHANGES
from stichwerk.cego.profiles import PROFILES, SCHWARZWALD, TITISEE, ZEGO
from stichwerk.cego.record import new_deal
from tests.cego.test_properties import choose
from tests.kernel.differential import cego_deal, cego_policy

options = st.fixed_dictionaries(
    {},
    optional={
        "stop_when_decided": st.booleans(),
        "raeuber_nach_regeln": st.booleans(),
        "jungfrau": st.sampled_from([0, 80]),
        "withdraw_leere": st.booleans(),
        "picture_for_leere": st.booleans(),
        "shown_leere_ordinary": st.booleans(),
        "counting": st.sampled_from(["pairs", "triples"]),
        "solo_win_factor": st.sampled_from([1, 2]),
        "round_to": st.sampled_from([0, 5, 10]),
    },
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(sorted(PROFILES)),
    seats=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 2**32),
    bias=st.sampled_from([0.0, 0.7, 0.95]),
    opts=options,
)
def test_kernel_and_engine_agree_card_for_card(
    profile: str, seats: int, seed: int, bias: float, opts: dict[str, object]
) -> None:
    cego_deal(profile, seats, seed, bias, opts)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(sorted(PROFILES)),
    seats=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 2**32),
    bias=st.sampled_from([0.0, 0.7, 0.95]),
)
def test_kernel_policy_is_the_bots_policy(profile: str, seats: int, seed: int, bias: float) -> None:
    cego_policy(profile, seats, seed, bias)


def test_the_differential_sees_every_contract() -> None:
    """The drivers above reach each contract, so the agreement covers all of them."""
    seen = set()
    for seed in range(400):
        state = new_deal(profile="titisee", seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while state.phase != "play" and not state.is_over:
            state.apply(choose(state, rng, [0.0, 0.8, 0.95][seed % 3]))
        if state.phase == "play":
            seen.add(state.contract)
            assert cego_deal("titisee", 4, seed, [0.0, 0.8, 0.95][seed % 3]) > 0
    assert {"cego", "solo", "ulti", "piccolo", "bettel", "raeuber"} <= seen


def test_lay_out_options_are_the_engines() -> None:
    opts = np.zeros(128, dtype=np.int64)
    checked = 0
    for seed in range(300):
        state = new_deal(profile="titisee", seed=seed, dealer=seed % 4, options={})
        rng = random.Random(seed)
        while state.phase not in ("exchange", "play") and not state.is_over:
            state.apply(choose(state, rng, 0.6))
        if state.phase != "exchange" or state.contract is None:
            continue
        legal = state.legal_actions()
        engine = {sum(1 << C.ID[c] for c in a.cards) for a in legal if a.act == "lay-out"}
        if not engine:
            continue
        ex = EXCHANGES[state.contract]
        kind = K.LAY_OUT_KIND[ex.lay_out_kind]
        hand = state.hands[state.to_act or 0]
        for picture in (0, 1):
            n = K.lay_out_options(hand, kind, picture, opts)
            rules_picture = state.profile.picture_for_leere
            if picture == rules_picture:
                assert {int(x) for x in opts[:n]} == engine
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("rules", [SCHWARZWALD, TITISEE, ZEGO])
def test_fresh_deals_settle_every_contract(rules: object) -> None:
    from stichwerk.cego.profiles import Profile

    assert isinstance(rules, Profile)
    contracts = [*rules.ladder, "solo", "raeuber", "drescher"]
    contracts += [c for c in ("ulti", "piccolo", "bettel") if getattr(rules, c)]
    for contract in contracts:
        for seats in rules.allowed_players:
            out = P.random_deals(rules, contract=contract, deals=50, seats=seats, seed=7)
            assert out.shape == (50, 5)
            assert (out.sum(axis=1) == 0).all(), contract
            assert (out[:, seats:] == 0).all()
            assert (out != 0).any(), contract


def test_fresh_deals_are_reproducible_and_threads_give_the_same_numbers() -> None:
    a = P.random_deals(TITISEE, contract="leere", deals=200, policy=P.HEURISTIC, seed=3)
    b = P.random_deals(TITISEE, contract="leere", deals=200, policy=P.HEURISTIC, seed=3)
    c = P.random_deals(TITISEE, contract="leere", deals=200, policy=P.HEURISTIC, seed=4)
    assert (a == b).all() and (a != c).any()
    state = new_deal(seed=11)
    rng = random.Random(11)
    while state.phase != "play":
        state.apply(choose(state, rng, 0.9))
    rows = np.stack([K.from_state(state)] * 64)
    rules = K.rules_row(state.profile)
    one = P.play_out(rows.copy(), rules, policy=P.RANDOM, seed=5)
    many = P.play_out_threaded(rows.copy(), rules, policy=P.RANDOM, seed=5)
    assert (one == many).all()
    assert len({tuple(r) for r in one}) > 1  # each row its own random stream


def test_bad_batch_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown Cego contract"):
        P.random_deals(SCHWARZWALD, contract="skat", deals=1)
    with pytest.raises(ValueError, match="3, 4 or 5 seats"):
        P.random_deals(SCHWARZWALD, contract="cego", deals=1, seats=6)
    with pytest.raises(ValueError, match="shape"):
        P.play_out(np.zeros((2, 3), dtype=np.int64), K.rules_row(SCHWARZWALD))
    with pytest.raises(ValueError, match="play phase"):
        K.from_state(new_deal(seed=1))


def test_sampled_worlds_respect_what_the_seat_knows() -> None:
    """Every world gives each seat its hand size, never a suit it showed out of, and the cards
    the seat must hold; the seat's own hand and the played cards stay where they are."""
    checked = 0
    for seed in range(25):
        state = new_deal(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase == "play" and len(state.legal_actions()) > 1 and state.trick_no >= 3:
                break
            state.apply(choose(state, rng, 0.9) if state.phase != "play" else
                        rng.choice(state.legal_actions()))  # fmt: skip
        if state.is_over:
            continue
        seat = state.to_act or 0
        k = read(state.view(seat))
        packed = Packed(k, rng)
        for _ in range(20):
            row = packed.base.copy()
            hidden = W.sample_world(row, packed.kn, packed.leans, packed.rs)
            assert hidden >= 0
            cards = hidden
            for s in k.order:
                hand = int(row[K.HAND + s])
                assert hand.bit_count() == k.hand_sizes[s]
                assert not hand & cards
                cards |= hand
                if s != seat:
                    for suit in range(5):
                        if k.voids[s] >> suit & 1:
                            assert not hand & C.SUIT_MASK[suit] & ~k.known_in_hand(s)
                    assert hand & k.must_hold[s] & k.unseen() == k.must_hold[s] & k.unseen()
            assert int(row[K.HAND + seat]) == k.hand
            assert not cards & k.played
        checked += 1
    assert checked > 12


def test_search_decision_on_the_kernel_is_reproducible() -> None:
    from stichwerk.bots.cego.search_v1 import CegoSearchBot

    state = new_deal(seed=5)
    rng = random.Random(5)
    while not (state.phase == "play" and len(state.legal_actions()) > 2):
        state.apply(choose(state, rng, 0.9) if state.phase != "play" else state.legal_actions()[0])
    view = state.view(state.to_act)
    a = CegoSearchBot(seed=1, worlds=50, compiled=True)
    b = CegoSearchBot(seed=1, worlds=50, compiled=True)
    assert a.act(view) == b.act(view)
    plays = [x for x in state.legal_actions() if x.act == "play"]
    assert a.worlds_last == 50 and a.rollouts_last == 50 * len(plays)
    assert a.act(view) in state.legal_actions()
