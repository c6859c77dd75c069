"""``stichwerk sheet FILE``: the running list on the command line."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app

runner = CliRunner()
EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "sheet" / "stammtisch.jsonl"


def test_the_example_list_prints_its_rows_and_totals() -> None:
    out = runner.invoke(app, ["sheet", str(EXAMPLE)])
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Stammtisch Hirschen" in text
    assert "solo-damen (Pflicht)" in text
    assert "redeal-schmeissen" in text
    assert "Pflicht-Soli played: Anna 0/1, Bernd 1/1, Clara 0/1, Dieter 1/1" in text
    assert "Next: deal 8, Anna deals; 2 games left" in text


def test_json_gives_rows_and_totals_after_penalties() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    # Two more games finish the list of 8: Anna and Clara never played their Pflicht-Solo.
    more = '{"game_type": "normal", "re": [0, 1], "re_augen": 121}\n' * 2
    out = runner.invoke(app, ["sheet", "-", "--json"], input=text + more)
    assert out.exit_code == 0, out.output
    sheet = json.loads(out.output)
    assert [r["settlement"] for r in sheet["rows"]][:2] == [[4, 0, 4, 0], [0, 3, 0, 0]]
    assert sheet["is_over"]
    # Hand-worked: 14, 11, 10, 0 after deal 7, then +1 +1 for Anna and Bernd twice;
    # -15 each for Anna's and Clara's missing Pflicht-Solo.
    assert sheet["running_totals"] == [16, 13, 10, 0]
    assert sheet["totals"] == [1, 13, -5, 0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"list": {"game": "doppelkopf"}}\n{"game_type": "normal", "re": [0, 2],'
            ' "re_augen": 250}\n',
            "stichwerk: line 2: deal 1: 're_augen' must be from 0 to 240",
        ),
        ("not json\n", "stichwerk: line 1: the line is not valid JSON"),
        (
            '{"list": {"game": "cego"}}\n{"contract": "eine", "declarer": 1,'
            ' "declarer_points": 1e308}\n',
            "stichwerk: line 2: deal 1: 'declarer_points' of the summary must be a number",
        ),
        (
            '{"list": {"game": "cego"}}\n{"contract": "eine", "declarer": 1,'
            ' "declarer_points": NaN}\n',
            "stichwerk: line 2: deal 1: 'declarer_points' of the summary must be a number",
        ),
        ("", "stichwerk: line 1: the list is empty"),
    ],
)
def test_the_first_bad_line_stops_it_with_one_line_and_status_2(text: str, message: str) -> None:
    out = runner.invoke(app, ["sheet", "-"], input=text)
    assert out.exit_code == 2
    assert out.stderr.startswith(message)
    assert out.stderr.count("\n") == 1
    assert out.stdout == ""


def test_a_missing_file() -> None:
    out = runner.invoke(app, ["sheet", "/nonexistent/list.jsonl"])
    assert out.exit_code == 2
    assert out.stderr == "stichwerk: no such file: /nonexistent/list.jsonl\n"
