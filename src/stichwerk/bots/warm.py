"""Compile the numba kernels once, before anyone waits on them: ``python -m stichwerk.bots.warm``.

numba compiles a kernel the first time it is called and keeps the machine code in the
``__pycache__`` beside its module (``cache=True``; or under ``NUMBA_CACHE_DIR``), so every later
process loads it at once. On a fresh install that first call would be the first search decision
at a table: about a minute of compiling (most of it the Doppelkopf search) while a player waits.
So a search bot built without ``compiled=...`` takes the compiled kernel only when it is
:func:`cached` (``rollouts.ready()``), and searches on its Python path until then; the web server
starts this warm-up in a process of its own beside it (:func:`start_background`), so the first
page answers at once and the bots move to the kernels when the cache is written. ``make test``
runs it first.

It plays the kernels' own deals, then one deal of each game with both searches (today's and the
first), compiled, at the table: bidding, announcements and cards, every kernel a search calls.
Once it has finished it leaves a marker beside the cache, named by a digest of numba's and
Python's versions and the kernels' source files (their times and sizes, as numba's own index
checks them), so a changed kernel is not taken as ready. Once the cache is there it takes a
second or two. Only one warm-up runs at a time (a lock beside the marker).
"""

import contextlib
import logging
import multiprocessing
import os
import sys
import time
from multiprocessing.process import BaseProcess
from typing import IO

from stichwerk.bots.base import make_bot
from stichwerk.bots.doppelkopf.rollouts import policy_tables
from stichwerk.bots.kernelcache import (
    KERNEL_SOURCES,
    MARKER_PREFIX,
    cache_dir,
    cached,
    digest,
    has_numba,
    mark_cached,
    marker,
)
from stichwerk.doppelkopf.profiles import DDV
from stichwerk.games import get_game
from stichwerk.pools import exit_with_parent

__all__ = [
    "KERNEL_SOURCES",
    "MARKER_PREFIX",
    "cache_dir",
    "cached",
    "digest",
    "ensure",
    "has_numba",
    "main",
    "mark_cached",
    "marker",
    "start_background",
    "warm",
]

log = logging.getLogger("stichwerk.bots.warm")


def warm() -> list[tuple[str, float]]:
    """Call every kernel entry point once; the seconds each step took."""
    from stichwerk.bots.cego import playout as cego_playout  # numba: compiled here
    from stichwerk.bots.doppelkopf import playout as doppelkopf_playout

    steps: list[tuple[str, float]] = []
    start = time.perf_counter()
    for name, run in (
        ("Cego kernel", cego_playout.warm_up),
        ("Doppelkopf kernel", lambda: doppelkopf_playout.warm_up(policy_tables(DDV))),
        ("Cego search", lambda: _search_deal("cego", "schwarzwald")),
        ("Doppelkopf search", lambda: _search_deal("doppelkopf", "ddv")),
    ):
        run()
        now = time.perf_counter()
        steps.append((name, now - start))
        start = now
    return steps


def _search_deal(game: str, profile: str) -> None:
    """One deal played by today's search against the first, in both rotations (as the arena
    seats two bots at four seats), on the kernels even before the marker is there (that is
    what this compiles). Few worlds: the point is to call each kernel, not to play well."""
    engine = get_game(game)
    names = ("search", "search-v1")
    for rotation in range(2):
        state = engine.new_deal(profile=profile, players=4, dealer=0, seed="warm-0")
        bots = [
            make_bot(names[(seat + rotation) % 2], game, f"warm-{rotation}-{seat}",
                     worlds=4, compiled=True)
            for seat in range(4)
        ]  # fmt: skip
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))


def _lock(wait: bool = False) -> IO[str] | None:
    """An exclusive lock beside the marker, or ``None`` when another warm-up holds it (with
    ``wait``: once that one has finished)."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): warm-ups may overlap; numba's cache copes
        return open(os.devnull, "w")
    path = cache_dir() / "stichwerk-kernels.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "w")  # noqa: SIM115
    try:
        fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def main(argv: list[str] | None = None) -> int:
    """Compile the kernels (unless another warm-up is at it) and leave the marker."""
    args = sys.argv[1:] if argv is None else argv
    quiet = "--quiet" in args
    if not has_numba():
        print("stichwerk.bots.warm: numba is not installed; the bots search in Python")
        return 0
    lock = _lock()
    if lock is None:
        if not quiet:
            print("stichwerk.bots.warm: another warm-up is compiling the kernels")
        return 0
    with lock:
        for name, seconds in warm():
            if not quiet:
                print(f"{name}: {seconds:.1f} s")
        mark_cached()
    return 0


def ensure() -> None:
    """Compile the kernels now unless they are cached, after any warm-up under way: for batch
    work that measures the bots (the arena, ``stichwerk simulate``), whose search bots would
    otherwise play on their Python path until the cache is there. A player never waits here."""
    if not has_numba() or cached():
        return
    lock = _lock(wait=True)
    assert lock is not None
    with lock:
        if not cached():
            log.info("compiling the bots' numba kernels once (about a minute)")
            warm()
            mark_cached()


def _background() -> None:
    """The child's body: lower priority than the server, ends with it (``stichwerk.pools``)."""
    exit_with_parent()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    main(["--quiet"])


def start_background() -> BaseProcess | None:
    """Compile the kernels in a process of its own when numba is there and they are not cached
    (the web server calls this as it starts); ``None`` when there is nothing to do."""
    if not has_numba() or cached():
        return None
    child = multiprocessing.get_context("spawn").Process(
        target=_background, name="stichwerk-warm", daemon=True
    )
    child.start()
    log.info(
        "compiling the bots' numba kernels in the background (pid %s); the bots search in "
        "Python until they are ready",
        child.pid,
    )
    return child


if __name__ == "__main__":
    sys.exit(main())
