"""A server-rendered page in the visitor's language: the one context every template gets."""

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from stichwerk.storage.repo import UserInfo
from stichwerk.web import LANGUAGES, pick_language, texts
from stichwerk.web.dates import long_date


def render(
    templates: Jinja2Templates,
    request: Request,
    name: str,
    user: UserInfo | None,
    **context: Any,
) -> HTMLResponse:
    """The template ``name`` in the language of the visitor's cookie, else of their browser."""
    lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
    return templates.TemplateResponse(
        request,
        name,
        {"lang": lang, "t": texts(lang), "user": user, "languages": LANGUAGES, **context},
    )


def dated(templates: Jinja2Templates) -> Jinja2Templates:
    """``templates`` with the ``long_date`` filter (``{{ info.date|long_date(lang) }}``: a date
    as the reader writes it, not ISO)."""
    templates.env.filters["long_date"] = long_date
    return templates
