"""The search bots' Doppelkopf roll-outs on the compiled kernel: the roll-out policy and the
play-outs that use it.

The rules of play are :mod:`stichwerk.doppelkopf.kernel`'s (legal cards, the trick, the
announcements, the settlement on ``int64`` rows); this module decides which card a seat plays
there. :func:`choose_card` mirrors :func:`stichwerk.bots.doppelkopf.policy.choose_card` line by
line, its numbers the bot's own tables (:class:`PolicyTables`, built by
``rollouts.policy_tables``); ``tests/kernel/`` checks the two card for card. The play-outs
finish deal rows by this policy or by uniformly random legal cards: :func:`finish` (one row),
:func:`play_out` and :func:`play_out_threaded` (K rows), :func:`random_deals` (K fresh deals the
kernel shuffles and deals). Compiled with numba like the kernel (``pip install
stichwerk[research]``); imported only when numba is there (``rollouts.available()``).
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stichwerk.bots.doppelkopf.policy import (
    FIGHT,
    S_CASH,
    S_FORCE,
    S_KONTRA_HIGH,
    TAKE_LAST,
    TAKE_SURE,
)
from stichwerk.core.kernel import (
    highest,
    in_threads,
    jit,
    jit_alloc,
    lowest,
    popcount,
    random_card,
    substream,
)
from stichwerk.doppelkopf.cards import deck
from stichwerk.doppelkopf.kernel import (
    AUGEN_OF_ID,
    CJ,
    CLARIFIED,
    CQ,
    DA,
    EVEN,
    FIELDS,
    GAME,
    GAME_CODE,
    HAND,
    HOCHZEITER,
    N_TRICKS,
    NEXT,
    NORMAL,
    O_CLS,
    O_LATER,
    O_LATER_LAST,
    ORDER,
    OVER,
    P_FOX_GAMES,
    P_PARTNER_RULE,
    P_SAU,
    P_SAU_ACE,
    PARTY,
    PLAYED,
    SAU_POSSIBLE,
    SAU_SEAT,
    SEATS,
    SOLOIST,
    TID,
    TLEN,
    TO_ACT,
    TRICK_NO,
    TSEAT,
    VOIDS,
    Row,
    deal_cards,
    deal_template,
    legal,
    play,
    sau_allowed,
    settle,
    show_sau,
    start_game,
    tables_for,
)
from stichwerk.doppelkopf.profiles import DDV, Profile
from stichwerk.doppelkopf.trumps import TRUMP

RANDOM, HEURISTIC = 0, 1
"""The play-out policies: uniformly random legal cards, or :func:`choose_card`."""

# --------------------------------------------------------------------------- the roll-out policy
# A mirror of stichwerk.bots.doppelkopf.policy.choose_card, tie for tie (min and max keep the
# first of equal keys; the cards run lowest first). Its numbers are the bot's own tables, passed
# in per order and fox rule: ``ti`` rows of ``pol_i`` (above, above_last, key, trumps, suits, deck)
# and of ``pol_f`` (throw, win, smear). tests/kernel checks the two card for card.

T_ABOVE = 0
T_ABOVE_LAST = 24
T_KEY = 48
T_TRUMPS = 72
T_SUITS = 73
T_DECK = 78
T_STYLE = 79  # bits 0-4: the seats that play by the flags in bits 8 and up (``S_*``)
POLICY_INT_WIDTH = 80
T_THROW = 0
T_WIN = 24
T_SMEAR = 48
POLICY_FLOAT_WIDTH = 72


@dataclass(frozen=True)
class PolicyTables:
    """The roll-out policy's numbers per card order and fox rule, index ``order * 2 + fox``."""

    ints: npt.NDArray[np.int64]
    floats: npt.NDArray[np.float64]


@jit
def _table_index(st: Row, prof: Row) -> int:
    fox = (prof[P_FOX_GAMES] >> st[GAME]) & 1 and st[SAU_SEAT] < 0
    return st[ORDER] * 2 + (1 if fox else 0)  # type: ignore[no-any-return]


@jit
def _fehl_safe(
    st: Row, card: int, seat: int, out: int, orders: Any, oi: int, pol_i: Any, ti: int
) -> bool:
    code = card >> 1
    if out & pol_i[ti, T_ABOVE + code]:
        return False
    suit = orders[oi, O_CLS + code]
    if popcount(out & pol_i[ti, T_SUITS + suit]) < 3:
        return False
    s = st[NEXT + seat]
    while s != seat:
        if (st[VOIDS + s] >> suit) & 1:
            return False
        s = st[NEXT + s]
    return True


@jit
def _solo_draw(
    trumps: int, out: int, top: int, top_sure: bool, n_trumps: int, n_out: int, pol_i: Any,
    ti: int,
) -> int:  # fmt: skip
    """The soloist draws trumps: the highest beatable one below a sure top (not the Fuchs),
    or the top; -1 to lead something else."""
    loose = 0
    m = trumps
    while m:
        c = lowest(m)
        m &= m - 1
        if out & pol_i[ti, T_ABOVE + (c >> 1)] and c >> 1 != DA:
            loose |= 1 << c
    best = _max_key(loose, pol_i, ti)
    if best >= 0 and (top_sure or n_trumps >= n_out):
        return best
    if top_sure or n_trumps >= 2 * n_out:
        return top
    return -1


@jit
def _lead(
    st: Row, seat: int, hand: int, legal_mask: int, out: int, team: Any, orders: Any, oi: int,
    pol_i: Any, pol_f: Any, ti: int, hochzeit_rule: int, flags: int,
) -> int:  # fmt: skip
    trumps = 0
    fehl = 0
    m = legal_mask
    n_cards = 0
    c0 = -1
    c1 = -1
    while m:
        c = lowest(m)
        m &= m - 1
        if n_cards == 0:
            c0 = c
        elif n_cards == 1:
            c1 = c
        n_cards += 1
        if orders[oi, O_CLS + (c >> 1)] == TRUMP:
            trumps |= 1 << c
        else:
            fehl |= 1 << c
    out_trumps = out & pol_i[ti, T_TRUMPS]
    soloist = st[SOLOIST] == seat
    my = team[seat]
    top = _max_key(trumps, pol_i, ti)
    top_sure = top >= 0 and not (out & pol_i[ti, T_ABOVE + (top >> 1)])
    if n_cards == 2 and c0 >> 1 != c1 >> 1:
        keep0 = c0 >> 1 == CJ or (c0 == top and top_sure)
        keep1 = c1 >> 1 == CJ or (c1 == top and top_sure)
        if keep0 and not keep1:
            return c1
        if keep1 and not keep0:
            return c0
    n_trumps = popcount(trumps)
    n_out = popcount(out_trumps)
    if soloist and out_trumps and trumps and not flags & S_CASH:
        best = _solo_draw(trumps, out, top, top_sure, n_trumps, n_out, pol_i, ti)
        if best >= 0:
            return best
    if st[HOCHZEITER] == seat and st[CLARIFIED] == 0 and fehl:
        if hochzeit_rule != 2:
            best = -1
            bt = 1e300
            br = 1 << 30
            m = fehl
            while m:
                c = lowest(m)
                m &= m - 1
                t = pol_f[ti, T_THROW + (c >> 1)]
                r = -popcount(out & pol_i[ti, T_SUITS + orders[oi, O_CLS + (c >> 1)]])
                if t < bt or (t == bt and r < br):
                    bt = t
                    br = r
                    best = c
            return best
    best = -1
    ba = -1
    bl = -(1 << 30)
    m = fehl
    while m:
        c = lowest(m)
        m &= m - 1
        if _fehl_safe(st, c, seat, out, orders, oi, pol_i, ti):
            a = AUGEN_OF_ID[c]
            length = -popcount(hand & pol_i[ti, T_SUITS + orders[oi, O_CLS + (c >> 1)]])
            if a > ba or (a == ba and length > bl):
                ba = a
                bl = length
                best = c
    if best >= 0:
        return best
    if soloist and out_trumps and trumps and flags & S_CASH:
        best = _solo_draw(trumps, out, top, top_sure, n_trumps, n_out, pol_i, ti)
        if best >= 0:
            return best
    defender = st[SOLOIST] >= 0 and not soloist
    their_voids = 0
    partner_voids = 0
    s = st[NEXT + seat]
    while s != seat:
        if my >= 0 and team[s] == my:
            if not (st[VOIDS + s] >> TRUMP) & 1:
                partner_voids |= st[VOIDS + s]
        else:
            their_voids |= st[VOIDS + s]
        s = st[NEXT + s]
    their_voids &= 15
    if fehl and partner_voids & ~their_voids & 15:
        best = -1
        bt = 1e300
        m = fehl
        while m:
            c = lowest(m)
            m &= m - 1
            suit = orders[oi, O_CLS + (c >> 1)]
            if (partner_voids >> suit) & 1 and not (their_voids >> suit) & 1:
                if pol_f[ti, T_THROW + (c >> 1)] < bt:
                    bt = pol_f[ti, T_THROW + (c >> 1)]
                    best = c
        if best >= 0:
            return best
    if trumps and top_sure and (soloist or not fehl):
        return top
    best = -1
    if fehl:
        bc = 1e300
        br = 1 << 30
        m = fehl
        while m:
            c = lowest(m)
            m &= m - 1
            suit = orders[oi, O_CLS + (c >> 1)]
            run = popcount(out & pol_i[ti, T_SUITS + suit])
            if defender and flags & S_FORCE and (their_voids >> suit) & 1:
                danger = -2.0  # the soloist must trump it: his trumps grow fewer
            else:
                danger = 10.0 if (their_voids >> suit) & 1 else (6.0 if run < 3 else 0.0)
            cost = pol_f[ti, T_THROW + (c >> 1)] + danger
            if cost < bc or (cost == bc and run < br):
                bc = cost
                br = run
                best = c
        if not trumps or (bc < 10 and AUGEN_OF_ID[best] < 10):
            return best
    if trumps:
        pool = 0
        m = trumps
        while m:
            c = lowest(m)
            m &= m - 1
            if c >> 1 != DA or pol_f[ti, T_THROW + DA] < 20:
                pool |= 1 << c
        if not pool:
            pool = trumps
        if popcount(pool) > 1 and not top_sure:
            reduced = pool & ~(1 << top)
            if reduced:
                pool = reduced
        if st[SOLOIST] < 0 and my == 1 and popcount(pool) > 1 and not flags & S_KONTRA_HIGH:
            best = -1
            bt = 1e300
            m = pool
            while m:
                c = lowest(m)
                m &= m - 1
                if pol_f[ti, T_THROW + (c >> 1)] < bt:
                    bt = pol_f[ti, T_THROW + (c >> 1)]
                    best = c
            return best
        return _max_key(pool, pol_i, ti)
    return best


@jit
def _threat(
    st: Row, code: int, led: int, out: int, above: int, opp: int, n_opp: int, n_behind: int,
    orders: Any, oi: int, pol_i: Any, ti: int,
) -> bool:  # fmt: skip
    if n_opp == 0:
        return False
    is_trump = orders[oi, O_CLS + code] == TRUMP
    if led != TRUMP:
        suit_left = popcount(out & pol_i[ti, T_SUITS + led])
        ruff = suit_left < n_behind
        can_trump = False
        for j in range(n_opp):
            if (st[VOIDS + ((opp >> (3 * j)) & 7)] >> led) & 1:
                ruff = True
            if not (st[VOIDS + ((opp >> (3 * j)) & 7)] >> TRUMP) & 1:
                can_trump = True
        if ruff and can_trump and (not is_trump or out & pol_i[ti, above + code]):
            return True
        if not is_trump:
            return bool(out & pol_i[ti, above + code])
        return False
    all_void = True
    for j in range(n_opp):
        if not (st[VOIDS + ((opp >> (3 * j)) & 7)] >> TRUMP) & 1:
            all_void = False
    if all_void:
        return False
    return bool(out & pol_i[ti, above + code])


@jit
def _follow(
    st: Row, seat: int, legal_mask: int, out: int, team: Any, orders: Any, oi: int, pol_i: Any,
    pol_f: Any, ti: int,
) -> int:  # fmt: skip
    tlen = st[TLEN]
    last = st[TRICK_NO] == st[N_TRICKS] - 1
    above = T_ABOVE_LAST if last else T_ABOVE
    later = O_LATER_LAST if last else O_LATER
    led = orders[oi, O_CLS + (st[TID] >> 1)]
    best_i = 0
    best = pol_i[ti, T_KEY + (st[TID] >> 1)]
    points = 0
    for i in range(tlen):
        code = st[TID + i] >> 1
        points += AUGEN_OF_ID[st[TID + i]]
        if i == 0:
            continue
        c = orders[oi, O_CLS + code]
        k = pol_i[ti, T_KEY + code] if (c == TRUMP or c == led) else -1
        if k > best or (k == best and orders[oi, later + code]):
            best = k
            best_i = i
    win_seat = st[TSEAT + best_i]
    win_code = st[TID + best_i] >> 1
    my = team[seat]
    fox_bonus = 0
    for i in range(tlen):
        s = st[TSEAT + i]
        if st[TID + i] >> 1 == DA and pol_f[ti, T_THROW + DA] > 20 and (my < 0 or team[s] != my):
            fox_bonus = 15
    opp = 0
    n_opp = 0
    n_behind = 3 - tlen
    s = st[NEXT + seat]
    for _ in range(n_behind):
        if my < 0 or team[s] != my:
            opp |= s << (3 * n_opp)
            n_opp += 1
        s = st[NEXT + s]
    partner_wins = my >= 0 and team[win_seat] == my
    if partner_wins:
        if not _threat(st, win_code, led, out, above, opp, n_opp, n_behind, orders, oi, pol_i, ti):
            bestc = -1
            bs = -1e300
            bt = 1e300
            m = legal_mask
            while m:
                c = lowest(m)
                m &= m - 1
                sm = pol_f[ti, T_SMEAR + (c >> 1)]
                th = pol_f[ti, T_THROW + (c >> 1)]
                if sm > bs or (sm == bs and th < bt):
                    bs = sm
                    bt = th
                    bestc = c
            return bestc
        if points >= 10:
            bestc = -1
            bw = 1e300
            m = legal_mask
            while m:
                c = lowest(m)
                m &= m - 1
                code = c >> 1
                cl = orders[oi, O_CLS + code]
                k = pol_i[ti, T_KEY + code] if (cl == TRUMP or cl == led) else -1
                if k > best or (k == best and orders[oi, later + code]):
                    if not _threat(
                        st, code, led, out, above, opp, n_opp, n_behind, orders, oi, pol_i, ti
                    ):
                        if pol_f[ti, T_WIN + code] < bw:
                            bw = pol_f[ti, T_WIN + code]
                            bestc = c
            if bestc >= 0:
                return bestc
        return _min_of(legal_mask, pol_f, ti, T_THROW)
    winners = 0
    m = legal_mask
    while m:
        c = lowest(m)
        m &= m - 1
        code = c >> 1
        cl = orders[oi, O_CLS + code]
        k = pol_i[ti, T_KEY + code] if (cl == TRUMP or cl == led) else -1
        if k > best or (k == best and orders[oi, later + code]):
            winners |= 1 << c
    if winners:
        worth = points + fox_bonus
        if n_opp == 0:
            c = _min_of(winners, pol_f, ti, T_WIN)
            if worth + AUGEN_OF_ID[c] >= TAKE_LAST or pol_f[ti, T_WIN + (c >> 1)] <= 4.0 or last:
                return c
        else:
            sure = 0
            m = winners
            while m:
                c = lowest(m)
                m &= m - 1
                if not _threat(
                    st, c >> 1, led, out, above, opp, n_opp, n_behind, orders, oi, pol_i, ti
                ):
                    sure |= 1 << c
            if sure:
                c = _min_of(sure, pol_f, ti, T_WIN)
                if worth + AUGEN_OF_ID[c] >= TAKE_SURE or pol_f[ti, T_WIN + (c >> 1)] <= 4.0:
                    return c
            if worth >= FIGHT:
                return _max_key(winners, pol_i, ti)
    return _min_of(legal_mask, pol_f, ti, T_THROW)


@jit
def _min_of(mask: int, pol_f: Any, ti: int, column: int) -> int:
    """The card of ``mask`` with the lowest value in ``column`` of the policy's floats
    (``T_THROW``: the cheapest to throw; ``T_WIN``: the cheapest winner; -1 for none), the
    lowest id among equals, as ``min`` over the cards in id order picks it."""
    best = -1
    bv = 1e300
    m = mask
    while m:
        c = lowest(m)
        m &= m - 1
        if pol_f[ti, column + (c >> 1)] < bv:
            bv = pol_f[ti, column + (c >> 1)]
            best = c
    return best


@jit
def _max_key(mask: int, pol_i: Any, ti: int) -> int:
    """The card of ``mask`` with the highest key (the strongest; -1 for none), the lowest id
    among equals, as ``max`` over the cards in id order picks it."""
    best = -1
    bk = -(1 << 40)
    m = mask
    while m:
        c = lowest(m)
        m &= m - 1
        if pol_i[ti, T_KEY + (c >> 1)] > bk:
            bk = pol_i[ti, T_KEY + (c >> 1)]
            best = c
    return best


@jit
def choose_card(
    st: Row, seat: int, legal_mask: int, team: Any, prof: Row, orders: Any, pol_i: Any,
    pol_f: Any, hochzeit_rule: int,
) -> int:  # fmt: skip
    """The roll-out policy's card id for ``seat`` (``policy.choose_card``); ``team``: each
    seat's party as this seat knows it."""
    legal_mask &= ~((legal_mask & EVEN) << 1)
    if legal_mask & (legal_mask - 1) == 0:
        return highest(legal_mask)
    ti = _table_index(st, prof)
    oi = st[ORDER]
    hand = st[HAND + seat]
    out = pol_i[ti, T_DECK] & ~st[PLAYED] & ~hand
    style = pol_i[ti, T_STYLE]
    flags = style >> 8 if (style >> seat) & 1 else 0
    if st[TLEN] == 0:
        return _lead(
            st,
            seat,
            hand,
            legal_mask,
            out,
            team,
            orders,
            oi,
            pol_i,
            pol_f,
            ti,
            hochzeit_rule,
            flags,
        )
    return _follow(st, seat, legal_mask, out, team, orders, oi, pol_i, pol_f, ti)


# --------------------------------------------------------------------------- play-outs


@jit
def _say_sau(st: Row, prof: Row) -> None:
    """A seat that holds a Sau says it at once (as the bots do: ``world.say_sau``)."""
    if st[SAU_SEAT] < 0 and prof[P_SAU]:
        for s in range(st[SEATS]):
            if st[NEXT + s] >= 0 and sau_allowed(st, s, prof):
                show_sau(st, s)
                return


@jit_alloc
def finish(
    st: Row, policy: int, rs: Any, prof: Row, orders: Any, pol_i: Any, pol_f: Any,
    public: Any, use_public: bool,
) -> None:  # fmt: skip
    """Play the deal to its end: uniformly random legal cards, or the roll-out policy
    (``world.rollout``; with ``use_public`` each seat of a normal game knows only its own party
    and what the table learns as the Kreuz-Damen fall, starting from ``public``)."""
    team = np.empty(5, dtype=np.int64)
    known = public.copy()
    finish_into(st, policy, rs, prof, orders, pol_i, pol_f, known, use_public, team)


@jit
def finish_into(
    st: Row, policy: int, rs: Any, prof: Row, orders: Any, pol_i: Any, pol_f: Any,
    known: Any, use_public: bool, team: Any,
) -> None:  # fmt: skip
    """:func:`finish` with its scratch arrays given (``known`` is changed)."""
    if policy == RANDOM:
        while st[OVER] == 0:
            play(st, random_card(rs, legal(st, orders)), prof, orders)
        return
    _say_sau(st, prof)
    rule = prof[P_PARTNER_RULE]
    if not use_public or st[GAME] != NORMAL:
        while st[OVER] == 0:
            mask = legal(st, orders)
            if mask & (mask - 1):
                for s in range(5):
                    team[s] = st[PARTY + s]
                card = choose_card(st, st[TO_ACT], mask, team, prof, orders, pol_i, pol_f, rule)
            else:
                card = highest(mask)
            play(st, card, prof, orders)
        return
    while st[OVER] == 0:
        seat = st[TO_ACT]
        mask = legal(st, orders)
        if mask & (mask - 1):
            as_seen(st, known, seat, team)
            card = choose_card(st, seat, mask, team, prof, orders, pol_i, pol_f, rule)
        else:
            card = highest(mask)
        play(st, card, prof, orders)
        if card >> 1 == CQ and known[seat] < 0:
            known[seat] = 0
            re = 0
            for s in range(5):
                if known[s] == 0:
                    re += 1
            if re == 2:
                for s in range(5):
                    if known[s] < 0 and st[PARTY + s] >= 0:
                        known[s] = 1


@jit
def as_seen(st: Row, known: Any, seat: int, team: Any) -> None:
    """The parties as ``seat`` sees them (``world._as_seen``)."""
    for s in range(5):
        team[s] = known[s]
    team[seat] = st[PARTY + seat]
    re = 0
    for s in range(5):
        if team[s] == 0:
            re += 1
    if re == 2 and team[seat] >= 0:
        for s in range(5):
            if team[s] < 0 and st[PARTY + s] >= 0:
                team[s] = 1


@jit_alloc
def _play_out(
    rows: Any, prof: Row, orders: Any, pol_i: Any, pol_f: Any, policy: int, seed: Any
) -> Any:
    out = np.zeros((rows.shape[0], 5), dtype=np.int64)
    play_out_into(rows, prof, orders, pol_i, pol_f, policy, seed, out, 0)
    return out


@jit_alloc
def play_out_into(
    rows: Any, prof: Row, orders: Any, pol_i: Any, pol_f: Any, policy: int, seed: Any, out: Any,
    start: int,
) -> None:  # fmt: skip
    """Finish rows ``start..`` in place, row ``i`` with its own random stream, and write the
    settlements into ``out``."""
    none = np.full(5, -1, dtype=np.int64)
    for i in range(rows.shape[0]):
        rs = substream(seed, start + i)
        finish(rows[i], policy, rs, prof, orders, pol_i, pol_f, none, False)
        settle(rows[i], prof, out[i])


def _policy_or_dummy(policy: int, tables: "PolicyTables | None") -> PolicyTables:
    if policy == HEURISTIC:
        if tables is None:
            raise ValueError(
                "the roll-out policy needs its tables: stichwerk.bots.doppelkopf.rollouts."
                "policy_tables(profile)"
            )
        return tables
    return PolicyTables(
        np.zeros((1, POLICY_INT_WIDTH), dtype=np.int64),
        np.zeros((1, POLICY_FLOAT_WIDTH), dtype=np.float64),
    )


def play_out(
    rows: Row,
    profile: Profile,
    *,
    policy: int = RANDOM,
    seed: int = 0,
    threaded: bool = False,
    policy_tables: PolicyTables | None = None,
) -> Row:
    """Play K deal rows (shape ``(K, FIELDS)``, changed in place) to their end and return the
    settlements, shape ``(K, 5)``.

    ``policy``: :data:`RANDOM`, or :data:`HEURISTIC` with the bot's ``policy_tables``
    (``stichwerk.bots.doppelkopf.rollouts.policy_tables(profile)``). ``seed`` fixes every random
    choice; row ``i`` draws from its own stream, so ``threaded`` gives the same numbers.
    """
    if rows.ndim != 2 or rows.shape[1] != FIELDS:
        raise ValueError(f"rows must have shape (K, {FIELDS})")
    t = tables_for(profile)
    pol = _policy_or_dummy(policy, policy_tables)
    seed64 = np.uint64(seed & ((1 << 64) - 1))
    args = (t.profile, t.orders, pol.ints, pol.floats, policy, seed64)
    if not threaded:
        return _play_out(rows, *args)  # type: ignore[no-any-return]
    out = np.zeros((rows.shape[0], 5), dtype=np.int64)
    in_threads(rows.shape[0], lambda a, b: play_out_into(rows[a:b], *args, out[a:b], a))
    return out


def play_out_threaded(
    rows: Row,
    profile: Profile,
    *,
    policy: int = RANDOM,
    seed: int = 0,
    policy_tables: PolicyTables | None = None,
) -> Row:
    """:func:`play_out` in one thread per core (the kernel runs without the GIL); the same
    numbers."""
    return play_out(
        rows, profile, policy=policy, seed=seed, threaded=True, policy_tables=policy_tables
    )


# ---------------------------------------------------------------------- fresh deals, played out


@jit_alloc
def _random_deals(
    template: Row, k: int, game: int, soloist: int, silent: bool, full: int, prof: Row,
    orders: Any, pol_i: Any, pol_f: Any, policy: int, seed: Any,
) -> Any:  # fmt: skip
    out = np.zeros((k, 5), dtype=np.int64)
    none = np.full(5, -1, dtype=np.int64)
    for i in range(k):
        rs = substream(seed, i)
        st = template.copy()
        deal_cards(st, rs, full)
        start_game(st, game, soloist, silent)
        st[SAU_POSSIBLE] = prof[P_SAU_ACE + st[GAME]] >= 0
        finish(st, policy, rs, prof, orders, pol_i, pol_f, none, False)
        settle(st, prof, out[i])
    return out


def random_deals(
    profile: Profile,
    *,
    deals: int,
    game: str = "normal",
    seats: int = 4,
    dealer: int = 0,
    soloist: int | None = None,
    leader: str = "vorhand",
    policy: int = RANDOM,
    seed: int = 0,
    policy_tables: PolicyTables | None = None,
) -> Row:
    """Settlements of ``deals`` fresh deals, shape ``(deals, 5)``.

    The kernel shuffles (not :func:`stichwerk.core.rng.shuffled`) and deals; ``game`` is
    ``"normal"`` (everyone *gesund*: the parties by the Kreuz-Damen; both in one hand make a
    Stilles Solo, or a Hochzeit where the table plays none) or a solo type ``"solo-..."`` of
    ``soloist`` (default Vorhand), led by Vorhand or (``leader="soloist"``) the soloist. Then
    the cards are played by ``policy`` (the roll-out policy says a Sau at once).
    """
    if game not in GAME_CODE or game in ("hochzeit", "armut"):
        raise ValueError(f"a fresh deal is 'normal' or a solo, not {game!r}")
    if seats not in (4, 5):
        raise ValueError("a Doppelkopf table has 4 or 5 seats")
    if deals < 0:
        raise ValueError("deals must be 0 or more")
    row, order = deal_template(profile, seats, dealer)
    who = order[0] if soloist is None else soloist
    if who not in order:
        raise ValueError(f"seat {who} is not dealt in")
    row[TO_ACT] = who if (leader == "soloist" and game != "normal") else order[0]
    t = tables_for(profile)
    pol = _policy_or_dummy(policy, policy_tables)
    out: Row = _random_deals(
        row, deals, GAME_CODE[game], who, profile.silent_solo, deck(profile.with_nines),
        t.profile, t.orders, pol.ints, pol.floats, policy, np.uint64(seed & ((1 << 64) - 1)),
    )  # fmt: skip
    return out


def warm_up(policy_tables: PolicyTables) -> None:
    """Compile (or load from the cache) the fresh deals, a normal game and a solo, under both
    policies (the heuristic's tables: ``rollouts.policy_tables``)."""
    for policy in (RANDOM, HEURISTIC):
        for game in ("normal", "solo-kreuz"):
            random_deals(DDV, deals=1, game=game, policy=policy, policy_tables=policy_tables)
