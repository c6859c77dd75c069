"""The compiled Doppelkopf kernel: the play of the tricks and the settlement on ``int64`` bit sets.

:class:`~stichwerk.doppelkopf.state.DokoState` verifies every action and keeps the record;
:class:`~stichwerk.doppelkopf.fast.FastPlay` is its lean pure-Python twin for the bots. This
module is the same play compiled with numba (``pip install stichwerk[research]``): a deal is one
``int64`` row (the fields below), a batch a 2-D array of rows. What a profile decides reaches the
kernel as tables *generated from the engine's own functions* (:class:`Tables`, built by
:func:`tables_for`): the card order of every game type with and without Sau and Superschweine
(``trumps.order_for``), which game types have a Sau (``trumps.sau_cards``), and which
announcement is allowed with how many cards held against what (``announcements.check``, every
case evaluated once). The kernel never sees a profile's name.

It covers every game type at 4 and 5 seats: legal cards, the trick winner (the Herz 10 rules),
the Hochzeit's Klärungsstich, Sau and Superschweine, Augen, the extras (Fuchs, Doppelkopf,
Karlchen, Doppelkarlchen, Karlchen gefangen), the announcements and the settlement
(``scoring.score``'s numbers), and fresh deals (:func:`deal_cards`, :func:`start_game`). It holds
the rules only: who plays which card is the bots' (the roll-out policy and the play-outs in
:mod:`stichwerk.bots.doppelkopf.playout`, the world sampler in
:mod:`stichwerk.bots.doppelkopf.sampler`).

A differential test (``tests/kernel/``) plays random deals through the kernel and the validated
engine with the same actions (announcements and the Sau included) and requires the same legal
cards and announcements at every step and the same settlement.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stichwerk.core.kernel import below, jit, jit_alloc, lowest, popcount
from stichwerk.doppelkopf import announcements as ann_rules
from stichwerk.doppelkopf.cards import CARD_AUGEN, code_of
from stichwerk.doppelkopf.profiles import GAME_TYPES, NORMAL_GAMES, Profile
from stichwerk.doppelkopf.scoring import Announced
from stichwerk.doppelkopf.snapshot import Snapshotted
from stichwerk.doppelkopf.trumps import SCHEME_OF_GAME, SCHEMES, TRUMP, order_for, sau_cards

Row = npt.NDArray[np.int64]

AUGEN_OF_ID = np.array(CARD_AUGEN, dtype=np.int64)
FUCHS = code_of("DA")
KARLCHEN = code_of("CJ")
CQ = code_of("CQ")
DA = FUCHS
CJ = KARLCHEN
CQ_BOTH = 3 << (2 * CQ)
EVEN = sum(1 << (2 * c) for c in range(24))
GAME_CODE = {name: i for i, name in enumerate(GAME_TYPES)}
SOLO_STILL = GAME_CODE["solo-still"]
SOLO_TRUMPF = GAME_CODE["solo-trumpf"]
NORMAL = GAME_CODE["normal"]
HOCHZEIT = GAME_CODE["hochzeit"]
GAME_SCHEME = np.array([SCHEMES.index(SCHEME_OF_GAME[g]) for g in GAME_TYPES], dtype=np.int64)
NORMAL_MASK = sum(1 << GAME_CODE[g] for g in NORMAL_GAMES)
SOLO_MASK = sum(1 << i for i, g in enumerate(GAME_TYPES) if g.startswith("solo-"))
LEVEL_ACTS = ("re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz")
"""Announcement acts 0..5; act ``a`` is level ``max(0, a - 1)``."""

# --------------------------------------------------------------------------- fields of a deal row

HAND = 0
NEXT = 5  # the next seat dealt in (-1: the sitting dealer)
PARTY = 10  # 0 Re, 1 Kontra, -1 not known yet or sitting out
AUGEN = 15
WON = 20
VOIDS = 25  # per seat, the classes (Fehl suits 0..3, trump 4) it has shown out of
TSEAT = 30
TID = 34
TLEN = 38
TO_ACT = 39
TRICK_NO = 40
N_TRICKS = 41
SEATS = 42
PLAYED = 43
GAME = 44
ORDER = 45  # scheme * 4 + sau * 2 + supersau
SOLOIST = 46
HOCHZEITER = 47
CLARIFIED = 48  # the number of the Klärungsstich once the Hochzeit is settled (0: open)
SHIFT = 49  # the Hochzeit shift of every announcement deadline
SAU_SEAT = 50
SUPERSAU_SEAT = 51
SAU_POSSIBLE = 52  # the game had a Sau when the play began (the engine's listing)
ANN = 53  # two parties' announcements, each ``absage * 2 + ansage + 10 * late``
ANN_CODES = 20
"""Codes of a party's announcements: ``absage * 2 + ansage``, plus 10 for a late reply."""
ANS_FIRST = 55  # the party that said its Re/Kontra first (-1) ...
ANS_SECOND = 56  # ... and second
OVER = 57
HAND_SIZE = 58
LOG_N = 59
LOG = 60  # tricks that may earn extras: seats[4], ids[4], winner, trick number
LOG_WIDTH = 10
FIELDS = LOG + 12 * LOG_WIDTH

# ------------------------------------------------------------------------- fields of a profile row

P_WITH_NINES = 0
P_BIG = 1  # Augen of a Doppelkopf (0: off)
P_KARLCHEN = 2
P_DOPPELKARLCHEN = 3
P_GEFANGEN = 4
P_FOX_GAMES = 5  # bits over game codes
P_PARTNER_RULE = 6  # 0 any, 1 fehl-led, 2 trump-led, 3 fehl-won
P_HOCHZEIT_TRICKS = 7
P_HOCHZEIT_SHIFT = 8
P_KONTRA_ONLY_121 = 9
P_BOTH_LAST = 10  # both_announced == "last-needs-121"
P_RE_KONTRA_POINTS = 11
P_RE_KONTRA_DOUBLES = 12
P_COUNTING = 13  # 0 plus-minus, 1 plus, 2 minus
P_SOLO_FACTOR = 14
P_LEVEL_POINTS = 15
P_ABSAGE_POINTS = 16
P_REACHED_POINTS = 17
P_GEGEN = 18  # 0 off, 1 normal, 2 always
P_NET = 19
P_NO_WINNER_ZERO = 20
P_SAU = 21
P_SAU_DEADLINE = 22  # 0 before-first-ace, 1 before-first-card, 2 when-playing
P_SUPERSAU = 23
P_SAU_ACE = 24  # per game code: the code of the trump ace of a Sau (-1: no Sau) ...
P_SAU_LOW = 35  # ... and of the Superschweine
PROFILE_FIELDS = 46

# Order tables: per order index, cls[24], power[24], later[24], later_last[24], class masks[5].
O_CLS = 0
O_POWER = 24
O_LATER = 48
O_LATER_LAST = 72
O_MASKS = 96
ORDER_WIDTH = 101

ANN_H = 25
"""Cards held plus the Hochzeit shift, 0..24: the first index of the announcement table."""


@dataclass(frozen=True)
class Tables:
    """A profile as the kernel reads it, generated from the engine's rules."""

    profile: npt.NDArray[np.int64]
    orders: npt.NDArray[np.int64]
    """``(28, ORDER_WIDTH)``: every scheme with and without Sau and Superschweine."""
    ann: npt.NDArray[np.int64]
    """``(ANN_H, 20, 20, 5)``: a party's new announcements (coded as ``ANN`` says) after
    saying level 0..4 with ``h`` cards held (plus the shift), or -1 where it is refused."""


_TABLES: dict[Profile, Tables] = {}


def tables_for(profile: Profile) -> Tables:
    """The kernel's tables of ``profile`` (cached)."""
    hit = _TABLES.get(profile)
    if hit is None:
        hit = _TABLES[profile] = _build_tables(profile)
    return hit


def _build_tables(p: Profile) -> Tables:
    row = np.zeros(PROFILE_FIELDS, dtype=np.int64)
    row[P_WITH_NINES] = p.with_nines
    row[P_BIG] = p.doppelkopf_min_augen
    row[P_KARLCHEN] = p.karlchen
    row[P_DOPPELKARLCHEN] = p.doppelkarlchen
    row[P_GEFANGEN] = p.karlchen_gefangen
    row[P_FOX_GAMES] = sum(1 << GAME_CODE[g] for g in p.fox_game_types)
    row[P_PARTNER_RULE] = ("any", "fehl-led", "trump-led", "fehl-won").index(p.hochzeit_partner)
    row[P_HOCHZEIT_TRICKS] = p.hochzeit_tricks
    row[P_HOCHZEIT_SHIFT] = p.hochzeit_shift
    row[P_KONTRA_ONLY_121] = p.kontra_only_needs_121
    row[P_BOTH_LAST] = p.both_announced == "last-needs-121"
    row[P_RE_KONTRA_POINTS] = p.re_kontra_points
    row[P_RE_KONTRA_DOUBLES] = p.re_kontra_doubles
    row[P_COUNTING] = ("plus-minus", "plus", "minus").index(p.counting)
    row[P_SOLO_FACTOR] = p.solo_factor
    row[P_LEVEL_POINTS] = p.level_points
    row[P_ABSAGE_POINTS] = p.absage_points
    row[P_REACHED_POINTS] = p.reached_points
    row[P_GEGEN] = ("off", "normal", "always").index(p.gegen_die_alten)
    row[P_NET] = p.extras_netting == "net"
    row[P_NO_WINNER_ZERO] = p.no_winner == "zero"
    row[P_SAU] = p.sau
    row[P_SAU_DEADLINE] = ("before-first-ace", "before-first-card", "when-playing").index(
        p.sau_deadline
    )
    row[P_SUPERSAU] = p.supersau
    for g, name in enumerate(GAME_TYPES):
        codes = sau_cards(p, name)
        row[P_SAU_ACE + g] = -1 if codes is None else codes[0]
        row[P_SAU_LOW + g] = -1 if codes is None else codes[1]
    orders = np.zeros((4 * len(SCHEMES), ORDER_WIDTH), dtype=np.int64)
    for s, scheme in enumerate(SCHEMES):
        for sau in (0, 1):
            for supersau in (0, 1):
                o = order_for(scheme, p, sau=bool(sau), supersau=bool(supersau))
                r = orders[s * 4 + sau * 2 + supersau]
                r[O_CLS : O_CLS + 24] = o.cls
                r[O_POWER : O_POWER + 24] = o.power
                r[O_LATER : O_LATER + 24] = o.later_wins
                r[O_LATER_LAST : O_LATER_LAST + 24] = o.later_wins_last
                r[O_MASKS : O_MASKS + 5] = o.class_masks
    ann = np.full((ANN_H, ANN_CODES, ANN_CODES, 5), -1, dtype=np.int64)
    for h in range(ANN_H):
        for mine in range(ANN_CODES):
            for theirs in range(ANN_CODES):
                m = decode_announced(mine)
                t = decode_announced(theirs)
                for level in range(5):
                    act = ("re", *ann_rules.ANNOUNCE_ACTS[2:])[level]
                    new = ann_rules.check(p, act, 0, m, t, held=h, shift=0, hand=h, explain=False)
                    if isinstance(new, Announced):
                        ann[h, mine, theirs, level] = encode_announced(new)
    return Tables(row, orders, ann)


def encode_announced(a: Announced) -> int:
    """A party's announcements as the kernel codes them (see ``ANN``)."""
    return a.absage * 2 + int(a.ansage) + 10 * int(a.late)


def decode_announced(code: int) -> Announced:
    """The announcements of a code (see ``ANN``)."""
    return Announced(bool(code & 1), (code % 10) >> 1, code >= 10)


def empty_row() -> Row:
    """A deal row with nobody dealt in yet."""
    row = np.zeros(FIELDS, dtype=np.int64)
    row[NEXT : NEXT + 5] = -1
    row[PARTY : PARTY + 5] = -1
    for f in (SOLOIST, HOCHZEITER, SAU_SEAT, SUPERSAU_SEAT, ANS_FIRST, ANS_SECOND):
        row[f] = -1
    return row


def order_index(game_type: str, sau: bool, supersau: bool) -> int:
    """The row of :attr:`Tables.orders` for a game type with or without Sau, Superschweine."""
    return SCHEMES.index(SCHEME_OF_GAME[game_type]) * 4 + 2 * sau + int(supersau)


def from_state(state: Snapshotted) -> Row:
    """The row of an engine deal (:class:`~stichwerk.doppelkopf.state.DokoState`) in play."""
    d = state.snapshot()
    if d.phase != "play" or d.to_act is None:
        raise ValueError("the kernel starts from a deal in its play phase")
    row = empty_row()
    seats = d.seats
    row[SEATS] = seats
    order = list(d.seat_order)
    for i, s in enumerate(order):
        row[NEXT + s] = order[(i + 1) % 4]
    for s in range(seats):
        row[HAND + s] = d.hands[s]
        row[PARTY + s] = d.party[s]
        row[AUGEN + s] = d.augen[s]
        row[WON + s] = d.tricks_won[s]
    played = 0
    cls = d.order.cls
    tricks = d.tricks
    for n, (t_seats, ids, win) in enumerate(tricks):
        _log(row, t_seats, ids, win, n + 1)
        for s, i in zip(t_seats, ids, strict=True):
            played |= 1 << i
            if cls[i >> 1] != cls[ids[0] >> 1]:
                row[VOIDS + s] |= 1 << cls[ids[0] >> 1]
    for i, (s, card) in enumerate(zip(d.trick_seats, d.trick_ids, strict=True)):
        row[TSEAT + i] = s
        row[TID + i] = card
        played |= 1 << card
        if cls[card >> 1] != cls[d.trick_ids[0] >> 1]:
            row[VOIDS + s] |= 1 << cls[d.trick_ids[0] >> 1]
    row[TLEN] = len(d.trick_ids)
    row[TO_ACT] = d.to_act
    row[TRICK_NO] = len(tricks)
    row[HAND_SIZE] = d.hand_size
    row[N_TRICKS] = d.hand_size
    row[PLAYED] = played
    row[GAME] = GAME_CODE[d.game_type]
    sau, supersau = d.sau_seat, d.supersau_seat
    row[ORDER] = order_index(d.game_type, sau is not None, supersau is not None)
    row[SOLOIST] = -1 if d.soloist is None else d.soloist
    row[HOCHZEITER] = -1 if d.hochzeiter is None else d.hochzeiter
    row[CLARIFIED] = d.clarified_at
    row[SHIFT] = d.shift
    row[SAU_SEAT] = -1 if sau is None else sau
    row[SUPERSAU_SEAT] = -1 if supersau is None else supersau
    row[SAU_POSSIBLE] = d.sau_possible
    for party in (0, 1):
        row[ANN + party] = encode_announced(d.ann[party])
    ansage = d.ansage_order
    row[ANS_FIRST] = ansage[0] if ansage else -1
    row[ANS_SECOND] = ansage[1] if len(ansage) > 1 else -1
    return row


def from_fast(fast: Any) -> Row:
    """The row of a :class:`~stichwerk.doppelkopf.fast.FastPlay` (the search's worlds)."""
    row = empty_row()
    seats = fast.seats
    row[SEATS] = seats
    for s in range(seats):
        row[HAND + s] = fast.hands[s]
        row[NEXT + s] = fast.next_seat[s]
        row[PARTY + s] = fast.party[s]
        row[AUGEN + s] = fast.augen[s]
        row[WON + s] = fast.tricks_won[s]
        row[VOIDS + s] = fast.voids[s]
    for i, (s, card) in enumerate(zip(fast.trick_seats, fast.trick_ids, strict=True)):
        row[TSEAT + i] = s
        row[TID + i] = card
    row[TLEN] = len(fast.trick_ids)
    row[TO_ACT] = fast.to_act
    row[TRICK_NO] = fast.trick_no
    row[N_TRICKS] = fast.n_tricks
    row[HAND_SIZE] = fast.n_tricks
    row[PLAYED] = fast.played
    row[GAME] = GAME_CODE[fast.game_type]
    row[ORDER] = order_index(fast.game_type, fast.sau_seat >= 0, fast.supersau_seat >= 0)
    row[SOLOIST] = fast.soloist
    row[HOCHZEITER] = fast.hochzeiter
    row[CLARIFIED] = fast.clarified
    row[SHIFT] = max(0, fast.clarified - 1) if fast.profile.hochzeit_shift else 0
    row[SAU_SEAT] = fast.sau_seat
    row[SUPERSAU_SEAT] = fast.supersau_seat
    row[SAU_POSSIBLE] = sau_cards(fast.profile, fast.game_type) is not None
    for party in (0, 1):
        a = fast.ann[party]
        row[ANN + party] = encode_announced(a)
    row[ANS_FIRST] = fast.ansage_order[0] if fast.ansage_order else -1
    row[ANS_SECOND] = fast.ansage_order[1] if len(fast.ansage_order) > 1 else -1
    for t_seats, ids, win in fast.events:
        number = _trick_number(fast, ids)
        _log(row, t_seats, ids, win, number)
    if fast.last_ids and (not fast.events or fast.events[-1][1] != fast.last_ids):
        _log(row, fast.last_seats, fast.last_ids, fast.last_winner, fast.trick_no)
    return row


def _trick_number(fast: Any, ids: list[int]) -> int:
    """The number of a logged trick of ``fast`` (only the last one counts as 'last')."""
    return fast.trick_no if ids == fast.last_ids else 0


def _log(row: Row, seats: Any, ids: Any, win: int, number: int) -> None:
    n = int(row[LOG_N])
    base = LOG + n * LOG_WIDTH
    for i in range(4):
        row[base + i] = seats[i]
        row[base + 4 + i] = ids[i]
    row[base + 8] = win
    row[base + 9] = number
    row[LOG_N] = n + 1


# --------------------------------------------------------------------------- the rules of play


@jit
def legal(st: Row, orders: Any) -> int:
    """The cards the seat to act may play: the class led if it holds one, else any."""
    hand = st[HAND + st[TO_ACT]]
    if st[TLEN]:
        oi = st[ORDER]
        follow = hand & orders[oi, O_MASKS + orders[oi, O_CLS + (st[TID] >> 1)]]
        if follow:
            return follow  # type: ignore[no-any-return]
    return hand  # type: ignore[no-any-return]


@jit
def winner_index(st: Row, orders: Any, oi: int, last: bool) -> int:
    """The index in the trick of the card that wins it (``trumps.winner_of``)."""
    later = O_LATER_LAST if last else O_LATER
    first = st[TID] >> 1
    led = orders[oi, O_CLS + first]
    best = 0
    best_trump = led == TRUMP
    best_power = orders[oi, O_POWER + first]
    for i in range(1, 4):
        code = st[TID + i] >> 1
        c = orders[oi, O_CLS + code]
        if c == TRUMP:
            if not best_trump:
                best = i
                best_trump = True
                best_power = orders[oi, O_POWER + code]
                continue
        elif best_trump or c != led:
            continue
        p = orders[oi, O_POWER + code]
        if p > best_power or (p == best_power and orders[oi, later + code]):
            best = i
            best_power = p
    return best


@jit
def play(st: Row, card: int, prof: Row, orders: Any) -> None:
    """The seat to act plays card id ``card`` (no checks)."""
    seat = st[TO_ACT]
    bit = 1 << card
    st[HAND + seat] ^= bit
    st[PLAYED] |= bit
    oi = st[ORDER]
    i = st[TLEN]
    if i:
        led = orders[oi, O_CLS + (st[TID] >> 1)]
        if orders[oi, O_CLS + (card >> 1)] != led:
            st[VOIDS + seat] |= 1 << led
    st[TSEAT + i] = seat
    st[TID + i] = card
    st[TLEN] = i + 1
    if i < 3:
        st[TO_ACT] = st[NEXT + seat]
        return
    last = st[TRICK_NO] == st[N_TRICKS] - 1
    w = winner_index(st, orders, oi, last)
    win = st[TSEAT + w]
    points = 0
    fox = False
    for j in range(4):
        points += AUGEN_OF_ID[st[TID + j]]
        if st[TID + j] >> 1 == FUCHS:
            fox = True
    st[AUGEN + win] += points
    st[WON + win] += 1
    st[TRICK_NO] += 1
    big = prof[P_BIG]
    if fox or (big and points >= big) or last:
        n = st[LOG_N]
        base = LOG + n * LOG_WIDTH
        for j in range(4):
            st[base + j] = st[TSEAT + j]
            st[base + 4 + j] = st[TID + j]
        st[base + 8] = win
        st[base + 9] = st[TRICK_NO]
        st[LOG_N] = n + 1
    if st[HOCHZEITER] >= 0 and st[CLARIFIED] == 0:
        _clarify(st, prof, orders, oi, w, win)
    st[TLEN] = 0
    st[TO_ACT] = win
    if st[TRICK_NO] >= st[N_TRICKS]:
        st[OVER] = 1
        st[TO_ACT] = -1


@jit
def _clarify(st: Row, prof: Row, orders: Any, oi: int, w: int, win: int) -> None:
    """The Hochzeit's Klärungsstich (``trumps.finds_hochzeit_partner``), or the Karo solo."""
    h = st[HOCHZEITER]
    number = st[TRICK_NO]
    if win != h:
        rule = prof[P_PARTNER_RULE]
        found = True
        if rule == 1:
            found = orders[oi, O_CLS + (st[TID] >> 1)] != TRUMP
        elif rule == 2:
            found = orders[oi, O_CLS + (st[TID] >> 1)] == TRUMP
        elif rule == 3:
            found = orders[oi, O_CLS + (st[TID + w] >> 1)] != TRUMP
        if found:
            st[CLARIFIED] = number
            st[SHIFT] = number - 1 if prof[P_HOCHZEIT_SHIFT] else 0
            for s in range(st[SEATS]):
                if st[NEXT + s] >= 0:
                    st[PARTY + s] = 0 if (s == h or s == win) else 1
            return
    if number >= prof[P_HOCHZEIT_TRICKS]:
        st[CLARIFIED] = number
        st[SHIFT] = number - 1 if prof[P_HOCHZEIT_SHIFT] else 0
        st[SOLOIST] = h
        for s in range(st[SEATS]):
            if st[NEXT + s] >= 0:
                st[PARTY + s] = 0 if s == h else 1
        st[GAME] = SOLO_TRUMPF


# --------------------------------------------------------------------------- announcements, Sau


@jit
def announce_result(st: Row, seat: int, act: int, h: int, ann: Any) -> int:
    """The party's announcements after ``seat`` says act 0..5 (re, kontra, keine 90 ...) with
    ``h`` cards held plus the shift, or -1 where it is refused (``announcements.check``)."""
    party = st[PARTY + seat]
    if party < 0:
        return -1
    if act == 0 and party != 0:
        return -1
    if act == 1 and party != 1:
        return -1
    level = act - 1 if act > 1 else 0
    h = max(h, 0)
    if h >= ANN_H:
        h = ANN_H - 1
    return ann[h, st[ANN + party], st[ANN + 1 - party], level]  # type: ignore[no-any-return]


@jit
def announce(st: Row, seat: int, act: int, h: int, ann: Any) -> bool:
    """Seat says act 0..5 if allowed; ``h``: cards held plus the shift (12: no deadline)."""
    new = announce_result(st, seat, act, h, ann)
    if new < 0:
        return False
    party = st[PARTY + seat]
    if new & 1 and not st[ANN + party] & 1:
        if st[ANS_FIRST] < 0:
            st[ANS_FIRST] = party
        else:
            st[ANS_SECOND] = party
    st[ANN + party] = new
    return True


@jit
def held(st: Row, seat: int) -> int:
    """Cards the seat holds counted as if dealt 12, plus the Hochzeit shift (the deadlines)."""
    played = st[HAND_SIZE] - popcount(st[HAND + seat])
    return 12 - played + st[SHIFT]  # type: ignore[no-any-return]


@jit
def sau_allowed(st: Row, seat: int, prof: Row) -> bool:
    """Whether ``seat`` may show the Sau now (``trumps.may_show_sau``)."""
    if st[SAU_SEAT] >= 0:
        return False
    ace = prof[P_SAU_ACE + st[GAME]]
    if ace < 0:
        return False
    both = 3 << (2 * ace)
    if st[HAND + seat] & both != both:
        return False
    deadline = prof[P_SAU_DEADLINE]
    if deadline == 1:
        return bool(st[PLAYED] == 0)
    if deadline == 2:
        return bool(seat == st[TO_ACT])
    return True


@jit
def supersau_allowed(st: Row, seat: int, prof: Row) -> bool:
    """Whether ``seat`` may show the Superschweine now."""
    if not prof[P_SUPERSAU] or st[SAU_SEAT] < 0 or st[SUPERSAU_SEAT] >= 0:
        return False
    low = prof[P_SAU_LOW + st[GAME]]
    if low < 0:
        return False
    both = 3 << (2 * low)
    return bool(st[HAND + seat] & both == both)


@jit
def show_sau(st: Row, seat: int) -> None:
    """Seat shows the Sau: both trump aces become the highest trumps."""
    st[SAU_SEAT] = seat
    st[ORDER] = GAME_SCHEME[st[GAME]] * 4 + 2


@jit
def show_supersau(st: Row, seat: int) -> None:
    """Seat shows the Superschweine (after a Sau)."""
    st[SUPERSAU_SEAT] = seat
    st[ORDER] = GAME_SCHEME[st[GAME]] * 4 + 3


@jit
def legal_words(st: Row, seat: int, prof: Row, ann: Any) -> int:
    """The announcements ``seat`` may make now, as bits: acts 0..5 (re ... schwarz), 6 sau,
    7 supersau (the engine's ``legal_actions`` beside the cards)."""
    if st[OVER]:
        return 0
    out = 0
    if st[PARTY + seat] >= 0 and (st[HOCHZEITER] < 0 or st[CLARIFIED] > 0):
        h = held(st, seat)
        for act in range(6):
            if announce_result(st, seat, act, h, ann) >= 0:
                out |= 1 << act
    if st[SAU_POSSIBLE]:
        if sau_allowed(st, seat, prof):
            out |= 1 << 6
        if supersau_allowed(st, seat, prof):
            out |= 1 << 7
    return out


# --------------------------------------------------------------------------- the settlement


@jit
def _reaches(augen: int, tricks: int, level: int) -> bool:
    if level == 1:
        return augen < 90
    if level == 2:
        return augen < 60
    if level == 3:
        return augen < 30
    return tricks == 0


@jit
def _defends(augen: int, tricks: int, level: int) -> bool:
    if level == 1:
        return augen >= 90
    if level == 2:
        return augen >= 60
    if level == 3:
        return augen >= 30
    return tricks >= 1


@jit
def _level_points(other_augen: int, other_tricks: int, other_absage: int, prof: Row) -> int:
    """A party's points for the other party's unter 90/60/30 and schwarz, and for reaching
    120/90/60/30 against the other's Absage (``scoring._level_items``)."""
    pts = 0
    for level in range(1, 5):
        if _reaches(other_augen, other_tricks, level):
            pts += prof[P_LEVEL_POINTS]
    own = 240 - other_augen
    for level in range(1, 5):
        if other_absage >= level and own >= 150 - 30 * level:
            pts += prof[P_REACHED_POINTS]
    return pts


@jit
def extras(st: Row, prof: Row) -> tuple[int, int]:
    """Each party's extras (Fuchs, Doppelkopf, Karlchen ...): ``scoring.trick_extras`` over
    the logged tricks, with the parties as the deal ended."""
    out_re = 0
    out_ko = 0
    game = st[GAME]
    normal = (NORMAL_MASK >> game) & 1
    fox = (prof[P_FOX_GAMES] >> game) & 1 and st[SAU_SEAT] < 0
    big = prof[P_BIG]
    for n in range(st[LOG_N]):
        base = LOG + n * LOG_WIDTH
        win = st[base + 8]
        wp = st[PARTY + win]
        gain = 0
        if fox:
            for j in range(4):
                if st[base + 4 + j] >> 1 == FUCHS and st[PARTY + st[base + j]] != wp:
                    gain += 1
        if normal and big:
            points = 0
            for j in range(4):
                points += AUGEN_OF_ID[st[base + 4 + j]]
            if points >= big:
                gain += 1
        last = st[base + 9] == st[N_TRICKS]
        if last and normal and (prof[P_KARLCHEN] or prof[P_GEFANGEN]):
            jacks = 0
            j0 = -1
            j1 = -1
            win_card = -1
            for j in range(4):
                if st[base + j] == win and win_card < 0:
                    win_card = st[base + 4 + j]
                if st[base + 4 + j] >> 1 == KARLCHEN:
                    jacks += 1
                    if j0 < 0:
                        j0 = st[base + j]
                    else:
                        j1 = st[base + j]
            if prof[P_KARLCHEN] and win_card >> 1 == KARLCHEN:
                gain += 1
                if prof[P_DOPPELKARLCHEN] and jacks == 2 and st[PARTY + j0] == st[PARTY + j1]:
                    gain += 1
            if prof[P_GEFANGEN]:
                for j in range(4):
                    if st[base + 4 + j] >> 1 == KARLCHEN and st[PARTY + st[base + j]] != wp:
                        gain += 1
        if wp == 0:
            out_re += gain
        else:
            out_ko += gain
    return out_re, out_ko


@jit
def settle(st: Row, prof: Row, out: Any) -> None:
    """Add the settlement of a finished deal to ``out`` (``scoring.score``'s numbers)."""
    seats = st[SEATS]
    re_augen = 0
    re_tricks = 0
    ko_tricks = 0
    for s in range(seats):
        p = st[PARTY + s]
        if st[NEXT + s] >= 0 and p >= 0:
            if p == 0:
                re_augen += st[AUGEN + s]
                re_tricks += st[WON + s]
            else:
                ko_tricks += st[WON + s]
    ko_augen = 240 - re_augen
    re_ansage = st[ANN] & 1
    ko_ansage = st[ANN + 1] & 1
    ra = (st[ANN] % 10) >> 1
    ka = (st[ANN + 1] % 10) >> 1
    winner = -1
    if ra == 0 and ka == 0:
        target = 121
        if ko_ansage and not re_ansage and prof[P_KONTRA_ONLY_121]:
            target = 120
        elif re_ansage and ko_ansage and prof[P_BOTH_LAST]:
            target = 120 if st[ANS_SECOND] == 1 else 121
        winner = 0 if re_augen >= target else 1
    else:
        if ra:
            re_wins = _reaches(ko_augen, ko_tricks, ra)
        else:
            re_wins = _defends(re_augen, re_tricks, ka)
        if ka:
            ko_wins = _reaches(re_augen, re_tricks, ka)
        else:
            ko_wins = _defends(ko_augen, ko_tricks, ra)
        if re_wins:
            winner = 0
        elif ko_wins:
            winner = 1
    pts_re = 0
    pts_ko = 0
    doublings = 0
    game = st[GAME]
    solo = (SOLO_MASK >> game) & 1
    if winner >= 0:
        won = 1
        gegen = prof[P_GEGEN]
        if winner == 1 and (gegen == 2 or (gegen == 1 and (NORMAL_MASK >> game) & 1)):
            won += 1
        if winner == 0:
            won += _level_points(ko_augen, ko_tricks, ka, prof)
        else:
            won += _level_points(re_augen, re_tricks, ra, prof)
        for ansage in (re_ansage, ko_ansage):
            if ansage:
                if prof[P_RE_KONTRA_DOUBLES]:
                    doublings += 1
                else:
                    won += prof[P_RE_KONTRA_POINTS]
        won += prof[P_ABSAGE_POINTS] * (ra + ka)
        if winner == 0:
            pts_re = won
        else:
            pts_ko = won
    elif not prof[P_NO_WINNER_ZERO]:
        pts_re = _level_points(ko_augen, ko_tricks, ka, prof)
        pts_ko = _level_points(re_augen, re_tricks, ra, prof)
    extra_re, extra_ko = extras(st, prof)
    pts_re += extra_re
    pts_ko += extra_ko
    if winner < 0 and prof[P_NO_WINNER_ZERO]:
        pts_re = 0
        pts_ko = 0
    counting = prof[P_COUNTING]
    if winner >= 0:
        pw = pts_re if winner == 0 else pts_ko
        pl = pts_ko if winner == 0 else pts_re
        if prof[P_NET] or counting == 0:
            value = pw - pl
            separate = 0
        else:
            value = pw
            separate = pl
        value *= 1 << doublings
        _pay(st, prof, out, winner, value, solo)
        if separate:
            _pay(st, prof, out, 1 - winner, separate * (1 << doublings), solo)
    else:
        net = pts_re - pts_ko
        if net:
            _pay(st, prof, out, 0 if net > 0 else 1, abs(net), solo)


@jit
def _pay(st: Row, prof: Row, out: Any, side: int, value: int, solo: int) -> None:
    """A value won by ``side`` per the counting mode and the solo factor (``scoring._settle``)."""
    factor = prof[P_SOLO_FACTOR]
    win_each = value * (factor if solo and side == 0 else 1)
    lose_each = value * (factor if solo and side == 1 else 1)
    counting = prof[P_COUNTING]
    if counting != 0 and value <= 0:
        return
    for s in range(st[SEATS]):
        if st[NEXT + s] < 0:
            continue
        p = st[PARTY + s]
        if p == side and counting != 2:
            out[s] += win_each
        elif p == 1 - side and counting != 1:
            out[s] -= lose_each


# --------------------------------------------------------------------------- fresh deals


@jit_alloc
def deal_cards(st: Row, rs: Any, full: int) -> None:
    """Shuffle the cards of ``full`` and deal every seat dealt in its hand."""
    deck_ids = np.empty(48, dtype=np.int64)
    n = 0
    m = full
    while m:
        deck_ids[n] = lowest(m)
        m &= m - 1
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, i + 1)
        deck_ids[i], deck_ids[j] = deck_ids[j], deck_ids[i]
    size = n // 4
    pos = 0
    for s in range(st[SEATS]):
        if st[NEXT + s] >= 0:
            hand = 0
            for _ in range(size):
                hand |= 1 << deck_ids[pos]
                pos += 1
            st[HAND + s] = hand


@jit
def start_game(st: Row, game: int, soloist: int, silent: bool) -> None:
    """Parties and card order of a fresh deal: a normal game by the Kreuz-Damen (both in one
    hand: a Stilles Solo, or a Hochzeit at a table without it), or a solo of ``soloist``."""
    if game == NORMAL:
        for s in range(st[SEATS]):
            if st[NEXT + s] >= 0 and st[HAND + s] & CQ_BOTH == CQ_BOTH:
                if silent:
                    game = SOLO_STILL
                    soloist = s
                else:
                    game = HOCHZEIT
                    st[HOCHZEITER] = s
    st[GAME] = game
    st[ORDER] = GAME_SCHEME[game] * 4
    for s in range(st[SEATS]):
        if st[NEXT + s] < 0:
            continue
        if game == NORMAL:
            st[PARTY + s] = 0 if st[HAND + s] & CQ_BOTH else 1
        elif game == HOCHZEIT:
            st[PARTY + s] = 0 if s == st[HOCHZEITER] else -1
        else:
            st[PARTY + s] = 0 if s == soloist else 1
    if game != NORMAL and game != HOCHZEIT:
        st[SOLOIST] = soloist


def deal_template(profile: Profile, seats: int = 4, dealer: int = 0) -> tuple[Row, list[int]]:
    """A row before the deal: the table's seats and hand size, each playing seat's next; and
    the playing seats from Vorhand on (a sitting dealer left out). Vorhand is to act."""
    order = [(dealer + i) % seats for i in range(1, seats + 1)]
    if seats == 5:
        order.remove(dealer)
    row = empty_row()
    row[SEATS] = seats
    for i, s in enumerate(order):
        row[NEXT + s] = order[(i + 1) % 4]
    size = 12 if profile.with_nines else 10
    row[N_TRICKS] = size
    row[HAND_SIZE] = size
    row[TO_ACT] = order[0]
    return row, order
