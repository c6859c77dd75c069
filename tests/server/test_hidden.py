"""No frame sent to a seat or a spectator names a card it may not see — in whole games of both
engines, at 4 and 5 seats, including the snapshots a reconnecting seat gets."""

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import ORIGIN, guest, new_table, receive_until
from tests.server.leaks import DealTruth, cards_in

CASES = [
    ("cego", "schwarzwald", 4, 4, []),
    ("cego", "titisee", 5, 2, []),
    ("cego", "zego", 3, 2, []),
    # Closing rounds: a Pflichträuber and a Drescher round after one ordinary deal.
    ("cego", "titisee", 3, 1, ["pflichtraeuber", "drescher"]),
    ("doppelkopf", "wielandstrasse", 4, 3, []),
    ("doppelkopf", "ddv", 5, 2, []),
]


def check_frames(
    frames: list[dict[str, Any]], seat: int | None, truths: dict[str, DealTruth]
) -> int:
    checked = 0
    for frame in frames:
        if frame["type"] != "state" or frame["view"] is None or frame["view"]["result"]:
            continue
        deal = frame["deal"]
        truth = truths[deal["id"]]
        k = frame["version"] - deal["number"] * 1000 - 1
        leaked = cards_in(frame) - truth.allowed(k, seat)
        assert not leaked, f"seat {seat} saw {sorted(leaked)} at step {k} of deal {deal['id']}"
        checked += 1
    return checked


@pytest.mark.parametrize(("game", "profile", "seats", "deals", "closing"), CASES)
def test_no_frame_holds_a_hidden_card(
    client: TestClient, game: str, profile: str, seats: int, deals: int, closing: list[str]
) -> None:
    rng = random.Random(f"{game}-{profile}-{seats}")
    guest(client)
    seat_specs = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (seats - 1)
    table = new_table(
        client,
        game=game,
        profile=profile,
        seats=seat_specs,
        series_length=deals,
        closing_rounds=closing,
    )
    url = f"/ws/tables/{table['id']}"
    mine: list[dict[str, Any]] = []
    cookies = dict(client.cookies)
    client.cookies.clear()
    with client.websocket_connect(url, headers=ORIGIN) as spectator:
        client.cookies.update(cookies)
        actions = 0
        finished = False
        while not finished:
            with client.websocket_connect(url, headers=ORIGIN) as ws:
                # Every connection starts with a snapshot; it is checked like every frame.
                while True:
                    frame = receive_until(ws, lambda m: m["type"] == "state", seen=mine)
                    if frame["phase"] == "finished":
                        finished = True
                        break
                    if frame["phase"] == "between":
                        ws.send_json({"type": "next"})
                        continue
                    view = frame["view"]
                    if view["to_act"] == 0 and view["legal_actions"]:
                        legal = rng.choice(view["legal_actions"])
                        act = {k: v for k, v in legal.items() if k != "seat"}
                        ws.send_json({"type": "act", "version": frame["version"], "action": act})
                        actions += 1
                        if actions % 5 == 0:
                            break  # reconnect mid-deal
        watched: list[dict[str, Any]] = []
        receive_until(
            spectator, lambda m: m["type"] == "state" and m["phase"] == "finished", seen=watched
        )
    repo = client.app.state.services.repo  # type: ignore[attr-defined]
    truths = {
        d.public_id: DealTruth(d.full_record())
        for d in repo.deals_of_table(table["id"], with_events=True)
    }
    assert len(truths) >= deals + len(closing) * seats
    kinds = [d.record.get("deal_type") for d in repo.deals_of_table(table["id"])]
    assert [k for k in kinds if k is not None] == [k for k in closing for _ in range(seats)]
    checked = check_frames(mine, 0, truths), check_frames(watched, None, truths)
    print(f"{game}/{profile}/{seats}: checked {checked[0]} seat and {checked[1]} spectator frames")
    assert checked[0] > 10 and checked[1] > 10
    assert any(m["type"] == "state" and m["view"] and m["view"]["hand"] for m in mine)
    assert all(m["view"]["hand"] is None for m in watched if m["type"] == "state" and m["view"])


def test_the_oracle_catches_a_leak(client: TestClient) -> None:
    """The whitelist is not vacuous: another seat's card, or the blind, is not allowed."""
    from stichwerk.games import get_game

    state = get_game("cego").new_deal(profile="schwarzwald", players=4, dealer=0, seed=3)
    truth = DealTruth(state.to_record())
    allowed = truth.allowed(0, 1)
    record = truth.record
    assert set(record["hands"][1]) <= allowed
    assert not set(record["hands"][2]) & allowed
    assert not set(record["blind"]) & allowed
    assert truth.allowed(0, None) == set()
    frame = {"type": "state", "view": {"hand": [record["hands"][2][0]]}}
    assert cards_in(frame) - allowed == {record["hands"][2][0]}
