"""Finds, starts, recovers and releases table actors; one actor per table in this process.

An actor in memory costs its game state, its series and its bots' caches. One that has nothing
to do and nobody to serve (``TableActor.idle``) for ``idle_release`` seconds is released; the
next connection or request that needs the table starts a new actor, which replays the log
exactly as after a restart. The same sweep notices tables stopped by the operator's command
(``python -m stichwerk.server.tables stop``) in the database and stops their actors.
"""

import asyncio
import contextlib
import logging
import time
from dataclasses import replace

from stichwerk.server.table import ActorContext, Refresh, Stopped, TableActor
from stichwerk.storage.repo import Repo

log = logging.getLogger("stichwerk.hub")

POLL_SECONDS = 5.0
"""The longest pause between two sweeps (idle actors, tables stopped from outside)."""


class Hub:
    """The registry of live tables."""

    def __init__(self, ctx: ActorContext, repo: Repo, *, idle_release: float = 300.0) -> None:
        self._ctx = replace(ctx, on_idle=self._idle)
        self._repo = repo
        self._actors: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()
        self.idle_release = idle_release
        self._quiet: dict[str, float] = {}
        """When each idle actor was first seen idle (monotonic)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.released = 0
        """Actors released so far (for the health page and the benchmark)."""

    async def actor(self, table_id: str) -> TableActor | None:
        """The running actor of ``table_id``, started (and recovered) on first use."""
        actor = self._actors.get(table_id)
        if actor is None:
            async with self._lock:
                actor = self._actors.get(table_id)
                if actor is None:
                    info = await asyncio.to_thread(self._repo.table, table_id)
                    if info is None:
                        return None
                    actor = TableActor(info, self._ctx)
                    self._actors[table_id] = actor
                    actor.start()
        actor.last_used = time.monotonic()
        await actor.booted.wait()
        if actor.failed:
            self._actors.pop(table_id, None)
            return None
        actor.last_used = time.monotonic()
        return actor

    async def recover(self) -> int:
        """Start every table that was playing when the server stopped; returns how many.

        Each actor replays its deal in progress from the event log, and bots carry on at once
        (a table nobody attends goes on to its next person's turn, waits there and is released
        later). Starts the sweep too.
        """
        self.start()
        tables = await asyncio.to_thread(self._repo.tables, status=("playing",), limit=10**9)
        for table in tables:
            try:
                await self.actor(table.id)
            except Exception:
                log.exception("could not recover table %s", table.id)
        return len(tables)

    def start(self) -> None:
        """Start the sweep (idle actors, tables stopped from outside), once."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    @property
    def poll(self) -> float:
        """Seconds between sweeps: a quarter of the idle time, at most ``POLL_SECONDS``."""
        return max(0.05, min(POLL_SECONDS, self.idle_release / 4))

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the sweep of idle and stopped tables failed")

    async def sweep(self) -> None:
        """Stop the actors of tables stopped in the database; release idle actors."""
        ids = list(self._actors)
        if ids:
            for table_id in await asyncio.to_thread(self._repo.stopped_among, ids):
                actor = self._actors.get(table_id)
                if actor is not None and actor.info.status != "stopped":
                    log.info("table %s was stopped; its bots stop", table_id)
                    actor.post(Stopped())
        now = time.monotonic()
        for gone in self._quiet.keys() - self._actors.keys():
            del self._quiet[gone]  # released meanwhile (a finished table's last viewer left)
        for table_id, actor in list(self._actors.items()):
            if not actor.idle():
                self._quiet.pop(table_id, None)
                continue
            since = max(self._quiet.setdefault(table_id, now), actor.last_used)
            if now - since >= self.idle_release:
                await self._release(table_id, actor)

    async def _release(self, table_id: str, actor: TableActor) -> None:
        """Let go of an idle actor (under the lock, so no one is handed it meanwhile)."""
        async with self._lock:
            if self._actors.get(table_id) is not actor or not actor.idle():
                return
            del self._actors[table_id]
            self._quiet.pop(table_id, None)
            actor.released = True
        await actor.stop()
        self.released += 1

    def notify(self, table_id: str) -> None:
        """The table's seats changed in the database: let its actor reload them."""
        actor = self._actors.get(table_id)
        if actor is not None:
            actor.post(Refresh())

    async def stop(self, table_id: str) -> str | None:
        """Stop a table for good (in the database, then its actor if it has one); returns
        the table's status now (``None``: no such table)."""
        status = await asyncio.to_thread(self._repo.stop_table, table_id)
        actor = self._actors.get(table_id)
        if status == "stopped" and actor is not None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            actor.post(Stopped(done))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done, timeout=10)
            if actor.connections == 0:
                self._idle(table_id)
        return status

    def _idle(self, table_id: str) -> None:
        actor = self._actors.get(table_id)
        if (
            actor is not None
            and actor.info.status in ("finished", "stopped")
            and actor.connections == 0
        ):
            del self._actors[table_id]
            actor.released = True
            asyncio.get_running_loop().create_task(actor.stop())

    @property
    def live(self) -> int:
        """Actors in memory."""
        return len(self._actors)

    async def close(self) -> None:
        """Stop the sweep and every actor."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        actors = list(self._actors.values())
        self._actors.clear()
        for actor in actors:
            await actor.stop()
