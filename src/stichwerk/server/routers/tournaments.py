"""``/api/tournaments``, ``/api/rankings``, ``/ws/tournaments/{token}`` and the tournament
pages: the director's page and API, the projector, the printouts, the seat links of online
tables and the public ranking lists (the service that keeps them live is
``server/tournaments.py``'s ``TournamentHub``).

A director's change is one body, a discriminated union on ``op`` (``schemas.parse_change``).
The store's errors map to one-line JSON errors in one place (:func:`_store_errors`).
"""

import asyncio
import contextlib
import datetime as dt
import json
import re
import secrets
from collections.abc import Iterator
from typing import Any, assert_never

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from stichwerk.core.errors import StichwerkError
from stichwerk.server import auth
from stichwerk.server.deps import (
    CurrentUser,
    PublicOrigin,
    ServicesDep,
    SettingsDep,
    TournamentsDep,
)
from stichwerk.server.gate import LARGE_BODIES, client_key
from stichwerk.server.jsonsafe import BadJSON, loads, read_json_object
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.render import render
from stichwerk.server.schemas import (
    MAX_ROUND,
    MAX_TABLE,
    AddPlayers,
    BadChange,
    Draw,
    Edit,
    Enter,
    Finish,
    Mode,
    Online,
    PlayerChange,
    RenamePlayer,
    TournamentChange,
    Undraw,
    parse_change,
    whole_number,
)
from stichwerk.server.security import origin_allowed
from stichwerk.server.sheets import qr_svg, serve_watcher
from stichwerk.server.tournament_json import format_json, state_json
from stichwerk.server.tournaments import TournamentHub, TournamentPage
from stichwerk.storage.repo import SeatTaken
from stichwerk.storage.tournaments import SeriesLocked
from stichwerk.tournament import FORMATS, PastResult
from stichwerk.tournament.cleaning import parse_name_list
from stichwerk.tournament.entry import EntryProblems
from stichwerk.tournament.lists import write_list_csv, write_results_csv
from stichwerk.tournament.snapshot import TournamentData, TournamentError, UnknownTournament

TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
TID = re.compile(r"[A-Za-z0-9_-]{12}")
CODE = re.compile(r"[A-Za-z0-9_-]{16}")
CREATE_LIMIT = 8 * 1024
CHANGE_LIMIT = LARGE_BODIES[r"/api/tournaments/[^/]+/changes"]
HISTORY_LIMIT = LARGE_BODIES[r"/api/tournaments/[^/]+/history"]
IMPORT_LIMIT = LARGE_BODIES[r"/api/tournaments/import"]
CSV = "text/csv; charset=utf-8"
MAX_CONTAINERS = 200_000
"""Objects and arrays (counted as ``{`` and ``[`` bytes, before parsing) in a body to import. A
real backup of a 200-player tournament (4 rounds of 50 tables, 24 deals a sheet, about 3 MiB)
has some 35,000; a 16 MiB file of ``{}`` has 5.6 million and cost 420 MiB to parse."""
MAX_ITEMS = 1_000_000
"""Commas in a body to import (an upper bound of its values): the same real backup has some
120,000."""
LARGE_IMPORTS = 2
"""Large imports (a backup, a history) running at once in this process; over it 503."""
LARGE_IMPORTS_PER_ADDRESS = 1


class _Slots:
    """How many large imports run at once, in all and per address (taken before the body is
    read: a refused request costs nothing)."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.running: dict[str, int] = {}

    @contextlib.contextmanager
    def take(self, request: Request) -> Any:
        address = client_key(request.scope)
        if (
            sum(self.running.values()) >= self.total
            or self.running.get(address, 0) >= self.per_address
        ):
            raise HTTPException(503, "busy with another large import; try again in a minute")
        self.running[address] = self.running.get(address, 0) + 1
        try:
            yield
        finally:
            self.running[address] -= 1
            if not self.running[address]:
                del self.running[address]


def _parse_large(body: bytes) -> Any:
    """A large body's JSON, in a worker thread: its shape bounded before anything is built."""
    if body.count(b"{") + body.count(b"[") > MAX_CONTAINERS or body.count(b",") > MAX_ITEMS:
        raise BadJSON(
            f"more than {MAX_CONTAINERS} objects or {MAX_ITEMS} values (no real backup has)"
        )
    return loads(body)


async def read_large_object(request: Request, limit: int) -> dict[str, Any]:
    """A large body (a backup, a history) as a JSON object: streamed up to ``limit`` bytes,
    its shape checked and parsed off the event loop (one-line 413 or 400)."""
    return await read_json_object(request, limit, parse=_parse_large, off_loop=True)


# -- helpers ----------------------------------------------------------------------------------


async def _open(hub: TournamentHub, token: str) -> tuple[TournamentData, bool]:
    """The tournament a link opens (brought up to date) and whether it is the director's."""
    if not TOKEN.fullmatch(token):
        raise HTTPException(404, "no such tournament (check the link)")
    found = await asyncio.to_thread(hub.store.by_token, token)
    if found is None:
        raise HTTPException(404, "no such tournament (check the link)")
    data, role = found
    data = await hub.attach(data.id)
    return data, role == "director"


def _need_director(director: bool) -> None:
    if not director:
        raise HTTPException(403, "this is the read-only link: the director's link may change it")


def _path_number(raw: str, what: str, lo: int, hi: int) -> int:
    """A path segment that must be a whole number in range (one-line 400)."""
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 7 else None
    try:
        return whole_number(number, what, lo, hi)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None


def _query(request: Request, name: str, lo: int, hi: int, default: int | None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 7 or not lo <= int(raw) <= hi:
        raise HTTPException(422, f"'{name}' must be a whole number from {lo} to {hi}")
    return int(raw)


@contextlib.contextmanager
def _store_errors(missing: int = 404) -> Iterator[None]:
    """The store's errors as the app's one-line JSON errors: 403 the series' owner only, 404
    unknown (``missing``: 400 where the route names no tournament of its own), 409 not now,
    400 bad input; typed totals' problems go on to the caller (the line, or the list too)."""
    try:
        yield
    except UnknownTournament as exc:
        raise HTTPException(missing, str(exc)) from None
    except SeriesLocked as exc:
        raise HTTPException(403, str(exc)) from None
    except TournamentError as exc:
        raise HTTPException(409, str(exc)) from None
    except EntryProblems:
        raise
    except StichwerkError as exc:
        raise HTTPException(400, str(exc)) from None


async def _run(hub: TournamentHub, tid: str, call: Any, *args: Any) -> TournamentData:
    """A store change in a worker thread, under the tournament's lock (:func:`_store_errors`)."""
    async with hub.live(tid).lock:
        with _store_errors():
            data: TournamentData = await asyncio.to_thread(call, *args)
    await hub.changed(tid)
    return data


def _download(body: str, media: str, name: str) -> Response:
    return Response(
        body, media_type=media, headers={"content-disposition": f'attachment; filename="{name}"'}
    )


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40] or "turnier"


async def _apply(
    hub: TournamentHub, data: TournamentData, change: TournamentChange
) -> TournamentData:
    """A director's change, made (under the tournament's lock, off the event loop)."""
    store = hub.store
    tid = data.id
    match change:
        case AddPlayers(names=names, text=text):
            raw = names if text is None else parse_name_list(text)
            if not isinstance(raw, list) or not 1 <= len(raw) <= 200:
                raise HTTPException(400, "'names' lists 1 to 200 players")
            return await _run(hub, tid, store.add_players, tid, raw)
        case PlayerChange(op=op, player=player):
            call = {
                "remove_player": store.remove_player,
                "withdraw": store.withdraw,
                "reinstate": store.reinstate,
            }[op]
            return await _run(hub, tid, call, tid, player)
        case RenamePlayer(player=player, name=name):
            return await _run(hub, tid, store.rename_player, tid, player, name)
        case Edit(secret=secret):
            fields = change.fields()
            return await _run(hub, tid, lambda: store.edit(tid, fields, secret=secret, guard=True))
        case Draw():
            return await _run(hub, tid, store.draw, tid)
        case Undraw():
            last = data.rounds[-1].number if data.rounds else 0
            data = await _run(hub, tid, store.undraw, tid)
            hub.forget(tid, last)
            return data
        case Enter(round=rnd, table=number, results=results, explain=explain):
            # "explain": true asks for the typed totals' problems as a list beside the line (the
            # page shows each at its field); without it the answer is the line alone.
            try:
                return await _run(hub, tid, store.enter, tid, rnd, number, results)
            except EntryProblems as exc:
                if explain:
                    raise
                raise HTTPException(400, str(exc)) from None
        case Mode(round=rnd, table=number, mode=mode):
            return await _run(hub, tid, store.set_mode, tid, rnd, number, mode)
        case Online(round=rnd, table=number, bots=bots):
            async with hub.live(tid).lock:
                with _store_errors():
                    data = await hub.make_online(tid, rnd, number, bots)
            await hub.changed(tid)
            return data
        case Finish():
            return await _run(hub, tid, store.finish, tid)
    assert_never(change)


# -- the JSON API -----------------------------------------------------------------------------


def tournament_api() -> APIRouter:
    """``/api/tournaments`` and ``/api/rankings``."""
    router = APIRouter()
    creating = KeyedLimiter(rate=1.0, burst=30.0)
    large = _Slots(LARGE_IMPORTS, LARGE_IMPORTS_PER_ADDRESS)

    def limit(request: Request) -> None:
        if not creating.take(request.client.host if request.client else "unknown"):
            raise HTTPException(429, "too many new tournaments from here; wait a little")

    @router.get("/api/tournaments/formats")
    async def formats() -> dict[str, Any]:
        return {"formats": [format_json(f) for f in FORMATS.values()]}

    @router.post("/api/tournaments")
    async def create(request: Request, hub: TournamentsDep) -> dict[str, Any]:
        """A new tournament: name, format, date, place, series (and a seed, if you like)."""
        limit(request)
        body = await read_json_object(request, CREATE_LIMIT)
        allowed = {"name", "format", "date", "place", "series", "seed", "secret"}
        if set(body) - allowed:
            raise HTTPException(400, f"unknown key {sorted(set(body) - allowed)[0]!r}")
        with _store_errors(missing=400):
            data, fresh = await asyncio.to_thread(
                lambda: hub.store.create_guarded(
                    name=body.get("name"),
                    format_name=body.get("format", "wielandstrasse"),
                    held_on=body.get("date") or dt.date.today().isoformat(),
                    place=body.get("place", ""),
                    series=body.get("series"),
                    seed=body.get("seed"),
                    secret=body.get("secret"),
                )
            )
        state = await hub.state(data, True)
        if fresh is not None:
            state["series_secret"] = fresh
        return state

    @router.post("/api/tournaments/import")
    async def import_backup(request: Request, hub: TournamentsDep) -> dict[str, Any]:
        """A tournament from its backup file (``{"backup": {...}, "replace"?: true}``)."""
        limit(request)
        with large.take(request):
            body = await read_large_object(request, IMPORT_LIMIT)
            if set(body) - {"backup", "replace", "secret"} or not isinstance(
                body.get("replace", False), bool
            ):
                raise HTTPException(
                    400, 'send {"backup": {...}} (and "replace": true to replace, "secret")'
                )
            backup = body.pop("backup", None)
            with _store_errors(missing=400):
                data, fresh = await asyncio.to_thread(
                    lambda: hub.store.import_backup_guarded(
                        backup,
                        replace_existing=bool(body.get("replace")),
                        secret=body.get("secret"),
                    )
                )
        hub.forget_all(data.id)
        await hub.changed(data.id)
        state = await hub.state(data, True)
        if fresh is not None:
            state["series_secret"] = fresh
        return state

    @router.get("/api/tournaments/{token}")
    async def get(token: str, hub: TournamentsDep) -> dict[str, Any]:
        data, director = await _open(hub, token)
        return await hub.state(data, director)

    @router.get("/api/tournaments/{token}/log")
    async def changes(request: Request, token: str, hub: TournamentsDep) -> dict[str, Any]:
        since = _query(request, "since", 0, 10**9, 0) or 0
        data, _ = await _open(hub, token)
        rows = await asyncio.to_thread(hub.store.log, data.id, since)
        return {"seq": data.seq, "changes": rows}

    @router.get("/api/tournaments/{token}/names")
    async def names(request: Request, token: str, hub: TournamentsDep) -> dict[str, Any]:
        """Names from earlier tournaments beginning with ``q`` (the registration's hints)."""
        _, director = await _open(hub, token)
        _need_director(director)
        query = request.query_params.get("q", "")
        if len(query) > 40:
            raise HTTPException(422, "'q' must be at most 40 characters")
        found = await asyncio.to_thread(hub.store.names, query)
        return {"names": found}

    @router.post("/api/tournaments/{token}/changes")
    async def change(request: Request, token: str, hub: TournamentsDep) -> dict[str, Any]:
        """One change by the director (``docs/tournaments.md``: the API)."""
        body = await read_json_object(request, CHANGE_LIMIT)
        data, director = await _open(hub, token)
        _need_director(director)
        try:
            asked = parse_change(body)
        except BadChange as exc:
            raise HTTPException(400, str(exc)) from None
        return await hub.state(await _apply(hub, data, asked), True)

    @router.post("/api/tournaments/{token}/history")
    async def history(request: Request, token: str, hub: TournamentsDep) -> dict[str, Any]:
        """Past tournaments (CSV, ``{"text": ..., "secret": ...}``) into this tournament's
        series (its owner's secret needed; written in short batches off the event loop)."""
        with large.take(request):
            body = await read_large_object(request, HISTORY_LIMIT)
            data, director = await _open(hub, token)
            _need_director(director)
            if not {"text"} <= set(body) <= {"text", "secret"} or not isinstance(body["text"], str):
                raise HTTPException(400, 'send the CSV file as {"text": ..., "secret": ...}')
            store = hub.store
            with _store_errors(missing=400):
                done: dict[str, Any] = await asyncio.to_thread(
                    lambda: store.import_history(
                        data.series,
                        body["text"],
                        secret=body.get("secret"),
                        guard=True,
                        tid=data.id,
                    )
                )
        return done

    @router.get("/api/tournaments/{token}/backup.json")
    async def backup(token: str, hub: TournamentsDep) -> Response:
        data, director = await _open(hub, token)
        _need_director(director)
        body = await asyncio.to_thread(hub.store.export, data.id)
        name = f"stichwerk-{data.held_on.isoformat()}-{_slug(data.name)}-{data.seq:05d}.json"
        return _download(json.dumps(body, ensure_ascii=False, indent=1), "application/json", name)

    @router.get("/api/tournaments/{token}/results.csv")
    async def results_csv(token: str, hub: TournamentsDep) -> Response:
        """The final ranking as rows of the club's history (date, player, place ...)."""
        data, _ = await _open(hub, token)
        state = await asyncio.to_thread(state_json, data, director=False)
        if state["ranking"] is None:
            raise HTTPException(409, "there is no ranking yet")
        rows = [
            PastResult(data.held_on, r["name"], r["place"], len(state["ranking"]), data.name)
            for r in state["ranking"]
        ]
        name = f"stichwerk-{data.held_on.isoformat()}-{_slug(data.name)}.csv"
        return _download(write_results_csv(rows), CSV, name)

    # -- ranking lists ------------------------------------------------------------------------

    def series_of(request: Request) -> str:
        series = request.query_params.get("series", "")
        if not series or len(series) > 120:
            raise HTTPException(422, "'series' names the club or series (up to 120 characters)")
        return series

    def list_of(request: Request) -> tuple[str, int, int | None]:
        kind = request.query_params.get("kind", "all")
        if kind not in ("all", "five"):
            raise HTTPException(422, "'kind' is 'all' or 'five'")
        years = _query(request, "years", 1, 100, 5) or 5
        latest = _query(request, "latest", 1900, 2200, None)
        return kind, years, latest

    @router.get("/api/rankings/owner")
    async def owner(request: Request, hub: TournamentsDep) -> dict[str, Any]:
        """Whether a series has an owner secret (the new tournament's page asks for it)."""
        series = series_of(request)
        owned = await asyncio.to_thread(hub.store.series_owned, series)
        return {"series": series, "owned": owned}

    @router.post("/api/rankings/secret")
    async def new_secret(request: Request, hub: TournamentsDep) -> dict[str, Any]:
        """A new owner secret for a series (``{"series", "secret"}``: the present one), shown
        once; a series without one is claimed."""
        limit(request)
        body = await read_json_object(request, CREATE_LIMIT)
        if set(body) - {"series", "secret"} or "series" not in body:
            raise HTTPException(400, 'send {"series": ..., "secret": ...}')
        store = hub.store
        with _store_errors():
            fresh = await asyncio.to_thread(
                lambda: store.set_series_secret(body["series"], body.get("secret"))
            )
        return {"series": body["series"], "series_secret": fresh}

    @router.get("/api/rankings")
    async def all_series(hub: TournamentsDep) -> dict[str, Any]:
        return {"series": await asyncio.to_thread(hub.store.all_series)}

    @router.get("/api/rankings/list")
    async def ranking(request: Request, hub: TournamentsDep) -> dict[str, Any]:
        series = series_of(request)
        kind, years, latest = list_of(request)
        store = hub.store
        try:
            found: dict[str, Any] = await asyncio.to_thread(
                lambda: store.ranking(series, kind, years=years, latest=latest)
            )
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        return found

    @router.get("/api/rankings/list.csv")
    async def ranking_csv(request: Request, hub: TournamentsDep) -> Response:
        series = series_of(request)
        kind, years, latest = list_of(request)
        store = hub.store
        try:
            entries, _ = await asyncio.to_thread(
                lambda: store.ranking_list(series, kind, years=years, latest=latest)
            )
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        name = f"rangliste-{_slug(series)}-{'ewig' if kind == 'all' else 'fuenf-jahre'}.csv"
        return _download(write_list_csv(entries), CSV, name)

    @router.get("/api/rankings/history.csv")
    async def history_csv(request: Request, hub: TournamentsDep) -> Response:
        series = series_of(request)
        rows = await asyncio.to_thread(hub.store.history, series)
        return _download(write_results_csv(rows), CSV, f"historie-{_slug(series)}.csv")

    return router


# -- live updates -----------------------------------------------------------------------------


async def tournament_socket(
    websocket: WebSocket, token: str, hub: TournamentsDep, settings: SettingsDep
) -> None:
    """``/ws/tournaments/{token}``: the whole tournament now and after every change (a page
    that falls behind skips to the newest). The page sends nothing."""
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)
        return
    try:
        data, director = await _open(hub, token[:64])
    except HTTPException:
        await websocket.close(code=1008)
        return
    await websocket.accept()
    live = hub.live(data.id)
    page = TournamentPage(director=director)
    live.pages.add(page)  # before the state is read: no change slips between
    state = await hub.state(data, director)
    page.send(
        json.dumps({"type": "tournament", "seq": data.seq, "state": state}, ensure_ascii=False)
    )
    await serve_watcher(websocket, page, live.pages)


# -- pages --------------------------------------------------------------------------------------


def tournament_pages(templates: Jinja2Templates) -> APIRouter:
    """The director's and the public pages, the projector, the printouts, the seat links of
    online tables and the ranking lists."""
    router = APIRouter()

    @router.get("/tournaments/new", response_class=HTMLResponse)
    async def new(request: Request, user: CurrentUser) -> HTMLResponse:
        return render(templates, request, "tournament_new.html", user)

    @router.get("/rankings", response_class=HTMLResponse)
    async def rankings(request: Request, user: CurrentUser) -> HTMLResponse:
        return render(templates, request, "rankings.html", user)

    @router.get("/tournaments/join/{tid}/{rnd}/{number}/{seat}/{code}")
    async def join(
        request: Request,
        tid: str,
        rnd: str,
        number: str,
        seat: str,
        code: str,
        svc: ServicesDep,
        user: CurrentUser,
    ) -> Response:
        """A player's seat link of an online table: sit down (as a guest if need be), then
        the table's page."""
        missing = HTTPException(404, "no such seat link (check the link)")
        if not TID.fullmatch(tid) or not CODE.fullmatch(code):
            raise missing
        round_number = _path_number(rnd, "round", 1, MAX_ROUND)
        table_number = _path_number(number, "table", 1, MAX_TABLE)
        seat_number = _path_number(seat, "seat", 0, 4)
        hub = svc.tournaments
        data = await asyncio.to_thread(hub.store.get, tid)
        if data is None:
            raise missing
        try:
            table = data.table(round_number, table_number)
        except UnknownTournament:
            raise missing from None
        codes = (table.online or {}).get("codes") or []
        expected = codes[seat_number] if seat_number < len(codes) else None
        if table.web_table_id is None or not isinstance(expected, str):
            raise missing
        if not secrets.compare_digest(expected, code):
            raise missing
        web_id = table.web_table_id
        if user is None:
            user = await auth.guest(svc.repo)
            await svc.sessions.start(request, user)
        info = await asyncio.to_thread(svc.repo.table, web_id)
        if info is None:
            raise missing
        held = info.seat_list[seat_number].user_id if seat_number < info.seats else None
        if held is not None and held != user.id:
            raise HTTPException(409, "this seat is taken already (by another browser)")
        if info.seat_of(user.id) != seat_number:
            try:
                await asyncio.to_thread(svc.repo.take_seat, web_id, seat_number, user.id)
            except SeatTaken as exc:
                raise HTTPException(409, str(exc)) from None
            await svc.hub.actor(web_id)
            svc.hub.notify(web_id)
        return RedirectResponse(f"/t/{web_id}", status_code=303)

    @router.get("/tournaments/{token}", response_class=HTMLResponse)
    async def tournament(
        request: Request, token: str, hub: TournamentsDep, user: CurrentUser
    ) -> HTMLResponse:
        await _open(hub, token)
        return render(templates, request, "tournament.html", user, token=token)

    @router.get("/tournaments/{token}/projector", response_class=HTMLResponse)
    async def projector(
        request: Request, token: str, hub: TournamentsDep, user: CurrentUser
    ) -> HTMLResponse:
        await _open(hub, token)
        return render(templates, request, "tournament_projector.html", user, token=token)

    @router.get("/tournaments/{token}/print/{what}", response_class=HTMLResponse)
    async def printout(
        request: Request,
        token: str,
        what: str,
        hub: TournamentsDep,
        user: CurrentUser,
        base: PublicOrigin,
    ) -> HTMLResponse:
        """A4 printouts: the seating plan by table and by name, one score sheet per table, the
        result list."""
        if what not in ("seating", "sheets", "results"):
            raise HTTPException(404, "a printout is 'seating', 'sheets' or 'results'")
        data, director = await _open(hub, token)
        state = await hub.state(data, director)
        rounds = state["rounds"]
        chosen = None
        if what != "results":
            if not rounds:
                raise HTTPException(409, "no round has been drawn yet")
            number = _query(request, "round", 1, MAX_ROUND, rounds[-1]["number"])
            found = [r for r in rounds if r["number"] == number]
            if not found:
                raise HTTPException(404, f"no round {number} has been drawn")
            chosen = found[0]
        # Every printout is read in the hall: its links are of the public address (``base``).
        if what == "sheets":
            _need_director(director)
            for table in chosen["tables"] if chosen else []:
                scorer = base + table["scorer"] if table.get("scorer") else None
                table["qr"] = qr_svg(scorer, scale=3) if scorer else None
                table["scorer_url"] = scorer
        names = {p["number"]: p["name"] for p in state["players"]}
        return render(
            templates,
            request,
            "tournament_print.html",
            user,
            what=what,
            state=state,
            round=chosen,
            names=names,
            by_name=_by_name(chosen, names) if chosen else [],
            public_url=base + state["links"]["public"],
            # A printout says when it was printed: the seating of which draw, the standings of when.
            printed=dt.datetime.now().astimezone(),
        )

    return router


def _by_name(rnd: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """The seating plan by name: each player's table and place in the dealer order."""
    out = []
    for table in rnd["tables"]:
        for position, player in enumerate(table["seating"], start=1):
            out.append(
                {
                    "name": names[player],
                    "table": table["number"],
                    "position": position,
                    "size": table["size"],
                }
            )
    return sorted(out, key=lambda row: (str(row["name"]).casefold(), row["name"]))


def router(templates: Jinja2Templates) -> APIRouter:
    """The tournaments' API, their websocket and their pages."""
    tournaments = APIRouter()
    tournaments.include_router(tournament_api())
    tournaments.include_router(tournament_pages(templates))
    tournaments.add_api_websocket_route("/ws/tournaments/{token}", tournament_socket)
    return tournaments
