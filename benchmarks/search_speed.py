"""The search bot's speed: its own throughput, and its decisions at the default budget.

- Throughput: determinizations (sampled worlds) and full roll-outs (world, play to the end with
  the heuristic policy, score) per second, from mid-deal positions.
- Decisions: full deals where every seat is the search bot at its default budget; the median,
  99th percentile and longest decision, and the peak memory of the process.

Pinned to one core. ``.venv/bin/python benchmarks/search_speed.py --game cego --deals 20``
"""

import argparse
import importlib
import os
import resource
import time

from stichwerk.bots.base import make_bot
from stichwerk.games import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="cego")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    module = importlib.import_module(f"stichwerk.bots.{args.game}.search")
    rates = module.throughput(args.seconds)
    print(
        f"{args.game}: {rates['determinizations_per_s']:,.0f} determinizations/s, "
        f"{rates['rollouts_per_s']:,.0f} roll-outs/s"
    )
    game = get_game(args.game)
    times: list[float] = []
    seats = 4
    for deal in range(args.deals):
        state = game.new_deal(players=seats, dealer=deal % seats, seed=f"latency-{deal}")
        bots = [make_bot("search", args.game, f"{deal}-{s}") for s in range(seats)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if len(view["legal_actions"]) > 1:
                start = time.perf_counter()
                action = bots[seat].act(view)
                times.append(time.perf_counter() - start)
            else:
                action = bots[seat].act(view)
            state.apply(action)
    times.sort()
    median = times[len(times) // 2]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{len(times)} decisions with a choice over {args.deals} deals: median {median:.3f} s, "
        f"99th percentile {p99:.3f} s, longest {times[-1]:.3f} s; peak memory {peak_mb:.0f} MB"
    )


if __name__ == "__main__":
    main()
