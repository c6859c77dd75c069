"""Tournaments in the web app: the director's page and API, the projector, the printouts, the
public ranking lists, and the results flowing in from the tables.

No accounts, as with the score sheet: a tournament has a director link (every change) and a
read-only link (the standings, the projector). Everything is decided and stored by
:mod:`stichwerk.storage.tournaments`; this module serves it and keeps it live:

- every table of a drawn round has a score sheet (a list of :mod:`stichwerk.server.sheets`);
  the hub watches each one, and a list that is complete (or corrected later) becomes the
  table's results at once, logged, with everything after it recomputed;
- a table may play online instead: it becomes a private web table (``POST /api/tables``'s
  machinery) with one seat link per player (and bots where the director wants them); when its
  list is over, its results come in (the hub looks every few seconds);
- every page open on a tournament holds a websocket and gets the whole tournament after each
  change, the tables' progress included; changes made by the command line on the same database
  are noticed within seconds.
"""

import asyncio
import contextlib
import datetime as dt
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from stichwerk.core.errors import StichwerkError
from stichwerk.games import game_names
from stichwerk.server import auth
from stichwerk.server.bots import available_bots
from stichwerk.server.gate import LARGE_BODIES, client_key
from stichwerk.server.jsonsafe import BadJSON, loads, read_json_object
from stichwerk.server.public import public_origin
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.security import origin_allowed
from stichwerk.server.series import TableSeries
from stichwerk.server.sheets import SheetHub, Watcher, qr_svg, serve_watcher
from stichwerk.storage.db import Database
from stichwerk.storage.repo import SeatTaken
from stichwerk.storage.tournaments import (
    SeriesLocked,
    TournamentData,
    TournamentError,
    TournamentStore,
    UnknownTournament,
    check_may_go_online,
    format_json,
    online_list_rules,
    parse_name_list,
    state_json,
    table_rules,
)
from stichwerk.tournament import FORMATS, table_results
from stichwerk.tournament.entry import EntryProblems
from stichwerk.tournament.lists import write_list_csv, write_results_csv
from stichwerk.web import LANGUAGES, pick_language, texts

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

log = logging.getLogger("stichwerk.tournaments")

TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
TID = re.compile(r"[A-Za-z0-9_-]{12}")
CODE = re.compile(r"[A-Za-z0-9_-]{16}")
CREATE_LIMIT = 8 * 1024
CHANGE_LIMIT = LARGE_BODIES[r"/api/tournaments/[^/]+/changes"]
HISTORY_LIMIT = LARGE_BODIES[r"/api/tournaments/[^/]+/history"]
IMPORT_LIMIT = LARGE_BODIES[r"/api/tournaments/import"]
WS_MESSAGE_LIMIT = 1024
POLL_SECONDS = 2.0
"""How often the hub looks at online tables still playing and at changes made elsewhere (the
command line on the same database)."""
BACKUP_DELAY = 10.0
"""Seconds after a deal entered on a table's sheet before the tournament's backup is written
again (every change of the tournament itself writes it at once)."""
ONLINE_TIME_LIMIT = 120
"""Seconds an online tournament seat may stay away before its stand-in bot plays it."""
MAX_ROUND = 20
MAX_TABLE = 100
MAX_PLAYER = 100_000
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


def _tournament_user(tid: str) -> str:
    """The account that opens a tournament's online tables (a name nobody can register)."""
    return f"Turnier {tid}"


# -- watchers ---------------------------------------------------------------------------------


@dataclass(eq=False)
class _Page(Watcher):
    """A page open on a tournament (the director's or the read-only one)."""

    director: bool = False


@dataclass(eq=False)
class _TableSheet(Watcher):
    """The hub's own watcher on a table's score sheet: a change there syncs the table."""

    hub: "TournamentHub | None" = None
    key: tuple[str, int, int] = ("", 0, 0)

    def send(self, text: str) -> None:
        if self.hub is not None:
            self.hub.sheet_changed(self.key)


@dataclass
class _Online:
    tid: str
    round: int
    table: int
    deals: int = -1


@dataclass
class _Live:
    """What the hub keeps of one tournament in this process."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    attaching: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the tournament is brought up to date (a watcher per sheet, not two)."""
    pages: set[_Page] = field(default_factory=set)
    sent: int = -1
    """The change the pages were last sent."""
    dirty: bool = False
    pushing: bool = False
    sheets: dict[str, _TableSheet] = field(default_factory=dict)
    seen: set[tuple[int, int]] = field(default_factory=set)
    """Tables brought up to date with their sheets in this process (later changes come from
    the sheets' watchers)."""


class TournamentHub:
    """The tournaments this process serves: their pages, their tables' sheets, their online
    tables."""

    def __init__(self, store: TournamentStore, sheets: SheetHub) -> None:
        self.store = store
        self.sheets = sheets
        self._live: dict[str, _Live] = {}
        self._online: dict[str, _Online] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._services: Any = None
        self._backups: set[str] = set()
        """Tournaments whose backup is to be written again soon (a deal entered)."""

    def live(self, tid: str) -> _Live:
        found = self._live.get(tid)
        if found is None:
            found = self._live[tid] = _Live()
        return found

    # -- life cycle ---------------------------------------------------------------------------

    def start(self, app: Any) -> None:
        """Start looking after the running tournaments (at the server's start)."""
        self._services = app.state.services
        self._poller = asyncio.get_running_loop().create_task(self._poll())
        self._spawn(self._recover())

    async def close(self) -> None:
        for task in [*self._tasks, *([self._poller] if self._poller else [])]:
            task.cancel()
        for task in [*self._tasks, *([self._poller] if self._poller else [])]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for tid in list(self._backups):
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._write_backup, tid)
        for live in self._live.values():
            for page in live.pages:
                page.closed = True
                page.wake.set()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _recover(self) -> None:
        """Every running tournament: its sheets watched, its online tables looked after, and
        anything a crash left between a sheet's change and the table's results caught up."""
        for summary in await asyncio.to_thread(self.store.tournaments, 10_000):
            if summary.status == "running":
                try:
                    await self.attach(summary.id)
                except Exception:
                    log.exception("tournament %s could not be recovered", summary.id)

    # -- keeping a tournament live ------------------------------------------------------------

    async def attach(self, tid: str) -> TournamentData:
        """The tournament brought up to date with its tables (first use in this process, or
        after a change), its sheets watched and its online tables registered."""
        live = self.live(tid)
        async with live.attaching:
            return await self._attach(tid, live)

    async def _attach(self, tid: str, live: _Live) -> TournamentData:
        data = await asyncio.to_thread(self.store.need, tid)
        for r in data.rounds:
            for t in r.tables:
                key = (tid, r.number, t.number)
                if (r.number, t.number) in live.seen:
                    continue
                if t.list_id is not None and t.list_id not in live.sheets:
                    try:
                        sheet = await self.sheets.live(t.list_id)
                    except HTTPException:
                        continue
                    watcher = _TableSheet(hub=self, key=key)
                    sheet.watchers.add(watcher)
                    live.sheets[t.list_id] = watcher
                if t.mode == "sheet" and t.list_id is not None:
                    changed = await asyncio.to_thread(self.store.sync_sheet, *key)
                    if changed is not None:
                        data = changed
                if t.mode == "online" and t.web_table_id and t.results is None:
                    self._online.setdefault(t.web_table_id, _Online(tid, r.number, t.number))
                live.seen.add((r.number, t.number))
        return data

    def forget_all(self, tid: str) -> None:
        """The tournament was put in place anew (a backup imported over it)."""
        live = self.live(tid)
        live.seen.clear()
        for list_id in live.sheets:
            self.sheets.forget(list_id)
        live.sheets.clear()

    def forget(self, tid: str, round_number: int) -> None:
        """A round's draw was taken back: its tables may be drawn anew."""
        live = self.live(tid)
        live.seen = {key for key in live.seen if key[0] != round_number}

    def sheet_changed(self, key: tuple[str, int, int]) -> None:
        """A table's score sheet changed: take its results if it is complete, and show the
        table's progress."""
        self._spawn(self._sheet_changed(key))

    async def _sheet_changed(self, key: tuple[str, int, int]) -> None:
        tid = key[0]
        async with self.live(tid).lock:
            try:
                entered = await asyncio.to_thread(self.store.sync_sheet, *key)
            except StichwerkError as exc:
                log.warning("tournament %s: table %s/%s: %s", tid, key[1], key[2], exc)
                entered = None
        if entered is None and tid not in self._backups:
            # A deal on a sheet: the backup follows a little later (one write for a burst).
            self._backups.add(tid)
            self._spawn(self._backup_soon(tid))
        await self.changed(tid)

    async def _backup_soon(self, tid: str) -> None:
        await asyncio.sleep(BACKUP_DELAY)
        await asyncio.to_thread(self._write_backup, tid)

    def _write_backup(self, tid: str) -> None:
        self._backups.discard(tid)
        data = self.store.get(tid)
        if data is not None:
            self.store.write_backup(data)

    async def changed(self, tid: str) -> None:
        """Something changed: send every page the tournament as it is now (a burst of changes
        sends the latest once)."""
        live = self.live(tid)
        live.dirty = True
        if live.pushing:
            return
        live.pushing = True
        try:
            while live.dirty:
                live.dirty = False
                data = await self.attach(tid)
                if not live.pages:
                    live.sent = data.seq
                    continue
                progress = await self._progresses(data)
                frames = {}
                for director in (False, True):
                    state = await self.state(data, director, progress)
                    frames[director] = json.dumps(
                        {"type": "tournament", "seq": data.seq, "state": state},
                        ensure_ascii=False,
                    )
                live.sent = data.seq
                for page in live.pages:
                    page.send(frames[page.director])
        finally:
            live.pushing = False

    async def _progresses(self, data: TournamentData) -> dict[tuple[int, int], Any]:
        return {
            (r.number, t.number): await self._progress(t.mode, t.list_id, t.web_table_id)
            for r in data.rounds
            for t in r.tables
        }

    async def state(
        self,
        data: TournamentData,
        director: bool,
        progress: dict[tuple[int, int], Any] | None = None,
    ) -> dict[str, Any]:
        """The tournament for a page: :func:`state_json`, the links the role may see, and each
        table's progress (games played and running totals)."""
        if progress is None:
            progress = await self._progresses(data)
        state = await asyncio.to_thread(state_json, data, director=director)
        for r in state["rounds"]:
            for table in r["tables"]:
                table["progress"] = progress.get((r["number"], table["number"]))
        state["role"] = "director" if director else "public"
        links = {
            "public": f"/tournaments/{data.public_token}",
            "projector": f"/tournaments/{data.public_token}/projector",
        }
        if director:
            links["director"] = f"/tournaments/{data.director_token}"
        state["links"] = links
        return state

    async def _progress(
        self, mode: str, list_id: str | None, web_table_id: str | None
    ) -> dict[str, Any] | None:
        if mode == "online" and web_table_id is not None:
            repo = self._services.repo
            deals = await asyncio.to_thread(repo.deals_of_table, web_table_id)
            return {"played": sum(1 for d in deals if d.status == "finished" and d.counts)}
        if list_id is None:
            return None
        try:
            sheet = (await self.sheets.live(list_id)).sheet
        except HTTPException:
            return None
        return {
            "played": sheet.series.games_played,
            "games": sheet.series.rules.total_games,
            "totals": sheet.totals(),
        }

    # -- online tables ------------------------------------------------------------------------

    async def make_online(
        self, request: Request, tid: str, round_number: int, table_number: int, bots: object
    ) -> TournamentData:
        """The table plays at a private web table: a seat link per player, bots where asked."""
        svc = self._services
        data = await asyncio.to_thread(self.store.need, tid)
        table = data.table(round_number, table_number)
        fmt = data.fmt
        if fmt.game not in game_names():
            raise TournamentError(f"{fmt.game} cannot be played online here")
        if (
            not isinstance(bots, list)
            or not all(isinstance(b, int) and not isinstance(b, bool) for b in bots)
            or len(set(bots)) != len(bots)
            or not all(0 <= b < table.size for b in bots)
        ):
            raise StichwerkError(f"'bots' lists seats from 0 to {table.size - 1}, each once")
        check_may_go_online(data, table)
        known = available_bots()
        bot = "heuristic" if "heuristic" in known else known[0]
        seats = [("bot" if s in bots else "human", bot) for s in range(table.size)]
        rules = table_rules(fmt, data.profile, table.size, round_number)
        list_rules = online_list_rules(fmt, data.profile, table.size, round_number, table.duty_owed)
        # A trial list checks the table as its actor will keep it.
        TableSeries(fmt.game, data.profile, {}, table.size, rules.games or 0, (), 0, list_rules)
        name = _tournament_user(tid)
        user = await asyncio.to_thread(svc.repo.user_by_name, name)
        if user is None:
            user = await asyncio.to_thread(svc.repo.create_user, name, None, True)
        info = await asyncio.to_thread(
            lambda: svc.repo.create_table(
                game=fmt.game,
                profile=data.profile,
                options={},
                seats=seats,
                series_length=rules.games or 0,
                time_limit=ONLINE_TIME_LIMIT,
                public=False,
                created_by=user.id,
                creator_seat=None,
                closing_rounds=(),
                first_dealer=0,
                list_rules=list_rules,
            )
        )
        codes: list[str | None] = [
            None if s in bots else secrets.token_urlsafe(12) for s in range(table.size)
        ]
        data = await asyncio.to_thread(
            self.store.set_online, tid, round_number, table_number, info.id, codes, sorted(bots)
        )
        self._online[info.id] = _Online(tid, round_number, table_number)
        if not info.free_seats:
            # Nobody to wait for: the bots start at once.
            await svc.hub.actor(info.id)
            svc.hub.notify(info.id)
        return data

    async def _poll(self) -> None:
        """Every few seconds: online tables whose list is over, online progress, and changes
        made by another process (the command line)."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                await self._look()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament poll failed")

    async def _look(self) -> None:
        repo = self._services.repo
        for web_id, online in list(self._online.items()):
            info = await asyncio.to_thread(repo.table, web_id)
            if info is None:
                self._online.pop(web_id, None)
                continue
            deals = await asyncio.to_thread(repo.deals_of_table, web_id)
            done = sum(1 for d in deals if d.status == "finished")
            if info.status == "finished":
                await self._online_over(web_id, online, info, deals)
            elif done != online.deals:
                online.deals = done
                await self.changed(online.tid)
        for tid, live in list(self._live.items()):
            if live.pages and await asyncio.to_thread(self.store.seq, tid) != live.sent:
                await self.changed(tid)

    async def _online_over(self, web_id: str, online: _Online, info: Any, deals: Any) -> None:
        series = TableSeries(
            info.game,
            info.profile,
            info.options,
            info.seats,
            info.series_length,
            info.closing_rounds,
            info.first_dealer,
            info.list_rules,
        )
        for deal in deals:
            if deal.status == "finished" and deal.result is not None:
                series.add(deal.number, deal.result)
        self._online.pop(web_id, None)
        if not series.is_over:
            log.error("online table %s is finished but its list is not complete", web_id)
            return
        data = await asyncio.to_thread(self.store.need, online.tid)
        table = data.table(online.round, online.table)
        results = table_results(online.round, table.seating, series.series)
        async with self.live(online.tid).lock:
            await asyncio.to_thread(
                self.store.store_online, online.tid, online.round, online.table, web_id, results
            )
        await self.changed(online.tid)


# -- helpers ----------------------------------------------------------------------------------


def _hub(request: Request | WebSocket) -> TournamentHub:
    hub: TournamentHub = request.app.state.tournaments
    return hub


async def _open(request: Request | WebSocket, token: str) -> tuple[TournamentData, bool]:
    """The tournament a link opens (brought up to date) and whether it is the director's."""
    if not TOKEN.fullmatch(token):
        raise HTTPException(404, "no such tournament (check the link)")
    hub = _hub(request)
    found = await asyncio.to_thread(hub.store.by_token, token)
    if found is None:
        raise HTTPException(404, "no such tournament (check the link)")
    data, role = found
    data = await hub.attach(data.id)
    return data, role == "director"


def _need_director(director: bool) -> None:
    if not director:
        raise HTTPException(403, "this is the read-only link: the director's link may change it")


def _whole(raw: object, what: str, lo: int, hi: int, *, path: bool = False) -> int:
    """A body value (a JSON number), or with ``path`` a path segment, that must be a whole
    number in range (one-line error)."""
    if isinstance(raw, bool):
        raise HTTPException(400, f"'{what}' must be a whole number from {lo} to {hi}")
    if path and isinstance(raw, str):
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 7:
            raise HTTPException(400, f"'{what}' must be a whole number from {lo} to {hi}")
        raw = int(raw)
    if not isinstance(raw, int) or not lo <= raw <= hi:
        raise HTTPException(400, f"'{what}' must be a whole number from {lo} to {hi}")
    return raw


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


def _keys(body: dict[str, Any], allowed: set[str]) -> None:
    extra = set(body) - allowed - {"op"}
    if extra:
        raise HTTPException(400, f"unknown key {sorted(extra)[0]!r} for {body.get('op')!r}")


def _download(body: str, media: str, name: str) -> Response:
    return Response(
        body, media_type=media, headers={"content-disposition": f'attachment; filename="{name}"'}
    )


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40] or "turnier"


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
    async def create(request: Request) -> dict[str, Any]:
        """A new tournament: name, format, date, place, series (and a seed, if you like)."""
        limit(request)
        body = await read_json_object(request, CREATE_LIMIT)
        allowed = {"name", "format", "date", "place", "series", "seed", "secret"}
        if set(body) - allowed:
            raise HTTPException(400, f"unknown key {sorted(set(body) - allowed)[0]!r}")
        hub = _hub(request)
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
    async def import_backup(request: Request) -> dict[str, Any]:
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
            hub = _hub(request)
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
    async def get(request: Request, token: str) -> dict[str, Any]:
        data, director = await _open(request, token)
        return await _hub(request).state(data, director)

    @router.get("/api/tournaments/{token}/log")
    async def changes(request: Request, token: str) -> dict[str, Any]:
        since = _query(request, "since", 0, 10**9, 0) or 0
        data, _ = await _open(request, token)
        rows = await asyncio.to_thread(_hub(request).store.log, data.id, since)
        return {"seq": data.seq, "changes": rows}

    @router.get("/api/tournaments/{token}/names")
    async def names(request: Request, token: str) -> dict[str, Any]:
        """Names from earlier tournaments beginning with ``q`` (the registration's hints)."""
        _, director = await _open(request, token)
        _need_director(director)
        query = request.query_params.get("q", "")
        if len(query) > 40:
            raise HTTPException(422, "'q' must be at most 40 characters")
        found = await asyncio.to_thread(_hub(request).store.names, query)
        return {"names": found}

    @router.post("/api/tournaments/{token}/changes")
    async def change(request: Request, token: str) -> dict[str, Any]:
        """One change by the director (``docs/tournaments.md``: the API)."""
        body = await read_json_object(request, CHANGE_LIMIT)
        data, director = await _open(request, token)
        _need_director(director)
        hub = _hub(request)
        store = hub.store
        tid = data.id
        op = body.get("op")
        if op == "add_players":
            _keys(body, {"names", "text"})
            raw = body.get("names")
            if "text" in body:
                if not isinstance(body["text"], str):
                    raise HTTPException(400, "'text' must be the pasted list")
                raw = parse_name_list(body["text"])
            if not isinstance(raw, list) or not 1 <= len(raw) <= 200:
                raise HTTPException(400, "'names' lists 1 to 200 players")
            data = await _run(hub, tid, store.add_players, tid, raw)
        elif op in ("remove_player", "withdraw", "reinstate"):
            _keys(body, {"player"})
            player = _whole(body.get("player"), "player", 0, MAX_PLAYER)
            call = {
                "remove_player": store.remove_player,
                "withdraw": store.withdraw,
                "reinstate": store.reinstate,
            }[op]
            data = await _run(hub, tid, call, tid, player)
        elif op == "rename_player":
            _keys(body, {"player", "name"})
            player = _whole(body.get("player"), "player", 0, MAX_PLAYER)
            data = await _run(hub, tid, store.rename_player, tid, player, body.get("name"))
        elif op == "edit":
            _keys(body, {"name", "date", "place", "series", "secret"})
            fields = {k: v for k, v in body.items() if k not in ("op", "secret")}
            secret = body.get("secret")
            data = await _run(hub, tid, lambda: store.edit(tid, fields, secret=secret, guard=True))
        elif op == "draw":
            _keys(body, set())
            data = await _run(hub, tid, store.draw, tid)
        elif op == "undraw":
            _keys(body, set())
            last = data.rounds[-1].number if data.rounds else 0
            data = await _run(hub, tid, store.undraw, tid)
            hub.forget(tid, last)
        elif op in ("enter", "mode", "online"):
            extra = {"enter": "results", "mode": "mode", "online": "bots"}[op]
            _keys(body, {"round", "table", extra} | ({"explain"} if op == "enter" else set()))
            rnd = _whole(body.get("round"), "round", 1, MAX_ROUND)
            number = _whole(body.get("table"), "table", 1, MAX_TABLE)
            if op == "enter":
                # "explain": true asks for the typed totals' problems as a list beside the line
                # (the page shows each at its field); without it the answer is the line alone.
                explain = body.get("explain", False)
                if not isinstance(explain, bool):
                    raise HTTPException(400, "'explain' is true or false")
                try:
                    data = await _run(hub, tid, store.enter, tid, rnd, number, body.get("results"))
                except EntryProblems as exc:
                    if explain:
                        raise
                    raise HTTPException(400, str(exc)) from None
            elif op == "mode":
                mode = body.get("mode")
                if not isinstance(mode, str):
                    raise HTTPException(400, "'mode' is 'sheet' or 'quick'")
                data = await _run(hub, tid, store.set_mode, tid, rnd, number, mode)
            else:
                async with hub.live(tid).lock:
                    with _store_errors():
                        data = await hub.make_online(
                            request, tid, rnd, number, body.get("bots", [])
                        )
                await hub.changed(tid)
        elif op == "finish":
            _keys(body, set())
            data = await _run(hub, tid, store.finish, tid)
        else:
            known = (
                "add_players, remove_player, rename_player, withdraw, reinstate, edit, "
                "draw, undraw, enter, mode, online, finish"
            )
            raise HTTPException(400, f"unknown op {op!r} (known: {known})")
        return await hub.state(data, True)

    @router.post("/api/tournaments/{token}/history")
    async def history(request: Request, token: str) -> dict[str, Any]:
        """Past tournaments (CSV, ``{"text": ..., "secret": ...}``) into this tournament's
        series (its owner's secret needed; written in short batches off the event loop)."""
        with large.take(request):
            body = await read_large_object(request, HISTORY_LIMIT)
            data, director = await _open(request, token)
            _need_director(director)
            if not {"text"} <= set(body) <= {"text", "secret"} or not isinstance(body["text"], str):
                raise HTTPException(400, 'send the CSV file as {"text": ..., "secret": ...}')
            store = _hub(request).store
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
    async def backup(request: Request, token: str) -> Response:
        data, director = await _open(request, token)
        _need_director(director)
        body = await asyncio.to_thread(_hub(request).store.export, data.id)
        name = f"stichwerk-{data.held_on.isoformat()}-{_slug(data.name)}-{data.seq:05d}.json"
        return _download(json.dumps(body, ensure_ascii=False, indent=1), "application/json", name)

    @router.get("/api/tournaments/{token}/results.csv")
    async def results_csv(request: Request, token: str) -> Response:
        """The final ranking as rows of the club's history (date, player, place ...)."""
        data, _ = await _open(request, token)
        state = await asyncio.to_thread(state_json, data, director=False)
        if state["ranking"] is None:
            raise HTTPException(409, "there is no ranking yet")
        from stichwerk.tournament import PastResult

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
    async def owner(request: Request) -> dict[str, Any]:
        """Whether a series has an owner secret (the new tournament's page asks for it)."""
        series = series_of(request)
        owned = await asyncio.to_thread(_hub(request).store.series_owned, series)
        return {"series": series, "owned": owned}

    @router.post("/api/rankings/secret")
    async def new_secret(request: Request) -> dict[str, Any]:
        """A new owner secret for a series (``{"series", "secret"}``: the present one), shown
        once; a series without one is claimed."""
        limit(request)
        body = await read_json_object(request, CREATE_LIMIT)
        if set(body) - {"series", "secret"} or "series" not in body:
            raise HTTPException(400, 'send {"series": ..., "secret": ...}')
        store = _hub(request).store
        with _store_errors():
            fresh = await asyncio.to_thread(
                lambda: store.set_series_secret(body["series"], body.get("secret"))
            )
        return {"series": body["series"], "series_secret": fresh}

    @router.get("/api/rankings")
    async def all_series(request: Request) -> dict[str, Any]:
        return {"series": await asyncio.to_thread(_hub(request).store.all_series)}

    @router.get("/api/rankings/list")
    async def ranking(request: Request) -> dict[str, Any]:
        series = series_of(request)
        kind, years, latest = list_of(request)
        store = _hub(request).store
        try:
            found: dict[str, Any] = await asyncio.to_thread(
                lambda: store.ranking(series, kind, years=years, latest=latest)
            )
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        return found

    @router.get("/api/rankings/list.csv")
    async def ranking_csv(request: Request) -> Response:
        series = series_of(request)
        kind, years, latest = list_of(request)
        store = _hub(request).store
        try:
            entries, _ = await asyncio.to_thread(
                lambda: store.ranking_list(series, kind, years=years, latest=latest)
            )
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        name = f"rangliste-{_slug(series)}-{'ewig' if kind == 'all' else 'fuenf-jahre'}.csv"
        return _download(write_list_csv(entries), CSV, name)

    @router.get("/api/rankings/history.csv")
    async def history_csv(request: Request) -> Response:
        series = series_of(request)
        rows = await asyncio.to_thread(_hub(request).store.history, series)
        return _download(write_results_csv(rows), CSV, f"historie-{_slug(series)}.csv")

    return router


# -- live updates -----------------------------------------------------------------------------


async def tournament_socket(websocket: WebSocket, token: str) -> None:
    """``/ws/tournaments/{token}``: the whole tournament now and after every change (a page
    that falls behind skips to the newest). The page sends nothing."""
    from stichwerk.server.app import services

    settings = services(websocket).settings
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)
        return
    hub = _hub(websocket)
    try:
        data, director = await _open(websocket, token[:64])
    except HTTPException:
        await websocket.close(code=1008)
        return
    await websocket.accept()
    live = hub.live(data.id)
    page = _Page(director=director)
    live.pages.add(page)  # before the state is read: no change slips between
    state = await hub.state(data, director)
    page.send(
        json.dumps({"type": "tournament", "seq": data.seq, "state": state}, ensure_ascii=False)
    )
    await serve_watcher(websocket, page, live.pages)


# -- pages --------------------------------------------------------------------------------------


def tournament_pages(templates: "Jinja2Templates") -> APIRouter:
    """The director's and the public pages, the projector, the printouts, the seat links of
    online tables and the ranking lists."""
    router = APIRouter()

    async def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        from stichwerk.server.app import current_user

        lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
        return templates.TemplateResponse(
            request,
            name,
            {
                "lang": lang,
                "t": texts(lang),
                "user": await current_user(request),
                "languages": LANGUAGES,
                **context,
            },
        )

    @router.get("/tournaments/new", response_class=HTMLResponse)
    async def new(request: Request) -> HTMLResponse:
        return await page(request, "tournament_new.html")

    @router.get("/rankings", response_class=HTMLResponse)
    async def rankings(request: Request) -> HTMLResponse:
        return await page(request, "rankings.html")

    @router.get("/tournaments/join/{tid}/{rnd}/{number}/{seat}/{code}")
    async def join(
        request: Request, tid: str, rnd: str, number: str, seat: str, code: str
    ) -> Response:
        """A player's seat link of an online table: sit down (as a guest if need be), then
        the table's page."""
        from stichwerk.server.app import _login_session, current_user, services

        missing = HTTPException(404, "no such seat link (check the link)")
        if not TID.fullmatch(tid) or not CODE.fullmatch(code):
            raise missing
        round_number = _whole(rnd, "round", 1, MAX_ROUND, path=True)
        table_number = _whole(number, "table", 1, MAX_TABLE, path=True)
        seat_number = _whole(seat, "seat", 0, 4, path=True)
        hub = _hub(request)
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
        svc = services(request)
        web_id = table.web_table_id
        user = await current_user(request)
        if user is None:
            user = await auth.guest(svc.repo)
            await _login_session(request, user)
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

    async def opened(request: Request, token: str) -> tuple[TournamentData, bool]:
        return await _open(request, token)

    @router.get("/tournaments/{token}", response_class=HTMLResponse)
    async def tournament(request: Request, token: str) -> HTMLResponse:
        await opened(request, token)
        return await page(request, "tournament.html", token=token)

    @router.get("/tournaments/{token}/projector", response_class=HTMLResponse)
    async def projector(request: Request, token: str) -> HTMLResponse:
        await opened(request, token)
        return await page(request, "tournament_projector.html", token=token)

    @router.get("/tournaments/{token}/print/{what}", response_class=HTMLResponse)
    async def printout(request: Request, token: str, what: str) -> HTMLResponse:
        """A4 printouts: the seating plan by table and by name, one score sheet per table, the
        result list."""
        if what not in ("seating", "sheets", "results"):
            raise HTTPException(404, "a printout is 'seating', 'sheets' or 'results'")
        data, director = await opened(request, token)
        hub = _hub(request)
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
        # Every printout is read in the hall: its links are of the public address.
        base = public_origin(request)
        if what == "sheets":
            _need_director(director)
            for table in chosen["tables"] if chosen else []:
                scorer = base + table["scorer"] if table.get("scorer") else None
                table["qr"] = qr_svg(scorer, scale=3) if scorer else None
                table["scorer_url"] = scorer
        names = {p["number"]: p["name"] for p in state["players"]}
        return await page(
            request,
            "tournament_print.html",
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


def install(
    app: Any, db: Database, templates: "Jinja2Templates", sheets: SheetHub
) -> TournamentHub:
    """Add tournaments to the app: routes, the websocket, the hub (started and stopped with
    the app)."""
    hub = TournamentHub(TournamentStore(db), sheets)
    app.state.tournaments = hub
    app.include_router(tournament_api())
    app.include_router(tournament_pages(templates))
    app.add_api_websocket_route("/ws/tournaments/{token}", tournament_socket)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(started: Any) -> AsyncIterator[Any]:
        async with inner(started) as value:
            hub.start(started)
            try:
                yield value
            finally:
                await hub.close()

    app.router.lifespan_context = lifespan
    return hub
