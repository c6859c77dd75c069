"""The compiled Cego kernel: the play of the tricks and the settlement on ``int64`` bit sets.

:class:`~stichwerk.cego.state.CegoState` verifies every action and keeps the record;
:class:`~stichwerk.cego.fast.FastPlay` is its lean pure-Python twin for the bots. This module is
the same play compiled with numba (``pip install stichwerk[research]``): a deal is one ``int64``
row (the fields below), a batch is a 2-D array of rows, and the settings of a table are another
row made from :class:`~stichwerk.cego.profiles.Rules` by :func:`rules_row` (the kernel never sees
a profile's name). It covers every profile and 3, 4 or 5 seats:

- legal cards (follow suit, else trump; the forced leads of laid-out cards; Räuber nach Regeln),
  the trick winner (cards that may never win passed over), a fixed game stopping as soon as it is
  decided, and the settlement of every contract (Fächer, Berg, Solo and Soli-Ulti, Ulti, Piccolo,
  Bettel, Räuber with Jungfrau, Drescher);
- the exchange with the blind of the ladder contracts, for fresh deals (:func:`deal_rows`);
- two policies: uniform random, and the search bots' roll-out policy
  (``stichwerk.bots.cego.policy.choose_card``, mirrored line by line);
- batch entry points: :func:`play_out` (K rows in one call, settlements as a numpy array),
  :func:`play_out_threaded` (the same over every core), :func:`random_deals` (K fresh deals).

A differential test (``tests/kernel/``) plays random deals through the kernel and the validated
engine with the same actions and requires the same legal cards at every step and the same
settlement; ``benchmarks/kernel_differential.py`` runs it over 100,000 deals per profile.
"""

from typing import Any

import numpy as np
import numpy.typing as npt

from stichwerk.cego import cards as C
from stichwerk.cego.contracts import EXCHANGES, FIXED
from stichwerk.cego.profiles import Rules
from stichwerk.core.kernel import (
    below,
    highest,
    in_threads,
    jit,
    jit_alloc,
    lowest,
    popcount,
    random_card,
    substream,
    uniform,
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

# Policies.
RANDOM, HEURISTIC = 0, 1


def rules_row(rules: Rules) -> Row:
    """The settings the kernel reads, from a table's :class:`Rules`."""
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
    rules: Rules = state.rules
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


# --------------------------------------------------------------------------- fresh deals


@jit
def _lay_out_options(hand: int, kind: int, picture: int, opts: Any) -> int:
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
        n = _lay_out_options(hand, ex[1], rules[R_PICTURE_FOR_LEERE], opts)
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
    rules: Rules,
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


def warm_up() -> None:
    """Compile (or load from the cache) every entry point, so the first decision is not slow."""
    from stichwerk.cego.profiles import SCHWARZWALD

    random_deals(SCHWARZWALD, contract="cego", deals=1, policy=HEURISTIC)
    random_deals(SCHWARZWALD, contract="raeuber", deals=1, policy=RANDOM)
