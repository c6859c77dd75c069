"""What all compiled code shares: numba's ``njit`` with the project's settings, bit tricks on
``int64`` card sets, and a small random generator every world carries itself.

The game kernels (``stichwerk.cego.kernel``, ``stichwerk.doppelkopf.kernel``: the rules) and the
bots' compiled parts (``stichwerk.bots.<game>.playout``, ``.sampler``, ``.compiled``: the
roll-out policies, the world samplers, the search) compile with numba (``pip install
stichwerk[research]``). Nothing else imports this module, so the engines, the web app and the CLI
run without numba.

- :func:`jit` compiles with ``cache=True`` (the machine code is kept beside the module, so a
  second process starts at once), ``nogil=True`` (threads may run kernels side by side) and
  without numba's reference counting (``_nrt=False``): such a function may not allocate arrays,
  and in return it pays no atomic reference count on every array it is passed, which inside the
  play loop cost more than the play itself. :func:`jit_alloc` is for the few that allocate.
- Card sets are ``int64`` (54 Cego cards and 48 Doppelkopf card ids fit). ``popcount``,
  ``lowest`` and ``highest`` compile to one instruction each (LLVM's ``ctpop``, ``cttz``,
  ``ctlz``).
- The generator is SplitMix64 (as :mod:`stichwerk.core.rng`) on a one-element ``uint64`` array,
  so each world, thread or batch has its own stream and a seed gives the same numbers in any order
  of execution.
"""

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

import numba  # type: ignore[import-untyped,unused-ignore]
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types  # type: ignore[import-untyped,unused-ignore]
from numba.extending import intrinsic  # type: ignore[import-untyped,unused-ignore]

F = TypeVar("F", bound=Callable[..., Any])


_LEAN: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def jit(fn: F) -> F:
    """Compile ``fn`` with numba: no Python objects, cached on disk, without the GIL, without
    reference counting (it allocates no arrays)."""
    return cast(F, numba.njit(**_LEAN)(fn))


def jit_alloc(fn: F) -> F:
    """Like :func:`jit` for a function that allocates arrays (reference counted)."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def in_threads(count: int, work: Callable[[int, int], object], threads: int | None = None) -> None:
    """Run ``work(start, stop)`` over ``range(count)`` cut into one slice per thread (default:
    one per core). Compiled kernels release the GIL, so the threads run side by side; each
    row draws from its own random stream, so the slicing does not change the numbers."""
    n = max(1, min(count, threads or os.cpu_count() or 1))
    bounds = [count * i // n for i in range(n + 1)]
    with ThreadPoolExecutor(max_workers=n) as pool:
        jobs = [pool.submit(work, bounds[i], bounds[i + 1]) for i in range(n)]
        for job in jobs:
            job.result()


@intrinsic  # type: ignore[misc,unused-ignore]
def _ctpop(typingctx: Any, x: Any) -> Any:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic  # type: ignore[misc,unused-ignore]
def _cttz(typingctx: Any, x: Any) -> Any:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic  # type: ignore[misc,unused-ignore]
def _ctlz(typingctx: Any, x: Any) -> Any:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@jit
def popcount(mask: int) -> int:
    """The number of cards in ``mask``."""
    return int(_ctpop(np.int64(mask)))  # type: ignore[call-arg]


@jit
def lowest(mask: int) -> int:
    """The lowest card id in a non-empty ``mask``."""
    return int(_cttz(np.int64(mask)))  # type: ignore[call-arg]


@jit
def highest(mask: int) -> int:
    """The highest card id in ``mask``; -1 for the empty set (as ``bit_length() - 1``)."""
    return 63 - int(_ctlz(np.int64(mask)))  # type: ignore[call-arg]


@jit
def nth(mask: int, k: int) -> int:
    """The ``k``-th card id of ``mask``, counted from the lowest (0 is the lowest)."""
    for _ in range(k):
        mask &= mask - 1
    return lowest(mask)


_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@jit
def next64(rs: Any) -> Any:
    """The next 64-bit output of the SplitMix64 stream held in ``rs[0]``."""
    s = rs[0] + _GAMMA
    rs[0] = s
    z = (s ^ (s >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@jit
def below(rs: Any, n: int) -> int:
    """A random integer in ``range(n)`` (``n`` small: the modulo bias is below 2**-58)."""
    return int(next64(rs) % np.uint64(n))


@jit
def uniform(rs: Any) -> float:
    """A random float in [0, 1)."""
    return float(next64(rs) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def random_card(rs: Any, mask: int) -> int:
    """A uniformly random card of a non-empty ``mask``."""
    n = popcount(mask)
    if n == 1:
        return lowest(mask)
    return nth(mask, below(rs, n))


def stream(seed: int) -> "np.ndarray[Any, np.dtype[np.uint64]]":
    """A generator state for :func:`next64` from a seed (any int)."""
    return np.array([seed & ((1 << 64) - 1)], dtype=np.uint64)


@jit_alloc
def substream(seed: Any, index: int) -> Any:
    """The ``index``-th independent stream of ``seed`` (a ``uint64``), for world ``index``."""
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = seed ^ (np.uint64(index) * _MIX2)
    next64(rs)
    return rs
