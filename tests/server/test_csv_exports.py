"""Every CSV export guards its cells against formula injection (OWASP): a sheet's
``export.csv``, the rankings' ``list.csv`` and ``history.csv`` (a tournament's ``results.csv``
is written by the same writer as ``history.csv``, tested in ``tests/core/test_text.py``)."""

import csv
import io
from pathlib import Path

from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, make_settings

EVIL = '=HYPERLINK("http://x","y")'
CMD = "=cmd|' /C calc'!A0"


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def _safe(text: str) -> None:
    for cell in _cells(text):
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        if cell.startswith("-"):
            float(cell)  # a negative number, nothing else


def test_every_csv_export_is_safe_in_a_spreadsheet(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/csv.db"))) as c:
        made = c.post(
            "/api/sheets",
            json={"game": "doppelkopf", "profile": "ddv", "names": [EVIL, "@B", "+C", "-D"]},
            headers=ORIGIN,
        ).json()
        scorer = made["links"]["scorer"].removeprefix("/s/")
        summary = {"game_type": "normal", "re": [0, 2], "re_augen": 130}
        r = c.post(f"/api/sheets/{scorer}/changes", json={"op": "add", "summary": summary})
        assert r.status_code == 200, r.text
        export = c.get(f"/api/sheets/{scorer}/export.csv").text
        _safe(export)
        assert "'" + EVIL in _cells(export) and "-1" in _cells(export)

        state = c.post(
            "/api/tournaments",
            json={"name": "T", "series": "Club", "date": "2025-03-08", "seed": "c"},
            headers=ORIGIN,
        ).json()
        director = state["links"]["director"].rsplit("/", 1)[1]
        history = f"date,player,place,participants\n2020-05-01,{CMD},1,2\n2020-05-01,-x,2,2\n"
        r = c.post(f"/api/tournaments/{director}/history", json={"text": history}, headers=ORIGIN)
        assert r.status_code == 200, r.text
        for path in ("/api/rankings/list.csv?series=Club", "/api/rankings/history.csv?series=Club"):
            text = c.get(path).text
            _safe(text)
            assert "'" + CMD in _cells(text) and "'-x" in _cells(text)
