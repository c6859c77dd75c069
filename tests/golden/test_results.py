"""The measurement files keep their shape: one per benchmark, dated runs, newest first.

``benchmarks/results/<benchmark>.md`` holds every recorded run of a benchmark under a heading
``## YYYY-MM-DD: what``; a new run goes on top. The docs for people link to them and keep only
the latest figures, so a link must lead to a file that is there.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
RESULTS = ROOT / "benchmarks" / "results"
FILES = sorted(p for p in RESULTS.glob("*.md") if p.name != "README.md")
HEADING = re.compile(r"^## (\d{4}-\d{2}-\d{2}): \S", re.MULTILINE)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_runs_are_dated_newest_first(path: Path) -> None:
    dates = HEADING.findall(path.read_text(encoding="utf-8"))
    assert dates, f"{path.name}: no '## YYYY-MM-DD: ...' heading"
    assert dates == sorted(dates, reverse=True), f"{path.name}: runs not newest first: {dates}"


def test_every_results_file_is_listed_and_every_link_leads_to_one() -> None:
    index = (RESULTS / "README.md").read_text(encoding="utf-8")
    for path in FILES:
        assert f"`{path.name}`" in index, f"{path.name} is not in benchmarks/results/README.md"
    for doc in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md"]:
        for name in re.findall(r"benchmarks/results/([\w-]+\.md)", doc.read_text("utf-8")):
            assert (RESULTS / name).is_file(), f"{doc.name} names benchmarks/results/{name}"
