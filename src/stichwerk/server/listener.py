"""What the server does with a connection before any request reaches the app.

uvicorn closes a kept-alive connection that stays idle after a response, but it waits for ever
for the head of a request: a client that sends half a request line, or nothing, holds a file
descriptor for as long as it likes (Slowloris). With the usual limit of 1,024 open files, a
thousand such connections from one address locked every visitor out, and every failed
``accept`` logged a traceback (57,263 lines in seconds). So, below HTTP:

- a connection whose request head (request line and headers) is not complete within
  ``header_timeout`` seconds of its first byte being awaited is closed; the same on a
  kept-alive connection for the head of its next request (``GuardedH11Protocol``);
- one address may hold ``max_connections_per_address`` open connections (websockets
  included): the next is answered 503 with one line and closed at once; and the whole process
  keeps a reserve of file descriptors (for its database, logs and workers) that connections
  never take, so ``accept`` does not run out of them (``ConnectionLimits``);
- repeated log lines (a refused connection, a failed ``accept``) are written at most a few
  times per interval, then once with the count of those left out (``FloodGuard``);
- the soft limit of open files is raised to the hard one at start (``raise_file_limit``).

The websocket protocol (uvicorn's sans-I/O one) takes over a connection after its head is read;
``GuardedWebSocketProtocol`` gives its address's slot back when it ends.
"""

import asyncio
import logging
import resource
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, ClassVar

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

log = logging.getLogger("stichwerk.server.listener")

_BUSY_BODY = b'{"error": "too many connections from your address; try again later"}\n'
BUSY_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: application/json\r\n"
    b"connection: close\r\n"
    b"content-length: " + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY
)
"""The answer to a connection over the cap (sent before its request is read, then closed)."""


def file_reserve(soft_limit: int) -> int:
    """File descriptors connections never take: the database, the log, the worker pipes.

    >>> file_reserve(1024), file_reserve(65536)
    (128, 1024)
    """
    return min(1024, max(64, soft_limit // 8))


def accept_backlog(soft_limit: int) -> int:
    """The listen backlog, which is also how many connections asyncio accepts in one go before
    any of them can be closed (uvicorn's 2,048 took every file of a 1,024 limit at once, so
    even a connection the cap refuses ran the process out of files).

    >>> accept_backlog(1024), accept_backlog(1 << 20)
    (112, 2048)
    """
    return max(16, min(2048, (soft_limit - file_reserve(soft_limit)) // 8))


def connection_budget(soft_limit: int) -> int:
    """Open connections in all: the file limit less the reserve and the accepts in flight (an
    accepted connection is closed a few turns of the loop later, up to three batches).

    >>> connection_budget(1024), connection_budget(1 << 20)
    (560, 1041408)
    """
    return max(16, soft_limit - file_reserve(soft_limit) - 3 * accept_backlog(soft_limit))


def raise_file_limit() -> tuple[int, int]:
    """Raise the soft limit of open files to the hard one (systemd's default soft limit is
    1,024, its hard one far higher); the new (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # a container may forbid it: keep what we have
    return soft, hard


class ConnectionLimits:
    """Open connections per address and in all, counted by the protocols of this process."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        """0: no cap per address."""
        self.total = total
        self.open: dict[str, int] = {}
        self.count = 0

    def admit(self, host: str) -> bool:
        """Take a slot for a new connection from ``host``, if there is one."""
        held = self.open.get(host, 0)
        if self.count >= self.total or (self.per_address and held >= self.per_address):
            return False
        self.open[host] = held + 1
        self.count += 1
        return True

    def release(self, host: str) -> None:
        """Give back a slot ``admit`` gave."""
        held = self.open.get(host, 0)
        if held <= 1:
            self.open.pop(host, None)
        else:
            self.open[host] = held - 1
        self.count = max(0, self.count - 1)


class Slot:
    """One admitted connection's place in ``ConnectionLimits``; given back once."""

    __slots__ = ("host", "limits")

    def __init__(self, limits: ConnectionLimits, host: str) -> None:
        self.limits: ConnectionLimits | None = limits
        self.host = host

    def release(self) -> None:
        if self.limits is not None:
            self.limits.release(self.host)
            self.limits = None


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, giving its connection's slot back when it ends."""

    slot: Slot | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            if self.slot is not None:
                self.slot.release()
                self.slot = None


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head and a cap per address.

    ``guarded_protocols`` makes a subclass bound to one server's limits and timeout.
    """

    limits: ClassVar[ConnectionLimits]
    header_timeout: ClassVar[float]

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.slot: Slot | None = None
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = get_remote_addr(transport)  # type: ignore[arg-type]
        host = peer[0] if peer else "unknown"
        if not self.limits.admit(host):
            log.warning(
                "refused a connection from %s: %d open from that address, %d in all",
                host,
                self.limits.open.get(host, 0),
                self.limits.count,
            )
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(BUSY_RESPONSE)
            transport.close()
            return
        self.slot = Slot(self.limits, host)
        super().connection_made(transport)  # type: ignore[arg-type]
        self.arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.slot is None:
            return  # refused in connection_made: nothing was set up
        self.disarm_head_timer()
        try:
            super().connection_lost(exc)
        finally:
            self.slot.release()
            self.slot = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            self.disarm_head_timer()
        elif self.conn.their_state is h11.IDLE:
            # (Part of) the next request's head, on a new or a kept-alive connection: uvicorn
            # has just stopped its keep-alive timer, so ours runs until the head is in.
            self.arm_head_timer()
        else:
            self.disarm_head_timer()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self.disarm_head_timer()
        super().handle_websocket_upgrade(event)
        taken = self.transport.get_protocol()
        if isinstance(taken, GuardedWebSocketProtocol):
            # The websocket owns the connection now: it gives the slot back when it ends.
            taken.slot, self.slot = self.slot, None

    def arm_head_timer(self) -> None:
        if self.head_timer is None and self.header_timeout > 0:
            self.head_timer = self.loop.call_later(self.header_timeout, self.head_too_late)

    def disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_too_late(self) -> None:
        self.head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def guarded_protocols(
    header_timeout: float, per_address: int, soft_file_limit: int
) -> tuple[type[GuardedH11Protocol], type[GuardedWebSocketProtocol]]:
    """The HTTP and websocket protocol classes to hand uvicorn (``http=``, ``ws=``)."""
    limits = ConnectionLimits(per_address, connection_budget(soft_file_limit))
    bound = type(
        "StichwerkH11Protocol",
        (GuardedH11Protocol,),
        {"limits": limits, "header_timeout": header_timeout},
    )
    return bound, GuardedWebSocketProtocol


class FloodGuard(logging.Filter):
    """Lets each kind of log line (its logger and message template) through ``burst`` times
    per ``interval`` seconds; the first one after that says, in a line of its own, how many
    were left out (the record itself is never changed: uvicorn's access lines are formatted
    from their arguments).

    >>> clock = [0.0]
    >>> guard = FloodGuard(interval=10, burst=2, now=lambda: clock[0], report=print)
    >>> def rec(): return logging.LogRecord("x", logging.ERROR, "", 0, "accept failed", (), None)
    >>> [guard.filter(rec()) for _ in range(5)]
    [True, True, False, False, False]
    >>> clock[0] = 11.0
    >>> guard.filter(rec())
    3 more lines like 'accept failed' (x) were left out in the last 10 s
    True
    """

    def __init__(
        self,
        interval: float = 10.0,
        burst: int = 5,
        max_kinds: int = 1000,
        now: Callable[[], float] = time.monotonic,
        report: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self.interval = interval
        self.burst = burst
        self.max_kinds = max_kinds
        self.now = now
        self.report = report or _report
        self.windows: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        """Per kind: [window start, lines let through, lines left out]."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True  # floods are warnings and errors; every request's line is kept
        key = (record.name, str(record.msg))
        now = self.now()
        window = self.windows.get(key)
        if window is None or now - window[0] >= self.interval:
            left_out = int(window[2]) if window is not None else 0
            self.windows[key] = [now, 1, 0]
            self.windows.move_to_end(key)
            if len(self.windows) > self.max_kinds:
                self.windows.popitem(last=False)
            if left_out:
                self.report(
                    f"{left_out} more lines like {key[1][:120]!r} ({key[0]}) were left out "
                    f"in the last {self.interval:g} s"
                )
            return True
        if window[1] < self.burst:
            window[1] += 1
            return True
        window[2] += 1
        return False


def _report(line: str) -> None:
    logging.getLogger("stichwerk.server.log").warning("%s", line)


def guard_log_handlers(interval: float = 10.0, burst: int = 5) -> None:
    """Put a ``FloodGuard`` on every handler of the root logger and uvicorn's (after uvicorn
    has configured logging: it makes its handlers anew); the access log keeps every line."""
    for name in ("", "uvicorn", "uvicorn.error", "asyncio"):
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, FloodGuard) for f in handler.filters):
                handler.addFilter(FloodGuard(interval, burst))
