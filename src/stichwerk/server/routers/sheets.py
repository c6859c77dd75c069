"""``/api/sheets``, ``/ws/sheets/{token}`` and the pages under ``/s/``: the score sheets over
HTTP and websockets (the lists themselves live in ``server/sheets.py``'s ``SheetHub``).

No accounts: a list's *scorer* link may enter, correct and delete deals, its *follower* link
only reads. The pages work offline: a service worker (``/s/sw.js``) keeps them, the browser
code and Pyodide, and the phone scores waiting entries with the same Python
(``/s/py/stichwerk.zip``, run in a worker, ``/s/py/worker.js``).
"""

import asyncio
import json
import mimetypes
import os
import re
from functools import cache
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game
from stichwerk.server.deps import PublicOrigin, SettingsDep, SheetsDep
from stichwerk.server.jsonsafe import read_json_object
from stichwerk.server.ratelimit import KeyedLimiter
from stichwerk.server.security import origin_allowed
from stichwerk.server.sheets import (
    JSON,
    TOKEN,
    LiveList,
    SheetPage,
    describe_log,
    offline_version,
    precache,
    pure_zip,
    qr_svg,
    serve_watcher,
)
from stichwerk.sheet import read_settings, write_csv, write_lines
from stichwerk.storage.sheets import ListInfo
from stichwerk.web import LANGUAGES, STATIC, pick_language, texts
from stichwerk.web import pyodide as vendor

CREATE_LIMIT = 8 * 1024
CHANGE_LIMIT = 16 * 1024
IMPORT_LIMIT = 1024 * 1024
WORKER_CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; base-uri 'none'"
)
"""The Pyodide worker compiles WebAssembly, which a page's own policy does not allow."""


def _links(info: ListInfo, role: str) -> dict[str, str]:
    """The list's links as paths; the scorer link only for a scorer."""
    links = {"follower": f"/s/{info.follower_token}"}
    if role == "scorer":
        links["scorer"] = f"/s/{info.scorer_token}"
    return links


@cache
def _profile_settings(game: str, profile: str) -> dict[str, Any]:
    settings: dict[str, Any] = get_game(game).settings(profile)
    return settings


def _answer(live: LiveList, role: str) -> Response:
    """A list as a page opens it: the link's role, the links it may see, the position in the
    log, the rules in force (the profile's settings with the list's overrides, for the entry
    form) and the sheet."""
    info = live.info
    settings = info.settings
    rules = {**_profile_settings(info.game, settings["profile"]), **settings["options"]}
    head = json.dumps(
        {"role": role, "seq": live.seq, "links": _links(info, role), "rules": rules},
        ensure_ascii=False,
    )
    return Response(f'{head[:-1]}, "sheet": {live.sheet_text()}}}', media_type=JSON)


def _need_scorer(role: str) -> None:
    if role != "scorer":
        raise HTTPException(403, "this is the read-only link: enter deals with the scorer link")


def _filename(info: ListInfo, suffix: str) -> str:
    title = str(info.settings.get("title") or info.game)
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", title).strip("-")[:40] or info.game
    return f"stichwerk-{safe}-{info.created_at:%Y-%m-%d}.{suffix}"


def _download(body: str, media: str, name: str) -> Response:
    return Response(
        body, media_type=media, headers={"content-disposition": f'attachment; filename="{name}"'}
    )


def sheet_api() -> APIRouter:
    """``/api/sheets``: create, read, preview, change, export and import lists."""
    router = APIRouter(prefix="/api/sheets")
    rate = float(os.environ.get("STICHWERK_SHEET_CREATE_RATE") or 1.0)
    creating = KeyedLimiter(rate=rate, burst=max(30.0, rate))

    def _limit(request: Request) -> None:
        if not creating.take(request.client.host if request.client else "unknown"):
            raise HTTPException(429, "too many new lists from here; wait a little")

    @router.post("")
    async def create(request: Request, hub: SheetsDep) -> Response:
        """A new list from its settings (``docs/sheet.md``: the settings line's keys)."""
        _limit(request)
        body = await read_json_object(request, CREATE_LIMIT)
        try:
            settings = read_settings(body)
        except StichwerkError as exc:
            raise HTTPException(400, str(exc)) from None
        info = await hub.create(settings.to_json(), [], "scorer")
        return _answer(await hub.live(info.id), "scorer")

    @router.post("/import")
    async def import_list(request: Request, hub: SheetsDep) -> Response:
        """A new list from a JSON-lines file (``{"text": ...}``, as the export writes it)."""
        _limit(request)
        body = await read_json_object(request, IMPORT_LIMIT, off_loop=True)
        text = body.get("text")
        if set(body) != {"text"} or not isinstance(text, str):
            raise HTTPException(400, "'text': send the list's JSON lines as {\"text\": ...}")
        return _answer(await hub.import_list(text), "scorer")

    @router.get("/{token}")
    async def get(token: str, hub: SheetsDep) -> Response:
        live, role = await hub.open(token)
        return _answer(live, role)

    @router.get("/{token}/changes")
    async def changes(
        token: str,
        hub: SheetsDep,
        since: int = Query(0, ge=0, le=10**9),
        about: bool = Query(False),
    ) -> Response:
        """The change log after position ``since``: who entered what, and when; ``about``:
        each change also says what it did (``sheet.diff.describe``: the game's number, the
        fields that changed, the points), for the log a person reads."""
        live, _ = await hub.open(token)

        def read() -> str:
            # Read and written off the event loop: a whole season's log is thousands of
            # changes, which FastAPI's encoder would take a tenth of a second over on it.
            rows = hub.repo.changes(live.info.id, since)
            changes = [r.to_json() for r in rows]
            body = {"settings": live.info.settings, "seq": live.seq, "changes": changes}
            return json.dumps(body, ensure_ascii=False)

        if about:
            # What a change did depends on the list before it: the log is replayed (on a
            # scoring thread) from where it was described last, the list as of now.
            text = await hub.scoring.run(describe_log, hub.repo, live, live.seq, live.sheet, since)
            return Response(text, media_type=JSON)
        return Response(await asyncio.to_thread(read), media_type=JSON)

    @router.post("/{token}/preview")
    async def preview(request: Request, token: str, hub: SheetsDep) -> Response:
        """The scored line a summary would make (as the next deal, or in place of ``entry``),
        with its items, without saving anything."""
        body = await read_json_object(request, CHANGE_LIMIT)
        live, role = await hub.open(token)
        _need_scorer(role)
        summary, entry = body.get("summary"), body.get("entry")
        if not set(body) <= {"summary", "entry"} or not isinstance(summary, dict):
            raise HTTPException(400, "'summary': send {\"summary\": {...}}, 'entry' to correct")
        if entry is not None and not isinstance(entry, str):
            raise HTTPException(400, "'entry' must be a deal's id")
        return Response(await hub.preview(live, summary, entry), media_type=JSON)

    @router.post("/{token}/changes")
    async def change(request: Request, token: str, hub: SheetsDep) -> Response:
        """Add, correct or delete a deal (``docs/sheet.md``: changes and their log)."""
        body = await read_json_object(request, CHANGE_LIMIT)
        live, role = await hub.open(token)
        _need_scorer(role)
        return await hub.apply(live, body, "scorer")

    @router.get("/{token}/export.jsonl")
    async def export_lines(token: str, hub: SheetsDep) -> Response:
        live, _ = await hub.open(token)
        text = await hub.scoring.run(write_lines, live.sheet)
        return _download(text, "application/x-ndjson", _filename(live.info, "jsonl"))

    @router.get("/{token}/export.csv")
    async def export_csv(token: str, hub: SheetsDep) -> Response:
        live, _ = await hub.open(token)
        text = await hub.scoring.run(write_csv, live.sheet)
        return _download(text, "text/csv", _filename(live.info, "csv"))

    @router.get("/{token}/qr/{which}.svg")
    async def qr(token: str, which: str, hub: SheetsDep, public: PublicOrigin) -> Response:
        """A QR code of the list's follower (or, for a scorer, scorer) link."""
        live, role = await hub.open(token)
        if which not in ("scorer", "follower"):
            raise HTTPException(404, "a QR code is of the 'scorer' or the 'follower' link")
        if which == "scorer":
            _need_scorer(role)
        path = _links(live.info, role)[which]
        url = public + path  # phones scan it: not the director's loopback
        return Response(
            qr_svg(url), media_type="image/svg+xml", headers={"cache-control": "private"}
        )

    return router


async def sheet_socket(
    websocket: WebSocket, token: str, hub: SheetsDep, settings: SettingsDep
) -> None:
    """``/ws/sheets/{token}``: a ``hello`` (the role), then the whole sheet after every change.
    The page sends nothing (entries go over HTTP, with their keys); a client that floods the
    socket or sends large messages is closed (1008)."""
    if not origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings.allowed_origins
    ):
        await websocket.close(code=1008)
        return
    try:
        live, role = await hub.open(token[:64])
    except HTTPException:
        await websocket.close(code=1008)
        return
    await websocket.accept()
    watcher = SheetPage()
    watcher.send(live.frame())
    hello = json.dumps({"type": "hello", "role": role})
    await serve_watcher(websocket, watcher, live.watchers, hello)


def sheet_pages(templates: Jinja2Templates) -> APIRouter:
    """The sheet's pages, its manifest and service worker, and what the phone's Python needs."""
    router = APIRouter()

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
        return templates.TemplateResponse(
            request,
            name,
            {
                "lang": lang,
                "t": texts(lang),
                "user": None,
                "languages": LANGUAGES,
                "offline": {
                    "zip": f"/s/py/stichwerk.zip?v={pure_zip()[1]}",
                    "worker": f"/s/py/worker.js?v={offline_version()}",
                    "pyodide": vendor.URL if vendor.installed() else "",
                },
                **context,
            },
        )

    @router.get("/s/new", response_class=HTMLResponse)
    async def new_list(request: Request) -> HTMLResponse:
        return page(request, "sheet_new.html", manifest="/s/manifest.webmanifest")

    @router.get("/s/sw.js")
    async def service_worker() -> Response:
        source = (STATIC / "js" / "sheet_sw.js").read_text(encoding="utf-8")
        offline = {"version": offline_version(), "precache": precache()}
        head = f"self.SHEET_OFFLINE = {json.dumps(offline)};\n"
        return Response(
            head + source,
            media_type="text/javascript",
            headers={"cache-control": "no-cache", "service-worker-allowed": "/s/"},
        )

    @router.get("/s/manifest.webmanifest")
    async def manifest(request: Request) -> Response:
        return _manifest(request, "/s/new", None)

    @router.get("/s/py/stichwerk.zip")
    async def python_zip() -> Response:
        data, digest = pure_zip()
        return Response(
            data,
            media_type="application/zip",
            headers={"etag": f'"{digest}"', "cache-control": "public, max-age=31536000, immutable"},
        )

    @router.get("/s/py/pyodide/{version}/{name}")
    async def pyodide_file(request: Request, version: str, name: str) -> Response:
        """Pyodide's files, gzip-compressed where the browser takes it; they never change."""
        if version != vendor.VERSION or name not in vendor.FILES or not vendor.installed():
            raise HTTPException(404, "no such file")
        path = vendor.DIR / name
        media = mimetypes.guess_type(name)[0] or "application/octet-stream"
        headers = {
            "cache-control": "public, max-age=31536000, immutable",
            "vary": "accept-encoding",
        }
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["content-encoding"] = "gzip"
            path = vendor.DIR / f"{name}.gz"
        return FileResponse(path, media_type=media, headers=headers)

    @router.get("/s/py/worker.js")
    async def python_worker() -> Response:
        source = (STATIC / "js" / "sheet_worker.js").read_text(encoding="utf-8")
        return Response(
            source,
            media_type="text/javascript",
            headers={"content-security-policy": WORKER_CSP, "cache-control": "no-cache"},
        )

    @router.get("/s/{token}", response_class=HTMLResponse)
    async def list_page(request: Request, token: str, hub: SheetsDep) -> HTMLResponse:
        if not TOKEN.fullmatch(token):
            raise HTTPException(404, "no such score sheet (check the link)")
        found = await asyncio.to_thread(hub.repo.by_token, token)
        if found is None:
            raise HTTPException(404, "no such score sheet (check the link)")
        return page(request, "sheet.html", token=token, manifest=f"/s/{token}/manifest.webmanifest")

    @router.get("/s/{token}/manifest.webmanifest")
    async def list_manifest(request: Request, token: str, hub: SheetsDep) -> Response:
        live, _ = await hub.open(token)
        return _manifest(request, f"/s/{token}", str(live.info.settings.get("title") or ""))

    return router


def _manifest(request: Request, start: str, title: str | None) -> Response:
    lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
    name = texts(lang)["sheet"]["app_name"]
    body = {
        "name": f"{title} – {name}" if title else name,
        "short_name": name,
        "start_url": start,
        "scope": "/s/",
        "display": "standalone",
        "background_color": "#eef0ea",
        "theme_color": "#174a2f",
        "lang": lang,
        "icons": [
            {"src": "/static/icons/sheet-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "/static/icons/sheet-512.png", "sizes": "512x512", "type": "image/png"},
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json")


def router(templates: Jinja2Templates) -> APIRouter:
    """The sheets' API, their websocket and their pages."""
    sheets = APIRouter()
    sheets.include_router(sheet_api())
    sheets.include_router(sheet_pages(templates))
    sheets.add_api_websocket_route("/ws/sheets/{token}", sheet_socket)
    return sheets
