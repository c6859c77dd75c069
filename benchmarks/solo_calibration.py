"""How the search's play-outs of a Doppelkopf solo compare with the solo played by the search.

The reservation is decided by play-outs of sampled deals with the roll-out policy at every seat
(``compiled.reservation_values``); the cards are then played by the search, which plays better
than its policy. If the policy plays one kind of game worse than another (a solo worse than the
normal game, say), the decision leans away from it. This script measures it on a fixed set of
deals: for Vorhand's hand it takes the search's predicted value of the normal game (``gesund``)
and of its best solo, and where the solo is predicted within ``--window`` of the normal game it
plays both, the search at every seat (``--budget`` s of CPU time per card), the other seats
saying gesund. Reported: the predicted and the played mean of each, and the paired difference.

``--mixed`` also plays each such solo with the roll-out policy's card play (the ``heuristic``
bot) at the soloist's seat, at the defenders' seats, or at all four: which side of the solo
the policy plays worse than the search, and so which way the play-outs lean.

    .venv/bin/python benchmarks/solo_calibration.py --profile ddv --deals 600 --mixed
"""

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import make_bot
from stichwerk.bots.doppelkopf.knowledge import read
from stichwerk.bots.doppelkopf.search import DoppelkopfSearch, _declarable
from stichwerk.bots.evaluation import weighted
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.core.action import Action
from stichwerk.doppelkopf.record import new_deal


def played(
    profile: str,
    index: int,
    solo: str | None,
    budget: float,
    soloist: str = "search",
    defenders: str = "search",
) -> float:
    """Deal ``index`` with Vorhand declaring ``solo`` (or gesund) and everyone else gesund,
    the cards by ``soloist`` at Vorhand and ``defenders`` elsewhere (``search`` or
    ``heuristic``): Vorhand's result against the table's mean."""
    state = new_deal(profile=profile, seed=f"calibration-{index}", dealer=index % 4)
    vorhand = state.to_act
    assert vorhand is not None
    for s in range(4):
        seat = (vorhand + s) % 4
        legal = state.legal_actions(seat)
        if seat == vorhand and solo is not None:
            state.apply(Action(seat, "vorbehalt"))
        else:
            state.apply(next(a for a in legal if a.act == "gesund"))
    if solo is not None:
        state.apply(Action(vorhand, "solo", type=solo[5:]))

    def bot(seat: int) -> Any:
        name = soloist if seat == vorhand else defenders
        params = {"budget": budget} if name == "search" else {}
        return make_bot(name, "doppelkopf", f"cal-{index}-{seat}", **params)

    bots = [bot(s) for s in range(4)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    settlement = state.result()["score"]["settlement"]
    return settlement[vorhand] - sum(settlement) / 4


MIXED = (
    ("solo_policy_all", "heuristic", "heuristic"),
    ("solo_search_vs_policy", "search", "heuristic"),
    ("solo_policy_vs_search", "heuristic", "search"),
)
"""``--mixed``: the solo played again, (key, soloist's bot, defenders' bot)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="ddv")
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--window", type=float, default=4.0)
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--mixed", action="store_true", help="also the policy at either side")
    args = parser.parse_args()
    clock.use_cpu_time()
    rows = []
    start = time.time()
    for i in range(args.deals):
        state = new_deal(profile=args.profile, seed=f"calibration-{i}", dealer=i % 4)
        seat = state.to_act
        assert seat is not None
        k = read(state.view(seat))
        options = ["gesund"] + [o for o in _declarable(k) if o.startswith("solo-")]
        search = DoppelkopfSearch(f"cal-{i}", bid_budget=0.5)
        runs = search._compiled_reservations(k, options, clock.now() + 0.5, False)
        pred = {o: weighted(v, w).mean for o, (v, w) in runs.items()}
        solo = max(options[1:], key=lambda o: pred[o])
        if pred[solo] < pred["gesund"] - args.window:
            continue
        real_g = played(args.profile, i, None, args.budget)
        real_s = played(args.profile, i, solo, args.budget)
        row = {"deal": i, "solo": solo, "pred_gesund": pred["gesund"], "pred_solo": pred[solo]}
        rows.append({**row, "real_gesund": real_g, "real_solo": real_s})
        if args.mixed:
            for key, sol, dfn in MIXED:
                rows[-1][key] = played(args.profile, i, solo, args.budget, sol, dfn)
        print(json.dumps(rows[-1]), flush=True)
    n = len(rows)

    def stat(key: str) -> tuple[float, float]:
        xs = [r[key] for r in rows]
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1))
        return m, 1.96 * sd / math.sqrt(n)

    for r in rows:
        r["pred_diff"] = r["pred_solo"] - r["pred_gesund"]
        r["real_diff"] = r["real_solo"] - r["real_gesund"]
        r["bias"] = r["real_diff"] - r["pred_diff"]
    print(f"\n{args.profile}: {n} of {args.deals} deals had a solo within {args.window} of"
          f" gesund ({time.time() - start:.0f} s)")  # fmt: skip
    summary = {}
    keys = ["pred_gesund", "real_gesund", "pred_solo", "real_solo", "pred_diff", "real_diff",
            "bias"] + ([key for key, _, _ in MIXED] if args.mixed else [])  # fmt: skip
    for key in keys:
        m, h = stat(key)
        summary[key] = {"mean": m, "half_width": h}
        print(f"  {key:<22} {m:+7.2f} ± {h:.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=2) + "\n")


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
