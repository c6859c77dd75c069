"""Bots hosted elsewhere: their accounts' open sockets, their API tokens, and their messages.

A logged-in person (not a guest) makes a bot account for a program of theirs (``POST
/api/bots``, ``routers/bots.py``) and gets its API token, shown once; the server keeps only its
SHA-256 (``storage/botaccounts.py``). A new token replaces the old; revoking one closes the bot's
open sockets at once (code 4001, :meth:`BotSockets.revoked`). The owner seats the bot when
opening a table (a seat's ``account``), or the bot takes a seat itself with an invite (``POST
/api/tables/{id}/join`` with ``Authorization: Bearer <token>``).

The program connects to ``/ws/bots/{table_id}`` (``routers/websockets.py``) and speaks the bot
protocol of ``docs/bot-protocol.md``: ``hello`` at each deal, ``act`` with its seat's view when
it must decide, ``error`` for an answer not taken, ``bye`` when the list is over. Each message
it sends is read here (:func:`parse_bot`: strict JSON, a pydantic union with unknown keys
refused) before the table's actor sees it; the actor decides whether a garbled message costs
the pending turn.
"""

import asyncio
import hashlib
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from stichwerk.core.errors import one_line
from stichwerk.server.jsonsafe import BadJSON, loads
from stichwerk.server.protocol import ActionBody
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.storage.botaccounts import BotAccounts
from stichwerk.storage.repo import UserInfo

TOKEN_PREFIX = "swb_"


def token_hash(token: str) -> str:
    """The stored id of a token (its SHA-256); the token itself is never stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if it looks like one of ours.

    >>> bearer({"authorization": "Bearer swb_abc"}), bearer({"authorization": "Basic x"})
    ('swb_abc', None)
    """
    value = headers.get("authorization") or ""
    scheme, _, token = value.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    return token


class BotSockets:
    """The bot accounts' store and their open sockets (closed when a token is revoked)."""

    def __init__(self, accounts: BotAccounts, connect_rate: float) -> None:
        self.accounts = accounts
        self.limiter = KeyedLimiter(connect_rate, 20)
        self._sockets: dict[int, dict[int, Callable[[], None]]] = {}

    async def bot_of(self, headers: Any) -> tuple[UserInfo, str] | None:
        """The bot account of a request's bearer token, and the token's hash."""
        token = bearer(headers)
        if token is None:
            return None
        digest = token_hash(token)
        bot = await asyncio.to_thread(self.accounts.by_token, digest)
        return None if bot is None else (bot, digest)

    def attach(self, bot_id: int, key: int, close: Callable[[], None]) -> None:
        self._sockets.setdefault(bot_id, {})[key] = close

    def detach(self, bot_id: int, key: int) -> None:
        sockets = self._sockets.get(bot_id)
        if sockets is not None:
            sockets.pop(key, None)
            if not sockets:
                del self._sockets[bot_id]

    def revoked(self, bot_id: int) -> None:
        """Close every open socket of the bot (its token was revoked or replaced)."""
        for close in list(self._sockets.pop(bot_id, {}).values()):
            close()


# -- the bot's messages -----------------------------------------------------------------------


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Ready(_Message):
    type: Literal["ready"]
    name: Annotated[str, Field(max_length=60)] | None = None
    protocol: Annotated[int, Field(ge=0, le=1000)] | None = None


class ActionMessage(_Message):
    type: Literal["action"]
    id: Annotated[int, Field(ge=0, le=2**53 - 1)]
    action: ActionBody


class LogMessage(_Message):
    type: Literal["log"]
    message: Annotated[str, Field(max_length=500)]


class Ping(_Message):
    type: Literal["ping"]
    t: Annotated[float, Field(allow_inf_nan=False, ge=-1e15, le=1e15)] | None = None


BotMessage = Annotated[Ready | ActionMessage | LogMessage | Ping, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Ready | ActionMessage | LogMessage | Ping] = TypeAdapter(BotMessage)
KINDS = ("ready", "action", "log", "ping")


def parse_bot(text: str) -> Ready | ActionMessage | LogMessage | Ping | str:
    """A bot's message, or why it is none (one line).

    >>> parse_bot('{"type": "action", "id": 3, "action": {"act": "play", "card": "HK"}}').id
    3
    >>> parse_bot('{"type": "action", "id": 3, "action": {"act": "play"}, "x": 1}')
    'bad action message: x: Extra inputs are not permitted'
    >>> parse_bot('{"type": "ping", "t": NaN}')
    'its message is not JSON: NaN is not a JSON number'
    """
    try:
        raw = loads(text)
    except BadJSON as exc:
        detail = "" if str(exc) == "not valid JSON" else f": {exc}"
        return f"its message is not JSON{detail}"
    if not isinstance(raw, dict):
        return "its message is not a JSON object"
    kind = raw.get("type")
    if kind not in KINDS:
        return one_line(f"unknown message type {kind!r}"[:80])
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = list(first["loc"])
        where = ".".join(str(p) for p in (loc[1:] if loc[:1] == [kind] else loc))
        return one_line(f"bad {kind} message: {where[:60] or 'message'}: {first['msg']}")
