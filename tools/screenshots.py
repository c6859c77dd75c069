"""Screenshots of the web app on a laptop and a phone, to look at by eye.

    .venv/bin/python tools/screenshots.py [OUT_DIR]      (default: var/screens)

Starts the server on a scratch database, opens tables against bots, plants example deals from
docs/examples at interesting moments (see tests/e2e/plant.py) and saves PNGs of the table,
result and replay pages at 1280x860 and 390x844 in German and English.
"""

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from tests.e2e.driver import attr, create_table, drive, my_turn, wait_for_change  # noqa: E402
from tests.e2e.plant import example, plant, rotate, table_id  # noqa: E402

SIZES = {"laptop": (1280, 860), "phone": (390, 844)}

# name: (game, profile, example record, rotate by, actions to plant). ``None`` for the actions
# plants all but the last, moved to seat 0 (the person), who then makes it: the result shows.
SCENES: dict[str, tuple[str, str, str, int, int | None]] = {
    "cego-auction": ("cego", "schwarzwald", "halbe", 0, 10),
    "cego-halbe-exchange": ("cego", "schwarzwald", "halbe", 0, 15),
    "cego-zwei-leere-play": ("cego", "schwarzwald", "zwei-leere", 1, 24),
    "cego-shown-press": ("cego", "schwarzwald", "zwei-verschiedene", 1, 26),
    "cego-halbe-result": ("cego", "schwarzwald", "halbe", 0, None),
    "cego-raeuber-result": ("cego", "titisee", "titisee-raeuber-nach-regeln", 0, None),
    "cego-soli-ulti-result": ("cego", "titisee", "titisee-soli-ulti", 0, None),
    "cego-five-play": ("cego", "schwarzwald", "five-table-cego", 0, 30),
    "doko-armut-return": ("doppelkopf", "wielandstrasse", "wielandstrasse-armut", 3, 9),
    "doko-normal-play": ("doppelkopf", "wielandstrasse", "wielandstrasse-normal", 0, 30),
    "doko-normal-result": ("doppelkopf", "wielandstrasse", "wielandstrasse-normal", 0, None),
    "doko-solo-result": ("doppelkopf", "ddv", "ddv-solo-damen", 0, None),
}


# Table settings a scene's record plays with (the shown forced press is a zego setting).
RECORD_OPTIONS = {"cego-shown-press": {"forced_press_shown": ["zwei-verschiedene"]}}


def scene_record(game: str, name: str, by: int, actions: int | None) -> tuple[dict[str, Any], int]:
    """The record to plant and how many of its actions."""
    record = example(game, name)
    if actions is None:
        last = record["actions"][-1]["seat"]
        record = rotate(record, -last)
        return record, len(record["actions"]) - 1
    return rotate(record, by), actions


def finish(page: Page, record: dict[str, Any]) -> None:
    """Make the record's last action (seat 0's) by clicking it."""
    last = record["actions"][-1]
    version = attr(page, "version")
    if last["act"] == "play":
        page.click(f'#hand button.card[data-card="{last["card"]}"]')
    else:
        page.click(f'section.actions button.act[data-act="{last["act"]}"]')
    wait_for_change(page, version)
    page.wait_for_selector("#result")


def context_page(browser: Browser, size: str, lang: str) -> Page:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=size == "phone",
        has_touch=size == "phone",
        locale="de-DE" if lang == "de" else "en-GB",
        extra_http_headers={"accept-language": lang},
    )
    page = context.new_page()
    page.on("pageerror", lambda error: print(f"PAGE ERROR ({size}, {lang}): {error}"))
    return page


def shoot(page: Page, out: Path, name: str) -> None:
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    print(f"{name}.png" + (f"  OVERFLOW {overflow}px" if overflow > 0 else ""))


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "var" / "screens")
    out.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = Server(Path(tmp))
        server.start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = context_page(browser, "laptop", "de")
            page.goto(server.url + "/")
            shoot(page, out, "lobby-laptop-de")
            # A table played from its start, for the natural flow.
            urls: dict[str, str] = {}
            for scene, (game, profile, *_rest) in SCENES.items():
                if only and scene not in only:
                    continue
                players = len(example(game, SCENES[scene][2])["hands"])
                urls[scene] = create_table(
                    page, server.url, game, profile=profile, series=4, seats=players
                )
            server.stop()
            db = Path(tmp) / "e2e.db"
            records = {}
            for scene, url in urls.items():
                game, _profile, name, by, actions = SCENES[scene]
                record, count = scene_record(game, name, by, actions)
                record["options"] = {**record.get("options", {}), **RECORD_OPTIONS.get(scene, {})}
                records[scene] = record
                plant(db, table_id(url), record, count)
            server.start()
            for scene, url in urls.items():
                if SCENES[scene][4] is None:
                    page.goto(url)
                    page.wait_for_selector("#table-app[data-version]")
                    finish(page, records[scene])
                for size in SIZES:
                    for lang in ("de", "en"):
                        if lang == "en" and size == "phone" and not scene.endswith("result"):
                            continue
                        p = context_page(browser, size, lang)
                        # The same guest: copy the creator's session cookie.
                        p.context.add_cookies(page.context.cookies())
                        p.goto(url)
                        p.wait_for_selector("#table-app[data-version]")
                        shoot(p, out, f"{scene}-{size}-{lang}")
                        if scene.endswith("result") and lang == "de":
                            link = p.locator("a[href^='/d/']").first
                            if link.count():
                                p.goto(server.url + (link.get_attribute("href") or ""))
                                p.wait_for_selector("#step")
                                p.click("#last")
                                shoot(p, out, f"{scene}-replay-{size}-{lang}")
                        p.context.close()
            # A table with changed rules, waiting for a second person: what a visitor sees.
            page.goto(server.url + "/")
            page.wait_for_selector("#create-table")
            page.select_option("#game", "cego")
            page.select_option("#profile", "schwarzwald")
            page.select_option('[data-seat-kind="1"]', "human")
            page.click("text=" + ("Abweichende Einstellungen"))
            page.fill('input[data-setting="jungfrau"]', "80")
            page.fill('input[data-setting="stake"]', "ganze")
            page.click("#create")
            page.wait_for_url("**/t/**")
            waiting_url = page.url.split("?")[0]
            for size in SIZES:
                visitor = context_page(browser, size, "de")
                visitor.goto(waiting_url)
                visitor.wait_for_selector("#table-app[data-version]")
                shoot(visitor, out, f"waiting-{size}-de")
                visitor.goto(server.url + "/")
                visitor.wait_for_selector("#tables-open")
                shoot(visitor, out, f"lobby-{size}-de")
                visitor.context.close()
            # A whole natural Cego deal on a phone.
            phone = context_page(browser, "phone", "de")
            create_table(phone, server.url, "cego", profile="schwarzwald")
            drive(
                [phone],
                random.Random(7),
                stop=lambda: my_turn(phone) and phone.locator("#hand .legal").count() > 0,
            )
            shoot(phone, out, "cego-live-phone-de")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
