"""What every command shares: reading inputs and turning errors into one line and exit status 2."""

import json
import os
import sys
from collections.abc import Iterable, Mapping
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


# -- the terminal game's words -------------------------------------------------------------------

LANGUAGES = ("en", "de")


def pick_language(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` if given, else German when the environment's locale is German, else English.

    >>> pick_language(None, {"LANG": "de_DE.UTF-8"}), pick_language("en", {"LANG": "de_DE"})
    ('de', 'en')
    >>> pick_language(None, {"LANG": "C.UTF-8"})
    'en'
    """
    if option is not None:
        if option not in LANGUAGES:
            fail(f"--lang must be one of {', '.join(LANGUAGES)}, not {option!r}")
        return option
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


COMMON_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "you": "You",
        "seat": "Seat {n}",
        "and": "and",
        "deal_you": "Deal {n} — you deal",
        "deal_other": "Deal {n} — {name} deals",
        "sit_out": "You deal and sit out this deal.",
        "hand": "Your hand: ",
        "on_table": "On the table: ",
        "trick": "Trick {n}: ",
        "choose": "Type a number from the list, or the action itself; q quits.",
        "many": "{n} choices, e.g. {example}: type the action and its cards.",
        "not_possible": "Not possible now: {text}. Choose a number from the list.",
        "goodbye": "Goodbye.",
        "sheet": "Score sheet",
        "total": "Total",
    },
    "de": {
        "you": "Du",
        "seat": "Platz {n}",
        "and": "und",
        "deal_you": "Spiel {n} — du gibst",
        "deal_other": "Spiel {n} — {name} gibt",
        "sit_out": "Du gibst und setzt dieses Spiel aus.",
        "hand": "Deine Karten: ",
        "on_table": "Auf dem Tisch: ",
        "trick": "Stich {n}: ",
        "choose": "Tippe eine Nummer aus der Liste oder die Aktion selbst; q beendet.",
        "many": "{n} Möglichkeiten, z. B. {example}: tippe die Aktion und ihre Karten.",
        "not_possible": "Jetzt nicht möglich: {text}. Wähle eine Nummer aus der Liste.",
        "goodbye": "Auf Wiedersehen.",
        "sheet": "Spielliste",
        "total": "Summe",
    },
}
"""What both terminal games say, in each language (each game adds its own words)."""


class Words:
    """The terminal game's texts in one language: ``words("key", n=3)``."""

    def __init__(self, lang: str, own: Mapping[str, Mapping[str, str]]) -> None:
        self.lang = lang
        self.table = {**COMMON_WORDS[lang], **own[lang]}

    def __call__(self, key: str, **fields: Any) -> str:
        return self.table[key].format(**fields)

    def get(self, key: str, default: str) -> str:
        """The text at ``key``, or ``default`` (a word the texts do not gloss)."""
        return self.table.get(key, default)

    def seat(self, seat: int, me: int) -> str:
        """ "You" for the person's seat, "Seat 2" for the others."""
        return self("you") if seat == me else self("seat", n=seat)

    def seats(self, seats: Iterable[int], me: int) -> str:
        """Several seats as a sentence says them: "You and Seat 1", "Seat 1, Seat 2 and Seat 3"."""
        names = [self.seat(s, me) for s in seats]
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + f" {self('and')} " + names[-1]
