"""Fit what a Pflicht-Solo is worth on a random hand (``bots/doppelkopf/duty_table.py``).

A seat that owes a Pflicht-Solo weighs playing it now against waiting for a better hand
(``bots/doppelkopf/duty.py``). That needs the distribution of ``X``: the search's value of the
seat's best solo less that of its best other declaration, on a hand dealt at random. For
``--hands`` random deals per profile the search values every declaration of Vorhand (who owes
the solo, so leads it) over ``--worlds`` sampled deals of the other hands, as it does at the
table; the script writes ``--quantiles`` evenly spaced quantiles of ``X`` per profile as the
``SOLO_GAIN`` table and prints how the expected loss of owing falls with the deals left.

    .venv/bin/python benchmarks/fit_duty.py --hands 600 --worlds 600 --write
"""

import argparse
import importlib
import time
from pathlib import Path

from stichwerk.bots import clock
from stichwerk.bots.doppelkopf.duty import discharges
from stichwerk.bots.doppelkopf.knowledge import read
from stichwerk.bots.doppelkopf.search import DoppelkopfSearch, _declarable
from stichwerk.bots.evaluation import weighted
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.doppelkopf.profiles import PROFILES
from stichwerk.doppelkopf.record import new_deal

TABLE = Path(__file__).resolve().parents[1] / "src/stichwerk/bots/doppelkopf/duty_table.py"


def solo_gains(profile: str, hands: int, worlds: int) -> list[float]:
    """``X`` for Vorhand on ``hands`` random deals (sorted)."""
    bot = DoppelkopfSearch(seed=f"duty-{profile}", worlds=worlds)
    gains = []
    for i in range(hands):
        state = new_deal(profile=profile, seed=f"duty-{i}", dealer=i % 4,
                         duty_solo_owed=[0, 1, 2, 3])  # fmt: skip
        k = read(state.view(state.seat_order[0]))
        options = list(dict.fromkeys(["gesund", *_declarable(k)]))
        runs = bot._compiled_reservations(k, options, clock.now() + 3600.0)
        means = {o: weighted(v, w).mean for o, (v, w) in runs.items()}
        solo = max(m for o, m in means.items() if discharges(k, o))
        rest = [m for o, m in means.items() if not discharges(k, o)]
        gains.append(solo - max(rest) if rest else 0.0)
    return sorted(gains)


def quantiles(xs: list[float], n: int) -> list[float]:
    return [round(xs[min(len(xs) - 1, int((i + 0.5) * len(xs) / n))], 2) for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--worlds", type=int, default=600)
    parser.add_argument("--quantiles", type=int, default=100)
    parser.add_argument("--write", action="store_true", help="write duty_table.py")
    args = parser.parse_args()
    table: dict[str, list[float]] = {}
    for profile in PROFILES:
        start = time.process_time()
        gains = solo_gains(profile, args.hands, args.worlds)
        table[profile] = quantiles(gains, args.quantiles)
        mean = sum(gains) / len(gains)
        share = sum(1 for x in gains if x > 0) / len(gains)
        print(f"{profile}: {args.hands} hands, X mean {mean:+.2f}, median "
              f"{gains[len(gains) // 2]:+.2f}, X > 0 in {share:.1%} "
              f"({time.process_time() - start:.0f} s CPU)")  # fmt: skip
    if args.write:
        lines = [
            '"""The search\'s value of a seat\'s best solo less its best other declaration on',
            f"random deals: {args.quantiles} quantiles per profile ({args.hands} hands,"
            f" {args.worlds} sampled deals",
            'each). Written by ``benchmarks/fit_duty.py``; read by :mod:`.duty`."""',
            "",
            "# fmt: off",
            "SOLO_GAIN: dict[str, tuple[float, ...]] = {",
        ]
        for profile, qs in table.items():
            lines.append(f'    "{profile}": (')
            for i in range(0, len(qs), 10):
                lines.append("        " + ", ".join(f"{q:.2f}" for q in qs[i : i + 10]) + ",")
            lines.append("    ),")
        lines.append("}")
        lines.append("# fmt: on")
        TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")
        from stichwerk.bots.doppelkopf import duty, duty_table

        importlib.reload(duty_table)  # the table just written, not the one read at the start
        duty.owing_loss.cache_clear()
        for profile in table:
            p = PROFILES[profile]
            forced = p.duty_enforcement == "forced"
            row = [duty.owing_loss(profile, float(p.duty_penalty), forced, j) for j in
                   (0, 1, 2, 4, 8, 16, 24)]  # fmt: skip
            print(
                f"{profile}: loss of owing with 0, 1, 2, 4, 8, 16, 24 chances left: "
                + ", ".join(f"{x:.2f}" for x in row)
            )


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
