"""Post-game analysis in chromium: on the table page after the deal, and in the replay viewer
for the player and for someone who did not sit at the table."""

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import Server
from tests.e2e.driver import create_table, drive_to_a_game


@pytest.fixture
def fast_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose analyses search a few worlds per decision (seconds, not minutes)."""
    monkeypatch.setenv("STICHWERK_ANALYSIS_SECONDS", "0.02")
    monkeypatch.setenv("STICHWERK_ANALYSIS_WORLDS", "8")
    srv = Server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_analysis_after_the_deal_and_in_the_replay(browser: Browser, fast_server: Server) -> None:
    page = browser.new_page()
    create_table(page, fast_server.url, "doppelkopf", profile="wielandstrasse")
    drive_to_a_game(page, random.Random(3))
    expect(page.locator("#result")).to_be_visible()
    # The table page: the player asks for the analysis of his own decisions.
    panel = page.locator("#analysis")
    expect(panel).to_be_visible()
    page.click("#analyse")
    expect(page.locator("#analysis-summary")).to_be_visible(timeout=120_000)
    rows = page.locator("#analysis tr.decision")
    assert rows.count() > 0
    expect(page.locator("#analysis-summary")).to_contain_text("decisions, expected loss")
    expect(page.locator("#analysis")).to_contain_text("Seat: ")
    # Every row lists the choices with their expected score; the one played is marked.
    first = rows.first
    assert first.locator(".choice").count() > 1
    assert first.locator(".choice.chosen").count() == 1
    assert first.locator(".choice.best").count() >= 1
    expect(first.locator(".choice").first).to_have_text(re.compile(r"[+−0]"))
    count = rows.count()

    # The replay viewer shows the same analysis; a row's move number shows that position.
    page.click("text=Replay")
    page.wait_for_selector("#step")
    expect(page.locator("#analysis-summary")).to_be_visible()
    expect(page.locator("#analysis tr.decision")).to_have_count(count)
    index = page.locator("#analysis tr.decision").nth(1).get_attribute("data-index")
    page.locator("#analysis tr.decision").nth(1).locator("button.link").click()
    expect(page.locator("#step")).to_contain_text(f"Step {index} of")
    replay_url = page.url

    # Someone who did not sit at the table chooses a person's seat (every hand is open in the
    # replay of a finished deal), in German.
    other = browser.new_context(locale="de-DE", extra_http_headers={"accept-language": "de"})
    visitor = other.new_page()
    visitor.goto(fast_server.url + "/")
    visitor.click("#guest")
    visitor.wait_for_selector("#create-table")
    visitor.goto(replay_url)
    expect(visitor.locator("#analysis-seat")).to_be_visible()
    assert visitor.locator("#analysis-seat option").count() == 1  # the bots' seats are not offered
    expect(visitor.locator("#analysis-summary")).to_contain_text("Entscheidungen")
    expect(visitor.locator("#analysis tr.decision")).to_have_count(count)
    other.close()
