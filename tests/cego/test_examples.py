"""The example records in docs/examples/cego replay to the result they show."""

import json
from pathlib import Path

import pytest

from stichwerk.cli.replay import replay_record

EXAMPLES = sorted((Path(__file__).parents[2] / "docs" / "examples" / "cego").glob("*.json"))


def test_there_is_an_example_for_every_contract() -> None:
    contracts = {json.loads(p.read_text())["result"]["contract"] for p in EXAMPLES}
    assert contracts >= {
        "cego", "halbe", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss", "solo",
        "ulti", "piccolo", "bettel", "raeuber", "drescher", "soli-ulti",
    }  # fmt: skip


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_to_its_result(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    assert replay_record(record) == record["result"]


def test_rules_doc_lists_every_setting_as_the_code_has_it() -> None:
    from stichwerk.cego.profiles import settings_table

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "cego.md").read_text(encoding="utf-8")
    begin = doc.index("<!-- settings:begin -->\n") + len("<!-- settings:begin -->\n")
    end = doc.index("<!-- settings:end -->")
    assert doc[begin:end] == settings_table()
