"""A printout gives the tournament's date as its reader writes it, not ISO."""

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/d.db"))) as c:
        yield c


@pytest.mark.parametrize(("lang", "written"), [("de", "8. März 2025"), ("en", "8 March 2025")])
def test_a_printout_is_dated_in_words(client: TestClient, lang: str, written: str) -> None:
    create = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "seed": "d"}
    director = client.post("/api/tournaments", json=create, headers=ORIGIN).json()["links"]
    for body in ({"op": "add_players", "names": NAMES[:9]}, {"op": "draw"}):
        r = client.post(f"/api{director['director']}/changes", json=body, headers=ORIGIN)
        assert r.status_code == 200, r.text
    page = client.get(f"{director['director']}/print/seating", headers={"accept-language": lang})
    assert written in page.text
    assert "2025-03-08 ·" not in page.text
