"""The ``stichwerk`` command: replay and score records, play in the terminal.

Each game's terminal play lives in its own module (``play_cego``, ``play_doppelkopf``) and is
registered on the ``play`` sub-command here.
"""

from typing import Annotated

import typer

from stichwerk.cli.analyse import analyse_command
from stichwerk.cli.arena import arena
from stichwerk.cli.play_cego import play_cego
from stichwerk.cli.play_doppelkopf import play_doppelkopf
from stichwerk.cli.replay import replay_command, score_command
from stichwerk.cli.sheet import sheet_command
from stichwerk.cli.simulate import simulate
from stichwerk.cli.tournament import tournament_app

app = typer.Typer(
    name="stichwerk",
    help="Cego and Doppelkopf: exact rules, bots, score sheets and tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(
    help="Play a game in the terminal against computer seats.", no_args_is_help=True
)
app.add_typer(play_app, name="play")
play_app.command("cego")(play_cego)
play_app.command("doppelkopf")(play_doppelkopf)
app.command()(arena)
app.command("analyse")(analyse_command)
app.command()(simulate)
app.add_typer(tournament_app, name="tournament")


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="A game record (JSON), or - for standard input.")],
) -> None:
    """Check every action of a record: print the result, or whose turn it is."""
    replay_command(file)


@app.command()
def score(
    file: Annotated[str, typer.Argument(help="A deal summary (JSON), or - for standard input.")],
) -> None:
    """Score a deal from what a score sheet knows of it (no cards needed)."""
    score_command(file)


@app.command()
def sheet(
    file: Annotated[
        str, typer.Argument(help="A list in JSON lines (settings, then deal summaries), or -.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """Print the running list of a score sheet: rows, totals, Pflicht-Soli, checks."""
    sheet_command(file, as_json)


def main() -> None:
    """Entry point of the ``stichwerk`` script."""
    app()
