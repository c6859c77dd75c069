"""Who may see what: a table, its deals, records, replays and live frames.

A *public* table is listed in the lobby: anyone may watch it live (as a spectator: no hand), and
anyone, logged in or not, may replay and download its finished deals. Nothing hidden is left in
a deal that is over, everyone could have watched it being played, and a replay link can then
be shared like a published board.

A *private* table is for its *members* only: its creator, the people seated at it, and those
who redeemed its invite link (``table_viewer``). To anyone else it does not exist: every
look-up (the table, its deal list, a deal's record or replay, the websocket) gives the same
404 "no such table" / "no such deal" (the websocket: the same refused handshake) as an id
that was never made. Ids that leave the server are random: tables (72 bits) and deals
(``deal.public_id``, 96 bits), so none can be found by counting.

A deal in progress is never downloaded or replayed (403 for those who may see the table): its
record holds every hand.
"""

import asyncio
from typing import Annotated

from fastapi import HTTPException, Path

from stichwerk.storage.repo import DealInfo, Repo, TableInfo, UserInfo

ID_PATTERN = r"^[A-Za-z0-9_-]+$"
TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=ID_PATTERN)]
"""A table id as the server makes them (``storage.repo.new_id(9)``: 12 URL-safe characters);
checked before any look-up."""
DealId = Annotated[str, Path(min_length=1, max_length=24, pattern=ID_PATTERN)]
"""A deal's public id (``storage.repo.new_public_id()``)."""

NO_TABLE = "no such table"
NO_DEAL = "no such deal"


def valid_id(text: str, longest: int) -> bool:
    """Whether ``text`` could be an id the server made (checked before any look-up).

    >>> valid_id("aB3_-x", 16), valid_id("../etc", 16), valid_id("x" * 17, 16)
    (True, False, False)
    """
    return 0 < len(text) <= longest and all(_id_char(c) for c in text)


def _id_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c in "_-")


async def may_watch(repo: Repo, table: TableInfo, user: UserInfo | None) -> bool:
    """Whether ``user`` (``None``: anonymous) may see the table, its deals and its play."""
    if table.public:
        return True
    if user is None:
        return False
    if table.created_by == user.id or table.seat_of(user.id) is not None:
        return True
    return await asyncio.to_thread(repo.is_viewer, table.id, user.id)


async def visible_table(repo: Repo, table_id: str, user: UserInfo | None) -> TableInfo:
    """The table, if ``user`` may see it; else 404, the same as for a table never made."""
    table = await asyncio.to_thread(repo.table, table_id)
    if table is None or not await may_watch(repo, table, user):
        raise HTTPException(404, NO_TABLE)
    return table


async def visible_deal(repo: Repo, public_id: str, user: UserInfo | None) -> DealInfo:
    """A finished deal ``user`` may see; 404 as for a deal never made if they may not see
    its table, 403 while it is being played."""
    deal = await asyncio.to_thread(repo.deal_by_public_id, public_id)
    if deal is None:
        raise HTTPException(404, NO_DEAL)
    table = await asyncio.to_thread(repo.table, deal.table_id)
    if table is None or not await may_watch(repo, table, user):
        raise HTTPException(404, NO_DEAL)
    if deal.status != "finished":
        raise HTTPException(403, "a deal can be replayed or downloaded once it is over")
    return deal
