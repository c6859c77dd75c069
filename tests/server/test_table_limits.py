"""Online tables nobody attends: tables of bots only need an account and a quota and can be
stopped (by their creator, by the operator's command); a table nobody is at waits at a person's
turn; idle actors leave memory and come back from the log; the lobby comes in pages."""

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from stichwerk.server.table import Conn, Join
from stichwerk.storage.db import Database
from stichwerk.storage.repo import RUNNING, QuotaExceeded, Repo
from tests.server.helpers import ORIGIN, guest, make_settings, member, new_table, receive_until

BOTS_4 = [{"kind": "bot", "bot": "random"}] * 4


def url(table: dict[str, Any]) -> str:
    return f"/ws/tables/{table['id']}"


def services(client: TestClient) -> Any:
    return client.app.state.services  # type: ignore[attr-defined]


def wait_for(condition: Callable[[], bool], what: str, deadline: float = 20.0) -> None:
    """Wait until ``condition()`` holds (checked every few milliseconds), at most ``deadline``
    seconds."""
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.01)


@pytest.fixture
def make_client(db_url: str, toy: None) -> Iterator[Callable[..., TestClient]]:
    """Start an app with some settings changed (each is closed after the test)."""
    opened: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        client = TestClient(create_app(make_settings(db_url, **overrides)))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


def events_of(client: TestClient, table_id: str) -> int:
    deals = services(client).repo.deals_of_table(table_id, with_events=True)
    return sum(len(d.actions) for d in deals)


# -- tables of bots only ------------------------------------------------------------------------


def test_a_table_of_bots_only_needs_an_account_and_a_quota(
    make_client: Callable[..., TestClient],
) -> None:
    # Bots that think for a minute: the tables stay running while the test looks.
    client = make_client(bot_delay=60.0, bot_tables_per_account=2, bot_table_deals=30)
    guest(client)
    body = {"game": "toy", "seats": BOTS_4, "creator_seat": None, "series_length": 10}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 403, r.text
    assert r.json() == {
        "error": "a table of bots only needs an account with a password, not a guest"
    }
    # A guest may still open a table with a seat for a person.
    new_table(client)

    member(client)
    r = client.post("/api/tables", json={**body, "series_length": 31})
    assert r.status_code == 400 and r.json()["error"] == (
        "a table of bots only plays at most 30 deals"
    )
    # Closing rounds count too: a deal per seat each.
    cego = {"game": "cego", "profile": "titisee", "series_length": 27}
    r = client.post("/api/tables", json={**body, **cego})
    assert r.status_code == 200, r.text
    grown = r.json()["table"]
    r = client.put(
        f"/api/tables/{grown['id']}/closing_rounds", json={"closing_rounds": ["drescher"]}
    )
    assert r.status_code == 400 and r.json()["error"] == (
        "a table of bots only plays at most 30 deals"
    )
    assert client.post(f"/api/tables/{grown['id']}/stop", json={}).status_code == 200
    r = client.post(
        "/api/tables",
        json={**body, **cego, "closing_rounds": ["drescher"]},
    )
    assert r.status_code == 400 and r.json()["error"] == (
        "a table of bots only plays at most 30 deals"
    )
    first = new_table(client, **body)
    new_table(client, **body)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 429, r.text
    assert "\n" not in r.json()["error"] and "stop one" in r.json()["error"]
    # A table that waits for a person does not count against the quota.
    new_table(client, creator_seat=None, seats=[{"kind": "human"}, *BOTS_4[:3]])
    # A stopped table no longer counts.
    assert client.post(f"/api/tables/{first['id']}/stop", json={}).status_code == 200
    new_table(client, **body)


def test_the_creator_stops_a_table_of_bots_and_no_restart_brings_it_back(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(deal_seed="stop", bot_delay=0.02)
    member(client)
    table = new_table(client, game="toy", seats=BOTS_4, creator_seat=None, series_length=30)
    lobby = client.get("/api/tables").json()
    (mine,) = [t for t in lobby["mine"] if t["id"] == table["id"]]
    assert mine["stoppable"] and mine["status"] == "playing"
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state" and (m["deal"] or {}).get("number") == 1)
        creator = dict(client.cookies)
        client.cookies.clear()
        guest(client)  # a stranger
        r = client.post(f"/api/tables/{table['id']}/stop", json={})
        client.cookies.clear()
        client.cookies.update(creator)
        assert r.status_code == 403 and r.json() == {
            "error": "only the table's creator may stop it"
        }

        r = client.post(f"/api/tables/{table['id']}/stop", json={})
        assert r.status_code == 200, r.text
        assert r.json()["table"]["status"] == "stopped"
        assert not r.json()["table"]["stoppable"]
        stopped = receive_until(
            ws, lambda m: m["type"] == "state" and m["status"] == "stopped", limit=20000
        )
        assert stopped["phase"] == "stopped"
        played = events_of(client, table["id"])
        # The actor answers in order: after a sync, no bot move can still be on its way.
        ws.send_json({"type": "sync"})
        again = receive_until(ws, lambda m: m["type"] == "state")
        assert again["version"] == stopped["version"] and again["status"] == "stopped"
    assert events_of(client, table["id"]) == played
    r = client.post(f"/api/tables/{table['id']}/stop", json={})
    assert r.status_code == 200  # stopping twice is no error
    assert client.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "stopped"

    # A restart does not recover it; it is still there to look at.
    client.__exit__(None, None, None)
    again_client = make_client(deal_seed="stop")
    assert again_client.get("/healthz").json()["tables"] == 0
    assert again_client.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "stopped"
    assert events_of(again_client, table["id"]) == played


def test_a_table_where_other_people_play_is_not_stopped_by_its_creator(
    client: TestClient,
) -> None:
    guest(client)
    table = new_table(client, seats=[{"kind": "human"}, {"kind": "human"}, *BOTS_4[:2]])
    creator = dict(client.cookies)
    client.cookies.clear()
    guest(client)  # someone else takes the other seat
    assert client.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200
    client.cookies.clear()
    client.cookies.update(creator)
    mine = client.get(f"/api/tables/{table['id']}").json()["table"]
    assert not mine["stoppable"]
    r = client.post(f"/api/tables/{table['id']}/stop", json={})
    assert r.status_code == 409
    assert r.json() == {"error": "other people play at this table; it ends with its list"}


def test_the_operator_stops_a_table_from_the_command_line(
    make_client: Callable[..., TestClient],
    db_url: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stichwerk.server import tables as tables_cli  # (here: its own test fails alone)

    # A short idle time makes the hub look at the database often (a quarter of it).
    client = make_client(idle_release=0.4, bot_delay=0.01)
    member(client)
    table = new_table(client, game="toy", seats=BOTS_4, creator_seat=None, series_length=30)
    tables_cli.main(["list", "--bots-only", "--database", db_url])
    listed = capsys.readouterr().out
    assert table["id"] in listed and "no person" in listed
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state" and m["version"] > 1002)
        tables_cli.main(["stop", table["id"], "--database", db_url])
        assert "stopped" in capsys.readouterr().out
        stopped = receive_until(
            ws, lambda m: m["type"] == "state" and m["status"] == "stopped", limit=5000
        )
        played = events_of(client, table["id"])
        ws.send_json({"type": "sync"})
        assert receive_until(ws, lambda m: m["type"] == "state")["version"] == stopped["version"]
    assert events_of(client, table["id"]) == played
    with pytest.raises(SystemExit) as unknown:
        tables_cli.main(["stop", "nosuchtable", "--database", db_url])
    assert unknown.value.code == 1
    assert capsys.readouterr().err.count("\n") == 1


# -- tables nobody attends, idle actors -----------------------------------------------------------


def my_turn(ws: Any) -> dict[str, Any]:
    return receive_until(
        ws, lambda m: m["type"] == "state" and m["view"] and m["view"]["to_act"] == 0
    )


def test_an_idle_table_leaves_memory_and_plays_on_from_the_log(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(idle_release=0.3, deal_seed="idle")
    guest(client)
    # Seat 0 is a person whose stand-in is the random bot; the time limit is short, so that
    # before the fix the stand-in would play the seat as soon as the person left.
    table = new_table(client, time_limit=1, series_length=3)
    hub = services(client).hub
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        before = my_turn(ws)
    # Nobody is at the table: it waits at the person's turn, and its actor goes.
    wait_for(lambda: hub.live == 0, "the idle actor is released")
    assert hub.released >= 1
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["you"]["seat"] == 0
        after = receive_until(ws, lambda m: m["type"] == "state")
        assert hub.live == 1
        assert after["version"] == before["version"]
        assert after["view"]["hand"] == before["view"]["hand"]
        assert after["view"]["to_act"] == 0
        legal = after["view"]["legal_actions"][0]
        act = {k: v for k, v in legal.items() if k != "seat"}
        ws.send_json({"type": "act", "version": after["version"], "action": act})
        moved = receive_until(ws, lambda m: m["type"] == "state")
        assert moved["view"]["history"][-1] == {"seat": 0, **act}


def test_a_table_waiting_for_people_is_released_and_starts_when_they_come(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(idle_release=0.3)
    guest(client)
    table = new_table(client, seats=[{"kind": "human"}, {"kind": "human"}, *BOTS_4[:2]])
    hub = services(client).hub
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        assert receive_until(ws, lambda m: m["type"] == "state")["phase"] == "waiting"
    wait_for(lambda: hub.live == 0, "the waiting table's actor is released")
    client.cookies.clear()
    guest(client)  # someone else
    assert client.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        first = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "playing")
        assert first["deal"]["number"] == 0 and first["you"] == 1


def test_a_newcomer_to_a_released_actor_is_sent_to_try_again(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(idle_release=3600.0)
    guest(client)
    table = new_table(client, seats=[{"kind": "human"}, {"kind": "human"}, *BOTS_4[:2]])
    hub = services(client).hub
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "state")
    (actor,) = hub._actors.values()
    wait_for(actor.idle, "the actor is idle")
    hub.idle_release = 0.0
    client.portal.call(hub.sweep)  # type: ignore[union-attr]
    assert hub.live == 0
    conn = Conn(None, None, None)
    actor.post(Join(conn))  # a handshake that got this actor just before it went
    assert conn.closed and conn.close_code == 1012


# -- the lobby ----------------------------------------------------------------------------------


def test_the_lobby_comes_in_pages_that_list_each_table_once(client: TestClient) -> None:
    guest(client)
    made = {
        new_table(client, seats=[{"kind": "human"}, {"kind": "human"}, *BOTS_4[:2]])["id"]
        for _ in range(120)
    }
    first = client.get("/api/tables").json()
    assert len(first["open"]) == 50 and first["more"]["open"] and first["limit"] == 50
    assert len(first["mine"]) == 50 and first["more"]["mine"]
    seen: list[str] = []
    offset = 0
    while True:
        page = client.get(f"/api/tables?limit=50&offset={offset}").json()
        seen += [t["id"] for t in page["open"]]
        if not page["more"]["open"]:
            break
        offset += 50
    assert len(seen) == len(set(seen)) == 120 and set(seen) == made
    assert offset == 100
    for bad in ("limit=0", "limit=201", "offset=-1", "limit=x"):
        r = client.get(f"/api/tables?{bad}")
        assert r.status_code == 422 and "\n" not in r.json()["error"]


# -- storage, on both databases -------------------------------------------------------------------


def test_the_quota_stop_and_pages_on_both_databases(any_url: str) -> None:
    db = Database(any_url)
    db.migrate()
    repo = Repo(db)
    try:
        owner = repo.create_user("Owner", "hash", False)
        bots = [("bot", "random")] * 4

        def table(seats: list[tuple[str, str | None]], quota: int | None) -> str:
            made = repo.create_table(
                game="toy",
                profile="plain",
                options={},
                seats=seats,
                series_length=2,
                time_limit=30,
                public=True,
                created_by=owner.id,
                creator_seat=None,
                bot_quota=quota,
            )
            return made.id

        first = table(bots, 2)
        table(bots, 2)
        with pytest.raises(QuotaExceeded):
            table(bots, 2)
        waiting = table([("human", None), *bots[:3]], None)  # a person's seat: not counted
        info = repo.table(waiting)
        assert info is not None and not info.unattended
        assert repo.stop_table(first) == "stopped"
        assert repo.stop_table(first) == "stopped"
        assert repo.stop_table("nosuchtable") is None
        assert repo.stopped_among([first, waiting]) == {first}
        repo.set_table_status(first, "finished")  # a stopped table stays stopped
        info = repo.table(first)
        assert info is not None and info.status == "stopped"
        table(bots, 2)
        ids = [t.id for t in repo.tables(status=(*RUNNING, "stopped"), limit=2)]
        ids += [t.id for t in repo.tables(status=(*RUNNING, "stopped"), limit=2, offset=2)]
        assert len(set(ids)) == 4
        assert len(repo.tables_of_user(owner.id, limit=3, offset=2)) == 2
    finally:
        db.dispose()
