"""The registry of games: every consumer finds an engine here by its name.

Each game package has an ``api`` module that defines ``GAME``, a
:class:`~stichwerk.core.state.GameModule`. The registry
imports it on first use, so ``stichwerk replay`` of a Cego record never loads Doppelkopf.
"""

import importlib
from collections.abc import Mapping

from stichwerk.core.errors import RecordError
from stichwerk.core.state import GameModule

__all__ = ["GameModule", "game_names", "get_game"]


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
