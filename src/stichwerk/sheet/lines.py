"""A list as JSON lines (what ``stichwerk sheet`` reads and the web app exports) and as CSV.

The first line may be ``{"list": {...}}``, the list's settings (``ListSettings``; left out: the
profile's defaults and the first summary's game); every other line is one deal summary, exactly
as ``stichwerk score`` reads it (the list's game, profile, seats and the deal's dealer may be
left out). Blank lines are skipped. The first bad line stops the reading with one line that
names its number.
"""

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.record import load_json_object
from stichwerk.core.text import csv_row
from stichwerk.sheet.settings import read_settings
from stichwerk.sheet.sheet import MAX_DEALS, Sheet, SheetError

MAX_LINES = MAX_DEALS + 1
"""The settings line and at most ``MAX_DEALS`` deals: a longer file is refused before any of
it is read."""


class LineError(SheetError):
    """A bad line of a list file; ``line`` is its number (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def read_lines(text: str | Iterable[str]) -> Sheet:
    """The sheet of a JSON-lines list; :class:`LineError` for the first bad line."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not numbered:
        raise LineError(1, "the list is empty: no settings and no deal")
    if len(numbered) > MAX_LINES:
        raise LineError(
            numbered[MAX_LINES][0],
            f"a list holds at most {MAX_DEALS} deals (and its settings line): "
            "split it into lists of an evening or a season",
        )
    objects: list[tuple[int, dict[str, Any]]] = []
    for n, line in numbered:
        try:
            objects.append((n, load_json_object(line, "the line")))
        except StichwerkError as exc:
            raise LineError(n, str(exc)) from None
    header: dict[str, Any] | None = None
    if "list" in objects[0][1]:
        n, first = objects.pop(0)
        if set(first) != {"list"} or not isinstance(first["list"], dict):
            raise LineError(n, 'the settings line is {"list": {...}} and nothing else')
        header = first["list"]
    for n, obj in objects:
        if "list" in obj:
            raise LineError(n, "only the first line may hold the list's settings")
    try:
        settings = read_settings(header, objects[0][1] if objects else None)
    except StichwerkError as exc:
        raise LineError(numbered[0][0], str(exc)) from None
    sheet = Sheet(settings)
    for index, (n, summary) in enumerate(objects, start=1):
        try:
            sheet.apply({"op": "add", "summary": summary, "entry": f"line-{n}", "key": f"line-{n}"})
        except StichwerkError as exc:
            message = str(exc)
            prefix = f"deal {index}: "
            message = message.removeprefix(prefix)
            raise LineError(n, f"deal {index}: {message}") from None
    return sheet


def write_lines(sheet: Sheet) -> str:
    """The list as JSON lines: its settings, then each deal's complete summary."""
    out = [json.dumps({"list": sheet.settings.to_json()}, ensure_ascii=False)]
    out += [json.dumps(row.summary, ensure_ascii=False) for row in sheet.rows]
    return "\n".join(out) + "\n"


class _SafeWriter:
    """A ``csv.writer`` whose every cell passes :func:`stichwerk.core.text.csv_cell` (names and
    labels come from outside; a spreadsheet must not run them as formulas)."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def writerow(self, row: list[object]) -> None:
        self.writer.writerow(csv_row(row))


def write_csv(sheet: Sheet) -> str:
    """The list as a spreadsheet: a row per deal (each seat's score and running total), then
    the penalties and the totals."""
    s = sheet.settings
    names = [s.name(seat) for seat in range(s.seats)]
    buffer = io.StringIO()
    writer = _SafeWriter(csv.writer(buffer, lineterminator="\n"))
    writer.writerow(
        ["deal", "game", "dealer", "played", "bock", *names, *(f"{n} total" for n in names)]
    )
    for row in sheet.rows:
        writer.writerow(
            [
                row.index,
                row.number if row.number is not None else "",
                names[row.dealer],
                row.label,
                row.multiplier if row.multiplier != 1 else "",
                *row.settlement,
                *row.totals,
            ]
        )
    blank = ["", "", "", ""]
    if s.duty_solos:
        writer.writerow(["penalties", *blank, *sheet.penalties(), *[""] * s.seats])
    writer.writerow(["totals", *blank, *sheet.totals(), *[""] * s.seats])
    return buffer.getvalue()
