"""Score sheets in the database: each list's settings and its append-only change log.

A list is never stored as rows of deals: it is its settings plus the replay of its accepted
changes through ``stichwerk.sheet.Sheet.apply`` (as a table is its event log), so a disputed
total can always be traced change by change. Only accepted changes are stored, each once
(``UNIQUE(list_id, seq)`` and ``UNIQUE(list_id, key)``). ``ChangeWriter`` commits the changes
of many lists from one thread in groups, so an answer that says "saved" means committed.
"""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from stichwerk.storage.db import Database
from stichwerk.storage.eventlog import GroupWriter
from stichwerk.storage.models import ScoreChange, ScoreList, utcnow
from stichwerk.storage.repo import new_id

TOKEN_BYTES = 16
"""Bytes of randomness in each link's token (22 characters, from ``secrets``)."""


@dataclass(frozen=True)
class ListInfo:
    """A stored list: its ids, links and settings."""

    id: str
    scorer_token: str
    follower_token: str
    game: str
    settings: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class NewChange:
    """A change to store at position ``seq`` of a list."""

    list_id: str
    seq: int
    key: str
    change: dict[str, Any]
    link: str


@dataclass(frozen=True)
class StoredChange:
    """One row of a list's change log."""

    seq: int
    key: str
    change: dict[str, Any]
    link: str
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "change": self.change,
            "link": self.link,
            "at": self.created_at.isoformat(),
        }


def _info(row: ScoreList) -> ListInfo:
    return ListInfo(
        id=row.id,
        scorer_token=row.scorer_token,
        follower_token=row.follower_token,
        game=row.game,
        settings=dict(row.settings),
        created_at=row.created_at,
    )


class SheetRepo:
    """The score-sheet queries on one :class:`~stichwerk.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create_list(
        self,
        settings: dict[str, Any],
        changes: Sequence[tuple[str, dict[str, Any]]] = (),
        *,
        link: str = "scorer",
    ) -> ListInfo:
        """A new list with fresh links; ``changes`` (key, change) are stored with it in the
        same transaction (an imported list: all of it or nothing)."""
        list_id = new_id(9)
        with Session(self.db.write) as session, session.begin():
            row = ScoreList(
                id=list_id,
                scorer_token=secrets.token_urlsafe(TOKEN_BYTES),
                follower_token=secrets.token_urlsafe(TOKEN_BYTES),
                game=str(settings["game"]),
                settings=settings,
            )
            session.add(row)
            session.flush()
            if changes:
                # One INSERT of many rows without the ORM's bookkeeping: an imported season is
                # 1,500 changes, and this thread shares the interpreter with the event loop.
                now = utcnow()
                session.execute(
                    insert(ScoreChange),
                    [
                        {"list_id": list_id, "seq": seq, "key": key, "change": change,
                         "link": link, "created_at": now}
                        for seq, (key, change) in enumerate(changes, start=1)
                    ],
                )  # fmt: skip
            return _info(row)

    def by_token(self, token: str) -> tuple[ListInfo, str] | None:
        """The list a link opens and the link's role (``scorer`` or ``follower``)."""
        with Session(self.db.read) as session:
            row = session.scalar(
                select(ScoreList).where(
                    (ScoreList.scorer_token == token) | (ScoreList.follower_token == token)
                )
            )
            if row is None:
                return None
            role = "scorer" if secrets.compare_digest(row.scorer_token, token) else "follower"
            return _info(row), role

    def get(self, list_id: str) -> ListInfo | None:
        with Session(self.db.read) as session:
            row = session.get(ScoreList, list_id)
            return None if row is None else _info(row)

    def changes(self, list_id: str, since: int = 0) -> list[StoredChange]:
        """The list's changes after position ``since``, in order."""
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(ScoreChange)
                .where(ScoreChange.list_id == list_id, ScoreChange.seq > since)
                .order_by(ScoreChange.seq)
            ).all()
            return [StoredChange(r.seq, r.key, dict(r.change), r.link, r.created_at) for r in rows]

    def append_changes(self, changes: list[NewChange]) -> None:
        """Store changes in one transaction (all or none): one INSERT of many rows, without
        the ORM's bookkeeping (the writer thread shares the server's interpreter)."""
        now = utcnow()
        with self.db.write.begin() as connection:
            connection.execute(
                insert(ScoreChange),
                [
                    {"list_id": c.list_id, "seq": c.seq, "key": c.key, "change": c.change,
                     "link": c.link, "created_at": now}
                    for c in changes
                ],
            )  # fmt: skip


class ChangeWriter(GroupWriter[NewChange]):
    """Stores changes from any asyncio task; ``await append(...)`` returns once committed.

    Hundreds of lists entering at once do not queue for SQLite's write lock one by one: the
    changes are committed in groups (``storage.eventlog.GroupWriter``)."""

    def __init__(self, repo: SheetRepo) -> None:
        super().__init__(repo.append_changes, "sheet-writer")
