"""Fixed-size action spaces: every action of a game as one index, or a short run of indices.

Learning code wants a fixed number of actions and a mask over them; the engine's actions are
words (``fort``, ``gesund``), words with a type (``solo`` ``damen``), one card (``play``) or a set
of cards (Cego's ``keep``/``lay-out``/``press``/``withdraw``, Doppelkopf's ``armut`` with cards
and ``return``). An :class:`ActionSpace` numbers them in blocks:

- one index per word (with its type, for Doppelkopf's solos);
- one block of one index per card for each act that names cards.

A word or a ``play`` is one index. An action with a set of cards is chosen one card at a time,
lowest index first, within its act's block: ``keep CK C10`` is ``keep C10`` then ``keep CK``
(Doppelkopf may pick the same code twice: both copies of a card). A :class:`Choice` tracks such
a half-made choice and offers only indices that can still complete a legal action, so every legal
engine action is exactly one run of indices and every run ends in a legal action.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from stichwerk.cego.cards import CODES as CEGO_CODES
from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction
from stichwerk.doppelkopf.cards import CODES as DOKO_CODES

Word = tuple[str, str | None]
"""A card-less action: its ``act`` and its ``type`` (``None`` for most)."""


@dataclass(frozen=True)
class ActionSpace:
    """The numbered actions of one game (the same for every profile and table size)."""

    game: str
    words: tuple[Word, ...]
    """The card-less actions, indices ``0 .. len(words) - 1``."""
    card_acts: tuple[str, ...]
    """The acts that name cards; each has a block of ``len(cards)`` indices after the words."""
    cards: tuple[str, ...]
    """The game's card codes in index order within a block."""

    @property
    def size(self) -> int:
        """How many indices there are."""
        return len(self.words) + len(self.card_acts) * len(self.cards)

    def word_index(self, act: str, kind: str | None = None) -> int:
        """The index of a card-less action."""
        return _word_positions(self)[(act, kind)]

    def block(self, act: str) -> int:
        """The first index of ``act``'s card block."""
        return len(self.words) + self.card_acts.index(act) * len(self.cards)

    def card_index(self, act: str, card: str) -> int:
        """The index of ``card`` in ``act``'s block."""
        return self.block(act) + _card_positions(self)[card]

    def encode(self, action: Action) -> tuple[int, ...]:
        """The run of indices that chooses ``action`` (lowest card first)."""
        if action.card is not None:
            return (self.card_index(action.act, action.card),)
        if action.cards:
            return tuple(sorted(self.card_index(action.act, c) for c in action.cards))
        return (self.word_index(action.act, action.type),)

    def describe(self, index: int) -> str:
        """The notation of an index: ``fort``, ``solo damen``, ``play T22``, ``keep CK``."""
        if not 0 <= index < self.size:
            raise IllegalAction(f"action index {index} is outside 0..{self.size - 1}")
        if index < len(self.words):
            act, kind = self.words[index]
            return act if kind is None else f"{act} {kind}"
        act, card = self.split(index)
        return f"{act} {card}"

    def split(self, index: int) -> tuple[str, str]:
        """``(act, card)`` of an index in a card block."""
        offset = index - len(self.words)
        if offset < 0:
            raise IllegalAction(f"action index {index} is a word, not a card")
        n = len(self.cards)
        return self.card_acts[offset // n], self.cards[offset % n]

    def blocks(self) -> list[tuple[int, int, str]]:
        """``(first, last, what)`` rows of the index table, for the docs."""
        rows = [(i, i, self.describe(i)) for i in range(len(self.words))]
        for act in self.card_acts:
            first = self.block(act)
            rows.append((first, first + len(self.cards) - 1, f"{act} <card>"))
        return rows


@cache
def _word_positions(space: ActionSpace) -> dict[Word, int]:
    return {w: i for i, w in enumerate(space.words)}


@cache
def _card_positions(space: ActionSpace) -> dict[str, int]:
    return {c: i for i, c in enumerate(space.cards)}


CEGO_WORDS: tuple[Word, ...] = tuple(
    (w, None)
    for w in (
        "fort", "solo", "ulti", "soli-ulti", "gegensolo", "piccolo", "bettel",
        "cego", "halbe", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss",
        "selbst", "gut", "spielen", "raeuber", "aufdecken",
    )
)  # fmt: skip
"""Every Cego word: the Solo and special rounds, the ladder, the auction's answers, Räuber and
Aufdecken."""

DOPPELKOPF_WORDS: tuple[Word, ...] = (
    ("gesund", None),
    ("vorbehalt", None),
    *(("solo", t) for t in ("damen", "buben", "kreuz", "pik", "herz", "trumpf", "fleischlos")),
    ("hochzeit", None),
    ("armut", None),
    ("schmeissen", None),
    ("neu-geben", None),
    ("take", None),
    ("decline", None),
    ("re", None),
    ("kontra", None),
    ("keine-90", None),
    ("keine-60", None),
    ("keine-30", None),
    ("schwarz", None),
    ("sau", None),
    ("supersau", None),
)
"""Every Doppelkopf word: reservations, declarations, the Armut offer, announcements, Sau."""


@cache
def space_for(game: str) -> ActionSpace:
    """The action space of ``game`` (``cego`` or ``doppelkopf``)."""
    if game == "cego":
        return ActionSpace(
            "cego", CEGO_WORDS, ("play", "lay-out", "keep", "press", "withdraw"), CEGO_CODES
        )
    if game == "doppelkopf":
        return ActionSpace("doppelkopf", DOPPELKOPF_WORDS, ("play", "armut", "return"), DOKO_CODES)
    raise IllegalAction(f"unknown game {game!r} (known: cego, doppelkopf)")


class Choice:
    """A seat's choice among its legal engine actions, made one index at a time."""

    __slots__ = ("_options", "picked", "space")

    def __init__(self, space: ActionSpace, actions: Sequence[Action]) -> None:
        self.space = space
        self._options = [(space.encode(a), a) for a in actions]
        self.picked: tuple[int, ...] = ()

    def legal(self) -> list[int]:
        """The indices that may come next, ascending."""
        k = len(self.picked)
        return sorted({run[k] for run, _ in self._options})

    def pick(self, index: int) -> Action | None:
        """Take ``index``; the engine action once the run is complete, else ``None``."""
        k = len(self.picked)
        left = [(run, a) for run, a in self._options if run[k] == index]
        if not left:
            what = self.space.describe(index) if 0 <= index < self.space.size else str(index)
            raise IllegalAction(f"action {index} ({what}) is not legal now")
        self.picked = (*self.picked, index)
        done = [a for run, a in left if len(run) == k + 1]
        if done:
            if len(left) != 1:  # pragma: no cover - the blocks make runs prefix-free
                raise AssertionError("an action's run is the start of another's")
            return done[0]
        self._options = left
        return None
