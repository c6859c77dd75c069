"""A log people can read (issue 32): each change names its game by number and says what changed.

The log route answers with ``about`` per change when asked (``?about=1``): the game's number,
the summary's fields that changed, the game's value and what each seat writes; the sheet lists
its deleted rows. The page words them in its language (``sheet.js``).
"""

from typing import Any

from fastapi.testclient import TestClient

from stichwerk.sheet.diff import describe_log
from tests.server.test_sheet_api import CEGO, create, refused, tokens

FIRST = {"game_type": "normal", "re": [0, 2], "re_augen": 150, "announcements": {"re": ["re"]}}
FIXED = {
    "game_type": "normal",
    "re": [0, 2],
    "re_augen": 160,
    "announcements": {"re": ["re", "keine-90"]},
}


def post(client: TestClient, scorer: str, change: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/sheets/{scorer}/changes", json=change)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def log(client: TestClient, token: str, since: int = 0) -> list[dict[str, Any]]:
    r = client.get(f"/api/sheets/{token}/changes", params={"since": since, "about": 1})
    assert r.status_code == 200, r.text
    changes: list[dict[str, Any]] = r.json()["changes"]
    return changes


def test_a_correction_is_named_by_its_game_number_and_says_what_changed(
    client: TestClient,
) -> None:
    scorer, follower = tokens(create(client))
    post(client, scorer, {"op": "add", "entry": "g1", "summary": FIRST})
    post(client, scorer, {"op": "add", "entry": "g2", "summary": {"redeal": "schmeissen"}})
    post(client, scorer, {"op": "add", "entry": "g3", "summary": FIRST})
    post(client, scorer, {"op": "correct", "entry": "g1", "base": 1, "summary": FIXED})
    changes = log(client, follower)
    assert [c["seq"] for c in changes] == [1, 2, 3, 4]
    first, redeal, third, fixed = (c["about"] for c in changes)
    assert first["op"] == "add" and first["number"] == 1 and first["label"] == "normal"
    assert first["written"] == [3, 0, 3, 0]
    # A redeal counts no game: it is named by its place on the list.
    assert redeal["number"] is None and redeal["index"] == 2
    assert redeal["label"] == "redeal-schmeissen"
    assert third["number"] == 2 and third["index"] == 3
    # The correction of game 1: Re 150 -> 160 Augen, Keine 90 said; 3 -> 5 points.
    assert fixed["op"] == "correct" and fixed["number"] == 1 and fixed["index"] == 1
    assert fixed["version"] == 2
    assert fixed["fields"] == [
        {"field": "re_augen", "from": 150, "to": 160},
        {"field": "announcements.re", "added": ["keine-90"], "removed": []},
    ]
    assert fixed["value"] == {"from": 3, "to": 5}
    assert fixed["settlement"] == [
        {"seat": 0, "from": 3, "to": 5},
        {"seat": 2, "from": 3, "to": 5},
    ]
    assert fixed["written"] == [5, 0, 5, 0]
    # Read from a later position, the log still knows what happened before it.
    assert [c["about"]["number"] for c in log(client, follower, since=3)] == [1]
    # Without ``about`` the log is as it was (the page's sync reads it often).
    plain = client.get(f"/api/sheets/{follower}/changes").json()["changes"]
    assert all("about" not in c for c in plain)


def test_a_deleted_deal_is_named_and_listed(client: TestClient) -> None:
    scorer, follower = tokens(create(client))
    post(client, scorer, {"op": "add", "entry": "g1", "summary": FIRST})
    post(client, scorer, {"op": "add", "entry": "g2", "summary": FIXED})
    done = post(client, scorer, {"op": "delete", "entry": "g1", "base": 1})
    about = log(client, follower)[-1]["about"]
    assert about["op"] == "delete" and about["number"] == 1 and about["written"] == [3, 0, 3, 0]
    # The list keeps the deleted row to show it struck through; the answer and a reader see it.
    for sheet in (done["sheet"], client.get(f"/api/sheets/{follower}").json()["sheet"]):
        assert [(d["id"], d["number"], d["label"]) for d in sheet["deleted"]] == [
            ("g1", 1, "normal")
        ]
        assert sheet["deleted"][0]["settlement"] == [3, 0, 3, 0]


def test_a_cego_correction_names_the_declarer_points(client: TestClient) -> None:
    scorer, follower = tokens(create(client, CEGO))
    summary = {"contract": "eine", "declarer": 1, "declarer_points": 41}
    post(client, scorer, {"op": "add", "entry": "c1", "summary": summary})
    fixed = {**summary, "declarer_points": 38}
    post(client, scorer, {"op": "correct", "entry": "c1", "summary": fixed})
    about = log(client, follower)[-1]["about"]
    assert about["number"] == 1
    assert about["fields"] == [{"field": "declarer_points", "from": 41, "to": 38}]
    assert about["written"] != [-20, 60, -20, -20]  # lost now
    assert {s["seat"] for s in about["settlement"]} == {0, 1, 2, 3}


def test_a_bad_about_is_one_line(client: TestClient) -> None:
    _, follower = tokens(create(client))
    refused(client.get(f"/api/sheets/{follower}/changes?about=maybe"), 422, "about")


def test_the_log_read_again_describes_only_what_came_since_and_the_same(
    client: TestClient,
) -> None:
    """The server keeps the log described up to where it was read: read again after more
    changes, it gives what a whole replay gives (``describe_log``)."""
    scorer, follower = tokens(create(client))
    post(client, scorer, {"op": "add", "entry": "g1", "summary": FIRST})
    post(client, scorer, {"op": "add", "entry": "g2", "summary": FIRST})
    first = log(client, follower)
    assert len(first) == 2 and log(client, scorer) == first  # read twice: the same
    post(client, scorer, {"op": "correct", "entry": "g1", "summary": FIXED})
    post(client, scorer, {"op": "delete", "entry": "g2"})
    post(client, scorer, {"op": "add", "entry": "g3", "summary": FIXED, "before": "g1"})
    again = log(client, follower)
    assert again[:2] == first
    settings = client.get(f"/api/sheets/{follower}/changes").json()["settings"]
    whole = describe_log(settings, [c["change"] for c in again])
    assert [c["about"] for c in again] == whole
    assert [a["op"] for a in whole] == ["add", "add", "correct", "delete", "add"]
    assert whole[2]["number"] == 1 and whole[3]["number"] == 2 and whole[4]["number"] == 1
    assert [c["seq"] for c in log(client, follower, since=4)] == [5]
