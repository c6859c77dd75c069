"""The score sheet: a list of deal summaries, each scored by its game's own scoring.

A sheet holds the list's settings and its entries (deal summaries, in the order the deals were
played). Everything else is derived by playing the entries through
:class:`~stichwerk.core.series.Series` from the first: the dealer of each deal, the seat that
sits out, Pflicht-Soli owed and played, Bock, the closing rounds, totals and checks. So a
correction of deal 3 changes every later dealer and total, and a correction that would leave
a later deal impossible (a Drescher outside the Drescher round, a second Pflicht-Solo) is
refused as a whole: nothing is half-saved.

Entries change only through :meth:`Sheet.apply` of a change (``add``, ``correct``,
``delete``), each with an idempotency key: a change sent twice (a phone that retried, or
synchronised after entering offline) is applied once. A correction or deletion names the
version of the entry it was made against; if another phone changed that entry meanwhile the
change is refused as a :class:`SheetConflict`, never silently applied over the other.

>>> from stichwerk.sheet.settings import ListSettings
>>> sheet = Sheet(ListSettings(game="cego", profile="schwarzwald", names=("A", "B", "C", "D")))
>>> row = sheet.add({"contract": "eine", "declarer": 1, "declarer_points": 41})
>>> row.settlement, sheet.totals()
((-20, 60, -20, -20), [-20, 60, -20, -20])
>>> sheet.next_context().dealer
1
"""

import copy
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from stichwerk.core.errors import RecordError, StichwerkError
from stichwerk.core.series import DealContext, DealOutcome, Number, Series
from stichwerk.games import get_game
from stichwerk.sheet.settings import ListSettings

CHANGE_KINDS = ("add", "correct", "delete")
ID_LENGTH = 64
YIELD_EVERY = 32
"""A rebuild lets other threads run after this many deals (see ``Sheet._build``)."""
MAX_DEALS = 1500
"""Deals one list may hold: a weekly club's season is about 40 evenings of 30 deals (1,200), a
long evening 100; a list past this is refused (start the next one), so scoring a list anew
and sending it stay bounded."""
KEPT_DELETED = 100
"""Deleted rows a sheet keeps to show (the latest): the log keeps every one."""


class SheetError(RecordError):
    """An entry or change the sheet refuses; the message names the deal and the field."""


class SheetConflict(SheetError):
    """A change made against an entry another scorer has changed since."""


@dataclass
class Entry:
    """One deal as entered: its summary and the version it is at (1, then one more per
    correction)."""

    id: str
    summary: dict[str, Any]
    version: int = 1


@dataclass(frozen=True)
class Row:
    """One deal of the list, scored: what the sheet shows in its line."""

    entry_id: str
    version: int
    index: int
    """The deal's place in the list (1, 2 ...), redeals included."""
    number: int | None
    """The game's number, ``None`` for a deal that does not count (a redeal)."""
    dealer: int
    sitting: int | None
    deal_type: str | None
    summary: dict[str, Any]
    """The summary as ``stichwerk score`` reads it (the list's game, profile, seats and the
    deal's dealer filled in)."""
    score: dict[str, Any]
    outcome: DealOutcome
    multiplier: int
    settlement: tuple[Number, ...]
    """What each seat writes for the deal (Bock applied)."""
    totals: tuple[Number, ...]
    source: "Entry | None" = field(default=None, compare=False, repr=False)
    """The entry the row was scored from (entries never change: a correction is a new one)."""
    context: DealContext | None = field(default=None, compare=False, repr=False)
    """Where the list stood for the deal: the same entry in the same place scores the same."""

    @property
    def label(self) -> str:
        """The game's name for the sheet: the contract, game type or redeal."""
        s = self.summary
        if "redeal" in s:
            return f"redeal-{s['redeal']}"
        name = s.get("contract") or s.get("game_type") or ""
        return str(name)

    @cached_property
    def json_text(self) -> str:
        """``to_json()`` as JSON text, written once: a row never changes, and a server that
        sends the whole sheet after every change then writes only the new rows."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    @cached_property
    def moved_text(self) -> str:
        """The row for a page that has it already and only its place or total moved (a deal
        corrected before it): ``{"id", "index", "totals", "same": true}``, the rest as it was."""
        moved = {"id": self.entry_id, "index": self.index, "totals": list(self.totals)}
        return json.dumps({**moved, "same": True}, ensure_ascii=False)

    def same_but_place(self, other: "Row") -> bool:
        """Whether ``other`` is this row but for its index and running totals."""
        return (
            self.entry_id == other.entry_id
            and self.version == other.version
            and self.number == other.number
            and self.dealer == other.dealer
            and self.sitting == other.sitting
            and self.deal_type == other.deal_type
            and self.multiplier == other.multiplier
            and self.settlement == other.settlement
            and self.outcome == other.outcome
            and self.summary == other.summary
            and self.score == other.score
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.entry_id,
            "version": self.version,
            "index": self.index,
            "number": self.number,
            "counts": self.number is not None,
            "dealer": self.dealer,
            "sitting": self.sitting,
            "deal_type": self.deal_type,
            "label": self.label,
            "summary": self.summary,
            "score": self.score,
            "multiplier": self.multiplier,
            "settlement": list(self.settlement),
            "totals": list(self.totals),
            "duty_solo_by": self.outcome.duty_solo_by,
            "forced": self.outcome.forced,
            "bock": self.outcome.bock,
        }


@dataclass(frozen=True)
class Applied:
    """What a change did: its kind, the entry, and whether it was a repeat of one applied
    before (the same idempotency key)."""

    kind: str
    entry_id: str
    key: str
    duplicate: bool = False
    start: int = 0
    """The first row the change touched (0-based): the rows before it are as they were, so a
    page that has them needs only the rows from here on."""


@dataclass
class Sheet:
    """A list and its entries; see the module docstring."""

    settings: ListSettings
    entries: list[Entry] = field(default_factory=list)
    _keys: dict[str, Applied] = field(default_factory=dict, repr=False)
    limit: int = field(default=MAX_DEALS, repr=False)
    """Deals an add may bring the list to (a list stored before the cap replays with more)."""
    deleted: list[Row] = field(default_factory=list, repr=False)
    """The rows deleted from the list, as they were when deleted (the list shows them struck
    through, so a total that moved can be traced). Replaced, never changed in place."""
    _series: Series = field(init=False, repr=False)
    _rows: list[Row] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rows = []
        self._series, self._rows = self._build(self.entries)

    # ------------------------------------------------------------------ reading the list

    @property
    def rows(self) -> list[Row]:
        return list(self._rows)

    @property
    def series(self) -> Series:
        """The list as the core series keeps it (do not record into it: use ``apply``)."""
        return self._series

    @property
    def is_over(self) -> bool:
        return self._series.is_over

    def next_context(self) -> DealContext:
        """The next deal's dealer, sitting seat, Pflicht-Soli owed, Vorführung, deal type."""
        return self._series.context()

    def penalties(self) -> list[Number]:
        """Points off each seat for Pflicht-Soli not played, due when the list is over."""
        return self._series.penalties()

    def totals(self) -> list[Number]:
        """Each seat's total: the running total, and once the list is over the penalties."""
        if self.is_over:
            return self._series.final_totals()
        return list(self._series.totals)

    def duty_played(self) -> list[int] | None:
        """Pflicht-Soli each seat has played (``None``: the list keeps none)."""
        if not self.settings.duty_solos:
            return None
        played = [0] * self.settings.seats
        for row in self._rows:
            if row.outcome.duty_solo_by is not None:
                played[row.outcome.duty_solo_by] += 1
        return played

    def checks(self) -> dict[str, bool | None]:
        """The list checks: rows summing to zero and the even/odd rule, where they apply."""
        rules = self._series.rules
        return {
            "rows_sum_zero": self._series.row_sums_ok() if rules.zero_sum else None,
            "parity": self._series.parity_ok() if rules.parity_check else None,
        }

    def row(self, entry_id: str) -> Row:
        """The scored row of the deal ``entry_id``."""
        return self._rows[self._index(entry_id)]

    def entry(self, entry_id: str) -> Entry:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise SheetError(f"no deal {entry_id!r} on this list")

    def preview(self, summary: Mapping[str, Any], *, entry_id: str | None = None) -> Row:
        """The scored line ``summary`` would make as the next deal, or in place of the deal
        ``entry_id``, without saving anything."""
        if entry_id is None:
            entries = [*self.entries, Entry("preview", dict(summary))]
            _, rows = self._build(entries, start=len(self.entries))
            return rows[-1]
        entries = list(self.entries)
        index = self._index(entry_id)
        entries[index] = Entry(entry_id, dict(summary), entries[index].version)
        # The deals after it are scored too: a correction that breaks a later deal shows now.
        _, rows = self._build(entries, start=index)
        return rows[index]

    def fork(self) -> "Sheet":
        """A copy to apply a change to while this one is still read (a server scoring a change
        in a worker thread); they share the entries and rows, which never change in place."""
        twin = copy.copy(self)
        twin._keys = dict(self._keys)
        return twin

    def to_json(self, *, rows: bool = True, deleted: bool = False) -> dict[str, Any]:
        """The whole sheet for a screen or a tool: settings, rows, totals, what comes next
        (``rows=False``: all but the rows, which ``Row.json_text`` gives one by one;
        ``deleted``: the rows deleted by its changes too, which a list rebuilt from its
        entries alone does not know)."""
        series = self._series
        nxt: dict[str, Any] | None = None
        if not series.is_over:
            ctx = series.context()
            nxt = {
                "index": len(self._rows) + 1,
                "number": series.games_played + 1,
                "dealer": ctx.dealer,
                "sitting": ctx.sitting,
                "vorhand": _vorhand(ctx),
                "deal_type": ctx.deal_type,
                "forced": ctx.forced,
                "multiplier": series.multiplier(),
            }
        out = {
            "list": self.settings.to_json(),
            "rows": [r.to_json() for r in self._rows] if rows else None,
            "running_totals": list(series.totals),
            "penalties": self.penalties(),
            "totals": self.totals(),
            "duty_owed": list(series.owed) if self.settings.duty_solos else None,
            "duty_played": self.duty_played(),
            "games_played": series.games_played,
            "games_left": series.games_left,
            "total_games": series.rules.total_games,
            "is_over": series.is_over,
            "next": nxt,
            "checks": self.checks(),
        }
        if deleted:
            out["deleted"] = [_deleted(row) for row in self.deleted]
        if not rows:
            del out["rows"]
        return out

    # ------------------------------------------------------------------ changing the list

    def add(
        self,
        summary: Mapping[str, Any],
        *,
        entry_id: str | None = None,
        key: str | None = None,
        before: str | None = None,
    ) -> Row:
        """Enter a deal (at the end, or ``before`` a deal forgotten until now); its row."""
        change: dict[str, Any] = {"op": "add", "summary": dict(summary)}
        if entry_id is not None:
            change["entry"] = entry_id
        if key is not None:
            change["key"] = key
        if before is not None:
            change["before"] = before
        done = self.apply(change)
        return self._rows[self._index(done.entry_id)]

    def apply(self, change: Mapping[str, Any]) -> Applied:
        """Apply one change (``{"op": "add" | "correct" | "delete", ...}``); see the module
        docstring. Raises :class:`SheetError` (one line) and changes nothing when refused."""
        op, entry_id, key, summary, base, before = _read_change(change)
        seen = self._keys.get(key)
        if seen is not None:
            if seen.kind != op or (seen.entry_id != entry_id and op != "add"):
                raise SheetError(f"change key {key!r} was used for another change")
            return Applied(seen.kind, seen.entry_id, key, duplicate=True, start=len(self._rows))
        # Entries are never changed in place (a correction is a new Entry), so the new list may
        # share them: a refused change leaves ``self.entries`` as it was.
        entries = list(self.entries)
        if op == "add":
            assert summary is not None
            if len(entries) >= self.limit:
                raise SheetError(
                    f"a list holds at most {self.limit} deals: start a new list for the next ones"
                )
            entry_id = entry_id or uuid.uuid4().hex
            if any(e.id == entry_id for e in entries):
                raise SheetError(f"a deal {entry_id!r} is on this list already")
            at = len(entries) if before is None else self._index(before)
            entries.insert(at, Entry(entry_id, summary))
        else:
            assert entry_id is not None
            try:
                index = self._index(entry_id)
            except SheetError:
                raise SheetConflict(
                    f"that deal is no longer on the list (deleted on another phone?) ({entry_id})"
                ) from None
            current = entries[index]
            if base is not None and base != current.version:
                raise SheetConflict(
                    f"deal {index + 1} was changed on another phone since (now version "
                    f"{current.version}, yours was {base}): look at it again"
                )
            if op == "correct":
                assert summary is not None
                entries[index] = Entry(entry_id, summary, current.version + 1)
            else:
                del entries[index]
            at = index
        gone = self._rows[at] if op == "delete" else None
        series, rows = self._build(entries, start=at)
        self.entries, self._series, self._rows = entries, series, rows
        if gone is not None:
            self.deleted = [*self.deleted[-(KEPT_DELETED - 1) :], gone]
        done = Applied(op, entry_id, key, start=at)
        self._keys[key] = done
        return done

    # ------------------------------------------------------------------ building

    def _index(self, entry_id: str) -> int:
        for i, e in enumerate(self.entries):
            if e.id == entry_id:
                return i
        raise SheetError(f"no deal {entry_id!r} on this list")

    def _build(self, entries: Sequence[Entry], *, start: int = 0) -> tuple[Series, list[Row]]:
        """Play ``entries`` through the series; the first one that does not fit stops it with a
        line that names the deal. ``start``: the first ``start`` entries are this sheet's own,
        unchanged, so their rows are kept and only the deals from ``start`` on are scored (a
        deal entered at the end costs one scoring; a correction of deal k, the deals from k
        on, never the whole list's)."""
        settings = self.settings
        module = get_game(settings.game)
        start = min(start, len(self._rows))
        series, rows = self._series_at(start), self._rows[:start]
        # A later deal that finds the list as before (its dealer, Pflicht-Soli, round) keeps its
        # score: only its place and totals move, and it costs no scoring and few new objects.
        scored = {row.entry_id: row for row in self._rows[start:]}
        for index, entry in enumerate(entries[start:], start=start + 1):
            if index % YIELD_EVERY == 0:
                # A long scoring lets other threads run: a server's event loop waiting for the
                # interpreter would otherwise wait out the 5 ms switch interval at every step.
                time.sleep(0)
            if series.is_over:
                raise SheetError(f"deal {index}: the list is complete")
            ctx = series.context()
            before = scored.get(entry.id)
            if before is not None and before.source is entry and before.context == ctx:
                summary, score, outcome = before.summary, before.score, before.outcome
            else:
                try:
                    summary = self._complete(entry.summary, ctx)
                    if module.summary_outcome is not None:
                        score, outcome = module.summary_outcome(summary, ctx)
                    else:
                        score = module.score_summary(summary)
                        outcome = DealOutcome(settlement=tuple(score["settlement"]))
                except StichwerkError as exc:
                    raise SheetError(f"deal {index}: {exc}") from None
            recorded = series.record(outcome)
            rows.append(
                Row(
                    entry_id=entry.id,
                    version=entry.version,
                    index=index,
                    number=recorded.number,
                    dealer=recorded.dealer,
                    sitting=ctx.sitting,
                    deal_type=recorded.deal_type,
                    summary=summary,
                    score=score,
                    outcome=outcome,
                    multiplier=recorded.multiplier,
                    settlement=recorded.written,
                    totals=recorded.totals,
                    source=entry,
                    context=ctx,
                )
            )
        return series, rows

    def _series_at(self, start: int) -> Series:
        """A series as it stood after the first ``start`` rows, to record on: a copy of the
        list's own at its end, else the kept outcomes recorded anew (no deal is scored again:
        recording an outcome is a few additions)."""
        if start == len(self._rows) and hasattr(self, "_series"):
            return _fork(self._series)
        settings = self.settings
        owed = None if settings.duty_owed is None else list(settings.duty_owed)
        series = Series(settings.rules(), settings.names, settings.first_dealer, owed)
        for row in self._rows[:start]:
            series.record(row.outcome)
        return series

    def _complete(self, summary: Mapping[str, Any], ctx: DealContext) -> dict[str, Any]:
        """The summary with the list's game, profile, options, seats and the deal's dealer,
        which it may leave out; given ones must agree with the list."""
        s = self.settings
        out = dict(summary)
        dealt = s.seats - 1 if s.seats == 5 else s.seats
        expected: dict[str, Any] = {
            "game": s.game,
            "profile": s.profile,
            "options": dict(s.options),
            "players": dealt,
            "seats": s.seats,
            "dealer": ctx.dealer,
        }
        for key, value in expected.items():
            if key in out and out[key] != value and not (key == "options" and out[key] is None):
                raise RecordError(f"{key!r} is {out[key]!r}, but the list's is {value!r}")
        complete = {**expected, **{k: v for k, v in out.items() if k not in expected}}
        return complete


def _fork(series: Series) -> Series:
    """A copy of ``series`` that records on without touching the original (its rows are
    frozen; the lists that grow or change are copied)."""
    fork = copy.copy(series)
    fork.entries = list(series.entries)
    fork.totals = list(series.totals)
    fork.owed = list(series.owed)
    fork._bock = list(series._bock)
    return fork


def _deleted(row: Row) -> dict[str, Any]:
    """A deleted row for the list: where it stood, its game and what each seat wrote."""
    return {
        "id": row.entry_id,
        "version": row.version,
        "index": row.index,
        "number": row.number,
        "label": row.label,
        "summary": row.summary,
        "settlement": list(row.settlement),
    }


def _vorhand(ctx: DealContext) -> int:
    return ctx.vorhand


def _read_change(
    change: Mapping[str, Any],
) -> tuple[str, str | None, str, dict[str, Any] | None, int | None, str | None]:
    """A change's parts: op, entry id, key, summary, base version, the entry to insert before."""
    if not isinstance(change, Mapping):
        raise SheetError("a change must be an object")
    allowed = {"op", "entry", "key", "summary", "base", "before"}
    for k in change:
        if k not in allowed:
            raise SheetError(f"unknown key {k!r} in the change")
    op = change.get("op")
    if op not in CHANGE_KINDS:
        raise SheetError(f"'op' must be one of {', '.join(CHANGE_KINDS)}")
    entry_id = _ident(change.get("entry"), "entry")
    key = _ident(change.get("key"), "key") or uuid.uuid4().hex
    before = _ident(change.get("before"), "before")
    summary = change.get("summary")
    if op in ("add", "correct"):
        if not isinstance(summary, dict):
            raise SheetError(f"an {op} change needs the deal's 'summary' object")
    elif summary is not None:
        raise SheetError("a delete change has no 'summary'")
    if op != "add" and entry_id is None:
        raise SheetError(f"a {op} change names its 'entry'")
    if op != "add" and before is not None:
        raise SheetError("only an add change goes 'before' a deal")
    base = change.get("base")
    if base is not None and (isinstance(base, bool) or not isinstance(base, int) or base < 1):
        raise SheetError("'base' must be the version (1, 2 ...) the change was made against")
    return op, entry_id, key, summary, base, before


def _ident(value: object, key: str) -> str | None:
    """An id or key made by a client: up to 64 letters, digits, ``-`` and ``_``."""
    if value is None:
        return None
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= ID_LENGTH
        or not all(c.isascii() and (c.isalnum() or c in "-_") for c in value)
    ):
        raise SheetError(f"{key!r} must be 1 to {ID_LENGTH} letters, digits, '-' or '_'")
    return value
