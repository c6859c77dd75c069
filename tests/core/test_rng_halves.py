"""The shuffle by 32-bit halves (what the compiled engine runs) draws exactly what
``SplitMix64`` draws, so a seed keeps its deal compiled or not."""

import os
import random
import subprocess
import sys

from stichwerk.core.rng import (
    SplitMix64,
    _draws_by_halves,
    _mul64,
    _shuffled_by_halves,
    _shuffled_one_by_one,
    shuffled,
)


def test_the_64_bit_product_by_halves() -> None:
    rng = random.Random(11)
    edges = [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB]
    values = edges + [rng.getrandbits(64) for _ in range(2000)]
    for a in values[:200]:
        for b in values[::10]:
            hi, lo = _mul64(a >> 32, a & 0xFFFFFFFF, b >> 32, b & 0xFFFFFFFF)
            assert (hi << 32) | lo == (a * b) % 2**64


def test_the_draws_by_halves_are_the_generators() -> None:
    for seed in [*range(300), "Stammtisch", "t1-0", 2**70, 2**64 - 1, 2**32 - 1]:
        generator = SplitMix64(seed)
        expected = [generator.next64() for _ in range(60)]
        assert _draws_by_halves(seed, 60) == expected


def test_the_shuffle_by_halves_is_the_shuffle() -> None:
    for seed in [*range(300), "Stammtisch", 2**70]:
        for n in (2, 40, 48, 51, 54, 200):
            expected = _shuffled_one_by_one(list(range(n)), seed)
            assert _shuffled_by_halves(list(range(n)), seed) == expected
            assert shuffled(list(range(n)), seed) == expected


def test_the_shuffle_needs_no_mypy() -> None:
    """The lean install has no mypy (nor mypy_extensions): the Python modules still shuffle."""
    code = (
        "import sys; sys.modules['mypy_extensions'] = None\n"
        "from stichwerk.core.rng import shuffled\n"
        "print(shuffled(list(range(10)), 42))\n"
    )
    env = {**os.environ, "STICHWERK_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(_shuffled_one_by_one(list(range(10)), 42))
