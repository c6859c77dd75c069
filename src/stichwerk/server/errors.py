"""Every error the app answers is its JSON error ``{"error": "one line"}`` with its stable code
and params in the ``x-refusal`` header (for the pages to say it in the reader's language): no
HTML, no traceback, no FastAPI ``detail``. Unknown paths and methods (404, 405) included, and an
unexpected exception becomes a logged 500 with a line that gives nothing away."""

import json
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from stichwerk.core.errors import StichwerkError, one_line
from stichwerk.tournament.entry import EntryProblems
from stichwerk.web.refusals import refusal

log = logging.getLogger("stichwerk.app")


REFUSAL_HEADER = "x-refusal"
"""The header every error answer carries: ``{"code": "...", "params": {...}}`` as ASCII JSON."""


def refusal_headers(status: int, line: str) -> dict[str, str]:
    """The refusal's stable code and params (``web/refusals.py``) for a page to say it in the
    reader's language. A header beside the body, so the body stays the one line clients and
    tests already read."""
    code, params = refusal(line, status)
    return {REFUSAL_HEADER: json.dumps({"code": code, "params": params}, ensure_ascii=True)}


def error_response(status: int, message: str) -> JSONResponse:
    """The app's JSON error, its code in the ``x-refusal`` header."""
    line = one_line(message)[:300]
    return JSONResponse({"error": line}, status_code=status, headers=refusal_headers(status, line))


def validation_message(exc: RequestValidationError) -> str:
    """The first problem of a refused request, as ``where: what``."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return f"body: {first.get('ctx', {}).get('error', 'not valid JSON')}"
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "path", "query")]
    where = ".".join(loc)[:80]
    return f"{where or 'request'}: {first.get('msg', 'invalid')}"


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        response = error_response(exc.status_code, str(exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(StichwerkError)
    async def rules_error(_request: Request, exc: StichwerkError) -> JSONResponse:
        return error_response(400, str(exc))

    @app.exception_handler(EntryProblems)
    async def entry_error(_request: Request, exc: EntryProblems) -> JSONResponse:
        # Typed totals: every problem at once, each with its seat and field for the page.
        problems = [p.to_json() for p in exc.problems]
        line = one_line(str(exc))[:300]
        return JSONResponse(
            {"error": line, "problems": problems},
            status_code=400,
            headers=refusal_headers(400, line),
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, validation_message(exc))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return error_response(500, "the server could not do that; try again")
