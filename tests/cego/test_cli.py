"""End-to-end tests of the command line for Cego: replay, score and play."""

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stichwerk.cego.record import new_deal
from stichwerk.cli.main import app
from stichwerk.cli.replay import replay_record
from stichwerk.core.errors import StichwerkError
from tests.cego.test_properties import choose

runner = CliRunner()


def finished_record(seed: int = 5) -> dict[str, Any]:
    state = new_deal(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(choose(state, rng, 0.7))
    record = state.to_record()
    del record["result"]
    return record


def write(tmp_path: Path, obj: Any, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(path)


def test_replay_complete_record(tmp_path: Path) -> None:
    record = finished_record()
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["game"] == "cego" and sum(result["score"]["settlement"]) == 0


def test_replay_from_stdin_and_result_is_not_trusted(tmp_path: Path) -> None:
    record = finished_record()
    record["result"] = {"score": {"settlement": [1000, 0, 0, 0]}}
    out = runner.invoke(app, ["replay", "-"], input=json.dumps(record))
    assert out.exit_code == 0
    assert json.loads(out.stdout)["score"]["settlement"] != [1000, 0, 0, 0]


def test_replay_incomplete_record_says_whose_turn(tmp_path: Path) -> None:
    record = finished_record()
    record["actions"] = record["actions"][:3]
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 0
    answer = json.loads(out.stdout)
    assert answer["complete"] is False and isinstance(answer["to_act"], int)
    assert answer["legal_actions"] and all("act" in a for a in answer["legal_actions"])


def test_replay_illegal_action_names_index_seat_and_rule(tmp_path: Path) -> None:
    record = finished_record()
    first = record["actions"][0]
    record["actions"][0] = {"seat": first["seat"], "act": "geiss"}
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 2
    assert out.stdout == ""
    line = out.stderr.strip()
    assert "\n" not in line
    assert line.startswith(f"stichwerk: action 0 (seat {first['seat']}, geiss) is illegal:")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["hands"][0].__setitem__(0, "X5"), "unknown card 'X5'"),
        (lambda r: r["hands"][1].__setitem__(0, r["hands"][0][0]), "dealt twice"),
        (lambda r: r["hands"][2].pop(), "must hold 11 cards, not 10"),
        (lambda r: r.__setitem__("players", 7), "must be 3 or 4"),
        (lambda r: r.__setitem__("profile", "baden"), "unknown Cego profile 'baden'"),
        (lambda r: r.pop("actions"), "record has no 'actions'"),
        (lambda r: r["actions"].__setitem__(0, "fort"), "action 0: an action must be an object"),
        (lambda r: r.__setitem__("game", "skat"), "unknown game 'skat'"),
        (lambda r: r.__setitem__("deal_type", "drescher"), "not played under these rules"),
    ],
)
def test_replay_bad_records_get_one_line(tmp_path: Path, mutate: Any, message: str) -> None:
    record = finished_record()
    mutate(record)
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 2
    assert message in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [("{", "not valid JSON"), ("[1]", "must be a JSON object"), ("", "not valid JSON")],
)
def test_replay_malformed_json(tmp_path: Path, text: str, message: str) -> None:
    out = runner.invoke(app, ["replay", write(tmp_path, text)])
    assert out.exit_code == 2 and message in out.stderr


def test_replay_missing_file() -> None:
    out = runner.invoke(app, ["replay", "/nonexistent/record.json"])
    assert out.exit_code == 2 and "no such file" in out.stderr


def test_score_summary(tmp_path: Path) -> None:
    summary = {
        "game": "cego",
        "profile": "schwarzwald",
        "players": 4,
        "declarer": 1,
        "contract": "halbe",
        "gegensolo": False,
        "declarer_points": 34,
        "declarer_tricks": 4,
        "defender_tricks": 7,
    }
    out = runner.invoke(app, ["score", write(tmp_path, summary)])
    assert out.exit_code == 0
    score = json.loads(out.stdout)
    assert score["written"] == 20 and score["settlement"] == [20, -60, 20, 20]
    summary["declarer_points"] = "lots"
    out = runner.invoke(app, ["score", write(tmp_path, summary)])
    assert out.exit_code == 2 and "'declarer_points' of the summary must be a number" in out.stderr


def test_replay_equals_score_of_its_summary(tmp_path: Path) -> None:
    from stichwerk.cego.record import summary_of

    record = finished_record(11)
    result = json.loads(runner.invoke(app, ["replay", write(tmp_path, record)]).stdout)
    summary = summary_of(result, record["players"], record.get("seats", record["players"]))
    out = runner.invoke(app, ["score", write(tmp_path, summary, "s.json")])
    assert json.loads(out.stdout) == result["score"]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_no_mutation_of_a_record_gives_a_traceback(data: st.DataObject) -> None:
    record = finished_record(data.draw(st.integers(0, 50)))
    junk = st.one_of(
        st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(),
        st.text(max_size=5), st.lists(st.integers(0, 3), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers()),
    )  # fmt: skip
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(["top", "hand", "action"]))
        if where == "top":
            record[data.draw(st.sampled_from(sorted(record)))] = data.draw(junk)
        elif where == "hand" and isinstance(record.get("hands"), list) and record["hands"]:
            hand = record["hands"][0]
            if isinstance(hand, list) and hand:
                hand[data.draw(st.integers(0, len(hand) - 1))] = data.draw(junk)
        elif isinstance(record.get("actions"), list) and record["actions"]:
            index = data.draw(st.integers(0, len(record["actions"]) - 1))
            action = record["actions"][index]
            if isinstance(action, dict):
                action[data.draw(st.sampled_from(["seat", "act", "card", "cards", "x"]))] = (
                    data.draw(junk)
                )
    try:
        replay_record(record)
    except StichwerkError as exc:
        assert "\n" not in str(exc)


def play(*args: str, text: str = "1\n" * 400, lang: str = "en") -> str:
    out = runner.invoke(app, ["play", "cego", "--lang", lang, *args], input=text)
    assert out.exit_code == 0, out.output
    assert "Traceback" not in out.output
    return out.stdout


def test_play_in_the_terminal_by_pipe() -> None:
    out = play("--seed", "t1", "--deals", "2")
    assert "Your hand:" in out
    assert "Result:" in out and "Score sheet" in out and "Total" in out


def test_a_whole_game_reads_as_english_a_newcomer_follows() -> None:
    # Seed a1: everyone passes, the person (Vorhand) holds Cego in the auction and plays it.
    out = play("--seed", "a1", "--deals", "1", text="1\n1\n1\n1\nkeep T5 T10\n" + "1\n" * 30)
    lines = out.splitlines()
    assert "Deal 1 — Seat 3 deals" in out and "deal(s)" not in out
    assert "Cards: T1 to T22 are the trumps" in out
    # The hand is shown once where the deal starts, not twice in a row anywhere.
    start = next(i for i, line in enumerate(lines) if "Deal 1 —" in line)
    assert lines[start + 1].startswith("Your hand: ")
    assert not lines[start + 2].startswith("Your hand: ")
    assert all(not (a.startswith("Your hand") and a == b) for a, b in itertools.pairwise(lines))
    assert "Auction: you hold Cego" in out and "You holds" not in out
    assert "[1] fort (pass)" in out and "Seat 1: gut (pass)" in out
    assert "Keep the cards you name; the rest go to the blind." in out
    assert "You play Cego (keep two cards, take the blind, press one), value 1" in out
    assert "[1] play" not in out  # a card is played by naming it
    assert "Result: you lost the Cego" in out


def test_a_whole_game_in_german() -> None:
    out = play(
        "--seed", "a1", "--deals", "1", lang="de", text="1\n1\n1\n1\nkeep T5 T10\n" + "1\n" * 30
    )
    assert "Spiel 1 — Platz 3 gibt" in out and "Deine Karten: " in out
    assert "Steigern: du hältst Cego" in out and "Platz 1: gut (aussteigen)" in out
    assert "Du spielst Cego" in out and "Ergebnis: Du verlierst Cego" in out
    assert "Spielliste" in out and "Summe" in out
    for english in ("Your hand", "Score sheet", "Result", "Seat ", "Trick "):
        assert english not in out


def test_the_locale_picks_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    out = runner.invoke(app, ["play", "cego", "--seed", "t2"], input="q\n")
    assert "Auf Wiedersehen." in out.stdout
    out = runner.invoke(app, ["play", "cego", "--lang", "fr"])
    assert out.exit_code == 2 and "--lang must be one of en, de" in out.stderr


def test_play_quits_cleanly_and_refuses_bad_options() -> None:
    out = runner.invoke(
        app, ["play", "cego", "--lang", "en", "--seed", "t2", "--profile", "zego"], input="q\n"
    )
    assert out.exit_code == 0 and "Goodbye" in out.stdout
    out = runner.invoke(app, ["play", "cego", "--profile", "nowhere"])
    assert out.exit_code == 2 and "unknown Cego profile" in out.stderr
    out = runner.invoke(app, ["play", "cego", "--players", "6"])
    assert out.exit_code == 2


def test_the_installed_command_runs(tmp_path: Path) -> None:
    record = finished_record()
    record["actions"][0]["act"] = "nonsense"
    exe = Path(sys.executable).with_name("stichwerk")
    done = subprocess.run(
        [str(exe), "replay", write(tmp_path, record)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
