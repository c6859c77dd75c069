"""The 54-card tarot deck of Cego as small ints, with bit-set masks.

Card ids: ``0..21`` are the trumps T1 (Geiß) .. T21 (Mund), T22 (Gstieß); then the four suits
Kreuz (C), Pik (S), Herz (H), Karo (D), eight cards each, lowest first, so within a suit (and
among trumps) a higher id is a higher card:

- black suits: 7 8 9 10 J R Q K
- red suits:   4 3 2 1 J R Q K   (on red pips the 1 is highest)

The four pip cards of a suit are its *Leere*; J, R (Reiter), Q and K are its pictures (*Bilder*).
Card values are kept in half points: K and the Trull (T22, T21, T1) 9, Q 7, R 5, J 3, the rest 1;
the deck holds 158 half points, 79 points.
"""

from collections.abc import Iterable

from stichwerk.core.bits import Bits, bits_list
from stichwerk.core.cards import parse_card
from stichwerk.core.errors import CardError

Card = int
"""A card id, 0..53."""

TRUMP = 4
"""The suit index of trumps; the four colours are 0 (C) .. 3 (D)."""

SUITS = ("C", "S", "H", "D")
SUIT_NAMES = ("Kreuz", "Pik", "Herz", "Karo")
SUIT_WORDS_EN = ("clubs", "spades", "hearts", "diamonds")

_BLACK_RANKS = ("7", "8", "9", "10", "J", "R", "Q", "K")
_RED_RANKS = ("4", "3", "2", "1", "J", "R", "Q", "K")

T1, T21, T22 = 0, 20, 21
GEISS, MUND, GSTIESS = T1, T21, T22

CODES: tuple[str, ...] = tuple(
    [f"T{n}" for n in range(1, 23)]
    + [s + r for s in SUITS for r in (_BLACK_RANKS if s in "CS" else _RED_RANKS)]
)
"""The notation's code of every card id."""

ID: dict[str, Card] = {code: i for i, code in enumerate(CODES)}

SUIT_OF: tuple[int, ...] = tuple(TRUMP if i < 22 else (i - 22) // 8 for i in range(54))
"""The suit index of every card (``TRUMP`` for trumps)."""

RANK_IN_SUIT: tuple[int, ...] = tuple(i if i < 22 else (i - 22) % 8 for i in range(54))
"""0..7 within a colour (0 the lowest Leere, 7 the King); 0..21 among trumps."""

ALL: Bits = (1 << 54) - 1
TRUMPS: Bits = (1 << 22) - 1
SUIT_MASK: tuple[Bits, ...] = (*tuple(255 << 22 + 8 * s for s in range(4)), TRUMPS)
"""Bits of each colour 0..3, and of the trumps at index ``TRUMP``."""
LEERE: Bits = sum(0x0F << (22 + 8 * s) for s in range(4))
"""The 16 pip cards."""
BILDER: Bits = sum(0xF0 << (22 + 8 * s) for s in range(4))
"""The 16 picture cards (J, R, Q, K)."""
COLOURS: Bits = LEERE | BILDER

_HALF_VALUES = (1, 1, 1, 1, 3, 5, 7, 9)
HALF_POINTS: tuple[int, ...] = tuple(
    (9 if i in (T1, T21, T22) else 1) if i < 22 else _HALF_VALUES[(i - 22) % 8] for i in range(54)
)
"""Each card's value in half points (two-card count)."""

WHOLE_POINTS: tuple[int, ...] = tuple((h + 1) // 2 for h in HALF_POINTS)
"""Each card's value as a whole number (three-card count: 5, 4, 3, 2, 1)."""

REMOVED_FOR_THREE: Bits = (1 << ID["D4"]) | (1 << ID["S7"]) | (1 << ID["C7"])
"""The three cards taken out when three play (51 cards remain)."""

SPECIAL_NAMES: dict[str, str] = {
    "gstieß": "T22", "gstiess": "T22", "stieß": "T22", "stiess": "T22", "sküs": "T22",
    "skus": "T22", "sküs 22": "T22", "22": "T22",
    "mund": "T21", "mond": "T21",
    "geiß": "T1", "geiss": "T1", "kleiner mann": "T1", "der kleine mann": "T1",
    "pagat": "T1",
}  # fmt: skip
for _n in range(1, 23):
    for _word in ("trumpf", "tarock", "truck", "trock", "trump", "tarok"):
        SPECIAL_NAMES[f"{_word} {_n}"] = f"T{_n}"


def parse(text: object) -> Card:
    """The id of a card written as a code or a German name (``"Gstieß"``, ``"Herz Reiter"``).

    >>> CODES[parse("Gstiess")], CODES[parse("herz 1")], CODES[parse("kreuz könig")]
    ('T22', 'H1', 'CK')
    """
    return ID[parse_card(text, ID, SPECIAL_NAMES)]


def parse_many(items: Iterable[object], what: str) -> list[Card]:
    """Card ids of a list of names; a duplicate is an error."""
    out: list[Card] = []
    for item in items:
        card = parse(item)
        if card in out:
            raise CardError(f"card {CODES[card]} appears twice in {what}")
        out.append(card)
    return out


def codes(mask: Bits) -> list[str]:
    """The codes of a bit set, in id order."""
    return [CODES[i] for i in bits_list(mask)]


def sort_key(card: Card) -> tuple[int, int]:
    """Display order of a hand: trumps high to low, then C, S, H, D high to low."""
    suit = SUIT_OF[card]
    return (0 if suit == TRUMP else 1 + suit, -RANK_IN_SUIT[card])


def describe_suit(suit: int) -> str:
    """The English word for a suit in messages ("must follow hearts")."""
    return "trumps" if suit == TRUMP else SUIT_WORDS_EN[suit]


def half_points(mask: Bits) -> int:
    """The value of a set of cards in half points."""
    return sum(HALF_POINTS[i] for i in bits_list(mask))
