"""Nothing outside an engine branches on a game's or a contract's name.

What a game's deal means (its sides for the ratings, how its list settles, whether it has
Pflicht-Soli) is asked of the engine through the registry (``GameModule``); code that compares a
name with ``"cego"`` or ``"solo"`` instead would treat a new game or contract as some other one
without a word. This test reads every module of ``src/stichwerk`` outside the engines and the
bots' per-game packages and fails on a comparison (``==``, ``!=``, ``in``, ``not in``, a ``match``
case) with a game, contract, game type, solo or reservation name, unless the module is on the
short list below, with its reason.
"""

import ast
from pathlib import Path

from stichwerk.cego.contracts import ALL_CONTRACTS
from stichwerk.doppelkopf.profiles import GAME_TYPES, RESERVATION_KINDS, SOLO_TYPES
from stichwerk.games import game_names

SRC = Path(__file__).resolve().parents[1] / "src" / "stichwerk"
ENGINES = ("cego/", "doppelkopf/", "bots/cego/", "bots/doppelkopf/")
"""The games' own packages: the only places that know their names."""
NAMES = frozenset(
    {*game_names(), *ALL_CONTRACTS, *GAME_TYPES, *SOLO_TYPES, *RESERVATION_KINDS, "solo"}
)
ALLOWED: dict[str, tuple[frozenset[str], str]] = {
    "cli/play_doppelkopf.py": (
        frozenset({"solo"}),
        "the Doppelkopf terminal game: it reads the typed word 'solo' as Doppelkopf's action",
    ),
    "research/actions.py": (
        frozenset({"cego", "doppelkopf"}),
        "OpenSpiel's fixed action numbering is laid out per game",
    ),
    "research/observation.py": (
        frozenset({"cego"}),
        "OpenSpiel's observation tensors are laid out per game",
    ),
    "research/simulate.py": (
        frozenset({"cego"}),
        "research runs choose each game's own fast simulator",
    ),
    "research/spiel.py": (
        frozenset({"cego"}),
        "the OpenSpiel game wrappers declare each game's shape (players, utilities)",
    ),
    "research/table.py": (frozenset({"cego"}), "research tables per game, as the papers' tables"),
    "research/worlds.py": (
        frozenset({"cego", "doppelkopf", "raeuber", "geiss", "ulti", "soli-ulti"}),
        "the research world sampler reads each game's hidden-card rules",
    ),
}
"""Modules outside the engines that may compare these names, and which names: a per-game
research or terminal tool is about its game by design. A name not listed here fails."""


def _strings(node: ast.AST | None) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for element in node.elts for s in _strings(element)]
    return []


def name_comparisons(source: str) -> list[tuple[int, str]]:
    """Each ``(line, name)`` where ``source`` compares a value with a game or contract name.

    >>> name_comparisons('if game == "cego":\\n    pass\\nx = {"cego": 1}')
    [(1, 'cego')]
    >>> name_comparisons('ok = contract not in ("raeuber", "x")')
    [(1, 'raeuber')]
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        values: list[str] = []
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn):
                    values += _strings(node.left) + _strings(right)
        elif isinstance(node, ast.match_case) and isinstance(node.pattern, ast.MatchValue):
            values += _strings(node.pattern.value)
        found += [(getattr(node, "lineno", 0), v) for v in values if v in NAMES]
    return sorted(set(found))


def test_the_names_cover_both_games() -> None:
    assert {"cego", "doppelkopf", "raeuber", "solo", "hochzeit", "solo-damen"} <= NAMES


def test_nothing_outside_the_engines_branches_on_a_game_or_contract_name() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(ENGINES):
            continue
        allowed = ALLOWED.get(rel, (frozenset(), ""))[0]
        for line, name in name_comparisons(path.read_text(encoding="utf-8")):
            if name not in allowed:
                problems.append(f"src/stichwerk/{rel}:{line}: compares with {name!r}")
    assert not problems, (
        "ask the engine through the registry (GameModule) instead of comparing names:\n"
        + "\n".join(problems)
    )
