"""How long a post-game analysis takes: whole deals played by the heuristic bot, analysed for
one seat and for every seat at a budget per decision.

Reported per game: decisions per deal (one seat, every seat), seconds per deal analysed, and the
ratio of the time taken to the search time asked for (decisions × budget): what replaying,
viewing and judging add to the searches, measured side by side in the same run.

``.venv/bin/python benchmarks/analysis_speed.py --deals 5 --seconds 0.3``
"""

import argparse
import statistics
import time

from stichwerk.analysis import AnalysisSettings, analyse
from stichwerk.bots.base import make_bot
from stichwerk.games import get_game


def played(game: str, seed: int) -> dict[str, object]:
    state = get_game(game).new_deal(players=4, dealer=seed % 4, seed=f"analysis-bench-{seed}")
    bots = [make_bot("heuristic", game, f"{seed}-{s}") for s in range(4)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    record = state.to_record()
    record.pop("result", None)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=AnalysisSettings().seconds)
    args = parser.parse_args()
    settings = AnalysisSettings(seconds=args.seconds)
    # Compile the kernels before timing anything.
    analyse(played("cego", 999), [0], AnalysisSettings(seconds=0.01, worlds=4))
    analyse(played("doppelkopf", 999), [0], AnalysisSettings(seconds=0.01, worlds=4))
    for game in ("doppelkopf", "cego"):
        for seats in ([0], None):
            times, counts = [], []
            for deal in range(args.deals):
                record = played(game, deal)
                start = time.perf_counter()
                result = analyse(record, seats, settings)
                times.append(time.perf_counter() - start)
                counts.append(len(result.decisions))
            asked = sum(counts) * args.seconds
            who = "seat 0" if seats else "every seat"
            print(
                f"{game:10} {who:10}: {statistics.mean(counts):5.1f} decisions/deal, "
                f"{statistics.mean(times):6.2f} s/deal (median {statistics.median(times):.2f}, "
                f"max {max(times):.2f}), taken/asked {sum(times) / asked:.2f}"
            )


if __name__ == "__main__":
    main()
