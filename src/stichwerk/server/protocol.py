"""The websocket protocol: what a browser may send, validated before anything else sees it.

Client messages are a pydantic discriminated union on ``type`` with unknown keys forbidden, so
a malformed or unexpected message is refused with one line and never reaches a table. Legality
(whose turn, which card) is the engine's business; here only the shape is checked.

Server frames are JSON objects with a ``type``: ``welcome`` (who you are at this table),
``state`` (the table and your seat's view, after every change), ``error`` (your last message was
refused; nothing changed) and ``pong``.
"""

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

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
    version: Annotated[int, Field(ge=0)]
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
    t: float | None = None


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
    """
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("message is not valid JSON") from None
    if not isinstance(raw, dict):
        raise BadMessage("message must be a JSON object")
    kind = raw.get("type")
    if kind not in ("act", "next", "sync", "ping"):
        raise BadMessage(f"unknown message type {kind!r}"[:80])
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if p != kind)
        raise BadMessage(f"bad {kind} message: {where or 'message'}: {first['msg']}") from None


def frame(kind: str, **fields: Any) -> str:
    """One server frame as JSON text."""
    return json.dumps({"type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


def error_frame(code: str, message: str) -> str:
    """A refusal: ``code`` for programs, ``message`` (one line) for people."""
    return frame("error", code=code, message=message)
