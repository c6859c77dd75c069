"""The decisions before the play on a fixed set of hands: what each bot chooses, and what it
brings.

For each of ``--deals`` fixed deals one seat (Vorhand, or each seat in turn with ``--every-seat``)
makes its decisions before the play (Doppelkopf: the reservation and what it declares, the
Armut; Cego: every bid, and the exchange when it becomes the declarer) once as the new search
(``search``) and once as each bot of ``--against`` (``search-v1``, whose bids are the
heuristic's simulations, and ``heuristic``). The other seats always decide by ``search-v1``,
and every card is played by ``search-v1`` with a fixed number of worlds, so two runs of a deal
differ only in that seat's choices: where the choices are the same the results are too, and the
difference of the results is what the choices made.

Reported per bot: how often each outcome came about (the game and who declared it, from the
seat's side), its mean result for the seat (against the table's mean), and the mean difference
per deal against the new search with its 95% interval over all deals.

    .venv/bin/python benchmarks/bidding_choices.py --game doppelkopf --profile ddv --deals 400
"""

import argparse
import json
import math
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import Bot, make_bot
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.games import get_game

CARD_WORLDS = 60
"""Worlds per card of the card players (``search-v1``): fixed, so that a deal replays alike."""


def outcome(game: str, state: Any, seat: int) -> str:
    """The game the deal became, from ``seat``'s side."""
    result = state.result()
    if game == "doppelkopf":
        if "redeal" in result and result.get("redeal"):
            return f"redeal ({result['redeal']})"
        gt = state.game_type
        if gt.startswith("solo-"):
            soloist = state.snapshot().soloist
            return f"{gt} ({'own' if soloist == seat else 'against'})"
        return gt
    if state.aufgedeckt:
        return "aufgedeckt"
    if state.declarer is None:
        return state.contract or "none"
    return f"{state.contract} ({'own' if state.declarer == seat else 'against'})"


def relative(state: Any, seat: int) -> float:
    result = state.result()
    settlement = result["score"]["settlement"] if "score" in result else None
    if not settlement:
        return 0.0
    view = state.view(None)
    dealt = [s for s in range(len(settlement))
             if not (view["seats"] > view["players"] and s == view["dealer"])]  # fmt: skip
    return settlement[seat] - sum(settlement[s] for s in dealt) / len(dealt)


def play(
    game: str, profile: str, index: int, seat: int, name: str, budget: float
) -> tuple[list[str], str, float]:
    """Deal ``index`` with ``name`` deciding for ``seat`` before the play: its choices, the
    outcome and the seat's result."""
    players = 3 if profile == "zego" else 4
    state = get_game(game).new_deal(
        profile=profile, players=players, seed=f"choices-{index}", dealer=index % players
    )
    params: dict[str, Any] = {"budget": budget} if "search" in name else {}
    chooser = make_bot(name, game, f"choices-{index}", **params)
    others: list[Bot] = [
        make_bot("search-v1", game, f"choices-{index}-{s}", worlds=CARD_WORLDS)
        for s in range(players)
    ]
    choices: list[str] = []
    while not state.is_over:
        s = state.to_act
        assert s is not None
        view = state.view(s)
        if s == seat and view["phase"] != "play":
            action = chooser.act(view)
            choices.append(" ".join([action.act, action.type or "", *action.cards]).strip())
        else:
            action = others[s].act(view)
        state.apply(action)
    return choices, outcome(game, state, seat), relative(state, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="doppelkopf")
    parser.add_argument("--profile", default=None)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.3, help="the new search's budget")
    parser.add_argument("--against", default="search-v1,heuristic")
    parser.add_argument("--every-seat", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--progress", action="store_true", help="a line per deal as it ends")
    args = parser.parse_args()
    clock.use_cpu_time()
    profile = args.profile or ("schwarzwald" if args.game == "cego" else "wielandstrasse")
    players = 3 if profile == "zego" else 4
    names = ["search", *args.against.split(",")]
    outcomes: dict[str, Counter[str]] = {n: Counter() for n in names}
    results: dict[str, dict[str, list[float]]] = {n: defaultdict(list) for n in names}
    diffs: dict[str, list[float]] = {n: [] for n in names[1:]}
    start = time.time()
    for i in range(args.deals):
        seat = (i % players) if args.every_seat else (i % players + 1) % players
        runs = {n: play(args.game, profile, i, seat, n, args.budget) for n in names}
        for n, (_, out, value) in runs.items():
            outcomes[n][out] += 1
            results[n][out].append(value)
        for n in names[1:]:
            diffs[n].append(runs["search"][2] - runs[n][2])
        if args.progress:
            line = "; ".join(f"{n}: {' '.join(c)} -> {o} {v:+.1f}" for n, (c, o, v) in runs.items())
            print(f"deal {i} seat {seat}: {line}", flush=True)
    spent = time.time() - start
    report: dict[str, Any] = {"game": args.game, "profile": profile, "deals": args.deals,
                              "budget": args.budget, "bots": {}}  # fmt: skip
    print(f"{args.game} {profile}: {args.deals} deals, the search at {args.budget} s (CPU),"
          f" {spent:.0f} s")  # fmt: skip
    for n in names:
        print(f"\n{n}")
        rows = {}
        for out, count in outcomes[n].most_common():
            mean = sum(results[n][out]) / count
            rows[out] = {"count": count, "mean": mean}
            print(f"  {out:<28} {count:>5}  mean {mean:+8.2f}")
        report["bots"][n] = {"outcomes": rows}
        if n in diffs:
            d = diffs[n]
            mean = sum(d) / len(d)
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1))
            half = 1.96 * sd / math.sqrt(len(d))
            differ = sum(1 for x in d if x != 0)
            print(f"  search - {n}: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] per"
                  f" deal ({differ} deals came out differently)")  # fmt: skip
            report["bots"][n]["search_minus"] = {"mean": mean, "half_width": half,
                                                 "differ": differ}  # fmt: skip
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
