"""Tournaments in the database: the director's whole day, and the clubs' ranking lists.

What is decided is decided by the pure package :mod:`stichwerk.tournament` (the draw, the
standings, the Endrunde, the ranking); this module keeps what happened and checks the director's
input against it:

- a **tournament** (game, format, profile, date, place, the club or series whose ranking lists
  it joins, the seed of every draw, a director link and a read-only link);
- its **players**, each a :class:`~stichwerk.storage.models.Person` known by name across
  tournaments (so the ranking lists and the next registration know the same spelling), numbered
  in registration order; a withdrawal keeps the number and the points;
- its **rounds** and their **tables** (the seating, the first seat dealing first, and the
  Pflicht-Soli each seat still owed when it was drawn); every table gets a score sheet (a
  ``score_list`` with the format's list rules) when it is drawn;
- each table's **results**, from one of three sources (``mode``): its score sheet once the list
  is complete (:meth:`TournamentStore.sync_sheet`), the totals the director typed in
  (:meth:`TournamentStore.enter`, checked as far as the table's list rules allow), or an online
  table's finished list (:meth:`TournamentStore.store_online`);
- a **change log**, one row per change, each with who made it; the standings are computed from
  the results every time they are read, so a corrected table changes everything after it, and
  a finished tournament's ranking rows are written again.

Every change is one transaction: read the tournament as it stands, check, write, log. A
backup is one JSON file (:meth:`TournamentStore.export` and :meth:`TournamentStore.import_backup`)
holding the tournament, its tables' score sheets with their change logs and its own log, so a
second laptop can take over from it.
"""

import datetime as dt
import functools
import hashlib
import json
import math
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import SeriesRules
from stichwerk.core.text import clean_line
from stichwerk.games import get_game
from stichwerk.sheet import read_settings
from stichwerk.sheet.log import replay
from stichwerk.storage.db import Database
from stichwerk.storage.models import (
    HistoryImport,
    Person,
    RankingRow,
    ScoreChange,
    ScoreList,
    SeriesOwner,
    Tournament,
    TournamentChange,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    utcnow,
)
from stichwerk.storage.repo import new_id
from stichwerk.tournament import (
    FORMATS,
    ListEntry,
    PastResult,
    Result,
    Round,
    Standing,
    TournamentFormat,
    draw_round,
    duty_owed,
    final_ranking,
    five_year_list,
    get_format,
    ranking_list,
    read_results_csv,
    results_of_ranking,
    seat_endrunde,
    table_results,
    table_series_rules,
    vorrunde_standings,
)
from stichwerk.tournament.entry import check_totals
from stichwerk.tournament.lists import player_name

NAME_LENGTH = 40
"""Characters of a player's name (as on a score sheet)."""
TEXT_LENGTH = 120
"""Characters of a tournament's name, place and series."""
MODES = ("sheet", "quick", "online")
"""How a table's results come in: its score sheet, the director's typed totals, an online
table."""
STATUSES = ("registration", "running", "finished")
MAX_POINTS = 1_000_000
BACKUP_KIND = "stichwerk-tournament-backup"
BACKUP_VERSION = 1
TOKEN_BYTES = 16
SOURCES = ("director", "cli", "sheet", "online", "import")
"""Who made a change: the director's page, the command line, a table's score sheet, an online
table, a backup imported."""
MAX_HISTORY_ROWS = 20_000
"""Rows of one history import: a club's whole past (40 years of 12 tournaments of 40 players
is 19,200) in one file; a larger one is split by years."""
MAX_SERIES_ROWS = 100_000
"""Rows a series' history may hold in all (every list is computed from all of them)."""
HISTORY_BATCH = 500
"""Rows written per transaction of a history import: each holds SQLite's write lock for a few
milliseconds, so a table's moves and a sheet's entries go on between them."""
HISTORY_PAUSE = 0.01
"""Seconds between two batches: SQLite's busy handler retries a waiting writer after 1, 2, 5 ...
100 ms, and a batch that began again at once could starve it; a pause as long as a batch leaves
the lock free half the time."""
STALE_IMPORT = dt.timedelta(minutes=10)
"""An import not done after this long was cut off (a crash; 20,000 rows take a second or two);
the next import clears its rows away (until then they count nowhere, but hold their tournaments'
keys)."""
MAX_BACKUP_NUMBER = 10**9
"""No number in a backup's score sheets or log is larger than this (points, Augen, games)."""
SECRET_BYTES = 12
"""A series' owner secret: 16 characters from ``secrets`` (96 bits)."""


class UnknownTournament(StichwerkError):
    """No tournament (or table, or player) of that id or link."""


class TournamentError(StichwerkError):
    """The request does not fit the tournament as it stands (a round not complete, a player
    already withdrawn ...); the message says why."""


class SeriesLocked(StichwerkError):
    """The series has an owner secret, and it was not given (or not rightly): nobody but its
    owner adds a tournament, a history or a backup to a club's ranking list."""


def hash_secret(secret: str) -> str:
    """What is stored of a series' secret (its SHA-256: the secret itself is random)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _secret_matches(stored: str, given: object) -> bool:
    if not isinstance(given, str) or not 1 <= len(given) <= 64:
        return False
    return secrets.compare_digest(stored, hash_secret(given.strip()))


def _locked(series: str) -> SeriesLocked:
    return SeriesLocked(
        f"the series {series!r} has an owner: give its secret (shown to the director who made "
        "its first tournament)"
    )


def _insert_ignoring(session: Session, model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows``, skipping any a concurrent writer inserted first (its unique key)."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(postgresql.insert(model).on_conflict_do_nothing(), rows)
    elif dialect == "sqlite":
        session.execute(sqlite.insert(model).on_conflict_do_nothing(), rows)
    else:  # pragma: no cover - the two databases the project runs on
        session.execute(insert(model), rows)


def _guard_series(session: Session, series: str, secret: object, *, claim: bool) -> str | None:
    """May the caller add to ``series``? An owned series needs its secret (else
    :class:`SeriesLocked`); an unowned one is claimed with ``claim`` (the new secret returned,
    to be shown once)."""
    owner = session.get(SeriesOwner, series)
    if owner is not None:
        if not _secret_matches(owner.secret_hash, secret):
            raise _locked(series)
        return None
    if not claim:
        return None
    fresh = secrets.token_urlsafe(SECRET_BYTES)
    _insert_ignoring(
        session,
        SeriesOwner,
        [
            {
                "series": series,
                "secret_hash": hash_secret(fresh),
                "created_at": utcnow(),
                "changed_at": utcnow(),
            }
        ],
    )
    stored = session.scalar(select(SeriesOwner.secret_hash).where(SeriesOwner.series == series))
    if stored != hash_secret(fresh):
        # Another director claimed it a moment before: it is theirs now.
        if not _secret_matches(str(stored), secret):
            raise _locked(series)
        return None
    return fresh


def _owner_hash(session: Session, series: str) -> str | None:
    found = session.scalar(select(SeriesOwner.secret_hash).where(SeriesOwner.series == series))
    return None if found is None else str(found)


def _counted() -> ColumnElement[bool]:
    """The ranking rows that count: a finished tournament's, and a history import's once it is
    done (its batches written)."""
    return or_(
        RankingRow.import_id.is_(None),
        RankingRow.import_id.in_(select(HistoryImport.id).where(HistoryImport.done.is_(True))),
    )


# ------------------------------------------------------------------------------ snapshots


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


# ------------------------------------------------------------------------------ input checks


def clean_name(raw: object, what: str = "a player's name") -> str:
    """A name as the lists keep it (spaces folded), or a one-line error.

    >>> clean_name("  Anna   Maier ")
    'Anna Maier'
    """
    if not isinstance(raw, str):
        raise StichwerkError(f"{what} must be text")
    name = player_name(raw)
    if not name:
        raise StichwerkError(f"{what} may not be empty")
    if len(name) > NAME_LENGTH or not name.isprintable():
        raise StichwerkError(
            f"{what} {name[:NAME_LENGTH]!r} is longer than {NAME_LENGTH} characters or not "
            "printable"
        )
    return name


def clean_text(raw: object, what: str, *, required: bool = False) -> str:
    """A tournament's name, place or series: one line of up to 120 characters."""
    return clean_line(raw, f"the {what}", TEXT_LENGTH, required=required)


def parse_date(raw: object) -> dt.date:
    """A date as 2025-03-08 or 08.03.2025."""
    if isinstance(raw, dt.date):
        return raw
    if not isinstance(raw, str):
        raise StichwerkError("the date must be written 2025-03-08 or 08.03.2025")
    text = raw.strip()
    try:
        if re.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{4}", text):
            day, month, year = (int(x) for x in text.split("."))
            return dt.date(year, month, day)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise StichwerkError(f"{text[:20]!r} is not a date (write 2025-03-08 or 08.03.2025)")


NUMBERED = re.compile(r"^\s*\d{1,3}\s*[.):]\s*")


def parse_name_list(text: str) -> list[str]:
    """Names pasted as a list: one per line; a leading "1." or "12)" and anything after a tab
    or a semicolon (a spreadsheet's next column) are left out, blank lines skipped.

    >>> parse_name_list("1. Anna Maier\\n2) Ben Roth;Verein\\n\\n Clara\\tx")
    ['Anna Maier', 'Ben Roth', 'Clara']
    """
    names = []
    for line in text.splitlines():
        bare = re.split(r"[\t;]", NUMBERED.sub("", line), maxsplit=1)[0].strip()
        if bare:
            names.append(bare)
    return names


def _whole(value: object, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StichwerkError(f"{what} must be a whole number from {lo} to {hi}")
    return value


# ------------------------------------------------------------------------------ table rules


def table_rules(fmt: TournamentFormat, profile: str, size: int, round_number: int) -> SeriesRules:
    """The list rules of a table of ``size`` seats in round ``round_number``: the game's own
    for the profile, with the format's games, sitting dealer and Pflicht-Soli."""
    module = get_game(fmt.game)
    if module.series_rules is not None:
        base = module.series_rules(profile, None, size)
    else:
        base = SeriesRules(seats=size, dealer_sits=size == 5)
    return table_series_rules(fmt, base, round_number)


def sheet_settings(
    data: TournamentData,
    round_number: int,
    table_number: int,
    seating: Sequence[int],
    owed: Sequence[int],
) -> dict[str, Any]:
    """The score sheet's settings for a table: the players' names in seat order (the first
    deals first), the format's games and Pflicht-Soli, what each seat still owes."""
    fmt = data.fmt
    rules = table_rules(fmt, data.profile, len(seating), round_number)
    header: dict[str, Any] = {
        "game": fmt.game,
        "profile": data.profile,
        "seats": len(seating),
        "names": [data.names[p] for p in seating],
        "first_dealer": 0,
        "games": rules.games,
        "duty_solos": rules.duty_solos,
        "duty_penalty": rules.duty_penalty,
        "title": f"{data.name} · {data.round_label(round_number)} · Tisch {table_number}"[:120],
    }
    if rules.duty_solos:
        header["duty_owed"] = list(owed)
    settings = read_settings(header)
    if settings.rules().dealer_sits != rules.dealer_sits:
        raise StichwerkError(
            f"the {fmt.name} format's {len(seating)}-tables do not seat the dealer as the "
            f"{fmt.game} score sheet does"
        )
    return settings.to_json()


def online_list_rules(
    fmt: TournamentFormat, profile: str, size: int, round_number: int, owed: Sequence[int]
) -> dict[str, Any]:
    """An online table's ``list_rules``: the round's Pflicht-Soli, each seat's debt and the
    games of the later Vorrunde rounds (the deadline of a Pflicht-Solo owed)."""
    rules = table_rules(fmt, profile, size, round_number)
    return {
        "duty_solos": rules.duty_solos,
        "duty_penalty": rules.duty_penalty,
        "duty_games_after": rules.duty_games_after,
        "duty_owed": list(owed) if rules.duty_solos else None,
    }


def check_quick(data: TournamentData, table: TableRow, entries: object) -> tuple[Result, ...]:
    """The director's typed totals for ``table``, checked as a whole as far as the table's list
    rules allow (:func:`stichwerk.tournament.entry.check_totals`): every problem at once, as
    :class:`~stichwerk.tournament.entry.EntryProblems`."""
    fmt = data.fmt
    rules = table_rules(fmt, data.profile, table.size, table.round)
    lines = check_totals(
        rules,
        [data.names[p] for p in table.seating],
        table.duty_owed,
        entries,
        most_winners=fmt.most_winners,
    )
    return tuple(
        Result(table.round, player, points, solos, won)
        for player, (points, solos, won) in zip(table.seating, lines, strict=True)
    )


def sheet_results(
    table: TableRow, settings: Mapping[str, Any], changes: Iterable[Mapping[str, Any]]
) -> tuple[Result, ...] | None:
    """The table's results from its score sheet (its settings and change log), ``None`` while
    the list is not complete."""
    sheet = replay(settings, changes)
    if not sheet.is_over:
        return None
    return tuple(table_results(table.round, table.seating, sheet.series))


def _results_json(results: Sequence[Result] | None) -> list[dict[str, Any]] | None:
    if results is None:
        return None
    return [
        {"points": r.points, "duty_solos": r.duty_solos, "games_won": r.games_won} for r in results
    ]


RESULT_FIELDS = ("points", "games_won", "duty_solos")


def log_about(details: Mapping[str, Any], data: "TournamentData | None") -> dict[str, Any] | None:
    """Whom a logged change of a table's results concerns and what changed: ``{"round",
    "table", "players": [{"number", "name"}] (in seat order), "changes": [{"seat", "number",
    "name", "field", "from", "to"}]}`` (a field of ``RESULT_FIELDS`` that differs from the
    results before; none for a first entry). ``None`` for a change of no table. A table's
    seating never changes once it has results (a draw is taken back only before any)."""
    round_number, table_number = details.get("round"), details.get("table")
    if "results" not in details or not isinstance(round_number, int) or data is None:
        return None
    if not isinstance(table_number, int):
        return None
    try:
        seating = data.table(round_number, table_number).seating
    except StichwerkError:
        return None
    names = data.names
    players = [{"number": p, "name": names.get(p, f"#{p}")} for p in seating]
    after, before = details.get("results"), details.get("before")
    changes: list[dict[str, Any]] = []
    if isinstance(after, list) and isinstance(before, list) and len(after) == len(before):
        for seat, (new, old) in enumerate(zip(after, before, strict=True)):
            if seat >= len(players) or not isinstance(new, dict) or not isinstance(old, dict):
                continue
            for name in RESULT_FIELDS:
                if new.get(name) != old.get(name):
                    who = players[seat]
                    changes.append(
                        {
                            "seat": seat,
                            **who,
                            "field": name,
                            "from": old.get(name),
                            "to": new.get(name),
                        }
                    )
    return {"round": round_number, "table": table_number, "players": players, "changes": changes}


def _results_of(row: TournamentTable) -> tuple[Result, ...] | None:
    if row.results is None:
        return None
    return tuple(
        Result(row.round, int(p), r["points"], int(r["duty_solos"]), int(r["games_won"]))
        for p, r in zip(row.seating, row.results, strict=True)
    )


# ------------------------------------------------------------------------------ the state


def _standing_json(s: Standing, names: Mapping[int, str]) -> dict[str, Any]:
    return {**s.to_json(), "name": names.get(s.player, f"#{s.player + 1}")}


def next_step(data: TournamentData) -> dict[str, Any]:
    """What the director can do next: draw a Vorrunde round, seat the Endrunde, or finish;
    ``blocked`` says why it cannot be done yet."""
    fmt = data.fmt
    if data.status == "finished":
        return {"action": None, "round": None, "blocked": None}
    vor = data.vorrunde
    blocked: str | None = None
    if len(vor) < fmt.rounds:
        action, number = "draw", len(vor) + 1
        active = len(data.active)
        if vor and not vor[-1].complete:
            blocked = _incomplete(vor[-1])
        elif not active:
            blocked = "register the players first"
        else:
            try:
                # The first round needs the format's field; a later one tables for those left.
                fmt.table_mix(active) if vor else fmt.check_players(active)
            except StichwerkError as exc:
                blocked = str(exc)
    elif fmt.final_round and data.endrunde is None:
        action, number = "endrunde", fmt.rounds + 1
        if not vor[-1].complete:
            blocked = _incomplete(vor[-1])
    else:
        action, number = "finish", None
        open_rounds = [r for r in data.rounds if not r.complete]
        if open_rounds:
            blocked = _incomplete(open_rounds[0])
    return {"action": action, "round": number, "blocked": blocked}


def _incomplete(r: RoundRow) -> str:
    missing = r.missing()
    tables = ", ".join(str(n) for n in missing)
    if len(missing) == 1:
        return f"round {r.number} is not complete: table {tables} has no results yet"
    return f"round {r.number} is not complete: tables {tables} have no results yet"


def can_undraw(data: TournamentData) -> bool:
    """The last round may be drawn anew: nothing has come in from any of its tables."""
    return (
        data.status != "finished"
        and bool(data.rounds)
        and not any(t.started for t in data.rounds[-1].tables)
    )


def compute(data: TournamentData) -> dict[str, Any]:
    """The standings, the (live or final) ranking and the problems a correction left, from
    the results as they stand."""
    fmt = data.fmt
    names = data.names
    results = data.results()
    problems: list[str] = []
    standings: list[dict[str, Any]] | None = None
    ranking: list[dict[str, Any]] | None = None
    try:
        rows = vorrunde_standings(fmt, data.numbers, results, data.withdrawn)
        standings = [_standing_json(s, names) for s in rows]
    except StichwerkError as exc:
        problems.append(str(exc))
    final = data.endrunde
    if standings is not None and (final is not None or (not fmt.final_round and data.rounds)):
        try:
            endrunde = final.as_round() if final is not None else None
            ranked = final_ranking(fmt, data.numbers, results, endrunde, data.withdrawn)
            ranking = [_standing_json(s, names) for s in ranked]
        except StichwerkError as exc:
            problems.append(str(exc))
    problems += _downstream_problems(data, results)
    return {"standings": standings, "ranking": ranking, "problems": problems}


def _downstream_problems(data: TournamentData, results: list[Result]) -> list[str]:
    """What a correction of an earlier round has left behind: a later table drawn with other
    Pflicht-Soli owed than the corrected results give, an Endrunde seated otherwise."""
    fmt = data.fmt
    names = data.names
    out = []
    for r in data.vorrunde[1:]:
        earlier = [x for x in results if x.round < r.number]
        for t in r.tables:
            for player, owed in zip(t.seating, t.duty_owed, strict=True):
                now = duty_owed(fmt, earlier, player) if fmt.duty_solos else 0
                if now != owed:
                    out.append(
                        f"round {r.number}, table {t.number} was drawn with {names[player]} "
                        f"owing {owed} Pflicht-Solo; after a correction it is {now}: "
                        "enter that table's totals by hand"
                    )
    final = data.endrunde
    vor = data.vorrunde
    if final is not None and vor and all(r.complete for r in vor):
        try:
            again = seat_endrunde(fmt, data.numbers, results, data.withdrawn, data.seed).round
        except StichwerkError:
            return out
        if [set(t) for t in again.tables] != [set(t.seating) for t in final.tables]:
            out.append(
                "after a correction the Vorrunde standings seat the Endrunde differently"
                + (
                    ": undo the Endrunde's draw and seat it again"
                    if not any(t.started for t in final.tables)
                    else " (its tables have begun; it stays as drawn)"
                )
            )
    return out


def format_json(fmt: TournamentFormat) -> dict[str, Any]:
    return {
        "name": fmt.name,
        "game": fmt.game,
        "profile": fmt.profile,
        "rounds": fmt.rounds,
        "final_round": fmt.final_round,
        "table_sizes": list(fmt.table_sizes),
        "games": {str(size): n for size, n in fmt.games},
        "dealer_sits": list(fmt.dealer_sits),
        "duty_solos": fmt.duty_solos,
        "duty_penalty": fmt.duty_penalty,
        "min_players": fmt.min_players,
        "max_players": fmt.max_players,
        "description": fmt.description,
    }


def state_json(data: TournamentData, *, director: bool) -> dict[str, Any]:
    """The tournament for a page: everything the read-only link shows, and for the director
    the tables' scorer links and online seat links too."""
    fmt = data.fmt
    rounds = []
    for r in data.rounds:
        tables = []
        for t in r.tables:
            rules = table_rules(fmt, data.profile, t.size, t.round)
            table: dict[str, Any] = {
                "number": t.number,
                "seating": list(t.seating),
                "size": t.size,
                "games": rules.games,
                "sitting_dealer": rules.dealer_sits,
                "duty_owed": list(t.duty_owed) if rules.duty_solos else None,
                "zero_sum": rules.zero_sum,
                "mode": t.mode,
                "entered": t.results is not None,
                "source": t.source,
                "entered_at": t.entered_at.isoformat() if t.entered_at else None,
                "results": _results_json(t.results),
                "sheet_changes": t.sheet_changes,
                "follower": f"/s/{t.follower_token}" if t.follower_token else None,
                "web_table": f"/t/{t.web_table_id}" if t.web_table_id else None,
            }
            if director:
                table["scorer"] = f"/s/{t.scorer_token}" if t.scorer_token else None
                codes = (t.online or {}).get("codes")
                table["seat_links"] = (
                    [
                        None
                        if code is None
                        else f"/tournaments/join/{data.id}/{t.round}/{t.number}/{seat}/{code}"
                        for seat, code in enumerate(codes)
                    ]
                    if codes
                    else None
                )
                table["bots"] = (t.online or {}).get("bots")
            tables.append(table)
        rounds.append(
            {
                "number": r.number,
                "final": r.final,
                "label": data.round_label(r.number),
                "by_lot": [list(g) for g in r.by_lot],
                "complete": r.complete,
                "tables": tables,
            }
        )
    out = {
        "tournament": {
            "id": data.id,
            "name": data.name,
            "game": data.game,
            "format": data.format_name,
            "profile": data.profile,
            "date": data.held_on.isoformat(),
            "place": data.place,
            "series": data.series,
            "status": data.status,
            "seq": data.seq,
            "finished_at": data.finished_at.isoformat() if data.finished_at else None,
        },
        "format": format_json(fmt),
        "players": [
            {
                "number": p.number,
                "name": p.name,
                "withdrawn": p.withdrawn,
                "withdrawn_after": p.withdrawn_after,
            }
            for p in data.players
        ],
        "rounds": rounds,
        "next": next_step(data),
        "can_undraw": can_undraw(data),
        **compute(data),
    }
    if director:
        out["tournament"]["seed"] = data.seed
    return out


# ------------------------------------------------------------------------------ the store


class TournamentStore:
    """Every tournament query and change on one :class:`~stichwerk.storage.db.Database`.

    Synchronous (the server calls it from a worker thread); every change runs in one write
    transaction that first reads the tournament (locked for the transaction on PostgreSQL;
    SQLite's writers take the lock up front), checks, writes and appends its log row.
    ``on_change`` is called after every committed change (the server broadcasts; every caller
    writes the automatic backup)."""

    def __init__(
        self,
        db: Database,
        *,
        backup_dir: Path | None = None,
        on_change: Callable[[TournamentData], None] | None = None,
    ) -> None:
        self.db = db
        self.backup_dir = backup_dir if backup_dir is not None else default_backup_dir(db.url)
        self.on_change = on_change

    # -- reading ------------------------------------------------------------------------------

    def get(self, tid: str) -> TournamentData | None:
        with Session(self.db.read) as session:
            return _load(session, tid)

    def need(self, tid: str) -> TournamentData:
        data = self.get(tid)
        if data is None:
            raise UnknownTournament(f"no tournament {tid!r}")
        return data

    def by_token(self, token: str) -> tuple[TournamentData, str] | None:
        """The tournament a link opens and the link's role (``director`` or ``public``)."""
        with Session(self.db.read) as session:
            row = session.scalar(
                select(Tournament).where(
                    or_(Tournament.director_token == token, Tournament.public_token == token)
                )
            )
            if row is None:
                return None
            role = "director" if secrets.compare_digest(row.director_token, token) else "public"
            data = _load(session, row.id)
            assert data is not None
            return data, role

    def tournaments(self, limit: int = 200) -> list[TournamentSummary]:
        """The tournaments in the database, the latest first."""
        with Session(self.db.read) as session:
            counts = dict(
                session.execute(
                    select(TournamentPlayer.tournament_id, func.count()).group_by(
                        TournamentPlayer.tournament_id
                    )
                ).all()
            )
            rows = session.scalars(
                select(Tournament)
                .order_by(Tournament.held_on.desc(), Tournament.created_at.desc())
                .limit(limit)
            ).all()
            return [
                TournamentSummary(
                    t.id,
                    t.name,
                    t.held_on,
                    t.place,
                    t.series,
                    t.format,
                    t.status,
                    int(counts.get(t.id, 0)),
                )
                for t in rows
            ]

    def log(self, tid: str, since: int = 0) -> list[dict[str, Any]]:
        """The change log after position ``since``; a change of a table's results says whom it
        concerns and what changed (``about``: ``log_about``), for the page to word."""
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(TournamentChange)
                .where(TournamentChange.tournament_id == tid, TournamentChange.seq > since)
                .order_by(TournamentChange.seq)
            ).all()
            data = _load(session, tid) if rows else None
            return [
                {
                    "seq": c.seq,
                    "op": c.op,
                    "data": dict(c.data),
                    "source": c.source,
                    "at": c.created_at.isoformat(),
                    "about": log_about(c.data, data),
                }
                for c in rows
            ]

    def seq(self, tid: str) -> int:
        with Session(self.db.read) as session:
            return _seq(session, tid)

    def names(self, query: str, limit: int = 20) -> list[str]:
        """Names of players known from earlier tournaments (and imported lists) containing
        ``query`` (case ignored), for the registration's suggestions."""
        text = " ".join(query.split())[:NAME_LENGTH]
        if not text:
            return []
        pattern = "%" + text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(Person.name)
                .where(func.lower(Person.name).like(pattern + "%", escape="\\"))
                .order_by(Person.name)
                .limit(limit)
            ).all()
            return list(rows)

    # -- creating -----------------------------------------------------------------------------

    def create(
        self,
        *,
        name: object,
        format_name: object,
        held_on: object,
        place: object = "",
        series: object,
        seed: object = None,
        source: str = "director",
    ) -> TournamentData:
        """A new tournament (status ``registration``), with fresh links (the operator's: no
        series secret asked, none made)."""
        data, _ = self.create_guarded(
            name=name,
            format_name=format_name,
            held_on=held_on,
            place=place,
            series=series,
            seed=seed,
            source=source,
            guard=False,
        )
        return data

    def create_guarded(
        self,
        *,
        name: object,
        format_name: object,
        held_on: object,
        place: object = "",
        series: object,
        seed: object = None,
        source: str = "director",
        secret: object = None,
        guard: bool = True,
    ) -> tuple[TournamentData, str | None]:
        """A new tournament, as a visitor makes it: in a series with an owner only with its
        ``secret`` (else :class:`SeriesLocked`); a series without one is claimed, and its new
        secret returned (to be shown once)."""
        fmt = get_format(format_name)
        title = clean_text(name, "tournament's name", required=True)
        when = parse_date(held_on)
        where = clean_text(place, "place")
        club = clean_text(series, "club or series", required=True)
        if seed is None:
            seed = secrets.token_hex(4)
        if not isinstance(seed, str) or not re.fullmatch(r"[\w.-]{1,40}", seed):
            raise StichwerkError("the seed is 1 to 40 letters, digits, '.', '-' or '_'")
        tid = new_id(9)
        fresh = None
        with Session(self.db.write) as session, session.begin():
            if guard:
                fresh = _guard_series(session, club, secret, claim=True)
            session.add(
                Tournament(
                    id=tid,
                    series_key=_owner_hash(session, club),
                    name=title,
                    game=fmt.game,
                    format=fmt.name,
                    profile=fmt.profile,
                    held_on=when,
                    place=where,
                    series=club,
                    seed=seed,
                    status="registration",
                    director_token=secrets.token_urlsafe(TOKEN_BYTES),
                    public_token=secrets.token_urlsafe(TOKEN_BYTES),
                )
            )
            session.flush()
            _append(
                session,
                tid,
                "create",
                {
                    "name": title,
                    "format": fmt.name,
                    "date": when.isoformat(),
                    "place": where,
                    "series": club,
                    "seed": seed,
                },
                source,
            )
        return self._changed(tid), fresh

    # -- registration -------------------------------------------------------------------------

    def add_players(
        self, tid: str, names: Sequence[object], source: str = "director"
    ) -> TournamentData:
        """Register players (a late arrival too) until the first round is drawn."""
        if not names:
            raise StichwerkError("name at least one player")

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            if data.rounds:
                raise TournamentError(
                    "round 1 is drawn: a late arrival joins only if the draw is undone "
                    "(while no table has begun)"
                )
            cleaned = [clean_name(n) for n in names]
            taken = {p.name.casefold(): p.name for p in data.players}
            for n in cleaned:
                if n.casefold() in taken:
                    raise StichwerkError(f"{n} is registered already (as {taken[n.casefold()]})")
                taken[n.casefold()] = n
            fmt = data.fmt
            if len(taken) > fmt.max_players:
                raise TournamentError(
                    f"a {fmt.name} tournament seats at most {fmt.max_players} players"
                )
            number = max(data.numbers, default=-1) + 1
            added = []
            people = _persons(session, cleaned)
            for n in cleaned:
                session.add(TournamentPlayer(tournament_id=tid, number=number, person_id=people[n]))
                added.append({"number": number, "name": n})
                number += 1
            return "add_players", {"players": added}

        return self._change(tid, change, source)

    def remove_player(self, tid: str, number: int, source: str = "director") -> TournamentData:
        """Take back a registration before the first draw."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player = data.player(number)
            if data.rounds:
                raise TournamentError(
                    f"round 1 is drawn: {player.name} can withdraw, not be taken off the list"
                )
            session.execute(
                delete(TournamentPlayer).where(
                    TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number
                )
            )
            return "remove_player", {"number": number, "name": player.name}

        return self._change(tid, change, source)

    def rename_player(
        self, tid: str, number: int, name: object, source: str = "director"
    ) -> TournamentData:
        """Correct a player's name (the ranking lists know him by it). Tables drawn already
        keep the old spelling on their score sheets."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player = data.player(number)
            new = clean_name(name)
            for p in data.players:
                if p.number != number and p.name.casefold() == new.casefold():
                    raise StichwerkError(f"{new} is registered already (as {p.name})")
            session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number)
                .values(person_id=_person(session, new))
            )
            return "rename_player", {"number": number, "from": player.name, "to": new}

        return self._change(tid, change, source, rank_again=True)

    def withdraw(self, tid: str, number: int, source: str = "director") -> TournamentData:
        """A player leaves: he keeps his points, is not drawn again and is ranked after
        everyone who finished. A table he sits at that has no results yet still needs them
        (the director types in what was played)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player = data.player(number)
            if data.status == "finished":
                raise TournamentError("the tournament is finished")
            if not data.rounds:
                raise TournamentError(
                    f"no round is drawn yet: take {player.name} off the list instead"
                )
            if player.withdrawn:
                raise TournamentError(f"{player.name} has withdrawn already")
            after = len(data.rounds)
            session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number)
                .values(withdrawn_after=after)
            )
            return "withdraw", {"number": number, "name": player.name, "after_round": after}

        return self._change(tid, change, source)

    def reinstate(self, tid: str, number: int, source: str = "director") -> TournamentData:
        """Take back a withdrawal, as long as no round has been drawn since."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player = data.player(number)
            if data.status == "finished":
                raise TournamentError("the tournament is finished")
            if not player.withdrawn:
                raise TournamentError(f"{player.name} has not withdrawn")
            if player.withdrawn_after != len(data.rounds):
                raise TournamentError(
                    f"a round has been drawn since {player.name} withdrew: he stays out"
                )
            session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number)
                .values(withdrawn_after=None)
            )
            return "reinstate", {"number": number, "name": player.name}

        return self._change(tid, change, source)

    def edit(
        self,
        tid: str,
        fields: Mapping[str, object],
        source: str = "director",
        *,
        secret: object = None,
        guard: bool = False,
    ) -> TournamentData:
        """Change the tournament's name, date, place or series (a finished one's ranking rows
        follow). With ``guard`` (a visitor), moving to another series that has an owner needs
        its ``secret`` (an unowned one is not claimed by a move)."""
        known = {"name", "date", "place", "series"}
        unknown = set(fields) - known
        if unknown or not fields:
            raise StichwerkError(f"change one of {', '.join(sorted(known))}")
        values: dict[str, Any] = {}
        if "name" in fields:
            values["name"] = clean_text(fields["name"], "tournament's name", required=True)
        if "date" in fields:
            values["held_on"] = parse_date(fields["date"])
        if "place" in fields:
            values["place"] = clean_text(fields["place"], "place")
        if "series" in fields:
            values["series"] = clean_text(fields["series"], "club or series", required=True)

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            moved = dict(values)
            if values.get("series", data.series) != data.series:
                if guard:
                    _guard_series(session, values["series"], secret, claim=False)
                moved["series_key"] = _owner_hash(session, values["series"])
            session.execute(update(Tournament).where(Tournament.id == tid).values(**moved))
            shown = {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in values.items()}
            return "edit", shown

        return self._change(tid, change, source, rank_again=True)

    # -- rounds -------------------------------------------------------------------------------

    def draw(self, tid: str, source: str = "director") -> TournamentData:
        """Draw the next round: a Vorrunde round (when the one before is complete), or the
        Endrunde from the Vorrunde's standings; every table gets its score sheet."""
        for _ in range(5):
            data = self.need(tid)
            plan = _plan_next(data)
            store = functools.partial(_store_round, plan=plan)
            try:
                return self._change(tid, store, source, expect_seq=data.seq)
            except _Moved:
                continue
        raise TournamentError("the tournament keeps changing; try the draw again")

    def undraw(self, tid: str, source: str = "director") -> TournamentData:
        """Take back the last round's draw while none of its tables has begun (a late arrival
        or a withdrawal just after the draw)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            if not data.rounds:
                raise TournamentError("no round has been drawn")
            if not can_undraw(data):
                last = data.rounds[-1]
                if data.status == "finished":
                    raise TournamentError("the tournament is finished")
                begun = [t.number for t in last.tables if t.started]
                raise TournamentError(
                    f"{data.round_label(last.number)}: table {begun[0]} has begun; its draw stays"
                )
            last = data.rounds[-1]
            lists = [t.list_id for t in last.tables if t.list_id]
            session.execute(
                delete(TournamentTable).where(
                    TournamentTable.tournament_id == tid, TournamentTable.round == last.number
                )
            )
            session.execute(
                delete(TournamentRound).where(
                    TournamentRound.tournament_id == tid, TournamentRound.number == last.number
                )
            )
            if lists:
                session.execute(delete(ScoreList).where(ScoreList.id.in_(lists)))
            if len(data.rounds) == 1:
                session.execute(
                    update(Tournament).where(Tournament.id == tid).values(status="registration")
                )
            return "undraw", {"round": last.number, "final": last.final}

        return self._change(tid, change, source)

    # -- results ------------------------------------------------------------------------------

    def enter(
        self,
        tid: str,
        round_number: int,
        table_number: int,
        entries: object,
        source: str = "director",
    ) -> TournamentData:
        """The director types a table's final totals (and Pflicht-Soli, games won): the table's
        results from now on, in place of its sheet (quick mode)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            # Typing in an online table's totals takes it over (a table that stalled, say).
            table = data.table(round_number, table_number)
            results = check_quick(data, table, entries)
            _set_results(session, tid, table, results, "quick", mode="quick")
            return "enter", {
                "round": round_number,
                "table": table_number,
                "results": _results_json(results),
                "before": _results_json(table.results),
            }

        return self._change(tid, change, source, rank_again=True)

    def set_mode(
        self, tid: str, round_number: int, table_number: int, mode: str, source: str = "director"
    ) -> TournamentData:
        """Take a table's results from its score sheet again (``sheet``), or wait for the
        director's totals (``quick``)."""
        if mode not in ("sheet", "quick"):
            raise StichwerkError("a table's results come from its 'sheet' or are typed ('quick')")

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            table = data.table(round_number, table_number)
            if table.mode == mode:
                raise TournamentError(f"the table's results come from its {mode} already")
            results: tuple[Result, ...] | None = None
            if mode == "sheet":
                if table.list_id is None:
                    raise TournamentError("the table has no score sheet")
                results = _sheet_results_of(session, table)
            source_name = "sheet" if results is not None else None
            _set_results(session, tid, table, results, source_name, mode=mode)
            return "mode", {
                "round": round_number,
                "table": table_number,
                "mode": mode,
                "results": _results_json(results),
            }

        return self._change(tid, change, source, rank_again=True)

    def sync_sheet(self, tid: str, round_number: int, table_number: int) -> TournamentData | None:
        """Take a sheet-mode table's results from its score sheet as it stands (complete:
        its results; not complete: none); ``None`` when nothing changed."""

        # Most calls find nothing new: look first without taking the write lock.
        with Session(self.db.read) as session:
            data = _load(session, tid)
            if data is None:
                raise UnknownTournament(f"no tournament {tid!r}")
            table = data.table(round_number, table_number)
            if table.mode != "sheet" or table.list_id is None:
                return None
            if _sheet_results_of(session, table) == table.results:
                return None

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]] | None:
            table = data.table(round_number, table_number)
            if table.mode != "sheet" or table.list_id is None:
                return None
            results = _sheet_results_of(session, table)
            if results == table.results:
                return None
            _set_results(session, tid, table, results, "sheet" if results else None, mode="sheet")
            op = "sheet" if table.results is None else "correction" if results else "reopened"
            return op, {
                "round": round_number,
                "table": table_number,
                "results": _results_json(results),
                "before": _results_json(table.results),
            }

        return self._maybe_change(tid, change, "sheet")

    def sync_sheets(self, tid: str) -> TournamentData:
        """Every sheet-mode table brought up to date with its score sheet."""
        data = self.need(tid)
        for r in data.rounds:
            for t in r.tables:
                if t.mode == "sheet" and t.list_id is not None:
                    changed = self.sync_sheet(tid, r.number, t.number)
                    if changed is not None:
                        data = changed
        return data

    def set_online(
        self,
        tid: str,
        round_number: int,
        table_number: int,
        web_table_id: str,
        codes: list[str | None],
        bots: list[int],
        source: str = "director",
    ) -> TournamentData:
        """The table plays online at the web table ``web_table_id`` (made by the server)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            table = data.table(round_number, table_number)
            check_may_go_online(data, table)
            session.execute(
                update(TournamentTable)
                .where(*_table_key(tid, table))
                .values(
                    mode="online",
                    web_table_id=web_table_id,
                    online={"codes": codes, "bots": bots},
                    results=None,
                    source=None,
                    entered_at=None,
                )
            )
            return "online", {
                "round": round_number,
                "table": table_number,
                "web_table": web_table_id,
                "bots": bots,
            }

        return self._change(tid, change, source, rank_again=True)

    def store_online(
        self,
        tid: str,
        round_number: int,
        table_number: int,
        web_table_id: str,
        results: Sequence[Result],
    ) -> TournamentData | None:
        """An online table's list is over: its results come in (``None``: nothing new)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]] | None:
            table = data.table(round_number, table_number)
            if table.mode != "online" or table.web_table_id != web_table_id:
                return None
            got = tuple(results)
            if got == table.results:
                return None
            _set_results(session, tid, table, got, "online", mode="online")
            return "online_results", {
                "round": round_number,
                "table": table_number,
                "results": _results_json(got),
            }

        return self._maybe_change(tid, change, "online")

    def finish(self, tid: str, source: str = "director") -> TournamentData:
        """Every round played and entered: the final ranking joins the series' ranking lists."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            step = next_step(data)
            if data.status == "finished":
                raise TournamentError("the tournament is finished already")
            if step["action"] != "finish":
                what = "the Endrunde" if step["action"] == "endrunde" else f"round {step['round']}"
                raise TournamentError(f"{what} is still to be drawn and played")
            if step["blocked"]:
                raise TournamentError(step["blocked"])
            session.execute(
                update(Tournament)
                .where(Tournament.id == tid)
                .values(status="finished", finished_at=utcnow())
            )
            done = replace_status(data, "finished")
            rows = _write_ranking(session, done)
            return "finish", {"participants": len(data.players), "ranking": rows}

        return self._change(tid, change, source)

    # -- ranking lists ------------------------------------------------------------------------

    def all_series(self) -> list[dict[str, Any]]:
        """Every club or series with a ranking row or a tournament: its name, tournaments
        recorded, the latest date."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(
                    RankingRow.series,
                    RankingRow.held_on,
                    RankingRow.tournament,
                )
                .where(_counted())
                .distinct()
            ).all()
            found: dict[str, dict[str, Any]] = {}
            for series, held_on, _name in rows:
                item = found.setdefault(
                    series, {"series": series, "tournaments": 0, "latest": None}
                )
                item["tournaments"] += 1
                if item["latest"] is None or held_on.isoformat() > item["latest"]:
                    item["latest"] = held_on.isoformat()
            for (series,) in session.execute(select(Tournament.series).distinct()).all():
                found.setdefault(series, {"series": series, "tournaments": 0, "latest": None})
            return sorted(found.values(), key=lambda s: str(s["series"]).casefold())

    def history(self, series: str) -> list[PastResult]:
        """The series' history: every finished tournament's and every imported row."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(RankingRow, Person.name)
                .join(Person, Person.id == RankingRow.person_id)
                .where(RankingRow.series == series, _counted())
            ).all()
            return [
                PastResult(r.held_on, name, r.place, r.participants, r.tournament)
                for r, name in rows
            ]

    def ranking(
        self, series: str, kind: str = "all", *, years: int = 5, latest: int | None = None
    ) -> dict[str, Any]:
        """A ranking list of the series as JSON (see :meth:`ranking_list`)."""
        entries, head = self.ranking_list(series, kind, years=years, latest=latest)
        return {**head, "entries": [e.to_json() for e in entries]}

    def ranking_list(
        self, series: str, kind: str = "all", *, years: int = 5, latest: int | None = None
    ) -> tuple[list[ListEntry], dict[str, Any]]:
        """A ranking list of the series: ``all`` (the Ewige Rangliste) or ``five`` (the last
        ``years`` calendar years up to ``latest``, by default the latest tournament's year),
        and what it covers."""
        rows = self.history(series)
        fmt = _list_format()
        window: dict[str, Any] = {"first_year": None, "last_year": None}
        if kind == "all":
            entries: list[ListEntry] = ranking_list(rows, fmt)
        elif kind == "five":
            if not 1 <= years <= 100:
                raise StichwerkError("a list covers 1 to 100 years")
            last = latest if latest is not None else max((r.date.year for r in rows), default=None)
            entries = five_year_list(rows, fmt, years=years, latest=last) if last else []
            if last is not None:
                window = {"first_year": last - years + 1, "last_year": last}
        else:
            raise StichwerkError("a ranking list is 'all' (all-time) or 'five' (five years)")
        tournaments = {
            (r.date, r.tournament)
            for r in rows
            if window["first_year"] is None
            or window["first_year"] <= r.date.year <= window["last_year"]
        }
        return entries, {
            "series": series,
            "kind": kind,
            "years": years if kind == "five" else None,
            **window,
            "tournaments": len(tournaments),
        }

    def import_history(
        self,
        series: object,
        text: str,
        source: str = "director",
        *,
        secret: object = None,
        guard: bool = False,
        tid: str | None = None,
    ) -> dict[str, Any]:
        """A club's past tournaments from CSV into the series' history (``read_results_csv``);
        a tournament already recorded (its date and name) is refused.

        At most :data:`MAX_HISTORY_ROWS` rows. The file is read and checked and the people are
        looked up (one query per 900 names) before anything is written; the rows go in batches
        of :data:`HISTORY_BATCH`, each its own short transaction, so no other writer waits
        longer than one batch; they count only once the last, one-row transaction marks the
        import done, so a failed import leaves no half history. With ``guard`` (a visitor) a
        series with an owner needs its ``secret``, unless the owner let the tournament ``tid``
        in (:attr:`Tournament.series_key`); one without is claimed (the answer's
        ``series_secret``, shown once, and the tournament let in)."""
        club = clean_text(series, "club or series", required=True)
        lines = sum(1 for line in text.splitlines() if line.strip()) - 1  # before reading it
        rows = read_results_csv(text) if lines <= MAX_HISTORY_ROWS else []
        if lines > MAX_HISTORY_ROWS or len(rows) > MAX_HISTORY_ROWS:
            raise StichwerkError(
                f"a history import takes at most {MAX_HISTORY_ROWS} rows, this file has "
                f"{max(lines, len(rows))}: split it by years"
            )
        if not rows:
            raise StichwerkError("the CSV file has no rows")
        for r in rows:
            clean_name(r.player)
        # A tournament's name as the app keeps every name: one line, printable, 120 at most.
        rows = [replace(r, tournament=clean_text(r.tournament, "tournament's name")) for r in rows]
        names = sorted({r.player for r in rows})
        keys = {r.key for r in rows}
        with Session(self.db.read) as session:
            if guard:
                owner = session.get(SeriesOwner, club)
                if owner is not None and not _admitted(session, owner, tid, secret):
                    raise _locked(club)
            _check_history_fits(session, club, keys, len(rows))
            people = _people(session, names)
        missing = [n for n in names if n not in people]
        for chunk in _chunks(missing, HISTORY_BATCH):
            with Session(self.db.write) as session, session.begin():
                _insert_ignoring(
                    session, Person, [{"name": n, "created_at": utcnow()} for n in chunk]
                )
        if missing:
            with Session(self.db.read) as session:
                people.update(_people(session, missing))
        self._clear_stale_imports()
        iid = new_id(12)
        with Session(self.db.write) as session, session.begin():
            session.add(HistoryImport(id=iid, series=club, done=False))
        fresh = None
        try:
            for number, chunk in enumerate(_chunks(rows, HISTORY_BATCH)):
                if number:
                    time.sleep(HISTORY_PAUSE)
                with Session(self.db.write) as session, session.begin():
                    session.execute(
                        insert(RankingRow),
                        [
                            {
                                "series": club,
                                "held_on": r.date,
                                "tournament": r.tournament,
                                "person_id": people[r.player],
                                "place": r.place,
                                "participants": r.participants,
                                "import_id": iid,
                                "created_at": utcnow(),
                            }
                            for r in chunk
                        ],
                    )
            with Session(self.db.write) as session, session.begin():
                if guard:
                    owner = session.get(SeriesOwner, club)
                    if owner is None:
                        fresh = _guard_series(session, club, secret, claim=True)
                        if tid is not None:
                            session.execute(
                                update(Tournament)
                                .where(Tournament.id == tid, Tournament.series == club)
                                .values(series_key=_owner_hash(session, club))
                            )
                    elif not _admitted(session, owner, tid, secret):
                        raise _locked(club)
                _check_history_fits(session, club, keys, len(rows))
                session.execute(
                    update(HistoryImport).where(HistoryImport.id == iid).values(done=True)
                )
        except IntegrityError:
            self._drop_import(iid)
            raise TournamentError(
                f"the history of {club} changed while it was imported (another import of the "
                "same tournaments?): import it again"
            ) from None
        except BaseException:
            self._drop_import(iid)
            raise
        done: dict[str, Any] = {"series": club, "rows": len(rows), "tournaments": len(keys)}
        if fresh is not None:
            done["series_secret"] = fresh
        return done

    def _drop_import(self, iid: str) -> None:
        """An import's rows cleared away in batches (it failed, or was cut off long ago)."""
        while True:
            with Session(self.db.write) as session, session.begin():
                batch = select(RankingRow.id).where(RankingRow.import_id == iid)
                gone = session.execute(
                    delete(RankingRow).where(RankingRow.id.in_(batch.limit(HISTORY_BATCH)))
                )
                if not gone.rowcount:  # type: ignore[attr-defined]
                    session.execute(delete(HistoryImport).where(HistoryImport.id == iid))
                    return

    def _clear_stale_imports(self) -> None:
        with Session(self.db.read) as session:
            stale = session.scalars(
                select(HistoryImport.id).where(
                    HistoryImport.done.is_(False),
                    HistoryImport.created_at < utcnow() - STALE_IMPORT,
                )
            ).all()
        for iid in stale:
            self._drop_import(iid)

    def set_series_secret(
        self, series: object, secret: object = None, *, guard: bool = True
    ) -> str:
        """A new owner secret for ``series`` (returned once; only its hash is kept). With
        ``guard`` (a visitor) an owned series needs its present ``secret``; the operator (the
        command line) sets one without."""
        club = clean_text(series, "club or series", required=True)
        fresh = secrets.token_urlsafe(SECRET_BYTES)
        with Session(self.db.write) as session, session.begin():
            owner = session.get(SeriesOwner, club, with_for_update=True)
            if owner is None:
                known = session.scalar(
                    select(Tournament.id).where(Tournament.series == club).limit(1)
                ) or session.scalar(select(RankingRow.id).where(RankingRow.series == club).limit(1))
                if known is None:
                    raise UnknownTournament(f"there is no series {club!r}")
                session.add(SeriesOwner(series=club, secret_hash=hash_secret(fresh)))
            else:
                if guard and not _secret_matches(owner.secret_hash, secret):
                    raise _locked(club)
                owner.secret_hash = hash_secret(fresh)
                owner.changed_at = utcnow()
        return fresh

    def series_owned(self, series: str) -> bool:
        """Whether ``series`` has an owner secret (the new-tournament page asks for it)."""
        with Session(self.db.read) as session:
            return session.get(SeriesOwner, series) is not None

    # -- backup -------------------------------------------------------------------------------

    def export(self, tid: str) -> dict[str, Any]:
        """The whole tournament as one JSON object: itself, its players, rounds, tables and
        results, every table's score sheet with its change log, and its own log."""
        with Session(self.db.read) as session:
            return _export(session, tid)

    def import_backup(
        self, backup: object, *, replace_existing: bool = False, source: str = "import"
    ) -> TournamentData:
        """A tournament from a backup (a second laptop taking over): the same links and the
        same score-sheet links, so the tables' printed QR codes keep working once the new
        laptop answers at the old address. An online table still playing stays on the other
        server (its seat links are dropped; play it again or type in its totals). The
        operator's: no series secret asked."""
        data, _ = self.import_backup_guarded(
            backup, replace_existing=replace_existing, source=source, guard=False
        )
        return data

    def import_backup_guarded(
        self,
        backup: object,
        *,
        replace_existing: bool = False,
        source: str = "import",
        secret: object = None,
        guard: bool = True,
    ) -> tuple[TournamentData, str | None]:
        """:meth:`import_backup` as a visitor does it: into a series that has an owner here
        only with its ``secret`` (or over the very tournament, kept in its series); a series
        new here keeps the backup's secret, or (an older backup) is claimed, the new secret
        returned."""
        parsed = _read_backup(backup)
        tid = parsed["tournament"]["id"]
        series = parsed["tournament"]["series"]
        fresh = None
        with Session(self.db.write) as session, session.begin():
            present = session.get(Tournament, tid, with_for_update=True)
            owner = session.get(SeriesOwner, series)
            key = None
            if owner is not None:
                same = (
                    present is not None
                    and present.series == series
                    and secrets.compare_digest(
                        present.director_token, parsed["tournament"]["director_token"]
                    )
                )
                if not guard or _secret_matches(owner.secret_hash, secret):
                    key = owner.secret_hash
                elif same:
                    assert present is not None
                    key = present.series_key
                else:
                    raise _locked(series)
            elif parsed["series_secret_hash"] is not None:
                # A series new here keeps the secret it has on the other server.
                key = parsed["series_secret_hash"]
                session.add(SeriesOwner(series=series, secret_hash=key))
            elif guard:
                fresh = _guard_series(session, series, secret, claim=True)
                key = _owner_hash(session, series)
            parsed["tournament"]["series_key"] = key
            if present is not None:
                if not replace_existing:
                    raise TournamentError(
                        f"the tournament {parsed['tournament']['name']!r} is here already "
                        "(import it with replace to put the backup in its place)"
                    )
                if not secrets.compare_digest(
                    present.director_token, parsed["tournament"]["director_token"]
                ):
                    # Only a backup of this very tournament (its director link) replaces it.
                    raise TournamentError("a tournament with this id but other links is here")
                _delete_tournament(session, tid)
                session.flush()
            _insert_backup(session, parsed)
            session.flush()
            seq = _seq(session, tid)
            _append(
                session, tid, "import", {"seq": seq, "exported_at": parsed["exported_at"]}, source
            )
        data = self._changed(tid)
        return data, fresh

    def delete(self, tid: str) -> None:
        """Remove a tournament and its tables' score sheets (its ranking rows go too)."""
        with Session(self.db.write) as session, session.begin():
            if session.get(Tournament, tid, with_for_update=True) is None:
                raise UnknownTournament(f"no tournament {tid!r}")
            _delete_tournament(session, tid)

    def write_backup(self, data: TournamentData) -> Path | None:
        """The automatic copy after a change: ``<backup dir>/<date>-<name>-<id>/NNNNN.json``
        and ``latest.json`` beside it (each the whole tournament)."""
        if self.backup_dir is None:
            return None
        folder = self.backup_dir / f"{data.held_on.isoformat()}-{_slug(data.name)}-{data.id}"
        folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.export(data.id), ensure_ascii=False, indent=1)
        path = folder / f"{data.seq:05d}.json"
        for target in (path, folder / "latest.json"):
            scratch = target.with_suffix(".tmp")
            scratch.write_text(text, encoding="utf-8")
            os.replace(scratch, target)
        return path

    # -- the machinery ------------------------------------------------------------------------

    def _changed(self, tid: str) -> TournamentData:
        data = self.need(tid)
        self.write_backup(data)
        if self.on_change is not None:
            self.on_change(data)
        return data

    def _change(
        self,
        tid: str,
        change: Callable[[Session, TournamentData], tuple[str, dict[str, Any]]],
        source: str,
        *,
        rank_again: bool = False,
        expect_seq: int | None = None,
    ) -> TournamentData:
        def wrapped(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]] | None:
            return change(session, data)

        done = self._maybe_change(
            tid, wrapped, source, rank_again=rank_again, expect_seq=expect_seq
        )
        assert done is not None
        return done

    def _maybe_change(
        self,
        tid: str,
        change: Callable[[Session, TournamentData], tuple[str, dict[str, Any]] | None],
        source: str,
        *,
        rank_again: bool = True,
        expect_seq: int | None = None,
    ) -> TournamentData | None:
        """Run ``change`` on the tournament as it stands in one write transaction; log what it
        returns (``None``: nothing changed, nothing logged)."""
        if source not in SOURCES:
            raise StichwerkError(f"unknown source {source!r}")
        with Session(self.db.write) as session, session.begin():
            if session.get(Tournament, tid, with_for_update=True) is None:
                raise UnknownTournament(f"no tournament {tid!r}")
            data = _load(session, tid)
            assert data is not None
            if expect_seq is not None and data.seq != expect_seq:
                raise _Moved()
            done = change(session, data)
            if done is None:
                return None
            op, details = done
            session.flush()
            _append(session, tid, op, details, source)
            session.flush()
            if rank_again and data.status == "finished":
                after = _load(session, tid)
                assert after is not None
                if all(r.complete for r in after.rounds):
                    _write_ranking(session, after)
        return self._changed(tid)


class _Moved(Exception):
    """The tournament changed between the draw's reading and its writing."""


def replace_status(data: TournamentData, status: str) -> TournamentData:
    return replace(data, status=status)


def default_backup_dir(url: str) -> Path | None:
    """``STICHWERK_BACKUP_DIR``, else ``backups/`` beside a SQLite file, else ``var/backups``;
    ``STICHWERK_BACKUP_DIR=off`` writes none."""
    configured = os.environ.get("STICHWERK_BACKUP_DIR")
    if configured:
        return None if configured.lower() == "off" else Path(configured)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            return None
        return Path(parsed.database).parent / "backups"
    return Path("var") / "backups"


def _slug(text: str) -> str:
    return re.sub(r"[^\w-]+", "-", text).strip("-")[:40] or "turnier"


def _list_format() -> TournamentFormat:
    """Ranking points of the lists: N − p + 1 (every built-in format's rule)."""
    return FORMATS["wielandstrasse"]


# ------------------------------------------------------------------------------ SQL helpers


def _seq(session: Session, tid: str) -> int:
    return int(
        session.scalar(
            select(func.max(TournamentChange.seq)).where(TournamentChange.tournament_id == tid)
        )
        or 0
    )


def _append(session: Session, tid: str, op: str, data: dict[str, Any], source: str) -> None:
    session.add(
        TournamentChange(
            tournament_id=tid, seq=_seq(session, tid) + 1, op=op, data=data, source=source
        )
    )


def _person(session: Session, name: str) -> int:
    """The person called ``name``, made if new."""
    found = session.scalar(select(Person.id).where(Person.name == name))
    if found is not None:
        return int(found)
    person = Person(name=name)
    session.add(person)
    session.flush()
    return person.id


def _admitted(session: Session, owner: SeriesOwner, tid: str | None, secret: object) -> bool:
    """The secret given, or the tournament ``tid`` let into the series by its owner (with the
    secret as it is now)."""
    if _secret_matches(owner.secret_hash, secret):
        return True
    if tid is None:
        return False
    key = session.scalar(
        select(Tournament.series_key).where(Tournament.id == tid, Tournament.series == owner.series)
    )
    return key is not None and secrets.compare_digest(str(key), owner.secret_hash)


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _insert_all(session: Session, model: Any, rows: list[dict[str, Any]]) -> None:
    """``rows`` of ``model`` in one statement (nothing to do for none), through its table:
    nothing enters the session's identity map to be loaded again."""
    if rows:
        session.execute(insert(model.__table__), rows)


def _persons(session: Session, names: Sequence[str]) -> dict[str, int]:
    """The people called ``names``, those new made: one query to find them, one to add the
    rest (not a query per name inside the write transaction)."""
    found = _people(session, names)
    missing = [n for n in dict.fromkeys(names) if n not in found]
    if missing:
        now = utcnow()
        _insert_ignoring(session, Person, [{"name": n, "created_at": now} for n in missing])
        found.update(_people(session, missing))
    return found


def _people(session: Session, names: Sequence[str]) -> dict[str, int]:
    """The ids of the people called ``names`` (one query per 900 names)."""
    found: dict[str, int] = {}
    for chunk in _chunks(names, 900):
        for pid, name in session.execute(
            select(Person.id, Person.name).where(Person.name.in_(chunk))
        ).all():
            found[name] = int(pid)
    return found


def _check_history_fits(
    session: Session, club: str, keys: set[tuple[Any, ...]], adding: int
) -> None:
    """No tournament of ``keys`` in the series' history yet, and room for ``adding`` rows (an
    import's own rows do not count before it is done)."""
    counted = [RankingRow.series == club, _counted()]
    for held_on, name in session.execute(
        select(RankingRow.held_on, RankingRow.tournament).where(*counted).distinct()
    ).all():
        if (held_on, name) in keys:
            what = held_on.isoformat() + (f" ({name})" if name else "")
            raise TournamentError(f"the history of {club} has the tournament of {what} already")
    present = int(session.scalar(select(func.count()).select_from(RankingRow).where(*counted)) or 0)
    if present + adding > MAX_SERIES_ROWS:
        raise StichwerkError(
            f"the history of {club} would hold more than {MAX_SERIES_ROWS} rows "
            f"({present} now, {adding} in the file)"
        )


def _table_key(tid: str, table: TableRow) -> tuple[Any, ...]:
    return (
        TournamentTable.tournament_id == tid,
        TournamentTable.round == table.round,
        TournamentTable.number == table.number,
    )


def _set_results(
    session: Session,
    tid: str,
    table: TableRow,
    results: Sequence[Result] | None,
    source: str | None,
    *,
    mode: str,
) -> None:
    session.execute(
        update(TournamentTable)
        .where(*_table_key(tid, table))
        .values(
            mode=mode,
            results=_results_json(results),
            source=source if results is not None else None,
            entered_at=utcnow() if results is not None else None,
        )
    )


def _sheet_results_of(session: Session, table: TableRow) -> tuple[Result, ...] | None:
    row = session.get(ScoreList, table.list_id)
    if row is None:
        return None
    changes = session.scalars(
        select(ScoreChange.change).where(ScoreChange.list_id == row.id).order_by(ScoreChange.seq)
    ).all()
    return sheet_results(table, row.settings, changes)


def check_may_go_online(data: TournamentData, table: TableRow) -> None:
    if data.status == "finished":
        raise TournamentError("the tournament is finished")
    if table.results is not None:
        raise TournamentError(f"table {table.number} has its results already")
    if table.mode == "online" and table.web_table_id is not None:
        raise TournamentError(f"table {table.number} plays online already")
    if table.sheet_changes:
        raise TournamentError(
            f"table {table.number} has begun on its score sheet: it plays on there"
        )


def _load(session: Session, tid: str) -> TournamentData | None:
    t = session.get(Tournament, tid)
    if t is None:
        return None
    players = tuple(
        PlayerRow(p.number, name, p.withdrawn_after)
        for p, name in session.execute(
            select(TournamentPlayer, Person.name)
            .join(Person, Person.id == TournamentPlayer.person_id)
            .where(TournamentPlayer.tournament_id == tid)
            .order_by(TournamentPlayer.number)
        ).all()
    )
    table_rows = session.scalars(
        select(TournamentTable)
        .where(TournamentTable.tournament_id == tid)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    list_ids = [row.list_id for row in table_rows if row.list_id]
    tokens: dict[str, tuple[str, str]] = {}
    counts: dict[str, int] = {}
    if list_ids:
        for lid, scorer_token, follower_token in session.execute(
            select(ScoreList.id, ScoreList.scorer_token, ScoreList.follower_token).where(
                ScoreList.id.in_(list_ids)
            )
        ).all():
            tokens[lid] = (scorer_token, follower_token)
        for lid, count in session.execute(
            select(ScoreChange.list_id, func.count())
            .where(ScoreChange.list_id.in_(list_ids))
            .group_by(ScoreChange.list_id)
        ).all():
            counts[lid] = int(count)
    by_round: dict[int, list[TableRow]] = {}
    for row in table_rows:
        list_id = row.list_id
        scorer: str | None = None
        follower: str | None = None
        if list_id and list_id in tokens:
            scorer, follower = tokens[list_id]
        by_round.setdefault(row.round, []).append(
            TableRow(
                round=row.round,
                number=row.number,
                seating=tuple(int(p) for p in row.seating),
                duty_owed=tuple(int(n) for n in row.duty_owed),
                mode=row.mode,
                list_id=list_id,
                scorer_token=scorer,
                follower_token=follower,
                sheet_changes=counts.get(list_id, 0) if list_id else 0,
                web_table_id=row.web_table_id,
                online=None if row.online is None else dict(row.online),
                results=_results_of(row),
                source=row.source,
                entered_at=row.entered_at,
            )
        )
    rounds = tuple(
        RoundRow(
            r.number,
            r.final,
            tuple(tuple(int(p) for p in g) for g in r.by_lot),
            tuple(by_round.get(r.number, ())),
        )
        for r in session.scalars(
            select(TournamentRound)
            .where(TournamentRound.tournament_id == tid)
            .order_by(TournamentRound.number)
        ).all()
    )
    return TournamentData(
        id=t.id,
        name=t.name,
        game=t.game,
        format_name=t.format,
        profile=t.profile,
        held_on=t.held_on,
        place=t.place,
        series=t.series,
        seed=t.seed,
        status=t.status,
        director_token=t.director_token,
        public_token=t.public_token,
        created_at=t.created_at,
        finished_at=t.finished_at,
        seq=_seq(session, tid),
        players=players,
        rounds=rounds,
    )


@dataclass(frozen=True)
class _Planned:
    number: int
    final: bool
    tables: tuple[tuple[int, ...], ...]
    by_lot: tuple[tuple[int, ...], ...]
    owed: tuple[tuple[int, ...], ...]


def _plan_next(data: TournamentData) -> _Planned:
    """The next round's seating (outside the write transaction: a draw may take a second)."""
    fmt = data.fmt
    if data.status == "finished":
        raise TournamentError("the tournament is finished")
    step = next_step(data)
    if step["action"] == "finish":
        raise TournamentError("every round is drawn: finish the tournament")
    if step["blocked"]:
        raise TournamentError(step["blocked"])
    results = data.results()
    if step["action"] == "draw":
        active = data.active
        if not data.vorrunde:
            fmt.check_players(len(active))
        earlier = [r.as_round() for r in data.vorrunde]
        drawn = draw_round(fmt, active, earlier, data.seed)
        owed = tuple(
            tuple(duty_owed(fmt, results, p) if fmt.duty_solos else 0 for p in table)
            for table in drawn.tables
        )
        return _Planned(drawn.number, False, drawn.tables, (), owed)
    seating = seat_endrunde(fmt, data.numbers, results, data.withdrawn, data.seed)
    tables = seating.round.tables
    return _Planned(
        seating.round.number, True, tables, seating.by_lot, tuple((0,) * len(t) for t in tables)
    )


def _store_round(
    session: Session, data: TournamentData, plan: _Planned
) -> tuple[str, dict[str, Any]]:
    tid = data.id
    session.add(
        TournamentRound(
            tournament_id=tid,
            number=plan.number,
            final=plan.final,
            by_lot=[list(g) for g in plan.by_lot],
        )
    )
    for number, (seating, owed) in enumerate(zip(plan.tables, plan.owed, strict=True), start=1):
        settings = sheet_settings(data, plan.number, number, seating, owed)
        list_id = new_id(9)
        session.add(
            ScoreList(
                id=list_id,
                scorer_token=secrets.token_urlsafe(TOKEN_BYTES),
                follower_token=secrets.token_urlsafe(TOKEN_BYTES),
                game=data.game,
                settings=settings,
            )
        )
        session.flush()
        session.add(
            TournamentTable(
                tournament_id=tid,
                round=plan.number,
                number=number,
                seating=list(seating),
                duty_owed=list(owed),
                mode="sheet",
                list_id=list_id,
            )
        )
    if data.status == "registration":
        session.execute(update(Tournament).where(Tournament.id == tid).values(status="running"))
    names = data.names
    return "draw", {
        "round": plan.number,
        "final": plan.final,
        "tables": [[names[p] for p in t] for t in plan.tables],
        "by_lot": [[names[p] for p in g] for g in plan.by_lot],
    }


def _write_ranking(session: Session, data: TournamentData) -> list[dict[str, Any]]:
    """The finished tournament's places as the series' ranking rows (written anew)."""
    fmt = data.fmt
    final = data.endrunde
    ranking = final_ranking(
        fmt, data.numbers, data.results(), final.as_round() if final else None, data.withdrawn
    )
    rows = results_of_ranking(ranking, data.names, data.held_on, data.name)
    clash = session.scalar(
        select(RankingRow.id).where(
            RankingRow.series == data.series,
            RankingRow.held_on == data.held_on,
            RankingRow.tournament == data.name,
            or_(RankingRow.tournament_id.is_(None), RankingRow.tournament_id != data.id),
        )
    )
    if clash is not None:
        raise TournamentError(
            f"the ranking list of {data.series} has a tournament {data.name!r} on "
            f"{data.held_on.isoformat()} already: give this one another name"
        )
    session.execute(delete(RankingRow).where(RankingRow.tournament_id == data.id))
    people = _persons(session, [r.player for r in rows])
    for r in rows:
        session.add(
            RankingRow(
                series=data.series,
                held_on=r.date,
                tournament=r.tournament,
                person_id=people[r.player],
                place=r.place,
                participants=r.participants,
                tournament_id=data.id,
            )
        )
    return [{"place": r.place, "name": r.player} for r in rows]


def _delete_tournament(session: Session, tid: str) -> None:
    lists = [
        lid
        for lid in session.scalars(
            select(TournamentTable.list_id).where(TournamentTable.tournament_id == tid)
        ).all()
        if lid
    ]
    for model in (RankingRow, TournamentChange, TournamentTable, TournamentRound, TournamentPlayer):
        session.execute(delete(model).where(model.tournament_id == tid))
    if lists:
        session.execute(delete(ScoreChange).where(ScoreChange.list_id.in_(lists)))
        session.execute(delete(ScoreList).where(ScoreList.id.in_(lists)))
    session.execute(delete(Tournament).where(Tournament.id == tid))


# ------------------------------------------------------------------------------ backup files


def _when(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _export(session: Session, tid: str) -> dict[str, Any]:
    t = session.get(Tournament, tid)
    if t is None:
        raise UnknownTournament(f"no tournament {tid!r}")
    players = session.execute(
        select(TournamentPlayer, Person.name)
        .join(Person, Person.id == TournamentPlayer.person_id)
        .where(TournamentPlayer.tournament_id == tid)
        .order_by(TournamentPlayer.number)
    ).all()
    rounds = session.scalars(
        select(TournamentRound)
        .where(TournamentRound.tournament_id == tid)
        .order_by(TournamentRound.number)
    ).all()
    tables = session.scalars(
        select(TournamentTable)
        .where(TournamentTable.tournament_id == tid)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    # Every sheet and every change in a query per 500 sheets, not two queries a sheet.
    list_ids = [table.list_id for table in tables if table.list_id is not None]
    lists: dict[str, ScoreList] = {}
    changes_of: dict[str, list[ScoreChange]] = {lid: [] for lid in list_ids}
    for some in _chunks(list_ids, 500):
        for found in session.scalars(select(ScoreList).where(ScoreList.id.in_(some))).all():
            lists[found.id] = found
        for c in session.scalars(
            select(ScoreChange)
            .where(ScoreChange.list_id.in_(some))
            .order_by(ScoreChange.list_id, ScoreChange.seq)
        ).all():
            changes_of[c.list_id].append(c)
    sheets = []
    for lid in list_ids:
        lst = lists.get(lid)
        if lst is None:
            continue
        sheets.append(
            {
                "id": lst.id,
                "scorer_token": lst.scorer_token,
                "follower_token": lst.follower_token,
                "settings": dict(lst.settings),
                "created_at": _when(lst.created_at),
                "changes": [
                    {
                        "seq": c.seq,
                        "key": c.key,
                        "change": dict(c.change),
                        "link": c.link,
                        "at": _when(c.created_at),
                    }
                    for c in changes_of[lid]
                ],
            }
        )
    log = session.scalars(
        select(TournamentChange)
        .where(TournamentChange.tournament_id == tid)
        .order_by(TournamentChange.seq)
    ).all()
    return {
        "kind": BACKUP_KIND,
        "version": BACKUP_VERSION,
        "exported_at": utcnow().isoformat(),
        "tournament": {
            "id": t.id,
            "name": t.name,
            "game": t.game,
            "format": t.format,
            "profile": t.profile,
            "date": t.held_on.isoformat(),
            "place": t.place,
            "series": t.series,
            "seed": t.seed,
            "status": t.status,
            "director_token": t.director_token,
            "public_token": t.public_token,
            "created_at": _when(t.created_at),
            "finished_at": _when(t.finished_at),
            "series_secret_hash": session.scalar(
                select(SeriesOwner.secret_hash).where(SeriesOwner.series == t.series)
            ),
        },
        "players": [
            {
                "number": p.number,
                "name": name,
                "withdrawn_after": p.withdrawn_after,
                "registered_at": _when(p.registered_at),
            }
            for p, name in players
        ],
        "rounds": [
            {
                "number": r.number,
                "final": r.final,
                "by_lot": list(r.by_lot),
                "drawn_at": _when(r.drawn_at),
            }
            for r in rounds
        ],
        "tables": [
            {
                "round": x.round,
                "number": x.number,
                "seating": list(x.seating),
                "duty_owed": list(x.duty_owed),
                "mode": x.mode,
                "list_id": x.list_id,
                "web_table_id": x.web_table_id,
                "results": None if x.results is None else list(x.results),
                "source": x.source,
                "entered_at": _when(x.entered_at),
            }
            for x in tables
        ],
        "sheets": sheets,
        "log": [
            {
                "seq": c.seq,
                "op": c.op,
                "data": dict(c.data),
                "source": c.source,
                "at": _when(c.created_at),
            }
            for c in log
        ],
    }


class _Reader:
    """Checked reading of an untrusted backup: every problem is one line naming where."""

    def __init__(self, obj: object, where: str) -> None:
        if not isinstance(obj, dict):
            raise StichwerkError(f"the backup's {where} must be an object")
        self.obj: dict[str, Any] = obj
        self.where = where

    def get(self, key: str, kind: Any, *, optional: bool = False) -> Any:
        if key not in self.obj:
            if optional:
                return None
            raise StichwerkError(f"the backup's {self.where} has no {key!r}")
        value = self.obj[key]
        if value is None and optional:
            return None
        if isinstance(value, bool) and kind is int:
            raise StichwerkError(f"the backup's {self.where}: {key!r} must be a number")
        if not isinstance(value, kind):
            raise StichwerkError(f"the backup's {self.where}: {key!r} has the wrong type")
        return value

    def time(self, key: str, *, optional: bool = False) -> dt.datetime | None:
        raw = self.get(key, str, optional=optional)
        if raw is None:
            return None
        try:
            value = dt.datetime.fromisoformat(raw)
        except ValueError:
            raise StichwerkError(f"the backup's {self.where}: {key!r} is not a time") from None
        return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)

    def ints(self, key: str, hi: int = MAX_BACKUP_NUMBER) -> list[int]:
        value = self.get(key, list)
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= hi for v in value):
            raise StichwerkError(
                f"the backup's {self.where}: {key!r} must list whole numbers from 0 to {hi}"
            )
        return list(value)

    def whole(self, key: str, lo: int, hi: int) -> int:
        value = self.get(key, int)
        if not lo <= value <= hi:
            raise StichwerkError(
                f"the backup's {self.where}: {key!r} must be a whole number from {lo} to {hi}"
            )
        return int(value)


def _check_numbers(value: object, where: str) -> None:
    """Every number in a backup's free JSON (a score sheet's changes, the log) finite and no
    larger than :data:`MAX_BACKUP_NUMBER` (``1e308`` or a 400-digit integer is refused here,
    before any engine reads it)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            if isinstance(item, float) and not math.isfinite(item):
                raise StichwerkError(f"the backup's {where} has a number that is not finite")
            if not -MAX_BACKUP_NUMBER <= item <= MAX_BACKUP_NUMBER:
                raise StichwerkError(
                    f"the backup's {where} has a number beyond ±{MAX_BACKUP_NUMBER}"
                )


def _points(value: object, where: str) -> int | float:
    """A table's total from a backup: a finite number within ±:data:`MAX_POINTS`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StichwerkError(f"the backup's {where}: points must be numbers")
    if isinstance(value, float) and not math.isfinite(value):
        raise StichwerkError(f"the backup's {where}: points must be finite")
    if not -MAX_POINTS <= value <= MAX_POINTS:
        raise StichwerkError(
            f"the backup's {where}: points must be from -{MAX_POINTS} to {MAX_POINTS}"
        )
    return value


TOKEN_TEXT = re.compile(r"[A-Za-z0-9_-]{8,43}")


def _token(value: str, where: str) -> str:
    if not TOKEN_TEXT.fullmatch(value):
        raise StichwerkError(f"the backup's {where} is not a link token")
    return value


def _read_backup(backup: object) -> dict[str, Any]:
    """The backup checked through: its kind, the tournament, players, rounds, tables, sheets
    (each replayed) and the log."""
    top = _Reader(backup, "file")
    if top.obj.get("kind") != BACKUP_KIND:
        raise StichwerkError("this is not a Stichwerk tournament backup")
    if top.get("version", int) != BACKUP_VERSION:
        raise StichwerkError(f"this backup is of version {top.obj.get('version')}, not 1")
    t = _Reader(top.get("tournament", dict), "tournament")
    fmt = get_format(t.get("format", str))
    status = t.get("status", str)
    if status not in STATUSES:
        raise StichwerkError(f"the backup's tournament has an unknown status {status!r}")
    tournament = {
        "id": _token(t.get("id", str), "tournament id"),
        "name": clean_text(t.get("name", str), "tournament's name", required=True),
        "game": fmt.game,
        "format": fmt.name,
        "profile": t.get("profile", str),
        "held_on": parse_date(t.get("date", str)),
        "place": clean_text(t.get("place", str), "place"),
        "series": clean_text(t.get("series", str), "club or series", required=True),
        "seed": t.get("seed", str),
        "status": status,
        "director_token": _token(t.get("director_token", str), "director link"),
        "public_token": _token(t.get("public_token", str), "public link"),
        "created_at": t.time("created_at"),
        "finished_at": t.time("finished_at", optional=True),
    }
    if not re.fullmatch(r"[\w.-]{1,40}", tournament["seed"]):
        raise StichwerkError("the backup's seed is not 1 to 40 letters, digits, '.', '-' or '_'")
    secret_hash = t.get("series_secret_hash", str, optional=True)
    if secret_hash is not None and not re.fullmatch(r"[0-9a-f]{64}", secret_hash):
        raise StichwerkError("the backup's tournament: 'series_secret_hash' is not a SHA-256")
    if tournament["profile"] != fmt.profile:
        raise StichwerkError(f"the {fmt.name} format plays the {fmt.profile} profile")
    players = []
    numbers: set[int] = set()
    names: set[str] = set()
    for i, raw in enumerate(top.get("players", list)):
        p = _Reader(raw, f"player {i + 1}")
        number = _whole(p.get("number", int), "a player's number", 0, 100_000)
        name = clean_name(p.get("name", str))
        if number in numbers or name.casefold() in names:
            raise StichwerkError(f"the backup lists player {name} twice")
        numbers.add(number)
        names.add(name.casefold())
        after = p.get("withdrawn_after", int, optional=True)
        if after is not None:
            _whole(after, "a withdrawal's round", 0, fmt.rounds + 1)
        players.append(
            {
                "number": number,
                "name": name,
                "withdrawn_after": after,
                "registered_at": p.time("registered_at"),
            }
        )
    if len(players) > fmt.max_players:
        raise StichwerkError(f"the backup has more than {fmt.max_players} players")
    rounds = []
    for i, raw in enumerate(top.get("rounds", list)):
        r = _Reader(raw, f"round {i + 1}")
        number = r.get("number", int)
        if number != i + 1 or number > fmt.rounds + 1:
            raise StichwerkError(f"the backup's rounds are not numbered 1, 2 ... ({number})")
        by_lot = r.get("by_lot", list)
        for group in by_lot:
            if (
                not isinstance(group, list)
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in group)
                or not set(group) <= numbers
            ):
                raise StichwerkError(f"the backup's round {number}: a lot names unknown players")
        rounds.append(
            {
                "number": number,
                "final": r.get("final", bool),
                "by_lot": by_lot,
                "drawn_at": r.time("drawn_at"),
            }
        )
    sheets: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(top.get("sheets", list)):
        s = _Reader(raw, f"score sheet {i + 1}")
        lid = _token(s.get("id", str), "score sheet id")
        settings = s.get("settings", dict)
        _check_numbers(settings, f"score sheet {i + 1}")
        changes = []
        for j, c_raw in enumerate(s.get("changes", list)):
            c = _Reader(c_raw, f"score sheet {i + 1}, change {j + 1}")
            if c.get("seq", int) != j + 1:
                raise StichwerkError(f"the backup's score sheet {i + 1}: its changes skip one")
            _check_numbers(c.obj.get("change"), f"score sheet {i + 1}, change {j + 1}")
            changes.append(
                {
                    "seq": j + 1,
                    "key": c.get("key", str)[:64],
                    "change": c.get("change", dict),
                    "link": c.get("link", str)[:12],
                    "at": c.time("at"),
                }
            )
        try:
            checked = read_settings(settings)
            replay(checked.to_json(), (c["change"] for c in changes))
        except StichwerkError as exc:
            raise StichwerkError(f"the backup's score sheet {i + 1}: {exc}") from None
        except (ArithmeticError, ValueError, TypeError, KeyError, IndexError) as exc:
            # An engine that did not expect what a hand-made file holds: one line, no trace.
            raise StichwerkError(
                f"the backup's score sheet {i + 1} cannot be replayed ({type(exc).__name__})"
            ) from None
        if checked.game != fmt.game:
            raise StichwerkError(f"the backup's score sheet {i + 1} is not of {fmt.game}")
        sheets[lid] = {
            "id": lid,
            "scorer_token": _token(s.get("scorer_token", str), "scorer link"),
            "follower_token": _token(s.get("follower_token", str), "follower link"),
            "settings": checked.to_json(),
            "created_at": s.time("created_at"),
            "changes": changes,
        }
    round_numbers = {r["number"] for r in rounds}
    tables = []
    used_lists: set[str] = set()
    for i, raw in enumerate(top.get("tables", list)):
        x = _Reader(raw, f"table {i + 1}")
        rnd = x.get("round", int)
        if rnd not in round_numbers:
            raise StichwerkError(f"the backup's table {i + 1} is of a round not drawn")
        seating = x.ints("seating")
        if len(seating) not in fmt.table_sizes or not set(seating) <= numbers:
            raise StichwerkError(f"the backup's table {i + 1} seats players it does not list")
        owed = x.ints("duty_owed")
        if len(owed) != len(seating) or any(not 0 <= n <= max(fmt.duty_solos, 0) for n in owed):
            raise StichwerkError(f"the backup's table {i + 1}: Pflicht-Soli owed do not fit")
        mode = x.get("mode", str)
        if mode not in MODES:
            raise StichwerkError(f"the backup's table {i + 1} has an unknown mode {mode!r}")
        lid = x.get("list_id", str, optional=True)
        if lid is not None:
            if lid not in sheets or lid in used_lists:
                raise StichwerkError(f"the backup's table {i + 1} has no score sheet of its own")
            used_lists.add(lid)
        results = x.get("results", list, optional=True)
        if results is not None:
            if len(results) != len(seating):
                raise StichwerkError(f"the backup's table {i + 1}: one result per player")
            for res in results:
                r = _Reader(res, f"table {i + 1}'s results")
                _points(r.obj.get("points"), f"table {i + 1}")
                for key in ("duty_solos", "games_won"):
                    _whole(r.get(key, int), f"table {i + 1}'s {key}", 0, 1000)
        web = x.get("web_table_id", str, optional=True)
        if web is not None and results is None and mode == "online":
            # An online table still playing stays on the other server.
            mode = "sheet" if lid else "quick"
        tables.append(
            {
                "round": rnd,
                "number": x.whole("number", 1, 1000),
                "seating": seating,
                "duty_owed": owed,
                "mode": mode,
                "list_id": lid,
                "results": results,
                "source": x.get("source", str, optional=True),
                "entered_at": x.time("entered_at", optional=True),
            }
        )
    for number in round_numbers:
        here = [x for x in tables if x["round"] == number]
        if sorted(x["number"] for x in here) != list(range(1, len(here) + 1)):
            raise StichwerkError(f"the backup's round {number}: its tables are not 1, 2 ...")
        seated = [p for x in here for p in x["seating"]]
        if len(seated) != len(set(seated)):
            raise StichwerkError(f"the backup's round {number} seats a player twice")
    log = []
    for i, raw in enumerate(top.get("log", list)):
        c = _Reader(raw, f"log entry {i + 1}")
        if c.get("seq", int) != i + 1:
            raise StichwerkError("the backup's log skips an entry")
        source = c.get("source", str)
        _check_numbers(c.obj.get("data"), f"log entry {i + 1}")
        log.append(
            {
                "seq": i + 1,
                "op": c.get("op", str)[:24],
                "data": c.get("data", dict),
                "source": source if source in SOURCES else "import",
                "at": c.time("at"),
            }
        )
    return {
        "exported_at": top.get("exported_at", str),
        "tournament": tournament,
        "series_secret_hash": secret_hash,
        "players": players,
        "rounds": rounds,
        "tables": tables,
        "sheets": [sheets[lid] for lid in sheets if lid in used_lists],
        "log": log,
    }


def _insert_backup(session: Session, parsed: dict[str, Any]) -> None:
    t = parsed["tournament"]
    tid = t["id"]
    clash = session.scalar(
        select(Tournament.id).where(
            or_(
                Tournament.director_token.in_([t["director_token"], t["public_token"]]),
                Tournament.public_token.in_([t["director_token"], t["public_token"]]),
            )
        )
    )
    if clash is not None:
        raise TournamentError("another tournament here has the backup's links")
    session.add(Tournament(**t))
    session.flush()
    people = _persons(session, [p["name"] for p in parsed["players"]])
    # Many rows at once (one statement a table), not an object each: the write lock is held
    # for as short a time as the rows take to write.
    _insert_all(
        session,
        TournamentPlayer,
        [
            {
                "tournament_id": tid,
                "number": p["number"],
                "person_id": people[p["name"]],
                "withdrawn_after": p["withdrawn_after"],
                "registered_at": p["registered_at"],
            }
            for p in parsed["players"]
        ],
    )
    _insert_all(session, TournamentRound, [{"tournament_id": tid, **r} for r in parsed["rounds"]])
    tokens = [tok for s in parsed["sheets"] for tok in (s["scorer_token"], s["follower_token"])]
    ids = [s["id"] for s in parsed["sheets"]]
    for some_ids, some_tokens in zip(_chunks(ids, 300), _chunks(tokens, 600), strict=True):
        taken = session.scalar(
            select(ScoreList.id)
            .where(
                or_(
                    ScoreList.id.in_(some_ids),
                    ScoreList.scorer_token.in_(some_tokens),
                    ScoreList.follower_token.in_(some_tokens),
                )
            )
            .limit(1)
        )
        if taken is not None:
            raise TournamentError("a score sheet here has the same links as one in the backup")
    _insert_all(
        session,
        ScoreList,
        [
            {
                "id": s["id"],
                "scorer_token": s["scorer_token"],
                "follower_token": s["follower_token"],
                "game": s["settings"]["game"],
                "settings": s["settings"],
                "created_at": s["created_at"],
            }
            for s in parsed["sheets"]
        ],
    )
    _insert_all(
        session,
        ScoreChange,
        [
            {
                "list_id": s["id"],
                "seq": c["seq"],
                "key": c["key"],
                "change": c["change"],
                "link": c["link"],
                "created_at": c["at"],
            }
            for s in parsed["sheets"]
            for c in s["changes"]
        ],
    )
    _insert_all(session, TournamentTable, [{"tournament_id": tid, **x} for x in parsed["tables"]])
    _insert_all(
        session,
        TournamentChange,
        [
            {
                "tournament_id": tid,
                "seq": c["seq"],
                "op": c["op"],
                "data": c["data"],
                "source": c["source"],
                "created_at": c["at"],
            }
            for c in parsed["log"]
        ],
    )
    session.flush()
    data = _load(session, tid)
    assert data is not None
    if data.status == "finished":
        _write_ranking(session, data)
