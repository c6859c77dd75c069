"""Reachable links in Debian's chromium (issue 32): a server told its public address, opened
by the director on 127.0.0.1, warns on the sheet's and the tournament's pages (German and
English) and makes every shown link and QR code of the public address."""

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.serverproc import Server

PUBLIC = "http://karten.example:9000"
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna", "Ida"]


@pytest.fixture
def public_server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path, env={"STICHWERK_PUBLIC_URL": PUBLIC})
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _page(browser: Browser, lang: str) -> Page:
    context = browser.new_context(
        locale="de-DE" if lang == "de" else "en-GB", extra_http_headers={"accept-language": lang}
    )
    return context.new_page()


def test_a_sheet_opened_on_loopback_warns_and_shares_the_public_address(
    browser: Browser, public_server: Server
) -> None:
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    made = httpx.post(f"{public_server.url}/api/sheets", json=settings).json()
    scorer, follower = made["links"]["scorer"], made["links"]["follower"]
    page = _page(browser, "de")
    page.goto(public_server.url + scorer)
    warning = page.locator("#loopback-warning")
    expect(warning).to_be_visible(timeout=30_000)
    here = public_server.url.removeprefix("http://")
    expect(warning).to_contain_text(f"Diese Seite ist über {here} geöffnet")
    expect(warning).to_contain_text(PUBLIC)
    assert page.get_attribute("#loopback-open", "href") == PUBLIC + scorer
    page.click("#share summary")
    expect(page.locator("#link-follower")).to_have_value(PUBLIC + follower)
    expect(page.locator("#link-scorer")).to_have_value(PUBLIC + scorer)
    # The QR code the page shows is of the public address (its title is the encoded text).
    token = scorer.removeprefix("/s/")
    svg = httpx.get(f"{public_server.url}/api/sheets/{token}/qr/follower.svg").text
    assert f"<title>{PUBLIC}{follower}</title>" in svg
    page.context.close()


def test_a_director_on_loopback_is_warned_and_the_printouts_carry_the_public_address(
    browser: Browser, public_server: Server
) -> None:
    create = {"name": "Frühjahr", "series": "Club", "date": "2025-03-08", "seed": "pub"}
    origin = {"origin": public_server.url}
    state = httpx.post(f"{public_server.url}/api/tournaments", json=create, headers=origin).json()
    director = state["links"]["director"]
    for body in ({"op": "add_players", "names": NAMES}, {"op": "draw"}):
        r = httpx.post(f"{public_server.url}/api{director}/changes", json=body, headers=origin)
        assert r.status_code == 200, r.text
        state = r.json()
    page = _page(browser, "en")
    page.goto(public_server.url + director)
    warning = page.locator("#loopback-warning")
    expect(warning).to_be_visible(timeout=30_000)
    here = public_server.url.removeprefix("http://")
    expect(warning).to_contain_text(f"This page was opened at {here}")
    expect(warning).to_contain_text(f"Phones and other computers use {PUBLIC}")
    table = state["rounds"][0]["tables"][0]
    page.click("#sheet-1-1 summary")
    expect(page.locator("#sheet-1-1 .note")).to_have_text(PUBLIC + table["scorer"])
    # The public page (the projector's, the players') has nothing to warn about.
    viewer = _page(browser, "en")
    viewer.goto(public_server.url + state["links"]["public"])
    expect(viewer.locator("#t-name")).to_have_text("Frühjahr", timeout=30_000)
    assert viewer.locator("#loopback-warning").count() == 0
    sheets = page.context.new_page()
    sheets.goto(f"{public_server.url}{director}/print/sheets")
    expect(sheets.locator(".score-page .url").first).to_have_text(PUBLIC + table["scorer"])
    expect(sheets.locator(".print-live").first).to_have_text(
        f"Live online: {PUBLIC}{state['links']['public']}"
    )
    page.context.close()
    viewer.context.close()
