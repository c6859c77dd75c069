"""Deterministic shuffling that does not depend on the Python version.

``random.shuffle`` may change between Python releases, and a seed must give the same deal for
ever (records store the deal itself, but seeds are shared too: "seed 42"). So the shuffle is our
own Fisher-Yates over SplitMix64, which is fully specified.
"""

import hashlib
import struct

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


_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_TOP = b"\xff" * 7
"""A draw whose upper seven bytes are all ones (``>= 2**64 - 256``) is the only kind that
``below(n)`` may reject, for any ``n`` up to 256."""

_LANES: dict[int, tuple[int, int, int, int, struct.Struct]] = {}


def _lanes(count: int) -> tuple[int, int, int, int, struct.Struct]:
    """Constants to run ``count`` SplitMix64 steps side by side in one integer (see ``draws``)."""
    ones = sum(1 << (128 * i) for i in range(count))
    steps = sum((((i + 1) * _GAMMA) & _MASK64) << (128 * i) for i in range(count))
    lanes = _LANES[count] = (
        ones,
        steps,
        _MASK64 * ones,
        16 * count,
        struct.Struct("<" + "Q8x" * count),
    )
    return lanes


def _lane_bytes(seed: int | str, count: int) -> tuple[bytes, struct.Struct]:
    """The first ``count`` outputs of ``SplitMix64(seed)`` as little-endian 128-bit lanes (the
    upper 64 bits of each not zero), and the layout that reads them."""
    ones, steps, mask, size, layout = _LANES.get(count) or _lanes(count)
    z = (seed_to_int(seed) * ones + steps) & mask
    z = ((z ^ (z >> 30)) & mask) * _MIX1 & mask
    z = ((z ^ (z >> 27)) & mask) * _MIX2 & mask
    z ^= z >> 31
    return z.to_bytes(size, "little"), layout


def draws(seed: int | str, count: int) -> list[int]:
    """The first ``count`` outputs of ``SplitMix64(seed)``, computed side by side.

    The generator's state after ``k`` steps is ``seed + k * gamma`` (mod 2**64), so every output
    can be computed on its own. Here all of them are: output ``k`` lives in bits ``128 k`` to
    ``128 k + 63`` of one Python integer (a lane), and each step of the mix (add, shift, xor,
    multiply, all mod 2**64) is a handful of operations on that integer instead of ``count``
    times as many on small ones. A lane is masked to 64 bits before every multiplication, so a
    product (under 2**128) never reaches the next lane; what a right shift brings down from the
    lane above is masked away, or (the last shift) lands above bit 63, where it is not read.

    >>> rng = SplitMix64(42)
    >>> draws(42, 3) == [rng.next64() for _ in range(3)]
    True
    """
    if count <= 0:
        return []
    data, layout = _lane_bytes(seed, count)
    return list(layout.unpack(data))


def shuffled(items: list[int], seed: int | str) -> list[int]:
    """A copy of ``items`` in an order fixed by ``seed`` (Fisher-Yates).

    Draw ``k`` picks among ``n - k`` places with ``SplitMix64.below``: the generator's output
    modulo the count, where an output at the very top of the range (above the largest multiple
    of the count) would be rejected and drawn again. Rejection has a chance below 2**-56 per
    draw, so the outputs are computed in one go (:func:`draws`); only if seven bytes of ones
    turn up among them (as they do in an output that might be rejected) does the shuffle draw
    one by one, exactly as ``below`` does.

    >>> shuffled(list(range(5)), 1) == shuffled(list(range(5)), 1)
    True
    """
    out = list(items)
    n = len(out)
    if n < 2:
        return out
    if n > 256:
        return _shuffled_one_by_one(out, seed)
    data, layout = _lane_bytes(seed, n - 1)
    if _TOP in data:
        return _shuffled_one_by_one(out, seed)
    xs = layout.unpack(data)
    i = n - 1
    for x in xs:
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
        i -= 1
    return out


def _shuffled_one_by_one(out: list[int], seed: int | str) -> list[int]:
    """Fisher-Yates with ``SplitMix64.below`` for every draw, rejections included."""
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
