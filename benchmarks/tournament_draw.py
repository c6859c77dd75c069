"""The tournament draw (Spielplan) against random draws and against what is possible.

For every player count the Wielandstraße format seats from 8 to ``--max`` (default 120), and
for 200, the Vorrunde (3 rounds) is drawn by ``stichwerk.tournament.draw_vorrunde`` and
compared with

- one random draw (each round a shuffle of the players into the same tables),
- the best of ``--random`` (default 1,000) random draws,
- the fewest repeats any draw can have: an exhaustive search where it finishes (small fields,
  ``--exact-up-to``), else the counting and pigeonhole bounds of ``stichwerk.tournament.bounds``;
  where our draw has no repeated pair, 0 is both the bound and found.

A repeated pair is a meeting beyond a pair's first (a pair meeting in all three rounds counts 2).
Also printed: the 5-table seats per player in our draw (fewest to most) and their spread (most
less fewest) beside the least spread a draw with the fewest repeats can have ("least": 1, or
what ``KNOWN_SPREAD`` proves by exhaustive search, or 2 where the pigeonhole argument of
``docs/tournaments.md`` allows no even spread without a repeated pair), the same for the rounds
drawn one at a time (``draw_round``, as the web app draws them; ``--no-rounds`` skips it), the
draw's time, and that time as a ratio of the 1,000 random draws' (the reference run of this
script). Targets: no repeated pair wherever one is possible, never worse than the best random
draw, the least spread everywhere, and under 2 s for 200 players.

    .venv/bin/python benchmarks/tournament_draw.py [--max 120] [--random 1000] [--seed 1]
"""

import argparse
import random
import time

from stichwerk.tournament import (
    WIELANDSTRASSE,
    Round,
    draw_round,
    draw_vorrunde,
    repeated_pairs,
    seats_at,
)
from stichwerk.tournament.bounds import exact_minimum, lower_bound
from stichwerk.tournament.draw import KNOWN_SPREAD, spread

SPREAD_TWO = {21, 22, 23, 26}
"""No even spread of 5-table seats without a repeated pair (pigeonhole, docs/tournaments.md)."""


def least_spread(mix: tuple[int, ...]) -> int:
    """The least spread a draw with the fewest repeats can have, as far as it is known."""
    if 5 not in mix or 4 not in mix:
        return 0
    known = KNOWN_SPREAD.get((4, 3, tuple(sorted(mix))))
    if known is not None:
        return known
    if sum(mix) in SPREAD_TWO:
        return 2
    return 0 if 3 * sum(s for s in mix if s == 5) % sum(mix) == 0 else 1


def random_draw(n: int, mix: tuple[int, ...], rounds: int, rng: random.Random) -> list[Round]:
    out = []
    for r in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        tables, i = [], 0
        for size in mix:
            tables.append(tuple(order[i : i + size]))
            i += size
        out.append(Round(r + 1, tuple(tables)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=120, help="largest player count (120)")
    parser.add_argument("--random", type=int, default=1000, help="random draws per count")
    parser.add_argument("--seed", default="1", help="seed of our draws and the random ones")
    parser.add_argument(
        "--exact-up-to", type=int, default=16, help="exhaustive search up to this many players"
    )
    parser.add_argument(
        "--no-rounds", action="store_true", help="skip the round-by-round draw (draw_round)"
    )
    parser.add_argument(
        "--seeds", type=int, default=1, help="also draw this many seeds in advance: the worst"
    )
    args = parser.parse_args()
    fmt = WIELANDSTRASSE
    counts = [n for n in range(8, args.max + 1) if fmt.fits(n)]
    if 200 not in counts:
        counts.append(200)
    header = (
        f"{'N':>4} {'tables':>14} {'ours':>5} {'random':>6} {'best of':>7} {'bound':>6} "
        f"{'':6} {'5-seats':>7} {'spread':>6} {'least':>5} {'rbr':>9} {'worst':>6} "
        f"{'time s':>7} {'ratio':>6} {'rbr s':>6}"
    )
    print(f"Wielandstraße Vorrunde, 3 rounds; best of {args.random} random draws; seed {args.seed}")
    print(header)
    rows = []
    worsts = []
    for n in counts:
        mix = fmt.table_mix(n)
        start = time.perf_counter()
        plan = draw_vorrunde(fmt, n, args.seed)
        ours_time = time.perf_counter() - start
        ours = plan.repeats()
        rng = random.Random(f"{args.seed}-{n}")
        start = time.perf_counter()
        samples = [repeated_pairs(random_draw(n, mix, 3, rng)) for _ in range(args.random)]
        random_time = time.perf_counter() - start
        bound, how = lower_bound([mix] * 3), "bound"
        if ours == 0:
            bound, how = 0, "found"
        elif n <= args.exact_up_to:
            exact = exact_minimum([mix] * 3, node_limit=20_000_000)
            if exact is not None:
                bound, how = exact, "exact"
        five = seats_at(plan.rounds, (5,))
        counts = [five[p] for p in range(n)]
        least = least_spread(mix)
        rbr, rbr_time = "-", 0.0
        if not args.no_rounds:
            start = time.perf_counter()
            rounds: list[Round] = []
            for _ in range(3):
                rounds.append(draw_round(fmt, list(range(n)), rounds, args.seed))
            rbr_time = time.perf_counter() - start
            seats = seats_at(rounds, (5,))
            rbr = f"{repeated_pairs(rounds)}/{spread(seats[p] for p in range(n))}"
        # the worst of --seeds draws (repeats, then spread), seeds 1, 2, ...
        worst = (ours, spread(counts))
        for extra in range(1, args.seeds):
            other = draw_vorrunde(fmt, n, f"{args.seed}+{extra}")
            seats = seats_at(other.rounds, (5,))
            worst = max(worst, (other.repeats(), spread(seats[p] for p in range(n))))
        tables = f"{mix.count(4)}x4" + (f"+{mix.count(5)}x5" if 5 in mix else "")
        row = (n, ours, samples[0], min(samples), bound, how, ours_time, spread(counts), least)
        worsts.append((*worst, bound, least))
        rows.append(row)
        print(
            f"{n:>4} {tables:>14} {ours:>5} {samples[0]:>6} {min(samples):>7} {bound:>6} "
            f"{how:6} {min(counts):>3}-{max(counts):<3} {spread(counts):>6} {least:>5} "
            f"{rbr:>9} {worst[0]:>3}/{worst[1]:<2} {ours_time:>7.2f} "
            f"{ours_time / random_time:>6.2f} {rbr_time:>6.2f}",
            flush=True,
        )
    optimal = sum(1 for r in rows if r[1] == r[4])
    not_worse = sum(1 for r in rows if r[1] <= r[3])
    zero_possible = [r for r in rows if r[4] == 0]
    print()
    print(f"player counts: {len(rows)}")
    print(f"ours at the bound (proven fewest): {optimal} of {len(rows)}")
    print(f"ours no worse than the best random draw: {not_worse} of {len(rows)}")
    print(
        f"no repeated pair wherever the bound allows none: "
        f"{sum(1 for r in zero_possible if r[1] == 0)} of {len(zero_possible)}"
    )
    print(
        f"5-table seats at the least spread the fewest repeats allow: "
        f"{sum(1 for r in rows if r[7] <= r[8])} of {len(rows)}"
    )
    print(f"even spread (most - fewest <= 1): {sum(1 for r in rows if r[7] <= 1)} of {len(rows)}")
    if args.seeds > 1:
        print(
            f"worst of {args.seeds} seeds at the bound and the least spread: "
            f"{sum(1 for w in worsts if w[0] <= w[2] and w[1] <= w[3])} of {len(worsts)}"
        )
    slowest = max(rows, key=lambda r: r[6])
    print(f"slowest draw: {slowest[6]:.2f} s for {slowest[0]} players")
    print(f"200 players: {rows[-1][6]:.2f} s, {rows[-1][1]} repeated pairs")


if __name__ == "__main__":
    main()
