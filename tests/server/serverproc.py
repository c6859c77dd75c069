"""``python -m stichwerk.server`` as a real process, for tests that kill it or measure it.

Readiness is an event, not a guess: a thread reads the server's log as it is written and the
start waits until uvicorn says the application has started (the lifespan has recovered every
table), then asks ``/healthz`` once. The deadline is generous, for a machine busy with other
work; nothing sleeps for a fixed time.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import IO

READY_LINE = "Uvicorn running on"
"""Uvicorn logs this once the lifespan has run (every table recovered) and it listens."""
START_DEADLINE = 90.0
LIMITED = (
    "import resource, runpy; "
    "resource.setrlimit(resource.RLIMIT_NOFILE, {limit}); "
    "runpy.run_module('stichwerk.server', run_name='__main__', alter_sys=True)"
)
"""``python -c`` this to start the server with a limit of open files of its own."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """The server on a port of its own, with a SQLite database that outlives it."""

    def __init__(
        self, workdir: Path, env: dict[str, str] | None = None, files: int | None = None
    ) -> None:
        self.files = files
        """The server's limit of open files (soft and hard), if not the test's own."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.log = workdir / "server.log"
        self.db = workdir / "e2e.db"
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> None:
        env = {
            **os.environ,
            "STICHWERK_DATABASE_URL": f"sqlite:///{self.db}",
            "STICHWERK_BOT_DELAY": "0.05",
            "STICHWERK_BOT_WORKERS": "1",
            "STICHWERK_MIN_TIME_LIMIT": "1",
            **self.env,
        }
        command = [sys.executable, "-m", "stichwerk.server", "--port", str(self.port)]
        if self.files is not None:
            # The limit is set in the server's own process before it starts (not in a
            # preexec_fn: this process has threads).
            limit = f"({self.files}, {self.files})"
            command[1:3] = ["-c", LIMITED.format(limit=limit)]
        self.proc = subprocess.Popen(
            command,
            cwd=self.workdir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        ready = threading.Event()
        assert self.proc.stdout is not None
        self._reader = threading.Thread(
            target=self._copy_log, args=(self.proc.stdout, ready), daemon=True
        )
        self._reader.start()
        if not ready.wait(START_DEADLINE) or self.proc.poll() is not None:
            self.kill()
            raise RuntimeError("the server did not start:\n" + self.log.read_text())
        with urllib.request.urlopen(self.url + "/healthz", timeout=30) as r:
            assert r.status == 200

    def _copy_log(self, stream: IO[bytes], ready: threading.Event) -> None:
        with self.log.open("ab") as log:
            for line in iter(stream.readline, b""):
                log.write(line)
                log.flush()
                if READY_LINE.encode() in line:
                    ready.set()
        ready.set()  # the process ended: let start() find out

    def kill(self) -> None:
        """Kill -9: no shutdown handlers run, exactly like a crash."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)
            self._close()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
            self._close()

    def _close(self) -> None:
        reading = False
        if self._reader is not None:
            # EOF comes once every process holding the log pipe has ended (a leftover child
            # would hold it: the test that kills the server says so, not this).
            self._reader.join(30)
            reading = self._reader.is_alive()
            self._reader = None
        if self.proc is not None and self.proc.stdout is not None and not reading:
            self.proc.stdout.close()  # never under a thread still blocked reading it
        self.proc = None
