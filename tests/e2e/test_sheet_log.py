"""A log people can read (issue 32), in Debian's chromium: a correction read back in the log by
its game's number with what changed, the corrected row marked, a deleted row struck through,
the preview's player table without an always-empty column, and the print's date, in German and
English."""

import re
import time

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.e2e.test_sheet import NAMES, _context, create_list, enter_doko, saved, settle, tap
from tests.server.serverproc import Server

WORDS = {
    "de": {
        "corrected": "Spiel 1 berichtigt",
        "augen": "Re 130 → 160 Augen",
        "points": "1 → 4 Punkte",
        "said": "Re angesagt",
        "deleted": "Spiel 2 gelöscht",
        "added": "Spiel 1 eingetragen",
        "printed": "Gedruckt am",
        "tricks": "Stiche",
    },
    "en": {
        "corrected": "Game 1 corrected",
        "augen": "Re 130 → 160 card points",
        "points": "1 → 4 points",
        "said": "announced",
        "deleted": "Game 2 deleted",
        "added": "Game 1 entered",
        "printed": "Printed",
        "tricks": "Tricks",
    },
}


def preview_columns(page: Page) -> list[list[str]]:
    """The preview's player table by columns: the heading, then each seat's cell."""
    cols: list[list[str]] = page.evaluate(
        """() => {
          const table = document.querySelector('#preview #settlement');
          const cells = tr => [...tr.children].map(c => c.textContent.trim());
          const rows = [...table.querySelectorAll('tr')].map(cells);
          return rows[0].map((_, i) => rows.map(r => r[i]));
        }"""
    )
    return cols


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_correction_is_read_back_in_the_log_by_its_game_number(
    browser: Browser, server: Server, lang: str
) -> None:
    words = WORDS[lang]
    page = _context(browser, lang).new_page()
    create_list(page, server.url, "doppelkopf", "wielandstrasse", 4)
    enter_doko(page, {"kind": "normal", "re": [0, 2], "augen": 130})
    expect(page.locator("#save")).to_be_enabled(timeout=60_000)
    # The preview shows only columns that mean something: no tricks a list never counts.
    columns = preview_columns(page)
    assert words["tricks"] not in [c[0] for c in columns], columns
    for column in columns:
        assert any(cell not in ("", "–") for cell in column[1:]), column
    settle(page, [1, 0, 1, 0])
    saved(page, 1)
    enter_doko(page, {"kind": "normal", "re": [1, 3], "augen": 130})
    settle(page, [0, 1, 0, 1])
    saved(page, 2)

    # Game 1 corrected: Re had 160 and had said Re.
    page.click('#sheet-table tr[data-index="1"]')
    page.click("#correct")
    page.fill("#f-augen", "160")
    tap(page, "f-ann-re", "re", "value")
    settle(page, [4, 0, 4, 0])
    saved(page, 3, rows=2)
    mark = page.locator('#sheet-table tr[data-index="1"] .tag.corrected')
    expect(mark).to_be_visible()
    assert mark.get_attribute("aria-label")
    # Game 2 deleted: it stays in sight, struck through.
    page.click('#sheet-table tr[data-index="2"]')
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete")
    saved(page, 4, rows=1)
    gone = page.locator("#sheet-table tr.deleted")
    expect(gone).to_have_count(1)
    expect(gone.locator("del").first).to_be_visible()

    page.click("#history summary")
    # Read at once: the page may draw the list (and load its log) again between two reads.
    texts: list[str] = page.wait_for_function(
        """() => {
          const items = [...document.querySelectorAll('#history-items li')];
          return items.length === 4 ? items.map(li => li.textContent) : null;
        }"""
    ).json_value()
    assert words["added"] in texts[0], texts
    fixed = texts[2]
    for wanted in (words["corrected"], words["augen"], words["said"], words["points"]):
        assert wanted in fixed, fixed
    assert words["deleted"] in texts[3], texts
    for text in texts:  # no internal ids ("Berichtigung: Normalspiel (a8b17077)")
        assert not re.search(r"\([0-9a-f]{8}\)", text), text

    # The print carries the date (and the rules, whose panel opens for it).
    page.emulate_media(media="print")
    expect(page.locator("#printed")).to_be_visible()
    expect(page.locator("#printed")).to_contain_text(words["printed"])
    expect(page.locator("#rules-in-force")).to_be_visible()


def test_a_click_across_the_sockets_first_frame_opens_the_log(
    browser: Browser, server: Server
) -> None:
    """The socket's first frame (the sheet as the page's own request just showed it) arrives
    between the press and the release of a click on the log's summary: the list is not drawn
    again for it, so the click is not lost (a redraw replaced the summary pressed)."""
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    made = httpx.post(f"{server.url}/api/sheets", json=settings).json()
    page = _context(browser, "en").new_page()
    held: list[str | bytes] = []
    routes: list[WebSocketRoute] = []

    def keep(message: str | bytes) -> None:  # a function: Playwright cannot wrap list.append
        held.append(message)

    def hold(ws: WebSocketRoute) -> None:
        """The page's socket to the real server, its frames held until the test lets them on."""
        upstream = ws.connect_to_server()
        upstream.on_message(keep)
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/sheets/"), hold)
    page.goto(server.url + made["links"]["follower"])
    page.wait_for_selector("#sheet-app[data-scorer] #history summary")
    deadline = time.monotonic() + 30
    while not any('"type": "sheet"' in str(frame) for frame in held):  # the first sheet, held
        assert time.monotonic() < deadline, "the socket sent no sheet"
        page.evaluate("0")  # each call lets Playwright take events
    page.locator("#history summary").hover()
    page.mouse.down()
    for frame in held:  # the greeting and the sheet
        routes[0].send(frame)
    page.wait_for_selector('#sheet-app[data-frames="1"]', state="attached")  # taken in
    page.mouse.up()
    expect(page.locator("#history")).to_have_attribute("open", "")
