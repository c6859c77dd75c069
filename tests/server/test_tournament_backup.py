"""A tournament's backup read back (:mod:`stichwerk.storage.backup`): what a second laptop takes
over is a day the rules can go on with, or one line saying why not."""

import copy
from pathlib import Path
from typing import Any

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.storage.backup import read_backup
from stichwerk.storage.db import Database
from stichwerk.storage.sheets import NewChange, SheetRepo
from stichwerk.storage.tournaments import TournamentStore
from tests.server.tournament_helpers import NAMES, doko_deals, play_round


def _store(tmp_path: Path, name: str) -> TournamentStore:
    db = Database(f"sqlite:///{tmp_path}/{name}.db")
    db.migrate()
    return TournamentStore(db, backup_dir=None)


def _backup(tmp_path: Path, format_name: str, rounds: int) -> dict[str, Any]:
    store = _store(tmp_path, "first")
    made = store.create(
        name="Frühjahr", format_name=format_name, held_on="2025-03-08", series="Club", seed="b"
    )
    store.add_players(made.id, NAMES[:8])
    for _ in range(rounds):
        store.draw(made.id)
        play_round(store, made.id, "b")
    return store.export(made.id)


def test_a_round_marked_final_out_of_place_is_refused_in_one_line(tmp_path: Path) -> None:
    """Round 1 of 3 marked as the Endrunde: once taken over, the next draw would store a second
    round 1 (an IntegrityError, a 500 on the web)."""
    backup = _backup(tmp_path, "wielandstrasse", 1)
    wrong = copy.deepcopy(backup)
    wrong["rounds"][0]["final"] = True
    with pytest.raises(StichwerkError, match=r"^the backup's round 1 is marked as the Endrunde"):
        read_backup(wrong)
    second = _store(tmp_path, "second")
    with pytest.raises(StichwerkError, match="round 1 is marked as the Endrunde"):
        second.import_backup(wrong)
    # The backup as written is taken over, and the day goes on.
    data = second.import_backup(backup)
    assert [(r.number, r.final) for r in second.draw(data.id).rounds] == [(1, False), (2, False)]


def test_an_endrunde_not_marked_final_and_a_pass_too_many_are_refused(tmp_path: Path) -> None:
    doko = _backup(tmp_path, "wielandstrasse", 0)
    doko["rounds"] = [
        {"number": n, "final": False, "by_lot": [], "drawn_at": "2025-03-08T10:00:00+00:00"}
        for n in (1, 2, 3, 4)
    ]
    with pytest.raises(StichwerkError, match=r"^the backup's round 4 is the Endrunde"):
        read_backup(doko)
    (tmp_path / "cego").mkdir()
    cego = _backup(tmp_path / "cego", "swm", 0)
    cego["rounds"] = [
        {"number": n, "final": False, "by_lot": [], "drawn_at": "2025-03-08T10:00:00+00:00"}
        for n in (1, 2, 3)
    ]
    with pytest.raises(StichwerkError, match=r"^the backup's rounds are not numbered 1, 2"):
        read_backup(cego)


def test_a_table_given_a_score_sheet_of_another_size_is_refused(tmp_path: Path) -> None:
    """A 4-table given the 5-table's complete sheet: once taken over, reading the sheet failed
    each time the tournament was opened (its page did not open at all)."""
    store = _store(tmp_path, "first")
    made = store.create(
        name="Herbst", format_name="wielandstrasse", held_on="2025-10-01", series="C", seed="s"
    )
    store.add_players(made.id, NAMES[:9])
    five = store.draw(made.id).rounds[0].tables[1]
    assert five.size == 5 and five.list_id is not None
    SheetRepo(store.db).append_changes(
        [
            NewChange(
                five.list_id, k + 1, f"k{k}", {"op": "add", "summary": s, "key": f"k{k}"}, "scorer"
            )
            for k, s in enumerate(doko_deals(5, 10))
        ]
    )
    assert store.sync_sheet(made.id, 1, 2) is not None
    backup = store.export(made.id)
    tables = backup["tables"]
    tables[0]["list_id"], tables[1]["list_id"] = tables[1]["list_id"], tables[0]["list_id"]
    tables[1]["results"] = None
    with pytest.raises(StichwerkError, match=r"^the backup's table 1: its score sheet has 5 seats"):
        read_backup(backup)


@pytest.mark.parametrize(
    ("where", "value", "refusal"),
    [
        (("tournament", "id"), "T" * 20, "the backup's tournament id is not an id"),
        (("sheets", 0, "id"), "S" * 20, "the backup's score sheet id is not an id"),
        (("tables", 0, "source"), "sheet-and-more", "the backup's table 1 has an unknown source"),
    ],
)
def test_a_field_longer_than_its_column_is_one_line(
    any_url: str, tmp_path: Path, where: tuple[Any, ...], value: str, refusal: str
) -> None:
    """Ids and a table's source longer than their columns: SQLite kept them, PostgreSQL
    refused the rows (a DataError, a 500 on the web)."""
    backup = _backup(tmp_path, "wielandstrasse", 1)
    *path, key = where
    target: Any = backup
    for step in path:
        target = target[step]
    if key == "id" and path == ["sheets", 0]:
        for table in backup["tables"]:
            if table["list_id"] == target["id"]:
                table["list_id"] = value
    target[key] = value
    db = Database(any_url)
    db.migrate()
    try:
        with pytest.raises(StichwerkError, match=f"^{refusal}"):
            TournamentStore(db, backup_dir=None).import_backup(backup)
    finally:
        db.dispose()
