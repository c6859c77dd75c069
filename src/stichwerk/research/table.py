"""One deal driven by action indices: what the PettingZoo, Gymnasium and OpenSpiel games share.

A :class:`Table` holds the validated engine state (nothing is bypassed: every action goes through
``GameState.apply``) and the acting seat's half-made choice of a multi-card action. Only the seat
to act chooses: Doppelkopf's announcements, which the engine also accepts out of turn, are offered
to a seat when it is its turn (before it plays its card), so the research games are turn-based.
"""

from collections.abc import Mapping
from typing import Any

from stichwerk.cego.profiles import get_profile as get_cego_profile
from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction, StichwerkError
from stichwerk.core.state import GameState
from stichwerk.games import get_game
from stichwerk.research.actions import ActionSpace, Choice, space_for


def default_seats(game: str, profile: str) -> int:
    """The usual table of a profile: Cego's ``players`` setting, Doppelkopf's 4."""
    if game == "cego":
        return get_cego_profile(profile).players
    return 4


def check_table(game: str, profile: str | None, seats: int | None) -> tuple[str, int]:
    """The profile and seat count, checked; ``StichwerkError`` with one line otherwise."""
    module = get_game(game)
    profile = profile or module.profiles[0]
    if profile not in module.profiles:
        raise StichwerkError(
            f"unknown {game} profile {profile!r} (known: {', '.join(module.profiles)})"
        )
    seats = seats or default_seats(game, profile)
    allowed = (3, 4, 5) if game == "cego" else (4, 5)
    if seats not in allowed:
        raise StichwerkError(
            f"{game} is played at {', '.join(map(str, allowed))} seats, not {seats}"
        )
    return profile, seats


REWARDS = ("settlement", "relative")
"""The reward modes of the research games."""


def _sits_out(view: dict[str, Any], seat: int) -> bool:
    return bool(view["seats"] > view["players"] and seat == view["dealer"])


def check_reward(mode: str) -> str:
    if mode not in REWARDS:
        raise StichwerkError(f"unknown reward {mode!r} (known: {', '.join(REWARDS)})")
    return mode


class Table:
    """A deal in progress, advanced by action indices or by engine actions."""

    __slots__ = ("_choice", "game", "space", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.game = state.game
        self.space: ActionSpace = space_for(state.game)
        self._choice: Choice | None = None

    @classmethod
    def deal(
        cls,
        game: str,
        *,
        profile: str | None = None,
        seats: int | None = None,
        dealer: int = 0,
        seed: int | str = 0,
        options: Mapping[str, Any] | None = None,
    ) -> "Table":
        """A fresh deal shuffled from ``seed``."""
        profile, seats = check_table(game, profile, seats)
        state = get_game(game).new_deal(
            profile=profile, options=dict(options or {}), players=seats, dealer=dealer, seed=seed
        )
        return cls(state)

    @property
    def seats(self) -> int:
        return self.state.seats

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, ``None`` once the deal is over."""
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def pending(self) -> tuple[int, ...]:
        """The indices the seat to act has picked towards a multi-card action so far."""
        return () if self._choice is None else self._choice.picked

    def _current(self) -> Choice:
        if self._choice is None:
            seat = self.state.to_act
            actions = [] if seat is None else self.state.legal_actions(seat)
            self._choice = Choice(self.space, actions)
        return self._choice

    def legal(self) -> list[int]:
        """The indices the seat to act may take now, ascending (empty once the deal is over)."""
        if self.state.is_over:
            return []
        return self._current().legal()

    def step(self, index: int) -> Action | None:
        """Take ``index`` for the seat to act; the engine action applied, or ``None`` while a
        multi-card action is still being chosen."""
        if self.state.is_over:
            raise IllegalAction("the deal is over")
        action = self._current().pick(int(index))
        if action is None:
            return None
        self._choice = None
        return self.state.apply(action)

    def apply(self, action: Action) -> Action:
        """Apply an engine action (a bot's answer); refused while a choice is half made."""
        if self._choice is not None and self._choice.picked:
            raise IllegalAction("a multi-card action is half chosen; finish it first")
        canonical = self.state.apply(action)
        self._choice = None
        return canonical

    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view of ``seat`` (the only input of the observation encoders)."""
        return self.state.view(seat)

    def settlement(self) -> list[float]:
        """Each seat's settlement once the deal is over (zeros before)."""
        result = self.state.result()
        if result is None:
            return [0.0] * self.seats
        return [float(x) for x in result["score"]["settlement"]]

    def rewards(self, mode: str = "settlement") -> list[float]:
        """The deal's rewards: the ``settlement``, or ``relative`` to the mean of the seats
        dealt in (as the arena scores; where only winners write, another's points are one's
        loss). A sitting dealer's relative reward is 0."""
        settlement = self.settlement()
        if mode == "settlement":
            return settlement
        view = self.state.view(None)
        dealt = [s for s in range(self.seats) if not _sits_out(view, s)]
        mean = sum(settlement[s] for s in dealt) / len(dealt)
        return [settlement[s] - mean if s in dealt else 0.0 for s in range(self.seats)]

    def __deepcopy__(self, memo: dict[int, Any]) -> "Table":
        # A deep copy (OpenSpiel's clone of a state) is the engine's own clone.
        return self.clone()

    def clone(self) -> "Table":
        other = Table(self.state.clone())
        if self._choice is not None:
            seat = self.state.to_act
            choice = Choice(self.space, [] if seat is None else self.state.legal_actions(seat))
            for index in self._choice.picked:
                choice.pick(index)
            other._choice = choice
        return other
