"""docs/research.md holds the encoders' own tables, and its self-play example runs."""

import importlib.util
from pathlib import Path

import pytest

from stichwerk.research.doc import action_table, observation_table

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_the_docs_hold_the_tables(game: str) -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert action_table(game) in text
    assert observation_table(game) in text


def test_the_self_play_example_runs() -> None:
    path = ROOT / "docs" / "examples" / "research" / "self_play.py"
    spec = importlib.util.spec_from_file_location("self_play", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    first = module.self_play("doppelkopf", 6, seed=3)
    assert len(first) == 6
    assert first == module.self_play("doppelkopf", 6, seed=3)
