"""Whole lists with a Pflicht-Solo owed: a seat that weighs the deadline against one that does not.

Each list (``--lists``) is played twice from the same deals (deal ``g`` of list ``i`` always
from the seed ``list-i-g``): once with the tested seat weighing the end of the list
(``bots/doppelkopf/duty.py``) and once without, the other three seats never weighing it. The
tested seat moves round with the lists. A list is the profile's own (Wielandstraße 8 games,
the penalty of 15 for a missing Pflicht-Solo; DDV 24 games with the Vorführung), every seat
owing one solo. The figures: the tested seat's final total (penalty included) against the
table's mean, with the weighing less without, per list with its 95% interval; how often the
seat played its Pflicht-Solo by choice, was vorgeführt, or paid the penalty; and in which game
of the list the solo came.

    .venv/bin/python benchmarks/duty_lists.py --profile wielandstrasse --lists 400
    .venv/bin/python benchmarks/duty_lists.py --profile ddv --lists 40 --bot search \\
        --params '{"worlds": 200, "bid_budget": 0.2}'
"""

import argparse
import json
import time
from typing import Any

from stichwerk.arena import BotStats
from stichwerk.bots.base import make_bot
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.core.series import Series
from stichwerk.doppelkopf.api import series_outcome, series_rules
from stichwerk.doppelkopf.record import new_deal


def play_list(
    profile: str, index: int, seat: int, weigh: bool, bot: str, params: dict[str, Any]
) -> dict[str, Any]:
    """One list; what became of ``seat``'s Pflicht-Solo and its final total against the mean."""
    series = Series(series_rules(profile))
    bots = [
        make_bot(bot, "doppelkopf", f"{index}-{s}", duty=weigh and s == seat, **params)
        for s in range(4)
    ]
    game, solo_at, forced = 0, None, False
    while not series.is_over:
        state = new_deal(profile=profile, seed=f"list-{index}-{game}", **series.deal_args())
        while not state.is_over:
            to_act = state.to_act
            assert to_act is not None
            state.apply(bots[to_act].act(state.view(to_act)))
        result = state.result()
        assert result is not None
        outcome = series_outcome(result)
        if outcome.duty_solo_by == seat:
            solo_at, forced = series.games_played + 1, outcome.forced
        series.record(outcome)
        game += 1
    totals = series.final_totals()
    return {
        "relative": totals[seat] - sum(totals) / len(totals),
        "solo_at": solo_at,
        "forced": forced,
        "penalised": series.owed[seat] > 0 and series.rules.duty_enforcement == "penalty",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="wielandstrasse")
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--params", default="{}", help="JSON: the bots' parameters")
    parser.add_argument("--log", default=None, help="JSON lines, one per list (resumable)")
    args = parser.parse_args()
    params = json.loads(args.params)
    rows: list[dict[str, Any]] = []
    if args.log:
        try:
            with open(args.log, encoding="utf-8") as f:
                rows = [json.loads(line) for line in f]
        except FileNotFoundError:
            pass
    start = time.process_time()
    for i in range(len(rows), args.lists):
        seat = i % 4
        row = {
            "list": i,
            "seat": seat,
            "with": play_list(args.profile, i, seat, True, args.bot, params),
            "without": play_list(args.profile, i, seat, False, args.bot, params),
        }
        rows.append(row)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
    diff = BotStats("gain", [r["with"]["relative"] - r["without"]["relative"] for r in rows])
    n = len(rows)
    print(f"{args.profile}, {n} lists, bot {args.bot} {params or ''}"
          f" ({time.process_time() - start:.0f} s CPU)")  # fmt: skip
    print(
        f"  the seat's final total against the table, weighing less not: {diff.mean:+.2f}"
        f" [{diff.mean - diff.half_width:+.2f}, {diff.mean + diff.half_width:+.2f}] per list"
    )
    for key in ("with", "without"):
        runs = [r[key] for r in rows]
        chosen = [x["solo_at"] for x in runs if x["solo_at"] is not None and not x["forced"]]
        mean_at = sum(chosen) / len(chosen) if chosen else float("nan")
        stats = BotStats(key, [x["relative"] for x in runs])
        print(
            f"  {key:<7}: Pflicht-Solo by choice {len(chosen) / n:.0%} (game {mean_at:.1f} on"
            f" average), vorgeführt {sum(x['forced'] for x in runs) / n:.0%}, penalty"
            f" {sum(x['penalised'] for x in runs) / n:.0%}; total against the table"
            f" {stats.mean:+.2f} ± {stats.half_width:.2f}"
        )


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
