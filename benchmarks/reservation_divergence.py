"""Where the new search and ``search-v1`` reserve differently, which reservation plays better?

The arena's largest per-deal differences in Doppelkopf come from a reservation one bot makes
and the other does not (a solo against gesund). This measures that part of the arena alone, on
fixed deals: Vorhand's hand is shown to ``search`` and to ``search-v1`` (the other seats say
gesund); where the two reserve differently, the deal is played once with each reservation, the
cards by ``search`` at every seat (``--budget`` s of CPU time per card). Reported: how often
each bot reserves what, and Vorhand's result (against the table's mean) with the new search's
reservation less that with ``search-v1``'s, paired by deal, with its 95% interval.

    .venv/bin/python benchmarks/reservation_divergence.py --profile ddv --deals 1000
"""

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import make_bot
from stichwerk.core.action import Action
from stichwerk.doppelkopf.record import new_deal
from stichwerk.doppelkopf.state import DECLARATIONS, RESERVATIONS, DokoState


def _deal(profile: str, index: int) -> DokoState:
    return new_deal(profile=profile, seed=f"divergence-{index}", dealer=index % 4)


def _gesund_but(state: DokoState, vorhand: int, choose: Any) -> list[Action]:
    """Play the reservations and declarations: Vorhand as ``choose(view)`` says, every other
    seat gesund; returns Vorhand's actions."""
    mine: list[Action] = []
    while state.phase in (RESERVATIONS, DECLARATIONS) and not state.is_over:
        seat = state.to_act
        assert seat is not None
        if seat == vorhand:
            action = choose(state.view(seat))
            mine.append(action)
        else:
            legal = state.legal_actions(seat)
            action = next(a for a in legal if a.act == "gesund")
        state.apply(action)
    return mine


def reservation(profile: str, index: int, bot: str, budget: float) -> list[Action]:
    """What ``bot`` reserves with Vorhand's hand of deal ``index`` (others gesund)."""
    state = _deal(profile, index)
    vorhand = state.to_act
    assert vorhand is not None
    player = make_bot(bot, "doppelkopf", f"div-{index}-{bot}", budget=budget)
    return _gesund_but(state, vorhand, player.act)


def played(profile: str, index: int, reserved: list[Action], budget: float) -> float:
    """Deal ``index`` with Vorhand reserving ``reserved`` (others gesund), then every card by
    ``search``: Vorhand's result against the table's mean."""
    state = _deal(profile, index)
    vorhand = state.to_act
    assert vorhand is not None
    queue = list(reserved)
    _gesund_but(state, vorhand, lambda view: queue.pop(0))
    bots = [make_bot("search", "doppelkopf", f"div-{index}-{s}", budget=budget) for s in range(4)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    result = state.result()
    assert result is not None
    settlement = result["score"]["settlement"]
    return float(settlement[vorhand] - sum(settlement) / 4)


def words(actions: list[Action]) -> str:
    """A reservation in words: ``gesund``, ``solo-kreuz``, ``hochzeit``..."""
    last = actions[-1]
    if last.act == "solo":
        return f"solo-{last.type}"
    return last.act


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="ddv")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--json", type=Path, default=None, help="one line per differing deal")
    args = parser.parse_args()
    clock.use_cpu_time()
    start = time.time()
    choices: dict[str, Counter[str]] = {"search": Counter(), "search-v1": Counter()}
    rows: list[dict[str, Any]] = []
    out = args.json.open("a", encoding="utf-8") if args.json else None
    for i in range(args.first, args.first + args.deals):
        new = reservation(args.profile, i, "search", args.budget)
        old = reservation(args.profile, i, "search-v1", args.budget)
        choices["search"][words(new)] += 1
        choices["search-v1"][words(old)] += 1
        if [a.to_json() for a in new] == [a.to_json() for a in old]:
            continue
        a = played(args.profile, i, new, args.budget)
        b = played(args.profile, i, old, args.budget)
        row = {"deal": i, "search": words(new), "search-v1": words(old), "new": a, "old": b}
        rows.append(row)
        print(json.dumps(row), flush=True)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    n = len(rows)
    print(f"\n{args.profile}: deals {args.first}-{args.first + args.deals - 1}, Vorhand's hand"
          f" ({time.time() - start:.0f} s)")  # fmt: skip
    for bot, counts in choices.items():
        print(f"  {bot:<10} " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    if n:
        diffs = [r["new"] - r["old"] for r in rows]
        m = sum(diffs) / n
        sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / max(1, n - 1))
        h = 1.96 * sd / math.sqrt(n)
        print(f"  {n} deals reserved differently: new - v1 {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"
              f" per such deal, {m * n / args.deals:+.3f} per deal of all")  # fmt: skip
    if out:
        out.close()


if __name__ == "__main__":
    main()
