"""A list from its change log: the one way a stored or a phone's list is rebuilt.

The server keeps a list as its settings plus every accepted change (add, correct, delete, each
with its idempotency key); ``replay`` plays them through :meth:`Sheet.apply` in order. The web
page runs this very module in the browser (Pyodide) to score deals entered with no connection:
``phone`` replays the server's log, then tries the phone's own waiting changes on top, and
previews a deal, all in one JSON call. So the phone and the server never score apart.
"""

import json
from collections.abc import Iterable, Mapping
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.sheet.settings import read_settings, stored_header
from stichwerk.sheet.sheet import MAX_DEALS, Sheet, SheetConflict


def replay(
    settings: Mapping[str, Any], changes: Iterable[Mapping[str, Any]], *, limit: int = MAX_DEALS
) -> Sheet:
    """The sheet of ``settings`` (a header, as ``ListSettings.to_json`` writes it) after
    ``changes``; the first change that does not apply raises its one-line ``SheetError``.
    ``limit``: the deals the log may hold (a server's own log, kept before ``MAX_DEALS``, may
    hold more); adds beyond ``MAX_DEALS`` are refused from then on all the same."""
    sheet = Sheet(read_settings(stored_header(settings)), limit=limit)
    for change in changes:
        sheet.apply(change)
    sheet.limit = MAX_DEALS
    return sheet


def phone(request: str) -> str:
    """One call from the page: ``{"settings", "log": [change ...], "pending": [change ...],
    "preview"?: {"summary", "entry"?}}`` → ``{"sheet", "pending": [{"key", "ok", "conflict",
    "error"}], "preview": {"row"} | {"error"}, "deleted": [row ...]}`` as JSON. A waiting change
    that would be refused now is left out of the sheet and says why (``conflict``: another
    phone changed that deal)."""
    call = json.loads(request)
    sheet = replay(call["settings"], call.get("log", []))
    outcomes: list[dict[str, Any]] = []
    for change in call.get("pending", []):
        key = change.get("key")
        try:
            sheet.apply(change)
            outcomes.append({"key": key, "ok": True, "conflict": False, "error": None})
        except SheetConflict as exc:
            outcomes.append({"key": key, "ok": False, "conflict": True, "error": str(exc)})
        except StichwerkError as exc:
            outcomes.append({"key": key, "ok": False, "conflict": False, "error": str(exc)})
    out: dict[str, Any] = {"sheet": sheet.to_json(), "pending": outcomes, "preview": None}
    # The deleted rows, which the list shows struck through (the server sends them in its sheet).
    out["deleted"] = sheet.to_json(rows=False, deleted=True)["deleted"]
    wanted = call.get("preview")
    if wanted is not None:
        try:
            row = sheet.preview(wanted["summary"], entry_id=wanted.get("entry"))
            out["preview"] = {"row": row.to_json()}
        except StichwerkError as exc:
            out["preview"] = {"error": str(exc)}
    return json.dumps(out)
