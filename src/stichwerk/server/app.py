"""The FastAPI application, assembled: the services, the middleware, the routers, one lifespan.

``create_app`` opens (and migrates) the database, so the session key stored there is known
before the first request, builds every service with its collaborators (``deps.Services``) and
includes every router of ``server/routers/``; the lifespan starts the services that run on
their own (the table hub recovers every table that was playing, the tournaments' hub its
tournaments) and stops every one. What runs before a handler lives in its own module: ``gate``
(origin, rate and body limits, security headers), ``sessions`` (revocable logins), ``access``
(who may see a table or deal, and the ids' shapes), ``jsonsafe`` (strict JSON in and out),
``errors`` (every error as JSON). Nothing here handles a request.
"""

import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.sessions import SessionMiddleware

from stichwerk.analysis import AnalysisSettings
from stichwerk.bots.warm import start_background
from stichwerk.server import errors
from stichwerk.server.analysis import AnalysisJobs
from stichwerk.server.bots import BotRunner
from stichwerk.server.botsockets import BotSockets
from stichwerk.server.config import Settings
from stichwerk.server.deps import Services
from stichwerk.server.events import DealEvents
from stichwerk.server.gate import Gate
from stichwerk.server.hub import Hub
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.ratings import RatingService
from stichwerk.server.render import dated
from stichwerk.server.routers import (
    accounts,
    bots,
    pages,
    ratings,
    sheets,
    tables,
    tournaments,
    websockets,
)
from stichwerk.server.sessions import SESSION_DAYS, SessionBook
from stichwerk.server.sheets import make_hub
from stichwerk.server.table import ActorContext
from stichwerk.server.tournaments import TournamentHub
from stichwerk.storage.botaccounts import BotAccounts
from stichwerk.storage.db import Database
from stichwerk.storage.eventlog import EventWriter
from stichwerk.storage.ratings import RatingStore
from stichwerk.storage.repo import Repo
from stichwerk.storage.tournaments import TournamentStore
from stichwerk.web import STATIC, TEMPLATES

log = logging.getLogger("stichwerk.app")


def routers(templates: Jinja2Templates) -> list[APIRouter]:
    """Every router the app includes, in order (the published OpenAPI schema is theirs)."""
    return [
        accounts.router(),
        tables.router(),
        ratings.router(),
        bots.router(),
        pages.address_router(),
        pages.router(),
        sheets.router(templates),
        tournaments.router(templates),
        websockets.router(),
    ]


def build_services(settings: Settings) -> Services:
    """Every service, each given its collaborators (the database is migrated first)."""
    db = Database(settings.database_url)
    db.migrate()
    repo = Repo(db)
    writer = EventWriter(repo)
    runner = BotRunner(settings.bot_workers, settings.external_bots)
    rating = RatingService(RatingStore(db))
    deal_events = DealEvents()
    deal_events.subscribe(lambda _event: rating.ring())
    hub = Hub(
        ActorContext(
            repo,
            writer,
            runner,
            settings.bot_delay,
            on_idle=lambda _id: None,
            deal_events=deal_events,
            bot_time_limit=settings.bot_time_limit,
            deal_seed=settings.deal_seed,
        ),
        repo,
        idle_release=settings.idle_release,
    )
    sheet_hub = make_hub(db)
    return Services(
        settings=settings,
        db=db,
        repo=repo,
        writer=writer,
        bots=runner,
        analyses=AnalysisJobs(
            settings.analysis_workers,
            AnalysisSettings(
                seconds=settings.analysis_seconds,
                worlds=settings.analysis_worlds,
                threshold=settings.analysis_threshold,
            ),
        ),
        hub=hub,
        login_limiter=KeyedLimiter(settings.login_rate, 10),
        write_limiter=KeyedLimiter(settings.write_rate, 3 * settings.write_rate),
        connect_limiter=KeyedLimiter(settings.ws_connect_rate, 12 * settings.ws_connect_rate),
        sessions=SessionBook(repo),
        templates=dated(Jinja2Templates(directory=str(TEMPLATES))),
        ratings=rating,
        botsockets=BotSockets(BotAccounts(db), settings.bot_connect_rate),
        sheets=sheet_hub,
        tournaments=TournamentHub(TournamentStore(db), sheet_hub, repo, hub, deal_events),
        deal_events=deal_events,
    )


def lifespan(svc: Services) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """Start what runs on its own, in order, and stop everything in the reverse order."""

    @contextlib.asynccontextmanager
    async def running(_app: FastAPI) -> AsyncIterator[None]:
        # The bots' numba kernels compile in a process of their own while the server answers
        # (the bots search in Python until then); with bots in threads (tests) nothing starts.
        warming = start_background() if svc.settings.bot_workers > 0 else None
        recovered = await svc.hub.recover()
        if recovered:
            log.info("recovered %d table(s) from the event log", recovered)
        svc.tournaments.start()
        try:
            yield
        finally:
            await svc.tournaments.close()
            await svc.hub.close()
            svc.sheets.close()
            svc.writer.close()
            svc.analyses.close()
            svc.bots.close()
            svc.ratings.close()
            svc.db.dispose()
            if warming is not None and warming.is_alive():
                warming.terminate()

    return running


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings`` (default: from the environment)."""
    settings = settings or Settings.from_env()
    svc = build_services(settings)
    app = FastAPI(title="Stichwerk", lifespan=lifespan(svc), docs_url=None, redoc_url=None)
    app.state.services = svc
    app.state.sheets = svc.sheets  # the tests' and tools' handle on the sheets (deps: Services)
    app.add_middleware(
        SessionMiddleware,
        secret_key=svc.repo.secret(),
        session_cookie="stichwerk",
        max_age=SESSION_DAYS * 86400,
        same_site="lax",
        https_only=settings.cookie_secure,
    )
    # Added last, so it runs first: nothing has read the body when it refuses a request.
    app.add_middleware(
        Gate,
        settings=settings,
        login_limiter=svc.login_limiter,
        write_limiter=svc.write_limiter,
        connect_limiter=svc.connect_limiter,
    )
    errors.install(app)
    for router in routers(svc.templates):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
