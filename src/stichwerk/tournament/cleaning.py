"""The director's input cleaned: names, dates, free text, seeds and a tournament's fields.

Every function takes what a page, the command line or a backup sent (``object``: anything a
JSON body may hold) and returns it as the tournament keeps it, or raises one
:class:`~stichwerk.core.errors.StichwerkError` line saying what is wrong. Nothing here knows
the tournament as it stands; the rules that do are in :mod:`.day`.
"""

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.text import clean_line
from stichwerk.tournament.formats import TournamentFormat, get_format
from stichwerk.tournament.lists import PastResult, player_name, read_results_csv

NAME_LENGTH = 40
"""Characters of a player's name (as on a score sheet)."""
TEXT_LENGTH = 120
"""Characters of a tournament's name, place and series."""
SEED = re.compile(r"[\w.-]{1,40}")
"""A draw's seed: what the director may type (and read out to a second laptop)."""
EDITABLE = ("date", "name", "place", "series")
"""The fields of a tournament a director may change once it is made."""
NUMBERED = re.compile(r"^\s*\d{1,3}\s*[.):]\s*")


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
    """A date as 2025-03-08 or 08.03.2025.

    >>> parse_date("8.3.2025"), parse_date(" 2025-03-08 ")
    (datetime.date(2025, 3, 8), datetime.date(2025, 3, 8))
    """
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


def whole(value: object, what: str, lo: int, hi: int) -> int:
    """A whole number from ``lo`` to ``hi`` (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StichwerkError(f"{what} must be a whole number from {lo} to {hi}")
    return value


def check_seed(seed: object, what: str = "the seed") -> str:
    """A draw's seed as the director typed it.

    >>> check_seed("club-2025.1")
    'club-2025.1'
    """
    if not isinstance(seed, str) or not SEED.fullmatch(seed):
        raise StichwerkError(f"{what} is 1 to 40 letters, digits, '.', '-' or '_'")
    return seed


def check_mode(mode: object) -> str:
    """Where a director may send a table's results to come from: its sheet, or typed."""
    if mode not in ("sheet", "quick"):
        raise StichwerkError("a table's results come from its 'sheet' or are typed ('quick')")
    return str(mode)


@dataclass(frozen=True)
class NewTournament:
    """A tournament's fields as the director gave them, cleaned."""

    name: str
    fmt: TournamentFormat
    held_on: dt.date
    place: str
    series: str
    seed: str

    def log_entry(self) -> dict[str, Any]:
        """What the log's ``create`` entry keeps."""
        return {
            "name": self.name,
            "format": self.fmt.name,
            "date": self.held_on.isoformat(),
            "place": self.place,
            "series": self.series,
            "seed": self.seed,
        }


def clean_new(
    *,
    name: object,
    format_name: object,
    held_on: object,
    place: object,
    series: object,
    seed: object,
) -> NewTournament:
    """A new tournament's fields (the seed chosen by the caller when none was given)."""
    fmt = get_format(format_name)
    title = clean_text(name, "tournament's name", required=True)
    when = parse_date(held_on)
    where = clean_text(place, "place")
    club = clean_text(series, "club or series", required=True)
    return NewTournament(title, fmt, when, where, club, check_seed(seed))


def clean_edit(fields: Mapping[str, object]) -> dict[str, Any]:
    """A change of the tournament's name, date, place or series, as the columns it sets
    (``name``, ``held_on``, ``place``, ``series``).

    >>> clean_edit({"date": "8.3.2025", "place": " Saal "})
    {'held_on': datetime.date(2025, 3, 8), 'place': 'Saal'}
    """
    unknown = set(fields) - set(EDITABLE)
    if unknown or not fields:
        raise StichwerkError(f"change one of {', '.join(EDITABLE)}")
    values: dict[str, Any] = {}
    if "name" in fields:
        values["name"] = clean_text(fields["name"], "tournament's name", required=True)
    if "date" in fields:
        values["held_on"] = parse_date(fields["date"])
    if "place" in fields:
        values["place"] = clean_text(fields["place"], "place")
    if "series" in fields:
        values["series"] = clean_text(fields["series"], "club or series", required=True)
    return values


def clean_history(text: str, max_rows: int) -> list[PastResult]:
    """A club's past tournaments from CSV (:func:`~stichwerk.tournament.lists.read_results_csv`),
    at most ``max_rows`` rows (counted before the file is read), every name cleaned as a
    registration's and a tournament's are."""
    lines = sum(1 for line in text.splitlines() if line.strip()) - 1  # before reading it
    rows = read_results_csv(text) if lines <= max_rows else []
    if lines > max_rows or len(rows) > max_rows:
        raise StichwerkError(
            f"a history import takes at most {max_rows} rows, this file has "
            f"{max(lines, len(rows))}: split it by years"
        )
    if not rows:
        raise StichwerkError("the CSV file has no rows")
    for r in rows:
        clean_name(r.player)
    # A tournament's name as the app keeps every name: one line, printable, 120 at most.
    return [replace(r, tournament=clean_text(r.tournament, "tournament's name")) for r in rows]
