"""``stichwerk analyse`` end to end: the JSON contract, the table, and bad input."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"
runner = CliRunner()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).with_name("stichwerk")), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_json_contract_as_a_subprocess() -> None:
    path = EXAMPLES / "doppelkopf" / "ddv-normal.json"
    proc = run("analyse", str(path), "--seats", "0,2", "--seconds-per-decision", "0.02", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == ["decisions"]
    decisions = out["decisions"]
    assert decisions and {d["seat"] for d in decisions} == {0, 2}
    record = json.loads(path.read_text())
    for d in decisions:
        assert {"seat", "index", "choices", "loss"} <= set(d)
        assert record["actions"][d["index"]]["seat"] == d["seat"]
        assert len(d["choices"]) > 1
        for c in d["choices"]:
            assert c["action"]["seat"] == d["seat"]
            assert isinstance(c["mean"], float)
        means = [c["mean"] for c in d["choices"]]
        made = next(c["mean"] for c in d["choices"] if c["action"] == d["chosen"])
        assert d["loss"] >= 0
        assert d["loss"] == pytest.approx(max(means) - made, abs=1e-5)
    assert [d["index"] for d in decisions] == sorted(d["index"] for d in decisions)


def test_same_output_every_run_with_a_world_count(tmp_path: Path) -> None:
    path = str(EXAMPLES / "cego" / "eine.json")
    args = ["analyse", path, "--seats", "1", "--worlds", "8", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout and json.loads(one.stdout)["decisions"]


def test_the_table_names_fehler() -> None:
    path = str(EXAMPLES / "doppelkopf" / "ddv-normal.json")
    args = ["analyse", path, "--seats", "0", "--worlds", "12", "--threshold", "0"]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "decisions analysed" in result.stdout
    assert "Fehler" in result.stdout
    assert "seat 0:" in result.stdout


def bad_cases(tmp_path: Path) -> list[tuple[list[str], str]]:
    record: dict[str, Any] = json.loads((EXAMPLES / "doppelkopf" / "ddv-normal.json").read_text())
    illegal = json.loads(json.dumps(record))
    illegal["actions"][6]["card"] = "CQ"
    (tmp_path / "illegal.json").write_text(json.dumps(illegal))
    (tmp_path / "broken.json").write_text('{"game": "doppelkopf",')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "good.json").write_text(json.dumps(record))
    good = str(tmp_path / "good.json")
    return [
        ([str(tmp_path / "missing.json")], "no such file"),
        ([str(tmp_path / "broken.json")], "not valid JSON"),
        ([str(tmp_path / "list.json")], "must be a JSON object"),
        ([str(tmp_path / "illegal.json")], "action 6 (seat 1, play) is illegal"),
        ([good, "--seats", "0,x"], "--seats takes seat numbers"),
        ([good, "--seats", "9"], "seat 9 is not at this table"),
        ([good, "--seconds-per-decision", "0"], "positive"),
    ]


def test_bad_input_one_line_exit_2(tmp_path: Path) -> None:
    cases = bad_cases(tmp_path)
    for args, message in cases:
        result = runner.invoke(app, ["analyse", *args, "--json"])
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], (args, result.stderr)
        assert "Traceback" not in result.stderr
    # And once as the installed command, in a process of its own (the illegal action).
    args, message = next(case for case in cases if "is illegal" in case[1])
    proc = run("analyse", *args, "--json")
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1 and message in proc.stderr
    assert "Traceback" not in proc.stderr
