"""The figures of one or more ``strength_arena.py --log`` files taken together.

Runs of the same bots, profile and budget on different seeds (one process per core) play
different deals; their logs pool into one sample of duplicate deals:

    .venv/bin/python benchmarks/arena_logs.py /tmp/ddv.jsonl /tmp/ddv-b.jsonl
"""

import argparse
import json
from pathlib import Path

from stichwerk.arena import BotStats
from strength_arena import quantile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logs", type=Path, nargs="+")
    parser.add_argument("--bots", default="search,search-v1", help="as the runs were given")
    args = parser.parse_args()
    names = args.bots.split(",")
    samples: list[list[float]] = []
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for log in args.logs:
        for line in log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            samples.append(row["per_bot"])
            for name in names:
                cpu[name].extend(row["cpu"][name])
    print(f"{len(samples)} duplicate deals from {len(args.logs)} log(s)")
    for b, name in enumerate(names):
        s = BotStats(name, [row[b] for row in samples])
        median, p99 = quantile(cpu[name], 0.5), quantile(cpu[name], 0.99)
        print(f"  {name:<10} against the table {s.mean:+.3f} [{s.mean - s.half_width:+.3f},"
              f" {s.mean + s.half_width:+.3f}]; CPU per decision median {median:.3f} s,"
              f" p99 {p99:.3f} s")  # fmt: skip
    d = BotStats("difference", [row[0] - row[1] for row in samples])
    print(f"  {names[0]} - {names[1]} per deal: {d.mean:+.3f}"
          f" [{d.mean - d.half_width:+.3f}, {d.mean + d.half_width:+.3f}]")  # fmt: skip


if __name__ == "__main__":
    main()
