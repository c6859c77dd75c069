"""The HTML pages of the lobby, a table, a replay and the leaderboards; the language switch;
``/healthz``; ``GET /api/address`` (the public address for the pages' share links).

The pages show nothing of a table or deal: their scripts ask the API and the websocket, which
check who is asking. The ids in a page's path are only checked for their shape here.
"""

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import Field

from stichwerk.server.access import DealId, TableId
from stichwerk.server.deps import CurrentUser, PublicOrigin, ServicesDep
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.server.public import is_loopback
from stichwerk.server.render import render
from stichwerk.web import LANGUAGES


def local_path(target: str) -> bool:
    r"""A path on this site, not another one (``//evil`` and ``/\\evil`` are other sites to a
    browser).

    >>> local_path("/t/abc?x=1"), local_path("//evil.example"), local_path("/\\evil")
    (True, False, False)
    """
    return (
        target.startswith("/")
        and not target.startswith(("//", "/\\"))
        and all(c.isprintable() and c != "\\" for c in target)
    )


def router() -> APIRouter:
    """The HTML pages; everything dynamic comes from the API and the websocket."""
    pages = APIRouter(route_class=StrictJSONRoute)

    @pages.get("/", response_class=HTMLResponse)
    async def lobby(request: Request, svc: ServicesDep, user: CurrentUser) -> HTMLResponse:
        return render(svc.templates, request, "lobby.html", user)

    @pages.get("/t/{table_id}", response_class=HTMLResponse)
    async def table(
        request: Request, table_id: TableId, svc: ServicesDep, user: CurrentUser
    ) -> HTMLResponse:
        return render(svc.templates, request, "table.html", user, table_id=table_id)

    @pages.get("/ratings", response_class=HTMLResponse)
    async def leaderboards(request: Request, svc: ServicesDep, user: CurrentUser) -> HTMLResponse:
        return render(svc.templates, request, "ratings.html", user)

    @pages.get("/d/{deal_id}", response_class=HTMLResponse)
    async def replay(
        request: Request, deal_id: DealId, svc: ServicesDep, user: CurrentUser
    ) -> HTMLResponse:
        return render(svc.templates, request, "replay.html", user, deal_id=deal_id)

    @pages.get("/lang/{code}")
    async def language(
        code: Annotated[str, Field(max_length=8)],
        next: Annotated[str, Query(max_length=300)] = "/",
    ) -> RedirectResponse:
        target = next if local_path(next) else "/"
        response = RedirectResponse(target, status_code=303)
        if code in LANGUAGES:
            response.set_cookie("lang", code, max_age=365 * 86400, samesite="lax")
        return response

    @pages.get("/healthz")
    async def health(svc: ServicesDep) -> dict[str, Any]:
        return {"ok": True, "tables": svc.hub.live}

    return pages


def address_router() -> APIRouter:
    """``GET /api/address``: the public address and whether this page was opened on a
    loopback one (``loopback``), and whether phones reach the public one (``reachable``)."""
    api = APIRouter()

    @api.get("/api/address")
    async def address(request: Request, public: PublicOrigin) -> dict[str, object]:
        here = request.url.hostname or ""
        return {
            "public": public,
            "loopback": is_loopback(here),
            "reachable": not is_loopback(urlsplit(public).hostname or ""),
        }

    return api
