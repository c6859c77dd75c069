"""End-to-end tests of the command line for Doppelkopf: replay, score and play."""

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.cli.replay import replay_record
from stichwerk.core.errors import StichwerkError

from .randomplay import random_deal

runner = CliRunner()


def finished_record(seed: int = 3, profile: str = "wielandstrasse") -> dict[str, Any]:
    state = random_deal(profile, seed, forfeits=False)
    while "redeal" in (state.result() or {}):
        seed += 1000
        state = random_deal(profile, seed, forfeits=False)
    record = state.to_record()
    del record["result"]
    return record


def write(tmp_path: Path, obj: Any, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("profile", ["wielandstrasse", "ddv"])
def test_replay_complete_record(tmp_path: Path, profile: str) -> None:
    record = finished_record(profile=profile)
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["complete"] is True and "settlement" in result["score"]


def test_replay_from_stdin_and_result_is_not_trusted() -> None:
    record = finished_record()
    record["result"] = {"score": {"settlement": [1000, 0, 0, 0]}}
    out = runner.invoke(app, ["replay", "-"], input=json.dumps(record))
    assert out.exit_code == 0
    assert json.loads(out.stdout)["score"]["settlement"] != [1000, 0, 0, 0]


def test_replay_incomplete_record_says_whose_turn(tmp_path: Path) -> None:
    record = finished_record()
    record["actions"] = record["actions"][:6]
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 0
    answer = json.loads(out.stdout)
    assert answer["complete"] is False and isinstance(answer["to_act"], int)
    assert answer["legal_actions"] and all("act" in a for a in answer["legal_actions"])


def test_replay_illegal_action_names_index_seat_and_rule(tmp_path: Path) -> None:
    record = finished_record()
    plays = [i for i, a in enumerate(record["actions"]) if a["act"] == "play"]
    index = plays[1]
    seat = record["actions"][index]["seat"]
    other = next(c for c in record["hands"][(seat + 1) % 4] if c not in record["hands"][seat])
    record["actions"][index]["card"] = other
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 2
    assert out.stdout == ""
    line = out.stderr.strip()
    assert "\n" not in line
    assert line.startswith(f"stichwerk: action {index} (seat {seat}, play) is illegal:")
    assert f"does not hold {other}" in line


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["hands"][0].__setitem__(0, "X5"), "unknown card 'X5'"),
        (
            lambda r: (
                r["hands"][1].__setitem__(0, r["hands"][0][0])
                or r["hands"][2].__setitem__(0, r["hands"][0][0])
            ),
            "appears more than twice",
        ),
        (lambda r: r["hands"][2].pop(), "must have 12 cards (got 11)"),
        (lambda r: r.__setitem__("players", 5), "must be 4"),
        (lambda r: r.__setitem__("profile", "baden"), "unknown doppelkopf profile 'baden'"),
        (lambda r: r.__setitem__("options", {"sau": "ja"}), "option 'sau' must be true or false"),
        (lambda r: r.__setitem__("options", {"schweine": True}), "unknown option 'schweine'"),
        (lambda r: r.pop("actions"), "record has no 'actions'"),
        (lambda r: r["actions"].__setitem__(0, "gesund"), "action 0: an action must be an object"),
        (lambda r: r.__setitem__("game", "skat"), "unknown game 'skat'"),
        (lambda r: r.__setitem__("blind", []), "unknown key 'blind'"),
        (lambda r: r.__setitem__("seats", 6), "must be 4 or 5"),
    ],
)
def test_replay_bad_records_get_one_line(tmp_path: Path, mutate: Any, message: str) -> None:
    record = finished_record()
    mutate(record)
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 2, out.output
    assert message in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [("{", "not valid JSON"), ("[1]", "must be a JSON object"), ("", "not valid JSON")],
)
def test_replay_malformed_json(tmp_path: Path, text: str, message: str) -> None:
    out = runner.invoke(app, ["replay", write(tmp_path, text)])
    assert out.exit_code == 2 and message in out.stderr


def test_score_summary_and_replay_agree(tmp_path: Path) -> None:
    record = finished_record(11)
    result = json.loads(runner.invoke(app, ["replay", write(tmp_path, record)]).stdout)
    out = runner.invoke(app, ["score", write(tmp_path, result["summary"], "s.json")])
    assert out.exit_code == 0
    assert json.loads(out.stdout) == result["score"]


def test_score_the_seeds_beispiel_2(tmp_path: Path) -> None:
    summary = {
        "game": "doppelkopf", "profile": "wielandstrasse", "players": 4, "game_type": "normal",
        "re": [0, 2], "re_augen": 160, "re_tricks": 8, "kontra_tricks": 4,
        "announcements": {"re": ["re", "keine-90"], "kontra": ["kontra", "keine-90"]},
        "extras": {},
    }  # fmt: skip
    out = runner.invoke(app, ["score", write(tmp_path, summary)])
    assert out.exit_code == 0
    assert json.loads(out.stdout)["settlement"] == [9, 0, 9, 0]
    summary["re_augen"] = "viel"
    out = runner.invoke(app, ["score", write(tmp_path, summary)])
    assert out.exit_code == 2 and "'re_augen' of the summary must be a whole number" in out.stderr


def test_an_action_named_with_a_newline_is_refused_on_one_line(tmp_path: Path) -> None:
    record = finished_record()
    record["actions"][0]["act"] = "\n"
    with pytest.raises(StichwerkError) as refused:
        replay_record(record)
    seat = record["actions"][0]["seat"]
    assert "\n" not in str(refused.value)
    assert f"(seat {seat}, \\n) is illegal" in str(refused.value)
    out = runner.invoke(app, ["replay", write(tmp_path, record)])
    assert out.exit_code == 2 and len(out.stderr.splitlines()) == 1


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_no_mutation_of_a_record_gives_a_traceback(data: st.DataObject) -> None:
    record = finished_record(data.draw(st.integers(0, 40)))
    junk = st.one_of(
        st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(),
        st.text(max_size=5), st.lists(st.integers(0, 3), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers()),
        st.sampled_from(["CQ", "re", "solo", "play", "Kreuz Dame", "keine-90"]),
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
                key = data.draw(st.sampled_from(["seat", "act", "card", "cards", "type", "x"]))
                action[key] = data.draw(junk)
    try:
        replay_record(record)
    except StichwerkError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_no_mutation_of_a_summary_gives_a_traceback(data: st.DataObject) -> None:
    from stichwerk.doppelkopf.summary import score_summary

    summary = json.loads(json.dumps(random_deal("ddv", data.draw(st.integers(0, 40))).result()))
    summary = summary.get("summary") or {"game": "doppelkopf"}
    junk = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 300),
        st.text(max_size=4),
        st.lists(st.integers(-1, 5), max_size=3),
        st.lists(st.sampled_from(["re", "keine-90", "fuchs", "x"]), max_size=3),
    )
    for _ in range(data.draw(st.integers(1, 3))):
        summary[data.draw(st.sampled_from([*sorted(summary), "new"]))] = data.draw(junk)
    try:
        score_summary(summary)
    except StichwerkError as exc:
        assert "\n" not in str(exc)


def play(*args: str, text: str = "1\n" * 400, lang: str = "en") -> str:
    out = runner.invoke(app, ["play", "doppelkopf", "--lang", lang, *args], input=text)
    assert out.exit_code == 0, out.output
    assert "Traceback" not in out.output
    return out.stdout


def test_play_in_the_terminal_by_pipe() -> None:
    out = play("--seed", "t1", "--deals", "2")
    assert "Your hand:" in out and "Trick 12:" in out
    assert " wins; game value " in out and "Score sheet" in out and "Total" in out
    assert "The list is complete" in out


def test_a_whole_game_reads_as_english_a_newcomer_follows() -> None:
    out = play("--seed", "t37", "--deals", "2")
    lines = out.splitlines()
    assert "Deal 1 — Seat 3 deals" in out and "Deal 2 — you deal" in out
    assert "deal(s)" not in out
    assert all(not (a.startswith("Your hand") and a == b) for a, b in itertools.pairwise(lines))
    assert "[1] gesund (no reservation)  [2] vorbehalt (a reservation)" in out
    assert "Game: Normal game" in out and "You play Re." in out
    assert "Game: Kreuz-Solo (clubs are trumps), played by Seat 1" in out
    assert "Normal game: Re (You and Seat 2) 178 Augen, Kontra (Seat 1 and Seat 3) 62" in out
    assert "Re wins; game value 4 (gewonnen +1, unter 90 +1, Re angesagt +2)" in out
    assert "Kontra wins; game value 4 (gewonnen +1, gegen die Alten +1, Re angesagt +2)" in out
    assert "reservations>" not in out and "Any reservation?> " in out


def test_a_whole_game_in_german() -> None:
    out = play("--seed", "t37", "--deals", "2", lang="de")
    assert "Spiel 1 — Platz 3 gibt" in out and "Spiel 2 — du gibst" in out
    assert "Deine Karten: " in out and "Du spielst Re." in out
    assert "Spiel: Kreuz-Solo, gespielt von Platz 1" in out
    assert "Kontra gewinnt; Spielwert 4" in out and "Die Liste ist voll." in out
    assert "Spielliste" in out and "Summe" in out and "Endstand: Du +8" in out
    for english in ("Your hand", "Score sheet", "wins", "Seat ", "Trick "):
        assert english not in out


def test_play_by_typing_actions_and_cards() -> None:
    text = "nonsense\ngesund\n" + "re\n" + "Kreuz Dame\n" * 2 + "1\n" * 300
    out = play("--seed", "t2", "--profile", "ddv", "--players", "5", text=text)
    assert "Not possible now: 'nonsense'" in out
    assert " wins; game value " in out or "Neither side wins" in out


def test_play_quits_cleanly_and_refuses_bad_options() -> None:
    out = runner.invoke(app, ["play", "doppelkopf", "--lang", "en", "--seed", "t3"], input="q\n")
    assert out.exit_code == 0 and "Goodbye" in out.stdout
    out = runner.invoke(app, ["play", "doppelkopf", "--lang", "en", "--seed", "t3"], input="")
    assert out.exit_code == 0 and "Goodbye" in out.stdout
    out = runner.invoke(app, ["play", "doppelkopf", "--profile", "nowhere"])
    assert out.exit_code == 2 and "unknown doppelkopf profile" in out.stderr
    out = runner.invoke(app, ["play", "doppelkopf", "--players", "6"])
    assert out.exit_code == 2
    out = runner.invoke(app, ["play", "doppelkopf", "-o", "sau=maybe"])
    assert out.exit_code == 2 and "option 'sau'" in out.stderr
