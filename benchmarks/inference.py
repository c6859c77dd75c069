"""How well the search's sampled worlds find the real deal, without and with inference.

Positions come from whole deals played by the first search bot (``search-v1``, a fixed number
of worlds per decision, so the players stray from the roll-out policy where their search says
so). At each position (a seat to play with a choice of cards, some way into the play) the search
samples ``--worlds`` worlds as it would for its decision, once with uniform weights (before:
the sampler alone, as ``search-v1`` deals) and once weighted by the inference (after: how likely
the other seats' cards so far were in each world under the bots' policy). Reported per stage of
the play:

- **top-k**: how often the real hidden deal (every other hand, as card codes) is among the k
  distinct worlds of the largest total weight (k = 1, 10, 50);
- **p(true)**: the mean weight, over the hidden cards, of the worlds that put a card in the hand
  that really holds it (0.33 is a blind guess between three hands);
- **ESS**: the effective number of worlds the weights leave (of ``--worlds``).

    .venv/bin/python benchmarks/inference.py --game doppelkopf --positions 200
    .venv/bin/python benchmarks/inference.py --game cego --eps 0.2,0.35,0.5
"""

import argparse
import random
import time
from collections import defaultdict
from typing import Any

import numpy as np

from stichwerk.bots.base import make_bot
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.games import get_game

STAGES = ((1, 12), (12, 24), (24, 36), (36, 60))
"""Buckets of cards played so far."""


def positions(game: str, profile: str, count: int, seed: int) -> list[tuple[Any, int]]:
    """``count`` (state, seat) pairs: a seat to play with a choice of cards, deals played by
    ``search-v1`` with 40 worlds per decision."""
    rng = random.Random(seed)
    module = get_game(game)
    players = 3 if profile == "zego" else 4
    out: list[tuple[Any, int]] = []
    deal = 0
    while len(out) < count:
        state = module.new_deal(
            profile=profile, players=players, seed=f"inference-{seed}-{deal}", dealer=deal % 4
        )
        bots = [make_bot("search-v1", game, f"{deal}-{s}", worlds=40) for s in range(players)]
        deal += 1
        stop = rng.randrange(4, 44)
        played = 0
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if view["phase"] == "play":
                cards = [a for a in view["legal_actions"] if a["act"] == "play"]
                if played >= stop and len({a["card"] for a in cards}) > 1:
                    out.append((state.clone(), seat))
                    break
                played += 1
            state.apply(bots[seat].act(view))
    return out


def truth(game: str, state: Any, seat: int) -> list[int]:
    """Every seat's real hand now (engine card ids)."""
    if game == "cego":
        return [int(h) for h in state.hands]
    return [int(state.hand(s)) for s in range(state.seats)]


def codes_of(game: str, mask: int) -> tuple[int, ...]:
    """A hand as card codes (Doppelkopf: the two copies of a card are alike)."""
    if game == "cego":
        return (mask,)
    return tuple((mask >> (2 * c) & 3).bit_count() for c in range(24))


def measure(
    game: str, pos: list[tuple[Any, int]], worlds: int, eps: float
) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for i, (state, seat) in enumerate(pos):
        view = state.view(seat)
        played = sum(1 for h in view["history"] if h["act"] == "play")
        stage = next(f"{a}-{b - 1}" for a, b in STAGES if a <= played < b)
        real = truth(game, state, seat)
        others = [s for s in range(len(real)) if s != seat and real[s]]
        for label, infer in (("before", False), ("after", True)):
            bot = make_bot("search", game, f"inference-{i}", infer=infer, eps=eps)
            hands, weights = bot.sampled_worlds(view, worlds)  # type: ignore[attr-defined]
            if not infer:
                weights = np.ones(len(weights))
            key_true = tuple(codes_of(game, real[s]) for s in others)
            totals: dict[tuple[Any, ...], float] = defaultdict(float)
            for w in range(len(weights)):
                key = tuple(codes_of(game, int(hands[w, s])) for s in others)
                totals[key] += float(weights[w])
            ranked = sorted(totals.items(), key=lambda kv: -kv[1])
            rank = next((r for r, (key, _) in enumerate(ranked) if key == key_true), None)
            row = out[f"{stage} {label}"]
            for k in (1, 10, 50):
                row[f"top-{k}"].append(1.0 if rank is not None and rank < k else 0.0)
            row["p(true)"].append(_p_true(game, hands, weights, real, others))
            row["ESS"].append(float(weights.sum() ** 2 / (weights**2).sum()))
            row["n"].append(1.0)
    return {
        key: {m: (sum(v) if m == "n" else sum(v) / len(v)) for m, v in row.items()}
        for key, row in sorted(out.items())
    }


def _p_true(game: str, hands: Any, weights: Any, real: list[int], others: list[int]) -> float:
    """The mean weight of the worlds that put each hidden card where it really is."""
    total = float(weights.sum())
    scores = []
    hidden = 0
    for s in others:
        hidden |= real[s]
    if game == "cego":
        for card in range(54):
            if hidden >> card & 1:
                s = next(s for s in others if real[s] >> card & 1)
                hit = (hands[:, s] >> card) & 1
                scores.append(float((weights * hit).sum()) / total)
        return sum(scores) / max(1, len(scores))
    for code in range(24):
        for s in others:
            n = (real[s] >> (2 * code) & 3).bit_count()
            if n:
                got = ((hands[:, s] >> (2 * code)) & 1) + ((hands[:, s] >> (2 * code + 1)) & 1)
                hit = np.minimum(got, n) / n
                scores.append(float((weights * hit).sum()) / total)
    return sum(scores) / max(1, len(scores))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="doppelkopf")
    parser.add_argument("--profile", default=None)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=2000)
    parser.add_argument("--eps", default="0.35")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    profile = args.profile or ("schwarzwald" if args.game == "cego" else "wielandstrasse")
    start = time.time()
    pos = positions(args.game, profile, args.positions, args.seed)
    print(f"{args.game} {profile}: {len(pos)} positions ({time.time() - start:.0f} s)")
    for eps in (float(e) for e in args.eps.split(",")):
        print(f"\neps = {eps}, {args.worlds} worlds per position")
        print(f"{'stage (cards played)':<22} {'n':>4} {'top-1':>6} {'top-10':>7} {'top-50':>7}"
              f" {'p(true)':>8} {'ESS':>7}")  # fmt: skip
        for key, row in measure(args.game, pos, args.worlds, eps).items():
            print(
                f"{key:<22} {row['n']:>4.0f} {row['top-1']:>6.3f} {row['top-10']:>7.3f}"
                f" {row['top-50']:>7.3f} {row['p(true)']:>8.4f} {row['ESS']:>7.0f}"
            )


if __name__ == "__main__":
    ensure_kernels()  # the search on its kernels, not the Python path of a cold cache
    main()
