"""The search against the first search (``search-v1``) on duplicate deals, with decision times.

Both bots get the same budget per decision (``--budget`` seconds for a card; the new search
spends up to four times that on a decision before the play, as by default). The arena
(``stichwerk.arena``) deals each deal once and plays it in every rotation of the bots through
the seats; the figure is the new search's mean per deal against the table with its 95%
interval. Each decision's time is taken per bot in wall time and in the thread's CPU time.

``--cpu`` keeps the budgets in CPU time (``stichwerk.bots.clock``), so that a machine busy with
other programs does not starve one bot more than the other; the run is in one process (pin it
to a core with ``taskset -c N`` for one-core figures).

    taskset -c 0 .venv/bin/python benchmarks/strength_arena.py --game cego \\
        --profile schwarzwald --deals 300 --budget 0.1 --cpu

``search-v1`` runs on the compiled kernel wherever numba is installed, so by default the run
measures what the new search adds beyond the kernel's speed. ``--params2 '{"compiled": false}'``
plays ``search-v1`` as issue 15 found it, its roll-outs in Python (2.5-3.6k a second), at the
same budget: the new search against the search it was asked to beat.
"""

import argparse
import json
import math
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from stichwerk import arena
from stichwerk.arena import ArenaSpec, BotStats, run_arena
from stichwerk.bots import clock
from stichwerk.bots.base import Bot, View, make_bot
from stichwerk.core.action import Action

WALL: dict[str, list[float]] = defaultdict(list)
CPU: dict[str, list[float]] = defaultdict(list)


class Timed:
    """A bot whose every decision is timed (wall and thread CPU time)."""

    def __init__(self, name: str, bot: Bot) -> None:
        self.name = name
        self.bot = bot

    def act(self, view: View) -> Action:
        wall, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.act(view)
        WALL[self.name].append(time.perf_counter() - wall)
        CPU[self.name].append(time.thread_time() - cpu)
        return action


def timed_make_bot(name: str, game: str, seed: int | str = 0, **params: Any) -> Bot:
    return Timed(name, make_bot(name, game, seed, **params))


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else math.nan


def _play(spec: ArenaSpec, log: Path | None) -> tuple[list[list[float]], float]:
    """Every deal of ``spec`` in all rotations: per deal each bot's score. With ``log``, each
    deal's scores and decision times are appended as it ends, and the deals already there are
    read back instead of played again (their times too)."""
    samples: list[list[float]] = []
    if log is not None and log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            samples.append(row["per_bot"])
            for name in spec.bots:
                WALL[name].extend(row["wall"][name])
                CPU[name].extend(row["cpu"][name])
    start = time.time()
    handle = None
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        handle = log.open("a", encoding="utf-8")
    try:
        for i in range(len(samples), spec.deals):
            marks = {n: (len(WALL[n]), len(CPU[n])) for n in spec.bots}
            outcome = arena.play_deal(spec, i)
            samples.append(outcome.per_bot)
            if handle is not None:
                row = {
                    "deal": i,
                    "per_bot": outcome.per_bot,
                    "wall": {n: WALL[n][marks[n][0] :] for n in spec.bots},
                    "cpu": {n: CPU[n][marks[n][1] :] for n in spec.bots},
                }
                handle.write(json.dumps(row) + "\n")
                handle.flush()
    finally:
        if handle is not None:
            handle.close()
    return samples, start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="cego")
    parser.add_argument("--profile", default=None)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--bots", default="search,search-v1")
    parser.add_argument("--params", default="{}", help="JSON: extra parameters of the first bot")
    parser.add_argument(
        "--params2",
        default="{}",
        help="JSON: extra parameters of the second bot ('{\"compiled\": false}': search-v1 as"
        " the issue found it, on the pure-Python path)",
    )
    parser.add_argument("--cpu", action="store_true", help="budgets in CPU time")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument(
        "--log",
        type=Path,
        default=None,
        help="JSON lines, one per deal as it is played (a rerun with the same log goes on where"
        " it stopped)",
    )
    args = parser.parse_args()
    if args.cpu:
        clock.use_cpu_time()
    profile = args.profile or ("schwarzwald" if args.game == "cego" else "wielandstrasse")
    seats = 3 if profile == "zego" else 4
    names = tuple(args.bots.split(","))
    params: dict[str, dict[str, Any]] = {
        n: {"budget": args.budget} if "search" in n else {} for n in names
    }
    params[names[0]].update(json.loads(args.params))
    params[names[1]].update(json.loads(args.params2))
    arena.make_bot = timed_make_bot  # type: ignore[assignment]
    spec = ArenaSpec(args.game, profile, names, args.deals, seats, args.seed, {}, params)
    run_arena(ArenaSpec(args.game, profile, names, 1, seats, "check", {}, params), workers=1)
    WALL.clear()
    CPU.clear()
    samples, start = _play(spec, args.log)
    wall = time.time() - start
    out: dict[str, Any] = {
        "game": args.game,
        "profile": profile,
        "deals": args.deals,
        "seats": seats,
        "budget": args.budget,
        "params": [json.loads(args.params), json.loads(args.params2)],
        "clock": "cpu" if args.cpu else "wall",
        "seconds": round(wall),
        "bots": {},
    }
    for b, name in enumerate(names):
        s = BotStats(name, [row[b] for row in samples])
        lo, hi = s.mean - s.half_width, s.mean + s.half_width
        print(f"{args.game} {profile} {s.name:<10} {s.mean:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        out["bots"][s.name] = {
            "mean": s.mean,
            "half_width": s.half_width,
            "decisions": len(WALL[s.name]),
            "wall_median": quantile(WALL[s.name], 0.5),
            "wall_p99": quantile(WALL[s.name], 0.99),
            "cpu_median": quantile(CPU[s.name], 0.5),
            "cpu_p99": quantile(CPU[s.name], 0.99),
        }
    diff = BotStats("difference", [row[0] - row[1] for row in samples])
    out["difference"] = {"mean": diff.mean, "half_width": diff.half_width, "deals": len(samples)}
    lo, hi = diff.mean - diff.half_width, diff.mean + diff.half_width
    print(f"{names[0]} - {names[1]} per deal: {diff.mean:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    for name, b in out["bots"].items():
        print(
            f"  {name}: {b['decisions']} decisions, wall median {b['wall_median']:.3f} s"
            f" p99 {b['wall_p99']:.3f} s; CPU median {b['cpu_median']:.3f} s"
            f" p99 {b['cpu_p99']:.3f} s"
        )
    print(f"{args.deals} duplicate deals, budget {args.budget} s ({out['clock']}), {wall:.0f} s")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
