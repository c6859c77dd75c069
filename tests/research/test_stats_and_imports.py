"""The statistics example reads a simulate file right; the web app and the plain commands load
no research library; ``stichwerk simulate`` without the extra says what to install."""

import importlib.util
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pyarrow.parquet as pq
import pytest

from stichwerk.research.simulate import SimSpec, run_simulation

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "research" / "simulate_stats.py"
RESEARCH_LIBRARIES = ("pyarrow", "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "polars")


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("simulate_stats", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("stats")
    out = {}
    for game in ("cego", "doppelkopf"):
        out[game] = folder / f"{game}.parquet"
        spec = SimSpec(game, "", 0, ("heuristic", "random"), 40, "stats", 20)
        run_simulation(spec, out[game], workers=1)
    return out


def test_cego_win_rate_by_trumps(files: dict[str, Path]) -> None:
    import polars as pl

    table = example().cego_table(pl.read_parquet(files["cego"]))
    counted: Counter[tuple[str, int]] = Counter()
    won: Counter[tuple[str, int]] = Counter()
    for row in pq.read_table(files["cego"]).to_pylist():
        if row["declarer"] is None:
            continue
        trumps = sum(c.startswith("T") for c in row["hands"][row["declarer"]])
        counted[row["contract"], trumps] += 1
        won[row["contract"], trumps] += row["winner"] == "declarer"
    got = {(r["contract"], r["trumps"]): (r["deals"], r["won"]) for r in table.to_dicts()}
    assert got == {k: (n, won[k]) for k, n in counted.items()}


def test_doppelkopf_game_types(files: dict[str, Path]) -> None:
    import polars as pl

    table = example().doppelkopf_table(pl.read_parquet(files["doppelkopf"]))
    rows = pq.read_table(files["doppelkopf"]).to_pylist()
    assert {r["contract"]: r["deals"] for r in table.to_dicts()} == Counter(
        r["contract"] for r in rows
    )
    assert sum(r["share"] for r in table.to_dicts()) == pytest.approx(1.0, abs=0.01)


def test_the_example_runs_as_a_script(files: dict[str, Path]) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(files["doppelkopf"])],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "doppelkopf: 40 deals" in done.stdout and "re_win_rate" in done.stdout


def test_the_web_app_and_plain_commands_load_no_research_library() -> None:
    code = (
        "import sys\n"
        "import stichwerk.server.app, stichwerk.cli.main\n"
        "from stichwerk.cli.main import app\n"
        f"print(sorted(m for m in {RESEARCH_LIBRARIES!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_simulate_without_the_extra_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['pyarrow'] = None\n"
        "from stichwerk.cli.main import app\n"
        f"app(['simulate', '--deals', '1', '--out', {str(tmp_path / 'x.parquet')!r}])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == (
        "stichwerk: stichwerk simulate needs the research extra: "
        "pip install 'stichwerk[research]'\n"
    )
