"""Compile the numba kernels once, before anyone waits on them: ``python -m stichwerk.bots.warm``.

numba compiles a kernel the first time it is called and keeps the machine code in the
``__pycache__`` beside its module (``cache=True``), so every later process loads it at once. On
a fresh install that first call is the first search decision at a table or in a test: about a
minute of compiling (most of it the Doppelkopf search) while a player waits. ``make run`` and
``make test`` run this first. It plays the kernels' own deals, then one deal of each game with
both searches (today's and the first) at the table: bidding, announcements and cards, every
kernel a search calls. Once the cache is there it takes a second or two. Without numba (no
``research`` extra) there is nothing to compile and it says so.
"""

import sys
import time

from stichwerk.arena import ArenaSpec, play_deal
from stichwerk.bots.doppelkopf import rollouts


def warm() -> list[tuple[str, float]]:
    """Call every kernel entry point once; the seconds each step took."""
    from stichwerk.bots.cego import playout as cego_playout
    from stichwerk.bots.doppelkopf import playout as doppelkopf_playout
    from stichwerk.bots.doppelkopf.rollouts import policy_tables
    from stichwerk.doppelkopf.profiles import DDV

    steps: list[tuple[str, float]] = []
    start = time.perf_counter()
    for name, run in (
        ("Cego kernel", cego_playout.warm_up),
        ("Doppelkopf kernel", lambda: doppelkopf_playout.warm_up(policy_tables(DDV))),
        ("Cego search", lambda: _search_deal("cego", "schwarzwald")),
        ("Doppelkopf search", lambda: _search_deal("doppelkopf", "ddv")),
    ):
        run()
        now = time.perf_counter()
        steps.append((name, now - start))
        start = now
    return steps


def _search_deal(game: str, profile: str) -> None:
    # Few worlds: the point is to call each kernel, not to play well. Two searches (the first
    # still plays in arenas and benchmarks) in both rotations.
    few = {"worlds": 4}
    bots = ("search", "search-v1")
    play_deal(ArenaSpec(game, profile, bots, 1, 4, bot_params=dict.fromkeys(bots, few)), 0)


def main() -> int:
    if not rollouts.available():
        print("stichwerk.bots.warm: numba is not installed; the bots search in Python")
        return 0
    for name, seconds in warm():
        print(f"{name}: {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
