"""``stichwerk sheet FILE``: the running list of a score sheet kept in JSON lines.

The file is the one the web app exports (``stichwerk.sheet.lines``): an optional settings line,
then one deal summary per line. The list prints as a table (a row per deal, a column per
player, totals, Pflicht-Soli, checks); ``--json`` prints it for tools instead.
"""

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from stichwerk.cli.common import fail, print_json, read_text
from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import Number
from stichwerk.sheet import Sheet, read_lines


def sheet_command(file: str, as_json: bool) -> None:
    """Body of ``stichwerk sheet FILE [--json]``."""
    text = read_text(file)
    try:
        sheet = read_lines(text)
    except StichwerkError as exc:
        fail(str(exc))
    if as_json:
        print_json(sheet.to_json())
        return
    Console(highlight=False).print(*render(sheet), sep="\n")


def _fmt(value: Number) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:+}" if value else "0"


def _total(value: Number) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def render(sheet: Sheet) -> list[Any]:
    """The list as Rich renderables: the table, then what is owed, what comes next, checks."""
    s = sheet.settings
    title = s.title or f"{s.game} · {s.profile}"
    table = Table(title=title, show_footer=True, header_style="bold")
    table.add_column("#", justify="right", footer="")
    table.add_column("dealer", footer="")
    table.add_column("game", footer="total")
    totals = sheet.totals()
    for seat in range(s.seats):
        table.add_column(s.name(seat), justify="right", footer=_total(totals[seat]))
    for row in sheet.rows:
        label = row.label
        if row.outcome.duty_solo_by is not None:
            label += " (Pflicht)"
        if row.multiplier != 1:
            label += f" ×{row.multiplier}"
        cells = []
        for seat in range(s.seats):
            if seat == row.sitting:
                cells.append(Text(f"– ({_total(row.totals[seat])})", style="dim"))
            else:
                cells.append(
                    Text.assemble(
                        _fmt(row.settlement[seat]), (f" ({_total(row.totals[seat])})", "dim")
                    )
                )
        number = str(row.number) if row.number is not None else "–"
        table.add_row(number, s.name(row.dealer), label, *cells)
    out: list[Any] = [table]
    if s.duty_solos:
        owed = sheet.series.owed
        played = sheet.duty_played() or [0] * s.seats
        parts = [f"{s.name(i)} {played[i]}/{played[i] + owed[i]}" for i in range(s.seats)]
        out.append(Text("Pflicht-Soli played: " + ", ".join(parts)))
        if sheet.is_over and any(sheet.penalties()):
            pens = [f"{s.name(i)} {_fmt(p)}" for i, p in enumerate(sheet.penalties()) if p]
            out.append(Text("Penalties for missing Pflicht-Soli: " + ", ".join(pens)))
    if sheet.is_over:
        out.append(Text("The list is complete.", style="bold"))
    else:
        ctx = sheet.next_context()
        left = sheet.series.games_left
        line = f"Next: deal {len(sheet.rows) + 1}, {s.name(ctx.dealer)} deals"
        if ctx.sitting is not None:
            line += " and sits out"
        if ctx.deal_type:
            line += f" ({ctx.deal_type} round)"
        if ctx.forced is not None:
            line += f"; {s.name(ctx.forced)} must play the Pflicht-Solo"
        if sheet.series.multiplier() != 1:
            line += f"; Bock ×{sheet.series.multiplier()}"
        if left is not None:
            line += f"; {left} game{'s' if left != 1 else ''} left"
        out.append(Text(line))
    checks = sheet.checks()
    shown = [
        f"{name}: {'ok' if ok else 'WRONG'}"
        for name, ok in (
            ("rows sum to zero", checks["rows_sum_zero"]),
            ("even/odd", checks["parity"]),
        )
        if ok is not None
    ]
    if shown:
        out.append(Text("Checks: " + ", ".join(shown)))
    return out
