"""The Cego and Doppelkopf engines compiled to C with mypyc, used only while they match their
source.

The validated engine checks every action in Python; a research loop that drives it from Python
spends most of its time in the interpreter's bytecode, not in the rules. mypyc (part of mypy,
which type-checks this package anyway) compiles the same typed modules to a C extension: one
source, one set of rules, the interpreter's work per action gone. Which modules: ``COMPILED``.

The build (``python -m stichwerk.native build``, run by ``make``) writes the extension into
``stichwerk/native/build/`` with a manifest holding a digest of every source the modules were
compiled from (the modules and the packages they import: mypyc may fold another module's
constants into its code). :func:`install` puts a finder first on ``sys.meta_path`` that loads a
compiled module only if the digest still matches the files on disk; an edited source, another
Python, or no build at all simply means the Python modules are imported as usual. Setting
``STICHWERK_PURE=1`` always imports the Python modules (the differential test compares both).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED = (
    "stichwerk.cego.state",
    "stichwerk.cego.scoring",
    "stichwerk.cego.view",
    "stichwerk.core.rng",
    "stichwerk.doppelkopf.state",
    "stichwerk.doppelkopf.announcements",
    "stichwerk.doppelkopf.cards",
    "stichwerk.doppelkopf.record",
    "stichwerk.doppelkopf.scoring",
    "stichwerk.doppelkopf.snapshot",
    "stichwerk.doppelkopf.summary",
    "stichwerk.doppelkopf.trumps",
    "stichwerk.doppelkopf.view",
)
"""The modules compiled: the Cego engine's state, scoring and view, the deal's shuffle; the
Doppelkopf engine's state, announcement rules, cards, record, scoring, snapshot, summaries, card
orders and view."""
DEPENDS_ON = ("cego", "core", "doppelkopf")
"""The subpackages whose sources the compiled modules are built from (digested as a whole)."""
GROUP = "stichwerk_native"
"""mypyc's name for the shared library of the compiled modules (``stichwerk_native__mypyc``)."""
PACKAGE = Path(__file__).resolve().parent.parent
"""The ``stichwerk`` package."""
BUILD = Path(__file__).resolve().parent / "build"
MANIFEST = BUILD / "manifest.json"
PURE_ENV = "STICHWERK_PURE"


def source_digest() -> str:
    """One digest over every source file the compiled modules are built from, and the Python
    they are built for."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for sub in DEPENDS_ON:
        for path in sorted((PACKAGE / sub).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def fresh_files() -> dict[str, str] | None:
    """The compiled files by module name, if a build exists and matches today's sources."""
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("digest") != source_digest():
        return None
    files = data.get("files")
    if not isinstance(files, dict):
        return None
    out = {str(name): str(BUILD / str(rel)) for name, rel in files.items()}
    return out if all(os.path.exists(path) for path in out.values()) else None


class NativeFinder(MetaPathFinder):
    """Finds the compiled modules (and their shared library) in the build.

    The build is checked (its manifest read, the sources digested) the first time one of its
    modules is looked for, not when ``stichwerk`` is imported: ``stichwerk --help`` and the
    commands that never load an engine do not pay for it."""

    def __init__(self, files: dict[str, str] | None = None) -> None:
        self._files = files
        self._checked = files is not None

    @property
    def files(self) -> dict[str, str]:
        if not self._checked:
            self._files = fresh_files()
            self._checked = True
        return self._files or {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in COMPILED and not fullname.startswith(GROUP):
            return None
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, file)
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install() -> None:
    """Use the compiled modules from now on where a build matches the sources (and
    ``STICHWERK_PURE`` is not set); the match is checked when a compiled module is first
    imported (:class:`NativeFinder`)."""
    if os.environ.get(PURE_ENV) or any(isinstance(f, NativeFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, NativeFinder())


def active() -> bool:
    """Whether the compiled modules are the ones imported in this process."""
    return any(isinstance(f, NativeFinder) and f.files for f in sys.meta_path)


def compiled_modules() -> list[str]:
    """The compiled modules imported so far (the others are the Python ones, or not loaded)."""
    loaded = [sys.modules[name] for name in COMPILED if name in sys.modules]
    return [m.__name__ for m in loaded if not str(getattr(m, "__file__", "")).endswith(".py")]
