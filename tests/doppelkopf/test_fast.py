"""The fast path (bit sets, no checks) and the validated engine agree card for card."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.core.action import Action
from stichwerk.doppelkopf.cards import CODES, code_mask, codes_in
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.record import new_deal
from stichwerk.doppelkopf.scoring import score
from stichwerk.doppelkopf.state import DokoState

ANNOUNCE = ("re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz")


def to_play(state: DokoState, rng: random.Random, gesund: float) -> None:
    """Random reservations, declarations and Armut until the play starts (or the deal ends)."""
    while state.phase != "play" and not state.is_over:
        legal = state.legal_actions()
        names = {a.act: a for a in legal}
        other = [a for a in legal if a.act != "solo"]
        if "gesund" in names and rng.random() < gesund:
            state.apply(names["gesund"])
        elif state.phase == "declarations" and other and rng.random() < 0.7:
            state.apply(rng.choice(other))
        else:
            state.apply(rng.choice(legal))


def mirror_extra(state: DokoState, fast: FastPlay, rng: random.Random) -> None:
    """Now and then an announcement or Sau by a random seat, on both paths."""
    seat = rng.choice(state.seat_order)
    extra = [a for a in state.legal_actions(seat) if a.act != "play"]
    if not extra:
        return
    action = rng.choice(extra)
    state.apply(action)
    if action.act == "sau":
        fast.announce_sau(seat)
    elif action.act == "supersau":
        fast.announce_supersau(seat)
    else:
        assert fast.announce(seat, action.act)


def play_both(state: DokoState, rng: random.Random, talk: float) -> None:
    """Play random cards on the engine and the fast path, comparing after every card."""
    fast = FastPlay.from_state(state)
    while not state.is_over:
        if rng.random() < talk:
            mirror_extra(state, fast, rng)
        assert fast.to_act == state.to_act
        seat = fast.to_act
        mask = fast.legal()
        plays = [a.card for a in state.legal_actions() if a.act == "play"]
        assert [CODES[c] for c in codes_in(mask)] == plays
        code = rng.choice(codes_in(mask))
        mine = fast.hands[seat] & code_mask(code)
        fast.play((mine & -mine).bit_length() - 1)
        state.apply(Action(seat, "play", card=CODES[code]))
        d = state.snapshot()
        assert fast.hands == [state.hand(s) for s in range(state.seats)]
        assert fast.augen == list(d.augen) and fast.tricks_won == list(d.tricks_won)
        assert fast.party == list(d.party) and fast.game_type == state.game_type
    assert fast.over
    result = state.result()
    assert result is not None
    assert score(fast.facts(), state.profile) == result["score"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["wielandstrasse", "ddv"]),
    seats=st.sampled_from([4, 5]),
    seed=st.integers(0, 2**32),
    gesund=st.sampled_from([0.0, 0.8, 1.0]),
    start=st.integers(0, 40),
    talk=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_fast_path_agrees_with_the_engine(
    profile: str, seats: int, seed: int, gesund: float, start: int, talk: float
) -> None:
    rng = random.Random(seed)
    state = new_deal(profile=profile, players=seats, seed=seed, dealer=seed % seats)
    to_play(state, rng, gesund)
    for _ in range(start):
        if state.is_over:
            return
        state.apply(rng.choice([a for a in state.legal_actions() if a.act == "play"]))
    if not state.is_over:
        play_both(state, rng, talk)


def test_fast_path_in_hochzeit_and_armut_games() -> None:
    """Deals steered into a Hochzeit (partner found or not) and an Armut."""
    kinds: dict[str, int] = {}
    for seed in range(400):
        rng = random.Random(seed)
        state = new_deal(seed=seed, dealer=seed % 4)
        while state.phase in ("reservations", "declarations", "armut", "armut-return"):
            legal = state.legal_actions()
            names = {a.act: a for a in legal}
            if state.phase == "reservations":
                wanted = {"hochzeit", "armut"} & set(state._eligible(state.to_act or 0))
                state.apply(names["vorbehalt"] if wanted else names["gesund"])
            elif state.phase == "declarations":
                state.apply(names.get("hochzeit") or names.get("armut") or legal[0])
            else:
                state.apply(rng.choice(legal))
        if state.is_over:
            continue
        kinds[state.game_type] = kinds.get(state.game_type, 0) + 1
        play_both(state, rng, 0.2)
        result = state.result()
        assert result is not None
        kinds[result["game_type"] + "-end"] = kinds.get(result["game_type"] + "-end", 0) + 1
    assert kinds["hochzeit"] >= 20 and kinds["armut"] >= 10 and kinds["solo-trumpf-end"] >= 3


def test_announcements_out_of_order_are_refused() -> None:
    state = new_deal(seed=3)
    to_play(state, random.Random(3), 1.0)
    fast = FastPlay.from_state(state)
    re = next(s for s in state.seat_order if fast.party[s] == 0)
    kontra = next(s for s in state.seat_order if fast.party[s] == 1)
    assert not fast.announce(re, "kontra") and not fast.announce(kontra, "re")
    assert fast.announce(re, "keine-90") and not fast.announce(re, "re")
    assert fast.ann[0].ansage and fast.ann[0].absage == 1 and fast.ansage_order == [0]


def test_playout_finishes_every_trick() -> None:
    state = new_deal(seed=3)
    rng = random.Random(3)
    to_play(state, rng, 1.0)
    fast = FastPlay.from_state(state)
    copy = fast.copy()
    fast.playout(rng)
    assert fast.over and sum(fast.tricks_won) == 12 and all(h == 0 for h in fast.hands)
    assert sum(fast.augen) == 240
    assert copy.trick_no == 0 and copy.hands == [state.hand(s) for s in range(4)]
