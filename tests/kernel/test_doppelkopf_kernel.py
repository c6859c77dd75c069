"""The compiled Doppelkopf kernel against the validated engine, the roll-out policy and itself."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.bots.doppelkopf import playout as P
from stichwerk.bots.doppelkopf import sampler as W
from stichwerk.bots.doppelkopf.knowledge import read
from stichwerk.bots.doppelkopf.policy import STYLE, STYLE_V1
from stichwerk.bots.doppelkopf.rollouts import Packed, policy_tables
from stichwerk.doppelkopf import kernel as K
from stichwerk.doppelkopf.profiles import DDV, WIELANDSTRASSE
from stichwerk.doppelkopf.record import new_deal
from tests.kernel.differential import doko_deal, doko_policy, doko_to_play

options = st.fixed_dictionaries(
    {},
    optional={
        "counting": st.sampled_from(["plus-minus", "plus", "minus"]),
        "extras_netting": st.sampled_from(["net", "separate"]),
        "karlchen_gefangen": st.booleans(),
        "doppelkarlchen": st.booleans(),
        "hochzeit_partner": st.sampled_from(["any", "fehl-led", "trump-led", "fehl-won"]),
        "supersau": st.booleans(),
        "sau": st.booleans(),
        "sau_deadline": st.sampled_from(["before-first-ace", "before-first-card", "when-playing"]),
        "re_kontra_doubles": st.booleans(),
        "no_winner": st.sampled_from(["levels", "zero"]),
        "both_announced": st.sampled_from(["re-needs-121", "last-needs-121"]),
        "gegen_die_alten": st.sampled_from(["off", "normal", "always"]),
        "with_nines": st.booleans(),
        "skip_levels": st.booleans(),
        "reply": st.sampled_from(["one-less", "fixed"]),
        "hochzeit_shift": st.booleans(),
        "dulle_order": st.sampled_from(["first-beats-second", "second-beats-first"]),
        "dulle_last_trick_reversal": st.booleans(),
        "doppelkopf_min_augen": st.sampled_from([0, 30, 40]),
        "hochzeit_tricks": st.sampled_from([1, 3, 5]),
        "silent_solo": st.booleans(),
    },
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["wielandstrasse", "ddv"]),
    seats=st.sampled_from([4, 5]),
    seed=st.integers(0, 2**32),
    opts=options,
)
def test_kernel_and_engine_agree_step_for_step(
    profile: str, seats: int, seed: int, opts: dict[str, object]
) -> None:
    """Cards, announcements (with their deadlines), Sau and settlement: as the engine."""
    doko_deal(profile, seed, seats, opts)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["wielandstrasse", "ddv"]),
    seats=st.sampled_from([4, 5]),
    seed=st.integers(0, 2**32),
    public=st.booleans(),
    style=st.sampled_from([STYLE, STYLE_V1]) | st.integers(0, 7).map(lambda f: f << 8 | 0b0110),
)
def test_kernel_policy_is_the_bots_policy(
    profile: str, seats: int, seed: int, public: bool, style: int
) -> None:
    """The same card at every step, in every style (today's, ``search-v1``'s, and any rules
    for some seats only)."""
    doko_policy(profile, seed, seats, public, style)


def test_the_policy_rules_are_numbered_alike() -> None:
    from stichwerk.bots.doppelkopf import policy

    for name in ("S_FORCE", "S_CASH", "S_KONTRA_HIGH"):
        assert getattr(policy, name) == getattr(P, name), name


def test_the_differential_sees_every_kind_of_game() -> None:
    seen: set[str] = set()
    for seed in range(300):
        state, _ = doko_to_play("wielandstrasse", seed)
        if state.phase == "play":
            seen.add(state.game_type.split("-")[0])
    assert {"normal", "hochzeit", "solo", "armut"} <= seen
    assert sum(doko_deal("wielandstrasse", seed) for seed in range(30)) > 0


@pytest.mark.parametrize("profile", [WIELANDSTRASSE, DDV])
def test_fresh_deals(profile: object) -> None:
    from stichwerk.doppelkopf.profiles import Profile

    assert isinstance(profile, Profile)
    tables = policy_tables(profile)
    for game in ("normal", "solo-damen", "solo-buben", "solo-kreuz", "solo-fleischlos"):
        for seats in (4, 5):
            for policy in (P.RANDOM, P.HEURISTIC)[seats - 4 :]:
                out = P.random_deals(
                    profile, deals=40, game=game, seats=seats, policy=policy, seed=2,
                    policy_tables=tables,
                )  # fmt: skip
                assert out.shape == (40, 5)
                if profile.counting == "plus-minus":
                    assert (out.sum(axis=1) == 0).all()
                assert (out != 0).any()
                if seats == 5:
                    assert (out[:, 0] == 0).all()  # the dealer (seat 0) sits out


def test_batches_are_reproducible_and_threads_give_the_same_numbers() -> None:
    tables = policy_tables(DDV)
    a = P.random_deals(DDV, deals=100, policy=P.HEURISTIC, seed=9, policy_tables=tables)
    b = P.random_deals(DDV, deals=100, policy=P.HEURISTIC, seed=9, policy_tables=tables)
    assert (a == b).all()
    state = new_deal(profile="ddv", seed=4)
    while state.phase != "play":
        state.apply(next(x for x in state.legal_actions() if x.act in ("gesund", "vorbehalt")))
    rows = np.stack([K.from_state(state)] * 64)
    one = P.play_out(rows.copy(), DDV, policy=P.RANDOM, seed=1)
    many = P.play_out_threaded(rows.copy(), DDV, policy=P.RANDOM, seed=1)
    assert (one == many).all() and len({tuple(r) for r in one}) > 1
    with pytest.raises(ValueError, match="needs its tables"):
        P.play_out(rows.copy(), DDV, policy=P.HEURISTIC)
    with pytest.raises(ValueError, match="'normal' or a solo"):
        P.random_deals(DDV, deals=1, game="armut")


def test_announcement_table_is_the_engines_rule() -> None:
    """The kernel's announcement table is announcements.check, case by case."""
    from stichwerk.doppelkopf import announcements
    from stichwerk.doppelkopf.scoring import Announced

    for profile in (WIELANDSTRASSE, DDV):
        ann = K.tables_for(profile).ann
        rng = random.Random(1)
        for _ in range(500):
            h, mine, theirs = rng.randrange(25), rng.randrange(20), rng.randrange(20)
            level = rng.randrange(5)
            act = ("re", "keine-90", "keine-60", "keine-30", "schwarz")[level]
            new = announcements.check(
                profile, act, 0, Announced(bool(mine & 1), (mine % 10) >> 1, mine >= 10),
                Announced(bool(theirs & 1), (theirs % 10) >> 1, theirs >= 10),
                held=h, shift=0, hand=h,
            )  # fmt: skip
            want = new.absage * 2 + new.ansage + 10 * new.late if isinstance(new, Announced) else -1
            assert ann[h, mine, theirs, level] == want


def test_sampled_worlds_respect_what_the_seat_knows() -> None:
    checked = 0
    for seed in range(16):
        state = new_deal(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not state.is_over:
            plays = [a for a in state.legal_actions() if a.act == "play"]
            if len(plays) > 1 and len(state.view(state.to_act)["history"]) > 14:
                break
            turn = [a for a in state.legal_actions() if a.act not in ("forfeit",)]
            state.apply(rng.choice(plays or turn))
        if state.is_over:
            continue
        seat = state.to_act
        assert seat is not None
        k = read(state.view(seat))
        packed = Packed(k, rng)
        t = packed.tables
        for _ in range(10):
            row = packed.base.copy()
            assert W.sample_world(row, packed.kn, packed.kf, t.orders, packed.rs,
                                  packed.counters, t.ann)  # fmt: skip
            cards = 0
            for s in k.order:
                hand = int(row[K.HAND + s])
                assert hand.bit_count() == k.hand_sizes[s]
                assert not hand & cards
                cards |= hand
                if s != seat:
                    assert not hand & k.banned[s]
                    assert hand & k.must[s] == k.must[s]
            assert int(row[K.HAND + seat]) == k.hand
            assert cards == k.hand | k.unseen
        checked += 1
    assert checked > 8


def test_search_decision_on_the_kernel_is_reproducible() -> None:
    from stichwerk.bots.doppelkopf.search_v1 import DoppelkopfSearchBot

    state = new_deal(seed=8)
    while state.phase != "play":
        state.apply(next(x for x in state.legal_actions() if x.act in ("gesund", "vorbehalt")))
    for _ in range(9):
        plays = [x for x in state.legal_actions() if x.act == "play"]
        state.apply(plays[0])
    view = state.view(state.to_act)
    a = DoppelkopfSearchBot(seed=1, worlds=40, compiled=True)
    b = DoppelkopfSearchBot(seed=1, worlds=40, compiled=True)
    assert a.act(view) == b.act(view)
    assert a.act(view) in state.legal_actions(state.to_act)
