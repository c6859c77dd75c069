"""The schema, as SQLAlchemy 2 typed models.

A deal is stored the way NOTATION.md records it: the deal itself (hands, blind, dealer ...) in
``deal.record`` and every action as one row of ``event``, numbered per deal. ``UNIQUE(deal_id,
seq)`` makes a second writer for the same position fail loudly instead of forking the game.
Constraint names follow a convention so Alembic's batch mode can alter them on SQLite.
"""

from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """Timestamps are stored in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Setting(Base):
    """Server-wide values that must survive restarts (the session signing key)."""

    __tablename__ = "setting"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    """An account. Guests have no password and a generated name."""

    __tablename__ = "user_account"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    bot_owner_id: Mapped[int | None] = mapped_column(Integer, default=None, index=True)
    """Set for a *bot account* (migration 0007): a program hosted elsewhere that plays over
    the bot websocket with an API token; the id of the account that made it and owns it. No
    password. (No foreign key: adding one would make SQLite copy ``user_account``, which
    every other table refers to; accounts are never deleted.)"""


class UserSession(Base):
    """One login: the SHA-256 of the cookie's random token (the token itself is never stored),
    so a stolen database cannot be replayed as cookies. Deleting the row ends the session."""

    __tablename__ = "user_session"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Table(Base):
    """A table: one game and profile with its overrides, its seats and a series of deals."""

    __tablename__ = "game_table"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    profile: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seats: Mapped[int] = mapped_column(Integer)
    series_length: Mapped[int] = mapped_column(Integer)
    """Ordinary deals in the list."""
    closing_rounds: Mapped[list[Any]] = mapped_column(default=list, server_default=text("'[]'"))
    """Closing rounds after the ordinary deals, in order: deal types (Cego: ``drescher``,
    ``pflichtraeuber``), each one deal dealt by every seat."""
    first_dealer: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    """The seat that deals the first deal (drawn by lot when the table is made, unless chosen)."""
    time_limit: Mapped[int] = mapped_column(Integer)
    """Seconds a person may stay away before a bot plays the seat."""
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    invite: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(12), default="open")
    """``open`` (waiting for people), ``playing``, ``finished``."""
    created_by: Mapped[int] = mapped_column(ForeignKey("user_account.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    list_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """A tournament table's list (migration 0006): ``duty_solos``, ``duty_penalty`` and
    ``duty_owed`` (Pflicht-Soli each seat owes at the start) in place of the profile's;
    ``None`` for every other table."""


class TableSeat(Base):
    """Who sits where: a person (``user_id``) or a bot (``bot``), one row per seat."""

    __tablename__ = "table_seat"
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``human`` or ``bot``."""
    bot: Mapped[str | None] = mapped_column(String(40), default=None)
    """The bot's name for bot seats, and the stand-in bot for people who stay away."""
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id"), default=None)


class TableViewer(Base):
    """Someone who redeemed the table's invite link: may watch it even when it is private."""

    __tablename__ = "table_viewer"
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Deal(Base):
    """One deal of a table's series: the record's deal part and, when over, its result."""

    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("table_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Sequential, for the server only: it never leaves the server (guessable)."""
    public_id: Mapped[str] = mapped_column(String(24), unique=True)
    """Random: the id URLs, frames and file names use."""
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """0-based position in the series (redeals get their own number)."""
    record: Mapped[dict[str, Any]] = mapped_column()
    """The NOTATION.md record without ``actions`` and ``result`` (never sent to a seat)."""
    status: Mapped[str] = mapped_column(String(12), default="active")
    """``active`` or ``finished``."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    counts: Mapped[bool] = mapped_column(Boolean, default=True)
    """False for a redeal that does not count towards the series."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class Event(Base):
    """One action of a deal, in order. Append-only: rows are never updated or deleted."""

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("deal_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column()
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreList(Base):
    """A score sheet (*Liste*) kept for a table playing with real cards: its settings and two
    unguessable links, one to enter deals (``scorer_token``) and one to follow (``follower_token``).
    The deals are not stored here: a list is its settings plus the replay of its changes."""

    __tablename__ = "score_list"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    scorer_token: Mapped[str] = mapped_column(String(43), unique=True)
    follower_token: Mapped[str] = mapped_column(String(43), unique=True)
    game: Mapped[str] = mapped_column(String(20))
    settings: Mapped[dict[str, Any]] = mapped_column()
    """``stichwerk.sheet.ListSettings.to_json()``: every setting spelled out."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreChange(Base):
    """One accepted change of a list (add, correct or delete a deal), in order. Append-only:
    ``UNIQUE(list_id, seq)`` keeps one writer per position and ``UNIQUE(list_id, key)`` one row
    per idempotency key, so a change sent twice is never stored twice."""

    __tablename__ = "score_change"
    __table_args__ = (UniqueConstraint("list_id", "seq"), UniqueConstraint("list_id", "key"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    list_id: Mapped[str] = mapped_column(ForeignKey("score_list.id"))
    seq: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(64))
    change: Mapped[dict[str, Any]] = mapped_column()
    """The change as the sheet applied it, its entry id and key filled in."""
    link: Mapped[str] = mapped_column(String(12))
    """Which link entered it: ``scorer`` or ``import``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# -- tournaments (migration 0006; docs/tournaments.md) -----------------------------------------


class Person(Base):
    """A player known by name across tournaments: registrations and ranking rows point here,
    so the ranking lists and the next registration know the same spelling."""

    __tablename__ = "person"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Tournament(Base):
    """A tournament: its format and rule profile, when and where, the club or series whose
    ranking lists it joins once finished, the seed of every draw, and two unguessable links:
    the director's (``director_token``) and the read-only one (``public_token``)."""

    __tablename__ = "tournament"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    game: Mapped[str] = mapped_column(String(20))
    format: Mapped[str] = mapped_column(String(40))
    profile: Mapped[str] = mapped_column(String(40))
    held_on: Mapped[date] = mapped_column(Date)
    place: Mapped[str] = mapped_column(String(120), default="")
    series: Mapped[str] = mapped_column(String(120), default="")
    """The club or series of tournaments whose ranking lists count this one."""
    seed: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(12), default="registration")
    """``registration`` (no round drawn yet), ``running``, ``finished``."""
    director_token: Mapped[str] = mapped_column(String(43), unique=True)
    public_token: Mapped[str] = mapped_column(String(43), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    series_key: Mapped[str | None] = mapped_column(String(64), default=None)
    """The series' secret hash when its owner let this tournament in (made with the secret, or
    the series' first): its director adds history without the secret until the secret is
    changed (migration 0008)."""


class TournamentPlayer(Base):
    """A registration: the player's number in the tournament (registration order, never
    reused) and, after a withdrawal, how many rounds had been drawn when he left."""

    __tablename__ = "tournament_player"
    __table_args__ = (UniqueConstraint("tournament_id", "person_id"),)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournament.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    withdrawn_after: Mapped[int | None] = mapped_column(Integer, default=None)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentRound(Base):
    """A round drawn: a Vorrunde round (or pass), or the Endrunde (``final``) with the groups
    of tied players a lot ordered (``by_lot``, player numbers)."""

    __tablename__ = "tournament_round"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournament.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    final: Mapped[bool] = mapped_column(Boolean, default=False)
    by_lot: Mapped[list[Any]] = mapped_column(default=list)
    drawn_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentTable(Base):
    """One table of a round: its seating (player numbers, the first dealing first), the
    Pflicht-Soli each seat owed when it was drawn, how its results come in (``mode``: its score
    sheet, typed in by the director, or an online table) and the results once they are in."""

    __tablename__ = "tournament_table"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournament.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seating: Mapped[list[Any]] = mapped_column()
    duty_owed: Mapped[list[Any]] = mapped_column()
    mode: Mapped[str] = mapped_column(String(8), default="sheet")
    """``sheet``, ``quick`` or ``online``."""
    list_id: Mapped[str | None] = mapped_column(ForeignKey("score_list.id"), default=None)
    web_table_id: Mapped[str | None] = mapped_column(ForeignKey("game_table.id"), default=None)
    online: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """An online table's seat links (``codes``, one per seat) and its bot seats (``bots``)."""
    results: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    """One ``{"points", "duty_solos", "games_won"}`` per seat, in seating order."""
    source: Mapped[str | None] = mapped_column(String(8), default=None)
    entered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class TournamentChange(Base):
    """One change of a tournament, in order: registrations, draws, entered and corrected
    tables, withdrawals. Append-only; ``UNIQUE(tournament_id, seq)``."""

    __tablename__ = "tournament_change"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournament.id"))
    seq: Mapped[int] = mapped_column(Integer)
    op: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column()
    source: Mapped[str] = mapped_column(String(12))
    """Who made it: ``director`` (the web page), ``cli``, ``sheet`` (a table's score sheet),
    ``online`` (an online table's list), ``import``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RankingRow(Base):
    """One player's place in one tournament of a series: from a finished tournament (its id)
    or imported from a club's history (no id). The ranking lists are computed from these."""

    __tablename__ = "ranking_row"
    __table_args__ = (UniqueConstraint("series", "held_on", "tournament", "person_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series: Mapped[str] = mapped_column(String(120), index=True)
    held_on: Mapped[date] = mapped_column(Date)
    tournament: Mapped[str] = mapped_column(String(120), default="")
    """The tournament's name (tells apart two held on one day)."""
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    place: Mapped[int] = mapped_column(Integer)
    participants: Mapped[int] = mapped_column(Integer)
    tournament_id: Mapped[str | None] = mapped_column(ForeignKey("tournament.id"), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    import_id: Mapped[str | None] = mapped_column(String(16), index=True, default=None)
    """The history import that wrote the row (``None``: a finished tournament's or older): the
    row counts only once its import is ``done`` (migration 0008)."""


class HistoryImport(Base):
    """A club history's import, written in short batches: its rows count only once ``done`` is
    set (one row's update), so a failed or unfinished import leaves no half history."""

    __tablename__ = "history_import"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    series: Mapped[str] = mapped_column(String(120))
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeriesOwner(Base):
    """The owner secret of a club or series (its SHA-256 only): adding a tournament, a history
    or a backup to the series needs it (migration 0008)."""

    __tablename__ = "series_owner"
    series: Mapped[str] = mapped_column(String(120), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BotToken(Base):
    """A bot account's API token: only its SHA-256 is stored (the token is shown once, when
    made). Deleting the row revokes it; a bot has at most one (a new one replaces the old)."""

    __tablename__ = "bot_token"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user_account.id"), unique=True)
    hint: Mapped[str] = mapped_column(String(12))
    """The token's first characters, so its owner can tell which one is in use."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A player's current rating in one game and profile (openskill's Plackett-Luce model).

    ``player`` is ``u:<account id>`` (people and bot accounts) or ``b:<bot name>`` (built-in
    bots and the operator's outside bots). Derived data: ``stichwerk.storage.ratings`` can
    rebuild every row from the finished deals."""

    __tablename__ = "rating"
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    profile: Mapped[str] = mapped_column(String(40), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    deals: Mapped[int] = mapped_column(Integer)
    """Rated deals so far (a rating is provisional below ``PROVISIONAL_DEALS``)."""


class RatingHistory(Base):
    """A player's rating after each rated deal, in the order the deals were rated (``id``)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player", "game", "profile", "player", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id"), index=True)
    game: Mapped[str] = mapped_column(String(20))
    profile: Mapped[str] = mapped_column(String(40))
    player: Mapped[str] = mapped_column(String(64))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    deals: Mapped[int] = mapped_column(Integer)


class RatedDeal(Base):
    """A finished deal the ratings have taken in (rated or found not to count), with its
    place in the rating order: ``(finished_at, deal_id)`` within its game and profile."""

    __tablename__ = "rated_deal"
    __table_args__ = (Index("ix_rated_deal_order", "game", "profile", "finished_at", "deal_id"),)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    profile: Mapped[str] = mapped_column(String(40))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rated: Mapped[bool] = mapped_column(Boolean)
    """Whether the deal changed any rating (False: it does not count, e.g. a redeal)."""
