"""The search bots' own throughput, measured the same way for every game.

``benchmarks/search_speed.py`` reports it: determinizations (sampled worlds) per second and
roll-outs (a world played to the end by the policy and scored) per second, from positions some
way into deals the heuristic plays, where the seat to act has a choice of cards.
"""

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from stichwerk.bots.base import Bot
from stichwerk.core.state import JSON, GameState

P = TypeVar("P")


def mid_deal_views(
    new_deal: Callable[..., GameState],
    make_bot: Callable[[int], Bot],
    rng: random.Random,
    *,
    max_skip: int,
    count: int = 50,
) -> list[JSON]:
    """``count`` views of a seat with a choice of cards, each after a random number (below
    ``max_skip``) of card plays into a fresh deal."""
    bots = [make_bot(i) for i in range(4)]
    views: list[JSON] = []
    deal = 0
    while len(views) < count:
        state = new_deal(seed=f"speed-{deal}", dealer=deal % 4)
        deal += 1
        skip = rng.randrange(0, max_skip)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if view["phase"] == "play":
                cards = sum(a["act"] == "play" for a in view["legal_actions"])
                if cards > 1 and skip <= 0:
                    views.append(view)
                    break
                skip -= 1
            state.apply(bots[seat].act(view))
    return views


def rates(
    positions: Sequence[P],
    sample: Callable[[P], Any],
    play_out: Callable[[P], Any],
    seconds: float,
) -> dict[str, float]:
    """Worlds sampled and worlds played out per second, half of ``seconds`` for each."""
    return {
        "determinizations_per_s": _per_second(positions, sample, seconds / 2),
        "rollouts_per_s": _per_second(positions, play_out, seconds / 2),
    }


def _per_second(positions: Sequence[P], work: Callable[[P], Any], seconds: float) -> float:
    """How many times a second of this process's CPU time ``work`` runs, round after round over
    ``positions`` (CPU time, so that other programs on the machine do not slow the figure)."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for position in positions:
            work(position)
            done += 1
    return done / (time.process_time() - start)
