"""The search's compiled parts beyond the kernel's play: inference, weighted PIMC, contracts.

Built on :mod:`stichwerk.cego.kernel` (its rows, play and settlement), the roll-out policy
(:mod:`~stichwerk.bots.cego.playout`) and the world sampler (:mod:`~stichwerk.bots.cego.sampler`),
and compiled with numba like them; imported only when numba is there (``rollouts.available()``).

- :func:`replay_loglik`: the log-likelihood of the other seats' cards so far in a sampled world:
  the play is replayed from its first card with the world's hands, and at each card another seat
  chose among several, the roll-out policy (the bots' own) says what it would have played; the
  card played scores ``log(1 - eps + eps / n)`` if it is that card, else ``log(eps / n)``.
- :func:`search_weighted`: PIMC for a card: worlds sampled, weighted by the replay, each
  candidate card played in each and the deal finished by the policy.
- :func:`contract_values`: the decisions before the play, each played out in sampled deals of
  the hidden cards. An option is a row (``O_*``): a contract with its declarer (the exchange of a
  ladder contract made by the bots' rule, or with the lay-out, the cards kept or the card
  pressed fixed: the declarer's own choices), or the game going on after ``fort`` (later seats
  of the Solo round announce a Solo on a Pflichtsolo hand, else the seat with the strongest hand
  for the ladder wins the auction with Cego), and a Solo as the other seats would answer it
  (:func:`_answered_solo`: Gegensolo where a seat's Cego beats its share of the Solo). A world
  is weighted down when a seat that passed in the Solo round holds a Pflichtsolo there.
"""

import math
from typing import Any

import numpy as np

from stichwerk.bots.cego import playout as P
from stichwerk.bots.cego import sampler as W
from stichwerk.bots.cego.bidding import SOLO_BAR, SOLO_SPREAD
from stichwerk.cego import kernel as K
from stichwerk.core.kernel import highest, jit, jit_alloc, lowest, popcount

# Fields of an option row.
O_CONTRACT = 0  # a kernel contract code, or CONTINUE
O_DECLARER = 1
O_VALUE = 2
O_LAY_N = 3  # the exchange of a ladder contract: cards laid out, their kind, cards kept, press
O_LAY_KIND = 4
O_KEEP = 5
O_PRESS_KIND = 6
O_LAID = 7  # the lay-out chosen (-1: by the bots' rule)
O_KEPT = 8  # the hand cards kept (-1: by the bots' rule)
O_PRESS = 9  # the card pressed (-1: by the bots' rule)
O_STAGE = 10  # 0: from the dealt hands; 1: the declarer holds the blind, the press to come
O_SWAP_FROM = 11  # a laid-out Leere withdrawn (-1: none) ...
O_SWAP_TO = 12  # ... for this card of the blind
O_LATER = 13  # CONTINUE: seats still to speak in the Solo round; a Solo: seats that may
# still answer it with Gegensolo (bits)
O_NEVER = 14  # stage 1: the cards that may never win (-1: the laid-out ones)
OPTION_FIELDS = 15
CONTINUE = -1
"""The option of passing: the game goes on as the continuation model says."""
HIGH_FROM = 17
"""T18: from here a trump counts as high (Pflichtsolo)."""
FLOOR = 0.02
"""The least chance the inference gives a bid or a pass (the bots' model is only a model)."""


@jit
def _copy(dst: Any, src: Any) -> None:
    for j in range(src.shape[0]):
        dst[j] = src[j]


@jit
def relative(out: Any, seat: int, st: Any) -> float:
    """A seat's settlement against the mean of the seats dealt in (as the arena scores)."""
    total = 0.0
    n = 0
    for s in range(st[K.SEATS]):
        if st[K.NEXT + s] >= 0:
            total += out[s]
            n += 1
    return float(out[seat]) - total / n


@jit
def start_row(world: Any, start: Any, laid_out: int, events: Any, n_ev: int) -> None:
    """``start``: the deal of ``world`` at its first card (each hand with the cards it has
    played since, nothing played yet; ``laid_out`` the declarer's laid-out cards then)."""
    _copy(start, world)
    for s in range(5):
        start[K.PILE + s] = 0
        start[K.WON + s] = 0
    for e in range(n_ev):
        start[K.HAND + events[e, 0]] |= 1 << events[e, 1]
    start[K.TLEN] = 0
    start[K.TRICK_NO] = 0
    start[K.PLAYED] = 0
    start[K.OVER] = 0
    start[K.LAST_WINNER] = -1
    start[K.LAID_OUT] = laid_out


@jit_alloc
def sample_world(st: Any, kn: Any, leans: Any, rs: Any, banned: Any) -> int:
    """The sampler (``sampler.sample_world``) with cards a seat cannot hold
    (``banned``, per seat): a world that gives one to it is dealt again. Returns the cards
    outside the hands, or -1 when no world fits."""
    hidden = -1
    for _ in range(64):
        hidden = W.sample_world(st, kn, leans, rs)
        if hidden < 0:
            return -1
        ok = True
        for s in range(5):
            if st[K.HAND + s] & banned[s] and s != kn[W.K_SEAT]:
                ok = False
        if ok:
            return hidden
    return -1


@jit
def replay_loglik(st: Any, events: Any, n_ev: int, me: int, eps: float) -> float:
    """Replay ``n_ev`` cards (rows of seat, card) on ``st`` (a :func:`start_row`) and return
    the log-likelihood of the other seats' cards under the trembling policy."""
    ll = 0.0
    for e in range(n_ev):
        seat = events[e, 0]
        card = events[e, 1]
        st[K.TO_ACT] = seat
        if seat != me:
            mask = K.legal(st)
            n = popcount(mask)
            if n > 1 and (mask >> card) & 1:
                if P.choose_card(st, mask) == card:
                    ll += math.log(1.0 - eps + eps / n)
                else:
                    ll += math.log(eps / n)
        K.play(st, card)
    return ll


@jit_alloc
def search_weighted(
    base: Any, kn: Any, leans: Any, rules: Any, removed: int, cards: Any, worlds: int, rs: Any,
    values: Any, logw: Any, events: Any, n_ev: int, laid_out: int, eps: float, infer: bool,
    banned: Any,
) -> int:  # fmt: skip
    """Weighted PIMC for a card: ``values[w, i]`` the seat's settlement (against the table's
    mean) after card ``cards[i]`` in world ``w`` and the policy to the end, ``logw[w]`` the
    world's log-likelihood. Returns the worlds done (fewer only when no world fits)."""
    seat = kn[W.K_SEAT]
    st = base.copy()
    world = base.copy()
    start = base.copy()
    out = np.zeros(5, dtype=np.int64)
    for w in range(worlds):
        _copy(world, base)
        hidden = sample_world(world, kn, leans, rs, banned)
        if hidden < 0:
            return w
        outside = kn[W.K_OUT_KNOWN] if kn[W.K_OUT_KNOWN] >= 0 else hidden
        world[K.OUTSIDE] = outside | removed
        logw[w] = 0.0
        if infer and n_ev > 0:
            start_row(world, start, laid_out, events, n_ev)
            logw[w] = replay_loglik(start, events, n_ev, seat, eps)
        for i in range(cards.shape[0]):
            _copy(st, world)
            K.play(st, cards[i])
            P.finish(st, P.HEURISTIC, rs)
            out[:] = 0
            K.settle(st, rules, out)
            values[w, i] = relative(out, seat, st)
    return worlds


# --------------------------------------------------------------------------- the exchange rule


@jit
def _keep_score(card: int) -> float:
    """``heuristic.keep_score``: the high trumps first, the Geiß less, colour cards by value."""
    if K.SUIT_OF[card] == K.TRUMP:
        return 30.0 if card == K.T1 else 100.0 + card
    return 10.0 - float(K.HALF[card])


@jit
def _press_score(card: int, hand: int) -> float:
    """``heuristic.press_score``: points at risk and a suit made void; trumps kept."""
    suit = K.SUIT_OF[card]
    if suit == K.TRUMP:
        return 3.0 if card == K.T1 else -10.0 + card / 100.0
    in_suit = popcount(hand & K.SUIT_MASK[suit])
    bonus = 3.0 if in_suit == 1 else (1.0 if in_suit == 2 else 0.0)
    return float(K.HALF[card]) + bonus


@jit_alloc
def _lay_out_rule(hand: int, kind: int, picture: int) -> int:
    """``heuristic.lay_out_choice``: the cheapest cards, from the longest suits (0: none)."""
    opts = np.zeros(128, dtype=np.int64)
    n = K.lay_out_options(hand, kind, picture, opts)
    best = 0
    best_pts = 1 << 30
    best_len = 1 << 30
    for i in range(n):
        m = opts[i]
        pts = 0
        length = 0
        while m:
            c = lowest(m)
            m &= m - 1
            pts += K.HALF[c]
            length += popcount(hand & K.SUIT_MASK[K.SUIT_OF[c]])
        if pts < best_pts or (pts == best_pts and -length < -best_len):
            best_pts = pts
            best_len = length
            best = opts[i]
    return best


@jit
def _keep_rule(pool: int, keep: int) -> int:
    """``heuristic.plan_exchange``'s keep: the ``keep`` cards of ``pool`` it values most."""
    kept = 0
    for _ in range(keep):
        best = -1
        best_score = -1e9
        m = pool & ~kept
        while m:
            c = lowest(m)
            m &= m - 1
            sc = _keep_score(c)
            if sc > best_score:
                best_score = sc
                best = c
        if best < 0:
            break
        kept |= 1 << best
    return kept


@jit
def _press_rule(pool: int, hand: int) -> int:
    """``heuristic.press_choice``: the card to press from ``pool``."""
    best = -1
    best_score = -1e9
    m = pool
    while m:
        c = lowest(m)
        m &= m - 1
        sc = _press_score(c, hand)
        if sc >= best_score:
            best_score = sc
            best = c
    return best


@jit_alloc
def setup_contract(st: Any, rules: Any, opt: Any, hidden: int, removed: int) -> bool:
    """Set up the contract of ``opt`` in ``st`` (the hands dealt, ``hidden`` the blind, or at
    stage 1 the declarer's laid-away cards) and make the declarer's exchange; ``False`` if the
    declarer cannot make its lay-out."""
    contract = opt[O_CONTRACT]
    d = opt[O_DECLARER]
    st[K.CONTRACT] = contract
    st[K.DECLARER] = d
    st[K.ANNOUNCER] = -1
    st[K.NEVER] = 0
    st[K.LAID_OUT] = 0
    st[K.FORCED] = 0
    st[K.REGELN] = 0
    if contract == K.RAEUBER or contract == K.DRESCHER:
        st[K.DECLARER] = -1
        if contract == K.RAEUBER:
            st[K.ANNOUNCER] = d
            st[K.REGELN] = rules[K.R_REGELN]
        st[K.OUTSIDE] = removed
        return True  # Vorhand leads: the template's seat to act
    st[K.TO_ACT] = d
    st[K.VALUE] = opt[O_VALUE]
    if contract == K.SOLO or contract == K.SOLI_ULTI:
        st[K.OUTSIDE] = hidden | removed
        return True
    if contract != K.LADDER:
        st[K.OUTSIDE] = removed
        return True
    hand = st[K.HAND + d]
    lay_n = opt[O_LAY_N]
    kind = opt[O_LAY_KIND]
    if opt[O_STAGE] == 1:
        laid = opt[O_LAID]
        outside = hidden
        blind = 0
    else:
        laid = 0
        if lay_n:
            laid = opt[O_LAID]
            if laid < 0:
                laid = _lay_out_rule(hand, kind, rules[K.R_PICTURE_FOR_LEERE])
            if laid == 0:
                return False
        kept = opt[O_KEPT]
        if kept < 0:
            kept = _keep_rule(hand & ~laid, opt[O_KEEP])
        outside = hand & ~(kept | laid)
        blind = hidden
        hand = kept | laid | hidden
    if lay_n:
        if kind == 4:
            st[K.FORCED] = 1
            st[K.NEVER] = laid
        elif rules[K.R_SHOWN_ORDINARY] == 0:
            st[K.FORCED] = lay_n
            st[K.NEVER] = laid
        st[K.LAID_OUT] = laid
        if opt[O_STAGE] == 1 and opt[O_NEVER] >= 0:
            st[K.NEVER] = opt[O_NEVER]
    if opt[O_SWAP_FROM] >= 0:
        st[K.LAID_OUT] = (st[K.LAID_OUT] & ~(1 << opt[O_SWAP_FROM])) | (1 << opt[O_SWAP_TO])
    press = opt[O_PRESS_KIND]
    if opt[O_STAGE] == 0 and (press == 3 or press == 4):
        trumps = blind & K.TRUMPS
        if trumps:
            card = lowest(trumps) if press == 3 else highest(trumps)
            hand &= ~(1 << card)
            outside |= 1 << card
            press = 0
    if press == 1 or press == 2:
        card = opt[O_PRESS]
        if card < 0:
            pool = hand & ~st[K.LAID_OUT]
            if press == 2:
                pool &= blind if opt[O_STAGE] == 0 else hand
            card = _press_rule(pool, hand)
        hand &= ~(1 << card)
        outside |= 1 << card
    st[K.HAND + d] = hand
    st[K.OUTSIDE] = outside | removed
    return True


# --------------------------------------------------------------------------- the bidding


@jit
def pflichtsolo(hand: int, ps: Any) -> bool:
    """A Pflichtsolo hand by the thresholds ``ps`` (trumps, short trumps, high count, suits)."""
    trumps = popcount(hand & K.TRUMPS)
    if trumps >= ps[0]:
        return True
    if trumps < ps[1]:
        return False
    high = popcount(hand & K.TRUMPS & ~((1 << HIGH_FROM) - 1))
    colours = 0
    for s in range(4):
        if hand & K.SUIT_MASK[s]:
            colours += 1
    return bool(high >= ps[2] and colours <= ps[3])


@jit
def expected_solo(hand: int, model: Any) -> float:
    """``bidding.expected_solo``: the model's expected Solo of a hand."""
    trumps = hand & K.TRUMPS
    kings = 0
    voids = 0
    for s in range(4):
        kings += (hand >> (22 + 8 * s + 7)) & 1
        if not hand & K.SUIT_MASK[s]:
            voids += 1
    return float(
        model[0]
        + model[1] * popcount(trumps)
        + model[2] * popcount(trumps >> 17)
        + model[3] * popcount(trumps >> 20)
        + model[4] * kings
        + model[5] * voids
        + model[6] * (hand & 1)
    )


@jit
def solo_chance(hand: int, model: Any) -> float:
    """How likely the bots announce a Solo on ``hand`` (``bidding.SOLO_SPREAD``)."""
    x = (expected_solo(hand, model) - SOLO_BAR) / SOLO_SPREAD
    if x > 30.0:
        return 1.0
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@jit
def _lowest_ladder(sub: Any, ex: Any, value: int) -> None:
    """Option ``sub`` becomes the lowest ladder contract (exchange ``ex``) at ``value``."""
    sub[O_CONTRACT] = K.LADDER
    sub[O_VALUE] = value
    sub[O_LAY_N] = ex[0]
    sub[O_LAY_KIND] = ex[1]
    sub[O_KEEP] = ex[2]
    sub[O_PRESS_KIND] = ex[3]


@jit_alloc
def _continue(
    st: Any, rules: Any, opt: Any, hidden: int, removed: int, ex: Any, geg: Any, model: Any,
    rs: Any, me: int, out: Any,
) -> float:  # fmt: skip
    """The seat's value when the game goes on after its ``fort``: a later seat of the Solo
    round announces a Solo when the bots would (``bidding``), the first of them plays it
    unless another seat answers with Gegensolo (:func:`_answered_solo`); else
    Vorhand keeps its Cego in the auction and plays it (``O_VALUE`` 0) or announces Räuber
    (``O_VALUE`` 1)."""
    later = opt[O_LATER]
    o = st.copy()
    sub = np.full(OPTION_FIELDS, -1, dtype=np.int64)
    sub[O_STAGE] = 0
    vorhand = st[K.TO_ACT]
    declarer = -1
    s = vorhand
    while True:
        if (later >> s) & 1 and expected_solo(st[K.HAND + s], model) > SOLO_BAR:
            declarer = s
            break
        s = st[K.NEXT + s]
        if s == vorhand:
            break
    if declarer >= 0:
        if geg[0]:
            others = 0
            t = st[K.NEXT + declarer]
            while t != declarer:
                others |= 1 << t
                t = st[K.NEXT + t]
            return _answered_solo(
                st, rules, declarer, rules[K.R_SOLO_VALUE], others, hidden, removed, ex, geg,
                rs, me, out,
            )  # fmt: skip
        sub[O_CONTRACT] = K.SOLO
        sub[O_VALUE] = rules[K.R_SOLO_VALUE]
    elif opt[O_VALUE] == 1:
        sub[O_CONTRACT] = K.RAEUBER
        declarer = vorhand
    else:
        declarer = vorhand
        _lowest_ladder(sub, ex, 1)
    sub[O_DECLARER] = declarer
    _copy(o, st)
    if not setup_contract(o, rules, sub, hidden, removed):
        return 0.0
    P.finish(o, P.HEURISTIC, rs)
    out[:] = 0
    K.settle(o, rules, out)
    return relative(out, me, o)


@jit_alloc
def _answered_solo(
    st: Any, rules: Any, soloist: int, value: int, answer: int, hidden: int, removed: int,
    ex: Any, geg: Any, rs: Any, me: int, out: Any,
) -> float:  # fmt: skip
    """The seat's value of a Solo that the seats of ``answer`` (bits) may answer with
    Gegensolo, in seat order from the soloist (``geg``: Gegensolo allowed, the value of the
    Cego it holds). Each says Gegensolo when its Cego, played out in this deal, beats its share
    of the Solo played out; the first to do so plays the Cego (the auction's further raises are
    left out). Valued as if nobody could answer it, a three-player Solo of Vorhand was worth
    +12 a deal where, every one answered, it played at −12.5 (``docs/bots.md``)."""
    o = st.copy()
    sub = np.full(OPTION_FIELDS, -1, dtype=np.int64)
    sub[O_STAGE] = 0
    sub[O_CONTRACT] = K.SOLO
    sub[O_DECLARER] = soloist
    sub[O_VALUE] = value
    setup_contract(o, rules, sub, hidden, removed)
    P.finish(o, P.HEURISTIC, rs)
    out[:] = 0
    K.settle(o, rules, out)
    solo = out.copy()
    if geg[0]:
        c = st.copy()
        _lowest_ladder(sub, ex, geg[1])
        s = st[K.NEXT + soloist]
        while s != soloist:
            if (answer >> s) & 1:
                _copy(c, st)
                sub[O_DECLARER] = s
                if setup_contract(c, rules, sub, hidden, removed):
                    P.finish(c, P.HEURISTIC, rs)
                    out[:] = 0
                    K.settle(c, rules, out)
                    if relative(out, s, c) > relative(solo, s, o):
                        return relative(out, me, c)
            s = st[K.NEXT + s]
    return relative(solo, me, o)


@jit_alloc
def contract_values(
    template: Any, kn: Any, leans: Any, rules: Any, removed: int, options: Any, ps: Any,
    ex: Any, geg: Any, passed: int, model: Any, eps: float, worlds: int, rs: Any, values: Any,
    logw: Any, soloist: int,
) -> int:  # fmt: skip
    """Each option (a row of ``options``) played out in ``worlds`` sampled deals:
    ``values[w, i]`` the seat's settlement against the table's mean. ``logw[w]``: the world's
    log-likelihood given the Solo round: each seat of ``passed`` (it said fort while no Solo
    stood) passed with the chance the bots would (``model``), and one that holds a Pflichtsolo
    (thresholds ``ps``) scores ``log(eps)`` more; ``soloist`` (-1: none) announced with the
    chance the bots would. ``ex``: the exchange of the lowest ladder contract; ``geg``: whether
    a Solo may be answered with Gegensolo and the value of the Cego that answers it (a Solo
    option with ``O_LATER`` set is played out as :func:`_answered_solo`)."""
    me = kn[W.K_SEAT]
    world = template.copy()
    st = template.copy()
    out = np.zeros(5, dtype=np.int64)
    for w in range(worlds):
        _copy(world, template)
        hidden = W.sample_world(world, kn, leans, rs)
        if hidden < 0:
            return w
        if kn[W.K_OUT_KNOWN] >= 0:
            hidden = kn[W.K_OUT_KNOWN]
        ll = 0.0
        for s in range(5):
            if (passed >> s) & 1:
                hand = world[K.HAND + s]
                ll += math.log(max(1.0 - solo_chance(hand, model), FLOOR))
                if pflichtsolo(hand, ps):
                    ll += math.log(eps)
        if soloist >= 0 and soloist != me:
            ll += math.log(max(solo_chance(world[K.HAND + soloist], model), FLOOR))
        logw[w] = ll
        for i in range(options.shape[0]):
            opt = options[i]
            _copy(st, world)
            if opt[O_CONTRACT] == CONTINUE:
                values[w, i] = _continue(
                    st, rules, opt, hidden, removed, ex, geg, model, rs, me, out
                )
                continue
            if opt[O_CONTRACT] == K.SOLO and opt[O_LATER] > 0:
                values[w, i] = _answered_solo(
                    st, rules, opt[O_DECLARER], opt[O_VALUE], opt[O_LATER], hidden, removed, ex,
                    geg, rs, me, out,
                )  # fmt: skip
                continue
            if not setup_contract(st, rules, opt, hidden, removed):
                values[w, i] = 0.0
                continue
            P.finish(st, P.HEURISTIC, rs)
            out[:] = 0
            K.settle(st, rules, out)
            values[w, i] = relative(out, me, st)
    return worlds


@jit_alloc
def sample_worlds(
    base: Any, kn: Any, leans: Any, worlds: int, rs: Any, hands: Any, hidden: Any, logw: Any,
    events: Any, n_ev: int, laid_out: int, eps: float, banned: Any,
) -> int:  # fmt: skip
    """The worlds :func:`search_weighted` would sample, for tests and the inference benchmark:
    ``hands[w, s]`` every seat's hand in world ``w``, ``hidden[w]`` the cards outside the hands,
    ``logw[w]`` the world's log-likelihood."""
    seat = kn[W.K_SEAT]
    world = base.copy()
    start = base.copy()
    for w in range(worlds):
        _copy(world, base)
        h = sample_world(world, kn, leans, rs, banned)
        if h < 0:
            return w
        for s in range(5):
            hands[w, s] = world[K.HAND + s]
        hidden[w] = h
        logw[w] = 0.0
        if n_ev > 0:
            start_row(world, start, laid_out, events, n_ev)
            logw[w] = replay_loglik(start, events, n_ev, seat, eps)
    return worlds
