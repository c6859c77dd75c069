"""The websocket protocol: every message type, every bad input, reconnects and stand-in bots."""

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import (
    ORIGIN,
    guest,
    make_settings,
    member,
    new_table,
    receive_until,
)

HUMANS_2 = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]


def url(table: dict[str, Any]) -> str:
    return f"/ws/tables/{table['id']}"


def state(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "state")


def error(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "error")


def my_turn(ws: Any, seat: int = 0) -> dict[str, Any]:
    return receive_until(
        ws, lambda m: m["type"] == "state" and m["view"] and m["view"]["to_act"] == seat
    )


@pytest.mark.parametrize("headers", [{}, {"origin": "https://evil.example"}])
def test_handshake_refuses_foreign_origin(client: TestClient, headers: dict[str, str]) -> None:
    guest(client)
    table = new_table(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url(table), headers=headers),
    ):
        pass
    assert refused.value.code == 1008


def test_unknown_table_is_refused(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws/tables/nope", headers=ORIGIN),
    ):
        pass


def test_welcome_state_ping_sync(client: TestClient) -> None:
    user = guest(client)
    table = new_table(client)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["you"] == {"seat": 0, "user": user["username"]}
        assert welcome["table"]["game"] == "toy" and "invite" not in welcome["table"]
        first = state(ws)
        assert first["you"] == 0 and first["view"]["seat"] == 0
        ws.send_json({"type": "ping", "t": 12.5})
        assert receive_until(ws, lambda m: m["type"] == "pong")["t"] == 12.5
        ws.send_json({"type": "sync"})
        again = state(ws)
        assert again["deal"] == first["deal"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "dance"}', "unknown message type"),
        ('{"kind": "ping"}', "unknown message type"),
        ('{"type": "ping", "extra": 1}', "extra"),
        ('{"type": "act", "version": 1}', "action"),
        ('{"type": "act", "version": -1, "action": {"act": "fort"}}', "version"),
        ('{"type": "act", "version": 1, "action": {"act": "DROP TABLE"}}', "act"),
        ('{"type": "act", "version": 1, "action": {"act": "play", "card": "<b>"}}', "card"),
        ('{"type": "act", "version": 1, "action": {"act": "play", "seat": 2}}', "seat"),
        ('{"type": "act", "version": "1", "action": {"act": "fort"}}', "version"),
    ],
)
def test_bad_messages_get_an_error_frame_and_change_nothing(
    client: TestClient, text: str, fragment: str
) -> None:
    guest(client)
    table = new_table(client)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        before = my_turn(ws)
        ws.send_text(text)
        refusal = error(ws)
        assert refusal["code"] == "bad-message" and fragment in refusal["message"]
        ws.send_json({"type": "sync"})
        after = state(ws)
        assert after["version"] == before["version"] and after["view"] == before["view"]


def test_binary_and_oversized_messages(client: TestClient) -> None:
    guest(client)
    table = new_table(client)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        state(ws)
        ws.send_bytes(b'{"type": "ping"}')
        assert error(ws)["code"] == "bad-message"
        ws.send_text('{"type": "ping", "t": 1}' + " " * 5000)
        assert error(ws)["code"] == "too-large"


def test_rate_limit_then_close(db_url: str, toy: None) -> None:
    from stichwerk.server.app import create_app

    app = create_app(make_settings(db_url, ws_rate=1.0, ws_burst=3.0))
    with TestClient(app) as client:
        guest(client)
        table = new_table(client)
        with client.websocket_connect(url(table), headers=ORIGIN) as ws:
            state(ws)
            for _ in range(5):
                ws.send_json({"type": "ping"})
            frames: list[dict[str, Any]] = []
            receive_until(ws, lambda m: m["type"] == "error", seen=frames)
            assert frames[-1]["code"] == "rate"
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(200):
                    ws.send_json({"type": "ping"})
                    ws.receive_text()
            assert closed.value.code == 1008


def test_a_flood_of_handshakes_from_one_address_is_refused(db_url: str, toy: None) -> None:
    from stichwerk.server.app import create_app

    # 0.5 handshakes a second, a burst of 6: the seventh at once is refused with 1013 (try
    # again later) before the endpoint looks at the table (which would refuse with 1008). The
    # 1013 comes on an accepted socket (a close before accepting reaches a browser as HTTP 403):
    # the first read gets it.
    app = create_app(make_settings(db_url, ws_connect_rate=0.5))
    with TestClient(app) as client:
        codes = []
        for _ in range(8):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect("/ws/tables/nosuchtable00000", headers=ORIGIN) as ws,
            ):
                ws.receive_text()
            codes.append(refused.value.code)
        assert codes == [1008] * 6 + [1013] * 2
        # Plain requests are not handshakes: the site still answers.
        assert client.get("/").status_code == 200


def test_actions_stale_illegal_out_of_turn_and_accepted(client: TestClient) -> None:
    guest(client)
    table = new_table(
        client,
        seats=[{"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        creator_seat=1,
    )
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        turn = my_turn(ws, 1)
        version = turn["version"]
        ws.send_json({"type": "act", "version": version - 1, "action": {"act": "fort"}})
        assert error(ws)["code"] == "stale"
        ws.send_json({"type": "act", "version": version, "action": {"act": "play", "card": "HA"}})
        illegal = error(ws)
        assert illegal["code"] == "illegal" and "may not play" in illegal["message"]
        ws.send_json({"type": "next"})
        assert error(ws)["code"] == "no-next"
        ws.send_json({"type": "act", "version": version, "action": {"act": "solo"}})
        after = receive_until(ws, lambda m: m["type"] == "state" and m["version"] > version)
        assert {"seat": 1, "act": "solo"} in after["view"]["history"]
        # The same click again is stale, not a second action.
        ws.send_json({"type": "act", "version": version, "action": {"act": "solo"}})
        assert error(ws)["code"] == "stale"


def test_spectators_see_no_hand_and_cannot_act(client: TestClient) -> None:
    guest(client)
    table = new_table(client)
    client.cookies.clear()
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["you"]["seat"] is None
        first = state(ws)
        assert first["you"] is None and first["view"]["hand"] is None
        assert first["view"]["legal_actions"] == []
        ws.send_json({"type": "act", "version": first["version"], "action": {"act": "fort"}})
        assert error(ws)["code"] == "spectator"
        ws.send_json({"type": "next"})
        assert error(ws)["code"] == "no-next"


def test_two_people_a_deal_and_next(client: TestClient) -> None:
    guest(client)
    table = new_table(client, seats=HUMANS_2, series_length=2)
    alice = dict(client.cookies)
    client.cookies.clear()
    guest(client)
    bob = dict(client.cookies)
    r = client.post(f"/api/tables/{table['id']}/join", json={"invite": table["invite"]})
    assert r.json()["table"]["your_seat"] == 1
    client.cookies.clear()
    client.cookies.update(alice)
    with client.websocket_connect(url(table), headers=ORIGIN) as wa:
        client.cookies.clear()
        client.cookies.update(bob)
        with client.websocket_connect(url(table), headers=ORIGIN) as wb:
            sockets = {0: wa, 1: wb}
            deal = state(wa)["deal"]["id"]
            # Bob's arrival is presence, not a new state: ask for the state again.
            wa.send_json({"type": "sync"})
            acted: set[int] = set()
            while True:
                frame = receive_until(
                    wa,
                    lambda m: (
                        m["type"] == "state"
                        and (m["phase"] != "playing" or m["view"]["to_act"] in sockets)
                    ),
                )
                if frame["phase"] == "between":
                    break
                version = frame["version"]
                seat = frame["view"]["to_act"]
                mine = (
                    receive_until(
                        sockets[seat],
                        lambda m, v=version: m["type"] == "state" and m["version"] >= v,
                    )
                    if seat == 1
                    else frame
                )
                if version in acted:
                    continue
                acted.add(version)
                legal = mine["view"]["legal_actions"][0]
                act = {k: v for k, v in legal.items() if k != "seat"}
                sockets[seat].send_json({"type": "act", "version": version, "action": act})
            latest = {0: frame}
            assert latest[0]["sheet"]["rows"]
            wa.send_json({"type": "next"})
            ready = receive_until(wa, lambda m: m["type"] == "state" and m["seats"][0]["ready"])
            assert ready["phase"] == "between"
            wb.send_json({"type": "next"})
            nxt = receive_until(wa, lambda m: m["type"] == "state" and m["deal"]["id"] != deal)
            assert nxt["phase"] == "playing" and nxt["deal"]["number"] == 1
            assert nxt["deal"]["dealer"] == 1


def test_reconnect_resumes_the_same_seat(client: TestClient) -> None:
    guest(client)
    table = new_table(client)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        before = my_turn(ws)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["you"]["seat"] == 0
        after = state(ws)
        assert after["view"]["hand"] == before["view"]["hand"]
        assert after["version"] == before["version"]


def test_stand_in_bot_plays_an_absent_seat_until_return(client: TestClient) -> None:
    guest(client)
    table = new_table(client, time_limit=1)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        start = my_turn(ws)
    player = dict(client.cookies)
    client.cookies.clear()
    with client.websocket_connect(url(table), headers=ORIGIN) as watcher:
        # Past the time limit the stand-in moves for seat 0, and the table says who plays it.
        receive_until(
            watcher,
            lambda m: (
                m["type"] == "state"
                and m["version"] > start["version"]
                and m["seats"][0]["bot_playing"]
            ),
        )
    client.cookies.update(player)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        now = state(ws)
        mine = [h for h in now["view"]["history"] if h["seat"] == 0]
        assert now["version"] > start["version"] and mine, "the stand-in bot played seat 0"
        assert not now["seats"][0]["bot_playing"]
        if now["phase"] == "playing":
            # Back at the table: the bot stops, the person plays.
            turn = now if now["view"]["to_act"] == 0 else my_turn(ws)
            assert not turn["seats"][0]["bot_playing"]


def test_the_series_ends(client: TestClient) -> None:
    member(client)  # a table of bots only needs an account
    table = new_table(client, series_length=1, seats=[{"kind": "bot"}] * 4, creator_seat=None)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        last = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "finished")
        assert last["status"] == "finished" and last["sheet"]["counted"] == 1
        assert json.dumps(last["sheet"]["totals"]) == json.dumps(
            last["sheet"]["rows"][0]["settlement"]
        )


def test_an_out_of_turn_announcement(db_url: str, toy: None) -> None:
    """Doppelkopf's Re/Kontra may be said when it is not your turn; the server takes it."""
    from stichwerk.server.app import create_app

    with TestClient(create_app(make_settings(db_url, bot_delay=0.05))) as client:
        announce(client)


def announce(client: TestClient) -> None:
    guest(client)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
    table = new_table(client, game="doppelkopf", seats=seats, series_length=20)
    ready_for = -1
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        for _ in range(2000):
            frame = receive_until(ws, lambda m: m["type"] in ("state", "error"))
            if frame["type"] == "error":
                assert frame["code"] == "stale"
                continue
            if frame["phase"] == "between":
                if not frame["seats"][0]["ready"] and frame["deal"]["id"] != ready_for:
                    ready_for = frame["deal"]["id"]
                    ws.send_json({"type": "next"})
                continue
            view = frame["view"]
            if view["to_act"] == 0 and view["legal_actions"]:
                # Our own turn: play on without announcing.
                plain = [a for a in view["legal_actions"] if a["act"] in ("play", "gesund")]
                choice = (plain or view["legal_actions"])[0]
                act = {k: v for k, v in choice.items() if k != "seat"}
                ws.send_json({"type": "act", "version": frame["version"], "action": act})
                continue
            calls = [a for a in view["legal_actions"] if a["act"] in ("re", "kontra")]
            if view["phase"] == "play" and view["to_act"] != 0 and calls:
                act = {k: v for k, v in calls[0].items() if k != "seat"}
                ws.send_json({"type": "act", "version": frame["version"], "action": act})
                after = receive_until(ws, lambda m: m["type"] in ("state", "error"))
                if (
                    after["type"] == "state"
                    and {"seat": 0, "act": act["act"]} in after["view"]["history"]
                ):
                    return
        raise AssertionError("never managed an out-of-turn announcement")


def test_an_audience_coming_and_going_sends_presence_not_state(client: TestClient) -> None:
    """20 spectators connect and leave while seat 0 thinks: seat 0 gets no state frame, only
    a few small presence frames (at most one a second, changes in between sent together)."""
    guest(client)
    table = new_table(client)
    player = dict(client.cookies)
    with client.websocket_connect(url(table), headers=ORIGIN) as ws:
        turn = my_turn(ws)  # the bots wait for seat 0 now: nothing else changes the table
        client.cookies.clear()
        started = time.monotonic()
        with client.websocket_connect(url(table), headers=ORIGIN) as stayer:
            for _ in range(20):
                with client.websocket_connect(url(table), headers=ORIGIN) as watcher:
                    # A newcomer gets the whole table at once.
                    receive_until(watcher, lambda m: m["type"] == "welcome")
                    assert state(watcher)["version"] == turn["version"]
            frames: list[dict[str, Any]] = []
            receive_until(
                ws, lambda m: m["type"] == "presence" and m["spectators"] == 1, seen=frames
            )
            seconds = time.monotonic() - started
            assert state(stayer)["spectators"] == 1
        receive_until(ws, lambda m: m["type"] == "presence" and m["spectators"] == 0, seen=frames)
        assert [f["type"] for f in frames] == ["presence"] * len(frames)
        assert len(frames) <= seconds + 3, (len(frames), seconds)
        last = frames[-1]
        assert last["seats"][0] == {"seat": 0, "connected": True, "bot_playing": False}
        assert len(json.dumps(last)) < 400  # small: no view, no sheet
        client.cookies.update(player)
        ws.send_json({"type": "sync"})
        now = state(ws)
        assert now["version"] == turn["version"] and now["spectators"] == 0
