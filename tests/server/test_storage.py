"""Storage on both databases: migrations, the append-only event log, recovery after a restart.

PostgreSQL runs too: ``make test`` starts Debian's server (tools/test-services.sh); the URL
defaults to the role and database that script creates (``STICHWERK_TEST_PG_URL`` overrides).
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from stichwerk.server.app import create_app
from stichwerk.storage.db import MIGRATIONS, Database
from stichwerk.storage.eventlog import EventWriter
from stichwerk.storage.models import Base
from stichwerk.storage.repo import NewEvent, Repo
from tests.server.helpers import (
    ORIGIN,
    guest,
    make_settings,
    new_table,
    play_until,
    receive_until,
)


def _user_and_table(repo: Repo) -> tuple[int, str]:
    user = repo.create_user("Creator", None, True)
    table = repo.create_table(
        game="cego",
        profile="schwarzwald",
        options={},
        seats=[("human", "random"), ("bot", "random"), ("bot", "random"), ("bot", "random")],
        series_length=1,
        time_limit=60,
        public=True,
        created_by=user.id,
        creator_seat=0,
    )
    return user.id, table.id


def test_migrations_build_the_schema_once(any_url: str) -> None:
    db = Database(any_url)
    try:
        db.migrate()
        db.migrate()
        names = set(inspect(db.read).get_table_names())
        assert {"user_account", "game_table", "table_seat", "deal", "event", "setting"} <= names
        assert {"user_session", "table_viewer"} <= names
        with db.read.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0008"
        uniques = inspect(db.read).get_unique_constraints("event")
        assert any(set(u["column_names"]) == {"deal_id", "seq"} for u in uniques)
        with db.read.connect() as conn:
            # The migrations build exactly what the models describe.
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        db.dispose()


def test_a_table_made_before_closing_rounds_has_none_and_seat_0_deals_first(any_url: str) -> None:
    db = Database(any_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with db.write.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
            connection.execute(
                text(
                    "INSERT INTO user_account (id, username, is_guest, created_at)"
                    " VALUES (1, 'Alt', true, CURRENT_TIMESTAMP)"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO game_table (id, game, profile, options, seats, series_length,"
                    " time_limit, public, invite, status, created_by, created_at) VALUES ('old',"
                    " 'cego', 'titisee', '{}', 4, 8, 60, true, 'x', 'open', 1, CURRENT_TIMESTAMP)"
                )
            )
        db.migrate()
        repo = Repo(db)
        old = repo.table("old")
        assert old is not None and old.closing_rounds == ()
        assert old.first_dealer == 0  # older tables dealt first from seat 0 (migration 0003)
        new = repo.create_table(
            game="cego",
            profile="titisee",
            options={},
            seats=[("human", "random")] + [("bot", "random")] * 3,
            series_length=1,
            time_limit=60,
            public=True,
            created_by=1,
            creator_seat=0,
            closing_rounds=("drescher", "pflichtraeuber"),
            first_dealer=2,
        )
        stored = repo.table(new.id)
        assert stored is not None
        assert stored.closing_rounds == ("drescher", "pflichtraeuber")
        assert stored.first_dealer == 2
    finally:
        db.dispose()


def test_event_log_refuses_a_second_writer_at_the_same_position(any_url: str) -> None:
    db = Database(any_url)
    db.migrate()
    repo = Repo(db)
    try:
        _, table_id = _user_and_table(repo)
        deal_id = repo.create_deal(table_id, 0, {"game": "cego"})
        repo.append_events([NewEvent(deal_id, 0, 1, {"seat": 1, "act": "fort"})])
        with pytest.raises(IntegrityError):
            repo.append_events([NewEvent(deal_id, 0, 2, {"seat": 2, "act": "solo"})])
        assert repo.deal(deal_id).actions == ({"seat": 1, "act": "fort"},)  # type: ignore[union-attr]
    finally:
        db.dispose()


def test_group_commit_keeps_order_and_isolates_a_bad_append(any_url: str) -> None:
    db = Database(any_url)
    db.migrate()
    repo = Repo(db)
    writer = EventWriter(repo)
    try:
        _, table_id = _user_and_table(repo)
        deals = [repo.create_deal(table_id, n, {"game": "cego"}) for n in range(5)]

        async def burst() -> list[BaseException | None]:
            async def one(deal_id: int, seq: int) -> None:
                await writer.append(NewEvent(deal_id, seq, 0, {"seat": 0, "act": "play", "n": seq}))

            tasks = [one(d, s) for s in range(20) for d in deals]
            tasks.append(one(deals[0], 3))  # a duplicate position
            return await asyncio.gather(*tasks, return_exceptions=True)

        # In a thread of its own: a browser test may have left an event loop in this one.
        with ThreadPoolExecutor(1) as pool:
            outcomes = pool.submit(asyncio.run, burst()).result()
        failures = [o for o in outcomes if o is not None]
        assert len(failures) == 1 and isinstance(failures[0], IntegrityError)
        for deal_id in deals:
            stored = repo.deal(deal_id)
            assert stored is not None
            assert [a["n"] for a in stored.actions] == list(range(20))
    finally:
        writer.close()
        db.dispose()


def _play(ws: Any, steps: int, frame: dict[str, Any]) -> dict[str, Any]:
    """From ``frame`` on, seat 0 takes its first legal action ``steps`` times (or until the
    deal ends)."""
    done = 0
    while done < steps and frame["phase"] == "playing":
        view = frame["view"]
        if view["to_act"] == 0 and view["legal_actions"]:
            act = {k: v for k, v in view["legal_actions"][0].items() if k != "seat"}
            ws.send_json({"type": "act", "version": frame["version"], "action": act})
            done += 1
        frame = receive_until(ws, lambda m: m["type"] == "state")
    return frame


def _mid_deal(ws: Any) -> dict[str, Any]:
    """Play until seat 0 is to act in a deal that has begun (bots wait for it then)."""
    return play_until(
        ws,
        receive_until(ws, lambda m: m["type"] == "state"),
        lambda m: (
            m["phase"] == "playing" and m["view"]["to_act"] == 0 and len(m["view"]["history"]) >= 2
        ),
    )


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_a_restart_continues_every_unfinished_game(any_url: str, toy: None, game: str) -> None:
    settings = make_settings(any_url)
    with TestClient(create_app(settings)) as client:
        guest(client)
        cookies = dict(client.cookies)
        table = new_table(client, game=game, series_length=3)
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
            before = _mid_deal(ws)
    # A new server process on the same database: the table is recovered from the log.
    with TestClient(create_app(settings)) as client:
        client.cookies.update(cookies)
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
            after = receive_until(ws, lambda m: m["type"] == "state")
            assert after["version"] == before["version"]
            assert after["view"]["hand"] == before["view"]["hand"]
            assert after["view"]["history"] == before["view"]["history"]
            end = _play(ws, 500, after)
            assert end["phase"] in ("between", "finished")
        record = client.get(f"/api/deals/{end['deal']['id']}/record").json()
        assert record["result"] and len(record["actions"]) >= len(before["view"]["history"])


def _in_drescher_at_my_turn(frame: dict[str, Any]) -> bool:
    view = frame["view"]
    return (
        frame["phase"] == "playing"
        and view["deal_type"] == "drescher"
        and view["to_act"] == 0
        and bool(view["history"])
    )


def test_a_restart_in_a_closing_round_carries_on_with_it(any_url: str) -> None:
    settings = make_settings(any_url)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
    with TestClient(create_app(settings)) as client:
        guest(client)
        cookies = dict(client.cookies)
        table = new_table(
            client,
            game="cego",
            profile="titisee",
            seats=seats,
            series_length=1,
            closing_rounds=["drescher"],
            first_dealer=1,
        )
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
            # Play on into the Drescher round, to a deal already under way.
            first = receive_until(ws, lambda m: m["type"] == "state")
            before = play_until(ws, first, _in_drescher_at_my_turn)
    assert before["deal"]["number"] >= 1
    # A new server process on the same database: the table is recovered from the log.
    with TestClient(create_app(settings)) as client:
        client.cookies.update(cookies)
        info = client.get(f"/api/tables/{table['id']}").json()["table"]
        assert info["closing_rounds"] == ["drescher"] and info["first_dealer"] == 1
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
            after = receive_until(ws, lambda m: m["type"] == "state")
            assert after["version"] == before["version"]
            assert after["view"]["deal_type"] == "drescher"
            assert after["view"]["hand"] == before["view"]["hand"]
            assert after["sheet"]["rows"] == before["sheet"]["rows"]
            last = play_until(ws, after, lambda m: m["phase"] == "finished")
        sheet = last["sheet"]
        assert sheet["counted"] == sheet["length"] == 5
        assert [r["label"] for r in sheet["rows"]][1:] == ["drescher"] * 4
        # The rotation goes on from the chosen first dealer across the restart.
        assert [r["dealer"] for r in sheet["rows"]] == [1, 2, 3, 0, 1]
        deals = client.get(f"/api/tables/{table['id']}/deals").json()["deals"]
        assert [d["deal_type"] for d in deals] == [None] + ["drescher"] * 4


def test_deals_made_before_0004_get_random_public_ids(any_url: str) -> None:
    db = Database(any_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with db.write.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0003")
            connection.execute(
                text(
                    "INSERT INTO user_account (id, username, is_guest, created_at)"
                    " VALUES (1, 'Alt', true, CURRENT_TIMESTAMP)"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO game_table (id, game, profile, options, seats, series_length,"
                    " time_limit, public, invite, status, created_by, created_at) VALUES ('old',"
                    " 'cego', 'titisee', '{}', 4, 8, 60, false, 'x', 'playing', 1,"
                    " CURRENT_TIMESTAMP)"
                )
            )
            for number in range(3):
                connection.execute(
                    text(
                        "INSERT INTO deal (table_id, number, record, status, counts, created_at)"
                        f" VALUES ('old', {number}, '{{}}', 'finished', true, CURRENT_TIMESTAMP)"
                    )
                )
        db.migrate()
        repo = Repo(db)
        deals = repo.deals_of_table("old")
        ids = [d.public_id for d in deals]
        assert len(set(ids)) == 3 and all(len(i) == 16 for i in ids)
        assert repo.deal_by_public_id(ids[1]).number == 1  # type: ignore[union-attr]
        assert repo.deal_by_public_id(str(deals[1].id)) is None
        with pytest.raises(IntegrityError):  # unique
            repo.create_deal("old", 3, {}, public_id=ids[0])
    finally:
        db.dispose()


def test_sessions_viewers_and_the_tables_of_a_user(any_url: str) -> None:
    db = Database(any_url)
    db.migrate()
    repo = Repo(db)
    try:
        anna = repo.create_user("Anna", None, True)
        berta = repo.create_user("Berta", None, True)
        later = datetime.now(UTC) + timedelta(days=1)
        repo.create_session("a1", anna.id, later)
        repo.create_session("a2", anna.id, later)
        repo.create_session("old", anna.id, datetime.now(UTC) - timedelta(seconds=1))
        repo.create_session("b1", berta.id, later)
        assert repo.session_user("a1") == anna and repo.session_user("b1") == berta
        assert repo.session_user("old") is None  # expired
        assert repo.session_user("nope") is None
        repo.end_session("a1")
        assert repo.session_user("a1") is None and repo.session_user("a2") == anna
        assert repo.end_sessions(anna.id, keep="a2") == ["old"]
        assert repo.end_sessions(anna.id) == ["a2"]
        assert repo.session_user("a2") is None and repo.session_user("b1") == berta

        _, table_id = _user_and_table(repo)
        assert repo.tables_of_user(berta.id) == []
        assert not repo.is_viewer(table_id, berta.id)
        repo.add_viewer(table_id, berta.id)
        repo.add_viewer(table_id, berta.id)
        assert repo.is_viewer(table_id, berta.id)
        assert [t.id for t in repo.tables_of_user(berta.id)] == [table_id]
    finally:
        db.dispose()
