"""Sessions the server can end: logout, password change, "log out everywhere".

The cookie (Starlette's, signed) holds a random token; the database holds only its SHA-256, one
row per login (``user_session``, migration 0004), with an expiry. Every HTTP request and every
websocket handshake looks the session up, so a deleted row is a logged-out cookie at once, even
one copied before the logout. A websocket lives longer than a request: the server closes the
sockets of a session it ends (close code 4001), checks each message against the sessions it
has ended, and re-reads the row at least every ``RECHECK`` seconds, so a session ended by
another process is noticed too.
"""

import asyncio
import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from starlette.requests import HTTPConnection

from stichwerk.storage.repo import Repo, UserInfo

SESSION_DAYS = 30
RECHECK = 30.0
"""Seconds a websocket may go on trusting its session without re-reading it."""
ENDED_CLOSE_CODE = 4001
"""The websocket close code for "your session has ended"."""
MAX_REMEMBERED = 100_000


def session_id(token: str) -> str:
    """The stored id of a cookie's token (its SHA-256); the token itself is never stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class SessionBook:
    """Starts, finds and ends sessions; knows the live websockets of each."""

    def __init__(self, repo: Repo) -> None:
        self._repo = repo
        self._ended: OrderedDict[str, None] = OrderedDict()
        self._sockets: dict[str, dict[int, Callable[[], None]]] = {}
        self._checked: dict[str, float] = {}

    # -- HTTP ---------------------------------------------------------------------------------

    async def find(self, conn: HTTPConnection) -> tuple[UserInfo, str] | None:
        """The user and session id of the request's cookie, if its session is alive."""
        cached = conn.scope.get("stichwerk.session")
        if cached is not None:
            found: tuple[UserInfo, str] | None = cached[0]
            return found
        token = conn.session.get("sid")
        found = None
        if isinstance(token, str) and 20 <= len(token) <= 64:
            sid = session_id(token)
            if sid not in self._ended:
                user = await asyncio.to_thread(self._repo.session_user, sid)
                if user is not None:
                    found = (user, sid)
        conn.scope["stichwerk.session"] = (found,)
        return found

    async def start(self, conn: HTTPConnection, user: UserInfo) -> None:
        """A new session for ``user`` in this browser (a new token: no session fixation)."""
        token = secrets.token_urlsafe(32)
        expires = datetime.now(UTC) + timedelta(days=SESSION_DAYS)
        await asyncio.to_thread(self._repo.create_session, session_id(token), user.id, expires)
        conn.session.clear()
        conn.session["sid"] = token
        conn.scope["stichwerk.session"] = ((user, session_id(token)),)

    async def end(self, conn: HTTPConnection) -> None:
        """Log this browser out: its session ends on the server."""
        found = await self.find(conn)
        conn.session.clear()
        conn.scope["stichwerk.session"] = (None,)
        if found is not None:
            await asyncio.to_thread(self._repo.end_session, found[1])
            self._forget([found[1]])

    async def end_all(self, user_id: int, *, keep: str | None = None) -> int:
        """End every session of ``user_id`` (but ``keep``); returns how many ended."""
        ended = await asyncio.to_thread(self._repo.end_sessions, user_id, keep=keep)
        self._forget(ended)
        return len(ended)

    # -- websockets ---------------------------------------------------------------------------

    def attach(self, sid: str, key: int, close: Callable[[], None]) -> None:
        """A websocket of session ``sid``: ``close`` is called when the session ends."""
        self._sockets.setdefault(sid, {})[key] = close
        self._checked.setdefault(sid, time.monotonic())

    def detach(self, sid: str, key: int) -> None:
        sockets = self._sockets.get(sid)
        if sockets is not None:
            sockets.pop(key, None)
            if not sockets:
                del self._sockets[sid]
                self._checked.pop(sid, None)

    async def alive(self, sid: str) -> bool:
        """Whether a websocket's session still stands (checked on every message)."""
        if sid in self._ended:
            return False
        now = time.monotonic()
        if now - self._checked.get(sid, 0.0) < RECHECK:
            return True
        user = await asyncio.to_thread(self._repo.session_user, sid)
        if user is None:
            self._forget([sid])
            return False
        self._checked[sid] = now
        return True

    def _forget(self, sids: list[str]) -> None:
        for sid in sids:
            self._ended[sid] = None
            self._ended.move_to_end(sid)
            for close in list(self._sockets.pop(sid, {}).values()):
                close()
            self._checked.pop(sid, None)
        while len(self._ended) > MAX_REMEMBERED:
            # Old enough to be gone from the database too (a deleted row stays deleted).
            self._ended.popitem(last=False)
