"""Crafted deals for browser tests: a played record put into a stopped server's event log.

The server rebuilds every table that was playing from its log when it starts (the same path as
recovery after a crash), so a test can kill its server, replace the running deal's record and
actions with those of an example record (``docs/examples``), start the server again and find
the table exactly there. Nothing in the server knows about this: it is recovery, nothing else.
"""

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example(game: str, name: str) -> dict[str, Any]:
    """An example record of ``docs/examples/<game>/<name>.json``."""
    with (EXAMPLES / game / f"{name}.json").open(encoding="utf-8") as handle:
        record: dict[str, Any] = json.load(handle)
    return record


def rotate(record: dict[str, Any], by: int) -> dict[str, Any]:
    """The same deal with every seat moved ``by`` places on (the game does not change).

    Used to put a record's declarer on a bot's seat while the test's person sits at seat 0.
    """
    n = len(record["hands"])

    def seat(s: int) -> int:
        return (s + by) % n

    out = {k: v for k, v in record.items() if k != "result"}
    out["hands"] = [record["hands"][(s - by) % n] for s in range(n)]
    out["dealer"] = seat(record["dealer"])
    if "duty_solo_owed" in record:
        out["duty_solo_owed"] = sorted(seat(s) for s in record["duty_solo_owed"])
    out["actions"] = [{**a, "seat": seat(a["seat"])} for a in record["actions"]]
    return out


def table_id(url: str) -> str:
    """The table id of a table page's URL (``.../t/<id>?invite=...``)."""
    return url.split("/t/", 1)[1].split("?", 1)[0]


def plant(db: Path, table: str, record: dict[str, Any], actions: int | None = None) -> None:
    """Make ``record`` (its first ``actions`` actions) the table's current deal.

    The server must be stopped; the next start replays the planted log (and finishes the deal
    when the record is complete).
    """
    base = {k: v for k, v in record.items() if k not in ("actions", "result")}
    moves = record["actions"][: len(record["actions"]) if actions is None else actions]
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT id FROM deal WHERE table_id = ? ORDER BY number DESC LIMIT 1", (table,)
        ).fetchone()
        assert row is not None, f"table {table} has no deal to replace"
        deal_id = row[0]
        conn.execute(
            "UPDATE deal SET record = ?, status = 'active', result = NULL WHERE id = ?",
            (json.dumps(base), deal_id),
        )
        conn.execute("DELETE FROM event WHERE deal_id = ?", (deal_id,))
        conn.executemany(
            "INSERT INTO event (deal_id, seq, seat, action, by_bot, created_at)"
            " VALUES (?, ?, ?, ?, 0, ?)",
            [(deal_id, i, a["seat"], json.dumps(a), now) for i, a in enumerate(moves)],
        )
