"""``stichwerk analyse``: what each decision of a record was worth, by the search bot."""

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from stichwerk.analysis import (
    DEFAULT_SECONDS,
    DEFAULT_THRESHOLD,
    Analysis,
    AnalysisSettings,
    analyse,
    decision_points,
)
from stichwerk.cli.common import fail, print_json, read_object
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError


def parse_seats(text: str) -> list[int]:
    """``"0,2"`` as ``[0, 2]``; a one-line error for anything else."""
    seats: list[int] = []
    for part in text.split(","):
        word = part.strip()
        if not word.isdecimal():
            fail(f"--seats takes seat numbers separated by commas, e.g. 0,2 (not {text!r})")
        seats.append(int(word))
    return sorted(set(seats))


def _label(action: Action) -> str:
    extra = action.card or " ".join(action.cards)
    if action.type:
        extra = f"{extra} {action.type}".strip()
    return f"{action.act} {extra}".strip()


def _print_table(console: Console, result: Analysis) -> None:
    table = Table(title=f"{len(result.decisions)} decisions analysed ({result.game})")
    table.add_column("#", justify="right")
    table.add_column("seat", justify="right")
    table.add_column("played")
    table.add_column("expected", justify="right")
    table.add_column("best")
    table.add_column("best expected", justify="right")
    table.add_column("loss", justify="right")
    table.add_column("")
    for d in result.decisions:
        made = next(c for c in d.choices if c.action == d.chosen)
        best = next(c for c in d.choices if c.action == d.best)
        half = f" ±{made.half_width:.2f}" if made.half_width is not None else ""
        table.add_row(
            str(d.index),
            str(d.seat),
            _label(d.chosen),
            f"{made.mean:+.2f}{half}",
            "" if d.best == d.chosen else _label(d.best),
            f"{best.mean:+.2f}",
            f"{d.loss:.2f}",
            f"[bold red]Fehler −{d.loss:.1f}[/]" if d.fehler else "",
        )
    console.print(table)
    for seat in result.seats:
        count = sum(1 for d in result.decisions if d.seat == seat)
        errors = sum(1 for d in result.fehler if d.seat == seat)
        console.print(
            f"seat {seat}: {count} decisions, expected loss {result.total_loss(seat):.2f}, "
            f"{errors} Fehler (loss > {result.settings.threshold:g})"
        )


def analyse_command(
    file: Annotated[str, typer.Argument(help="A game record (JSON), or - for standard input.")],
    seats: Annotated[
        str | None,
        typer.Option("--seats", help="Seats to analyse, e.g. 0,2 (default: every seat)."),
    ] = None,
    seconds: Annotated[
        float,
        typer.Option("--seconds-per-decision", help="Search time for each decision."),
    ] = DEFAULT_SECONDS,
    worlds: Annotated[
        int | None,
        typer.Option(
            "--worlds",
            help="Sample exactly this many worlds per decision (the same output every run).",
        ),
    ] = None,
    threshold: Annotated[
        float,
        typer.Option("--threshold", help="A loss above this many points is a Fehler."),
    ] = DEFAULT_THRESHOLD,
    as_json: Annotated[
        bool, typer.Option("--json", help='Print {"decisions": [...]} as JSON.')
    ] = False,
) -> None:
    """Value every decision of a record with the search bot and name the Fehler.

    For each decision of the seats: every legal choice's expected score by the search bot,
    what the choice made lost against the best, and the Fehler."""
    record = read_object(file, "record")
    wanted = parse_seats(seats) if seats is not None else None
    try:
        settings = AnalysisSettings(seconds=seconds, worlds=worlds, threshold=threshold)
    except StichwerkError as exc:
        fail(str(exc))
    err = Console(stderr=True, highlight=False)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        # The record is checked whole before the first search starts (a bad one fails fast).
        decision_points(record, wanted)
        with Progress(*columns, console=err, transient=True) as progress:
            task = progress.add_task("analysing", total=None)
            result = analyse(
                record,
                wanted,
                settings,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
    except StichwerkError as exc:
        fail(str(exc))
    if as_json:
        print_json(result.to_json())
    else:
        _print_table(Console(highlight=False), result)
