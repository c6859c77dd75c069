"""Whether the bots' numba kernels are in numba's cache: the marker :mod:`stichwerk.bots.warm`
leaves once it has compiled them.

A search bot asks :func:`cached` as it is made (a few file stats, no import of numba) and takes
the compiled kernels only when they are there, so no decision waits on the compiler. The
marker is named by a digest of numba's and Python's versions and the kernels' source files
(their times and sizes, as numba's own index checks them), so a changed kernel is not taken
as ready. This module is apart from the warm-up because the bots ask it and the warm-up plays
the bots: each imports it, neither imports the other's user.
"""

import contextlib
import hashlib
import importlib.util
import os
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

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
