"""Finds, starts and recovers table actors; one actor per table in this process."""

import asyncio
import logging
from dataclasses import replace

from stichwerk.server.table import ActorContext, Refresh, TableActor
from stichwerk.storage.repo import Repo

log = logging.getLogger("stichwerk.hub")


class Hub:
    """The registry of live tables."""

    def __init__(self, ctx: ActorContext, repo: Repo) -> None:
        self._ctx = replace(ctx, on_idle=self._idle)
        self._repo = repo
        self._actors: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()

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
        await actor.booted.wait()
        if actor.failed:
            self._actors.pop(table_id, None)
            return None
        return actor

    async def recover(self) -> int:
        """Start every table that was playing when the server stopped; returns how many.

        Each actor replays its deal in progress from the event log, and bots carry on at once.
        """
        tables = await asyncio.to_thread(self._repo.tables, status=("playing",))
        for table in tables:
            try:
                await self.actor(table.id)
            except Exception:
                log.exception("could not recover table %s", table.id)
        return len(tables)

    def notify(self, table_id: str) -> None:
        """The table's seats changed in the database: let its actor reload them."""
        actor = self._actors.get(table_id)
        if actor is not None:
            actor.post(Refresh())

    def _idle(self, table_id: str) -> None:
        actor = self._actors.get(table_id)
        if actor is not None and actor.info.status == "finished" and actor.connections == 0:
            del self._actors[table_id]
            asyncio.get_running_loop().create_task(actor.stop())

    @property
    def live(self) -> int:
        """Actors in memory."""
        return len(self._actors)

    async def close(self) -> None:
        """Stop every actor."""
        actors = list(self._actors.values())
        self._actors.clear()
        for actor in actors:
            await actor.stop()
