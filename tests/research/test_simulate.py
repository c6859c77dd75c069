"""``stichwerk simulate``: a Parquet round trip, a stopped run resumed without playing a deal
twice, the same file from any number of workers, and bad arguments answered in one line."""

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game
from stichwerk.research.simulate import SimSpec, parts_dir, run_simulation

runner = CliRunner()


def spec(game: str = "cego", deals: int = 10, chunk: int = 4) -> SimSpec:
    return SimSpec(game, "", 0, ("heuristic", "random"), deals, "t", chunk)


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_rows_replay_to_their_settlement(game: str, tmp_path: Path) -> None:
    out = tmp_path / "deals.parquet"
    result = run_simulation(spec(game), out, workers=1)
    assert result.complete and result.played == 10
    assert not parts_dir(out).exists()
    rows = pq.read_table(out).to_pylist()
    assert [r["deal"] for r in rows] == list(range(10))
    module = get_game(game)
    for row in rows:
        assert row["bots"][0] == ("heuristic", "random")[row["deal"] % 2]
        record = {
            "game": game,
            "profile": row["profile"],
            "options": {},
            "players": row["seats"] if game == "cego" else 4,
            "dealer": row["dealer"],
            "hands": row["hands"],
            "actions": [],
        }
        if game == "cego":
            record["blind"] = row["blind"]
        state = module.deal_from_record(record)
        for a in row["actions"]:
            state.apply(Action.from_json({k: v for k, v in a.items() if v is not None}))
        result_json = state.result()
        assert result_json is not None
        assert result_json["score"]["settlement"] == row["settlement"]
        assert json.loads(row["result"]) == json.loads(json.dumps(result_json))
        if game == "cego":
            assert row["contract"] == result_json["contract"]


def test_a_stopped_run_resumes_without_playing_a_deal_twice(tmp_path: Path) -> None:
    whole = tmp_path / "whole.parquet"
    run_simulation(spec(deals=10, chunk=3), whole, workers=1)
    out = tmp_path / "resumed.parquet"
    first = run_simulation(spec(deals=10, chunk=3), out, workers=1, stop_after=2)
    assert not first.complete and first.played == 6
    assert not out.exists() and len(list(parts_dir(out).glob("part-*.parquet"))) == 2
    args = ["simulate", "--bots", "heuristic,random", "--deals", "10", "--seed", "t"]
    cli = runner.invoke(app, [*args, "--chunk", "3", "--out", str(out), "--workers", "1"])
    assert cli.exit_code == 0, cli.output
    assert "4 deals" in cli.output and "6 kept from an earlier run" in cli.output
    assert pq.read_table(out).equals(pq.read_table(whole))
    # run again: nothing left to play
    again = run_simulation(spec(deals=10, chunk=3), out, workers=1)
    assert again.complete and again.played == 0
    # other arguments never mix into a stopped run's parts or a finished file
    with pytest.raises(StichwerkError, match="holds another run"):
        run_simulation(spec(deals=11, chunk=3), out, workers=1)
    run_simulation(spec(deals=10, chunk=3), tmp_path / "x.parquet", stop_after=1, workers=1)
    with pytest.raises(StichwerkError, match="parts of a run with other arguments"):
        run_simulation(spec(deals=9, chunk=3), tmp_path / "x.parquet", workers=1)


def test_workers_do_not_change_the_file(tmp_path: Path) -> None:
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    run_simulation(spec("doppelkopf", deals=8, chunk=2), one, workers=1)
    run_simulation(spec("doppelkopf", deals=8, chunk=2), two, workers=2)
    assert pq.read_table(one).equals(pq.read_table(two))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--profile", "tarock"], "unknown cego profile 'tarock'"),
        (["--deals", "0"], "--deals must be at least 1, not 0"),
        (["--bots", "genius"], "unknown bot 'genius'"),
        (["--game", "doppelkopf", "--players", "3"], "at 4, 5 seats, not 3"),
    ],
)
def test_bad_arguments(args: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "x.parquet"
    done = runner.invoke(app, ["simulate", *args, "--out", str(out)])
    assert done.exit_code == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert not out.exists() and not parts_dir(out).exists()


def test_an_unwritable_path_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    done = runner.invoke(app, ["simulate", "--deals", "2", "--out", str(blocker / "x.parquet")])
    assert done.exit_code == 2
    where = blocker / "x.parquet"
    assert done.stderr.strip() == f"stichwerk: cannot write {where}: Not a directory"


def test_ray_writes_the_same_file(tmp_path: Path) -> None:
    local, remote = tmp_path / "local.parquet", tmp_path / "ray.parquet"
    run_simulation(spec(deals=6, chunk=2), local, workers=1)
    result = run_simulation(spec(deals=6, chunk=2), remote, ray_address="local")
    assert result.complete and result.played == 6
    assert pq.read_table(local).equals(pq.read_table(remote))
