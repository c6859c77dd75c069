"""A tournament day as plain data: what the storage read of it in one transaction.

The storage loads a :class:`TournamentData` (the tournament, its players, its rounds and their
tables with whatever results have come in) and hands it to the rules of the day
(:mod:`.day`), to the pages' JSON and to the command line; nobody below reads a row. The
snapshot holds no database object and does no I/O, so a rule can be tested on one written by
hand.

A table's results are kept (in the database, the log and a backup) as plain JSON, one object
per seat in seat order: ``{"points", "duty_solos", "games_won"}`` (:func:`results_to_plain`,
:func:`results_from_plain`).
"""

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.tournament.draw import Round
from stichwerk.tournament.formats import TournamentFormat, get_format
from stichwerk.tournament.standings import Result

MODES = ("sheet", "quick", "online")
"""How a table's results come in: its score sheet, the director's typed totals, an online
table."""
STATUSES = ("registration", "running", "finished")
"""A tournament's course: players register, rounds are played, the ranking is final."""
SOURCES = ("director", "cli", "sheet", "online", "import")
"""Who made a change: the director's page, the command line, a table's score sheet, an online
table, a backup imported."""


class UnknownTournament(StichwerkError):
    """No tournament (or table, or player) of that id or link."""


class TournamentError(StichwerkError):
    """The request does not fit the tournament as it stands (a round not complete, a player
    already withdrawn ...); the message says why."""


@dataclass(frozen=True)
class PlayerRow:
    """A registration."""

    number: int
    name: str
    withdrawn_after: int | None
    """Rounds drawn when the player withdrew (``None``: still in)."""

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after is not None


@dataclass(frozen=True)
class TableRow:
    """One table of a round and what has come in from it."""

    round: int
    number: int
    seating: tuple[int, ...]
    duty_owed: tuple[int, ...]
    mode: str
    list_id: str | None
    scorer_token: str | None
    follower_token: str | None
    sheet_changes: int
    """Changes made to the table's score sheet so far."""
    web_table_id: str | None
    online: dict[str, Any] | None
    results: tuple[Result, ...] | None
    source: str | None
    entered_at: dt.datetime | None

    @property
    def size(self) -> int:
        return len(self.seating)

    @property
    def started(self) -> bool:
        """Something has come in: results, a deal on its sheet, an online table."""
        return self.results is not None or self.sheet_changes > 0 or self.web_table_id is not None


@dataclass(frozen=True)
class RoundRow:
    """A round as drawn: a Vorrunde round (or pass), or the Endrunde (``final``)."""

    number: int
    final: bool
    by_lot: tuple[tuple[int, ...], ...]
    tables: tuple[TableRow, ...]

    def as_round(self) -> Round:
        return Round(self.number, tuple(t.seating for t in self.tables))

    @property
    def complete(self) -> bool:
        return all(t.results is not None for t in self.tables)

    def missing(self) -> list[int]:
        """The tables without results."""
        return [t.number for t in self.tables if t.results is None]


@dataclass(frozen=True)
class TournamentData:
    """A tournament as stored, read in one transaction."""

    id: str
    name: str
    game: str
    format_name: str
    profile: str
    held_on: dt.date
    place: str
    series: str
    seed: str
    status: str
    director_token: str
    public_token: str
    created_at: dt.datetime
    finished_at: dt.datetime | None
    seq: int
    """Changes so far (the position in the log)."""
    players: tuple[PlayerRow, ...]
    rounds: tuple[RoundRow, ...]

    @property
    def fmt(self) -> TournamentFormat:
        return get_format(self.format_name)

    @property
    def numbers(self) -> list[int]:
        return [p.number for p in self.players]

    @property
    def names(self) -> dict[int, str]:
        return {p.number: p.name for p in self.players}

    @property
    def withdrawn(self) -> set[int]:
        return {p.number for p in self.players if p.withdrawn}

    @property
    def active(self) -> list[int]:
        return [p.number for p in self.players if not p.withdrawn]

    @property
    def vorrunde(self) -> list[RoundRow]:
        return [r for r in self.rounds if not r.final]

    @property
    def endrunde(self) -> RoundRow | None:
        finals = [r for r in self.rounds if r.final]
        return finals[0] if finals else None

    def results(self) -> list[Result]:
        """Every result entered so far."""
        return [res for r in self.rounds for t in r.tables for res in t.results or ()]

    def player(self, number: int) -> PlayerRow:
        for p in self.players:
            if p.number == number:
                return p
        raise UnknownTournament(f"no player {number + 1} in this tournament")

    def table(self, round_number: int, number: int) -> TableRow:
        for r in self.rounds:
            if r.number == round_number:
                for t in r.tables:
                    if t.number == number:
                        return t
                raise UnknownTournament(f"round {round_number} has no table {number}")
        raise UnknownTournament(f"no round {round_number} has been drawn")

    def round_label(self, number: int) -> str:
        """ "Runde 2" or "Endrunde" (the tournament's words)."""
        fmt = self.fmt
        return "Endrunde" if fmt.final_round and number > fmt.rounds else f"Runde {number}"

    def table_title(self, round_number: int, table_number: int) -> str:
        """A table's score sheet's title: "Vereinsturnier · Runde 2 · Tisch 3" (120 at most)."""
        label = self.round_label(round_number)
        return f"{self.name} · {label} · Tisch {table_number}"[:120]


@dataclass(frozen=True)
class TournamentSummary:
    """A line of the list of tournaments."""

    id: str
    name: str
    held_on: dt.date
    place: str
    series: str
    format_name: str
    status: str
    players: int


def results_to_plain(results: Sequence[Result] | None) -> list[dict[str, Any]] | None:
    """A table's results as kept: one ``{"points", "duty_solos", "games_won"}`` per seat."""
    if results is None:
        return None
    return [
        {"points": r.points, "duty_solos": r.duty_solos, "games_won": r.games_won} for r in results
    ]


def results_from_plain(
    round_number: int, seating: Sequence[int], plain: Sequence[Mapping[str, Any]] | None
) -> tuple[Result, ...] | None:
    """The results kept for a table seated ``seating`` in round ``round_number``."""
    if plain is None:
        return None
    return tuple(
        Result(round_number, int(p), r["points"], int(r["duty_solos"]), int(r["games_won"]))
        for p, r in zip(seating, plain, strict=True)
    )
