"""The browser side: Jinja templates, plain ES modules, CSS and the German/English texts.

No build step: the files here are served as they are. Cards are drawn as SVG by
``static/js/cards.js``; the table page talks to the server only over its websocket.
"""

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"


@cache
def texts(lang: str) -> dict[str, Any]:
    """The texts of ``lang`` (``de`` or ``en``), shared by templates and scripts."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    with (STATIC / "i18n" / f"{lang}.json").open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def pick_language(cookie: str | None, accept: str | None) -> str:
    """The cookie's choice, else the browser's first language we have, else German.

    >>> pick_language(None, "en-GB,en;q=0.9")
    'en'
    >>> pick_language("de", "en")
    'de'
    """
    if cookie is not None and cookie in LANGUAGES:
        return cookie
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE
