"""Ranking lists across tournaments: the all-time list (*Ewige Rangliste*) and the five-year list.

A club's history is a list of :class:`PastResult` rows, one per player and tournament (date,
player, place, participants), from finished tournaments (:func:`results_of_ranking`) or
imported from a CSV file (:func:`read_results_csv`). A list sums each player's ranking points
(the format's rule: N − p + 1), counts tournaments played and wins (first places), and orders
by points, then wins; players equal on both share the place.

The five-year list covers the five calendar years up to the latest tournament recorded (a
setting: ``years``, and ``latest`` to end it at another year), so after a tournament in
March 2025 it counts 2021 to 2025.

Players are told apart by name, with runs of spaces folded into one; "Anna Maier" and
"anna maier" are two players (a storage layer that knows players by id passes their names).
"""

import csv
import datetime
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.text import FORMULA_START, csv_row
from stichwerk.tournament.formats import WIELANDSTRASSE, TournamentFormat
from stichwerk.tournament.standings import Number, Standing, place_points


def player_name(name: str) -> str:
    """A name as the lists compare it: trimmed, inner runs of spaces folded.

    >>> player_name("  Anna   Maier ")
    'Anna Maier'
    """
    return " ".join(name.split())


@dataclass(frozen=True)
class PastResult:
    """One player's place in one tournament."""

    date: datetime.date
    player: str
    place: int
    participants: int
    tournament: str = ""
    """A name, telling apart tournaments held on the same day (may be empty)."""

    @property
    def key(self) -> tuple[datetime.date, str]:
        """Which tournament the row belongs to."""
        return (self.date, self.tournament)


@dataclass(frozen=True)
class ListEntry:
    """One line of a ranking list."""

    place: int
    player: str
    points: Number
    tournaments: int
    wins: int
    shared: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "points": self.points,
            "tournaments": self.tournaments,
            "wins": self.wins,
            "shared": self.shared,
        }


MAX_PARTICIPANTS = 10_000
"""The largest field a history row may give (a number from a file: the database's integers end
somewhere, a tournament's field long before)."""


def check_results(rows: Iterable[PastResult]) -> list[PastResult]:
    """The rows, checked: names, places within the field, one row per player and tournament,
    one field size per tournament, no more rows than participants."""
    out = []
    fields: dict[tuple[datetime.date, str], int] = {}
    seen: set[tuple[datetime.date, str, str]] = set()
    counts: dict[tuple[datetime.date, str], int] = {}
    for row in rows:
        name = player_name(row.player)
        what = f"{row.date.isoformat()}{' ' + row.tournament if row.tournament else ''}"
        if not name:
            raise StichwerkError(f"a result of {what} has no player name")
        if not 1 <= row.participants <= MAX_PARTICIPANTS:
            raise StichwerkError(
                f"{what}: {row.participants} participants is not a field (1 to {MAX_PARTICIPANTS})"
            )
        if not 1 <= row.place <= row.participants:
            raise StichwerkError(
                f"{what}: {name} is placed {row.place} of {row.participants} participants"
            )
        if fields.setdefault(row.key, row.participants) != row.participants:
            raise StichwerkError(
                f"{what}: the rows give {fields[row.key]} and {row.participants} participants"
            )
        if (*row.key, name) in seen:
            raise StichwerkError(f"{what}: {name} has two rows")
        seen.add((*row.key, name))
        counts[row.key] = counts.get(row.key, 0) + 1
        if counts[row.key] > row.participants:
            raise StichwerkError(f"{what}: more rows than its {row.participants} participants")
        out.append(PastResult(row.date, name, row.place, row.participants, row.tournament))
    return out


def ranking_list(
    rows: Iterable[PastResult],
    fmt: TournamentFormat = WIELANDSTRASSE,
    *,
    first_year: int | None = None,
    last_year: int | None = None,
) -> list[ListEntry]:
    """The list over the tournaments from ``first_year`` to ``last_year`` (each ``None``: no
    limit), ranking points by ``fmt``'s rule (players sharing a place in a tournament each get
    what ``fmt.shared_points`` says)."""
    checked = check_results(rows)
    sharing: dict[tuple[datetime.date, str, int], int] = {}
    for row in checked:
        k = (*row.key, row.place)
        sharing[k] = sharing.get(k, 0) + 1
    totals: dict[str, list[Number]] = {}
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    for row in checked:
        year = row.date.year
        if (first_year is not None and year < first_year) or (
            last_year is not None and year > last_year
        ):
            continue
        points = place_points(fmt, row.place, row.participants, sharing[(*row.key, row.place)])
        totals.setdefault(row.player, []).append(points)
        played[row.player] = played.get(row.player, 0) + 1
        wins[row.player] = wins.get(row.player, 0) + (row.place == 1)
    summed = {p: _sum(v) for p, v in totals.items()}
    order = sorted(summed, key=lambda p: (-summed[p], -wins[p], p.casefold(), p))
    out: list[ListEntry] = []
    for i, p in enumerate(order):
        same = out and (out[-1].points, out[-1].wins) == (summed[p], wins[p])
        place = out[-1].place if same else i + 1
        out.append(ListEntry(place, p, summed[p], played[p], wins[p]))
    tied = {e.place for e, f in pairwise(out) if e.place == f.place}
    return [
        ListEntry(e.place, e.player, e.points, e.tournaments, e.wins, e.place in tied) for e in out
    ]


def _sum(values: Sequence[Number]) -> Number:
    """A sum independent of the order of its terms (halves from shared places are exact)."""
    total = math.fsum(values)
    return int(total) if total.is_integer() else total


def all_time_list(
    rows: Iterable[PastResult], fmt: TournamentFormat = WIELANDSTRASSE
) -> list[ListEntry]:
    """The *Ewige Rangliste*: every tournament recorded."""
    return ranking_list(rows, fmt)


def five_year_list(
    rows: Iterable[PastResult],
    fmt: TournamentFormat = WIELANDSTRASSE,
    *,
    years: int = 5,
    latest: int | None = None,
) -> list[ListEntry]:
    """The list of the last ``years`` calendar years up to ``latest`` (default: the year of the
    latest tournament recorded).

    >>> d = datetime.date
    >>> rows = [PastResult(d(2019, 5, 1), "Anna", 1, 8), PastResult(d(2024, 5, 1), "Ben", 1, 8)]
    >>> [(e.player, e.points) for e in five_year_list(rows)]
    [('Ben', 8)]
    """
    if years < 1:
        raise StichwerkError("a list needs at least one year")
    rows = list(rows)
    if latest is None:
        if not rows:
            return []
        latest = max(r.date.year for r in rows)
    return ranking_list(rows, fmt, first_year=latest - years + 1, last_year=latest)


LIST_KINDS = ("all", "five")
"""The lists of a series: ``all`` (the Ewige Rangliste), ``five`` (the last years)."""


def series_list(
    rows: Sequence[PastResult], kind: str = "all", *, years: int = 5, latest: int | None = None
) -> tuple[list[ListEntry], dict[str, Any]]:
    """A series' ranking list from its history: ``all`` (the Ewige Rangliste) or ``five``
    (the last ``years`` calendar years up to ``latest``, by default the latest tournament's
    year), and what it covers (``kind``, ``years``, ``first_year``, ``last_year``, the
    ``tournaments`` counted). Ranking points are N − p + 1, every built-in format's rule.

    >>> d = datetime.date
    >>> rows = [PastResult(d(2019, 5, 1), "Anna", 1, 8), PastResult(d(2024, 5, 1), "Ben", 1, 8)]
    >>> entries, head = series_list(rows, "five")
    >>> [e.player for e in entries], head["first_year"], head["tournaments"]
    (['Ben'], 2020, 1)
    """
    fmt = WIELANDSTRASSE
    window: dict[str, Any] = {"first_year": None, "last_year": None}
    if kind == "all":
        entries = ranking_list(rows, fmt)
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
        "kind": kind,
        "years": years if kind == "five" else None,
        **window,
        "tournaments": len(tournaments),
    }


def results_of_ranking(
    ranking: Sequence[Standing],
    names: Mapping[int, str],
    date: datetime.date,
    tournament: str = "",
) -> list[PastResult]:
    """A finished tournament's ranking as rows of the history (``names``: each player's name)."""
    missing = [s.player for s in ranking if s.player not in names]
    if missing:
        raise StichwerkError(f"player {missing[0]} has no name")
    return check_results(
        PastResult(date, names[s.player], s.place, len(ranking), tournament) for s in ranking
    )


# ------------------------------------------------------------------------------ CSV

COLUMNS = ("date", "tournament", "player", "place", "participants")
"""The history's CSV columns (``tournament`` may be left out on import)."""


def read_results_csv(text: str) -> list[PastResult]:
    """Rows of a CSV file with a header naming ``date``, ``player``, ``place`` and
    ``participants`` (and, optionally, ``tournament``), in any order; the separator is a comma
    or a semicolon (as German spreadsheets write); dates as 2024-03-09 or 09.03.2024.

    >>> text = "date;player;place;participants\\n09.03.2024;Anna Maier;1;12\\n"
    >>> read_results_csv(text)[0].date
    datetime.date(2024, 3, 9)
    """
    # Old spreadsheets end lines with a bare CR; csv refuses one inside an unquoted field.
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise StichwerkError("the CSV file is empty: it needs a header line")
    header_line = lines[0]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    try:
        return _read_rows(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        # e.g. a cell over csv's field limit (128 KiB): one line, not a traceback
        raise StichwerkError(f"the CSV file cannot be read: {exc}") from None


def _read_rows(reader: Any) -> list[PastResult]:
    header = [h.strip().lower() for h in next(reader)]
    needed = [c for c in COLUMNS if c != "tournament"]
    missing = [c for c in needed if c not in header]
    if missing:
        raise StichwerkError(
            f"the CSV header lacks the column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)} (it needs {', '.join(needed)}; tournament is optional)"
        )
    index = {c: header.index(c) for c in COLUMNS if c in header}
    rows = []
    for number, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < len(header):
            raise StichwerkError(
                f"line {number}: {len(cells)} fields, the header has {len(header)}"
            )

        def cell(name: str, cells: list[str] = cells) -> str:
            return _unescaped(cells[index[name]].strip()) if name in index else ""

        rows.append(
            PastResult(
                date=_date(cell("date"), number),
                player=cell("player"),
                place=_whole(cell("place"), "place", number),
                participants=_whole(cell("participants"), "participants", number),
                tournament=cell("tournament"),
            )
        )
    try:
        return check_results(rows)
    except StichwerkError as exc:
        raise StichwerkError(f"in the CSV file: {exc}") from None


def _unescaped(text: str) -> str:
    """A cell as written before :func:`csv_cell` guarded it ("'=Anna" read back as "=Anna")."""
    return text[1:] if text[:1] == "'" and text[1:2] in FORMULA_START else text


def _date(text: str, line: int) -> datetime.date:
    try:
        if "." in text:
            day, month, year = (int(x) for x in text.split("."))
            return datetime.date(year, month, day)
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise StichwerkError(
            f"line {line}: {text!r} is not a date (write 2024-03-09 or 09.03.2024)"
        ) from None


def _whole(text: str, what: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise StichwerkError(f"line {line}: {what} {text!r} is not a whole number") from None


def write_results_csv(rows: Iterable[PastResult]) -> str:
    """The history as CSV (``COLUMNS``, ISO dates), oldest tournament first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    ordered = sorted(rows, key=lambda r: (r.date, r.tournament, r.place, r.player))
    for r in ordered:
        writer.writerow(
            csv_row([r.date.isoformat(), r.tournament, r.player, r.place, r.participants])
        )
    return out.getvalue()


def write_list_csv(entries: Iterable[ListEntry]) -> str:
    """A ranking list as CSV: place, player, points, tournaments, wins."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("place", "player", "points", "tournaments", "wins"))
    for e in entries:
        writer.writerow(csv_row([e.place, e.player, e.points, e.tournaments, e.wins]))
    return out.getvalue()
