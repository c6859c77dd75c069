"""The search player: every decision by play-outs of sampled deals, worlds weighted by inference.

- **Card play and announcements**: weighted PIMC on the compiled kernel. Worlds are sampled
  consistently with everything the seat has seen (``knowledge.py``: shown-out classes, the
  Kreuz-Damen of a Hochzeit, of a Re announcer or of a played one, what an Armut showed, a Sau,
  the hand sizes) and weighted by how likely the other seats' cards so far were in each under
  the bots' own roll-out policy (``compiled.replay_loglik``). Each legal card is played in each
  world and the deal finished by the policy; each open announcement (Re, Kontra, an Absage) is
  scored on the same roll-outs with the word said. The policy's own card stands unless another
  beats it, paired world by world, by more than ``confidence`` standard errors; a word is said
  when it gains more than that and ``ANNOUNCE_MARGIN``.
- **Reservations** (gesund or Vorbehalt; which solo, Hochzeit or Stilles Solo, Armut, a redeal):
  each option is played out in sampled deals of the other hands (``compiled.reservation_values``)
  and the best mean is chosen, each worth the announcements its parties would make (the seat's
  plan, the other party's answer: a solo's count with its factor). Seats that said gesund
  before are unlikely to hold an Armut.
- **The Armut** (take or decline; what to give back): each choice played out the same way on
  deals built in Python and finished on the kernel.

:meth:`DoppelkopfSearch.evaluate` returns the same numbers for every legal action (the API of
post-game analysis, :mod:`stichwerk.bots.evaluation`).

Every decision keeps to a time budget: ``budget`` seconds for a card, ``bid_budget`` for the
decisions before the play; with ``worlds`` set it samples exactly that many worlds instead, so
that its play is reproducible. Without numba (no ``research`` extra) the search falls back to
today's pure-Python search (``search_v1``) for its play and evaluates on the Python path.
"""

import copy
import math
import random
from dataclasses import replace
from itertools import combinations
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import OUT_OF_TURN, View, legal_of
from stichwerk.bots.doppelkopf import rollouts, search_v1
from stichwerk.bots.doppelkopf.duty import discharge_value, discharges
from stichwerk.bots.doppelkopf.heuristic import (
    TAKE,
    DoppelkopfHeuristicBot,
    high_trumps,
    order_of,
    return_score,
    team_of,
    trump_count,
)
from stichwerk.bots.doppelkopf.knowledge import LEVEL_ACTS, Knowledge, read
from stichwerk.bots.doppelkopf.policy import STYLE, choose_card
from stichwerk.bots.doppelkopf.search_v1 import DoppelkopfSearchBot
from stichwerk.bots.doppelkopf.world import (
    relative,
    rollout,
    sample_world,
    settle,
)
from stichwerk.bots.evaluation import ActionValue, clear_gain, sample_in_batches, weighted
from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.cards import CARD_AUGEN, CODE_INDEX, code_mask, code_of
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.trumps import TRUMP, reservation_kinds

EPS = 0.5
"""How often the inference lets a seat stray from the policy (see ``compiled.replay_loglik``)."""
EPS_RESERVATION = 0.1
"""How likely a seat said gesund on a hand the bots would have declared an Armut with."""
ANNOUNCE_MARGIN = 0.1
"""An announcement must gain this much per deal beyond the noise (the roll-outs leave out the
other party's answer to it)."""
MAX_WORLDS = 5000
"""Worlds per card decision at most (more buys little)."""
MAX_DEALS = 4000
"""Sampled deals per reservation decision at most."""
CLEAR = 3.0
"""A card decision stops early once the best card leads every other by this many standard
errors (after at least ``MIN_CLEAR`` worlds)."""
MIN_CLEAR = 256
WORDS = {act: i for i, act in enumerate(LEVEL_ACTS)}
NO_COMPILED = "the search's evaluation needs the compiled kernel: pip install stichwerk (numba)"


class DoppelkopfSearch:
    """Weighted PIMC on the compiled kernel, for every decision, under a time budget."""

    name = "search"

    def __init__(
        self,
        seed: int | str = 0,
        budget: float = 0.3,
        bid_budget: float | None = None,
        worlds: int | None = None,
        max_worlds: int | None = None,
        compiled: bool | None = None,
        infer: bool = True,
        eps: float = EPS,
        confidence: float = 1.0,
        public: bool = True,
        duty: bool = True,
    ) -> None:
        self.budget = budget
        self.bid_budget = bid_budget if bid_budget is not None else min(1.5, 4 * budget)
        self.worlds = worlds
        self.compiled = rollouts.ready() if compiled is None else compiled
        """Search on the compiled kernel (default: when its kernels are compiled, so no
        decision waits on numba's compiler; ``rollouts.ready``)."""
        if self.compiled and not rollouts.available():
            raise StichwerkError("the compiled search needs numba: pip install stichwerk")
        self.max_worlds = max_worlds or MAX_WORLDS
        self.infer = infer
        self.eps = eps
        self.confidence = confidence
        self.public = public
        self.duty = duty
        """Weigh the end of the list when the seat owes a Pflicht-Solo (:mod:`.duty`)."""
        self.seed = seed
        self.rng = random.Random(f"search2-{seed}")
        self.heuristic = DoppelkopfHeuristicBot(seed, duty=duty)
        self.fallback = (
            None
            if self.compiled
            else DoppelkopfSearchBot(seed, budget, worlds, compiled=False, style=STYLE)
        )
        self.worlds_last = 0
        self.rollouts_last = 0
        self.ess_last = 0.0

    # ------------------------------------------------------------------ the interface

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        for a in actions:
            if a.act in ("sau", "supersau"):
                return a  # the policy shows a Sau at once; the roll-outs assume it
        if self.fallback is not None:
            return self.fallback.act(view)
        k = read(dict(view))
        acts = {a.act for a in actions}
        start = clock.now()
        if "play" in acts:
            return self._choose_play(k, actions, start + self.budget)
        if k.phase == "play":
            raise StichwerkError(OUT_OF_TURN)
        values = self._speak(k, actions, start + self.bid_budget)
        return max(values, key=lambda v: v.mean).action

    def evaluate(self, view: View, seconds: float) -> list[ActionValue]:
        """What the search expects of every legal action of the viewing seat (see
        :mod:`stichwerk.bots.evaluation`), within about ``seconds``. It reads the view only."""
        if not self.compiled:
            raise StichwerkError(NO_COMPILED)
        actions = legal_of(view)
        if not actions:
            return []
        k = read(dict(view))
        deadline = clock.now() + seconds
        if any(a.act == "play" for a in actions):
            return self._evaluate_play(k, actions, deadline)
        if k.phase == "play":
            raise StichwerkError(OUT_OF_TURN)
        return self._speak(k, actions, deadline)

    def sampled_worlds(self, view: View, count: int) -> tuple[Any, Any]:
        """``count`` worlds as the search samples them for this view, and their weights:
        ``(hands, weights)``, numpy arrays of shape ``(count, 5)`` (every seat's hand as a bit
        set of card ids, as ``knowledge.read`` numbers them) and ``(count,)``."""
        import numpy as np

        from stichwerk.bots.doppelkopf import compiled as DC

        if not self.compiled:
            raise StichwerkError(NO_COMPILED)
        K = rollouts.kernel()
        assert K is not None
        k = read(dict(view))
        hands = np.zeros((count, 5), dtype=np.int64)
        logw = np.zeros(count, dtype=np.float64)
        if k.base is None:
            template, kn, kf = _reservation_rows(K, k)
            t = K.tables_for(k.profile)
            counters = np.zeros(2, dtype=np.int64)
            rs = np.array([self.rng.getrandbits(64)], dtype=np.uint64)
            W = rollouts.sampler()
            for w in range(count):
                row = template.copy()
                if not W.sample_world(row, kn, kf, t.orders, rs, counters, t.ann):
                    raise StichwerkError("no world fits what the seat knows")
                hands[w] = row[K.HAND : K.HAND + 5]
            return hands, np.ones(count)
        packed = rollouts.Packed(k, self.rng)
        t = packed.tables
        pub = np.full(5, -1, dtype=np.int64)
        pub[: len(k.public_party)] = k.public_party
        hist = np.array(k.events or [(0, 0, 0)], dtype=np.int64).reshape(-1, 3)
        got = DC.sample_worlds(
            packed.base, packed.kn, packed.kf, t.profile, t.orders, t.ann, packed.policy.ints,
            packed.policy.floats, pub, self.public, count, packed.rs, packed.counters, hands,
            logw, hist, len(k.events) if self.infer else 0, k.hochzeiter >= 0, self.eps,
        )  # fmt: skip
        if got < count:
            raise StichwerkError("no world fits what the seat knows")
        return hands, np.exp(logw - logw.max())

    # ------------------------------------------------------------------ card play

    def _choose_play(self, k: Knowledge, actions: list[Action], deadline: float) -> Action:
        plays, cards = _plays(k, actions)
        words = [a for a in actions if a.act in WORDS]
        if len(plays) == 1 and not words:
            return plays[0]
        run = self._run_play(k, cards, words, deadline, stop_early=True)
        values, said, weights = run
        n = len(cards)
        default = cards.index(self._policy_card(k, cards)) if n > 1 else 0
        best, best_gain = default, 0.0
        for i in range(n):
            if i != default:
                gain = clear_gain(values[i], values[default], weights, self.confidence)
                if gain > best_gain:
                    best, best_gain = i, gain
        word, word_gain = None, ANNOUNCE_MARGIN
        for j, w in enumerate(words):
            gain = clear_gain(said[j][best], values[best], weights, self.confidence)
            if gain > word_gain:
                word, word_gain = w, gain
        return word if word is not None else plays[best]

    def _evaluate_play(
        self, k: Knowledge, actions: list[Action], deadline: float
    ) -> list[ActionValue]:
        plays, cards = _plays(k, actions)
        words = [a for a in actions if a.act in WORDS]
        sau = [a for a in actions if a.act in ("sau", "supersau")]
        out: list[ActionValue] = []
        if sau:
            # Each way of going on gets its share of the time: on now, or after the Sau.
            share = (deadline - clock.now()) / (1 + len(sau))
            deadline = clock.now() + share
        values, said, weights = self._run_play(k, cards, words, deadline, stop_early=False)
        samples = self.worlds_last
        for i, a in enumerate(plays):
            s = weighted(values[i], weights)
            out.append(ActionValue(a, s.mean, s.half_width, samples))
        for j, a in enumerate(words):
            best = max((weighted(said[j][i], weights) for i in range(len(cards))),
                       key=lambda s: s.mean)  # fmt: skip
            out.append(ActionValue(a, best.mean, best.half_width, samples))
        for a in sau:
            after = _after_sau(k, a)
            v, _, w = self._run_play(after, cards, [], clock.now() + share, False)
            best = max((weighted(v[i], w) for i in range(len(cards))), key=lambda s: s.mean)
            out.append(ActionValue(a, best.mean, best.half_width, self.worlds_last))
        return out

    def _run_play(
        self,
        k: Knowledge,
        cards: list[int],
        words: list[Action],
        deadline: float,
        stop_early: bool,
    ) -> tuple[list[Any], list[list[Any]], Any]:
        """Per card its value in each world, per word and card the same with the word said,
        and the worlds' weights (numpy arrays), in growing batches until the budget is
        spent."""
        import numpy as np

        from stichwerk.bots.doppelkopf import compiled as DC

        K = rollouts.kernel()
        assert K is not None
        packed = rollouts.Packed(k, self.rng)
        t = packed.tables
        public = k.public_party if self.public else None
        pub = np.full(5, -1, dtype=np.int64)
        if public is not None:
            pub[: len(public)] = public
        hist = np.array(k.events or [(0, 0, 0)], dtype=np.int64).reshape(-1, 3)
        n_ev = len(k.events)
        codes = np.array([WORDS[w.act] for w in words], dtype=np.int64)
        cards_a = np.array(cards, dtype=np.int64)
        cap = self.worlds if self.worlds is not None else self.max_worlds

        def fill(n: int) -> tuple[int, tuple[Any, Any, Any]]:
            values = np.zeros((n, len(cards)), dtype=np.float64)
            said = np.zeros((n, len(cards), len(words)), dtype=np.float64)
            logw = np.zeros(n, dtype=np.float64)
            got = DC.search_weighted(
                packed.base, packed.kn, packed.kf, t.profile, t.orders, t.ann,
                packed.policy.ints, packed.policy.floats, cards_a, codes, pub,
                public is not None, n, packed.rs, packed.counters, values, said, logw, hist,
                n_ev, k.hochzeiter >= 0, self.eps, self.infer,
            )  # fmt: skip
            return got, (values, logw, said)

        (values_all, _, said_all), weights, done = sample_in_batches(
            fill, cap, None if self.worlds is not None else deadline, first=8, most=256,
            clear_after=MIN_CLEAR if stop_early else None, z=CLEAR,
        )  # fmt: skip
        self.worlds_last = done
        self.rollouts_last = done * len(cards)
        self.ess_last = float(weights.sum() ** 2 / (weights**2).sum()) if done else 0.0
        per_card = [values_all[:, i] for i in range(len(cards))]
        per_word = [[said_all[:, i, j] for i in range(len(cards))] for j in range(len(words))]
        return per_card, per_word, weights

    def _policy_card(self, k: Knowledge, cards: list[int]) -> int:
        """The card the roll-out policy would play (one of ``cards``)."""
        assert k.base is not None
        fast = k.base.copy()
        fast.hands[k.seat] = k.hand
        legal = 0
        for card in cards:
            legal |= 1 << card
        card = choose_card(fast, k.seat, legal, team_of(k))
        return next(c for c in cards if c >> 1 == card >> 1)

    # ------------------------------------------------------------------ before the play

    def _speak(self, k: Knowledge, actions: list[Action], deadline: float) -> list[ActionValue]:
        acts = {a.act for a in actions}
        if "take" in acts:
            return self._armut_answer(k, actions, deadline)
        if "return" in acts:
            return self._armut_return(k, actions, deadline)
        return self._reservations(k, actions, deadline)

    def _reservations(
        self, k: Knowledge, actions: list[Action], deadline: float
    ) -> list[ActionValue]:
        """Reservations and declarations: every option the seat could end up declaring,
        played out; ``vorbehalt`` is worth its best declaration. A declaration that would be
        the seat's Pflicht-Solo gains what owing it longer would cost (:mod:`.duty`)."""
        if k.phase == "reservations":
            options = _declarable(k)
            if any(a.act == "gesund" for a in actions):
                options.insert(0, "gesund")
        else:
            options = [_option_of(a) for a in actions]
        options = list(dict.fromkeys(options))
        runs = self._compiled_reservations(k, options, deadline)
        summary = {o: weighted(v, w) for o, (v, w) in runs.items()}
        bonus = discharge_value(k) if self.duty else 0.0  # a Pflicht-Solo now is not owed later
        if bonus:
            for o in options:
                if discharges(k, o):
                    summary[o] = replace(summary[o], mean=summary[o].mean + bonus)
        samples = {o: len(v) for o, (v, _) in runs.items()}
        out = []
        for a in actions:
            if a.act == "vorbehalt":
                best = max((o for o in options if o != "gesund"), key=lambda o: summary[o].mean)
                s, n = summary[best], samples[best]
            else:
                o = _option_of(a)
                s, n = summary[o], samples[o]
            out.append(ActionValue(a, s.mean, s.half_width, n))
        return out

    def _compiled_reservations(
        self, k: Knowledge, options: list[str], deadline: float
    ) -> dict[str, tuple[Any, Any]]:
        import numpy as np

        from stichwerk.bots.doppelkopf import compiled as DC

        K = rollouts.kernel()
        assert K is not None
        p = k.profile
        t = K.tables_for(p)
        policy = rollouts.policy_tables(p)
        template, kn, kf = _reservation_rows(K, k)
        codes = []
        leaders = []
        soloist_leads = p.soloist_leads(k.owes_solo)  # a vorgeführt seat owes it too
        for o in options:
            code, leader = _game_code(o), k.order[0]
            if o.startswith("solo-") and soloist_leads:
                leader = k.seat
            codes.append(code)
            leaders.append(leader)
        normal = order_of(k, "normal")
        armut_mask = normal.trump_mask
        if not p.armut_fox_is_trump:
            armut_mask &= ~code_mask(code_of("DA"))
        high = 0
        for c in normal.trumps_high_to_low[:4]:
            high |= code_mask(c)
        gesund = 0
        for s, word in k.reserved.items():
            if word == "gesund" and s != k.seat:
                gesund |= 1 << s
        passed = k.hand & normal.trump_mask
        take = np.array(TAKE, dtype=np.int64)
        rs = np.array([self.rng.getrandbits(64)], dtype=np.uint64)
        counters = np.zeros(2, dtype=np.int64)
        options_a = np.array(codes, dtype=np.int64)
        leaders_a = np.array(leaders, dtype=np.int64)
        cap = self.worlds if self.worlds is not None else MAX_DEALS

        def fill(n: int) -> tuple[int, tuple[Any, Any, Any]]:
            values = np.zeros((n, len(options)), dtype=np.float64)
            logw = np.zeros(n, dtype=np.float64)
            said = np.zeros((n, len(options), DC.PLANS, DC.ANSWERS), dtype=np.float64)
            got = DC.reservation_values(
                template, kn, kf, t.profile, t.orders, t.ann, policy.ints, policy.floats,
                options_a, leaders_a, p.silent_solo, passed, normal.trump_mask, high, take,
                gesund, armut_mask if p.armut else 0, p.armut_max_trumps if p.armut else -1,
                EPS_RESERVATION, n, rs, counters, values, logw, said,
            )  # fmt: skip
            return got, (values, logw, said)  # said[:, :, 0, 0] is values: nothing said

        (_, _, said_all), weights, done = sample_in_batches(
            fill, cap, None if self.worlds is not None else deadline, first=32,
            most=max(8, 4096 // len(options)),
        )  # fmt: skip
        self.worlds_last = done
        self.rollouts_last = done * len(options)
        out = {}
        for i, o in enumerate(options):
            out[o] = (_with_announcements(said_all[:, i], weights, self.confidence), weights)
        return out

    # ------------------------------------------------------------------ the Armut

    def _armut_answer(
        self, k: Knowledge, actions: list[Action], deadline: float
    ) -> list[ActionValue]:
        """Take or decline: both played out in deals of the hidden cards (the poor seat's
        passed cards are its trumps), the rest of the offer by the bots' taking rule."""
        values: dict[str, list[float]] = {"take": [], "decline": []}
        poor = k.armut_seat
        n = self._armut_count(k)
        count = 0
        cap = self.worlds if self.worlds is not None else 600
        while count < cap:
            hands, passed = self._armut_world(k, poor, n)
            for act in ("take", "decline"):
                values[act].append(self._armut_outcome(k, hands, passed, act == "take"))
            count += 1
            if self.worlds is None and clock.now() > deadline:
                break
        return [ActionValue(a, *_mean_half(values[a.act]), count) for a in actions]

    def _armut_return(
        self, k: Knowledge, actions: list[Action], deadline: float
    ) -> list[ActionValue]:
        """What to give back: the heuristic's best few candidates played out (the rest scored
        by how much worse their rule of thumb finds them than the best)."""
        ranked = sorted(actions, key=lambda a: return_score(k, a.cards), reverse=True)
        top = ranked[:6]
        values: dict[Action, list[float]] = {a: [] for a in top}
        count = 0
        cap = self.worlds if self.worlds is not None else 400
        poor_knows = copy.copy(k)
        poor_knows.exact_trumps = list(k.exact_trumps)
        poor_knows.exact_trumps[k.armut_seat] = 0  # every trump of the poor hand was passed
        while count < cap:
            world = sample_world(poor_knows, self.rng)
            for a in top:
                values[a].append(self._returned_outcome(k, world.hands, a))
            count += 1
            if self.worlds is None and clock.now() > deadline:
                break
        out = []
        floor = min(_mean_half(v)[0] for v in values.values())
        for a in actions:
            if a in values:
                out.append(ActionValue(a, *_mean_half(values[a]), count))
            else:
                out.append(ActionValue(a, floor, math.inf, 0))
        return out

    def _armut_count(self, k: Knowledge) -> int:
        """How many cards the poor seat passed (its hand is short by as many)."""
        full = 12 if k.profile.with_nines else 10
        return max(0, full - k.hand_sizes[k.armut_seat])

    def _armut_world(self, k: Knowledge, poor: int, n: int) -> tuple[list[int], int]:
        """Hands of a deal the offered seat cannot tell from the real one: the poor seat
        passed ``n`` of the hidden trumps and holds none, everything else is dealt at random."""
        normal = order_of(k, "normal").trump_mask
        trumps = [c for c in bits_list(k.unseen) if normal >> c & 1]
        fehl = [c for c in bits_list(k.unseen) if not normal >> c & 1]
        self.rng.shuffle(trumps)
        self.rng.shuffle(fehl)
        passed = 0
        for c in trumps[:n]:
            passed |= 1 << c
        hands = [0] * k.seats
        hands[k.seat] = k.hand
        for c in fehl[: k.hand_sizes[poor]]:
            hands[poor] |= 1 << c
        rest = trumps[n:] + fehl[k.hand_sizes[poor] :]
        self.rng.shuffle(rest)
        for s in k.others:
            if s == poor:
                continue
            for _ in range(k.hand_sizes[s]):
                hands[s] |= 1 << rest.pop()
        return hands, passed

    def _armut_outcome(self, k: Knowledge, hands: list[int], passed: int, take: bool) -> float:
        """The seat's value when it takes (its best return by the bots' rule) or declines (the
        next seats by the bots' taking rule, or a redeal)."""
        poor = k.armut_seat
        order = k.order
        i = order.index(poor)
        offer = [order[(i + j) % 4] for j in (1, 2, 3)]
        offer = offer[offer.index(k.seat) :]
        taker = -1
        for s in offer:
            if (s == k.seat and take) or (s != k.seat and _takes_hand(k, hands[s])):
                taker = s
                break
        if taker < 0:
            return 0.0
        full = hands[taker] | passed
        back = _best_return_python(k, full, passed.bit_count())
        hands = list(hands)
        hands[taker] = full & ~back
        hands[poor] = hands[poor] | back
        return _play_armut(k, hands, poor, taker)

    def _returned_outcome(self, k: Knowledge, hands: list[int], action: Action) -> float:
        back = 0
        for code in action.cards:
            free = k.hand & code_mask(CODE_INDEX[code]) & ~back
            back |= free & -free
        hands = list(hands)
        hands[k.seat] = k.hand & ~back
        hands[k.armut_seat] |= back
        return _play_armut(k, hands, k.armut_seat, k.seat)


# ---------------------------------------------------------------------- helpers


def _with_announcements(said: Any, weights: Any, z: float) -> Any:
    """A declaration's values per deal (``said[deal, plan, answer]``, numpy, from
    ``compiled.reservation_values``) with the announcements the parties would make: for each
    plan of the seat the other party's answer that is worse for the seat on the mean, and of
    the plans the one that gains most over saying nothing beyond ``z`` standard errors and
    ``ANNOUNCE_MARGIN``, as a word is chosen in the play. A solo's announcements count with
    the solo's factor, so leaving them out undervalued a strong solo and overvalued a weak one
    (its defenders say Kontra)."""
    total = float(weights.sum())
    ess = total * total / float((weights * weights).sum())

    def answered(plan: int) -> Any:
        means = [float((weights * said[:, plan, q]).sum()) for q in range(said.shape[2])]
        return said[:, plan, means.index(min(means))]

    plain = answered(0)
    if ess < 2:
        return plain
    best, best_gain = plain, ANNOUNCE_MARGIN
    for plan in range(1, said.shape[1]):
        values = answered(plan)
        diff = values - plain
        mean = float((weights * diff).sum() / total)
        var = float((weights * (diff - mean) ** 2).sum() / total) * ess / (ess - 1)
        gain = mean - z * math.sqrt(var / ess)
        if gain > best_gain:
            best, best_gain = values, gain
    return best


def _reservation_rows(K: Any, k: Knowledge) -> tuple[Any, Any, Any]:
    """Before the play: a deal row with only the seat's hand dealt (Vorhand to lead, the
    normal card order) and the sampler's rows for the other hands."""
    p = k.profile
    template = K.empty_row()
    template[K.SEATS] = k.seats
    for i, s in enumerate(k.order):
        template[K.NEXT + s] = k.order[(i + 1) % 4]
    size = 12 if p.with_nines else 10
    template[K.N_TRICKS] = size
    template[K.HAND_SIZE] = size
    template[K.TO_ACT] = k.order[0]
    template[K.ORDER] = K.order_index("normal", False, False)
    template[K.HAND + k.seat] = k.hand
    kn, kf = rollouts.knowledge_rows(k)
    W = rollouts.sampler()
    kn[W.D_NORMAL_PARTIES] = 0
    kn[W.D_N_ANN] = 0
    kn[W.D_TO_ACT] = -1
    return template, kn, kf


def _plays(k: Knowledge, actions: list[Action]) -> tuple[list[Action], list[int]]:
    plays: list[Action] = []
    cards: list[int] = []
    for a in actions:
        if a.act == "play" and a.card:
            mine = k.hand & code_mask(CODE_INDEX[a.card])
            plays.append(a)
            cards.append((mine & -mine).bit_length() - 1)
    return plays, cards


def _declarable(k: Knowledge) -> list[str]:
    """Every declaration the seat's hand allows (``reservation_kinds``), solos by type."""
    out: list[str] = []
    for kind in reservation_kinds(k.profile, k.hand):
        if kind == "solo":
            out += [f"solo-{t}" for t in k.profile.solo_types]
        else:
            out.append(kind)
    return out


def _option_of(a: Action) -> str:
    if a.act == "solo":
        return f"solo-{a.type}"
    return a.act


def _game_code(option: str) -> int:
    from stichwerk.bots.doppelkopf import compiled as DC
    from stichwerk.doppelkopf import kernel as K

    if option in ("neu-geben", "schmeissen"):
        return DC.REDEAL
    if option == "gesund":
        return int(K.NORMAL)
    return int(K.GAME_CODE[option])


def _after_sau(k: Knowledge, a: Action) -> Knowledge:
    """The seat's knowledge once it has shown the Sau (or the Superschweine)."""
    assert k.base is not None
    after = copy.copy(k)
    after.base = k.base.copy()
    if a.act == "sau":
        after.base.announce_sau(k.seat)
        after.sau_seat = k.seat
    else:
        after.base.announce_supersau(k.seat)
        after.supersau_seat = k.seat
    after.events = [*k.events, (2 if a.act == "sau" else 3, k.seat, 0)]
    return after


def _mean_half(values: list[float]) -> tuple[float, float]:
    s = weighted(values)
    return s.mean, s.half_width


def _takes_hand(k: Knowledge, hand: int) -> bool:
    """The bots' rule for taking an Armut, on a hand of the sampled world."""
    order = order_of(k, "normal")
    trumps = trump_count(hand, order)
    high = high_trumps(hand, order, 4)
    return (trumps >= TAKE[0] and high >= TAKE[1]) or (trumps >= TAKE[2] and high >= TAKE[3])


def _best_return_python(k: Knowledge, hand: int, n: int) -> int:
    """The cards a taker gives back by the bots' rule (``return_score``), as a mask."""
    order = order_of(k, "normal")
    cards = bits_list(hand)
    best, best_score = 0, -math.inf
    for combo in combinations(cards, n):
        back = 0
        score = 0.0
        for c in combo:
            back |= 1 << c
            if order.cls[c >> 1] == TRUMP:
                score -= 30.0 + order.power[c >> 1] * 0.1
            else:
                score += CARD_AUGEN[c] * 0.3
        left = hand & ~back
        for s in range(4):
            mask = order.suit_masks[s]
            if hand & mask and not left & mask:
                score += 8.0
        if score > best_score:
            best, best_score = back, score
    return best


def _play_armut(k: Knowledge, hands: list[int], poor: int, taker: int) -> float:
    """The Armut game of these hands played out by the policy; the seat's relative value."""
    fast = FastPlay(k.profile, k.seats)
    fast.set_order(k.order)
    fast.hands = list(hands)
    for s in k.order:
        fast.party[s] = 0 if s in (poor, taker) else 1
    fast.set_game("armut")
    fast.to_act = k.order[0]
    rollout(fast)
    return relative(settle(fast), k.seat, k.order)


def make(game: str, seed: int | str = 0, **params: Any) -> DoppelkopfSearch:
    """Registry factory."""
    return DoppelkopfSearch(seed, **params)


def throughput(seconds: float = 2.0, seed: int = 1, compiled: bool = False) -> dict[str, float]:
    """Determinizations and roll-outs per second (``benchmarks/search_speed.py``): both searches
    sample and roll out on the same paths, so this is ``search_v1.throughput``."""
    return search_v1.throughput(seconds, seed, compiled)
