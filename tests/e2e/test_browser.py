"""Whole deals clicked through in Debian's chromium against the real server."""

import random

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import Server
from tests.e2e.driver import attr, create_table, drive, drive_to_a_trick, hand, trick


def test_a_cego_deal_against_bots(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    create_table(page, server.url, "cego", profile="schwarzwald")
    expect(page.locator("#hand .card")).to_have_count(11)
    assert page.locator("#hand svg").count() == 11  # drawn as SVG
    drive([page], random.Random(1))
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#sheet tbody tr")).to_have_count(2)  # the deal and the total
    assert attr(page, "phase") == "finished"
    # The finished deal can be replayed step by step and downloaded.
    page.click("text=Replay")
    page.wait_for_selector("#step")
    page.click("#last")
    expect(page.locator("#result-headline")).to_be_visible()
    page.click("#first")
    expect(page.locator("#step")).to_contain_text("0")
    with page.expect_download() as download:
        page.click("text=Download record")
    assert download.value.suggested_filename.endswith(".json")


def test_a_doppelkopf_deal_in_german(browser: Browser, server: Server) -> None:
    context = browser.new_context(locale="de-DE", extra_http_headers={"accept-language": "de"})
    page = context.new_page()
    create_table(page, server.url, "doppelkopf", profile="wielandstrasse")
    expect(page.locator("#hand .card")).to_have_count(12)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    drive([page], random.Random(2))
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("summary", has_text="Spielliste")).to_be_visible()
    # Switch the language: the same table in English.
    page.click("a[hreflang=en]")
    page.wait_for_selector("#table-app[data-version]")
    expect(page.locator("summary", has_text="Score sheet")).to_be_visible()
    context.close()


def test_two_browsers_at_one_table(browser: Browser, server: Server) -> None:
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    create_table(alice, server.url, "doppelkopf", humans=(0, 2))
    invite = alice.locator("#invite-link").input_value()
    assert "invite=" in invite
    bob.goto(invite)
    bob.click("button[data-join='2']")
    for page in (alice, bob):
        expect(page.locator("#hand .card")).to_have_count(12, timeout=15_000)
    assert hand(alice) != hand(bob)
    drive([alice, bob], random.Random(3))
    for page in (alice, bob):
        expect(page.locator("#result")).to_be_visible()


def test_reconnect_mid_trick(browser: Browser, server: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    # A few deals: one may end before it is our turn in a trick (a redeal, a Piccolo lost early).
    url = create_table(page, server.url, "doppelkopf", series=4)
    rng = random.Random(4)
    drive_to_a_trick(page, rng)
    before = (attr(page, "version"), hand(page), trick(page))
    page.reload()
    page.wait_for_selector("#table-app[data-version]")
    assert (attr(page, "version"), hand(page), trick(page)) == before
    # A closed tab: a new tab of the same browser sits down at the same seat.
    page.close()
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#table-app[data-version]")
    assert (attr(page, "version"), hand(page), trick(page)) == before
    drive([page], rng)
    expect(page.locator("#result")).to_be_visible()


def test_server_restart_mid_deal(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    create_table(page, server.url, "cego", series=4)
    rng = random.Random(5)
    drive_to_a_trick(page, rng)
    before = (attr(page, "version"), hand(page), trick(page))
    server.kill()
    expect(page.locator("body")).to_have_class("offline", timeout=10_000)
    server.start()
    expect(page.locator("body")).not_to_have_class("offline", timeout=20_000)
    page.wait_for_function(
        "v => document.getElementById('table-app').dataset.version === v", arg=before[0]
    )
    assert (attr(page, "version"), hand(page), trick(page)) == before
    drive([page], rng)
    expect(page.locator("#result")).to_be_visible()


def test_phone_screen(browser: Browser, server: Server) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    create_table(page, server.url, "doppelkopf")
    expect(page.locator("#hand .card")).to_have_count(12)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "the table fits the phone's width"
    # Every card is a big enough target (measured once the hand has settled: a state frame
    # may redraw it while the page is measured).
    page.wait_for_function(
        "() => { const c = [...document.querySelectorAll('#hand .card')];"
        " return c.length === 12 && c.every(e => e.getBoundingClientRect().width >= 24); }",
        timeout=10_000,
    )
    drive([page], random.Random(6))
    expect(page.locator("#result")).to_be_visible()
    # The result card and the score sheet fit as well: the sheet without scrolling sideways.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "the result fits the phone's width"
    sheet_overflow = page.evaluate(
        "(() => { const t = document.querySelector('#sheet');"
        " return t.scrollWidth - t.parentElement.clientWidth; })()"
    )
    assert sheet_overflow <= 0, "the score sheet fits the phone's width"
    context.close()


def test_a_five_seat_sheet_fits_a_small_phone(browser: Browser, server: Server) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    create_table(page, server.url, "cego", seats=5, first_dealer=2)
    page.wait_for_selector("#sheet")
    # The seat chosen to deal first deals, and at five seats sits the deal out.
    expect(page.locator('.seat[data-seat="2"] .seat-name .badge:not(.vorhand)')).to_be_visible()
    expect(page.locator('.seat[data-seat="2"] .seat-info')).to_have_text("sits out")
    expect(page.locator(".seat-name .badge:not(.vorhand)")).to_have_count(1)
    # Computers get short column names on a phone; the full name stays the tooltip.
    expect(page.locator("#sheet th .name-short").nth(2)).to_have_text("C3")
    expect(page.locator("#sheet th").nth(4)).to_have_attribute("title", "Computer 3")
    sheet_overflow = page.evaluate(
        "(() => { const t = document.querySelector('#sheet');"
        " return t.scrollWidth - t.parentElement.clientWidth; })()"
    )
    assert sheet_overflow <= 0, "five columns of names fit a 360 px screen"
    context.close()


def test_a_private_table_opens_only_with_its_invite(browser: Browser, server: Server) -> None:
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    url = create_table(alice, server.url, "doppelkopf", humans=(0, 2), public=False)
    invite = alice.locator("#invite-link").input_value()
    # Without the invite: as if there were no such table.
    bob.goto(url.split("?", 1)[0])
    expect(bob.locator("#no-table")).to_be_visible()
    bob.goto(invite)
    bob.click("button[data-join='2']")
    expect(bob.locator("#hand .card")).to_have_count(12, timeout=15_000)
    # Alice's page hears that Bob came (presence), and the link to watch stays on offer.
    expect(alice.locator('.seat[data-seat="2"] .dot.on')).to_be_visible()
    expect(alice.locator("#invite-watch-link")).to_have_value(invite)


def test_log_out_everywhere(browser: Browser, server: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    create_table(page, server.url, "cego")
    other = context.new_page()  # the same account in another tab
    other.goto(server.url + "/")
    other.wait_for_selector("#logout-all")
    other.click("#logout-all")
    expect(other.locator("#guest")).to_be_visible()
    # The table's socket was closed by the server: the page comes back as a spectator.
    expect(page.locator(".note", has_text="You are watching")).to_be_visible(timeout=15_000)
    context.close()
