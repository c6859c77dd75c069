"""The rating maths: a finished deal's sides and every rated player's new skill (openskill).

Pure: the game's knowledge (which sides a deal had, its typical margin) comes from the engine
through the registry; the numbers in and out are plain values (the package docstring says why
the step is taken as it is).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from stichwerk.core.errors import RecordError, UnknownDealKind
from stichwerk.core.state import GameModule
from stichwerk.games import get_game

PROVISIONAL_DEALS = 30
"""A rating is provisional until this many rated deals: about one evening's list. In a
2-against-2 game sigma falls from 8.3 to about 5.3 over 30 deals (two thirds of the prior)."""
MARGIN_FACTORS = (0.5, 2.0)
"""The least and the most a margin of victory scales a step by."""

MU = 25.0
SIGMA = 25.0 / 3.0


def _engine(game: object) -> GameModule:
    """The registry's entry for ``game``; an unknown game is a kind of deal nobody can rate."""
    try:
        return get_game(game)
    except RecordError as exc:
        raise UnknownDealKind(f"cannot rate a deal: {exc}") from None


def model(game: str) -> PlackettLuce:
    """The rating model of ``game``: openskill's defaults (mu 25, sigma 25/3).

    Plackett-Luce is openskill's recommended model: it rates any number of sides with ties
    (Räuber's three winners), is the fastest of the five, and with two sides it agrees with
    Bradley-Terry; the Thurstone-Mosteller models handle ties worse and cost more.
    """
    return PlackettLuce(mu=MU, sigma=SIGMA)


def margin_factor(game: str, margin: float) -> float:
    """How much a win by ``margin`` settlement points scales the players' steps: the square
    root of the margin over the game's typical one (``GameModule.typical_margin``), within
    ``MARGIN_FACTORS`` (1 for a game without a typical margin).

    >>> margin_factor("doppelkopf", 10.0), margin_factor("doppelkopf", 2.0)
    (1.0, 0.5)
    >>> margin_factor("doppelkopf", 22.5), margin_factor("cego", 1000.0)
    (1.5, 2.0)
    """
    typical = _engine(game).typical_margin
    if typical is None:
        return 1.0
    low, high = MARGIN_FACTORS
    return min(high, max(low, math.sqrt(margin / typical)))


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating the leaderboards sort by: mu - 3 sigma (openskill's ordinal).

    >>> ordinal(25.0, 25.0 / 3.0)
    0.0
    """
    return mu - 3.0 * sigma


def sides(
    record: Mapping[str, Any], result: Mapping[str, Any], game: str | None = None
) -> list[tuple[int, ...]] | None:
    """The sides of a finished deal as seats, or ``None`` for a deal that is no game between
    sides (a redeal, a deal without a settlement). The engine of ``game`` (default: the
    record's) says what the sides are; a game or contract it does not know raises
    ``UnknownDealKind``.

    >>> sides({"game": "cego", "hands": [[1], [2], [3], [4]]},
    ...       {"contract": "eine", "declarer": 2, "score": {"settlement": [1, 1, -3, 1]}})
    [(2,), (0, 1, 3)]
    >>> sides({"game": "doppelkopf", "hands": [[1]] * 4},
    ...       {"re": [0, 2], "kontra": [1, 3], "score": {"settlement": [2, -2, 2, -2]}})
    [(0, 2), (1, 3)]
    >>> sides({"game": "skat", "hands": [[1]] * 3}, {"score": {"settlement": [1, -2, 1]}})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    stichwerk.core.errors.UnknownDealKind: cannot rate a deal: unknown game 'skat' (known: ...)
    """
    engine = _engine(record.get("game") if game is None else game)
    score = result.get("score")
    settlement = score.get("settlement") if isinstance(score, dict) else None
    if not isinstance(settlement, list) or result.get("counts") is False:
        return None
    hands = record.get("hands")
    playing = tuple(
        s
        for s in range(len(settlement))
        if not (isinstance(hands, list) and s < len(hands) and hands[s] == [])
    )
    return engine.deal_sides(result, playing)


@dataclass(frozen=True)
class Skill:
    """A player's rating: openskill's mu and sigma and how many deals it has taken in."""

    mu: float = MU
    sigma: float = SIGMA
    deals: int = 0


def rate_deal(
    game: str,
    record: Mapping[str, Any],
    result: Mapping[str, Any],
    players: Sequence[str | None],
    skills: Mapping[str, Skill],
) -> dict[str, Skill] | None:
    """The new skill of every rated player of a deal, or ``None`` if the deal is not rated.

    ``players[seat]`` is the seat's player key, ``None`` for a guest (a newcomer every time);
    ``skills`` holds the players' skills before the deal (missing: a newcomer). A deal of a
    game or contract the engine does not know raises ``UnknownDealKind``.
    """
    teams = sides(record, result, game)
    if teams is None or len(teams) < 2:
        return None
    members = [players[s] for team in teams for s in team]
    if not any(p is not None and p.startswith("u:") for p in members):
        return None
    settlement = result["score"]["settlement"]
    scores = [sum(float(settlement[s]) for s in team) / len(team) for team in teams]
    if not all(math.isfinite(x) for x in scores):
        return None
    rater = model(game)
    # Sides of unequal size weigh the same: each member of a side stands in it as often as it
    # takes to make every side as large as the largest (a soloist three times against three),
    # just as a lone player settles with each of the others.
    size = math.lcm(*(len(team) for team in teams))
    reps = [size // len(team) for team in teams]
    ratings = [
        [_rating(rater, _skill(skills, players[s])) for s in team for _ in range(r)]
        for team, r in zip(teams, reps, strict=True)
    ]
    rated = rater.rate(ratings, scores=scores)
    factor = margin_factor(game, max(scores) - min(scores))
    # A bot seated twice plays with itself (the same step twice: counted once) or against
    # itself (the deal says nothing about it: not rated for it).
    sides_of: dict[str, set[int]] = {}
    for number, team in enumerate(teams):
        for seat in team:
            if players[seat] is not None:
                sides_of.setdefault(str(players[seat]), set()).add(number)
    out: dict[str, Skill] = {}
    for team, r, after in zip(teams, reps, rated, strict=True):
        for index, seat in enumerate(team):
            key = players[seat]
            if key is None or len(sides_of[key]) > 1 or key in out:
                continue
            before = skills.get(key, Skill())
            new = after[index * r]
            # Each stand-in moved by the same step; the player moves by all of them (so a side's
            # gain is the other side's loss, as in the settlement), its sigma as one deal's.
            mu = before.mu + factor * r * (float(new.mu) - before.mu)
            out[key] = Skill(mu, float(new.sigma), before.deals + 1)
    return out


def _skill(skills: Mapping[str, Skill], key: str | None) -> Skill | None:
    return None if key is None else skills.get(key)


def _rating(rater: PlackettLuce, skill: Skill | None) -> PlackettLuceRating:
    if skill is None:
        return rater.rating()
    return rater.rating(mu=skill.mu, sigma=skill.sigma)


def player_key(kind: str, bot: str | None, user_id: int | None, is_guest: bool) -> str | None:
    """A seat's player key: ``b:<bot>`` for a bot seat, ``u:<id>`` for an account, ``None``
    for a guest or an empty seat.

    >>> player_key("bot", "heuristic", None, False), player_key("human", "random", 7, False)
    ('b:heuristic', 'u:7')
    >>> player_key("human", "random", 8, True) is None
    True
    """
    if kind == "bot":
        return f"b:{bot}" if bot else None
    if user_id is None or is_guest:
        return None
    return f"u:{user_id}"


@dataclass(frozen=True)
class BoardEntry:
    """One row of a leaderboard."""

    player: str
    mu: float
    sigma: float
    deals: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.deals < PROVISIONAL_DEALS
