"""A Cego deal as a deterministic state machine: the one core every consumer drives.

The phases follow RULINGS.md in order:

1. **Solo round** from Vorhand: ``fort``, ``solo``, ``ulti`` (``soli-ulti``); an Ulti ends it.
2. **Gegensolo** against a standing Solo, from the seat after the soloist.
3. **Special round** (``piccolo``, ``bettel``) when no Solo or Ulti stands.
4. **Auction** (*Steigern*): Vorhand must say ``cego``; challengers raise one step or say ``gut``;
   the holder answers ``selbst`` or ``gut``.
5. **Räuber**: Vorhand, when all said ``gut`` to his forced Cego, says ``spielen`` or ``raeuber``.
6. **Exchange** with the blind (*der Blinde*): ``lay-out``, ``keep``, ``press``, ``withdraw``.
7. **Play** of the tricks, then **scoring**.

Seats are table seats. At a 5-table the dealer sits out: he is dealt no cards and settles like a
defender. ``order`` lists the seats dealt in, Vorhand (the seat after the dealer) first.
"""

import copy
from collections.abc import Sequence
from typing import Any, Final

from stichwerk.cego import cards as C
from stichwerk.cego import scoring
from stichwerk.cego.contracts import EXCHANGES, FIXED, OWN_HAND
from stichwerk.cego.profiles import Profile
from stichwerk.cego.view import build_view, sorted_codes, visible
from stichwerk.core.action import Action
from stichwerk.core.bits import Bits, bits_list, highest, lowest
from stichwerk.core.errors import CardError, IllegalAction

# The phases. Module constants are ``Final``: compiled (stichwerk.native), they are read as C
# statics instead of looked up in the module's dictionary each time.
SOLO: Final = "solo"
GEGENSOLO: Final = "gegensolo"
SPECIAL: Final = "special"
AUCTION: Final = "auction"
RAEUBER: Final = "raeuber"
EXCHANGE: Final = "exchange"
PLAY: Final = "play"
OVER: Final = "over"

# The deck's tables, bound here as ``Final``: compiled, each is a C static (a name imported from
# a module that is not compiled is otherwise looked up in this module's dictionary on every use).
CODES: Final[tuple[str, ...]] = C.CODES
ID: Final[dict[str, int]] = C.ID
SUIT_MASK: Final[tuple[Bits, ...]] = C.SUIT_MASK
SUIT_OF: Final[tuple[int, ...]] = C.SUIT_OF
TRUMP: Final[int] = C.TRUMP
TRUMPS: Final[Bits] = C.TRUMPS
_ALL: Final[Bits] = C.ALL
_LEERE: Final[Bits] = C.LEERE
_COLOURS: Final[Bits] = C.COLOURS
_T1: Final[int] = C.T1

_RULE_CARDS: Final = (C.T22, C.T21, _T1)
"""Räuber nach Regeln: the card that must fall in tricks 1, 2 and 3."""

# Cached actions: play actions are made once per (seat, card), so the hot path allocates nothing.
_PLAY: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action(seat, "play", card=CODES[c]) for c in range(54)) for seat in range(5)
)
_PLAYED: Final[dict[int, tuple[int, int, tuple[int, int]]]] = {
    id(action): (seat, 1 << card, (seat, card))
    for seat, row in enumerate(_PLAY)
    for card, action in enumerate(row)
}
"""Seat, the card's bit and the trick's entry of each cached play action, by identity:
``apply`` knows one of its own actions by one lookup (an equal action made elsewhere takes the
full check instead)."""
_SAY: dict[tuple[int, str], Action] = {
    (seat, word): Action(seat, word)
    for seat in range(5)
    for word in (
        "fort", "solo", "ulti", "soli-ulti", "gegensolo", "piccolo", "bettel", "cego", "halbe",
        "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss", "selbst", "gut", "spielen",
        "raeuber", "aufdecken",
    )
}  # fmt: skip


_GEISS: Final = 1 << _T1
_WORDS = {
    (solo, ulti, soli_ulti): ("fort",)
    + (("solo",) if solo else ())
    + (("ulti",) if ulti else ())
    + (("soli-ulti",) if soli_ulti else ())
    for solo in (False, True)
    for ulti in (False, True)
    for soli_ulti in (False, True)
}
"""The words of the Solo round: by whether Solo, Ulti and Soli-Ulti may be said."""
_SPECIAL_WORDS = {
    (piccolo, bettel): ("fort",)
    + (("piccolo",) if piccolo else ())
    + (("bettel",) if bettel else ())
    for piccolo in (False, True)
    for bettel in (False, True)
}
"""The words of the special round: by whether Piccolo and Bettel may be said."""
_RAISE = {contract: (contract, "gut") for contract in EXCHANGES}
"""A challenger's words in the auction when he can play the next contract."""

_WHERE = {
    SOLO: "the Solo round (fort, solo, ulti)",
    GEGENSOLO: "the Gegensolo round (fort, gegensolo)",
    SPECIAL: "the special round (fort, piccolo, bettel)",
    AUCTION: "the auction",
    RAEUBER: "Vorhand's choice after all said gut (spielen, raeuber)",
}
"""Each round of speech as a refusal names it."""

_SAID: Final[dict[int, tuple[int, str]]] = {id(action): key for key, action in _SAY.items()}
"""Seat and word of each cached word, by identity (as ``_PLAYED``)."""
_SAYS: Final[tuple[dict[str, Action], ...]] = tuple(
    {word: action for (s, word), action in _SAY.items() if s == seat} for seat in range(5)
)
"""The same actions, one table per seat."""


_SAY_LISTS: Final[tuple[dict[tuple[str, ...], tuple[Action, ...]], ...]] = tuple(
    {} for _ in range(5)
)
"""Each seat's actions for a list of words (made on first use)."""


def _say(seat: int, word: str) -> Action:
    return _SAYS[seat][word]


_WITH_CARDS: Final[dict[int, Action]] = {}
"""The exchange's actions (``lay-out``, ``keep``, ``press``, ``withdraw``), made once each:
the key is the set of cards named, the seat and the act (``_cards_key``)."""
_CARD_ACTS: Final = ("lay-out", "keep", "press", "withdraw")
LAY_OUT, KEEP, PRESS, WITHDRAW = 0, 1, 2, 3


def _cards_key(seat: int, act: int, mask: Bits) -> int:
    return mask | (seat << 54) | (act << 57)


def _cards_action(key: int) -> Action:
    """The action of a ``_cards_key``, naming its cards in id order (made on first use)."""
    action = _WITH_CARDS.get(key)
    if action is None:
        mask = key & _ALL
        seat = (key >> 54) & 7
        act = _CARD_ACTS[key >> 57]
        action = _WITH_CARDS[key] = Action(seat, act, cards=tuple(C.codes(mask)))
    return action


def _slice_lists(row: Sequence[Action]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """A row of 54 actions, one per card, by slices of a hand cut at the suits: T1-T11 and
    T12-T22 (11 bits each), then each colour (8 bits). Listing the actions of a set of cards is
    one lookup when they are of one colour, two when they are trumps, six for a whole hand."""
    return tuple(
        tuple(tuple(row[start + i] for i in range(width) if v >> i & 1) for v in range(1 << width))
        for start, width in _SLICES
    )


def _listed(lists: tuple[tuple[tuple[Action, ...], ...], ...], mask: Bits) -> list[Action]:
    """The actions of ``_slice_lists`` for the cards of ``mask``, in id order."""
    t0, t1, cs, ss, hs, ds = lists
    return [*t0[mask & 2047], *t1[mask >> 11 & 2047], *cs[mask >> 22 & 255],
            *ss[mask >> 30 & 255], *hs[mask >> 38 & 255], *ds[mask >> 46]]  # fmt: skip


_ONE_CARD_LISTS: Final[dict[tuple[int, int], tuple[tuple[tuple[Action, ...], ...], ...]]] = {}


def _one_card_lists(seat: int, act: int) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """``_slice_lists`` of a seat's exchange act that names one card (keep one, press one),
    made on first use."""
    lists = _ONE_CARD_LISTS.get((seat, act))
    if lists is None:
        row = [_cards_action(_cards_key(seat, act, 1 << c)) for c in range(54)]
        lists = _ONE_CARD_LISTS[seat, act] = _slice_lists(row)
    return lists


_SLICES: Final = ((0, 11), (11, 11), (22, 8), (30, 8), (38, 8), (46, 8))
"""(first card, width) of each slice of ``_play_lists``."""
_SHIFT: Final = (22, 30, 38, 46)
"""The first card of each colour."""
_PLAY_LISTS: Final = tuple(_slice_lists(row) for row in _PLAY)
_TRUMP_LISTS: Final = tuple((t0, t1) for t0, t1, *_ in _PLAY_LISTS)
"""Per seat: the play actions of the low and the high trumps, by 11-bit slice."""
_FOLLOW: Final = tuple(
    tuple((lists[2 + suit], SUIT_MASK[suit], _SHIFT[suit]) for suit in range(4))
    for lists in _PLAY_LISTS
)
"""Per seat and colour: the play actions of that colour by 8-bit slice, the colour's cards, and
the shift that brings them down (following a colour is one lookup)."""


def _names(mask: Bits) -> str:
    return " ".join(CODES[c] for c in sorted(bits_list(mask), key=C.sort_key))


def hand_size(players: int) -> int:
    """Cards per hand: 11 with four dealt in, 13 with three."""
    return 13 if players == 3 else 11


def blind_size(players: int) -> int:
    """Cards in the blind: 10 with four dealt in, 12 with three."""
    return 12 if players == 3 else 10


def cut_deck(deck: list[int], players: int, seats: int, dealer: int) -> tuple[list[Bits], Bits]:
    """The hands and the blind of a shuffled deck: the blind is cut first, then a hand for each
    seat dealt in from Vorhand on (a sitting dealer's hand is empty)."""
    blind_n = blind_size(players)
    hand_n = hand_size(players)
    blind = 0
    for card in deck[:blind_n]:
        blind |= 1 << card
    hands = [0] * seats
    start = blind_n
    for k in range(players):
        mask = 0
        for card in deck[start : start + hand_n]:
            mask |= 1 << card
        hands[(dealer + 1 + k) % seats] = mask
        start += hand_n
    return hands, blind


def is_pflichtsolo(rules: Profile, hand: Bits, players: int) -> bool:
    """Whether a dealt hand must announce Solo (Pflichtsolo).

    With four dealt in: ``pflichtsolo_trumps`` trumps (8), or ``pflichtsolo_short_trumps`` (7) of
    which ``pflichtsolo_high_count`` (2) are T18 or higher and cards of at most two colours.
    With three dealt in each threshold is one trump higher.
    """
    extra = 1 if players == 3 else 0
    trumps = (hand & TRUMPS).bit_count()
    if trumps >= rules.pflichtsolo_trumps + extra:
        return True
    if trumps < rules.pflichtsolo_short_trumps + extra:
        return False
    high = (hand & TRUMPS) >> (rules.pflichtsolo_high_from - 1)
    colours = sum(1 for s in range(4) if hand & SUIT_MASK[s])
    return high.bit_count() >= rules.pflichtsolo_high_count and colours <= (
        rules.pflichtsolo_max_suits
    )


def lay_out_options(hand: Bits, kind: str, *, picture_for_leere: bool) -> list[Bits]:
    """Every set of cards a hand may lay out for an exchange's ``lay_out_kind``.

    ``"geiss"``: the T1; ``"leere"``: one Leere; ``"same"``: two Leere of one suit;
    ``"different"``: two Leere of two suits. With ``picture_for_leere`` (the titisee
    Sonderregel) pictures may stand in, but only when the Leere alone do not make the lay-out.
    """
    if kind == "geiss":
        return [1 << _T1] if hand & (1 << _T1) else []
    options = _lay_out_from(hand & _LEERE, kind)
    if not options and picture_for_leere:
        options = _lay_out_from(hand & _COLOURS, kind)
    return options


def can_lay_out(hand: Bits, kind: str, *, picture_for_leere: bool) -> bool:
    """Whether ``lay_out_options`` has any option, without listing them (the auction asks this
    of every bid)."""
    if kind == "geiss":
        return bool(hand & (1 << _T1))
    if _can_lay_out_from(hand & _LEERE, kind):
        return True
    return picture_for_leere and _can_lay_out_from(hand & _COLOURS, kind)


def _can_lay_out_from(pool: Bits, kind: str) -> bool:
    if kind == "leere":
        return pool != 0
    suits = [pool & SUIT_MASK[s] for s in range(4)]
    if kind == "same":
        return any(m & (m - 1) for m in suits)
    return sum(1 for m in suits if m) >= 2


def _lay_out_from(pool: Bits, kind: str) -> list[Bits]:
    cards = bits_list(pool)
    if kind == "leere":
        return [1 << c for c in cards]
    out: list[Bits] = []
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            same = SUIT_OF[a] == SUIT_OF[b]
            if same == (kind == "same"):
                out.append((1 << a) | (1 << b))
    return out


_SEATING: Final[dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def _seating(seats: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats dealt in from Vorhand on, and each one's neighbour in the order of play (at a
    5-table the dealer sits out), for a table size and a dealer (made once)."""
    if seats == 5:
        order = tuple((dealer + i) % 5 for i in range(1, 5))
    else:
        order = tuple((dealer + i) % seats for i in range(1, seats + 1))
    next_seat = [0] * seats
    for i, seat in enumerate(order):
        next_seat[seat] = order[(i + 1) % len(order)]
    _SEATING[(seats, dealer)] = seating = (order, tuple(next_seat))
    return seating


SLOTS = (
    "_await",
    "_challenger",
    "_exchange_step",
    "_gegensolo",
    "_holder",
    "_last",
    "_last_winner",
    "_level",
    "_mask",
    "_n",
    "_next_seat",
    "_offer",
    "_picked_up",
    "_queue",
    "_raised",
    "_result",
    "_seats",
    "_speakers",
    "_special",
    "_standing",
    "_trick",
    "_watch",
    "announcer",
    "aufgedeckt",
    "blind",
    "contract",
    "deal_type",
    "dealer",
    "dealt",
    "declarer",
    "dropped",
    "forced_leads",
    "forced_press",
    "hands",
    "history",
    "is_over",
    "laid_away",
    "laid_out",
    "last_trick",
    "leader",
    "never_wins",
    "options",
    "order",
    "phase",
    "piles",
    "pressed",
    "profile",
    "removed",
    "schinder",
    "shown",
    "solo_seat",
    "to_act_seat",
    "trick_no",
    "tricks_won",
    "withdrawable",
)
"""The state's attributes (``clone`` copies them by name)."""


class CegoState:
    """One Cego deal. Build it with :func:`new_deal` or from a record; drive it with actions."""

    game = "cego"

    __slots__ = SLOTS

    def __init__(
        self,
        profile: Profile | None = None,
        *,
        options: dict[str, Any] | None = None,
        dealer: int = 0,
        hands: Sequence[Bits] = (),
        blind: Bits = 0,
        deal_type: str | None = None,
    ) -> None:
        if profile is None:
            return  # a blank, for ``clone`` and ``pickle`` to fill (compiled, see stichwerk.native)
        seats = len(hands)
        self.profile = profile
        self.options = dict(options or {})
        self.dealer = dealer
        self.dealt: tuple[Bits, ...] = tuple(hands)
        self.hands: list[Bits] = list(hands)
        self.blind = blind
        self.deal_type = deal_type
        order, next_seat = _SEATING.get((seats, dealer)) or _seating(seats, dealer)
        self.order = list(order)
        self._seats = seats
        self._next_seat = list(next_seat)
        self._mask = -1
        self._offer: tuple[str, ...] | None = None
        players = len(order)
        self._n = players
        self._last = hand_size(players)
        self._special = 0
        self._watch = False
        self.is_over = False
        self.removed: Bits = C.REMOVED_FOR_THREE if players == 3 else 0
        self.history: list[Action] = []
        self.phase = SOLO
        self.to_act_seat: int | None = self.order[0]
        self.contract: str | None = None
        self.declarer: int | None = None
        self.announcer: int | None = None
        self.solo_seat: int | None = None
        self.schinder: list[int] = []
        self.aufgedeckt = False
        self.dropped: list[int] = []
        self._speakers: list[int] = []
        self._standing: tuple[int, str] | None = None
        self._gegensolo = False
        self._holder = -1
        self._level = 0
        self._challenger: int | None = None
        self._queue: list[int] = []
        self._await = ""
        self._raised = False
        self._exchange_step = ""
        self._picked_up: Bits = 0
        self.laid_out: Bits = 0
        self.never_wins: Bits = 0
        self.shown: Bits = 0
        self.withdrawable: Bits = 0
        self.laid_away: Bits = 0
        self.pressed: Bits = 0
        self.forced_press: Bits = 0
        self.forced_leads = 0
        self.trick_no = 0
        self.leader: int | None = None
        self._trick: list[tuple[int, int]] = []
        self.last_trick: tuple[tuple[tuple[int, int], ...], int] | None = None
        self._last_winner: int | None = None
        self.tricks_won = [0] * seats
        self.piles: list[Bits] = [0] * seats
        self._result: dict[str, Any] | None = None
        if deal_type == "drescher":
            self._start_play("drescher", None)
        elif deal_type == "pflichtraeuber":
            self.announcer = self.order[0]
            self._start_play("raeuber", None)
        elif profile.solo or profile.ulti:
            self._open_round(SOLO, list(self.order))
        else:
            self._after_solo_round()

    # ----------------------------------------------------------------- basics

    @property
    def seats(self) -> int:
        """Seats at the table (5 when the dealer sits out)."""
        return self._seats

    @property
    def players(self) -> int:
        """Seats dealt in (3 or 4)."""
        return len(self.order)

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the deal is over."""
        return self.to_act_seat

    @property
    def vorhand(self) -> int:
        """The seat after the dealer: speaks first, leads in Räuber and Drescher."""
        return self.order[0]

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The trick in progress as (seat, card id) pairs."""
        return list(self._trick)

    @property
    def value(self) -> int | None:
        """The game value of the contract (ladder position, +1 after Gegensolo)."""
        c = self.contract
        if c is None:
            return None
        if c in EXCHANGES:
            raise_by = self.profile.gegensolo_raise if self._gegensolo else 0
            return self.profile.value_of(c) + raise_by
        if c in ("solo", "soli-ulti"):
            return self.profile.solo_value
        if c in FIXED:
            return scoring.fixed_value(self.profile, c)
        if c == "drescher":
            return self.profile.drescher_value
        return self.profile.raeuber_value

    @property
    def gegensolo(self) -> bool:
        """Whether the contract was won in an auction after a Gegensolo."""
        return self._gegensolo

    @property
    def picked_up(self) -> Bits:
        """The blind as the declarer took it up (0 before the exchange, and without one)."""
        return self._picked_up

    @property
    def auction(self) -> tuple[int, str, int | None, list[int]] | None:
        """During the auction: the holder, the contract he holds, the challenger and the seats
        that dropped out; ``None`` in every other phase."""
        if self.phase != AUCTION:
            return None
        return self._holder, self.profile.ladder[self._level], self._challenger, list(self.dropped)

    def _next(self, seat: int) -> int:
        return self._next_seat[seat]

    def clone(self) -> "CegoState":
        """An independent copy: the lists (and the options) copied, everything else shared
        (ints, strings, tuples and the frozen rules are never changed in place). Written out
        slot by slot, which compiled (``stichwerk.native``) is a copy of C fields; a test checks
        that it names every slot."""
        other = CegoState()
        other._await = self._await
        other._challenger = self._challenger
        other._exchange_step = self._exchange_step
        other._gegensolo = self._gegensolo
        other._holder = self._holder
        other._last = self._last
        other._last_winner = self._last_winner
        other._level = self._level
        other._mask = self._mask
        other._n = self._n
        other._next_seat = self._next_seat.copy()
        other._offer = self._offer
        other._picked_up = self._picked_up
        other._queue = self._queue.copy()
        other._raised = self._raised
        other._result = self._result
        other._seats = self._seats
        other._speakers = self._speakers.copy()
        other._special = self._special
        other._standing = self._standing
        other._trick = self._trick.copy()
        other._watch = self._watch
        other.announcer = self.announcer
        other.aufgedeckt = self.aufgedeckt
        other.blind = self.blind
        other.contract = self.contract
        other.deal_type = self.deal_type
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.declarer = self.declarer
        other.dropped = self.dropped.copy()
        other.forced_leads = self.forced_leads
        other.forced_press = self.forced_press
        other.hands = self.hands.copy()
        other.history = self.history.copy()
        other.is_over = self.is_over
        other.laid_away = self.laid_away
        other.laid_out = self.laid_out
        other.last_trick = self.last_trick
        other.leader = self.leader
        other.never_wins = self.never_wins
        other.options = self.options.copy()
        other.order = self.order.copy()
        other.phase = self.phase
        other.piles = self.piles.copy()
        other.pressed = self.pressed
        other.profile = self.profile
        other.removed = self.removed
        other.schinder = self.schinder.copy()
        other.shown = self.shown
        other.solo_seat = self.solo_seat
        other.to_act_seat = self.to_act_seat
        other.trick_no = self.trick_no
        other.tricks_won = self.tricks_won.copy()
        other.withdrawable = self.withdrawable
        return other

    # ---------------------------------------------------------- rounds of speech

    def _open_round(self, phase: str, speakers: list[int]) -> None:
        self.phase = phase
        self._speakers = speakers
        self._standing = None
        self.to_act_seat = speakers[0]

    def _speak_next(self) -> bool:
        """Move to the next speaker of the round; False when the round is over."""
        self._speakers.pop(0)
        if self._speakers:
            self.to_act_seat = self._speakers[0]
            return True
        return False

    def _after_solo_round(self) -> None:
        standing = self._standing
        if standing is not None and standing[1] == "solo":
            self.solo_seat = standing[0]
            if self.profile.gegensolo:
                soloist = standing[0]
                after = [self._next(soloist)]
                while len(after) < self.players - 1:
                    after.append(self._next(after[-1]))
                self._open_round(GEGENSOLO, after)
                return
            self._declare("solo", standing[0])
            return
        if standing is not None:
            self._declare(standing[1], standing[0])
            return
        if self.profile.piccolo or self.profile.bettel:
            self._open_round(SPECIAL, list(self.order))
            return
        self._open_auction(self.order[0], gegensolo=False)

    def _open_auction(self, opener: int, *, gegensolo: bool) -> None:
        self.phase = AUCTION
        self._gegensolo = gegensolo
        self._holder = opener
        self._level = 0
        self._raised = False
        seat_list = [opener]
        while len(seat_list) < self.players:
            seat_list.append(self._next(seat_list[-1]))
        if gegensolo and not self.profile.soloist_bids_after_gegensolo:
            seat_list = [s for s in seat_list if s != self.solo_seat]
        self._queue = seat_list[1:]
        if gegensolo:
            self._next_challenger()
        else:
            self._await = "open"
            self._challenger = None
            self.to_act_seat = opener

    def _next_challenger(self) -> None:
        if self._queue:
            self._challenger = self._queue.pop(0)
            self._await = "challenger"
            self.to_act_seat = self._challenger
        else:
            self._challenger = None
            self._end_auction()

    def _end_auction(self) -> None:
        contract = self.profile.ladder[self._level]
        holder = self._holder
        if (
            self.profile.raeuber
            and not self._gegensolo
            and not self._raised
            and holder == self.order[0]
        ):
            self.phase = RAEUBER
            self.to_act_seat = holder
            return
        self._declare(contract, holder)

    def _declare(self, contract: str, declarer: int | None) -> None:
        self.contract = contract
        self.declarer = declarer
        if contract in EXCHANGES:
            self.phase = EXCHANGE
            self.to_act_seat = declarer
            ex = EXCHANGES[contract]
            if ex.lay_out:
                self._exchange_step = "lay-out"
            else:
                self._exchange_step = "keep"
            return
        self._start_play(contract, declarer)

    def _start_play(self, contract: str, declarer: int | None) -> None:
        self.contract = contract
        self.declarer = declarer
        self.phase = PLAY
        self.trick_no = 0
        self._exchange_step = ""
        # Tricks before ``_special`` may have forced leads or Räuber nach Regeln; from there on
        # the plain rule holds (follow suit, else trump). ``_watch``: a fixed game that may be
        # decided before the last trick.
        special = self.forced_leads
        if contract == "raeuber" and self.profile.raeuber_nach_regeln:
            special = max(special, 3)
        self._special = special
        self._watch = self.profile.stop_when_decided and contract in ("bettel", "piccolo", "ulti")
        leader = declarer if declarer is not None else self.order[0]
        self.leader = leader
        self.to_act_seat = leader

    # ---------------------------------------------------------------- feasibility

    def _lay_out_options(self, hand: Bits, kind: str) -> list[Bits]:
        return lay_out_options(hand, kind, picture_for_leere=self.profile.picture_for_leere)

    def _can_play(self, seat: int, contract: str) -> bool:
        """Whether ``seat``'s dealt hand can fulfil a ladder contract's lay-out."""
        ex = EXCHANGES[contract]
        if not ex.lay_out:
            return True
        return can_lay_out(
            self.hands[seat], ex.lay_out_kind, picture_for_leere=self.profile.picture_for_leere
        )

    def _cannot_play_reason(self, seat: int, contract: str) -> str:
        kind = EXCHANGES[contract].lay_out_kind
        what = {
            "geiss": "does not hold the Geiß (T1)",
            "leere": "holds no Leere",
            "same": "holds no two Leere of one suit",
            "different": "holds no Leere of two different suits",
        }[kind]
        return f"seat {seat} cannot play {contract}: {what}"

    # --------------------------------------------------------------- legal actions

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now."""
        to_act = self.to_act_seat
        if to_act is None:
            return []
        if seat is None:
            seat = to_act
        elif seat != to_act:
            return []
        phase = self.phase
        if phase == PLAY:
            trick = self._trick
            if self.trick_no >= self._special:
                # The plain rule (as ``_legal_mask``): any card to lead; to follow, the colour
                # led, else a trump, else any card.
                hand = self.hands[seat]
                if trick:
                    led = SUIT_OF[trick[0][1]]
                    if led != TRUMP:
                        lists, cards, shift = _FOLLOW[seat][led]
                        mask = hand & cards
                        if mask:
                            self._mask = mask
                            return [*lists[mask >> shift]]
                    mask = hand & TRUMPS
                    if mask:
                        self._mask = mask
                        t0, t1 = _TRUMP_LISTS[seat]
                        return [*t0[mask & 2047], *t1[mask >> 11]]
                mask = self._mask = hand
            else:
                mask = self._mask
                if mask < 0:
                    mask = self._mask = self._legal_mask()
            out = _listed(_PLAY_LISTS[seat], mask)
            if not trick and not self.trick_no and seat == self.declarer:
                out.extend(self._pre_lead_actions(seat))
            return out
        if phase == EXCHANGE:
            return self._exchange_actions(seat)
        words = self._offer = self._words(seat)
        actions = _SAY_LISTS[seat].get(words)
        if actions is None:
            says = _SAYS[seat]
            actions = _SAY_LISTS[seat][words] = tuple(says[w] for w in words)
        return list(actions)

    def _words(self, seat: int) -> tuple[str, ...]:
        """The words the seat to act may say now (none but in a round of speech)."""
        phase = self.phase
        if phase == SOLO:
            return self._solo_words(seat)
        if phase == GEGENSOLO:
            return ("fort", "gegensolo")
        if phase == SPECIAL:
            return self._special_words()
        if phase == AUCTION:
            return self._auction_words(seat)
        if phase == RAEUBER:
            return ("spielen", "raeuber")
        return ()

    def _solo_words(self, seat: int) -> tuple[str, ...]:
        rules = self.profile
        solo = rules.solo and self._standing is None
        if self.hands[seat] & _GEISS:
            return _WORDS[solo, rules.ulti, rules.soli_ulti]
        return _WORDS[solo, False, False]

    def _special_words(self) -> tuple[str, ...]:
        rules = self.profile
        return _SPECIAL_WORDS[rules.piccolo, rules.bettel and self._standing is None]

    def _auction_words(self, seat: int) -> tuple[str, ...]:
        if self._await == "open":
            return ("cego",)
        if self._await == "holder":
            contract = self.profile.ladder[self._level]
            return ("selbst", "gut") if self._can_play(seat, contract) else ("gut",)
        ladder = self.profile.ladder
        nxt = self._level + 1
        if nxt < len(ladder) and self._can_play(seat, ladder[nxt]):
            return _RAISE[ladder[nxt]]
        return ("gut",)

    def _exchange_actions(self, seat: int) -> list[Action]:
        assert self.contract is not None
        ex = EXCHANGES[self.contract]
        hand = self.hands[seat]
        step = self._exchange_step
        get = _WITH_CARDS.get
        keys: list[int]
        if step == "lay-out":
            base = _cards_key(seat, LAY_OUT, 0)
            keys = [base | o for o in self._lay_out_options(hand, ex.lay_out_kind)]
        elif step == "keep":
            pool = hand & ~self.laid_out
            if ex.keep == 1:
                out = _listed(_one_card_lists(seat, KEEP), pool)
                out.extend(self._pre_lead_actions(seat))
                return out
            # Every pair of cards in id order (as ``combinations``), by two plain loops.
            base = _cards_key(seat, KEEP, 0)
            ones = [1 << c for c in bits_list(pool)]
            out = []
            n = len(ones)
            for i in range(n - 1):
                first = base | ones[i]
                for j in range(i + 1, n):
                    key = first | ones[j]
                    action = get(key)
                    out.append(action if action is not None else _cards_action(key))
            out.extend(self._pre_lead_actions(seat))
            return out
        elif step == "press":
            out = _listed(_one_card_lists(seat, PRESS), self._press_pool())
            out.extend(self._pre_lead_actions(seat))
            return out
        else:
            keys = []
        out = [get(k) or _cards_action(k) for k in keys]
        out.extend(self._pre_lead_actions(seat))
        return out

    def _press_pool(self) -> Bits:
        assert self.contract is not None and self.declarer is not None
        ex = EXCHANGES[self.contract]
        hand = self.hands[self.declarer] & ~self.laid_out
        if ex.press == "choice":
            return hand
        return hand & self._picked_up

    def _pre_lead_actions(self, seat: int) -> list[Action]:
        """``withdraw`` and ``aufdecken``: open to the declarer until the first card is led."""
        if self.trick_no or self._trick or seat != self.declarer:
            return []
        out: list[Action] = []
        if self._exchange_step not in ("lay-out", "keep"):
            base = _cards_key(seat, WITHDRAW, 0)
            for leer, better in self._withdraw_options():
                out.append(_cards_action(base | 1 << leer | 1 << better))
        if self._may_aufdecken():
            out.append(_say(seat, "aufdecken"))
        return out

    def _withdraw_options(self) -> list[tuple[int, int]]:
        if not self.profile.withdraw_leere or self.declarer is None:
            return []
        hand = self.hands[self.declarer]
        out = []
        for leer in bits_list(self.withdrawable & self.laid_out):
            suit = SUIT_OF[leer]
            for better in bits_list(self._picked_up & hand & SUIT_MASK[suit] & ~self.laid_out):
                if better > leer:
                    out.append((leer, better))
        return out

    def _may_aufdecken(self) -> bool:
        return (
            self.profile.pflichtsolo
            and self.contract in EXCHANGES
            and self.trick_no == 0
            and not self._trick
            and self.phase in (EXCHANGE, PLAY)
        )

    def legal_mask(self) -> Bits:
        """The cards the seat to play may play now (play phase only), as a bit set."""
        mask = self._mask
        if mask < 0:
            mask = self._mask = self._legal_mask()
        return mask

    def _legal_mask(self) -> Bits:
        seat = self.to_act_seat
        if self.phase != PLAY or seat is None:
            return 0
        hand = self.hands[seat]
        trick = self._trick
        trick_no = self.trick_no
        if trick_no >= self._special:
            if not trick:
                return hand
            follow = hand & SUIT_MASK[SUIT_OF[trick[0][1]]]
            if follow:
                return follow
            return hand & TRUMPS or hand
        if trick_no < self.forced_leads and not trick and seat == self.declarer:
            return hand & self.laid_out
        if self.contract == "raeuber" and self.profile.raeuber_nach_regeln and trick_no < 3:
            must = _RULE_CARDS[trick_no]
            if hand & (1 << must):
                return 1 << must
            later = 0
            for c in _RULE_CARDS[trick_no + 1 :]:
                later |= 1 << c
            reduced = hand & ~later
            if reduced:
                hand = reduced
        if not trick:
            return hand
        led = SUIT_OF[trick[0][1]]
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow
        trumps = hand & TRUMPS
        return trumps if trumps else hand

    # ---------------------------------------------------------------- verification

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self._check(action)
        except (IllegalAction, CardError):
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` naming the rule ``action`` breaks."""
        self._check(action)

    def _card(self, text: str) -> int:
        card = ID.get(text)
        return card if card is not None else C.parse(text)

    def _check(self, action: Action) -> tuple[str, Any]:
        """Check ``action`` without changing anything; return what ``apply`` needs."""
        seat = action.seat
        if not 0 <= seat < self._seats:
            raise IllegalAction(f"there is no seat {seat} at this table")
        if self.phase == OVER:
            raise IllegalAction("the deal is over")
        act = action.act
        if seat != self.to_act_seat:
            raise IllegalAction(f"it is seat {self.to_act_seat}'s turn, not seat {seat}'s")
        phase = self.phase
        if act in ("withdraw", "aufdecken") and phase in (EXCHANGE, PLAY):
            return self._check_pre_lead(action)
        if phase == PLAY:
            if act != "play":
                raise IllegalAction(f"'{act}' is not possible now: the cards are being played")
            if action.card is None:
                raise IllegalAction("'play' needs a 'card'")
            card = self._card(action.card)
            self._check_play(seat, card)
            return ("play", card)
        if action.card is not None or (action.cards and phase != EXCHANGE):
            raise IllegalAction(f"'{act}' takes no cards")
        if phase == EXCHANGE:
            return self._check_exchange(action)
        if act not in self._words(seat):
            raise IllegalAction(self._why_not_word(seat, act, _WHERE[phase]))
        return ("say", act)

    def _why_not_word(self, seat: int, act: str, where: str) -> str:
        rules = self.profile
        phase = self.phase
        if phase == SOLO:
            if act in ("ulti", "soli-ulti") and not (
                rules.ulti if act == "ulti" else rules.soli_ulti
            ):
                return f"{act} is not played under these rules"
            if act in ("ulti", "soli-ulti"):
                return f"seat {seat} cannot announce {act}: does not hold the Geiß (T1)"
            if act == "solo" and self._standing is not None:
                return "a Solo already stands: only Ulti outranks it"
            if act == "solo":
                return "Solo is not played under these rules"
        if phase == SPECIAL and act in ("piccolo", "bettel"):
            if not getattr(rules, act):
                return f"{act} is not played under these rules"
            return "Piccolo already stands and outranks Bettel; an equal bid loses to the earlier"
        if phase == AUCTION:
            ladder = rules.ladder
            if self._await == "open":
                return "Vorhand must open the auction with 'cego'"
            if act in ladder:
                nxt = self._level + 1
                if self._await == "holder":
                    return f"seat {seat} holds {ladder[self._level]}: answer 'selbst' or 'gut'"
                if nxt >= len(ladder):
                    return f"{ladder[self._level]} is the top of the ladder: only 'gut' is left"
                if act != ladder[nxt]:
                    return f"bids go up exactly one step: the next is '{ladder[nxt]}'"
                return self._cannot_play_reason(seat, act)
            if act == "selbst" and self._await == "holder":
                return self._cannot_play_reason(seat, ladder[self._level])
            if act == "selbst":
                return "'selbst' answers a raise: the challenger must raise or say 'gut'"
        return f"'{act}' is not possible in {where}"

    def _check_play(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        if not hand & (1 << card):
            raise IllegalAction(f"seat {seat} does not hold {CODES[card]}")
        mask = self.legal_mask()
        if mask & (1 << card):
            return
        trick = self._trick
        trick_no = self.trick_no
        if trick_no < self.forced_leads and not trick and seat == self.declarer:
            if self.contract == "geiss":
                raise IllegalAction("the Geiß (T1) must be led to trick 1")
            raise IllegalAction(
                f"seat {seat} must lead a laid-out card ({_names(self.laid_out)}) "
                f"to trick {trick_no + 1}"
            )
        if self.contract == "raeuber" and self.profile.raeuber_nach_regeln and trick_no < 3:
            must = _RULE_CARDS[trick_no]
            if hand & (1 << must):
                raise IllegalAction(
                    f"Räuber nach Regeln: {CODES[must]} must fall in trick {trick_no + 1}"
                )
            if card in _RULE_CARDS[trick_no + 1 :]:
                when = _RULE_CARDS.index(card) + 1
                raise IllegalAction(
                    f"Räuber nach Regeln: {CODES[card]} may not fall before trick {when}"
                )
        led = SUIT_OF[trick[0][1]]
        follow = hand & SUIT_MASK[led]
        if follow:
            raise IllegalAction(
                f"seat {seat} must follow {C.describe_suit(led)}: holds {_names(mask)}"
            )
        raise IllegalAction(
            f"seat {seat} cannot follow {C.describe_suit(led)} and must trump: holds {_names(mask)}"
        )

    def _check_pre_lead(self, action: Action) -> tuple[str, Any]:
        seat = action.seat
        act = action.act
        if seat != self.declarer or self.trick_no or self._trick:
            raise IllegalAction(f"'{act}' is only for the declarer before the first lead")
        if act == "aufdecken":
            if not self._may_aufdecken():
                if not self.profile.pflichtsolo:
                    raise IllegalAction("aufdecken is not played under these rules")
                raise IllegalAction("aufdecken is only possible in an auction contract")
            return ("aufdecken", None)
        if not self.profile.withdraw_leere:
            raise IllegalAction("withdrawing a laid-out Leere is not played under these rules")
        if self._exchange_step in ("lay-out", "keep"):
            raise IllegalAction("a Leere may be withdrawn only after taking up the blind")
        if len(action.cards) != 2:
            raise IllegalAction(
                "'withdraw' needs two cards: the laid-out Leere and its replacement"
            )
        leer, better = (self._card(t) for t in action.cards)
        if (leer, better) in self._withdraw_options():
            return ("withdraw", (leer, better))
        if not self.withdrawable & self.laid_out & (1 << leer):
            raise IllegalAction(f"{CODES[leer]} is not a laid-out Leere that may be withdrawn")
        raise IllegalAction(
            f"{CODES[better]} must be a higher card of the same suit found in the blind"
        )

    def _check_exchange(self, action: Action) -> tuple[str, Any]:
        seat = action.seat
        act = action.act
        step = self._exchange_step
        assert self.contract is not None
        ex = EXCHANGES[self.contract]
        if act != step:
            raise IllegalAction(f"the declarer must now {step.replace('-', ' ')}, not '{act}'")
        picked = [self._card(t) for t in action.cards]
        mask = 0
        for card in picked:
            if mask & (1 << card):
                raise IllegalAction(f"card {CODES[card]} is named twice")
            mask |= 1 << card
        hand = self.hands[seat]
        missing = mask & ~hand
        if missing:
            raise IllegalAction(f"seat {seat} does not hold {_names(missing)}")
        if step == "lay-out":
            options = self._lay_out_options(hand, ex.lay_out_kind)
            if mask in options:
                return ("lay-out", mask)
            raise IllegalAction(self._lay_out_reason(ex.lay_out_kind, mask))
        if step == "keep":
            if len(picked) != ex.keep:
                raise IllegalAction(f"{self.contract} keeps exactly {ex.keep} hand card(s)")
            if mask & self.laid_out:
                raise IllegalAction("a laid-out card cannot also be kept")
            return ("keep", mask)
        if len(picked) != 1:
            raise IllegalAction("press exactly one card")
        if mask & self.laid_out:
            raise IllegalAction("a laid-out card cannot be pressed")
        if not mask & self._press_pool():
            raise IllegalAction(f"{self.contract}: the card pressed must be one picked up")
        return ("press", mask)

    def _lay_out_reason(self, kind: str, mask: Bits) -> str:
        need = {
            "geiss": "Geiß lays out the T1",
            "leere": "lay out exactly one Leere",
            "same": "lay out two Leere of one suit",
            "different": "lay out two Leere of different suits",
        }[kind]
        if self.profile.picture_for_leere and kind != "geiss":
            need += " (a picture only when no Leere will do)"
        return f"{self.contract}: {need}, not {_names(mask) or 'nothing'}"

    # --------------------------------------------------------------------- apply

    def apply(self, action: Action) -> Action:
        """Verify ``action`` and apply it; return its canonical form (also the log entry)."""
        # The hot path first: a card of the seat to play that is in its legal set (the legal
        # mask, which is empty outside the play). One of the engine's own play actions is
        # known by its identity; an equal one made elsewhere by its fields. Anything else takes
        # the full check below, which names the rule it breaks.
        played = _PLAYED.get(id(action))
        to_act = self.to_act_seat
        if played is not None and to_act is not None:
            seat, bit, entry = played
            if seat == to_act:
                legal = self._mask
                if legal < 0:
                    legal = self._legal_mask()
                if legal & bit:
                    self._mask = -1
                    self.history.append(action)
                    self.hands[seat] = self.hands[seat] ^ bit
                    if self.laid_out:
                        self.laid_out &= ~bit
                    trick = self._trick
                    trick.append(entry)
                    if len(trick) < self._n:
                        self.to_act_seat = self._next_seat[seat]
                    else:
                        self._end_trick(trick)
                    return action
        said = _SAID.get(id(action))
        if said is not None and to_act is not None:
            seat, word = said
            if seat == to_act and word in (self._offer or self._words(seat)):
                self._mask = -1
                self._offer = None
                self.history.append(action)
                self._say_word(seat, word)
                return action
        return self._apply_checked(action)

    def _apply_checked(self, action: Action) -> Action:
        """``apply`` for any action: the full check, then the change."""
        seat = action.seat
        kind, data = self._check(action)
        self._mask = -1
        self._offer = None
        canonical: Action
        if kind == "play":
            canonical = _PLAY[seat][data]
            self.history.append(canonical)
            self._play(seat, data)
            return canonical
        if kind == "say":
            canonical = _say(seat, data)
            self.history.append(canonical)
            self._say_word(seat, data)
            return canonical
        if kind == "aufdecken":
            canonical = _say(seat, "aufdecken")
            self.history.append(canonical)
            self._aufdecken()
            return canonical
        if kind == "withdraw":
            leer, better = data
            canonical = _cards_action(_cards_key(seat, WITHDRAW, 1 << leer | 1 << better))
            self.history.append(canonical)
            self._withdraw(leer, better)
            return canonical
        mask: Bits = data
        canonical = _cards_action(_cards_key(seat, _CARD_ACTS.index(kind), mask))
        self.history.append(canonical)
        self._exchange(kind, mask)
        return canonical

    def _say_word(self, seat: int, word: str) -> None:
        phase = self.phase
        if phase == SOLO:
            if word == "fort":
                if (
                    self.profile.pflichtsolo
                    and self._standing is None
                    and is_pflichtsolo(self.profile, self.dealt[seat], self.players)
                ):
                    self.schinder.append(seat)
            else:
                self._standing = (seat, word)
                if word in ("ulti", "soli-ulti"):
                    self._after_solo_round()
                    return
            if not self._speak_next():
                self._after_solo_round()
        elif phase == GEGENSOLO:
            if word == "gegensolo":
                self._open_auction(seat, gegensolo=True)
            elif not self._speak_next():
                assert self.solo_seat is not None
                self._declare("solo", self.solo_seat)
        elif phase == SPECIAL:
            if word != "fort":
                self._standing = (seat, word)
            if word == "piccolo" or not self._speak_next():
                if self._standing is not None:
                    self._declare(self._standing[1], self._standing[0])
                else:
                    self._open_auction(self.order[0], gegensolo=False)
        elif phase == AUCTION:
            self._bid(seat, word)
        elif phase == RAEUBER:
            if word == "raeuber":
                self.announcer = seat
                self._start_play("raeuber", None)
            else:
                self._declare(self.profile.ladder[0], seat)

    def _bid(self, seat: int, word: str) -> None:
        if self._await == "open":
            self._next_challenger()
        elif self._await == "challenger":
            if word == "gut":
                self.dropped.append(seat)
                self._next_challenger()
            else:
                self._level += 1
                self._raised = True
                self._await = "holder"
                self.to_act_seat = self._holder
        elif word == "selbst":
            self._await = "challenger"
            self.to_act_seat = self._challenger
        else:
            self.dropped.append(seat)
            assert self._challenger is not None
            self._holder = self._challenger
            self._next_challenger()

    def _exchange(self, kind: str, mask: Bits) -> None:
        seat = self.declarer
        assert seat is not None and self.contract is not None
        ex = EXCHANGES[self.contract]
        if kind == "lay-out":
            self.laid_out = mask
            self.shown |= mask
            if ex.lay_out_kind == "geiss":
                self.forced_leads = 1
                self.never_wins |= mask
            elif not self.profile.shown_leere_ordinary:
                self.forced_leads = ex.lay_out
                self.never_wins |= mask
                self.withdrawable = mask & _LEERE
            if ex.keep:
                self._exchange_step = "keep"
            else:
                self._take_blind(mask)
        elif kind == "keep":
            self._take_blind(mask | self.laid_out)
        else:
            self.pressed |= mask
            self.hands[seat] = self.hands[seat] & (~mask)
            self._start_play(self.contract, seat)

    def _take_blind(self, kept: Bits) -> None:
        seat = self.declarer
        assert seat is not None and self.contract is not None
        ex = EXCHANGES[self.contract]
        self.laid_away = self.hands[seat] & ~kept
        self.hands[seat] = kept | self.blind
        self._picked_up = self.blind
        press = ex.press
        if press in ("lowest-trump", "highest-trump"):
            trumps = self.blind & TRUMPS
            if trumps:
                card = lowest(trumps) if press == "lowest-trump" else highest(trumps)
                self.forced_press = 1 << card
                self.hands[seat] = self.hands[seat] & (~self.forced_press)
                press = ""
        if press:
            self._exchange_step = "press"
            self.to_act_seat = seat
        else:
            self._start_play(self.contract, seat)

    def _withdraw(self, leer: int, better: int) -> None:
        """Sonderregel: the laid-out Leere goes back to the hand (never to win); the better
        card found in the blind is laid out in its place (and may win)."""
        self.laid_out = (self.laid_out & ~(1 << leer)) | (1 << better)
        self.withdrawable &= ~(1 << leer)
        self.shown |= 1 << better

    def _aufdecken(self) -> None:
        """All hands are shown; a Solo-Schinder is Berg, else the declarer. The deal ends."""
        self.aufgedeckt = True
        self._finish()

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] = self.hands[seat] & (~(1 << card))
        if self.laid_out:
            self.laid_out &= ~(1 << card)
        trick = self._trick
        trick.append((seat, card))
        if len(trick) < self._n:
            self.to_act_seat = self._next_seat[seat]
        else:
            self._end_trick(trick)

    def _end_trick(self, trick: list[tuple[int, int]]) -> None:
        """Give the full trick to its winner; then the deal ends or the winner leads."""
        pile = 0
        for _, c in trick:
            pile |= 1 << c
        winner = self._winner_of(trick, pile)
        self.piles[winner] = self.piles[winner] | pile
        self.tricks_won[winner] = self.tricks_won[winner] + 1
        self.last_trick = (tuple(trick), winner)
        self._last_winner = self.leader = self.to_act_seat = winner
        self._trick = []
        trick_no = self.trick_no = self.trick_no + 1
        if trick_no == self._last or (self._watch and self._decided()):
            self._finish()
        elif trick_no < self.forced_leads:
            self.leader = self.to_act_seat = self.declarer

    def _trick_winner(self, trick: list[tuple[int, int]]) -> int:
        """Highest trump, else the highest card of the suit led; a card that may never win is
        passed over, and if nothing else follows or trumps, the card after it takes the trick.
        (Among the trumps, and within a suit, a higher id is the higher card.)"""
        cards = 0
        for _, c in trick:
            cards |= 1 << c
        return self._winner_of(trick, cards)

    def _winner_of(self, trick: list[tuple[int, int]], cards: Bits) -> int:
        """:meth:`_trick_winner` of a trick whose cards are ``cards``."""
        cards &= ~self.never_wins
        best = cards & TRUMPS or cards & SUIT_MASK[SUIT_OF[trick[0][1]]]
        if not best:
            return trick[1][0]
        best = best.bit_length() - 1
        for seat, card in trick:
            if card == best:
                return seat
        raise AssertionError("the best card is in the trick")

    def _decided(self) -> bool:
        """Whether a fixed game's outcome is known before the last trick."""
        if not self.profile.stop_when_decided:
            return False
        contract = self.contract
        declarer = self.declarer
        if declarer is None:
            return False
        if contract == "bettel":
            return self.tricks_won[declarer] > 0
        if contract == "piccolo":
            return self.tricks_won[declarer] > 1
        if contract == "ulti":
            fallen = 0
            for pile in self.piles:
                fallen |= pile
            return bool(fallen & (1 << _T1))
        return False

    # ------------------------------------------------------------------ results

    def _finish(self) -> None:
        self.phase = OVER
        self.is_over = True
        self.to_act_seat = None
        self.leader = None

    def result(self) -> dict[str, Any] | None:
        """The scored result once the deal is over (the record's ``result``), else ``None``.
        Scored when first asked for, not when the last card falls: a finished deal never
        changes, and a loop that only plays deals out need not pay for the score."""
        if not self.is_over:
            return None
        result = self._result
        if result is None:
            result = self._result = self._score()
        return copy.deepcopy(result)

    def _declarer_pile(self) -> tuple[Bits, Bits]:
        """(declarer's counting pile, defenders' pile) including laid-away, pressed and removed
        cards (and the untouched blind in a Solo). They go to the defenders if the declarer took
        no trick."""
        declarer = self.declarer
        assert declarer is not None
        extra = self.laid_away | self.pressed | self.forced_press | self.removed
        if self.contract in ("solo", "soli-ulti"):
            extra |= self.blind
        mine = self.piles[declarer]
        theirs = 0
        for pile in self.piles:
            theirs |= pile
        theirs &= ~mine
        if self.tricks_won[declarer]:
            mine |= extra
        else:
            theirs |= extra
        return mine, theirs

    def card_points(self) -> dict[str, Any]:
        """Card points per side (one-against-all) or per seat (Räuber, Drescher)."""
        rules = self.profile
        halves = scoring.pile_halves
        number = scoring.number_of_halves
        if self.declarer is None:
            per_seat = [number(halves(rules, p)) for p in self.piles]
            out_of_play = self.blind | self.removed
            for hand in self.hands:
                out_of_play |= hand
            return {"seats": per_seat, "out_of_play": number(halves(rules, out_of_play))}
        mine, theirs = self._declarer_pile()
        rest = _ALL & ~(mine | theirs)
        return {
            "declarer": number(halves(rules, mine)),
            "defenders": number(halves(rules, theirs)),
            "out_of_play": number(halves(rules, rest)),
        }

    def _score(self) -> dict[str, Any]:
        rules = self.profile
        seats = self.seats
        contract = self.contract
        declarer = self.declarer
        assert contract is not None
        value = self.value
        assert value is not None
        out: dict[str, Any] = {
            "game": "cego",
            "profile": self.profile.name,
            "options": dict(self.options),
            "dealer": self.dealer,
            "contract": contract,
            "declarer": declarer,
            "value": value,
            "gegensolo": self._gegensolo,
        }
        if contract == "raeuber":
            out["announcer"] = self.announcer
        out["tricks"] = list(self.tricks_won)
        out["card_points"] = self.card_points()
        if contract == "drescher":
            out["last_trick_winner"] = self._last_winner
        if contract in ("ulti", "soli-ulti"):
            assert declarer is not None
            out["last_trick_with_geiss"] = self._ulti_won(declarer)
        if self.declarer is not None and contract in EXCHANGES:
            out["laid_out"] = sorted_codes(self.shown)
            out["laid_away"] = sorted_codes(self.laid_away)
            out["pressed"] = sorted_codes(self.pressed | self.forced_press)
            out["forced_press"] = sorted_codes(self.forced_press)
        if self.aufgedeckt:
            assert declarer is not None
            out["aufgedeckt"] = {"schinder": list(self.schinder)}
            score = scoring.score_aufdecken(
                rules, seats=seats, declarer=declarer, value=value, schinder=self.schinder
            )
        elif contract == "raeuber":
            playing = self.order
            score = scoring.score_raeuber_halves(
                rules,
                seats=seats,
                playing=playing,
                halves={s: scoring.pile_halves(rules, self.piles[s]) for s in playing},
                tricks={s: self.tricks_won[s] for s in playing},
                announcer=self.announcer,
            )
        elif contract == "drescher":
            assert self._last_winner is not None
            score = scoring.score_drescher(rules, seats=seats, last_trick=self._last_winner)
        else:
            assert declarer is not None
            score = self._score_one_against_all(contract, declarer, value)
        out["score"] = scoring.with_money(rules, score)
        return out

    def _ulti_won(self, declarer: int) -> bool:
        """Ulti: the declarer won the last trick, and won it with the Geiß."""
        last = self.last_trick
        if last is None or self.trick_no != hand_size(self.players):
            return False
        cards, winner = last
        return winner == declarer and (declarer, _T1) in cards

    def _score_one_against_all(self, contract: str, declarer: int, value: int) -> dict[str, Any]:
        rules = self.profile
        seats = self.seats
        declarer_tricks = self.tricks_won[declarer]
        defender_tricks = sum(self.tricks_won) - declarer_tricks
        if contract in FIXED:
            if contract == "ulti":
                won = self._ulti_won(declarer)
            elif contract == "piccolo":
                won = declarer_tricks == 1
            else:
                won = declarer_tricks == 0
            return scoring.score_fixed(
                rules, seats=seats, declarer=declarer, contract=contract, won=won
            )
        mine, _ = self._declarer_pile()
        solo_part = scoring.score_game_halves(
            rules,
            seats=seats,
            declarer=declarer,
            value=value,
            declarer_halves=scoring.pile_halves(rules, mine),
            declarer_tricks=declarer_tricks,
            defender_tricks=defender_tricks,
            solo=contract in OWN_HAND,
        )
        if contract != "soli-ulti":
            return solo_part
        ulti_part = scoring.score_fixed(
            rules, seats=seats, declarer=declarer, contract="ulti", won=self._ulti_won(declarer)
        )
        return scoring.combine_soli_ulti(solo_part, ulti_part)

    # -------------------------------------------------------------------- views

    def visible(self, seat: int | None) -> Bits:
        """Every card ``seat`` has seen so far (a spectator: ``None``); see
        :func:`stichwerk.cego.view.visible`."""
        return visible(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now (``None``: a spectator, who sees no hand); built by
        :mod:`stichwerk.cego.view`."""
        return build_view(self, seat, [] if seat is None else self.legal_actions(seat))

    # ------------------------------------------------------------------- records

    def to_record(self) -> dict[str, Any]:
        """The game record of NOTATION.md (with ``result`` once the deal is over)."""
        record: dict[str, Any] = {
            "game": "cego",
            "profile": self.profile.name,
            "options": dict(self.options),
            "players": self.players,
        }
        if self.seats != self.players:
            record["seats"] = self.seats
        record["dealer"] = self.dealer
        record["hands"] = [sorted_codes(h) for h in self.dealt]
        record["blind"] = sorted_codes(self.blind)
        if self.deal_type is not None:
            record["deal_type"] = self.deal_type
        record["actions"] = [a.to_json() for a in self.history]
        if self.is_over:
            record["result"] = self.result()
        return record
