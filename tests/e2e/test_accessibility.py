"""Every page of the app passes axe-core's WCAG 2.1 A/AA rules, in German and English, on a
laptop (1280 px) and a phone (360 px).

The pages are those the phone-width test walks (``test_phone_width.pages``: every page and
printout the routers serve, on one server holding a bit of everything), the lobby with its
forms opened (the login among them), and a live Doppelkopf table in each part of a deal: the
reservations, a trick being played, the result. Each failure names the rule, the node's
selector and what axe-core says to do (``tests/e2e/axe.py``).
"""

import random

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e import test_phone_width as phone_width
from tests.e2e.axe import describe, violations
from tests.e2e.driver import DONE, attr, create_table, drive, drive_to_a_trick, wait_for_my_turn
from tests.e2e.test_phone_width import World, live_table, pages
from tests.server.serverproc import Server

WIDTHS = [1280, 360]
world = phone_width.world  # the fixture: one server holding a bit of everything


def _context(browser: Browser, lang: str, width: int) -> BrowserContext:
    return browser.new_context(
        viewport={"width": width, "height": 800 if width > 400 else 780},
        is_mobile=width < 400,
        has_touch=width < 400,
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )


def _check(page: Page, where: str) -> list[str]:
    """The violations of what ``page`` shows now, one line each, prefixed with ``where``."""
    return describe(violations(page), f"{where}: ")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_passes_axe(browser: Browser, world: World, lang: str, width: int) -> None:
    context = _context(browser, lang, width)
    base = world.server.url
    table = live_table(context, base)
    page = context.new_page()
    found: list[str] = []
    for path, ready in pages(world, table):
        page.goto(base + path)
        page.wait_for_selector(ready)
        found += _check(page, f"{path} ({lang}, {width}px)")
        if path == "/":
            # The lobby's forms, opened (the login, a new table, the settings).
            for summary in page.locator("details:not([open]) > summary").all():
                if summary.is_visible():
                    summary.click()
            found += _check(page, f"{path} opened ({lang}, {width}px)")
    context.close()
    assert not found, "\n".join(found)


def _both_widths(page: Page, where: str) -> list[str]:
    """The page checked at a laptop's width and at a phone's (the same state, resized)."""
    found: list[str] = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        found += _check(page, f"{where} ({width}px)")
    page.set_viewport_size({"width": WIDTHS[0], "height": 800})
    return found


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_table_through_a_deal_passes_axe(browser: Browser, server: Server, lang: str) -> None:
    context = _context(browser, lang, WIDTHS[0])
    page = context.new_page()
    create_table(page, server.url, "doppelkopf", series=3)
    rng = random.Random(31)
    found: list[str] = []
    # The person at seat 0 declares last (seat 1 deals first): their reservation comes first.
    wait_for_my_turn(page)
    assert page.locator("section.actions button.act").count(), "no reservation offered"
    found += _both_widths(page, f"table, reservations ({lang})")
    drive_to_a_trick(page, rng)
    found += _both_widths(page, f"table, a trick ({lang})")
    drive([page], rng)
    assert attr(page, "phase") in DONE
    page.wait_for_selector("#result")
    found += _both_widths(page, f"table, the result ({lang})")
    context.close()
    assert not found, "\n".join(found)


def test_the_hand_by_keyboard_passes_axe_and_keeps_its_focus(
    browser: Browser, server: Server
) -> None:
    """A keyboard player's card keeps the focus when a frame redraws the table (a spectator
    arrives), and the hand, named and labelled, passes axe-core with the focus on it."""
    page = browser.new_page()
    url = create_table(page, server.url, "doppelkopf", series=3)
    drive_to_a_trick(page, random.Random(7))
    card = page.locator("#hand button.card.legal:not([disabled])").first
    code = card.get_attribute("data-card")
    card.focus()
    watcher = browser.new_page()
    watcher.goto(url.split("?", maxsplit=1)[0])
    page.wait_for_selector("#watching")  # the presence frame has been drawn
    focused = page.evaluate("() => document.activeElement && document.activeElement.dataset.card")
    assert focused == code, "the focus left the card when the frame was drawn"
    found = describe(violations(page, "#hand"), "the hand: ")
    watcher.close()
    assert not found, "\n".join(found)
