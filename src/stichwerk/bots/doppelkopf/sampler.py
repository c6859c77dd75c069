"""The search bots' Doppelkopf world sampler on the compiled kernel, and the plain PIMC over it.

:func:`sample_world` mirrors :func:`stichwerk.bots.doppelkopf.world.sample_world` and
``world.fast_from``: the bot packs what a seat knows into a row (``D_*``, by
``rollouts.knowledge_rows``) and the soft weights into a float row (``F_*``), and the sampler deals
the unseen cards into a kernel row (:mod:`stichwerk.doppelkopf.kernel`) consistently with it and
sets that world's parties and announcements. :func:`search_worlds` samples worlds, plays each
candidate card in each and finishes the deal by the roll-out policy
(:mod:`stichwerk.bots.doppelkopf.playout`); :func:`sample_many` only samples (a benchmark).
Compiled with numba; imported only when numba is there (``rollouts.available()``).
"""

from typing import Any

import numpy as np

from stichwerk.bots.doppelkopf.playout import HEURISTIC, finish_into
from stichwerk.core.kernel import below, jit, jit_alloc, lowest, popcount, uniform
from stichwerk.doppelkopf.kernel import (
    CQ,
    CQ_BOTH,
    GAME,
    GAME_SCHEME,
    HAND,
    NEXT,
    O_CLS,
    ORDER,
    PARTY,
    SAU_SEAT,
    SOLO_STILL,
    SOLOIST,
    SUPERSAU_SEAT,
    TO_ACT,
    Row,
    announce,
    play,
    settle,
)
from stichwerk.doppelkopf.trumps import TRUMP

# --------------------------------------------------------------------------- sampled worlds
# A mirror of stichwerk.bots.doppelkopf.world.sample_world and fast_from for the search: the
# bot packs what the seat knows into a row (``D_*``) and the weights into a float row.

D_SEAT = 0
D_UNSEEN = 1
D_NH = 2  # holders: a seat, or the two halves (trumps, the rest) of one known to hold n trumps
D_IMPOSSIBLE = 3
D_NORMAL_PARTIES = 4  # the parties of a normal game come from the sampled Kreuz-Damen
D_TO_ACT = 5
D_N_UNLIKELY = 6
D_N_ANN = 7
D_H_SEAT = 8
D_H_ONLY = 14  # cards each holder may take (strict: the barred cards left out) ...
D_H_LOOSE = 20  # ... and the last resort without them
D_H_ROOM = 26
D_MUST = 32
D_PLAYED_BY = 37
D_ORDER = 42
D_UNLIKELY = 46  # (seat, code) pairs
D_ANN_LOG = 70  # (seat, act) pairs
D_FIELDS = 102
F_WEIGHT = 0
F_ODDS = 6
F_FIELDS = 18


@jit_alloc
def _placeable(groups: Any, room: Any, nh: int) -> bool:
    """Hall's condition: for every set of holders, the cards only they may take fit."""
    if groups[0]:
        return False
    size = 1 << nh
    need = groups[:size].copy()
    for v in range(nh):
        bit = 1 << v
        for mask in range(size):
            if mask & bit:
                need[mask] += need[mask ^ bit]
    for mask in range(1, size):
        space = 0
        for v in range(nh):
            if (mask >> v) & 1:
                space += room[v]
        if need[mask] > space:
            return False
    return True


@jit_alloc
def _try_sample(
    kn: Row, kf: Any, orders: Any, oi: int, rs: Any, exact: bool, strict: bool, hands: Any
) -> bool:
    if kn[D_IMPOSSIBLE]:
        return False
    nh = kn[D_NH]
    room = np.zeros(6, dtype=np.int64)
    for v in range(nh):
        room[v] = kn[D_H_ROOM + v]
    for s in range(5):
        hands[s] = kn[D_MUST + s]
    hands[kn[D_SEAT]] = 0
    rest = kn[D_UNSEEN]
    for s in range(5):
        rest &= ~kn[D_MUST + s]
    cards = np.empty(48, dtype=np.int64)
    n = 0
    m = rest
    while m:
        cards[n] = lowest(m)
        m &= m - 1
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    holders = np.zeros(48, dtype=np.int64)
    counts = np.zeros(48, dtype=np.int64)
    groups = np.zeros(64, dtype=np.int64)
    for i in range(n):
        g = 0
        cnt = 0
        for v in range(nh):
            only = kn[D_H_ONLY + v] if strict else kn[D_H_LOOSE + v]
            if (only >> cards[i]) & 1:
                g |= 1 << v
                cnt += 1
        holders[i] = g
        counts[i] = cnt
        if exact:
            groups[g] += 1
    if exact and not _placeable(groups, room, nh):
        return False
    for size in range(nh + 1):
        for i in range(n):
            if counts[i] != size:
                continue
            card = cards[i]
            trump = orders[oi, O_CLS + (card >> 1)] == TRUMP
            g = holders[i]
            options = 0
            for v in range(nh):
                if (g >> v) & 1 and room[v] > 0:
                    options |= 1 << v
            if exact:
                groups[g] -= 1
            chosen = -1
            while options:
                total = 0.0
                for v in range(nh):
                    if (options >> v) & 1:
                        total += room[v] * (kf[F_WEIGHT + v] if trump else 1.0)
                pick = uniform(rs) * total
                for v in range(nh):
                    if (options >> v) & 1:
                        chosen = v
                        pick -= room[v] * (kf[F_WEIGHT + v] if trump else 1.0)
                        if pick < 0:
                            break
                if not exact:
                    break
                room[chosen] -= 1
                ok = _placeable(groups, room, nh)
                room[chosen] += 1
                if ok:
                    break
                options &= ~(1 << chosen)
                chosen = -1
            if chosen < 0:
                return False
            room[chosen] -= 1
            hands[kn[D_H_SEAT + chosen]] |= 1 << card
    return True


@jit
def _unlikely(kn: Row, kf: Any, hands: Any, rs: Any) -> bool:
    for j in range(kn[D_N_UNLIKELY]):
        s = kn[D_UNLIKELY + 2 * j]
        both = 3 << (2 * kn[D_UNLIKELY + 2 * j + 1])
        if (hands[s] | kn[D_PLAYED_BY + s]) & both == both and uniform(rs) < kf[F_ODDS + j]:
            return True
    return False


@jit_alloc
def sample_world(st: Row, kn: Row, kf: Any, orders: Any, rs: Any, counters: Any, ann: Any) -> bool:
    """Deal the unseen cards into the row's other hands consistently with the seat's knowledge
    and set the parties and announcements of that world (``world.sample_world`` and
    ``world.fast_from``); ``counters``: the worlds kept and thrown back as unlikely, so far."""
    oi = st[ORDER]
    hands = np.zeros(5, dtype=np.int64)
    found = False
    for attempt in range(24):
        if not _try_sample(kn, kf, orders, oi, rs, attempt >= 3, True, hands):
            continue
        soft = attempt < 12 and counters[1] < 12 + 3 * counters[0]
        if soft and _unlikely(kn, kf, hands, rs):
            counters[1] += 1
            continue
        counters[0] += 1
        found = True
        break
    if not found:
        found = _try_sample(kn, kf, orders, oi, rs, True, True, hands)
        if not found:
            found = _try_sample(kn, kf, orders, oi, rs, True, False, hands)
        if not found:
            return False
    seat = kn[D_SEAT]
    for s in range(5):
        if s != seat and st[NEXT + s] >= 0:
            st[HAND + s] = hands[s]
    if kn[D_NORMAL_PARTIES]:
        soloist = -1
        for j in range(4):
            s = kn[D_ORDER + j]
            if popcount((st[HAND + s] | kn[D_PLAYED_BY + s]) & CQ_BOTH) == 2:
                soloist = s
                break
        if soloist >= 0:
            st[SOLOIST] = soloist
            for j in range(4):
                s = kn[D_ORDER + j]
                st[PARTY + s] = 0 if s == soloist else 1
            st[GAME] = SOLO_STILL
            sau = 1 if st[SAU_SEAT] >= 0 else 0
            supersau = 1 if st[SUPERSAU_SEAT] >= 0 else 0
            st[ORDER] = GAME_SCHEME[SOLO_STILL] * 4 + 2 * sau + supersau
        else:
            for j in range(4):
                s = kn[D_ORDER + j]
                held_cq = (st[HAND + s] | kn[D_PLAYED_BY + s]) & CQ_BOTH
                st[PARTY + s] = 0 if held_cq else 1
    for j in range(kn[D_N_ANN]):
        s = kn[D_ANN_LOG + 2 * j]
        if st[PARTY + s] >= 0:
            announce(st, s, kn[D_ANN_LOG + 2 * j + 1], 12, ann)
    if kn[D_TO_ACT] >= 0:
        st[TO_ACT] = kn[D_TO_ACT]
    return True


@jit
def relative(out: Any, seat: int, kn: Row) -> float:
    """A seat's settlement against the table's mean (``world.relative``)."""
    total = 0.0
    for j in range(4):
        total += out[kn[D_ORDER + j]]
    return float(out[seat]) - total / 4.0


@jit_alloc
def search_worlds(
    base: Row, kn: Row, kf: Any, prof: Row, orders: Any, ann: Any, pol_i: Any, pol_f: Any,
    cards: Any, word: int, public: Any, use_public: bool, worlds: int, rs: Any, counters: Any,
    values: Any, said: Any,
) -> int:  # fmt: skip
    """PIMC for one decision: ``worlds`` sampled worlds; in each every card of ``cards`` is
    played and the deal finished by the roll-out policy; ``values[w, i]`` gets the seat's
    settlement against the table's mean and, with ``word`` (an act 0..5, or -1), ``said[w, i]``
    the same with the word said. Returns the worlds done (fewer only when no world fits)."""
    seat = kn[D_SEAT]
    shown = public.copy()
    shown[seat] = 0
    out = np.zeros(5, dtype=np.int64)
    team = np.empty(5, dtype=np.int64)
    known = np.empty(5, dtype=np.int64)
    world = base.copy()
    st = base.copy()
    for w in range(worlds):
        _copy(world, base)
        if not sample_world(world, kn, kf, orders, rs, counters, ann):
            return w
        for i in range(cards.shape[0]):
            _copy(st, world)
            play(st, cards[i], prof, orders)
            pub = shown if cards[i] >> 1 == CQ else public
            _copy(known, pub)
            finish_into(st, HEURISTIC, rs, prof, orders, pol_i, pol_f, known, use_public, team)
            out[:] = 0
            settle(st, prof, out)
            values[w, i] = relative(out, seat, kn)
            if word >= 0:
                announce(st, seat, word, 12, ann)
                out[:] = 0
                settle(st, prof, out)
                said[w, i] = relative(out, seat, kn)
    return worlds


@jit
def _copy(dst: Any, src: Any) -> None:
    for j in range(src.shape[0]):
        dst[j] = src[j]


@jit_alloc
def sample_many(
    base: Row, kn: Row, kf: Any, orders: Any, ann: Any, worlds: int, rs: Any, counters: Any
) -> int:
    """Sample ``worlds`` worlds and throw them away (the determinizations benchmark)."""
    found = 0
    st = base.copy()
    for _ in range(worlds):
        _copy(st, base)
        if sample_world(st, kn, kf, orders, rs, counters, ann):
            found += 1
    return found
