"""What a change did to a list, as data a page words in its own language.

The log keeps each change as sent (an ``add`` with its summary, a ``correct`` with the new
summary, a ``delete`` naming an entry id), which says nothing a person can read: "Berichtigung
(a8b17077)". ``describe`` compares the row before and after a change: the game's number on the
list, the fields of the summary that changed (``re_augen`` 150 -> 160, ``announcements.re``
``keine-90`` added) and the scoring (the game's value, what each seat writes). ``describe_log``
replays a log and describes every change in it. Codes and values only: the page turns them into
"Spiel 1 berichtigt: Re 150 → 160 Augen, Re: Keine 90 angesagt; 5 → 7 Punkte" or English.

>>> from stichwerk.sheet.settings import read_settings
>>> settings = {"game": "doppelkopf", "profile": "wielandstrasse"}
>>> deal = {"game_type": "normal", "re": [0, 2], "re_augen": 150}
>>> log = [
...     {"op": "add", "entry": "a", "summary": deal},
...     {"op": "correct", "entry": "a", "summary": {**deal, "re_augen": 160}},
... ]
>>> about = describe_log(settings, log)[1]
>>> about["op"], about["number"], about["fields"], about["value"]
('correct', 1, [{'field': 're_augen', 'from': 150, 'to': 160}], {'from': 1, 'to': 2})
"""

from collections.abc import Iterable, Mapping
from typing import Any

from stichwerk.sheet.settings import read_settings, stored_header
from stichwerk.sheet.sheet import CHANGE_KINDS, Row, Sheet, SheetError

FILLED_IN = frozenset({"game", "profile", "options", "players", "seats", "dealer"})
"""Keys the list fills into every summary: never a change of the deal's own."""


def where(row: Row) -> dict[str, Any]:
    """A row's place for the log: its deal index, its game number (``None``: a redeal), its
    label (the contract, game type or redeal), what each seat wrote (``written``) and its
    version."""
    return {
        "index": row.index,
        "number": row.number,
        "label": row.label,
        "written": list(row.settlement),
        "version": row.version,
    }


def describe(op: str, before: Row | None, after: Row | None) -> dict[str, Any]:
    """The change ``op`` that turned ``before`` (``None`` for an add) into ``after`` (``None``
    for a delete): ``where``'s keys and ``{"op", "fields", "value", "settlement"}``.
    ``fields``: the summary's changes (``{"field", "from", "to"}``, lists of words as
    ``{"field", "added", "removed"}``); ``value``: the game's value ``{"from", "to"}`` if it
    changed; ``settlement``: per seat ``{"seat", "from", "to"}`` where it changed. The place
    is the row's after the change (before it for a delete)."""
    shown = after if after is not None else before
    assert shown is not None
    out: dict[str, Any] = {"op": op, **where(shown), "fields": [], "value": None, "settlement": []}
    if before is None or after is None:
        return out
    if before.label != after.label:
        out["was_label"] = before.label
    out["fields"] = _fields(before.summary, after.summary)
    old, new = before.score.get("value"), after.score.get("value")
    if old != new:
        out["value"] = {"from": old, "to": new}
    out["settlement"] = [
        {"seat": seat, "from": a, "to": b}
        for seat, (a, b) in enumerate(zip(before.settlement, after.settlement, strict=True))
        if a != b
    ]
    return out


def _fields(
    old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = ""
) -> list[dict[str, Any]]:
    """The keys whose values differ, nested objects by ``parent.key``; a list of words (the
    announcements, the extras) says which were added and which removed."""
    changed: list[dict[str, Any]] = []
    for key in sorted(set(old) | set(new), key=_order):
        if not prefix and key in FILLED_IN:
            continue
        a, b = old.get(key), new.get(key)
        name = f"{prefix}{key}"
        if a == b or (_empty(a) and _empty(b)):
            continue
        if isinstance(a, Mapping | None) and isinstance(b, Mapping | None) and (a or b):
            changed.extend(_fields(a or {}, b or {}, f"{name}."))
        elif _words(a) and _words(b):
            was, now = list(a or []), list(b or [])
            changed.append(
                {
                    "field": name,
                    "added": [w for w in now if w not in was],
                    "removed": [w for w in was if w not in now],
                }
            )
        else:
            changed.append({"field": name, "from": a, "to": b})
    return changed


def _order(key: str) -> tuple[int, str]:
    """The summary's keys in the order a table reads a deal: the game, who, the points, then
    the rest by name."""
    first = ("game_type", "contract", "redeal", "re", "declarer", "re_augen", "declarer_points")
    return (first.index(key), key) if key in first else (len(first), key)


def _empty(value: object) -> bool:
    return value is None or value in ([], {})


def _words(value: object) -> bool:
    return value is None or (isinstance(value, list) and all(isinstance(w, str) for w in value))


def describe_log(
    settings: Mapping[str, Any], changes: Iterable[Mapping[str, Any]], *, limit: int = 5000
) -> list[dict[str, Any]]:
    """Every change of a log described, in order (see ``describe``): the log replayed as
    ``log.replay`` does, each row looked at before and after its change."""
    sheet = Sheet(read_settings(stored_header(settings)), limit=limit)
    return describe_changes(sheet, changes)


def describe_changes(sheet: Sheet, changes: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``changes`` applied to ``sheet`` (which they change) and described one by one: a server
    that has described its log up to a point goes on from the list as it stood there."""
    described: list[dict[str, Any]] = []
    for change in changes:
        op, entry = change.get("op"), change.get("entry")
        before = _row(sheet, entry) if op in CHANGE_KINDS and op != "add" else None
        done = sheet.apply(change)
        after = None if op == "delete" else _row(sheet, done.entry_id)
        if done.duplicate or (before is None and after is None):
            described.append({"op": op, "duplicate": True})
            continue
        described.append(describe(str(op), before, after))
    return described


def _row(sheet: Sheet, entry: object) -> Row | None:
    if not isinstance(entry, str):
        return None
    try:
        return sheet.row(entry)
    except SheetError:
        return None
