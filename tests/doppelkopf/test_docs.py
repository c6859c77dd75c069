"""The example records replay to their stored results; the rules doc lists every setting."""

import json
from pathlib import Path

import pytest

from stichwerk.cli.replay import replay_record
from stichwerk.doppelkopf.profiles import setting_docs, settings_table

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples" / "doppelkopf").glob("*.json"))


def test_there_is_an_example_for_every_game_type() -> None:
    names = {p.stem for p in EXAMPLES}
    solos = [f"solo-{t}" for t in ("damen", "buben", "kreuz", "pik", "herz", "trumpf")]
    kinds = ["normal", "hochzeit", "armut", "solo-still", "solo-fleischlos", "forfeit-normal"]
    kinds += ["redeal-armut", "redeal-neu-geben", "redeal-schmeissen", *solos]
    for kind in kinds:
        assert f"wielandstrasse-{kind}" in names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_to_its_result(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    assert replay_record(record) == record["result"]


def test_rules_doc_lists_every_setting_as_the_code_has_it() -> None:
    doc = (ROOT / "docs" / "rules" / "doppelkopf.md").read_text(encoding="utf-8")
    begin = doc.index("<!-- settings:begin -->\n") + len("<!-- settings:begin -->\n")
    end = doc.index("<!-- settings:end -->")
    assert doc[begin:end] == settings_table()
    for setting in setting_docs():
        assert f"`{setting['name']}`" in doc
