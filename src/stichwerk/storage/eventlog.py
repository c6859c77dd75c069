"""The event log's writer: one thread that commits appends in groups.

Every table actor awaits its append before it applies and broadcasts an action, so an action
someone has seen acknowledged is already committed. With hundreds of tables the appends arrive
together; the writer takes whatever is queued and commits it in one transaction (group commit),
which keeps SQLite's single writer lock from becoming the bottleneck. If a group fails (say, a
duplicate ``seq`` from a confused writer), its events are retried one by one so that only the
offending append fails.
"""

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from stichwerk.storage.repo import NewEvent, Repo

MAX_GROUP = 256
T = TypeVar("T")


@dataclass
class _Pending(Generic[T]):
    item: T
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


def _resolve(pending: "_Pending[T]", error: BaseException | None) -> None:
    def done() -> None:
        if pending.future.done():
            return
        if error is None:
            pending.future.set_result(None)
        else:
            pending.future.set_exception(error)

    pending.loop.call_soon_threadsafe(done)


class GroupWriter(Generic[T]):
    """Stores items from any asyncio task through ``store`` (one transaction for a list of
    items); ``await append(item)`` returns once committed. One thread takes whatever is queued
    and stores it together (group commit); a group that fails is retried item by item, so only
    the offending item fails."""

    def __init__(self, store: Callable[[list[T]], None], name: str) -> None:
        self._store = store
        self._queue: queue.SimpleQueue[_Pending[T] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    async def append(self, item: T) -> None:
        """Commit ``item``; raises what the database raised if it could not be stored."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Pending(item, future, loop))
        await future

    def close(self) -> None:
        """Finish what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            stop = False
            while len(group) < MAX_GROUP:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                group.append(item)
            self._commit(group)
            if stop:
                return

    def _commit(self, group: "list[_Pending[T]]") -> None:
        try:
            self._store([p.item for p in group])
        except Exception as exc:
            if len(group) > 1:
                for pending in group:
                    self._commit([pending])
            else:
                _resolve(group[0], exc)
            return
        for pending in group:
            _resolve(pending, None)


class EventWriter(GroupWriter[NewEvent]):
    """The event log's writer: ``await append(event)`` returns once the event is committed."""

    def __init__(self, repo: Repo) -> None:
        super().__init__(repo.append_events, "event-writer")
