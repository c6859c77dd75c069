"""Browser tests: the real server as a subprocess, Debian's chromium driven by Playwright.

No browser is ever downloaded: ``make test`` installs the ``chromium`` package and Playwright
launches ``/usr/bin/chromium`` (``executable_path``). Each test gets its own server process and
SQLite file, so a test may kill and restart its server.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``python -m stichwerk.server`` on a port of its own, with a database that outlives it."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.log = workdir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "STICHWERK_DATABASE_URL": f"sqlite:///{self.workdir / 'e2e.db'}",
            "STICHWERK_BOT_DELAY": "0.05",
            "STICHWERK_BOT_WORKERS": "1",
            "STICHWERK_MIN_TIME_LIMIT": "1",
        }
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "stichwerk.server", "--port", str(self.port)],
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        """Kill -9: no shutdown handlers run, exactly like a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
