"""``stichwerk tournament plan``: the JSON contract for tools, the readable plan, bad input."""

import json

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.tournament import WIELANDSTRASSE, draw_vorrunde

runner = CliRunner()


@pytest.mark.parametrize("n", [8, 9, 13, 40])
def test_plan_json_contract(n: int) -> None:
    out = runner.invoke(
        app, ["tournament", "plan", "--format", "wielandstrasse", "--players", str(n),
              "--seed", "7", "--json"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert list(data) == ["rounds"]
    assert len(data["rounds"]) == 3
    for tables in data["rounds"]:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert sorted(len(t) for t in tables) == sorted(WIELANDSTRASSE.table_mix(n))
    assert data == draw_vorrunde(WIELANDSTRASSE, n, "7").to_json()


def test_plan_default_seed_and_swm() -> None:
    one = runner.invoke(app, ["tournament", "plan", "--players", "12", "--json"])
    two = runner.invoke(app, ["tournament", "plan", "--players", "12", "--json"])
    assert one.exit_code == 0 and one.stdout == two.stdout
    swm = runner.invoke(app, ["tournament", "plan", "--format", "swm", "--players", "16", "--json"])
    rounds = json.loads(swm.stdout)["rounds"]
    assert len(rounds) == 2 and all(len(t) == 4 for r in rounds for t in r)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "6"], "6 players cannot be seated at 4- and 5-player tables"),
        (["--players", "7"], "7 players cannot be seated at 4- and 5-player tables"),
        (["--players", "11"], "11 players cannot be seated at 4- and 5-player tables: 2 tables"),
        (["--players", "5"], "needs at least 8 players, not 5"),
        (["--players", "500"], "seats at most 200 players, not 500"),
        (["--format", "swm", "--players", "10"], "4-player tables only: 8 or 12 players"),
        (["--format", "skat", "--players", "10"], "unknown tournament format 'skat'"),
        ([], "say how many players to seat: --players N"),
        (["--players", "-4"], "say how many players to seat: --players N"),
    ],
)
def test_plan_refuses_with_one_line_and_exit_2(args: list[str], message: str) -> None:
    for extra in ([], ["--json"]):
        out = runner.invoke(app, ["tournament", "plan", *args, *extra])
        assert out.exit_code == 2
        assert out.stdout == ""
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and message in lines[0] and lines[0].startswith("stichwerk: ")


def test_readable_plan() -> None:
    out = runner.invoke(app, ["tournament", "plan", "--players", "9", "--seed", "1"])
    assert out.exit_code == 0
    text = out.stdout
    assert "wielandstrasse: Vorrunde of 3 rounds for 9 players (seed 1)" in text
    for number in (1, 2, 3):
        assert f"Round {number}" in text
    assert "(the dealer sits out)" in text
    assert "Repeated pairs: 12 (no draw can have fewer than 12)." in text
    assert "Seats at 5-tables per player: 1 to 3." in text
    plan = draw_vorrunde(WIELANDSTRASSE, 9, "1")
    first = plan.rounds[0].tables[0]
    assert "  ".join(str(p + 1) for p in first) in text  # numbered 1..N


def test_tournament_without_a_subcommand_shows_help() -> None:
    out = runner.invoke(app, ["tournament"])
    assert "plan" in out.output
