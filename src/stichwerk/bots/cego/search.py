"""The determinized search player (PIMC: Perfect Information Monte Carlo).

For a card to play it deals the unseen cards out again and again, consistently with everything
the seat has seen (shown-out suits, the laid-out cards, the Geiß of an Ulti or Geiß bidder, the
number of cards each seat holds), plays each legal card in each sampled world and finishes the
deal with the heuristic policy for every seat, and plays the card with the best mean settlement.
Bidding uses the heuristic's simulated contracts with more deals. Every decision keeps to a time
budget (default 0.35 s); with ``worlds`` set it samples exactly that many worlds instead, so
that its play is reproducible.
"""

import random
import time
from typing import Any

from stichwerk.bots.base import View, legal_of
from stichwerk.bots.cego.heuristic import CegoHeuristicBot
from stichwerk.bots.cego.knowledge import Knowledge, read
from stichwerk.bots.cego.world import (
    context,
    fast_from,
    outside_cards,
    rollout,
    sample_world,
    settle_deal,
)
from stichwerk.bots.speed import mid_deal_views, rates
from stichwerk.cego import cards as C
from stichwerk.core.action import Action


class CegoSearchBot:
    """PIMC over sampled worlds with heuristic roll-outs, under a time budget per decision."""

    name = "search"

    def __init__(
        self,
        seed: int | str = 0,
        budget: float = 0.35,
        bid_samples: int = 48,
        worlds: int | None = None,
    ) -> None:
        self.budget = budget
        self.worlds = worlds
        self.bid_samples = bid_samples
        self.rng = random.Random(f"search-{seed}")
        self.heuristic = CegoHeuristicBot(seed)
        self.heuristic.evaluator.rng = self.rng
        self.worlds_last = 0
        self.rollouts_last = 0

    def act(self, view: View) -> Action:
        start = time.perf_counter()
        deadline = start + self.budget
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        k = read(dict(view))
        acts = {a.act for a in actions}
        if "play" in acts:
            return self.search_play(k, actions, deadline)
        if acts & {"keep", "press", "lay-out"}:
            return self.heuristic.exchange(k, actions)
        limit = None if self.worlds is not None else deadline
        return self.heuristic.speak(k, actions, samples=self.bid_samples, deadline=limit)

    def search_play(self, k: Knowledge, actions: list[Action], deadline: float) -> Action:
        plays = [a for a in actions if a.act == "play" and a.card]
        if len(plays) == 1:
            return plays[0]
        cards = [C.ID[a.card or ""] for a in plays]
        totals = [0.0] * len(cards)
        ctx = context(k)
        worlds = rollouts = 0
        while True:
            world = sample_world(k, self.rng)
            base = fast_from(k, world)
            outside = outside_cards(k, world)
            for i, card in enumerate(cards):
                fast = base.copy()
                fast.play(card)
                rollout(fast, ctx)
                totals[i] += settle_deal(k, fast, outside)[k.seat]
                rollouts += 1
            worlds += 1
            if self.worlds is not None:
                if worlds >= self.worlds:
                    break
            elif time.perf_counter() > deadline or worlds >= 400:
                break
        self.worlds_last = worlds
        self.rollouts_last = rollouts
        best = max(range(len(cards)), key=lambda i: (totals[i], -cards[i]))
        return plays[best]


def make(game: str, seed: int | str = 0, **params: Any) -> CegoSearchBot:
    """Registry factory."""
    return CegoSearchBot(seed, **params)


def throughput(seconds: float = 2.0, seed: int = 1) -> dict[str, float]:
    """Determinizations and roll-outs per second from mid-deal positions (for benchmarks)."""
    from stichwerk.cego.record import new_deal

    rng = random.Random(seed)
    positions = [read(v) for v in mid_deal_views(new_deal, CegoHeuristicBot, rng, max_skip=30)]

    def play_out(k: Knowledge) -> None:
        world = sample_world(k, rng)
        fast = fast_from(k, world)
        rollout(fast, context(k))
        settle_deal(k, fast, outside_cards(k, world))

    return rates(positions, lambda k: sample_world(k, rng), play_out, seconds)
