"""Deterministic shuffling that does not depend on the Python version.

``random.shuffle`` may change between Python releases, and a seed must give the same deal for
ever (records store the deal itself, but seeds are shared too: "seed 42"). So the shuffle is our
own Fisher-Yates over SplitMix64, which is fully specified.
"""

from __future__ import annotations

import hashlib
import struct
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    # mypyc compiles an ``i64`` to a 64-bit machine integer (the halves below never overflow
    # one); mypy_extensions comes with mypy, which the lean install does not have, so the name
    # is only for the type checker and the compiler (annotations are not evaluated here).
    from mypy_extensions import i64

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


_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF


def _mul_lo32(x: i64, y: i64) -> i64:
    """``x * y`` modulo 2**32 for 32-bit ``x`` and ``y``, by 16-bit pieces."""
    x0 = x & _M16
    y0 = y & _M16
    return (x0 * y0 + ((((x >> 16) * y0 + x0 * (y >> 16)) & _M16) << 16)) & _M32


def _mul64(ahi: i64, alo: i64, bhi: i64, blo: i64) -> tuple[i64, i64]:
    """``a * b`` modulo 2**64, each number as its upper and lower 32 bits (no value on the way
    reaches 2**35, so 64-bit machine integers never overflow)."""
    a0 = alo & _M16
    a1 = alo >> 16
    b0 = blo & _M16
    b1 = blo >> 16
    mid = a0 * b1 + a1 * b0
    low = a0 * b0 + ((mid & _M16) << 16)
    high = a1 * b1 + (mid >> 16) + (low >> 32) + _mul_lo32(ahi, blo) + _mul_lo32(alo, bhi)
    return high & _M32, low & _M32


def _step(shi: i64, slo: i64) -> tuple[i64, i64, i64, i64]:
    """One SplitMix64 step by 32-bit halves: the new state's halves, then the output's."""
    slo += 0x7F4A7C15  # the lower half of _GAMMA
    shi = (shi + 0x9E3779B9 + (slo >> 32)) & _M32
    slo &= _M32
    zlo = slo ^ (((shi << 2) & _M32) | (slo >> 30))
    zhi = shi ^ (shi >> 30)
    zhi, zlo = _mul64(zhi, zlo, 0xBF58476D, 0x1CE4E5B9)  # _MIX1
    zlo ^= ((zhi << 5) & _M32) | (zlo >> 27)
    zhi ^= zhi >> 27
    zhi, zlo = _mul64(zhi, zlo, 0x94D049BB, 0x133111EB)  # _MIX2
    zlo ^= ((zhi << 1) & _M32) | (zlo >> 31)
    zhi ^= zhi >> 31
    return shi, slo, zhi, zlo


def _draws_by_halves(seed: int | str, count: int) -> list[int]:
    """The first ``count`` outputs of ``SplitMix64(seed)`` as :func:`draws` gives them, computed
    by :func:`_step` (what the compiled :func:`shuffled` draws with)."""
    start = seed_to_int(seed)
    shi: i64 = start >> 32
    slo: i64 = start & _M32
    out: list[int] = []
    for _ in range(count):
        shi, slo, zhi, zlo = _step(shi, slo)
        out.append((int(zhi) << 32) | int(zlo))
    return out


def _shuffled_by_halves(items: list[int], seed: int | str) -> list[int]:
    """:func:`shuffled` drawing by :func:`_step`. Compiled (``stichwerk.native``), every value
    is a 64-bit machine integer that never overflows (halves, and products of 16-bit pieces);
    in the interpreter the side-by-side lanes of :func:`draws` are faster."""
    out = list(items)
    start = seed_to_int(seed)
    shi: i64 = start >> 32
    slo: i64 = start & _M32
    i: i64 = len(out) - 1
    while i > 0:
        shi, slo, zhi, zlo = _step(shi, slo)
        if zhi == _M32 and zlo >> 8 == 0xFFFFFF:  # a draw ``below`` might reject
            return _shuffled_one_by_one(list(items), seed)
        m = i + 1
        j = (((zhi % m) << 32) | zlo) % m
        out[i], out[j] = out[j], out[i]
        i -= 1
    return out


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
    if _NATIVE:
        return _shuffled_by_halves(out, seed)
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


_NATIVE: Final = not hasattr(_mul64, "__code__")
"""Whether this module runs compiled (a compiled function has no Python code object): then
:func:`shuffled` draws by 32-bit halves, in the interpreter by lanes; the two agree (tested)."""
