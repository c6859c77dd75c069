"""Tournaments in the web app, the service: the results flowing in from the tables, and the
pages kept live (the routes are in ``routers/tournaments.py``).

No accounts, as with the score sheet: a tournament has a director link (every change) and a
read-only link (the standings, the projector). Everything is decided and stored by
:mod:`stichwerk.storage.tournaments`; the ``TournamentHub`` keeps it live:

- every table of a drawn round has a score sheet (a list of :mod:`stichwerk.server.sheets`);
  the hub watches each one, and a list that is complete (or corrected later) becomes the
  table's results at once, logged, with everything after it recomputed;
- a table may play online instead: it becomes a private web table (``POST /api/tables``'s
  machinery) with one seat link per player (and bots where the director wants them); its
  table actor announces each finished deal (``server/events.py``): the progress shows at once,
  and when its list is over its results come in;
- every page open on a tournament holds a websocket and gets the whole tournament after each
  change, the tables' progress included; changes made by the command line on the same database
  are noticed within seconds (the one thing the hub looks for every few seconds).
"""

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from fastapi import HTTPException

from stichwerk.core.errors import StichwerkError
from stichwerk.games import game_names
from stichwerk.server.bots import available_bots
from stichwerk.server.events import DealEvents, DealFinished
from stichwerk.server.hub import Hub
from stichwerk.server.series import TableSeries
from stichwerk.server.sheets import SheetHub, Watcher
from stichwerk.server.tournament_json import page_links, state_json
from stichwerk.storage.repo import Repo
from stichwerk.storage.tournaments import TournamentStore
from stichwerk.tournament import table_results
from stichwerk.tournament.day import check_may_go_online
from stichwerk.tournament.snapshot import TournamentData, TournamentError
from stichwerk.tournament_tables import online_list_rules, table_rules

log = logging.getLogger("stichwerk.tournaments")

POLL_SECONDS = 2.0
"""How often the hub looks for changes made elsewhere (the command line on the same
database)."""
BACKUP_DELAY = 10.0
"""Seconds after a deal entered on a table's sheet before the tournament's backup is written
again (every change of the tournament itself writes it at once)."""
ONLINE_TIME_LIMIT = 120
"""Seconds an online tournament seat may stay away before its stand-in bot plays it."""


def _tournament_user(tid: str) -> str:
    """The account that opens a tournament's online tables (a name nobody can register)."""
    return f"Turnier {tid}"


# -- watchers ---------------------------------------------------------------------------------


@dataclass(eq=False)
class TournamentPage(Watcher):
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
    """The tournament table an online web table plays for."""

    tid: str
    round: int
    table: int


@dataclass
class LiveTournament:
    """What the hub keeps of one tournament in this process."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    attaching: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the tournament is brought up to date (a watcher per sheet, not two)."""
    pages: set[TournamentPage] = field(default_factory=set)
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

    def __init__(
        self,
        store: TournamentStore,
        sheets: SheetHub,
        repo: Repo,
        tables: Hub,
        deal_events: DealEvents,
    ) -> None:
        self.store = store
        self.sheets = sheets
        self.repo = repo
        """The web tables' store (an online table is one)."""
        self.tables = tables
        """The live web tables (an online table's actor is started here)."""
        self._live: dict[str, LiveTournament] = {}
        self._online: dict[str, _Online] = {}
        """Online tables still playing, by their web table's id."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._backups: set[str] = set()
        """Tournaments whose backup is to be written again soon (a deal entered)."""
        deal_events.subscribe(self.deal_finished)

    def live(self, tid: str) -> LiveTournament:
        found = self._live.get(tid)
        if found is None:
            found = self._live[tid] = LiveTournament()
        return found

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start looking after the running tournaments (at the server's start)."""
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

    async def _attach(self, tid: str, live: LiveTournament) -> TournamentData:
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
                web_id = t.web_table_id
                if (
                    t.mode == "online"
                    and web_id
                    and t.results is None
                    and web_id not in self._online
                ):
                    self._online[web_id] = _Online(tid, r.number, t.number)
                    # Its list may have ended while no process looked after it (a restart).
                    self._spawn(self._online_done(web_id))
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
        state["links"] = page_links(data, director=director)
        return state

    async def _progress(
        self, mode: str, list_id: str | None, web_table_id: str | None
    ) -> dict[str, Any] | None:
        if mode == "online" and web_table_id is not None:
            deals = await asyncio.to_thread(self.repo.deals_of_table, web_table_id)
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
        self, tid: str, round_number: int, table_number: int, bots: object
    ) -> TournamentData:
        """The table plays at a private web table: a seat link per player, bots where asked."""
        repo = self.repo
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
        seats: list[tuple[str, str | None]] = [
            ("bot" if s in bots else "human", bot) for s in range(table.size)
        ]
        rules = table_rules(fmt, data.profile, table.size, round_number)
        list_rules = online_list_rules(fmt, data.profile, table.size, round_number, table.duty_owed)
        # A trial list checks the table as its actor will keep it.
        TableSeries(fmt.game, data.profile, {}, table.size, rules.games or 0, (), 0, list_rules)
        name = _tournament_user(tid)
        user = await asyncio.to_thread(repo.user_by_name, name)
        if user is None:
            user = await asyncio.to_thread(repo.create_user, name, None, True)
        info = await asyncio.to_thread(
            lambda: repo.create_table(
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
            await self.tables.actor(info.id)
            self.tables.notify(info.id)
        return data

    async def _poll(self) -> None:
        """Every few seconds: changes made by another process (the command line)."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                await self._look()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament poll failed")

    async def _look(self) -> None:
        for tid, live in list(self._live.items()):
            if live.pages and await asyncio.to_thread(self.store.seq, tid) != live.sent:
                await self.changed(tid)

    def deal_finished(self, event: DealFinished) -> None:
        """A table actor stored a finished deal: if the table plays for a tournament, its
        progress shows, and when its list is over its results come in."""
        online = self._online.get(event.table.id)
        if online is None:
            return
        if event.over:
            self._spawn(self._online_done(event.table.id))
        else:
            self._spawn(self.changed(online.tid))

    async def _online_done(self, web_id: str) -> None:
        """Take an online table's results if its list is over (else leave it be)."""
        online = self._online.pop(web_id, None)
        if online is None:
            return  # taken in already
        info = await asyncio.to_thread(self.repo.table, web_id)
        if info is None:
            return
        if info.status != "finished":
            self._online.setdefault(web_id, online)
            return
        deals = await asyncio.to_thread(self.repo.deals_of_table, web_id)
        await self._online_over(web_id, online, info, deals)

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
