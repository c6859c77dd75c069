"""The search's compiled parts beyond the kernel's play: inference, weighted PIMC, reservations.

Built on :mod:`stichwerk.doppelkopf.kernel` (its rows, play and settlement), the roll-out
policy (:mod:`~stichwerk.bots.doppelkopf.playout`) and the world sampler
(:mod:`~stichwerk.bots.doppelkopf.sampler`), and compiled with numba like them; imported only
when numba is there (``rollouts.available()``).

- :func:`replay_loglik`: the log-likelihood of the other seats' cards so far in a sampled world.
  The deal is replayed from its first card with the world's hands; at each card another seat
  chose among several, the roll-out policy (the bots' own) says what it would have played from
  that seat's knowledge, and the card played scores ``log(1 - eps + eps / n)`` if it is that card,
  else ``log(eps / n)`` (``n`` the distinct cards it could play): the policy trembling with
  probability ``eps``.
- :func:`search_weighted`: PIMC for a card (and the announcements open beside it): every world
  is sampled, weighted by the replay, and each candidate card is played in it and the deal
  finished by the policy; the seat's settlement against the table's mean, and the same with each
  open announcement said, per world.
- :func:`reservation_values`: the reservations, each played out in sampled deals of the other
  hands: the normal game (``gesund``; with both Kreuz-Damen a Stilles Solo), the Hochzeit, every
  solo, the Armut (offered round by the bots' taking rule, the cards given back by their rule),
  and a redeal (worth 0).
"""

import math
from typing import Any

import numpy as np

from stichwerk.bots.doppelkopf import playout as P
from stichwerk.bots.doppelkopf import sampler as W
from stichwerk.core.kernel import jit, jit_alloc, lowest, popcount
from stichwerk.doppelkopf import kernel as K
from stichwerk.doppelkopf.trumps import TRUMP

EV_CARD, EV_WORD, EV_SAU, EV_SUPERSAU = 0, 1, 2, 3
REDEAL = -1
"""An option that ends the deal without a game (Neu Geben, Schmeißen): worth 0."""
ARMUT = K.GAME_CODE["armut"]
NORMAL = K.NORMAL
HOCHZEIT = K.HOCHZEIT
CQ = K.CQ
EVEN = K.EVEN


@jit
def _copy(dst: Any, src: Any) -> None:
    for j in range(src.shape[0]):
        dst[j] = src[j]


@jit
def start_row(world: Any, start: Any, kn: Any, hochzeit: bool) -> None:
    """``start``: the deal of ``world`` at its first card (the hands with every card each seat
    has played since, nothing played, nothing said). ``hochzeit``: the game began as one."""
    _copy(start, world)
    for s in range(5):
        start[K.HAND + s] = world[K.HAND + s] | kn[W.D_PLAYED_BY + s]
        start[K.AUGEN + s] = 0
        start[K.WON + s] = 0
        start[K.VOIDS + s] = 0
    start[K.TLEN] = 0
    start[K.TRICK_NO] = 0
    start[K.PLAYED] = 0
    start[K.LOG_N] = 0
    start[K.OVER] = 0
    start[K.ANN] = 0
    start[K.ANN + 1] = 0
    start[K.ANS_FIRST] = -1
    start[K.ANS_SECOND] = -1
    start[K.SAU_SEAT] = -1
    start[K.SUPERSAU_SEAT] = -1
    start[K.CLARIFIED] = 0
    start[K.SHIFT] = 0
    if hochzeit:
        h = start[K.HOCHZEITER]
        start[K.GAME] = HOCHZEIT
        start[K.SOLOIST] = -1
        for s in range(5):
            if start[K.NEXT + s] >= 0:
                start[K.PARTY + s] = 0 if s == h else -1
    start[K.ORDER] = K.GAME_SCHEME[start[K.GAME]] * 4


@jit
def replay_loglik(
    st: Any, hist: Any, n_ev: int, me: int, prof: Any, orders: Any, ann: Any, pol_i: Any,
    pol_f: Any, eps: float, use_public: bool, known: Any, team: Any,
) -> float:  # fmt: skip
    """Replay ``n_ev`` events of ``hist`` (rows of kind, seat, value) on ``st`` (a
    :func:`start_row`) and return the log-likelihood of the other seats' cards under the
    trembling policy (see the module docstring). ``known``: the parties as the table knows them
    at the start (changed)."""
    ll = 0.0
    rule = prof[K.P_PARTNER_RULE]
    for e in range(n_ev):
        kind = hist[e, 0]
        seat = hist[e, 1]
        value = hist[e, 2]
        if kind == EV_CARD:
            st[K.TO_ACT] = seat
            if seat != me:
                mask = K.legal(st, orders)
                distinct = mask & ~((mask & EVEN) << 1)
                n = popcount(distinct)
                if n > 1 and (mask >> value) & 1:
                    if use_public and st[K.GAME] == NORMAL:
                        P.as_seen(st, known, seat, team)
                    else:
                        for s in range(5):
                            team[s] = st[K.PARTY + s]
                    card = P.choose_card(st, seat, mask, team, prof, orders, pol_i, pol_f, rule)
                    if card >> 1 == value >> 1:
                        ll += math.log(1.0 - eps + eps / n)
                    else:
                        ll += math.log(eps / n)
            K.play(st, value, prof, orders)
            if value >> 1 == CQ and known[seat] < 0:
                known[seat] = 0
                re = 0
                for s in range(5):
                    if known[s] == 0:
                        re += 1
                if re == 2:
                    for s in range(5):
                        if known[s] < 0 and st[K.PARTY + s] >= 0:
                            known[s] = 1
        elif kind == EV_WORD:
            if st[K.PARTY + seat] >= 0:
                K.announce(st, seat, value, 12, ann)
                known[seat] = st[K.PARTY + seat]
        elif kind == EV_SAU:
            K.show_sau(st, seat)
        else:
            K.show_supersau(st, seat)
    return ll


@jit_alloc
def search_weighted(
    base: Any, kn: Any, kf: Any, prof: Any, orders: Any, ann: Any, pol_i: Any, pol_f: Any,
    cards: Any, words: Any, public: Any, use_public: bool, worlds: int, rs: Any, counters: Any,
    values: Any, said: Any, logw: Any, hist: Any, n_ev: int, hochzeit: bool, eps: float,
    infer: bool,
) -> int:  # fmt: skip
    """Weighted PIMC for one decision. ``worlds`` worlds are sampled; ``logw[w]`` gets world
    ``w``'s log-likelihood (0 without ``infer``), ``values[w, i]`` the seat's settlement
    against the table's mean after card ``cards[i]`` and the policy to the end, ``said[w, i, j]``
    the same with announcement ``words[j]`` said too. Returns the worlds done (fewer only when
    no world fits)."""
    seat = kn[W.D_SEAT]
    shown = public.copy()
    shown[seat] = 0
    out = np.zeros(5, dtype=np.int64)
    team = np.empty(5, dtype=np.int64)
    known = np.empty(5, dtype=np.int64)
    world = base.copy()
    st = base.copy()
    st2 = base.copy()
    start = base.copy()
    n_words = words.shape[0]
    for w in range(worlds):
        _copy(world, base)
        if not W.sample_world(world, kn, kf, orders, rs, counters, ann):
            return w
        logw[w] = 0.0
        if infer and n_ev > 0:
            start_row(world, start, kn, hochzeit)
            for s in range(5):
                known[s] = -1 if start[K.GAME] == NORMAL else start[K.PARTY + s]
            logw[w] = replay_loglik(
                start, hist, n_ev, seat, prof, orders, ann, pol_i, pol_f, eps, use_public,
                known, team,
            )  # fmt: skip
        for i in range(cards.shape[0]):
            _copy(st, world)
            K.play(st, cards[i], prof, orders)
            if cards[i] >> 1 == CQ:
                _copy(known, shown)
            else:
                _copy(known, public)
            P.finish_into(st, P.HEURISTIC, rs, prof, orders, pol_i, pol_f, known, use_public, team)
            out[:] = 0
            K.settle(st, prof, out)
            values[w, i] = W.relative(out, seat, kn)
            for j in range(n_words):
                _copy(st2, st)
                K.announce(st2, seat, words[j], 12, ann)
                out[:] = 0
                K.settle(st2, prof, out)
                said[w, i, j] = W.relative(out, seat, kn)
    return worlds


@jit
def _return_score(hand: int, back: int, orders: Any, oi: int) -> float:
    """The bots' rule for the cards an Armut taker gives back (``heuristic.return_score``)."""
    score = 0.0
    m = back
    while m:
        c = lowest(m)
        m &= m - 1
        code = c >> 1
        if orders[oi, K.O_CLS + code] == TRUMP:
            score -= 30.0 + orders[oi, K.O_POWER + code] * 0.1
        else:
            score += K.AUGEN_OF_ID[c] * 0.3
    left = hand & ~back
    for suit in range(4):
        mask = orders[oi, K.O_MASKS + suit]
        if hand & mask and not left & mask:
            score += 8.0
    return score


@jit_alloc
def _best_return(hand: int, n: int, orders: Any, oi: int) -> int:
    """The ``n`` cards of ``hand`` the taker gives back (the best :func:`_return_score`)."""
    ids = np.empty(48, dtype=np.int64)
    size = 0
    m = hand
    while m:
        ids[size] = lowest(m)
        m &= m - 1
        size += 1
    if n <= 0 or n > size:
        return 0
    idx = np.arange(n)
    best = 0
    best_score = -1e18
    while True:
        back = 0
        for j in range(n):
            back |= 1 << ids[idx[j]]
        score = _return_score(hand, back, orders, oi)
        if score > best_score:
            best_score = score
            best = back
        j = n - 1
        while j >= 0 and idx[j] == size - n + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, n):
            idx[t] = idx[t - 1] + 1
    return best


@jit
def _takes(hand: int, trump_mask: int, high: int, take: Any) -> bool:
    """The bots' rule for taking an Armut (``heuristic.takes_armut``)."""
    trumps = popcount(hand & trump_mask)
    top = popcount(hand & high)
    return bool((trumps >= take[0] and top >= take[1]) or (trumps >= take[2] and top >= take[3]))


@jit_alloc
def _armut(st: Any, kn: Any, me: int, passed: int, trump_mask: int, high: int, take: Any,
           orders: Any) -> bool:  # fmt: skip
    """Play out the offer of an Armut by ``me``: the first seat that takes by the bots' rule
    takes the passed cards and gives back as many by theirs; the game is set up in ``st``.
    ``False`` when nobody takes (a redeal)."""
    order = np.empty(4, dtype=np.int64)
    mine = 0
    for j in range(4):
        order[j] = kn[W.D_ORDER + j]
        if order[j] == me:
            mine = j
    taker = -1
    for k in range(1, 4):
        s = order[(mine + k) % 4]
        if _takes(st[K.HAND + s], trump_mask, high, take):
            taker = s
            break
    if taker < 0:
        return False
    oi = K.GAME_SCHEME[NORMAL] * 4
    full = st[K.HAND + taker] | passed
    back = _best_return(full, popcount(passed), orders, oi)
    st[K.HAND + taker] = full & ~back
    st[K.HAND + me] = (st[K.HAND + me] & ~passed) | back
    for j in range(4):
        s = order[j]
        st[K.PARTY + s] = 0 if (s == me or s == taker) else 1
    st[K.GAME] = ARMUT
    st[K.ORDER] = oi
    st[K.SOLOIST] = -1
    return True


@jit_alloc
def reservation_values(
    template: Any, kn: Any, kf: Any, prof: Any, orders: Any, ann: Any, pol_i: Any, pol_f: Any,
    options: Any, leaders: Any, silent: bool, passed: int, trump_mask: int, high: int,
    take: Any, gesund: int, armut_mask: int, armut_max: int, eps: float, worlds: int, rs: Any,
    counters: Any, values: Any, logw: Any, said: Any,
) -> int:  # fmt: skip
    """Each reservation option of the seat played out in ``worlds`` sampled deals of the other
    hands: ``values[w, i]`` the seat's settlement against the table's mean under
    ``options[i]`` (a game code: the normal game, the Hochzeit, a solo, the Armut; or
    :data:`REDEAL`), led by ``leaders[i]``. ``logw[w]``: the log-likelihood of the world given
    the seats that said gesund before (bit set ``gesund``): a hand the bots would have
    declared an Armut with (at most ``armut_max`` trumps of ``armut_mask``) scores
    ``log(eps)``. ``said[w, i, p, q]``: the same had the seat said announcement plan ``p``
    (:data:`PLANS`; 0 nothing) before the first card and the other party answered ``q`` (0
    nothing, 1 its word, Kontra or Re), each where the rules allow it: in a solo every
    announcement counts with the solo's factor."""
    me = kn[W.D_SEAT]
    out = np.zeros(5, dtype=np.int64)
    team = np.empty(5, dtype=np.int64)
    none = np.full(5, -1, dtype=np.int64)
    known = np.empty(5, dtype=np.int64)
    world = template.copy()
    st = template.copy()
    st2 = template.copy()
    n_plans = said.shape[2]
    n_answers = said.shape[3]
    for w in range(worlds):
        _copy(world, template)
        if not W.sample_world(world, kn, kf, orders, rs, counters, ann):
            return w
        ll = 0.0
        for s in range(5):
            if (gesund >> s) & 1 and popcount(world[K.HAND + s] & armut_mask) <= armut_max:
                ll += math.log(eps)
        logw[w] = ll
        for i in range(options.shape[0]):
            game = options[i]
            if game == REDEAL:
                values[w, i] = 0.0
                said[w, i, :, :] = 0.0
                continue
            _copy(st, world)
            if game == ARMUT:
                if not _armut(st, kn, me, passed, trump_mask, high, take, orders):
                    values[w, i] = 0.0
                    said[w, i, :, :] = 0.0
                    continue
            elif game == NORMAL:
                K.start_game(st, NORMAL, -1, silent)
            elif game == HOCHZEIT:
                K.start_game(st, NORMAL, -1, False)
            else:
                K.start_game(st, game, me, False)
            st[K.TO_ACT] = leaders[i]
            st[K.SAU_POSSIBLE] = prof[K.P_SAU_ACE + st[K.GAME]] >= 0
            _copy(known, none)
            P.finish_into(st, P.HEURISTIC, rs, prof, orders, pol_i, pol_f, known, True, team)
            out[:] = 0
            K.settle(st, prof, out)
            values[w, i] = W.relative(out, me, kn)
            for p in range(n_plans):
                for q in range(n_answers):
                    said[w, i, p, q] = _with_plan(st, st2, me, p, q, prof, ann, out, kn)
    return worlds


PLANS = 6
"""Announcement plans of :func:`reservation_values`: 0 nothing, 1 the party's word (Re or
Kontra), 2 to 5 the word and an Absage (keine 90, 60, 30, schwarz); the other party's answer
is 0 nothing or 1 its word (``ANSWERS``)."""
ANSWERS = 2


@jit
def _with_plan(
    st: Any, st2: Any, me: int, plan: int, answer: int, prof: Any, ann: Any, out: Any, kn: Any
) -> float:
    """The settlement of the finished deal ``st`` had ``me`` said announcement ``plan`` at the
    start (12 cards held: no deadline passed) and a seat of the other party ``answer``; a word
    the rules refuse is left out."""
    _copy(st2, st)
    party = st2[K.PARTY + me]
    if party >= 0 and plan > 0:
        if K.announce(st2, me, party, 12, ann) and plan > 1:
            K.announce(st2, me, plan, 12, ann)
    if party >= 0 and answer > 0:
        for s in range(5):
            if st2[K.NEXT + s] >= 0 and st2[K.PARTY + s] == 1 - party:
                K.announce(st2, s, 1 - party, 12, ann)
                break
    out[:] = 0
    K.settle(st2, prof, out)
    return W.relative(out, me, kn)


@jit_alloc
def sample_worlds(
    base: Any, kn: Any, kf: Any, prof: Any, orders: Any, ann: Any, pol_i: Any, pol_f: Any,
    public: Any, use_public: bool, worlds: int, rs: Any, counters: Any, hands: Any, logw: Any,
    hist: Any, n_ev: int, hochzeit: bool, eps: float,
) -> int:  # fmt: skip
    """The worlds :func:`search_weighted` would sample, for tests and the inference benchmark:
    ``hands[w, s]`` every seat's hand in world ``w``, ``logw[w]`` its log-likelihood."""
    seat = kn[W.D_SEAT]
    team = np.empty(5, dtype=np.int64)
    known = np.empty(5, dtype=np.int64)
    world = base.copy()
    start = base.copy()
    for w in range(worlds):
        _copy(world, base)
        if not W.sample_world(world, kn, kf, orders, rs, counters, ann):
            return w
        for s in range(5):
            hands[w, s] = world[K.HAND + s]
        logw[w] = 0.0
        if n_ev > 0:
            start_row(world, start, kn, hochzeit)
            for s in range(5):
                known[s] = -1 if start[K.GAME] == NORMAL else start[K.PARTY + s]
            logw[w] = replay_loglik(
                start, hist, n_ev, seat, prof, orders, ann, pol_i, pol_f, eps, use_public,
                known, team,
            )  # fmt: skip
    return worlds
