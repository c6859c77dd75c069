"""Property tests over random Cego deals: every profile, 3, 4 and 5 seats, random settings.

A random policy chooses among the legal actions; a bias towards ``fort`` and ``gut`` lets the
deals reach the later rounds (special games, the auction, Räuber) often enough.
"""

import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.cego import cards as C
from stichwerk.cego.contracts import EXCHANGES
from stichwerk.cego.record import deal_from_record, new_deal, score_summary, summary_of
from stichwerk.cego.state import CegoState
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError

PASSES = {"fort", "gut", "spielen"}


def choose(state: CegoState, rng: random.Random, bias: float) -> Action:
    actions = state.legal_actions()
    passes = [a for a in actions if a.act in PASSES]
    if passes and rng.random() < bias:
        return passes[0]
    return actions[rng.randrange(len(actions))]


options_strategy = st.fixed_dictionaries(
    {},
    optional={
        "stop_when_decided": st.booleans(),
        "raeuber_nach_regeln": st.booleans(),
        "soloist_bids_after_gegensolo": st.booleans(),
        "jungfrau": st.sampled_from([0, 80]),
        "withdraw_leere": st.booleans(),
        "picture_for_leere": st.booleans(),
        "shown_leere_ordinary": st.booleans(),
        "counting": st.sampled_from(["pairs", "triples"]),
        "raeuber": st.booleans(),
    },
)

deal_strategy = st.fixed_dictionaries(
    {
        "profile": st.sampled_from(["schwarzwald", "titisee", "zego"]),
        "players": st.sampled_from([3, 4, 5]),
        "seed": st.integers(0, 2**32),
        "bias": st.sampled_from([0.0, 0.5, 0.8, 0.95]),
        "options": options_strategy,
        "dealer": st.integers(0, 4),
    }
)


def play(params: dict[str, Any]) -> tuple[CegoState, list[CegoState]]:
    """Play a random deal; return the final state and the state before every action."""
    seats = params["players"]
    state = new_deal(
        profile=params["profile"],
        options=params["options"],
        players=seats,
        dealer=params["dealer"] % seats,
        seed=params["seed"],
    )
    rng = random.Random(params["seed"])
    before = []
    while not state.is_over:
        before.append(state.clone())
        state.apply(choose(state, rng, params["bias"]))
    return state, before


def codes_in(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(obj, str):
        if obj in C.ID:
            found.add(obj)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            found |= codes_in(key) | codes_in(value)
    elif isinstance(obj, list):
        for item in obj:
            found |= codes_in(item)
    return found


def may_see(state: CegoState, seat: int | None) -> set[str]:
    """What a seat could see at the table, worked out from the history alone."""
    if state.is_over:
        return set(C.CODES)
    seen: set[str] = set()
    for action in state.history:
        if action.act in ("play", "lay-out", "withdraw") or (
            action.act in ("keep", "press") and action.seat == seat
        ):
            seen |= set(action.cards) | ({action.card} if action.card else set())
    if seat is None:
        seen |= shown_press(state)
        return seen
    seen |= set(C.codes(state.dealt[seat]))
    if seat == state.declarer and state.contract in EXCHANGES:
        exchange = EXCHANGES[state.contract]
        acts = {a.act for a in state.history}
        if ("lay-out" in acts or not exchange.lay_out) and ("keep" in acts or not exchange.keep):
            seen |= set(C.codes(state.blind))
    return seen | shown_press(state)


def shown_press(state: CegoState) -> set[str]:
    if state.contract in state.profile.forced_press_shown:
        return set(C.codes(state.forced_press))
    return set()


def candidate_actions(state: CegoState, rng: random.Random) -> list[Action]:
    """Legal and illegal actions to try: every word, cards in and out of hand."""
    seat = state.to_act
    assert seat is not None
    out = [Action(s, w) for s in range(state.seats) for w in (
        "fort", "solo", "ulti", "soli-ulti", "gegensolo", "piccolo", "bettel", "cego", "halbe",
        "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss", "selbst", "gut", "spielen",
        "raeuber", "aufdecken", "play",
    )]  # fmt: skip
    for card in rng.sample(range(54), 12):
        out.append(Action(seat, "play", card=C.CODES[card]))
        out.append(Action((seat + 1) % state.seats, "play", card=C.CODES[card]))
    hand = [C.CODES[c] for c in range(54) if state.hands[seat] >> c & 1]
    for act in ("keep", "press", "lay-out", "withdraw"):
        for size in (1, 2):
            if len(hand) >= size:
                picked = sorted(rng.sample(hand, size), key=lambda code: C.ID[code])
                out.append(Action(seat, act, cards=tuple(picked)))
    return out


@settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(params=deal_strategy)
def test_random_deals_keep_every_invariant(params: dict[str, Any]) -> None:
    state, _ = play(params)
    result = state.result()
    assert result is not None
    score = result["score"]
    # Settlements sum to zero; points total 79 (70 with triples) with every pile counted.
    assert sum(score["settlement"]) == 0
    assert len(score["settlement"]) == state.seats
    points = result["card_points"]
    if state.profile.counting == "pairs":
        total = sum(Fraction(x) for x in points.get("seats", [])) + sum(
            Fraction(points[k]) for k in ("declarer", "defenders") if k in points
        )
        assert total + Fraction(points["out_of_play"]) == 79
    if not state.aufgedeckt and state.contract in (*EXCHANGES, "solo", "soli-ulti"):
        assert points["out_of_play"] == 0  # legage, blind and removed cards all counted
    # Hands keep their size: every dealt-in seat played all its cards unless stopped early.
    if state.trick_no == (13 if state.players == 3 else 11):
        assert all(h == 0 for h in state.hands)
        assert sum(state.tricks_won) == state.trick_no
    # The record replays to the same deal, bit for bit.
    record = state.to_record()
    again = deal_from_record(record)
    for raw in record["actions"]:
        again.apply(Action.from_json(raw))
    assert again.to_record() == record
    # The score sheet reads the rules the same way the engine does.
    assert score_summary(summary_of(result, state.players, state.seats)) == score


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(params=deal_strategy)
def test_views_never_show_a_hidden_card(params: dict[str, Any]) -> None:
    state, history = play(params)
    for snapshot in [*history[:: max(1, len(history) // 12)], state]:
        for seat in [None, *range(snapshot.seats)]:
            shown = codes_in(snapshot.view(seat))
            hidden = shown - may_see(snapshot, seat)
            assert not hidden, f"seat {seat} sees {sorted(hidden)} in phase {snapshot.phase}"


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(params=deal_strategy)
def test_offered_actions_are_exactly_the_accepted_ones(params: dict[str, Any]) -> None:
    _state, history = play(params)
    rng = random.Random(params["seed"])
    for snapshot in history[:: max(1, len(history) // 10)]:
        legal = snapshot.legal_actions()
        assert legal, "a seat to act always has an action"
        for action in legal:
            assert snapshot.can(action), action
            trial = snapshot.clone()
            assert trial.apply(action) == action
        legal_set = set(legal)
        before = snapshot.to_record()
        for action in candidate_actions(snapshot, rng):
            if action in legal_set:
                continue
            assert not snapshot.can(action), action
            try:
                snapshot.apply(action)
            except StichwerkError:
                pass
            else:  # pragma: no cover - the assertion above fails first
                raise AssertionError(f"{action} was accepted")
            assert snapshot.to_record() == before
        for seat in range(snapshot.seats):
            if seat != snapshot.to_act:
                assert snapshot.legal_actions(seat) == []


def test_thousands_of_plain_random_deals() -> None:
    """A cheap sweep: 3,000 deals, every profile and table size, zero-sum and 79 points."""
    n = 0
    for seed in range(334):
        for profile in ("schwarzwald", "titisee", "zego"):
            for seats in (3, 4, 5):
                state, _ = play(
                    {
                        "profile": profile,
                        "players": seats,
                        "seed": seed,
                        "bias": (0.0, 0.6, 0.9)[seed % 3],
                        "options": {},
                        "dealer": seed,
                    }
                )
                result = state.result()
                assert result is not None
                assert sum(result["score"]["settlement"]) == 0
                points = result["card_points"]
                total = sum(Fraction(x) for x in points.get("seats", [])) + sum(
                    Fraction(points[k]) for k in ("declarer", "defenders") if k in points
                )
                assert total + Fraction(points["out_of_play"]) == 79
                n += 1
    assert n > 3000 - 10
