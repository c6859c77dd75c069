"""The table page as components: a frame patches the nodes whose data changed and leaves the rest.

A card button that a frame leaves alone is the same node after it (an element handle taken
before still clicks it), the keyboard focus stays where it was, a keyboard player's focus comes
back to the hand when it is their turn again, clicks made while bots play at full speed are
each answered (played, or refused with a reason), and the hand is held as players hold it (the
engine's order, one row on a laptop, two on a phone).
"""

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ElementHandle, Page, WebSocket

from stichwerk.doppelkopf.profiles import PROFILES
from stichwerk.doppelkopf.trumps import order_for
from stichwerk.doppelkopf.view import card_order
from tests.e2e.driver import (
    attr,
    create_table,
    drive,
    hand,
    my_turn,
    next_deal,
    take_turn,
    wait_for_change,
)
from tests.server.serverproc import Server

LEGAL = "#hand button.card.legal:not([disabled])"


def _to_a_play_turn(page: Page, rng: random.Random) -> None:
    """Act as a person until this page may play a card (a redeal moves on to the next deal)."""
    for _ in range(5):
        drive([page], rng, stop=lambda: page.locator(LEGAL).count() > 0)
        if page.locator(LEGAL).count():
            return
        next_deal(page, "the series ended before this seat played a card")
    raise AssertionError("no card to play in 5 deals")


def _watch(browser: Browser, url: str) -> Page:
    """A second person opens the table to watch: a presence frame reaches the players."""
    other = browser.new_context().new_page()
    other.goto(url.split("?", maxsplit=1)[0])
    other.wait_for_selector("#table-app[data-version]")
    return other


def test_an_unchanged_card_survives_a_frame_and_clicks(browser: Browser, server: Server) -> None:
    page = browser.new_page()
    url = create_table(page, server.url, "doppelkopf", series=3)
    _to_a_play_turn(page, random.Random(3))
    card = page.query_selector(LEGAL)
    assert card is not None
    code = card.get_attribute("data-card")
    card.focus()
    watcher = _watch(browser, url)
    page.wait_for_selector("#watching")  # the presence frame has been drawn
    assert card.evaluate("n => n.isConnected"), "the card's button was replaced by the frame"
    assert page.evaluate("() => document.activeElement && document.activeElement.dataset.card") == (
        code
    ), "the focus stayed on the card"
    version = attr(page, "version")
    card.click()
    wait_for_change(page, version)
    played = page.locator(
        f'#trick .card[data-card="{code}"], #last-trick .card[data-card="{code}"]'
    )
    assert played.count() >= 1
    watcher.close()


def _press_until_focus_on_a_control(page: Page) -> int:
    """Tab through the page until an enabled action button or a playable card has the focus."""
    for presses in range(80):
        on = page.evaluate(
            "() => { const a = document.activeElement;"
            " return !!a && !a.disabled && (a.matches('#hand button.card.legal')"
            " || a.matches('section.actions button.act')); }"
        )
        if on:
            return presses
        page.keyboard.press("Tab")
    raise AssertionError("no control reached by Tab")


def test_a_deal_played_by_keyboard_alone(browser: Browser, server: Server) -> None:
    """Tab to a control, arrows within the hand, Enter to play; once the hand has the focus it
    keeps it from turn to turn (no Tab needed), though the cards are disabled in between."""
    page = browser.new_page()
    create_table(page, server.url, "doppelkopf", series=1)
    rng = random.Random(11)
    played = 0
    for _ in range(200):
        page.wait_for_function(
            "() => { const r = document.getElementById('table-app');"
            " return r.dataset.phase !== 'playing' || (r.dataset.waiting !== '1'"
            " && document.querySelector('#status.mine') !== null); }",
            timeout=60_000,
        )
        if attr(page, "phase") != "playing":
            break
        cards = page.locator(LEGAL).count()
        if cards and played:
            focused = page.evaluate(
                "() => document.activeElement && document.activeElement.matches"
                "('#hand button.card.legal:not([disabled])')"
            )
            assert focused, "the focus came back to the hand for the next card"
        presses = _press_until_focus_on_a_control(page)
        if cards and played:
            assert presses == 0
        if page.evaluate("() => document.activeElement.matches('#hand button.card')"):
            for _ in range(rng.randrange(cards)):
                page.keyboard.press("ArrowRight")
            played += 1
        version = attr(page, "version")
        page.keyboard.press("Enter")
        wait_for_change(page, version)
    assert attr(page, "phase") in ("between", "finished")
    assert played > 0
    page.wait_for_selector("#result")


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[Server]:
    """Bots that answer at once (no delay between their moves)."""
    srv = Server(tmp_path, env={"STICHWERK_BOT_DELAY": "0"})
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


PRESSED = '#hand .card[aria-pressed="true"]'


def _answered(page: Page, code: str, count: int, version: str, pressed: int) -> str:
    """Wait until the click on ``code`` was answered: played (one card fewer of it in the hand,
    a new frame), refused (a message shown), or, for a several-card action (the Armut's cards
    given back), chosen (one card more or fewer pressed); ``""`` when none came (a lost click)."""
    try:
        page.wait_for_function(
            """([code, count, version, pressed]) => {
                const r = document.getElementById('table-app');
                if (r.dataset.waiting === '1') return false;
                const left = document.querySelectorAll(`#hand .card[data-card="${code}"]`).length;
                if (r.dataset.version !== version && left < count) return true;
                const toast = document.getElementById('toast');
                if (document.querySelectorAll(PRESSED).length !== pressed) return true;
                return !!toast && toast.classList.contains('show') && toast.textContent !== '';
            }""".replace("PRESSED", repr(PRESSED)),
            arg=[code, count, version, pressed],
            # A frame to come may wait on three bots and a loaded machine: a lost click never
            # answers at all, so a long deadline costs nothing when the page is right.
            timeout=45_000,
        )
    except Exception:
        return ""
    if page.locator(PRESSED).count() != pressed and attr(page, "version") == version:
        return "chosen"
    toast = page.locator("#toast.show")
    return "refused" if toast.count() and not hand(page).count(code) < count else "played"


def test_200_clicks_while_bots_play_at_full_speed_lose_none(
    browser: Browser, fast_server: Server
) -> None:
    page = browser.new_page()
    create_table(page, fast_server.url, "doppelkopf", series=24)
    rng = random.Random(200)
    outcomes: dict[str, int] = {"played": 0, "refused": 0, "chosen": 0}
    clicks = 0
    while clicks < 200:
        page.wait_for_function(
            "() => { const r = document.getElementById('table-app');"
            " if (r.dataset.waiting === '1') return false;"
            " return ['between', 'finished'].includes(r.dataset.phase)"
            " || document.querySelector('#hand button.card.legal:not([disabled])') !== null"
            " || document.querySelector('section.actions button.act:not([disabled])') !== null; }",
            timeout=60_000,
        )
        phase = attr(page, "phase")
        assert phase != "finished", f"the series ended after {clicks} clicks"
        if phase == "between":
            next_deal(page, "the series ended")
            continue
        handle: ElementHandle | None = page.query_selector(LEGAL)
        if handle is None:
            # A reservation or an announcement only: say "gesund" or the first thing offered.
            version = attr(page, "version")
            buttons = page.locator("section.actions button.act:not([disabled])")
            healthy = page.locator('section.actions button.act[data-act="gesund"]')
            (healthy if healthy.count() else buttons).first.click()
            wait_for_change(page, version)
            continue
        legal = page.query_selector_all(LEGAL)
        handle = rng.choice(legal)
        code = handle.get_attribute("data-card") or ""
        count = hand(page).count(code)
        version = attr(page, "version")
        pressed = page.locator(PRESSED).count()
        handle.click()
        clicks += 1
        outcome = _answered(page, code, count, version, pressed)
        assert outcome, (
            f"click {clicks} on {code} was lost: neither played nor refused; the page:"
            + page.evaluate(
                "() => { const r = document.getElementById('table-app');"
                " const t = document.getElementById('toast');"
                " return JSON.stringify({...r.dataset,"
                " toast: t && t.className + ' ' + t.textContent,"
                " hand: [...document.querySelectorAll('#hand .card')].map(b => b.dataset.card"
                " + (b.disabled ? '-' : '') + (b.classList.contains('legal') ? '+' : ''))}); }"
            )
        )
        outcomes[outcome] += 1
    assert sum(outcomes.values()) == 200


def test_the_hand_is_held_in_the_engines_order(browser: Browser, server: Server) -> None:
    """The hand as the view holds it (``hand_sorted``, in the engine's ``card_order``: trumps of
    the game in force first; tests/doppelkopf/test_card_order.py checks that order against the
    engine's trick rule), at the deal's start and after every card; one row at 1280 px, two on a
    phone."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    frames: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda data: frames.append(json.loads(data)))

    page.on("websocket", on_socket)
    create_table(page, server.url, "doppelkopf", profile="wielandstrasse", series=8)
    page.wait_for_selector("#hand .card")
    first = _view_shown(page, frames)
    normal = card_order(order_for("normal", PROFILES["wielandstrasse"]))
    assert first["hand_sorted"] == sorted(first["hand"], key=normal.index)
    assert "card_order" not in first, "the whole order would name every card of the deck"
    rows = page.eval_on_selector_all("#hand .card", "n => new Set(n.map(e => e.offsetTop)).size")
    assert len(hand(page)) == 12 and rows == 1, "the whole hand in one row at 1280 px"
    page.set_viewport_size({"width": 360, "height": 740})
    rows = page.eval_on_selector_all("#hand .card", "n => new Set(n.map(e => e.offsetTop)).size")
    assert rows == 2, "a full hand in two rows on a phone"
    page.set_viewport_size({"width": 1280, "height": 900})
    rng = random.Random(4)
    checked = 0
    # Through the reservations and the card play, over deals as they come (a deal's dealer and
    # cards are drawn by the server: a redeal or a short deal just moves on to the next one).
    while checked < 24:
        phase = attr(page, "phase")
        assert phase != "finished", f"the series ended after {checked} frames checked"
        if phase == "between":
            next_deal(page, "the series ended")
            continue
        view_version = attr(page, "version")
        view = _view_shown(page, frames)
        if view["hand"]:
            assert hand(page) == view["hand_sorted"], "the hand as the view holds it"
            checked += 1
        if my_turn(page):
            take_turn(page, rng)
        else:
            # The next frame, or my turn (which a frame drawn meanwhile may have brought).
            page.wait_for_function(
                "v => { const r = document.getElementById('table-app');"
                " return r.dataset.waiting !== '1' && (r.dataset.version !== v"
                " || document.querySelector('#status.mine') !== null); }",
                arg=view_version,
                timeout=20_000,
            )


def _view_shown(page: Page, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """The view of the frame the page shows now (frames may have come in since)."""
    version = attr(page, "version")
    states = [f for f in frames if f.get("type") == "state" and str(f.get("version")) == version]
    assert states and states[-1].get("view"), version
    view: dict[str, Any] = states[-1]["view"]
    return view
