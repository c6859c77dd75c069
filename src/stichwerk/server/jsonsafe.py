"""JSON in and out without the numbers a browser cannot read.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``1e999`` (as infinity) and writes them back
as ``NaN``/``Infinity``, which is not JSON: a browser's ``JSON.parse`` throws on it. Everything
the server reads (HTTP bodies, websocket messages) goes through :func:`loads`, which refuses
them, and everything it writes through :func:`dumps`, which never emits them.
"""

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute


class BadJSON(ValueError):
    """Not JSON, or JSON with a number that is not finite; the message is one line."""


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
    """
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
