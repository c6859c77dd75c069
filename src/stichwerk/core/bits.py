"""Plain ints as bit sets of cards (python-chess style).

A hand is an ``int`` whose bit ``i`` is set when the hand holds card ``i``. Union is ``|``,
intersection ``&``, removal ``& ~``, size ``int.bit_count()``.
"""

from collections.abc import Iterator

Bits = int
"""A set of card ids, one bit per card."""


def bit(i: int) -> Bits:
    """The set holding just card ``i``."""
    return 1 << i


def iter_bits(mask: Bits) -> Iterator[int]:
    """The card ids in ``mask``, lowest first.

    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits_list(mask: Bits) -> list[int]:
    """The card ids in ``mask`` as a list, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: Bits) -> int:
    """The lowest card id in a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def highest(mask: Bits) -> int:
    """The highest card id in a non-empty ``mask``."""
    return mask.bit_length() - 1


def from_ids(ids: "Iterator[int] | list[int] | tuple[int, ...] | set[int]") -> Bits:
    """The set of the given card ids."""
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask
