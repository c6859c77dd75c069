"""``stichwerk simulate``: many deals between bots into a Parquet file, with a progress bar.

The research libraries (pyarrow) are imported only when the command runs, so the other commands
and the web app work without the ``research`` extra.
"""

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from stichwerk.cli.common import fail
from stichwerk.core.errors import StichwerkError

NEEDS_EXTRA = "stichwerk simulate needs the research extra: pip install 'stichwerk[research]'"


class DealsPerSecond(ProgressColumn):
    """The deals played per second by this run (deals found from a stopped run not counted)."""

    def __init__(self) -> None:
        super().__init__()
        self.played = 0

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = self.played / elapsed if elapsed > 0 and self.played else 0.0
        return Text(f"{rate:,.1f} deals/s", style="progress.data.speed")


def simulate(
    game: Annotated[str, typer.Option(help="cego or doppelkopf.")] = "cego",
    profile: Annotated[str | None, typer.Option(help="Rule profile (default: the game's).")] = None,
    players: Annotated[
        int | None, typer.Option(help="Seats at the table (default: the profile's).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Comma-separated bots taking the seats in turn.")
    ] = "heuristic,random",
    deals: Annotated[int, typer.Option(help="Deals to play.")] = 1000,
    out: Annotated[Path, typer.Option(help="The Parquet file to write.")] = Path(
        "simulate.parquet"
    ),
    seed: Annotated[str, typer.Option(help="Seed of the run: the same seed, the same deals.")] = (
        "simulate"
    ),
    workers: Annotated[int | None, typer.Option(help="Processes (default: every core).")] = None,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run on the Ray cluster at ADDRESS.")
    ] = None,
    chunk: Annotated[
        int, typer.Option(help="Deals per part file (what a stopped run keeps).")
    ] = 500,
    budget: Annotated[
        float | None, typer.Option(help="Seconds per decision for the search bot.")
    ] = None,
) -> None:
    """Play DEALS deals between bots; write one row per deal to a Parquet file (resumable)."""
    try:
        from stichwerk.research.simulate import SimSpec, check_out, check_spec, run_simulation
    except ModuleNotFoundError:
        fail(NEEDS_EXTRA)
    if workers is not None and ray is not None:
        fail("--workers and --ray exclude each other")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    params = {"search": {"budget": budget}} if budget is not None else {}
    try:
        spec = check_spec(
            SimSpec(game, profile or "", players or 0, names, deals, seed, chunk, {}, params)
        )
        check_out(spec, out)
    except StichwerkError as exc:
        fail(str(exc))
    console = Console(highlight=False, stderr=True)
    rate = DealsPerSecond()
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        rate,
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console, transient=False) as progress:
            task = progress.add_task(f"{game}: {', '.join(names)}", total=deals)
            first: list[int] = []

            def advance(done: int, total: int) -> None:
                if not first:
                    first.append(done)
                    progress.reset(task, total=total, completed=done)
                rate.played = done - first[0]
                progress.update(task, completed=done)

            result = run_simulation(spec, out, workers=workers, ray_address=ray, progress=advance)
    except StichwerkError as exc:
        fail(str(exc))
    except ModuleNotFoundError:
        fail(NEEDS_EXTRA)
    if result.played:
        console.print(
            f"{result.played} deals in {result.seconds:.1f} s ({result.rate:,.1f} deals/s)"
            + (f", {result.skipped} kept from an earlier run" if result.skipped else "")
        )
    else:
        console.print(f"{out} already holds this run ({deals} deals)")
    typer.echo(str(out))
