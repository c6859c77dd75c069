"""Score sheets on both databases: the migration, the append-only log and its constraints, and a
list rebuilt from its log by a new server process exactly as it was."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from stichwerk.server.app import create_app
from stichwerk.storage.db import Database
from stichwerk.storage.sheets import NewChange, SheetRepo
from tests.server.helpers import make_settings

CEGO = {"game": "cego", "profile": "schwarzwald", "seats": 5, "names": list("ABCDE")}


def test_the_migration_makes_the_log_unique_per_position_and_key(any_url: str) -> None:
    db = Database(any_url)
    try:
        db.migrate()
        uniques = inspect(db.read).get_unique_constraints("score_change")
        assert {frozenset(u["column_names"]) for u in uniques} >= {
            frozenset({"list_id", "seq"}),
            frozenset({"list_id", "key"}),
        }
        repo = SheetRepo(db)
        info = repo.create_list({"game": "cego", "profile": "schwarzwald"})
        change = {"op": "add", "summary": {}, "key": "k1"}
        repo.append_changes([NewChange(info.id, 1, "k1", change, "scorer")])
        with pytest.raises(IntegrityError):  # a second writer at the same position
            repo.append_changes([NewChange(info.id, 1, "k2", change, "scorer")])
        with pytest.raises(IntegrityError):  # the same key twice
            repo.append_changes([NewChange(info.id, 2, "k1", change, "scorer")])
        assert [c.key for c in repo.changes(info.id)] == ["k1"]
        for token, role in ((info.scorer_token, "scorer"), (info.follower_token, "follower")):
            found = repo.by_token(token)
            assert found is not None and (found[0].id, found[1]) == (info.id, role)
        assert repo.by_token("nobody-has-this-token-") is None
    finally:
        db.dispose()


def _enter(client: TestClient, token: str, change: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/sheets/{token}/changes", json=change)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_new_server_rebuilds_every_list_from_its_log(any_url: str) -> None:
    settings = make_settings(any_url)
    with TestClient(create_app(settings)) as client:
        made = client.post("/api/sheets", json=CEGO).json()
        token = made["links"]["scorer"][3:]
        # Seat 0 deals and sits out: Vorhand is seat 1.
        _enter(client, token, {"op": "add", "entry": "a", "summary": {
            "contract": "halbe", "declarer": 2, "declarer_points": 50}})  # fmt: skip
        _enter(client, token, {"op": "add", "entry": "b", "summary": {
            "contract": "raeuber", "announcer": 2, "points": [10, 0, 20, 30, 10],
            "tricks": [3, 0, 3, 3, 2], "out_of_play": 9}})  # fmt: skip
        _enter(client, token, {"op": "correct", "entry": "a", "base": 1, "summary": {
            "contract": "halbe", "declarer": 2, "declarer_points": 30}})  # fmt: skip
        _enter(client, token, {"op": "add", "entry": "c", "key": "last", "summary": {
            "contract": "piccolo", "declarer": 4, "declarer_tricks": 1}})  # fmt: skip
        _enter(client, token, {"op": "delete", "entry": "b", "base": 1})
        before = client.get(f"/api/sheets/{token}").json()
    with TestClient(create_app(settings)) as client:
        after = client.get(f"/api/sheets/{token}").json()
        assert after == before
        assert after["seq"] == 5 and [r["id"] for r in after["sheet"]["rows"]] == ["a", "c"]
        # The keys survive too: the last change sent again is not applied twice.
        again = _enter(client, token, {"op": "add", "entry": "c", "key": "last", "summary": {
            "contract": "piccolo", "declarer": 4, "declarer_tricks": 1}})  # fmt: skip
        assert again["applied"]["duplicate"] is True and again["seq"] == 5
