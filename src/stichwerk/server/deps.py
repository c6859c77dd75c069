"""What a route may ask for, as FastAPI dependencies: the services, the settings, the stores
and hubs, the session's user.

``app.py`` builds one :class:`Services` and keeps it on ``app.state.services``; nothing else
reads ``app.state``. A route names what it needs in its signature (``svc: ServicesDep``,
``user: CurrentUser``), so a router imports this module and the services' own modules, never
``app``. Looking up the user never refuses: a route that needs someone signed in calls
:func:`signed_in` itself, after FastAPI has checked the request's parameters and body, so a
malformed request is answered 422 before 401, as it always was.
"""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from stichwerk.server.analysis import AnalysisJobs
from stichwerk.server.bots import BotRunner
from stichwerk.server.botsockets import BotSockets
from stichwerk.server.config import Settings
from stichwerk.server.events import DealEvents
from stichwerk.server.hub import Hub
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.ratings import RatingService
from stichwerk.server.sessions import SessionBook
from stichwerk.server.sheets import SheetHub
from stichwerk.server.tournaments import TournamentHub
from stichwerk.storage.db import Database
from stichwerk.storage.eventlog import EventWriter
from stichwerk.storage.repo import Repo, UserInfo


@dataclass
class Services:
    """Everything the routes share, built once by ``create_app``; each service got its
    collaborators in its constructor."""

    settings: Settings
    db: Database
    repo: Repo
    writer: EventWriter
    bots: BotRunner
    analyses: AnalysisJobs
    hub: Hub
    """The live tables (their actors)."""
    login_limiter: KeyedLimiter
    write_limiter: KeyedLimiter
    connect_limiter: KeyedLimiter
    sessions: SessionBook
    templates: Jinja2Templates
    ratings: RatingService
    botsockets: BotSockets
    sheets: SheetHub
    tournaments: TournamentHub
    deal_events: DealEvents


def get_services(conn: HTTPConnection) -> Services:
    """The app's services (a request's or a websocket's)."""
    svc: Services = conn.app.state.services
    return svc


ServicesDep = Annotated[Services, Depends(get_services)]


def get_settings(svc: ServicesDep) -> Settings:
    return svc.settings


def get_repo(svc: ServicesDep) -> Repo:
    return svc.repo


def get_sheets(svc: ServicesDep) -> SheetHub:
    return svc.sheets


def get_tournaments(svc: ServicesDep) -> TournamentHub:
    return svc.tournaments


def get_ratings(svc: ServicesDep) -> RatingService:
    return svc.ratings


def get_botsockets(svc: ServicesDep) -> BotSockets:
    return svc.botsockets


SettingsDep = Annotated[Settings, Depends(get_settings)]
RepoDep = Annotated[Repo, Depends(get_repo)]
SheetsDep = Annotated[SheetHub, Depends(get_sheets)]
TournamentsDep = Annotated[TournamentHub, Depends(get_tournaments)]
RatingsDep = Annotated[RatingService, Depends(get_ratings)]
BotSocketsDep = Annotated[BotSockets, Depends(get_botsockets)]


async def current_user(conn: HTTPConnection, svc: ServicesDep) -> UserInfo | None:
    """The user of the session cookie, if its session is alive on the server."""
    found = await svc.sessions.find(conn)
    return None if found is None else found[0]


CurrentUser = Annotated[UserInfo | None, Depends(current_user)]
"""The session's user, or ``None`` (never refuses)."""


def signed_in(user: UserInfo | None) -> UserInfo:
    """The session's user, or 401."""
    if user is None:
        raise HTTPException(401, "log in or play as a guest first")
    return user


async def signed_in_or_bot(conn: HTTPConnection, svc: Services, user: UserInfo | None) -> UserInfo:
    """The bot account of an ``Authorization: Bearer`` token (the endpoints a bot hosted
    elsewhere may call: taking a seat with an invite), else the session's user; else 401."""
    if conn.headers.get("authorization"):
        found = await svc.botsockets.bot_of(conn.headers)
        if found is None:
            raise HTTPException(401, "this bot token is not valid (revoked or replaced?)")
        return found[0]
    return signed_in(user)


def public_origin(conn: HTTPConnection, settings: SettingsDep) -> str:
    """The origin links and QR codes are made of: the public address the server was started
    with, else (a server made in code, the tests) the address the request came in on."""
    return settings.public_url or str(conn.base_url).rstrip("/")


PublicOrigin = Annotated[str, Depends(public_origin)]
"""The origin of links and QR codes, as a route's parameter."""
