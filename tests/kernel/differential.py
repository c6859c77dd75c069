"""The kernel and the validated engine, side by side on the same deal with the same actions.

``cego_deal`` and ``doko_deal`` play one random deal through the engine (every action verified)
and, from the first card on, through the compiled kernel: at every step the seat to act and its
legal set must be the same, and at the end the settlement. They return what they checked, and
raise ``AssertionError`` naming the step where the two disagree. The fast tests run a few hundred
deals under hypothesis (which shrinks a disagreement to a small seed); the benchmark
``benchmarks/kernel_differential.py`` runs 100,000 per profile.
"""

import random
from typing import Any

from stichwerk.cego import kernel as CK
from stichwerk.cego.cards import CODES as CEGO_CODES
from stichwerk.cego.record import new_deal as new_cego
from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list
from tests.cego.test_properties import choose


def cego_deal(
    profile: str, seats: int, seed: int, bias: float, options: dict[str, Any] | None = None
) -> int:
    """One Cego deal through both; returns the number of card plays compared (0: no play)."""
    state = new_cego(
        profile=profile, options=options or {}, players=seats, seed=seed, dealer=seed % seats
    )
    rng = random.Random(seed)
    while state.phase != "play" and not state.is_over:
        state.apply(choose(state, rng, bias))
    if state.is_over:
        return 0
    row = CK.from_state(state)
    rules = CK.rules_row(state.rules)
    steps = 0
    while not state.is_over:
        assert row[CK.OVER] == 0, f"step {steps}: the kernel ended the deal early"
        assert row[CK.TO_ACT] == state.to_act, f"step {steps}: seat to act differs"
        mask = CK.legal(row)
        assert mask == state.legal_mask(), f"step {steps}: legal cards differ"
        card = rng.choice(bits_list(mask))
        state.apply(Action(state.to_act or 0, "play", card=CEGO_CODES[card]))
        CK.play(row, card)
        steps += 1
    assert row[CK.OVER] == 1, "the kernel goes on after the engine's last trick"
    out = [0] * 5
    settlement = _settle_cego(row, rules)
    out[: state.seats] = (state.result() or {})["score"]["settlement"]
    assert settlement == out, f"settlement {settlement} != engine {out}"
    return steps


def _settle_cego(row: Any, rules: Any) -> list[int]:
    import numpy as np

    out = np.zeros(5, dtype=np.int64)
    CK.settle(row, rules, out)
    return [int(x) for x in out]


def cego_policy(profile: str, seats: int, seed: int, bias: float) -> int:
    """One Cego deal played by the search bots' roll-out policy, in Python (``FastPlay`` and
    ``policy.choose_card``) and in the kernel: the same card at every step, the same settlement
    (the kernel stops a decided fixed game early; the Python path plays on). Returns the steps."""
    from stichwerk.bots.cego.policy import PlayContext, choose_card, kind_of
    from stichwerk.cego.fast import FastPlay

    state = new_cego(profile=profile, players=seats, seed=seed, dealer=seed % seats)
    rng = random.Random(seed)
    while state.phase != "play" and not state.is_over:
        state.apply(choose(state, rng, bias))
    if state.is_over:
        return 0
    row = CK.from_state(state)
    fast = FastPlay.from_state(state)
    contract = state.contract or ""
    declarer = -1 if state.declarer is None else state.declarer
    ctx = PlayContext(declarer, kind_of(contract), contract, state.never_wins, state.players)
    steps = 0
    while row[CK.OVER] == 0:
        seat = fast.to_act
        legal = fast.legal()
        assert legal == CK.legal(row), f"step {steps}: legal cards differ"
        want = choose_card(
            seat, fast.hands[seat], legal, fast.trick, fast.played, fast.tricks_won, ctx
        )
        got = CK.choose_card(row, legal)
        assert got == want, f"step {steps}: the kernel plays {got}, the policy {want}"
        fast.play(want)
        CK.play(row, got)
        steps += 1
    return steps
