"""One Doppelkopf deal as a deterministic state machine behind the ``GameState`` protocol.

Phases, in order: ``reservations`` (each seat from Vorhand says ``gesund`` or ``vorbehalt``),
``declarations`` (each holder of a Vorbehalt names it, in seat order, while it could still win),
``armut`` (the passed trumps are offered clockwise: ``take`` or ``decline``), ``armut-return``
(the taker gives back as many cards), ``play`` (twelve tricks; announcements and ``sau`` out of
turn at any time they are allowed), then ``done``. A redeal claim or an Armut nobody takes ends
the deal at once; its result says so and it does not count.

Hot paths (listing and applying plays) use bit sets and cached ``Action`` objects, so that random
full deals run at thousands per second through the validated interface.
"""

from collections.abc import Sequence
from itertools import combinations
from typing import Any, Final

from stichwerk.core.action import Action
from stichwerk.core.bits import Bits
from stichwerk.core.errors import IllegalAction, StichwerkError
from stichwerk.doppelkopf import announcements as ann_rules
from stichwerk.doppelkopf.cards import (
    CARD_AUGEN,
    CODE_INDEX,
    CODES,
    NINES,
    code_mask,
    code_of,
    codes_in,
    codes_of_mask,
    id_mask,
    parse_code,
)
from stichwerk.doppelkopf.profiles import NORMAL_GAMES, SOLO_TYPES, Profile
from stichwerk.doppelkopf.scoring import PARTIES, Announced, DealFacts, score, trick_extras
from stichwerk.doppelkopf.snapshot import DokoSnapshot
from stichwerk.doppelkopf.summary import facts_to_summary, redeal_summary
from stichwerk.doppelkopf.trumps import (
    SCHEME_OF_GAME,
    TRUMP,
    Order,
    armut_trumps,
    finds_hochzeit_partner,
    may_show_sau,
    order_for,
    reservation_kinds,
    sau_cards,
    winner_of,
)
from stichwerk.doppelkopf.view import build_view

# The phases. Module constants are ``Final``: compiled (stichwerk.native), they are read as C
# statics instead of looked up in the module's dictionary each time.
RESERVATIONS: Final = "reservations"
DECLARATIONS: Final = "declarations"
ARMUT: Final = "armut"
ARMUT_RETURN: Final = "armut-return"
PLAY: Final = "play"
DONE: Final = "done"

_KIND_OF_ACT: Final = {"hochzeit": "hochzeit", "armut": "armut", "schmeissen": "schmeissen",
                "neu-geben": "neu-geben"}  # fmt: skip
CQ: Final = code_of("CQ")
CQ_MASK: Final = id_mask("CQ")

MAX_SEATS: Final = 5
PLAY_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(Action(s, "play", card=c) for c in CODES) for s in range(MAX_SEATS)
)
"""The play of code ``c`` by seat ``s`` is ``PLAY_ACTIONS[s][c]``: one object per move."""
_PLAY_OF: Final[dict[int, int]] = {
    id(action): seat * 32 + code
    for seat, row in enumerate(PLAY_ACTIONS)
    for code, action in enumerate(row)
}
"""Seat * 32 + code of each cached play action, by identity: ``apply`` knows one of its own
actions by one lookup (an equal action made elsewhere takes the longer way)."""
SIMPLE_ACTIONS: Final[dict[tuple[int, str], Action]] = {
    (s, a): Action(s, a)
    for s in range(MAX_SEATS)
    for a in (
        "gesund",
        "vorbehalt",
        "hochzeit",
        "armut",
        "schmeissen",
        "neu-geben",
        "take",
        "decline",
        "sau",
        "supersau",
        "forfeit",
        *ann_rules.ANNOUNCE_ACTS,
    )
}
SOLO_ACTIONS: Final[dict[tuple[int, str], Action]] = {
    (s, t): Action(s, "solo", type=t) for s in range(MAX_SEATS) for t in SOLO_TYPES
}
SUIT_WORDS: Final = ("Kreuz", "Pik", "Herz", "Karo")


def _err(message: str) -> IllegalAction:
    return IllegalAction(message)


SLOTS = (
    "_actions",
    "_ann",
    "_ann_codes",
    "_ann_log",
    "_ann_table",
    "_ansage_order",
    "_armut_cards",
    "_armut_declared",
    "_armut_offer",
    "_armut_returned",
    "_armut_seat",
    "_armut_taker",
    "_augen",
    "_clarified_at",
    "_dealer",
    "_dealt",
    "_decl_queue",
    "_declarations",
    "_duty",
    "_duty_games_left",
    "_duty_owed",
    "_elig",
    "_forced",
    "_forfeit",
    "_game_type",
    "_hand_size",
    "_hands",
    "_hochzeiter",
    "_leader",
    "_next",
    "_ntm",
    "_options",
    "_order",
    "_party",
    "_phase",
    "_played",
    "_redeal",
    "_reservations",
    "_result",
    "_sau_possible",
    "_sau_seat",
    "_seat_order",
    "_seats",
    "_shift",
    "_soloist",
    "_supersau_seat",
    "_to_act",
    "_trick_ids",
    "_trick_seats",
    "_tricks",
    "_tricks_won",
    "_version",
    "profile",
)
"""The state's attributes (``clone`` copies them by name)."""


class DokoState:
    """A Doppelkopf deal: see the module docstring for the phases."""

    game = "doppelkopf"

    __slots__ = SLOTS

    def __init__(
        self,
        profile: Profile | None = None,
        hands: Sequence[Bits] = (),
        dealer: int = 0,
        *,
        options: dict[str, Any] | None = None,
        duty_owed: frozenset[int] = frozenset(),
        forced: int | None = None,
        duty_games_left: int | None = None,
    ) -> None:
        if profile is None:
            return  # a blank, for ``clone`` to fill
        self.profile = profile
        self._options = dict(options or {})
        self._ntm = order_for("normal", profile).trump_mask  # the normal game's trumps
        self._elig: dict[int, list[str]] = {}
        self._seats = len(hands)
        if self._seats not in (4, 5):
            raise StichwerkError("a doppelkopf table has 4 or 5 seats")
        if not 0 <= dealer < self._seats:
            raise StichwerkError(f"dealer must be a seat from 0 to {self._seats - 1}")
        self._dealer = dealer
        order = [(dealer + i) % self._seats for i in range(1, self._seats + 1)]
        if self._seats == 5:
            order.remove(dealer)
        self._seat_order: tuple[int, ...] = tuple(order)
        after = [-1] * self._seats
        for i, s in enumerate(order):
            after[s] = order[(i + 1) % 4]
        self._next: tuple[int, ...] = tuple(after)  # the next seat to play, by seat
        self._dealt = list(hands)
        self._hands = list(hands)
        self._hand_size = hands[order[0]].bit_count()
        self._duty_owed = duty_owed
        self._forced = forced
        self._duty_games_left = duty_games_left
        self._phase = RESERVATIONS
        self._to_act: int | None = order[0]
        self._reservations: dict[int, str] = {}
        self._declarations: dict[int, tuple[str, str | None]] = {}
        self._decl_queue: list[int] = []
        self._game_type = "normal"
        self._soloist: int | None = None
        self._duty = False
        self._party: list[int] = [-1] * self._seats  # 0 Re, 1 Kontra, -1 unknown / sitting
        self._hochzeiter: int | None = None
        self._clarified_at = 0  # the Klärungsstich's number once the Hochzeit is settled
        self._armut_seat: int | None = None
        self._armut_cards = 0
        self._armut_offer: list[int] = []
        self._armut_taker: int | None = None
        self._armut_returned = 0
        self._armut_declared: list[int] = []
        self._order: Order = order_for("normal", profile)
        self._sau_seat: int | None = None
        self._supersau_seat: int | None = None
        self._leader = order[0]
        self._trick_ids: list[int] = []
        self._trick_seats: list[int] = []
        self._tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self._augen = [0] * self._seats
        self._tricks_won = [0] * self._seats
        self._played = [0] * self._seats
        self._ann: list[Announced] = [Announced(), Announced()]
        self._ann_log: list[tuple[int, str]] = []
        self._ansage_order: list[int] = []
        self._ann_table = _ann_table(profile)
        self._ann_codes = [0, 0]  # each party's announcements as one small int (table keys)
        self._shift = 0  # the Hochzeit shift of every deadline once the partner is known
        self._sau_possible = False
        self._version = 0
        self._actions: list[Action] = []
        self._redeal: str | None = None
        self._forfeit: int | None = None
        self._result: dict[str, Any] | None = None
        if forced is not None:
            if forced not in self._seat_order:
                raise StichwerkError(f"the forced seat {forced} is not dealt in")
            self._phase = DECLARATIONS
            self._decl_queue = [forced]
            self._to_act = forced

    # ------------------------------------------------------------------ protocol basics

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def is_over(self) -> bool:
        return self._phase == DONE

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far (the record's ``actions``)."""
        return list(self._actions)

    @property
    def seat_order(self) -> tuple[int, ...]:
        """The dealt seats from Vorhand on."""
        return self._seat_order

    @property
    def game_type(self) -> str:
        """The game type as the engine knows it (a Stilles Solo shows only to its soloist)."""
        return self._game_type

    def hand(self, seat: int) -> Bits:
        """The cards ``seat`` holds now (engine use; views show only the viewer's own)."""
        return self._hands[seat]

    def hand_codes(self, seat: int) -> list[str]:
        return codes_of_mask(self._hands[seat])

    def dealt_codes(self, seat: int) -> list[str]:
        return codes_of_mask(self._dealt[seat])

    # ------------------------------------------------------------------ facts used by rules

    def _normal_trumps(self) -> Bits:
        return self._ntm

    def _trump_count(self, hand: Bits) -> int:
        return (hand & self._normal_trumps()).bit_count()

    def _armut_count(self, hand: Bits) -> int:
        return armut_trumps(self.profile, hand)

    def _eligible(self, seat: int) -> list[str]:
        """The reservation kinds ``seat`` may declare (solo first)."""
        hit = self._elig.get(seat)
        if hit is None:
            hit = self._elig[seat] = self._find_eligible(seat)
        return hit

    def _find_eligible(self, seat: int) -> list[str]:
        return reservation_kinds(self.profile, self._dealt[seat])

    def _kind_rank(self, kind: str) -> int:
        for i, group in enumerate(self.profile.reservation_order):
            if kind in group:
                return i
        raise AssertionError(kind)

    def _solo_rank(self, solo_type: str) -> int:
        for i, group in enumerate(self.profile.solo_rank):
            if solo_type in group:
                return i
        return len(self.profile.solo_rank)

    def _decl_key(self, seat: int, kind: str, solo_type: str | None) -> tuple[int, int, int]:
        """Smaller wins: the kind's rank, then (solo-rank tables) the solo type, then seat."""
        if kind == "solo":
            is_duty = seat in self._duty_owed or seat == self._forced
            kind = "pflicht-solo" if is_duty else "lust-solo"
        sub = 0
        if kind.endswith("solo") and self.profile.solo_conflict == "solo-rank" and solo_type:
            sub = self._solo_rank(solo_type)
        return (self._kind_rank(kind), sub, self._seat_order.index(seat))

    def _best_possible(self, seat: int) -> tuple[int, int, int]:
        keys = []
        for kind in self._eligible(seat):
            if kind == "solo":
                keys += [self._decl_key(seat, "solo", t) for t in self.profile.solo_types]
            else:
                keys.append(self._decl_key(seat, kind, None))
        return min(keys)

    def _best_declaration(self) -> tuple[int, str, str | None] | None:
        best: tuple[tuple[int, int, int], int, str, str | None] | None = None
        for seat, (kind, solo_type) in self._declarations.items():
            key = self._decl_key(seat, kind, solo_type)
            if best is None or key < best[0]:
                best = (key, seat, kind, solo_type)
        return None if best is None else best[1:]

    def party_of(self, seat: int) -> str | None:
        """``"re"`` or ``"kontra"`` once the seat's party is settled (engine knowledge)."""
        p = self._party[seat]
        return None if p < 0 else PARTIES[p]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if seat is None:
            seat = self._to_act
            if seat is None:
                return []
        if not 0 <= seat < self._seats or self._phase == DONE:
            return []
        phase = self._phase
        if phase == PLAY:
            if seat == self._to_act:
                out = self._plays(seat)
                out += self._announcements(seat)
                return out
            return list(self._announcements(seat))
        if seat != self._to_act:
            return []
        if phase == RESERVATIONS:
            out = []
            if self._gesund_allowed(seat):
                out.append(SIMPLE_ACTIONS[(seat, "gesund")])
            if self._eligible(seat):
                out.append(SIMPLE_ACTIONS[(seat, "vorbehalt")])
            return out
        if phase == DECLARATIONS:
            return self._declaration_actions(seat)
        if phase == ARMUT:
            return [SIMPLE_ACTIONS[(seat, "take")], SIMPLE_ACTIONS[(seat, "decline")]]
        if phase == ARMUT_RETURN:
            n = self._armut_cards.bit_count()
            return [
                Action(seat, "return", cards=tuple(CODES[c] for c in combo))
                for combo in _code_combinations(self._hands[seat], n)
            ]
        return []

    def _gesund_allowed(self, seat: int) -> bool:
        if self.profile.silent_solo:
            return True
        return (self._dealt[seat] & CQ_MASK) != CQ_MASK

    def _declaration_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        kinds = self._eligible(seat)
        if seat == self._forced:
            kinds = ["solo"]
        for kind in kinds:
            if kind == "solo":
                out += [SOLO_ACTIONS[(seat, t)] for t in self.profile.solo_types]
            elif kind == "armut" and self.profile.armut_cards == "three":
                hand = self._dealt[seat]
                trumps = hand & self._normal_trumps()
                fill = 3 - trumps.bit_count()
                for combo in _code_combinations(hand & ~trumps, max(fill, 0)):
                    cards = codes_of_mask(trumps) + [CODES[c] for c in combo]
                    out.append(Action(seat, "armut", cards=tuple(sorted(cards, key=_code_key))))
            else:
                out.append(SIMPLE_ACTIONS[(seat, kind)])
        return out

    def _plays(self, seat: int) -> list[Action]:
        hand = self._hands[seat]
        if self._trick_ids:
            order = self._order
            follow = hand & order.class_masks[order.cls[self._trick_ids[0] >> 1]]
            if follow:
                hand = follow
        # Code by code, from the lowest: compiled this loop is a few machine instructions per
        # code, where a table of the actions by hand would miss the processor's cache.
        out: list[Action] = []
        row = PLAY_ACTIONS[seat]
        code = 0
        while hand:
            if hand & 3:
                out.append(row[code])
            hand >>= 2
            code += 1
        return out

    def _announcements(self, seat: int) -> "list[Action] | tuple[Action, ...]":
        party = self._party[seat]
        out: list[Action]
        if party >= 0 and (self._hochzeiter is None or self._clarified_at > 0):
            shift = self._shift
            codes = self._ann_codes
            held = 12 - self._played[seat] + shift  # under 32; each party's code under 32
            key = (((seat * 2 + party) * 32 + held) * 32 + codes[party]) * 32 + codes[1 - party]
            hit = self._ann_table.get(key)
            if hit is None:
                hit = tuple(
                    SIMPLE_ACTIONS[(seat, act)]
                    for act in ann_rules.ANNOUNCE_ACTS
                    if act != ("kontra", "re")[party]
                    and isinstance(self._announce_result(seat, party, act, False), Announced)
                )
                self._ann_table[key] = hit
            if not self._sau_possible:
                return hit
            out = list(hit)
        else:
            out = []
        if self._sau_possible:
            if self._sau_allowed(seat):
                out.append(SIMPLE_ACTIONS[(seat, "sau")])
            if self._supersau_allowed(seat):
                out.append(SIMPLE_ACTIONS[(seat, "supersau")])
        return out

    def _announce_open(self) -> bool:
        return self._phase == PLAY and (self._hochzeiter is None or self._clarified_at > 0)

    def _announce_result(
        self, seat: int, party: int, act: str, explain: bool
    ) -> Announced | str | None:
        shift = self._shift
        played = self._played[seat]
        return ann_rules.check(
            self.profile,
            act,
            party,
            self._ann[party],
            self._ann[1 - party],
            held=12 - played,
            shift=shift,
            hand=self._hand_size - played,
            explain=explain,
        )

    def _sau_codes(self) -> tuple[int, int] | None:
        """The (ace, nine-or-king) codes of the trump suit when this game type has a Sau."""
        if self._phase != PLAY:
            return None
        return sau_cards(self.profile, self._game_type)

    def _sau_allowed(self, seat: int) -> bool:
        return self._phase == PLAY and may_show_sau(
            self.profile,
            self._game_type,
            self._hands[seat],
            shown=self._sau_seat is not None,
            started=bool(self._tricks or self._trick_ids),
            to_act=seat == self._to_act,
        )

    def _supersau_allowed(self, seat: int) -> bool:
        if not self.profile.supersau or self._sau_seat is None or self._supersau_seat is not None:
            return False
        codes = self._sau_codes()
        if codes is None:
            return False
        return (self._hands[seat] & code_mask(codes[1])) == code_mask(codes[1])

    # ------------------------------------------------------------------ verify / apply

    def verify(self, action: Action) -> None:
        self._check(action)

    def can(self, action: Action) -> bool:
        try:
            self._check(action)
        except StichwerkError:
            return False
        return True

    def apply(self, action: Action) -> Action:
        # The hot path first: a legal play, by the seat to act, of one of the engine's actions.
        hit = _PLAY_OF.get(id(action), -1)
        if hit >= 0 and self._phase == PLAY and hit >> 5 == self._to_act:
            seat = hit >> 5
            hand = self._hands[seat]
            low = 2 * (hit & 31)  # the id of the code's first copy
            mask = hand & (3 << low)
            if mask:
                if self._trick_ids:
                    order = self._order
                    led = order.class_masks[order.cls[self._trick_ids[0] >> 1]]
                    if not mask & led and hand & led:
                        self._check(action)  # raises with the rule
                self._play(seat, low if mask >> low & 1 else low + 1)
                self._actions.append(action)
                self._version += 1
                return action
        # An equal play made elsewhere.
        if (
            action.act == "play"
            and self._phase == PLAY
            and action.seat == self._to_act
            and action.type is None
            and not action.cards
        ):
            code = CODE_INDEX.get(action.card) if action.card is not None else None
            if code is not None:
                seat = action.seat
                hand = self._hands[seat]
                mask = hand & (3 << (2 * code))
                if mask:
                    if self._trick_ids:
                        order = self._order
                        led = order.class_masks[order.cls[self._trick_ids[0] >> 1]]
                        if not mask & led and hand & led:
                            self._check(action)  # raises with the rule
                    canonical = PLAY_ACTIONS[seat][code]
                    self._play(seat, _lowest_id(mask))
                    self._actions.append(canonical)
                    self._version += 1
                    return canonical
        canonical, effect = self._check(action)
        effect()
        self._actions.append(canonical)
        self._version += 1
        return canonical

    def _check(self, action: Action) -> tuple[Action, Any]:
        """The canonical action and a function that applies it; ``IllegalAction`` if refused."""
        if not isinstance(action, Action):
            raise StichwerkError("not an action")
        seat = action.seat
        if not 0 <= seat < self._seats:
            raise _err(f"there is no seat {seat} (seats 0 to {self._seats - 1})")
        if self._phase == DONE:
            raise _err("the deal is over")
        if self._seats == 5 and seat == self._dealer:
            raise _err(f"seat {seat} deals and sits out this deal")
        act = action.act
        if act in _OUT_OF_TURN and (action.card is not None or action.cards or action.type):
            raise _err(f"{act!r} takes no card, cards or type")
        if act == "forfeit":
            return SIMPLE_ACTIONS[(seat, act)], lambda: self._do_forfeit(seat)
        if act in ann_rules.LEVEL_OF:
            return self._check_announce(seat, act)
        if act == "sau":
            if self._sau_allowed(seat):
                return SIMPLE_ACTIONS[(seat, act)], lambda: self._do_sau(seat)
            raise _err(self._why_no_sau(seat))
        if act == "supersau":
            if self._supersau_allowed(seat):
                return SIMPLE_ACTIONS[(seat, act)], lambda: self._do_supersau(seat)
            raise _err(
                f"seat {seat} may not say supersau: it needs an announced Sau, both "
                "nines of the trump suit in hand and a table that plays Superschweine"
            )
        handler = _TURN_ACTS.get(act)
        if handler is None:
            raise _err(f"unknown action {act!r} in doppelkopf")
        if act in _NO_FIELDS and (action.card is not None or action.cards or action.type):
            raise _err(f"{act!r} takes no card, cards or type")
        if act == "play" and (action.cards or action.type is not None):
            raise _err("'play' takes one 'card' and nothing else")
        if seat != self._to_act:
            raise _err(f"it is not seat {seat}'s turn (seat {self._to_act} is to act)")
        result: tuple[Action, Any] = handler(self, action)
        return result

    # --- reservations

    def _check_reservation(self, action: Action) -> tuple[Action, Any]:
        seat, act = action.seat, action.act
        if self._phase != RESERVATIONS:
            raise _err(f"{act!r} is said only in the reservation round (now: {self._phase})")
        if act == "gesund":
            if not self._gesund_allowed(seat):
                raise _err(
                    f"seat {seat} holds both Kreuz-Damen and must announce a Vorbehalt "
                    "(this table plays no Stilles Solo)"
                )
        elif not self._eligible(seat):
            raise _err(f"seat {seat} has no reservation it could declare")
        return SIMPLE_ACTIONS[(seat, act)], lambda: self._do_reservation(seat, act)

    def _do_reservation(self, seat: int, act: str) -> None:
        self._reservations[seat] = act
        if len(self._reservations) < 4:
            self._to_act = self._next[seat]
            return
        holders = [s for s in self._seat_order if self._reservations[s] == "vorbehalt"]
        if not holders:
            self._start_without_reservation()
            return
        self._phase = DECLARATIONS
        self._decl_queue = holders
        self._to_act = holders[0]

    def _check_declaration(self, action: Action) -> tuple[Action, Any]:
        seat, act = action.seat, action.act
        if self._phase != DECLARATIONS:
            raise _err(f"{act!r} is declared only after a Vorbehalt (now: {self._phase})")
        kinds = self._eligible(seat)
        if seat == self._forced and act != "solo":
            raise _err(f"seat {seat} is vorgeführt and must play a solo")
        kind = "solo" if act == "solo" else _KIND_OF_ACT[act]
        if kind not in kinds:
            raise _err(self._why_not_eligible(seat, kind))
        solo_type: str | None = None
        canonical: Action
        if kind == "solo":
            solo_type = action.type
            if solo_type not in self.profile.solo_types:
                known = ", ".join(self.profile.solo_types)
                raise _err(f"unknown or disallowed solo type {solo_type!r} (this table: {known})")
            canonical = SOLO_ACTIONS[(seat, solo_type)]
        elif kind == "armut" and self.profile.armut_cards == "three":
            passed = self._check_armut_three(seat, action.cards)
            canonical = Action(seat, "armut", cards=tuple(codes_of_mask(passed)))
        else:
            if action.cards or action.card or action.type:
                raise _err(f"{act!r} takes no cards or type")
            canonical = SIMPLE_ACTIONS[(seat, act)]
        return canonical, lambda: self._do_declaration(seat, kind, solo_type, canonical)

    def _why_not_eligible(self, seat: int, kind: str) -> str:
        p = self.profile
        if kind == "solo":
            return "this table plays no solos"
        if kind == "hochzeit":
            return f"Hochzeit needs both Kreuz-Damen (seat {seat} does not hold them)"
        if kind == "armut":
            if not p.armut:
                return "this table plays no Armut"
            n = self._armut_count(self._dealt[seat])
            return f"Armut needs at most {p.armut_max_trumps} trumps (seat {seat} holds {n})"
        if kind == "schmeissen":
            if not p.schmeissen_min_nines:
                return "this table plays no Schmeißen"
            n = (self._dealt[seat] & NINES).bit_count()
            return (
                f"Schmeißen needs at least {p.schmeissen_min_nines} nines (seat {seat} holds {n})"
            )
        if not p.neu_geben_below_trumps:
            return "this table plays no Neu Geben"
        n = self._trump_count(self._dealt[seat])
        return (
            f"Neu Geben needs fewer than {p.neu_geben_below_trumps} trumps (seat {seat} holds {n})"
        )

    def _check_armut_three(self, seat: int, cards: tuple[str, ...]) -> Bits:
        hand = self._dealt[seat]
        passed = self._take_cards(hand, cards, f"seat {seat}")
        trumps = hand & self._normal_trumps()
        want = max(3, trumps.bit_count())  # uncounted Füchse may make it more than three
        if len(cards) != want:
            raise _err(f"Armut passes exactly {want} cards here (got {len(cards)})")
        if passed & trumps != trumps:
            raise _err("Armut passes every trump of the hand")
        return passed

    def _take_cards(self, hand: Bits, cards: tuple[str, ...], who: str) -> Bits:
        """The card ids for ``cards`` out of ``hand`` (copies taken lowest first)."""
        taken = 0
        for text in cards:
            try:
                code = parse_code(text)
            except StichwerkError as exc:
                raise _err(str(exc)) from None
            free = hand & code_mask(code) & ~taken
            if not free:
                raise _err(f"{who} does not hold {'another ' if taken & code_mask(code) else ''}"
                           f"{CODES[code]}")  # fmt: skip
            taken |= free & -free
        return taken

    def _do_declaration(
        self, seat: int, kind: str, solo_type: str | None, canonical: Action
    ) -> None:
        self._declarations[seat] = (kind, solo_type)
        if kind == "armut":
            self._armut_declared.append(seat)
            if canonical.cards:
                self._armut_cards = self._take_cards(self._dealt[seat], canonical.cards, "")
        self._decl_queue.pop(0)
        while self._decl_queue:
            nxt = self._decl_queue[0]
            best = self._best_declaration()
            assert best is not None
            cur = self._decl_key(best[0], best[1], best[2])
            could = self._best_possible(nxt)
            two_armut = (
                best[1] == "armut"
                and self.profile.armut_two == "redeal"
                and "armut" in self._eligible(nxt)
            )
            if could < cur or two_armut:
                self._to_act = nxt
                return
            self._decl_queue.pop(0)
        self._resolve_declarations()

    def _resolve_declarations(self) -> None:
        best = self._best_declaration()
        assert best is not None
        seat, kind, solo_type = best
        if kind in ("neu-geben", "schmeissen"):
            self._end_redeal(kind)
        elif kind == "armut":
            if self.profile.armut_two == "redeal" and len(self._armut_declared) > 1:
                self._end_redeal("armut")
                return
            self._start_armut(seat)
        elif kind == "hochzeit":
            self._hochzeiter = seat
            self._party[seat] = 0
            self._start_play("hochzeit", self._seat_order[0])
        else:
            assert solo_type is not None
            self._soloist = seat
            self._duty = seat in self._duty_owed or seat == self._forced
            leader = seat if self.profile.soloist_leads(self._duty) else self._seat_order[0]
            self._set_solo_parties(seat)
            self._start_play(f"solo-{solo_type}", leader)

    def _set_solo_parties(self, soloist: int) -> None:
        for s in self._seat_order:
            self._party[s] = 0 if s == soloist else 1

    def _start_without_reservation(self) -> None:
        for s in self._seat_order:
            if (self._dealt[s] & CQ_MASK) == CQ_MASK:
                # Not announcing the Hochzeit: a Stilles Solo (III.5 / TSR 5.3).
                self._soloist = s
                self._duty = s in self._duty_owed and self.profile.counts_as_duty("solo-still")
                self._set_solo_parties(s)
                self._start_play("solo-still", self._seat_order[0])
                return
        for s in self._seat_order:
            self._party[s] = 0 if self._dealt[s] & CQ_MASK else 1
        self._start_play("normal", self._seat_order[0])

    def _start_play(self, game_type: str, leader: int) -> None:
        self._game_type = game_type
        self._order = order_for(SCHEME_OF_GAME[game_type], self.profile)
        self._phase = PLAY
        self._sau_possible = self._sau_codes() is not None
        self._leader = leader
        self._to_act = leader

    def _end_redeal(self, reason: str) -> None:
        self._redeal = reason
        self._finish()

    # --- Armut

    def _start_armut(self, seat: int) -> None:
        self._armut_seat = seat
        if not self._armut_cards:
            self._armut_cards = self._dealt[seat] & self._normal_trumps()
        self._hands[seat] &= ~self._armut_cards
        i = self._seat_order.index(seat)
        self._armut_offer = [self._seat_order[(i + k) % 4] for k in (1, 2, 3)]
        self._phase = ARMUT
        self._to_act = self._armut_offer[0]

    def _check_armut_answer(self, action: Action) -> tuple[Action, Any]:
        seat, act = action.seat, action.act
        if self._phase != ARMUT:
            raise _err(f"{act!r} answers an Armut offer (now: {self._phase})")
        return SIMPLE_ACTIONS[(seat, act)], lambda: self._do_armut_answer(seat, act)

    def _do_armut_answer(self, seat: int, act: str) -> None:
        self._armut_offer.pop(0)
        if act == "take":
            self._armut_taker = seat
            self._hands[seat] |= self._armut_cards
            self._phase = ARMUT_RETURN
            self._to_act = seat
        elif self._armut_offer:
            self._to_act = self._armut_offer[0]
        else:
            self._hands[self._armut_seat or 0] |= self._armut_cards
            self._end_redeal("armut")

    def _check_return(self, action: Action) -> tuple[Action, Any]:
        seat = action.seat
        if self._phase != ARMUT_RETURN:
            raise _err(f"'return' gives back the Armut's cards (now: {self._phase})")
        n = self._armut_cards.bit_count()
        if len(action.cards) != n:
            raise _err(f"the Armut taker returns exactly {n} cards (got {len(action.cards)})")
        back = self._take_cards(self._hands[seat], action.cards, f"seat {seat}")
        canonical = Action(seat, "return", cards=tuple(codes_of_mask(back)))
        return canonical, lambda: self._do_return(seat, back)

    def _do_return(self, seat: int, back: Bits) -> None:
        armut = self._armut_seat
        assert armut is not None
        self._armut_returned = back
        self._hands[seat] &= ~back
        self._hands[armut] |= back
        for s in self._seat_order:
            self._party[s] = 0 if s in (seat, armut) else 1
        self._start_play("armut", self._seat_order[0])

    def returned_trumps(self) -> int:
        """How many trumps the Armut taker gave back (declared per the profile)."""
        return (self._armut_returned & self._normal_trumps()).bit_count()

    # --- play

    def _check_play(self, action: Action) -> tuple[Action, Any]:
        seat = action.seat
        if self._phase != PLAY:
            raise _err(f"no card is played before the game is settled (now: {self._phase})")
        try:
            code = parse_code(action.card)
        except StichwerkError as exc:
            raise _err(str(exc)) from None
        hand = self._hands[seat]
        mask = hand & code_mask(code)
        if not mask:
            raise _err(f"seat {seat} does not hold {CODES[code]}")
        if self._trick_ids:
            order = self._order
            led_cls = order.cls[self._trick_ids[0] >> 1]
            led = order.class_masks[led_cls]
            if not mask & led and hand & led:
                what = "trump" if led_cls == TRUMP else SUIT_WORDS[led_cls]
                holds = " ".join(CODES[c] for c in codes_in(hand & led))
                raise _err(f"seat {seat} must follow {what}: holds {holds}")
        return PLAY_ACTIONS[seat][code], lambda: self._play(seat, _lowest_id(mask))

    def _play(self, seat: int, card: int) -> None:
        """``seat`` plays the card with id ``card`` (the lower copy where it holds both)."""
        self._hands[seat] ^= 1 << card
        self._played[seat] += 1
        self._trick_ids.append(card)
        self._trick_seats.append(seat)
        if len(self._trick_ids) < 4:
            self._to_act = self._next[seat]
            return
        ids = self._trick_ids
        last = self._played[seat] == self._hand_size
        win = self._trick_seats[winner_of(ids, self._order, last)]
        self._tricks.append((tuple(self._trick_seats), tuple(ids), win))
        self._augen[win] += (
            CARD_AUGEN[ids[0]] + CARD_AUGEN[ids[1]] + CARD_AUGEN[ids[2]] + CARD_AUGEN[ids[3]]
        )
        self._tricks_won[win] += 1
        self._trick_ids = []
        self._trick_seats = []
        self._leader = win
        self._to_act = win
        if self._hochzeiter is not None and not self._clarified_at:
            self._clarify_hochzeit(ids, win)
        if last:
            self._finish()

    def _clarify_hochzeit(self, ids: list[int], win: int) -> None:
        number = len(self._tricks)
        h = self._hochzeiter
        assert h is not None
        if win != h:
            won_by = self._tricks[-1][0].index(win)
            if finds_hochzeit_partner(self.profile, self._order, ids, won_by):
                self._clarified_at = number
                self._shift = number - 1 if self.profile.hochzeit_shift else 0
                for s in self._seat_order:
                    self._party[s] = 0 if s in (h, win) else 1
                return
        if number >= self.profile.hochzeit_tricks:
            # No partner: the Hochzeiter plays a Karo solo (IV.1 / TSR 5.3).
            self._clarified_at = number
            self._shift = number - 1 if self.profile.hochzeit_shift else 0
            self._soloist = h
            self._set_solo_parties(h)
            self._game_type = "solo-trumpf"

    # --- announcements, Sau, forfeit

    def _check_announce(self, seat: int, act: str) -> tuple[Action, Any]:
        if self._phase != PLAY:
            raise _err(f"{act!r} is announced once the game is settled (now: {self._phase})")
        if self._hochzeiter is not None and not self._clarified_at:
            raise _err("no announcement before the Hochzeit partner is known")
        party = self._party[seat]
        if act == "re" and party != 0:
            raise _err(f"seat {seat} is not in the Re party: it cannot say re")
        if act == "kontra" and party != 1:
            raise _err(f"seat {seat} is not in the Kontra party: it cannot say kontra")
        res = self._announce_result(seat, party, act, True)
        if not isinstance(res, Announced):
            raise _err(str(res))
        return SIMPLE_ACTIONS[(seat, act)], lambda: self._do_announce(seat, party, res, act)

    def _do_announce(self, seat: int, party: int, new: Announced, act: str) -> None:
        if new.ansage and not self._ann[party].ansage:
            self._ansage_order.append(party)
        self._ann[party] = new
        self._ann_codes[party] = new.absage * 4 + new.late * 2 + new.ansage
        self._ann_log.append((seat, act))

    def _why_no_sau(self, seat: int) -> str:
        if self._sau_seat is not None:
            return f"seat {self._sau_seat} has already announced the Sau"
        codes = self._sau_codes()
        if codes is None:
            return "there is no Sau in this game"
        ace = CODES[codes[0]]
        if (self._hands[seat] & code_mask(codes[0])) != code_mask(codes[0]):
            return f"a Sau needs both {ace} in hand (before the first {ace} is played)"
        if self.profile.sau_deadline == "when-playing":
            return "the Sau is announced by its holder when it is his turn to play"
        return "the Sau is announced before the first card of the deal"

    def _do_sau(self, seat: int) -> None:
        self._sau_seat = seat
        self._order = order_for(SCHEME_OF_GAME[self._game_type], self.profile, sau=True)
        self._ann_log.append((seat, "sau"))

    def _do_supersau(self, seat: int) -> None:
        self._supersau_seat = seat
        scheme = SCHEME_OF_GAME[self._game_type]
        self._order = order_for(scheme, self.profile, sau=True, supersau=True)
        self._ann_log.append((seat, "supersau"))

    def _do_forfeit(self, seat: int) -> None:
        self._forfeit = seat
        if self._phase != PLAY or (self._hochzeiter is not None and not self._clarified_at):
            self._provisional_parties()
        self._finish()

    def _provisional_parties(self) -> None:
        """Parties for a seat leaving before the game is settled.

        An unsettled Hochzeit counts as the Karo solo it becomes without partner; an Armut
        already taken as the Armut game; otherwise the Kreuz-Damen as dealt decide (both in one
        hand: the Stilles Solo it would be).
        """
        if self._hochzeiter is not None:
            self._soloist = self._hochzeiter
            self._set_solo_parties(self._hochzeiter)
            self._game_type = "solo-trumpf"
            return
        if self._armut_taker is not None and self._armut_seat is not None:
            for s in self._seat_order:
                self._party[s] = 0 if s in (self._armut_seat, self._armut_taker) else 1
            self._game_type = "armut"
            return
        for s in self._seat_order:
            if (self._dealt[s] & CQ_MASK) == CQ_MASK:
                self._soloist = s
                self._set_solo_parties(s)
                self._game_type = "solo-still"
                return
        for s in self._seat_order:
            self._party[s] = 0 if self._dealt[s] & CQ_MASK else 1
        self._game_type = "normal"

    # ------------------------------------------------------------------ the end

    def _finish(self) -> None:
        self._phase = DONE
        self._to_act = None
        self._version += 1

    def facts(self) -> DealFacts:
        """What scoring needs (only once the deal is over and was played or forfeited)."""
        re = tuple(s for s in self._seat_order if self._party[s] == 0)
        kontra = tuple(s for s in self._seat_order if self._party[s] == 1)
        re_augen = sum(self._augen[s] for s in re)
        re_tricks = sum(self._tricks_won[s] for s in re)
        ko_tricks = sum(self._tricks_won[s] for s in kontra)
        last = None
        if len(self._ansage_order) == 2:
            last = PARTIES[self._ansage_order[1]]
        return DealFacts(
            seats=self._seats,
            game_type=self._game_type,
            re=re,
            kontra=kontra,
            re_augen=re_augen,
            re_tricks=re_tricks,
            kontra_tricks=ko_tricks,
            announced={"re": self._ann[0], "kontra": self._ann[1]},
            last_announcer=last,
            extras=self._extras() if self._forfeit is None else {},
            verworfen_by=self._forfeit,
        )

    def _extras(self) -> dict[str, tuple[str, ...]]:
        """Fuchs, Karlchen, Doppelkarlchen, Karlchen gefangen and Doppelkopf per party."""
        sau = self._sau_seat is not None
        game_type = self._game_type
        if game_type not in NORMAL_GAMES and (sau or game_type not in self.profile.fox_game_types):
            return {"re": (), "kontra": ()}  # no trick of this game earns an extra
        out: dict[str, list[str]] = {"re": [], "kontra": []}
        n = len(self._tricks)
        for k, (seats, ids, win) in enumerate(self._tricks):
            found = trick_extras(
                self.profile, self._game_type, sau, self._party, seats, ids, win, k == n - 1
            )
            for party, item in found:
                out[party].append(item)
        return {k: tuple(v) for k, v in out.items()}

    def result(self) -> dict[str, Any] | None:
        if self._phase != DONE:
            return None
        if self._result is None:
            self._result = self._build_result()
        return self._result

    def _build_result(self) -> dict[str, Any]:
        zero = [0] * self._seats
        if self._redeal is not None:
            return {
                "complete": True,
                "redeal": self._redeal,
                "counts": self.profile.redeal_counts_as_game,
                "score": {"settlement": zero, "winner": None, "value": 0, "items": []},
                "summary": redeal_summary(
                    self._redeal, self.profile, self._options, self._seats, self._dealer
                ),
            }
        facts = self.facts()
        scored = score(facts, self.profile)
        if self._failed_hochzeit():
            duty = self._hochzeiter in self._duty_owed and self.profile.counts_as_duty(
                facts.game_type, failed_hochzeit=True
            )
        else:
            duty = self._duty and facts.is_solo

        out: dict[str, Any] = {
            "complete": True,
            "game_type": facts.game_type,
            "re": list(facts.re),
            "kontra": list(facts.kontra),
            "soloist": self._soloist if facts.is_solo else None,
            "duty_solo": duty,
            "forced": self._forced is not None,
            "augen": {"re": facts.re_augen, "kontra": 240 - facts.re_augen},
            "tricks": list(self._tricks_won),
            "announcements": {
                "re": facts.ann("re").names("re"),
                "kontra": facts.ann("kontra").names("kontra"),
            },
            "extras": {k: list(v) for k, v in facts.extras.items()},
            "counts": scored.pop("counts", True),
            "score": scored,
            "summary": facts_to_summary(
                facts,
                self.profile,
                self._options,
                hochzeit=self._failed_hochzeit(),
                duty_solo=duty,
            ),
        }
        if self._forfeit is not None:
            out["forfeit"] = self._forfeit
            out["augen"] = None
        if self._armut_seat is not None:
            out["armut"] = {
                "seat": self._armut_seat,
                "taker": self._armut_taker,
                "cards": len(codes_of_mask(self._armut_cards)),
                "returned_trumps": self.returned_trumps()
                if self._armut_taker is not None
                else None,
            }
        if self._hochzeiter is not None:
            out["hochzeit"] = {"seat": self._hochzeiter, "klaerungsstich": self._clarified_at}
        if self._sau_seat is not None:
            out["sau"] = self._sau_seat
        return out

    def _failed_hochzeit(self) -> bool:
        return self._hochzeiter is not None and self._game_type == "solo-trumpf"

    # ------------------------------------------------------------------ copies, views, records

    def clone(self) -> "DokoState":
        """An independent copy: the lists and dicts the state changes in place copied, the rest
        shared (ints, strings, tuples, the frozen rules, the per-profile caches, the cached
        result). Written out slot by slot, which compiled (``stichwerk.native``) is a copy of C
        fields; a test checks that it names every slot."""
        other = DokoState()
        other._actions = self._actions.copy()
        other._ann = self._ann.copy()
        other._ann_codes = self._ann_codes.copy()
        other._ann_log = self._ann_log.copy()
        other._ann_table = self._ann_table
        other._ansage_order = self._ansage_order.copy()
        other._armut_cards = self._armut_cards
        other._armut_declared = self._armut_declared.copy()
        other._armut_offer = self._armut_offer.copy()
        other._armut_returned = self._armut_returned
        other._armut_seat = self._armut_seat
        other._armut_taker = self._armut_taker
        other._augen = self._augen.copy()
        other._clarified_at = self._clarified_at
        other._dealer = self._dealer
        other._dealt = self._dealt.copy()
        other._decl_queue = self._decl_queue.copy()
        other._declarations = self._declarations.copy()
        other._duty = self._duty
        other._duty_games_left = self._duty_games_left
        other._duty_owed = self._duty_owed
        other._elig = self._elig.copy()
        other._forced = self._forced
        other._forfeit = self._forfeit
        other._game_type = self._game_type
        other._hand_size = self._hand_size
        other._hands = self._hands.copy()
        other._hochzeiter = self._hochzeiter
        other._leader = self._leader
        other._next = self._next
        other._ntm = self._ntm
        other._options = self._options.copy()
        other._order = self._order
        other._party = self._party.copy()
        other._phase = self._phase
        other._played = self._played.copy()
        other._redeal = self._redeal
        other._reservations = self._reservations.copy()
        other._result = self._result
        other._sau_possible = self._sau_possible
        other._sau_seat = self._sau_seat
        other._seat_order = self._seat_order
        other._seats = self._seats
        other._shift = self._shift
        other._soloist = self._soloist
        other._supersau_seat = self._supersau_seat
        other._to_act = self._to_act
        other._trick_ids = self._trick_ids.copy()
        other._trick_seats = self._trick_seats.copy()
        other._tricks = self._tricks.copy()
        other._tricks_won = self._tricks_won.copy()
        other._version = self._version
        other.profile = self.profile
        return other

    def view(self, seat: int | None) -> dict[str, Any]:
        viewer = seat if seat is not None and 0 <= seat < self._seats else None
        legal = [] if viewer is None else self.legal_actions(viewer)
        return build_view(self.snapshot(), viewer, legal)

    def to_record(self) -> dict[str, Any]:
        return self.snapshot().to_record()

    def snapshot(self) -> DokoSnapshot:
        """Every fact of the deal now, frozen and typed, for the view, the record, fast play
        and the kernel (they read this, never the state's slots)."""
        return DokoSnapshot(
            profile=self.profile,
            options=dict(self._options),
            seats=self._seats,
            dealer=self._dealer,
            seat_order=self._seat_order,
            phase=self._phase,
            to_act=self._to_act,
            game_type=self._game_type,
            over=self._phase == DONE,
            actions=tuple(self._actions),
            dealt=tuple(self._dealt),
            hands=tuple(self._hands),
            hand_size=self._hand_size,
            reservations=dict(self._reservations),
            declarations=dict(self._declarations),
            party=tuple(self._party),
            hochzeiter=self._hochzeiter,
            clarified_at=self._clarified_at,
            armut_seat=self._armut_seat,
            armut_taker=self._armut_taker,
            armut_cards=self._armut_cards,
            armut_returned=self._armut_returned,
            returned_trumps=self.returned_trumps(),
            trick_ids=tuple(self._trick_ids),
            trick_seats=tuple(self._trick_seats),
            tricks=tuple(self._tricks),
            tricks_won=tuple(self._tricks_won),
            augen=tuple(self._augen),
            played=tuple(self._played),
            ann=(self._ann[0], self._ann[1]),
            ann_log=tuple(self._ann_log),
            ansage_order=tuple(self._ansage_order),
            sau_seat=self._sau_seat,
            supersau_seat=self._supersau_seat,
            soloist=self._soloist,
            duty_owed=self._duty_owed,
            forced=self._forced,
            duty_games_left=self._duty_games_left,
            order=self._order,
            shift=self._shift,
            sau_possible=self._sau_possible,
            result=self.result(),
        )


def _lowest_id(mask: Bits) -> int:
    """The id of the lowest card in ``mask`` (not empty)."""
    return (mask & -mask).bit_length() - 1


def _code_key(code: str) -> int:
    return CODE_INDEX[code]


def _code_combinations(hand: Bits, n: int) -> list[tuple[int, ...]]:
    """Every multiset of ``n`` codes that ``hand`` can give (each once), in code order."""
    pool: list[int] = []
    for c in codes_in(hand):
        pool += [c] * (hand & code_mask(c)).bit_count()
    return sorted(set(combinations(pool, n)))


_ANN_TABLES: Final[dict[Profile, dict[int, tuple[Action, ...]]]] = {}
"""Per profile: the legal announcements for (seat, party, cards held + shift, both parties'
announcements), packed into one small int (``_announcements``). Few keys occur, so listing
announcements is one lookup."""
_LAST_TABLE: Final[list[tuple[Profile, dict[int, tuple[Action, ...]]]]] = []
"""The last profile asked for and its table: hashing a profile hashes its forty fields, and
most deals in a row share one profile object."""


def _ann_table(profile: Profile) -> dict[int, tuple[Action, ...]]:
    """The announcement table of ``profile`` (``_ANN_TABLES``), the last one without a hash."""
    if _LAST_TABLE and _LAST_TABLE[0][0] is profile:
        return _LAST_TABLE[0][1]
    table = _ANN_TABLES.setdefault(profile, {})
    _LAST_TABLE[:] = [(profile, table)]
    return table


_OUT_OF_TURN: Final = frozenset(("forfeit", "sau", "supersau", *ann_rules.ANNOUNCE_ACTS))
_NO_FIELDS: Final = frozenset(("gesund", "vorbehalt", "take", "decline"))
_TURN_ACTS: Final[dict[str, Any]] = {
    "gesund": DokoState._check_reservation,
    "vorbehalt": DokoState._check_reservation,
    "solo": DokoState._check_declaration,
    "hochzeit": DokoState._check_declaration,
    "armut": DokoState._check_declaration,
    "schmeissen": DokoState._check_declaration,
    "neu-geben": DokoState._check_declaration,
    "take": DokoState._check_armut_answer,
    "decline": DokoState._check_armut_answer,
    "return": DokoState._check_return,
    "play": DokoState._check_play,
}
