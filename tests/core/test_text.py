"""Free text from outside: one clean line; CSV cells no spreadsheet runs as formulas."""

import csv
import io

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.core.text import clean_line, csv_cell
from stichwerk.tournament import PastResult
from stichwerk.tournament.lists import read_results_csv, write_results_csv


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-15", "-15"),
        ("+3", "+3"),
        ("-1.5", "-1.5"),
        ("Anna", "Anna"),
        ("", ""),
    ],
)
def test_formula_cells_are_neutralised_and_numbers_stay_numbers(raw: str, safe: str) -> None:
    assert csv_cell(raw) == safe


def test_numbers_and_none_pass_unchanged() -> None:
    assert csv_cell(-15) == -15 and csv_cell(2.5) == 2.5 and csv_cell(None) is None


def test_a_history_with_formula_names_round_trips_through_its_csv() -> None:
    import datetime

    rows = [
        PastResult(datetime.date(2024, 3, 9), '=HYPERLINK("x")', 1, 2, "@Turnier"),
        PastResult(datetime.date(2024, 3, 9), "Bernd", 2, 2, "@Turnier"),
    ]
    text = write_results_csv(rows)
    cells = list(csv.reader(io.StringIO(text)))
    assert all(c[:1] not in ("=", "+", "-", "@") for row in cells for c in row)
    assert read_results_csv(text) == read_results_csv(text)
    back = {r.player for r in read_results_csv(text)}
    assert back == {'=HYPERLINK("x")', "Bernd"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("date,player,place,participants\r2024-03-09,Anna,1,2\r", None),
        (
            "date,player,place,participants\n2024-03-09," + "A" * 140_000 + ",1,2\n",
            "cannot be read",
        ),
    ],
)
def test_a_history_csv_with_a_bare_cr_or_a_huge_cell_is_one_line(
    text: str, words: str | None
) -> None:
    if words is None:  # a bare CR ends a line, as old spreadsheets write it
        assert [r.player for r in read_results_csv(text)] == ["Anna"]
        return
    with pytest.raises(StichwerkError, match=words) as info:
        read_results_csv(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("raw", ["a\nb", "Titel\u202eevil", "x\x00y", "zero\u200bwidth"])
def test_free_text_is_one_printable_line(raw: str) -> None:
    if "\n" in raw:
        assert clean_line(raw, "the title", 40) == "a b"
        return
    with pytest.raises(StichwerkError, match="printable"):
        clean_line(raw, "the title", 40)
