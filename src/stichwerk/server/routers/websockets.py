"""The websockets of the tables: ``/ws/tables/{id}`` (a browser) and ``/ws/bots/{id}`` (a bot
program hosted elsewhere). Each checks its handshake, then runs a reader and a writer; what the
table does with the messages is its actor's business (``server/table.py``).

A browser's handshake is refused (HTTP 403) unless the ``Origin`` is this server's own or an
allowed one, and, the same way, for a table that does not exist or that the session may not
watch (a private table: ``access``). The session cookie decides the seat: a person seated at
the table plays it, anyone else watches as a spectator. Every message is size-checked,
rate-limited per connection, checked against its session (ended: the socket closes with 4001,
as it does at once when the session is ended by this server) and validated
(``protocol.parse_client``) before it reaches the table actor; a refused message gets an error
frame and changes nothing. Persistent flooding closes the connection (1008).

A bot program connects with ``Authorization: Bearer <token>`` (never a cookie; a page of
another site is refused by its ``Origin``). It must hold a seat at the table; anything else is
refused like a table never made (1008). Then it speaks the bot protocol of
``docs/bot-protocol.md`` (``server/botsockets.py`` reads its messages).
"""

import asyncio
import contextlib
import time

from fastapi import APIRouter
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from stichwerk.server.access import may_watch, valid_id
from stichwerk.server.botsockets import ActionMessage, LogMessage, Ping, Ready, parse_bot
from stichwerk.server.deps import ServicesDep
from stichwerk.server.protocol import Act, BadMessage, Next, Sync, error_frame, frame
from stichwerk.server.protocol import Ping as ClientPing
from stichwerk.server.protocol import parse_client as parse
from stichwerk.server.ratelimit import TokenBucket
from stichwerk.server.security import origin_allowed
from stichwerk.server.sessions import ENDED_CLOSE_CODE, RECHECK
from stichwerk.server.table import (
    ActCommand,
    BotAnswer,
    Conn,
    Join,
    Leave,
    NextCommand,
    SyncCommand,
)

STRIKES_BEFORE_CLOSE = 50
"""Refused messages (over the rate or the size) before the connection is closed."""


async def pump(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's queued frames, in order; close when asked."""
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                if websocket.application_state == WebSocketState.CONNECTED:
                    await websocket.close(conn.close_code)
                return
            await websocket.send_text(text)
    except Exception:
        conn.closed = True


async def table_socket(websocket: WebSocket, table_id: str, svc: ServicesDep) -> None:
    """One browser (or bot client) at one table."""
    settings = svc.settings
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)
        return
    found = await svc.sessions.find(websocket)
    user, session = found if found is not None else (None, None)
    # A malformed id, a table never made and a private table this session may not watch are
    # refused alike, before an actor is started.
    table = await asyncio.to_thread(svc.repo.table, table_id) if valid_id(table_id, 16) else None
    if table is None or not await may_watch(svc.repo, table, user):
        await websocket.close(code=1008)
        return
    actor = await svc.hub.actor(table.id)
    if actor is None:
        await websocket.close(code=1008)
        return
    await websocket.accept()
    seat = actor.info.seat_of(user.id) if user is not None else None
    conn = Conn(user.id if user else None, user.username if user else None, seat, session)
    writer = asyncio.create_task(pump(websocket, conn))
    if session is not None:
        svc.sessions.attach(session, conn.id, lambda: conn.close(ENDED_CLOSE_CODE))
    actor.post(Join(conn))
    bucket = TokenBucket(settings.ws_rate, settings.ws_burst)
    strikes = 0
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.send(error_frame("bad-message", "send JSON text frames, not binary"))
                strikes += 1
            elif len(text) > settings.ws_max_message:
                conn.send(error_frame("too-large", "message too large"))
                strikes += 1
            elif not bucket.take():
                conn.send(error_frame("rate", "too many messages; slow down"))
                strikes += 1
            elif conn.session is not None and not await svc.sessions.alive(conn.session):
                conn.close(ENDED_CLOSE_CODE)
            else:
                try:
                    parsed = parse(text)
                except BadMessage as exc:
                    conn.send(error_frame("bad-message", str(exc)))
                    continue
                match parsed:
                    case ClientPing(t=t):
                        conn.send(frame("pong", t=t))
                    case Sync():
                        actor.post(SyncCommand(conn))
                    case Next():
                        actor.post(NextCommand(conn))
                    case Act():
                        actor.post(ActCommand(conn, parsed))
            if strikes > STRIKES_BEFORE_CLOSE:
                conn.close(1008)
    except WebSocketDisconnect:
        pass
    finally:
        if session is not None:
            svc.sessions.detach(session, conn.id)
        actor.post(Leave(conn))
        conn.close()
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(writer, timeout=5)


async def bot_socket(websocket: WebSocket, table_id: str, svc: ServicesDep) -> None:
    """One bot program at one table, over the bot protocol."""
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
    writer = asyncio.create_task(pump(websocket, conn))
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


def router() -> APIRouter:
    """``/ws/tables/{table_id}`` and ``/ws/bots/{table_id}``."""
    sockets = APIRouter()
    sockets.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    sockets.add_api_websocket_route("/ws/bots/{table_id}", bot_socket)
    return sockets
