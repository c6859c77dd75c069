"""The frames a table sends to browsers, built from what its actor holds (read, never changed).

A state frame is the part every seat shares (the table, the phase, the deal, the seats, the
list) and then that seat's view of the deal, exactly as the engine's ``state.view(seat)`` gives
it (``None`` for spectators): this module never serialises a game state itself. A presence
frame says who is here. The actor decides when to send them (``server/table.py``).
"""

from collections.abc import Mapping, Sized
from typing import Any, Protocol

from stichwerk.core.state import GameState
from stichwerk.server.jsonsafe import dumps
from stichwerk.server.protocol import frame
from stichwerk.server.series import TableSeries
from stichwerk.storage.repo import TableInfo


class TableFacts(Protocol):
    """What the frames read of a table's actor."""

    @property
    def info(self) -> TableInfo: ...
    @property
    def state(self) -> GameState | None: ...
    @property
    def series(self) -> TableSeries: ...
    @property
    def version(self) -> int: ...
    @property
    def deal_public_id(self) -> str | None: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def deal_dealer(self) -> int: ...
    @property
    def seated(self) -> Mapping[int, Sized]: ...
    @property
    def spectators(self) -> Sized: ...
    @property
    def ready(self) -> set[int]: ...

    def bot_controls(self, seat: int) -> bool:
        """Whether a bot plays the seat now (a bot's seat, or a person's away too long)."""
        ...


def public_info(info: TableInfo) -> dict[str, Any]:
    """The table as everyone may see it (no invite token)."""
    return {
        "id": info.id,
        "game": info.game,
        "profile": info.profile,
        "options": info.options,
        "seats": info.seats,
        "series_length": info.series_length,
        "closing_rounds": list(info.closing_rounds),
        "first_dealer": info.first_dealer,
        "time_limit": info.time_limit,
        "public": info.public,
    }


def welcome(info: TableInfo, seat: int | None, username: str | None) -> str:
    """Who you are at this table."""
    return frame("welcome", table=public_info(info), you={"seat": seat, "user": username})


def seats_json(table: TableFacts) -> list[dict[str, Any]]:
    out = []
    for s in table.info.seat_list:
        human = s.kind == "human"
        out.append(
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.username if human else s.bot,
                "bot_account": s.bot_account,
                "taken": (not human) or s.user_id is not None,
                "connected": bool(len(table.seated[s.seat])),
                "bot_playing": human and table.bot_controls(s.seat),
                "ready": s.seat in table.ready,
            }
        )
    return out


def phase(table: TableFacts) -> str:
    """``waiting`` for players, ``playing`` a deal, ``between`` deals, ``finished`` or
    ``stopped``."""
    status = table.info.status
    if status == "open":
        return "waiting"
    if status == "stopped":
        return "stopped"
    if table.state is None:
        return "between" if not table.series.is_over else "finished"
    if table.state.is_over:
        return "finished" if table.series.is_over else "between"
    return "playing"


def common_part(table: TableFacts) -> str:
    """The part of a state frame that is the same for every seat, as JSON text (open)."""
    text = frame(
        "state",
        version=table.version,
        status=table.info.status,
        phase=phase(table),
        deal=None
        if table.deal_public_id is None
        else {
            "id": table.deal_public_id,
            "number": table.deal_number,
            "dealer": table.deal_dealer,
        },
        seats=seats_json(table),
        spectators=len(table.spectators),
        sheet=table.series.to_json(),
    )
    return text[:-1]


def state_frame(table: TableFacts, seat: int | None, common: str | None = None) -> str:
    """A state frame for ``seat``: the common part, then that seat's view of the deal."""
    state = table.state
    view = None if state is None else state.view(seat)
    shared = common or common_part(table)
    return shared + ',"you":' + dumps(seat) + ',"view":' + dumps(view) + "}"


def presence(table: TableFacts) -> str:
    """Who is here: each seat's connection and stand-in bot, and how many watch."""
    seats = [
        {
            "seat": s.seat,
            "connected": bool(len(table.seated[s.seat])),
            "bot_playing": s.kind == "human" and table.bot_controls(s.seat),
        }
        for s in table.info.seat_list
    ]
    return frame("presence", seats=seats, spectators=len(table.spectators))
