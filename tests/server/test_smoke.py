from fastapi.testclient import TestClient

from tests.server.helpers import ORIGIN, guest, new_table, receive_until


def test_play_a_toy_deal(client: TestClient) -> None:
    guest(client)
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["you"]["seat"] == 0
        while True:
            msg = receive_until(ws, lambda m: m["type"] == "state")
            view = msg["view"]
            if msg["phase"] == "between":
                break
            if view and view["to_act"] == 0 and view["legal_actions"]:
                act = dict(view["legal_actions"][0])
                act.pop("seat")
                ws.send_json({"type": "act", "version": msg["version"], "action": act})
        assert msg["sheet"]["rows"][0]["settlement"]


def test_play_a_cego_deal(client: TestClient) -> None:
    guest(client)
    table = new_table(client, game="cego", profile="schwarzwald")
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "welcome")
        while True:
            msg = receive_until(ws, lambda m: m["type"] in ("state", "error"))
            assert msg["type"] == "state", msg
            view = msg["view"]
            if msg["phase"] == "between":
                break
            if view and view["to_act"] == 0 and view["legal_actions"]:
                act = dict(view["legal_actions"][0])
                act.pop("seat")
                ws.send_json({"type": "act", "version": msg["version"], "action": act})
        assert sum(msg["sheet"]["rows"][0]["settlement"]) == 0


def test_play_a_doppelkopf_deal(client: TestClient) -> None:
    guest(client)
    table = new_table(client, game="doppelkopf", profile="ddv")
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        receive_until(ws, lambda m: m["type"] == "welcome")
        while True:
            msg = receive_until(ws, lambda m: m["type"] in ("state", "error"))
            assert msg["type"] == "state", msg
            view = msg["view"]
            if msg["phase"] == "between":
                break
            if view and view["to_act"] == 0 and view["legal_actions"]:
                act = dict(view["legal_actions"][-1])
                act.pop("seat")
                ws.send_json({"type": "act", "version": msg["version"], "action": act})
        row = msg["sheet"]["rows"][0]
        assert sum(row["settlement"]) == 0 and row["label"]
