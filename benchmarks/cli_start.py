"""How long ``stichwerk`` takes as a whole process: ``--help``, ``score`` of a summary and
``replay`` of an example record (median and worst of several runs), beside a bare
``python -c pass`` in the same run as the reference (the machine is shared and noisy).

    python benchmarks/cli_start.py [--runs 9]

Targets (issue 33): ``--help`` and ``score`` under 0.3 s, ``replay`` under 0.5 s.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
SUMMARY = {"game": "doppelkopf", "profile": "wielandstrasse", "players": 4,
           "game_type": "normal", "re": [0, 2], "re_augen": 160}  # fmt: skip


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command")
    args = parser.parse_args()
    stichwerk = str(Path(sys.executable).with_name("stichwerk"))
    record = str(ROOT / "docs" / "examples" / "doppelkopf" / "ddv-normal.json")
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "summary.json"
        summary.write_text(json.dumps(SUMMARY), encoding="utf-8")
        cases = {
            "python -c pass (reference)": [sys.executable, "-c", "pass"],
            "stichwerk --help": [stichwerk, "--help"],
            "stichwerk score": [stichwerk, "score", str(summary)],
            "stichwerk replay": [stichwerk, "replay", record],
            "stichwerk tournament --help": [stichwerk, "tournament", "--help"],
        }  # fmt: skip
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):  # alternate, so a busy moment hits every case alike
            for name, argv in cases.items():
                times[name].append(timed(argv))
    print(f"{'command':<30} {'median':>8} {'worst':>8}")
    for name, values in times.items():
        print(f"{name:<30} {statistics.median(values):>7.3f}s {max(values):>7.3f}s")


if __name__ == "__main__":
    main()
