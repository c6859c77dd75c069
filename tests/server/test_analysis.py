"""Post-game analysis in the web app: jobs off the request path (a worker pool), progress, who
may see which seat's analysis, and the leak oracle run over every analysis sent."""

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, guest, make_settings, new_table, play_until
from tests.server.leaks import DealTruth, cards_in

FAST = {"analysis_seconds": 0.02, "analysis_worlds": 8}


def make_client(db_url: str, **overrides: Any) -> Iterator[TestClient]:
    app = create_app(make_settings(db_url, **{"analysis_workers": 0, **FAST, **overrides}))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    yield from make_client(db_url)


def finished_deals(client: TestClient, game: str, profile: str, count: int) -> list[int]:
    """A table where the logged-in guest plays seat 0 against three random bots, played through
    ``count`` deals; the deals' ids."""
    table = new_table(
        client,
        game=game,
        profile=profile,
        seats=[{"kind": "human"}, *[{"kind": "bot", "bot": "random"}] * 3],
        series_length=count,
    )
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        frame = {"type": "state", "phase": "waiting"}
        play_until(ws, frame, lambda f: f.get("phase") == "finished")
    deals = client.get(f"/api/tables/{table['id']}/deals").json()["deals"]
    assert all(d["status"] == "finished" for d in deals)
    return [d["id"] for d in deals]


def finished_deal(client: TestClient, game: str, profile: str) -> tuple[None, int]:
    return None, finished_deals(client, game, profile, 1)[0]


def wait_done(client: TestClient, deal_id: str, seat: int) -> None:
    """Wait on the job's own event (in the app's loop), not on a clock."""
    jobs = client.app.state.services.analyses  # type: ignore[attr-defined]
    job = jobs.get(deal_id, seat)
    assert job is not None
    client.portal.call(job.finished.wait)  # type: ignore[union-attr]


def analysis_of(client: TestClient, deal_id: str, seat: int | None = None) -> dict[str, Any]:
    r = client.post(f"/api/deals/{deal_id}/analysis", json={"seat": seat}, headers=ORIGIN)
    assert r.status_code == 200, r.text
    started = r.json()["analysis"]
    assert started["status"] in ("running", "done")
    wait_done(client, deal_id, started["seat"])
    q = "" if seat is None else f"?seat={seat}"
    got = client.get(f"/api/deals/{deal_id}/analysis{q}")
    assert got.status_code == 200, got.text
    out: dict[str, Any] = got.json()["analysis"]
    assert out["status"] == "done", out
    return out


def assert_no_leak(client: TestClient, deal_id: str, analysis: dict[str, Any], seat: int) -> int:
    repo = client.app.state.services.repo  # type: ignore[attr-defined]
    truth = DealTruth(repo.deal_by_public_id(deal_id).full_record())
    for d in analysis["decisions"]:
        # The seat's legal choices at a decision are what it saw then (its own action's cards
        # count as seen: it chose them).
        leaked = cards_in(d) - truth.allowed(d["index"] + 1, seat)
        assert not leaked, f"the analysis of seat {seat} names {sorted(leaked)} at {d['index']}"
    return len(analysis["decisions"])


@pytest.mark.parametrize(
    ("game", "profile"), [("doppelkopf", "wielandstrasse"), ("cego", "schwarzwald")]
)
def test_a_player_analyses_his_own_seat_without_leaks(
    client: TestClient, game: str, profile: str
) -> None:
    guest(client)
    _table, deal_id = finished_deal(client, game, profile)
    out = analysis_of(client, deal_id)
    assert out["seat"] == 0 and out["total"] == out["done"] == len(out["decisions"]) > 0
    record = client.app.state.services.repo.deal_by_public_id(deal_id).full_record()  # type: ignore[attr-defined]
    for d in out["decisions"]:
        assert d["seat"] == 0 and record["actions"][d["index"]]["seat"] == 0
        assert d["loss"] >= 0 and len(d["choices"]) > 1
        assert d["chosen"] in [c["action"] for c in d["choices"]]
        assert d["by_bot"] is False
    assert assert_no_leak(client, deal_id, out, 0) > 0
    # Asked again: the same analysis, not a new job.
    again = client.post(f"/api/deals/{deal_id}/analysis", json={}, headers=ORIGIN).json()
    assert again["analysis"] == out


def test_who_may_see_which_seat(client: TestClient) -> None:
    guest(client)
    _table, deal_id = finished_deal(client, "doppelkopf", "wielandstrasse")
    player = dict(client.cookies)
    url = f"/api/deals/{deal_id}/analysis"
    # The player: his own seat only.
    r = client.post(url, json={"seat": 1}, headers=ORIGIN)
    assert r.status_code == 403 and r.json() == {
        "error": "you may see the analysis of your own seat only"
    }
    assert client.get(f"{url}?seat=2").status_code == 403
    assert client.get(url).json() == {"analysis": None}  # not asked for yet
    mine = analysis_of(client, deal_id)
    # Someone else (the replay shows them every hand of the finished deal): a person's seat.
    client.cookies.clear()
    assert client.post(url, json={"seat": 0}, headers=ORIGIN).status_code == 401
    anonymous = client.get(f"{url}?seat=0")
    assert anonymous.status_code == 200 and anonymous.json()["analysis"] == mine
    guest(client)
    assert client.post(url, json={}, headers=ORIGIN).json() == {
        "error": "say which seat to analyse"
    }
    bot = client.post(url, json={"seat": 1}, headers=ORIGIN)
    assert bot.status_code == 400 and "bot's seat" in bot.json()["error"]
    assert client.post(url, json={"seat": 0}, headers=ORIGIN).json()["analysis"] == mine
    assert client.post(url, json={"seat": 9}, headers=ORIGIN).status_code == 422
    assert client.post("/api/deals/99999/analysis", json={}, headers=ORIGIN).status_code == 404
    client.cookies.update(player)


def test_not_while_the_deal_is_played(client: TestClient) -> None:
    guest(client)
    table = new_table(
        client,
        game="doppelkopf",
        profile="wielandstrasse",
        seats=[{"kind": "human"}, *[{"kind": "bot", "bot": "random"}] * 3],
        series_length=1,
    )
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        play_until(ws, {"type": "state", "phase": "waiting"}, lambda f: f.get("phase") == "playing")
        deal_id = client.get(f"/api/tables/{table['id']}/deals").json()["deals"][0]["id"]
        r = client.post(f"/api/deals/{deal_id}/analysis", json={}, headers=ORIGIN)
        assert r.status_code == 403 and "once it is over" in r.json()["error"]


def test_in_the_worker_process_pool(db_url: str) -> None:
    """The searches run in a spawned worker process, as bot decisions do."""
    for client in make_client(db_url, analysis_workers=1):
        guest(client)
        _table, deal_id = finished_deal(client, "doppelkopf", "wielandstrasse")
        out = analysis_of(client, deal_id)
        assert out["decisions"] and out["done"] == out["total"]
        jobs = client.app.state.services.analyses  # type: ignore[attr-defined]
        assert type(jobs._pool()).__name__ == "ProcessPoolExecutor"
        assert_no_leak(client, deal_id, out, 0)


def test_progress_and_one_running_analysis_per_account(client: TestClient) -> None:
    """While the workers are busy the job says how far it is; a second analysis of the same
    account waits its turn (429) until the first is done."""
    guest(client)
    first, second = finished_deals(client, "doppelkopf", "wielandstrasse", 2)[:2]
    jobs = client.app.state.services.analyses  # type: ignore[attr-defined]
    gate = threading.Event()
    blocker = jobs._pool().submit(gate.wait)  # the one worker thread is busy until the gate opens
    try:
        r = client.post(f"/api/deals/{first}/analysis", json={}, headers=ORIGIN)
        assert r.status_code == 200
        assert r.json()["analysis"]["status"] == "running"
        busy = client.get(f"/api/deals/{first}/analysis").json()["analysis"]
        assert busy["status"] == "running" and busy["done"] == 0 and busy["decisions"] == []
        refused = client.post(f"/api/deals/{second}/analysis", json={}, headers=ORIGIN)
        assert refused.status_code == 429 and "still running" in refused.json()["error"]
    finally:
        gate.set()
        blocker.result(timeout=30)
    wait_done(client, first, 0)
    done = client.get(f"/api/deals/{first}/analysis").json()["analysis"]
    assert done["status"] == "done" and done["done"] == done["total"] > 0
    assert analysis_of(client, second)["status"] == "done"
