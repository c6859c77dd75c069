"""Issue 32's "done when", in Debian's chromium: a 14-player Wielandstraße day on the director's
laptop (1280 px) and two phones (360 px), the server told its public address. The laptop draws
each round and is warned that phones cannot reach 127.0.0.1; phone A types every table's totals
(the first with three mistakes, all named at once at their fields in the page's language);
phone B keeps a table's score sheet, corrects its game 1 and reads the correction back in the
log by the game's number; the draw is as fair as the documented rule for 14 players; the
printouts carry the public address and today's date. German and English."""

import datetime
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from stichwerk.tournament.draw import KNOWN_SPREAD
from tests.e2e.test_public_address import PUBLIC, public_server  # noqa: F401 (a fixture)
from tests.e2e.test_sheet import PHONE
from tests.e2e.test_tournament_log import post
from tests.server.serverproc import Server

NAMES = [
    "Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav",
    "Hanna", "Ida", "Jakob", "Karla", "Ludwig", "Marta", "Nils",
]  # fmt: skip
FEWEST_REPEATS = 10
"""Docs (tournaments.md): with 14 players every draw has at least 10 repeated pairs, and every
draw with 10 has a player who never sits at a 5-table (the least gap is KNOWN_SPREAD's 3)."""

WORDS = {
    "de": {
        "negative": "Eine Plus-Liste schreibt keine negativen Summen.",
        "too_many": "Gewonnene Spiele: eine ganze Zahl von 0 bis 8.",
        "no_win": "6 Punkte, aber kein Spiel gewonnen: wie viele Spiele hat {name} gewonnen?",
        "here": "Diese Seite ist über {here} geöffnet",
        "corrected": "Spiel 1 berichtigt",
        "augen": "Re 150 → 160 Augen",
        "printed": "Gedruckt am {date}",
        "live": "Live im Netz: {url}",
    },
    "en": {
        "negative": "A plus-only list writes no negative totals.",
        "too_many": "Games won: a whole number from 0 to 8.",
        "no_win": "6 points but no game won: how many games did {name} win?",
        "here": "This page was opened at {here}",
        "corrected": "Game 1 corrected",
        "augen": "Re 150 → 160 card points",
        "printed": "Printed {date}",
        "live": "Live online: {url}",
    },
}
FIRST = {"game_type": "normal", "re": [0, 2], "re_augen": 150, "announcements": {"re": ["re"]}}
FIXED = {**FIRST, "re_augen": 160, "announcements": {"re": ["re", "keine-90"]}}
MISTAKES = [(-5, 2), (12, 9), (20, 3), (6, 0)]
"""A negative total, 9 games won of 8, 6 points without a game won (a 4-table)."""
MENDED = [(5, 2), (12, 8), (20, 3), (6, 2)]


def _context(browser: Browser, lang: str, phone: bool) -> BrowserContext:
    size: dict[str, Any] = PHONE if phone else {"viewport": {"width": 1280, "height": 900}}
    return browser.new_context(
        **size,
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )


def totals(size: int, rnd: int) -> list[tuple[int, int]]:
    """Totals a plus-only list can write: a point for each game won, at most three winners."""
    won = [3, 2, 2, 1] if size == 4 else [3, 3, 2, 1, 1]
    return [(w * 2 + (rnd if seat == 0 else 0) + 1, w) for seat, w in enumerate(won)]


def read(page: Page, path: str) -> Any:
    """A GET from the page itself."""
    return page.evaluate("async path => (await fetch(path)).json()", path)


def type_totals(page: Page, rnd: int, table: int, values: list[tuple[int, int]]) -> None:
    """Phone A types a table's totals into the director's page and saves them."""
    details = page.locator(f"#quick-{rnd}-{table}")
    if details.get_attribute("open") is None:
        page.click(f"#quick-{rnd}-{table} summary")
    for seat, (points, won) in enumerate(values):
        page.fill(f"#q-{rnd}-{table}-points-{seat}", str(points))
        page.fill(f"#q-{rnd}-{table}-won-{seat}", str(won))
    page.click(f"#q-{rnd}-{table}-save")


def entered(page: Page, rnd: int, table: int) -> None:
    cell = page.locator(f'#round-{rnd} .ttable[data-table="{table}"]')
    expect(cell).to_have_attribute("data-entered", "true", timeout=30_000)


def fairness(rounds: list[dict[str, Any]]) -> tuple[int, int]:
    """The Vorrunde's repeated pairs and the gap between the most and fewest 5-table seats."""
    met: Counter[tuple[int, int]] = Counter()
    fives: Counter[int] = Counter(dict.fromkeys(range(len(NAMES)), 0))
    for rnd in rounds:
        for table in rnd["tables"]:
            met.update(combinations(sorted(table["seating"]), 2))
            if table["size"] == 5:
                fives.update(table["seating"])
    repeats = sum(n - 1 for n in met.values() if n > 1)
    return repeats, max(fives.values()) - min(fives.values())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_fourteen_player_day_on_two_phones_and_a_laptop(
    browser: Browser,
    public_server: Server,  # noqa: F811 (the fixture imported above)
    lang: str,
) -> None:
    words = WORDS[lang]
    base = public_server.url
    laptop = _context(browser, lang, phone=False).new_page()
    laptop.goto(base + "/tournaments/new")
    create = {"name": "Frühjahr", "series": f"Club {lang}", "date": "2025-03-08", "seed": "day"}
    made = post(laptop, "/api/tournaments", create)
    director = made["links"]["director"]
    post(laptop, f"/api{director}/changes", {"op": "add_players", "names": NAMES})
    laptop.goto(base + director)
    warning = laptop.locator("#loopback-warning")
    expect(warning).to_contain_text(words["here"].format(here=base.removeprefix("http://")))
    expect(warning).to_contain_text(PUBLIC)
    phone_a = _context(browser, lang, phone=True).new_page()  # the director's helper
    phone_a.goto(base + director)
    phone_b = _context(browser, lang, phone=True).new_page()  # a table's scorer
    state: dict[str, Any] = {}
    for rnd in (1, 2, 3):
        laptop.click("#next-action")  # draw the round
        expect(phone_a.locator(f"#round-{rnd}")).to_be_attached(timeout=30_000)
        state = read(laptop, f"/api{director}")
        tables = state["rounds"][rnd - 1]["tables"]
        assert sorted(t["size"] for t in tables) == [4, 5, 5]
        for table in tables:
            n, size = table["number"], table["size"]
            if rnd == 1 and size == 4:
                keep_a_sheet(phone_b, base, table["scorer"], words)
                type_totals(phone_a, rnd, n, MISTAKES)
                problems = {
                    seat: phone_a.locator(f"#q-1-{n}-problems-{seat} .q-problem")
                    for seat in range(4)
                }
                names = [NAMES[p] for p in table["seating"]]
                expect(problems[0]).to_have_text(words["negative"], timeout=30_000)
                expect(problems[1]).to_have_text(words["too_many"])
                expect(problems[3]).to_have_text(words["no_win"].format(name=names[3]))
                expect(problems[2]).to_have_count(0)
                for seat, field in ((0, "points"), (1, "won"), (3, "won")):
                    field_id = f"#q-1-{n}-{field}-{seat}"
                    expect(phone_a.locator(field_id)).to_have_attribute("aria-invalid", "true")
                type_totals(phone_a, rnd, n, MENDED)
            else:
                type_totals(phone_a, rnd, n, totals(size, rnd))
            entered(phone_a, rnd, n)
        expect(laptop.locator("#next-action")).to_have_attribute(
            "data-action", "draw" if rnd < 3 else "endrunde", timeout=30_000
        )
    state = read(laptop, f"/api{director}")
    repeats, gap = fairness(state["rounds"])
    assert repeats == FEWEST_REPEATS and gap == KNOWN_SPREAD[(4, 3, (4, 5, 5))], (repeats, gap)
    # The printouts: the public address (QR codes' links, the live page) and today's date.
    day = datetime.date.today()
    shown = day.strftime("%d.%m.%Y") if lang == "de" else day.isoformat()
    printed = words["printed"].format(date=shown)
    for what in ("sheets", "results"):
        sheet = laptop.context.new_page()
        sheet.goto(f"{base}{director}/print/{what}")
        expect(sheet.locator("#print-date").first).to_contain_text(printed)
        live = words["live"].format(url=PUBLIC + state["links"]["public"])
        expect(sheet.locator(".print-live").first).to_have_text(live)
        if what == "sheets":
            urls = sheet.locator(".score-page .url").all_inner_texts()
            assert urls and all(u.startswith(PUBLIC + "/s/") for u in urls), urls
        sheet.close()
    for page in (laptop, phone_a, phone_b):
        page.context.close()


def keep_a_sheet(page: Page, base: str, scorer: str, words: dict[str, str]) -> None:
    """Phone B keeps the table's list: game 1 entered, then corrected; the log names it by its
    number and says what changed, the row is marked corrected."""
    page.goto(base + scorer)
    page.wait_for_selector("#sheet-table")
    token = scorer.removeprefix("/s/")
    post(page, f"/api/sheets/{token}/changes", {"op": "add", "entry": "g1", "summary": FIRST})
    post(page, f"/api/sheets/{token}/changes", {"op": "correct", "entry": "g1", "summary": FIXED})
    page.click("#history summary")
    line = page.locator("#history-list li", has_text=words["corrected"])
    expect(line).to_contain_text(words["augen"], timeout=30_000)
    mark = page.locator('#sheet-table tr[data-index="1"] .tag.corrected')
    expect(mark).to_have_attribute("data-corrected", "1")
