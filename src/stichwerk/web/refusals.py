"""An API refusal's stable code and params, read out of its one-line message.

The table is ``static/i18n/refusals.json``, read by the server (here) and by the pages
(``words.js``: a score sheet's preview on the phone has no server to ask), so a refusal has one
code wherever it was made. The engines keep raising plain one-line errors; the code names the
kind of refusal and the params its parts (the field, the bounds, the deal), so a page can say it
in the reader's language, naming the field the person sees.
"""

import json
import re
from dataclasses import dataclass
from functools import cache

from stichwerk.web import STATIC


@dataclass(frozen=True)
class Pattern:
    code: str
    regex: re.Pattern[str]
    params: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    prefixes: tuple[tuple[re.Pattern[str], str], ...]
    patterns: tuple[Pattern, ...]
    status: dict[int, str]


@cache
def table() -> Table:
    """The refusals' table, read once."""
    with (STATIC / "i18n" / "refusals.json").open(encoding="utf-8") as handle:
        raw = json.load(handle)
    return Table(
        prefixes=tuple((re.compile(p["pattern"]), p["param"]) for p in raw["prefixes"]),
        patterns=tuple(
            Pattern(p["code"], re.compile(p["pattern"]), tuple(p["params"]))
            for p in raw["patterns"]
        ),
        status={int(k): v for k, v in raw["status"].items()},
    )


def refusal(message: str, status: int = 400) -> tuple[str, dict[str, str]]:
    """The code and params of a refusal's ``message``; a message no pattern reads gets its
    HTTP status' code (``not_found``, ``conflict``, ``invalid`` ...).

    >>> refusal("deal 4: 're_augen' must be from 0 to 240")
    ('range', {'deal': '4', 'field': 're_augen', 'lo': '0', 'hi': '240'})
    >>> refusal("round 1 is not complete: tables 1, 2 have no results yet")
    ('round_incomplete', {'round': '1', 'tables': '1, 2'})
    >>> refusal("no such score sheet (check the link)", 404)
    ('not_found', {})
    """
    known = table()
    params: dict[str, str] = {}
    rest = message
    for regex, name in known.prefixes:
        found = regex.match(rest)
        if found:
            params[name] = found.group(1)
            rest = found.group(2)
            break
    for pattern in known.patterns:
        found = pattern.regex.match(rest)
        if found:
            values = found.groups()
            params.update({k: v for k, v in zip(pattern.params, values, strict=False) if v})
            return pattern.code, params
    return known.status.get(status, "invalid" if status < 500 else "server"), {}
