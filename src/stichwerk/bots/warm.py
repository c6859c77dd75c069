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
import hashlib
import importlib.util
import logging
import multiprocessing
import os
import sys
import time
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import IO

log = logging.getLogger("stichwerk.bots.warm")

_ROOT = Path(__file__).resolve().parent.parent
KERNEL_SOURCES = (
    "core/kernel.py",
    "cego/kernel.py",
    "doppelkopf/kernel.py",
    "bots/cego/playout.py",
    "bots/cego/sampler.py",
    "bots/cego/compiled.py",
    "bots/doppelkopf/playout.py",
    "bots/doppelkopf/sampler.py",
    "bots/doppelkopf/compiled.py",
)
"""Every module with numba functions (``stichwerk.core.kernel.jit``), relative to the package."""

MARKER_PREFIX = "stichwerk-kernels-"


def has_numba() -> bool:
    """Whether numba and numpy are installed (without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))


def cache_dir() -> Path:
    """Where the marker lives: numba's ``NUMBA_CACHE_DIR`` when set, else the bots'
    ``__pycache__`` (numba's own cache sits beside each module), else the user's cache."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    in_tree = _ROOT / "bots" / "__pycache__"
    if os.access(in_tree if in_tree.exists() else in_tree.parent, os.W_OK):
        return in_tree
    return Path.home() / ".cache" / "stichwerk"


def digest() -> str:
    """What the cache was compiled from: numba, Python and the kernel sources' stamps."""
    from importlib.metadata import PackageNotFoundError, version

    h = hashlib.sha256()
    try:
        h.update(version("numba").encode())
    except PackageNotFoundError:
        h.update(b"-")
    h.update(sys.version.encode())
    for name in KERNEL_SOURCES:
        try:
            st = (_ROOT / name).stat()
        except OSError:
            h.update(f"{name}:missing".encode())
            continue
        h.update(f"{name}:{st.st_mtime_ns}:{st.st_size}".encode())
    return h.hexdigest()[:16]


def marker() -> Path:
    """The file whose presence says the kernels of this digest are in the cache."""
    return cache_dir() / f"{MARKER_PREFIX}{digest()}.ready"


def cached() -> bool:
    """Whether the kernels are compiled into numba's cache (a few stats, no import of numba)."""
    return marker().exists()


def mark_cached() -> Path:
    """Leave the marker (and remove the markers of older kernels)."""
    path = marker()
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f"{MARKER_PREFIX}*.ready"):
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()
    path.write_text(f"numba kernels compiled at {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
    return path


def warm() -> list[tuple[str, float]]:
    """Call every kernel entry point once; the seconds each step took."""
    from stichwerk.bots.cego import playout as cego_playout
    from stichwerk.bots.doppelkopf import playout as doppelkopf_playout
    from stichwerk.bots.doppelkopf.rollouts import policy_tables
    from stichwerk.doppelkopf.profiles import DDV

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
    from stichwerk.arena import ArenaSpec, play_deal

    # Few worlds: the point is to call each kernel, not to play well. Two searches (the first
    # still plays in arenas and benchmarks) in both rotations, on the kernel even before the
    # marker is there (that is what this compiles).
    few = {"worlds": 4, "compiled": True}
    bots = ("search", "search-v1")
    play_deal(ArenaSpec(game, profile, bots, 1, 4, bot_params=dict.fromkeys(bots, few)), 0)


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
    from stichwerk.pools import exit_with_parent

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
