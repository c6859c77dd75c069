"""Stichwerk: the trick-taking card games of the Black Forest, Cego and Doppelkopf.

The package is layered so the folder tree shows the architecture (``docs/architecture.md``,
held by ``tests/test_layering.py``), lowest first: ``native`` (the compiled engine's loader);
``core`` (what both games share) and ``pools``; the engines ``cego`` and ``doppelkopf``;
``games`` (the registry); ``bots``; ``arena``, ``analysis``, ``rating``, ``sheet``,
``tournament``; ``research`` and ``tournament_tables``; ``storage`` and ``web``; ``server``;
``cli``. A package imports only the layers below its own.

Nothing in a rules engine knows about bots, the command line, the server or storage.
"""

__version__ = "0.1.0"

from stichwerk import native as _native

_native.install()  # the compiled engine where a build matches the sources (see stichwerk.native)
