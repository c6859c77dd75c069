"""The bot interface and the registry of bots by name.

A bot is given exactly what its seat may see, the JSON view of ``GameState.view(seat)`` (which
holds ``legal_actions``), and returns one of those actions. It never sees the state itself, so a
bot cannot cheat; the same view from two different hidden deals gets the same answer.
"""

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError

View = Mapping[str, Any]

OUT_OF_TURN = (
    "out of turn a seat may only say a word, and a bot has no way to say nothing: a bot is asked"
    " at its seat's turn, where it weighs the words beside its cards (tables and the arena ask"
    " only then)"
)
"""Why a Doppelkopf bot asked out of turn refuses (one line, not a failure deep inside)."""


class Bot(Protocol):
    """A computer player for one game."""

    name: str

    def act(self, view: View) -> Action:
        """One of ``view["legal_actions"]`` for the viewing seat."""
        ...


def legal_of(view: View) -> list[Action]:
    """The legal actions of a view as :class:`Action` objects."""
    return [Action.from_json(a) for a in view["legal_actions"]]


class RandomBot:
    """A uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(str(seed))

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if not actions:
            raise StichwerkError("the bot's seat has no legal action")
        return actions[self._rng.randrange(len(actions))]


BotFactory = Callable[..., Bot]

# name -> (module, attribute) of a factory taking (game: str, seed: int | str, **params). A
# registry names its bots by string and imports one when it is asked for: a bot's module
# imports this one (for ``Bot``, ``legal_of``, ``make_bot``), never the reverse.
_BOTS: dict[str, tuple[str, str]] = {
    "random": ("stichwerk.bots.base", "_random_factory"),
    "heuristic": ("stichwerk.bots.players", "make_heuristic"),
    "search-v1": ("stichwerk.bots.players", "make_search_v1"),
    "search": ("stichwerk.bots.players", "make_search"),
}


_PREFIXES: dict[str, tuple[str, str]] = {
    "cmd:": ("stichwerk.bots.external", "make_external"),
}
"""Name prefix -> the factory of bots named by it, given the rest of the name first."""


def _random_factory(game: str, seed: int | str = 0, **params: Any) -> Bot:
    return RandomBot(seed)


def register_bot(name: str, module: str, attribute: str) -> None:
    """Make a bot known by ``name`` (its module is imported on first use)."""
    _BOTS[name] = (module, attribute)


def bot_names() -> list[str]:
    """Every bot name, weakest first as registered."""
    return list(_BOTS)


def make_bot(name: str, game: str, seed: int | str = 0, **params: Any) -> Bot:
    """A new bot ``name`` for ``game``, or ``StichwerkError`` with one line. ``cmd:PROGRAM``
    names an outside program speaking the bot protocol (``stichwerk.bots.external``)."""
    for prefix, (module, attribute) in _PREFIXES.items():
        if name.startswith(prefix):
            made: BotFactory = getattr(importlib.import_module(module), attribute)
            return made(name[len(prefix) :], game, seed, **params)
    if name not in _BOTS:
        known = ", ".join([*_BOTS, "cmd:PROGRAM"])
        raise StichwerkError(f"unknown bot {name!r} (known: {known})")
    module, attribute = _BOTS[name]
    factory: BotFactory = getattr(importlib.import_module(module), attribute)
    return factory(game, seed, **params)
