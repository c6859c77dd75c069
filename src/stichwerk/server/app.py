"""The FastAPI application: wiring, sessions, security middleware and the HTTP API and pages.

``create_app`` opens (and migrates) the database, so the session key stored there is known
before the first request; the lifespan then recovers every table that was playing. What runs
before a handler lives in its own module: ``gate`` (origin, rate and body limits, security
headers), ``sessions`` (revocable logins), ``access`` (who may see a table or deal, and the
ids' shapes), ``jsonsafe`` (strict JSON in and out), ``errors`` (every error as JSON).
"""

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from starlette.middleware.sessions import SessionMiddleware

from stichwerk.analysis import Settings as AnalysisSettings
from stichwerk.bots.warm import start_background
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.games import game_names, get_game
from stichwerk.server import auth, errors
from stichwerk.server.access import DealId, TableId, may_watch, visible_deal, visible_table
from stichwerk.server.analysis import AnalysisJobs
from stichwerk.server.bots import BotRunner
from stichwerk.server.botsockets import BotSockets, bot_socket
from stichwerk.server.botsockets import router as bots_router
from stichwerk.server.config import Settings
from stichwerk.server.gate import Gate, client_key
from stichwerk.server.hub import Hub
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.server.public import address_api
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.ratings import RatingService
from stichwerk.server.ratings import router as ratings_router
from stichwerk.server.series import TableSeries
from stichwerk.server.sessions import SESSION_DAYS, SessionBook
from stichwerk.server.sheets import install as install_sheets
from stichwerk.server.table import ActorContext, EditClosing
from stichwerk.server.tournaments import install as install_tournaments
from stichwerk.server.websocket import table_socket
from stichwerk.storage.botaccounts import BotAccounts
from stichwerk.storage.db import Database
from stichwerk.storage.eventlog import EventWriter
from stichwerk.storage.ratings import RatingStore
from stichwerk.storage.repo import (
    RUNNING,
    DealInfo,
    QuotaExceeded,
    Repo,
    SeatTaken,
    TableInfo,
    UserInfo,
)
from stichwerk.web import LANGUAGES, STATIC, TEMPLATES, pick_language, texts

log = logging.getLogger("stichwerk.app")

LOBBY_PAGE = 50
"""Tables per list of a lobby page unless the request asks for fewer or more ..."""
LOBBY_MAX_PAGE = 200
"""... but never more than this."""


@dataclass
class Services:
    """Everything a request handler needs, kept on ``app.state.services``."""

    settings: Settings
    db: Database
    repo: Repo
    writer: EventWriter
    bots: BotRunner
    analyses: AnalysisJobs
    hub: Hub
    login_limiter: KeyedLimiter
    write_limiter: KeyedLimiter
    connect_limiter: KeyedLimiter
    sessions: SessionBook
    templates: Jinja2Templates
    ratings: RatingService
    botsockets: BotSockets


def services(request: Request | WebSocket) -> Services:
    """The app's services (typed access to ``app.state``)."""
    svc: Services = request.app.state.services
    return svc


async def current_user(request: Request | WebSocket) -> UserInfo | None:
    """The user of the session cookie, if its session is alive on the server."""
    found = await services(request).sessions.find(request)
    return None if found is None else found[0]


async def require_user(request: Request) -> UserInfo:
    """The session's user, or 401."""
    user = await current_user(request)
    if user is None:
        raise HTTPException(401, "log in or play as a guest first")
    return user


async def require_user_or_bot(request: Request) -> UserInfo:
    """The session's user, or the bot account of an ``Authorization: Bearer`` token (the
    endpoints a bot hosted elsewhere may call: taking a seat with an invite); else 401."""
    if request.headers.get("authorization"):
        found = await services(request).botsockets.bot_of(request.headers)
        if found is None:
            raise HTTPException(401, "this bot token is not valid (revoked or replaced?)")
        return found[0]
    return await require_user(request)


# -- request bodies ---------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Body):
    username: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=256)]


class PasswordChange(_Body):
    old_password: Annotated[str, Field(max_length=256)]
    new_password: Annotated[str, Field(max_length=256)]


class Invite(_Body):
    invite: Annotated[str, Field(max_length=64)] | None = None


class SeatSpec(_Body):
    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(max_length=40)] | None = None
    """A bot seat's bot; for a person's seat, the bot that stands in while they are away."""
    account: Annotated[str, Field(max_length=64)] | None = None
    """A person's seat given to one of the creator's bot accounts (it plays over the bot
    websocket; ``bot`` stands in for it)."""


class NewTable(_Body):
    game: Annotated[str, Field(max_length=20)]
    profile: Annotated[str, Field(max_length=40)] | None = None
    options: Annotated[dict[Annotated[str, Field(max_length=40)], Any], Field(max_length=60)] = {}
    """Setting overrides; the engine checks each (a trial deal), the JSON reader refuses
    non-finite numbers."""
    seats: Annotated[list[SeatSpec], Field(min_length=3, max_length=5)]
    creator_seat: Annotated[int, Field(ge=0, le=4)] | None = 0
    series_length: Annotated[int, Field(ge=1, le=200)] = 24
    """Ordinary deals in the list."""
    closing_rounds: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=10)] = []
    """Closing rounds (Schlussrunden) after the ordinary deals, in order: each a deal type the
    game deals on purpose (Cego: ``drescher``, ``pflichtraeuber``), dealt once by every seat."""
    first_dealer: Annotated[int, Field(ge=0, le=4)] | None = None
    """The seat that deals first; ``None``: drawn by lot, as at a real table."""
    time_limit: Annotated[int, Field(ge=1, le=3600)] = 60
    public: bool = True


class ClosingRounds(_Body):
    closing_rounds: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=10)]
    """The closing rounds from now on: those begun stay first, the rest may change."""


class AnalysisRequest(_Body):
    seat: Annotated[int, Field(ge=0, le=4)] | None = None
    """The seat to analyse; a person seated at the table may only ask for their own."""


class JoinSeat(_Body):
    seat: Annotated[int, Field(ge=0, le=4)] | None = None
    invite: Annotated[str, Field(max_length=64)] | None = None


# -- the application --------------------------------------------------------------------------


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings`` (default: from the environment)."""
    settings = settings or Settings.from_env()
    db = Database(settings.database_url)
    db.migrate()
    repo = Repo(db)
    writer = EventWriter(repo)
    bots = BotRunner(settings.bot_workers, settings.external_bots)
    sessions = SessionBook(repo)
    ratings = RatingService(RatingStore(db))
    analyses = AnalysisJobs(
        settings.analysis_workers,
        AnalysisSettings(
            seconds=settings.analysis_seconds,
            worlds=settings.analysis_worlds,
            threshold=settings.analysis_threshold,
        ),
    )
    hub = Hub(
        ActorContext(
            repo,
            writer,
            bots,
            settings.bot_delay,
            on_idle=lambda _id: None,
            on_deal_finished=ratings.ring,
            bot_time_limit=settings.bot_time_limit,
            deal_seed=settings.deal_seed,
        ),
        repo,
        idle_release=settings.idle_release,
    )
    templates = Jinja2Templates(directory=str(TEMPLATES))
    svc = Services(
        settings=settings,
        db=db,
        repo=repo,
        writer=writer,
        bots=bots,
        analyses=analyses,
        hub=hub,
        login_limiter=KeyedLimiter(settings.login_rate, 10),
        write_limiter=KeyedLimiter(settings.write_rate, 3 * settings.write_rate),
        connect_limiter=KeyedLimiter(settings.ws_connect_rate, 12 * settings.ws_connect_rate),
        sessions=sessions,
        templates=templates,
        ratings=ratings,
        botsockets=BotSockets(BotAccounts(db), settings.bot_connect_rate),
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The bots' numba kernels compile in a process of their own while the server answers
        # (the bots search in Python until then); with bots in threads (tests) nothing starts.
        warming = start_background() if settings.bot_workers > 0 else None
        recovered = await hub.recover()
        if recovered:
            log.info("recovered %d table(s) from the event log", recovered)
        try:
            yield
        finally:
            await hub.close()
            sheets.close()
            writer.close()
            analyses.close()
            bots.close()
            ratings.close()
            db.dispose()
            if warming is not None and warming.is_alive():
                warming.terminate()

    app = FastAPI(
        title="Stichwerk",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.services = svc
    app.add_middleware(
        SessionMiddleware,
        secret_key=repo.secret(),
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
    app.include_router(api_router())
    app.include_router(ratings_router())
    app.include_router(bots_router())
    app.include_router(address_api())
    app.include_router(page_router())
    sheets = install_sheets(app, db, templates)
    install_tournaments(app, db, templates, sheets)
    app.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    app.add_api_websocket_route("/ws/bots/{table_id}", bot_socket)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


# -- JSON API ---------------------------------------------------------------------------------


def _user_json(user: UserInfo) -> dict[str, Any]:
    return {"id": user.id, "username": user.username, "guest": user.is_guest}


async def _login_session(request: Request, user: UserInfo) -> dict[str, Any]:
    await services(request).sessions.start(request, user)
    return {"user": _user_json(user)}


def _limit(request: Request) -> None:
    if not services(request).login_limiter.take(client_key(request.scope)):
        raise HTTPException(429, "too many attempts; wait a little")


def table_json(table: TableInfo, user: UserInfo | None) -> dict[str, Any]:
    """A table for the lobby; the invite link only for the people at it and its creator."""
    mine = user is not None and (table.created_by == user.id or table.seat_of(user.id) is not None)
    return {
        "id": table.id,
        "game": table.game,
        "profile": table.profile,
        "options": table.options,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.username}
            for s in table.seat_list
        ],
        "free_seats": table.free_seats,
        "series_length": table.series_length,
        "closing_rounds": list(table.closing_rounds),
        "first_dealer": table.first_dealer,
        "time_limit": table.time_limit,
        "public": table.public,
        "status": table.status,
        "invite": table.invite if mine else None,
        "your_seat": table.seat_of(user.id) if user is not None else None,
        "yours": user is not None and table.created_by == user.id,
        # The creator may stop a running table no other person plays at.
        "stoppable": user is not None
        and table.created_by == user.id
        and table.status in RUNNING
        and not table.others_seated(user.id),
    }


def _deal_row(deal: DealInfo) -> dict[str, Any]:
    return {
        "id": deal.public_id,
        "number": deal.number,
        "status": deal.status,
        "counts": deal.counts,
        "dealer": deal.record.get("dealer"),
        "deal_type": deal.record.get("deal_type"),
        "result": deal.result if deal.status == "finished" else None,
    }


@lru_cache(maxsize=256)
def _replay_steps(record_json: str) -> list[dict[str, Any]]:
    """Every position of a finished deal: the public view and every hand (all open now)."""
    record = json.loads(record_json)
    module = get_game(record["game"])
    state = module.deal_from_record({**record, "actions": []})

    def snapshot(action: dict[str, Any] | None) -> dict[str, Any]:
        view = state.view(None)
        hands = [state.view(s).get("hand") for s in range(state.seats)]
        return {"action": action, "view": view, "hands": hands}

    steps = [snapshot(None)]
    for raw in record["actions"]:
        state.apply(Action.from_json(raw))
        steps.append(snapshot(raw))
    return steps


def _check_closing_rounds(
    game: str, profile: str, options: dict[str, Any], seats: int, rounds: list[str]
) -> tuple[str, ...]:
    """The table's closing rounds, each a deal type the game has and the table's rules allow
    (a trial deal of that type asks the engine); else 400 with one line."""
    module = get_game(game)
    closing = tuple(rounds)
    if not closing:
        return closing
    if not module.deal_types:
        with_rounds = [g for g in game_names() if get_game(g).deal_types]
        raise HTTPException(
            400, f"{game} has no closing rounds (only {', '.join(with_rounds) or 'none'})"
        )
    for kind in closing:
        if kind not in module.deal_types:
            known = ", ".join(module.deal_types)
            raise HTTPException(400, f"unknown closing round {kind!r} (known: {known})")
    for kind in dict.fromkeys(closing):
        try:
            module.new_deal(
                profile=profile, options=options, players=seats, dealer=0, seed=0, deal_type=kind
            )
        except StichwerkError as exc:
            raise HTTPException(400, f"closing rounds: {exc}") from None
    return closing


def _check_bot_table_length(settings: Settings, ordinary: int, rounds: int, seats: int) -> None:
    """A table of bots only plays at most ``bot_table_deals`` deals, its closing rounds (a
    deal per seat each) included; else 400 with one line."""
    if ordinary + rounds * seats > settings.bot_table_deals:
        raise HTTPException(
            400, f"a table of bots only plays at most {settings.bot_table_deals} deals"
        )


def api_router() -> APIRouter:
    """``/api/...``: accounts, games, tables, deals."""
    router = APIRouter(prefix="/api", route_class=StrictJSONRoute)

    # Logins, registrations, guests and password changes are rate-limited per address by the
    # gate, before their bodies are read.

    @router.post("/register")
    async def register(request: Request, body: Credentials) -> dict[str, Any]:
        try:
            user = await auth.register(services(request).repo, body.username, body.password)
        except auth.AuthError as exc:
            raise HTTPException(400, str(exc)) from None
        return await _login_session(request, user)

    @router.post("/login")
    async def login(request: Request, body: Credentials) -> dict[str, Any]:
        try:
            user = await auth.login(services(request).repo, body.username, body.password)
        except auth.AuthError as exc:
            raise HTTPException(401, str(exc)) from None
        return await _login_session(request, user)

    @router.post("/guest")
    async def guest(request: Request) -> dict[str, Any]:
        try:
            user = await auth.guest(services(request).repo)
        except auth.AuthError as exc:
            raise HTTPException(503, str(exc)) from None
        return await _login_session(request, user)

    @router.post("/logout")
    async def logout(request: Request) -> dict[str, Any]:
        """This browser's session ends on the server (a copy of the cookie stops working)."""
        await services(request).sessions.end(request)
        return {"user": None}

    @router.post("/logout_everywhere")
    async def logout_everywhere(request: Request) -> dict[str, Any]:
        """Every session of the account ends, this one included, and their websockets close."""
        user = await require_user(request)
        svc = services(request)
        ended = await svc.sessions.end_all(user.id)
        request.session.clear()
        return {"user": None, "ended": ended}

    @router.post("/password")
    async def password(request: Request, body: PasswordChange) -> dict[str, Any]:
        """A new password ends every session of the account; this browser gets a new one."""
        user = await require_user(request)
        svc = services(request)
        try:
            await auth.change_password(svc.repo, user, body.old_password, body.new_password)
        except auth.AuthError as exc:
            raise HTTPException(400, str(exc)) from None
        ended = await svc.sessions.end_all(user.id)
        await svc.sessions.start(request, user)
        return {"user": _user_json(user), "ended": ended}

    @router.get("/me")
    async def me(request: Request) -> dict[str, Any]:
        user = await current_user(request)
        if user is None:
            return {"user": None}
        return {"user": _user_json(user)}

    @router.get("/games")
    async def games(request: Request) -> dict[str, Any]:
        out = []
        for name in game_names():
            module = get_game(name)
            out.append(
                {
                    "name": name,
                    "profiles": list(module.profiles),
                    "settings": {p: module.settings(p) for p in module.profiles},
                    # Each setting's meaning in every language of the UI.
                    "setting_docs": {lang: module.setting_docs(lang) for lang in LANGUAGES},
                    # Closing rounds a table may add; each needs the setting of its name on.
                    "deal_types": list(module.deal_types),
                }
            )
        return {"games": out, "bots": services(request).bots.names()}

    @router.post("/tables")
    async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
        user = await require_user(request)
        _limit(request)
        svc = services(request)
        module = get_game(body.game)
        profile = body.profile or module.profiles[0]
        if profile not in module.profiles:
            raise HTTPException(400, f"unknown profile {profile!r} for {body.game}")
        bots = svc.bots.names()
        stand_in = "heuristic" if "heuristic" in bots else bots[0]
        seats: list[tuple[str, str | None]] = []
        accounts: dict[int, int] = {}
        for index, spec in enumerate(body.seats):
            if spec.bot is not None and spec.bot not in bots:
                raise HTTPException(400, f"unknown bot {spec.bot!r} (known: {', '.join(bots)})")
            if spec.bot is not None and not svc.bots.plays(spec.bot, body.game):
                raise HTTPException(400, f"the bot {spec.bot!r} does not play {body.game}")
            if spec.account is not None:
                if spec.kind != "human" or index == body.creator_seat:
                    raise HTTPException(400, "a bot account takes a person's seat of its own")
                if user.is_guest:
                    raise HTTPException(403, "only an account with a password can have bots")
                mine = await asyncio.to_thread(svc.botsockets.accounts.owned, user.id, spec.account)
                if mine is None:
                    raise HTTPException(400, f"you have no bot called {spec.account!r}")
                if mine.id in accounts.values():
                    raise HTTPException(400, "a bot account takes one seat")
                accounts[index] = mine.id
            seats.append((spec.kind, spec.bot or stand_in))
        creator = body.creator_seat
        if creator is not None and (creator >= len(seats) or seats[creator][0] != "human"):
            raise HTTPException(400, "the creator's seat must be a person's seat")
        # A table no person sits at plays by itself on the server's bots: only an account may
        # start one, a few at a time and not too long (it can be stopped by its creator).
        unattended = all(s.kind == "bot" or s.account is not None for s in body.seats)
        if unattended:
            if user.is_guest:
                raise HTTPException(
                    403, "a table of bots only needs an account with a password, not a guest"
                )
            _check_bot_table_length(
                svc.settings, body.series_length, len(body.closing_rounds), len(body.seats)
            )
        if body.time_limit < svc.settings.min_time_limit:
            raise HTTPException(
                400, f"the time limit is at least {svc.settings.min_time_limit} seconds"
            )
        # A trial deal checks the seat count and every override the way the engine reads them.
        module.new_deal(profile=profile, options=body.options, players=len(seats), dealer=0, seed=0)
        closing = _check_closing_rounds(
            body.game, profile, body.options, len(seats), body.closing_rounds
        )
        first_dealer = body.first_dealer
        if first_dealer is None:
            first_dealer = secrets.randbelow(len(seats))
        try:
            # A trial list checks the first dealer (and the rounds) as the table's own will.
            TableSeries(
                body.game,
                profile,
                body.options,
                len(seats),
                body.series_length,
                closing,
                first_dealer,
            )
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        try:
            table = await asyncio.to_thread(
                svc.repo.create_table,
                game=body.game,
                profile=profile,
                options=body.options,
                seats=seats,
                series_length=body.series_length,
                time_limit=body.time_limit,
                public=body.public,
                created_by=user.id,
                creator_seat=body.creator_seat,
                closing_rounds=closing,
                first_dealer=first_dealer,
                accounts=accounts,
                bot_quota=svc.settings.bot_tables_per_account if unattended else None,
            )
        except QuotaExceeded as exc:
            raise HTTPException(429, str(exc)) from None
        if not table.free_seats:
            # Nobody to wait for: the actor starts the first deal.
            await svc.hub.actor(table.id)
            svc.hub.notify(table.id)
        return {"table": table_json(table, user)}

    @router.get("/tables")
    async def lobby(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=LOBBY_MAX_PAGE)] = LOBBY_PAGE,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> dict[str, Any]:
        """A page of each list (open, playing, mine), newest first: ``limit`` tables from
        ``offset`` on; ``more`` says which lists go on (ask again with ``offset + limit``)."""
        user = await current_user(request)
        repo = services(request).repo
        # One more than asked tells whether the list goes on.
        open_tables = await asyncio.to_thread(
            repo.tables, status=("open",), public_only=True, limit=limit + 1, offset=offset
        )
        playing = await asyncio.to_thread(
            repo.tables, status=("playing",), public_only=True, limit=limit + 1, offset=offset
        )
        mine = (
            await asyncio.to_thread(repo.tables_of_user, user.id, limit=limit + 1, offset=offset)
            if user
            else []
        )
        return {
            "open": [table_json(t, user) for t in open_tables[:limit]],
            "playing": [table_json(t, user) for t in playing[:limit]],
            "mine": [table_json(t, user) for t in mine[:limit]],
            "more": {
                "open": len(open_tables) > limit,
                "playing": len(playing) > limit,
                "mine": len(mine) > limit,
            },
            "offset": offset,
            "limit": limit,
        }

    @router.get("/tables/{table_id}")
    async def table(request: Request, table_id: TableId) -> dict[str, Any]:
        user = await current_user(request)
        info = await visible_table(services(request).repo, table_id, user)
        return {"table": table_json(info, user)}

    @router.post("/tables/{table_id}/watch")
    async def watch(request: Request, table_id: TableId, body: Invite) -> dict[str, Any]:
        """Redeem an invite link: the account may watch the table (private ones too) and
        finds it under its tables. A public table needs no invite; a wrong one, or none, for
        a private table is the same 404 as a table never made."""
        user = await require_user(request)
        svc = services(request)
        info = await asyncio.to_thread(svc.repo.table, table_id)
        if info is None:
            raise HTTPException(404, "no such table")
        if _invited(body.invite, info):
            await asyncio.to_thread(svc.repo.add_viewer, info.id, user.id)
        elif not await may_watch(svc.repo, info, user):
            raise HTTPException(404, "no such table")
        return {"table": table_json(info, user)}

    @router.post("/tables/{table_id}/join")
    async def join(request: Request, table_id: TableId, body: JoinSeat) -> dict[str, Any]:
        user = await require_user_or_bot(request)
        svc = services(request)
        info = await asyncio.to_thread(svc.repo.table, table_id)
        if info is None:
            raise HTTPException(404, "no such table")
        if not _invited(body.invite, info) and not await may_watch(svc.repo, info, user):
            # A private table without its invite: as if there were no such table.
            raise HTTPException(404, "no such table")
        seat = body.seat
        if seat is None:
            if not info.free_seats:
                raise HTTPException(409, "no seat is free")
            seat = info.free_seats[0]
        try:
            info = await asyncio.to_thread(svc.repo.take_seat, info.id, seat, user.id)
        except SeatTaken as exc:
            raise HTTPException(409, str(exc)) from None
        await svc.hub.actor(info.id)
        svc.hub.notify(info.id)
        return {"table": table_json(info, user)}

    @router.post("/tables/{table_id}/stop")
    async def stop(request: Request, table_id: TableId) -> dict[str, Any]:
        """The creator stops a running table for good (its bots stop; what was played stays;
        no restart brings it back). A table where another person plays ends with its list."""
        user = await require_user(request)
        svc = services(request)
        info = await visible_table(svc.repo, table_id, user)
        if info.created_by != user.id:
            raise HTTPException(403, "only the table's creator may stop it")
        if info.others_seated(user.id):
            raise HTTPException(409, "other people play at this table; it ends with its list")
        if info.status == "finished":
            raise HTTPException(409, "the list is over already")
        status = await svc.hub.stop(info.id)
        if status is None:
            raise HTTPException(404, "no such table")
        if status != "stopped":
            raise HTTPException(409, "the list is over already")
        return {"table": table_json(replace(info, status=status), user)}

    @router.put("/tables/{table_id}/closing_rounds")
    async def closing_rounds(
        request: Request, table_id: TableId, body: ClosingRounds
    ) -> dict[str, Any]:
        """The creator changes the closing rounds still to come, e.g. adds a Drescher round late
        in the evening; the table's actor checks what has begun, stores and broadcasts."""
        user = await require_user(request)
        svc = services(request)
        info = await visible_table(svc.repo, table_id, user)
        if info.created_by != user.id:
            raise HTTPException(403, "only the table's creator may change its closing rounds")
        rounds = _check_closing_rounds(
            info.game, info.profile, info.options, info.seats, body.closing_rounds
        )
        if info.unattended:
            # Closing rounds lengthen the list: a table of bots only stays within its cap.
            _check_bot_table_length(svc.settings, info.series_length, len(rounds), info.seats)
        actor = await svc.hub.actor(info.id)
        if actor is None:
            raise HTTPException(503, "the table cannot be served just now; try again")
        done: asyncio.Future[TableInfo] = asyncio.get_running_loop().create_future()
        actor.post(EditClosing(rounds, done))
        try:
            info = await asyncio.wait_for(done, timeout=10)
        except StichwerkError as exc:
            raise HTTPException(409, str(exc)) from None
        except TimeoutError:
            raise HTTPException(503, "the table did not answer; try again") from None
        return {"table": table_json(info, user)}

    @router.get("/tables/{table_id}/deals")
    async def deals(request: Request, table_id: TableId) -> dict[str, Any]:
        svc = services(request)
        info = await visible_table(svc.repo, table_id, await current_user(request))
        rows = await asyncio.to_thread(svc.repo.deals_of_table, info.id)
        return {"deals": [_deal_row(d) for d in rows]}

    @router.get("/deals/{deal_id}/record")
    async def record(request: Request, deal_id: DealId) -> Response:
        deal = await visible_deal(services(request).repo, deal_id, await current_user(request))
        body = json.dumps(deal.full_record(), ensure_ascii=False, indent=1, allow_nan=False)
        # Named by the game and the deal's own random id: nothing about the table.
        name = f"stichwerk-{deal.record.get('game', 'deal')}-{deal.public_id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    @router.get("/deals/{deal_id}/replay")
    async def replay(request: Request, deal_id: DealId) -> dict[str, Any]:
        deal = await visible_deal(services(request).repo, deal_id, await current_user(request))
        record = deal.full_record()
        steps = await asyncio.to_thread(_replay_steps, json.dumps(record, sort_keys=True))
        table = await asyncio.to_thread(services(request).repo.table, deal.table_id)
        return {
            "deal": _deal_row(deal),
            "record": {k: v for k, v in record.items() if k != "actions"},
            "steps": steps,
            # Who sat where, as the lobby shows it, so the replay can name the players.
            "seats": []
            if table is None
            else [
                {"seat": s.seat, "kind": s.kind, "name": s.username if s.kind == "human" else s.bot}
                for s in table.seat_list
            ],
        }

    @router.post("/deals/{deal_id}/analysis")
    async def start_analysis(
        request: Request, deal_id: DealId, body: AnalysisRequest
    ) -> dict[str, Any]:
        """Start the analysis of a seat's decisions in a finished deal (or find it)."""
        user = await require_user(request)
        deal = await visible_deal(services(request).repo, deal_id, user)
        seat = await _analysis_seat(request, deal, body.seat, user)
        jobs = services(request).analyses
        job = jobs.get(deal.public_id, seat)
        if job is None or job.status == "failed":
            if jobs.running_for(user.id) is not None:
                raise HTTPException(429, "an analysis you asked for is still running; wait for it")
            job = jobs.start(deal.public_id, seat, deal.full_record(), deal.bot_flags, user.id)
        return {"analysis": job.to_json(jobs.settings)}

    @router.get("/deals/{deal_id}/analysis")
    async def get_analysis(
        request: Request, deal_id: DealId, seat: Annotated[int | None, Query(ge=0, le=4)] = None
    ) -> dict[str, Any]:
        """The analysis of a seat, as far as it has got (``status``, ``done`` of ``total``)."""
        user = await current_user(request)
        deal = await visible_deal(services(request).repo, deal_id, user)
        seat = await _analysis_seat(request, deal, seat, user)
        jobs = services(request).analyses
        job = jobs.get(deal.public_id, seat)
        if job is None:
            return {"analysis": None}
        return {"analysis": job.to_json(jobs.settings)}

    return router


async def _analysis_seat(
    request: Request, deal: DealInfo, asked: int | None, user: UserInfo | None
) -> int:
    """The seat whose analysis ``user`` may see: a person seated at the deal's table their
    own seat only; anyone else (who may replay the deal, every hand open) any person's seat."""
    table = await asyncio.to_thread(services(request).repo.table, deal.table_id)
    if table is None:
        raise HTTPException(404, "no such deal")
    mine = table.seat_of(user.id) if user is not None else None
    if mine is not None:
        if asked is not None and asked != mine:
            raise HTTPException(403, "you may see the analysis of your own seat only")
        return mine
    if asked is None:
        raise HTTPException(400, "say which seat to analyse")
    seats = {s.seat: s for s in table.seat_list}
    if asked not in seats:
        raise HTTPException(400, f"the table has no seat {asked}")
    if seats[asked].kind != "human":
        raise HTTPException(400, f"seat {asked} is a bot's seat; analyses are for people")
    return asked


def _invited(invite: str | None, table: TableInfo) -> bool:
    """Whether ``invite`` is the table's invite token (compared in constant time)."""
    return invite is not None and secrets.compare_digest(
        invite.encode("utf-8", "replace"), table.invite.encode()
    )


def _local_path(target: str) -> bool:
    r"""A path on this site, not another one (``//evil`` and ``/\\evil`` are other sites to a
    browser).

    >>> _local_path("/t/abc?x=1"), _local_path("//evil.example"), _local_path("/\\evil")
    (True, False, False)
    """
    return (
        target.startswith("/")
        and not target.startswith(("//", "/\\"))
        and all(c.isprintable() and c != "\\" for c in target)
    )


# -- pages ------------------------------------------------------------------------------------


def page_router() -> APIRouter:
    """The HTML pages; everything dynamic comes from the API and the websocket."""
    router = APIRouter(route_class=StrictJSONRoute)

    async def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
        user = await current_user(request)
        return services(request).templates.TemplateResponse(
            request,
            name,
            {
                "lang": lang,
                "t": texts(lang),
                "user": user,
                "languages": LANGUAGES,
                **context,
            },
        )

    @router.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        return await page(request, "lobby.html")

    # The pages show nothing of a table or deal: their scripts ask the API and the websocket,
    # which check who is asking. The id is only checked for its shape here.

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    async def table(request: Request, table_id: TableId) -> HTMLResponse:
        return await page(request, "table.html", table_id=table_id)

    @router.get("/ratings", response_class=HTMLResponse)
    async def leaderboards(request: Request) -> HTMLResponse:
        return await page(request, "ratings.html")

    @router.get("/d/{deal_id}", response_class=HTMLResponse)
    async def replay(request: Request, deal_id: DealId) -> HTMLResponse:
        return await page(request, "replay.html", deal_id=deal_id)

    @router.get("/lang/{code}")
    async def language(
        code: Annotated[str, Field(max_length=8)],
        next: Annotated[str, Query(max_length=300)] = "/",
    ) -> RedirectResponse:
        target = next if _local_path(next) else "/"
        response = RedirectResponse(target, status_code=303)
        if code in LANGUAGES:
            response.set_cookie("lang", code, max_age=365 * 86400, samesite="lax")
        return response

    @router.get("/healthz")
    async def health(request: Request) -> dict[str, Any]:
        return {"ok": True, "tables": services(request).hub.live}

    return router
