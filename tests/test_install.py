"""``python -m build`` makes a wheel and an sdist that hold everything the web app needs, and the
wheel, installed into a fresh virtual environment, runs the CLI and serves the first page.

The fresh environment installs the wheel alone (``pip install --no-deps``, no registry) and
borrows the dependencies from the project's environment through a ``.pth`` line (a plain path:
the project's own editable install is not activated there), so the package imported is the one
from the wheel. Slow (a build and a server start): ``make test`` runs it.
"""

import json
import os
import signal
import site
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from stichwerk.web.preact import module_urls

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 120.0
"""Seconds a build or a server start may take on a busy two-core machine."""

NEEDED = (
    "stichwerk/py.typed",
    "stichwerk/web/templates/lobby.html",
    "stichwerk/web/templates/sheet.html",
    "stichwerk/web/static/favicon.svg",
    "stichwerk/web/pyodide.py",
    "stichwerk/storage/migrations/env.py",
    "stichwerk/storage/migrations/script.py.mako",
    "stichwerk/storage/migrations/versions/0001_initial_schema.py",
    "stichwerk/bots/warm.py",
    "stichwerk/native/__main__.py",
)
"""Files the installed package cannot do without (beside every module)."""


def _tracked(under: str) -> list[str]:
    done = subprocess.run(
        ["git", "ls-files", under], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [line.removeprefix("src/") for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="python -m build needs the dev extra")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return out


def test_the_wheel_and_the_sdist_hold_the_web_apps_files(dist: Path) -> None:
    (wheel,) = dist.glob("stichwerk-*.whl")
    (sdist,) = dist.glob("stichwerk-*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in NEEDED:
        assert name in names, name
    # Every file of the package that git knows (templates, static files, translations,
    # migrations), and nothing fetched or built locally (Pyodide, the mypyc build, caches).
    for name in _tracked("src/stichwerk"):
        assert name in names, name
    assert not [n for n in names if "/vendor/" in n or "/native/build/" in n or "__pycache__" in n]
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    for name in _tracked("src/stichwerk"):
        assert f"src/{name}" in members, name
    assert "pyproject.toml" in members
    meta = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        .decode()
    )
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    base = [line for line in requires if "extra ==" not in line]
    # The base install plays, keeps sheets, runs tournaments and the bots' kernels ...
    for name in ("fastapi", "sqlalchemy", "numba", "numpy", "typer"):
        assert any(f" {name}" in line for line in base), name
    # ... and leaves the research libraries and the test tools to the extras.
    for name in ("ray", "pyarrow", "polars", "pettingzoo", "open-spiel", "pytest", "playwright"):
        assert not any(f" {name}" in line for line in base), name


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, answer.read()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_the_installed_wheel_runs_the_cli_and_serves(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("stichwerk-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    inner = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(inner, "outer.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        timeout=DEADLINE,
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STICHWERK_", "PYTHON"))} | {
        "NUMBA_CACHE_DIR": str(tmp_path / "numba")
    }
    where = subprocess.run(
        [str(python), "-c", "import stichwerk; print(stichwerk.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tmp_path,
    ).stdout
    assert where.startswith(str(venv)), where  # the wheel's package, not the checkout's
    stichwerk = str(venv / "bin" / "stichwerk")

    helped = subprocess.run(
        [stichwerk, "--help"], capture_output=True, text=True, env=env, cwd=tmp_path, check=False
    )
    assert helped.returncode == 0 and "serve" in helped.stdout, helped.stderr

    summary = tmp_path / "summary.json"
    summary.write_text(
        json.dumps(
            {
                "game": "doppelkopf",
                "profile": "wielandstrasse",
                "players": 4,
                "game_type": "normal",
                "re": [0, 2],
                "re_augen": 160,
            }
        )
    )
    scored = subprocess.run(
        [stichwerk, "score", str(summary)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    assert scored.stdout.strip(), "score printed nothing"

    port = _free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [stichwerk, "serve", "--port", str(port), "--database", f"sqlite:///{tmp_path}/s.db"],
            cwd=tmp_path,
            env=env | {"STICHWERK_BOT_WORKERS": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + DEADLINE
        health: tuple[int, bytes] | None = None
        while health is None:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            try:
                health = _get(f"http://127.0.0.1:{port}/healthz")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)  # not listening yet: ask again
        assert health[0] == 200
        status, page = _get(f"http://127.0.0.1:{port}/")
        assert status == 200 and b"<html" in page.lower()  # the wheel's templates
        # The table page's view library, fetched by the installed server at its first start.
        for url in module_urls().values():
            status, module = _get(f"http://127.0.0.1:{port}{url}")
            assert status == 200 and b"export" in module, url
        # With numba's cache empty, the kernels compile in a child of the server's own.
        assert "compiling the bots' numba kernels in the background" in log.read_text()
        children = _children(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    # The warm-up ends with the server (it would have run on for a minute).
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in children):
        assert time.monotonic() < deadline, children
        time.sleep(0.05)


RESEARCH = {
    "stichwerk.research.gym": "gymnasium",
    "stichwerk.research.aec": "pettingzoo",
    "stichwerk.research.spiel": "pyspiel",
    "stichwerk.research.simulate": "pyarrow",
}


@pytest.mark.parametrize(("module", "library"), sorted(RESEARCH.items()))
def test_a_research_interface_without_its_extra_says_what_to_install(
    module: str, library: str
) -> None:
    code = (
        "import importlib, sys\n"
        f"sys.modules[{library!r}] = None\n"
        "try:\n"
        f"    importlib.import_module({module!r})\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "needs the research extra: pip install 'stichwerk[research]'" in done.stdout
    assert len(done.stdout.splitlines()) == 1


def test_arena_on_ray_without_the_extra_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['ray'] = None\n"
        "from stichwerk.cli.main import app\n"
        "app(['arena', '--deals', '1', '--bots', 'random,heuristic', '--ray', 'auto'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "stichwerk: --ray needs the research extra: pip install 'stichwerk[research]'\n"
    )
