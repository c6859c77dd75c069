"""What the bot tests of both games check the same way."""

import json
from pathlib import Path
from typing import Any

import pytest

from stichwerk.arena import ArenaSpec, run_arena
from stichwerk.bots.base import make_bot
from stichwerk.core.state import GameState


def assert_no_bot_tells(
    game: str, seat: int, state: GameState, other: GameState, worlds: int
) -> None:
    """Every bot acts the same for ``seat`` in two deals that differ only in what it cannot see."""
    for name in ("heuristic", "search", "random"):
        params = {"worlds": worlds} if name == "search" else {}
        one = make_bot(name, game, "same", **params).act(state.view(seat))
        two = make_bot(name, game, "same", **params).act(other.view(seat))
        assert one == two


def small_arena(game: str, profile: str, tmp_path: Path) -> dict[str, Any]:
    """40 duplicate deals of heuristic against random: the heuristic wins with its interval above
    zero, the two means mirror each other, and every played deal is written; returns the first
    record."""
    spec = ArenaSpec(game, profile, ("heuristic", "random"), 40, 4, "test")
    out = tmp_path / "records.jsonl"
    result = run_arena(spec, workers=2, out=out)
    heuristic, random_bot = result.stats
    assert heuristic.mean - heuristic.half_width > 0
    assert heuristic.mean == pytest.approx(-random_bot.mean)
    lines = out.read_text().splitlines()
    assert len(lines) == 80
    record: dict[str, Any] = json.loads(lines[0])
    assert record["meta"]["bots"] == ["heuristic", "random", "heuristic", "random"]
    return record
