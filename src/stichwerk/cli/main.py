"""The ``stichwerk`` command: every sub-command loaded only when it runs.

A command's module imports what it needs (the engines, the bots, the storage layer with
SQLAlchemy and Alembic, numba ...), which takes seconds; ``stichwerk --help`` and ``stichwerk
score`` should not wait for what they never use. So this module names each command, its
module and its one-line help (:data:`COMMANDS`), and :class:`LazyGroup` imports a command's
module the first time the command is asked for. ``tests/cli/test_main.py`` checks that each
line here is the command's own first docstring line and which modules ``--help`` imports.
"""

import importlib
from dataclasses import dataclass

import typer
from typer._click import Context, HelpFormatter
from typer._click.core import Command
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class Lazy:
    """A sub-command: where it lives and the line ``stichwerk --help`` shows for it."""

    module: str
    attr: str
    help: str


COMMANDS: dict[str, Lazy] = {
    "play": Lazy(
        "stichwerk.cli.play", "play_app", "Play a game in the terminal against computer seats."
    ),
    "serve": Lazy("stichwerk.cli.serve", "serve", "Start the web app (what make run starts)."),
    "replay": Lazy(
        "stichwerk.cli.commands",
        "replay",
        "Check every action of a record: print the result, or whose turn it is.",
    ),
    "score": Lazy(
        "stichwerk.cli.commands",
        "score",
        "Score a deal from what a score sheet knows of it (no cards needed).",
    ),
    "sheet": Lazy(
        "stichwerk.cli.commands",
        "sheet",
        "Print the running list of a score sheet: rows, totals, Pflicht-Soli, checks.",
    ),
    "analyse": Lazy(
        "stichwerk.cli.analyse",
        "analyse_command",
        "Value every decision of a record with the search bot and name the Fehler.",
    ),
    "arena": Lazy(
        "stichwerk.cli.arena",
        "arena",
        "Play bots against each other on duplicate deals and report who is better.",
    ),
    "simulate": Lazy(
        "stichwerk.cli.simulate",
        "simulate",
        "Play DEALS deals between bots; write one row per deal to a Parquet file (resumable).",
    ),
    "tournament": Lazy(
        "stichwerk.cli.tournament",
        "tournament_app",
        "Tournaments: the draw (Spielplan), standings and ranking lists.",
    ),
}


def load(name: str) -> Command:
    """The click command of ``name``, its module imported now."""
    lazy = COMMANDS[name]
    target = getattr(importlib.import_module(lazy.module), lazy.attr)
    if isinstance(target, typer.Typer):
        group = typer.main.get_command(target)
        group.name = name
        return group
    single = typer.Typer(
        add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None
    )
    single.command(name)(target)
    return typer.main.get_command(single)


class LazyGroup(TyperGroup):
    """A group whose sub-commands (:data:`COMMANDS`) are imported when first asked for; its
    own help lists them from their help lines without importing any."""

    listing = False

    def list_commands(self, ctx: Context) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in COMMANDS if n not in self.commands)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in COMMANDS:
            return found
        if self.listing:
            line = COMMANDS[cmd_name].help
            return TyperCommand(cmd_name, help=line, short_help=line)
        command = load(cmd_name)
        self.add_command(command, cmd_name)
        return command

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


app = typer.Typer(
    rich_markup_mode=None,
    name="stichwerk",
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def stichwerk() -> None:
    """Cego and Doppelkopf: exact rules, bots, score sheets and tournaments."""


def main() -> None:
    """Entry point of the ``stichwerk`` script."""
    app()
