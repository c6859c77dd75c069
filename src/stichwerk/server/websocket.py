"""The websocket endpoint ``/ws/tables/{id}``: handshake checks, then a reader and a writer.

The handshake is refused (HTTP 403) unless the ``Origin`` is this server's own or an allowed
one, and, the same way, for a table that does not exist or that the session may not watch (a
private table: ``access``). The session cookie decides the seat: a person seated at the table
plays it, anyone else watches as a spectator. Every message is size-checked, rate-limited per
connection, checked against its session (ended: the socket closes with 4001, as it does at
once when the session is ended by this server) and validated (``protocol.parse_client``) before
it reaches the table actor; a refused message gets an error frame and changes nothing.
Persistent flooding closes the connection (1008).
"""

import asyncio
import contextlib
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from stichwerk.server.access import may_watch, valid_id
from stichwerk.server.protocol import Act, BadMessage, Next, Ping, Sync, error_frame, frame
from stichwerk.server.protocol import parse_client as parse
from stichwerk.server.ratelimit import TokenBucket
from stichwerk.server.security import origin_allowed
from stichwerk.server.sessions import ENDED_CLOSE_CODE
from stichwerk.server.table import ActCommand, Conn, Join, Leave, NextCommand, SyncCommand

if TYPE_CHECKING:
    from stichwerk.server.app import Services

STRIKES_BEFORE_CLOSE = 50
"""Refused messages (over the rate or the size) before the connection is closed."""


async def _pump(websocket: WebSocket, conn: Conn) -> None:
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


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One browser (or bot client) at one table."""
    from stichwerk.server.app import services

    svc: Services = services(websocket)
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
    writer = asyncio.create_task(_pump(websocket, conn))
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
                    case Ping(t=t):
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
