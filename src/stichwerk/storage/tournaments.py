"""Tournaments in the database: the rows of a director's day, its change log, and the clubs'
ranking lists; every change one transaction.

What may change and what it means is decided by the pure package :mod:`stichwerk.tournament`
(the input checks in :mod:`~stichwerk.tournament.cleaning`, the rules of the day in
:mod:`~stichwerk.tournament.day`: the next step, the draw, the standings, what a correction
leaves behind); this module keeps what happened:

- a **tournament** (game, format, profile, date, place, the club or series whose ranking lists
  it joins, the seed of every draw, a director link and a read-only link);
- its **players**, each a :class:`~stichwerk.storage.models.Person` known by name across
  tournaments (so the ranking lists and the next registration know the same spelling), numbered
  in registration order; a withdrawal keeps the number and the points;
- its **rounds** and their **tables** (the seating, the first seat dealing first, and the
  Pflicht-Soli each seat still owed when it was drawn); every table gets a score sheet (a
  ``score_list`` with the format's list rules, :mod:`stichwerk.tournament_tables`) when it is
  drawn;
- each table's **results**, from one of three sources (``mode``): its score sheet once the list
  is complete (:meth:`TournamentStore.sync_sheet`), the totals the director typed in
  (:meth:`TournamentStore.enter`, checked as far as the table's list rules allow), or an online
  table's finished list (:meth:`TournamentStore.store_online`);
- a **change log**, one row per change, each with who made it; the standings are computed from
  the results every time they are read, so a corrected table changes everything after it, and
  a finished tournament's ranking rows are written again;
- the **series' owners** (a secret's hash) and the clubs' **history** imported from CSV.

Every change is one transaction: read the tournament as it stands (a
:class:`~stichwerk.tournament.snapshot.TournamentData`), check, write, log. The store returns
that plain snapshot, never page JSON or links (:mod:`stichwerk.server.tournament_json` words it
for the pages). A backup is one JSON file (:mod:`stichwerk.storage.backup`: the format, its
writer and reader); :meth:`TournamentStore.import_backup` writes its rows.
"""

import datetime as dt
import functools
import hashlib
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stichwerk.core.errors import StichwerkError
from stichwerk.storage.backup import (
    backup_folder,
    default_backup_dir,
    export_backup,
    read_backup,
    write_backup_file,
)
from stichwerk.storage.db import Database
from stichwerk.storage.models import (
    HistoryImport,
    Person,
    RankingRow,
    ScoreChange,
    ScoreList,
    SeriesOwner,
    Tournament,
    TournamentChange,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    utcnow,
)
from stichwerk.storage.repo import new_id
from stichwerk.tournament import ListEntry, PastResult, Result
from stichwerk.tournament.cleaning import (
    NAME_LENGTH,
    check_mode,
    clean_edit,
    clean_history,
    clean_new,
    clean_text,
)
from stichwerk.tournament.day import (
    PlannedRound,
    check_finish,
    check_may_go_online,
    check_new_players,
    check_quick,
    check_reinstate,
    check_remove,
    check_rename,
    check_set_mode,
    check_undraw,
    check_withdraw,
    draw_details,
    follows_sheet,
    log_about,
    plan_next,
    ranking_follows,
    ranking_rows,
    sheet_change_op,
    takes_online,
)
from stichwerk.tournament.lists import series_list
from stichwerk.tournament.snapshot import (
    SOURCES,
    PlayerRow,
    RoundRow,
    TableRow,
    TournamentData,
    TournamentError,
    TournamentSummary,
    UnknownTournament,
    results_from_plain,
    results_to_plain,
)
from stichwerk.tournament_tables import rules_of, sheet_results, sheet_settings

TOKEN_BYTES = 16
MAX_HISTORY_ROWS = 20_000
"""Rows of one history import: a club's whole past (40 years of 12 tournaments of 40 players
is 19,200) in one file; a larger one is split by years."""
MAX_SERIES_ROWS = 100_000
"""Rows a series' history may hold in all (every list is computed from all of them)."""
HISTORY_BATCH = 500
"""Rows written per transaction of a history import: each holds SQLite's write lock for a few
milliseconds, so a table's moves and a sheet's entries go on between them."""
HISTORY_PAUSE = 0.01
"""Seconds between two batches: SQLite's busy handler retries a waiting writer after 1, 2, 5 ...
100 ms, and a batch that began again at once could starve it; a pause as long as a batch leaves
the lock free half the time."""
STALE_IMPORT = dt.timedelta(minutes=10)
"""An import not done after this long was cut off (a crash; 20,000 rows take a second or two);
the next import clears its rows away (until then they count nowhere, but hold their tournaments'
keys)."""
SECRET_BYTES = 12
"""A series' owner secret: 16 characters from ``secrets`` (96 bits)."""


class SeriesLocked(StichwerkError):
    """The series has an owner secret, and it was not given (or not rightly): nobody but its
    owner adds a tournament, a history or a backup to a club's ranking list."""


def hash_secret(secret: str) -> str:
    """What is stored of a series' secret (its SHA-256: the secret itself is random)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _secret_matches(stored: str, given: object) -> bool:
    if not isinstance(given, str) or not 1 <= len(given) <= 64:
        return False
    return secrets.compare_digest(stored, hash_secret(given.strip()))


def _locked(series: str) -> SeriesLocked:
    return SeriesLocked(
        f"the series {series!r} has an owner: give its secret (shown to the director who made "
        "its first tournament)"
    )


def _insert_ignoring(session: Session, model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows``, skipping any a concurrent writer inserted first (its unique key)."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(postgresql.insert(model).on_conflict_do_nothing(), rows)
    elif dialect == "sqlite":
        session.execute(sqlite.insert(model).on_conflict_do_nothing(), rows)
    else:  # pragma: no cover - the two databases the project runs on
        session.execute(insert(model), rows)


def _guard_series(session: Session, series: str, secret: object, *, claim: bool) -> str | None:
    """May the caller add to ``series``? An owned series needs its secret (else
    :class:`SeriesLocked`); an unowned one is claimed with ``claim`` (the new secret returned,
    to be shown once)."""
    owner = session.get(SeriesOwner, series)
    if owner is not None:
        if not _secret_matches(owner.secret_hash, secret):
            raise _locked(series)
        return None
    if not claim:
        return None
    fresh = secrets.token_urlsafe(SECRET_BYTES)
    _insert_ignoring(
        session,
        SeriesOwner,
        [
            {
                "series": series,
                "secret_hash": hash_secret(fresh),
                "created_at": utcnow(),
                "changed_at": utcnow(),
            }
        ],
    )
    stored = session.scalar(select(SeriesOwner.secret_hash).where(SeriesOwner.series == series))
    if stored != hash_secret(fresh):
        # Another director claimed it a moment before: it is theirs now.
        if not _secret_matches(str(stored), secret):
            raise _locked(series)
        return None
    return fresh


def _owner_hash(session: Session, series: str) -> str | None:
    found = session.scalar(select(SeriesOwner.secret_hash).where(SeriesOwner.series == series))
    return None if found is None else str(found)


def _counted() -> ColumnElement[bool]:
    """The ranking rows that count: a finished tournament's, and a history import's once it is
    done (its batches written)."""
    return or_(
        RankingRow.import_id.is_(None),
        RankingRow.import_id.in_(select(HistoryImport.id).where(HistoryImport.done.is_(True))),
    )


# ------------------------------------------------------------------------------ the store


class TournamentStore:
    """Every tournament query and change on one :class:`~stichwerk.storage.db.Database`.

    Synchronous (the server calls it from a worker thread); every change runs in one write
    transaction that first reads the tournament (locked for the transaction on PostgreSQL;
    SQLite's writers take the lock up front), checks, writes and appends its log row.
    ``on_change`` is called after every committed change (the server broadcasts; every caller
    writes the automatic backup)."""

    def __init__(
        self,
        db: Database,
        *,
        backup_dir: Path | None = None,
        on_change: Callable[[TournamentData], None] | None = None,
    ) -> None:
        self.db = db
        self.backup_dir = backup_dir if backup_dir is not None else default_backup_dir(db.url)
        self.on_change = on_change

    # -- reading ------------------------------------------------------------------------------

    def get(self, tid: str) -> TournamentData | None:
        with Session(self.db.read) as session:
            return _load(session, tid)

    def need(self, tid: str) -> TournamentData:
        data = self.get(tid)
        if data is None:
            raise UnknownTournament(f"no tournament {tid!r}")
        return data

    def by_token(self, token: str) -> tuple[TournamentData, str] | None:
        """The tournament a link opens and the link's role (``director`` or ``public``)."""
        with Session(self.db.read) as session:
            row = session.scalar(
                select(Tournament).where(
                    or_(Tournament.director_token == token, Tournament.public_token == token)
                )
            )
            if row is None:
                return None
            role = "director" if secrets.compare_digest(row.director_token, token) else "public"
            data = _load(session, row.id)
            assert data is not None
            return data, role

    def tournaments(self, limit: int = 200) -> list[TournamentSummary]:
        """The tournaments in the database, the latest first."""
        with Session(self.db.read) as session:
            counts = dict(
                session.execute(
                    select(TournamentPlayer.tournament_id, func.count()).group_by(
                        TournamentPlayer.tournament_id
                    )
                ).all()
            )
            rows = session.scalars(
                select(Tournament)
                .order_by(Tournament.held_on.desc(), Tournament.created_at.desc())
                .limit(limit)
            ).all()
            return [
                TournamentSummary(
                    t.id,
                    t.name,
                    t.held_on,
                    t.place,
                    t.series,
                    t.format,
                    t.status,
                    int(counts.get(t.id, 0)),
                )
                for t in rows
            ]

    def log(self, tid: str, since: int = 0) -> list[dict[str, Any]]:
        """The change log after position ``since``; a change of a table's results says whom it
        concerns and what changed (``about``: ``log_about``), for the page to word."""
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(TournamentChange)
                .where(TournamentChange.tournament_id == tid, TournamentChange.seq > since)
                .order_by(TournamentChange.seq)
            ).all()
            data = _load(session, tid) if rows else None
            return [
                {
                    "seq": c.seq,
                    "op": c.op,
                    "data": dict(c.data),
                    "source": c.source,
                    "at": c.created_at.isoformat(),
                    "about": log_about(c.data, data),
                }
                for c in rows
            ]

    def seq(self, tid: str) -> int:
        with Session(self.db.read) as session:
            return _seq(session, tid)

    def names(self, query: str, limit: int = 20) -> list[str]:
        """Names of players known from earlier tournaments (and imported lists) containing
        ``query`` (case ignored), for the registration's suggestions."""
        text = " ".join(query.split())[:NAME_LENGTH]
        if not text:
            return []
        pattern = "%" + text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(Person.name)
                .where(func.lower(Person.name).like(pattern + "%", escape="\\"))
                .order_by(Person.name)
                .limit(limit)
            ).all()
            return list(rows)

    # -- creating -----------------------------------------------------------------------------

    def create(
        self,
        *,
        name: object,
        format_name: object,
        held_on: object,
        place: object = "",
        series: object,
        seed: object = None,
        source: str = "director",
    ) -> TournamentData:
        """A new tournament (status ``registration``), with fresh links (the operator's: no
        series secret asked, none made)."""
        data, _ = self.create_guarded(
            name=name,
            format_name=format_name,
            held_on=held_on,
            place=place,
            series=series,
            seed=seed,
            source=source,
            guard=False,
        )
        return data

    def create_guarded(
        self,
        *,
        name: object,
        format_name: object,
        held_on: object,
        place: object = "",
        series: object,
        seed: object = None,
        source: str = "director",
        secret: object = None,
        guard: bool = True,
    ) -> tuple[TournamentData, str | None]:
        """A new tournament, as a visitor makes it: in a series with an owner only with its
        ``secret`` (else :class:`SeriesLocked`); a series without one is claimed, and its new
        secret returned (to be shown once)."""
        new = clean_new(
            name=name,
            format_name=format_name,
            held_on=held_on,
            place=place,
            series=series,
            seed=secrets.token_hex(4) if seed is None else seed,
        )
        club = new.series
        tid = new_id(9)
        fresh = None
        with Session(self.db.write) as session, session.begin():
            if guard:
                fresh = _guard_series(session, club, secret, claim=True)
            session.add(
                Tournament(
                    id=tid,
                    series_key=_owner_hash(session, club),
                    name=new.name,
                    game=new.fmt.game,
                    format=new.fmt.name,
                    profile=new.fmt.profile,
                    held_on=new.held_on,
                    place=new.place,
                    series=club,
                    seed=new.seed,
                    status="registration",
                    director_token=secrets.token_urlsafe(TOKEN_BYTES),
                    public_token=secrets.token_urlsafe(TOKEN_BYTES),
                )
            )
            session.flush()
            _append(session, tid, "create", new.log_entry(), source)
        return self._changed(tid), fresh

    # -- registration -------------------------------------------------------------------------

    def add_players(
        self, tid: str, names: Sequence[object], source: str = "director"
    ) -> TournamentData:
        """Register players (a late arrival too) until the first round is drawn."""
        if not names:
            raise StichwerkError("name at least one player")

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            cleaned = check_new_players(data, names)
            number = max(data.numbers, default=-1) + 1
            added = []
            people = _persons(session, cleaned)
            for n in cleaned:
                session.add(TournamentPlayer(tournament_id=tid, number=number, person_id=people[n]))
                added.append({"number": number, "name": n})
                number += 1
            return "add_players", {"players": added}

        return self._change(tid, change, source)

    def remove_player(self, tid: str, number: int, source: str = "director") -> TournamentData:
        """Take back a registration before the first draw."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player = check_remove(data, number)
            session.execute(
                delete(TournamentPlayer).where(
                    TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number
                )
            )
            return "remove_player", {"number": number, "name": player.name}

        return self._change(tid, change, source)

    def rename_player(
        self, tid: str, number: int, name: object, source: str = "director"
    ) -> TournamentData:
        """Correct a player's name (the ranking lists know him by it). Tables drawn already
        keep the old spelling on their score sheets."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player, new = check_rename(data, number, name)
            session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number)
                .values(person_id=_person(session, new))
            )
            return "rename_player", {"number": number, "from": player.name, "to": new}

        return self._change(tid, change, source, rank_again=True)

    def withdraw(self, tid: str, number: int, source: str = "director") -> TournamentData:
        """A player leaves: he keeps his points, is not drawn again and is ranked after
        everyone who finished. A table he sits at that has no results yet still needs them
        (the director types in what was played)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player, after = check_withdraw(data, number)
            session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number)
                .values(withdrawn_after=after)
            )
            return "withdraw", {"number": number, "name": player.name, "after_round": after}

        return self._change(tid, change, source)

    def reinstate(self, tid: str, number: int, source: str = "director") -> TournamentData:
        """Take back a withdrawal, as long as no round has been drawn since."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            player = check_reinstate(data, number)
            session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.number == number)
                .values(withdrawn_after=None)
            )
            return "reinstate", {"number": number, "name": player.name}

        return self._change(tid, change, source)

    def edit(
        self,
        tid: str,
        fields: Mapping[str, object],
        source: str = "director",
        *,
        secret: object = None,
        guard: bool = False,
    ) -> TournamentData:
        """Change the tournament's name, date, place or series (a finished one's ranking rows
        follow). With ``guard`` (a visitor), moving to another series that has an owner needs
        its ``secret`` (an unowned one is not claimed by a move)."""
        values = clean_edit(fields)

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            moved = dict(values)
            if values.get("series", data.series) != data.series:
                if guard:
                    _guard_series(session, values["series"], secret, claim=False)
                moved["series_key"] = _owner_hash(session, values["series"])
            session.execute(update(Tournament).where(Tournament.id == tid).values(**moved))
            shown = {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in values.items()}
            return "edit", shown

        return self._change(tid, change, source, rank_again=True)

    # -- rounds -------------------------------------------------------------------------------

    def draw(self, tid: str, source: str = "director") -> TournamentData:
        """Draw the next round: a Vorrunde round (when the one before is complete), or the
        Endrunde from the Vorrunde's standings; every table gets its score sheet."""
        for _ in range(5):
            data = self.need(tid)
            plan = plan_next(data)
            store = functools.partial(_store_round, plan=plan)
            try:
                return self._change(tid, store, source, expect_seq=data.seq)
            except _Moved:
                continue
        raise TournamentError("the tournament keeps changing; try the draw again")

    def undraw(self, tid: str, source: str = "director") -> TournamentData:
        """Take back the last round's draw while none of its tables has begun (a late arrival
        or a withdrawal just after the draw)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            last = check_undraw(data)
            lists = [t.list_id for t in last.tables if t.list_id]
            session.execute(
                delete(TournamentTable).where(
                    TournamentTable.tournament_id == tid, TournamentTable.round == last.number
                )
            )
            session.execute(
                delete(TournamentRound).where(
                    TournamentRound.tournament_id == tid, TournamentRound.number == last.number
                )
            )
            if lists:
                session.execute(delete(ScoreList).where(ScoreList.id.in_(lists)))
            if len(data.rounds) == 1:
                session.execute(
                    update(Tournament).where(Tournament.id == tid).values(status="registration")
                )
            return "undraw", {"round": last.number, "final": last.final}

        return self._change(tid, change, source)

    # -- results ------------------------------------------------------------------------------

    def enter(
        self,
        tid: str,
        round_number: int,
        table_number: int,
        entries: object,
        source: str = "director",
    ) -> TournamentData:
        """The director types a table's final totals (and Pflicht-Soli, games won): the table's
        results from now on, in place of its sheet (quick mode)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            # Typing in an online table's totals takes it over (a table that stalled, say).
            table = data.table(round_number, table_number)
            results = check_quick(data, table, rules_of(data, table), entries)
            _set_results(session, tid, table, results, "quick", mode="quick")
            return "enter", {
                "round": round_number,
                "table": table_number,
                "results": results_to_plain(results),
                "before": results_to_plain(table.results),
            }

        return self._change(tid, change, source, rank_again=True)

    def set_mode(
        self, tid: str, round_number: int, table_number: int, mode: str, source: str = "director"
    ) -> TournamentData:
        """Take a table's results from its score sheet again (``sheet``), or wait for the
        director's totals (``quick``)."""
        check_mode(mode)

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            table = data.table(round_number, table_number)
            check_set_mode(data, table, mode)
            results: tuple[Result, ...] | None = None
            if mode == "sheet":
                results = _sheet_results_of(session, table)
            source_name = "sheet" if results is not None else None
            _set_results(session, tid, table, results, source_name, mode=mode)
            return "mode", {
                "round": round_number,
                "table": table_number,
                "mode": mode,
                "results": results_to_plain(results),
            }

        return self._change(tid, change, source, rank_again=True)

    def sync_sheet(self, tid: str, round_number: int, table_number: int) -> TournamentData | None:
        """Take a sheet-mode table's results from its score sheet as it stands (complete:
        its results; not complete: none); ``None`` when nothing changed."""

        # Most calls find nothing new: look first without taking the write lock.
        with Session(self.db.read) as session:
            data = _load(session, tid)
            if data is None:
                raise UnknownTournament(f"no tournament {tid!r}")
            table = data.table(round_number, table_number)
            if not follows_sheet(table):
                return None
            if _sheet_results_of(session, table) == table.results:
                return None

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]] | None:
            table = data.table(round_number, table_number)
            if not follows_sheet(table):
                return None
            results = _sheet_results_of(session, table)
            if results == table.results:
                return None
            _set_results(session, tid, table, results, "sheet" if results else None, mode="sheet")
            op = sheet_change_op(table.results, results)
            return op, {
                "round": round_number,
                "table": table_number,
                "results": results_to_plain(results),
                "before": results_to_plain(table.results),
            }

        return self._maybe_change(tid, change, "sheet")

    def sync_sheets(self, tid: str) -> TournamentData:
        """Every sheet-mode table brought up to date with its score sheet."""
        data = self.need(tid)
        for r in data.rounds:
            for t in r.tables:
                if follows_sheet(t):
                    changed = self.sync_sheet(tid, r.number, t.number)
                    if changed is not None:
                        data = changed
        return data

    def set_online(
        self,
        tid: str,
        round_number: int,
        table_number: int,
        web_table_id: str,
        codes: list[str | None],
        bots: list[int],
        source: str = "director",
    ) -> TournamentData:
        """The table plays online at the web table ``web_table_id`` (made by the server)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            table = data.table(round_number, table_number)
            check_may_go_online(data, table)
            session.execute(
                update(TournamentTable)
                .where(*_table_key(tid, table))
                .values(
                    mode="online",
                    web_table_id=web_table_id,
                    online={"codes": codes, "bots": bots},
                    results=None,
                    source=None,
                    entered_at=None,
                )
            )
            return "online", {
                "round": round_number,
                "table": table_number,
                "web_table": web_table_id,
                "bots": bots,
            }

        return self._change(tid, change, source, rank_again=True)

    def store_online(
        self,
        tid: str,
        round_number: int,
        table_number: int,
        web_table_id: str,
        results: Sequence[Result],
    ) -> TournamentData | None:
        """An online table's list is over: its results come in (``None``: nothing new)."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]] | None:
            table = data.table(round_number, table_number)
            if not takes_online(table, web_table_id):
                return None
            got = tuple(results)
            if got == table.results:
                return None
            _set_results(session, tid, table, got, "online", mode="online")
            return "online_results", {
                "round": round_number,
                "table": table_number,
                "results": results_to_plain(got),
            }

        return self._maybe_change(tid, change, "online")

    def finish(self, tid: str, source: str = "director") -> TournamentData:
        """Every round played and entered: the final ranking joins the series' ranking lists."""

        def change(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]]:
            check_finish(data)
            session.execute(
                update(Tournament)
                .where(Tournament.id == tid)
                .values(status="finished", finished_at=utcnow())
            )
            done = replace_status(data, "finished")
            rows = _write_ranking(session, done)
            return "finish", {"participants": len(data.players), "ranking": rows}

        return self._change(tid, change, source)

    # -- ranking lists ------------------------------------------------------------------------

    def all_series(self) -> list[dict[str, Any]]:
        """Every club or series with a ranking row or a tournament: its name, tournaments
        recorded, the latest date."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(
                    RankingRow.series,
                    RankingRow.held_on,
                    RankingRow.tournament,
                )
                .where(_counted())
                .distinct()
            ).all()
            found: dict[str, dict[str, Any]] = {}
            for series, held_on, _name in rows:
                item = found.setdefault(
                    series, {"series": series, "tournaments": 0, "latest": None}
                )
                item["tournaments"] += 1
                if item["latest"] is None or held_on.isoformat() > item["latest"]:
                    item["latest"] = held_on.isoformat()
            for (series,) in session.execute(select(Tournament.series).distinct()).all():
                found.setdefault(series, {"series": series, "tournaments": 0, "latest": None})
            return sorted(found.values(), key=lambda s: str(s["series"]).casefold())

    def history(self, series: str) -> list[PastResult]:
        """The series' history: every finished tournament's and every imported row."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(RankingRow, Person.name)
                .join(Person, Person.id == RankingRow.person_id)
                .where(RankingRow.series == series, _counted())
            ).all()
            return [
                PastResult(r.held_on, name, r.place, r.participants, r.tournament)
                for r, name in rows
            ]

    def ranking(
        self, series: str, kind: str = "all", *, years: int = 5, latest: int | None = None
    ) -> dict[str, Any]:
        """A ranking list of the series as JSON (see :meth:`ranking_list`)."""
        entries, head = self.ranking_list(series, kind, years=years, latest=latest)
        return {**head, "entries": [e.to_json() for e in entries]}

    def ranking_list(
        self, series: str, kind: str = "all", *, years: int = 5, latest: int | None = None
    ) -> tuple[list[ListEntry], dict[str, Any]]:
        """A ranking list of the series: ``all`` (the Ewige Rangliste) or ``five`` (the last
        ``years`` calendar years up to ``latest``, by default the latest tournament's year),
        and what it covers."""
        entries, head = series_list(self.history(series), kind, years=years, latest=latest)
        return entries, {"series": series, **head}

    def import_history(
        self,
        series: object,
        text: str,
        source: str = "director",
        *,
        secret: object = None,
        guard: bool = False,
        tid: str | None = None,
    ) -> dict[str, Any]:
        """A club's past tournaments from CSV into the series' history (``read_results_csv``);
        a tournament already recorded (its date and name) is refused.

        At most :data:`MAX_HISTORY_ROWS` rows. The file is read and checked and the people are
        looked up (one query per 900 names) before anything is written; the rows go in batches
        of :data:`HISTORY_BATCH`, each its own short transaction, so no other writer waits
        longer than one batch; they count only once the last, one-row transaction marks the
        import done, so a failed import leaves no half history. With ``guard`` (a visitor) a
        series with an owner needs its ``secret``, unless the owner let the tournament ``tid``
        in (:attr:`Tournament.series_key`); one without is claimed (the answer's
        ``series_secret``, shown once, and the tournament let in)."""
        club = clean_text(series, "club or series", required=True)
        rows = clean_history(text, MAX_HISTORY_ROWS)
        names = sorted({r.player for r in rows})
        keys = {r.key for r in rows}
        with Session(self.db.read) as session:
            if guard:
                owner = session.get(SeriesOwner, club)
                if owner is not None and not _admitted(session, owner, tid, secret):
                    raise _locked(club)
            _check_history_fits(session, club, keys, len(rows))
            people = _people(session, names)
        missing = [n for n in names if n not in people]
        for chunk in _chunks(missing, HISTORY_BATCH):
            with Session(self.db.write) as session, session.begin():
                _insert_ignoring(
                    session, Person, [{"name": n, "created_at": utcnow()} for n in chunk]
                )
        if missing:
            with Session(self.db.read) as session:
                people.update(_people(session, missing))
        self._clear_stale_imports()
        iid = new_id(12)
        with Session(self.db.write) as session, session.begin():
            session.add(HistoryImport(id=iid, series=club, done=False))
        fresh = None
        try:
            for number, chunk in enumerate(_chunks(rows, HISTORY_BATCH)):
                if number:
                    time.sleep(HISTORY_PAUSE)
                with Session(self.db.write) as session, session.begin():
                    session.execute(
                        insert(RankingRow),
                        [
                            {
                                "series": club,
                                "held_on": r.date,
                                "tournament": r.tournament,
                                "person_id": people[r.player],
                                "place": r.place,
                                "participants": r.participants,
                                "import_id": iid,
                                "created_at": utcnow(),
                            }
                            for r in chunk
                        ],
                    )
            with Session(self.db.write) as session, session.begin():
                if guard:
                    owner = session.get(SeriesOwner, club)
                    if owner is None:
                        fresh = _guard_series(session, club, secret, claim=True)
                        if tid is not None:
                            session.execute(
                                update(Tournament)
                                .where(Tournament.id == tid, Tournament.series == club)
                                .values(series_key=_owner_hash(session, club))
                            )
                    elif not _admitted(session, owner, tid, secret):
                        raise _locked(club)
                _check_history_fits(session, club, keys, len(rows))
                session.execute(
                    update(HistoryImport).where(HistoryImport.id == iid).values(done=True)
                )
        except IntegrityError:
            self._drop_import(iid)
            raise TournamentError(
                f"the history of {club} changed while it was imported (another import of the "
                "same tournaments?): import it again"
            ) from None
        except BaseException:
            self._drop_import(iid)
            raise
        done: dict[str, Any] = {"series": club, "rows": len(rows), "tournaments": len(keys)}
        if fresh is not None:
            done["series_secret"] = fresh
        return done

    def _drop_import(self, iid: str) -> None:
        """An import's rows cleared away in batches (it failed, or was cut off long ago)."""
        while True:
            with Session(self.db.write) as session, session.begin():
                batch = select(RankingRow.id).where(RankingRow.import_id == iid)
                gone = session.execute(
                    delete(RankingRow).where(RankingRow.id.in_(batch.limit(HISTORY_BATCH)))
                )
                if not gone.rowcount:  # type: ignore[attr-defined]
                    session.execute(delete(HistoryImport).where(HistoryImport.id == iid))
                    return

    def _clear_stale_imports(self) -> None:
        with Session(self.db.read) as session:
            stale = session.scalars(
                select(HistoryImport.id).where(
                    HistoryImport.done.is_(False),
                    HistoryImport.created_at < utcnow() - STALE_IMPORT,
                )
            ).all()
        for iid in stale:
            self._drop_import(iid)

    def set_series_secret(
        self, series: object, secret: object = None, *, guard: bool = True
    ) -> str:
        """A new owner secret for ``series`` (returned once; only its hash is kept). With
        ``guard`` (a visitor) an owned series needs its present ``secret``; the operator (the
        command line) sets one without."""
        club = clean_text(series, "club or series", required=True)
        fresh = secrets.token_urlsafe(SECRET_BYTES)
        with Session(self.db.write) as session, session.begin():
            owner = session.get(SeriesOwner, club, with_for_update=True)
            if owner is None:
                known = session.scalar(
                    select(Tournament.id).where(Tournament.series == club).limit(1)
                ) or session.scalar(select(RankingRow.id).where(RankingRow.series == club).limit(1))
                if known is None:
                    raise UnknownTournament(f"there is no series {club!r}")
                session.add(SeriesOwner(series=club, secret_hash=hash_secret(fresh)))
            else:
                if guard and not _secret_matches(owner.secret_hash, secret):
                    raise _locked(club)
                owner.secret_hash = hash_secret(fresh)
                owner.changed_at = utcnow()
        return fresh

    def series_owned(self, series: str) -> bool:
        """Whether ``series`` has an owner secret (the new-tournament page asks for it)."""
        with Session(self.db.read) as session:
            return session.get(SeriesOwner, series) is not None

    # -- backup -------------------------------------------------------------------------------

    def export(self, tid: str) -> dict[str, Any]:
        """The whole tournament as one JSON object: itself, its players, rounds, tables and
        results, every table's score sheet with its change log, and its own log."""
        with Session(self.db.read) as session:
            return export_backup(session, tid)

    def import_backup(
        self, backup: object, *, replace_existing: bool = False, source: str = "import"
    ) -> TournamentData:
        """A tournament from a backup (a second laptop taking over): the same links and the
        same score-sheet links, so the tables' printed QR codes keep working once the new
        laptop answers at the old address. An online table still playing stays on the other
        server (its seat links are dropped; play it again or type in its totals). The
        operator's: no series secret asked."""
        data, _ = self.import_backup_guarded(
            backup, replace_existing=replace_existing, source=source, guard=False
        )
        return data

    def import_backup_guarded(
        self,
        backup: object,
        *,
        replace_existing: bool = False,
        source: str = "import",
        secret: object = None,
        guard: bool = True,
    ) -> tuple[TournamentData, str | None]:
        """:meth:`import_backup` as a visitor does it: into a series that has an owner here
        only with its ``secret`` (or over the very tournament, kept in its series); a series
        new here keeps the backup's secret, or (an older backup) is claimed, the new secret
        returned."""
        parsed = read_backup(backup)
        tid = parsed["tournament"]["id"]
        series = parsed["tournament"]["series"]
        fresh = None
        with Session(self.db.write) as session, session.begin():
            present = session.get(Tournament, tid, with_for_update=True)
            owner = session.get(SeriesOwner, series)
            key = None
            if owner is not None:
                same = (
                    present is not None
                    and present.series == series
                    and secrets.compare_digest(
                        present.director_token, parsed["tournament"]["director_token"]
                    )
                )
                if not guard or _secret_matches(owner.secret_hash, secret):
                    key = owner.secret_hash
                elif same:
                    assert present is not None
                    key = present.series_key
                else:
                    raise _locked(series)
            elif parsed["series_secret_hash"] is not None:
                # A series new here keeps the secret it has on the other server.
                key = parsed["series_secret_hash"]
                session.add(SeriesOwner(series=series, secret_hash=key))
            elif guard:
                fresh = _guard_series(session, series, secret, claim=True)
                key = _owner_hash(session, series)
            parsed["tournament"]["series_key"] = key
            if present is not None:
                if not replace_existing:
                    raise TournamentError(
                        f"the tournament {parsed['tournament']['name']!r} is here already "
                        "(import it with replace to put the backup in its place)"
                    )
                if not secrets.compare_digest(
                    present.director_token, parsed["tournament"]["director_token"]
                ):
                    # Only a backup of this very tournament (its director link) replaces it.
                    raise TournamentError("a tournament with this id but other links is here")
                _delete_tournament(session, tid)
                session.flush()
            _insert_backup(session, parsed)
            session.flush()
            seq = _seq(session, tid)
            _append(
                session, tid, "import", {"seq": seq, "exported_at": parsed["exported_at"]}, source
            )
        data = self._changed(tid)
        return data, fresh

    def delete(self, tid: str) -> None:
        """Remove a tournament and its tables' score sheets (its ranking rows go too)."""
        with Session(self.db.write) as session, session.begin():
            if session.get(Tournament, tid, with_for_update=True) is None:
                raise UnknownTournament(f"no tournament {tid!r}")
            _delete_tournament(session, tid)

    def write_backup(self, data: TournamentData) -> Path | None:
        """The automatic copy after a change: ``<backup dir>/<date>-<name>-<id>/NNNNN.json``
        and ``latest.json`` beside it (each the whole tournament)."""
        if self.backup_dir is None:
            return None
        folder = backup_folder(self.backup_dir, data.held_on, data.name, data.id)
        return write_backup_file(folder, data.seq, self.export(data.id))

    # -- the machinery ------------------------------------------------------------------------

    def _changed(self, tid: str) -> TournamentData:
        data = self.need(tid)
        self.write_backup(data)
        if self.on_change is not None:
            self.on_change(data)
        return data

    def _change(
        self,
        tid: str,
        change: Callable[[Session, TournamentData], tuple[str, dict[str, Any]]],
        source: str,
        *,
        rank_again: bool = False,
        expect_seq: int | None = None,
    ) -> TournamentData:
        def wrapped(session: Session, data: TournamentData) -> tuple[str, dict[str, Any]] | None:
            return change(session, data)

        done = self._maybe_change(
            tid, wrapped, source, rank_again=rank_again, expect_seq=expect_seq
        )
        assert done is not None
        return done

    def _maybe_change(
        self,
        tid: str,
        change: Callable[[Session, TournamentData], tuple[str, dict[str, Any]] | None],
        source: str,
        *,
        rank_again: bool = True,
        expect_seq: int | None = None,
    ) -> TournamentData | None:
        """Run ``change`` on the tournament as it stands in one write transaction; log what it
        returns (``None``: nothing changed, nothing logged)."""
        if source not in SOURCES:
            raise StichwerkError(f"unknown source {source!r}")
        with Session(self.db.write) as session, session.begin():
            if session.get(Tournament, tid, with_for_update=True) is None:
                raise UnknownTournament(f"no tournament {tid!r}")
            data = _load(session, tid)
            assert data is not None
            if expect_seq is not None and data.seq != expect_seq:
                raise _Moved()
            done = change(session, data)
            if done is None:
                return None
            op, details = done
            session.flush()
            _append(session, tid, op, details, source)
            session.flush()
            if rank_again and data.status == "finished":
                after = _load(session, tid)
                assert after is not None
                if ranking_follows(after):
                    _write_ranking(session, after)
        return self._changed(tid)


class _Moved(Exception):
    """The tournament changed between the draw's reading and its writing."""


def replace_status(data: TournamentData, status: str) -> TournamentData:
    return replace(data, status=status)


# ------------------------------------------------------------------------------ SQL helpers


def _seq(session: Session, tid: str) -> int:
    return int(
        session.scalar(
            select(func.max(TournamentChange.seq)).where(TournamentChange.tournament_id == tid)
        )
        or 0
    )


def _append(session: Session, tid: str, op: str, data: dict[str, Any], source: str) -> None:
    session.add(
        TournamentChange(
            tournament_id=tid, seq=_seq(session, tid) + 1, op=op, data=data, source=source
        )
    )


def _person(session: Session, name: str) -> int:
    """The person called ``name``, made if new."""
    found = session.scalar(select(Person.id).where(Person.name == name))
    if found is not None:
        return int(found)
    person = Person(name=name)
    session.add(person)
    session.flush()
    return person.id


def _admitted(session: Session, owner: SeriesOwner, tid: str | None, secret: object) -> bool:
    """The secret given, or the tournament ``tid`` let into the series by its owner (with the
    secret as it is now)."""
    if _secret_matches(owner.secret_hash, secret):
        return True
    if tid is None:
        return False
    key = session.scalar(
        select(Tournament.series_key).where(Tournament.id == tid, Tournament.series == owner.series)
    )
    return key is not None and secrets.compare_digest(str(key), owner.secret_hash)


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _insert_all(session: Session, model: Any, rows: list[dict[str, Any]]) -> None:
    """``rows`` of ``model`` in one statement (nothing to do for none), through its table:
    nothing enters the session's identity map to be loaded again."""
    if rows:
        session.execute(insert(model.__table__), rows)


def _persons(session: Session, names: Sequence[str]) -> dict[str, int]:
    """The people called ``names``, those new made: one query to find them, one to add the
    rest (not a query per name inside the write transaction)."""
    found = _people(session, names)
    missing = [n for n in dict.fromkeys(names) if n not in found]
    if missing:
        now = utcnow()
        _insert_ignoring(session, Person, [{"name": n, "created_at": now} for n in missing])
        found.update(_people(session, missing))
    return found


def _people(session: Session, names: Sequence[str]) -> dict[str, int]:
    """The ids of the people called ``names`` (one query per 900 names)."""
    found: dict[str, int] = {}
    for chunk in _chunks(names, 900):
        for pid, name in session.execute(
            select(Person.id, Person.name).where(Person.name.in_(chunk))
        ).all():
            found[name] = int(pid)
    return found


def _check_history_fits(
    session: Session, club: str, keys: set[tuple[Any, ...]], adding: int
) -> None:
    """No tournament of ``keys`` in the series' history yet, and room for ``adding`` rows (an
    import's own rows do not count before it is done)."""
    counted = [RankingRow.series == club, _counted()]
    for held_on, name in session.execute(
        select(RankingRow.held_on, RankingRow.tournament).where(*counted).distinct()
    ).all():
        if (held_on, name) in keys:
            what = held_on.isoformat() + (f" ({name})" if name else "")
            raise TournamentError(f"the history of {club} has the tournament of {what} already")
    present = int(session.scalar(select(func.count()).select_from(RankingRow).where(*counted)) or 0)
    if present + adding > MAX_SERIES_ROWS:
        raise StichwerkError(
            f"the history of {club} would hold more than {MAX_SERIES_ROWS} rows "
            f"({present} now, {adding} in the file)"
        )


def _table_key(tid: str, table: TableRow) -> tuple[Any, ...]:
    return (
        TournamentTable.tournament_id == tid,
        TournamentTable.round == table.round,
        TournamentTable.number == table.number,
    )


def _set_results(
    session: Session,
    tid: str,
    table: TableRow,
    results: Sequence[Result] | None,
    source: str | None,
    *,
    mode: str,
) -> None:
    session.execute(
        update(TournamentTable)
        .where(*_table_key(tid, table))
        .values(
            mode=mode,
            results=results_to_plain(results),
            source=source if results is not None else None,
            entered_at=utcnow() if results is not None else None,
        )
    )


def _sheet_results_of(session: Session, table: TableRow) -> tuple[Result, ...] | None:
    row = session.get(ScoreList, table.list_id)
    if row is None:
        return None
    changes = session.scalars(
        select(ScoreChange.change).where(ScoreChange.list_id == row.id).order_by(ScoreChange.seq)
    ).all()
    return sheet_results(table, row.settings, changes)


def _load(session: Session, tid: str) -> TournamentData | None:
    t = session.get(Tournament, tid)
    if t is None:
        return None
    players = tuple(
        PlayerRow(p.number, name, p.withdrawn_after)
        for p, name in session.execute(
            select(TournamentPlayer, Person.name)
            .join(Person, Person.id == TournamentPlayer.person_id)
            .where(TournamentPlayer.tournament_id == tid)
            .order_by(TournamentPlayer.number)
        ).all()
    )
    table_rows = session.scalars(
        select(TournamentTable)
        .where(TournamentTable.tournament_id == tid)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    list_ids = [row.list_id for row in table_rows if row.list_id]
    tokens: dict[str, tuple[str, str]] = {}
    counts: dict[str, int] = {}
    if list_ids:
        for lid, scorer_token, follower_token in session.execute(
            select(ScoreList.id, ScoreList.scorer_token, ScoreList.follower_token).where(
                ScoreList.id.in_(list_ids)
            )
        ).all():
            tokens[lid] = (scorer_token, follower_token)
        for lid, count in session.execute(
            select(ScoreChange.list_id, func.count())
            .where(ScoreChange.list_id.in_(list_ids))
            .group_by(ScoreChange.list_id)
        ).all():
            counts[lid] = int(count)
    by_round: dict[int, list[TableRow]] = {}
    for row in table_rows:
        list_id = row.list_id
        scorer: str | None = None
        follower: str | None = None
        if list_id and list_id in tokens:
            scorer, follower = tokens[list_id]
        by_round.setdefault(row.round, []).append(
            TableRow(
                round=row.round,
                number=row.number,
                seating=tuple(int(p) for p in row.seating),
                duty_owed=tuple(int(n) for n in row.duty_owed),
                mode=row.mode,
                list_id=list_id,
                scorer_token=scorer,
                follower_token=follower,
                sheet_changes=counts.get(list_id, 0) if list_id else 0,
                web_table_id=row.web_table_id,
                online=None if row.online is None else dict(row.online),
                results=results_from_plain(row.round, row.seating, row.results),
                source=row.source,
                entered_at=row.entered_at,
            )
        )
    rounds = tuple(
        RoundRow(
            r.number,
            r.final,
            tuple(tuple(int(p) for p in g) for g in r.by_lot),
            tuple(by_round.get(r.number, ())),
        )
        for r in session.scalars(
            select(TournamentRound)
            .where(TournamentRound.tournament_id == tid)
            .order_by(TournamentRound.number)
        ).all()
    )
    return TournamentData(
        id=t.id,
        name=t.name,
        game=t.game,
        format_name=t.format,
        profile=t.profile,
        held_on=t.held_on,
        place=t.place,
        series=t.series,
        seed=t.seed,
        status=t.status,
        director_token=t.director_token,
        public_token=t.public_token,
        created_at=t.created_at,
        finished_at=t.finished_at,
        seq=_seq(session, tid),
        players=players,
        rounds=rounds,
    )


def _store_round(
    session: Session, data: TournamentData, plan: PlannedRound
) -> tuple[str, dict[str, Any]]:
    """The planned round's rows: the round, its tables, a score sheet for each."""
    tid = data.id
    session.add(
        TournamentRound(
            tournament_id=tid,
            number=plan.number,
            final=plan.final,
            by_lot=[list(g) for g in plan.by_lot],
        )
    )
    for number, (seating, owed) in enumerate(zip(plan.tables, plan.owed, strict=True), start=1):
        settings = sheet_settings(data, plan.number, number, seating, owed)
        list_id = new_id(9)
        session.add(
            ScoreList(
                id=list_id,
                scorer_token=secrets.token_urlsafe(TOKEN_BYTES),
                follower_token=secrets.token_urlsafe(TOKEN_BYTES),
                game=data.game,
                settings=settings,
            )
        )
        session.flush()
        session.add(
            TournamentTable(
                tournament_id=tid,
                round=plan.number,
                number=number,
                seating=list(seating),
                duty_owed=list(owed),
                mode="sheet",
                list_id=list_id,
            )
        )
    if data.status == "registration":
        session.execute(update(Tournament).where(Tournament.id == tid).values(status="running"))
    return "draw", draw_details(data, plan)


def _write_ranking(session: Session, data: TournamentData) -> list[dict[str, Any]]:
    """The finished tournament's places as the series' ranking rows (written anew)."""
    rows = ranking_rows(data)
    clash = session.scalar(
        select(RankingRow.id).where(
            RankingRow.series == data.series,
            RankingRow.held_on == data.held_on,
            RankingRow.tournament == data.name,
            or_(RankingRow.tournament_id.is_(None), RankingRow.tournament_id != data.id),
        )
    )
    if clash is not None:
        raise TournamentError(
            f"the ranking list of {data.series} has a tournament {data.name!r} on "
            f"{data.held_on.isoformat()} already: give this one another name"
        )
    session.execute(delete(RankingRow).where(RankingRow.tournament_id == data.id))
    people = _persons(session, [r.player for r in rows])
    for r in rows:
        session.add(
            RankingRow(
                series=data.series,
                held_on=r.date,
                tournament=r.tournament,
                person_id=people[r.player],
                place=r.place,
                participants=r.participants,
                tournament_id=data.id,
            )
        )
    return [{"place": r.place, "name": r.player} for r in rows]


def _delete_tournament(session: Session, tid: str) -> None:
    lists = [
        lid
        for lid in session.scalars(
            select(TournamentTable.list_id).where(TournamentTable.tournament_id == tid)
        ).all()
        if lid
    ]
    for model in (RankingRow, TournamentChange, TournamentTable, TournamentRound, TournamentPlayer):
        session.execute(delete(model).where(model.tournament_id == tid))
    if lists:
        session.execute(delete(ScoreChange).where(ScoreChange.list_id.in_(lists)))
        session.execute(delete(ScoreList).where(ScoreList.id.in_(lists)))
    session.execute(delete(Tournament).where(Tournament.id == tid))


def _insert_backup(session: Session, parsed: dict[str, Any]) -> None:
    t = parsed["tournament"]
    tid = t["id"]
    clash = session.scalar(
        select(Tournament.id).where(
            or_(
                Tournament.director_token.in_([t["director_token"], t["public_token"]]),
                Tournament.public_token.in_([t["director_token"], t["public_token"]]),
            )
        )
    )
    if clash is not None:
        raise TournamentError("another tournament here has the backup's links")
    session.add(Tournament(**t))
    session.flush()
    people = _persons(session, [p["name"] for p in parsed["players"]])
    # Many rows at once (one statement a table), not an object each: the write lock is held
    # for as short a time as the rows take to write.
    _insert_all(
        session,
        TournamentPlayer,
        [
            {
                "tournament_id": tid,
                "number": p["number"],
                "person_id": people[p["name"]],
                "withdrawn_after": p["withdrawn_after"],
                "registered_at": p["registered_at"],
            }
            for p in parsed["players"]
        ],
    )
    _insert_all(session, TournamentRound, [{"tournament_id": tid, **r} for r in parsed["rounds"]])
    tokens = [tok for s in parsed["sheets"] for tok in (s["scorer_token"], s["follower_token"])]
    ids = [s["id"] for s in parsed["sheets"]]
    for some_ids, some_tokens in zip(_chunks(ids, 300), _chunks(tokens, 600), strict=True):
        taken = session.scalar(
            select(ScoreList.id)
            .where(
                or_(
                    ScoreList.id.in_(some_ids),
                    ScoreList.scorer_token.in_(some_tokens),
                    ScoreList.follower_token.in_(some_tokens),
                )
            )
            .limit(1)
        )
        if taken is not None:
            raise TournamentError("a score sheet here has the same links as one in the backup")
    _insert_all(
        session,
        ScoreList,
        [
            {
                "id": s["id"],
                "scorer_token": s["scorer_token"],
                "follower_token": s["follower_token"],
                "game": s["settings"]["game"],
                "settings": s["settings"],
                "created_at": s["created_at"],
            }
            for s in parsed["sheets"]
        ],
    )
    _insert_all(
        session,
        ScoreChange,
        [
            {
                "list_id": s["id"],
                "seq": c["seq"],
                "key": c["key"],
                "change": c["change"],
                "link": c["link"],
                "created_at": c["at"],
            }
            for s in parsed["sheets"]
            for c in s["changes"]
        ],
    )
    _insert_all(session, TournamentTable, [{"tournament_id": tid, **x} for x in parsed["tables"]])
    _insert_all(
        session,
        TournamentChange,
        [
            {
                "tournament_id": tid,
                "seq": c["seq"],
                "op": c["op"],
                "data": c["data"],
                "source": c["source"],
                "created_at": c["at"],
            }
            for c in parsed["log"]
        ],
    )
    session.flush()
    data = _load(session, tid)
    assert data is not None
    if data.status == "finished":
        _write_ranking(session, data)
