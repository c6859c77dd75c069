"""``stichwerk arena``: bots against bots on duplicate deals, with a progress bar."""

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from stichwerk.arena import ArenaSpec, run_arena
from stichwerk.cli.common import fail
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game


def arena(
    game: Annotated[str, typer.Option(help="cego or doppelkopf.")] = "cego",
    profile: Annotated[str | None, typer.Option(help="Rule profile (default: the game's).")] = None,
    bots: Annotated[str, typer.Option(help="Comma-separated bots, e.g. search,heuristic.")] = (
        "heuristic,random"
    ),
    deals: Annotated[int, typer.Option(help="Deals to play (each in every rotation).")] = 200,
    players: Annotated[int, typer.Option(help="Seats at the table.")] = 4,
    seed: Annotated[str, typer.Option(help="Seed of the deals.")] = "arena",
    workers: Annotated[int | None, typer.Option(help="Processes (default: every core).")] = None,
    budget: Annotated[
        float | None, typer.Option(help="Seconds per decision for the search bot.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Where to write the records (JSON lines).")
    ] = None,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run on the Ray cluster at ADDRESS.")
    ] = None,
) -> None:
    """Play bots against each other on duplicate deals and report who is better."""
    try:
        module = get_game(game)
    except StichwerkError as exc:
        fail(str(exc))
    profile = profile or module.profiles[0]
    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    params = {"search": {"budget": budget}} if budget is not None else {}
    spec = ArenaSpec(game, profile, names, deals, players, seed, {}, params)
    out = out or Path("arena-out") / f"{game}-{profile}-{seed}.jsonl"
    console = Console(highlight=False)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console, transient=False) as progress:
            task = progress.add_task(f"{game} {profile}: {' vs '.join(names)}", total=deals)
            result = run_arena(
                spec,
                workers=workers,
                out=out,
                ray_address=ray,
                progress=lambda n: progress.advance(task, n),
            )
    except StichwerkError as exc:
        fail(str(exc))
    table = Table(title=f"{deals} duplicate deals, {len(spec.rotations())} rotations each")
    table.add_column("bot")
    table.add_column("mean per deal", justify="right")
    table.add_column("95% interval", justify="right")
    for s in result.stats:
        lo, hi = s.mean - s.half_width, s.mean + s.half_width
        table.add_row(s.name, f"{s.mean:+.2f}", f"[{lo:+.2f}, {hi:+.2f}]")
    console.print(table)
    times = sorted(result.decision_seconds)
    if times:
        median = times[len(times) // 2]
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        console.print(
            f"decisions: {len(times)}, median {median:.4f} s, 99th percentile {p99:.4f} s"
        )
    console.print(f"records: {out}")
