"""The score sheet in Debian's chromium against the real server: whole evenings entered through
the phone-sized page, totals checked against totals worked out by hand here, a follower's page
live beside the scorer's, and five deals entered with the network cut."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import Server

PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil"]


def _context(browser: Browser, lang: str = "en") -> BrowserContext:
    return browser.new_context(
        **PHONE,  # type: ignore[arg-type]
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )


def data(page: Page, name: str) -> str:
    return page.locator("#sheet-app").get_attribute(f"data-{name}") or ""


def wait_data(page: Page, name: str, value: str, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "([n, v]) => document.getElementById('sheet-app').dataset[n] === v",
        arg=[name, value],
        timeout=timeout,
    )


def saved(page: Page, seq: int, rows: int | None = None) -> None:
    """The server has acknowledged the list's change ``seq`` and the page shows it."""
    wait_data(page, "seq", str(seq))
    wait_data(page, "waiting", "0")
    wait_data(page, "rows", str(seq if rows is None else rows))


def settle(page: Page, expected: list[int]) -> None:
    """The preview shows the line worked out by hand; then save it."""
    # Offline the preview is worked out by Pyodide on the phone: seconds on a loaded machine.
    try:
        expect(page.locator("#save")).to_be_enabled(timeout=60_000)
    except AssertionError as exc:  # say what the form and its preview showed
        panel = page.inner_text("#entry")
        raise AssertionError(f"Save stays disabled; the entry panel: {panel!r}") from exc
    line = page.locator("#preview-line span")
    seats = [int(s or 0) for s in line.evaluate_all("n => n.map(e => e.dataset.seat)")]
    shown = [t.rsplit(" ", 1)[1].replace("−", "-").replace("+", "") for t in line.all_inner_texts()]
    assert dict(zip(seats, map(int, shown), strict=True)) == {
        s: v for s, v in enumerate(expected) if s in seats
    }
    page.click("#save")


def tap(page: Page, group: str, value: Any, attr: str = "seat") -> None:
    page.click(f'#{group} button[data-{attr}="{value}"]')


def create_list(page: Page, base: str, game: str, profile: str, seats: int, **extra: str) -> None:
    page.goto(base + "/")
    page.click("#sheet-link")
    page.wait_for_selector("#create-sheet")
    page.select_option("#game", game)
    page.select_option("#profile", profile)
    page.select_option("#seat-count", str(seats))
    for i in range(seats):
        page.fill(f'[data-name="{i}"]', NAMES[i])
    for selector, value in extra.items():
        page.fill(f"#{selector}", value)
    page.click("#create")
    page.wait_for_selector("#sheet-table")


def totals(page: Page, seats: int) -> list[int]:
    """The totals row, read at once (the page may draw the list again between two reads)."""
    cells: list[str] = page.evaluate(
        "n => Array.from({length: n}, (_, s) => document.getElementById('total-' + s).textContent)",
        seats,
    )
    return [int(c.replace("−", "-")) for c in cells]


def row_texts(page: Page) -> list[str]:
    return page.locator("#sheet-table tbody tr.deal").all_inner_texts()


# -- a Doppelkopf evening -------------------------------------------------------------------------

# Wielandstraße, plus points for the winners only: gewonnen 1; gegen die Alten 1 when Kontra
# (or the side against a soloist) wins; unter 90 1; Re angesagt 2; Fuchs gefangen 1; a winning
# soloist writes 3 times the value, each opponent of a losing soloist the value once; a
# Verwerfen by a Kontra player gives each Re player 5. A redeal writes nothing and does not count.
DOKO_DEALS: list[tuple[dict[str, Any], list[int]]] = [
    ({"kind": "normal", "re": [0, 2], "augen": 130}, [1, 0, 1, 0]),  # gewonnen
    ({"kind": "normal", "re": [1, 3], "augen": 100}, [2, 0, 2, 0]),  # Kontra: + gegen die Alten
    ({"kind": "normal", "re": [0, 1], "augen": 130, "ann_re": ["re"]}, [3, 3, 0, 0]),  # + Re 2
    ({"kind": "redeal-schmeissen", "by": 3}, [0, 0, 0, 0]),  # Schmeißen: dealt again
    ({"kind": "hochzeit", "re": [2, 3], "augen": 130}, [0, 0, 1, 1]),
    ({"kind": "armut", "re": [1, 2], "augen": 125}, [0, 1, 1, 0]),
    ({"kind": "solo-damen", "re": [0], "augen": 130}, [3, 0, 0, 0]),  # Anna's Pflicht-Solo, won
    ({"kind": "normal", "re": [0, 3], "augen": 160}, [2, 0, 0, 2]),  # + unter 90
    ({"kind": "solo-buben", "re": [1], "augen": 100}, [2, 0, 2, 2]),  # Bernd's Pflicht-Solo, lost
    ({"kind": "normal", "re": [1, 2], "verworfen": 3}, [0, 5, 5, 0]),  # Dieter (Kontra) verwirft
    ({"kind": "normal", "re": [0, 2], "augen": 110}, [0, 2, 0, 2]),  # entered wrong: corrected
    ({"kind": "solo-kreuz", "re": [2], "augen": 130}, [0, 0, 3, 0]),  # Clara's Pflicht-Solo
    ({"kind": "solo-damen", "re": [0], "augen": 130}, [3, 0, 0, 0]),  # Anna's Lust-Solo
    ({"kind": "normal", "re": [1, 3], "augen": 130, "fuchs_re": 1}, [0, 2, 0, 2]),  # + Fuchs
    ({"kind": "normal", "re": [0, 1], "augen": 130}, [1, 1, 0, 0]),
    ({"kind": "normal", "re": [2, 3], "augen": 130}, [0, 0, 1, 1]),
    ({"kind": "normal", "re": [0, 2], "augen": 100}, [0, 2, 0, 2]),
    ({"kind": "normal", "re": [1, 3], "augen": 130}, [0, 1, 0, 1]),
    ({"kind": "normal", "re": [0, 3], "augen": 130}, [1, 0, 0, 1]),
    ({"kind": "normal", "re": [1, 2], "augen": 130}, [0, 1, 1, 0]),
    ({"kind": "normal", "re": [0, 1], "augen": 100}, [0, 0, 2, 2]),
    ({"kind": "normal", "re": [2, 3], "augen": 130}, [0, 0, 1, 1]),
    ({"kind": "normal", "re": [0, 2], "augen": 130}, [1, 0, 1, 0]),
    ({"kind": "normal", "re": [1, 3], "augen": 130}, [0, 1, 0, 1]),
    ({"kind": "normal", "re": [0, 3], "augen": 130}, [1, 0, 0, 1]),
]
CORRECTED = 11  # the deal entered as 110 for Re, which had 130: Anna and Clara win 1 each
DUTY_PENALTY = 15  # Dieter never played his Pflicht-Solo


def enter_doko(page: Page, deal: dict[str, Any]) -> None:
    tap(page, "f-kind", deal["kind"], "value")
    if "by" in deal:
        tap(page, "f-redeal-by", deal["by"])
        return
    for seat in deal["re"]:
        tap(page, "f-re", seat)
    if "verworfen" in deal:
        tap(page, "f-verworfen", deal["verworfen"])
    else:
        page.fill("#f-augen", str(deal["augen"]))
    for word in deal.get("ann_re", []):
        tap(page, "f-ann-re", word, "value")
    if deal.get("fuchs_re"):
        page.click('#f-extra-re-fuchs + button[data-step="1"]')


def test_a_doppelkopf_evening_with_a_follower(browser: Browser, server: Server) -> None:
    scorer = _context(browser).new_page()
    create_list(
        scorer, server.url, "doppelkopf", "wielandstrasse", 4, games="24", **{"duty-solos": "1"}
    )
    scorer.click("#share summary")
    follower_link = scorer.input_value("#link-follower")
    assert follower_link != scorer.url
    expect(scorer.locator("#qr-follower")).to_be_visible()
    follower = _context(browser).new_page()
    follower.goto(follower_link)
    follower.wait_for_selector("#sheet-table")
    expect(follower.locator("#read-only")).to_be_visible()
    assert follower.locator("#entry").count() == 0  # a follower cannot enter

    expected = [0, 0, 0, 0]
    for number, (deal, line) in enumerate(DOKO_DEALS, start=1):
        enter_doko(scorer, deal)
        if deal["kind"] == "solo-damen" and number == 7:
            expect(scorer.locator("#f-duty")).to_contain_text("Anna")  # her Pflicht-Solo
        settle(scorer, line)
        saved(scorer, number)
        if number == 1:
            wait_data(follower, "rows", "1")  # the follower's page has the row at once
        if number != CORRECTED:
            expected = [a + b for a, b in zip(expected, line, strict=True)]
    # The correction: deal 11 had 130 for Re, not 110.
    scorer.click(f'#sheet-table tr[data-index="{CORRECTED}"]')
    scorer.click("#correct")
    expect(scorer.locator("#entry h2")).to_contain_text(str(CORRECTED))
    scorer.fill("#f-augen", "130")
    settle(scorer, [1, 0, 1, 0])
    saved(scorer, len(DOKO_DEALS) + 1, rows=len(DOKO_DEALS))
    expected = [a + b for a, b in zip(expected, [1, 0, 1, 0], strict=True)]
    expected[3] -= DUTY_PENALTY
    assert expected == [21, 17, 22, 2]  # worked out by hand, deal by deal, above
    expect(scorer.locator("#list-end")).to_be_visible()
    expect(scorer.locator("#penalties")).to_contain_text("15")
    assert totals(scorer, 4) == expected
    expect(scorer.locator("#duty")).to_contain_text("Dieter 0/1")
    # The follower sees the same list, the correction included.
    wait_data(follower, "seq", str(len(DOKO_DEALS) + 1))
    assert totals(follower, 4) == expected
    assert row_texts(follower) == row_texts(scorer)
    assert len(row_texts(scorer)) == 25  # 24 games and the redeal


# -- a Cego list at five -------------------------------------------------------------------------

# Schwarzwald at a 5-table: the dealer sits out and settles like a defender, so the declarer
# gets or pays the written score 4 times. Fächer = ⌈(40 − loser's points) / 5⌉, written =
# Fächer × 5 × value rounded up to 10; values Cego 1, Halbe 2, Eine 3, Leere 4, Zwei Leere 5;
# Gegensolo +1; a won Solo (value 1) doubled; Piccolo 40, Bettel 30; Berg value × 40; Räuber:
# the most card points pay 40 to every other seat.
CEGO_DEALS: list[tuple[dict[str, Any], list[int]]] = [
    ({"contract": "halbe", "declarer": 1, "points": "45"}, [-20, 80, -20, -20, -20]),  # 2 F × 2
    ({"contract": "eine", "declarer": 2, "points": "41"}, [-20, -20, 80, -20, -20]),  # 15 → 20
    ({"contract": "halbe", "declarer": 3, "points": "30", "gegensolo": True},
     [30, 30, 30, -120, 30]),  # lost, 2 Fächer × 5 × 3
    ({"contract": "piccolo", "declarer": 4, "tricks": "1"}, [-40, -40, -40, -40, 160]),
    ({"contract": "raeuber", "points": ["10", "25", "20", "15.5", None],
      "tricks": ["2", "4", "3", "2", None], "blind": "8.5"},
     [40, -160, 40, 40, 40]),  # Bernd has the most: he pays everyone 40
    ({"contract": "solo", "declarer": 2, "points": "50"}, [-40, -40, 160, -40, -40]),  # 20, doubled
    ({"contract": "cego", "declarer": 3, "points": "40"}, [-10, -10, -10, 40, -10]),  # 5 → 10
    ({"contract": "leere", "declarer": 0, "points": "20"}, [-320, 80, 80, 80, 80]),  # 4 F × 20
    ({"contract": "zwei-leere", "declarer": 1, "points": "60"}, [-130, 520, -130, -130, -130]),
    ({"contract": "bettel", "declarer": 2, "tricks": "0"}, [-30, -30, 120, -30, -30]),
    ({"contract": "eine", "declarer": 1, "points": "39.5"}, [20, -80, 20, 20, 20]),
    ({"contract": "halbe", "declarer": 4, "points": "55", "berg": "defenders"},
     [-80, -80, -80, -80, 320]),  # Berg: 2 × 40
]  # fmt: skip


def enter_cego(page: Page, deal: dict[str, Any]) -> None:
    tap(page, "f-contract", deal["contract"], "value")
    if deal["contract"] == "raeuber":
        for seat, (points, tricks) in enumerate(zip(deal["points"], deal["tricks"], strict=True)):
            if points is not None:
                page.fill(f"#f-points-{seat}", points)
                page.fill(f"#f-tricks-{seat}", tricks)
        page.fill("#f-out-of-play", deal["blind"])
        return
    tap(page, "f-declarer", deal["declarer"])
    if deal.get("gegensolo"):
        page.check("#f-gegensolo")
    if "points" in deal:
        page.fill("#f-points", deal["points"])
    if "tricks" in deal:
        page.fill("#f-tricks", deal["tricks"])
    if "berg" in deal:
        tap(page, "f-berg", deal["berg"], "value")


def test_a_cego_list_at_five_in_german(browser: Browser, server: Server) -> None:
    page = _context(browser, "de").new_page()
    create_list(page, server.url, "cego", "schwarzwald", 5)
    expect(page.locator("#next")).to_contain_text("Anna gibt")
    expected = [0] * 5
    for number, (deal, line) in enumerate(CEGO_DEALS, start=1):
        dealer = (number - 1) % 5
        expect(page.locator("#next")).to_contain_text(f"{NAMES[dealer]} setzt aus")
        enter_cego(page, deal)
        if deal["contract"] == "raeuber":  # Vorhand announces it
            expect(page.locator("#f-announcer")).to_contain_text(NAMES[(dealer + 1) % 5])
        settle(page, line)
        saved(page, number)
        expected = [a + b for a, b in zip(expected, line, strict=True)]
    assert expected == [-600, 250, 250, -300, 400]
    assert totals(page, 5) == expected
    expect(page.locator("#checks")).to_contain_text("✓")
    # A deal entered by mistake is deleted again; the totals are as before.
    enter_cego(page, {"contract": "cego", "declarer": 4, "points": "50"})
    settle(page, [-20, -20, -20, -20, 80])  # the defenders' 29: 3 Fächer × 5 × 1 = 15 → 20
    saved(page, 13)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click('#sheet-table tr[data-index="13"]')
    page.click("#delete")
    saved(page, 14, rows=12)
    assert totals(page, 5) == expected
    # The list exported as JSON lines and imported again is a new list with the same totals.
    token = page.url.rsplit("/", 1)[1]
    exported = httpx.get(f"{server.url}/api/sheets/{token}/export.jsonl").text
    other = _context(browser).new_page()
    other.goto(server.url + "/s/new")
    other.set_input_files(
        "#import-file",
        files=[{"name": "list.jsonl", "mimeType": "application/json", "buffer": exported.encode()}],
    )
    other.wait_for_url("**/s/**")
    other.wait_for_selector("#sheet-table")
    assert other.url != page.url
    assert totals(other, 5) == expected
    assert row_texts(other) == row_texts(page)
    # The Räuber row's result card names the loser, in the online result card's words.
    page.click('#sheet-table tr[data-index="5"]')
    expect(page.locator("#result-headline")).to_contain_text("Bernd")
    # Printed: the list, its totals and the rules in force; no form, no buttons.
    page.emulate_media(media="print")
    expect(page.locator("#sheet-table")).to_be_visible()
    expect(page.locator("#rules-in-force")).to_be_visible()
    expect(page.locator("#rules-in-force")).to_contain_text("Schwarzwald")
    for hidden in ("#entry", "#share", "#export", "#sync-state"):
        expect(page.locator(hidden)).to_be_hidden()


# -- offline ---------------------------------------------------------------------------------------

OFFLINE_DEALS = [
    ({"kind": "normal", "re": [0, 1], "augen": 155}, [2, 2, 0, 0]),  # + unter 90
    ({"kind": "normal", "re": [2, 3], "augen": 95}, [2, 2, 0, 0]),  # Kontra: gegen die Alten
    ({"kind": "solo-herz", "re": [1], "augen": 140}, [0, 3, 0, 0]),  # Bernd's Pflicht-Solo
    ({"kind": "normal", "re": [0, 3], "augen": 121, "ann_re": ["re"]}, [3, 0, 0, 3]),
    ({"kind": "hochzeit", "re": [1, 2], "augen": 200}, [0, 3, 3, 0]),  # + unter 90, 60
]


@pytest.fixture
def offline_server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_five_deals_entered_offline_reach_the_server(
    browser: Browser, offline_server: Server
) -> None:
    server = offline_server
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    made = httpx.post(f"{server.url}/api/sheets", json=settings).json()
    context = _context(browser)
    page = context.new_page()
    page.goto(server.url + made["links"]["scorer"])
    page.wait_for_selector("#sheet-table")
    # Opened once with a connection: the page, its code, Pyodide and the list are on the phone.
    wait_data(page, "offline", "ready", timeout=120_000)
    # The network is cut. Playwright's offline mode does not reach a service worker's own
    # requests, so the server goes away too: nothing can answer but the phone.
    context.set_offline(True)
    server.stop()
    expected = [0, 0, 0, 0]
    for number, (deal, line) in enumerate(OFFLINE_DEALS, start=1):
        enter_doko(page, deal)
        settle(page, line)  # scored on the phone, by the same Python
        wait_data(page, "rows", str(number))
        expected = [a + b for a, b in zip(expected, line, strict=True)]
    wait_data(page, "waiting", "5")
    expect(page.locator("#sync-state")).to_have_text("offline — 5 entries waiting")
    phone_rows = row_texts(page)
    assert totals(page, 4) == expected == [7, 10, 3, 3]
    # Reloaded with no connection: the page and its 5 entries are still there.
    page.reload()
    page.wait_for_selector("#sheet-table")
    wait_data(page, "waiting", "5")
    wait_data(page, "rows", "5", timeout=120_000)  # once the phone's scorer is back
    assert row_texts(page) == phone_rows
    assert all("⏳" in row for row in phone_rows)  # each marked as waiting to be sent
    # The connection returns: everything is sent, once.
    server.start()
    context.set_offline(False)
    wait_data(page, "waiting", "0", timeout=30_000)
    expect(page.locator("#sync-state")).to_have_text("online · saved")
    answer = httpx.get(f"{server.url}/api/sheets/{made['links']['follower'][3:]}").json()
    assert answer["seq"] == 5
    assert answer["sheet"]["totals"] == expected
    assert [r["settlement"] for r in answer["sheet"]["rows"]] == [line for _, line in OFFLINE_DEALS]
    assert row_texts(page) == [row.replace("⏳", "") for row in phone_rows]


def test_two_phones_entering_offline_merge_and_a_conflict_is_shown(
    browser: Browser, server: Server
) -> None:
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    made = httpx.post(f"{server.url}/api/sheets", json=settings).json()
    api = f"{server.url}/api/sheets/{made['links']['scorer'][3:]}/changes"
    first = {"game_type": "normal", "re": [0, 2], "re_augen": 130}
    httpx.post(api, json={"op": "add", "entry": "first", "key": "b-1", "summary": first})
    context = _context(browser)
    page = context.new_page()
    page.goto(server.url + made["links"]["scorer"])
    wait_data(page, "offline", "ready", timeout=120_000)
    context.set_offline(True)
    # The other phone, online: a new deal, and deal 1 corrected (Re had 100).
    httpx.post(api, json={"op": "add", "entry": "other", "key": "b-2", "summary": {
        "game_type": "normal", "re": [1, 3], "re_augen": 130}})  # fmt: skip
    httpx.post(api, json={"op": "correct", "entry": "first", "base": 1, "key": "b-3",
                          "summary": {**first, "re_augen": 100}})  # fmt: skip
    # This phone, offline: a new deal, and deal 1 corrected too (Re had 160).
    enter_doko(page, {"kind": "normal", "re": [0, 1], "augen": 140})
    settle(page, [1, 1, 0, 0])
    wait_data(page, "rows", "2")
    page.click('#sheet-table tr[data-index="1"]')
    page.click("#correct")
    page.fill("#f-augen", "160")
    settle(page, [2, 0, 2, 0])  # gewonnen, unter 90
    wait_data(page, "waiting", "2")
    context.set_offline(False)
    # Both phones' new deals are on the list, once each; the two corrections of deal 1 clash.
    refused = page.locator("#outbox .refused")
    expect(refused).to_have_count(1, timeout=30_000)
    expect(refused).to_contain_text("another phone")
    saved(page, 4, rows=3)
    rows = httpx.get(api.removesuffix("/changes")).json()["sheet"]["rows"]
    assert [r["settlement"] for r in rows] == [[0, 2, 0, 2], [0, 1, 0, 1], [1, 1, 0, 0]]
    # Nothing is dropped silently: the person looks again and enters the correction anew.
    refused.locator("button.again").click()
    expect(page.locator("#entry h2")).to_contain_text("1")
    assert page.input_value("#f-augen") == "160"
    settle(page, [2, 0, 2, 0])
    saved(page, 5, rows=3)
    expect(page.locator("#outbox")).to_have_count(0)
    rows = httpx.get(api.removesuffix("/changes")).json()["sheet"]["rows"]
    assert rows[0]["version"] == 3 and rows[0]["settlement"] == [2, 0, 2, 0]
