"""Every query the server makes, as plain functions returning frozen values.

The functions are synchronous (SQLAlchemy Core and ORM on a short session each); the server calls
them through a worker thread so the event loop never waits on the database. Returning frozen
dataclasses instead of ORM objects means nothing lazy crosses a thread.
"""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stichwerk.storage.db import Database
from stichwerk.storage.models import (
    Deal,
    Event,
    Setting,
    Table,
    TableSeat,
    TableViewer,
    User,
    UserSession,
    utcnow,
)


def new_id(nbytes: int = 12) -> str:
    """A random URL-safe id of ``nbytes`` random bytes that never starts with ``-``, so a
    command line never takes it for an option (``stichwerk tournament add -x3...``)."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if not token.startswith("-"):
            return token


def new_public_id() -> str:
    """A random id for something whose id leaves the server (96 bits, URL-safe)."""
    return new_id(12)


class NameTaken(ValueError):
    """The username already belongs to an account."""


class SeatTaken(ValueError):
    """Someone else sat down first (or the seat is a bot's)."""


class QuotaExceeded(ValueError):
    """The account runs as many tables without a person as it may."""


RUNNING = ("open", "playing")
"""A table's status while its list is not over; it then becomes ``finished``, or ``stopped``
(by its creator or the operator: it never plays again and no restart recovers it)."""


@dataclass(frozen=True)
class UserInfo:
    """An account as the server needs it."""

    id: int
    username: str
    is_guest: bool
    password_hash: str | None = None
    bot_owner_id: int | None = None
    """Set for a bot account: the account that owns it."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat of a table."""

    seat: int
    kind: str
    bot: str | None
    user_id: int | None
    username: str | None
    bot_account: bool = False
    """The seat's account is a bot account (it plays over the bot websocket)."""


@dataclass(frozen=True)
class TableInfo:
    """A table with its seats."""

    id: str
    game: str
    profile: str
    options: dict[str, Any]
    seats: int
    series_length: int
    time_limit: int
    public: bool
    invite: str
    status: str
    created_by: int
    seat_list: tuple[SeatInfo, ...] = field(default=())
    closing_rounds: tuple[str, ...] = ()
    """Closing rounds after the ``series_length`` ordinary deals (deal types, in order)."""
    first_dealer: int = 0
    """The seat that deals the first deal."""
    list_rules: dict[str, Any] | None = None
    """A tournament table's Pflicht-Soli (``duty_solos``, ``duty_penalty``, ``duty_owed``)
    in place of the profile's (``server.series.TableSeries``); ``None`` elsewhere."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds at this table, if any."""
        for s in self.seat_list:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def free_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [s.seat for s in self.seat_list if s.kind == "human" and s.user_id is None]

    @property
    def unattended(self) -> bool:
        """No seat is a person's (every seat a bot or a bot account): nobody needs the table."""
        return all(s.kind != "human" or s.bot_account for s in self.seat_list)

    def others_seated(self, user_id: int) -> bool:
        """Whether a person other than ``user_id`` holds a seat (bot accounts are no persons)."""
        return any(
            s.kind == "human" and s.user_id not in (None, user_id) and not s.bot_account
            for s in self.seat_list
        )


@dataclass(frozen=True)
class DealInfo:
    """A deal with its events (the record's ``actions`` in order)."""

    id: int
    table_id: str
    number: int
    record: dict[str, Any]
    status: str
    result: dict[str, Any] | None
    counts: bool
    actions: tuple[dict[str, Any], ...] = ()
    bot_flags: tuple[bool, ...] = ()
    public_id: str = ""
    """The deal's id outside the server (random); ``id`` never leaves it."""

    def full_record(self) -> dict[str, Any]:
        """The NOTATION.md record: the deal, its actions and (when over) the result."""
        out = dict(self.record)
        out["actions"] = list(self.actions)
        if self.result is not None:
            out["result"] = self.result
        return out


@dataclass(frozen=True)
class NewEvent:
    """An action to append at position ``seq`` of a deal."""

    deal_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    by_bot: bool = False


class Repo:
    """Queries on one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- settings -----------------------------------------------------------------------------

    def secret(self, key: str = "session_secret") -> str:
        """A random secret created once and kept in the database, so sessions survive restarts."""
        with Session(self.db.write) as session, session.begin():
            row = session.get(Setting, key)
            if row is None:
                row = Setting(key=key, value=secrets.token_urlsafe(48))
                session.add(row)
            return row.value

    # -- users --------------------------------------------------------------------------------

    def create_user(self, username: str, password_hash: str | None, is_guest: bool) -> UserInfo:
        """A new account; ``NameTaken`` if the name (compared without case) exists."""
        with Session(self.db.write) as session:
            try:
                with session.begin():
                    clash = session.scalar(
                        select(User.id).where(func.lower(User.username) == username.lower())
                    )
                    if clash is not None:
                        raise NameTaken(username)
                    user = User(username=username, password_hash=password_hash, is_guest=is_guest)
                    session.add(user)
                    session.flush()
                    return user_info(user)
            except IntegrityError:
                raise NameTaken(username) from None

    def user_by_name(self, username: str) -> UserInfo | None:
        """The account called ``username`` (case-insensitive)."""
        with Session(self.db.read) as session:
            user = session.scalar(select(User).where(func.lower(User.username) == username.lower()))
            if user is None:
                return None
            return user_info(user)

    def user(self, user_id: int) -> UserInfo | None:
        """The account with id ``user_id``."""
        with Session(self.db.read) as session:
            user = session.get(User, user_id)
            if user is None:
                return None
            return user_info(user)

    # -- sessions -----------------------------------------------------------------------------

    def create_session(self, session_id: str, user_id: int, expires_at: datetime) -> None:
        """Store a login; ``session_id`` is the hash of the cookie's token."""
        with Session(self.db.write) as session, session.begin():
            session.add(UserSession(id=session_id, user_id=user_id, expires_at=expires_at))

    def session_user(self, session_id: str) -> UserInfo | None:
        """The account of a session that exists and has not expired."""
        with Session(self.db.read) as session:
            row = session.execute(
                select(User, UserSession.expires_at)
                .join(UserSession, UserSession.user_id == User.id)
                .where(UserSession.id == session_id)
            ).first()
            if row is None:
                return None
            user, expires = row
            if _aware(expires) <= datetime.now(UTC):
                return None
            return user_info(user)

    def end_session(self, session_id: str) -> None:
        """Delete one session (logout)."""
        with Session(self.db.write) as session, session.begin():
            session.execute(delete(UserSession).where(UserSession.id == session_id))

    def end_sessions(self, user_id: int, *, keep: str | None = None) -> list[str]:
        """Delete every session of ``user_id`` but ``keep``; returns the ids deleted."""
        with Session(self.db.write) as session, session.begin():
            query = select(UserSession.id).where(UserSession.user_id == user_id)
            if keep is not None:
                query = query.where(UserSession.id != keep)
            ended = list(session.scalars(query).all())
            if ended:
                session.execute(delete(UserSession).where(UserSession.id.in_(ended)))
            # Expired sessions of anyone go too, so the table does not grow for ever.
            session.execute(delete(UserSession).where(UserSession.expires_at < utcnow()))
            return ended

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        """Store a re-hashed password (after the hashing parameters changed)."""
        with Session(self.db.write) as session, session.begin():
            session.execute(
                update(User).where(User.id == user_id).values(password_hash=password_hash)
            )

    # -- tables -------------------------------------------------------------------------------

    def create_table(
        self,
        *,
        game: str,
        profile: str,
        options: dict[str, Any],
        seats: list[tuple[str, str | None]],
        series_length: int,
        time_limit: int,
        public: bool,
        created_by: int,
        creator_seat: int | None,
        closing_rounds: tuple[str, ...] = (),
        first_dealer: int = 0,
        list_rules: dict[str, Any] | None = None,
        accounts: dict[int, int] | None = None,
        bot_quota: int | None = None,
    ) -> TableInfo:
        """A new table; ``seats`` lists ``(kind, bot)``; the creator sits at ``creator_seat``;
        ``closing_rounds`` follow the ``series_length`` ordinary deals; ``first_dealer`` deals
        first; ``list_rules`` are a tournament table's Pflicht-Soli; ``accounts`` seats accounts
        (the creator's bot accounts) at other seats. ``bot_quota``: the table has no person, and
        the creator may have at most that many such tables running (``QuotaExceeded``), checked
        in the same transaction as the insert (the creator's row is locked on PostgreSQL;
        SQLite's writers take turns), so two requests at once cannot both slip under it."""
        table_id = new_id(9)
        with Session(self.db.write) as session, session.begin():
            if bot_quota is not None:
                session.execute(select(User.id).where(User.id == created_by).with_for_update())
                if self._running_unattended(session, created_by) >= bot_quota:
                    raise QuotaExceeded(
                        f"you may have {bot_quota} table(s) without a person running at once;"
                        " stop one first"
                    )
            session.add(
                Table(
                    id=table_id,
                    game=game,
                    profile=profile,
                    options=options,
                    seats=len(seats),
                    series_length=series_length,
                    closing_rounds=list(closing_rounds),
                    first_dealer=first_dealer,
                    list_rules=list_rules,
                    time_limit=time_limit,
                    public=public,
                    invite=secrets.token_urlsafe(12),
                    status="open",
                    created_by=created_by,
                )
            )
            session.flush()
            for index, (kind, bot) in enumerate(seats):
                user_id = created_by if index == creator_seat else (accounts or {}).get(index)
                session.add(
                    TableSeat(table_id=table_id, seat=index, kind=kind, bot=bot, user_id=user_id)
                )
        table = self.table(table_id)
        assert table is not None
        return table

    def _running_unattended(self, session: Session, user_id: int) -> int:
        """How many running tables ``user_id`` made that no person sits at."""
        person = (
            select(TableSeat.table_id)
            .outerjoin(User, User.id == TableSeat.user_id)
            .where(
                TableSeat.kind == "human",
                or_(TableSeat.user_id.is_(None), User.bot_owner_id.is_(None)),
            )
        )
        return int(
            session.scalar(
                select(func.count(Table.id)).where(
                    Table.created_by == user_id,
                    Table.status.in_(RUNNING),
                    Table.id.not_in(person),
                )
            )
            or 0
        )

    def _table_info(self, session: Session, table: Table) -> TableInfo:
        return self._table_infos(session, [table])[0]

    def _table_infos(self, session: Session, tables: Sequence[Table]) -> list[TableInfo]:
        """The tables with their seats, read in one query (a lobby page is one round trip)."""
        by_table: dict[str, list[SeatInfo]] = {t.id: [] for t in tables}
        if tables:
            rows = session.execute(
                select(TableSeat, User.username, User.bot_owner_id)
                .outerjoin(User, User.id == TableSeat.user_id)
                .where(TableSeat.table_id.in_(list(by_table)))
                .order_by(TableSeat.table_id, TableSeat.seat)
            ).all()
            for s, name, owner in rows:
                by_table[s.table_id].append(
                    SeatInfo(s.seat, s.kind, s.bot, s.user_id, name, owner is not None)
                )
        return [_table_row(t, tuple(by_table[t.id])) for t in tables]

    def table(self, table_id: str) -> TableInfo | None:
        """The table ``table_id`` with its seats."""
        with Session(self.db.read) as session:
            table = session.get(Table, table_id)
            return None if table is None else self._table_info(session, table)

    def tables(
        self,
        *,
        status: tuple[str, ...],
        public_only: bool = False,
        limit: int = 200,
        offset: int = 0,
    ) -> list[TableInfo]:
        """Tables in one of ``status``, newest first: ``limit`` of them from ``offset`` on."""
        with Session(self.db.read) as session:
            query = select(Table).where(Table.status.in_(status))
            if public_only:
                query = query.where(Table.public.is_(True))
            query = query.order_by(Table.created_at.desc(), Table.id).limit(limit).offset(offset)
            return self._table_infos(session, session.scalars(query).all())

    def tables_of_user(self, user_id: int, *, limit: int = 100, offset: int = 0) -> list[TableInfo]:
        """Every table where ``user_id`` holds a seat, that they opened or were invited to
        watch, newest first: ``limit`` of them from ``offset`` on."""
        seated = select(TableSeat.table_id).where(TableSeat.user_id == user_id)
        watching = select(TableViewer.table_id).where(TableViewer.user_id == user_id)
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(Table)
                .where(
                    or_(
                        Table.created_by == user_id,
                        Table.id.in_(seated),
                        Table.id.in_(watching),
                    )
                )
                .order_by(Table.created_at.desc(), Table.id)
                .limit(limit)
                .offset(offset)
            ).all()
            return self._table_infos(session, rows)

    def add_viewer(self, table_id: str, user_id: int) -> None:
        """Let ``user_id`` watch the table (they redeemed its invite); idempotent."""
        with Session(self.db.write) as session, session.begin():
            if session.get(TableViewer, (table_id, user_id)) is None:
                session.add(TableViewer(table_id=table_id, user_id=user_id))

    def is_viewer(self, table_id: str, user_id: int) -> bool:
        """Whether ``user_id`` redeemed the table's invite to watch it."""
        with Session(self.db.read) as session:
            return session.get(TableViewer, (table_id, user_id)) is not None

    def take_seat(self, table_id: str, seat: int, user_id: int) -> TableInfo:
        """Give ``user_id`` the free human seat ``seat``; ``SeatTaken`` if it is not free."""
        with Session(self.db.write) as session, session.begin():
            table = session.get(Table, table_id)
            if table is None:
                raise SeatTaken("no such table")
            if table.status != "open":
                raise SeatTaken("the table has started")
            held = session.scalar(
                select(TableSeat.seat).where(
                    TableSeat.table_id == table_id, TableSeat.user_id == user_id
                )
            )
            if held is not None:
                raise SeatTaken(f"you already sit at seat {held}")
            done = session.execute(
                update(TableSeat)
                .where(
                    TableSeat.table_id == table_id,
                    TableSeat.seat == seat,
                    TableSeat.kind == "human",
                    TableSeat.user_id.is_(None),
                )
                .values(user_id=user_id)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise SeatTaken(f"seat {seat} is not free")
            return self._table_info(session, table)

    def set_closing_rounds(self, table_id: str, closing_rounds: tuple[str, ...]) -> TableInfo:
        """Store the table's closing rounds (the actor has checked that no begun round
        changes); returns the table."""
        with Session(self.db.write) as session, session.begin():
            session.execute(
                update(Table)
                .where(Table.id == table_id)
                .values(closing_rounds=list(closing_rounds))
            )
        table = self.table(table_id)
        assert table is not None
        return table

    def set_table_status(self, table_id: str, status: str) -> None:
        """Mark a table ``open``, ``playing`` or ``finished``; a stopped table stays stopped."""
        with Session(self.db.write) as session, session.begin():
            session.execute(
                update(Table)
                .where(Table.id == table_id, Table.status != "stopped")
                .values(status=status)
            )

    def stop_table(self, table_id: str) -> str | None:
        """Stop a running table for good (its creator or the operator): it plays no more deal
        and no restart recovers it; what it played stays. Returns the status it has now
        (``None``: no such table)."""
        with Session(self.db.write) as session, session.begin():
            session.execute(
                update(Table)
                .where(Table.id == table_id, Table.status.in_(RUNNING))
                .values(status="stopped")
            )
            return session.scalar(select(Table.status).where(Table.id == table_id))

    def stopped_among(self, table_ids: list[str]) -> set[str]:
        """Those of ``table_ids`` that are stopped (the server's actors look every few seconds,
        so a stop by the operator's command reaches a running server)."""
        if not table_ids:
            return set()
        with Session(self.db.read) as session:
            return set(
                session.scalars(
                    select(Table.id).where(Table.id.in_(table_ids), Table.status == "stopped")
                ).all()
            )

    # -- deals and events ---------------------------------------------------------------------

    def create_deal(
        self, table_id: str, number: int, record: dict[str, Any], public_id: str | None = None
    ) -> int:
        """Store a new deal (its record without actions); returns its (internal) id. The deal's
        public id is ``public_id``, or a new random one."""
        with Session(self.db.write) as session, session.begin():
            deal = Deal(
                table_id=table_id,
                number=number,
                record=record,
                status="active",
                public_id=public_id or new_public_id(),
            )
            session.add(deal)
            session.flush()
            return deal.id

    def finish_deal(self, deal_id: int, result: dict[str, Any], counts: bool) -> None:
        """Store a deal's result."""
        with Session(self.db.write) as session, session.begin():
            session.execute(
                update(Deal)
                .where(Deal.id == deal_id)
                .values(status="finished", result=result, counts=counts, finished_at=utcnow())
            )

    def append_events(self, events: list[NewEvent]) -> None:
        """Append events in one transaction (all or none)."""
        with Session(self.db.write) as session, session.begin():
            session.add_all(
                Event(deal_id=e.deal_id, seq=e.seq, seat=e.seat, action=e.action, by_bot=e.by_bot)
                for e in events
            )

    def deals_of_table(self, table_id: str, *, with_events: bool = False) -> list[DealInfo]:
        """Every deal of a table in order (with its actions if asked)."""
        with Session(self.db.read) as session:
            deals = session.scalars(
                select(Deal).where(Deal.table_id == table_id).order_by(Deal.number)
            ).all()
            return [self._deal_info(session, d, with_events) for d in deals]

    def deal(self, deal_id: int) -> DealInfo | None:
        """One deal with its actions."""
        with Session(self.db.read) as session:
            deal = session.get(Deal, deal_id)
            return None if deal is None else self._deal_info(session, deal, True)

    def deal_by_public_id(self, public_id: str) -> DealInfo | None:
        """One deal, found by the id it is known by outside, with its actions."""
        with Session(self.db.read) as session:
            deal = session.scalar(select(Deal).where(Deal.public_id == public_id))
            return None if deal is None else self._deal_info(session, deal, True)

    def _deal_info(self, session: Session, deal: Deal, with_events: bool) -> DealInfo:
        actions: tuple[dict[str, Any], ...] = ()
        flags: tuple[bool, ...] = ()
        if with_events:
            rows = session.execute(
                select(Event.action, Event.by_bot)
                .where(Event.deal_id == deal.id)
                .order_by(Event.seq)
            ).all()
            actions = tuple(dict(a) for a, _ in rows)
            flags = tuple(bool(b) for _, b in rows)
        return DealInfo(
            id=deal.id,
            table_id=deal.table_id,
            number=deal.number,
            record=dict(deal.record),
            status=deal.status,
            result=None if deal.result is None else dict(deal.result),
            counts=deal.counts,
            actions=actions,
            bot_flags=flags,
            public_id=deal.public_id,
        )


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC); PostgreSQL aware ones."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def user_info(user: User) -> UserInfo:
    """An account's row as the callers see it (the bot accounts' store reads them too)."""
    return UserInfo(user.id, user.username, user.is_guest, user.password_hash, user.bot_owner_id)


def _table_row(table: Table, seat_list: tuple[SeatInfo, ...]) -> TableInfo:
    return TableInfo(
        id=table.id,
        game=table.game,
        profile=table.profile,
        options=dict(table.options),
        seats=table.seats,
        series_length=table.series_length,
        time_limit=table.time_limit,
        public=table.public,
        invite=table.invite,
        status=table.status,
        created_by=table.created_by,
        seat_list=seat_list,
        closing_rounds=tuple(str(kind) for kind in table.closing_rounds),
        first_dealer=table.first_dealer,
        list_rules=None if table.list_rules is None else dict(table.list_rules),
    )
