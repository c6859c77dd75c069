"""A sheet's work is bounded: a change scores only from the changed deal on, a list holds at
most ``MAX_DEALS`` deals, every figure from outside is finite and in range, and a title is one
clean line (issue 29)."""

import json
import random
from typing import Any

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.sheet import MAX_DEALS, ListSettings, Sheet, SheetError, read_lines, read_settings
from stichwerk.sheet.log import replay
from stichwerk.sheet.sheet import Sheet as SheetClass

NAMES = ("Anna", "Bernd", "Clara", "Dieter")
OPEN = ListSettings(game="doppelkopf", profile="wielandstrasse", names=NAMES)


def normal(rng: random.Random) -> dict[str, Any]:
    return {"game_type": "normal", "re": rng.sample(range(4), 2), "re_augen": rng.randint(60, 200)}


def open_list(deals: int, seed: int = 7) -> Sheet:
    rng = random.Random(seed)
    sheet = Sheet(OPEN)
    for n in range(deals):
        sheet.add(normal(rng), entry_id=f"d{n}")
    return sheet


def count_scorings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every deal scored passes ``Sheet._complete`` once: count them."""
    calls = [0]
    original = SheetClass._complete

    def counted(self: Sheet, summary: Any, ctx: Any) -> dict[str, Any]:
        calls[0] += 1
        return original(self, summary, ctx)

    monkeypatch.setattr(SheetClass, "_complete", counted)
    return calls


def test_a_correction_scores_only_from_the_changed_deal_on(monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = open_list(40)
    before = [row.json_text for row in sheet.rows]
    calls = count_scorings(monkeypatch)
    done = sheet.apply({"op": "correct", "entry": "d30", "summary": normal(random.Random(1))})
    # The later deals find the list as before (the same dealers): only their totals move.
    assert done.start == 30 and calls[0] == 1
    # The rows before it are the very same; the whole list agrees with one scored anew.
    assert [row.json_text for row in sheet.rows[:30]] == before[:30]
    fresh = replay(OPEN.to_json(), [{"op": "add", "summary": e.summary, "entry": e.id}
                                    for e in sheet.entries])  # fmt: skip
    assert [r.totals for r in fresh.rows] == [r.totals for r in sheet.rows]
    assert fresh.to_json(rows=False) == sheet.to_json(rows=False)
    calls[0] = 0
    done = sheet.apply({"op": "delete", "entry": "d35"})
    # Every later deal has another dealer now: each is scored anew, the earlier ones are not.
    assert done.start == 35 and calls[0] == 4 and len(sheet.rows) == 39
    calls[0] = 0
    done = sheet.apply({"op": "add", "summary": normal(random.Random(2)), "before": "d38"})
    assert done.start == 37 and calls[0] == 3
    calls[0] = 0
    row = sheet.preview(normal(random.Random(3)), entry_id="d36")
    assert row.index == 36 and calls[0] == 1
    calls[0] = 0
    sheet.preview(normal(random.Random(3)))
    assert calls[0] == 1


def test_a_refused_correction_leaves_the_list_and_a_fork_leaves_the_original() -> None:
    sheet = open_list(12)
    totals = sheet.totals()
    twin = sheet.fork()
    twin.apply({"op": "correct", "entry": "d2", "summary": normal(random.Random(9)), "key": "k"})
    assert sheet.totals() == totals and sheet.entry("d2").version == 1
    assert twin.entry("d2").version == 2
    # The key was used on the fork only.
    sheet.apply({"op": "delete", "entry": "d2", "key": "k"})
    assert len(sheet.rows) == 11


def test_a_list_holds_at_most_max_deals() -> None:
    rng = random.Random(3)
    sheet = open_list(MAX_DEALS)
    with pytest.raises(SheetError, match=f"at most {MAX_DEALS} deals"):
        sheet.add(normal(rng))
    with pytest.raises(SheetError, match=f"at most {MAX_DEALS} deals"):
        sheet.add(normal(rng), before="d0")
    assert len(sheet.rows) == MAX_DEALS
    # A correction still goes in.
    sheet.apply({"op": "correct", "entry": "d0", "summary": normal(rng)})
    header = json.dumps({"list": OPEN.to_json()})
    lines = [header] + [json.dumps(normal(rng)) for _ in range(MAX_DEALS + 1)]
    with pytest.raises(SheetError, match=f"at most {MAX_DEALS} deals") as caught:
        read_lines("\n".join(lines))
    assert "\n" not in str(caught.value)
    assert len(read_lines("\n".join(lines[:-1])).rows) == MAX_DEALS


CEGO = ListSettings(game="cego", profile="schwarzwald", names=NAMES)


@pytest.mark.parametrize(
    "value", [1e308, -1e308, float("nan"), float("inf"), -float("inf"), 10**30, -(10**30), 2**63]
)
def test_huge_or_non_finite_card_points_are_refused_with_one_line(value: object) -> None:
    summary = {"contract": "eine", "declarer": 1, "declarer_points": value}
    sheet = Sheet(CEGO)
    for attempt in (
        lambda: sheet.preview(summary),
        lambda: sheet.add(summary),
        lambda: read_lines(json.dumps({"list": CEGO.to_json()}) + "\n" + json.dumps(summary)),
    ):
        with pytest.raises(StichwerkError, match="declarer_points") as caught:
            attempt()
        assert "\n" not in str(caught.value)
    assert sheet.rows == []
    # The same for a seat's points given one by one (a Räuber's).
    raeuber = {"contract": "raeuber", "announcer": 1, "points": [value, 0, 0, 0],
               "tricks": [3, 3, 3, 2]}  # fmt: skip
    with pytest.raises(StichwerkError, match="'points'"):
        sheet.preview(raeuber)
    with pytest.raises(StichwerkError, match="out_of_play"):
        sheet.preview({**raeuber, "points": [10, 0, 0, 0], "out_of_play": value})


@pytest.mark.parametrize("title", ["Freitag\u202eRunde", "Runde\x00", "\u2066x\u2069"])
def test_a_title_with_control_or_bidi_characters_is_refused(title: str) -> None:
    with pytest.raises(StichwerkError, match="'title'"):
        read_settings({"game": "cego", "title": title})


def test_a_title_is_one_line_and_a_stored_one_still_opens() -> None:
    assert read_settings({"game": "cego", "title": " Freitag\n\r Runde "}).title == "Freitag Runde"
    stored = {**CEGO.to_json(), "title": "Stamm\u202etisch\x00"}
    assert replay(stored, []).settings.title == "Stammtisch"


def test_changes_anywhere_give_the_list_a_whole_rebuild_gives() -> None:
    """A list scored change by change from the changed deal on (kept rows, kept scores where a
    deal finds the list as before) is the list scored from scratch, over random changes of a
    Wielandstraße list with Pflicht-Soli, redeals and Bock."""
    rng = random.Random(29)
    header = {"game": "doppelkopf", "profile": "wielandstrasse", "names": list(NAMES),
              "games": 40, "duty_solos": 1, "bock": True,
              "options": {"bock_triggers": ["120-120", "solo-lost"]}}  # fmt: skip
    settings = read_settings(header)

    def summary() -> dict[str, Any]:
        roll = rng.random()
        if roll < 0.1:
            return {"redeal": "schmeissen", "redeal_by": rng.randrange(4)}
        if roll < 0.25:
            return {"game_type": "solo-damen", "re": [rng.randrange(4)],
                    "re_augen": rng.choice([120, 121, 150])}  # fmt: skip
        out = normal(rng)
        if roll < 0.35:
            out["re_augen"] = 120  # a tie: Bock where the list plays it
        return out

    sheet = Sheet(settings)
    made = 0
    for step in range(160):
        ids = [e.id for e in sheet.entries]
        roll = rng.random()
        if not ids or roll < 0.45:
            change: dict[str, Any] = {"op": "add", "summary": summary(), "entry": f"e{made}"}
            if ids and rng.random() < 0.3:
                change["before"] = rng.choice(ids)
            made += 1
        elif roll < 0.8:
            change = {"op": "correct", "entry": rng.choice(ids), "summary": summary()}
        else:
            change = {"op": "delete", "entry": rng.choice(ids)}
        try:
            sheet.apply(change)
        except SheetError:
            continue  # refused as a whole (a later deal would not fit): the list is unchanged
        finally:
            whole = Sheet(settings, list(sheet.entries))
            assert [r.to_json() for r in sheet.rows] == [r.to_json() for r in whole.rows], step
            assert sheet.to_json(rows=False) == whole.to_json(rows=False), step
