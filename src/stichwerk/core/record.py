"""Reading JSON records and summaries with one clear line for every kind of bad input."""

import json
import math
from collections.abc import Sequence
from typing import Any, TypeVar

from stichwerk.core.errors import RecordError

T = TypeVar("T")

NUMBER_LIMIT = 10**9
"""The largest size a number from outside may have where a figure (card points, points) is
read: far above any real one, far below where arithmetic on it overflows or loses meaning."""


def finite_number(value: object, what: str) -> float:
    """``value`` as a float if it is an int or float (not a bool), finite and within
    ``NUMBER_LIMIT``; else one line naming ``what``. Every figure from outside passes here:
    ``1e308`` doubled is infinite, and NaN compares false with every bound.

    >>> finite_number(34.5, "'x'")
    34.5
    >>> finite_number(1e308, "'x'")
    Traceback (most recent call last):
    ...
    stichwerk.core.errors.RecordError: 'x' must be a number from -1000000000 to 1000000000
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecordError(f"{what} must be a number")
    if isinstance(value, int):
        if abs(value) > NUMBER_LIMIT:
            raise RecordError(f"{what} must be a number from -{NUMBER_LIMIT} to {NUMBER_LIMIT}")
        return float(value)
    if not math.isfinite(value) or abs(value) > NUMBER_LIMIT:
        raise RecordError(f"{what} must be a number from -{NUMBER_LIMIT} to {NUMBER_LIMIT}")
    return value


def load_json_object(text: str, what: str = "record") -> dict[str, Any]:
    """Parse ``text`` as one JSON object or raise ``RecordError`` with a one-line message."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise RecordError(f"{what} is nested too deeply") from None
    if not isinstance(obj, dict):
        raise RecordError(f"{what} must be a JSON object, not {type(obj).__name__}")
    return obj


def get_int(
    obj: dict[str, Any], key: str, what: str, *, default: int | None = None, lo: int | None = None
) -> int:
    """``obj[key]`` as an int (not a bool); ``default`` when absent, else an error."""
    if key not in obj:
        if default is not None:
            return default
        raise RecordError(f"{what} has no {key!r}")
    value = obj[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key!r} of the {what} must be a whole number")
    if lo is not None and value < lo:
        raise RecordError(f"{key!r} of the {what} must be at least {lo}")
    return value


def get_str(obj: dict[str, Any], key: str, what: str, *, default: str | None = None) -> str:
    """``obj[key]`` as a string; ``default`` when absent, else an error."""
    if key not in obj:
        if default is not None:
            return default
        raise RecordError(f"{what} has no {key!r}")
    value = obj[key]
    if not isinstance(value, str):
        raise RecordError(f"{key!r} of the {what} must be a string")
    return value


def get_bool(obj: dict[str, Any], key: str, what: str, *, default: bool | None = None) -> bool:
    """``obj[key]`` as a bool; ``default`` when absent, else an error."""
    if key not in obj:
        if default is not None:
            return default
        raise RecordError(f"{what} has no {key!r}")
    value = obj[key]
    if not isinstance(value, bool):
        raise RecordError(f"{key!r} of the {what} must be true or false")
    return value


def get_number(obj: dict[str, Any], key: str, what: str) -> float:
    """``obj[key]`` as an int or float (not a bool)."""
    if key not in obj:
        raise RecordError(f"{what} has no {key!r}")
    return finite_number(obj[key], f"{key!r} of the {what}")


def get_list(obj: dict[str, Any], key: str, what: str) -> list[Any]:
    """``obj[key]`` as a list."""
    if key not in obj:
        raise RecordError(f"{what} has no {key!r}")
    value = obj[key]
    if not isinstance(value, list):
        raise RecordError(f"{key!r} of the {what} must be a list")
    return value


def get_options(obj: dict[str, Any], what: str) -> dict[str, Any]:
    """The ``options`` object (absent means empty)."""
    value = obj.get("options", {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f"'options' of the {what} must be an object")
    return value


def check_keys(obj: dict[str, Any], allowed: Sequence[str], what: str) -> None:
    """Refuse keys a record or summary does not know (a typo must not pass silently)."""
    for key in obj:
        if key not in allowed:
            raise RecordError(f"unknown key {key!r} in the {what}")


def half_points(value: float, what: str) -> int:
    """A card-point figure that may end in .5, as a whole number of half points."""
    value = finite_number(value, what)
    doubled = value * 2
    if doubled != int(doubled):
        raise RecordError(f"{what} must be a whole or half number, not {value}")
    return int(doubled)


def from_half_points(halves: int) -> int | float:
    """Half points back to the figure a player writes: 41, or 34.5."""
    return halves // 2 if halves % 2 == 0 else halves / 2
