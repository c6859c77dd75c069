"""``stichwerk tournament ...``: tournaments from the command line.

``plan`` draws a Vorrunde without touching any database (for tools, tests and a director who
wants a plan on paper); the commands on a tournament kept in the database are added to the same
sub-app.
"""

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from stichwerk.cli.common import fail, print_json
from stichwerk.core.errors import StichwerkError
from stichwerk.tournament.bounds import lower_bound
from stichwerk.tournament.draw import Plan, draw_vorrunde, seats_at
from stichwerk.tournament.formats import TournamentFormat, get_format

tournament_app = typer.Typer(
    help="Tournaments: the draw (Spielplan), standings and ranking lists.",
    no_args_is_help=True,
)


@tournament_app.command("plan")
def plan_command(
    format_name: Annotated[
        str, typer.Option("--format", help="Tournament format: wielandstrasse or swm.")
    ] = "wielandstrasse",
    players: Annotated[int, typer.Option(help="Number of players (8 to 200).")] = 0,
    seed: Annotated[str, typer.Option(help="Seed of the draw (the same seed, the same plan).")] = (
        "0"
    ),
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print {"rounds": [[[p, ...], ...], ...]}, players numbered 0..N-1.',
        ),
    ] = False,
) -> None:
    """Draw the Vorrunde's seating plan for a number of players, without a database."""
    if players <= 0:
        fail("say how many players to seat: --players N")
    try:
        fmt = get_format(format_name)
        plan = draw_vorrunde(fmt, players, seed)
    except StichwerkError as exc:
        fail(str(exc))
    if json_out:
        print_json(plan.to_json())
        return
    show_plan(Console(highlight=False), fmt, plan, players, seed)


def show_plan(console: Console, fmt: TournamentFormat, plan: Plan, players: int, seed: str) -> None:
    """The plan by table and by player, numbered 1..N as on a registration list."""
    larger = tuple(s for s in fmt.table_sizes[1:])
    stage = "Vorrunde of " if fmt.final_round else ""
    console.print(
        f"[bold]{fmt.name}[/]: {stage}{len(plan.rounds)} rounds for {players} players (seed {seed})"
    )
    for r in plan.rounds:
        table = Table(title=f"Round {r.number}", title_justify="left")
        table.add_column("table", justify="right")
        table.add_column("games", justify="right")
        table.add_column("seats, the first dealing first")
        for t, seats in enumerate(r.tables, start=1):
            games = fmt.games_at(len(seats))
            note = " (the dealer sits out)" if fmt.sitting_dealer(len(seats)) else ""
            table.add_row(str(t), str(games), "  ".join(str(p + 1) for p in seats) + note)
        console.print(table)
    by_player = Table(title="By player", title_justify="left")
    by_player.add_column("player", justify="right")
    for r in plan.rounds:
        by_player.add_column(f"round {r.number}", justify="right")
    tables = [{p: t for t, seats in enumerate(r.tables, start=1) for p in seats}
              for r in plan.rounds]  # fmt: skip
    sizes = [{p: len(seats) for seats in r.tables for p in seats} for r in plan.rounds]
    for p in range(players):
        cells = [
            f"{tables[i][p]}{'*' if sizes[i][p] in larger else ''}" for i in range(len(plan.rounds))
        ]
        by_player.add_row(str(p + 1), *cells)
    console.print(by_player)
    mix = fmt.table_mix(players)
    bound = lower_bound([mix] * fmt.rounds)
    console.print(
        f"Repeated pairs: {plan.repeats()} (no draw can have fewer than {bound})."
        + (f" * a {'/'.join(map(str, larger))}-table." if larger else "")
    )
    if larger and any(s in larger for s in mix):
        at_larger = seats_at(plan.rounds, larger)
        counts = [at_larger.get(p, 0) for p in range(players)]
        console.print(
            f"Seats at {'/'.join(map(str, larger))}-tables per player: "
            f"{min(counts)} to {max(counts)}."
        )
    console.print("Players are numbered 1 to N in the order of registration.")
