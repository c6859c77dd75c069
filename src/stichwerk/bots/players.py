"""The bots by name, for both games: ``random``, ``heuristic``, ``search`` and ``search-v1``.

Each name works for every game; the factory picks the game's own implementation.
"""

import importlib
from typing import Any

from stichwerk.bots.base import Bot
from stichwerk.core.errors import StichwerkError

_IMPLEMENTATIONS = {
    ("heuristic", "cego"): "stichwerk.bots.cego.heuristic",
    ("search", "cego"): "stichwerk.bots.cego.search",
    ("heuristic", "doppelkopf"): "stichwerk.bots.doppelkopf.heuristic",
    ("search", "doppelkopf"): "stichwerk.bots.doppelkopf.search",
    ("search-v1", "cego"): "stichwerk.bots.cego.search_v1",
    ("search-v1", "doppelkopf"): "stichwerk.bots.doppelkopf.search_v1",
}


def _make(name: str, game: str, seed: int | str, **params: Any) -> Bot:
    module_name = _IMPLEMENTATIONS.get((name, game))
    if module_name is None:
        raise StichwerkError(f"there is no {name} bot for {game}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        raise StichwerkError(f"the {name} bot for {game} is not available in this build") from None
    bot: Bot = module.make(game, seed, **params)
    return bot


def make_heuristic(game: str, seed: int | str = 0, **params: Any) -> Bot:
    """The rule-based bot of ``game``."""
    return _make("heuristic", game, seed, **params)


def make_search(game: str, seed: int | str = 0, **params: Any) -> Bot:
    """The search bot of ``game``: weighted PIMC for every decision (``bots/<game>/search.py``)."""
    return _make("search", game, seed, **params)


def make_search_v1(game: str, seed: int | str = 0, **params: Any) -> Bot:
    """The first search bot (card play searched, bids by the heuristic's simulations), kept to
    compare against (``bots/<game>/search_v1.py``)."""
    return _make("search-v1", game, seed, **params)
