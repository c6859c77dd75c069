"""What every command shares: reading inputs and turning errors into one line and exit status 2."""

import json
import sys
from typing import Any, NoReturn

import typer

from stichwerk.core.errors import StichwerkError, one_line
from stichwerk.core.record import load_json_object

ERROR_EXIT = 2


def fail(message: str) -> NoReturn:
    """Print one line to standard error and exit with status 2."""
    typer.echo(f"stichwerk: {one_line(message)}", err=True)
    raise typer.Exit(ERROR_EXIT)


def read_text(path: str) -> str:
    """The text of ``path``, or of standard input for ``-``."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        fail(f"no such file: {path}")
    except IsADirectoryError:
        fail(f"{path} is a directory, not a file")
    except UnicodeDecodeError:
        fail(f"{path} is not UTF-8 text")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")


def read_object(path: str, what: str) -> dict[str, Any]:
    """The JSON object in ``path`` (one-line error otherwise)."""
    text = read_text(path)
    try:
        return load_json_object(text, what)
    except StichwerkError as exc:
        fail(str(exc))


def print_json(obj: Any) -> None:
    """Print ``obj`` as indented JSON on standard output."""
    typer.echo(json.dumps(obj, ensure_ascii=False, indent=2))
