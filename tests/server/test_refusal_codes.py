"""Every refusal carries a stable code and its params (the ``x-refusal`` header) beside its
one-line ``error``: the pages say it in the reader's language from the code (words.js)."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from stichwerk.web import STATIC
from stichwerk.web.refusals import refusal, table
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES, doko_deals


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/r.db"))) as c:
        yield c


def code(response: Any) -> tuple[str, dict[str, str]]:
    raw = json.loads(response.headers["x-refusal"])
    return raw["code"], raw["params"]


def test_a_score_sheets_refusal_names_its_deal_and_field(client: TestClient) -> None:
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    made = client.post("/api/sheets", json=settings, headers=ORIGIN).json()
    scorer = made["links"]["scorer"][3:]
    deals = doko_deals(4, 4)
    for k, summary in enumerate(deals[:3]):
        change = {"op": "add", "summary": summary, "key": f"k{k}"}
        assert client.post(f"/api/sheets/{scorer}/changes", json=change, headers=ORIGIN).is_success
    bad = {"op": "add", "summary": {**deals[3], "re_augen": 300}, "key": "k3"}
    r = client.post(f"/api/sheets/{scorer}/changes", json=bad, headers=ORIGIN)
    assert r.status_code == 400
    assert r.json()["error"] == "deal 4: 're_augen' must be from 0 to 240"
    assert code(r) == ("range", {"deal": "4", "field": "re_augen", "lo": "0", "hi": "240"})


def test_a_tournaments_refusals_carry_codes(client: TestClient) -> None:
    r = client.post("/api/tournaments", json={"name": "T", "series": "S"}, headers=ORIGIN)
    director = r.json()["links"]["director"]
    for body in ({"op": "add_players", "names": NAMES[:9]}, {"op": "draw"}):
        assert client.post(f"/api{director}/changes", json=body, headers=ORIGIN).is_success
    r = client.post(f"/api{director}/changes", json={"op": "draw"}, headers=ORIGIN)
    assert r.status_code in {400, 409}, r.text
    assert code(r) == ("round_incomplete", {"round": "1", "tables": "1, 2"})
    late = {"op": "add_players", "names": ["Zoe"]}
    r = client.post(f"/api{director}/changes", json=late, headers=ORIGIN)
    assert code(r) == ("late_arrival", {})
    r = client.post("/api/tournaments", json={"name": "T", "date": "4.12."}, headers=ORIGIN)
    assert code(r)[0] == "date_format", r.text


def test_every_refusal_has_a_code(client: TestClient) -> None:
    r = client.get("/api/tables/nosuchtable")
    assert r.status_code == 404 and code(r) == ("not_found", {})
    headers = {**ORIGIN, "content-type": "application/json"}
    r = client.post("/api/tables", content=b"{", headers=headers)
    assert code(r)[0] == "invalid"


def test_the_table_reads_the_same_in_python_and_javascript() -> None:
    """No named group, lookbehind or flag that one of the two reads otherwise; every code has
    its words in both catalogues."""
    raw = json.loads((STATIC / "i18n" / "refusals.json").read_text(encoding="utf-8"))
    for entry in raw["patterns"] + raw["prefixes"]:
        assert not re.search(r"\(\?[P<=!]", entry["pattern"]), entry
        assert entry["pattern"].startswith("^") and entry["pattern"].endswith("$")
    codes = {p.code for p in table().patterns} | set(table().status.values())
    for lang in ("de", "en"):
        words = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        missing = codes - set(words["refusal"])
        assert not missing, (lang, missing)
    assert refusal("deal 2: 'x' of the summary must be at least 0") == (
        "at_least",
        {"deal": "2", "field": "x", "lo": "0"},
    )
