"""The operator's command for online tables: list the running ones, stop one for good.

``python -m stichwerk.server.tables list [--bots-only] [--database URL]`` lists the running
tables (newest first) with their creator and seats; ``python -m stichwerk.server.tables stop ID
[--database URL]`` stops a table: its status becomes ``stopped`` in the database, a running
server notices within a few seconds (its hub looks, ``server/hub.py``) and the table's bots stop,
and no restart brings it back. What was played stays (deals, replays, ratings).
"""

import argparse
import sys

from stichwerk.core.errors import one_line
from stichwerk.storage.db import Database
from stichwerk.storage.repo import RUNNING, Repo, TableInfo

PROG = "python -m stichwerk.server.tables"


def describe(table: TableInfo, creator: str) -> str:
    """One line for a table: id, game, status, creator, seats."""
    seats = ", ".join(
        (s.username or "free") + (" (bot account)" if s.bot_account else "")
        if s.kind == "human"
        else f"bot {s.bot}"
        for s in table.seat_list
    )
    alone = " no person" if table.unattended else ""
    return (
        f"{table.id}  {table.game}/{table.profile}  {table.status}{alone}  "
        f"{table.series_length} deals  by {one_line(creator)}  [{one_line(seats)}]"
    )


def main(argv: list[str] | None = None) -> None:
    """List running tables or stop one."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list", help="the running tables, newest first")
    listing.add_argument("--bots-only", action="store_true", help="only tables without a person")
    listing.add_argument("--limit", type=int, default=200, help="at most this many (200)")
    stop = sub.add_parser("stop", help="stop a table for good")
    stop.add_argument("table", help="the table's id (as in its address /t/ID)")
    for command in (listing, stop):
        command.add_argument("--database", help="database URL (default: STICHWERK_DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        db = Database(args.database)
        db.migrate()
        repo = Repo(db)
        if args.command == "list":
            tables = repo.tables(status=RUNNING, limit=max(1, args.limit))
            names: dict[int, str] = {}
            for table in tables:
                if args.bots_only and not table.unattended:
                    continue
                if table.created_by not in names:
                    user = repo.user(table.created_by)
                    names[table.created_by] = "?" if user is None else user.username
                print(describe(table, names[table.created_by]))
        else:
            table_id = args.table.strip().rsplit("/", 1)[-1]
            status = repo.stop_table(table_id)
            if status is None:
                print(f"{PROG}: no table {table_id!r}", file=sys.stderr)
                raise SystemExit(1)
            if status != "stopped":
                print(f"{PROG}: table {table_id} is {status}, not running", file=sys.stderr)
                raise SystemExit(1)
            print(f"table {table_id} stopped (a running server stops its bots within seconds)")
        db.dispose()
    except SystemExit:
        raise
    except Exception as exc:
        print(f"{PROG}: {one_line(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
