"""The registry of games: every consumer finds an engine here by its name.

Each game package has an ``api`` module that defines ``GAME``, a :class:`GameModule`. The registry
imports it on first use, so ``stichwerk replay`` of a Cego record never loads Doppelkopf.
"""

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from stichwerk.core.errors import RecordError
from stichwerk.core.state import JSON, GameState


@dataclass(frozen=True)
class GameModule:
    """What a game offers to the rest of the project."""

    name: str
    """The record's ``game`` value."""
    profiles: tuple[str, ...]
    """Profile names; the first is the default."""
    new_deal: Callable[..., GameState]
    """``new_deal(profile=..., options=..., players=..., dealer=..., seed=...)``: a fresh deal.

    ``players`` is the number of seats at the table; at a 5-table the dealer sits out."""
    deal_from_record: Callable[[Mapping[str, Any]], GameState]
    """The state a record's deal starts from (its actions not yet applied)."""
    score_summary: Callable[[Mapping[str, Any]], JSON]
    """The scoring output for a deal summary (what a score sheet knows of a deal)."""
    settings: Callable[[str], JSON]
    """A profile's settings, as JSON (for docs, the UI and tables that override them)."""


_MODULES: Mapping[str, str] = {
    "cego": "stichwerk.cego.api",
    "doppelkopf": "stichwerk.doppelkopf.api",
}


def game_names() -> list[str]:
    """The names of every game there is an engine for."""
    return [name for name in _MODULES if _available(name)]


def _available(name: str) -> bool:
    try:
        importlib.import_module(_MODULES[name])
    except ModuleNotFoundError:
        return False
    return True


def get_game(name: object) -> GameModule:
    """The game called ``name``, or ``RecordError`` with one line."""
    if not isinstance(name, str) or name not in _MODULES:
        raise RecordError(f"unknown game {name!r} (known: {', '.join(_MODULES)})")
    try:
        module = importlib.import_module(_MODULES[name])
    except ModuleNotFoundError:
        raise RecordError(f"game {name!r} is not available in this build") from None
    game: GameModule = module.GAME
    return game
