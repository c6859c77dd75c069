"""From ``make run`` on a fresh clone to the first page answered, and the size of its ``.venv``.

What a new user does: clone the repository, type ``make run``, open the page. The script clones
the repository (its committed state) into a temporary folder, starts ``make run PORT=P`` there
and times three moments: the base install done (``.venv/.installed-base`` appears), ``/healthz``
answering, and the first page (``/``) answering. Then it stops the server (and the kernels'
warm-up it started in the background), and reports the ``.venv``'s size on disk.

pip downloads from the registries as configured, with its own cache unless ``--no-pip-cache``
(then every wheel is downloaded again): say which when you quote a figure. Pyodide (about
17 MB, for the score sheet's offline scoring) is fetched from the npm registry as part of
``make run``. Targets (issue 33): the first page within 90 s, the ``.venv`` under 400 MB.

``python3 benchmarks/fresh_clone.py [--no-pip-cache] [--keep]``
"""

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 1800.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def size_mb(folder: Path) -> tuple[float, float]:
    """Apparent size and disk usage (blocks) of everything under ``folder``, in MB."""
    apparent = used = 0
    for path in folder.rglob("*"):
        try:
            st = path.lstat()
        except OSError:
            continue
        if path.is_file() and not path.is_symlink():
            apparent += st.st_size
            used += st.st_blocks * 512
    return apparent / 1e6, used / 1e6


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT to make's whole group (the server shuts down and ends its warm-up), then harder."""
    for sig, wait in ((signal.SIGINT, 20), (signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    # Anything of the group still alive (a warm-up child) goes too.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, default=ROOT, help="Repository to clone.")
    parser.add_argument("--no-pip-cache", action="store_true", help="pip downloads everything.")
    parser.add_argument("--keep", action="store_true", help="Keep the clone (its path printed).")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="stichwerk-fresh-"))
    clone = work / "stichwerk"
    subprocess.run(["git", "clone", "--quiet", str(args.repo), str(clone)], check=True)
    commit = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STICHWERK_", "VIRTUAL_ENV"))}
    if args.no_pip_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    log = work / "make-run.log"
    stamp = clone / ".venv" / ".installed-base"
    print(f"clone {commit} in {clone}; make run PORT={port} (log: {log})", flush=True)
    start = time.perf_counter()
    marks: dict[str, float] = {}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=clone,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        while "page" not in marks:
            now = time.perf_counter() - start
            if proc.poll() is not None:
                print(log.read_text(errors="replace")[-3000:], file=sys.stderr)
                print(f"make run ended with {proc.returncode} after {now:.1f} s", file=sys.stderr)
                return 1
            if now > DEADLINE:
                print(f"no page after {DEADLINE:.0f} s", file=sys.stderr)
                return 1
            if "installed" not in marks and stamp.exists():
                marks["installed"] = now
            if "healthz" not in marks and answers(f"http://127.0.0.1:{port}/healthz"):
                marks["healthz"] = time.perf_counter() - start
                marks.setdefault("installed", marks["healthz"])
            if "healthz" in marks and answers(f"http://127.0.0.1:{port}/"):
                marks["page"] = time.perf_counter() - start
            time.sleep(0.2)  # polling a process we do not control: ask again
    finally:
        stop(proc)
    apparent, used = size_mb(clone / ".venv")
    print(f"pip cache: {'off' if args.no_pip_cache else 'on (as configured)'}")
    print(f"base install done:  {marks['installed']:6.1f} s")
    print(f"/healthz answered:  {marks['healthz']:6.1f} s")
    print(f"first page (/):     {marks['page']:6.1f} s   (target <= 90 s)")
    print(f".venv: {apparent:.0f} MB apparent, {used:.0f} MB on disk   (target < 400 MB)")
    if args.keep:
        print(f"kept: {clone}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
