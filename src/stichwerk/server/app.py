"""The FastAPI application: wiring, sessions, security middleware and the HTTP API and pages.

``create_app`` opens (and migrates) the database, so the session key stored there is known
before the first request; the lifespan then recovers every table that was playing.
"""

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from starlette.middleware.sessions import SessionMiddleware

from stichwerk.analysis import Settings as AnalysisSettings
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.games import game_names, get_game
from stichwerk.server import auth
from stichwerk.server.analysis import AnalysisJobs
from stichwerk.server.bots import BotRunner, available_bots
from stichwerk.server.config import Settings
from stichwerk.server.hub import Hub
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.security import SECURITY_HEADERS, origin_allowed
from stichwerk.server.series import TableSeries
from stichwerk.server.table import ActorContext, EditClosing
from stichwerk.server.websocket import table_socket
from stichwerk.storage.db import Database
from stichwerk.storage.eventlog import EventWriter
from stichwerk.storage.repo import DealInfo, Repo, SeatTaken, TableInfo, UserInfo
from stichwerk.web import LANGUAGES, STATIC, TEMPLATES, pick_language, texts

log = logging.getLogger("stichwerk.app")
SESSION_DAYS = 30


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
    templates: Jinja2Templates


def services(request: Request | WebSocket) -> Services:
    """The app's services (typed access to ``app.state``)."""
    svc: Services = request.app.state.services
    return svc


async def current_user(request: Request | WebSocket) -> UserInfo | None:
    """The user of the session cookie, if any."""
    uid = request.session.get("uid")
    if not isinstance(uid, int):
        return None
    return await asyncio.to_thread(services(request).repo.user, uid)


async def require_user(request: Request) -> UserInfo:
    """The session's user, or 401."""
    user = await current_user(request)
    if user is None:
        raise HTTPException(401, "log in or play as a guest first")
    return user


# -- request bodies ---------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Body):
    username: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=256)]


class SeatSpec(_Body):
    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(max_length=40)] | None = None
    """A bot seat's bot; for a person's seat, the bot that stands in while they are away."""


class NewTable(_Body):
    game: Annotated[str, Field(max_length=20)]
    profile: Annotated[str, Field(max_length=40)] | None = None
    options: dict[str, Any] = {}
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
    bots = BotRunner(settings.bot_workers)
    analyses = AnalysisJobs(
        settings.analysis_workers,
        AnalysisSettings(
            seconds=settings.analysis_seconds,
            worlds=settings.analysis_worlds,
            threshold=settings.analysis_threshold,
        ),
    )
    hub = Hub(ActorContext(repo, writer, bots, settings.bot_delay, on_idle=lambda _id: None), repo)
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
        templates=templates,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        recovered = await hub.recover()
        if recovered:
            log.info("recovered %d table(s) from the event log", recovered)
        try:
            yield
        finally:
            await hub.close()
            writer.close()
            analyses.close()
            bots.close()
            db.dispose()

    app = FastAPI(title="Stichwerk", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.services = svc
    app.add_middleware(
        SessionMiddleware,
        secret_key=repo.secret(),
        session_cookie="stichwerk",
        max_age=SESSION_DAYS * 86400,
        same_site="lax",
        https_only=settings.cookie_secure,
    )

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """Refuse cross-site writes, insist on JSON for the API, add security headers."""
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            origin = request.headers.get("origin")
            if origin is not None and not origin_allowed(
                origin, request.headers.get("host"), settings.allowed_origins
            ):
                return JSONResponse({"error": "cross-site request refused"}, status_code=403)
            kind = request.headers.get("content-type", "").split(";")[0].strip()
            if request.url.path.startswith("/api/") and kind != "application/json":
                return JSONResponse({"error": "send JSON (application/json)"}, status_code=415)
        response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(StichwerkError)
    async def rules_error(_request: Request, exc: StichwerkError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def bad_body(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return JSONResponse({"error": f"{where or 'request'}: {first['msg']}"}, status_code=422)

    app.include_router(api_router())
    app.include_router(page_router())
    app.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


# -- JSON API ---------------------------------------------------------------------------------


def _client_key(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _login_session(request: Request, user: UserInfo) -> dict[str, Any]:
    request.session.clear()
    request.session["uid"] = user.id
    return {"user": {"id": user.id, "username": user.username, "guest": user.is_guest}}


def _limit(request: Request) -> None:
    if not services(request).login_limiter.take(_client_key(request)):
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
    }


def _deal_row(deal: DealInfo) -> dict[str, Any]:
    return {
        "id": deal.id,
        "number": deal.number,
        "status": deal.status,
        "counts": deal.counts,
        "dealer": deal.record.get("dealer"),
        "deal_type": deal.record.get("deal_type"),
        "result": deal.result if deal.status == "finished" else None,
    }


async def _finished_deal(request: Request, deal_id: int) -> DealInfo:
    deal = await asyncio.to_thread(services(request).repo.deal, deal_id)
    if deal is None:
        raise HTTPException(404, "no such deal")
    if deal.status != "finished":
        raise HTTPException(403, "a deal can be replayed or downloaded once it is over")
    return deal


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


def api_router() -> APIRouter:
    """``/api/...``: accounts, games, tables, deals."""
    router = APIRouter(prefix="/api")

    @router.post("/register")
    async def register(request: Request, body: Credentials) -> dict[str, Any]:
        _limit(request)
        try:
            user = await auth.register(services(request).repo, body.username, body.password)
        except auth.AuthError as exc:
            raise HTTPException(400, str(exc)) from None
        return _login_session(request, user)

    @router.post("/login")
    async def login(request: Request, body: Credentials) -> dict[str, Any]:
        _limit(request)
        try:
            user = await auth.login(services(request).repo, body.username, body.password)
        except auth.AuthError as exc:
            raise HTTPException(401, str(exc)) from None
        return _login_session(request, user)

    @router.post("/guest")
    async def guest(request: Request) -> dict[str, Any]:
        _limit(request)
        try:
            user = await auth.guest(services(request).repo)
        except auth.AuthError as exc:
            raise HTTPException(503, str(exc)) from None
        return _login_session(request, user)

    @router.post("/logout")
    async def logout(request: Request) -> dict[str, Any]:
        request.session.clear()
        return {"user": None}

    @router.get("/me")
    async def me(request: Request) -> dict[str, Any]:
        user = await current_user(request)
        if user is None:
            return {"user": None}
        return {"user": {"id": user.id, "username": user.username, "guest": user.is_guest}}

    @router.get("/games")
    async def games() -> dict[str, Any]:
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
        return {"games": out, "bots": available_bots()}

    @router.post("/tables")
    async def create_table(request: Request, body: NewTable) -> dict[str, Any]:
        user = await require_user(request)
        _limit(request)
        svc = services(request)
        module = get_game(body.game)
        profile = body.profile or module.profiles[0]
        if profile not in module.profiles:
            raise HTTPException(400, f"unknown profile {profile!r} for {body.game}")
        bots = available_bots()
        stand_in = "heuristic" if "heuristic" in bots else bots[0]
        seats: list[tuple[str, str | None]] = []
        for spec in body.seats:
            if spec.bot is not None and spec.bot not in bots:
                raise HTTPException(400, f"unknown bot {spec.bot!r} (known: {', '.join(bots)})")
            seats.append((spec.kind, spec.bot or stand_in))
        creator = body.creator_seat
        if creator is not None and (creator >= len(seats) or seats[creator][0] != "human"):
            raise HTTPException(400, "the creator's seat must be a person's seat")
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
        )
        if not table.free_seats:
            # Nobody to wait for: the actor starts the first deal.
            await svc.hub.actor(table.id)
            svc.hub.notify(table.id)
        return {"table": table_json(table, user)}

    @router.get("/tables")
    async def lobby(request: Request) -> dict[str, Any]:
        user = await current_user(request)
        repo = services(request).repo
        open_tables = await asyncio.to_thread(repo.tables, status=("open",), public_only=True)
        playing = await asyncio.to_thread(repo.tables, status=("playing",), public_only=True)
        mine = await asyncio.to_thread(repo.tables_of_user, user.id) if user else []
        return {
            "open": [table_json(t, user) for t in open_tables],
            "playing": [table_json(t, user) for t in playing[:50]],
            "mine": [table_json(t, user) for t in mine],
        }

    @router.get("/tables/{table_id}")
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        user = await current_user(request)
        info = await asyncio.to_thread(services(request).repo.table, table_id[:32])
        if info is None:
            raise HTTPException(404, "no such table")
        return {"table": table_json(info, user)}

    @router.post("/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: JoinSeat) -> dict[str, Any]:
        user = await require_user(request)
        svc = services(request)
        info = await asyncio.to_thread(svc.repo.table, table_id[:32])
        if info is None:
            raise HTTPException(404, "no such table")
        invited = body.invite is not None and secrets.compare_digest(body.invite, info.invite)
        if not info.public and not invited:
            raise HTTPException(403, "this table is private: you need its invite link")
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

    @router.put("/tables/{table_id}/closing_rounds")
    async def closing_rounds(
        request: Request, table_id: str, body: ClosingRounds
    ) -> dict[str, Any]:
        """The creator changes the closing rounds still to come, e.g. adds a Drescher round late
        in the evening; the table's actor checks what has begun, stores and broadcasts."""
        user = await require_user(request)
        svc = services(request)
        info = await asyncio.to_thread(svc.repo.table, table_id[:32])
        if info is None:
            raise HTTPException(404, "no such table")
        if info.created_by != user.id:
            raise HTTPException(403, "only the table's creator may change its closing rounds")
        rounds = _check_closing_rounds(
            info.game, info.profile, info.options, info.seats, body.closing_rounds
        )
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
    async def deals(request: Request, table_id: str) -> dict[str, Any]:
        rows = await asyncio.to_thread(services(request).repo.deals_of_table, table_id[:32])
        return {"deals": [_deal_row(d) for d in rows]}

    @router.get("/deals/{deal_id}/record")
    async def record(request: Request, deal_id: int) -> Response:
        deal = await _finished_deal(request, deal_id)
        body = json.dumps(deal.full_record(), ensure_ascii=False, indent=1)
        name = f"stichwerk-{deal.record.get('game', 'deal')}-{deal.table_id}-{deal.number}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    @router.get("/deals/{deal_id}/replay")
    async def replay(request: Request, deal_id: int) -> dict[str, Any]:
        deal = await _finished_deal(request, deal_id)
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
        request: Request, deal_id: int, body: AnalysisRequest
    ) -> dict[str, Any]:
        """Start the analysis of a seat's decisions in a finished deal (or find it)."""
        user = await require_user(request)
        deal = await _finished_deal(request, deal_id)
        seat = await _analysis_seat(request, deal, body.seat, user)
        jobs = services(request).analyses
        job = jobs.get(deal.id, seat)
        if job is None or job.status == "failed":
            if jobs.running_for(user.id) is not None:
                raise HTTPException(429, "an analysis you asked for is still running; wait for it")
            job = jobs.start(deal.id, seat, deal.full_record(), deal.bot_flags, user.id)
        return {"analysis": job.to_json(jobs.settings)}

    @router.get("/deals/{deal_id}/analysis")
    async def get_analysis(
        request: Request, deal_id: int, seat: Annotated[int | None, Query(ge=0, le=4)] = None
    ) -> dict[str, Any]:
        """The analysis of a seat, as far as it has got (``status``, ``done`` of ``total``)."""
        user = await current_user(request)
        deal = await _finished_deal(request, deal_id)
        seat = await _analysis_seat(request, deal, seat, user)
        jobs = services(request).analyses
        job = jobs.get(deal.id, seat)
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


# -- pages ------------------------------------------------------------------------------------


def page_router() -> APIRouter:
    """The HTML pages; everything dynamic comes from the API and the websocket."""
    router = APIRouter()

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

    @router.get("/t/{table_id}", response_class=HTMLResponse)
    async def table(request: Request, table_id: str) -> HTMLResponse:
        return await page(request, "table.html", table_id=table_id[:32])

    @router.get("/d/{deal_id}", response_class=HTMLResponse)
    async def replay(request: Request, deal_id: int) -> HTMLResponse:
        return await page(request, "replay.html", deal_id=deal_id)

    @router.get("/lang/{code}")
    async def language(code: str, next: str = "/") -> RedirectResponse:
        target = next if next.startswith("/") and not next.startswith("//") else "/"
        response = RedirectResponse(target, status_code=303)
        if code in LANGUAGES:
            response.set_cookie("lang", code, max_age=365 * 86400, samesite="lax")
        return response

    @router.get("/healthz")
    async def health(request: Request) -> dict[str, Any]:
        return {"ok": True, "tables": services(request).hub.live}

    return router
