"""The determinized search player (PIMC: Perfect Information Monte Carlo).

For a card to play it deals the unseen cards out again and again, consistently with everything
the seat has seen (shown-out suits, the laid-out cards, the Geiß of an Ulti or Geiß bidder, the
number of cards each seat holds), plays each legal card in each sampled world and finishes the
deal with the heuristic policy for every seat, and plays the card with the best mean settlement.
Bidding uses the heuristic's simulated contracts with more deals. Every decision keeps to a time
budget (default 0.35 s); with ``worlds`` set it samples exactly that many worlds instead, so
that its play is reproducible.

Where numba is installed (a dependency of the package) the worlds are sampled, played
out and scored by the compiled kernel (``rollouts.py``, ``stichwerk.cego.kernel``), many worlds
per call, so the same budget buys about a hundred times the roll-outs (up to ``max_worlds``);
without it, or with ``compiled=False``, the pure-Python path below does the same work.
"""

import random
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import View, legal_of
from stichwerk.bots.cego import rollouts
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
from stichwerk.cego.record import new_deal
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError

MAX_WORLDS = 400
"""Worlds per decision at most on the pure-Python path."""
MAX_WORLDS_COMPILED = 5000
"""Worlds per decision at most on the compiled kernel (more buys little)."""


class CegoSearchBot:
    """PIMC over sampled worlds with heuristic roll-outs, under a time budget per decision."""

    name = "search-v1"

    def __init__(
        self,
        seed: int | str = 0,
        budget: float = 0.35,
        bid_samples: int = 48,
        worlds: int | None = None,
        max_worlds: int | None = None,
        compiled: bool | None = None,
    ) -> None:
        self.budget = budget
        self.worlds = worlds
        self.compiled = rollouts.ready() if compiled is None else compiled
        """Roll out on the compiled kernel (default: when its kernels are compiled, so no
        decision waits on numba's compiler; ``rollouts.ready``)."""
        if self.compiled and not rollouts.available():
            raise StichwerkError("the compiled search needs numba: pip install stichwerk")
        self.max_worlds = max_worlds or (MAX_WORLDS_COMPILED if self.compiled else MAX_WORLDS)
        self.bid_samples = bid_samples
        self.rng = random.Random(f"search-{seed}")
        self.heuristic = CegoHeuristicBot(seed)
        self.heuristic.evaluator.rng = self.rng
        self.worlds_last = 0
        self.rollouts_last = 0

    def act(self, view: View) -> Action:
        start = clock.now()
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
        if self.compiled:
            totals = self._compiled_worlds(k, cards, deadline)
        else:
            totals = self._python_worlds(k, cards, deadline)
        best = max(range(len(cards)), key=lambda i: (totals[i], -cards[i]))
        return plays[best]

    def _compiled_worlds(self, k: Knowledge, cards: list[int], deadline: float) -> list[float]:
        """The search's worlds on the kernel, in growing batches until the budget is spent."""
        import numpy as np

        packed = rollouts.Packed(k, self.rng)
        totals = np.zeros(len(cards), dtype=np.float64)
        cap = self.worlds if self.worlds is not None else self.max_worlds
        worlds = done = 0
        batch = 8
        while worlds < cap:
            n = min(batch, cap - worlds)
            got = packed.search(cards, n, totals)
            done += got
            worlds += got // len(cards)
            if got < n * len(cards):
                break  # pragma: no cover - no world fits: only a view that contradicts itself
            if self.worlds is None and clock.now() > deadline:
                break
            batch = min(2 * batch, 256)
        self.worlds_last = worlds
        self.rollouts_last = done
        return [float(t) for t in totals]

    def _python_worlds(self, k: Knowledge, cards: list[int], deadline: float) -> list[float]:
        """The search's worlds on the pure-Python fast path."""
        totals = [0.0] * len(cards)
        ctx = context(k)
        worlds = done = 0
        while True:
            world = sample_world(k, self.rng)
            base = fast_from(k, world)
            outside = outside_cards(k, world)
            for i, card in enumerate(cards):
                fast = base.copy()
                fast.play(card)
                rollout(fast, ctx)
                totals[i] += settle_deal(k, fast, outside)[k.seat]
                done += 1
            worlds += 1
            if self.worlds is not None:
                if worlds >= self.worlds:
                    break
            elif clock.now() > deadline or worlds >= self.max_worlds:
                break
        self.worlds_last = worlds
        self.rollouts_last = done
        return totals


def make(game: str, seed: int | str = 0, **params: Any) -> CegoSearchBot:
    """Registry factory."""
    return CegoSearchBot(seed, **params)


def throughput(seconds: float = 2.0, seed: int = 1, compiled: bool = False) -> dict[str, float]:
    """Determinizations and roll-outs per second from mid-deal positions (for benchmarks).

    A roll-out is a world sampled for it, played to the end by the policy and scored. With
    ``compiled`` the kernel does both, 64 worlds per call (each position packed once, as the
    search packs once per decision); else the pure-Python path, one at a time.
    """
    rng = random.Random(seed)
    views = mid_deal_views(new_deal, CegoHeuristicBot, rng, max_skip=30)
    positions = [read(v) for v in views]
    if compiled:
        import numpy as np

        packed = [rollouts.Packed(k, rng) for k in positions]
        first = [
            [C.ID[a["card"]] for a in v["legal_actions"] if a["act"] == "play"][:1] for v in views
        ]
        batch = 64
        totals = np.zeros(1, dtype=np.float64)
        jobs = list(zip(packed, first, strict=True))
        rates_ = rates(
            jobs,
            lambda job: job[0].sample_many(batch),
            lambda job: job[0].search(job[1], batch, totals),
            seconds,
        )
        return {name: value * batch for name, value in rates_.items()}

    def play_out(k: Knowledge) -> None:
        world = sample_world(k, rng)
        fast = fast_from(k, world)
        rollout(fast, context(k))
        settle_deal(k, fast, outside_cards(k, world))

    return rates(positions, lambda k: sample_world(k, rng), play_out, seconds)
