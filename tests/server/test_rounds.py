"""Closing rounds (Schlussrunden) at a Cego table: Drescher and Pflichträuber rounds after the
list's ordinary deals, one deal dealt by each seat in turn, then the series is over."""

from typing import Any

from fastapi.testclient import TestClient

from stichwerk.cli.replay import replay_record
from tests.server.helpers import ORIGIN, guest, new_table, receive_until

BOTS_4 = [{"kind": "bot", "bot": "random"}] * 4


def test_a_drescher_and_a_pflichtraeuber_round_close_the_list(client: TestClient) -> None:
    guest(client)
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
    guest(client)
    table = new_table(
        client, game="cego", profile="titisee", seats=BOTS_4, creator_seat=None, series_length=2
    )
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        last = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "finished", 5000)
    assert last["sheet"]["length"] == last["sheet"]["counted"] == 2
    assert [r["deal_type"] for r in last["sheet"]["rows"]] == [None, None]
