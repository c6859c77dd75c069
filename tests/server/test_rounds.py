"""Closing rounds (Schlussrunden) at a Cego table: Drescher and Pflichträuber rounds after the
list's ordinary deals, one deal dealt by each seat in turn, then the series is over."""

from typing import Any

from fastapi.testclient import TestClient

from stichwerk.cli.replay import replay_record
from tests.server.helpers import ORIGIN, guest, member, new_table, play_until, receive_until

BOTS_4 = [{"kind": "bot", "bot": "random"}] * 4


def test_a_drescher_and_a_pflichtraeuber_round_close_the_list(client: TestClient) -> None:
    member(client)  # a table of bots only needs an account
    table = new_table(
        client,
        game="cego",
        profile="titisee",
        seats=BOTS_4,
        creator_seat=None,
        series_length=1,
        closing_rounds=["drescher", "pflichtraeuber"],
        first_dealer=2,
    )
    frames: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        last = receive_until(
            ws, lambda m: m["type"] == "state" and m["phase"] == "finished", 20000, frames
        )
    assert last["status"] == "finished"
    sheet = last["sheet"]
    assert sheet["length"] == sheet["counted"] == 9
    assert sheet["ordinary"] == 1 and sheet["closing"] == ["drescher", "pflichtraeuber"]
    rows = sheet["rows"]
    # The ordinary deal, then each seat deals once per round, the rotation going on.
    assert [r["dealer"] for r in rows] == [2, 3, 0, 1, 2, 3, 0, 1, 2]
    assert [r["deal_type"] for r in rows] == [None] + ["drescher"] * 4 + ["pflichtraeuber"] * 4
    assert [r["label"] for r in rows[1:]] == ["drescher"] * 4 + ["pflichtraeuber"] * 4
    assert rows[0]["label"] not in ("drescher", "pflichtraeuber")

    # The players saw each special deal as what it is, from its first frame on.
    seen = {f["deal"]["number"]: f["view"]["deal_type"] for f in frames if f.get("view")}
    assert [seen[n] for n in range(9)] == [None] + ["drescher"] * 4 + ["pflichtraeuber"] * 4

    deals = client.get(f"/api/tables/{table['id']}/deals").json()["deals"]
    assert len(deals) == 9, "no deal after the closing rounds"
    for deal, kind in zip(deals[1:], ["drescher"] * 4 + ["pflichtraeuber"] * 4, strict=True):
        assert deal["deal_type"] == kind
        record = client.get(f"/api/deals/{deal['id']}/record").json()
        # The stored record is the deal as dealt: it replays to the same result.
        assert record["deal_type"] == kind and record["dealer"] == deal["dealer"]
        assert replay_record(record) == record["result"] == deal["result"]
        result = record["result"]
        if kind == "drescher":
            assert result["contract"] == "drescher"
        else:
            # Pflichträuber: a Räuber announced by Vorhand without a word of bidding.
            assert result["contract"] == "raeuber"
            assert result["announcer"] == (deal["dealer"] + 1) % 4
            assert record["actions"][0]["act"] == "play"
        replay = client.get(f"/api/deals/{deal['id']}/replay").json()
        assert replay["steps"][0]["view"]["deal_type"] == kind
    assert sum(sheet["totals"]) == 0


def test_without_closing_rounds_the_list_ends_after_its_deals(client: TestClient) -> None:
    member(client)  # a table of bots only needs an account
    table = new_table(
        client, game="cego", profile="titisee", seats=BOTS_4, creator_seat=None, series_length=2
    )
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        last = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "finished", 5000)
    assert last["sheet"]["length"] == last["sheet"]["counted"] == 2
    assert [r["deal_type"] for r in last["sheet"]["rows"]] == [None, None]


CEGO_4 = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3


def _put_rounds(client: TestClient, table: dict[str, Any], rounds: list[str]) -> Any:
    return client.put(
        f"/api/tables/{table['id']}/closing_rounds",
        json={"closing_rounds": rounds},
        headers=ORIGIN,
    )


def _in_round(kind: str) -> Any:
    def stop(frame: dict[str, Any]) -> bool:
        view = frame["view"]
        return frame["phase"] == "playing" and view is not None and view["deal_type"] == kind

    return stop


def test_the_creator_adds_and_changes_closing_rounds_while_the_list_runs(
    client: TestClient,
) -> None:
    guest(client)
    cookies = dict(client.cookies)
    table = new_table(client, game="cego", profile="titisee", seats=CEGO_4, series_length=1)
    assert table["closing_rounds"] == [] and table["yours"]
    # Late in the evening the table wants a Drescher round after all.
    r = _put_rounds(client, table, ["drescher"])
    assert r.status_code == 200, r.text
    assert r.json()["table"]["closing_rounds"] == ["drescher"]
    assert client.get(f"/api/tables/{table['id']}").json()["table"]["closing_rounds"] == [
        "drescher"
    ]
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        frame = receive_until(ws, lambda m: m["type"] == "state")
        assert frame["sheet"]["closing"] == ["drescher"] and frame["sheet"]["length"] == 5
        frame = play_until(ws, frame, _in_round("drescher"))
        # A round under way stays as it is; what follows may still change.
        refused = _put_rounds(client, table, ["pflichtraeuber"])
        assert refused.status_code == 409
        assert refused.json()["error"] == "the drescher round has begun and stays first"
        r = _put_rounds(client, table, ["drescher", "pflichtraeuber"])
        assert r.status_code == 200, r.text
        # Every seat hears of it: the sheet grows by a round.
        frame = receive_until(ws, lambda m: m["type"] == "state" and m["sheet"]["length"] == 9)
        last = play_until(ws, frame, lambda m: m["phase"] == "finished")
    rows = last["sheet"]["rows"]
    assert [r["deal_type"] for r in rows] == [None] + ["drescher"] * 4 + ["pflichtraeuber"] * 4
    # Over is over.
    r = _put_rounds(client, table, ["drescher", "pflichtraeuber", "drescher"])
    assert r.status_code == 409
    assert r.json()["error"] == "the list is over: no round can be added"
    # Only the table's creator decides, and only rounds the rules allow.
    client.cookies.clear()
    guest(client)
    assert _put_rounds(client, table, ["drescher"]).status_code == 403
    client.cookies.clear()
    client.cookies.update(cookies)
    other = new_table(client, game="cego", profile="schwarzwald", seats=CEGO_4)
    r = _put_rounds(client, other, ["drescher"])
    assert r.status_code == 400
    assert r.json()["error"].startswith("closing rounds: drescher deals are not played")
    assert _put_rounds(client, other, ["ramsch"]).status_code == 400
    assert (
        client.put(
            f"/api/tables/{other['id']}/closing_rounds", json={"rounds": []}, headers=ORIGIN
        ).status_code
        == 422
    )
    assert _put_rounds(client, {"id": "nope"}, []).status_code == 404


def test_taking_off_the_rounds_to_come_ends_the_list(client: TestClient) -> None:
    guest(client)
    table = new_table(
        client,
        game="cego",
        profile="titisee",
        seats=CEGO_4,
        series_length=1,
        closing_rounds=["drescher"],
    )
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        frame = receive_until(ws, lambda m: m["type"] == "state")
        frame = play_until(ws, frame, lambda m: m["phase"] == "between")
        r = _put_rounds(client, table, [])
        assert r.status_code == 200, r.text
        assert r.json()["table"]["status"] == "finished"
        last = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "finished")
    assert last["sheet"]["length"] == 1 and len(last["sheet"]["rows"]) == 1
