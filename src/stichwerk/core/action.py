"""One action of a deal: what a seat says or does, exactly as the game record writes it.

An action is the same small frozen object in every layer: the engine offers it in
``legal_actions``, a bot returns it, the server receives it, and the record stores it as
``{"seat": s, "act": NAME, ...}`` (see ``shared/spec/NOTATION.md``). Cards are the notation's
codes (``"T22"``, ``"HK"``, ``"CQ"``), so an action needs no deck to be read or written.
"""

from dataclasses import dataclass
from typing import Any

from stichwerk.core.errors import RecordError


@dataclass(frozen=True, slots=True)
class Action:
    """``seat`` says or does ``act``; ``card``, ``cards`` and ``type`` carry what it needs.

    >>> Action(2, "play", card="HK").to_json()
    {'seat': 2, 'act': 'play', 'card': 'HK'}
    >>> Action.from_json({"seat": 0, "act": "keep", "cards": ["T21", "T20"]})
    Action(seat=0, act='keep', card=None, cards=('T21', 'T20'), type=None)
    """

    seat: int
    act: str
    card: str | None = None
    cards: tuple[str, ...] = ()
    type: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record's form of this action."""
        out: dict[str, Any] = {"seat": self.seat, "act": self.act}
        if self.card is not None:
            out["card"] = self.card
        if self.cards:
            out["cards"] = list(self.cards)
        if self.type is not None:
            out["type"] = self.type
        return out

    @classmethod
    def from_json(cls, obj: object) -> "Action":
        """Read an action from the record's form. Checks the shape only, not the rules.

        Card codes are kept as written; the engine parses them (with aliases) when it applies.
        """
        if not isinstance(obj, dict):
            raise RecordError(f"an action must be an object, not {type(obj).__name__}")
        unknown = set(obj) - {"seat", "act", "card", "cards", "type"}
        if unknown:
            raise RecordError(f"unknown key {sorted(unknown)[0]!r} in action")
        seat = obj.get("seat")
        act = obj.get("act")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError("an action needs an integer 'seat'")
        if not isinstance(act, str) or not act:
            raise RecordError("an action needs a string 'act'")
        card = obj.get("card")
        if card is not None and not isinstance(card, str):
            raise RecordError(f"'card' of {act!r} must be a card code string")
        cards_raw = obj.get("cards", [])
        if not isinstance(cards_raw, list) or not all(isinstance(c, str) for c in cards_raw):
            raise RecordError(f"'cards' of {act!r} must be a list of card code strings")
        kind = obj.get("type")
        if kind is not None and not isinstance(kind, str):
            raise RecordError(f"'type' of {act!r} must be a string")
        return cls(seat, act.lower(), card, tuple(cards_raw), kind)

    def __str__(self) -> str:
        extra = ""
        if self.card is not None:
            extra = f" {self.card}"
        elif self.cards:
            extra = " " + " ".join(self.cards)
        if self.type is not None:
            extra += f" {self.type}"
        return f"seat {self.seat}: {self.act}{extra}"
