"""The search bots' Cego roll-outs on the compiled kernel: the roll-out policy and the play-outs
that use it.

The rules of play are :mod:`stichwerk.cego.kernel`'s (legal cards, the trick, the settlement on
``int64`` rows, the deal and the exchange with the blind); this module decides which card a seat
plays there. :func:`choose_card` mirrors :func:`stichwerk.bots.cego.policy.choose_card` line by
line; ``tests/kernel/`` checks the two card for card. The play-outs finish deal rows by this
policy or by uniformly random legal cards: :func:`finish` (one row), :func:`play_out` and
:func:`play_out_threaded` (K rows), :func:`random_deals` (K fresh deals of one contract). Compiled
with numba like the kernel (``pip install stichwerk[research]``); imported only when numba is
there (``rollouts.available()``).
"""

from typing import Any

import numpy as np

from stichwerk.cego import cards as C
from stichwerk.cego.kernel import (
    ANNOUNCER,
    BETTEL,
    CONTRACT,
    CONTRACT_CODES,
    DECIDED_STOP,
    DECLARER,
    DRESCHER,
    FIELDS,
    HALF,
    HAND,
    LADDER,
    NEVER,
    OUTSIDE,
    OVER,
    PICCOLO,
    PLAYED,
    PLAYERS,
    RAEUBER,
    REGELN,
    SEATS,
    SOLI_ULTI,
    SOLO,
    SUIT_MASK,
    SUIT_OF,
    T1,
    TCARD,
    TLEN,
    TO_ACT,
    TRUMP,
    TRUMPS,
    TSEAT,
    ULTI,
    VALUE,
    WON,
    Row,
    deal_cards,
    empty_row,
    exchange_random,
    exchange_row,
    legal,
    play,
    rules_row,
    set_order,
    settle,
)
from stichwerk.cego.profiles import SCHWARZWALD, Profile
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

RANDOM, HEURISTIC = 0, 1
"""The play-out policies: uniformly random legal cards, or :func:`choose_card`."""

# --------------------------------------------------------------------------- the roll-out policy
# A mirror of stichwerk.bots.cego.policy.choose_card, tie for tie (Python's min and max keep the
# first of equal keys; the cards run lowest first). tests/kernel checks the two card for card.

POSITIVE, NEGATIVE, EACH = 0, 1, 2


@jit
def _key(card: int, led: int, never: int) -> int:
    if (never >> card) & 1:
        return -1
    suit = SUIT_OF[card]
    if suit == TRUMP:
        return card + 100
    if suit == led:
        return card
    return -1


@jit
def _cheap(card: int) -> int:
    """Order for giving a card away cheaply: low value, low rank, trumps last."""
    trump = 3 if SUIT_OF[card] == TRUMP else 0
    return (HALF[card] + trump) * 64 + card  # type: ignore[no-any-return]


@jit
def _min_cheap(cards: int) -> int:
    best = -1
    best_key = 1 << 30
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        k = _cheap(c)
        if k < best_key:
            best_key = k
            best = c
    return best


@jit
def _winner_key(st: Row, never: int) -> tuple[int, int]:
    """(seat, key) of the card winning the trick so far (the policy's ``_winner``)."""
    led = SUIT_OF[st[TCARD]]
    best_seat = st[TSEAT]
    best = -2
    for i in range(st[TLEN]):
        k = _key(st[TCARD + i], led, never)
        if k > best:
            best = k
            best_seat = st[TSEAT + i]
    return best_seat, best


@jit
def _duck(st: Row, cards: int, never: int) -> int:
    """Take no trick if it can be helped; throw the most points onto a trick another takes."""
    if st[TLEN] == 0:
        best = -1
        best_key = 1 << 30
        m = cards
        while m:
            c = lowest(m)
            m &= m - 1
            k = c + 100 if SUIT_OF[c] == TRUMP else c - 22
            if k < best_key:
                best_key = k
                best = c
        return best
    led = SUIT_OF[st[TCARD]]
    _, top = _winner_key(st, never)
    best = -1
    best_key = -(1 << 30)
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        if _key(c, led, never) <= top:
            k = HALF[c] * 64 + c
            if k > best_key:
                best_key = k
                best = c
    if best >= 0:
        return best
    best_key = -(1 << 30)
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        k = _key(c, led, never) * 64 - HALF[c]
        if k > best_key:
            best_key = k
            best = c
    return best


@jit
def _under(st: Row, cards: int, declarer: int, never: int) -> int:
    """A Bettel or Piccolo defender: let the declarer take the trick."""
    if st[TLEN] == 0:
        trumps = cards & TRUMPS
        colours = cards & ~TRUMPS
        return lowest(colours) if colours else lowest(trumps)
    led = SUIT_OF[st[TCARD]]
    winner, top = _winner_key(st, never)
    declarer_played = False
    for i in range(st[TLEN]):
        if st[TSEAT + i] == declarer:
            declarer_played = True
    if declarer_played and winner != declarer:
        best = -1
        best_key = -1
        m = cards
        while m:
            c = lowest(m)
            m &= m - 1
            k = HALF[c] * 64 + c
            if k > best_key:
                best_key = k
                best = c
        return best
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        if _key(c, led, never) <= top:
            return c
    best = -1
    best_key = 1 << 30
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        k = _key(c, led, never)
        if k < best_key:
            best_key = k
            best = c
    return best


@jit
def _lead(st: Row, seat: int, hand: int, cards: int, declarer: int) -> int:
    played = st[PLAYED]
    outstanding = TRUMPS & ~played & ~hand
    trumps = cards & TRUMPS
    colours = cards & ~TRUMPS
    best = -1
    best_key = -1
    m = colours
    if not outstanding:
        while m:
            c = lowest(m)
            m &= m - 1
            higher = SUIT_MASK[SUIT_OF[c]] & ~((1 << (c + 1)) - 1)
            if not (higher & ~played & ~hand):
                k = HALF[c] * 64 + c
                if k > best_key:
                    best_key = k
                    best = c
        if best >= 0:
            return best
    if seat == declarer and trumps and outstanding:
        top = highest(trumps)
        if top > highest(outstanding):
            return top
        if popcount(trumps) >= 3:
            low = trumps & ~(1 << T1)
            return lowest(low) if low else lowest(trumps)
    if colours:
        return _min_cheap(colours)
    return _min_cheap(trumps)


@jit
def _schmier(cards: int) -> int:
    """Give the partner the most points: a colour picture or king, else the Geiß, else little."""
    colours = cards & ~TRUMPS
    if colours:
        best = -1
        best_key = -1
        m = colours
        while m:
            c = lowest(m)
            m &= m - 1
            k = HALF[c] * 64 + c
            if k > best_key:
                best_key = k
                best = c
        return best
    if cards & (1 << T1):
        return T1
    return lowest(cards)


@jit
def _follow(st: Row, seat: int, hand: int, cards: int, declarer: int, never: int) -> int:
    played = st[PLAYED]
    tlen = st[TLEN]
    led = SUIT_OF[st[TCARD]]
    winner, top = _winner_key(st, never)
    me_declarer = seat == declarer
    still_to_play = st[PLAYERS] - tlen - 1
    declarer_played = False
    points = 0
    winning_card = -1
    for i in range(tlen):
        if st[TSEAT + i] == declarer:
            declarer_played = True
        points += HALF[st[TCARD + i]]
        if winning_card < 0 and st[TSEAT + i] == winner:
            winning_card = st[TCARD + i]
    partner_wins = (winner == declarer) == me_declarer
    safe_behind = still_to_play == 0 or (not me_declarer and declarer_played)
    if partner_wins:
        top_trump = False
        if SUIT_OF[winning_card] == TRUMP:
            out = TRUMPS & ~played & ~hand
            top_trump = winning_card > highest(out)
        if safe_behind or top_trump:
            return _schmier(cards)
        return _min_cheap(cards)
    beating = 0
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        if _key(c, led, never) > top:
            beating |= 1 << c
    if beating:
        if safe_behind:
            return _min_cheap(beating)
        outstanding = TRUMPS & ~played & ~hand
        top_out = highest(outstanding)
        tops = beating & TRUMPS & ~((1 << (top_out + 1)) - 1)
        if tops and points >= 2:
            return lowest(tops)
        if points >= 5:
            best = -1
            best_key = -(1 << 30)
            m = beating
            while m:
                c = lowest(m)
                m &= m - 1
                k = _key(c, led, never)
                if k > best_key:
                    best_key = k
                    best = c
            return best
    return _min_cheap(cards)


@jit
def choose_card(st: Row, legal_mask: int) -> int:
    """The roll-out policy's card for the seat to act (``policy.choose_card``)."""
    if legal_mask & (legal_mask - 1) == 0:
        return highest(legal_mask)
    seat = st[TO_ACT]
    hand = st[HAND + seat]
    declarer = st[DECLARER]
    never = st[NEVER]
    contract = st[CONTRACT]
    if contract == PICCOLO or contract == BETTEL:
        kind = NEGATIVE
    elif contract == RAEUBER or contract == DRESCHER:
        kind = EACH
    else:
        kind = POSITIVE
    cards = legal_mask
    if kind == EACH or (kind == NEGATIVE and seat == declarer):
        if contract == PICCOLO and st[WON + declarer] == 0 and st[TLEN] > 0:
            if st[TLEN] == st[PLAYERS] - 1:
                led = SUIT_OF[st[TCARD]]
                _, top = _winner_key(st, never)
                m = cards
                while m:
                    c = lowest(m)
                    m &= m - 1
                    if _key(c, led, never) > top:
                        return c
        return _duck(st, cards, never)
    if kind == NEGATIVE:
        return _under(st, cards, declarer, never)
    geiss = 1 << T1
    if (contract == ULTI or contract == SOLI_ULTI) and seat == declarer and legal_mask & ~geiss:
        cards &= ~geiss
    if st[TLEN] == 0:
        return _lead(st, seat, hand, cards, declarer)
    return _follow(st, seat, hand, cards, declarer, never)


# --------------------------------------------------------------------------- play-outs


@jit
def finish(st: Row, policy: int, rs: Any) -> None:
    """Play the deal to its end: uniformly random legal cards, or the roll-out policy."""
    while st[OVER] == 0:
        mask = legal(st)
        if policy == RANDOM:
            play(st, random_card(rs, mask))
        else:
            play(st, choose_card(st, mask))


@jit_alloc
def play_out_into(rows: Any, rules: Row, policy: int, seed: Any, out: Any, start: int) -> None:
    """Finish rows ``start..`` in place, world ``i`` with its own random stream, and write the
    settlements."""
    for i in range(rows.shape[0]):
        rs = substream(seed, start + i)
        st = rows[i]
        finish(st, policy, rs)
        settle(st, rules, out[i])


@jit_alloc
def _play_out(rows: Any, rules: Row, policy: int, seed: Any) -> Any:
    out = np.zeros((rows.shape[0], 5), dtype=np.int64)
    play_out_into(rows, rules, policy, seed, out, 0)
    return out


def play_out(
    rows: Row, rules: Row, *, policy: int = RANDOM, seed: int = 0, threaded: bool = False
) -> Row:
    """Play K deal rows (shape ``(K, FIELDS)``, changed in place) to their end and return the
    settlements, shape ``(K, 5)`` (seats beyond the table's are 0).

    ``policy``: :data:`RANDOM` or :data:`HEURISTIC`; ``seed`` fixes every random choice (row
    ``i`` draws from its own stream, so the result does not depend on ``threaded``).
    """
    if rows.ndim != 2 or rows.shape[1] != FIELDS:
        raise ValueError(f"rows must have shape (K, {FIELDS})")
    seed64 = np.uint64(seed & ((1 << 64) - 1))
    if not threaded:
        return _play_out(rows, rules, policy, seed64)  # type: ignore[no-any-return]
    out = np.zeros((rows.shape[0], 5), dtype=np.int64)
    in_threads(
        rows.shape[0], lambda a, b: play_out_into(rows[a:b], rules, policy, seed64, out[a:b], a)
    )
    return out


def play_out_threaded(rows: Row, rules: Row, *, policy: int = RANDOM, seed: int = 0) -> Row:
    """:func:`play_out` in one thread per core (the kernel runs without the GIL); the same
    numbers."""
    return play_out(rows, rules, policy=policy, seed=seed, threaded=True)


# ---------------------------------------------------------------------- fresh deals, played out


@jit_alloc
def _random_deals(
    template: Row, rules: Row, ex: Row, k: int, policy: int, seed: Any, removed: int
) -> Any:
    out = np.zeros((k, 5), dtype=np.int64)
    for i in range(k):
        rs = substream(seed, i)
        while True:
            st = template.copy()
            blind = deal_cards(st, rs, removed)
            contract = st[CONTRACT]
            if contract == LADDER:
                if not exchange_random(st, rules, blind, removed, ex, rs):
                    continue
            elif contract == SOLO or contract == SOLI_ULTI:
                st[OUTSIDE] = blind | removed
            else:
                st[OUTSIDE] = removed
            if (contract == ULTI or contract == SOLI_ULTI) and not (st[HAND + st[DECLARER]] & 1):
                continue
            break
        finish(st, policy, rs)
        settle(st, rules, out[i])
    return out


def random_deals(
    rules: Profile,
    *,
    contract: str,
    deals: int,
    seats: int = 4,
    dealer: int = 0,
    declarer: int | None = None,
    policy: int = RANDOM,
    seed: int = 0,
) -> Row:
    """Settlements of ``deals`` fresh deals of one contract, shape ``(deals, 5)``.

    The deck is shuffled by the kernel's generator (not :func:`stichwerk.core.rng.shuffled`), the
    declarer (the seat ``declarer``, by default Vorhand) plays ``contract``; a ladder contract
    exchanges with the blind at random (a hand that cannot lay out is dealt again), an Ulti hand
    is dealt again until it holds the Geiß; then the cards are played by ``policy``.
    """
    if contract not in CONTRACT_CODES:
        raise ValueError(f"unknown Cego contract {contract!r}")
    if seats not in (3, 4, 5):
        raise ValueError("a Cego table has 3, 4 or 5 seats")
    if deals < 0:
        raise ValueError("deals must be 0 or more")
    players = 4 if seats == 5 else seats
    order = [(dealer + i) % seats for i in range(1, seats + 1)]
    if seats == 5:
        order.remove(dealer)
    row = empty_row()
    row[SEATS] = seats
    set_order(row, order)
    code = CONTRACT_CODES[contract]
    row[CONTRACT] = code
    row[DECIDED_STOP] = rules.stop_when_decided
    if code in (RAEUBER, DRESCHER):
        row[TO_ACT] = order[0]
        row[REGELN] = code == RAEUBER and rules.raeuber_nach_regeln
        if code == RAEUBER:
            row[ANNOUNCER] = order[0]
    else:
        who = order[0] if declarer is None else declarer
        if who not in order:
            raise ValueError(f"seat {who} is not dealt in")
        row[DECLARER] = who
        row[TO_ACT] = who
        row[VALUE] = rules.value_of(contract) if code == LADDER else rules.solo_value
    ex = exchange_row(contract) if code == LADDER else np.zeros(4, dtype=np.int64)
    removed = C.REMOVED_FOR_THREE if players == 3 else 0
    out: Row = _random_deals(
        row, rules_row(rules), ex, deals, policy, np.uint64(seed & ((1 << 64) - 1)), removed
    )
    return out


def warm_up() -> None:
    """Compile (or load from the cache) every entry point, so the first decision is not slow."""
    random_deals(SCHWARZWALD, contract="cego", deals=1, policy=HEURISTIC)
    random_deals(SCHWARZWALD, contract="raeuber", deals=1, policy=RANDOM)
