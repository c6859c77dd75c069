"""Does the Cego search value Vorhand's Solo as it then goes? Predicted against played.

The search decides Vorhand's first word (``solo`` or ``fort``) by its play-outs of sampled deals
(``compiled.contract_values``). This script takes fixed deals and, for Vorhand's hand, the
search's predicted value of each word (``evaluate``, ``--seconds`` of CPU time); then it plays
the deal after ``fort`` and, where the Solo is predicted within ``--window`` points of ``fort``
(or better), after ``solo``: once as the table goes on (every other decision by ``search`` at
``--budget`` s of CPU time a card, so the other seats may answer with Gegensolo) and once with
every other seat saying ``fort`` to the Solo (the Solo played as announced). Reported: the
predicted and the played means, how often a Solo was answered, and where the search would have
said Solo, the played and the predicted gain of the Solo over ``fort``, paired by deal.

    .venv/bin/python benchmarks/solo_answers.py --profile zego --deals 120
"""

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import make_bot
from stichwerk.bots.cego.search import CegoSearch
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.games import get_game


def _deal(profile: str, index: int) -> Any:
    seats = 3 if profile == "zego" else 4
    return get_game("cego").new_deal(
        profile=profile, players=seats, dealer=index % seats, seed=f"cal-{index}"
    )


def played(profile: str, index: int, word: str, budget: float, answer: bool) -> tuple[float, bool]:
    """Vorhand's result (against the table's mean) after ``word``, every other decision by
    ``search``; with ``answer`` off every seat says fort to a Solo. Also: was it answered?"""
    state = _deal(profile, index)
    first = state.to_act
    assert first is not None
    state.apply(next(a for a in state.legal_actions(first) if a.act == word))
    bots = [make_bot("search", "cego", f"cal-{index}-{s}", budget=budget) for s in range(5)]
    answered = False
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        if state.phase == "gegensolo" and not answer:
            action = next(a for a in state.legal_actions(seat) if a.act == "fort")
        else:
            action = bots[seat].act(state.view(seat))
        answered |= action.act == "gegensolo"
        state.apply(action)
    table = state.view(None)
    settlement = table["result"]["score"]["settlement"]
    dealt = [
        s for s in range(len(settlement)) if table["hand_sizes"][s] or s != table.get("sitting")
    ]
    return float(settlement[first] - sum(settlement[s] for s in dealt) / len(dealt)), answered


def interval(xs: list[float]) -> str:
    n = len(xs)
    if n < 2:
        return f"n={n}"
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return f"{m:+.1f} [{m - 1.96 * sd / math.sqrt(n):+.1f}, {m + 1.96 * sd / math.sqrt(n):+.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="zego")
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU s for the prediction")
    parser.add_argument("--budget", type=float, default=0.05, help="CPU s a card in the play")
    parser.add_argument("--window", type=float, default=15.0)
    parser.add_argument("--json", type=Path, default=None, help="one line per deal")
    args = parser.parse_args()
    clock.use_cpu_time()
    start = time.time()
    rows: list[dict[str, Any]] = []
    out = args.json.open("a", encoding="utf-8") if args.json else None
    for i in range(args.first, args.first + args.deals):
        state = _deal(args.profile, i)
        first = state.to_act
        assert first is not None
        bot = CegoSearch(f"cal-{i}", budget=args.budget)
        values = {v.action.act: v.mean for v in bot.evaluate(state.view(first), args.seconds)}
        if "solo" not in values:  # a Pflichtsolo hand: the word is not Vorhand's to choose
            continue
        row: dict[str, Any] = {"deal": i, "pred_solo": values["solo"], "pred_fort": values["fort"]}
        row["fort"], _ = played(args.profile, i, "fort", args.budget, True)
        if values["solo"] >= values["fort"] - args.window:
            row["solo"], row["answered"] = played(args.profile, i, "solo", args.budget, True)
            row["solo_unanswered"], _ = played(args.profile, i, "solo", args.budget, False)
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    print(f"cego {args.profile}: deals {args.first}-{args.first + args.deals - 1}, Vorhand"
          f" ({time.time() - start:.0f} s)")  # fmt: skip
    print(f"  {len(rows)} hands; the search says Solo on"
          f" {sum(r['pred_solo'] > r['pred_fort'] for r in rows)}")  # fmt: skip
    print(f"  fort: predicted {interval([r['pred_fort'] for r in rows])},"
          f" played {interval([r['fort'] for r in rows])}")  # fmt: skip
    close = [r for r in rows if "solo" in r]
    if close:
        print(f"  {len(close)} with the Solo within {args.window} of fort:"
              f" predicted {interval([r['pred_solo'] for r in close])},"
              f" played {interval([r['solo'] for r in close])}, played unanswered"
              f" {interval([r['solo_unanswered'] for r in close])};"
              f" answered {sum(r['answered'] for r in close)}")  # fmt: skip
        chosen = [r for r in close if r["pred_solo"] > r["pred_fort"]]
        if chosen:
            print(f"  where the search says Solo ({len(chosen)}): Solo - fort played"
                  f" {interval([r['solo'] - r['fort'] for r in chosen])}, predicted"
                  f" {interval([r['pred_solo'] - r['pred_fort'] for r in chosen])}")  # fmt: skip
    if out:
        out.close()


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
