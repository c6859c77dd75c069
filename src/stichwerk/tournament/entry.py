"""Typed totals checked as a whole: every problem of one entry at once, each at its field.

A table that wrote its list on paper brings the director one line per seat (points, Pflicht-Soli,
games won). What the list's rules allow is checked all together, so a director with three
mistakes hears of all three on the first save, not one per save; each problem carries a code, the
seat and field it concerns and its numbers, so a page can say it in its own language beside the
field, and an English line for the API's ``error`` and the command line.

What can be checked without the deals themselves:

- one line per seat; whole numbers; Pflicht-Soli no more than the seat owed at the table;
- each seat's games won between 0 and the table's games;
- the table's games won together no more than ``most_winners`` a game (a Doppelkopf party is at
  most three of the four dealt in, a zero-sum settlement leaves at least one loser). There is
  no lower bound: a game whose value nets to zero (won with 121 while the other side caught a
  Fuchs) writes nothing in a plus-only list, so a table's games won may add up to fewer than its
  games;
- a plus-minus table's totals sum to zero (at a 4-table all even or all odd); a seat that won
  no game never wrote a plus, so its total is not above zero;
- a plus-only table writes no negative totals, and a game won writes at least one point: a seat
  has at least as many points as games won, and points only with a game won (unless no seat's
  games won were typed: all 0 is points alone, and the games-won tie-break counts none).

>>> from stichwerk.core.series import SeriesRules
>>> rules = SeriesRules(seats=4, games=8, zero_sum=False)
>>> lines = [{"points": 5, "games_won": 9}, {"points": -1, "games_won": 1},
...          {"points": 3, "games_won": 0}, {"points": 0, "games_won": 0}]
>>> try:
...     check_totals(rules, ["A", "B", "C", "D"], [0] * 4, lines)
... except EntryProblems as exc:
...     print([(p.code, p.seat) for p in exc.problems])
[('whole', 0), ('negative', 1), ('points_without_win', 2)]
"""

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import SeriesRules

FIELDS = ("points", "duty_solos", "games_won")
"""The keys of one seat's line."""
MAX_POINTS = 1_000_000
"""No total is larger (nor smaller than its negative)."""
MAX_SOLOS = 10
ERROR_LENGTH = 240
"""Characters of the joined ``error`` line before it names the first problem and how many
more (the app cuts a line at 300)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: ``code`` says what (the page's catalogue key), ``seat``
    and ``field`` where (``None``: the whole entry or table), ``params`` its numbers and names,
    ``text`` the English line."""

    code: str
    text: str
    seat: int | None = None
    field: str | None = None
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The problem as the API sends it."""
        return {
            "code": self.code,
            "seat": self.seat,
            "field": self.field,
            "params": dict(self.params),
        }


def summary(problems: Sequence[Problem], limit: int = ERROR_LENGTH) -> str:
    """Every problem in one line, or the first and how many more where that is too long.

    >>> summary([Problem("a", "one"), Problem("b", "two")])
    'one; two'
    >>> summary([Problem("a", "x" * 10), Problem("b", "y" * 10), Problem("c", "z")], limit=15)
    'xxxxxxxxxx (and 2 more)'
    """
    joined = "; ".join(p.text for p in problems)
    if len(joined) <= limit or len(problems) < 2:
        return joined
    return f"{problems[0].text} (and {len(problems) - 1} more)"


class EntryProblems(StichwerkError):
    """Typed totals that do not fit the table: all the problems found, the message names them
    (see :func:`summary`)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(summary(self.problems))


def _whole(
    problems: list[Problem], value: object, seat: int, key: str, who: str, lo: int, hi: int
) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        what = {"points": "points", "duty_solos": "Pflicht-Soli", "games_won": "games won"}[key]
        problems.append(
            Problem(
                "whole",
                f"{who}'s {what} must be a whole number from {lo} to {hi}",
                seat,
                key,
                {"name": who, "lo": lo, "hi": hi},
            )
        )
        return None
    return value


def check_totals(
    rules: SeriesRules,
    names: Sequence[str],
    owed: Sequence[int],
    entries: object,
    *,
    most_winners: int = 3,
) -> list[tuple[int, int, int]]:
    """Each seat's ``(points, duty_solos, games_won)`` from the typed ``entries`` (a list of
    one mapping per seat, in seat order; ``owed``: the Pflicht-Soli each seat owed at the table),
    or :class:`EntryProblems` naming everything wrong (see the module docstring)."""
    size = len(names)
    if not isinstance(entries, list) or len(entries) != size:
        raise EntryProblems(
            [
                Problem(
                    "lines",
                    f"enter one line for each of the table's {size} players",
                    params={"size": size},
                )
            ]
        )
    games = max(rules.total_games or 0, 0)
    problems: list[Problem] = []
    lines: list[tuple[int | None, int | None, int | None]] = []
    for seat, (who, entry) in enumerate(zip(names, entries, strict=True)):
        if not isinstance(entry, Mapping) or not set(entry) <= set(FIELDS):
            problems.append(
                Problem(
                    "keys",
                    f"{who}: send points, duty_solos and games_won",
                    seat,
                    None,
                    {"name": who},
                )
            )
            lines.append((None, None, None))
            continue
        points = _whole(problems, entry.get("points"), seat, "points", who, -MAX_POINTS, MAX_POINTS)
        solos = _whole(problems, entry.get("duty_solos", 0), seat, "duty_solos", who, 0, MAX_SOLOS)
        seat_owes = owed[seat] if rules.duty_solos else 0
        if solos is not None and solos > seat_owes:
            owes = "owes no Pflicht-Solo" if seat_owes == 0 else f"owes {seat_owes} Pflicht-Solo"
            problems.append(
                Problem(
                    "duty_owed",
                    f"{who} {owes} at this table, not {solos}",
                    seat,
                    "duty_solos",
                    {"name": who, "owed": seat_owes, "given": solos},
                )
            )
        won = _whole(problems, entry.get("games_won", 0), seat, "games_won", who, 0, games)
        lines.append((points, solos, won))
    every_won = [w for _, _, w in lines if w is not None]
    most = most_winners * games
    if len(every_won) == size and sum(every_won) > most:
        problems.append(
            Problem(
                "games_won_total",
                f"the games won add up to {sum(every_won)}, but {games} games have at most "
                f"{most} winners ({most_winners} a game)",
                None,
                "games_won",
                {"total": sum(every_won), "games": games, "most": most, "per_game": most_winners},
            )
        )
    totals = [p for p, _, _ in lines if p is not None]
    if rules.zero_sum and len(totals) == size:
        if sum(totals) != 0:
            problems.append(
                Problem(
                    "zero_sum",
                    f"the totals of a plus-minus table sum to zero; these sum to {sum(totals)}",
                    None,
                    "points",
                    {"sum": sum(totals)},
                )
            )
        if rules.parity_check and len({t % 2 for t in totals}) > 1:
            problems.append(
                Problem(
                    "parity",
                    "at a plus-minus 4-table the totals are all even or all odd",
                    None,
                    "points",
                )
            )
    # Games won all 0: not kept (points only, as a club without the tie-break types them).
    kept = any(every_won)
    for seat, (who, (points, _, won)) in enumerate(zip(names, lines, strict=True)):
        if points is None:
            continue
        params = {"name": who, "points": points, "won": won}
        if not rules.zero_sum and points < 0:
            problems.append(
                Problem(
                    "negative",
                    f"a plus-only table writes no negative totals ({who})",
                    seat,
                    "points",
                    params,
                )
            )
            continue
        if won is None or not kept:
            continue
        if won == 0 and points > 0:
            problems.append(
                Problem(
                    "points_without_win",
                    f"{who} has {points} points but won no game",
                    seat,
                    "games_won",
                    params,
                )
            )
        elif not rules.zero_sum and won > points:
            problems.append(
                Problem(
                    "wins_without_points",
                    f"{who} won {won} game{'s' if won != 1 else ''} but has {points} "
                    f"point{'s' if points != 1 else ''} (each game won writes at least one)",
                    seat,
                    "games_won",
                    params,
                )
            )
    if problems:
        # Seat by seat in the form's order, then what concerns the whole table.
        order = {key: n for n, key in enumerate(FIELDS)}
        problems.sort(key=lambda p: (p.seat is None, p.seat or 0, order.get(p.field or "", 3)))
        raise EntryProblems(problems)
    return [(p, s, w) for p, s, w in lines if p is not None and s is not None and w is not None]
