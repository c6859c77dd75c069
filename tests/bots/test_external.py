"""Outside bots speaking the bot protocol: a whole deal, and every way a program can fail.

A failing program loses its turn to the fallback bot with one log line, and the deal goes on.
The misbehaving programs are tiny Python scripts written by the tests.
"""

import json
import logging
import sys
import textwrap
from pathlib import Path

import pytest

from stichwerk.arena import ArenaSpec, play_deal
from stichwerk.bots.base import make_bot
from stichwerk.bots.external import ExternalBot
from stichwerk.cli.replay import replay_record
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "bots" / "first_legal.py"

HEADER = """\
import json, sys, time
def send(obj):
    print(json.dumps(obj), flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({"type": "ready", "name": "test"})
        continue
    if m["type"] != "act":
        continue
    legal = [{k: v for k, v in a.items() if k != "seat"} for a in m["view"]["legal_actions"]]
"""


def program(tmp_path: Path, body: str, name: str = "bot.py") -> str:
    path = tmp_path / name
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), "    "), encoding="utf-8")
    return f"{sys.executable} {path}"


def a_view(seat: int = 0) -> dict[str, object]:
    state = get_game("doppelkopf").new_deal(seed=5, dealer=3)
    assert state.to_act == 0
    return state.view(seat)


def test_the_example_bot_plays_whole_deals_in_the_arena() -> None:
    name = f"cmd:{sys.executable} {EXAMPLE}"
    for game in ("cego", "doppelkopf"):
        spec = ArenaSpec(game, get_game(game).profiles[0], (name, "random"), 1, 4, "ext")
        outcome = play_deal(spec, 0)
        assert len(outcome.records) == 2
        for record in outcome.records:
            # The deal was played to its end: its record replays to the result it holds.
            del record["meta"]
            assert replay_record(record) == record["result"]


def test_a_good_answer_is_the_action_taken(tmp_path: Path) -> None:
    bot = ExternalBot(
        program(tmp_path, 'send({"type": "action", "id": m["id"], "action": legal[-1]})'),
        "doppelkopf",
    )
    view = a_view()
    action = bot.act(view)
    assert action.to_json() == view["legal_actions"][-1]
    assert bot.program_name == "test" and bot.faults == []
    bot.close()


def test_card_codes_in_any_case_are_read_as_the_table_does(tmp_path: Path) -> None:
    body = """\
    plays = [a for a in legal if a["act"] == "gesund"]
    send({"type": "action", "id": m["id"], "action": {"act": "GESUND"}})
    """
    bot = ExternalBot(program(tmp_path, body), "doppelkopf")
    assert bot.act(a_view()).act == "gesund"
    bot.close()


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ('print("hello there", flush=True)', "its answer is not JSON"),
        (
            'send({"type": "action", "id": m["id"], "action": {"act": "play", "card": "XX"}})',
            "its seat may not play XX now",
        ),
        (
            'send({"type": "action", "id": m["id"], "action": "gesund"})',
            "its answer has no action object",
        ),
        (
            'send({"type": "action", "id": m["id"], "action": {"act": 7}})',
            "its answer is no action",
        ),
        ('send({"type": "move", "id": m["id"]})', "its answer is not an action message"),
        (
            'print(\'{"type": "action", "id": 1, "t": NaN}\', flush=True)',
            "its answer is not JSON",
        ),
        ("sys.exit(3)", "it ended"),
    ],
)
def test_a_bad_answer_loses_the_turn_to_the_fallback_with_a_log_line(
    tmp_path: Path, body: str, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="stichwerk.bots.external")
    bot = ExternalBot(program(tmp_path, body), "doppelkopf", fallback="random")
    view = a_view()
    action = bot.act(view)
    assert action.to_json() in view["legal_actions"]
    assert bot.faults and bot.faults[0].startswith(why)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and why in lines[0] and "(seat 0)" in lines[0]
    bot.close()


def test_a_slow_answer_is_dropped_and_the_next_one_counts(tmp_path: Path) -> None:
    body = """\
    if m["id"] == 1:
        time.sleep(4)
    send({"type": "action", "id": m["id"], "action": legal[0]})
    """
    bot = ExternalBot(program(tmp_path, body), "doppelkopf", time_limit=1.5, fallback="random")
    view = a_view()
    bot.act(view)
    assert bot.faults == ["no answer within 1.5 s"]
    # The late answer to request 1 comes first and is skipped; request 2 is answered.
    bot.time_limit = 10
    assert bot.act(view).to_json() == view["legal_actions"][0]
    assert len(bot.faults) == 1
    bot.close()


def test_a_program_that_never_says_ready_or_cannot_start_is_replaced(tmp_path: Path) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nfor line in sys.stdin:\n    pass\n", encoding="utf-8")
    bot = ExternalBot(f"{sys.executable} {silent}", "doppelkopf", startup_limit=1)
    view = a_view()
    assert bot.act(view).to_json() in view["legal_actions"]
    assert bot.faults == ["it did not say ready within 1 s"]
    # Dead for the rest of the deal: the fallback plays at once.
    assert bot.act(view).to_json() in view["legal_actions"]
    missing = ExternalBot(str(tmp_path / "no-such-program"), "doppelkopf")
    assert missing.act(view).to_json() in view["legal_actions"]
    assert missing.faults[0].startswith("cannot start")


@pytest.mark.parametrize("ended", ["before the hello", "after the hello"])
def test_a_program_that_ends_at_once_is_reported_the_same_whichever_comes_first(
    ended: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program that exits at once may be gone before the hello is written (the write fails)
    or after (its output ends): a race the report must not show. Here each order is forced."""
    import subprocess

    from stichwerk.bots import external

    real = subprocess.Popen

    def popen(*args: object, **kwargs: object) -> subprocess.Popen[str]:
        proc: subprocess.Popen[str] = real(*args, **kwargs)  # type: ignore[call-overload]
        if ended == "before the hello":
            proc.wait(timeout=30)
        return proc

    monkeypatch.setattr(external.subprocess, "Popen", popen)
    command = f"{sys.executable} -c " + ("'raise SystemExit(3)'" if ended == "before the hello"
                                          else "'import sys; sys.stdin.readline()'")  # fmt: skip
    bot = ExternalBot(command, "doppelkopf", startup_limit=30)
    view = a_view()
    assert bot.act(view).to_json() in view["legal_actions"]
    assert bot.faults == ["it ended before saying ready"]


def test_the_program_sees_its_seats_view_only(tmp_path: Path) -> None:
    seen = tmp_path / "seen.jsonl"
    body = f"""\
    open({str(seen)!r}, "a").write(json.dumps(m) + "\\n")
    send({{"type": "action", "id": m["id"], "action": legal[0]}})
    """
    state = get_game("doppelkopf").new_deal(seed=5, dealer=3)
    bot = ExternalBot(program(tmp_path, body), "doppelkopf")
    view = state.view(0)
    bot.act(view)
    bot.close()
    sent = [json.loads(line) for line in seen.read_text(encoding="utf-8").splitlines()]
    assert sent[0]["view"] == view
    others = [c for s in (1, 2, 3) for c in state.view(s)["hand"]]
    hand = view["hand"]
    # Every card shown is the seat's own (a 2-copy deck: compare counts).
    for card in set(others) - set(hand):
        assert card not in json.dumps(sent[0])


def test_bot_names_and_limits() -> None:
    with pytest.raises(StichwerkError, match="needs a program"):
        make_bot("cmd:", "cego")
    with pytest.raises(StichwerkError, match="time limit"):
        make_bot("cmd:python x.py", "cego", time_limit=0)
    known = "known: random, heuristic, search-v1, search, cmd:PROGRAM"
    with pytest.raises(StichwerkError, match=known):
        make_bot("genius", "cego")
