"""The search bot's speed: its throughput and its decisions at the default budget, on the
pure-Python path and on the compiled kernel, side by side in one run.

- Throughput: determinizations (sampled worlds) and roll-outs (a world sampled for it, played to
  the end with the heuristic policy, scored) per second of CPU time, from mid-deal positions.
- Decisions: whole deals where every seat is the search bot at its default budget: the worlds
  and roll-outs one decision buys, the median, 99th percentile and longest decision (wall
  time), and the peak memory of the process.

Pinned to one core. ``.venv/bin/python benchmarks/search_speed.py --game cego --deals 10``
(``--python-only`` leaves the kernel out, as on a machine without numba.)
"""

import argparse
import importlib
import os
import resource
import time

from stichwerk.bots.base import make_bot
from stichwerk.games import get_game


def decisions(game: str, deals: int, compiled: bool) -> None:
    module = get_game(game)
    times: list[float] = []
    worlds: list[int] = []
    rollouts: list[int] = []
    seats = 4
    for deal in range(deals):
        state = module.new_deal(players=seats, dealer=deal % seats, seed=f"latency-{deal}")
        bots = [make_bot("search", game, f"{deal}-{s}", compiled=compiled) for s in range(seats)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            bot = bots[seat]
            plays = sum(a["act"] == "play" for a in view["legal_actions"])
            start = time.perf_counter()
            action = bot.act(view)
            took = time.perf_counter() - start
            if len(view["legal_actions"]) > 1:
                times.append(took)
            if plays > 1 and getattr(bot, "worlds_last", 0):
                worlds.append(bot.worlds_last)
                rollouts.append(bot.rollouts_last)
                bot.worlds_last = 0
            state.apply(action)
    times.sort()
    worlds.sort()
    rollouts.sort()
    median = times[len(times) // 2]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    label = "compiled" if compiled else "python"
    print(
        f"{game} {label}: {len(times)} decisions over {deals} deals: median {median:.3f} s, "
        f"99th percentile {p99:.3f} s, longest {times[-1]:.3f} s; a card decision samples a "
        f"median {worlds[len(worlds) // 2]:,} worlds, {rollouts[len(rollouts) // 2]:,} "
        f"roll-outs",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="cego")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--python-only", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    module = importlib.import_module(f"stichwerk.bots.{args.game}.search")
    paths = [False] if args.python_only else [False, True]
    rates = {}
    for compiled in paths:
        if compiled:
            module.throughput(0.2, compiled=True)  # compile, or load from the cache
        rates[compiled] = r = module.throughput(args.seconds, compiled=compiled)
        label = "compiled" if compiled else "python"
        print(
            f"{args.game} {label}: {r['determinizations_per_s']:,.0f} determinizations/s, "
            f"{r['rollouts_per_s']:,.0f} roll-outs/s (one core, CPU time)",
            flush=True,
        )
    if len(rates) == 2:
        ratio = rates[True]["rollouts_per_s"] / rates[False]["rollouts_per_s"]
        print(f"{args.game}: roll-outs/s compiled : python = {ratio:,.0f}", flush=True)
    for compiled in paths:
        decisions(args.game, args.deals, compiled)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
