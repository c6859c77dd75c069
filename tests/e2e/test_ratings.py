"""The leaderboards and a player's rating chart, and a person's bot accounts, in chromium.

The rated deals are example records put into the database before the server starts: the
server takes them into the ratings when it starts (the same path as after a restart)."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from stichwerk.storage.db import Database
from stichwerk.storage.repo import Repo
from tests.server.serverproc import Server
from tests.server.test_ratings import finished

DEALS = ["ddv-normal", "ddv-solo-damen", "ddv-hochzeit", "ddv-normal"]


@pytest.fixture
def rated_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path)
    db = Database(f"sqlite:///{server.db}")
    try:
        db.migrate()
        repo = Repo(db)
        resi = repo.create_user("Resi", "x", False).id
        table = repo.create_table(
            game="doppelkopf",
            profile="ddv",
            options={},
            seats=[("human", "random"), ("bot", "heuristic"), ("bot", "random"), ("bot", "random")],
            series_length=len(DEALS),
            time_limit=60,
            public=False,
            created_by=resi,
            creator_seat=0,
        )
        for number, name in enumerate(DEALS):
            record, result = finished("doppelkopf", name)
            repo.finish_deal(repo.create_deal(table.id, number, record), result, True)
        repo.set_table_status(table.id, "finished")
    finally:
        db.dispose()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_leaderboard_and_a_players_chart_show(browser: Browser, rated_server: Server) -> None:
    page = browser.new_page()
    page.goto(rated_server.url + "/")
    page.click("#ratings-link")
    page.wait_for_url("**/ratings**")
    page.select_option("#board", "doppelkopf/ddv")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(3)  # Resi, heuristic, random
    resi = page.locator("tr", has=page.locator("button[data-player]", has_text="Resi"))
    expect(resi.locator(".provisional-badge")).to_be_visible()
    expect(resi.locator(".sigma")).to_contain_text("±")
    expect(resi.locator(".bot-badge")).to_have_count(0)
    heuristic = page.locator("tr", has=page.locator("button", has_text="heuristic"))
    expect(heuristic.locator(".bot-badge")).to_be_visible()
    expect(resi.locator("td").last).to_have_text(str(len(DEALS)))
    # The chart: a line and a band over the four rated deals, a dot per deal.
    resi.locator("button[data-player]").click()
    chart = page.locator("#history svg.rating-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("circle")).to_have_count(len(DEALS))
    assert chart.locator("polyline.mu").get_attribute("points")
    assert chart.locator("polygon.band").get_attribute("points")
    box = chart.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 80
    expect(page.locator("#history h2")).to_contain_text("Resi")
    # The address keeps the choice: reloaded, the same chart; in German too.
    assert "player=u%3A" in page.url or "player=u:" in page.url
    page.click("a[hreflang=de]")
    expect(page.locator("h1")).to_have_text("Ranglisten")
    expect(page.locator("#history svg.rating-chart circle")).to_have_count(len(DEALS))
    expect(page.locator("table.leaderboard thead")).to_contain_text("Wertung")
    # A private table's deals count, but nothing on the page leads to them.
    assert page.locator("a[href*='/d/'], a[href*='/t/']").count() == 0


def test_an_account_makes_a_bot_and_sees_its_token_once(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    page.goto(server.url + "/")
    page.fill("input[name=username]", "Olga")
    page.fill("input[name=password]", "geheim123")
    page.click("text=Create account")
    page.wait_for_selector("#bots-panel")
    page.click("#bots-panel summary")
    page.fill("#bot-name", "Robo")
    page.click("#bot-form button[type=submit]")
    token = page.locator("#bot-token")
    expect(token).to_be_visible()
    value = token.input_value()
    assert value.startswith("swb_") and len(value) > 40
    expect(page.locator("#bot-list li[data-bot=Robo]")).to_contain_text(value[:8])
    # The bot can take a seat when opening a table.
    assert page.locator("[data-seat-kind='1'] option[value='account:Robo']").count() == 1
    # Revoked: the list says it has no token, and the token shown is gone after a reload.
    page.click("#bot-list li[data-bot=Robo] button.revoke")
    expect(page.locator("#bot-list li[data-bot=Robo]")).not_to_contain_text(value[:8])
    page.reload()
    page.wait_for_selector("#bots-panel")
    assert page.locator("#bot-token").count() == 0
