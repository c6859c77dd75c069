"""Who may see a table, its deals, records, replays and live frames (docs/web.md, threat model).

Five roles against a private and a public table whose only deal is over: anonymous (no
cookie), a logged-in stranger, an invited spectator (redeemed the invite link), the seated
player, and the table's creator who does not sit at it. A private table answers outsiders
exactly as an id that was never made does; a public table's finished deals are everyone's.
"""

from typing import Any

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import ORIGIN, guest, new_table, play_until, receive_until

ROLES = ("anonymous", "stranger", "viewer", "player", "creator")
MEMBERS = ("viewer", "player", "creator")


class Roles:
    """One cookie jar per role, switched on one test client."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {"anonymous": {}}

    def new(self, role: str) -> None:
        self.client.cookies.clear()
        guest(self.client)
        self.jars[role] = dict(self.client.cookies)

    def be(self, role: str) -> TestClient:
        self.client.cookies.clear()
        self.client.cookies.update(self.jars[role])
        return self.client


def a_table_with_a_finished_deal(
    client: TestClient, *, public: bool
) -> tuple[Roles, dict[str, Any]]:
    roles = Roles(client)
    roles.new("creator")
    table = new_table(client, creator_seat=None, series_length=1, public=public)
    roles.new("player")
    r = client.post(f"/api/tables/{table['id']}/join", json={"seat": 0, "invite": table["invite"]})
    assert r.status_code == 200, r.text
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        first = receive_until(ws, lambda m: m["type"] == "state")
        last = play_until(ws, first, lambda m: m["phase"] == "finished")
    roles.new("viewer")
    r = client.post(f"/api/tables/{table['id']}/watch", json={"invite": table["invite"]})
    assert r.status_code == 200, r.text
    roles.new("stranger")
    return roles, {**table, "deal": last["deal"]["id"]}


def answers(client: TestClient, table: str, deal: str) -> list[tuple[int, Any]]:
    """Status and body of every look-up of a table and its deal."""
    out = []
    for path in (
        f"/api/tables/{table}",
        f"/api/tables/{table}/deals",
        f"/api/deals/{deal}/record",
        f"/api/deals/{deal}/replay",
    ):
        r = client.get(path)
        out.append((r.status_code, r.json()))
    return out


def socket_refused(client: TestClient, table: str) -> int | None:
    """The close code of a refused handshake, or ``None`` if the socket was welcomed."""
    try:
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
            receive_until(ws, lambda m: m["type"] == "welcome")
            return None
    except WebSocketDisconnect as refused:
        return refused.code


def test_a_private_table_is_its_members_only(client: TestClient) -> None:
    roles, table = a_table_with_a_finished_deal(client, public=False)
    never = ("NeverMade12x", "NeverMadeDeal123")
    missing = answers(roles.be("stranger"), *never)
    assert [status for status, _ in missing] == [404] * 4
    assert missing[0][1] == {"error": "no such table"}
    assert missing[2][1] == {"error": "no such deal"}
    for role in ROLES:
        client = roles.be(role)
        got = answers(client, table["id"], table["deal"])
        if role in MEMBERS:
            assert [status for status, _ in got] == [200] * 4, role
            assert got[2][1]["actions"] and got[3][1]["steps"]
            assert socket_refused(client, table["id"]) is None
        else:
            # Exactly what an id never made gets: nothing tells the table exists.
            assert got == missing, role
            assert socket_refused(client, table["id"]) == socket_refused(client, never[0]) == 1008
            assert table["id"] not in str(client.get("/api/tables").json())
    # The download names neither the table nor a guessable number.
    record = roles.be("player").get(f"/api/deals/{table['deal']}/record")
    disposition = record.headers["content-disposition"]
    assert table["id"] not in disposition and table["deal"] in disposition


def test_a_public_tables_finished_deals_are_everyones(client: TestClient) -> None:
    roles, table = a_table_with_a_finished_deal(client, public=True)
    for role in ROLES:
        client = roles.be(role)
        got = answers(client, table["id"], table["deal"])
        assert [status for status, _ in got] == [200] * 4, role
        assert got[1][1]["deals"][0]["result"] is not None
        assert socket_refused(client, table["id"]) is None


def test_a_deal_in_play_is_replayed_by_nobody(client: TestClient) -> None:
    roles = Roles(client)
    roles.new("player")
    table = new_table(client, public=False, series_length=2)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        frame = receive_until(ws, lambda m: m["type"] == "state" and m["deal"] is not None)
    deal = frame["deal"]["id"]
    assert len(deal) == 16 and not deal.isdigit()
    for path in (f"/api/deals/{deal}/record", f"/api/deals/{deal}/replay"):
        r = roles.be("player").get(path)
        assert r.status_code == 403 and "once it is over" in r.json()["error"]
    roles.new("stranger")
    r = roles.be("stranger").get(f"/api/deals/{deal}/record")
    assert r.status_code == 404 and r.json() == {"error": "no such deal"}


def test_watching_a_private_table_needs_its_invite(client: TestClient) -> None:
    roles = Roles(client)
    roles.new("creator")
    table = new_table(client, public=False)
    roles.new("stranger")
    for invite in (None, "wrong", table["invite"][:-1]):
        r = client.post(f"/api/tables/{table['id']}/watch", json={"invite": invite})
        assert r.status_code == 404 and r.json() == {"error": "no such table"}
    assert socket_refused(client, table["id"]) == 1008
    r = client.post(f"/api/tables/{table['id']}/watch", json={"invite": table["invite"]})
    assert r.status_code == 200 and r.json()["table"]["invite"] is None
    # Now a spectator: welcomed without a seat, the table among "mine", no say in its rules.
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        welcome = receive_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["you"]["seat"] is None
    assert [t["id"] for t in client.get("/api/tables").json()["mine"]] == [table["id"]]
    r = client.put(f"/api/tables/{table['id']}/closing_rounds", json={"closing_rounds": []})
    assert r.status_code == 403
    # Anonymous may not even watch with the invite: redeeming it needs an account.
    client.cookies.clear()
    r = client.post(f"/api/tables/{table['id']}/watch", json={"invite": table["invite"]})
    assert r.status_code == 401


def test_a_strangers_edit_of_a_private_table_is_a_404(client: TestClient) -> None:
    roles = Roles(client)
    roles.new("creator")
    table = new_table(client, public=False)
    roles.new("stranger")
    r = client.put(f"/api/tables/{table['id']}/closing_rounds", json={"closing_rounds": []})
    assert r.status_code == 404 and r.json() == {"error": "no such table"}
