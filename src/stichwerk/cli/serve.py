"""``stichwerk serve``: the web app, as ``python -m stichwerk.server`` starts it."""

import os
from typing import Annotated

import typer


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: every interface, for phones).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            help="Database URL (default: STICHWERK_DATABASE_URL, else var/stichwerk.db).",
            metavar="URL",
        ),
    ] = None,
) -> None:
    """Start the web app (what make run starts)."""
    from stichwerk.server.__main__ import main  # the server's imports, only for this command

    if database is not None:
        os.environ["STICHWERK_DATABASE_URL"] = database
    main(["--host", host, "--port", str(port)])
