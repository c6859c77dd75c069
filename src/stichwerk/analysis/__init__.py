"""Post-game analysis: what each choice of a seat was worth, as the search bot sees it.

A finished (or partly played) game record is replayed through the game's engine. At every
*decision* of a chosen seat — an action of the record taken by the seat whose turn it was, when
it had more than one legal choice — the seat's view at that moment (the engine's own
``view(seat)``: only what the seat could see) goes to the search bot's
``evaluate(view, seconds)``, which values every legal choice: the settlement the seat could
expect after it (against the table's mean) with a 95% interval. The *loss* of the decision is
the best choice's mean less the mean of the choice made (never below 0); a loss above the
threshold is a *Fehler*.

Out-of-turn announcements (a Doppelkopf seat saying Re while another seat is to play) are not
decisions here: their alternative, saying nothing yet, is no legal action to value. The words a
seat may say on its own turn are valued beside its cards.

Reproducible: every search is seeded from the seat's view at the decision; with ``worlds``
set each search samples exactly that many worlds and the analysis is the same bit for bit;
with a time budget alone the number of worlds depends on the machine's speed (the seeds stay).

The package imports the engines and the bots, nothing of the server, storage or CLI.
"""

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from stichwerk.bots.evaluation import ActionValue
from stichwerk.bots.players import make_search
from stichwerk.bots.warm import ensure
from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction, RecordError, StichwerkError, one_line
from stichwerk.core.record import get_list
from stichwerk.games import get_game

__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_THRESHOLD",
    "Analysis",
    "AnalysisSettings",
    "ChoiceValue",
    "Decision",
    "Point",
    "analyse",
    "decision_points",
    "judge",
    "value_point",
    "view_seed",
]

DEFAULT_SECONDS = 0.3
"""Seconds of search per decision (about what the search bot spends at a table)."""
DEFAULT_THRESHOLD = 1.0
"""A choice that lost more than this many points of expected settlement is a Fehler."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called before the first decision and after each one."""


@dataclass(frozen=True)
class AnalysisSettings:
    """How hard and how strictly to analyse."""

    seconds: float = DEFAULT_SECONDS
    """Search time per decision."""
    worlds: int | None = None
    """Sample exactly this many worlds per decision instead (reproducible bit for bit)."""
    threshold: float = DEFAULT_THRESHOLD
    """Loss (points of expected settlement) above which a decision is a Fehler."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and self.seconds > 0):
            raise StichwerkError("the seconds per decision must be a positive number")
        if self.worlds is not None and self.worlds < 2:
            raise StichwerkError("the worlds per decision must be at least 2")
        if not (math.isfinite(self.threshold) and self.threshold >= 0):
            raise StichwerkError("the threshold must be a number of points, 0 or more")


@dataclass(frozen=True)
class Point:
    """A decision to value: the seat's view just before it acted, and what it did."""

    game: str
    index: int
    """The action's index in the record."""
    seat: int
    phase: str
    view: dict[str, Any]
    """``view(seat)`` at that moment, exactly what the seat could see."""
    legal: tuple[Action, ...]
    chosen: Action
    """The action taken, in the engine's canonical form."""
    seed: str


@dataclass(frozen=True)
class ChoiceValue:
    """One legal choice and what the search expects after it."""

    action: Action
    mean: float
    half_width: float | None
    """Half the 95% interval (``None``: too few samples to say)."""
    samples: int

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "mean": self.mean,
            "half_width": self.half_width,
            "samples": self.samples,
        }


@dataclass(frozen=True)
class Decision:
    """A valued decision: the choices, the one made, what it lost against the best."""

    seat: int
    index: int
    phase: str
    choices: tuple[ChoiceValue, ...]
    """Every legal choice, in the engine's order."""
    chosen: Action
    best: Action
    loss: float
    """Best mean less the chosen one's (≥ 0)."""
    fehler: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "index": self.index,
            "phase": self.phase,
            "choices": [c.to_json() for c in self.choices],
            "chosen": self.chosen.to_json(),
            "best": self.best.to_json(),
            "loss": self.loss,
            "fehler": self.fehler,
        }


@dataclass(frozen=True)
class Analysis:
    """Every valued decision of a record, in the record's order."""

    game: str
    seats: tuple[int, ...]
    settings: AnalysisSettings
    decisions: list[Decision] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"decisions": [...]}``: the contract of ``stichwerk analyse --json``."""
        return {"decisions": [d.to_json() for d in self.decisions]}

    @property
    def fehler(self) -> list[Decision]:
        return [d for d in self.decisions if d.fehler]

    def total_loss(self, seat: int) -> float:
        return sum(d.loss for d in self.decisions if d.seat == seat)


def view_seed(view: Mapping[str, Any]) -> str:
    """The search's seed for a decision: a digest of the seat's view at that moment (which
    holds the deal's actions so far as the seat saw them). The same view always gets the same
    seed, so a valuation depends on nothing the seat could not see."""
    text = json.dumps(view, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return "analysis-" + hashlib.sha256(text.encode()).hexdigest()[:20]


def decision_points(record: Mapping[str, Any], seats: Iterable[int] | None = None) -> list[Point]:
    """Replay ``record`` and collect the decisions of ``seats`` (default: every seat).

    Raises ``StichwerkError`` with one line (naming the action) for a bad or illegal record.
    """
    record = dict(record)
    name = record.get("game")
    game = get_game(name)
    state = game.deal_from_record(record)
    wanted = set(range(state.seats)) if seats is None else set(seats)
    for seat in wanted:
        if not 0 <= seat < state.seats:
            raise RecordError(f"seat {seat} is not at this table (seats 0 to {state.seats - 1})")
    points: list[Point] = []
    for index, raw in enumerate(get_list(record, "actions", "record")):
        try:
            action = Action.from_json(raw)
        except StichwerkError as exc:
            raise RecordError(f"action {index}: {exc}") from None
        seat = action.seat
        on_turn = state.to_act == seat and 0 <= seat < state.seats
        view: dict[str, Any] | None = None
        legal: list[Action] = []
        if on_turn and seat in wanted:
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                view = state.view(seat)
        try:
            canonical = state.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(
                f"action {index} (seat {seat}, {one_line(action.act)}) is illegal: {exc}"
            ) from None
        except StichwerkError as exc:
            raise StichwerkError(
                f"action {index} (seat {seat}, {one_line(action.act)}): {exc}"
            ) from None
        if view is not None:
            points.append(
                Point(
                    game=game.name,
                    index=index,
                    seat=seat,
                    phase=str(view.get("phase", "")),
                    view=view,
                    legal=tuple(legal),
                    chosen=canonical,
                    seed=view_seed(view),
                )
            )
    return points


def value_point(
    game: str, view: Mapping[str, Any], seed: str, seconds: float, worlds: int | None
) -> list[dict[str, Any]]:
    """The search's value of every legal choice of ``view`` as JSON (runs in a worker too:
    arguments and answer are plain data)."""
    # Valuing needs the kernels: compile them once if they are not cached yet (after the
    # server's warm-up, if one is under way); a search at a table would play in Python meanwhile.
    ensure()
    params: dict[str, Any] = {} if worlds is None else {"worlds": worlds}
    bot = make_search(game, seed, **params)
    evaluate: Callable[[Mapping[str, Any], float], list[ActionValue]] | None = getattr(
        bot, "evaluate", None
    )
    if evaluate is None:
        raise StichwerkError(f"the search bot for {game} cannot value choices")
    return [_value_json(v) for v in evaluate(view, seconds)]


def _value_json(value: ActionValue) -> dict[str, Any]:
    half = float(value.half_width)
    return {
        "action": value.action.to_json(),
        "mean": float(value.mean),
        "half_width": half if math.isfinite(half) else None,
        "samples": int(value.samples),
    }


def judge(point: Point, values: list[dict[str, Any]], threshold: float) -> Decision:
    """The decision of ``point`` from the search's ``values`` (JSON of ``value_point``)."""
    by_action = {Action.from_json(v["action"]): v for v in values}
    missing = [a for a in point.legal if a not in by_action]
    if missing:
        raise StichwerkError(f"the search gave no value for {missing[0]} at action {point.index}")
    choices = tuple(
        ChoiceValue(
            a,
            round(float(by_action[a]["mean"]), 6),
            None
            if by_action[a]["half_width"] is None
            else round(float(by_action[a]["half_width"]), 6),
            int(by_action[a]["samples"]),
        )
        for a in point.legal
    )
    best = max(choices, key=lambda c: c.mean)
    made = next(c for c in choices if c.action == point.chosen)
    loss = round(max(0.0, best.mean - made.mean), 6)
    return Decision(
        seat=point.seat,
        index=point.index,
        phase=point.phase,
        choices=choices,
        chosen=point.chosen,
        best=best.action,
        loss=loss,
        fehler=loss > threshold,
    )


def analyse(
    record: Mapping[str, Any],
    seats: Iterable[int] | None = None,
    settings: AnalysisSettings | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Value every decision of ``seats`` (default: all) in ``record``, one after another."""
    settings = settings or AnalysisSettings()
    points = decision_points(record, seats)
    game = get_game(record.get("game"))
    if seats is None:
        seats = range(game.deal_from_record(record).seats)
    out = Analysis(game.name, tuple(sorted(set(seats))), settings)
    if progress is not None:
        progress(0, len(points))
    for n, point in enumerate(points, 1):
        values = value_point(point.game, point.view, point.seed, settings.seconds, settings.worlds)
        out.decisions.append(judge(point, values, settings.threshold))
        if progress is not None:
            progress(n, len(points))
    return out
