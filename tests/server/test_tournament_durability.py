"""A real server killed (``kill -9``) mid-round loses nothing: the draw, the typed totals, every
deal a table's phone saw saved; the table whose last deal went in just before the kill has its
results once the server is back, whether or not they were taken before it died."""

from pathlib import Path

import httpx

from tests.e2e.conftest import Server
from tests.server.tournament_helpers import NAMES, doko_deals


def test_a_server_killed_mid_round_loses_nothing(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.start()
    try:
        with httpx.Client(base_url=server.url, headers={"origin": server.url}, timeout=30) as c:
            made = c.post(
                "/api/tournaments", json={"name": "Nacht", "series": "Club", "seed": "crash"}
            ).json()
            changes = made["links"]["director"].replace("/tournaments/", "/api/tournaments/")
            changes += "/changes"
            c.post(changes, json={"op": "add_players", "names": NAMES[:9]}).raise_for_status()
            state = c.post(changes, json={"op": "draw"}).json()
            five = state["rounds"][0]["tables"][1]
            c.post(
                changes,
                json={
                    "op": "enter",
                    "round": 1,
                    "table": 1,
                    "results": [{"points": 5 * s, "games_won": s} for s in range(4)],
                },
            ).raise_for_status()
            scorer = five["scorer"]
            for k, summary in enumerate(doko_deals(5, 10)):
                r = c.post(
                    f"/api/sheets/{scorer[3:]}/changes",
                    json={"op": "add", "summary": summary, "key": f"k{k}"},
                )
                assert r.status_code == 200, r.text
            sheet = c.get(f"/api/sheets/{scorer[3:]}").json()["sheet"]
        server.kill()  # at once, after the last deal's answer
        server.start()
        with httpx.Client(base_url=server.url, timeout=30) as c:
            after = c.get(made["links"]["director"].replace("/tournaments/", "/api/tournaments/"))
            state = after.json()
        tables = state["rounds"][0]["tables"]
        assert [t["entered"] for t in tables] == [True, True]
        assert [r["points"] for r in tables[0]["results"]] == [0, 5, 10, 15]
        assert [r["points"] for r in tables[1]["results"]] == sheet["running_totals"]
        assert state["next"] == {"action": "draw", "round": 2, "blocked": None}
    finally:
        server.stop()
