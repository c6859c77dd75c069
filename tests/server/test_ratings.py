"""Ratings: the maths on crafted deals, rebuilds that give the same numbers bit for bit on
both databases (deals taken in one by one, out of order, and all at once), and the
leaderboard API with what it may show of private tables."""

import json
import math
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from stichwerk.core.action import Action
from stichwerk.games import get_game
from stichwerk.rating import MU, SIGMA, Skill, rate_deal, sides
from stichwerk.server.app import create_app
from stichwerk.storage.db import Database
from stichwerk.storage.models import Deal
from stichwerk.storage.ratings import RatingStore
from stichwerk.storage.repo import Repo
from tests.server.helpers import ORIGIN, make_settings, play_until, receive_until

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
PLAYERS = ["u:1", "u:2", "u:3", "b:heuristic", "u:5"]


def finished(game: str, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An example record (without actions and result) and the engine's result of it."""
    record = json.loads((EXAMPLES / game / f"{name}.json").read_text(encoding="utf-8"))
    state = get_game(game).deal_from_record({**record, "actions": []})
    for raw in record["actions"]:
        state.apply(Action.from_json(raw))
    result = state.result()
    assert result is not None
    base = {k: v for k, v in record.items() if k not in ("actions", "result")}
    return base, result


def moved(after: dict[str, Skill], key: str) -> float:
    return after[key].mu - MU


# -- the maths --------------------------------------------------------------------------------


def test_two_against_two_moves_each_side_alike() -> None:
    record, result = finished("doppelkopf", "ddv-normal")
    assert sides(record, result) == [(2, 3), (0, 1)]
    assert result["score"]["settlement"] == [8, 8, -8, -8]  # Kontra won
    after = rate_deal("doppelkopf", record, result, PLAYERS[:4], {})
    assert after is not None and set(after) == set(PLAYERS[:4])
    assert moved(after, "u:1") == moved(after, "u:2") > 0
    assert moved(after, "u:3") == moved(after, "b:heuristic") < 0
    assert math.isclose(moved(after, "u:1"), -moved(after, "u:3"), rel_tol=1e-12)
    assert all(s.sigma < SIGMA and s.deals == 1 for s in after.values())


def test_one_against_three_weighs_the_soloist_as_much_as_the_three() -> None:
    record, result = finished("doppelkopf", "ddv-solo-damen")
    assert sides(record, result) == [(1,), (0, 2, 3)]
    after = rate_deal("doppelkopf", record, result, PLAYERS[:4], {})
    assert after is not None
    loss = moved(after, "u:2")  # the soloist lost
    gains = [moved(after, k) for k in ("u:1", "u:3", "b:heuristic")]
    assert loss < 0 and all(math.isclose(g, gains[0], rel_tol=1e-12) for g in gains)
    # Between newcomers the soloist loses what the three win together (a zero sum, as the
    # settlement), not the lopsided step of a side of one against a side of three.
    assert math.isclose(loss, -3 * gains[0], rel_tol=1e-9)
    # The same deal between newcomers as a 2-against-2 moves each player less than the soloist.
    record2, result2 = finished("doppelkopf", "ddv-normal")
    pair = rate_deal("doppelkopf", record2, result2, PLAYERS[:4], {})
    assert pair is not None and abs(loss) > abs(moved(pair, "u:3"))


def test_a_cego_declarer_plays_against_the_defenders() -> None:
    record, result = finished("cego", "eine")
    assert result["declarer"] == 0 and result["score"]["winner"] == "defenders"
    assert sides(record, result) == [(0,), (1, 2, 3)]
    after = rate_deal("cego", record, result, PLAYERS[:4], {})
    assert after is not None
    assert moved(after, "u:1") < 0 < moved(after, "u:2") == moved(after, "u:3")
    assert math.isclose(sum(moved(after, k) for k in after), 0.0, abs_tol=1e-9)


def test_raeuber_is_every_seat_for_itself() -> None:
    record, result = finished("cego", "raeuber")
    assert result["score"]["settlement"] == [-240, 80, 80, 80]
    assert sides(record, result) == [(0,), (1,), (2,), (3,)]
    after = rate_deal("cego", record, result, PLAYERS[:4], {})
    assert after is not None
    # The three who did not lose tie for first place: equal steps up; the loser goes down.
    winners = [moved(after, k) for k in ("u:2", "u:3", "b:heuristic")]
    assert moved(after, "u:1") < 0 < winners[0]
    assert all(math.isclose(w, winners[0], rel_tol=1e-12) for w in winners)


def test_a_sitting_dealer_is_not_rated_and_guests_are_newcomers_never_stored() -> None:
    record, result = finished("cego", "five-table-cego")
    assert record["hands"][4] == [] and result["score"]["settlement"][4] == -30  # settles
    assert sides(record, result) == [(0,), (1, 2, 3)]
    after = rate_deal("cego", record, result, PLAYERS, {})
    assert after is not None and "u:5" not in after and len(after) == 4
    # A guest (None) plays as a newcomer and gets no rating; the others move as before.
    guest = rate_deal("cego", record, result, ["u:1", None, "u:3", "b:heuristic", "u:5"], {})
    assert guest is not None and set(guest) == {"u:1", "u:3", "b:heuristic"}
    assert guest["u:1"] == after["u:1"]
    # Only bots and guests at the table: not rated at all.
    assert rate_deal("cego", record, result, [None, "b:a", "b:b", "b:c", None], {}) is None


def test_a_bot_in_two_seats_counts_once_and_not_against_itself() -> None:
    record, result = finished("doppelkopf", "ddv-normal")  # Re (2, 3) lost to Kontra (0, 1)
    same_side = rate_deal("doppelkopf", record, result, ["u:1", "u:2", "b:r", "b:r"], {})
    assert same_side is not None and same_side["b:r"].deals == 1
    alone = rate_deal("doppelkopf", record, result, [*PLAYERS[:3], "b:r"], {})
    assert alone is not None and same_side["b:r"] == alone["b:r"]
    both_sides = rate_deal("doppelkopf", record, result, ["u:1", "b:r", "b:r", "u:4"], {})
    assert both_sides is not None and set(both_sides) == {"u:1", "u:4"}


def test_deals_that_are_no_game_between_sides_are_not_rated() -> None:
    record, result = finished("doppelkopf", "ddv-normal")
    assert rate_deal("doppelkopf", record, {**result, "counts": False}, PLAYERS, {}) is None
    redeal = {**result, "re": [], "kontra": []}
    assert rate_deal("doppelkopf", record, redeal, PLAYERS, {}) is None
    # A forfeit (Verwerfen) is paid by one seat to each other seat: every seat for itself.
    record, result = finished("doppelkopf", "ddv-forfeit-normal")
    assert sides(record, result) == [(0,), (1,), (2,), (3,)]
    after = rate_deal("doppelkopf", record, result, PLAYERS[:4], {})
    assert after is not None and moved(after, "u:2") < 0 < moved(after, "u:1")


@pytest.mark.parametrize("favourite", [True, False])
def test_a_decisive_win_moves_ratings_further_than_a_narrow_one(favourite: bool) -> None:
    record, result = finished("doppelkopf", "ddv-normal")  # Kontra (0, 1) won
    level = 30.0 if favourite else 20.0
    before = {"u:1": Skill(level, 4.0, 40), "u:2": Skill(level, 4.0, 40)}

    def gain(points: int) -> float:
        score = {**result["score"], "settlement": [points] * 2 + [-points] * 2}
        after = rate_deal("doppelkopf", record, {**result, "score": score}, PLAYERS[:4], before)
        assert after is not None
        return after["u:1"].mu - level

    # Wins by 1, 4 and 12 points a seat: the sides' means differ by 2, 8 and 24.
    assert 0 < gain(1) < gain(4) < gain(12)
    # An upset moves the underdog further than the favourite's win moves the favourite.
    assert (gain(4) > 0.5) is not favourite


# -- stored ratings: the same numbers however the deals come in ------------------------------


def _deal(repo: Repo, table: str, number: int, game: str, name: str) -> int:
    record, result = finished(game, name)
    deal_id = repo.create_deal(table, number, record)
    repo.finish_deal(deal_id, result, True)
    return deal_id


def test_incremental_ratings_equal_a_rebuild_from_scratch(any_url: str) -> None:
    db = Database(any_url)
    try:
        db.migrate()
        repo = Repo(db)
        store = RatingStore(db)
        anna = repo.create_user("Anna", "x", False).id
        bernd = repo.create_user("Bernd", "x", False).id
        gast = repo.create_user("Gast-12345", None, True).id

        def table(game: str, profile: str, people: list[int | None], public: bool) -> str:
            seats: list[tuple[str, str | None]] = [
                ("human", "random") if p is not None else ("bot", b)
                for p, b in zip(
                    people, ["heuristic", "random", "search", "heuristic"], strict=False
                )
            ]
            info = repo.create_table(
                game=game,
                profile=profile,
                options={},
                seats=seats,
                series_length=10,
                time_limit=60,
                public=public,
                created_by=anna,
                creator_seat=None,
                accounts={i: p for i, p in enumerate(people) if p is not None},
            )
            return info.id

        dk = table("doppelkopf", "ddv", [anna, bernd, None, None], True)
        dk_private = table("doppelkopf", "ddv", [bernd, None, anna, gast], False)
        cego = table("cego", "schwarzwald", [anna, None, gast, None], True)
        bots_only = table("cego", "schwarzwald", [None, None, None, gast], True)
        plan = [
            (dk, "doppelkopf", "ddv-normal"),
            (cego, "cego", "eine"),
            (dk_private, "doppelkopf", "ddv-solo-damen"),
            (dk, "doppelkopf", "ddv-hochzeit"),
            (cego, "cego", "raeuber"),
            (bots_only, "cego", "cego"),
            (dk_private, "doppelkopf", "ddv-forfeit-normal"),
            (dk, "doppelkopf", "ddv-solo-damen"),
        ]
        ids = []
        for number, (tid, game, name) in enumerate(plan):
            ids.append(_deal(repo, tid, number, game, name))
            if number % 3 != 2:
                store.update()  # now and then, as deals finish (several at once otherwise)
        # A deal whose finish committed late: it finished before the last ones taken in.
        late = _deal(repo, dk, 99, "doppelkopf", "ddv-normal")
        with Session(db.write) as session, session.begin():
            first = session.get(Deal, ids[0])
            assert first is not None and first.finished_at is not None
            session.execute(
                update(Deal).where(Deal.id == late).values(finished_at=first.finished_at)
            )
        assert store.update() > 1  # the doppelkopf/ddv deals from the late one on, again
        incremental = store.snapshot()
        assert store.rebuild() == len(plan) + 1
        rebuilt = store.snapshot()
        assert incremental == rebuilt
        assert store.rebuild() == len(plan) + 1
        assert store.snapshot() == rebuilt  # and again: the same numbers, bit for bit

        taken = dict(rebuilt["taken"])
        assert taken[ids[5]] is False  # bots and a guest only: not rated
        assert taken[ids[0]] is True
        board = {e.player: e for e in store.board("doppelkopf", "ddv")}
        assert f"u:{gast}" not in board and f"u:{anna}" in board
        assert board[f"u:{anna}"].deals == 6 and board[f"u:{anna}"].provisional
        history = store.history("doppelkopf", "ddv", f"u:{anna}")
        assert [h.deals for h in history] == [1, 2, 3, 4, 5, 6]
        assert history[-1].mu == board[f"u:{anna}"].mu
        # The late deal counts first among the doppelkopf deals (same time as the first deal,
        # a higher id): Anna's first two points are from it and the first deal, in id order.
        ordered = [d for d, *_ in dict(rebuilt["history"])[("doppelkopf", "ddv", f"u:{anna}")]]
        assert ordered[:2] == [ids[0], late]
    finally:
        db.dispose()


# -- the web app --------------------------------------------------------------------------------


def _play_a_table(client: TestClient, public: bool, seats: int = 4) -> str:
    table = client.post(
        "/api/tables",
        json={
            "game": "cego",
            "profile": "schwarzwald",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (seats - 1),
            "series_length": 2,
            "time_limit": 30,
            "first_dealer": 1,
            "public": public,
        },
    ).json()["table"]
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers=ORIGIN) as ws:
        state = receive_until(ws, lambda m: m["type"] == "state")
        play_until(ws, state, lambda f: f["phase"] == "finished")
    return str(table["id"])


def test_leaderboard_and_history_show_numbers_only(db_url: str) -> None:
    # Fixed cards: with random ones every deal could set the random bots against each other (a
    # bot on both sides is not rated), leaving it off the board.
    with TestClient(create_app(make_settings(db_url, deal_seed="ratings"))) as client:
        r = client.post("/api/register", json={"username": "Resi", "password": "geheim123"})
        me = r.json()["user"]
        private = _play_a_table(client, public=False)
        public = _play_a_table(client, public=True)
        svc = client.app.state.services  # type: ignore[attr-defined]
        assert svc.ratings.wait_idle()
        deals = [d.public_id for t in (private, public) for d in svc.repo.deals_of_table(t)]
        assert len(deals) >= 4

        boards = client.get("/api/ratings").json()
        assert {"game": "cego", "profile": "schwarzwald", "players": 2} in boards["boards"]
        board = client.get("/api/ratings/cego/schwarzwald").json()
        rows = {row["player"]: row for row in board["players"]}
        assert set(rows) == {f"u:{me['id']}", "b:random"}
        mine = rows[f"u:{me['id']}"]
        assert mine["name"] == "Resi" and mine["bot"] is False and mine["provisional"] is True
        assert rows["b:random"]["bot"] is True and rows["b:random"]["name"] == "random"
        assert mine["deals"] == len(deals)
        assert math.isclose(mine["rating"], mine["mu"] - 3 * mine["sigma"], abs_tol=0.01)
        assert [row["rank"] for row in board["players"]] == [1, 2]

        # Anyone may read a history: numbers only, nothing that names a deal or a table.
        client.cookies.clear()
        history = client.get(
            "/api/ratings/cego/schwarzwald/history", params={"player": f"u:{me['id']}"}
        )
        assert history.status_code == 200
        body = history.json()
        assert [p["deals"] for p in body["points"]] == list(range(1, len(deals) + 1))
        assert all(set(p) == {"deals", "mu", "sigma", "rating"} for p in body["points"])
        text = history.text + client.get("/api/ratings/cego/schwarzwald").text
        for secret in [private, public, *deals]:
            assert secret not in text
        # Refusals: one line each, never a 500.
        for path, status in [
            ("/api/ratings/skat/x", 404),
            ("/api/ratings/cego/nope", 404),
            ("/api/ratings/cego/schwarzwald/history?player=u:999999", 404),
            ("/api/ratings/cego/schwarzwald/history?player=..%2Fetc", 422),
            ("/api/ratings/cego/schwarzwald?limit=0", 422),
        ]:
            r = client.get(path)
            assert r.status_code == status and set(r.json()) == {"error"}, (path, r.text)


def test_a_guest_with_bots_is_not_rated(db_url: str) -> None:
    with TestClient(create_app(make_settings(db_url))) as client:
        client.post("/api/guest", json={})
        _play_a_table(client, public=True)
        assert client.app.state.services.ratings.wait_idle()  # type: ignore[attr-defined]
        assert client.get("/api/ratings/cego/schwarzwald").json()["players"] == []


def test_rebuild_command(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from stichwerk.server.ratings import main

    with TestClient(create_app(make_settings(db_url))) as client:
        client.post("/api/register", json={"username": "Xaver", "password": "geheim123"})
        _play_a_table(client, public=True)
        svc = client.app.state.services  # type: ignore[attr-defined]
        assert svc.ratings.wait_idle()
        before = svc.ratings.store.snapshot()
    main(["rebuild", "--database", db_url])
    assert "took in 2 deal(s)" in capsys.readouterr().out
    db = Database(db_url)
    try:
        assert RatingStore(db).snapshot() == before
    finally:
        db.dispose()
    with pytest.raises(SystemExit) as exit_info:
        main(["rebuild", "--database", "nosuchdb://x"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
