"""Cego's contracts as a table (OpenSpiel's tarok keeps its contracts the same way).

The seven ladder contracts differ only in how the declarer exchanges with the blind; the fixed
games and Räuber are played with the own hand. Values of ladder contracts come from the profile's
ladder (``Profile.value_of``); the fixed games' values are settings.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Exchange:
    """How the declarer of a ladder contract deals with the blind.

    ``lay_out``: cards laid out face up before taking the blind; ``lay_out_kind``: ``"leere"``
    (one Leere), ``"same"`` (two Leere of one suit), ``"different"`` (two Leere of two suits) or
    ``"geiss"`` (the T1). ``keep``: further hand cards kept (the rest is laid away).
    ``press``: ``""`` none, ``"choice"`` any card of the new hand, ``"picked"`` one of the
    picked-up cards, ``"lowest-trump"``/``"highest-trump"`` forced from the blind's trumps.
    """

    lay_out: int
    lay_out_kind: str
    keep: int
    press: str


EXCHANGES: dict[str, Exchange] = {
    "cego": Exchange(0, "", 2, "choice"),
    "halbe": Exchange(1, "leere", 1, "picked"),
    "eine": Exchange(0, "", 1, ""),
    "leere": Exchange(1, "leere", 0, ""),
    "zwei-leere": Exchange(2, "same", 0, "lowest-trump"),
    "zwei-verschiedene": Exchange(2, "different", 0, "highest-trump"),
    "geiss": Exchange(1, "geiss", 0, ""),
}
"""The exchange of each ladder contract (RULINGS.md, "Exchange with the blind")."""

OWN_HAND = ("solo", "ulti", "soli-ulti", "piccolo", "bettel")
"""One-against-all games played with the dealt hand; the blind stays untouched."""

FIXED = ("ulti", "piccolo", "bettel")
"""Games with a fixed written score, won or lost."""

EVERYONE_FOR_HIMSELF = ("raeuber", "drescher")
"""Games without a declarer; Vorhand leads."""

ALL_CONTRACTS = (*EXCHANGES, *OWN_HAND, *EVERYONE_FOR_HIMSELF)
