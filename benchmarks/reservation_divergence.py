"""Where the new search and ``search-v1`` reserve or bid differently, which choice plays better?

The arena's largest per-deal differences come from a decision before the play that one bot
makes and the other does not (a Doppelkopf solo against gesund, a Cego Solo against the
ladder). This measures that part of the arena alone, on fixed deals. The first seat to speak
decides everything before the play once as ``search`` and once as ``search-v1``; the other
seats say gesund (Doppelkopf) or bid and exchange as ``search`` (Cego). Where the first seat's
choices differ, the deal is played once after each, the cards (and in Doppelkopf an Armut's
answers) by ``search`` at every seat (``--budget`` s of CPU time per card). Reported: how often
each bot chose what, and the first seat's result (against the table's mean) after the new
search's choices less that after ``search-v1``'s, paired by deal, with its 95% interval.

    .venv/bin/python benchmarks/reservation_divergence.py --profile ddv --deals 1000
    .venv/bin/python benchmarks/reservation_divergence.py --game cego --profile titisee
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
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.core.action import Action
from stichwerk.doppelkopf.state import DECLARATIONS, RESERVATIONS
from stichwerk.games import get_game

BEFORE_PLAY = {"doppelkopf": (RESERVATIONS, DECLARATIONS)}
"""The phases the first seat's choices are compared in (Cego: every phase before the play)."""


def _deal(game: str, profile: str, index: int) -> Any:
    seats = 3 if profile == "zego" else 4
    return get_game(game).new_deal(
        profile=profile, players=seats, dealer=index % seats, seed=f"divergence-{index}"
    )


def _before_play(game: str, state: Any) -> bool:
    if state.is_over:
        return False
    phases = BEFORE_PLAY.get(game)
    return state.phase in phases if phases else state.phase != "play"


def choices(game: str, profile: str, index: int, bot: str, budget: float) -> list[Action]:
    """Every action before the play of deal ``index``, the first seat's by ``bot``."""
    state = _deal(game, profile, index)
    first = state.to_act
    assert first is not None
    players = {first: make_bot(bot, game, f"div-{index}-{bot}", budget=budget)}
    actions: list[Action] = []
    while _before_play(game, state):
        seat = state.to_act
        assert seat is not None
        if seat not in players and game == "doppelkopf":
            action = next(a for a in state.legal_actions(seat) if a.act == "gesund")
        else:
            if seat not in players:
                players[seat] = make_bot("search", game, f"div-{index}-{seat}", budget=budget)
            action = players[seat].act(state.view(seat))
        actions.append(action)
        state.apply(action)
    return actions


def played(game: str, profile: str, index: int, before: list[Action], budget: float) -> float:
    """Deal ``index`` with ``before`` as its actions before the play, then every decision by
    ``search``: the first seat's result against the table's mean."""
    state = _deal(game, profile, index)
    first = state.to_act
    for action in before:
        state.apply(action)
    seats = state.seats
    bots = [make_bot("search", game, f"div-{index}-{s}", budget=budget) for s in range(seats)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    table = state.view(None)
    settlement = table["result"]["score"]["settlement"]
    dealt = [s for s in range(seats) if table["hand_sizes"][s] or s != table.get("sitting")]
    return float(settlement[first] - sum(settlement[s] for s in dealt) / len(dealt))


def words(actions: list[Action], cards: bool = False) -> str:
    """The first seat's choices in words: ``gesund``, ``solo-kreuz``, ``fort solo``... (with
    ``cards``, the cards of an exchange too)."""
    out = []
    for a in actions:
        shown = ",".join(a.cards) if cards and a.cards else ""
        out.append(a.act + (f"-{a.type}" if a.type else "") + (f":{shown}" if shown else ""))
    return " ".join(w for w in out if w != "vorbehalt") or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="doppelkopf")
    parser.add_argument("--profile", default="ddv")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--json", type=Path, default=None, help="one line per differing deal")
    args = parser.parse_args()
    clock.use_cpu_time()
    start = time.time()
    counts: dict[str, Counter[str]] = {"search": Counter(), "search-v1": Counter()}
    rows: list[dict[str, Any]] = []
    out = args.json.open("a", encoding="utf-8") if args.json else None
    for i in range(args.first, args.first + args.deals):
        runs = {b: choices(args.game, args.profile, i, b, args.budget) for b in counts}
        first = runs["search"][0].seat
        mine = {b: [a for a in acts if a.seat == first] for b, acts in runs.items()}
        for b, c in counts.items():
            c[words(mine[b])] += 1
        if [a.to_json() for a in mine["search"]] == [a.to_json() for a in mine["search-v1"]]:
            continue
        new = played(args.game, args.profile, i, runs["search"], args.budget)
        old = played(args.game, args.profile, i, runs["search-v1"], args.budget)
        row = {"deal": i, **{b: words(mine[b], cards=True) for b in counts}}
        rows.append({**row, "new": new, "old": old})
        print(json.dumps(rows[-1]), flush=True)
        if out:
            out.write(json.dumps(rows[-1]) + "\n")
            out.flush()
    n = len(rows)
    print(f"\n{args.game} {args.profile}: deals {args.first}-{args.first + args.deals - 1}, the"
          f" first seat's choices ({time.time() - start:.0f} s)")  # fmt: skip
    for bot, c in counts.items():
        print(f"  {bot:<10} " + ", ".join(f"{k} {v}" for k, v in c.most_common()))
    if n:
        diffs = [r["new"] - r["old"] for r in rows]
        m = sum(diffs) / n
        sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / max(1, n - 1))
        h = 1.96 * sd / math.sqrt(n)
        print(f"  {n} deals chosen differently: new - v1 {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"
              f" per such deal, {m * n / args.deals:+.3f} per deal of all")  # fmt: skip
    if out:
        out.close()


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
