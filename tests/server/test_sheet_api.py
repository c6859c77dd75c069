"""The score sheet's HTTP API and websocket: every refusal is one JSON line naming the field.

Storage runs on both databases where it is touched (``test_sheet_storage.py``); these tests use
SQLite through FastAPI's test client.
"""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import ORIGIN

DOKO = {
    "game": "doppelkopf",
    "profile": "wielandstrasse",
    "names": ["Anna", "Bernd", "Clara", "Dieter"],
}
CEGO = {"game": "cego", "profile": "schwarzwald", "names": ["Anna", "Bernd", "Clara", "Dieter"]}
NORMAL = {"game_type": "normal", "re": [0, 2], "re_augen": 130}


def create(client: TestClient, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    r = client.post("/api/sheets", json=settings or DOKO)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def tokens(made: dict[str, Any]) -> tuple[str, str]:
    links = made["links"]
    return links["scorer"].removeprefix("/s/"), links["follower"].removeprefix("/s/")


def refused(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    message: str = body["error"]
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


def test_a_list_is_created_read_and_entered(client: TestClient) -> None:
    made = create(client)
    scorer, follower = tokens(made)
    assert scorer != follower and len(scorer) == len(follower) == 22
    assert made["role"] == "scorer" and made["seq"] == 0
    assert made["sheet"]["list"]["games"] == 8 and made["sheet"]["duty_owed"] == [1, 1, 1, 1]
    r = client.post(
        f"/api/sheets/{scorer}/changes", json={"op": "add", "summary": NORMAL, "key": "k1"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["applied"]["duplicate"] is False and body["seq"] == 1
    assert body["sheet"]["rows"][0]["settlement"] == [1, 0, 1, 0]
    # The follower link reads the same list but cannot see the scorer link.
    seen = client.get(f"/api/sheets/{follower}").json()
    assert seen["role"] == "follower" and set(seen["links"]) == {"follower"}
    assert seen["sheet"]["rows"] == body["sheet"]["rows"]


def test_a_repeated_key_answers_as_the_first_time_and_is_not_doubled(client: TestClient) -> None:
    scorer, _ = tokens(create(client))
    change = {"op": "add", "summary": NORMAL, "key": "same-key", "entry": "e1"}
    first = client.post(f"/api/sheets/{scorer}/changes", json=change).json()
    again = client.post(f"/api/sheets/{scorer}/changes", json=change).json()
    assert again["applied"] == {**first["applied"], "duplicate": True}
    assert again["seq"] == first["seq"] == 1
    assert len(again["sheet"]["rows"]) == 1
    log = client.get(f"/api/sheets/{scorer}/changes").json()["changes"]
    assert [c["seq"] for c in log] == [1] and log[0]["change"]["key"] == "same-key"
    # The same key for another change is refused.
    other = {"op": "delete", "entry": "e1", "key": "same-key"}
    refused(client.post(f"/api/sheets/{scorer}/changes", json=other), 400, "same-key")


def test_corrections_and_deletions_follow_versions_and_conflicts_are_409(
    client: TestClient,
) -> None:
    scorer, _ = tokens(create(client))
    url = f"/api/sheets/{scorer}/changes"
    client.post(url, json={"op": "add", "summary": NORMAL, "entry": "d1"})
    client.post(url, json={"op": "add", "summary": NORMAL, "entry": "d2"})
    fixed = {**NORMAL, "re_augen": 90}
    r = client.post(url, json={"op": "correct", "entry": "d1", "base": 1, "summary": fixed})
    assert r.status_code == 200
    rows = r.json()["sheet"]["rows"]
    assert rows[0]["version"] == 2 and rows[0]["settlement"] == [0, 2, 0, 2]
    # Every later total follows the correction.
    assert rows[1]["totals"] == [1, 2, 1, 2]
    # Another phone corrected deal 1 from version 1 meanwhile: a conflict, nothing changes.
    stale = client.post(url, json={"op": "correct", "entry": "d1", "base": 1, "summary": NORMAL})
    refused(stale, 409, "deal 1", "another phone")
    refused(client.post(url, json={"op": "delete", "entry": "d1", "base": 1}), 409, "version 2")
    r = client.post(url, json={"op": "delete", "entry": "d1", "base": 2})
    assert [row["id"] for row in r.json()["sheet"]["rows"]] == ["d2"]
    refused(client.post(url, json={"op": "delete", "entry": "d1"}), 409, "no longer on the list")
    log = client.get(f"/api/sheets/{scorer}/changes", params={"since": 2}).json()["changes"]
    assert [c["change"]["op"] for c in log] == ["correct", "delete"]


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"game": "skat"}, ["unknown game"]),
        ({"game": "doppelkopf", "profile": "hamburg"}, ["'profile'", "hamburg"]),
        ({"game": "doppelkopf", "seats": 3}, ["'seats'"]),
        ({"game": "cego", "seats": 6}, ["'seats'"]),
        ({"game": "cego", "names": ["A", "B"]}, ["'names'", "4 seats"]),
        ({"game": "cego", "names": ["A", "a", "B", "C"]}, ["'names'", "same name"]),
        ({"game": "cego", "first_dealer": 4}, ["'first_dealer'"]),
        ({"game": "cego", "games": 0}, ["'games'"]),
        ({"game": "cego", "duty_solos": 1, "games": 8}, ["'duty_solos'", "no Pflicht-Soli"]),
        ({"game": "doppelkopf", "games": None, "duty_solos": 1}, ["'duty_solos'", "fixed number"]),
        ({"game": "doppelkopf", "duty_penalty": -1}, ["'duty_penalty'"]),
        ({"game": "doppelkopf", "duty_enforcement": "shame"}, ["'duty_enforcement'"]),
        ({"game": "cego", "games": 8, "closing": ["polka"]}, ["'closing'", "polka"]),
        (
            {"game": "cego", "profile": "schwarzwald", "games": 8, "closing": ["drescher"]},
            ["drescher"],
        ),
        ({"game": "cego", "options": {"fach": "five"}}, ["fach"]),
        ({"game": "cego", "colour": "red"}, ["colour"]),
        ({"game": "cego", "title": "x" * 200}, ["'title'"]),
    ],
)
def test_a_bad_list_is_refused_with_one_line(
    client: TestClient, settings: dict[str, Any], words: list[str]
) -> None:
    refused(client.post("/api/sheets", json=settings), 400, *words)


def test_bodies_are_bounded_and_must_be_json_objects(client: TestClient) -> None:
    refused(client.post("/api/sheets", json={**CEGO, "title": "x" * 10_000}), 413, "too large")
    as_json = {"content-type": "application/json"}
    refused(client.post("/api/sheets", content=b"{nope", headers=as_json), 400, "not valid JSON")
    refused(client.post("/api/sheets", json=[1, 2]), 400, "JSON object")
    refused(client.post("/api/sheets", content=b"game=cego",
                        headers={"content-type": "application/x-www-form-urlencoded"}),
            415, "JSON")  # fmt: skip
    scorer, _ = tokens(create(client))
    big = {"op": "add", "summary": {**NORMAL, "announcements": {"re": ["re"] * 5000}}}
    # The app's gate refuses it from its Content-Length, before the sheet's own cap.
    refused(client.post(f"/api/sheets/{scorer}/changes", json=big), 413, "over 16384 bytes")


@pytest.mark.parametrize(
    ("settings", "summary", "words"),
    [
        (DOKO, {**NORMAL, "re_augen": 300}, ["deal 1", "'re_augen'", "0 to 240"]),
        (DOKO, {**NORMAL, "re_augen": 100, "schwarz": "kontra"}, ["'re_augen'", "240"]),
        (DOKO, {**NORMAL, "re_augen": 0, "schwarz": "re", "extras": {"re": ["fuchs"]}}, ["fuchs"]),
        (DOKO, {**NORMAL, "announcements": {"re": ["kontra"]}}, ["re cannot announce"]),
        (DOKO, {"game_type": "solo-herz", "re": [1], "re_augen": 130, "extras": {"re": ["fuchs"]}},
         ["'fuchs'", "solo-herz"]),
        (DOKO, {"game_type": "normal", "re": [0], "re_augen": 130}, ["'re'", "two seats"]),
        (DOKO, {"game_type": "hochzeit-plus", "re": [0, 1], "re_augen": 130}, ["game_type"]),
        ({**DOKO, "profile": "ddv"}, {"redeal": "schmeissen"}, ["schmeissen"]),
        (CEGO, {"contract": "soli-ulti", "declarer": 1, "declarer_points": 50,
                "last_trick_with_geiss": True}, ["soli-ulti", "not played"]),
        (CEGO, {"contract": "halbe", "declarer": 1, "declarer_points": 120},
         ["'declarer_points'", "79"]),
        (CEGO, {"contract": "raeuber", "announcer": 1, "points": [10, 20, 30, 20],
                "tricks": [3, 3, 3, 2], "out_of_play": 0}, ["'points'", "79"]),
        (CEGO, {"contract": "raeuber", "announcer": 1, "points": [10, 20, 30, 10],
                "tricks": [3, 3, 3, 2], "out_of_play": 2}, ["'points'", "add up"]),
        (CEGO, {"contract": "raeuber", "announcer": 2, "points": [10, 20, 30, 10],
                "tricks": [3, 3, 3, 2], "out_of_play": 9}, ["'announcer'", "Vorhand"]),
        (CEGO, {"contract": "drescher", "last_trick": 1}, ["Drescher"]),
        (CEGO, {"contract": "halbe", "declarer": 7, "declarer_points": 41}, ["'declarer'"]),
    ],
)  # fmt: skip
def test_an_impossible_deal_is_refused_naming_the_field_and_nothing_is_saved(
    client: TestClient, settings: dict[str, Any], summary: dict[str, Any], words: list[str]
) -> None:
    scorer, _ = tokens(create(client, settings))
    refused(client.post(f"/api/sheets/{scorer}/preview", json={"summary": summary}), 400, *words)
    r = client.post(f"/api/sheets/{scorer}/changes", json={"op": "add", "summary": summary})
    refused(r, 400, *words)
    after = client.get(f"/api/sheets/{scorer}").json()
    assert after["seq"] == 0 and after["sheet"]["rows"] == []
    assert client.get(f"/api/sheets/{scorer}/changes").json()["changes"] == []


def test_a_preview_is_the_row_the_deal_makes_and_saves_nothing(client: TestClient) -> None:
    scorer, _ = tokens(create(client, CEGO))
    summary = {"contract": "eine", "declarer": 1, "declarer_points": 41}
    row = client.post(f"/api/sheets/{scorer}/preview", json={"summary": summary}).json()["row"]
    assert row["settlement"] == [-20, 60, -20, -20] and row["score"]["written"] == 20
    assert client.get(f"/api/sheets/{scorer}").json()["sheet"]["rows"] == []
    done = client.post(f"/api/sheets/{scorer}/changes", json={"op": "add", "summary": summary})
    saved = done.json()["sheet"]["rows"][0]
    assert {k: saved[k] for k in ("settlement", "score", "label")} == {
        k: row[k] for k in ("settlement", "score", "label")
    }
    # A preview in place of a saved deal (a correction to come).
    other = {"contract": "eine", "declarer": 1, "declarer_points": 30}
    fixed = client.post(
        f"/api/sheets/{scorer}/preview", json={"summary": other, "entry": saved["id"]}
    ).json()["row"]
    assert fixed["settlement"] == [30, -90, 30, 30]
    refused(client.post(f"/api/sheets/{scorer}/preview", json={"summary": []}), 400, "'summary'")
    refused(client.post(f"/api/sheets/{scorer}/preview", json={"summary": summary, "x": 1}),
            400, "'summary'")  # fmt: skip
    refused(client.post(f"/api/sheets/{scorer}/preview", json={"summary": summary, "entry": 3}),
            400, "'entry'")  # fmt: skip


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"op": "replace", "summary": NORMAL}, ["'op'"]),
        ({"op": "add"}, ["'summary'"]),
        ({"op": "add", "summary": NORMAL, "key": "no spaces allowed"}, ["'key'"]),
        ({"op": "add", "summary": NORMAL, "key": "k" * 65}, ["'key'"]),
        ({"op": "add", "summary": NORMAL, "colour": "red"}, ["'colour'"]),
        ({"op": "correct", "summary": NORMAL}, ["'entry'"]),
        ({"op": "delete", "entry": "x", "summary": NORMAL}, ["'summary'"]),
        ({"op": "delete", "entry": "x", "base": 0}, ["'base'"]),
        ({"op": "add", "summary": NORMAL, "before": "nowhere"}, ["nowhere"]),
    ],
)
def test_a_bad_change_is_refused_with_one_line(
    client: TestClient, change: dict[str, Any], words: list[str]
) -> None:
    scorer, _ = tokens(create(client))
    refused(client.post(f"/api/sheets/{scorer}/changes", json=change), 400, *words)


def test_links_are_checked_and_the_follower_link_only_reads(client: TestClient) -> None:
    scorer, follower = tokens(create(client))
    for token in ("x" * 22, "short", "a" * 200, "%20%20"):
        refused(client.get(f"/api/sheets/{token}"), 404, "no such score sheet")
    refused(client.post(f"/api/sheets/{follower}/changes", json={"op": "add", "summary": NORMAL}),
            403, "read-only")  # fmt: skip
    refused(client.post(f"/api/sheets/{follower}/preview", json={"summary": NORMAL}), 403)
    refused(client.get(f"/api/sheets/{scorer}/changes", params={"since": -1}), 422, "since")
    refused(client.get(f"/api/sheets/{scorer}/changes", params={"since": "x"}), 422, "since")
    assert client.get(f"/s/{scorer}").status_code == 200
    assert client.get(f"/s/{'y' * 22}").status_code == 404
    assert client.get("/s/not-a-token").status_code == 404


def test_qr_codes_show_each_link_to_whom_may_see_it(client: TestClient) -> None:
    scorer, follower = tokens(create(client))
    r = client.get(f"/api/sheets/{scorer}/qr/follower.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<svg") and f"/s/{follower}" in r.text
    assert f"/s/{scorer}" in client.get(f"/api/sheets/{scorer}/qr/scorer.svg").text
    refused(client.get(f"/api/sheets/{follower}/qr/scorer.svg"), 403, "read-only")
    assert client.get(f"/api/sheets/{follower}/qr/follower.svg").status_code == 200
    refused(client.get(f"/api/sheets/{scorer}/qr/admin.svg"), 404, "QR")


def test_export_and_import_give_the_same_list(client: TestClient) -> None:
    scorer, follower = tokens(create(client, {**DOKO, "title": "Stammtisch Hirschen"}))
    url = f"/api/sheets/{scorer}/changes"
    for summary in (
        NORMAL,
        {"game_type": "solo-damen", "re": [1], "re_augen": 150},
        {"redeal": "schmeissen", "redeal_by": 3},
        {"game_type": "normal", "re": [1, 3], "verworfen_by": 0},
    ):
        assert client.post(url, json={"op": "add", "summary": summary}).status_code == 200
    original = client.get(f"/api/sheets/{follower}").json()["sheet"]
    lines = client.get(f"/api/sheets/{follower}/export.jsonl")
    assert lines.status_code == 200
    assert 'filename="stichwerk-Stammtisch-Hirschen-' in lines.headers["content-disposition"]
    assert json.loads(lines.text.splitlines()[0])["list"]["title"] == "Stammtisch Hirschen"
    csv = client.get(f"/api/sheets/{follower}/export.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[0].startswith("deal,game,dealer,played,bock,Anna,Bernd")
    assert csv.text.splitlines()[-1].split(",")[5:9] == [str(t) for t in original["totals"]]
    made = client.post("/api/sheets/import", json={"text": lines.text})
    assert made.status_code == 200, made.text
    copy = made.json()
    assert copy["links"]["scorer"] != f"/s/{scorer}"
    for key in ("totals", "duty_owed", "duty_played", "next", "checks"):
        assert copy["sheet"][key] == original[key]
    assert [r["settlement"] for r in copy["sheet"]["rows"]] == [
        r["settlement"] for r in original["rows"]
    ]
    log = client.get(f"/api/sheets/{copy['links']['scorer'][3:]}/changes").json()["changes"]
    assert len(log) == 4 and {c["link"] for c in log} == {"import"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["line 1", "empty"]),
        ('{"list": {"game": "doppelkopf"}}\n{"game_type": "normal", "re": [0, 1], "re_augen": 999}',
         ["line 2", "deal 1", "'re_augen'"]),
        ('{"list": {"game": "doppelkopf"}}\nnot json', ["line 2"]),
        ('{"game_type": "normal"}', ["line 1", "'game'"]),
    ],
)  # fmt: skip
def test_a_bad_import_names_its_line_and_makes_no_list(
    client: TestClient, text: str, words: list[str]
) -> None:
    refused(client.post("/api/sheets/import", json={"text": text}), 400, *words)
    refused(client.post("/api/sheets/import", json={"lines": text}), 400, "'text'")


def test_followers_see_each_new_row_at_once(client: TestClient) -> None:
    scorer, follower = tokens(create(client))
    with (
        client.websocket_connect(f"/ws/sheets/{follower}", headers=ORIGIN) as one,
        client.websocket_connect(f"/ws/sheets/{scorer}", headers=ORIGIN) as two,
    ):
        assert one.receive_json() == {"type": "hello", "role": "follower"}
        assert two.receive_json() == {"type": "hello", "role": "scorer"}
        for ws in (one, two):
            first = ws.receive_json()
            assert first["type"] == "sheet" and first["seq"] == 0 and first["sheet"]["rows"] == []
        change = {"op": "add", "summary": NORMAL, "key": "live-1"}
        client.post(f"/api/sheets/{scorer}/changes", json=change)
        for ws in (one, two):
            frame = ws.receive_json()
            assert frame["seq"] == 1 and frame["change"]["key"] == "live-1"
            assert frame["sheet"]["rows"][0]["settlement"] == [1, 0, 1, 0]
            assert frame["sheet"]["totals"] == [1, 0, 1, 0]


def test_a_socket_from_another_site_or_to_no_list_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    _, follower = tokens(create(client))
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(
            f"/ws/sheets/{follower}", headers={"origin": "https://evil.example"}
        ) as ws,
    ):
        ws.receive_json()
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/sheets/{'z' * 22}", headers=ORIGIN) as ws,
    ):
        ws.receive_json()


def test_the_offline_pieces_are_served(client: TestClient) -> None:
    scorer, _ = tokens(create(client))
    sw = client.get("/s/sw.js")
    assert sw.status_code == 200 and "no-cache" in sw.headers["cache-control"]
    assert '"/s/new"' in sw.text and "/static/js/sheet.js" in sw.text
    manifest = client.get(f"/s/{scorer}/manifest.webmanifest").json()
    assert manifest["start_url"] == f"/s/{scorer}" and manifest["scope"] == "/s/"
    worker = client.get("/s/py/worker.js")
    assert "'wasm-unsafe-eval'" in worker.headers["content-security-policy"]
    # The page itself keeps the strict policy.
    page = client.get(f"/s/{scorer}")
    assert "wasm-unsafe-eval" not in page.headers["content-security-policy"]
    data = client.get("/s/py/stichwerk.zip")
    assert data.headers["content-type"] == "application/zip" and data.content[:2] == b"PK"
