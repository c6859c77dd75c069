"""Screenshots of the score sheet for docs/sheet.md, on a phone (360 px) and a laptop.

    .venv/bin/python tools/sheet_screenshots.py [OUT_DIR]      (default: docs/sheet)

Starts the server on a scratch database, keeps a Doppelkopf list and a Cego list through the
HTTP API (the same deals every time), then opens the pages in chromium and saves PNGs: the new
list form, the list with a deal being entered and its line shown before saving, a Cego Räuber
being entered, a finished list on a laptop, sharing, and a phone entering with no connection.
"""

import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil"]
DOKO = [
    {"game_type": "normal", "re": [0, 2], "re_augen": 130, "announcements": {"re": ["re"]}},
    {"game_type": "solo-damen", "re": [1], "re_augen": 150},
    {"redeal": "schmeissen", "redeal_by": 3},
    {
        "game_type": "hochzeit",
        "re": [2, 3],
        "re_augen": 100,
        "announcements": {"kontra": ["kontra"]},
    },
    {"game_type": "armut", "re": [0, 3], "re_augen": 125, "extras": {"re": ["fuchs"]}},
    {"game_type": "normal", "re": [1, 2], "verworfen_by": 0},
    {"game_type": "solo-kreuz", "re": [2], "re_augen": 100},
]


def page_for(browser: Browser, lang: str, width: int = 360, height: int = 780) -> Page:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=width < 500,
        has_touch=width < 500,
        device_scale_factor=1,
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )
    return context.new_page()


def new_list(url: str, settings: dict[str, Any], deals: list[dict[str, Any]]) -> dict[str, Any]:
    made: dict[str, Any] = httpx.post(f"{url}/api/sheets", json=settings).json()
    token = made["links"]["scorer"][3:]
    for summary in deals:
        r = httpx.post(f"{url}/api/sheets/{token}/changes", json={"op": "add", "summary": summary})
        r.raise_for_status()
    return made


def ready(page: Page) -> None:
    page.wait_for_selector("#sheet-table")
    page.wait_for_function("() => document.getElementById('sheet-app').dataset.waiting === '0'")


def main() -> None:
    args = sys.argv[1:]
    only_log = "--log" in args  # the log alone (the other PNGs left as they are)
    args = [a for a in args if a != "--log"]
    out = Path(args[0]) if args else ROOT / "docs" / "sheet"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        server = Server(Path(work))
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
                )
                if not only_log:
                    shoot(browser, server, out)
                shoot_log(browser, server, out)
                browser.close()
        finally:
            server.stop()


LOG_FIRST = {"game_type": "normal", "re": [0, 2], "re_augen": 150, "announcements": {"re": ["re"]}}
LOG_FIXED = {**LOG_FIRST, "re_augen": 160, "announcements": {"re": ["re", "keine-90"]}}


def shoot_log(browser: Browser, server: Server, out: Path) -> None:
    """A list whose game 1 was corrected and game 3 deleted, its log opened on a phone: each
    change named by its game's number with what changed, the corrected row marked."""
    settings = {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4]}
    second = {"game_type": "normal", "re": [1, 3], "re_augen": 125}
    made = new_list(server.url, settings, [LOG_FIRST, second, LOG_FIRST])
    scorer = made["links"]["scorer"][3:]
    rows = httpx.get(f"{server.url}/api/sheets/{scorer}").json()["sheet"]["rows"]
    for body in (
        {"op": "correct", "entry": rows[0]["id"], "summary": LOG_FIXED},
        {"op": "delete", "entry": rows[2]["id"]},
    ):
        httpx.post(f"{server.url}/api/sheets/{scorer}/changes", json=body).raise_for_status()
    page = page_for(browser, "de", 360, 1200)
    page.goto(server.url + made["links"]["scorer"])
    ready(page)
    # The phone's scorer started (its start draws the list again), then the log opened.
    page.wait_for_selector("#sheet-app[data-scorer]", state="attached", timeout=120_000)
    page.click("#history summary")
    page.wait_for_function("() => document.querySelectorAll('#history-items li').length === 5")
    # The log scrolls inside its panel: its end, the correction and the deletion, in view.
    page.evaluate("() => { const h = document.getElementById('history'); h.scrollTop = 1e6; }")
    page.locator("#history").screenshot(path=str(out / "log-phone.png"))
    page.locator("#sheet-table").screenshot(path=str(out / "corrected-rows-phone.png"))


def shoot(browser: Browser, server: Server, out: Path) -> None:
    base = server.url
    # The form for a new list.
    page = page_for(browser, "de")
    page.goto(base + "/s/new")
    page.select_option("#game", "doppelkopf")
    for i, name in enumerate(NAMES[:4]):
        page.fill(f'[data-name="{i}"]', name)
    page.fill("#title", "Stammtisch Hirschen")
    page.screenshot(path=str(out / "new-list.png"))
    # A Doppelkopf list on a phone, a deal being entered with its line before saving.
    doko = new_list(base, {"game": "doppelkopf", "profile": "wielandstrasse",
                           "names": NAMES[:4], "title": "Stammtisch Hirschen"}, DOKO)  # fmt: skip
    page = page_for(browser, "de", height=1500)
    page.goto(base + doko["links"]["scorer"])
    ready(page)
    page.click('#f-re button[data-seat="1"]')
    page.click('#f-re button[data-seat="3"]')
    page.fill("#f-augen", "151")
    page.click('#f-ann-re button[data-value="re"]')
    page.wait_for_selector("#preview-line")
    page.screenshot(path=str(out / "doko-list-phone.png"))
    page.locator("#entry").screenshot(path=str(out / "doko-entry-preview.png"))
    # Sharing: the links and their QR codes.
    page.click("#share summary")
    page.locator("#share").screenshot(path=str(out / "share.png"))
    # A Cego list at five, a Räuber being entered (English).
    cego = new_list(base, {"game": "cego", "profile": "schwarzwald", "seats": 5,
                           "names": NAMES}, [])  # fmt: skip
    token = cego["links"]["scorer"][3:]
    for summary in (
        {"contract": "halbe", "declarer": 1, "declarer_points": 45},
        {"contract": "eine", "declarer": 2, "declarer_points": 41, "gegensolo": True},
        {"contract": "piccolo", "declarer": 4, "declarer_tricks": 1},
    ):
        httpx.post(f"{base}/api/sheets/{token}/changes", json={"op": "add", "summary": summary})
    page = page_for(browser, "en", height=1300)
    page.goto(base + cego["links"]["scorer"])
    ready(page)
    page.click('#f-contract button[data-value="raeuber"]')
    for seat, (points, tricks) in enumerate([("10", "2"), ("25", "4"), ("20", "3")], start=0):
        page.fill(f"#f-points-{seat}", points)
        page.fill(f"#f-tricks-{seat}", tricks)
    page.fill("#f-points-4", "15.5")
    page.fill("#f-tricks-4", "2")
    page.fill("#f-out-of-play", "8.5")
    page.wait_for_selector("#preview-line")
    page.screenshot(path=str(out / "cego-raeuber-phone.png"))
    # A finished list on a laptop: totals, Pflicht-Soli, the penalty, the checks.
    done = new_list(base, {"game": "doppelkopf", "profile": "wielandstrasse", "names": NAMES[:4],
                           "title": "Stammtisch Hirschen", "games": 8, "duty_solos": 1},
                    [*DOKO, {"game_type": "solo-buben", "re": [0], "re_augen": 130},
                     {"game_type": "normal", "re": [0, 1], "re_augen": 170}])  # fmt: skip
    page = page_for(browser, "en", width=1100, height=900)
    page.goto(base + done["links"]["follower"])
    ready(page)
    page.click('#sheet-table tr[data-index="5"]')
    page.screenshot(path=str(out / "finished-laptop.png"))


if __name__ == "__main__":
    main()
