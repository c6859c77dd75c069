"""The score sheets' service: lists kept by a table playing with real cards, live in memory.

No accounts: a list has two unguessable links (tokens from ``secrets``), a *scorer* link that
may enter, correct and delete deals, and a read-only *follower* link. Everything is scored by
``stichwerk.sheet`` (the engines' own scoring); this module only stores, keeps and broadcasts;
its routes are in ``routers/sheets.py``.

- ``SheetHub`` keeps the lists in use in memory, each rebuilt from its change log
  (``stichwerk.sheet.log.replay``), as many as fit in ``STICHWERK_SHEET_MEMORY_MB`` (an
  estimate from each list's JSON size; the least used idle ones are dropped and rebuilt when
  asked). A change is applied under the list's lock, committed by the ``ChangeWriter`` and only
  then answered and broadcast, so an acknowledged entry survives a crash; a refused change is
  never stored; a change whose key was applied before answers as the first time and changes
  nothing.
- Scoring never runs on the event loop: every change, preview, import and rebuild is scored on
  the ``ScoreQueue``'s own threads (the default pool stays free for database reads), on a copy
  of the sheet that takes the list's place only once the change is stored. The queue is
  bounded: when it is full the answer is 503 "busy, try again", never a pile-up. A change
  scores only from the changed deal on (``Sheet.apply``), and a list holds at most
  ``stichwerk.sheet.MAX_DEALS`` deals.
- Every page open on a list holds a websocket (``/ws/sheets/{token}``): it gets the whole sheet
  when it connects, then after each change a frame with the rows from the first changed one on
  (``from``: its index; ``base``: the position in the log the page must have reached for the
  frame to apply), never the whole list again. A page that falls behind gets one frame from the
  earliest row it missed. The answer to a change is the same part of the sheet.
- The pages (``/s/new``, ``/s/{token}``) work offline: a service worker (``/s/sw.js``) keeps
  them, the browser code and Pyodide, and the phone scores waiting entries with the same Python
  (``/s/py/stichwerk.zip``, run in a worker, ``/s/py/worker.js``).
"""

import asyncio
import concurrent.futures
import contextlib
import hashlib
import io
import json
import logging
import os
import re
import threading
import zipfile
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import segno
from fastapi import HTTPException, WebSocket
from fastapi.responses import Response
from starlette.websockets import WebSocketDisconnect, WebSocketState

import stichwerk
from stichwerk.core.errors import StichwerkError
from stichwerk.server.ratelimit import TokenBucket
from stichwerk.sheet import (
    Applied,
    Sheet,
    SheetConflict,
    read_lines,
    read_settings,
)
from stichwerk.sheet.diff import describe_changes
from stichwerk.sheet.log import replay
from stichwerk.sheet.settings import stored_header
from stichwerk.storage.db import Database
from stichwerk.storage.sheets import ChangeWriter, ListInfo, NewChange, SheetRepo
from stichwerk.web import STATIC
from stichwerk.web import pyodide as vendor

log = logging.getLogger("stichwerk.sheets")

TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
WS_MESSAGE_LIMIT = 1024
JSON = "application/json"
KEPT_LISTS = 2000
"""Lists kept in memory besides those open on a page (the least used are rebuilt when asked)."""
MEMORY_MB = 256
"""Default of ``STICHWERK_SHEET_MEMORY_MB``: what the idle lists kept in memory may take."""
OBJECT_FACTOR = 9
"""A list in memory takes about this many times its rows' JSON text: measured with
``tracemalloc`` on a 1,500-deal Doppelkopf list (1.0 MB of JSON): 6.5x as objects, 7.7x with
each row's text kept, and the whole sheet's text once more."""
SCORE_WORKERS = 1
"""Default of ``STICHWERK_SHEET_WORKERS``: threads that score changes, previews and imports."""
SCORE_QUEUE = 16
"""Default of ``STICHWERK_SHEET_QUEUE``: scoring jobs running or waiting; one more is 503."""
BUSY = "busy, try again"
STORED_DEALS = 5000
"""Deals a stored list may hold when it is read: lists imported before the cap of
``stichwerk.sheet.MAX_DEALS`` (the line cap was 5,000) still open; they take no more deals."""
PURE_PACKAGES = ("core", "cego", "doppelkopf", "sheet")
"""What the phone runs: the rules and the sheet, which need the standard library only."""
STATIC_FILES = (
    "css/app.css",
    "css/sheet.css",
    "js/common.js",
    "js/words.js",
    "js/panels.js",
    "js/cards.js",
    "js/rules.js",
    "js/sheet.js",
    "js/sheet_new.js",
    "js/sheet_form.js",
    "js/sheet_store.js",
    "js/sheet_worker.js",
    "i18n/de.json",
    "i18n/en.json",
    "favicon.svg",
    "icons/sheet-192.png",
    "icons/sheet-512.png",
)
"""The static files a sheet page needs, kept by the service worker for offline use."""


# -- the lists in memory ----------------------------------------------------------------------


@dataclass(eq=False)
class Watcher:
    """One open page: it is sent the latest frame whenever the list changes (a page that falls
    behind skips to the newest sheet, so a slow phone never holds up the others)."""

    latest: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def send(self, text: str) -> None:
        self.latest = text
        self.wake.set()


W = TypeVar("W", bound=Watcher)
P = ParamSpec("P")
R = TypeVar("R")


class ScoreQueue:
    """The sheets' scoring work, off the event loop: threads of its own (an import or a long
    correction never takes the default pool's threads from database reads) and a bounded
    number of jobs running or waiting; one more is refused with 503 at once."""

    def __init__(self, workers: int = SCORE_WORKERS, depth: int = SCORE_QUEUE) -> None:
        self.executor = concurrent.futures.ThreadPoolExecutor(
            max(1, workers), thread_name_prefix="sheet-score"
        )
        self.depth = max(1, depth)
        self._pending = 0
        self._lock = threading.Lock()

    @property
    def pending(self) -> int:
        return self._pending

    async def run(self, fn: "Callable[P, R]", *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` on a scoring thread; 503 "busy, try again" when the queue is full.
        A job counts until it has run, even if its caller has gone (a closed connection)."""
        with self._lock:
            if self._pending >= self.depth:
                raise HTTPException(503, BUSY, headers={"retry-after": "1"})
            self._pending += 1
        try:
            future = self.executor.submit(fn, *args, **kwargs)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def _done(self, _: object) -> None:
        with self._lock:
            self._pending -= 1

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


@dataclass(eq=False)
class SheetPage(Watcher):
    """A page open on a list: sent the rows that changed. ``pending`` is the (``from``,
    ``base``) of the frame it has not been sent yet; a change before it is sent widens it, so
    a page that falls behind gets one frame from the earliest row it missed."""

    pending: tuple[int, int] = (0, 0)

    def follow(self, live: "LiveList", start: int, base: int) -> None:
        if self.latest is not None:
            start, base = min(start, self.pending[0]), self.pending[1]
        self.pending = (start, base)
        self.send(live.frame(start, base))


@dataclass(frozen=True)
class Scored:
    """A sheet after a change, scored on a worker thread with the JSON of what changed written
    there too (the event loop only joins texts): the new rows' texts are cached on the rows."""

    sheet: Sheet
    done: Applied
    head: str
    """``sheet.to_json(rows=False, deleted=True)`` as JSON text."""
    size: int
    """The estimated bytes the sheet takes in memory."""
    fresh: frozenset[str] = frozenset()
    """The deals whose row changed in more than its index and running totals (new ones too):
    every other row from ``done.start`` on goes to a page that has it as ``Row.moved_text``."""


def _head(sheet: Sheet) -> str:
    return json.dumps(sheet.to_json(rows=False, deleted=True), ensure_ascii=False)


def _size(sheet: Sheet) -> int:
    """An estimate of the memory a sheet takes: its rows' JSON text, times ``OBJECT_FACTOR``."""
    return OBJECT_FACTOR * sum(len(row.json_text) for row in sheet.rows) + 4096


def _score_change(sheet: Sheet, change: dict[str, Any]) -> Scored:
    """``change`` applied to a copy of ``sheet`` (runs on a scoring thread; ``sheet`` itself is
    still read by the event loop and stays as it is)."""
    twin = sheet.fork()
    done = twin.apply(change)
    before = {row.entry_id: row for row in sheet.rows[done.start :]}
    fresh = set()
    for row in twin.rows[done.start :]:
        _ = row.json_text
        old = before.get(row.entry_id)
        if old is not None and row.same_but_place(old):
            _ = row.moved_text
        else:
            fresh.add(row.entry_id)
    return Scored(twin, done, _head(twin), _size(twin), frozenset(fresh))


@dataclass(eq=False)
class LiveList:
    """A list in memory: its sheet as of change ``seq``, and the pages watching it."""

    info: ListInfo
    sheet: Sheet
    seq: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    last_change: dict[str, Any] | None = None
    size: int = 0
    """The estimated bytes the list takes in memory (``_size``)."""
    loaded: int = -1
    """The position in the log the list was read at (-1: ``seq``)."""
    stamps: dict[str, int] = field(default_factory=dict)
    """For each deal changed since: the position in the log where its row last changed in more
    than its index and totals (a page at that position or later has the rest of the row)."""
    described: "tuple[int, Sheet, list[str]] | None" = None
    """The log described up to a position (``sheet.diff``): that position, the list as it
    stood there (the very sheet this list was then, so its rows are shared) and each change's
    ``about`` as JSON text; a later reading describes only the changes since."""
    _head: str | None = None
    _parts: dict[tuple[int, int], str] = field(default_factory=dict)
    _frames: dict[tuple[int, int], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.loaded < 0:
            self.loaded = self.seq

    def head_text(self) -> str:
        if self._head is None:
            self._head = _head(self.sheet)
        return self._head

    def sheet_text(self, start: int = 0, base: int = 0) -> str:
        """The sheet as JSON text, the whole (``base`` 0) or the part a page at position
        ``base`` needs: the rows from index ``start`` on, each row that changed only its place
        and total since ``base`` as ``Row.moved_text``. Each row's texts are written once for
        good, so a change writes only its rows and keeps no second copy of the sheet as
        objects (few objects: short garbage collections)."""
        key = (start, base) if base else (0, 0)
        text = self._parts.get(key)
        if text is None:
            rows = self.sheet.rows[key[0] :]
            if base:
                stamps, loaded = self.stamps, self.loaded
                parts = [
                    row.moved_text if stamps.get(row.entry_id, loaded) <= base else row.json_text
                    for row in rows
                ]
            else:
                parts = [row.json_text for row in rows]
            text = self._parts[key] = f'{{"rows": [{", ".join(parts)}], {self.head_text()[1:]}'
        return text

    def frame(self, start: int = 0, base: int = 0) -> str:
        """The ``sheet`` frame for the pages: the position in the log, the change that led
        there (so a page keeping the log can follow), ``from`` and ``base`` (see the module
        docstring) and the sheet (``base`` 0: the whole; else the part from ``start`` on)."""
        key = (start, base) if base else (0, 0)
        text = self._frames.get(key)
        if text is None:
            head = json.dumps({"type": "sheet", "seq": self.seq, "change": self.last_change,
                               "from": key[0], "base": key[1]}, ensure_ascii=False)  # fmt: skip
            text = self._frames[key] = f'{head[:-1]}, "sheet": {self.sheet_text(*key)}}}'
        return text

    def changed(self, seq: int, change: dict[str, Any] | None, scored: Scored) -> None:
        """The sheet has taken change ``seq``: send every page the rows it changed."""
        base = self.seq
        self.sheet, self.size, self._head = scored.sheet, scored.size, scored.head
        self.seq, self.last_change = seq, change
        for entry_id in scored.fresh:
            self.stamps[entry_id] = seq
        if len(self.stamps) > 2 * len(self.sheet.entries) + 64:
            # Deals deleted long ago: keep the stamps of those on the list (it stays bounded).
            on_list = {e.id for e in self.sheet.entries}
            self.stamps = {k: v for k, v in self.stamps.items() if k in on_list}
        self._parts = {}
        self._frames = {}
        start = scored.done.start
        for watcher in self.watchers:
            if isinstance(watcher, SheetPage):
                watcher.follow(self, start, base)
            else:
                watcher.send(self.frame())  # another kind (a tournament's): the whole sheet


def describe_log(repo: SheetRepo, live: LiveList, seq: int, sheet: Sheet, since: int) -> str:
    """The log after ``since`` up to ``seq`` (where ``live`` stood: ``sheet``), each change with
    its ``about`` (``sheet.diff.describe``), as JSON text. Only the changes not described
    before are replayed, from the list as it stood after the last described one."""
    done = live.described
    if done is not None and done[0] >= seq:
        at, work, texts = seq, done[1], done[2]  # described already (up to here or further)
    elif done is not None:
        at, work, texts = done[0], done[1].fork(), list(done[2])
    else:
        settings = read_settings(stored_header(live.info.settings))
        at, work, texts = 0, Sheet(settings, limit=STORED_DEALS), []
    rows = repo.changes(live.info.id, min(at, since))
    fresh = [r.change for r in rows if at < r.seq <= seq]
    texts += [json.dumps(a, ensure_ascii=False) for a in describe_changes(work, fresh)]
    if fresh:
        live.described = (seq, sheet, texts)
    parts = []
    for r in rows:
        # Positions run 1, 2 ... without gaps (the log's ``seq``); the texts follow them.
        if since < r.seq <= seq and r.seq <= len(texts):
            row = json.dumps(r.to_json(), ensure_ascii=False)
            parts.append(f'{row[:-1]}, "about": {texts[r.seq - 1]}}}')
    head = json.dumps({"settings": live.info.settings, "seq": seq}, ensure_ascii=False)
    return f'{head[:-1]}, "changes": [{", ".join(parts)}]}}'


def _load(repo: SheetRepo, list_id: str) -> LiveList | None:
    """A list rebuilt from its stored log (runs on a scoring thread), its JSON written there."""
    info = repo.get(list_id)
    if info is None:
        return None
    changes = repo.changes(list_id)
    sheet = replay(info.settings, (c.change for c in changes), limit=STORED_DEALS)
    return _prepared(info, sheet, changes[-1].seq if changes else 0)


def _prepared(info: ListInfo, sheet: Sheet, seq: int) -> LiveList:
    """A list in memory with its texts written (on the thread that scored it)."""
    live = LiveList(info, sheet, seq, size=_size(sheet))
    live.sheet_text()
    return live


class SheetHub:
    """The lists this process serves; the only writer of their logs."""

    def __init__(
        self,
        repo: SheetRepo,
        scoring: ScoreQueue | None = None,
        memory: int = MEMORY_MB * 1024 * 1024,
    ) -> None:
        self.repo = repo
        self.writer = ChangeWriter(repo)
        self.scoring = scoring or ScoreQueue()
        self.memory = memory
        """Bytes the idle lists kept in memory may take (estimated: ``LiveList.size``)."""
        self._lists: OrderedDict[str, LiveList] = OrderedDict()
        self._loading = asyncio.Lock()
        self._tokens: dict[str, tuple[str, str]] = {}
        """Links already looked up: token → (list id, role). A link never changes."""

    async def open(self, token: str) -> tuple[LiveList, str]:
        """The list a link opens and the link's role; 404 for an unknown link."""
        if not TOKEN.fullmatch(token):
            raise HTTPException(404, "no such score sheet (check the link)")
        known = self._tokens.get(token)
        if known is None:
            found = await asyncio.to_thread(self.repo.by_token, token)
            if found is None:
                raise HTTPException(404, "no such score sheet (check the link)")
            known = self._tokens[token] = (found[0].id, found[1])
        list_id, role = known
        return await self.live(list_id), role

    async def live(self, list_id: str) -> LiveList:
        live = self._lists.get(list_id)
        if live is None:
            async with self._loading:
                live = self._lists.get(list_id)
                if live is None:
                    try:
                        loaded = await self.scoring.run(_load, self.repo, list_id)
                    except StichwerkError as exc:
                        log.error("score sheet %s cannot be rebuilt: %s", list_id, exc)
                        raise HTTPException(503, f"this list cannot be read: {exc}") from None
                    if loaded is None:
                        raise HTTPException(404, "no such score sheet (check the link)")
                    live = loaded
                    self._lists[list_id] = live
        self._lists.move_to_end(list_id)
        self._forget_idle()
        return live

    def memory_used(self) -> int:
        """The estimated bytes of every list kept in memory."""
        return sum(live.size for live in self._lists.values())

    def _forget_idle(self) -> None:
        """Drop the least used lists no page has open while more than ``KEPT_LISTS`` are kept
        or they take more than ``memory`` bytes (the one just asked for is the newest)."""
        used = self.memory_used()
        if len(self._lists) <= KEPT_LISTS and used <= self.memory:
            return
        for list_id, live in list(self._lists.items())[:-1]:
            if len(self._lists) <= KEPT_LISTS and used <= self.memory:
                break
            if not live.watchers and not live.lock.locked():
                del self._lists[list_id]
                used -= live.size

    async def apply(self, live: LiveList, change: dict[str, Any], link: str) -> Response:
        """Apply ``change`` to the list (scored on a scoring thread), store it, broadcast the
        rows it changed; the answer for the phone: what was applied and those rows."""
        async with live.lock:
            try:
                scored = await self.scoring.run(_score_change, live.sheet, change)
            except SheetConflict as exc:
                raise HTTPException(409, str(exc)) from None
            except StichwerkError as exc:
                raise HTTPException(400, str(exc)) from None
            done = scored.done
            base, start = live.seq, done.start
            if done.duplicate:
                start = base = 0  # a repeat: the whole sheet as it stands (nothing was scored)
            else:
                stored = {**change, "key": done.key}
                if done.kind == "add":
                    stored["entry"] = done.entry_id
                try:
                    await self.writer.append(
                        NewChange(live.info.id, live.seq + 1, done.key, stored, link)
                    )
                except Exception:
                    log.exception("could not store a change of score sheet %s", live.info.id)
                    # The list in memory never took the change: it stays as it was.
                    raise HTTPException(503, "the change could not be saved; try again") from None
                live.changed(live.seq + 1, stored, scored)
                self._forget_idle()
            head = json.dumps(
                {
                    "applied": {
                        "op": done.kind,
                        "entry": done.entry_id,
                        "key": done.key,
                        "duplicate": done.duplicate,
                    },
                    "seq": live.seq,
                    "from": start,
                    "base": base,
                }
            )
            text = live.sheet_text(start, base)
            return Response(f'{head[:-1]}, "sheet": {text}}}', media_type=JSON)

    async def preview(self, live: LiveList, summary: dict[str, Any], entry: str | None) -> str:
        """The row ``summary`` would make (scored on a scoring thread) as JSON text."""
        sheet = live.sheet

        def score() -> str:
            row = sheet.preview(summary, entry_id=entry)
            return json.dumps({"row": row.to_json()}, ensure_ascii=False)

        try:
            return await self.scoring.run(score)
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None

    async def import_list(self, text: str) -> LiveList:
        """A new list from a JSON-lines file: read and scored on a scoring thread, stored, and
        kept in memory as read (its log is not replayed a second time)."""
        try:
            sheet = await self.scoring.run(read_lines, text)
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        changes = [
            (e.id, {"op": "add", "summary": e.summary, "entry": e.id, "key": e.id})
            for e in sheet.entries
        ]
        info = await self.create(sheet.settings.to_json(), changes, "import")
        live = await self.scoring.run(_prepared, info, sheet, len(changes))
        if info.id not in self._lists:
            self._lists[info.id] = live
        self._forget_idle()
        return self._lists[info.id]

    async def create(
        self, settings: dict[str, Any], changes: list[tuple[str, dict[str, Any]]], link: str
    ) -> ListInfo:
        return await asyncio.to_thread(self.repo.create_list, settings, changes, link=link)

    def forget(self, list_id: str) -> None:
        """Drop a list from memory (its rows were put in place anew, by a tournament's backup
        imported over it): its pages are closed and reconnect to the list as stored."""
        live = self._lists.pop(list_id, None)
        if live is not None:
            for watcher in live.watchers:
                watcher.closed = True
                watcher.wake.set()

    def close(self) -> None:
        for live in self._lists.values():
            for watcher in live.watchers:
                watcher.closed = True
                watcher.wake.set()
        self.writer.close()
        self.scoring.close()


# -- what the phone's Python needs, QR codes, a watcher's websocket -----------------------------


@cache
def pure_zip() -> tuple[bytes, str]:
    """The rules and the sheet as a zip for the phone's Python, and its content hash."""
    root = Path(stichwerk.__file__).parent
    # The package's __init__ asks stichwerk.native for a compiled engine (on the phone there is
    # none, and the Python modules serve).
    files = [root / "__init__.py", root / "games.py", root / "native" / "__init__.py"]
    for package in PURE_PACKAGES:
        files += sorted((root / package).rglob("*.py"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"stichwerk/{path.relative_to(root).as_posix()}")
            info.date_time = (2020, 1, 1, 0, 0, 0)  # the same bytes for the same code
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


@cache
def offline_version() -> str:
    """One hash of everything the service worker keeps: a change makes phones fetch anew."""
    digest = hashlib.sha256(pure_zip()[1].encode())
    digest.update(vendor.VERSION.encode())
    for name in STATIC_FILES:
        path = STATIC / name
        digest.update(path.read_bytes() if path.exists() else b"-")
    return digest.hexdigest()[:16]


def precache() -> list[str]:
    """The URLs the service worker keeps when it is installed: the pages' code and texts."""
    zip_hash = pure_zip()[1]
    urls = ["/s/new", f"/s/py/stichwerk.zip?v={zip_hash}", f"/s/py/worker.js?v={offline_version()}"]
    urls += [f"/static/{name}" for name in STATIC_FILES if (STATIC / name).exists()]
    # Not Pyodide: only a scorer's page needs it, and its worker's requests keep it.
    return urls


def qr_svg(url: str, scale: int = 4) -> str:
    """A QR code of ``url`` as inline SVG (a list's links; a tournament's printed sheets)."""
    qr = segno.make(url, error="m")
    buffer = io.BytesIO()
    qr.save(buffer, kind="svg", scale=scale, border=2, xmldecl=False, svgns=True, title=url)
    return buffer.getvalue().decode()


async def serve_watcher(
    websocket: WebSocket, watcher: W, watchers: set[W], hello: str | None = None
) -> None:
    """Keep an accepted page's websocket: it gets ``hello`` (if any), then the newest frame
    ``watcher`` holds whenever it changes, while it is one of ``watchers``. What the page sends
    is read only to notice its leaving: a message over the limit, or a flood, closes it."""
    watchers.add(watcher)

    async def pump() -> None:
        if hello is not None:
            await websocket.send_text(hello)
        while not watcher.closed:
            await watcher.wake.wait()
            watcher.wake.clear()
            text, watcher.latest = watcher.latest, None
            if text is not None and not watcher.closed:
                await websocket.send_text(text)

    sender = asyncio.create_task(pump())
    bucket = TokenBucket(5.0, 20.0)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text") or ""
            if len(text) > WS_MESSAGE_LIMIT or not bucket.take():
                await websocket.close(code=1008)
                break
    except WebSocketDisconnect:
        pass
    finally:
        watchers.discard(watcher)
        watcher.closed = True
        watcher.wake.set()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


# -- the hub from the environment -------------------------------------------------------------


def _env_int(name: str, default: int) -> int:
    """A whole-number setting from the environment; a bad one stops the start with one line."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {raw!r}") from None
    if value < 1:
        raise SystemExit(f"{name} must be at least 1")
    return value


def make_hub(db: Database) -> SheetHub:
    """The score sheets' hub for ``db``, its scoring threads and memory from the environment
    (``STICHWERK_SHEET_WORKERS``, ``_QUEUE``, ``_MEMORY_MB``); the app closes it on shutdown."""
    scoring = ScoreQueue(_env_int("STICHWERK_SHEET_WORKERS", SCORE_WORKERS),
                         _env_int("STICHWERK_SHEET_QUEUE", SCORE_QUEUE))  # fmt: skip
    memory = _env_int("STICHWERK_SHEET_MEMORY_MB", MEMORY_MB) * 1024 * 1024
    return SheetHub(SheetRepo(db), scoring, memory)
