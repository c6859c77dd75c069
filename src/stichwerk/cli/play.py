"""``stichwerk play``: a game in the terminal against computer seats, one module per game."""

import typer

from stichwerk.cli.play_cego import play_cego
from stichwerk.cli.play_doppelkopf import play_doppelkopf

play_app = typer.Typer(
    rich_markup_mode=None,
    help="Play a game in the terminal against computer seats.",
    no_args_is_help=True,
)
play_app.command("cego")(play_cego)
play_app.command("doppelkopf")(play_doppelkopf)
