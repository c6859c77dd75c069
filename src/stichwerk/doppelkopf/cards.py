"""The 48 Doppelkopf cards: codes, ids that tell the two copies apart, Augen, bit sets.

A *code* names a card as NOTATION.md writes it (``"CQ"``, ``"H10"``); each code stands for both
copies. A *card id* (0..47) names one physical copy: ``id = code * 2 + copy``. Hands are bit sets
of card ids (``stichwerk.core.bits``), so a hand can hold both copies of a card. Where order
matters ("the second Herz 10 beats the first") the engine uses the order of play, not the copy.

>>> CODES[code_of("CQ")], AUGEN[code_of("DA")]
('CQ', 11)
>>> [CODES[c] for c in codes_in(id_mask("CQ") | id_mask("H10"))]
['CQ', 'H10']
"""

from collections.abc import Mapping
from typing import Final

from stichwerk.core.bits import Bits
from stichwerk.core.cards import parse_card

SUITS: Final = ("C", "S", "H", "D")
"""Kreuz, Pik, Herz, Karo: the suit letters, in the order of the code table."""
SUIT_NAMES: Final = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}
RANKS: Final = ("A", "10", "K", "Q", "J", "9")
"""Ace, ten, king, queen (Dame), jack (Bube), nine: the rank letters of the code table."""
RANK_NAMES: Final = {"A": "As", "10": "10", "K": "König", "Q": "Dame", "J": "Bube", "9": "9"}
RANK_AUGEN: Final = (11, 10, 4, 3, 2, 0)

CODES: Final[tuple[str, ...]] = tuple(s + r for s in SUITS for r in RANKS)
"""The 24 codes; ``code = suit * 6 + rank``."""
NCODES: Final = len(CODES)
NCARDS: Final = 2 * NCODES
CODE_INDEX: Final[Mapping[str, int]] = {c: i for i, c in enumerate(CODES)}
AUGEN: Final[tuple[int, ...]] = tuple(RANK_AUGEN[i % 6] for i in range(NCODES))
"""Augen per code."""
CARD_AUGEN: Final[tuple[int, ...]] = tuple(AUGEN[i >> 1] for i in range(NCARDS))
"""Augen per card id."""
TOTAL_AUGEN: Final = 240

SPECIALS: Final[Mapping[str, str]] = {
    "dulle": "H10",
    "fuchs": "DA",
    "karlchen": "CJ",
    "charlie": "CJ",
    "alte": "CQ",
}
"""Names a player says for single cards, accepted when typed in."""

FULL_DECK: Final[Bits] = (1 << NCARDS) - 1
NINES: Final[Bits] = sum(3 << (2 * (s * 6 + 5)) for s in range(4))
"""Every nine (both copies)."""


def code_of(code: str) -> int:
    """The code index of a card code (exact, upper case)."""
    return CODE_INDEX[code]


def suit_of_code(code: int) -> int:
    """0 Kreuz, 1 Pik, 2 Herz, 3 Karo."""
    return code // 6


def rank_of_code(code: int) -> int:
    """0 A, 1 10, 2 K, 3 Q, 4 J, 5 9."""
    return code % 6


def id_mask(code: str) -> Bits:
    """Both copies of ``code`` as a bit set."""
    return 3 << (2 * CODE_INDEX[code])


def code_mask(code: int) -> Bits:
    """Both copies of code index ``code``."""
    return 3 << (2 * code)


def _chunk_table(offset: int) -> tuple[tuple[int, ...], ...]:
    """For every 12-bit slice of a hand (six codes, both copies): the codes present."""
    return tuple(tuple(offset + c for c in range(6) if v & (3 << (2 * c))) for v in range(1 << 12))


_CHUNKS: Final = tuple(_chunk_table(6 * k) for k in range(4))


def codes_in(mask: Bits) -> tuple[int, ...]:
    """The distinct code indexes present in ``mask``, in code order (each once)."""
    c0, c1, c2, c3 = _CHUNKS
    return c0[mask & 4095] + c1[(mask >> 12) & 4095] + c2[(mask >> 24) & 4095] + c3[mask >> 36]


def card_ids(mask: Bits) -> list[int]:
    """The card ids in ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def codes_of_mask(mask: Bits) -> list[str]:
    """Every card of ``mask`` as a code, one per copy, in code order."""
    return [CODES[i >> 1] for i in card_ids(mask)]


def augen_of(mask: Bits) -> int:
    """The Augen of the cards in ``mask``."""
    return sum(CARD_AUGEN[i] for i in card_ids(mask))


def parse_code(text: object) -> int:
    """The code index of a card written as a code or a German name; ``CardError`` otherwise."""
    if isinstance(text, str):
        hit = CODE_INDEX.get(text)
        if hit is not None:
            return hit
    return CODE_INDEX[parse_card(text, CODE_INDEX, SPECIALS)]


def card_name(code: int) -> str:
    """The German name of a code, e.g. ``Kreuz Dame``."""
    return f"{SUIT_NAMES[SUITS[code // 6]]} {RANK_NAMES[RANKS[code % 6]]}"


def deck(with_nines: bool) -> Bits:
    """The cards in play: all 48, or the 40 without nines."""
    return FULL_DECK if with_nines else FULL_DECK & ~NINES
