"""``stichwerk`` loads a command's module only when the command runs: ``--help`` and ``score``
import no database layer, no numba, no server; every help line of the listing is the
command's own; every option of every command has a line of help."""

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import COMMANDS, app, load

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
HEAVY = ("sqlalchemy", "alembic", "numba", "numpy", "stichwerk.server", "stichwerk.storage",
         "stichwerk.bots", "fastapi", "uvicorn")  # fmt: skip


def _modules_after(args: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after running ``stichwerk ARGS``."""
    code = (
        "import sys\n"
        "from stichwerk.cli.main import app\n"
        "try:\n"
        f"    app({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stdout.flush()\n"
        "print('MODULES', ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


def test_help_imports_no_database_numba_or_server() -> None:
    modules = _modules_after(["--help"])
    assert _heavy(modules) == []
    assert not any(m.startswith("stichwerk.cli.") and m != "stichwerk.cli.main" for m in modules)


def test_score_and_replay_import_no_database_numba_or_server(tmp_path: Path) -> None:
    record = EXAMPLES / "doppelkopf" / "ddv-normal.json"
    assert _heavy(_modules_after(["replay", str(record)])) == []
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
        ),
        encoding="utf-8",
    )
    modules = _modules_after(["score", str(summary)])
    assert _heavy(modules) == [] and "stichwerk.doppelkopf.scoring" in modules


def test_the_listing_shows_each_commands_own_help_line() -> None:
    for name, lazy in COMMANDS.items():
        command = load(name)
        own = (command.help or "").strip().split("\n\n")[0].replace("\n", " ")
        assert own == lazy.help, (name, own)


def test_every_command_runs_and_every_option_has_help() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["--help"])
    assert out.exit_code == 0
    for name in COMMANDS:
        assert name in out.stdout
    seen = 0
    for name in COMMANDS:
        command = load(name)
        subcommands = getattr(command, "commands", {None: command})
        for sub in subcommands.values():
            for param in sub.params:
                if param.name == "help":
                    continue
                assert (getattr(param, "help", None) or "").strip(), (name, sub.name, param.name)
                seen += 1
    assert seen > 50


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_commands_help_answers(name: str) -> None:
    out = CliRunner().invoke(app, [name, "--help"])
    assert out.exit_code == 0, out.stdout
    assert "<bool>" not in out.stdout and "Usage: " in out.stdout


def test_the_modules_named_exist() -> None:
    for lazy in COMMANDS.values():
        assert hasattr(importlib.import_module(lazy.module), lazy.attr)
