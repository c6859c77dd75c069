"""The kernel ↔ engine differential over 100,000 random deals per profile (the long run).

For each profile, deals dealt from seeds ``0 .. N-1`` are taken through the bidding (Cego: a
random policy leaning to ``fort``/``gut``, so every contract comes up; Doppelkopf: reservations,
Hochzeit, Armut and solos by a random policy) and then played through the validated engine and
the compiled kernel with the same random actions (Doppelkopf: announcements and the Sau among
them): the seat to act and its legal cards (and every seat's legal announcements) must be the
same at every step, and the settlement at the end. The first disagreement stops the run with its
seed; ``tests/kernel`` runs the same drivers under hypothesis, which shrinks it.

Also the roll-out policy: the same deals played by the search bots' policy in Python and in the
kernel must give the same card at every step (``--policy``).

    PYTHONPATH=. .venv/bin/python benchmarks/kernel_differential.py [--deals 100000]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.kernel.differential import (
    cego_deal,
    cego_policy,
    doko_deal,
    doko_policy,
)

CEGO = (("schwarzwald", 4), ("titisee", 4), ("zego", 3))
DOKO = ("wielandstrasse", "ddv")
BIASES = (0.0, 0.7, 0.95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--policy", action="store_true", help="also the roll-out policy")
    parser.add_argument("--game", choices=("cego", "doppelkopf", "both"), default="both")
    args = parser.parse_args()
    n = args.deals
    if args.game in ("cego", "both"):
        for profile, seats in CEGO:
            start = time.perf_counter()
            played = steps = 0
            for seed in range(n):
                # Every table size of the profile in turn (3, 4 and 5 seats where allowed).
                table = (seats, 5, 3 if seats == 4 else 4)[seed % 3]
                done = cego_deal(profile, table, seed, BIASES[seed % 3])
                steps += done
                played += done > 0
                if args.policy:
                    cego_policy(profile, table, seed, BIASES[seed % 3])
            took = time.perf_counter() - start
            print(
                f"cego {profile}: {n:,} deals, {played:,} reached the play, {steps:,} card "
                f"plays compared, all equal ({took:.0f} s)",
                flush=True,
            )
    if args.game in ("doppelkopf", "both"):
        for profile in DOKO:
            start = time.perf_counter()
            played = steps = 0
            for seed in range(n):
                table = 5 if seed % 4 == 3 else 4
                done = doko_deal(profile, seed, table)
                steps += done
                played += done > 0
                if args.policy:
                    doko_policy(profile, seed, table, public=seed % 2 == 0)
            took = time.perf_counter() - start
            print(
                f"doppelkopf {profile}: {n:,} deals, {played:,} reached the play, {steps:,} "
                f"steps compared (cards, announcements, Sau), all equal ({took:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
