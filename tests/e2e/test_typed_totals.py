"""Typed totals in Debian's chromium (issue 32): a director types a table's totals with three
mistakes; all three are named at once, in the page's language, each below its player's line
with the field marked; the corrected totals are taken and the marks are gone."""

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serverproc import Server

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna", "Ida"]


def _director(server: Server) -> tuple[str, list[str]]:
    create = {"name": "Herbst", "series": "Club", "date": "2025-10-04", "seed": "typed"}
    origin = {"origin": server.url}
    state = httpx.post(f"{server.url}/api/tournaments", json=create, headers=origin).json()
    director = state["links"]["director"]
    for body in ({"op": "add_players", "names": NAMES}, {"op": "draw"}):
        r = httpx.post(f"{server.url}/api{director}/changes", json=body, headers=origin)
        assert r.status_code == 200, r.text
        state = r.json()
    table = state["rounds"][0]["tables"][0]
    assert table["size"] == 4
    return director, [NAMES[p] for p in table["seating"]]


def _page(browser: Browser, lang: str) -> Page:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )
    return context.new_page()


WORDS = {
    "de": (
        "Eine Plus-Liste schreibt keine negativen Summen.",
        "Gewonnene Spiele: eine ganze Zahl von 0 bis 8.",
        "6 Punkte, aber kein Spiel gewonnen: wie viele Spiele hat {name} gewonnen?",
    ),
    "en": (
        "A plus-only list writes no negative totals.",
        "Games won: a whole number from 0 to 8.",
        "6 points but no game won: how many games did {name} win?",
    ),
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_three_mistakes_are_shown_at_their_fields(
    browser: Browser, server: Server, lang: str
) -> None:
    director, seated = _director(server)
    page = _page(browser, lang)
    page.goto(server.url + director)
    page.wait_for_selector("#quick-1-1", state="attached", timeout=30_000)
    page.click("#quick-1-1 summary")
    # Three mistakes: a negative total, 9 games won of 8, 6 points without a game won.
    typed = [(-5, 2), (12, 9), (20, 3), (6, 0)]
    for seat, (points, won) in enumerate(typed):
        page.fill(f"#q-1-1-points-{seat}", str(points))
        page.fill(f"#q-1-1-won-{seat}", str(won))
    page.click("#q-1-1-save")
    negative, too_many, no_win = WORDS[lang]
    expect(page.locator("#q-1-1-problems-0 .q-problem")).to_have_text(negative, timeout=30_000)
    expect(page.locator("#q-1-1-problems-1 .q-problem")).to_have_text(too_many)
    expect(page.locator("#q-1-1-problems-3 .q-problem")).to_have_text(no_win.format(name=seated[3]))
    expect(page.locator("#q-1-1-problems-2")).to_be_hidden()
    expect(page.locator("#q-1-1-problems-table")).to_be_hidden()
    for seat, field in ((0, "points"), (1, "won"), (3, "won")):
        expect(page.locator(f"#q-1-1-{field}-{seat}")).to_have_attribute("aria-invalid", "true")
    assert page.get_attribute("#q-1-1-points-1", "aria-invalid") is None
    # Corrected: taken, the marks gone.
    page.fill("#q-1-1-points-0", "5")
    page.fill("#q-1-1-won-1", "8")
    page.fill("#q-1-1-won-3", "2")
    page.click("#q-1-1-save")
    expect(page.locator('#round-1 .ttable[data-table="1"]')).to_have_attribute(
        "data-entered", "true", timeout=30_000
    )
    expect(page.locator(".quick-grid .q-problem")).to_have_count(0)
    assert page.get_attribute("#q-1-1-points-0", "aria-invalid") is None
    page.context.close()
