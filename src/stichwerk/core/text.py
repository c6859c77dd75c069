"""Free text from outside made safe to keep and to hand out again.

Every text a visitor types (a name, a title, a place) is kept as one line of printable
characters: no newlines, no NUL, no bidi overrides that turn "Anna" into something else on
screen. Every cell a CSV export writes is safe to open in a spreadsheet (OWASP's advice on
formula injection), while numbers stay numbers.
"""

from __future__ import annotations

from stichwerk.core.errors import StichwerkError


def one_line(raw: str) -> str:
    """``raw`` with every run of white space (newlines included) folded to one space.

    >>> one_line("  Anna \\n  Maier ")
    'Anna Maier'
    """
    return " ".join(raw.split())


def clean_line(raw: object, what: str, limit: int, *, required: bool = False) -> str:
    """A free text from outside as one clean line of at most ``limit`` characters.

    White space (newlines included) folds to single spaces; a text still holding a control
    or format character (``str.isprintable`` refuses NUL, the bidi overrides and isolates
    U+202A..U+202E and U+2066..U+2069, zero-width characters), or too long, is refused with one
    line naming ``what``.

    >>> clean_line("  Freitag \\n Runde ", "the title", 40)
    'Freitag Runde'
    >>> clean_line("a\\u202eb", "the title", 40)
    Traceback (most recent call last):
    ...
    stichwerk.core.errors.StichwerkError: the title may hold only printable characters
    """
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise StichwerkError(f"{what} must be text")
    text = one_line(raw)
    if required and not text:
        raise StichwerkError(f"{what} may not be empty")
    if len(text) > limit:
        raise StichwerkError(f"{what} may be at most {limit} characters long")
    if not text.isprintable():
        raise StichwerkError(f"{what} may hold only printable characters")
    return text


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, CSV injection)."""


def csv_cell(value: object) -> object:
    """A value for a CSV export that no spreadsheet runs as a formula.

    A text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
    apostrophe (OWASP, CSV injection), unless it is a plain number such as ``-15`` or ``+3``,
    which stays as it is so the column still sums. Numbers and ``None`` pass unchanged.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-15"), csv_cell(-15), csv_cell("@me"), csv_cell("Anna")
    ("'=HYPERLINK(1)", '-15', -15, "'@me", 'Anna')
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_START):
        return value
    if _is_number(value):
        return value
    return "'" + value


def _is_number(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    if not body or body.count(".") + body.count(",") > 1:
        return False
    return body.replace(".", "", 1).replace(",", "", 1).isdigit() and body.isascii()


def csv_row(values: list[object] | tuple[object, ...]) -> list[object]:
    """:func:`csv_cell` over a row."""
    return [csv_cell(value) for value in values]
