"""The engines against the golden files of this folder: a rules change shows as a diff.

- ``perft/<game>.json``: perft-style counts (python-chess's perft files) of the distinct legal
  action sequences of length 1, 2, 3 ... from fixed positions (seeded deals of every profile,
  a 5-table, positions of the example records), through ``legal_actions``/``apply``/``clone``.
- ``playthroughs/<game>/<record>.txt``: OpenSpiel-style playthroughs of every record in
  ``docs/examples/``: before each action the seat to act and its legal actions, the action,
  what changed in the table's and each seat's view, and the result.

What the files hold is computed by ``tests/golden/build.py``. After a deliberate rules change,
rewrite them with ``.venv/bin/python tools/golden.py --write``, read ``git diff tests/golden``
(every changed count or line is a consequence of the change) and commit them with it.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from stichwerk.core.errors import StichwerkError
from tests.golden import build

WRITE_HINT = "(a deliberate rules change? .venv/bin/python tools/golden.py --write, read the diff)"


def _perft_rows() -> list[tuple[str, dict[str, Any]]]:
    rows = []
    for game in build.GAMES:
        data = json.loads(build.perft_file(game).read_text(encoding="utf-8"))
        rows += [(game, row) for row in data["positions"]]
    return rows


def _row_id(row: tuple[str, dict[str, Any]]) -> str:
    game, key = row
    if "record" in key:
        return f"{game}-{key['record']}-{key['at']}"
    players = f"-{key['players']}p" if "players" in key else ""
    return f"{game}-{key['profile']}-seed{key['seed']}{players}"


@pytest.mark.parametrize("game", list(build.GAMES))
def test_perft_file_holds_every_position(game: str) -> None:
    data = json.loads(build.perft_file(game).read_text(encoding="utf-8"))
    rows = data["positions"]
    keys = [{k: v for k, v in row.items() if k not in ("counts", "refused")} for row in rows]
    assert keys == [p.key() for p in build.positions(game)], WRITE_HINT


@pytest.mark.parametrize("row", _perft_rows(), ids=_row_id)
def test_perft_counts(row: tuple[str, dict[str, Any]]) -> None:
    game, key = row
    try:
        state = build.position_from_key(game, key).state()
    except StichwerkError as exc:
        if key.get("refused") != str(exc):
            pytest.fail(f"{_row_id(row)}: the position is refused now: {exc} {WRITE_HINT}")
        return
    assert "counts" in key, f"{_row_id(row)}: the golden file says {key['refused']!r}"
    golden: list[int] = key["counts"]
    counts = build.perft(state, len(golden))
    if counts != golden:
        depth = next(d for d, (a, b) in enumerate(zip(golden, counts, strict=True), 1) if a != b)
        pytest.fail(
            f"{_row_id(row)}: at depth {depth} the golden file has {golden[depth - 1]} action "
            f"sequences, the engine now {counts[depth - 1]} (golden {golden}, now {counts}) "
            + WRITE_HINT
        )


def test_every_example_record_has_a_playthrough() -> None:
    wanted = {build.playthrough_file(game, name) for game, name in build.records()}
    present = set((build.GOLDEN / "playthroughs").glob("*/*.txt"))
    assert sorted(wanted - present) == [], f"missing playthroughs {WRITE_HINT}"
    assert sorted(present - wanted) == [], f"playthroughs of no example record {WRITE_HINT}"


@pytest.mark.parametrize(
    ("game", "name"), list(build.records()), ids=[f"{g}-{n}" for g, n in build.records()]
)
def test_playthrough(game: str, name: str) -> None:
    path = build.playthrough_file(game, name)
    golden = path.read_text(encoding="utf-8") if path.exists() else ""
    now = build.playthrough(game, name)
    if now != golden:
        where = build.first_difference(golden, now)
        pytest.fail(f"{Path(path).relative_to(build.ROOT)} {where}\n{WRITE_HINT}")


def test_first_difference_names_the_line() -> None:
    assert build.first_difference("a\nb\nc\n", "a\nB\nc\n") == "line 2:\n  golden: b\n  now:    B"
    assert build.first_difference("a\n", "a\nb\n") == "line 2: golden has 1 lines, now 2"
