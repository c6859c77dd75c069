"""A deal entered at the end is scored alone, on a copy of the list: the same rows as scoring the
whole list again, and a refused entry leaves the list as it was."""

import json
from pathlib import Path

import pytest

from stichwerk.sheet import Sheet, SheetError, read_lines

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "sheet" / "stammtisch.jsonl"


def _rows(sheet: Sheet) -> list[str]:
    return [json.dumps(r.to_json(), sort_keys=True) for r in sheet.rows]


def test_appending_gives_the_rows_of_a_whole_rebuild() -> None:
    sheet = read_lines(EXAMPLE.read_text(encoding="utf-8"))
    rebuilt = Sheet(sheet.settings, entries=list(sheet.entries))
    assert _rows(sheet) == _rows(rebuilt)
    assert sheet.to_json() == rebuilt.to_json()
    # A preview at the end is the row the same deal makes once entered.
    summary = {"game_type": "solo-buben", "re": [3], "re_augen": 70}
    preview = sheet.preview(summary)
    row = sheet.add(summary)
    assert preview.settlement == row.settlement and preview.totals == row.totals


def test_a_refused_append_changes_nothing() -> None:
    sheet = read_lines(EXAMPLE.read_text(encoding="utf-8"))
    before = (_rows(sheet), sheet.totals(), list(sheet.series.owed), sheet.series.dealer)
    with pytest.raises(SheetError, match="re_augen"):
        sheet.add({"game_type": "normal", "re": [0, 1], "re_augen": 300})
    assert (_rows(sheet), sheet.totals(), list(sheet.series.owed), sheet.series.dealer) == before
    # The copy the refused deal was tried on is gone: the next deal goes on from the list.
    sheet.add({"game_type": "normal", "re": [0, 1], "re_augen": 121})
    assert len(sheet.rows) == len(before[0]) + 1


def test_a_verwerfen_may_end_a_vorfuehrung_before_the_solo() -> None:
    from stichwerk.sheet import read_settings

    # DDV forces the Pflicht-Soli once they fill the games left: from the first of 4 games.
    settings = read_settings({"game": "doppelkopf", "profile": "ddv", "games": 4, "duty_solos": 1})
    sheet = Sheet(settings)
    assert sheet.next_context().forced == 1
    with pytest.raises(SheetError, match="Vorführung"):
        sheet.add({"game_type": "normal", "re": [0, 2], "re_augen": 130})
    # A card played wrongly before the solo was declared: the cards as dealt decide the game.
    row = sheet.add({"game_type": "normal", "re": [0, 2], "verworfen_by": 3})
    assert row.outcome.duty_solo_by is None and sheet.series.owed == [1, 1, 1, 1]
