"""The search bots' Cego world sampler on the compiled kernel, and the plain PIMC over it.

:func:`sample_world` mirrors :func:`stichwerk.bots.cego.world.sample_world`: the bot packs what a
seat knows into a knowledge row (``K_*``, by ``rollouts.knowledge_row``) with the weights of the
lean, and the sampler deals the unseen cards into a kernel row (:mod:`stichwerk.cego.kernel`)
consistently with it. :func:`search_worlds` samples worlds, plays each candidate card in each
and finishes the deal by the roll-out policy (:mod:`stichwerk.bots.cego.playout`);
:func:`sample_many` only samples (a benchmark). Compiled with numba; imported only when numba is
there (``rollouts.available()``).
"""

from typing import Any

import numpy as np

from stichwerk.bots.cego.playout import HEURISTIC, finish
from stichwerk.cego.kernel import HAND, OUTSIDE, SUIT_OF, TRUMP, Row, play, settle
from stichwerk.core.kernel import below, jit_alloc, lowest, uniform

# --------------------------------------------------------------------------- sampled worlds
# A mirror of stichwerk.bots.cego.world.sample_world for the search: a knowledge row (built by
# the bot from a seat's view) and the weights of the lean. Slots 0..2 are the other seats dealt
# in, slot 3 the cards outside every hand (blind or legage).

K_SEAT = 0
K_UNSEEN = 1
K_N_OTHERS = 2
K_LEAN_SLOT = 3  # the slot of the declarer the sampling leans on (-1: none)
K_HIDDEN_NEED = 4
K_OTHER = 5  # per slot: seat ...
K_NEED = 8  # ... cards to deal it ...
K_KNOWN = 11  # ... cards known in its hand ...
K_MUST = 14  # ... unseen cards it must hold ...
K_VOIDS = 17  # ... suits it has shown out of (bits 0..4, 4 = trumps)
K_OUT_KNOWN = 20  # the outside cards when the seat knows them (its own legage), else -1
K_FIELDS = 21
HIGH_TRUMP = 14
"""Index of T15, the lowest trump a Piccolo or Bettel player is shy of."""


@jit_alloc
def sample_world(st: Row, kn: Row, leans: Any, rs: Any) -> int:
    """Deal the unseen cards into the row's hands consistently with the seat's knowledge (as
    ``world.sample_world``); return the cards outside every hand, or -1 when no world fits."""
    for attempt in range(30):
        hidden = _try_sample(st, kn, leans, rs, attempt < 25)
        if hidden >= 0:
            return hidden
    return -1


@jit_alloc
def _try_sample(st: Row, kn: Row, leans: Any, rs: Any, use_voids: bool) -> int:
    n_others = kn[K_N_OTHERS]
    room = np.zeros(4, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    for i in range(n_others):
        room[i] = kn[K_NEED + i]
        hands[i] = kn[K_KNOWN + i]
    room[3] = kn[K_HIDDEN_NEED]
    hidden = 0
    rest = kn[K_UNSEEN]
    for i in range(n_others):
        forced = kn[K_MUST + i] & rest
        while forced:
            c = lowest(forced)
            forced &= forced - 1
            if room[i] <= 0:
                return -1
            hands[i] |= 1 << c
            room[i] -= 1
            rest &= ~(1 << c)
    cards = np.empty(54, dtype=np.int64)
    n = 0
    m = rest
    while m:
        cards[n] = lowest(m)
        m &= m - 1
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    holders = np.empty(54, dtype=np.int64)
    counts = np.empty(54, dtype=np.int64)
    for idx in range(n):
        suit = SUIT_OF[cards[idx]]
        h = 1 << 3
        cnt = 1
        for i in range(n_others):
            if not (use_voids and (kn[K_VOIDS + i] >> suit) & 1):
                h |= 1 << i
                cnt += 1
        holders[idx] = h
        counts[idx] = cnt
    lean = kn[K_LEAN_SLOT]
    for size in range(1, 5):
        for idx in range(n):
            if counts[idx] != size:
                continue
            card = cards[idx]
            open_ = 0
            for v in range(4):
                if (holders[idx] >> v) & 1 and room[v] > 0:
                    open_ |= 1 << v
            if open_ == 0:
                return -1
            chosen = -1
            if lean >= 0 and (open_ >> lean) & 1:
                if SUIT_OF[card] != TRUMP:
                    weight = leans[2]
                elif card < HIGH_TRUMP:
                    weight = leans[0]
                else:
                    weight = leans[1]
                total = 0.0
                for v in range(4):
                    if (open_ >> v) & 1:
                        total += room[v] * (weight if v == lean else 1.0)
                pick = uniform(rs) * total
                for v in range(4):
                    if (open_ >> v) & 1:
                        chosen = v
                        pick -= room[v] * (weight if v == lean else 1.0)
                        if pick < 0:
                            break
            else:
                total_i = 0
                for v in range(4):
                    if (open_ >> v) & 1:
                        total_i += room[v]
                pick_i = below(rs, total_i)
                for v in range(4):
                    if (open_ >> v) & 1:
                        chosen = v
                        pick_i -= room[v]
                        if pick_i < 0:
                            break
            room[chosen] -= 1
            if chosen == 3:
                hidden |= 1 << card
            else:
                hands[chosen] |= 1 << card
    for i in range(n_others):
        st[HAND + kn[K_OTHER + i]] = hands[i]
    return hidden


@jit_alloc
def search_worlds(
    base: Row,
    kn: Row,
    leans: Any,
    rules: Row,
    removed: int,
    cards: Any,
    worlds: int,
    rs: Any,
    totals: Any,
) -> int:
    """PIMC for one decision: ``worlds`` sampled worlds, each legal card of ``cards`` played in
    each and the deal finished by the roll-out policy; the seat's settlements are added to
    ``totals`` (one per card). Returns the roll-outs done (0 when no world fits)."""
    seat = kn[K_SEAT]
    st = base.copy()
    settlement = np.zeros(5, dtype=np.int64)
    done = 0
    for _ in range(worlds):
        world = base.copy()
        hidden = sample_world(world, kn, leans, rs)
        if hidden < 0:
            return done
        outside = kn[K_OUT_KNOWN] if kn[K_OUT_KNOWN] >= 0 else hidden
        world[OUTSIDE] = outside | removed
        for i in range(cards.shape[0]):
            st[:] = world
            play(st, cards[i])
            finish(st, HEURISTIC, rs)
            settlement[:] = 0
            settle(st, rules, settlement)
            totals[i] += settlement[seat]
            done += 1
    return done


@jit_alloc
def sample_many(base: Row, kn: Row, leans: Any, worlds: int, rs: Any) -> int:
    """Sample ``worlds`` worlds and throw them away (the determinizations benchmark)."""
    st = base.copy()
    found = 0
    for _ in range(worlds):
        if sample_world(st, kn, leans, rs) >= 0:
            found += 1
    return found
