"""Deterministic shuffling that does not depend on the Python version.

``random.shuffle`` may change between Python releases, and a seed must give the same deal for
ever (records store the deal itself, but seeds are shared too: "seed 42"). So the shuffle is our
own Fisher-Yates over SplitMix64, which is fully specified.
"""

import hashlib

_MASK64 = (1 << 64) - 1


def seed_to_int(seed: int | str) -> int:
    """A 64-bit seed from an int or any string (hashed, so "abc" and "abd" differ widely)."""
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed & _MASK64
    digest = hashlib.sha256(str(seed).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014): tiny, fast, fully specified."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str) -> None:
        self.state = seed_to_int(seed)

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n


_LIMITS = [0] + [(1 << 64) - ((1 << 64) % n) for n in range(1, 129)]
"""Rejection limits of ``below(n)`` for small ``n``, computed once."""


def shuffled(items: list[int], seed: int | str) -> list[int]:
    """A copy of ``items`` in an order fixed by ``seed`` (Fisher-Yates).

    >>> shuffled(list(range(5)), 1) == shuffled(list(range(5)), 1)
    True
    """
    out = list(items)
    # SplitMix64 and ``below`` inlined (the same numbers, without a method call per draw).
    state = seed_to_int(seed)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out
