"""The lean path for bots and simulation: the play of the tricks on bare bit sets.

:class:`~stichwerk.doppelkopf.state.DokoState` checks every action, keeps the record and answers
views; a search bot that plays out thousands of deals per decision needs none of that.
:class:`FastPlay` keeps what the tricks need (hands, the trick, the card order of the game type
with the Herz 10 and Sau rules, who is on which party once known, the Hochzeit's open partner
question) in plain ints and lists, plays card ids without checks, and at the end gives the
:class:`~stichwerk.doppelkopf.scoring.DealFacts` that the engine's own scoring turns into a
settlement. A property test keeps it in agreement with the engine, card for card.
"""

import random

from stichwerk.doppelkopf import announcements as ann_rules
from stichwerk.doppelkopf.cards import CARD_AUGEN, code_of
from stichwerk.doppelkopf.profiles import Profile
from stichwerk.doppelkopf.scoring import FUCHS, PARTIES, Announced, DealFacts, trick_extras
from stichwerk.doppelkopf.snapshot import Snapshotted
from stichwerk.doppelkopf.trumps import (
    SCHEME_OF_GAME,
    Order,
    finds_hochzeit_partner,
    may_show_sau,
    order_for,
    sau_cards,
    winner_of,
)

CQ = code_of("CQ")


class FastPlay:
    """The trick-play part of a deal, for play-outs. Seats are table seats."""

    __slots__ = (
        "ann",
        "ansage_order",
        "augen",
        "big_min",
        "clarified",
        "events",
        "game_type",
        "hands",
        "hochzeiter",
        "last_ids",
        "last_seats",
        "last_winner",
        "n_tricks",
        "next_seat",
        "order",
        "party",
        "played",
        "profile",
        "sau_seat",
        "seats",
        "soloist",
        "supersau_seat",
        "to_act",
        "trick_ids",
        "trick_no",
        "trick_seats",
        "tricks_won",
        "voids",
    )

    def __init__(self, profile: Profile, seats: int = 4) -> None:
        self.profile = profile
        self.seats = seats
        self.hands: list[int] = [0] * seats
        self.next_seat: list[int] = [-1] * seats
        self.to_act = 0
        self.trick_seats: list[int] = []
        self.trick_ids: list[int] = []
        self.trick_no = 0
        self.n_tricks = 12 if profile.with_nines else 10
        self.order: Order = order_for("normal", profile)
        self.augen = [0] * seats
        self.tricks_won = [0] * seats
        self.big_min = profile.doppelkopf_min_augen or 241
        """The Augen of a Doppelkopf trick (241: the table does not score them)."""
        self.played = 0
        self.voids = [0] * seats
        """Per seat, the classes (Fehl suits 0..3, trump 4) it has shown out of, as bits."""
        self.party = [-1] * seats
        """0 Re, 1 Kontra, -1 not known yet (an open Hochzeit) or sitting out."""
        self.game_type = "normal"
        self.soloist = -1
        self.hochzeiter = -1
        self.clarified = 0
        """The number of the Hochzeit's Klärungsstich once settled (0: open)."""
        self.events: list[tuple[list[int], list[int], int]] = []
        """Finished tricks that may earn extras: (seats, card ids, winner)."""
        self.last_seats: list[int] = []
        self.last_ids: list[int] = []
        self.last_winner = -1
        self.ann = [Announced(), Announced()]
        self.ansage_order: list[int] = []
        self.sau_seat = -1
        self.supersau_seat = -1

    # ------------------------------------------------------------------ set-up

    def set_order(self, seat_order: list[int] | tuple[int, ...]) -> None:
        """The four playing seats from Vorhand on (a sitting dealer is left out)."""
        for i, s in enumerate(seat_order):
            self.next_seat[s] = seat_order[(i + 1) % len(seat_order)]

    def set_game(self, game_type: str) -> None:
        """The game type and its card order (with the Sau and Superschweine if announced)."""
        self.game_type = game_type
        self.order = order_for(
            SCHEME_OF_GAME[game_type],
            self.profile,
            sau=self.sau_seat >= 0,
            supersau=self.supersau_seat >= 0,
        )

    @classmethod
    def from_state(cls, state: Snapshotted) -> "FastPlay":
        """Copy a deal in its play phase (the tricks so far included)."""
        d = state.snapshot()
        if d.phase != "play" or d.to_act is None:
            raise ValueError("FastPlay starts from a deal in its play phase")
        fast = cls(d.profile, d.seats)
        fast.set_order(d.seat_order)
        fast.hands = list(d.hands)
        fast.party = list(d.party)
        fast.soloist = -1 if d.soloist is None else d.soloist
        fast.hochzeiter = -1 if d.hochzeiter is None else d.hochzeiter
        fast.clarified = d.clarified_at
        fast.sau_seat = -1 if d.sau_seat is None else d.sau_seat
        fast.supersau_seat = -1 if d.supersau_seat is None else d.supersau_seat
        fast.game_type = d.game_type
        fast.order = d.order
        fast.ann = list(d.ann)
        fast.ansage_order = list(d.ansage_order)
        for seats, ids, win in d.tricks:
            fast._record_events(list(seats), list(ids), win)
            fast.last_seats, fast.last_ids, fast.last_winner = list(seats), list(ids), win
        # Every card played so far, and who showed out of the class led.
        kind = fast.order.cls
        played = [(seats, ids) for seats, ids, _ in d.tricks]
        for seats, ids in [*played, (d.trick_seats, d.trick_ids)]:
            for s, i in zip(seats, ids, strict=True):
                fast.played |= 1 << i
                if kind[i >> 1] != kind[ids[0] >> 1]:
                    fast.voids[s] |= 1 << kind[ids[0] >> 1]
        fast.augen = list(d.augen)
        fast.tricks_won = list(d.tricks_won)
        fast.trick_seats = list(d.trick_seats)
        fast.trick_ids = list(d.trick_ids)
        fast.trick_no = len(d.tricks)
        fast.n_tricks = d.hand_size
        fast.to_act = d.to_act
        return fast

    def copy(self) -> "FastPlay":
        """An independent copy (the profile, order and seat ring are shared, being fixed)."""
        other = FastPlay.__new__(FastPlay)
        other.profile = self.profile
        other.seats = self.seats
        other.hands = self.hands[:]
        other.next_seat = self.next_seat
        other.to_act = self.to_act
        other.trick_seats = self.trick_seats[:]
        other.trick_ids = self.trick_ids[:]
        other.trick_no = self.trick_no
        other.n_tricks = self.n_tricks
        other.order = self.order
        other.augen = self.augen[:]
        other.big_min = self.big_min
        other.tricks_won = self.tricks_won[:]
        other.played = self.played
        other.voids = self.voids[:]
        other.party = self.party[:]
        other.game_type = self.game_type
        other.soloist = self.soloist
        other.hochzeiter = self.hochzeiter
        other.clarified = self.clarified
        other.events = self.events[:]
        other.last_seats = self.last_seats
        other.last_ids = self.last_ids
        other.last_winner = self.last_winner
        other.ann = self.ann[:]
        other.ansage_order = self.ansage_order[:]
        other.sau_seat = self.sau_seat
        other.supersau_seat = self.supersau_seat
        return other

    # ------------------------------------------------------------------ play

    @property
    def over(self) -> bool:
        """Whether every trick has been played."""
        return self.trick_no >= self.n_tricks

    def legal(self) -> int:
        """The cards the seat to act may play, as a bit set."""
        hand = self.hands[self.to_act]
        if self.trick_ids:
            order = self.order
            follow = hand & order.class_masks[order.cls[self.trick_ids[0] >> 1]]
            if follow:
                return follow
        return hand

    def play(self, card: int) -> None:
        """Play card id ``card`` for the seat to act (no checks)."""
        seat = self.to_act
        self.hands[seat] ^= 1 << card
        self.played |= 1 << card
        ids = self.trick_ids
        if ids:
            cls = self.order.cls
            led = cls[ids[0] >> 1]
            if cls[card >> 1] != led:
                self.voids[seat] |= 1 << led
        ids.append(card)
        self.trick_seats.append(seat)
        if len(ids) < 4:
            self.to_act = self.next_seat[seat]
            return
        seats = self.trick_seats
        last = self.trick_no == self.n_tricks - 1
        win = seats[winner_of(ids, self.order, last)]
        points = CARD_AUGEN[ids[0]] + CARD_AUGEN[ids[1]] + CARD_AUGEN[ids[2]] + CARD_AUGEN[ids[3]]
        self.augen[win] += points
        self.tricks_won[win] += 1
        if (
            points >= self.big_min
            or ids[0] >> 1 == FUCHS
            or ids[1] >> 1 == FUCHS
            or ids[2] >> 1 == FUCHS
            or ids[3] >> 1 == FUCHS
        ):
            self._record_events(seats, ids, win)
        self.trick_no += 1
        if self.hochzeiter >= 0 and not self.clarified:
            self._clarify_hochzeit(ids, seats, win)
        self.last_seats, self.last_ids, self.last_winner = seats, ids, win
        self.trick_seats = []
        self.trick_ids = []
        self.to_act = win

    def _record_events(self, seats: list[int], ids: list[int], win: int) -> None:
        """Remember a trick that may earn extras (a Fuchs, a Doppelkopf); the parties are
        settled only at the end, by :func:`~stichwerk.doppelkopf.scoring.trick_extras`."""
        self.events.append((seats, ids, win))

    def _clarify_hochzeit(self, ids: list[int], seats: list[int], win: int) -> None:
        p = self.profile
        h = self.hochzeiter
        if win != h and finds_hochzeit_partner(p, self.order, ids, seats.index(win)):
            self.clarified = self.trick_no
            for s in range(self.seats):
                if self.next_seat[s] >= 0:
                    self.party[s] = 0 if s in (h, win) else 1
            return
        if self.trick_no >= p.hochzeit_tricks:
            self.clarified = self.trick_no
            self.soloist = h
            for s in range(self.seats):
                if self.next_seat[s] >= 0:
                    self.party[s] = 0 if s == h else 1
            self.game_type = "solo-trumpf"

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal cards to the end of the deal."""
        randrange = rng.randrange
        while self.trick_no < self.n_tricks:
            mask = self.legal()
            k = randrange(mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            self.play((mask & -mask).bit_length() - 1)

    # ------------------------------------------------------------------ announcements, Sau

    def announce(self, seat: int, act: str, cards: int | None = None) -> bool:
        """Seat says ``re``, ``kontra`` or an Absage; ``False`` (and nothing said) where the
        rules of :mod:`~stichwerk.doppelkopf.announcements` refuse it. ``cards``: what the seat
        held when saying it (default: what it holds now), for the deadlines and the reply rule
        (a roll-out scores a word said before its tricks by passing the count of then)."""
        party = self.party[seat]
        if party < 0 or (act == "re" and party != 0) or (act == "kontra" and party != 1):
            return False
        if self.hochzeiter >= 0 and not self.clarified:
            return False  # nobody announces before the Hochzeit's Klärungsstich
        if cards is None:
            cards = self.hands[seat].bit_count()
        shift = 0
        if self.hochzeiter >= 0 and self.profile.hochzeit_shift:
            shift = self.clarified - 1
        mine = self.ann[party]
        new = ann_rules.check(
            self.profile, act, party, mine, self.ann[1 - party],
            held=cards + 12 - self.n_tricks, shift=shift, hand=cards, explain=False,
        )  # fmt: skip
        if not isinstance(new, Announced):
            return False
        if new.ansage and not mine.ansage:
            self.ansage_order.append(party)
        self.ann[party] = new
        return True

    def sau_codes(self) -> tuple[int, int] | None:
        """The (ace, nine-or-king) codes of the trump suit when this game type has a Sau."""
        return sau_cards(self.profile, self.game_type)

    def sau_allowed(self, seat: int) -> bool:
        """Whether ``seat`` may say ``sau`` now (the engine's rule)."""
        return may_show_sau(
            self.profile,
            self.game_type,
            self.hands[seat],
            shown=self.sau_seat >= 0,
            started=bool(self.played),
            to_act=seat == self.to_act,
        )

    def announce_sau(self, seat: int) -> None:
        """Seat shows the Sau: both trump aces become the highest trumps."""
        self.sau_seat = seat
        self.set_game(self.game_type)

    def announce_supersau(self, seat: int) -> None:
        """Seat shows the Superschweine (after a Sau)."""
        self.supersau_seat = seat
        self.set_game(self.game_type)

    # ------------------------------------------------------------------ the end

    def facts(self, extras: dict[str, tuple[str, ...]] | None = None) -> DealFacts:
        """What scoring needs, once every trick is played (``extras``: those of :meth:`extras`
        already found for these tricks; they do not depend on the announcements)."""
        party = self.party
        playing = [s for s in range(self.seats) if self.next_seat[s] >= 0]
        re = tuple(s for s in playing if party[s] == 0)
        kontra = tuple(s for s in playing if party[s] == 1)
        last = PARTIES[self.ansage_order[1]] if len(self.ansage_order) == 2 else None
        return DealFacts(
            seats=self.seats,
            game_type=self.game_type,
            re=re,
            kontra=kontra,
            re_augen=sum(self.augen[s] for s in re),
            re_tricks=sum(self.tricks_won[s] for s in re),
            kontra_tricks=sum(self.tricks_won[s] for s in kontra),
            announced={"re": self.ann[0], "kontra": self.ann[1]},
            last_announcer=last,
            extras=self.extras() if extras is None else extras,
        )

    def extras(self) -> dict[str, tuple[str, ...]]:
        """Fuchs, Karlchen, Doppelkarlchen, Karlchen gefangen and Doppelkopf per party."""
        out: dict[str, list[str]] = {"re": [], "kontra": []}
        tricks = list(self.events)
        if self.last_ids and (not tricks or tricks[-1][1] != self.last_ids):
            tricks.append((self.last_seats, self.last_ids, self.last_winner))
        sau = self.sau_seat >= 0
        for seats, ids, win in tricks:
            last = ids == self.last_ids
            found = trick_extras(
                self.profile, self.game_type, sau, self.party, seats, ids, win, last
            )
            for party, item in found:
                out[party].append(item)
        return {k: tuple(v) for k, v in out.items()}
