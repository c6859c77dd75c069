"""Copy buttons on a page without ``navigator.clipboard`` (issue 32): a phone or a laptop at
the LAN's http:// address is no secure context, so the browser offers no clipboard object. The
button then selects the link for Ctrl+C or the phone's menu and says so; it once threw."""

import httpx
from playwright.sync_api import Browser, expect

from tests.e2e.driver import create_table
from tests.e2e.test_sheet import NAMES, _context
from tests.server.serverproc import Server

NO_CLIPBOARD = "Object.defineProperty(navigator, 'clipboard', {value: undefined})"
"""The page as at http://192.168.x.y: no clipboard object."""


def test_a_sheets_share_link_is_selected_where_there_is_no_clipboard(
    browser: Browser, server: Server
) -> None:
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    made = httpx.post(f"{server.url}/api/sheets", json=settings).json()
    page = _context(browser, "de").new_page()
    page.add_init_script(NO_CLIPBOARD)
    page.goto(server.url + made["links"]["scorer"])
    page.click("#share summary")
    follower = page.locator(".share-link", has=page.locator("#link-follower"))
    follower.get_by_role("button", name="Kopieren").click()
    expect(page.locator("#toast")).to_contain_text("Kopiert.")  # the browser's copy command
    link = page.locator("#link-follower").input_value()
    assert link.endswith(made["links"]["follower"])
    selected = page.evaluate(
        "() => { const i = document.getElementById('link-follower');"
        " return [document.activeElement === i, i.selectionStart, i.selectionEnd]; }"
    )
    assert selected == [True, 0, len(link)], selected


def test_a_tables_invite_link_is_selected_where_there_is_no_clipboard(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context()
    context.add_init_script(NO_CLIPBOARD)
    page = context.new_page()
    create_table(page, server.url, "doppelkopf", humans=(0, 2))
    invite = page.locator("#invite-link").input_value()
    page.locator("p.invite").get_by_role("button", name="Copy").click()
    expect(page.locator("#toast")).to_contain_text("Copied.")
    selected = page.evaluate(
        "() => { const i = document.getElementById('invite-link');"
        " return [document.activeElement === i, i.selectionStart, i.selectionEnd]; }"
    )
    assert selected == [True, 0, len(invite)], selected
    context.close()
