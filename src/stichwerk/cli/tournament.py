"""``stichwerk tournament ...``: tournaments from the command line.

``plan`` draws a Vorrunde without touching any database (for tools, tests and a director who
wants a plan on paper). The other commands work on a tournament kept in the database the web
app uses (``--db``, default the app's SQLite file), through the same store and the same checks
as the director's web page: ``new``, ``add``, ``withdraw``, ``draw``, ``enter``, ``standings``,
``finish``, ``show``, ``log``, ``rankings``, ``history-import``, ``history-export``, ``export``,
``import`` and ``series-secret``. Every change is logged with the source ``cli`` and copied to
the backups. The command line is the operator's: it needs no series' owner secret, and
``series-secret`` gives a series a new one (for a series made before there were secrets, or a
secret lost).
"""

import datetime as dt
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from sqlalchemy.exc import SQLAlchemyError

from stichwerk.cli.common import fail, print_json, read_text
from stichwerk.core.errors import StichwerkError
from stichwerk.server.tournament_json import state_json
from stichwerk.storage.db import Database, database_url
from stichwerk.storage.tournaments import TournamentStore
from stichwerk.tournament.bounds import lower_bound
from stichwerk.tournament.cleaning import parse_name_list
from stichwerk.tournament.draw import Plan, draw_vorrunde, seats_at
from stichwerk.tournament.formats import TournamentFormat, get_format
from stichwerk.tournament.lists import write_list_csv, write_results_csv
from stichwerk.tournament.snapshot import RoundRow, TournamentData, UnknownTournament

tournament_app = typer.Typer(
    rich_markup_mode=None,
    help="Tournaments: the draw (Spielplan), standings and ranking lists.",
    no_args_is_help=True,
)


@tournament_app.command("plan")
def plan_command(
    format_name: Annotated[
        str, typer.Option("--format", help="Tournament format: wielandstrasse or swm.")
    ] = "wielandstrasse",
    players: Annotated[int, typer.Option(help="Number of players (8 to 200).")] = 0,
    seed: Annotated[str, typer.Option(help="Seed of the draw (the same seed, the same plan).")] = (
        "0"
    ),
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print {"rounds": [[[p, ...], ...], ...]}, players numbered 0..N-1.',
        ),
    ] = False,
) -> None:
    """Draw the Vorrunde's seating plan for a number of players, without a database."""
    if players <= 0:
        fail("say how many players to seat: --players N")
    try:
        fmt = get_format(format_name)
        plan = draw_vorrunde(fmt, players, seed)
    except StichwerkError as exc:
        fail(str(exc))
    if json_out:
        print_json(plan.to_json())
        return
    show_plan(Console(highlight=False), fmt, plan, players, seed)


def show_plan(console: Console, fmt: TournamentFormat, plan: Plan, players: int, seed: str) -> None:
    """The plan by table and by player, numbered 1..N as on a registration list."""
    larger = tuple(s for s in fmt.table_sizes[1:])
    stage = "Vorrunde of " if fmt.final_round else ""
    console.print(
        f"[bold]{fmt.name}[/]: {stage}{len(plan.rounds)} rounds for {players} players (seed {seed})"
    )
    for r in plan.rounds:
        table = Table(title=f"Round {r.number}", title_justify="left")
        table.add_column("table", justify="right")
        table.add_column("games", justify="right")
        table.add_column("seats, the first dealing first")
        for t, seats in enumerate(r.tables, start=1):
            games = fmt.games_at(len(seats))
            note = " (the dealer sits out)" if fmt.sitting_dealer(len(seats)) else ""
            table.add_row(str(t), str(games), "  ".join(str(p + 1) for p in seats) + note)
        console.print(table)
    by_player = Table(title="By player", title_justify="left")
    by_player.add_column("player", justify="right")
    for r in plan.rounds:
        by_player.add_column(f"round {r.number}", justify="right")
    tables = [
        {p: t for t, seats in enumerate(r.tables, start=1) for p in seats} for r in plan.rounds
    ]
    sizes = [{p: len(seats) for seats in r.tables for p in seats} for r in plan.rounds]
    for p in range(players):
        cells = [
            f"{tables[i][p]}{'*' if sizes[i][p] in larger else ''}" for i in range(len(plan.rounds))
        ]
        by_player.add_row(str(p + 1), *cells)
    console.print(by_player)
    mix = fmt.table_mix(players)
    bound = lower_bound([mix] * fmt.rounds)
    console.print(
        f"Repeated pairs: {plan.repeats()} (no draw can have fewer than {bound})."
        + (f" * a {'/'.join(map(str, larger))}-table." if larger else "")
    )
    if larger and any(s in larger for s in mix):
        at_larger = seats_at(plan.rounds, larger)
        counts = [at_larger.get(p, 0) for p in range(players)]
        console.print(
            f"Seats at {'/'.join(map(str, larger))}-tables per player: "
            f"{min(counts)} to {max(counts)}."
        )
    console.print("Players are numbered 1 to N in the order of registration.")


# ------------------------------------------------------------------------------ on a database

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database URL (default: STICHWERK_DATABASE_URL, else sqlite:///var/stichwerk.db, "
        "the web app's file under `make run`).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for tools.")]


@contextmanager
def _store(db_url: str | None) -> Iterator[TournamentStore]:
    """The tournament store on the database (migrated first, as the web app does)."""
    try:
        db = Database(db_url or database_url())
        db.migrate()
    except (SQLAlchemyError, OSError, ValueError) as exc:
        fail(f"cannot open the database: {str(exc).splitlines()[0]}")
    try:
        yield TournamentStore(db)
    except StichwerkError as exc:
        fail(str(exc))
    except SQLAlchemyError as exc:
        fail(f"the database refused: {str(exc).splitlines()[0]}")
    finally:
        db.dispose()


TID_HELP = (
    "The tournament: its id (or a unique start of it, 4 characters or more), the director's "
    "or the public link, or the link's token."
)


def _resolve(store: TournamentStore, which: str) -> str:
    """The id of the tournament ``which`` names: an id, a unique prefix of one, a link
    (``http://.../tournaments/TOKEN``) or its token, as the web page and ``list`` show them.

    The command line is the operator's (it opens the database itself), so a public link
    names a tournament as well as the director's."""
    text = which.strip()
    if "/" in text:
        text = text.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    if not text:
        raise UnknownTournament(f"no tournament {which!r}")
    if store.get(text) is not None:
        return text
    found = store.by_token(text)
    if found is not None:
        return found[0].id
    if len(text) >= 4:
        matches = [t.id for t in store.tournaments(limit=100_000) if t.id.startswith(text)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise StichwerkError(
                f"{which!r} starts {len(matches)} tournaments' ids: give more of the id"
            )
    raise UnknownTournament(f"no tournament {which!r}")


def _player(data: TournamentData, which: str) -> int:
    """A player by the number shown (1, 2 ...) or by name."""
    text = " ".join(which.split())
    if text.isdecimal():
        number = int(text) - 1
        data.player(number)
        return number
    for p in data.players:
        if p.name.casefold() == text.casefold():
            return p.number
    raise StichwerkError(f"no player {which!r} in this tournament (give the number or the name)")


def _numbers(text: str | None, what: str, count: int) -> list[int]:
    """``10,-5,0,...``: one whole number per seat."""
    if text is None:
        return [0] * count
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        fail(f"--{what}: write one whole number per player, separated by commas")
    if len(values) != count:
        fail(f"--{what}: the table seats {count} players, not {len(values)}")
    return values


@tournament_app.command("new")
def new_command(
    name: Annotated[str, typer.Option(help="The tournament's name.")] = "",
    series: Annotated[
        str, typer.Option(help="The club or series whose ranking lists it joins.")
    ] = "",
    format_name: Annotated[str, typer.Option("--format", help="wielandstrasse or swm.")] = (
        "wielandstrasse"
    ),
    date: Annotated[str, typer.Option(help="2025-03-08 or 08.03.2025 (default: today).")] = "",
    place: Annotated[str, typer.Option(help="Where it is held.")] = "",
    seed: Annotated[str | None, typer.Option(help="Seed of every draw (default: random).")] = None,
    db: DbOption = None,
) -> None:
    """Create a tournament; prints its id and links."""
    if not name:
        fail("name the tournament: --name NAME")
    if not series:
        fail("name the club or series whose ranking lists it joins: --series NAME")
    with _store(db) as store:
        data = store.create(
            name=name,
            format_name=format_name,
            held_on=date or dt.date.today().isoformat(),
            place=place,
            series=series,
            seed=seed,
            source="cli",
        )
        typer.echo(f"tournament {data.id}: {data.name}, {data.held_on.isoformat()}")
        typer.echo(f"director: /tournaments/{data.director_token}")
        typer.echo(f"public:   /tournaments/{data.public_token}")


@tournament_app.command("list")
def list_command(db: DbOption = None, json_out: JsonOption = False) -> None:
    """The tournaments in the database, the latest first."""
    with _store(db) as store:
        rows = store.tournaments()
    if json_out:
        print_json(
            [
                {
                    "id": r.id,
                    "name": r.name,
                    "date": r.held_on.isoformat(),
                    "place": r.place,
                    "series": r.series,
                    "format": r.format_name,
                    "status": r.status,
                    "players": r.players,
                }
                for r in rows
            ]
        )
        return
    table = Table(title="Tournaments", title_justify="left")
    # The id is what the other commands take: never cut, whatever the terminal's width.
    table.add_column("id", no_wrap=True, min_width=12)
    for column in ("date", "name", "series", "format", "players", "status"):
        table.add_column(column)
    for r in rows:
        table.add_row(
            r.id, r.held_on.isoformat(), r.name, r.series, r.format_name, str(r.players), r.status
        )
    Console(highlight=False).print(table)


@tournament_app.command("add")
def add_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    names: Annotated[list[str] | None, typer.Argument(help="Players' names.")] = None,
    file: Annotated[
        str | None, typer.Option(help="A list of names, one a line (- for standard input).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Register players (before the first draw)."""
    wanted = list(names or [])
    if file is not None:
        wanted += parse_name_list(read_text(file))
    if not wanted:
        fail("name the players, or give --file with one name a line")
    with _store(db) as store:
        tid = _resolve(store, tid)
        data = store.add_players(tid, wanted, source="cli")
        typer.echo(f"{len(wanted)} registered; {len(data.players)} players in all")


@tournament_app.command("withdraw")
def withdraw_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    player: Annotated[str, typer.Argument(help="The player's number (1, 2 ...) or name.")],
    undo: Annotated[bool, typer.Option("--undo", help="Take the withdrawal back.")] = False,
    db: DbOption = None,
) -> None:
    """A player leaves: points kept, not drawn again, ranked after everyone who finished."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        number = _player(store.need(tid), player)
        if undo:
            data = store.reinstate(tid, number, source="cli")
        else:
            data = store.withdraw(tid, number, source="cli")
        name = data.player(number).name
        typer.echo(f"{name} {'is back' if undo else 'has withdrawn'}")


@tournament_app.command("draw")
def draw_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    undo: Annotated[
        bool, typer.Option("--undo", help="Take back the last draw (while no table has begun).")
    ] = False,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Draw the next round (or seat the Endrunde) and print the plan with each table's
    score-sheet link."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        if undo:
            data = store.undraw(tid, source="cli")
            typer.echo(f"the last draw is taken back; {len(data.rounds)} round(s) drawn")
            return
        data = store.draw(tid, source="cli")
    r = data.rounds[-1]
    if json_out:
        print_json(state_json(data, director=True)["rounds"][-1])
        return
    _print_round(Console(highlight=False), data, r)


def _print_round(console: Console, data: TournamentData, r: RoundRow) -> None:
    fmt = data.fmt
    names = data.names
    table = Table(title=f"{data.name}: {data.round_label(r.number)}", title_justify="left")
    table.add_column("table", justify="right")
    table.add_column("games", justify="right")
    table.add_column("seats, the first dealing first")
    table.add_column("score sheet")
    for t in r.tables:
        note = " (the dealer sits out)" if fmt.sitting_dealer(t.size) else ""
        seats = ", ".join(names[p] for p in t.seating) + note
        link = f"/s/{t.scorer_token}" if t.scorer_token else ""
        table.add_row(str(t.number), str(fmt.games_at(t.size)), seats, link)
    console.print(table)
    for group in r.by_lot:
        console.print(
            "Tied on every tie-break, seated by lot: " + ", ".join(names[p] for p in group)
        )


@tournament_app.command("enter")
def enter_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The round (1, 2 ...).")],
    table_number: Annotated[int, typer.Argument(metavar="TABLE", help="The table (1, 2 ...).")],
    points: Annotated[
        str | None, typer.Option(help="Each player's total in seating order: 10,0,25,5.")
    ] = None,
    solos: Annotated[
        str | None, typer.Option(help="Pflicht-Soli each played here: 1,0,0,1 (default none).")
    ] = None,
    won: Annotated[str | None, typer.Option(help="Games each won: 3,2,4,1 (default 0).")] = None,
    db: DbOption = None,
) -> None:
    """Type in a table's final totals (for a table that scored on paper)."""
    if points is None:
        fail("give each player's total in seating order: --points 10,0,25,5")
    with _store(db) as store:
        tid = _resolve(store, tid)
        data = store.need(tid)
        table = data.table(round_number, table_number)
        values = zip(
            _numbers(points, "points", table.size),
            _numbers(solos, "solos", table.size),
            _numbers(won, "won", table.size),
            strict=True,
        )
        entries = [{"points": p, "duty_solos": s, "games_won": w} for p, s, w in values]
        data = store.enter(tid, round_number, table_number, entries, source="cli")
        names = ", ".join(
            f"{data.names[p]} {e['points']}" for p, e in zip(table.seating, entries, strict=True)
        )
        typer.echo(f"{data.round_label(round_number)}, table {table_number}: {names}")


def _standings_table(title: str, rows: list[dict[str, Any]], final: bool) -> Table:
    """The web page's columns: the Vorrunde as points, penalty and their total; the ranking
    of a format with an Endrunde as Endrunde, Vorrunde and their sum."""
    table = Table(title=title, title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    if final:
        columns = ["Endrunde", "Vorrunde", "total", "games won", "ranking points"]
    else:
        columns = ["Vorrunde points", "penalty", "total", "games won", "rounds"]
    for column in columns:
        table.add_column(column, justify="right")
    for row in rows:
        place = f"{row['place']}{'=' if row['shared'] else ''}"
        name = row["name"] + (" (withdrawn)" if row["withdrawn"] else "")
        if final:
            cells = [
                _num(row["final"]),
                _num(row["preliminary_total"]),
                _num(row["score"]),
                str(row["games_won"]),
                _num(row["ranking_points"]),
            ]
        else:
            cells = [
                _num(row["preliminary"]),
                _num(row["penalty"]) if row["penalty"] else "",
                _num(row["preliminary_total"]),
                str(row["games_won"]),
                str(row["rounds"]),
            ]
        table.add_row(place, name, *cells)
    return table


def _num(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


@tournament_app.command("standings")
def standings_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """The Vorrunde standings and the (live or final) ranking, the tables' score sheets read
    first."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        data = store.sync_sheets(tid)
        state = state_json(data, director=False)
    if json_out:
        print_json(
            {k: state[k] for k in ("tournament", "next", "standings", "ranking", "problems")}
        )
        return
    console = Console(highlight=False)
    fmt = data.fmt
    if state["standings"] is not None:
        title = "Vorrunde" if fmt.final_round else "Standings"
        console.print(_standings_table(f"{data.name}: {title}", state["standings"], False))
    if state["ranking"] is not None and fmt.final_round:
        console.print(_standings_table(f"{data.name}: ranking", state["ranking"], True))
    step = state["next"]
    if step["action"]:
        console.print(
            f"Next: {step['action']}"
            + (f" (not yet: {step['blocked']})" if step["blocked"] else "")
        )
    for problem in state["problems"]:
        console.print(f"[red]Problem:[/] {problem}")


@tournament_app.command("finish")
def finish_command(tid: Annotated[str, typer.Argument(help=TID_HELP)], db: DbOption = None) -> None:
    """Close the tournament: its final ranking joins the series' ranking lists."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        store.sync_sheets(tid)
        data = store.finish(tid, source="cli")
        state = state_json(data, director=False)
    Console(highlight=False).print(
        _standings_table(f"{data.name}: final ranking", state["ranking"] or [], True)
    )


@tournament_app.command("show")
def show_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    db: DbOption = None,
) -> None:
    """Everything about a tournament as JSON (the director's view)."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        data = store.sync_sheets(tid)
        print_json(state_json(data, director=True))


@tournament_app.command("log")
def log_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Every change of the tournament, who made it and when."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        store.need(tid)
        rows = store.log(tid)
    if json_out:
        print_json(rows)
        return
    for row in rows:
        details = json.dumps(row["data"], ensure_ascii=False)
        typer.echo(f"{row['seq']:>4} {row['at'][:19]} {row['source']:<8} {row['op']:<14} {details}")


@tournament_app.command("rankings")
def rankings_command(
    series: Annotated[str, typer.Option(help="The club or series.")] = "",
    five: Annotated[bool, typer.Option("--five", help="The five-year list.")] = False,
    years: Annotated[int, typer.Option(help="Years of the five-year list.")] = 5,
    latest: Annotated[
        int | None, typer.Option(help="The list's last year (default: the latest tournament's).")
    ] = None,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print the list as CSV.")] = False,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """A series' ranking list: the all-time list (Ewige Rangliste) or the five-year list."""
    with _store(db) as store:
        if not series:
            known = [s["series"] for s in store.all_series()]
            fail(
                "name the series: --series NAME"
                + (f" (known: {', '.join(known)})" if known else "")
            )
        entries, head = store.ranking_list(
            series, "five" if five else "all", years=years, latest=latest
        )
    if csv_out:
        typer.echo(write_list_csv(entries), nl=False)
        return
    if json_out:
        print_json({**head, "entries": [e.to_json() for e in entries]})
        return
    if five and head["first_year"] is not None:
        title = f"{series}: {head['first_year']} to {head['last_year']}"
    else:
        title = f"{series}: Ewige Rangliste"
    table = Table(title=f"{title} ({head['tournaments']} tournaments)", title_justify="left")
    for column in ("place", "player", "points", "tournaments", "wins"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for e in entries:
        table.add_row(
            f"{e.place}{'=' if e.shared else ''}",
            e.player,
            _num(e.points),
            str(e.tournaments),
            str(e.wins),
        )
    Console(highlight=False).print(table)


@tournament_app.command("history-import")
def history_import_command(
    file: Annotated[
        str, typer.Argument(help="CSV: date, player, place, participants[, tournament].")
    ],
    series: Annotated[str, typer.Option(help="The club or series.")] = "",
    db: DbOption = None,
) -> None:
    """Bring a club's past tournaments into a series' ranking lists."""
    if not series:
        fail("name the series the history belongs to: --series NAME")
    text = read_text(file)
    with _store(db) as store:
        done = store.import_history(series, text, source="cli")
    typer.echo(
        f"{done['rows']} rows of {done['tournaments']} tournaments added to {done['series']}"
    )


@tournament_app.command("series-secret")
def series_secret_command(
    series: Annotated[str, typer.Option(help="The club or series.")] = "",
    db: DbOption = None,
) -> None:
    """A new owner secret for a series (shown once; the old one stops working)."""
    if not series:
        fail("name the series: --series NAME")
    with _store(db) as store:
        secret = store.set_series_secret(series, guard=False)
    typer.echo(f"the secret of {series}: {secret}")
    typer.echo("adding a tournament, a history or a backup to it on the web needs it")


@tournament_app.command("history-export")
def history_export_command(
    series: Annotated[str, typer.Option(help="The club or series.")] = "",
    db: DbOption = None,
) -> None:
    """A series' whole history as CSV (the columns history-import reads)."""
    if not series:
        fail("name the series: --series NAME")
    with _store(db) as store:
        typer.echo(write_results_csv(store.history(series)), nl=False)


@tournament_app.command("export")
def export_command(
    tid: Annotated[str, typer.Argument(help=TID_HELP)],
    out: Annotated[
        str | None, typer.Option(help="Write to this file (default: standard output).")
    ] = None,
    db: DbOption = None,
) -> None:
    """The whole tournament as one backup file (JSON), for a second laptop."""
    with _store(db) as store:
        tid = _resolve(store, tid)
        text = json.dumps(store.export(tid), ensure_ascii=False, indent=1)
    if out is None:
        typer.echo(text)
        return
    try:
        Path(out).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror}")
    typer.echo(f"written to {out}")


@tournament_app.command("import")
def import_command(
    file: Annotated[str, typer.Argument(help="A backup file (JSON), or - for standard input.")],
    replace_existing: Annotated[
        bool, typer.Option("--replace", help="Put the backup in place of the tournament here.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Take a tournament over from a backup file (a second laptop)."""
    text = read_text(file)
    try:
        backup = json.loads(text)
    except ValueError:
        fail(f"{file} is not JSON")
    with _store(db) as store:
        data = store.import_backup(backup, replace_existing=replace_existing, source="import")
    typer.echo(
        f"tournament {data.id}: {data.name}, {len(data.players)} players, "
        f"{len(data.rounds)} round(s)"
    )
    typer.echo(f"director: /tournaments/{data.director_token}")
