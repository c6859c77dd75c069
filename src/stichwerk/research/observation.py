"""Observation tensors built from one seat's view, and nothing else.

The encoders read only ``GameState.view(seat)`` (the JSON every bot, message and replay goes
through, so hidden cards are hidden in one place) and the seat's own half-made multi-card choice.
Seats are relative to the viewer: row ``r`` of a per-seat field is the seat ``r`` places after
the viewer (row 0 is the viewer). Every value lies in ``[0, 1]``: flags are 0/1, counts and sizes
are divided by their maximum. Each encoder lists its fields (:attr:`Encoder.fields`), so
``docs/research.md`` shows the layout table by table (a test keeps the two in step).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stichwerk.cego.cards import ID
from stichwerk.cego.fast import trick_winner
from stichwerk.doppelkopf.cards import CODE_INDEX
from stichwerk.research.actions import ActionSpace, space_for

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Field:
    """One named part of an observation: its shape and place in the flat vector."""

    name: str
    shape: tuple[int, ...]
    start: int
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Encoder:
    """A flat float32 vector of named fields; subclasses fill them from a view."""

    game = ""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.space: ActionSpace = space_for(self.game)
        self.fields: list[Field] = []
        self._by_name: dict[str, Field] = {}
        self._declare()

    @property
    def size(self) -> int:
        last = self.fields[-1]
        return last.start + last.size

    def _add(self, name: str, shape: tuple[int, ...], doc: str) -> None:
        start = 0 if not self.fields else self.fields[-1].start + self.fields[-1].size
        f = Field(name, shape, start, doc)
        self.fields.append(f)
        self._by_name[name] = f

    def _declare(self) -> None:
        raise NotImplementedError

    def part(self, out: Array, name: str) -> Array:
        """The view of field ``name`` inside ``out`` (shaped)."""
        f = self._by_name[name]
        return out[f.start : f.start + f.size].reshape(f.shape)

    def encode(self, view: dict[str, Any], pending: Sequence[int] = ()) -> Array:
        """The observation of the view's seat; ``pending`` is its half-made choice."""
        out = np.zeros(self.size, dtype=np.float32)
        self._fill(out, view, pending)
        return out

    def _fill(self, out: Array, view: dict[str, Any], pending: Sequence[int]) -> None:
        raise NotImplementedError

    # helpers shared by both games

    def rel(self, view: dict[str, Any], seat: int) -> int:
        """Seat ``seat`` as seen from the viewer: 0 the viewer, 1 the next seat, ..."""
        return (seat - int(view["seat"])) % self.seats

    def seat_flag(self, out: Array, name: str, view: dict[str, Any], seat: int | None) -> None:
        """One-hot relative seat; fields of size seats + 1 use the last entry for "nobody"."""
        part = self.part(out, name)
        if seat is None:
            if part.shape[0] > self.seats:
                part[self.seats] = 1.0
            return
        part[self.rel(view, seat)] = 1.0

    def one_hot(self, out: Array, name: str, options: Sequence[Any], value: Any) -> None:
        """``value``'s position in ``options`` (the last entry for anything else)."""
        part = self.part(out, name)
        part[options.index(value) if value in options else len(options)] = 1.0

    def pending_cards(self, out: Array, pending: Sequence[int], step: float) -> None:
        cards = self.part(out, "pending")
        acts = self.part(out, "pending_act")
        for index in pending:
            act, card = self.space.split(index)
            cards[self.space.cards.index(card)] += step
            acts[self.space.card_acts.index(act)] = 1.0


# ---------------------------------------------------------------------------------------- Cego

CEGO_PHASES = ("solo", "gegensolo", "special", "auction", "raeuber", "exchange", "play", "over")
CEGO_CONTRACTS = (
    "cego", "halbe", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss",
    "solo", "ulti", "soli-ulti", "piccolo", "bettel", "raeuber", "drescher",
)  # fmt: skip
CEGO_DEAL_TYPES = (None, "drescher", "pflichtraeuber")
CEGO_MAX_VALUE = 100.0
"""Game values are divided by this (the largest, a titisee Ulti/Piccolo/Bettel, is 50; a
schwarzwald Ulti 80)."""


class CegoEncoder(Encoder):
    """Cego: 54 card columns in the engine's card order (T1..T22, then C, S, H, D low to high)."""

    game = "cego"

    def _declare(self) -> None:
        n, c = self.seats, 54
        words = len(self.space.words)
        self._add("hand", (c,), "cards in the viewer's hand")
        self._add("played", (n, c), "cards played so far, by relative seat")
        self._add("trick", (n, c), "cards of the trick in progress, by relative seat")
        self._add("won", (n, c), "cards in the tricks each relative seat has taken")
        self._add("laid_out", (c,), "cards laid out face up and not yet led")
        self._add("shown", (c,), "every card laid out or shown this deal")
        self._add("never_wins", (c,), "cards seen that may never win a trick")
        self._add("blind", (c,), "the blind as the viewer took it up (declarer only)")
        self._add("laid_away", (c,), "cards the viewer laid away (declarer only)")
        self._add("pressed", (c,), "cards the viewer pressed, or saw pressed (declarer only)")
        self._add("shown_press", (c,), "a forced press the rules show to all")
        self._add("pending", (c,), "cards picked so far towards a multi-card action")
        self._add("pending_act", (len(self.space.card_acts),), "the act being picked for")
        self._add("phase", (len(CEGO_PHASES),), "phase: " + " ".join(CEGO_PHASES))
        self._add("to_act", (n,), "the relative seat to act")
        self._add("dealer", (n,), "the dealer's relative seat")
        self._add("declarer", (n + 1,), "the declarer's relative seat (last: none)")
        self._add("announcer", (n + 1,), "who announced Räuber (last: none)")
        self._add("contract", (len(CEGO_CONTRACTS) + 1,), "the contract (last: none yet)")
        self._add("value", (1,), f"the game value / {CEGO_MAX_VALUE:g}")
        self._add("gegensolo", (1,), "the contract was bid after a Gegensolo")
        self._add("deal_type", (len(CEGO_DEAL_TYPES),), "ordinary, Drescher, Pflichträuber")
        self._add("said", (words, n), "each word of the action table said, by relative seat")
        self._add("auction_level", (len(CEGO_CONTRACTS[:7]) + 1,), "the auction's standing bid")
        self._add("holder", (n + 1,), "who holds the auction's bid (last: none)")
        self._add("challenger", (n + 1,), "who challenges it (last: none)")
        self._add("dropped", (n,), "seats out of the auction")
        self._add("hand_sizes", (n,), "cards in each relative seat's hand / 14")
        self._add("tricks_won", (n,), "tricks each relative seat has taken / 13")
        self._add("trick_no", (1,), "tricks completed / 13")

    def _fill(self, out: Array, view: dict[str, Any], pending: Sequence[int]) -> None:
        space = self.space
        for code in view["hand"] or ():
            self.part(out, "hand")[ID[code]] = 1.0
        for key in ("laid_out", "shown", "never_wins", "blind", "laid_away", "pressed"):
            for code in view.get(key) or ():
                self.part(out, key)[ID[code]] = 1.0
        for code in view.get("shown_press") or ():
            self.part(out, "shown_press")[ID[code]] = 1.0
        never = 0
        for code in view.get("never_wins") or ():
            never |= 1 << ID[code]
        played = self.part(out, "played")
        won = self.part(out, "won")
        said = self.part(out, "said")
        players = int(view["players"])
        trick: list[tuple[int, int]] = []
        for entry in view["history"]:
            act, seat = entry["act"], entry["seat"]
            if act == "play":
                card = ID[entry["card"]]
                played[self.rel(view, seat), card] = 1.0
                trick.append((seat, card))
                if len(trick) == players:
                    winner = self.rel(view, trick_winner(trick, never))
                    for _, c in trick:
                        won[winner, c] = 1.0
                    trick = []
            elif "card" not in entry and "cards" not in entry and "count" not in entry:
                said[space.word_index(act), self.rel(view, seat)] = 1.0
        current = self.part(out, "trick")
        for t in view["trick"]:
            current[self.rel(view, t["seat"]), ID[t["card"]]] = 1.0
        self.pending_cards(out, pending, 1.0)
        self.one_hot(out, "phase", CEGO_PHASES, view["phase"])
        if view["to_act"] is not None:
            self.seat_flag(out, "to_act", view, view["to_act"])
        self.seat_flag(out, "dealer", view, view["dealer"])
        self.seat_flag(out, "declarer", view, view["declarer"])
        self.seat_flag(out, "announcer", view, view["announcer"])
        self.one_hot(out, "contract", CEGO_CONTRACTS, view["contract"])
        value = view["value"]
        self.part(out, "value")[0] = min(1.0, (value or 0) / CEGO_MAX_VALUE)
        self.part(out, "gegensolo")[0] = 1.0 if view["gegensolo"] else 0.0
        deal_type = view.get("deal_type")
        self.part(out, "deal_type")[CEGO_DEAL_TYPES.index(deal_type)] = 1.0
        auction = view.get("auction")
        if auction is not None:
            self.one_hot(out, "auction_level", CEGO_CONTRACTS[:7], auction["level"])
            self.seat_flag(out, "holder", view, auction["holder"])
            self.seat_flag(out, "challenger", view, auction["challenger"])
            for s in auction["dropped"]:
                self.part(out, "dropped")[self.rel(view, s)] = 1.0
        else:
            self.one_hot(out, "auction_level", CEGO_CONTRACTS[:7], None)
            self.seat_flag(out, "holder", view, None)
            self.seat_flag(out, "challenger", view, None)
        sizes = self.part(out, "hand_sizes")
        tricks = self.part(out, "tricks_won")
        for s in range(self.seats):
            sizes[self.rel(view, s)] = view["hand_sizes"][s] / 14.0
            tricks[self.rel(view, s)] = view["tricks_won"][s] / 13.0
        self.part(out, "trick_no")[0] = view["trick_no"] / 13.0


# ---------------------------------------------------------------------------------- Doppelkopf

DOKO_PHASES = ("reservations", "declarations", "armut", "armut-return", "play", "done")
DOKO_GAME_TYPES = (
    "normal", "hochzeit", "armut", "solo-damen", "solo-buben", "solo-kreuz", "solo-pik",
    "solo-herz", "solo-trumpf", "solo-fleischlos", "solo-still",
)  # fmt: skip
DOKO_PARTIES = ("re", "kontra")
DOKO_LEVELS = ("keine-90", "keine-60", "keine-30", "schwarz")


class DoppelkopfEncoder(Encoder):
    """Doppelkopf: 24 card columns, one per code (A 10 K Q J 9 of C, S, H, D); a column counts
    the copies (0, ½ or 1 for none, one or both)."""

    game = "doppelkopf"

    def _declare(self) -> None:
        n, c = self.seats, 24
        words = len(self.space.words)
        self._add("hand", (c,), "copies of each card in the viewer's hand / 2")
        self._add("played", (n, c), "copies played so far, by relative seat / 2")
        self._add("trick", (n, c), "the trick in progress, by relative seat / 2")
        self._add("won", (n, c), "copies in the tricks each relative seat has taken / 2")
        self._add("armut_passed", (c,), "the Armut's passed cards (seen by its two seats) / 2")
        self._add("armut_returned", (c,), "the cards given back (seen by the two seats) / 2")
        self._add("pending", (c,), "copies picked so far towards a multi-card action / 2")
        self._add("pending_act", (len(self.space.card_acts),), "the act being picked for")
        self._add("phase", (len(DOKO_PHASES),), "phase: " + " ".join(DOKO_PHASES))
        self._add("to_act", (n,), "the relative seat to act")
        self._add("dealer", (n,), "the dealer's relative seat")
        self._add("game_type", (len(DOKO_GAME_TYPES) + 1,), "the game type as the table knows it")
        self._add("my_party", (3,), "the viewer's party: Re, Kontra, not yet known")
        self._add("parties", (n, 3), "each relative seat's party as far as public")
        self._add("announcements", (2, 5), "Re/Kontra, then keine 90 .. schwarz, per party")
        self._add("said", (words, n), "each word of the action table said, by relative seat")
        self._add("sau", (n + 1,), "who announced the Sau (last: none)")
        self._add("supersau", (n + 1,), "who announced the Supersau (last: none)")
        self._add("soloist", (n + 1,), "the soloist as public (last: none)")
        self._add("hochzeit", (n + 1,), "the Hochzeit's seat (last: none)")
        self._add("partner", (n + 1,), "the Hochzeit's partner once found (last: none)")
        self._add("klaerungsstich", (1,), "the trick that settled the Hochzeit / 12")
        self._add("armut_seat", (n + 1,), "the Armut's seat (last: none)")
        self._add("armut_taker", (n + 1,), "who took the Armut (last: none)")
        self._add("armut_cards", (1,), "how many cards the Armut passed / 12")
        self._add("returned_trumps", (1,), "trumps given back, as declared / 12")
        self._add("hand_sizes", (n,), "cards in each relative seat's hand / 12")
        self._add("tricks_won", (n,), "tricks each relative seat has taken / 12")
        self._add("trick_no", (1,), "tricks completed / 12")

    def _fill(self, out: Array, view: dict[str, Any], pending: Sequence[int]) -> None:
        space = self.space
        half = 0.5
        for code in view["hand"] or ():
            self.part(out, "hand")[CODE_INDEX[code]] += half
        armut = view.get("armut")
        if armut is not None:
            for code in armut.get("passed", ()):
                self.part(out, "armut_passed")[CODE_INDEX[code]] += half
            for code in armut.get("returned", ()):
                self.part(out, "armut_returned")[CODE_INDEX[code]] += half
        played = self.part(out, "played")
        said = self.part(out, "said")
        tricks: list[list[tuple[int, int]]] = [[]]
        for entry in view["history"]:
            act, seat = entry["act"], entry["seat"]
            if act == "play":
                code = CODE_INDEX[entry["card"]]
                played[self.rel(view, seat), code] += half
                if len(tricks[-1]) == 4:
                    tricks.append([])
                tricks[-1].append((seat, code))
            elif act != "return":
                said[space.word_index(act, entry.get("type")), self.rel(view, seat)] = 1.0
        won = self.part(out, "won")
        complete = [t for t in tricks if len(t) == 4]
        last = view["last_trick"]
        for k, trick in enumerate(complete):
            # A trick's winner leads the next one; the latest trick's winner is in the view.
            if k + 1 < len(tricks) and tricks[k + 1]:
                winner = tricks[k + 1][0][0]
            else:
                winner = last["winner"]
            for _, code in trick:
                won[self.rel(view, winner), code] += half
        current = self.part(out, "trick")
        for t in view["trick"]:
            current[self.rel(view, t["seat"]), CODE_INDEX[t["card"]]] += half
        self.pending_cards(out, pending, half)
        self.one_hot(out, "phase", DOKO_PHASES, view["phase"])
        if view["to_act"] is not None:
            self.seat_flag(out, "to_act", view, view["to_act"])
        self.seat_flag(out, "dealer", view, view["dealer"])
        self.one_hot(out, "game_type", DOKO_GAME_TYPES, view["game_type"])
        self.one_hot(out, "my_party", DOKO_PARTIES, view["my_party"])
        parties = self.part(out, "parties")
        for s, p in enumerate(view["parties"]):
            parties[self.rel(view, s), DOKO_PARTIES.index(p) if p in DOKO_PARTIES else 2] = 1.0
        announced = self.part(out, "announcements")
        for k, party in enumerate(DOKO_PARTIES):
            for name in view["announcements"][party]:
                announced[k, 0 if name == party else 1 + DOKO_LEVELS.index(name)] = 1.0
        self.seat_flag(out, "sau", view, view["sau"])
        self.seat_flag(out, "supersau", view, view["supersau"])
        self.seat_flag(out, "soloist", view, view["soloist"])
        hochzeit = view.get("hochzeit") or {}
        self.seat_flag(out, "hochzeit", view, hochzeit.get("seat"))
        self.seat_flag(out, "partner", view, hochzeit.get("partner"))
        self.part(out, "klaerungsstich")[0] = (hochzeit.get("klaerungsstich") or 0) / 12.0
        info = armut or {}
        self.seat_flag(out, "armut_seat", view, info.get("seat"))
        self.seat_flag(out, "armut_taker", view, info.get("taker"))
        self.part(out, "armut_cards")[0] = info.get("cards", 0) / 12.0
        returned = info.get("returned_trumps", 1 if info.get("returned_trump") else 0)
        self.part(out, "returned_trumps")[0] = returned / 12.0
        sizes = self.part(out, "hand_sizes")
        tricks_won = self.part(out, "tricks_won")
        for s in range(self.seats):
            sizes[self.rel(view, s)] = view["hand_sizes"][s] / 12.0
            tricks_won[self.rel(view, s)] = view["tricks_won"][s] / 12.0
        self.part(out, "trick_no")[0] = len(complete) / 12.0


def encoder_for(game: str, seats: int) -> Encoder:
    """The observation encoder of ``game`` at a table of ``seats``."""
    if game == "cego":
        return CegoEncoder(seats)
    return DoppelkopfEncoder(seats)
