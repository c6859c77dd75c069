"""The score sheet (*Liste*) for games played with real cards.

A table enters each deal as a deal summary (what it knows without the cards, NOTATION.md); the
sheet scores it with the game's own scoring (the code ``stichwerk score`` and the engine use),
keeps the list with :class:`~stichwerk.core.series.Series` (dealers, the sitting dealer,
Pflicht-Soli, Bock, closing rounds) and checks each entry against where the list stands.
Tournament tables enter their games the same way. ``settings`` reads a list's header,
``sheet`` keeps the entries and their changes, ``lines`` reads and writes the JSON-lines file
and CSV. Nothing here knows the server.
"""

from stichwerk.sheet.lines import LineError, read_lines, write_csv, write_lines
from stichwerk.sheet.settings import ListSettings, read_settings
from stichwerk.sheet.sheet import (
    MAX_DEALS,
    Applied,
    Entry,
    Row,
    Sheet,
    SheetConflict,
    SheetError,
)

__all__ = [
    "MAX_DEALS",
    "Applied",
    "Entry",
    "LineError",
    "ListSettings",
    "Row",
    "Sheet",
    "SheetConflict",
    "SheetError",
    "read_lines",
    "read_settings",
    "write_csv",
    "write_lines",
]
