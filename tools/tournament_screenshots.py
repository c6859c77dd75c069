"""Screenshots of a tournament for docs/tournaments.md: the printouts (A4) and the pages.

    .venv/bin/python tools/tournament_screenshots.py [OUT_DIR]      (default: docs/tournaments)

Starts the server on a scratch database and runs a 13-player Wielandstraße tournament through
the HTTP API (the same seed and the same entries every time: round 1's tables on their score
sheets, the rest typed in), then opens the pages in chromium and saves PNGs: the seating plan
(by table and by name) and a table's score sheet as printed, the director's page during a
round, typed totals refused with three mistakes named at their fields, the projector, the result
list as printed and the club's ranking list.
"""

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from tests.server.tournament_helpers import doko_deals  # noqa: E402

PLAYERS = [
    "Anna Maier",
    "Bernd Roth",
    "Clara Vogt",
    "Dieter Hug",
    "Emil Faller",
    "Frieda Wehrle",
    "Gustav Kern",
    "Hanna Baur",
    "Ida Schill",
    "Jakob Rees",
    "Karla Fehr",
    "Ludwig Benz",
    "Maria Good",
]
A4 = {"width": 794, "height": 1123}


class Director:
    """The tournament's API with the director's link."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, headers={"origin": base}, timeout=60)
        made = self.http.post(
            "/api/tournaments",
            json={
                "name": "Frühjahrsturnier 2025",
                "series": "DoKo-Club Wielandstraße",
                "date": "2025-03-08",
                "place": "Gasthaus Hirschen, Freiburg",
                "seed": "docs",
            },
        ).json()
        self.state: dict[str, Any] = made
        self.token = made["links"]["director"].rsplit("/", 1)[1]

    def change(self, body: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(f"/api/tournaments/{self.token}/changes", json=body)
        r.raise_for_status()
        self.state = r.json()
        return self.state

    def sheet(self, scorer: str, deals: list[dict[str, Any]]) -> None:
        for k, summary in enumerate(deals):
            r = self.http.post(
                f"/api/sheets/{scorer[3:]}/changes",
                json={"op": "add", "summary": summary, "key": f"{scorer[3:]}-{k}"},
            )
            r.raise_for_status()

    def type_round(self, rnd: int) -> None:
        for table in self.state["rounds"][rnd - 1]["tables"]:
            if table["entered"]:
                continue
            owed = table["duty_owed"] or [0] * table["size"]
            points = [
                (7 * seat + 3 * table["number"] + 5 * rnd) % 23 for seat in range(table["size"])
            ]
            # A plus-only list: a point for each game won, and points only with a game won.
            results = [
                {
                    "points": p,
                    "duty_solos": 1 if owed[seat] and (seat + rnd) % 3 == 0 else 0,
                    "games_won": min((seat + rnd) % 5 + 1, p),
                }
                for seat, p in enumerate(points)
            ]
            self.change({"op": "enter", "round": rnd, "table": table["number"], "results": results})


def page_for(browser: Browser, lang: str, width: int, height: int) -> Page:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1,
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )
    return context.new_page()


def printout(browser: Browser, url: str, path: Path, selector: str | None = None) -> None:
    """A printout as it comes out of the printer: print media, an A4 page."""
    page = page_for(browser, "de", A4["width"], A4["height"])
    page.emulate_media(media="print")
    page.goto(url)
    if selector is None:
        page.screenshot(path=str(path))
    else:
        page.locator(selector).screenshot(path=str(path))


PUBLIC = "http://192.168.1.20:8765"
"""The laptop's address in the hall, as ``STICHWERK_PUBLIC_URL`` (the pages are opened at
127.0.0.1, so the director's page warns and names it)."""


def main() -> None:
    parser = argparse.ArgumentParser(description="Screenshots of docs/tournaments.md.")
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=ROOT / "docs" / "tournaments",
        help="folder for the PNGs (default docs/tournaments)",
    )
    parser.add_argument(
        "--head",
        action="store_true",
        help="the director's head alone (the other PNGs left as they are)",
    )
    args = parser.parse_args()
    only_head, out = args.head, args.out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        server = Server(Path(work), env={"STICHWERK_PUBLIC_URL": PUBLIC})
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                if not only_head:
                    shoot(browser, server.url, out)
                shoot_head(browser, server.url, out)
                browser.close()
        finally:
            server.stop()


def shoot_head(browser: Browser, base: str, out: Path) -> None:
    """The director's page on the laptop at 127.0.0.1, on a phone's width: the warning naming
    the address phones reach, the tournament's id and its command line with the copy button."""
    d = Director(base)
    d.change({"op": "add_players", "names": PLAYERS})
    page = page_for(browser, "de", 360, 1400)
    page.goto(f"{base}/tournaments/{d.token}")
    page.wait_for_selector("#t-cli")
    top = page.locator("#loopback-warning").bounding_box()
    head = page.locator("#t-head").bounding_box()
    assert top is not None and head is not None
    clip = {
        "x": 0,
        "y": top["y"] - 4,
        "width": 360,
        "height": head["y"] + head["height"] - top["y"] + 8,
    }
    page.screenshot(path=str(out / "director-head.png"), clip=clip)  # type: ignore[arg-type]


def shoot(browser: Browser, base: str, out: Path) -> None:
    d = Director(base)
    d.change({"op": "add_players", "names": PLAYERS})
    d.change({"op": "draw"})
    t = d.token
    printout(
        browser,
        f"{base}/tournaments/{t}/print/seating?round=1",
        out / "seating-plan.png",
        "#seating-by-table",
    )
    printout(
        browser,
        f"{base}/tournaments/{t}/print/seating?round=1",
        out / "seating-by-name.png",
        "#seating-by-name",
    )
    printout(
        browser,
        f"{base}/tournaments/{t}/print/sheets?round=1",
        out / "score-sheet.png",
        '.score-page[data-table="3"]',
    )
    # Round 1 under way: table 1 done on its sheet, table 3 half-way, table 2 not begun.
    tables = d.state["rounds"][0]["tables"]
    d.sheet(tables[0]["scorer"], doko_deals(4, 8))
    d.sheet(tables[2]["scorer"], doko_deals(5, 10)[:6])
    d.state = d.http.get(f"/api/tournaments/{t}").json()
    page = page_for(browser, "de", 1280, 1500)
    page.goto(f"{base}/tournaments/{t}")
    page.wait_for_function(
        "() => document.querySelector('.ttable[data-table=\"1\"]')?.dataset.entered === 'true'"
    )
    page.click("#quick-1-2 summary")
    page.click("#sheet-1-3 summary")
    page.locator("#round-1").screenshot(path=str(out / "director-round.png"))
    # Table 2's totals typed with three mistakes: each named below its player's line.
    for seat, (points, won) in enumerate([(-5, 2), (12, 9), (20, 3), (6, 0)]):
        page.fill(f"#q-1-2-points-{seat}", str(points))
        page.fill(f"#q-1-2-won-{seat}", str(won))
    page.click("#q-1-2-save")
    page.wait_for_selector("#q-1-2-problems-3 .q-problem")
    page.locator("#quick-1-2").screenshot(path=str(out / "typed-totals.png"))
    projector = page_for(browser, "de", 1280, 720)
    projector.goto(f"{base}{d.state['links']['projector']}")
    projector.wait_for_selector("#projector-standings")
    projector.screenshot(path=str(out / "projector.png"))
    # The rest of the Vorrunde typed in, the Endrunde, the finish.
    d.sheet(tables[2]["scorer"], doko_deals(5, 10)[6:])
    for _ in range(40):  # the last deal's results come in from the sheet
        d.state = d.http.get(f"/api/tournaments/{t}").json()
        if d.state["rounds"][0]["tables"][2]["entered"]:
            break
    d.type_round(1)
    for rnd in (2, 3, 4):
        d.change({"op": "draw"})
        d.type_round(rnd)
    # The club's history: two earlier tournaments, from its spreadsheet.
    rows = ["date;player;place;participants;tournament"]
    for date, name, order in (
        ("11.11.2023", "Herbst", (3, 0, 5, 7, 1, 9, 2, 11)),
        ("09.03.2024", "Frühjahr", (0, 3, 6, 1, 12, 4, 8, 10)),
    ):
        rows += [
            f"{date};{PLAYERS[p]};{place};{len(order)};{name}"
            for place, p in enumerate(order, start=1)
        ]
    r = d.http.post(f"/api/tournaments/{t}/history", json={"text": "\n".join(rows) + "\n"})
    r.raise_for_status()
    d.change({"op": "finish"})
    printout(browser, f"{base}/tournaments/{t}/print/results", out / "result-list.png")
    rankings = page_for(browser, "de", 1000, 760)
    rankings.goto(f"{base}/rankings")
    rankings.wait_for_selector("#ranking-table")
    rankings.screenshot(path=str(out / "ranking-list.png"))


if __name__ == "__main__":
    main()
