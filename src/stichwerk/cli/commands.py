"""``stichwerk replay``, ``score`` and ``sheet``: the record and score-sheet commands.

Each imports the engines only when it runs (``stichwerk.cli.main`` loads this module only for
these commands).
"""

from typing import Annotated

import typer

from stichwerk.cli.replay import replay_command, score_command
from stichwerk.cli.sheet import sheet_command


def replay(
    file: Annotated[str, typer.Argument(help="A game record (JSON), or - for standard input.")],
) -> None:
    """Check every action of a record: print the result, or whose turn it is."""
    replay_command(file)


def score(
    file: Annotated[str, typer.Argument(help="A deal summary (JSON), or - for standard input.")],
) -> None:
    """Score a deal from what a score sheet knows of it (no cards needed)."""
    score_command(file)


def sheet(
    file: Annotated[
        str, typer.Argument(help="A list in JSON lines (settings, then deal summaries), or -.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """Print the running list of a score sheet: rows, totals, Pflicht-Soli, checks."""
    sheet_command(file, as_json)
