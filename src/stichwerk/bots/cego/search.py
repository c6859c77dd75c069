"""The search player: every decision by play-outs of sampled deals, worlds weighted by inference.

- **Card play**: weighted PIMC on the compiled kernel. Worlds are sampled consistently with
  everything the seat has seen (``knowledge.py``: shown-out suits, the laid-out cards, the Geiß
  of an Ulti or Geiß bidder, the declarer's contract and the cards it laid away, the hand sizes)
  and weighted by how likely the other seats' cards so far were in each under the bots' own
  roll-out policy (``compiled.replay_loglik``); every legal card is played in each world, the
  deal finished by the policy, and the card with the best weighted mean is played.
- **Bidding** (the Solo round, Gegensolo, Piccolo and Bettel, the auction, Räuber):
  each word is played out in sampled deals of the hidden cards (``compiled.contract_values``):
  the contract it makes, with its declarer and the exchange by the bots' rule, or after
  ``fort`` the game as it goes on (later seats announce a Solo on a Pflichtsolo hand, else the
  strongest hand for the ladder wins the auction). A Solo is played out as the other seats
  would answer it: each in turn holds Cego with Gegensolo where that Cego is worth more to it
  than its share of the Solo. A seat that passed in the Solo round is
  unlikely to hold a Pflichtsolo. A Pflichtsolo hand always announces (the rule), choosing its
  best announcement. ``bidding="heuristic"`` bids as ``search-v1`` instead.
- **The exchange** (what to lay out, which cards to keep, what to press, withdrawing a
  Leere, *aufdecken*): each legal choice is played out the same way, the blind and the other hands
  sampled.

:meth:`CegoSearch.evaluate` returns the same numbers for every legal action (the API of post-game
analysis, :mod:`stichwerk.bots.evaluation`). Every decision keeps to a time budget: ``budget``
seconds for a card, ``bid_budget`` before the play; with ``worlds`` set it samples exactly that
many worlds instead. Without numba the search falls back to today's pure-Python search
(``search_v1``), and :meth:`~CegoSearch.evaluate` says it needs the ``research`` extra.
"""

import copy
import random
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import View, legal_of
from stichwerk.bots.cego import rollouts, search_v1
from stichwerk.bots.cego.bidding import solo_model
from stichwerk.bots.cego.heuristic import CegoHeuristicBot
from stichwerk.bots.cego.knowledge import Knowledge, mask_of, read
from stichwerk.bots.cego.search_v1 import CegoSearchBot
from stichwerk.bots.cego.world import TRUMP_LEAN, sample_world
from stichwerk.bots.evaluation import ActionValue, clear_gain, sample_in_batches, weighted
from stichwerk.cego import cards as C
from stichwerk.cego import scoring
from stichwerk.cego.contracts import EXCHANGES
from stichwerk.cego.state import is_pflichtsolo
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError

EPS = 0.5
"""How often the inference lets a seat stray from the policy (``compiled.replay_loglik``)."""
EPS_BID = 0.05
"""How likely a seat passed in the Solo round on a Pflichtsolo hand."""
MAX_WORLDS = 5000
"""Worlds per card decision at most."""
MAX_DEALS = 4000
"""Sampled deals per decision before the play at most."""
EXCHANGE_Z = 2.0
"""How many standard errors another exchange must gain over the bots' rule to be chosen."""
NO_COMPILED = "the search's evaluation needs the compiled kernel: pip install stichwerk (numba)"


class CegoSearch:
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
        bidding: str = "search",
        exchange: str = "search",
    ) -> None:
        self.budget = budget
        if bidding not in ("search", "heuristic") or exchange not in ("search", "heuristic"):
            raise StichwerkError("bidding and exchange are 'search' or 'heuristic'")
        self.bidding = bidding
        """``search`` (the default): bid by the play-outs of :meth:`evaluate`; or ``heuristic``:
        bid as ``search-v1`` does, by the heuristic's simulated contracts (to measure what each
        part brings: on duplicate deals the two did not differ measurably, ``docs/bots.md``)."""
        self.exchange = exchange
        """``search`` (the default), or ``heuristic``: exchange as ``search-v1`` does."""
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
        self.seed = seed
        self.rng = random.Random(f"search2-{seed}")
        self.fallback = None if self.compiled else CegoSearchBot(seed, budget, worlds=worlds,
                                                                 compiled=False)  # fmt: skip
        self.v1: CegoSearchBot | None = self.fallback
        self._runs: tuple[dict[Action, Any], Any] = ({}, None)
        self.worlds_last = 0
        self.rollouts_last = 0
        self.ess_last = 0.0

    # ------------------------------------------------------------------ the interface

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        if self.fallback is not None:
            return self.fallback.act(view)
        k = read(dict(view))
        acts = {a.act for a in actions}
        start = clock.now()
        in_exchange = bool(acts & {"keep", "press", "lay-out"})
        if (self.bidding == "heuristic" and "play" not in acts and not in_exchange) or (
            self.exchange == "heuristic" and in_exchange
        ):
            return self._v1().act(view)
        if "play" in acts:
            values = self._play(k, actions, start + self.budget, stop_early=True)
        else:
            values = self._before_play(k, actions, start + self.bid_budget)
            forced = self._pflichtsolo_words(k, actions)
            if forced:
                values = [v for v in values if v.action.act in forced]
            if in_exchange:
                return self._exchange_choice(k, actions, values)
        return max(values, key=lambda v: v.mean).action

    def _exchange_choice(
        self, k: Knowledge, actions: list[Action], values: list[ActionValue]
    ) -> Action:
        """The bots' rule for the exchange stands unless another choice beats it, paired deal
        by deal, by more than ``EXCHANGE_Z`` standard errors: among dozens of ways to keep two
        cards the best mean is often just the luckiest."""
        default = CegoHeuristicBot(0).exchange(k, actions)
        runs, weights = self._runs
        if default not in runs:
            return max(values, key=lambda v: v.mean).action
        best, best_gain = default, 0.0
        for a, v in runs.items():
            if a != default:
                gain = clear_gain(v, runs[default], weights, EXCHANGE_Z)
                if gain > best_gain:
                    best, best_gain = a, gain
        chosen = weighted(runs[best], weights).mean
        for v in values:
            if v.action.act == "aufdecken" and v.mean - v.half_width > chosen:
                return v.action
        return best

    def _v1(self) -> CegoSearchBot:
        """``search-v1`` with this bot's budget (for ``bidding``/``exchange`` = heuristic)."""
        if self.v1 is None:
            self.v1 = CegoSearchBot(self.seed, self.budget, worlds=self.worlds)
        return self.v1

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
            return self._play(k, actions, deadline, stop_early=False)
        return self._before_play(k, actions, deadline)

    def sampled_worlds(self, view: View, count: int) -> tuple[Any, Any]:
        """``count`` worlds as the search samples them for this view, and their weights:
        ``(hands, weights)``, numpy arrays of shape ``(count, 5)`` (every seat's hand as a bit
        set of card ids) and ``(count,)``."""
        import numpy as np

        from stichwerk.bots.cego import compiled as CC

        if not self.compiled:
            raise StichwerkError(NO_COMPILED)
        K = rollouts.kernel()
        assert K is not None
        k = read(dict(view))
        hands = np.zeros((count, 5), dtype=np.int64)
        hidden = np.zeros(count, dtype=np.int64)
        logw = np.zeros(count, dtype=np.float64)
        if k.phase != "play":
            template, kn, leans = _bid_rows(K, k, 1 if k.my_legage else 0)
            rs = np.array([self.rng.getrandbits(64)], dtype=np.uint64)
            W = rollouts.sampler()
            for w in range(count):
                row = template.copy()
                if W.sample_world(row, kn, leans, rs) < 0:
                    raise StichwerkError("no world fits what the seat knows")
                hands[w] = row[K.HAND : K.HAND + 5]
            return hands, np.ones(count)
        packed = rollouts.Packed(k, self.rng)
        events = np.array(k.events or [(0, 0)], dtype=np.int64).reshape(-1, 2)
        got = CC.sample_worlds(
            packed.base, packed.kn, packed.leans, count, packed.rs, hands, hidden, logw, events,
            len(k.events) if self.infer else 0, k.laid_out | (k.shown & k.played), self.eps,
            np.array(k.banned + [0] * (5 - len(k.banned)), dtype=np.int64),
        )  # fmt: skip
        if got < count:
            raise StichwerkError("no world fits what the seat knows")
        return hands, np.exp(logw - logw.max())

    @staticmethod
    def _pflichtsolo_words(k: Knowledge, actions: list[Action]) -> set[str]:
        """A Pflichtsolo hand must announce (RULINGS: a Schinder is Berg when the declarer
        has the hands shown): its words other than ``fort``."""
        acts = {a.act for a in actions}
        if (
            k.phase == "solo"
            and "solo" in acts
            and k.profile.pflichtsolo
            and is_pflichtsolo(k.profile, k.hand, k.players)
        ):
            return acts - {"fort"}
        return set()

    # ------------------------------------------------------------------ card play

    def _play(
        self, k: Knowledge, actions: list[Action], deadline: float, stop_early: bool
    ) -> list[ActionValue]:
        plays = [a for a in actions if a.act == "play" and a.card]
        others = [a for a in actions if a.act != "play"]
        if others:  # withdraw, aufdecken before the first lead: each its own share of time
            share = (deadline - clock.now()) / (1 + len(others))
            deadline = clock.now() + share
        out: list[ActionValue] = []
        if len(plays) == 1 and not others and stop_early:
            return [ActionValue(plays[0], 0.0, float("inf"), 0)]
        values, weights = self._run_play(k, plays, deadline, stop_early)
        for i, a in enumerate(plays):
            s = weighted(values[i], weights)
            out.append(ActionValue(a, s.mean, s.half_width, self.worlds_last))
        for a in others:
            end = clock.now() + share
            if a.act == "aufdecken":
                out.append(self._aufdecken(k, a, end))
            else:
                after = _withdrawn(k, a)
                v, w = self._run_play(after, plays, end, False)
                best = max((weighted(v[i], w) for i in range(len(plays))), key=lambda s: s.mean)
                out.append(ActionValue(a, best.mean, best.half_width, self.worlds_last))
        return out

    def _run_play(
        self, k: Knowledge, plays: list[Action], deadline: float, stop_early: bool
    ) -> tuple[list[Any], Any]:
        import numpy as np

        from stichwerk.bots.cego import compiled as CC

        packed = rollouts.Packed(k, self.rng)
        cards = np.array([C.ID[a.card or ""] for a in plays], dtype=np.int64)
        events = np.array(k.events or [(0, 0)], dtype=np.int64).reshape(-1, 2)
        laid_start = k.laid_out | (k.shown & k.played)
        cap = self.worlds if self.worlds is not None else self.max_worlds
        banned = np.array(k.banned + [0] * (5 - len(k.banned)), dtype=np.int64)

        def fill(n: int) -> tuple[int, tuple[Any, Any]]:
            values = np.zeros((n, len(plays)), dtype=np.float64)
            logw = np.zeros(n, dtype=np.float64)
            got = CC.search_weighted(
                packed.base, packed.kn, packed.leans, packed.rules, k.removed, cards, n,
                packed.rs, values, logw, events, len(k.events), laid_start, self.eps,
                self.infer, banned,
            )  # fmt: skip
            return got, (values, logw)

        (values_all, _), weights, done = sample_in_batches(
            fill, cap, None if self.worlds is not None else deadline, first=8, most=256,
            clear_after=256 if stop_early else None,
        )  # fmt: skip
        self.worlds_last = done
        self.rollouts_last = done * len(plays)
        self.ess_last = float(weights.sum() ** 2 / (weights**2).sum())
        return [values_all[:, i] for i in range(len(plays))], weights

    def _aufdecken(self, k: Knowledge, action: Action, deadline: float) -> ActionValue:
        """*Aufdecken lassen*, scored in sampled worlds: a seat that passed in the Solo round on
        a Pflichtsolo hand is Berg, else the declarer (such worlds weigh as the inference says)."""
        assert k.declarer is not None
        values: list[float] = []
        weights: list[float] = []
        count = 0
        cap = self.worlds if self.worlds is not None else 2000
        while count < cap:
            world = sample_world(k, self.rng)
            schinder = [
                s for s in k.passed_solo
                if s != k.seat and is_pflichtsolo(k.profile, world.hands[s], k.players)
            ]  # fmt: skip
            score = scoring.score_aufdecken(
                k.profile, seats=k.seats, declarer=k.declarer, value=k.value or 1,
                schinder=schinder,
            )["settlement"]  # fmt: skip
            dealt = k.order
            values.append(score[k.seat] - sum(score[s] for s in dealt) / len(dealt))
            weights.append(EPS_BID ** len(schinder))
            count += 1
            if self.worlds is None and clock.now() > deadline:
                break
        s = weighted(values, weights)
        return ActionValue(action, s.mean, s.half_width, count)

    # ------------------------------------------------------------------ before the play

    def _before_play(
        self, k: Knowledge, actions: list[Action], deadline: float
    ) -> list[ActionValue]:
        """Every word or exchange choice played out in sampled deals (see the module
        docstring); ``aufdecken`` scored on its own."""
        rows: list[list[int]] = []
        spans: list[tuple[Action, int, int, str]] = []
        extra: list[Action] = []
        stage = 0
        for a in actions:
            if a.act == "aufdecken":
                extra.append(a)
                continue
            option_rows, combine, stage_a = self._option(k, a)
            spans.append((a, len(rows), len(rows) + len(option_rows), combine))
            rows.extend(option_rows)
            stage = max(stage, stage_a)
        out: list[ActionValue] = []
        if extra:
            share = (deadline - clock.now()) / (1 + len(extra))
            deadline = clock.now() + share
        self._runs = ({}, None)
        if rows:
            values, weights = self._run_options(k, rows, stage, deadline)
            runs = {}
            for a, lo, hi, combine in spans:
                if combine == "max":  # the seat's own later choice: the best of them
                    i = max(range(lo, hi), key=lambda i: weighted(values[:, i], weights).mean)
                    runs[a] = values[:, i]
                else:  # another seat's choice, unknown: each as likely
                    runs[a] = values[:, lo:hi].mean(axis=1)
                s = weighted(runs[a], weights)
                out.append(ActionValue(a, s.mean, s.half_width, self.worlds_last))
            self._runs = (runs, weights)
        for a in extra:
            out.append(self._aufdecken(k, a, clock.now() + share))
        return out

    def _option(self, k: Knowledge, a: Action) -> tuple[list[list[int]], str, int]:
        """The option rows (``compiled.O_*``) of a word or exchange choice, how to combine
        them (``max``: the seat chooses later; ``mean``: another seat does) and the stage."""
        from stichwerk.bots.cego import compiled as CC

        K = rollouts.kernel()
        assert K is not None
        rules = k.profile
        me = k.seat
        raise_by = rules.gegensolo_raise if k.gegensolo else 0
        row = [-1] * CC.OPTION_FIELDS
        row[CC.O_STAGE] = 0
        row[CC.O_LATER] = 0

        def ladder(contract: str, declarer: int, extra: int = 0) -> None:
            ex = EXCHANGES[contract]
            row[CC.O_CONTRACT] = K.LADDER
            row[CC.O_DECLARER] = declarer
            row[CC.O_VALUE] = rules.value_of(contract) + extra
            row[CC.O_LAY_N] = ex.lay_out
            row[CC.O_LAY_KIND] = K.LAY_OUT_KIND[ex.lay_out_kind]
            row[CC.O_KEEP] = ex.keep
            row[CC.O_PRESS_KIND] = K.PRESS_KIND[ex.press]

        def fixed(contract: str, declarer: int) -> None:
            row[CC.O_CONTRACT] = K.CONTRACT_CODES[contract]
            row[CC.O_DECLARER] = declarer
            row[CC.O_VALUE] = rules.solo_value

        def going_on(later: int) -> tuple[list[list[int]], str, int]:
            """After fort: the game goes on; without a Solo Vorhand plays Cego or Räuber."""
            row[CC.O_CONTRACT] = CC.CONTINUE
            row[CC.O_LATER] = later
            row[CC.O_VALUE] = 0
            rows = [list(row)]
            if rules.raeuber:
                row[CC.O_VALUE] = 1
                rows.append(list(row))
            return rows, "max" if k.order[0] == me else "mean", 0

        act = a.act
        phase = k.phase
        if phase == "solo":
            soloist = _bidder(k, "solo")
            if act == "fort":
                if soloist is not None:
                    fixed("solo", soloist)
                    row[CC.O_LATER] = _answering(k, soloist, soloist)
                else:
                    return going_on(_later(k))
            else:
                fixed(act, me)
                if act == "solo":
                    row[CC.O_LATER] = _answering(k, me, me)
        elif phase == "gegensolo":
            soloist = _bidder(k, "solo")
            if act == "fort":
                soloist = soloist if soloist is not None else k.order[0]
                fixed("solo", soloist)
                row[CC.O_LATER] = _answering(k, soloist, me)
            else:
                ladder(rules.ladder[0], me, rules.gegensolo_raise)
        elif phase == "special":
            standing = _bidder(k, "bettel")
            if act == "fort":
                if standing is not None:
                    fixed("bettel", standing)
                else:
                    return going_on(0)
            else:
                fixed(act, me)
        elif phase == "auction":
            level = k.auction_level or rules.ladder[0]
            holder = k.auction.get("holder")
            challenger = k.auction.get("challenger")
            if act in EXCHANGES and act != level:
                ladder(act, me, raise_by)
            elif act in ("cego", "selbst"):
                ladder(level, me, raise_by)
            elif holder == me:  # gut to a raise: the challenger plays it
                ladder(level, challenger if challenger is not None else me, raise_by)
            else:  # gut as a challenger: the holder keeps his game
                ladder(level, holder if holder is not None else me, raise_by)
        elif phase == "raeuber":
            if act == "raeuber":
                row[CC.O_CONTRACT] = K.RAEUBER
                row[CC.O_DECLARER] = me
            else:
                ladder(rules.ladder[0], me)
        else:  # the exchange
            assert k.contract is not None
            ladder(k.contract, me, raise_by)
            row[CC.O_VALUE] = k.value or row[CC.O_VALUE]
            if act == "lay-out":
                row[CC.O_LAID] = mask_of(list(a.cards))
            elif act == "keep":
                row[CC.O_LAID] = k.laid_out
                row[CC.O_KEPT] = mask_of(list(a.cards))
            else:
                row[CC.O_STAGE] = 1
                row[CC.O_LAID] = k.laid_out
                row[CC.O_SWAP_FROM] = -1
                row[CC.O_NEVER] = k.never_wins
                if act == "press":
                    row[CC.O_PRESS] = C.ID[a.cards[0]]
                elif act == "withdraw":
                    row[CC.O_SWAP_FROM] = C.ID[a.cards[0]]
                    row[CC.O_SWAP_TO] = C.ID[a.cards[1]]
                return [row], "max", 1
        row[CC.O_SWAP_FROM] = -1
        return [row], "max", 0

    def _run_options(
        self, k: Knowledge, rows: list[list[int]], stage: int, deadline: float
    ) -> tuple[Any, Any]:
        import numpy as np

        from stichwerk.bots.cego import compiled as CC

        K = rollouts.kernel()
        assert K is not None
        rules = k.profile
        template, kn, leans = _bid_rows(K, k, stage)
        extra = 1 if k.players == 3 else 0
        ps = np.array(
            [
                rules.pflichtsolo_trumps + extra,
                rules.pflichtsolo_short_trumps + extra,
                rules.pflichtsolo_high_count,
                rules.pflichtsolo_max_suits,
            ],
            dtype=np.int64,
        )  # fmt: skip
        ex = K.exchange_row(rules.ladder[0])
        geg = np.array(
            [rules.gegensolo, rules.value_of(rules.ladder[0]) + rules.gegensolo_raise],
            dtype=np.int64,
        )  # fmt: skip
        passed = 0
        for s in k.passed_solo:
            if s != k.seat:
                passed |= 1 << s
        soloist = _bidder(k, "solo")
        model = np.array(solo_model(rules, k.players), dtype=np.float64)
        options = np.array(rows, dtype=np.int64)
        rs = np.array([self.rng.getrandbits(64)], dtype=np.uint64)
        rules_row = K.rules_row(rules)
        cap = self.worlds if self.worlds is not None else MAX_DEALS

        def fill(n: int) -> tuple[int, tuple[Any, Any]]:
            values = np.zeros((n, len(rows)), dtype=np.float64)
            logw = np.zeros(n, dtype=np.float64)
            got = CC.contract_values(
                template, kn, leans, rules_row, k.removed, options, ps, ex, geg, passed,
                model, EPS_BID, n, rs, values, logw, -1 if soloist is None else soloist,
            )  # fmt: skip
            return got, (values, logw)

        (values_all, _), weights, done = sample_in_batches(
            fill, cap, None if self.worlds is not None else deadline, first=32,
            most=max(8, 8192 // len(rows)),
        )  # fmt: skip
        self.worlds_last = done
        self.rollouts_last = done * len(rows)
        return values_all, weights


# ---------------------------------------------------------------------- helpers


def _bid_rows(K: Any, k: Knowledge, stage: int) -> tuple[Any, Any, Any]:
    """Before the play: a deal row with only the seat's hand (Vorhand to act), the sampler's
    row for the hidden cards and its lean. At ``stage`` 0 of the exchange the seat's own
    legage is not made yet (the blind is still hidden)."""
    import numpy as np

    template = K.empty_row()
    template[K.SEATS] = k.seats
    K.set_order(template, list(k.order))
    template[K.HAND + k.seat] = k.hand
    template[K.TO_ACT] = k.order[0]
    template[K.DECIDED_STOP] = k.profile.stop_when_decided
    lean_seat, leans = _bid_lean(k)
    known = _before_blind(k) if stage == 0 and k.phase == "exchange" else k
    kn = rollouts.knowledge_row(known, lean_seat)
    return template, kn, np.array(leans, dtype=np.float64)


def _bidder(k: Knowledge, word: str) -> int | None:
    """The seat that said ``word`` (a standing Solo, a Bettel), if any."""
    for seat, words in k.bids.items():
        if word in words:
            return seat
    return None


def _later(k: Knowledge) -> int:
    """The seats after this one in the Solo round (bits): they have yet to speak."""
    i = k.order.index(k.seat)
    out = 0
    for s in k.order[i + 1 :]:
        out |= 1 << s
    return out


def _answering(k: Knowledge, soloist: int, after: int) -> int:
    """The seats (bits) that may still answer ``soloist``'s Solo with Gegensolo: in seat order
    from the soloist, those after ``after`` (the soloist himself: every other seat)."""
    order = list(k.order)
    i = order.index(soloist)
    ring = order[i + 1 :] + order[:i]
    if after != soloist:
        ring = ring[ring.index(after) + 1 :]
    out = 0
    for s in ring:
        out |= 1 << s
    return out


def _bid_lean(k: Knowledge) -> tuple[int, tuple[float, float, float]]:
    """The seat the bidding's sampling leans on: a declarer against everyone is dealt more
    trumps (a standing Solo, the auction's holder, the exchange's own declarer excepted)."""
    if k.contract is not None and k.declarer is not None and k.declarer != k.seat:
        return k.declarer, (1.0, 1.0, 1.0 / TRUMP_LEAN)
    soloist = _bidder(k, "solo")
    if soloist is not None and soloist != k.seat:
        return soloist, (1.0, 1.0, 1.0 / TRUMP_LEAN)
    return -1, (1.0, 1.0, 1.0)


def _before_blind(k: Knowledge) -> Knowledge:
    """The knowledge as it was before the blind was taken (nothing laid away yet)."""
    before = copy.copy(k)
    before.my_legage = 0
    before.contract = None
    return before


def _withdrawn(k: Knowledge, a: Action) -> Knowledge:
    """The seat's knowledge after withdrawing a laid-out Leere for a card of the blind."""
    leer, better = C.ID[a.cards[0]], C.ID[a.cards[1]]
    after = copy.copy(k)
    after.laid_out = (k.laid_out & ~(1 << leer)) | (1 << better)
    after.shown = k.shown | (1 << better)
    return after


def make(game: str, seed: int | str = 0, **params: Any) -> CegoSearch:
    """Registry factory."""
    return CegoSearch(seed, **params)


def throughput(seconds: float = 2.0, seed: int = 1, compiled: bool = False) -> dict[str, float]:
    """Determinizations and roll-outs per second (``benchmarks/search_speed.py``): both searches
    sample and roll out on the same paths, so this is ``search_v1.throughput``."""
    return search_v1.throughput(seconds, seed, compiled)
