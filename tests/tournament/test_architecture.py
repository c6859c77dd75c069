"""The tournament package is pure: it imports only the core, nothing of the layers above."""

from pathlib import Path

from tests.core.test_architecture import imported_packages

PACKAGE = Path(__file__).parents[2] / "src" / "stichwerk"


def test_tournament_imports_only_the_core() -> None:
    files = sorted((PACKAGE / "tournament").glob("**/*.py"))
    assert len(files) >= 5
    for path in files:
        wrong = imported_packages(path) - {"core", "tournament"}
        assert not wrong, f"{path.relative_to(PACKAGE)} imports stichwerk.{sorted(wrong)}"
