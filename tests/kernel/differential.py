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

from stichwerk.bots.cego import playout as CP
from stichwerk.cego import kernel as CK
from stichwerk.cego.cards import CODES as CEGO_CODES
from stichwerk.cego.record import new_deal as new_cego
from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list
from stichwerk.doppelkopf.record import new_deal as new_doko
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
    rules = CK.rules_row(state.profile)
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
        got = CP.choose_card(row, legal)
        assert got == want, f"step {steps}: the kernel plays {got}, the policy {want}"
        fast.play(want)
        CK.play(row, got)
        steps += 1
    return steps


DOKO_WORDS = ("re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz", "sau", "supersau")


def doko_to_play(
    profile: str, seed: int, seats: int = 4, options: dict[str, Any] | None = None
) -> tuple[Any, random.Random]:
    """A Doppelkopf deal from ``seed`` taken through the reservations (Hochzeit, Armut and
    solos included) by a seeded random policy, up to its play (or its end: a redeal)."""
    from tests.doppelkopf.randomplay import OUT_OF_TURN

    rng = random.Random(seed)
    owed = [s for s in range(seats) if rng.random() < 0.3]
    state = new_doko(
        profile=profile,
        options=options,
        seed=seed,
        players=seats,
        dealer=rng.randrange(seats),
        duty_solo_owed=owed,
    )
    while state.phase != "play" and not state.is_over:
        legal = [a for a in state.legal_actions() if a.act not in OUT_OF_TURN]
        if state.phase == "reservations":
            names = {a.act: a for a in legal}
            pick = names.get("gesund") if rng.random() < 0.6 else None
            state.apply(pick or rng.choice(legal))
        elif state.phase == "declarations":
            other = [a for a in legal if a.act != "solo"]
            state.apply(rng.choice(other if other and rng.random() < 0.7 else legal))
        else:
            state.apply(rng.choice(legal))
    return state, rng


def doko_deal(
    profile: str, seed: int, seats: int = 4, options: dict[str, Any] | None = None
) -> int:
    """One Doppelkopf deal through both, announcements and the Sau included; returns the
    number of steps compared (0: the deal ended before the play)."""
    import numpy as np

    from stichwerk.doppelkopf import kernel as DK
    from stichwerk.doppelkopf.cards import CODE_INDEX, CODES

    state, rng = doko_to_play(profile, seed, seats, options)
    if state.is_over:
        return 0
    row = DK.from_state(state)
    t = DK.tables_for(state.profile)
    prof, orders, ann = t.profile, t.orders, t.ann
    steps = 0
    while not state.is_over:
        assert row[DK.OVER] == 0, f"step {steps}: the kernel ended the deal early"
        seat = state.to_act
        assert row[DK.TO_ACT] == seat, f"step {steps}: seat to act differs"
        mask = DK.legal(row, orders)
        plays = sorted(a.card or "" for a in state.legal_actions(seat) if a.act == "play")
        mine = sorted({CODES[i >> 1] for i in bits_list(mask)})
        assert mine == plays, f"step {steps}: legal cards {mine} != engine {plays}"
        for s in state.seat_order:
            words = sorted(a.act for a in state.legal_actions(s) if a.act in DOKO_WORDS)
            bits = DK.legal_words(row, s, prof, ann)
            kernel_words = sorted(w for i, w in enumerate(DOKO_WORDS) if bits >> i & 1)
            assert kernel_words == words, f"step {steps}, seat {s}: {kernel_words} != {words}"
        if rng.random() < 0.15:
            s = rng.choice(state.seat_order)
            words = [a for a in state.legal_actions(s) if a.act in DOKO_WORDS]
            if words:
                word = rng.choice(words)
                state.apply(word)
                if word.act == "sau":
                    DK.show_sau(row, s)
                elif word.act == "supersau":
                    DK.show_supersau(row, s)
                else:
                    h = DK.held(row, s)
                    assert DK.announce(row, s, DOKO_WORDS.index(word.act), h, ann)
                steps += 1
                continue
        code = rng.choice(plays)
        hand = int(row[DK.HAND + seat])
        copies = hand & (3 << (2 * CODE_INDEX[code]))
        state.apply(Action(seat, "play", card=code))
        DK.play(row, (copies & -copies).bit_length() - 1, prof, orders)
        steps += 1
    assert row[DK.OVER] == 1, "the kernel goes on after the engine's last trick"
    out = np.zeros(5, dtype=np.int64)
    DK.settle(row, prof, out)
    want = [0] * 5
    want[: state.seats] = (state.result() or {})["score"]["settlement"]
    assert [int(x) for x in out] == want, f"settlement {list(out)} != engine {want}"
    return steps


def doko_policy(
    profile: str, seed: int, seats: int = 4, public: bool = False, style: int | None = None
) -> int:
    """One Doppelkopf deal played by the search bots' roll-out policy in Python (``FastPlay``,
    ``policy.choose_card``) and in the kernel: the same card at every step and the same
    settlement. ``public``: each seat knows the parties only as the table does; ``style``: the
    policy's rules (``policy.STYLE`` by default)."""
    import numpy as np

    from stichwerk.bots.doppelkopf import playout as DP
    from stichwerk.bots.doppelkopf.policy import STYLE, choose_card
    from stichwerk.bots.doppelkopf.rollouts import policy_tables
    from stichwerk.bots.doppelkopf.world import rollout, settle
    from stichwerk.doppelkopf import kernel as DK
    from stichwerk.doppelkopf.fast import FastPlay

    style = STYLE if style is None else style
    rng = random.Random(seed)
    state = new_doko(profile=profile, seed=seed, players=seats, dealer=rng.randrange(seats))
    while state.phase != "play" and not state.is_over:
        legal = [a for a in state.legal_actions() if a.act not in DOKO_WORDS]
        names = {a.act: a for a in legal}
        pick = names.get("gesund") if rng.random() < 0.6 else None
        state.apply(pick or rng.choice(legal))
    if state.is_over:
        return 0
    fast = FastPlay.from_state(state)
    row = DK.from_state(state)
    t = DK.tables_for(state.profile)
    pol = policy_tables(state.profile, style)
    if public:
        known = [-1] * state.seats
        pub = np.full(5, -1, dtype=np.int64)
        DP.finish(row, DP.HEURISTIC, np.zeros(1, dtype=np.uint64), t.profile, t.orders,
                  pol.ints, pol.floats, pub, True)  # fmt: skip
        rollout(fast, known, style)
    else:
        steps = 0
        while row[DK.OVER] == 0:
            if steps == 0:
                from stichwerk.bots.doppelkopf.world import say_sau

                say_sau(fast)
                DP._say_sau(row, t.profile)
            seat = fast.to_act
            legal = fast.legal()
            assert legal == DK.legal(row, t.orders), f"step {steps}: legal cards differ"
            if legal & (legal - 1):
                want = choose_card(fast, seat, legal, fast.party, style)
                team = row[DK.PARTY : DK.PARTY + 5].copy()
                got = DP.choose_card(row, seat, legal, team, t.profile, t.orders, pol.ints,
                                     pol.floats, t.profile[DK.P_PARTNER_RULE])  # fmt: skip
            else:
                want = got = legal.bit_length() - 1
            assert got == want, f"step {steps}: the kernel plays {got}, the policy {want}"
            fast.play(want)
            DK.play(row, got, t.profile, t.orders)
            steps += 1
    out = np.zeros(5, dtype=np.int64)
    DK.settle(row, t.profile, out)
    want_settlement = [0] * 5
    want_settlement[: state.seats] = settle(fast)
    assert [int(x) for x in out] == want_settlement, f"{list(out)} != {want_settlement}"
    augen = [int(x) for x in row[DK.AUGEN : DK.AUGEN + state.seats]]
    assert augen == fast.augen, f"Augen {augen} != {fast.augen}"
    won = [int(x) for x in row[DK.WON : DK.WON + state.seats]]
    assert won == fast.tricks_won, f"tricks {won} != {fast.tricks_won}"
    return fast.trick_no
