"""TSR 6's reply rule: the positions of issue 14 as records, the score sheet's check, and the
Wielandstraße reading that keeps Absagen after a reply.

The records in ``docs/examples/doppelkopf/refused/`` end with the Absage the rule forbids;
``stichwerk replay`` refuses it with the rule (exit status 2), and every action before it is
legal. ``MENUS`` holds what the issue says a seat may announce just before.
"""

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from stichwerk.cli.main import app
from stichwerk.cli.replay import replay_record
from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction
from stichwerk.doppelkopf.announcements import LATE_REPLY, check_announcements
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.profiles import DDV, WIELANDSTRASSE, get_profile
from stichwerk.doppelkopf.record import deal_from_record
from stichwerk.doppelkopf.scoring import Announced
from stichwerk.doppelkopf.state import DokoState

ROOT = Path(__file__).parents[2]
REFUSED = ROOT / "docs" / "examples" / "doppelkopf" / "refused"
ABSAGEN = ["keine-90", "keine-60", "keine-30", "schwarz"]
MENUS: dict[str, list[tuple[int, int, list[str]]]] = {
    # (actions left off the end, seat, its announcements then)
    "ddv-late-reply-1": [(2, 1, ["re"]), (2, 2, ["re", *ABSAGEN])],
    "ddv-late-reply-2": [(1, 3, ["kontra"]), (1, 2, ["kontra", *ABSAGEN])],  # seat 2: 11 cards
    "ddv-late-reply-3": [(1, 0, []), (1, 3, [])],
    "ddv-late-reply-4": [(1, 3, []), (1, 2, [])],
    "ddv-late-reply-hochzeit": [(2, 3, ["kontra"]), (2, 1, ["kontra", *ABSAGEN]), (1, 1, [])],
}
runner = CliRunner()


def load(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((REFUSED / f"{name}.json").read_text(encoding="utf-8"))
    return record


def replayed(record: dict[str, Any], leave_off: int) -> DokoState:
    state = deal_from_record(record)
    for raw in record["actions"][: len(record["actions"]) - leave_off]:
        state.apply(Action.from_json(raw))
    return state


def announcements(state: DokoState, seat: int) -> list[str]:
    return [a.act for a in state.legal_actions(seat) if a.act != "play"]


def test_every_refused_record_is_checked() -> None:
    assert sorted(p.stem for p in REFUSED.glob("*.json")) == sorted(MENUS)


@pytest.mark.parametrize("name", sorted(MENUS))
def test_replay_refuses_the_absage_with_the_rule(name: str) -> None:
    record = load(name)
    index = len(record["actions"]) - 1
    last = record["actions"][index]
    out = runner.invoke(app, ["replay", str(REFUSED / f"{name}.json")])
    assert out.exit_code == 2 and out.stdout == ""
    line = out.stderr.strip()
    assert "\n" not in line
    assert line.startswith(f"stichwerk: action {index} (seat {last['seat']}, {last['act']}) is ")
    assert line.endswith(LATE_REPLY)
    # Every action before it is legal: the record without it replays to whose turn it is.
    record["actions"].pop()
    assert replay_record(record)["complete"] is False


@pytest.mark.parametrize("name", sorted(MENUS))
def test_the_menus_of_the_positions(name: str) -> None:
    record = load(name)
    for leave_off, seat, menu in MENUS[name]:
        assert announcements(replayed(record, leave_off), seat) == menu, (leave_off, seat)


@pytest.mark.parametrize("name", sorted(MENUS))
def test_wielandstrasse_keeps_absagen_after_a_reply(name: str) -> None:
    record = load(name)
    record["profile"] = "wielandstrasse"
    state = replayed(record, 0)  # the last Absage is accepted too
    party = state.party_of(record["actions"][-1]["seat"])
    assert party is not None
    assert "keine-90" in state.view(None)["announcements"][party]


def test_the_late_absage_with_the_reply_is_refused_too() -> None:
    # Position 1: seat 1 holds 10 cards; keine-90 would say Re as a late reply.
    state = replayed(load("ddv-late-reply-1"), 2)
    with pytest.raises(IllegalAction, match=r"keine-90 would say re as a late reply, and a party"):
        state.apply(Action(1, "keine-90"))


def test_the_hochzeit_shift_decides_whether_a_reply_was_late() -> None:
    # Klärungsstich trick 2: seat 1 replies Kontra with 10 cards, in time as an Ansage under
    # the shifted limit (10), so its Absage stands (the example ddv-hochzeit-reply).
    record = load("ddv-late-reply-hochzeit")
    state = replayed(record, 2)
    state.apply(Action(1, "kontra"))
    state.apply(Action(1, "keine-90"))
    assert state.snapshot().ann == (Announced(True), Announced(True, 1, late=False))
    # Seat 3's reply with 9 cards was late even by the shifted limit: no Absage after it.
    state = replayed(record, 1)
    assert state.snapshot().ann[1] == Announced(True, late=True)
    with pytest.raises(IllegalAction, match="the Kontra party replied late"):
        state.apply(Action(1, "keine-90"))


def test_the_fast_path_keeps_the_rule() -> None:
    state = replayed(load("ddv-late-reply-3"), 1)  # after seat 3's late re
    fast = FastPlay.from_state(state)
    assert fast.ann[0] == Announced(ansage=True, absage=0, late=True)
    assert not fast.announce(0, "keine-90") and not fast.announce(3, "keine-90")
    assert fast.announce(2, "kontra") is False  # Kontra said schwarz, Kontra included
    wield = FastPlay.from_state(replayed(dict(load("ddv-late-reply-3"), profile="wielandstrasse"),
                                         1))  # fmt: skip
    assert wield.announce(0, "keine-90", cards=10)


# --- the score sheet's check of entered announcements


@pytest.mark.parametrize(
    ("said", "klaerungsstich", "ddv", "wielandstrasse"),
    [
        # position 1: Re replies with 10 cards, its partner says keine 90 with 11
        ([("kontra", "kontra", 11), ("re", "re", 10), ("re", "keine-90", 11)], 0,
         "announcement 3 (re keine-90 with 11 cards): the Re party replied late: " + LATE_REPLY,
         None),
        # position 2: a late reply cannot come with an Absage
        ([("re", "schwarz", 11), ("kontra", "keine-90", 10)], 0,
         "announcement 2 (kontra keine-90 with 10 cards): keine-90 would say kontra as a late "
         "reply, and " + LATE_REPLY, None),
        # a reply in time as an Ansage keeps the Absagen
        ([("re", "re", 12), ("kontra", "kontra", 11), ("kontra", "keine-90", 10),
          ("kontra", "keine-60", 9)], 0, None, None),
        # the Hochzeit: the shifted limit decides
        ([("re", "re", 10), ("kontra", "kontra", 10), ("kontra", "keine-90", 9)], 2, None, None),
        ([("re", "re", 10), ("kontra", "kontra", 9), ("kontra", "keine-90", 10)], 2,
         "announcement 3 (kontra keine-90 with 10 cards): the Kontra party replied late: "
         + LATE_REPLY, None),
        # limits, order and input
        ([("re", "re", 10)], 0, "announcement 1 (re re with 10 cards): too late for re: the "
         "announcing player must hold at least 11 cards (holds 10)", "announcement 1 (re re "
         "with 10 cards): too late for re: the announcing player must hold at least 11 cards "
         "(holds 10)"),
        ([("re", "re", 9), ("kontra", "kontra", 11)], 0, "announcement 1 (re re with 9 cards): "
         "too late for re: the announcing player must hold at least 11 cards (holds 9)",
         "announcement 1 (re re with 9 cards): too late for re: the announcing player must "
         "hold at least 11 cards (holds 9)"),
        ([("kontra", "kontra", 10), ("re", "re", 12)], 0, "announcement 1 (kontra kontra with "
         "10 cards): too late for kontra: the announcing player must hold at least 11 cards "
         "(holds 10)", "announcement 1 (kontra kontra with 10 cards): too late for kontra: the "
         "announcing player must hold at least 11 cards (holds 10)"),
        ([("re", "re", 11), ("kontra", "kontra", 12), ("kontra", "kontra", 12)], 0,
         "announcement 3 (kontra kontra with 12 cards): the Kontra party has already said "
         "kontra", "announcement 3 (kontra kontra with 12 cards): the Kontra party has already "
         "said kontra"),
    ],
)  # fmt: skip
def test_check_announcements(
    said: list[tuple[str, str, int]],
    klaerungsstich: int,
    ddv: str | None,
    wielandstrasse: str | None,
) -> None:
    game = "hochzeit" if klaerungsstich else "normal"
    for profile, want in ((DDV, ddv), (WIELANDSTRASSE, wielandstrasse)):
        out = check_announcements(profile, game, said, klaerungsstich=klaerungsstich)
        if want is None:
            assert isinstance(out, dict), out
        else:
            assert out == want


def test_check_announcements_gives_what_the_scoring_takes() -> None:
    out = check_announcements(DDV, "normal", [("re", "keine-60", 11), ("kontra", "kontra", 8)])
    assert out == {"re": Announced(True, 2), "kontra": Announced(True, 0, late=True)}
    no_nines = get_profile("ddv", {"with_nines": False})
    out = check_announcements(no_nines, "normal", [("re", "re", 9), ("kontra", "keine-90", 9)])
    assert out == {"re": Announced(True), "kontra": Announced(True, 1)}
    assert check_announcements(DDV, "solo-trumpf", [("re", "re", 9)], klaerungsstich=3) == {
        "re": Announced(True), "kontra": Announced()}  # fmt: skip


@pytest.mark.parametrize(
    ("game", "said", "klaerungsstich", "message"),
    [
        ("normal", [("kontra", "kontra", 12), ("re", "re", 10), ("kontra", "keine-90", 12)], 0,
         "announcement 3 (kontra keine-90 with 12 cards): an earlier announcement was made "
         "with 10 cards"),
        ("hochzeit", [("re", "re", 11)], 2,
         "announcement 1 (re re with 11 cards): no announcement before the Hochzeit partner is "
         "known"),
        ("hochzeit", [], 0, "a Hochzeit needs its Klärungsstich, 1 to 3"),
        ("hochzeit", [], 4, "a Hochzeit needs its Klärungsstich, 1 to 3"),
        ("normal", [], 2, "a normal game has no Klärungsstich"),
        ("solo-trumpf", [], 2, "a solo-trumpf game has no Klärungsstich"),
        ("bettel", [], 0, "unknown game type 'bettel'"),
        ("normal", [("re", "kontra", 11)], 0, "announcement 1: the re party cannot say 'kontra'"),
        ("normal", [("re", "keine-120", 11)], 0,
         "announcement 1: the re party cannot say 'keine-120'"),
        ("normal", [("alt", "re", 11)], 0, "announcement 1: unknown party 'alt' (re or kontra)"),
        ("normal", [("re", "re", 13)], 0,
         "announcement 1: cards held must be a number from 0 to 12"),
        ("normal", [("re", "re", True)], 0,
         "announcement 1: cards held must be a number from 0 to 12"),
        ("normal", [("re", "re")], 0, "announcement 1 must be (party, act, cards)"),
        ("normal", ["re re 11"], 0, "announcement 1 must be (party, act, cards)"),
    ],
)  # fmt: skip
def test_check_announcements_explains_bad_input(
    game: str, said: list[Any], klaerungsstich: int, message: str
) -> None:
    assert check_announcements(DDV, game, said, klaerungsstich=klaerungsstich) == message
