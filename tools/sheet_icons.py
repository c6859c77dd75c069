"""The score sheet's app icons (PNG, 192 and 512 px) drawn from favicon.svg by chromium.

    .venv/bin/python tools/sheet_icons.py

An installable web app needs raster icons of these sizes; they are made once and kept in git
(``src/stichwerk/web/static/icons/``). Run again after changing the favicon.
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

STATIC = ROOT / "src" / "stichwerk" / "web" / "static"


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    (STATIC / "icons").mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<html><body style='margin:0;background:#174a2f;display:grid;place-items:center;"
                f"height:{size}px'><div style='width:{int(size * 0.8)}px'>{svg}</div></body></html>"
            )
            page.screenshot(path=str(STATIC / "icons" / f"sheet-{size}.png"))
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
