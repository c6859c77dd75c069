"""No score sheet stalls the server (issue 29): scoring runs on the sheets' own bounded queue,
off the event loop; a change answers and broadcasts only the rows it changed; the lists kept in
memory are bounded by bytes; every figure and text from outside is checked where it enters."""

import json
import random
import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.sheets import LiveList, ScoreQueue, SheetHub, SheetPage, _score_change
from stichwerk.sheet import MAX_DEALS, ListSettings, Sheet
from stichwerk.sheet.sheet import Sheet as SheetClass
from stichwerk.storage.sheets import ListInfo
from tests.server.helpers import ORIGIN
from tests.server.test_sheet_api import refused

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
HEADER = {"list": {"game": "doppelkopf", "profile": "wielandstrasse", "games": None,
                   "names": NAMES}}  # fmt: skip
DEADLINE = 30.0


def normal(rng: random.Random) -> dict[str, Any]:
    return {"game_type": "normal", "re": rng.sample(range(4), 2), "re_augen": rng.randint(60, 200)}


def imported(client: TestClient, deals: int, seed: int = 5) -> tuple[str, str, dict[str, Any]]:
    """An open-ended list of ``deals`` deals: its scorer and follower tokens and the answer."""
    rng = random.Random(seed)
    lines = [json.dumps(HEADER)] + [json.dumps(normal(rng)) for _ in range(deals)]
    r = client.post("/api/sheets/import", json={"text": "\n".join(lines)})
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made["links"]["scorer"][3:], made["links"]["follower"][3:], made


def hub_of(client: TestClient) -> SheetHub:
    hub: SheetHub = client.app.state.sheets  # type: ignore[attr-defined]
    return hub


def merged(rows: list[dict[str, Any]], start: int, part: list[dict[str, Any]]) -> list[Any]:
    """What a page makes of a part (``sheet.js`` ``adopt``): the rows before ``start`` kept, a
    row that only moved taken from the page's own with its new index and totals."""
    had = {row["id"]: row for row in rows}
    new = [{**had[r["id"]], "index": r["index"], "totals": r["totals"]} if r.get("same") else r
           for r in part]  # fmt: skip
    return rows[:start] + new


def test_a_change_answers_and_sends_only_the_rows_from_the_changed_deal_on(
    client: TestClient,
) -> None:
    scorer, follower, made = imported(client, 12)
    rows = made["sheet"]["rows"]
    with client.websocket_connect(f"/ws/sheets/{follower}", headers=ORIGIN) as ws:
        assert ws.receive_json()["type"] == "hello"
        first = ws.receive_json()
        assert first["from"] == 0 and first["base"] == 0 and len(first["sheet"]["rows"]) == 12
        fixed = {"op": "correct", "entry": rows[8]["id"], "summary": normal(random.Random(1))}
        r = client.post(f"/api/sheets/{scorer}/changes", json=fixed)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["seq"] == 13 and body["from"] == 8 and body["base"] == 12
        part = body["sheet"]["rows"]
        assert [row["index"] for row in part] == [9, 10, 11, 12]
        # The corrected row whole; the later ones moved only their totals: id, index, totals.
        assert part[0]["version"] == 2 and "same" not in part[0]
        assert all(set(row) == {"id", "index", "totals", "same"} for row in part[1:])
        frame = ws.receive_json()
        assert frame["seq"] == 13 and frame["from"] == 8 and frame["base"] == 12
        assert frame["sheet"] == body["sheet"]
        # The rows before it and the part make the whole list as it is now.
        whole = client.get(f"/api/sheets/{follower}").json()["sheet"]
        assert merged(rows, 8, part) == whole["rows"]
        assert {k: v for k, v in body["sheet"].items() if k != "rows"} == {
            k: v for k, v in whole.items() if k != "rows"
        }
        # A deletion moves every later deal's dealer: those rows come whole.
        r = client.post(
            f"/api/sheets/{scorer}/changes", json={"op": "delete", "entry": rows[2]["id"]}
        )
        frame = ws.receive_json()
        assert frame["from"] == 2 and frame["base"] == 13
        assert frame["sheet"] == r.json()["sheet"]
        now = client.get(f"/api/sheets/{follower}").json()["sheet"]
        assert merged(whole["rows"], 2, frame["sheet"]["rows"]) == now["rows"]
        # A deletion of the last deal sends no row at all, the totals all the same.
        r = client.post(
            f"/api/sheets/{scorer}/changes", json={"op": "delete", "entry": now["rows"][-1]["id"]}
        )
        frame = ws.receive_json()
        assert frame["from"] == 10 and frame["sheet"]["rows"] == []
        assert frame["sheet"]["totals"] == now["rows"][9]["totals"]


def test_a_page_that_falls_behind_gets_one_frame_from_the_earliest_row_it_missed() -> None:
    rng = random.Random(2)
    sheet = Sheet(ListSettings(game="doppelkopf", profile="wielandstrasse", names=tuple(NAMES)))
    for n in range(10):
        sheet.add(normal(rng), entry_id=f"d{n}")
    now = datetime.now(UTC)
    info = ListInfo("l1", "s" * 22, "f" * 22, "doppelkopf", sheet.settings.to_json(), now)
    live = LiveList(info, sheet, 10)
    page = SheetPage()
    live.watchers.add(page)
    for seq, entry in ((11, "d7"), (12, "d3"), (13, "d9")):
        change = {"op": "correct", "entry": entry, "summary": normal(rng)}
        live.changed(seq, change, _score_change(live.sheet, change))
    assert page.latest is not None
    frame = json.loads(page.latest)
    assert frame["seq"] == 13 and frame["from"] == 3 and frame["base"] == 10
    part = frame["sheet"]["rows"]
    assert [row["id"] for row in part] == [f"d{n}" for n in range(3, 10)]
    # Rows changed since the page's position come whole, the others only moved.
    assert [row.get("same", False) for row in part] == [n not in (3, 7, 9) for n in range(3, 10)]
    # Once sent, the next frame starts afresh.
    page.latest = None
    change = {"op": "delete", "entry": "d8"}
    live.changed(14, change, _score_change(live.sheet, change))
    frame = json.loads(page.latest)
    assert frame["from"] == 8 and frame["base"] == 13 and len(frame["sheet"]["rows"]) == 1


def test_scoring_runs_off_the_event_loop_on_the_sheets_own_threads(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a change is being scored, the server answers other requests: the scoring waits
    for a ``/healthz`` answer, which never comes if it holds the event loop."""
    scorer, _, made = imported(client, 4)
    scoring, answered = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}
    original = SheetClass.apply

    def slow_apply(self: Sheet, change: Any) -> Any:
        seen["thread"] = threading.current_thread().name
        scoring.set()
        seen["answered"] = answered.wait(DEADLINE)
        return original(self, change)

    monkeypatch.setattr(SheetClass, "apply", slow_apply)
    result: dict[str, Any] = {}

    def post() -> None:
        change = {"op": "correct", "entry": made["sheet"]["rows"][0]["id"],
                  "summary": normal(random.Random(3))}  # fmt: skip
        result["status"] = client.post(f"/api/sheets/{scorer}/changes", json=change).status_code

    worker = threading.Thread(target=post)
    worker.start()
    assert scoring.wait(DEADLINE)
    assert client.get("/healthz").status_code == 200
    answered.set()
    worker.join(DEADLINE)
    assert seen["answered"], "the scoring held the event loop: /healthz waited for it"
    assert seen["thread"].startswith("sheet-score")
    assert result["status"] == 200


def test_a_full_scoring_queue_answers_busy_at_once(client: TestClient) -> None:
    scorer, _, _ = imported(client, 3)
    hub = hub_of(client)
    queue = ScoreQueue(workers=1, depth=1)
    hub.scoring, old = queue, hub.scoring
    release = threading.Event()
    blocker = queue.executor.submit(release.wait, DEADLINE)
    queue._pending = 1  # the job above holds the only place
    try:
        change = {"op": "add", "summary": normal(random.Random(4))}
        r = client.post(f"/api/sheets/{scorer}/changes", json=change)
        assert refused(r, 503, "busy, try again") and r.headers["retry-after"] == "1"
        r = client.post(f"/api/sheets/{scorer}/preview", json={"summary": change["summary"]})
        refused(r, 503, "busy")
        refused(client.post("/api/sheets/import", json={"text": json.dumps(HEADER)}), 503, "busy")
        release.set()
        blocker.result(DEADLINE)
        queue._pending = 0
        r = client.post(f"/api/sheets/{scorer}/changes", json=change)
        assert r.status_code == 200 and r.json()["seq"] == 4
        assert queue.pending == 0
    finally:
        release.set()
        hub.scoring = old
        queue.close()


def test_the_lists_kept_in_memory_are_bounded_by_bytes(client: TestClient) -> None:
    hub = hub_of(client)
    tokens = [imported(client, 40, seed)[1] for seed in range(4)]
    one = max(live.size for live in hub._lists.values())
    assert one > 40 * 200  # an estimate from the rows' JSON, not a count
    hub.memory = 2 * one
    for token in tokens:
        assert client.get(f"/api/sheets/{token}").status_code == 200
        assert hub.memory_used() <= hub.memory
    assert len(hub._lists) == 2
    # A list dropped is rebuilt from its log when asked again, as it was.
    again = client.get(f"/api/sheets/{tokens[0]}").json()["sheet"]
    assert len(again["rows"]) == 40 and len(hub._lists) == 2


@pytest.mark.parametrize("value", ["1e308", "-1e308", "1" + "0" * 30, "1e300"])
def test_huge_card_points_are_refused_with_one_line_on_every_route(
    client: TestClient, value: str
) -> None:
    made = client.post("/api/sheets", json={"game": "cego", "profile": "schwarzwald",
                                             "names": NAMES}).json()  # fmt: skip
    scorer = made["links"]["scorer"][3:]
    summary = '{"contract": "eine", "declarer": 1, "declarer_points": ' + value + "}"
    json_headers = {"content-type": "application/json"}
    for url, body in (
        (f"/api/sheets/{scorer}/preview", '{"summary": ' + summary + "}"),
        (f"/api/sheets/{scorer}/changes", '{"op": "add", "summary": ' + summary + "}"),
        ("/api/sheets/import", json.dumps({"text": '{"list": {"game": "cego"}}\n' + summary})),
    ):
        r = client.post(url, content=body, headers=json_headers)
        refused(r, 400, "declarer_points")


def test_a_title_with_bidi_overrides_or_nul_is_refused_and_newlines_fold(
    client: TestClient,
) -> None:
    for title in ("Stamm\u202etisch", "Stamm\x00tisch"):
        refused(client.post("/api/sheets", json={"game": "cego", "title": title}), 400, "'title'")
    made = client.post("/api/sheets", json={"game": "cego", "title": "Freitag\nRunde"}).json()
    assert made["sheet"]["list"]["title"] == "Freitag Runde"


def test_a_list_past_the_deal_cap_is_refused_by_import_and_by_add(client: TestClient) -> None:
    rng = random.Random(8)
    lines = [json.dumps(HEADER)] + [json.dumps(normal(rng)) for _ in range(MAX_DEALS + 1)]
    refused(
        client.post("/api/sheets/import", json={"text": "\n".join(lines)}),
        400,
        f"at most {MAX_DEALS} deals",
    )
    scorer, _, _ = imported(client, MAX_DEALS)
    r = client.post(f"/api/sheets/{scorer}/changes", json={"op": "add", "summary": normal(rng)})
    refused(r, 400, f"at most {MAX_DEALS} deals")


def test_a_list_stored_before_the_cap_still_opens_and_takes_corrections(
    client: TestClient,
) -> None:
    rng = random.Random(11)
    hub = hub_of(client)
    changes = [
        (f"k{n}", {"op": "add", "summary": normal(rng), "entry": f"d{n}", "key": f"k{n}"})
        for n in range(MAX_DEALS + 20)
    ]
    settings = ListSettings(game="doppelkopf", profile="wielandstrasse", names=tuple(NAMES))
    info = hub.repo.create_list(settings.to_json(), changes, link="import")
    r = client.get(f"/api/sheets/{info.scorer_token}")
    assert r.status_code == 200, r.text
    assert len(r.json()["sheet"]["rows"]) == MAX_DEALS + 20
    url = f"/api/sheets/{info.scorer_token}/changes"
    r = client.post(url, json={"op": "correct", "entry": "d3", "summary": normal(rng)})
    assert r.status_code == 200, r.text
    refused(client.post(url, json={"op": "add", "summary": normal(rng)}), 400, "at most")
    assert client.post(url, json={"op": "delete", "entry": "d4"}).status_code == 200


def test_a_long_change_log_is_written_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log of a season is thousands of changes: writing it as JSON must not hold the event
    loop (the writing waits for a ``/healthz`` answer, which never comes if it holds it)."""
    from stichwerk.storage.sheets import StoredChange

    scorer, _, _ = imported(client, 3)
    writing, answered = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}
    original = StoredChange.to_json

    def slow_to_json(self: StoredChange) -> dict[str, Any]:
        if not writing.is_set():
            writing.set()
            seen["answered"] = answered.wait(DEADLINE)
        return original(self)

    monkeypatch.setattr(StoredChange, "to_json", slow_to_json)
    result: dict[str, Any] = {}

    def read() -> None:
        result["log"] = client.get(f"/api/sheets/{scorer}/changes").json()

    worker = threading.Thread(target=read)
    worker.start()
    assert writing.wait(DEADLINE)
    assert client.get("/healthz").status_code == 200
    answered.set()
    worker.join(DEADLINE)
    assert seen["answered"], "the log was written on the event loop: /healthz waited for it"
    assert [c["seq"] for c in result["log"]["changes"]] == [1, 2, 3]
    assert result["log"]["seq"] == 3
