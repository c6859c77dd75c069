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
(``scoring.score``'s numbers). Policies: uniform random, and the search bots' roll-out policy
(``stichwerk.bots.doppelkopf.policy.choose_card``, mirrored line by line; its numbers come from
the bot's own tables, passed in as :class:`PolicyTables`). Batch entry points: :func:`play_out`,
:func:`play_out_threaded`, :func:`random_deals`.

A differential test (``tests/kernel/``) plays random deals through the kernel and the validated
engine with the same actions (announcements and the Sau included) and requires the same legal
cards and announcements at every step and the same settlement.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

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
from stichwerk.doppelkopf import announcements as ann_rules
from stichwerk.doppelkopf.cards import CARD_AUGEN, code_of, deck
from stichwerk.doppelkopf.profiles import GAME_TYPES, NORMAL_GAMES, Profile
from stichwerk.doppelkopf.scoring import Announced
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

RANDOM, HEURISTIC = 0, 1


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


def from_state(state: Any) -> Row:
    """The row of an engine deal (:class:`~stichwerk.doppelkopf.state.DokoState`) in play."""
    if state.phase != "play" or state.to_act is None:
        raise ValueError("the kernel starts from a deal in its play phase")
    d = state.internals()
    p: Profile = state.profile
    row = empty_row()
    seats = state.seats
    row[SEATS] = seats
    order = list(state.seat_order)
    for i, s in enumerate(order):
        row[NEXT + s] = order[(i + 1) % 4]
    for s in range(seats):
        row[HAND + s] = state.hand(s)
        row[PARTY + s] = d["party"][s]
        row[AUGEN + s] = d["augen"][s]
        row[WON + s] = d["tricks_won"][s]
    played = 0
    cls = d["order"].cls
    tricks = d["tricks"]
    for n, (t_seats, ids, win) in enumerate(tricks):
        _log(row, t_seats, ids, win, n + 1)
        for s, i in zip(t_seats, ids, strict=True):
            played |= 1 << i
            if cls[i >> 1] != cls[ids[0] >> 1]:
                row[VOIDS + s] |= 1 << cls[ids[0] >> 1]
    for i, (s, card) in enumerate(zip(d["trick_seats"], d["trick_ids"], strict=True)):
        row[TSEAT + i] = s
        row[TID + i] = card
        played |= 1 << card
        if cls[card >> 1] != cls[d["trick_ids"][0] >> 1]:
            row[VOIDS + s] |= 1 << cls[d["trick_ids"][0] >> 1]
    row[TLEN] = len(d["trick_ids"])
    row[TO_ACT] = state.to_act
    row[TRICK_NO] = len(tricks)
    row[HAND_SIZE] = d["hand_size"]
    row[N_TRICKS] = d["hand_size"]
    row[PLAYED] = played
    row[GAME] = GAME_CODE[state.game_type]
    sau, supersau = d["sau_seat"], d["supersau_seat"]
    row[ORDER] = order_index(state.game_type, sau is not None, supersau is not None)
    row[SOLOIST] = -1 if d["soloist"] is None else d["soloist"]
    row[HOCHZEITER] = -1 if d["hochzeiter"] is None else d["hochzeiter"]
    row[CLARIFIED] = d["clarified_at"]
    row[SHIFT] = d["shift"]
    row[SAU_SEAT] = -1 if sau is None else sau
    row[SUPERSAU_SEAT] = -1 if supersau is None else supersau
    row[SAU_POSSIBLE] = d["sau_possible"]
    for party in (0, 1):
        a = d["ann"][party]
        row[ANN + party] = encode_announced(a)
    ansage = d["ansage_order"]
    row[ANS_FIRST] = ansage[0] if ansage else -1
    row[ANS_SECOND] = ansage[1] if len(ansage) > 1 else -1
    del p
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
TAKE_LAST = 4
TAKE_SURE = 4
FIGHT = 12
S_FORCE = 1
"""A defender of a solo leads a suit the soloist has shown out of, to draw his trumps."""
S_CASH = 2
"""A soloist cashes his sure Fehl winners before he draws trumps."""
S_KONTRA_HIGH = 4
"""A Kontra seat of a normal game leads trump from the top, as Re does."""
STYLE_V1 = 0
"""The policy as ``search-v1`` was measured with (no ``S_*`` rule)."""
STYLE = (S_FORCE | S_CASH | S_KONTRA_HIGH) << 8 | 31
"""Today's policy: every rule, every seat."""


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
            _as_seen(st, known, seat, team)
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
def _as_seen(st: Row, known: Any, seat: int, team: Any) -> None:
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
                "the roll-out policy needs its tables: stichwerk.bots.doppelkopf.world."
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
    (``stichwerk.bots.doppelkopf.world.policy_tables(profile)``). ``seed`` fixes every random
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
def _start_game(st: Row, game: int, soloist: int, silent: bool) -> None:
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
        _start_game(st, game, soloist, silent)
        st[SAU_POSSIBLE] = prof[P_SAU_ACE + st[GAME]] >= 0
        finish(st, policy, rs, prof, orders, pol_i, pol_f, none, False)
        settle(st, prof, out[i])
    return out


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
    policies (the heuristic's tables come from the bot layer: see :mod:`stichwerk.bots.warm`)."""
    from stichwerk.doppelkopf.profiles import DDV

    for policy in (RANDOM, HEURISTIC):
        for game in ("normal", "solo-kreuz"):
            random_deals(DDV, deals=1, game=game, policy=policy, policy_tables=policy_tables)


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
def _relative(out: Any, seat: int, kn: Row) -> float:
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
            values[w, i] = _relative(out, seat, kn)
            if word >= 0:
                announce(st, seat, word, 12, ann)
                out[:] = 0
                settle(st, prof, out)
                said[w, i] = _relative(out, seat, kn)
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
