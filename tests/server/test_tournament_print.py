"""Printouts people can file (issue 32): every printout says when it was printed and the rules
in force, in the page's language, and the result list's headings line up with their numbers
(a column of numbers has a right-aligned heading)."""

import datetime as dt
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stichwerk.server.app import create_app
from tests.server.helpers import ORIGIN, make_settings
from tests.server.tournament_helpers import NAMES, doko_deals

RULES = {
    "de": ["Regeln: Doppelkopf, Wielandstraße", "Vorrunde mit 3 Runden und Endrunde",
           "8 Spiele am 4er-Tisch", "10 Spiele am 5er-Tisch",
           "Pflicht-Solo: 1 je Spieler, 15 Abzug je fehlendem"],
    "en": ["Rules: Doppelkopf, Wielandstraße", "Vorrunde of 3 rounds and an Endrunde",
           "8 games at a 4-table", "10 games at a 5-table",
           "Pflicht-Solo: 1 each, 15 off per missing one"],
}  # fmt: skip
PRINTED = {"de": ("Gedruckt am ", "%d.%m.%Y"), "en": ("Printed ", "%Y-%m-%d")}


class Tables(HTMLParser):
    """The tables of a page: per table, its heading cells' and its body cells' classes by row,
    and the text of the elements with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[tuple[str, str]]]] = []
        self.texts: dict[str, str] = {}
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("th", "td") and self.tables:
            self.tables[-1][-1].append((tag, a.get("class") or ""))
        if tag in ("p", "section", "table", "h1"):
            self._open.append(a.get("id"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("p", "section", "table", "h1") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for name in self._open:
            if name:
                self.texts[name] = self.texts.get(name, "") + data


def read(client: TestClient, path: str, lang: str) -> Tables:
    r = client.get(path, headers={"accept-language": lang})
    assert r.status_code == 200, r.text
    page = Tables()
    page.feed(r.text)
    return page


def dated_and_ruled(page: Tables, lang: str, before: dt.datetime) -> None:
    words, form = PRINTED[lang]
    rules = " ".join(page.texts["print-rules"].split())
    for wanted in RULES[lang]:
        assert wanted in rules, rules
    printed = page.texts["print-date"]
    days = {before.strftime(form), dt.datetime.now().astimezone().strftime(form)}
    assert printed.startswith(words) and any(day in printed for day in days), printed


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(make_settings(f"sqlite:///{tmp_path}/p.db"))) as c:
        yield c


@pytest.mark.parametrize("lang", ["de", "en"])
def test_printouts_carry_the_date_and_the_rules_and_their_numbers_line_up(
    client: TestClient, lang: str
) -> None:
    before = dt.datetime.now().astimezone()
    create = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "seed": "print"}
    r = client.post("/api/tournaments", json=create, headers=ORIGIN)
    assert r.status_code == 200, r.text
    director = r.json()["links"]["director"]
    for body in ({"op": "add_players", "names": NAMES[:9]}, {"op": "draw"}):
        r = client.post(f"/api{director}/changes", json=body, headers=ORIGIN)
        assert r.status_code == 200, r.text
    state = r.json()
    for what in ("seating", "sheets"):
        dated_and_ruled(read(client, f"{director}/print/{what}", lang), lang, before)
    # The first round entered on its tables' score sheets: the result list has standings.
    for table in state["rounds"][0]["tables"]:
        scorer = table["scorer"][3:]
        for k, summary in enumerate(doko_deals(table["size"], table["games"])):
            change = {"op": "add", "summary": summary, "key": f"{scorer}-{k}"}
            r = client.post(f"/api/sheets/{scorer}/changes", json=change, headers=ORIGIN)
            assert r.status_code == 200, r.text
    page = read(client, f"{director}/print/results", lang)
    dated_and_ruled(page, lang, before)
    [results] = page.tables
    head, *body = results
    assert len(body) == 9
    for column, (tag, kind) in enumerate(head):
        assert tag == "th"
        numbers = {"num" in row[column][1].split() for row in body}
        assert numbers == {"num" in kind.split()}, (column, kind, numbers)
