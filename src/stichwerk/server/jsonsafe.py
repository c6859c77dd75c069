"""JSON in and out without the numbers a browser cannot read.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``1e999`` (as infinity) and writes them back
as ``NaN``/``Infinity``, which is not JSON: a browser's ``JSON.parse`` throws on it. Everything
the server reads (HTTP bodies, websocket messages) goes through :func:`loads`, which refuses
them, and everything it writes through :func:`dumps`, which never emits them.
"""

import asyncio
import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute

MAX_DEPTH = 64
"""Arrays and objects nested deeper than this are refused before parsing: nothing the server
takes is nested more than a dozen levels, and deep nesting only costs recursion (a 6 KB body of
``[[[[...`` raised ``RecursionError`` in the parser before this limit)."""


class BadJSON(ValueError):
    """Not JSON, or JSON with a number that is not finite; the message is one line."""


def _check_depth(text: str | bytes) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` (brackets inside strings ignored)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return  # cannot be nested deeper than its brackets
    depth = 0
    in_string = False
    escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MAX_DEPTH:
                raise BadJSON(f"JSON nested more than {MAX_DEPTH} levels deep")
        elif byte in (0x5D, 0x7D):
            depth -= 1


def _refuse_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"the number {text[:20]} is too large")
    return value


def loads(text: str | bytes) -> Any:
    """Parse strict JSON: no ``NaN``/``Infinity``, no float that overflows to infinity.

    >>> loads('{"t": 1.5}')
    {'t': 1.5}
    >>> loads('{"t": NaN}')
    Traceback (most recent call last):
    ...
    stichwerk.server.jsonsafe.BadJSON: NaN is not a JSON number
    >>> loads('[1e999]')
    Traceback (most recent call last):
    ...
    stichwerk.server.jsonsafe.BadJSON: the number 1e999 is too large
    >>> loads("[" * 65 + "]" * 65)
    Traceback (most recent call last):
    ...
    stichwerk.server.jsonsafe.BadJSON: JSON nested more than 64 levels deep
    """
    _check_depth(text)
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except BadJSON:
        raise
    except RecursionError:
        raise BadJSON("JSON nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadJSON("not valid JSON") from None
    except ValueError:  # e.g. an integer of more than 4300 digits
        raise BadJSON("a number in the JSON is too large") from None


def dumps(obj: Any) -> str:
    """Compact JSON text; raises ``ValueError`` rather than write a non-finite number."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class StrictJSONRequest(Request):
    """A request whose ``json()`` is :func:`loads`; a refusal becomes a 422 with one line."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = loads(await self.body())
            except BadJSON as exc:
                # FastAPI turns a JSONDecodeError into its validation error (a 422).
                raise json.JSONDecodeError(str(exc), "", 0) from None
        return self._json


class StrictJSONRoute(APIRoute):
    """An API route that reads its body with :class:`StrictJSONRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict


async def read_json_object(
    request: Request,
    limit: int,
    *,
    parse: Callable[[bytes], Any] = loads,
    off_loop: bool = False,
) -> dict[str, Any]:
    """The request's body as a strict JSON object (:func:`loads`, or ``parse``), read as it
    streams in; ``off_loop`` parses in a worker thread (a large body: an import, a backup).

    Refused with one line: 413 past ``limit`` bytes (declared or counted), 400 for a body
    that is not JSON (too deep, ``NaN``, a number too large included) or not an object.
    """
    declared = request.headers.get("content-length")
    too_large = HTTPException(413, f"the request is too large (at most {limit // 1024} KiB)")
    if declared is not None and (not declared.isdecimal() or int(declared) > limit):
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    try:
        data = await asyncio.to_thread(parse, bytes(body)) if off_loop else parse(bytes(body))
    except BadJSON as exc:
        raise HTTPException(400, f"the request is not valid JSON: {exc}") from None
    finally:
        del body
    if not isinstance(data, dict):
        raise HTTPException(400, "the request must be a JSON object")
    return data
