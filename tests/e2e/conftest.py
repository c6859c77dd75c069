"""Browser tests: the real server as a subprocess, Debian's chromium driven by Playwright.

No browser is ever downloaded: ``make test`` installs the ``chromium`` package and Playwright
launches ``/usr/bin/chromium`` (``executable_path``). Each test gets its own server process and
SQLite file, so a test may kill and restart its server (``tests/server/serverproc.py``: it
waits for the server's own word that it is ready, never a fixed time).
"""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.serverproc import Server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's chromium, headless, offline-friendly."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("chromium is not installed: run `make services` (Debian package chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
        "headless": True,
    }


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
