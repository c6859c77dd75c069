"""The search bot on the compiled kernel against today's search (pure-Python roll-outs), at the
same time budget per decision, on duplicate deals (``stichwerk.arena``).

``search`` rolls out on the kernel; ``search-python`` is the same bot with ``compiled=False``
(registered here only, for this match). Both get ``--budget`` seconds per decision; the kernel's
search fills it with far more worlds (up to its ``max_worlds``), the Python one with what it can.

    .venv/bin/python benchmarks/search_arena.py --game cego --deals 200 --budget 0.05
"""

import argparse
from typing import Any

from stichwerk.arena import ArenaSpec, run_arena
from stichwerk.bots.base import Bot, register_bot
from stichwerk.bots.players import make_search


def make_search_python(game: str, seed: int | str = 0, **params: Any) -> Bot:
    """Today's search: the pure-Python roll-outs."""
    return make_search(game, seed, compiled=False, **params)


register_bot("search-python", __name__, "make_search_python")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="cego")
    parser.add_argument("--profile", default=None)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", default="kernel-arena")
    args = parser.parse_args()
    profile = args.profile or ("schwarzwald" if args.game == "cego" else "wielandstrasse")
    params = {"budget": args.budget}
    spec = ArenaSpec(
        args.game,
        profile,
        ("search", "search-python"),
        args.deals,
        4,
        args.seed,
        {},
        {"search": params, "search-python": params},
    )
    result = run_arena(spec, workers=args.workers)
    for s in result.stats:
        lo, hi = s.mean - s.half_width, s.mean + s.half_width
        print(f"{args.game} {profile} {s.name:<14} {s.mean:+.2f} [{lo:+.2f}, {hi:+.2f}] per deal")
    times = sorted(result.decision_seconds)
    print(
        f"{args.deals} duplicate deals at {args.budget} s per decision; decisions: {len(times)}, "
        f"median {times[len(times) // 2]:.4f} s"
    )


if __name__ == "__main__":
    main()
