"""Bots hosted elsewhere: bot accounts, their API tokens and the bot websocket.

A logged-in person (not a guest) makes a bot account for a program of theirs (``POST
/api/bots``) and gets its API token, shown once; the server keeps only its SHA-256
(``storage/botaccounts.py``). A new token replaces the old; revoking one closes the bot's open
sockets at once (code 4001). The owner seats the bot when opening a table (a seat's
``account``), or the bot takes a seat itself with an invite (``POST /api/tables/{id}/join`` with
``Authorization: Bearer <token>``).

The program connects to ``/ws/bots/{table_id}`` with the same header (never a cookie; a page of
another site is refused by its ``Origin``, and no browser page can set the header anyway). It
must hold a seat at the table; anything else is refused like a table never made (1008). Then it
speaks the bot protocol of ``docs/bot-protocol.md``: ``hello`` at each deal, ``act`` with its
seat's view when it must decide, ``error`` for an answer not taken, ``bye`` when the list is
over. Every message is size-checked, rate-limited per connection and validated (strict JSON,
a pydantic union with unknown keys refused) before the table's actor sees it; the actor decides
whether a garbled message costs the pending turn.
"""

import asyncio
import contextlib
import hashlib
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from stichwerk.core.errors import one_line
from stichwerk.server.access import valid_id
from stichwerk.server.auth import USERNAME
from stichwerk.server.jsonsafe import BadJSON, StrictJSONRoute, loads
from stichwerk.server.protocol import ActionBody, frame
from stichwerk.server.ratelimit import KeyedLimiter, TokenBucket
from stichwerk.server.security import origin_allowed
from stichwerk.server.sessions import ENDED_CLOSE_CODE, RECHECK
from stichwerk.server.table import BotAnswer, Conn, Join, Leave
from stichwerk.server.websocket import _pump
from stichwerk.storage.botaccounts import BotAccount, BotAccounts
from stichwerk.storage.repo import NameTaken, UserInfo

if TYPE_CHECKING:
    from stichwerk.server.app import Services

TOKEN_PREFIX = "swb_"
MAX_BOTS = 10
"""Bot accounts one person may own."""
STRIKES_BEFORE_CLOSE = 50
BotName = Annotated[str, Path(min_length=3, max_length=24, pattern=r"^[\w.-]+$")]


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


# -- HTTP: bot accounts and tokens --------------------------------------------------------------


class NewBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=64)]


def _bot_json(bot: BotAccount) -> dict[str, Any]:
    return {
        "name": bot.name,
        "token_hint": bot.token_hint,
        "token_made": None if bot.token_made is None else bot.token_made.isoformat(),
    }


def _new_token() -> tuple[str, str, str]:
    """A token, its hash and its hint (the first characters, shown to its owner)."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, token_hash(token), token[: len(TOKEN_PREFIX) + 4]


def router() -> APIRouter:
    """``/api/bots``: a person's bot accounts and their tokens."""
    from stichwerk.server.app import require_user, services

    api = APIRouter(prefix="/api/bots", route_class=StrictJSONRoute)

    async def owner(request: Request) -> UserInfo:
        user = await require_user(request)
        if user.is_guest or user.bot_owner_id is not None:
            raise HTTPException(403, "only an account with a password can have bots")
        return user

    async def owned(request: Request, name: str) -> tuple[BotSockets, BotAccount]:
        user = await owner(request)
        bots: BotSockets = services(request).botsockets
        bot = await asyncio.to_thread(bots.accounts.owned, user.id, name)
        if bot is None:
            raise HTTPException(404, "you have no bot of that name")
        return bots, bot

    @api.get("")
    async def mine(request: Request) -> dict[str, Any]:
        user = await owner(request)
        accounts = services(request).botsockets.accounts
        return {"bots": [_bot_json(b) for b in await asyncio.to_thread(accounts.of_owner, user.id)]}

    @api.post("")
    async def create(request: Request, body: NewBot) -> dict[str, Any]:
        """A new bot account and its token (shown this once)."""
        user = await owner(request)
        accounts = services(request).botsockets.accounts
        name = body.name.strip()
        if not USERNAME.fullmatch(name) or name.lower().startswith("gast-"):
            raise HTTPException(400, "a bot's name has 3 to 24 letters, digits, '.', '-' or '_'")
        if await asyncio.to_thread(accounts.count, user.id) >= MAX_BOTS:
            raise HTTPException(409, f"an account may have at most {MAX_BOTS} bots")
        try:
            bot = await asyncio.to_thread(accounts.create, user.id, name)
        except NameTaken:
            raise HTTPException(409, "that name is taken") from None
        token, digest, hint = _new_token()
        await asyncio.to_thread(accounts.set_token, bot.id, digest, hint)
        made = await asyncio.to_thread(accounts.owned, user.id, name)
        return {"bot": _bot_json(made or bot), "token": token}

    @api.post("/{name}/token")
    async def new_token(request: Request, name: BotName) -> dict[str, Any]:
        """A new token for the bot; the old one stops working and its sockets close."""
        bots, bot = await owned(request, name)
        token, digest, hint = _new_token()
        await asyncio.to_thread(bots.accounts.set_token, bot.id, digest, hint)
        bots.revoked(bot.id)
        fresh = await asyncio.to_thread(bots.accounts.owned, bot.owner_id, bot.name) or bot
        return {"bot": _bot_json(fresh), "token": token}

    @api.post("/{name}/revoke")
    async def revoke(request: Request, name: BotName) -> dict[str, Any]:
        """The bot's token stops working at once, and its open sockets close (4001)."""
        bots, bot = await owned(request, name)
        had = await asyncio.to_thread(bots.accounts.revoke, bot.id)
        bots.revoked(bot.id)
        fresh = await asyncio.to_thread(bots.accounts.owned, bot.owner_id, bot.name) or bot
        return {"bot": _bot_json(fresh), "revoked": had}

    return api


# -- the websocket ------------------------------------------------------------------------------


async def bot_socket(websocket: WebSocket, table_id: str) -> None:
    """One bot program at one table, over the bot protocol."""
    from stichwerk.server.app import services

    svc: Services = services(websocket)
    settings = svc.settings
    bots = svc.botsockets
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_allowed(
        origin, websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)
        return
    client = websocket.client
    if not bots.limiter.take(client.host if client else "unknown"):
        # Try again later (1013), as documented: only an accepted socket carries the code (a
        # refused handshake reaches the client as HTTP 403, like a revoked token).
        await websocket.accept()
        await websocket.close(code=1013)
        return
    found = await bots.bot_of(websocket.headers)
    table = await asyncio.to_thread(svc.repo.table, table_id) if valid_id(table_id, 16) else None
    seat = None if table is None or found is None else table.seat_of(found[0].id)
    if found is None or table is None or seat is None:
        # No token, a revoked one, a table never made, or one where the bot has no seat: the
        # same refusal.
        await websocket.close(code=1008)
        return
    bot, digest = found
    actor = await svc.hub.actor(table.id)
    if actor is None:
        await websocket.close(code=1008)
        return
    await websocket.accept()
    conn = Conn(bot.id, bot.username, seat)
    conn.bot = True
    writer = asyncio.create_task(_pump(websocket, conn))
    bots.attach(bot.id, conn.id, lambda: conn.close(ENDED_CLOSE_CODE))
    actor.post(Join(conn))
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    strikes = 0
    checked = time.monotonic()
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if time.monotonic() - checked >= RECHECK:
                # A token revoked by another process is noticed too.
                if not await asyncio.to_thread(bots.accounts.has_token, bot.id, digest):
                    conn.close(ENDED_CLOSE_CODE)
                    break
                checked = time.monotonic()
            if not bucket.take():
                conn.send(frame("error", code="rate", message="too many messages; slow down"))
                strikes += 1
            elif text is None or len(text) > settings.ws_max_message:
                why = "send JSON text frames" if text is None else "its message is too large"
                actor.post(BotAnswer(conn, None, None, why))
                strikes += 1
            else:
                parsed = parse_bot(text)
                match parsed:
                    case str():
                        actor.post(BotAnswer(conn, None, None, parsed))
                    case ActionMessage():
                        action = parsed.action.model_dump(exclude_none=True)
                        actor.post(BotAnswer(conn, parsed.id, action))
                    case Ping(t=t):
                        conn.send(frame("pong", t=t))
                    case Ready() | LogMessage():
                        pass  # a greeting or a note: nothing to do
            if strikes > STRIKES_BEFORE_CLOSE:
                conn.close(1008)
    except WebSocketDisconnect:
        pass
    finally:
        bots.detach(bot.id, conn.id)
        actor.post(Leave(conn))
        conn.close()
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(writer, timeout=5)
