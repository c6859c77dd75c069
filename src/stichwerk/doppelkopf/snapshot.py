"""A Doppelkopf deal as frozen, typed facts: what the view, the record, fast play and the kernel
read of a state.

The state (:mod:`stichwerk.doppelkopf.state`) keeps its facts in private slots that it changes in
place; :meth:`DokoState.snapshot` copies them, once, into a :class:`DokoSnapshot` whose lists are
tuples. The modules that read a deal without playing it depend on this module only, never on the
state's privates, so the state may change how it stores a fact without them noticing, and no
import goes in a circle (snapshot <- state <- record; snapshot <- view, fast, kernel).
The record of a deal is written from its snapshot (:meth:`DokoSnapshot.to_record`).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from stichwerk.core.action import Action
from stichwerk.core.bits import Bits
from stichwerk.doppelkopf.cards import codes_of_mask
from stichwerk.doppelkopf.profiles import Profile
from stichwerk.doppelkopf.scoring import Announced
from stichwerk.doppelkopf.trumps import Order

Trick = tuple[tuple[int, ...], tuple[int, ...], int]
"""A finished trick: the seats in the order they played, the card ids, the winner."""


@dataclass(frozen=True, slots=True)
class DokoSnapshot:
    """Every fact of a deal at one moment (engine knowledge: hidden cards included; the view
    decides what a seat may see). Seats not dealt in (a 5-table's dealer) hold ``0``/``-1``."""

    profile: Profile
    options: Mapping[str, Any]
    """The table's options as the deal was made with them (the record's ``options``)."""
    seats: int
    dealer: int
    seat_order: tuple[int, ...]
    """The dealt seats from Vorhand on."""
    phase: str
    to_act: int | None
    game_type: str
    """As the engine knows it (a Stilles Solo included, which the view may hide)."""
    over: bool
    actions: tuple[Action, ...]
    dealt: tuple[Bits, ...]
    hands: tuple[Bits, ...]
    hand_size: int
    reservations: Mapping[int, str]
    declarations: Mapping[int, tuple[str, str | None]]
    party: tuple[int, ...]
    """Per seat: 0 Re, 1 Kontra, -1 not known yet or not dealt in."""
    hochzeiter: int | None
    clarified_at: int
    """The Klärungsstich's number once a Hochzeit is settled (0 before, and without one)."""
    armut_seat: int | None
    armut_taker: int | None
    armut_cards: Bits
    armut_returned: Bits
    returned_trumps: int
    """How many trumps the Armut taker gave back."""
    trick_ids: tuple[int, ...]
    trick_seats: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    augen: tuple[int, ...]
    played: tuple[int, ...]
    """Cards each seat has played."""
    ann: tuple[Announced, Announced]
    """Re's and Kontra's announcements."""
    ann_log: tuple[tuple[int, str], ...]
    """Every announcement, Sau and Supersau said, in order: (seat, act)."""
    ansage_order: tuple[int, ...]
    """The parties (0 Re, 1 Kontra) in the order they made their first Ansage."""
    sau_seat: int | None
    supersau_seat: int | None
    soloist: int | None
    duty_owed: frozenset[int]
    forced: int | None
    duty_games_left: int | None
    order: Order
    """The card order in force (with the Sau and Superschweine once announced)."""
    shift: int
    """The Hochzeit's shift of every announcement deadline once the partner is known."""
    sau_possible: bool
    result: dict[str, Any] | None
    """The result once the deal is over (the state's own, cached)."""

    def to_record(self) -> dict[str, Any]:
        """The game record of the deal (NOTATION.md; with ``result`` once it is over)."""
        rec: dict[str, Any] = {
            "game": "doppelkopf",
            "profile": self.profile.name,
            "options": dict(self.options),
            "players": 4,
            "dealer": self.dealer,
            "hands": [codes_of_mask(h) for h in self.dealt],
            "actions": [a.to_json() for a in self.actions],
        }
        if self.seats == 5:
            rec["seats"] = 5
        if self.duty_owed:
            rec["duty_solo_owed"] = sorted(self.duty_owed)
        if self.forced is not None:
            rec["duty_solo_forced"] = self.forced
        if self.duty_games_left is not None:
            rec["duty_solo_games_left"] = self.duty_games_left
        if self.over:
            rec["result"] = self.result
        return rec


class Snapshotted(Protocol):
    """Anything that gives a snapshot of a deal (the state; a test's stand-in)."""

    def snapshot(self) -> DokoSnapshot: ...
