"""In-process events the table actors announce: who needs to know that a deal is over.

A table actor stores a finished deal and then publishes a :class:`DealFinished`; the services
that care (the ratings take the deal in, a tournament takes an online table's results when its
list is over) subscribe when the app is assembled. So the actor knows nothing of ratings or
tournaments, and nobody polls the database to find out what an actor already knows.

A listener runs on the event loop, inside the actor's turn: it must only note the event or
start a task of its own, never wait. One that raises is logged and the others still run.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from stichwerk.storage.repo import TableInfo

log = logging.getLogger("stichwerk.events")


@dataclass(frozen=True)
class DealFinished:
    """A deal's result is stored; ``over``: the table's list ended with it (the table is
    stored as finished too)."""

    table: TableInfo
    number: int
    over: bool


Listener = Callable[[DealFinished], None]


class DealEvents:
    """The subscribers to finished deals (one instance per app)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def publish(self, event: DealFinished) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("a listener of finished deals failed (table %s)", event.table.id)
