"""The folder layout is the architecture: the rules import nothing of the layers above them."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "src" / "stichwerk"

# package -> the stichwerk packages it may import
ALLOWED = {
    "core": {"core"},
    "cego": {"core", "cego"},
    "doppelkopf": {"core", "doppelkopf"},
    "sheet": {"core", "games", "sheet"},
    "tournament": {"core", "tournament"},
    "analysis": {"core", "games", "bots", "analysis"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "stichwerk":
                found.add(parts[1] if len(parts) > 1 else "")
    return found


def test_rules_import_nothing_of_bots_cli_server_or_storage() -> None:
    checked = 0
    for package, allowed in ALLOWED.items():
        for path in sorted((PACKAGE / package).glob("**/*.py")):
            wrong = imported_packages(path) - allowed
            assert not wrong, f"{path.relative_to(PACKAGE)} imports stichwerk.{sorted(wrong)}"
            checked += 1
    assert checked >= 10
