"""Stichwerk: the trick-taking card games of the Black Forest, Cego and Doppelkopf.

The package is layered so the folder tree shows the architecture:

- ``core``: what both games share (actions, errors, bit sets, deterministic shuffling, records).
- ``cego`` and ``doppelkopf``: one deterministic rules engine per game. They import ``core`` only.
- ``games``: the registry that lets every consumer drive either engine by name.
- ``cli``: the ``stichwerk`` command.

Nothing in a rules engine knows about bots, the command line, the server or storage.
"""

__version__ = "0.1.0"

from stichwerk import native as _native

_native.install()  # the compiled engine where a build matches the sources (see stichwerk.native)
