"""What the golden files hold, computed from the engines: the tests compare, ``tools/golden.py``
writes.

Two kinds of anchor, so that any change to the rules shows as a diff in a committed file:

- **perft counts** (as python-chess's perft files): from fixed positions (seeded fresh deals of
  every profile, and a few positions of the example records), the number of distinct legal
  action sequences of length 1, 2, 3 ... through the public ``GameState`` interface only
  (``legal_actions``, ``apply``, ``clone``). At each position the actions are every seat's legal
  actions (out-of-turn announcements included), in seat order. A position goes as deep as its
  count stays below ``LIMIT``, so the whole check stays cheap.
- **playthroughs** (as OpenSpiel's playthrough files): every record of ``docs/examples/cego`` and
  ``docs/examples/doppelkopf`` replayed action by action into a text file: before each action
  the seat to act and its legal actions, the action, then what changed in each view (the table's,
  i.e. a spectator's, and each seat's, kept as the keys where it differs from the table's), and
  finally the result.
"""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.core.state import GameState
from stichwerk.games import get_game

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent
EXAMPLES = ROOT / "docs" / "examples"
GAMES = {"cego": ("schwarzwald", "titisee", "zego"), "doppelkopf": ("wielandstrasse", "ddv")}
SEEDS = (1, 2, 3)
LIMIT = 40_000
"""A position's counts go one depth deeper while the last count is below this."""
MAX_DEPTH = 12
RECORD_LIMIT = 8_000
"""The smaller limit for positions taken from the example records (there are more of them)."""
STATIC = ("game", "profile", "options", "seats", "players", "dealer", "seat")
"""View keys that never change during a deal: written once, in the file's header."""

# Positions in the example records: (record, how many of its actions are applied first).
RECORD_POSITIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "cego": (
        ("solo", "first-play"),
        ("cego", "first-play"),
        ("raeuber", "first-play"),
        ("bettel", "first-play"),
        ("titisee-soli-ulti", "first-play"),
        ("zego-zwei-leere", "first-play"),
        ("five-table-cego", "first-play"),
        ("titisee-drescher", "start"),
    ),
    "doppelkopf": (
        ("wielandstrasse-normal", "first-play"),
        ("wielandstrasse-hochzeit", "first-play"),
        ("wielandstrasse-armut", "first-play"),
        ("wielandstrasse-solo-damen", "first-play"),
        ("ddv-normal", "first-play"),
        ("ddv-hochzeit-reply", "first-play"),
        ("wielandstrasse-armut", "start"),
    ),
}


# --- perft --------------------------------------------------------------------------------------


def moves(state: GameState) -> list[Action]:
    """Every seat's legal actions now, in seat order (none once the deal is over)."""
    if state.is_over:
        return []
    out: list[Action] = []
    seen: set[Action] = set()
    for seat in range(state.seats):
        for action in state.legal_actions(seat):
            if action not in seen:
                seen.add(action)
                out.append(action)
    return out


def perft(state: GameState, depth: int) -> list[int]:
    """The number of distinct legal action sequences of length 1 .. ``depth`` from ``state``."""
    counts = [0] * depth

    def walk(node: GameState, level: int) -> None:
        actions = moves(node)
        counts[level] += len(actions)
        if level + 1 == depth:
            return
        for action in actions:
            child = node.clone()
            child.apply(action)
            walk(child, level + 1)

    walk(state, 0)
    return counts


def grow(state: GameState, limit: int) -> list[int]:
    """Counts one depth deeper at a time while the last stays below ``limit``."""
    depth = 1
    counts = perft(state, depth)
    while counts[-1] and counts[-1] < limit and depth < MAX_DEPTH:
        depth += 1
        counts = perft(state, depth)
    return counts


@dataclass(frozen=True)
class Position:
    """A fixed position: a seeded fresh deal or a point in an example record."""

    game: str
    profile: str | None = None
    seed: int | None = None
    players: int | None = None
    record: str | None = None
    at: str | None = None

    def key(self) -> dict[str, Any]:
        """How the golden file names the position."""
        if self.record is not None:
            return {"record": self.record, "at": self.at}
        out: dict[str, Any] = {"profile": self.profile, "seed": self.seed}
        if self.players is not None:
            out["players"] = self.players
        return out

    def state(self) -> GameState:
        """The position, built through the registry."""
        module = get_game(self.game)
        if self.record is None:
            kwargs: dict[str, Any] = {"profile": self.profile, "seed": self.seed}
            if self.players is not None:
                kwargs["players"] = self.players
            return module.new_deal(**kwargs)
        record = load_record(self.game, self.record)
        state = module.deal_from_record(record)
        for raw in record["actions"]:
            action = Action.from_json(raw)
            if self.at == "first-play" and action.act == "play":
                break
            if self.at == "start":
                break
            state.apply(action)
        return state


def positions(game: str) -> list[Position]:
    """Every fixed position of ``game``, in the golden file's order."""
    out = [Position(game, profile=p, seed=s) for p in GAMES[game] for s in SEEDS]
    out.append(Position(game, profile=GAMES[game][0], seed=4, players=5))
    out += [Position(game, record=r, at=at) for r, at in RECORD_POSITIONS[game]]
    return out


def perft_file(game: str) -> Path:
    """Where ``game``'s perft counts are kept."""
    return GOLDEN / "perft" / f"{game}.json"


def perft_data(game: str) -> dict[str, Any]:
    """``game``'s perft file as the engines compute it now."""
    rows = []
    for position in positions(game):
        limit = RECORD_LIMIT if position.record is not None else LIMIT
        try:
            state = position.state()
        except StichwerkError as exc:
            rows.append({**position.key(), "refused": str(exc)})
            continue
        rows.append({**position.key(), "counts": grow(state, limit)})
    return {
        "game": game,
        "about": "distinct legal action sequences of length 1, 2, ... (every seat's actions); "
        "tests/golden/build.py",
        "positions": rows,
    }


def position_from_key(game: str, key: dict[str, Any]) -> Position:
    """The position a perft file's row names."""
    if "record" in key:
        return Position(game, record=key["record"], at=key["at"])
    return Position(game, profile=key["profile"], seed=key["seed"], players=key.get("players"))


def dump_json(data: dict[str, Any]) -> str:
    """The perft file's text: one position a line, so a diff names it."""
    lines = ["{", f' "game": {json.dumps(data["game"])},']
    lines.append(f' "about": {json.dumps(data["about"])},')
    lines.append(' "positions": [')
    rows = [json.dumps(row, ensure_ascii=False) for row in data["positions"]]
    lines += [f"  {row}," for row in rows[:-1]] + [f"  {rows[-1]}"]
    lines += [" ]", "}", ""]
    return "\n".join(lines)


# --- playthroughs -------------------------------------------------------------------------------


def load_record(game: str, name: str) -> dict[str, Any]:
    """An example record by its file's stem."""
    record: dict[str, Any] = json.loads(
        (EXAMPLES / game / f"{name}.json").read_text(encoding="utf-8")
    )
    return record


def records() -> Iterator[tuple[str, str]]:
    """Every example record, as ``(game, stem)``."""
    for game in GAMES:
        for path in sorted((EXAMPLES / game).glob("*.json")):
            yield game, path.stem


def playthrough_file(game: str, name: str) -> Path:
    """Where the playthrough of an example record is kept."""
    return GOLDEN / "playthroughs" / game / f"{name}.txt"


def compact(value: object) -> str:
    """One line of JSON, no spaces."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def act_text(action: dict[str, Any]) -> str:
    """``s1 play T13``: a seat and what it does (any further key as ``key=value``)."""
    words = [f"s{action['seat']}", str(action["act"])]
    for key, value in action.items():
        if key in ("seat", "act"):
            continue
        if key == "card" or (key == "type" and isinstance(value, str)):
            words.append(str(value))
        elif key == "cards" and isinstance(value, list):
            words += [str(card) for card in value]
        else:
            words.append(f"{key}={compact(value)}")
    return " ".join(words)


def _value(key: str, value: object) -> str:
    """A view's value in a line: action lists as ``[s0 play T22, ...]``, the rest as JSON."""
    if key in ("history", "legal_actions") and isinstance(value, list):
        return "[" + ", ".join(act_text(a) for a in value) + "]"
    return compact(value)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What changed from ``old`` to ``new``: ``key=value``, ``history+=...``, ``-key``."""
    parts = []
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        before = old.get(key)
        if (
            key == "history"
            and isinstance(before, list)
            and isinstance(value, list)
            and value[: len(before)] == before
        ):
            parts.append(f"history+={_value(key, value[len(before) :])}")
        else:
            parts.append(f"{key}={_value(key, value)}")
    parts += [f"-{key}" for key in old if key not in new]
    return parts


def _views(state: GameState) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The table's view (a spectator's) and each seat's, the latter as where it differs."""
    table = {k: v for k, v in state.view(None).items() if k not in STATIC}
    seats = []
    for seat in range(state.seats):
        view = state.view(seat)
        seats.append({k: v for k, v in view.items() if k not in STATIC and table.get(k, ...) != v})
    return table, seats


def playthrough(game: str, name: str) -> str:
    """The playthrough text of one example record."""
    record = load_record(game, name)
    state = get_game(game).deal_from_record(record)
    first = state.view(None)
    lines = [
        f"# {game}/{name}.json replayed: tests/golden/build.py; tools/golden.py --write rewrites",
        "# Each step: the seat to act and its legal actions, the action, then what changed in",
        "# the table's view (a spectator's) and in each seat's (where it differs from the",
        "# table's);",
        "# key=value: the new value; history+=[...]: entries added; -key: now as the table's.",
        "header " + " ".join(f"{k}={compact(first.get(k))}" for k in STATIC if k != "seat"),
    ]
    table, seats = _views(state)
    lines.append("table " + " ".join(_diff({}, table)))
    for seat, view in enumerate(seats):
        lines.append(f"seat {seat} " + " ".join(_diff({}, view)))
    for index, raw in enumerate(record["actions"]):
        action = Action.from_json(raw)
        to_act = state.to_act
        legal = [a.to_json() for a in state.legal_actions(to_act)] if to_act is not None else []
        lines.append("")
        lines.append(f"step {index} to_act={to_act} legal: {', '.join(map(act_text, legal))}")
        try:
            done = state.apply(action)
        except StichwerkError as exc:
            lines.append(f"refused {act_text(action.to_json())}: {exc}")
            lines.append("")
            return "\n".join(lines)
        lines.append(f"action {act_text(done.to_json())}")
        new_table, new_seats = _views(state)
        lines.append("table " + " ".join(_diff(table, new_table)))
        for seat, (old, new) in enumerate(zip(seats, new_seats, strict=True)):
            changes = _diff(old, new)
            if changes:
                lines.append(f"seat {seat} " + " ".join(changes))
        table, seats = new_table, new_seats
    lines.append("")
    lines.append(f"result {compact(state.result())}")
    lines.append("")
    return "\n".join(lines)


def first_difference(expected: str, actual: str) -> str:
    """The first line where two texts differ, for a failure message."""
    old, new = expected.splitlines(), actual.splitlines()
    for number, (a, b) in enumerate(zip(old, new, strict=False), start=1):
        if a != b:
            return f"line {number}:\n  golden: {a}\n  now:    {b}"
    if len(old) != len(new):
        line = min(len(old), len(new)) + 1
        return f"line {line}: golden has {len(old)} lines, now {len(new)}"
    return "no difference"


def expected_files() -> dict[Path, str]:
    """Every golden file's text as the engines give it now."""
    out = {perft_file(game): dump_json(perft_data(game)) for game in GAMES}
    for game, name in records():
        out[playthrough_file(game, name)] = playthrough(game, name)
    return out


def stale_files(expected: dict[Path, str]) -> list[Path]:
    """Golden files no example or game asks for any more (a record removed or renamed)."""
    present = sorted((GOLDEN / "playthroughs").glob("*/*.txt")) + sorted(
        (GOLDEN / "perft").glob("*.json")
    )
    return [path for path in present if path not in expected]
