"""The compiled Cego kernel: the play of the tricks and the settlement on ``int64`` bit sets.

:class:`~stichwerk.cego.state.CegoState` verifies every action and keeps the record;
:class:`~stichwerk.cego.fast.FastPlay` is its lean pure-Python twin for the bots. This module is
the same play compiled with numba (``pip install stichwerk[research]``): a deal is one ``int64``
row (the fields below), a batch is a 2-D array of rows, and the settings of a table are another
row made from :class:`~stichwerk.cego.profiles.Profile` by :func:`rules_row` (the kernel never sees
a profile's name). It covers every profile and 3, 4 or 5 seats:

- legal cards (follow suit, else trump; the forced leads of laid-out cards; Räuber nach Regeln),
  the trick winner (cards that may never win passed over), a fixed game stopping as soon as it is
  decided, and the settlement of every contract (Fächer, Berg, Solo and Soli-Ulti, Ulti, Piccolo,
  Bettel, Räuber with Jungfrau, Drescher);
- the deal and the exchange with the blind of the ladder contracts, each choice uniformly random
  (:func:`deal_cards`, :func:`exchange_random`), for fresh deals.

It holds the rules only: who plays which card is the bots' (the roll-out policy and the
play-outs in :mod:`stichwerk.bots.cego.playout`, the world sampler in
:mod:`stichwerk.bots.cego.sampler`).

A differential test (``tests/kernel/``) plays random deals through the kernel and the validated
engine with the same actions and requires the same legal cards at every step and the same
settlement; ``benchmarks/kernel_differential.py`` runs it over 100,000 deals per profile.
"""

from typing import Any

import numpy as np
import numpy.typing as npt

from stichwerk.cego import cards as C
from stichwerk.cego.contracts import EXCHANGES, FIXED
from stichwerk.cego.profiles import Profile
from stichwerk.core.kernel import (
    below,
    highest,
    jit,
    jit_alloc,
    lowest,
    random_card,
)

Row = npt.NDArray[np.int64]
"""One deal (or one table's settings) as a row of ``int64``."""

# --------------------------------------------------------------------------- the deck as arrays

SUIT_OF = np.array(C.SUIT_OF, dtype=np.int64)
SUIT_MASK = np.array(C.SUIT_MASK, dtype=np.int64)
HALF = np.array(C.HALF_POINTS, dtype=np.int64)
WHOLE = np.array(C.WHOLE_POINTS, dtype=np.int64)
TRUMP = C.TRUMP
TRUMPS = C.TRUMPS
T1, T21, T22 = C.T1, C.T21, C.T22
RULE_CARDS = np.array([C.T22, C.T21, C.T1], dtype=np.int64)
"""Räuber nach Regeln: the card that must fall in tricks 1, 2 and 3."""
LEERE = C.LEERE
COLOURS = C.COLOURS
ALL = C.ALL

# --------------------------------------------------------------------------- fields of a deal row

HAND = 0  # five hands
PILE = 5  # five piles
WON = 10  # tricks won per seat
NEXT = 15  # the next seat dealt in (-1: a sitting dealer)
TSEAT = 20  # the trick in progress: seats ...
TCARD = 24  # ... and cards
LSEAT = 28  # the last trick: seats ...
LCARD = 32  # ... and cards
TLEN = 36
TO_ACT = 37
TRICK_NO = 38
N_TRICKS = 39
PLAYERS = 40
SEATS = 41
DECLARER = 42  # -1: everyone for himself
NEVER = 43  # cards that may never win a trick
LAID_OUT = 44  # laid-out cards still in the declarer's hand
FORCED = 45  # tricks the declarer must lead with a laid-out card
REGELN = 46  # Räuber nach Regeln
PLAYED = 47  # every card played (the trick in progress included)
CONTRACT = 48
VALUE = 49  # the game value of a one-against-all game counted by card points
ANNOUNCER = 50  # who announced Räuber (-1: none)
OUTSIDE = 51  # the cards that count for the declarer if he takes a trick (legage, blind, removed)
OVER = 52
LAST_WINNER = 53
DECIDED_STOP = 54  # stop_when_decided
FIELDS = 56

# Contract codes.
LADDER, SOLO, SOLI_ULTI, ULTI, PICCOLO, BETTEL, RAEUBER, DRESCHER = range(8)
CONTRACT_CODES = {
    **dict.fromkeys(EXCHANGES, LADDER),
    "solo": SOLO,
    "soli-ulti": SOLI_ULTI,
    "ulti": ULTI,
    "piccolo": PICCOLO,
    "bettel": BETTEL,
    "raeuber": RAEUBER,
    "drescher": DRESCHER,
}

# --------------------------------------------------------------------------- fields of a rules row

R_TRIPLES = 0
R_BERG = 1
R_FACH = 2
R_ROUND_TO = 3
R_SOLO_WIN_FACTOR = 4
R_ULTI = 5
R_PICCOLO = 6
R_BETTEL = 7
R_RAEUBER = 8
R_RAEUBER_FACTOR = 9
R_JUNGFRAU = 10
R_DRESCHER = 11
R_STOP = 12
R_REGELN = 13
R_SHOWN_ORDINARY = 14
R_PICTURE_FOR_LEERE = 15
R_SOLO_VALUE = 16
RULE_FIELDS = 17


def rules_row(rules: Profile) -> Row:
    """The settings the kernel reads, from a table's :class:`Profile`."""
    row = np.zeros(RULE_FIELDS, dtype=np.int64)
    row[R_TRIPLES] = rules.counting == "triples"
    row[R_BERG] = rules.berg
    row[R_FACH] = rules.fach
    row[R_ROUND_TO] = rules.round_to
    row[R_SOLO_WIN_FACTOR] = rules.solo_win_factor
    row[R_ULTI] = rules.ulti_value
    row[R_PICCOLO] = rules.piccolo_value
    row[R_BETTEL] = rules.bettel_value
    row[R_RAEUBER] = rules.raeuber_value
    row[R_RAEUBER_FACTOR] = rules.raeuber_announcer_factor
    row[R_JUNGFRAU] = rules.jungfrau
    row[R_DRESCHER] = rules.drescher_value
    row[R_STOP] = rules.stop_when_decided
    row[R_REGELN] = rules.raeuber_nach_regeln
    row[R_SHOWN_ORDINARY] = rules.shown_leere_ordinary
    row[R_PICTURE_FOR_LEERE] = rules.picture_for_leere
    row[R_SOLO_VALUE] = rules.solo_value
    return row


def empty_row() -> Row:
    """A deal row with no seat dealt in yet (every ``NEXT`` -1, no declarer)."""
    row = np.zeros(FIELDS, dtype=np.int64)
    row[NEXT : NEXT + 5] = -1
    row[DECLARER] = -1
    row[ANNOUNCER] = -1
    row[LAST_WINNER] = -1
    return row


def set_order(row: Row, order: list[int]) -> None:
    """The seats dealt in, Vorhand first: the ring of turns, the players and the tricks."""
    for i, seat in enumerate(order):
        row[NEXT + seat] = order[(i + 1) % len(order)]
    row[PLAYERS] = len(order)
    row[N_TRICKS] = 13 if len(order) == 3 else 11


def from_state(state: Any) -> Row:
    """The row of an engine deal (:class:`~stichwerk.cego.state.CegoState`) in its play phase."""
    if state.phase != "play" or state.to_act is None:
        raise ValueError("the kernel starts from a deal in its play phase")
    row = empty_row()
    rules: Profile = state.profile
    row[SEATS] = state.seats
    set_order(row, list(state.order))
    for seat in range(state.seats):
        row[HAND + seat] = state.hands[seat]
        row[PILE + seat] = state.piles[seat]
        row[WON + seat] = state.tricks_won[seat]
    played = 0
    for pile in state.piles:
        played |= pile
    for i, (seat, card) in enumerate(state.trick):
        row[TSEAT + i] = seat
        row[TCARD + i] = card
        played |= 1 << card
    row[TLEN] = len(state.trick)
    row[PLAYED] = played
    if state.last_trick is not None:
        cards, winner = state.last_trick
        for i, (seat, card) in enumerate(cards):
            row[LSEAT + i] = seat
            row[LCARD + i] = card
        row[LAST_WINNER] = winner
    row[TO_ACT] = state.to_act
    row[TRICK_NO] = state.trick_no
    row[DECLARER] = -1 if state.declarer is None else state.declarer
    row[NEVER] = state.never_wins
    row[LAID_OUT] = state.laid_out
    row[FORCED] = state.forced_leads
    contract = state.contract
    row[REGELN] = contract == "raeuber" and rules.raeuber_nach_regeln
    row[CONTRACT] = CONTRACT_CODES[contract]
    row[VALUE] = state.value if contract not in FIXED else 0
    if contract in ("solo", "soli-ulti"):
        row[VALUE] = rules.solo_value
    row[ANNOUNCER] = -1 if state.announcer is None else state.announcer
    outside = state.laid_away | state.pressed | state.forced_press | state.removed
    if contract in ("solo", "soli-ulti"):
        outside |= state.blind
    row[OUTSIDE] = outside
    row[DECIDED_STOP] = rules.stop_when_decided
    return row


# --------------------------------------------------------------------------- the rules of play


@jit
def legal(st: Row) -> int:
    """The cards the seat to act may play (``CegoState.legal_mask``)."""
    seat = st[TO_ACT]
    hand = st[HAND + seat]
    tlen = st[TLEN]
    trick_no = st[TRICK_NO]
    if tlen == 0 and seat == st[DECLARER] and trick_no < st[FORCED]:
        return hand & st[LAID_OUT]  # type: ignore[no-any-return]
    if st[REGELN] != 0 and trick_no < 3:
        need = 1 << RULE_CARDS[trick_no]
        if hand & need:
            return need  # type: ignore[no-any-return]
        later = 0
        for j in range(trick_no + 1, 3):
            later |= 1 << RULE_CARDS[j]
        if hand & ~later:
            hand &= ~later
    if tlen == 0:
        return hand  # type: ignore[no-any-return]
    same = hand & SUIT_MASK[SUIT_OF[st[TCARD]]]
    if same:
        return same  # type: ignore[no-any-return]
    trumps = hand & TRUMPS
    if trumps:
        return trumps  # type: ignore[no-any-return]
    return hand  # type: ignore[no-any-return]


@jit
def trick_winner(st: Row, base: int, n: int) -> int:
    """The seat that takes the trick stored at ``base`` (``TSEAT`` or ``LSEAT``) of ``n`` cards:
    the highest trump, else the highest card of the suit led; a card that may never win is passed
    over, and if nothing else follows or trumps, the card after it takes the trick."""
    never = st[NEVER]
    led = SUIT_OF[st[base + 4]]
    best = -1
    winner = -1
    for i in range(n):
        card = st[base + 4 + i]
        if (never >> card) & 1:
            continue
        suit = SUIT_OF[card]
        if suit == TRUMP:
            key = card + 100
        elif suit == led:
            key = card
        else:
            continue
        if key > best:
            best = key
            winner = st[base + i]
    if winner < 0:
        return st[base + 1]  # type: ignore[no-any-return]
    return winner


@jit
def _decided(st: Row) -> bool:
    """A fixed game's outcome is known before the last trick (``stop_when_decided``)."""
    if st[DECIDED_STOP] == 0:
        return False
    declarer = st[DECLARER]
    if declarer < 0:
        return False
    contract = st[CONTRACT]
    if contract == BETTEL:
        return bool(st[WON + declarer] > 0)
    if contract == PICCOLO:
        return bool(st[WON + declarer] > 1)
    if contract == ULTI:
        fallen = 0
        for s in range(st[SEATS]):
            fallen |= st[PILE + s]
        return bool(fallen & (1 << T1))
    return False


@jit
def play(st: Row, card: int) -> None:
    """The seat to act plays ``card`` (no checks)."""
    seat = st[TO_ACT]
    bit = 1 << card
    st[HAND + seat] ^= bit
    st[LAID_OUT] &= ~bit
    st[PLAYED] |= bit
    i = st[TLEN]
    st[TSEAT + i] = seat
    st[TCARD + i] = card
    st[TLEN] = i + 1
    if i + 1 < st[PLAYERS]:
        st[TO_ACT] = st[NEXT + seat]
        return
    n = i + 1
    winner = trick_winner(st, TSEAT, n)
    pile = 0
    for j in range(n):
        pile |= 1 << st[TCARD + j]
        st[LSEAT + j] = st[TSEAT + j]
        st[LCARD + j] = st[TCARD + j]
    st[PILE + winner] |= pile
    st[WON + winner] += 1
    st[LAST_WINNER] = winner
    st[TLEN] = 0
    st[TRICK_NO] += 1
    if _decided(st) or st[TRICK_NO] >= st[N_TRICKS]:
        st[OVER] = 1
        st[TO_ACT] = -1
        return
    if st[TRICK_NO] < st[FORCED] and st[DECLARER] >= 0:
        st[TO_ACT] = st[DECLARER]
    else:
        st[TO_ACT] = winner


# --------------------------------------------------------------------------- the settlement


@jit
def pile_points(mask: int, triples: int) -> int:
    """Card points of a pile, in half points with 'pairs' and whole points with 'triples' (each
    card less two thirds, rounded to the nearest point: ``scoring.pile_points``)."""
    total = 0
    n = 0
    m = mask
    while m:
        c = lowest(m)
        m &= m - 1
        n += 1
        total += WHOLE[c] if triples else HALF[c]
    if not triples:
        return total
    x = 3 * total - 2 * n
    return x // 3 + (1 if x % 3 == 2 else 0)


@jit
def _one_against_all(out: Any, seats: int, declarer: int, per: int) -> None:
    for s in range(seats):
        out[s] += -per
    out[declarer] += per * seats


@jit
def _ulti_won(st: Row, declarer: int) -> bool:
    """The declarer won the last trick, and won it with the Geiß."""
    if st[TRICK_NO] != st[N_TRICKS] or st[LAST_WINNER] != declarer:
        return False
    for i in range(st[PLAYERS]):
        if st[LSEAT + i] == declarer and st[LCARD + i] == T1:
            return True
    return False


@jit
def settle(st: Row, rules: Row, out: Any) -> None:
    """Add the settlement of a finished deal to ``out`` (one number per seat, summing to zero):
    ``CegoState._score``'s numbers without its words."""
    seats = st[SEATS]
    contract = st[CONTRACT]
    declarer = st[DECLARER]
    triples = rules[R_TRIPLES]
    if contract == RAEUBER:
        top = -1
        for s in range(seats):
            if st[NEXT + s] >= 0:
                p = pile_points(st[PILE + s], triples)
                top = max(top, p)
        loser_mask = 0
        virgin_mask = 0
        for s in range(seats):
            if st[NEXT + s] >= 0:
                if pile_points(st[PILE + s], triples) == top:
                    loser_mask |= 1 << s
                if rules[R_JUNGFRAU] and st[WON + s] == 0:
                    virgin_mask |= 1 << s
        for loser in range(seats):
            if not (loser_mask >> loser) & 1:
                continue
            pay = rules[R_RAEUBER]
            if loser == st[ANNOUNCER]:
                pay *= rules[R_RAEUBER_FACTOR]
            for other in range(seats):
                if not ((loser_mask | virgin_mask) >> other) & 1:
                    out[loser] -= pay
                    out[other] += pay
        for virgin in range(seats):
            if (virgin_mask >> virgin) & 1:
                for other in range(seats):
                    if other != virgin:
                        out[other] -= rules[R_JUNGFRAU]
                        out[virgin] += rules[R_JUNGFRAU]
        return
    if contract == DRESCHER:
        loser = st[LAST_WINNER]
        for s in range(seats):
            out[s] += rules[R_DRESCHER]
        out[loser] -= rules[R_DRESCHER] * seats
        return
    won_tricks = st[WON + declarer]
    if contract == ULTI or contract == PICCOLO or contract == BETTEL:
        if contract == ULTI:
            won = _ulti_won(st, declarer)
            written = rules[R_ULTI]
        elif contract == PICCOLO:
            won = won_tricks == 1
            written = rules[R_PICCOLO]
        else:
            won = won_tricks == 0
            written = rules[R_BETTEL]
        _one_against_all(out, seats, declarer, written if won else -written)
        return
    all_tricks = 0
    for s in range(seats):
        all_tricks += st[WON + s]
    defender_tricks = all_tricks - won_tricks
    mine = st[PILE + declarer]
    if won_tricks:
        mine |= st[OUTSIDE]
    value = st[VALUE]
    if won_tricks == 0 or defender_tricks == 0:
        won = won_tricks > 0
        written = value * rules[R_BERG]
    else:
        points = pile_points(mine, triples)
        total = 70 if triples else 158
        need = 36 if triples else 80
        fach = rules[R_FACH] * (1 if triples else 2)
        won = points >= need
        loser = total - points if won else points
        faecher = max(1, (need - loser + fach - 1) // fach)
        written = faecher * rules[R_FACH] * value
        step = rules[R_ROUND_TO]
        if step > 0:
            written = -(-written // step) * step
    if contract != LADDER and won:
        written *= rules[R_SOLO_WIN_FACTOR]
    _one_against_all(out, seats, declarer, written if won else -written)
    if contract == SOLI_ULTI:
        written = rules[R_ULTI]
        won = _ulti_won(st, declarer)
        _one_against_all(out, seats, declarer, written if won else -written)


# --------------------------------------------------------------------------- fresh deals


@jit
def lay_out_options(hand: int, kind: int, picture: int, opts: Any) -> int:
    """The sets a hand may lay out (``state.lay_out_options``) into ``opts``; returns how many.
    ``kind``: 0 none, 1 one Leere, 2 two of one suit, 3 two of two suits, 4 the Geiß."""
    if kind == 4:
        if hand & 1:
            opts[0] = 1
            return 1
        return 0
    n = _lay_out_from(hand & LEERE, kind, opts)
    if n == 0 and picture:
        n = _lay_out_from(hand & COLOURS, kind, opts)
    return n


@jit
def _lay_out_from(pool: int, kind: int, opts: Any) -> int:
    n = 0
    a_mask = pool
    while a_mask:
        a = lowest(a_mask)
        a_mask &= a_mask - 1
        if kind == 1:
            opts[n] = 1 << a
            n += 1
            continue
        b_mask = a_mask
        while b_mask:
            b = lowest(b_mask)
            b_mask &= b_mask - 1
            same = SUIT_OF[a] == SUIT_OF[b]
            if same == (kind == 2):
                opts[n] = (1 << a) | (1 << b)
                n += 1
    return n


LAY_OUT_KIND = {"": 0, "leere": 1, "same": 2, "different": 3, "geiss": 4}
PRESS_KIND = {"": 0, "choice": 1, "picked": 2, "lowest-trump": 3, "highest-trump": 4}


def exchange_row(contract: str) -> Row:
    """(lay-out count, lay-out kind, keep, press kind) of a ladder contract, for the kernel."""
    ex = EXCHANGES[contract]
    return np.array(
        [ex.lay_out, LAY_OUT_KIND[ex.lay_out_kind], ex.keep, PRESS_KIND[ex.press]], dtype=np.int64
    )


@jit_alloc
def exchange_random(st: Row, rules: Row, blind: int, removed: int, ex: Row, rs: Any) -> bool:
    """The declarer of a ladder contract exchanges with the blind, each choice uniformly among
    the legal ones (lay out, keep, take the blind, press); ``False`` if he cannot lay out.
    Withdrawing a Leere and aufdecken are left out (they are the declarer's options, not needed
    for a play-out)."""
    seat = st[DECLARER]
    hand = st[HAND + seat]
    opts = np.zeros(128, dtype=np.int64)
    laid = 0
    if ex[0]:
        n = lay_out_options(hand, ex[1], rules[R_PICTURE_FOR_LEERE], opts)
        if n == 0:
            return False
        laid = opts[below(rs, n)]
        if ex[1] == 4:
            st[FORCED] = 1
            st[NEVER] |= laid
        elif rules[R_SHOWN_ORDINARY] == 0:
            st[FORCED] = ex[0]
            st[NEVER] |= laid
        st[LAID_OUT] = laid
    kept = laid
    pool = hand & ~laid
    for _ in range(ex[2]):
        card = random_card(rs, pool)
        kept |= 1 << card
        pool &= ~(1 << card)
    laid_away = hand & ~kept
    hand = kept | blind
    outside = laid_away | removed
    press = ex[3]
    if press == 3 or press == 4:
        trumps = blind & TRUMPS
        if trumps:
            card = lowest(trumps) if press == 3 else highest(trumps)
            hand &= ~(1 << card)
            outside |= 1 << card
            press = 0
    if press == 1 or press == 2:
        pool = hand & ~st[LAID_OUT]
        if press == 2:
            pool &= blind
        card = random_card(rs, pool)
        hand &= ~(1 << card)
        outside |= 1 << card
    st[HAND + seat] = hand
    st[OUTSIDE] = outside
    return True


@jit_alloc
def deal_cards(st: Row, rs: Any, removed: int) -> int:
    """Shuffle and deal every seat dealt in its hand; return the blind."""
    deck = np.empty(54, dtype=np.int64)
    n = 0
    for c in range(54):
        if not (removed >> c) & 1:
            deck[n] = c
            n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    size = st[N_TRICKS]
    pos = 0
    for s in range(st[SEATS]):
        if st[NEXT + s] >= 0:
            hand = 0
            for _ in range(size):
                hand |= 1 << deck[pos]
                pos += 1
            st[HAND + s] = hand
    blind = 0
    while pos < n:
        blind |= 1 << deck[pos]
        pos += 1
    return blind
