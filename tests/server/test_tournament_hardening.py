"""Tournaments and ranking lists under attack (issue 29): nobody but a series' owner writes its
ranking list; a club's history goes in in short batches while tables and sheets go on; a bogus
backup is refused by its shape before it is built; large imports run a few at a time; every
number of a backup is checked where it enters."""

import copy
import datetime as dt
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from stichwerk.server.app import create_app
from stichwerk.storage import tournaments as stored
from stichwerk.storage.db import Database
from stichwerk.storage.tournaments import SeriesLocked, TournamentStore
from tests.server.helpers import ORIGIN, guest, make_settings, new_table, receive_until
from tests.server.tournament_helpers import NAMES

DEADLINE = 120.0
CREATE = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "seed": "h"}
DOKO = {"game": "doppelkopf", "profile": "ddv", "names": ["A", "B", "C", "D"]}
NORMAL = {"game_type": "normal", "re": [0, 2], "re_augen": 130}


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/t.db"))) as client:
        yield client


def _post(client: TestClient, path: str, body: Any) -> Any:
    return client.post(path, json=body, headers=ORIGIN)


def _refused(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"], body
    for word in words:
        assert word in body["error"], body
    message: str = body["error"]
    return message


def _director(state: dict[str, Any]) -> str:
    return str(state["links"]["director"].rsplit("/", 1)[1])


def _history(rows: int, first: dt.date = dt.date(1990, 1, 6)) -> str:
    """``rows`` rows: tournaments of 40 players a week apart, 600 names in all (seeded)."""
    import random

    rng = random.Random(29)
    names = [f"Spieler {i:03d}" for i in range(600)]
    lines = ["date;player;place;participants;tournament"]
    day, written, number = first, 0, 0
    while written < rows:
        number += 1
        day += dt.timedelta(days=7)
        size = min(40, rows - written)
        for place, name in enumerate(rng.sample(names, size), start=1):
            lines.append(f"{day.isoformat()};{name};{place};{size};T{number}")
        written += size
    return "\n".join(lines) + "\n"


# -- the owner's secret ---------------------------------------------------------------------


def test_only_the_series_owner_adds_to_its_ranking_list(app_client: TestClient) -> None:
    c = app_client
    first = _post(c, "/api/tournaments", CREATE).json()
    secret = first["series_secret"]
    assert isinstance(secret, str) and len(secret) >= 16
    director = _director(first)
    # The club's own director adds its history without typing the secret again.
    good = "date,player,place,participants\n2020-05-01,Anna,1,2\n2020-05-01,Bernd,2,2\n"
    r = _post(c, f"/api/tournaments/{director}/history", {"text": good})
    assert r.status_code == 200 and "series_secret" not in r.json(), r.text

    # A stranger can neither make a tournament in the club's series ...
    _refused(_post(c, "/api/tournaments", {**CREATE, "name": "Fake"}), 403, "owner", "secret")
    _refused(_post(c, "/api/tournaments", {**CREATE, "secret": "guess" * 3}), 403, "owner")
    # ... nor move one of his own into it, nor import a history or a backup into it.
    own = _post(c, "/api/tournaments", {**CREATE, "series": "Mine", "name": "Mine"}).json()
    assert own["series_secret"] != secret
    r = _post(c, f"/api/tournaments/{_director(own)}/changes", {"op": "edit", "series": "Club"})
    _refused(r, 403, "owner")
    fake = "date,player,place,participants\n2021-05-01,Mallory,1,9\n2021-05-01,Anna,9,9\n"
    backup = c.get(f"/api/tournaments/{_director(own)}/backup.json").json()
    for key in ("id", "director_token", "public_token"):
        backup["tournament"][key] = backup["tournament"][key][::-1]
    backup["tournament"]["series"] = "Club"
    backup["tournament"]["series_secret_hash"] = stored.hash_secret("mine")
    _refused(_post(c, "/api/tournaments/import", {"backup": backup}), 403, "owner")
    ranking = c.get("/api/rankings/list", params={"series": "Club"}).json()
    assert [e["player"] for e in ranking["entries"]] == ["Anna", "Bernd"]
    r = _post(c, f"/api/tournaments/{_director(own)}/history", {"text": fake})
    assert r.status_code == 200  # into his own series, which nobody reads as the club's
    assert "Mallory" not in c.get("/api/rankings/list.csv", params={"series": "Club"}).text

    # With the secret: a second tournament, and the backup.
    second = _post(c, "/api/tournaments", {**CREATE, "name": "Herbst", "secret": secret})
    assert second.status_code == 200 and "series_secret" not in second.json(), second.text
    r = _post(c, "/api/tournaments/import", {"backup": backup, "secret": secret})
    assert r.status_code == 200, r.text
    # The owner changes the secret: the old one no longer opens the series.
    r = _post(c, "/api/rankings/secret", {"series": "Club", "secret": secret})
    assert r.status_code == 200, r.text
    renewed = r.json()["series_secret"]
    assert renewed != secret
    _refused(_post(c, "/api/tournaments", {**CREATE, "name": "W", "secret": secret}), 403)
    _refused(_post(c, "/api/rankings/secret", {"series": "Club", "secret": secret}), 403)
    assert (
        _post(c, "/api/tournaments", {**CREATE, "name": "W", "secret": renewed}).status_code == 200
    )
    # ... and the first director now needs the new one for more history.
    other = "date,player,place,participants\n2019-05-01,Anna,1,2\n2019-05-01,Bernd,2,2\n"
    _refused(_post(c, f"/api/tournaments/{director}/history", {"text": other}), 403, "owner")
    r = _post(c, f"/api/tournaments/{director}/history", {"text": other, "secret": renewed})
    assert r.status_code == 200, r.text
    assert c.get("/api/rankings/owner", params={"series": "Club"}).json()["owned"] is True
    assert c.get("/api/rankings/owner", params={"series": "New"}).json()["owned"] is False


def test_a_backup_keeps_its_series_secret_on_a_second_server(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/a.db"))) as a:
        made = _post(a, "/api/tournaments", CREATE).json()
        secret = made["series_secret"]
        backup = a.get(f"/api/tournaments/{_director(made)}/backup.json").json()
    assert backup["tournament"]["series_secret_hash"] == stored.hash_secret(secret)
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/b.db"))) as b:
        r = _post(b, "/api/tournaments/import", {"backup": backup})
        assert r.status_code == 200 and "series_secret" not in r.json(), r.text
        _refused(_post(b, "/api/tournaments", {**CREATE, "name": "X"}), 403, "owner")
        assert _post(b, "/api/tournaments", {**CREATE, "name": "X", "secret": secret}).json()


def test_the_store_guards_and_the_operator_does_not_need_to(
    any_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STICHWERK_BACKUP_DIR", "off")
    db = Database(any_url)
    db.migrate()
    try:
        store = TournamentStore(db, backup_dir=None)
        # A series made before the owners (the operator's, no secret) is claimed by the first.
        store.create(name="Alt", format_name="wielandstrasse", held_on="2024-01-01", series="C")
        data, fresh = store.create_guarded(
            name="Neu", format_name="wielandstrasse", held_on="2024-02-01", series="C"
        )
        assert fresh is not None
        with pytest.raises(SeriesLocked):
            store.create_guarded(
                name="X", format_name="wielandstrasse", held_on="2024-03-01", series="C"
            )
        with pytest.raises(SeriesLocked):
            store.import_history("C", "date,player,place,participants\n2020-01-01,A,1,1\n",
                                 guard=True)  # fmt: skip
        # The operator (the command line) needs no secret and may set a new one.
        store.create(name="Op", format_name="wielandstrasse", held_on="2024-04-01", series="C")
        renewed = store.set_series_secret("C", guard=False)
        assert renewed != fresh
        assert data.series == "C"
        # A history in batches (people known and new), counted once done; a second time no.
        monkeypatch.setattr(stored, "HISTORY_BATCH", 70)
        done = store.import_history("C", _history(400), guard=True, secret=renewed, tid=data.id)
        assert done == {"series": "C", "rows": 400, "tournaments": 10}
        assert len(store.history("C")) == 400
        with pytest.raises(stored.TournamentError, match="already"):
            store.import_history("C", _history(400), source="cli")
        assert len(store.history("C")) == 400
        more = store.import_history("C", _history(80, dt.date(2001, 1, 1)), source="cli")
        assert more["rows"] == 80 and len(store.history("C")) == 480
        assert {s["series"]: s["tournaments"] for s in store.all_series()}["C"] == 12
    finally:
        db.dispose()


# -- a history imported while everything else goes on -----------------------------------------


def test_tables_and_sheets_go_on_while_a_history_is_imported(
    client: TestClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import writes in short batches: a table's moves and a sheet's entries are answered
    while it runs (its rows half written), with no "database is locked"."""
    monkeypatch.setattr(stored, "HISTORY_BATCH", 100)  # 200 batches: a long import to watch
    c = client
    made = _post(c, "/api/tournaments", CREATE).json()
    history = f"/api/tournaments/{_director(made)}/history"
    sheet = _post(c, "/api/sheets", DOKO).json()
    scorer = sheet["links"]["scorer"].removeprefix("/s/")
    guest(c)
    table = new_table(c, series_length=50)
    watcher = create_engine(db_url)

    def progress() -> tuple[int, bool] | None:
        """Rows of the import written so far and whether it is done (None: no batches)."""
        try:
            with watcher.connect() as conn:
                staged = conn.execute(
                    text("SELECT count(*) FROM ranking_row WHERE import_id IS NOT NULL")
                ).scalar()
                done = conn.execute(text("SELECT count(*) FROM history_import WHERE done")).scalar()
        except OperationalError:
            return None
        return int(staged or 0), bool(done)

    answer: list[Any] = []
    importing = threading.Thread(
        target=lambda: answer.append(_post(c, history, {"text": _history(20_000)}))
    )
    importing.start()
    try:
        # Wait (with a deadline) until the import has written some batches, not all.
        midway = threading.Event()
        for _ in range(int(DEADLINE * 100)):
            seen = progress()
            if seen is not None and seen[0] > 0 and not seen[1]:
                midway.set()
                break
            if not importing.is_alive():
                break
            importing.join(0.01)
        assert midway.is_set(), "the import showed no batch before it ended: it held the lock"

        # A sheet's entries are answered now.
        for k in range(3):
            r = _post(c, f"/api/sheets/{scorer}/changes", {"op": "add", "summary": NORMAL,
                                                          "key": f"k{k}"})  # fmt: skip
            assert r.status_code == 200, r.text
        # A table's move (seat 0, the bots answering) is stored now.
        with c.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
            frame = receive_until(
                ws, lambda m: m["type"] == "state" and m["view"] and m["view"]["to_act"] == 0
            )
            action = {k: v for k, v in frame["view"]["legal_actions"][0].items() if k != "seat"}
            ws.send_json({"type": "act", "version": frame["version"], "action": action})
            receive_until(ws, lambda m: m["type"] == "state" and m["version"] > frame["version"])
        after = progress()
        assert after is not None and not after[1], "the import ended before they were answered"
    finally:
        importing.join(DEADLINE)
        watcher.dispose()
    assert answer and answer[0].status_code == 200, answer[0].text if answer else "no answer"
    assert answer[0].json()["rows"] == 20_000
    ranking = c.get("/api/rankings/list", params={"series": "Club"}).json()
    assert ranking["tournaments"] == 500


def test_a_failed_history_import_leaves_nothing(app_client: TestClient, monkeypatch: Any) -> None:
    c = app_client
    made = _post(c, "/api/tournaments", CREATE).json()
    history = f"/api/tournaments/{_director(made)}/history"
    monkeypatch.setattr(stored, "HISTORY_BATCH", 50)
    real = stored._check_history_fits
    calls = []

    def fail_at_the_switch(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 2:  # the last transaction: as if another import came first
            raise stored.TournamentError("the history changed meanwhile")
        real(*args)

    monkeypatch.setattr(stored, "_check_history_fits", fail_at_the_switch)
    _refused(_post(c, history, {"text": _history(400)}), 409, "changed meanwhile")
    monkeypatch.setattr(stored, "_check_history_fits", real)
    assert c.get("/api/rankings/list", params={"series": "Club"}).json()["entries"] == []
    assert c.get("/api/rankings/history.csv", params={"series": "Club"}).text.count("\n") == 1
    # Past the cap: one line, before anything is written.
    monkeypatch.setattr(stored, "MAX_HISTORY_ROWS", 100)
    _refused(_post(c, history, {"text": _history(120)}), 400, "at most 100 rows", "120")
    monkeypatch.setattr(stored, "MAX_HISTORY_ROWS", 20_000)
    r = _post(c, history, {"text": _history(400)})
    assert r.status_code == 200 and r.json()["rows"] == 400, r.text


# -- large imports ----------------------------------------------------------------------------


def test_a_bogus_backup_is_refused_by_its_shape(app_client: TestClient) -> None:
    """Millions of empty objects are refused before they are built (they cost 420 MiB)."""
    pad = ",".join(["{}"] * 300_000)
    body = '{"backup": {"kind": "stichwerk-tournament-backup", "pad": [' + pad + "]}}"
    r = app_client.post(
        "/api/tournaments/import",
        content=body.encode(),
        headers={**ORIGIN, "content-type": "application/json"},
    )
    _refused(r, 400, "not valid JSON", "objects")


def test_large_imports_run_one_at_a_time_per_address(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = app_client
    made = _post(c, "/api/tournaments", CREATE).json()
    history = f"/api/tournaments/{_director(made)}/history"
    entered, release = threading.Event(), threading.Event()
    real = TournamentStore.import_history

    def held(self: TournamentStore, *args: Any, **kwargs: Any) -> dict[str, Any]:
        entered.set()
        assert release.wait(DEADLINE)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(TournamentStore, "import_history", held)
    good = "date,player,place,participants\n2020-05-01,Anna,1,2\n2020-05-01,Bernd,2,2\n"
    first: list[Any] = []
    thread = threading.Thread(target=lambda: first.append(_post(c, history, {"text": good})))
    thread.start()
    try:
        assert entered.wait(DEADLINE)
        _refused(_post(c, history, {"text": good}), 503, "busy")
        _refused(_post(c, "/api/tournaments/import", {"backup": {}}), 503, "busy")
    finally:
        release.set()
        thread.join(DEADLINE)
    assert first[0].status_code == 200, first[0].text
    # The slot is free again.
    _refused(_post(c, "/api/tournaments/import", {"backup": {}}), 400, "not a Stichwerk")


# -- numbers from outside ---------------------------------------------------------------------


def test_every_number_of_a_backup_is_checked_where_it_enters(app_client: TestClient) -> None:
    c = app_client
    made = _post(c, "/api/tournaments", CREATE).json()
    director = _director(made)
    secret = made["series_secret"]
    changes = f"/api/tournaments/{director}/changes"
    assert _post(c, changes, {"op": "add_players", "names": NAMES[:8]}).status_code == 200
    state = _post(c, changes, {"op": "draw"}).json()
    table = state["rounds"][0]["tables"][0]
    r = _post(c, changes, {"op": "mode", "round": 1, "table": 1, "mode": "quick"})
    assert r.status_code == 200, r.text
    for points in (10**400, 1e308, -(10**7)):
        results = [{"points": points}, {"points": 0}, {"points": 0}, {"points": 0}]
        r = _post(c, changes, {"op": "enter", "round": 1, "table": 1, "results": results})
        _refused(r, 400, "points")
    scorer = state["rounds"][0]["tables"][1]["scorer"].removeprefix("/s/")
    r = _post(c, f"/api/sheets/{scorer}/changes", {"op": "add", "summary": NORMAL, "key": "k"})
    assert r.status_code == 200, r.text
    results = [{"points": p} for p in (8, 0, 2, 4)]
    r = _post(c, changes, {"op": "enter", "round": 1, "table": 1, "results": results})
    assert r.status_code == 200, r.text
    backup = c.get(f"/api/tournaments/{director}/backup.json").json()
    assert table["number"] == 1

    def spoiled(change: Any) -> dict[str, Any]:
        bad = copy.deepcopy(backup)
        change(bad)
        return {"backup": bad, "replace": True, "secret": secret}

    def points(value: Any) -> Any:
        def put(b: dict[str, Any]) -> None:
            entered = next(t for t in b["tables"] if t["results"])
            entered["results"][0]["points"] = value

        return put

    def sheet_number(value: Any) -> Any:
        def put(b: dict[str, Any]) -> None:
            change = next(s for s in b["sheets"] if s["changes"])["changes"][0]["change"]
            change["summary"]["re_augen"] = value

        return put

    def lot(b: dict[str, Any]) -> None:
        b["rounds"][0]["by_lot"] = [[{"not": "a player"}]]

    def log_number(b: dict[str, Any]) -> None:
        b["log"][0]["data"]["seed"] = 10**40

    def table_number(b: dict[str, Any]) -> None:
        b["tables"][0]["number"] = 10**30

    def seed(b: dict[str, Any]) -> None:
        b["tournament"]["seed"] = "h\u202e\n"

    for change, words in (
        (points(10**400), "points"),
        (points(1e308), "points"),
        (points(10**12), "points"),
        (sheet_number(1e308), "number"),
        (sheet_number(10**30), "number"),
        (lot, "unknown players"),
        (log_number, "number"),
        (table_number, "'number'"),
        (seed, "seed"),
    ):
        _refused(_post(c, "/api/tournaments/import", spoiled(change)), 400, words)
    # The untouched backup still goes in.
    r = _post(c, "/api/tournaments/import", {"backup": backup, "replace": True})
    assert r.status_code == 200, r.text


def test_a_history_row_with_a_huge_field_or_a_dirty_name_is_one_line(
    app_client: TestClient,
) -> None:
    """A field of 10**30 players overflowed the database's integer (a 500); a tournament's name
    of 200 characters, or with a bidi override, went in unchecked."""
    c = app_client
    made = _post(c, "/api/tournaments", CREATE).json()
    history = f"/api/tournaments/{_director(made)}/history"
    head = "date,player,place,participants,tournament\n"
    for row, words in (
        (f"2020-05-01,Anna,1,{10**30},T", ("participants", "10000")),
        (f"2020-05-01,Anna,{10**30},{10**30},T", ("participants",)),
        ("2020-05-01,Anna,1,1," + "x" * 200, ("tournament's name", "120")),
        ("2020-05-01,Anna,1,1,Evil\u202egnp.exe", ("tournament's name",)),
    ):
        _refused(_post(c, history, {"text": head + row + "\n"}), 400, *words)
    r = _post(c, history, {"text": head + "2020-05-01,Anna,1,1,  Frühjahr   2020 \n"})
    assert r.status_code == 200, r.text
    text = c.get("/api/rankings/history.csv", params={"series": "Club"}).text
    assert "Frühjahr 2020" in text


def test_people_are_looked_up_at_once_not_one_query_per_name(
    any_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 registrations and a backup's players each ask the database for their people in one
    query (and add the new ones in one), not once per name, inside the write transaction; a
    backup's 50 score sheets go in at once, not each with its own queries."""
    from sqlalchemy import event

    monkeypatch.setenv("STICHWERK_BACKUP_DIR", "off")  # the backup's export is no write
    db = Database(any_url)
    db.migrate()
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if re.search(r"\b(from|into|join|update)\s+person\b", statement.lower()):
            statements.append(statement)

    try:
        store = TournamentStore(db, backup_dir=None)
        data = store.create(name="Groß", format_name="wielandstrasse", held_on="2024-01-01",
                            series="P", seed="p")  # fmt: skip
        event.listen(db.write, "before_cursor_execute", count)
        store.add_players(data.id, [f"Spieler {i:03d}" for i in range(200)])
        assert len(statements) <= 8, statements
        event.remove(db.write, "before_cursor_execute", count)
        store.draw(data.id)  # 50 tables, each with its score sheet
        backup = store.export(data.id)
        store.delete(data.id)
        everything: list[str] = []
        event.listen(db.write, "before_cursor_execute", count)
        event.listen(db.write, "before_cursor_execute", lambda *a: everything.append(a[2]))
        statements.clear()
        store.import_backup(backup)
        assert len(statements) <= 8, statements
        # ... and the whole backup goes in a table at a time, not a sheet at a time.
        assert len(everything) <= 40, sorted({e[:60] for e in everything})
    finally:
        db.dispose()


def test_an_import_cut_off_by_a_crash_counts_nowhere_and_is_cleared(tmp_path: Path) -> None:
    from sqlalchemy import func, insert, select
    from sqlalchemy.orm import Session

    from stichwerk.storage.models import HistoryImport, Person, RankingRow

    db = Database(f"sqlite:///{tmp_path}/crash.db")
    db.migrate()
    try:
        store = TournamentStore(db, backup_dir=None)
        text_ = _history(40)
        # What a crash mid-import leaves: a batch written, the import not done.
        with Session(db.write) as session, session.begin():
            long_ago = stored.utcnow() - 2 * stored.STALE_IMPORT
            session.add(HistoryImport(id="cut", series="C", done=False, created_at=long_ago))
            session.add(Person(name="Spieler 001"))
            session.flush()
            pid = session.scalar(select(Person.id))
            session.execute(
                insert(RankingRow),
                [{"series": "C", "held_on": dt.date(1990, 1, 13), "tournament": "T1",
                  "person_id": pid, "place": 1, "participants": 40, "import_id": "cut"}],
            )  # fmt: skip
        assert store.history("C") == [] and store.all_series() == []
        assert store.import_history("C", text_)["rows"] == 40
        assert len(store.history("C")) == 40
        with Session(db.read) as session:
            assert session.scalar(select(func.count()).select_from(HistoryImport)) == 1
            cut = select(func.count()).where(RankingRow.import_id == "cut")
            assert session.scalar(cut) == 0
    finally:
        db.dispose()
