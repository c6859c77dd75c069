"""The errors every layer raises.

All of them subclass :class:`ValueError` (as python-chess does), carry a one-line human message and
are safe to show to a user: the CLI prints them as one line, the server as an error frame.
"""


class StichwerkError(ValueError):
    """Base class: a one-line, user-facing message."""


class IllegalAction(StichwerkError):
    """An action the rules refuse. The message names the rule it breaks.

    >>> str(IllegalAction("seat 2 must follow hearts: holds H3"))
    'seat 2 must follow hearts: holds H3'
    """


class RecordError(StichwerkError):
    """A malformed record, deal summary or request (wrong shape, unknown card, bad count)."""


class CardError(RecordError):
    """An unknown or duplicated card code."""


class UnknownDealKind(StichwerkError):
    """A finished deal of a game or contract that a consumer must understand and does not:
    the ratings asking an engine for the sides of a contract it does not list. Rating it as
    some other kind would be wrong without a word, so the caller stops with this line."""


def one_line(text: str) -> str:
    """``text`` fit for a one-line message: a newline or other control character that came from
    the input (an action named "\\n" in a record) is shown escaped, as Python writes it.

    >>> one_line("seat 0, \\n")
    'seat 0, \\\\n'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
