"""A tournament's backup file: its format, its writer (:func:`export_backup`), its reader
(:func:`read_backup`) and the automatic copies (:func:`write_backup_file`).

One JSON object (UTF-8) holds the whole tournament, so a second laptop can take over from it
with the same links (the tables' printed QR codes keep working once it answers at the old
address)::

    {
     "kind": "stichwerk-tournament-backup",   # BACKUP_KIND
     "version": 1,                           # BACKUP_VERSION
     "exported_at": "2025-03-08T18:02:11+00:00",
     "tournament": {
       "id",                                  # [A-Za-z0-9_-]{8,16}, as a sheet's id
       "name", "game", "format", "profile",   # the format's profile, no other
       "date": "2025-03-08", "place", "series",
       "seed",                                # the draws' seed: [\\w.-]{1,40}
       "status": "registration" | "running" | "finished",
       "director_token", "public_token",     # the two links: [A-Za-z0-9_-]{8,43}
       "created_at", "finished_at": ISO time | null,
       "series_secret_hash": 64 hex digits | null   # the series' owner secret's SHA-256
     },
     "players": [{"number": 0.., "name", "withdrawn_after": rounds | null,
                  "registered_at"}],
     "rounds": [{"number": 1, 2 ..., "final": bool,   # true for the Endrunde (rounds + 1) only
                 "by_lot": [[player, ...], ...],   # the Endrunde's ties ordered by lot
                 "drawn_at"}],
     "tables": [{"round", "number": 1, 2 ... in each round,
                 "seating": [player, ...],        # the first seat deals first
                 "duty_owed": [n, ...],           # Pflicht-Soli each seat owed when drawn
                 "mode": "sheet" | "quick" | "online",
                 "list_id": a sheet's id | null,
                 "web_table_id": id | null,
                 "results": [{"points", "duty_solos", "games_won"}, ...] | null,
                 "source": "sheet" | "quick" | "online" | null,   # where the results came from
                 "entered_at": ISO time | null}],
     "sheets": [{"id", "scorer_token", "follower_token",
                 "settings": {...},               # the score sheet's settings
                 "created_at",
                 "changes": [{"seq": 1, 2 ..., "key", "change": {...}, "link", "at"}]}],
     "log": [{"seq": 1, 2 ..., "op", "data": {...}, "source", "at"}]
    }

Times are ISO 8601 (without a zone: UTC). The reader trusts nothing in a file: every problem
is one line naming where it is (``the backup's table 3: 'seating' must list whole numbers
...``). It checks the kind and version, every field's type, the names and free text as the
director's input is checked (:mod:`stichwerk.tournament.cleaning`), the rounds numbered as the
format plays them (the Endrunde, marked ``final``, after the Vorrunde's and only there), every
table's players registered and seated once a round, its score sheet its own and of its size,
every sheet replayed through its game (a sheet of another game refused), every number in a
sheet's or the log's free JSON finite and within ±:data:`MAX_BACKUP_NUMBER`, a table's points
within ±:data:`MAX_POINTS`, the log and each sheet's changes numbered without a gap, no text
longer than its column. An online table still playing stays on the other server: it comes in
as a ``sheet`` table (or ``quick`` without a sheet). A log entry's unknown ``source`` reads
as ``import``.

The storage writes the rows (:meth:`stichwerk.storage.tournaments.TournamentStore.import_backup`).
"""

import datetime as dt
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from stichwerk.core.errors import StichwerkError
from stichwerk.sheet import read_settings
from stichwerk.sheet.log import replay
from stichwerk.storage.models import (
    Person,
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
from stichwerk.tournament.cleaning import SEED, clean_name, clean_text, parse_date, whole
from stichwerk.tournament.formats import get_format
from stichwerk.tournament.snapshot import MODES, SOURCES, STATUSES, UnknownTournament

BACKUP_KIND = "stichwerk-tournament-backup"
BACKUP_VERSION = 1
MAX_BACKUP_NUMBER = 10**9
"""No number in a backup's score sheets or log is larger than this (points, Augen, games)."""
MAX_POINTS = 1_000_000
"""No table's total in a backup is larger than this."""
TOKEN_TEXT = re.compile(r"[A-Za-z0-9_-]{8,43}")
"""A link's token (a tournament's, a score sheet's)."""
ID_TEXT = re.compile(r"[A-Za-z0-9_-]{8,16}")
"""A tournament's or a score sheet's id (12 characters as made; the column holds 16)."""


# ------------------------------------------------------------------------------ the copies


def default_backup_dir(url: str) -> Path | None:
    """``STICHWERK_BACKUP_DIR``, else ``backups/`` beside a SQLite file, else ``var/backups``;
    ``STICHWERK_BACKUP_DIR=off`` writes none."""
    configured = os.environ.get("STICHWERK_BACKUP_DIR")
    if configured:
        return None if configured.lower() == "off" else Path(configured)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            return None
        return Path(parsed.database).parent / "backups"
    return Path("var") / "backups"


def backup_folder(backup_dir: Path, held_on: dt.date, name: str, tid: str) -> Path:
    """A tournament's folder of copies: ``<backup dir>/<date>-<name>-<id>``."""
    return backup_dir / f"{held_on.isoformat()}-{_slug(name)}-{tid}"


def write_backup_file(folder: Path, seq: int, backup: dict[str, Any]) -> Path:
    """The copy after change ``seq``: ``<folder>/NNNNN.json`` and ``latest.json`` beside it
    (each the whole tournament, each written whole or not at all)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(backup, ensure_ascii=False, indent=1)
    path = folder / f"{seq:05d}.json"
    for target in (path, folder / "latest.json"):
        scratch = target.with_suffix(".tmp")
        scratch.write_text(text, encoding="utf-8")
        os.replace(scratch, target)
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^\w-]+", "-", text).strip("-")[:40] or "turnier"


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# ------------------------------------------------------------------------------ the writer


def _when(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_backup(session: Session, tid: str) -> dict[str, Any]:
    """The tournament ``tid`` as its backup (the format above), read in ``session``."""
    t = session.get(Tournament, tid)
    if t is None:
        raise UnknownTournament(f"no tournament {tid!r}")
    players = session.execute(
        select(TournamentPlayer, Person.name)
        .join(Person, Person.id == TournamentPlayer.person_id)
        .where(TournamentPlayer.tournament_id == tid)
        .order_by(TournamentPlayer.number)
    ).all()
    rounds = session.scalars(
        select(TournamentRound)
        .where(TournamentRound.tournament_id == tid)
        .order_by(TournamentRound.number)
    ).all()
    tables = session.scalars(
        select(TournamentTable)
        .where(TournamentTable.tournament_id == tid)
        .order_by(TournamentTable.round, TournamentTable.number)
    ).all()
    # Every sheet and every change in a query per 500 sheets, not two queries a sheet.
    list_ids = [table.list_id for table in tables if table.list_id is not None]
    lists: dict[str, ScoreList] = {}
    changes_of: dict[str, list[ScoreChange]] = {lid: [] for lid in list_ids}
    for some in _chunks(list_ids, 500):
        for found in session.scalars(select(ScoreList).where(ScoreList.id.in_(some))).all():
            lists[found.id] = found
        for c in session.scalars(
            select(ScoreChange)
            .where(ScoreChange.list_id.in_(some))
            .order_by(ScoreChange.list_id, ScoreChange.seq)
        ).all():
            changes_of[c.list_id].append(c)
    sheets = []
    for lid in list_ids:
        lst = lists.get(lid)
        if lst is None:
            continue
        sheets.append(
            {
                "id": lst.id,
                "scorer_token": lst.scorer_token,
                "follower_token": lst.follower_token,
                "settings": dict(lst.settings),
                "created_at": _when(lst.created_at),
                "changes": [
                    {
                        "seq": c.seq,
                        "key": c.key,
                        "change": dict(c.change),
                        "link": c.link,
                        "at": _when(c.created_at),
                    }
                    for c in changes_of[lid]
                ],
            }
        )
    log = session.scalars(
        select(TournamentChange)
        .where(TournamentChange.tournament_id == tid)
        .order_by(TournamentChange.seq)
    ).all()
    return {
        "kind": BACKUP_KIND,
        "version": BACKUP_VERSION,
        "exported_at": utcnow().isoformat(),
        "tournament": {
            "id": t.id,
            "name": t.name,
            "game": t.game,
            "format": t.format,
            "profile": t.profile,
            "date": t.held_on.isoformat(),
            "place": t.place,
            "series": t.series,
            "seed": t.seed,
            "status": t.status,
            "director_token": t.director_token,
            "public_token": t.public_token,
            "created_at": _when(t.created_at),
            "finished_at": _when(t.finished_at),
            "series_secret_hash": session.scalar(
                select(SeriesOwner.secret_hash).where(SeriesOwner.series == t.series)
            ),
        },
        "players": [
            {
                "number": p.number,
                "name": name,
                "withdrawn_after": p.withdrawn_after,
                "registered_at": _when(p.registered_at),
            }
            for p, name in players
        ],
        "rounds": [
            {
                "number": r.number,
                "final": r.final,
                "by_lot": list(r.by_lot),
                "drawn_at": _when(r.drawn_at),
            }
            for r in rounds
        ],
        "tables": [
            {
                "round": x.round,
                "number": x.number,
                "seating": list(x.seating),
                "duty_owed": list(x.duty_owed),
                "mode": x.mode,
                "list_id": x.list_id,
                "web_table_id": x.web_table_id,
                "results": None if x.results is None else list(x.results),
                "source": x.source,
                "entered_at": _when(x.entered_at),
            }
            for x in tables
        ],
        "sheets": sheets,
        "log": [
            {
                "seq": c.seq,
                "op": c.op,
                "data": dict(c.data),
                "source": c.source,
                "at": _when(c.created_at),
            }
            for c in log
        ],
    }


# ------------------------------------------------------------------------------ the reader


class _Reader:
    """Checked reading of an untrusted backup: every problem is one line naming where."""

    def __init__(self, obj: object, where: str) -> None:
        if not isinstance(obj, dict):
            raise StichwerkError(f"the backup's {where} must be an object")
        self.obj: dict[str, Any] = obj
        self.where = where

    def get(self, key: str, kind: Any, *, optional: bool = False) -> Any:
        if key not in self.obj:
            if optional:
                return None
            raise StichwerkError(f"the backup's {self.where} has no {key!r}")
        value = self.obj[key]
        if value is None and optional:
            return None
        if isinstance(value, bool) and kind is int:
            raise StichwerkError(f"the backup's {self.where}: {key!r} must be a number")
        if not isinstance(value, kind):
            raise StichwerkError(f"the backup's {self.where}: {key!r} has the wrong type")
        return value

    def time(self, key: str, *, optional: bool = False) -> dt.datetime | None:
        raw = self.get(key, str, optional=optional)
        if raw is None:
            return None
        try:
            value = dt.datetime.fromisoformat(raw)
        except ValueError:
            raise StichwerkError(f"the backup's {self.where}: {key!r} is not a time") from None
        return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)

    def ints(self, key: str, hi: int = MAX_BACKUP_NUMBER) -> list[int]:
        value = self.get(key, list)
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= hi for v in value):
            raise StichwerkError(
                f"the backup's {self.where}: {key!r} must list whole numbers from 0 to {hi}"
            )
        return list(value)

    def whole(self, key: str, lo: int, hi: int) -> int:
        value = self.get(key, int)
        if not lo <= value <= hi:
            raise StichwerkError(
                f"the backup's {self.where}: {key!r} must be a whole number from {lo} to {hi}"
            )
        return int(value)


def _check_numbers(value: object, where: str) -> None:
    """Every number in a backup's free JSON (a score sheet's changes, the log) finite and no
    larger than :data:`MAX_BACKUP_NUMBER` (``1e308`` or a 400-digit integer is refused here,
    before any engine reads it)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            if isinstance(item, float) and not math.isfinite(item):
                raise StichwerkError(f"the backup's {where} has a number that is not finite")
            if not -MAX_BACKUP_NUMBER <= item <= MAX_BACKUP_NUMBER:
                raise StichwerkError(
                    f"the backup's {where} has a number beyond ±{MAX_BACKUP_NUMBER}"
                )


def _points(value: object, where: str) -> int | float:
    """A table's total from a backup: a finite number within ±:data:`MAX_POINTS`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StichwerkError(f"the backup's {where}: points must be numbers")
    if isinstance(value, float) and not math.isfinite(value):
        raise StichwerkError(f"the backup's {where}: points must be finite")
    if not -MAX_POINTS <= value <= MAX_POINTS:
        raise StichwerkError(
            f"the backup's {where}: points must be from -{MAX_POINTS} to {MAX_POINTS}"
        )
    return value


def _token(value: str, where: str) -> str:
    if not TOKEN_TEXT.fullmatch(value):
        raise StichwerkError(f"the backup's {where} is not a link token")
    return value


def _id(value: str, where: str) -> str:
    if not ID_TEXT.fullmatch(value):
        raise StichwerkError(f"the backup's {where} is not an id (8 to 16 letters, digits, - or _)")
    return value


def read_backup(backup: object) -> dict[str, Any]:
    """The backup checked through: its kind, the tournament, players, rounds, tables, sheets
    (each replayed) and the log."""
    top = _Reader(backup, "file")
    if top.obj.get("kind") != BACKUP_KIND:
        raise StichwerkError("this is not a Stichwerk tournament backup")
    if top.get("version", int) != BACKUP_VERSION:
        raise StichwerkError(f"this backup is of version {top.obj.get('version')}, not 1")
    t = _Reader(top.get("tournament", dict), "tournament")
    fmt = get_format(t.get("format", str))
    status = t.get("status", str)
    if status not in STATUSES:
        raise StichwerkError(f"the backup's tournament has an unknown status {status!r}")
    tournament = {
        "id": _id(t.get("id", str), "tournament id"),
        "name": clean_text(t.get("name", str), "tournament's name", required=True),
        "game": fmt.game,
        "format": fmt.name,
        "profile": t.get("profile", str),
        "held_on": parse_date(t.get("date", str)),
        "place": clean_text(t.get("place", str), "place"),
        "series": clean_text(t.get("series", str), "club or series", required=True),
        "seed": t.get("seed", str),
        "status": status,
        "director_token": _token(t.get("director_token", str), "director link"),
        "public_token": _token(t.get("public_token", str), "public link"),
        "created_at": t.time("created_at"),
        "finished_at": t.time("finished_at", optional=True),
    }
    if not SEED.fullmatch(tournament["seed"]):
        raise StichwerkError("the backup's seed is not 1 to 40 letters, digits, '.', '-' or '_'")
    secret_hash = t.get("series_secret_hash", str, optional=True)
    if secret_hash is not None and not re.fullmatch(r"[0-9a-f]{64}", secret_hash):
        raise StichwerkError("the backup's tournament: 'series_secret_hash' is not a SHA-256")
    if tournament["profile"] != fmt.profile:
        raise StichwerkError(f"the {fmt.name} format plays the {fmt.profile} profile")
    players = []
    numbers: set[int] = set()
    names: set[str] = set()
    for i, raw in enumerate(top.get("players", list)):
        p = _Reader(raw, f"player {i + 1}")
        number = whole(p.get("number", int), "a player's number", 0, 100_000)
        name = clean_name(p.get("name", str))
        if number in numbers or name.casefold() in names:
            raise StichwerkError(f"the backup lists player {name} twice")
        numbers.add(number)
        names.add(name.casefold())
        after = p.get("withdrawn_after", int, optional=True)
        if after is not None:
            whole(after, "a withdrawal's round", 0, fmt.rounds + 1)
        players.append(
            {
                "number": number,
                "name": name,
                "withdrawn_after": after,
                "registered_at": p.time("registered_at"),
            }
        )
    if len(players) > fmt.max_players:
        raise StichwerkError(f"the backup has more than {fmt.max_players} players")
    rounds = []
    for i, raw in enumerate(top.get("rounds", list)):
        r = _Reader(raw, f"round {i + 1}")
        number = r.get("number", int)
        if number != i + 1 or number > fmt.rounds + int(fmt.final_round):
            raise StichwerkError(f"the backup's rounds are not numbered 1, 2 ... ({number})")
        # The Endrunde is the round after the Vorrunde's, and only it: a round marked otherwise
        # would have the next draw store a round of a number already taken.
        final = r.get("final", bool)
        if final and number <= fmt.rounds:
            raise StichwerkError(
                f"the backup's round {number} is marked as the Endrunde, but the {fmt.name} "
                f"format plays {fmt.rounds} Vorrunde rounds first"
            )
        if not final and number > fmt.rounds:
            raise StichwerkError(f"the backup's round {number} is the Endrunde, but not marked so")
        by_lot = r.get("by_lot", list)
        for group in by_lot:
            if (
                not isinstance(group, list)
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in group)
                or not set(group) <= numbers
            ):
                raise StichwerkError(f"the backup's round {number}: a lot names unknown players")
        rounds.append(
            {
                "number": number,
                "final": final,
                "by_lot": by_lot,
                "drawn_at": r.time("drawn_at"),
            }
        )
    sheets: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(top.get("sheets", list)):
        s = _Reader(raw, f"score sheet {i + 1}")
        lid = _id(s.get("id", str), "score sheet id")
        settings = s.get("settings", dict)
        _check_numbers(settings, f"score sheet {i + 1}")
        changes = []
        for j, c_raw in enumerate(s.get("changes", list)):
            c = _Reader(c_raw, f"score sheet {i + 1}, change {j + 1}")
            if c.get("seq", int) != j + 1:
                raise StichwerkError(f"the backup's score sheet {i + 1}: its changes skip one")
            _check_numbers(c.obj.get("change"), f"score sheet {i + 1}, change {j + 1}")
            changes.append(
                {
                    "seq": j + 1,
                    "key": c.get("key", str)[:64],
                    "change": c.get("change", dict),
                    "link": c.get("link", str)[:12],
                    "at": c.time("at"),
                }
            )
        try:
            checked = read_settings(settings)
            replay(checked.to_json(), (c["change"] for c in changes))
        except StichwerkError as exc:
            raise StichwerkError(f"the backup's score sheet {i + 1}: {exc}") from None
        except (ArithmeticError, ValueError, TypeError, KeyError, IndexError) as exc:
            # An engine that did not expect what a hand-made file holds: one line, no trace.
            raise StichwerkError(
                f"the backup's score sheet {i + 1} cannot be replayed ({type(exc).__name__})"
            ) from None
        if checked.game != fmt.game:
            raise StichwerkError(f"the backup's score sheet {i + 1} is not of {fmt.game}")
        sheets[lid] = {
            "id": lid,
            "scorer_token": _token(s.get("scorer_token", str), "scorer link"),
            "follower_token": _token(s.get("follower_token", str), "follower link"),
            "settings": checked.to_json(),
            "created_at": s.time("created_at"),
            "changes": changes,
        }
    round_numbers = {r["number"] for r in rounds}
    tables = []
    used_lists: set[str] = set()
    for i, raw in enumerate(top.get("tables", list)):
        x = _Reader(raw, f"table {i + 1}")
        rnd = x.get("round", int)
        if rnd not in round_numbers:
            raise StichwerkError(f"the backup's table {i + 1} is of a round not drawn")
        seating = x.ints("seating")
        if len(seating) not in fmt.table_sizes or not set(seating) <= numbers:
            raise StichwerkError(f"the backup's table {i + 1} seats players it does not list")
        owed = x.ints("duty_owed")
        if len(owed) != len(seating) or any(not 0 <= n <= max(fmt.duty_solos, 0) for n in owed):
            raise StichwerkError(f"the backup's table {i + 1}: Pflicht-Soli owed do not fit")
        mode = x.get("mode", str)
        if mode not in MODES:
            raise StichwerkError(f"the backup's table {i + 1} has an unknown mode {mode!r}")
        lid = x.get("list_id", str, optional=True)
        if lid is not None:
            if lid not in sheets or lid in used_lists:
                raise StichwerkError(f"the backup's table {i + 1} has no score sheet of its own")
            used_lists.add(lid)
            # A sheet of another size could never give the table's results (reading it would
            # fail each time the tournament is opened).
            seats = sheets[lid]["settings"].get("seats")
            if seats != len(seating):
                raise StichwerkError(
                    f"the backup's table {i + 1}: its score sheet has {seats} seats, the table "
                    f"seats {len(seating)}"
                )
        results = x.get("results", list, optional=True)
        if results is not None:
            if len(results) != len(seating):
                raise StichwerkError(f"the backup's table {i + 1}: one result per player")
            for res in results:
                r = _Reader(res, f"table {i + 1}'s results")
                _points(r.obj.get("points"), f"table {i + 1}")
                for key in ("duty_solos", "games_won"):
                    whole(r.get(key, int), f"table {i + 1}'s {key}", 0, 1000)
        source = x.get("source", str, optional=True)
        if source is not None and source not in MODES:
            raise StichwerkError(
                f"the backup's table {i + 1} has an unknown source {source[:20]!r}"
            )
        web = x.get("web_table_id", str, optional=True)
        if web is not None and results is None and mode == "online":
            # An online table still playing stays on the other server.
            mode = "sheet" if lid else "quick"
        tables.append(
            {
                "round": rnd,
                "number": x.whole("number", 1, 1000),
                "seating": seating,
                "duty_owed": owed,
                "mode": mode,
                "list_id": lid,
                "results": results,
                "source": source,
                "entered_at": x.time("entered_at", optional=True),
            }
        )
    for number in round_numbers:
        here = [x for x in tables if x["round"] == number]
        if sorted(x["number"] for x in here) != list(range(1, len(here) + 1)):
            raise StichwerkError(f"the backup's round {number}: its tables are not 1, 2 ...")
        seated = [p for x in here for p in x["seating"]]
        if len(seated) != len(set(seated)):
            raise StichwerkError(f"the backup's round {number} seats a player twice")
    log = []
    for i, raw in enumerate(top.get("log", list)):
        c = _Reader(raw, f"log entry {i + 1}")
        if c.get("seq", int) != i + 1:
            raise StichwerkError("the backup's log skips an entry")
        source = c.get("source", str)
        _check_numbers(c.obj.get("data"), f"log entry {i + 1}")
        log.append(
            {
                "seq": i + 1,
                "op": c.get("op", str)[:24],
                "data": c.get("data", dict),
                "source": source if source in SOURCES else "import",
                "at": c.time("at"),
            }
        )
    return {
        "exported_at": top.get("exported_at", str),
        "tournament": tournament,
        "series_secret_hash": secret_hash,
        "players": players,
        "rounds": rounds,
        "tables": tables,
        "sheets": [sheets[lid] for lid in sheets if lid in used_lists],
        "log": log,
    }
