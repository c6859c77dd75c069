"""Phone first: no page of the app scrolls sideways on a 360 px phone, in German or English.

One server holds a bit of everything before it starts: a finished table with rated deals (the
leaderboards, a replay), a finished tournament of a club (its ranking list, standings with every
round, the printouts) and one in its first round; a score sheet with deals and a live table are
made through the API. Every page and printout the routers serve (``server/routers/pages.py``,
``sheets.py``, ``tournaments.py``) is opened at 360 px and measured: the document may not be
wider than the screen (wide tables scroll inside their panel, the name column kept in view).
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from stichwerk.storage.db import Database
from stichwerk.storage.repo import Repo
from stichwerk.storage.tournaments import TournamentStore
from tests.e2e.test_sheet import PHONE
from tests.server.serverproc import Server
from tests.server.test_ratings import finished
from tests.server.tournament_helpers import NAMES, doko_deals, play_round

WIDTH = 360
DEALS = ["ddv-normal", "ddv-solo-damen", "ddv-hochzeit", "ddv-normal"]
LONG_NAMES = [
    "Anna-Katharina Schwarzwälder",
    "Bernd Obermüller-Hinterzarten",
    *NAMES[2:11],
]


@dataclass
class World:
    """The server and the addresses of what it holds."""

    server: Server
    deal: str = ""
    finished: Any = None
    running: Any = None
    waiting: Any = None
    sheet: dict[str, str] = field(default_factory=dict)


def plant(server: Server) -> tuple[str, Any, Any, Any]:
    """Rated deals of a finished table, a finished tournament, one in round 1 with its results
    and one waiting for them."""
    db = Database(f"sqlite:///{server.db}")
    try:
        db.migrate()
        repo = Repo(db)
        resi = repo.create_user("Resi Schwarzwälder-Kirschtorte", "x", False).id
        table = repo.create_table(
            game="doppelkopf",
            profile="ddv",
            options={},
            seats=[("human", "random"), ("bot", "heuristic"), ("bot", "random"), ("bot", "random")],
            series_length=len(DEALS),
            time_limit=60,
            public=True,
            created_by=resi,
            creator_seat=0,
        )
        for number, name in enumerate(DEALS):
            record, result = finished("doppelkopf", name)
            public_id = f"phone{number}"
            repo.finish_deal(repo.create_deal(table.id, number, record, public_id), result, True)
        repo.set_table_status(table.id, "finished")
        store = TournamentStore(db, backup_dir=None)
        done = store.create(
            name="Frühjahrsturnier im Gasthaus Hirschen",
            format_name="wielandstrasse",
            held_on="2026-03-08",
            place="Gasthaus Hirschen, Hinterzarten",
            series="DoKo-Club Wielandstraße",
            seed="w1",
        )
        store.add_players(done.id, LONG_NAMES[:9])
        store.draw(done.id)
        for seed in "abcd":
            play_round(store, done.id, seed)
            if seed != "d":
                store.draw(done.id)
        done = store.finish(done.id)
        running = store.create(
            name="Herbstturnier",
            format_name="wielandstrasse",
            held_on="2026-12-04",
            place="Hirschen",
            series="DoKo-Club Wielandstraße",
            seed="w2",
        )
        store.add_players(running.id, LONG_NAMES[:9])
        store.draw(running.id)
        running = play_round(store, running.id, "e")
        waiting = store.create(
            name="Herbstturnier",
            format_name="wielandstrasse",
            held_on="2026-12-04",
            place="Hirschen",
            series="DoKo-Club Wielandstraße",
            seed="w3",
        )
        store.add_players(waiting.id, LONG_NAMES[:9])
        waiting = store.draw(waiting.id)
        return public_id, done, running, waiting
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    server = Server(tmp_path_factory.mktemp("phone"))
    deal, done, running, waiting = plant(server)
    server.start()
    try:
        made = httpx.post(
            f"{server.url}/api/sheets",
            json={
                "game": "doppelkopf",
                "profile": "wielandstrasse",
                "seats": 5,
                "names": LONG_NAMES[:5],
            },
            headers={"origin": server.url},
        ).json()
        scorer = made["links"]["scorer"]
        for k, summary in enumerate(doko_deals(5, 6)):
            change = {"op": "add", "summary": summary, "key": f"phone-{k}"}
            answer = httpx.post(
                f"{server.url}/api/sheets/{scorer[3:]}/changes",
                json=change,
                headers={"origin": server.url},
            )
            assert answer.status_code == 200, answer.text
        yield World(server, deal, done, running, waiting, dict(made["links"]))
    finally:
        server.stop()


def phone(browser: Browser, lang: str) -> BrowserContext:
    return browser.new_context(
        **PHONE,  # type: ignore[arg-type]
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )


def live_table(context: BrowserContext, base: str) -> str:
    """A guest's Doppelkopf table against three bots: the person's hand on the phone."""
    headers = {"origin": base}
    assert context.request.post(f"{base}/api/guest", data={}, headers=headers).ok
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
    body = {"game": "doppelkopf", "profile": "ddv", "seats": seats, "first_dealer": 0}
    answer = context.request.post(f"{base}/api/tables", data=body, headers=headers)
    assert answer.ok, answer.text()
    return f"/t/{answer.json()['table']['id']}"


def pages(world: World, table: str) -> list[tuple[str, str]]:
    """Every page and printout, with what shows it has drawn."""
    director = f"/tournaments/{world.finished.director_token}"
    public = f"/tournaments/{world.finished.public_token}"
    running = f"/tournaments/{world.running.director_token}"
    return [
        ("/", "#lobby-app .account"),
        (table, "#table-app[data-version]"),
        (f"/d/{world.deal}", "#replay-app h1"),
        ("/ratings", "table.leaderboard"),
        ("/rankings", "#ranking-table"),
        ("/s/new", "#create-sheet"),
        (world.sheet["scorer"], "#sheet-table"),
        (world.sheet["follower"], "#sheet-table"),
        ("/tournaments/new", "#create-tournament"),
        (director, "#t-head"),
        (public, "#t-head"),
        (running, "#t-head"),
        (f"/tournaments/{world.running.public_token}", "#t-head"),
        (f"/tournaments/{world.waiting.director_token}", "#t-head"),
        (f"{public}/projector", "#projector-app[data-seq]"),
        (f"{director}/print/seating", "body"),
        (f"{director}/print/sheets", "body"),
        (f"{director}/print/results", "body"),
        (f"{running}/print/results", "body"),
    ]


def overflow(page: Page) -> list[str]:
    """The widest elements that reach past the right edge (for the failure message)."""
    found: list[str] = page.evaluate(
        """(width) => {
          const out = [];
          for (const node of document.querySelectorAll('body *')) {
            const box = node.getBoundingClientRect();
            const right = Math.max(box.right, box.left + node.scrollWidth);
            if (right > width + 0.5 && box.width > 0) {
              let inside = node.parentElement;
              let clipped = false;
              while (inside) {
                const style = getComputedStyle(inside);
                if (['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) {
                  clipped = true;
                  break;
                }
                inside = inside.parentElement;
              }
              if (!clipped) {
                const id = node.id ? '#' + node.id : '';
                const cls = node.className && typeof node.className === 'string'
                  ? '.' + node.className.trim().split(/\\s+/).join('.') : '';
                out.push(`${node.tagName.toLowerCase()}${id}${cls} ${Math.round(box.right)}px`);
              }
            }
          }
          return out.slice(0, 6);
        }""",
        WIDTH,
    )
    return found


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, world: World, lang: str) -> None:
    context = phone(browser, lang)
    base = world.server.url
    table = live_table(context, base)
    page = context.new_page()
    wide: list[str] = []
    for path, ready in pages(world, table):
        page.goto(base + path)
        page.wait_for_selector(ready)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > WIDTH:
            wide.append(f"{path} ({lang}): {scroll}px wide: {', '.join(overflow(page))}")
        if path == "/":
            # The lobby's forms, opened.
            for summary in page.locator("details:not([open]) > summary").all():
                if summary.is_visible():
                    summary.click()
            scroll = page.evaluate("document.documentElement.scrollWidth")
            if scroll > WIDTH:
                wide.append(f"{path} opened ({lang}): {scroll}px: {', '.join(overflow(page))}")
    context.close()
    assert not wide, "\n".join(wide)
