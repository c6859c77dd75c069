"""Properties over thousands of random deals per profile."""

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction
from stichwerk.doppelkopf.api import GAME
from stichwerk.doppelkopf.cards import CODES, codes_of_mask
from stichwerk.doppelkopf.profiles import SOLO_TYPES
from stichwerk.doppelkopf.state import DokoState
from stichwerk.doppelkopf.summary import score_summary

from .randomplay import random_deal

PROFILES = ["wielandstrasse", "ddv"]
BATCH = 10  # deals per example: 200 examples x 10 = 2,000 deals per profile


def check_result(state: DokoState) -> None:
    result = state.result()
    assert result is not None
    score = result["score"]
    settlement = score["settlement"]
    if "redeal" in result:
        assert settlement == [0] * state.seats
        return
    if result.get("augen") is not None:
        assert result["augen"]["re"] + result["augen"]["kontra"] == 240
        assert sum(result["tricks"]) == (12 if state.profile.with_nines else 10)
    if state.seats == 5:
        assert settlement[state.dealer] == 0
    counting = state.profile.counting
    if counting == "plus-minus":
        assert sum(settlement) == 0
        if state.profile.verwerfen == "table" or "forfeit" not in result:
            played = [settlement[s] for s in state.seat_order]
            assert len({v % 2 for v in played}) == 1, settlement
    elif counting == "plus":
        assert all(v >= 0 for v in settlement)
        if score["winner"] is not None and state.profile.extras_netting == "net":
            winners = set(result[score["winner"]])
            assert all(v == 0 for s, v in enumerate(settlement) if s not in winners)
    # The summary scores the same as the played deal.
    out = score_summary(json.loads(json.dumps(result["summary"])))
    expected = dict(score)
    assert out == expected


def check_replay(state: DokoState) -> None:
    record = json.loads(json.dumps(state.to_record()))
    again = GAME.deal_from_record(record)
    for raw in record["actions"]:
        again.apply(Action.from_json(raw))
    assert again.to_record() == state.to_record()


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**40))
def test_random_deals_score_consistently(profile: str, seed: int) -> None:
    for k in range(BATCH):
        seats = 5 if (seed + k) % 7 == 0 else 4
        state = random_deal(profile, seed + k, seats=seats)
        check_result(state)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**40))
def test_replays_are_stable(profile: str, seed: int) -> None:
    check_replay(random_deal(profile, seed))


VARIANTS: list[dict[str, Any]] = [
    {"armut_cards": "three", "armut_fox_is_trump": False, "armut_two": "redeal"},
    {"supersau": True, "sau_deadline": "before-first-card", "dulle_last_trick_reversal": True},
    {"with_nines": False, "hochzeit_partner": "fehl-won", "reply": "one-less"},
    {"counting": "minus", "karlchen_gefangen": True, "re_kontra_doubles": True},
    {"skip_levels": False, "hochzeit_partner": "trump-led", "sau_deadline": "when-playing"},
    {"extras_netting": "separate", "no_winner": "zero", "gegen_die_alten": "off"},
    {"armut": True, "schmeissen_min_nines": 4, "neu_geben_below_trumps": 4},
]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**40))
def test_variants(profile: str, variant: int, seed: int) -> None:
    state = random_deal(profile, seed, options=VARIANTS[variant])
    check_result(state)
    check_replay(state)


# --- hidden information ---------------------------------------------------------------------


def _played_cards(state: DokoState) -> Counter[str]:
    d = state.snapshot()
    out: Counter[str] = Counter()
    for _, ids, _ in d.tricks:
        out.update(CODES[i >> 1] for i in ids)
    out.update(CODES[i >> 1] for i in d.trick_ids)
    return out


def check_views(state: DokoState) -> None:
    d = state.snapshot()
    played = _played_cards(state)
    for viewer in [None, *range(state.seats)]:
        view = json.loads(json.dumps(state.view(viewer)))
        if viewer is not None:
            assert view["hand"] == codes_of_mask(state.hand(viewer))
        if state.is_over:
            assert view["deal"]["hands"] == [codes_of_mask(h) for h in d.dealt]
            continue
        assert "deal" not in view and view["result"] is None
        known = Counter(played)
        involved = viewer is not None and viewer in (d.armut_seat, d.armut_taker)
        if involved:
            known.update(codes_of_mask(d.armut_cards))
            known.update(codes_of_mask(d.armut_returned))
        history: Counter[str] = Counter()
        for entry in view["history"]:
            if "card" in entry:
                history[entry["card"]] += 1
            history.update(entry.get("cards", []))
        assert not history - known, (viewer, history - known)
        shown = Counter(c["card"] for c in view["trick"])
        if view["last_trick"]:
            shown.update(view["last_trick"]["cards"])
        assert not shown - played
        armut = view.get("armut", {})
        if not involved:
            assert "passed" not in armut and "returned" not in armut
        if viewer is None:
            assert view["hand"] is None and view["legal_actions"] == []
        else:
            # The viewer sees no other seat's party unless it is public.
            for s, party in enumerate(view["parties"]):
                if party is not None:
                    assert party == state.party_of(s)


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**40))
def test_no_view_shows_a_hidden_card(profile: str, seed: int) -> None:
    random_deal(profile, seed, hook=check_views, seats=5 if seed % 5 == 0 else 4)


def test_armut_cards_seen_only_by_the_two_seats() -> None:
    seeds = [
        seed
        for seed in range(2000)
        if random_deal("wielandstrasse", seed, forfeits=False).snapshot().armut_taker is not None
    ]
    assert len(seeds) >= 5
    for seed in seeds[:10]:  # the same deals again, every view checked at every step
        random_deal("wielandstrasse", seed, forfeits=False, hook=check_views)


# --- the offered actions are exactly the accepted ones ----------------------------------------

SIMPLE = ["gesund", "vorbehalt", "hochzeit", "armut", "schmeissen", "neu-geben", "take",
          "decline", "re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz", "sau",
          "supersau"]  # fmt: skip


def candidates(state: DokoState, seat: int, rng: random.Random) -> list[Action]:
    out = [Action(seat, "play", card=c) for c in CODES]
    out += [Action(seat, a) for a in SIMPLE]
    out += [Action(seat, "solo", type=t) for t in (*SOLO_TYPES, "eichel")]
    out += [Action(seat, "play", card="CQ", type="x"), Action(seat, "gesund", card="CA")]
    hand = codes_of_mask(state.hand(seat))
    for n in (1, 2, 3):
        if len(hand) >= n:
            picks = sorted(rng.sample(hand, n), key=CODES.index)
            out.append(Action(seat, "return", cards=tuple(picks)))
    return out


def fingerprint(state: DokoState) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was."""
    d = state.snapshot()
    return (
        state.phase,
        state.to_act,
        tuple(state.hand(s) for s in range(state.seats)),
        tuple(state.actions),
        tuple(d.trick_ids),
        tuple(d.ann),
        tuple(d.party),
        d.sau_seat,
        state.game_type,
    )


def check_offered_is_accepted(state: DokoState, rng: random.Random) -> None:
    if rng.random() > 0.3:
        return
    before = fingerprint(state)
    for seat in range(state.seats):
        legal = state.legal_actions(seat)
        for action in legal:
            assert state.can(action), action
        legal_set = set(legal)
        for action in candidates(state, seat, rng):
            if action in legal_set:
                continue
            assert not state.can(action), action
            with pytest.raises(IllegalAction) as info:
                state.apply(action)
            assert "\n" not in str(info.value)
            assert fingerprint(state) == before


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**40))
def test_offered_actions_are_exactly_the_accepted_ones(profile: str, seed: int) -> None:
    rng = random.Random(seed)
    random_deal(profile, seed, hook=lambda s: check_offered_is_accepted(s, rng))
