"""The rules of a tournament day over its snapshot: what may change now, what comes next, and
what a correction leaves behind.

Every function takes a :class:`~stichwerk.tournament.snapshot.TournamentData` (the day as it
stands) and the director's cleaned input, and either says what the change is (the rows to
write are the storage's business) or raises one
:class:`~stichwerk.tournament.snapshot.TournamentError` line saying why not:

- registration: :func:`check_new_players`, :func:`check_remove`, :func:`check_rename`,
  :func:`check_withdraw`, :func:`check_reinstate`;
- rounds: :func:`next_step` (draw a Vorrunde round, seat the Endrunde, or finish, and what
  blocks it), :func:`plan_next` (the next round's seating), :func:`can_undraw` and
  :func:`check_undraw`, :func:`check_finish`;
- results: :func:`check_quick` (typed totals), :func:`check_set_mode`,
  :func:`check_may_go_online`, :func:`sheet_change_op`;
- standings: :func:`compute` (the standings, the ranking and the problems a correction left,
  :func:`downstream_problems`), :func:`ranking_rows` (a finished day's places for the lists)
  and :func:`ranking_follows` (when a change after the finish writes them anew);
- the log: :func:`draw_details`, :func:`log_about` (whom a change of results concerns and what
  changed).

A table's list rules (:class:`~stichwerk.core.series.SeriesRules`) come from the game; they are
passed in, so nothing here asks an engine.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import SeriesRules
from stichwerk.tournament.cleaning import clean_name
from stichwerk.tournament.draw import draw_round
from stichwerk.tournament.entry import check_totals
from stichwerk.tournament.lists import PastResult, results_of_ranking
from stichwerk.tournament.snapshot import (
    PlayerRow,
    RoundRow,
    TableRow,
    TournamentData,
    TournamentError,
)
from stichwerk.tournament.standings import (
    Result,
    Standing,
    duty_owed,
    final_ranking,
    seat_endrunde,
    vorrunde_standings,
)

RESULT_FIELDS = ("points", "games_won", "duty_solos")
"""The fields of a seat's result a correction may change (in the order the log tells them)."""

Action = Literal["draw", "endrunde", "finish"]


# ------------------------------------------------------------------------------ registration


def check_new_players(data: TournamentData, names: Sequence[object]) -> list[str]:
    """Players to register (a late arrival too) until the first round is drawn: their names
    cleaned, none twice, within the format's field."""
    if data.rounds:
        raise TournamentError(
            "round 1 is drawn: a late arrival joins only if the draw is undone "
            "(while no table has begun)"
        )
    cleaned = [clean_name(n) for n in names]
    taken = {p.name.casefold(): p.name for p in data.players}
    for n in cleaned:
        if n.casefold() in taken:
            raise StichwerkError(f"{n} is registered already (as {taken[n.casefold()]})")
        taken[n.casefold()] = n
    fmt = data.fmt
    if len(taken) > fmt.max_players:
        raise TournamentError(f"a {fmt.name} tournament seats at most {fmt.max_players} players")
    return cleaned


def check_remove(data: TournamentData, number: int) -> PlayerRow:
    """A registration taken back: only before the first draw."""
    player = data.player(number)
    if data.rounds:
        raise TournamentError(
            f"round 1 is drawn: {player.name} can withdraw, not be taken off the list"
        )
    return player


def check_rename(data: TournamentData, number: int, name: object) -> tuple[PlayerRow, str]:
    """A player's name corrected: the player and the new name (no one else's)."""
    player = data.player(number)
    new = clean_name(name)
    for p in data.players:
        if p.number != number and p.name.casefold() == new.casefold():
            raise StichwerkError(f"{new} is registered already (as {p.name})")
    return player, new


def check_withdraw(data: TournamentData, number: int) -> tuple[PlayerRow, int]:
    """A player leaves after the rounds drawn so far: the player and that count."""
    player = data.player(number)
    if data.status == "finished":
        raise TournamentError("the tournament is finished")
    if not data.rounds:
        raise TournamentError(f"no round is drawn yet: take {player.name} off the list instead")
    if player.withdrawn:
        raise TournamentError(f"{player.name} has withdrawn already")
    return player, len(data.rounds)


def check_reinstate(data: TournamentData, number: int) -> PlayerRow:
    """A withdrawal taken back, as long as no round has been drawn since."""
    player = data.player(number)
    if data.status == "finished":
        raise TournamentError("the tournament is finished")
    if not player.withdrawn:
        raise TournamentError(f"{player.name} has not withdrawn")
    if player.withdrawn_after != len(data.rounds):
        raise TournamentError(f"a round has been drawn since {player.name} withdrew: he stays out")
    return player


# ------------------------------------------------------------------------------ rounds


@dataclass(frozen=True)
class NextStep:
    """What the director can do next, and why it cannot be done yet (``blocked``)."""

    action: Action | None
    """``draw`` a Vorrunde round, seat the ``endrunde``, ``finish``; ``None``: finished."""
    round: int | None
    """The round drawn or seated (none for finishing)."""
    blocked: str | None

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "round": self.round, "blocked": self.blocked}


def next_step(data: TournamentData) -> NextStep:
    """What the director can do next: draw a Vorrunde round, seat the Endrunde, or finish;
    ``blocked`` says why it cannot be done yet."""
    fmt = data.fmt
    if data.status == "finished":
        return NextStep(None, None, None)
    vor = data.vorrunde
    blocked: str | None = None
    action: Action
    number: int | None
    if len(vor) < fmt.rounds:
        action, number = "draw", len(vor) + 1
        active = len(data.active)
        if vor and not vor[-1].complete:
            blocked = incomplete(vor[-1])
        elif not active:
            blocked = "register the players first"
        else:
            try:
                # The first round needs the format's field; a later one tables for those left.
                fmt.table_mix(active) if vor else fmt.check_players(active)
            except StichwerkError as exc:
                blocked = str(exc)
    elif fmt.final_round and data.endrunde is None:
        action, number = "endrunde", fmt.rounds + 1
        if not vor[-1].complete:
            blocked = incomplete(vor[-1])
    else:
        action, number = "finish", None
        open_rounds = [r for r in data.rounds if not r.complete]
        if open_rounds:
            blocked = incomplete(open_rounds[0])
    return NextStep(action, number, blocked)


def incomplete(r: RoundRow) -> str:
    """Why a round holds up the next step: the tables without results."""
    missing = r.missing()
    tables = ", ".join(str(n) for n in missing)
    if len(missing) == 1:
        return f"round {r.number} is not complete: table {tables} has no results yet"
    return f"round {r.number} is not complete: tables {tables} have no results yet"


@dataclass(frozen=True)
class PlannedRound:
    """The next round as drawn, before it is stored."""

    number: int
    final: bool
    tables: tuple[tuple[int, ...], ...]
    by_lot: tuple[tuple[int, ...], ...]
    """The Endrunde's groups tied across a table's edge, ordered by lot."""
    owed: tuple[tuple[int, ...], ...]
    """Each seat's Pflicht-Soli still owed when the table was drawn."""


def plan_next(data: TournamentData) -> PlannedRound:
    """The next round's seating: a Vorrunde round drawn against the earlier ones, or the
    Endrunde seated by the Vorrunde's standings (a draw may take a second: the storage plans
    outside its write transaction and stores the plan only if nothing changed meanwhile)."""
    fmt = data.fmt
    if data.status == "finished":
        raise TournamentError("the tournament is finished")
    step = next_step(data)
    if step.action == "finish":
        raise TournamentError("every round is drawn: finish the tournament")
    if step.blocked:
        raise TournamentError(step.blocked)
    results = data.results()
    if step.action == "draw":
        active = data.active
        if not data.vorrunde:
            fmt.check_players(len(active))
        earlier = [r.as_round() for r in data.vorrunde]
        drawn = draw_round(fmt, active, earlier, data.seed)
        owed = tuple(
            tuple(duty_owed(fmt, results, p) if fmt.duty_solos else 0 for p in table)
            for table in drawn.tables
        )
        return PlannedRound(drawn.number, False, drawn.tables, (), owed)
    seating = seat_endrunde(fmt, data.numbers, results, data.withdrawn, data.seed)
    tables = seating.round.tables
    return PlannedRound(
        seating.round.number, True, tables, seating.by_lot, tuple((0,) * len(t) for t in tables)
    )


def draw_details(data: TournamentData, plan: PlannedRound) -> dict[str, Any]:
    """The log's ``draw`` entry: the round and its tables by the players' names."""
    names = data.names
    return {
        "round": plan.number,
        "final": plan.final,
        "tables": [[names[p] for p in t] for t in plan.tables],
        "by_lot": [[names[p] for p in g] for g in plan.by_lot],
    }


def can_undraw(data: TournamentData) -> bool:
    """The last round may be drawn anew: nothing has come in from any of its tables."""
    return (
        data.status != "finished"
        and bool(data.rounds)
        and not any(t.started for t in data.rounds[-1].tables)
    )


def check_undraw(data: TournamentData) -> RoundRow:
    """The last round, if its draw may be taken back (none of its tables has begun)."""
    if not data.rounds:
        raise TournamentError("no round has been drawn")
    last = data.rounds[-1]
    if not can_undraw(data):
        if data.status == "finished":
            raise TournamentError("the tournament is finished")
        begun = [t.number for t in last.tables if t.started]
        raise TournamentError(
            f"{data.round_label(last.number)}: table {begun[0]} has begun; its draw stays"
        )
    return last


def check_finish(data: TournamentData) -> None:
    """Every round drawn, played and entered: the tournament may finish."""
    step = next_step(data)
    if data.status == "finished":
        raise TournamentError("the tournament is finished already")
    if step.action != "finish":
        what = "the Endrunde" if step.action == "endrunde" else f"round {step.round}"
        raise TournamentError(f"{what} is still to be drawn and played")
    if step.blocked:
        raise TournamentError(step.blocked)


# ------------------------------------------------------------------------------ results


def check_quick(
    data: TournamentData, table: TableRow, rules: SeriesRules, entries: object
) -> tuple[Result, ...]:
    """The director's typed totals for ``table`` (whose list rules are ``rules``), checked as
    a whole as far as those rules allow (:func:`stichwerk.tournament.entry.check_totals`):
    every problem at once, as :class:`~stichwerk.tournament.entry.EntryProblems`."""
    lines = check_totals(
        rules,
        [data.names[p] for p in table.seating],
        table.duty_owed,
        entries,
        most_winners=data.fmt.most_winners,
    )
    return tuple(
        Result(table.round, player, points, solos, won)
        for player, (points, solos, won) in zip(table.seating, lines, strict=True)
    )


def check_set_mode(data: TournamentData, table: TableRow, mode: str) -> None:
    """A table's results to come from its score sheet (``sheet``) or the director
    (``quick``): not what they come from already; a sheet only if the table has one."""
    if table.mode == mode:
        raise TournamentError(f"the table's results come from its {mode} already")
    if mode == "sheet" and table.list_id is None:
        raise TournamentError("the table has no score sheet")


def check_may_go_online(data: TournamentData, table: TableRow) -> None:
    """A table may be played online: the day not over, the table without results, not online
    already, nothing written on its score sheet."""
    if data.status == "finished":
        raise TournamentError("the tournament is finished")
    if table.results is not None:
        raise TournamentError(f"table {table.number} has its results already")
    if table.mode == "online" and table.web_table_id is not None:
        raise TournamentError(f"table {table.number} plays online already")
    if table.sheet_changes:
        raise TournamentError(
            f"table {table.number} has begun on its score sheet: it plays on there"
        )


def follows_sheet(table: TableRow) -> bool:
    """The table's results are its score sheet's (kept in step as the sheet changes)."""
    return table.mode == "sheet" and table.list_id is not None


def takes_online(table: TableRow, web_table_id: str) -> bool:
    """An online table's finished list counts only while the table plays at that web table
    (not after the director typed its totals or sent it elsewhere)."""
    return table.mode == "online" and table.web_table_id == web_table_id


def sheet_change_op(
    before: Sequence[Result] | None, after: Sequence[Result] | None
) -> Literal["sheet", "correction", "reopened"]:
    """How the log names a change a score sheet made: its first results, a correction of them,
    or a list reopened (results no more)."""
    if before is None:
        return "sheet"
    return "correction" if after else "reopened"


# ------------------------------------------------------------------------------ standings


@dataclass(frozen=True)
class Computed:
    """The standings and ranking as the results stand, and what a correction left behind."""

    standings: list[Standing] | None
    """The Vorrunde's standings (``None``: they cannot be computed, see ``problems``)."""
    ranking: list[Standing] | None
    """The final ranking (live until finished); ``None`` before there is one."""
    problems: list[str]


def compute(data: TournamentData) -> Computed:
    """The standings, the (live or final) ranking and the problems a correction left, from
    the results as they stand."""
    fmt = data.fmt
    results = data.results()
    problems: list[str] = []
    standings: list[Standing] | None = None
    ranking: list[Standing] | None = None
    try:
        standings = vorrunde_standings(fmt, data.numbers, results, data.withdrawn)
    except StichwerkError as exc:
        problems.append(str(exc))
    final = data.endrunde
    if standings is not None and (final is not None or (not fmt.final_round and data.rounds)):
        try:
            endrunde = final.as_round() if final is not None else None
            ranking = final_ranking(fmt, data.numbers, results, endrunde, data.withdrawn)
        except StichwerkError as exc:
            problems.append(str(exc))
    problems += downstream_problems(data, results)
    return Computed(standings, ranking, problems)


def downstream_problems(data: TournamentData, results: Sequence[Result]) -> list[str]:
    """What a correction of an earlier round has left behind: a later table drawn with other
    Pflicht-Soli owed than the corrected results give, an Endrunde seated otherwise."""
    fmt = data.fmt
    names = data.names
    out = []
    for r in data.vorrunde[1:]:
        earlier = [x for x in results if x.round < r.number]
        for t in r.tables:
            for player, owed in zip(t.seating, t.duty_owed, strict=True):
                now = duty_owed(fmt, earlier, player) if fmt.duty_solos else 0
                if now != owed:
                    out.append(
                        f"round {r.number}, table {t.number} was drawn with {names[player]} "
                        f"owing {owed} Pflicht-Solo; after a correction it is {now}: "
                        "enter that table's totals by hand"
                    )
    final = data.endrunde
    vor = data.vorrunde
    if final is not None and vor and all(r.complete for r in vor):
        try:
            again = seat_endrunde(fmt, data.numbers, results, data.withdrawn, data.seed).round
        except StichwerkError:
            return out
        if [set(t) for t in again.tables] != [set(t.seating) for t in final.tables]:
            out.append(
                "after a correction the Vorrunde standings seat the Endrunde differently"
                + (
                    ": undo the Endrunde's draw and seat it again"
                    if not any(t.started for t in final.tables)
                    else " (its tables have begun; it stays as drawn)"
                )
            )
    return out


def ranking_follows(data: TournamentData) -> bool:
    """A change of a finished day (a correction, a name, the series) writes its ranking rows
    anew, while every round has its results (a list reopened leaves the last rows standing)."""
    return data.status == "finished" and all(r.complete for r in data.rounds)


def ranking_rows(data: TournamentData) -> list[PastResult]:
    """The finished day's places as its rows of the series' ranking lists."""
    final = data.endrunde
    ranking = final_ranking(
        data.fmt,
        data.numbers,
        data.results(),
        final.as_round() if final else None,
        data.withdrawn,
    )
    return results_of_ranking(ranking, data.names, data.held_on, data.name)


# ------------------------------------------------------------------------------ the log


def log_about(details: Mapping[str, Any], data: TournamentData | None) -> dict[str, Any] | None:
    """Whom a logged change of a table's results concerns and what changed: ``{"round",
    "table", "players": [{"number", "name"}] (in seat order), "changes": [{"seat", "number",
    "name", "field", "from", "to"}]}`` (a field of ``RESULT_FIELDS`` that differs from the
    results before; none for a first entry). ``None`` for a change of no table. A table's
    seating never changes once it has results (a draw is taken back only before any)."""
    round_number, table_number = details.get("round"), details.get("table")
    if "results" not in details or not isinstance(round_number, int) or data is None:
        return None
    if not isinstance(table_number, int):
        return None
    try:
        seating = data.table(round_number, table_number).seating
    except StichwerkError:
        return None
    names = data.names
    players = [{"number": p, "name": names.get(p, f"#{p}")} for p in seating]
    after, before = details.get("results"), details.get("before")
    changes: list[dict[str, Any]] = []
    if isinstance(after, list) and isinstance(before, list) and len(after) == len(before):
        for seat, (new, old) in enumerate(zip(after, before, strict=True)):
            if seat >= len(players) or not isinstance(new, dict) or not isinstance(old, dict):
                continue
            for name in RESULT_FIELDS:
                if new.get(name) != old.get(name):
                    who = players[seat]
                    changes.append(
                        {
                            "seat": seat,
                            **who,
                            "field": name,
                            "from": old.get(name),
                            "to": new.get(name),
                        }
                    )
    return {"round": round_number, "table": table_number, "players": players, "changes": changes}
