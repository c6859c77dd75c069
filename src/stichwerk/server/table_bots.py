"""The bot protocol at one table: a seat held by a bot account, played by a program over the bot
websocket (``docs/bot-protocol.md``).

Its connection gets no state frames, only ``hello`` (at each deal), ``act`` (its seat's view,
when it must decide), ``error`` (an answer not taken) and ``bye``. :class:`BotTurns` keeps the
one request a table may have open, matches answers to it, and hands a turn that was late,
garbled or illegal to the seat's stand-in bot, with one log line; the actor commits what is
taken (``server/table.py``).
"""

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from stichwerk.bots.external import PROTOCOL as BOT_PROTOCOL
from stichwerk.core.errors import one_line
from stichwerk.server.protocol import frame
from stichwerk.storage.repo import TableInfo

log = logging.getLogger("stichwerk.table")


class Program(Protocol):
    """A bot account's connection, as far as the protocol needs it."""

    def send(self, text: str) -> None: ...


@dataclass
class Asked:
    """The decision a bot account was asked for and has not answered yet."""

    version: int
    seat: int
    rid: int
    conn: Program


def hello(info: TableInfo, seat: int, deal: int, time_limit: float) -> str:
    """The bot protocol's greeting: the game, the seat, the time limit (at every deal)."""
    return frame(
        "hello",
        protocol=BOT_PROTOCOL,
        game=info.game,
        profile=info.profile,
        options=info.options,
        seat=seat,
        seats=info.seats,
        time_limit=time_limit,
        table=info.id,
        deal=deal,
    )


class BotTurns:
    """The open request of one table's bot accounts and the turns they lost."""

    def __init__(self, time_limit: float) -> None:
        self.time_limit = time_limit
        """Seconds a program has for a decision."""
        self.asked: Asked | None = None
        self.fallback_for: int | None = None
        """The version whose turn a bot account lost: its stand-in plays it."""
        self._rids = itertools.count(1)

    def ask(self, conn: Program, seat: int, version: int, view: dict[str, Any]) -> int:
        """Send a bot account its seat's view; the request's id (its clock is the actor's)."""
        rid = next(self._rids)
        self.asked = Asked(version, seat, rid, conn)
        conn.send(frame("act", id=rid, view=view))
        return rid

    def answered(
        self, conn: Program, rid: int | None, why: str | None, version: int, playing: bool
    ) -> Asked | None:
        """The request an answer (or a garbled message, ``why``) is about, or ``None`` when
        nobody waits for it: a late answer is dropped, garbage gets an error frame."""
        asked = self.asked
        if asked is None or asked.conn is not conn or asked.version != version or not playing:
            if why is not None:
                conn.send(frame("error", message=why))
            return None
        if why is None and rid != asked.rid:
            return None  # a late answer to an earlier request
        return asked

    def lose_turn(self, info: TableInfo, stand_in: Callable[[int], str], why: str) -> None:
        """The bot account's pending decision is played by its seat's stand-in bot (the name
        ``stand_in`` gives the seat)."""
        asked, self.asked = self.asked, None
        if asked is None:
            return
        name = info.seat_list[asked.seat].username or "?"
        log.warning(
            "table %s: bot account %r (seat %d) lost a turn: %s; %s plays it",
            info.id,
            one_line(name),
            asked.seat,
            why,
            stand_in(asked.seat),
        )
        asked.conn.send(frame("error", id=asked.rid, message=why))
        self.fallback_for = asked.version
