"""Tournaments in the database, on SQLite and PostgreSQL: the migration (up and down), a whole
tournament kept by the store with a withdrawal, the append-only log, a table's results taken
from its score sheet (and taken back when a deal is deleted), a correction after the finish
rewriting the ranking rows, the club's history, and a backup put in place again."""

import datetime as dt
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stichwerk.core.errors import StichwerkError
from stichwerk.server.tournament_json import state_json
from stichwerk.sheet.log import replay
from stichwerk.storage.db import MIGRATIONS, Database
from stichwerk.storage.models import TournamentChange
from stichwerk.storage.sheets import NewChange, SheetRepo
from stichwerk.storage.tournaments import TournamentStore
from stichwerk.tournament import table_results
from stichwerk.tournament.snapshot import TournamentError
from tests.server.tournament_helpers import NAMES, doko_deals, play_round

TABLES = {
    "person",
    "tournament",
    "tournament_player",
    "tournament_round",
    "tournament_table",
    "tournament_change",
    "ranking_row",
}


def _store(url: str, tmp_path: Path) -> TournamentStore:
    db = Database(url)
    db.migrate()
    return TournamentStore(db, backup_dir=tmp_path / "backups")


def test_the_migration_goes_up_and_down(any_url: str) -> None:
    db = Database(any_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        db.migrate()
        inspector = inspect(db.read)
        assert set(inspector.get_table_names()) >= TABLES
        assert "list_rules" in {c["name"] for c in inspector.get_columns("game_table")}
        uniques = inspector.get_unique_constraints("tournament_change")
        assert {"tournament_id", "seq"} in [set(u["column_names"]) for u in uniques]
        with db.write.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0005")
        inspector = inspect(db.read)
        assert not TABLES & set(inspector.get_table_names())
        assert "list_rules" not in {c["name"] for c in inspector.get_columns("game_table")}
        db.migrate()
        assert set(inspect(db.read).get_table_names()) >= TABLES
    finally:
        db.dispose()


def test_a_whole_tournament_with_a_withdrawal(any_url: str, tmp_path: Path) -> None:
    store = _store(any_url, tmp_path)
    try:
        data = store.create(
            name="Frühjahr",
            format_name="wielandstrasse",
            held_on="08.03.2025",
            place="Hirschen",
            series="Club",
            seed="s1",
        )
        tid = data.id
        data = store.add_players(tid, NAMES[:9])
        with pytest.raises(StichwerkError, match="registered already"):
            store.add_players(tid, ["anna"])
        data = store.draw(tid)
        assert [t.size for t in data.rounds[0].tables] == [4, 5]
        with pytest.raises(TournamentError, match="late arrival"):
            store.add_players(tid, ["Zoe"])
        with pytest.raises(TournamentError, match="not complete: tables 1, 2"):
            store.draw(tid)
        data = play_round(store, tid, "a")
        # Ida leaves after round 1: 8 players are two 4-tables.
        ida = NAMES.index("Ida")
        data = store.withdraw(tid, ida)
        with pytest.raises(TournamentError, match="withdrawn already"):
            store.withdraw(tid, ida)
        data = store.draw(tid)
        assert [t.size for t in data.rounds[1].tables] == [4, 4]
        assert ida not in data.rounds[1].as_round().players()
        with pytest.raises(TournamentError, match="a round has been drawn since"):
            store.reinstate(tid, ida)
        data = play_round(store, tid, "b")
        data = store.draw(tid)
        data = play_round(store, tid, "c")
        with pytest.raises(TournamentError, match="Endrunde is still to be drawn"):
            store.finish(tid)
        data = store.draw(tid)
        final = data.endrunde
        assert final is not None and [t.size for t in final.tables] == [4, 4]
        data = play_round(store, tid, "d")
        data = store.finish(tid)
        state = state_json(data, director=False)
        ranking = state["ranking"]
        assert [r["place"] for r in ranking if not r["shared"]] == sorted(
            r["place"] for r in ranking if not r["shared"]
        )
        assert ranking[-1]["name"] == "Ida" and ranking[-1]["withdrawn"]
        assert ranking[-1]["ranking_points"] == 1  # N − p + 1 with N = 9 (she counts)
        assert {r["group"] for r in ranking[:4]} == {"title"}
        lists = store.ranking("Club")
        assert lists["tournaments"] == 1 and len(lists["entries"]) == 9
        assert store.ranking("Club", "five")["first_year"] == 2021
        ops = [c["op"] for c in store.log(tid)]
        assert ops[:3] == ["create", "add_players", "draw"]
        assert ops.count("draw") == 4 and ops.count("enter") == 8 and ops[-1] == "finish"
        assert [c["seq"] for c in store.log(tid)] == list(range(1, len(ops) + 1))
        # The automatic backups: one file per change, the latest beside them.
        folder = next((tmp_path / "backups").iterdir())
        assert (folder / "latest.json").exists() and len(list(folder.glob("0*.json"))) == len(ops)
        # The log takes each position once.
        with Session(store.db.write) as session, pytest.raises(IntegrityError), session.begin():
            session.add(TournamentChange(tournament_id=tid, seq=1, op="x", data={}, source="cli"))
    finally:
        store.db.dispose()


def test_results_from_a_score_sheet_and_a_deleted_deal(any_url: str, tmp_path: Path) -> None:
    store = _store(any_url, tmp_path)
    sheets = SheetRepo(store.db)
    try:
        tid = store.create(
            name="Herbst",
            format_name="wielandstrasse",
            held_on="2025-10-01",
            series="Club",
            seed="s2",
        ).id
        store.add_players(tid, NAMES[:9])
        data = store.draw(tid)
        table = data.rounds[0].tables[1]  # the 5-table
        assert table.list_id is not None and table.mode == "sheet"
        deals = doko_deals(5, 10)
        changes = [
            NewChange(
                table.list_id,
                k + 1,
                f"k{k}",
                {"op": "add", "summary": s, "entry": f"e{k}", "key": f"k{k}"},
                "scorer",
            )
            for k, s in enumerate(deals)
        ]
        sheets.append_changes(changes[:9])
        assert store.sync_sheet(tid, 1, 2) is None  # 9 of 10 games: nothing yet
        sheets.append_changes(changes[9:])
        data = store.sync_sheet(tid, 1, 2)
        assert data is not None
        entered = data.table(1, 2)
        settings = sheets.get(table.list_id)
        assert settings is not None
        sheet = replay(settings.settings, (c.change for c in changes))
        assert entered.results == tuple(table_results(1, table.seating, sheet.series))
        assert entered.source == "sheet"
        # A deal deleted afterwards: the table has no results again, and the log says so.
        sheets.append_changes(
            [
                NewChange(
                    table.list_id,
                    11,
                    "del",
                    {"op": "delete", "entry": "e3", "base": 1, "key": "del"},
                    "scorer",
                )
            ]
        )
        data = store.sync_sheet(tid, 1, 2)
        assert data is not None and data.table(1, 2).results is None
        assert [c["op"] for c in store.log(tid)][-2:] == ["sheet", "reopened"]
        assert store.sync_sheets(tid).table(1, 2).results is None
    finally:
        store.db.dispose()


def test_a_correction_after_the_finish_rewrites_the_ranking(any_url: str, tmp_path: Path) -> None:
    store = _store(any_url, tmp_path)
    try:
        tid = store.create(
            name="Sommer",
            format_name="wielandstrasse",
            held_on="2024-07-01",
            series="Club",
            seed="s3",
        ).id
        store.add_players(tid, NAMES[:8])
        for r in "abcd":
            store.draw(tid)
            play_round(store, tid, r)
        store.finish(tid)
        before = store.ranking("Club")["entries"]
        final = store.need(tid).endrunde
        assert final is not None
        title = final.tables[0]
        # The title table's sheet was added up wrong: its last player won it.
        store.enter(
            tid,
            final.number,
            1,
            [
                {"points": 0 if seat < 3 else 99, "games_won": 0 if seat < 3 else 8}
                for seat in range(4)
            ],
        )
        after = store.ranking("Club")["entries"]
        assert after != before
        winner = store.need(tid).names[title.seating[3]]
        assert after[0]["player"] == winner and after[0]["points"] == 8
        assert store.log(tid)[-1]["op"] == "enter"
        # Another tournament of the club on the same day with the same name cannot be finished.
        twin = store.create(
            name="Sommer",
            format_name="wielandstrasse",
            held_on="2024-07-01",
            series="Club",
            seed="s4",
        ).id
        store.add_players(twin, NAMES[:8])
        for r in "abcd":
            store.draw(twin)
            play_round(store, twin, r)
        with pytest.raises(TournamentError, match="give this one another name"):
            store.finish(twin)
        store.edit(twin, {"name": "Sommer II"})
        store.finish(twin)
        assert store.ranking("Club")["tournaments"] == 2
    finally:
        store.db.dispose()


def test_the_club_history_and_a_backup_in_place_again(any_url: str, tmp_path: Path) -> None:
    store = _store(any_url, tmp_path)
    try:
        csv = "date;player;place;participants;tournament\n" + "".join(
            f"0{d}.03.2019;{name};{p};4;Alt\n"
            for d in (1, 2)
            for p, name in enumerate(NAMES[:4], start=1)
        )
        done = store.import_history("Club", csv)
        assert done == {"series": "Club", "rows": 8, "tournaments": 2}
        with pytest.raises(
            TournamentError, match=r"has the tournament of 2019-03-01 \(Alt\) already"
        ):
            store.import_history("Club", csv)
        entries = store.ranking("Club")["entries"]
        assert (entries[0]["player"], entries[0]["points"], entries[0]["wins"]) == ("Anna", 8, 2)
        assert store.names("an") == ["Anna"]  # the history's names are known for registrations
        tid = store.create(
            name="Winter",
            format_name="wielandstrasse",
            held_on=dt.date(2025, 1, 5),
            series="Club",
            seed="s5",
        ).id
        store.add_players(tid, NAMES[:9])
        store.draw(tid)
        play_round(store, tid, "x")
        backup = store.export(tid)
        store.draw(tid)  # a change after the backup
        with pytest.raises(TournamentError, match="is here already"):
            store.import_backup(backup)
        stranger = {**backup, "tournament": {**backup["tournament"], "director_token": "x" * 22}}
        with pytest.raises(TournamentError, match="other links"):
            store.import_backup(stranger, replace_existing=True)
        data = store.import_backup(backup, replace_existing=True)
        assert len(data.rounds) == 1 and data.rounds[0].complete
        assert store.log(tid)[-1]["op"] == "import"
        with pytest.raises(StichwerkError, match="not a Stichwerk tournament backup"):
            store.import_backup({"kind": "something"})
    finally:
        store.db.dispose()


def test_a_withdrawal_that_leaves_no_mix_of_tables(tmp_path: Path) -> None:
    store = _store(f"sqlite:///{tmp_path}/w.db", tmp_path)
    try:
        tid = store.create(
            name="Eng", format_name="wielandstrasse", held_on="2025-02-01", series="Club", seed="s6"
        ).id
        store.add_players(tid, NAMES[:12])
        store.draw(tid)
        data = play_round(store, tid, "w")
        data = store.withdraw(tid, 5)
        blocked = state_json(data, director=True)["next"]["blocked"]
        assert blocked == (
            "11 players cannot be seated at 4- and 5-player tables: 2 tables seat 8 to 10 "
            "players, 3 tables seat 12 to 15"
        )
        with pytest.raises(TournamentError, match="11 players cannot be seated"):
            store.draw(tid)
        # He comes back (no round drawn since): the draw goes on with all twelve.
        store.reinstate(tid, 5)
        assert [t.size for t in store.draw(tid).rounds[1].tables] == [4, 4, 4]
    finally:
        store.db.dispose()
