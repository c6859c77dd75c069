"""The websocket protocol: what a browser may send, validated before anything else sees it.

Client messages are a pydantic discriminated union on ``type`` with unknown keys forbidden, so
a malformed or unexpected message is refused with one line and never reaches a table. Legality
(whose turn, which card) is the engine's business; here only the shape is checked.

Server frames are JSON objects with a ``type``: ``welcome`` (who you are at this table),
``state`` (the table and your seat's view, after every change), ``presence`` (who is connected,
which seats a stand-in bot plays, how many watch), ``error`` (your last message was refused;
nothing changed) and ``pong``. Numbers are finite both ways (``jsonsafe``): ``NaN`` or
``Infinity`` in a message is refused, never echoed.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from stichwerk.core.errors import one_line
from stichwerk.server.jsonsafe import BadJSON, dumps, loads

MAX_VERSION = 2**53 - 1
"""The largest integer a browser's JSON reads exactly."""

CardCode = Annotated[str, Field(min_length=1, max_length=8, pattern=r"^[A-Za-z0-9]+$")]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ActionBody(_Message):
    """An action as NOTATION.md writes it, without the seat (the server knows who sent it)."""

    act: Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z0-9-]+$")]
    card: CardCode | None = None
    cards: Annotated[list[CardCode], Field(max_length=16)] = []
    type: Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z0-9-]+$")] | None = None


class Act(_Message):
    """Take an action. ``version`` is the last state version the client saw: an action decided
    on an older state (a double click, a crossing move) is refused as stale."""

    type: Literal["act"]
    version: Annotated[int, Field(ge=0, le=MAX_VERSION)]
    action: ActionBody


class Next(_Message):
    """Ready for the next deal of the series."""

    type: Literal["next"]


class Sync(_Message):
    """Send me the current state again."""

    type: Literal["sync"]


class Ping(_Message):
    """Keep-alive; ``t`` is echoed back in the pong."""

    type: Literal["ping"]
    t: Annotated[float, Field(allow_inf_nan=False, ge=-1e15, le=1e15)] | None = None


ClientMessage = Annotated[Act | Next | Sync | Ping, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Act | Next | Sync | Ping] = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    """A client message that is not valid JSON or not one of the messages above."""


def parse_client(text: str) -> Act | Next | Sync | Ping:
    """Validate one client message, or raise ``BadMessage`` with a one-line reason.

    >>> parse_client('{"type": "ping"}')
    Ping(type='ping', t=None)
    >>> parse_client('{"type": "act", "version": 3, "action": {"act": "play", "card": "HK"}}')
    Act(type='act', version=3, action=ActionBody(act='play', card='HK', cards=[], type=None))
    >>> parse_client('{"type": "dance"}')
    Traceback (most recent call last):
    ...
    stichwerk.server.protocol.BadMessage: unknown message type 'dance'
    >>> parse_client('{"type": "ping", "t": NaN}')
    Traceback (most recent call last):
    ...
    stichwerk.server.protocol.BadMessage: message is not valid JSON: NaN is not a JSON number
    """
    try:
        raw = loads(text)
    except BadJSON as exc:
        detail = "" if str(exc) == "not valid JSON" else f": {exc}"
        raise BadMessage(f"message is not valid JSON{detail}") from None
    if not isinstance(raw, dict):
        raise BadMessage("message must be a JSON object")
    kind = raw.get("type")
    if kind not in ("act", "next", "sync", "ping"):
        raise BadMessage(one_line(f"unknown message type {kind!r}"[:80]))
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if p != kind)
        message = f"bad {kind} message: {where[:60] or 'message'}: {first['msg']}"
        raise BadMessage(one_line(message)) from None


def frame(kind: str, **fields: Any) -> str:
    """One server frame as JSON text (never a non-finite number)."""
    return dumps({"type": kind, **fields})


def error_frame(code: str, message: str) -> str:
    """A refusal: ``code`` for programs, ``message`` (one line) for people."""
    return frame("error", code=code, message=message)
