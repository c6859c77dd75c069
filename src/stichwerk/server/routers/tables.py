"""``/api`` tables and deals: the games on offer, opening a table, the lobby, watching, joining,
stopping, the closing rounds; a table's deals, a deal's record, replay and analysis.

What a table does once it is open is its actor's business (``server/table.py``, reached
through the ``Hub``); these routes check the request, store, and wake the actor.
"""

import asyncio
import json
import secrets
from dataclasses import replace
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response

from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.games import game_names, get_game
from stichwerk.server.access import DealId, TableId, may_watch, visible_deal, visible_table
from stichwerk.server.config import Settings
from stichwerk.server.deps import CurrentUser, Services, ServicesDep, signed_in, signed_in_or_bot
from stichwerk.server.gate import client_key
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.server.schemas import AnalysisRequest, ClosingRounds, Invite, JoinSeat, NewTable
from stichwerk.server.series import TableSeries
from stichwerk.server.table import EditClosing
from stichwerk.storage.repo import RUNNING, DealInfo, QuotaExceeded, SeatTaken, TableInfo, UserInfo
from stichwerk.web import LANGUAGES

LOBBY_PAGE = 50
"""Tables per list of a lobby page unless the request asks for fewer or more ..."""
LOBBY_MAX_PAGE = 200
"""... but never more than this."""


def _limit(request: Request, svc: Services) -> None:
    if not svc.login_limiter.take(client_key(request.scope)):
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


def router() -> APIRouter:
    """``/api/games``, ``/api/tables...``, ``/api/deals...``."""
    router = APIRouter(prefix="/api", route_class=StrictJSONRoute)

    # Logins, registrations, guests and password changes are rate-limited per address by the
    # gate, before their bodies are read.
    @router.get("/games")
    async def games(svc: ServicesDep) -> dict[str, Any]:
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
        return {"games": out, "bots": svc.bots.names()}

    @router.post("/tables")
    async def create_table(
        request: Request, body: NewTable, svc: ServicesDep, who: CurrentUser
    ) -> dict[str, Any]:
        user = signed_in(who)
        _limit(request, svc)
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
        svc: ServicesDep,
        user: CurrentUser,
        limit: Annotated[int, Query(ge=1, le=LOBBY_MAX_PAGE)] = LOBBY_PAGE,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> dict[str, Any]:
        """A page of each list (open, playing, mine), newest first: ``limit`` tables from
        ``offset`` on; ``more`` says which lists go on (ask again with ``offset + limit``)."""
        repo = svc.repo
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
    async def table(table_id: TableId, svc: ServicesDep, user: CurrentUser) -> dict[str, Any]:
        info = await visible_table(svc.repo, table_id, user)
        return {"table": table_json(info, user)}

    @router.post("/tables/{table_id}/watch")
    async def watch(
        table_id: TableId, body: Invite, svc: ServicesDep, who: CurrentUser
    ) -> dict[str, Any]:
        """Redeem an invite link: the account may watch the table (private ones too) and
        finds it under its tables. A public table needs no invite; a wrong one, or none, for
        a private table is the same 404 as a table never made."""
        user = signed_in(who)
        info = await asyncio.to_thread(svc.repo.table, table_id)
        if info is None:
            raise HTTPException(404, "no such table")
        if _invited(body.invite, info):
            await asyncio.to_thread(svc.repo.add_viewer, info.id, user.id)
        elif not await may_watch(svc.repo, info, user):
            raise HTTPException(404, "no such table")
        return {"table": table_json(info, user)}

    @router.post("/tables/{table_id}/join")
    async def join(
        request: Request, table_id: TableId, body: JoinSeat, svc: ServicesDep, who: CurrentUser
    ) -> dict[str, Any]:
        user = await signed_in_or_bot(request, svc, who)
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
    async def stop(table_id: TableId, svc: ServicesDep, who: CurrentUser) -> dict[str, Any]:
        """The creator stops a running table for good (its bots stop; what was played stays;
        no restart brings it back). A table where another person plays ends with its list."""
        user = signed_in(who)
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
        table_id: TableId, body: ClosingRounds, svc: ServicesDep, who: CurrentUser
    ) -> dict[str, Any]:
        """The creator changes the closing rounds still to come, e.g. adds a Drescher round late
        in the evening; the table's actor checks what has begun, stores and broadcasts."""
        user = signed_in(who)
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
    async def deals(table_id: TableId, svc: ServicesDep, user: CurrentUser) -> dict[str, Any]:
        info = await visible_table(svc.repo, table_id, user)
        rows = await asyncio.to_thread(svc.repo.deals_of_table, info.id)
        return {"deals": [_deal_row(d) for d in rows]}

    @router.get("/deals/{deal_id}/record")
    async def record(deal_id: DealId, svc: ServicesDep, user: CurrentUser) -> Response:
        deal = await visible_deal(svc.repo, deal_id, user)
        body = json.dumps(deal.full_record(), ensure_ascii=False, indent=1, allow_nan=False)
        # Named by the game and the deal's own random id: nothing about the table.
        name = f"stichwerk-{deal.record.get('game', 'deal')}-{deal.public_id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    @router.get("/deals/{deal_id}/replay")
    async def replay(deal_id: DealId, svc: ServicesDep, user: CurrentUser) -> dict[str, Any]:
        deal = await visible_deal(svc.repo, deal_id, user)
        record = deal.full_record()
        steps = await asyncio.to_thread(_replay_steps, json.dumps(record, sort_keys=True))
        table = await asyncio.to_thread(svc.repo.table, deal.table_id)
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
        deal_id: DealId, body: AnalysisRequest, svc: ServicesDep, who: CurrentUser
    ) -> dict[str, Any]:
        """Start the analysis of a seat's decisions in a finished deal (or find it)."""
        user = signed_in(who)
        deal = await visible_deal(svc.repo, deal_id, user)
        seat = await _analysis_seat(svc, deal, body.seat, user)
        jobs = svc.analyses
        job = jobs.get(deal.public_id, seat)
        if job is None or job.status == "failed":
            if jobs.running_for(user.id) is not None:
                raise HTTPException(429, "an analysis you asked for is still running; wait for it")
            job = jobs.start(deal.public_id, seat, deal.full_record(), deal.bot_flags, user.id)
        return {"analysis": job.to_json(jobs.settings)}

    @router.get("/deals/{deal_id}/analysis")
    async def get_analysis(
        deal_id: DealId,
        svc: ServicesDep,
        user: CurrentUser,
        seat: Annotated[int | None, Query(ge=0, le=4)] = None,
    ) -> dict[str, Any]:
        """The analysis of a seat, as far as it has got (``status``, ``done`` of ``total``)."""
        deal = await visible_deal(svc.repo, deal_id, user)
        seat = await _analysis_seat(svc, deal, seat, user)
        jobs = svc.analyses
        job = jobs.get(deal.public_id, seat)
        if job is None:
            return {"analysis": None}
        return {"analysis": job.to_json(jobs.settings)}

    return router


async def _analysis_seat(
    svc: Services, deal: DealInfo, asked: int | None, user: UserInfo | None
) -> int:
    """The seat whose analysis ``user`` may see: a person seated at the deal's table their
    own seat only; anyone else (who may replay the deal, every hand open) any person's seat."""
    table = await asyncio.to_thread(svc.repo.table, deal.table_id)
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
