"""The determinized search player (PIMC: Perfect Information Monte Carlo).

For a card to play it deals the unseen cards out again and again, consistently with everything
the seat has seen (shown-out classes, the Kreuz-Damen of a Hochzeit or of a seat known to be Re,
what an Armut showed, a Sau, the number of cards each seat holds; a soloist and a seat that
announced are dealt more trumps), plays each legal card in each sampled world and finishes the
deal with the heuristic policy for every seat (in a normal game each seat knowing only what the
table knows of the parties), and scores it against the table's mean. The heuristic's own card
stands unless another beats it, paired world by world, by more than ``confidence`` standard
errors: with few worlds the best mean is often just the luckiest. The same roll-outs, scored
once more with the seat's next announcement (Re/Kontra or an Absage) added, tell whether that
announcement pays. Reservations and the Armut use the heuristic with more simulated deals.

It keeps the roll-out policy as it was when this search was measured against the new one
(``policy.STYLE_V1``: without the solo rules added since), so that it stays the yardstick.

Every decision keeps to a time budget (default 0.3 s); with ``worlds`` set it samples exactly
that many worlds instead, so that its play is reproducible.

Where numba is installed (a dependency of the package) the worlds are sampled, played
out and scored by the compiled kernel (``rollouts.py``, ``stichwerk.doppelkopf.kernel``), many
worlds per call, so the same budget buys far more roll-outs (up to ``max_worlds``); without it,
or with ``compiled=False``, the pure-Python path below does the same work.
"""

import math
import random
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import OUT_OF_TURN, View, legal_of
from stichwerk.bots.doppelkopf import rollouts
from stichwerk.bots.doppelkopf.heuristic import DoppelkopfHeuristicBot, team_of
from stichwerk.bots.doppelkopf.knowledge import CQ, LEVEL_ACTS, Knowledge, read
from stichwerk.bots.doppelkopf.policy import STYLE_V1, choose_card
from stichwerk.bots.doppelkopf.world import fast_from, relative, rollout, sample_world, settle
from stichwerk.bots.speed import mid_deal_views, rates
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.cards import CODE_INDEX, code_mask
from stichwerk.doppelkopf.record import new_deal

ANNOUNCE_MARGIN = 0.1
"""An announcement must gain this much per deal (in settlement points, beyond the noise)."""
MAX_WORLDS = 400
"""Worlds per decision at most on the pure-Python path."""
MAX_WORLDS_COMPILED = 4000
"""Worlds per decision at most on the compiled kernel (more buys little)."""


class DoppelkopfSearchBot:
    """PIMC over sampled worlds with policy roll-outs, under a time budget per decision."""

    name = "search-v1"

    def __init__(
        self,
        seed: int | str = 0,
        budget: float = 0.3,
        worlds: int | None = None,
        bid_samples: int = 24,
        max_worlds: int | None = None,
        confidence: float = 1.0,
        public: bool = True,
        compiled: bool | None = None,
        style: int = STYLE_V1,
    ) -> None:
        self.budget = budget
        self.style = style
        """The policy's rules (``policy.STYLE_V1``: as this search was measured)."""
        self.worlds = worlds
        self.bid_samples = bid_samples
        self.compiled = rollouts.ready() if compiled is None else compiled
        """Roll out on the compiled kernel (default: when its kernels are compiled, so no
        decision waits on numba's compiler; ``rollouts.ready``)."""
        if self.compiled and not rollouts.available():
            raise StichwerkError("the compiled search needs numba: pip install stichwerk")
        self.max_worlds = max_worlds or (MAX_WORLDS_COMPILED if self.compiled else MAX_WORLDS)
        self.confidence = confidence
        """How many standard errors a card must gain over the heuristic's to be played."""
        self.public = public
        """Roll-outs where the seats know only what the table knows of the parties."""
        self.rng = random.Random(f"search-{seed}")
        self.heuristic = DoppelkopfHeuristicBot(seed, style=style, duty=False)  # as it was
        self.worlds_last = 0
        self.rollouts_last = 0

    def act(self, view: View) -> Action:
        deadline = clock.now() + self.budget
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        acts = {a.act for a in actions}
        for a in actions:
            if a.act in ("sau", "supersau"):
                return a
        k = read(dict(view))
        if "play" in acts:
            return self.search_play(k, actions, deadline)
        if k.phase == "play":
            raise StichwerkError(OUT_OF_TURN)
        return self.heuristic.speak(k, actions, samples=self.bid_samples)

    def search_play(self, k: Knowledge, actions: list[Action], deadline: float) -> Action:
        plays: list[Action] = []
        cards: list[int] = []
        hand = k.hand
        for a in actions:
            if a.act == "play" and a.card:
                mine = hand & code_mask(CODE_INDEX[a.card])
                plays.append(a)
                cards.append((mine & -mine).bit_length() - 1)
        words = [a for a in actions if a.act in LEVEL_ACTS]
        word = words[0] if words else None  # the lowest: Re/Kontra, else the next Absage
        if len(plays) == 1 and word is None:
            return plays[0]
        seat = k.seat
        n = len(cards)
        public = k.public_party if self.public else None
        shown = None
        if public is not None:
            shown = list(public)
            shown[seat] = 0  # playing a Kreuz Dame shows the Re party
        if self.compiled:
            values, said = self._compiled_worlds(k, cards, word, public, deadline)
        else:
            values, said = self._python_worlds(k, cards, word, public, shown, deadline)
        # The heuristic's card stands unless another is better by more than the noise.
        default = cards.index(self._heuristic_card(k, cards)) if n > 1 else 0
        best = default
        best_gain = 0.0
        for i in range(n):
            if i != default:
                gain = _clear_gain(values[i], values[default], self.confidence)
                if gain > best_gain:
                    best, best_gain = i, gain
        if word is not None:
            gain = _clear_gain(said[best], values[best], self.confidence)
            if gain > ANNOUNCE_MARGIN:
                return word
        return plays[best]

    def _compiled_worlds(
        self,
        k: Knowledge,
        cards: list[int],
        word: Action | None,
        public: list[int] | None,
        deadline: float,
    ) -> tuple[list[list[float]], list[list[float]]]:
        """Per card, its value in each world (and with ``word`` said), on the kernel, in
        growing batches until the budget is spent."""
        packed = rollouts.Packed(k, self.rng, self.style)
        act = -1 if word is None else LEVEL_ACTS.index(word.act)
        values: list[list[float]] = [[] for _ in cards]
        said: list[list[float]] = [[] for _ in cards]
        cap = self.worlds if self.worlds is not None else self.max_worlds
        worlds = 0
        batch = 8
        while worlds < cap:
            n = min(batch, cap - worlds)
            v, s, got = packed.search(cards, act, public, n)
            for i in range(len(cards)):
                values[i].extend(v[:got, i].tolist())
                if word is not None:
                    said[i].extend(s[:got, i].tolist())
            worlds += got
            if got < n:
                break  # pragma: no cover - no world fits: only a view that contradicts itself
            if self.worlds is None and clock.now() > deadline:
                break
            batch = min(2 * batch, 256)
        self.worlds_last = worlds
        self.rollouts_last = worlds * len(cards)
        return values, said

    def _python_worlds(
        self,
        k: Knowledge,
        cards: list[int],
        word: Action | None,
        public: list[int] | None,
        shown: list[int] | None,
        deadline: float,
    ) -> tuple[list[list[float]], list[list[float]]]:
        """Per card, its value in each world (and with ``word`` said), on the Python path."""
        seat = k.seat
        order = k.order
        held = k.hand.bit_count()  # the word is said now, before the rolled-out tricks
        values: list[list[float]] = [[] for _ in cards]
        said: list[list[float]] = [[] for _ in cards]
        worlds = done = 0
        while True:
            world = sample_world(k, self.rng)
            base = fast_from(k, world)
            for i, card in enumerate(cards):
                fast = base.copy()
                fast.play(card)
                rollout(fast, shown if card >> 1 == CQ else public, self.style)
                extras = fast.extras()
                values[i].append(relative(settle(fast, extras), seat, order))
                if word is not None:
                    # The same tricks with the word said: only the announcements change.
                    fast.announce(seat, word.act, held)
                    said[i].append(relative(settle(fast, extras), seat, order))
                done += 1
            worlds += 1
            if self.worlds is not None:
                if worlds >= self.worlds:
                    break
            elif clock.now() > deadline or worlds >= self.max_worlds:
                break
        self.worlds_last = worlds
        self.rollouts_last = done
        return values, said

    def _heuristic_card(self, k: Knowledge, cards: list[int]) -> int:
        """The card the policy would play (one of ``cards``)."""
        assert k.base is not None
        fast = k.base.copy()
        fast.hands[k.seat] = k.hand
        legal = 0
        for card in cards:
            legal |= 1 << card
        card = choose_card(fast, k.seat, legal, team_of(k), self.style)
        return next(c for c in cards if c >> 1 == card >> 1)


def _clear_gain(a: list[float], b: list[float], z: float) -> float:
    """The mean of ``a - b`` (paired by world) less ``z`` standard errors; 0 if not positive.

    >>> round(_clear_gain([3.0, 2.0, 4.0], [1.0, 1.0, 1.0], 1.0), 2)
    1.42
    >>> _clear_gain([1.0, -1.0], [0.0, 0.0], 1.0)
    0.0
    """
    n = len(a)
    if n < 2:
        return 0.0
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return max(0.0, mean - z * math.sqrt(var / n))


def make(game: str, seed: int | str = 0, **params: Any) -> DoppelkopfSearchBot:
    """Registry factory."""
    return DoppelkopfSearchBot(seed, **params)


def throughput(seconds: float = 2.0, seed: int = 1, compiled: bool = False) -> dict[str, float]:
    """Determinizations and roll-outs per second from mid-deal positions (for benchmarks).

    A roll-out is a world sampled for it, played to the end by the policy and scored. With
    ``compiled`` the kernel does both, 64 worlds per call (each position packed once, as the
    search packs once per decision); else the pure-Python path, one at a time.
    """
    rng = random.Random(seed)
    views = mid_deal_views(new_deal, DoppelkopfHeuristicBot, rng, max_skip=36)
    positions = [read(v) for v in views]
    if compiled:
        packed = [rollouts.Packed(k, rng) for k in positions]
        first = []
        for k, v in zip(positions, views, strict=True):
            code = next(CODE_INDEX[a["card"]] for a in v["legal_actions"] if a["act"] == "play")
            mine = k.hand & code_mask(code)
            first.append([(mine & -mine).bit_length() - 1])
        batch = 64
        jobs = list(zip(packed, first, [k.public_party for k in positions], strict=True))
        rates_ = rates(
            jobs,
            lambda job: job[0].sample_many(batch),
            lambda job: job[0].search(job[1], -1, job[2], batch),
            seconds,
        )
        return {name: value * batch for name, value in rates_.items()}

    def play_out(k: Knowledge) -> None:
        fast = fast_from(k, sample_world(k, rng))
        rollout(fast)
        relative(settle(fast), k.seat, k.order)

    return rates(positions, lambda k: sample_world(k, rng), play_out, seconds)
