"""The rule-based Doppelkopf player: fast decisions a club player would recognise.

- **Vorbehalt**: fewer than three trumps is Neu Geben, three or fewer an Armut; five nines are
  thrown in (Schmeißen) unless the hand is good; both Kreuz-Damen make a Hochzeit unless a
  (Stilles) Solo is better. A hand that looks like a solo by the counts (trumps and high trumps,
  aces, voids for a colour solo; queens or jacks and aces for a picture solo; aces and tens for a
  Fleischloser) is weighed against the normal game by a few quick simulated deals (the unseen
  cards dealt out at random, everyone playing the policy), and played when it is worth it. A
  seat that owes a Pflicht-Solo adds what owing it longer would cost (:mod:`.duty`), and then
  weighs its best solos by the counts even when they do not look like one.
- **Armut**: take with a long, high trump hand; give back Fehl cards, making suits void, never a
  trump unless it must.
- **Ansagen**: Re or Kontra with a strong hand (many trumps, high trumps, aces); keine 90 with a
  very strong one; a Sau whenever it may.
- **Play**: :mod:`stichwerk.bots.doppelkopf.policy`, with the parties as the seat knows them
  (Kreuz-Damen played, announcements).

:class:`Evaluator` is shared with the search bot, which uses more simulated deals.
"""

import math
import random
from typing import Any

from stichwerk.bots.base import OUT_OF_TURN, View, legal_of
from stichwerk.bots.doppelkopf.duty import discharge_value, discharges
from stichwerk.bots.doppelkopf.knowledge import CQ, Knowledge, read
from stichwerk.bots.doppelkopf.policy import STYLE, choose_card
from stichwerk.bots.doppelkopf.world import relative, rollout, sample_world, settle
from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.cards import AUGEN, CODE_INDEX, code_mask, code_of
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.trumps import (
    SCHEME_OF_GAME,
    TRUMP,
    Order,
    armut_trumps,
    order_for,
    reservation_kinds,
)

H10 = code_of("H10")
_A = 0
_10 = 1

# ------------------------------------------------------------------ hand counts


def order_of(k: Knowledge, game_type: str) -> Order:
    return order_for(SCHEME_OF_GAME[game_type], k.profile)


def trump_count(hand: int, order: Order) -> int:
    return (hand & order.trump_mask).bit_count()


def high_trumps(hand: int, order: Order, top: int = 4) -> int:
    """How many of the ``top`` highest trump codes (both copies) the hand holds."""
    n = 0
    for code in order.trumps_high_to_low[:top]:
        n += (hand & code_mask(code)).bit_count()
    return n


def fehl_aces(hand: int, order: Order) -> int:
    return sum(
        (hand & code_mask(s * 6 + _A)).bit_count()
        for s in range(4)
        if order.cls[s * 6 + _A] != TRUMP
    )


def fehl_voids(hand: int, order: Order) -> int:
    return sum(1 for s in range(4) if order.suit_masks[s] and not hand & order.suit_masks[s])


def fehl_losers(hand: int, order: Order) -> int:
    """Fehl cards that are unlikely to take a trick: all but aces and a ten behind its ace."""
    losers = 0
    for s in range(4):
        suit = hand & order.suit_masks[s]
        if not suit:
            continue
        n = suit.bit_count()
        aces = (suit & code_mask(s * 6 + _A)).bit_count()
        tens = (suit & code_mask(s * 6 + _10)).bit_count() if order.cls[s * 6 + _10] != TRUMP else 0
        good = aces + (1 if aces == 2 and tens else 0)
        losers += max(0, n - good)
    return losers


def solo_score(hand: int, k: Knowledge, solo: str) -> float:
    """A quick count of how good ``hand`` is for ``solo`` (above 0: worth a simulation)."""
    order = order_of(k, f"solo-{solo}")
    if solo == "fleischlos":
        aces = fehl_aces(hand, order)
        tens = sum((hand & code_mask(s * 6 + _10)).bit_count() for s in range(4))
        return aces + 0.5 * tens - 2.0 * fehl_losers(hand, order) / 3 - 3.5
    trumps = trump_count(hand, order)
    aces = fehl_aces(hand, order)
    losers = fehl_losers(hand, order)
    if solo in ("damen", "buben"):
        return trumps + 0.8 * aces - 0.6 * losers - 3.0
    high = high_trumps(hand, order, 5)
    return trumps + 0.7 * high + 0.4 * aces + 0.5 * fehl_voids(hand, order) - 0.5 * losers - 9.5


def normal_strength(hand: int, k: Knowledge) -> float:
    """How strong a hand is for the normal game: trumps, high trumps, aces that run."""
    order = order_of(k, "normal")
    trumps = trump_count(hand, order)
    high = high_trumps(hand, order, 3)  # Herz 10, Kreuz- and Pik-Dame
    aces = fehl_aces(hand, order)
    return trumps + 1.0 * high + 0.7 * aces - 0.4 * fehl_losers(hand, order)


# ------------------------------------------------------------------ simulation


class Evaluator:
    """A seat's mean relative settlement for a game it could make, by simulated deals."""

    def __init__(self, rng: random.Random, style: int = STYLE) -> None:
        self.rng = rng
        self.style = style

    def game(self, k: Knowledge, game_type: str, *, samples: int) -> float:
        """``game_type``: ``normal``, ``hochzeit``, ``solo-still`` or ``solo-<type>``."""
        total = 0.0
        for _ in range(samples):
            world = sample_world(k, self.rng)
            fast = self.deal(k, world.hands, game_type)
            rollout(fast, style=self.style)
            total += relative(settle(fast), k.seat, k.order)
        return total / max(samples, 1)

    def deal(self, k: Knowledge, hands: list[int], game_type: str) -> FastPlay:
        """A fresh deal of ``game_type`` on the fast path, this seat making it."""
        fast = FastPlay(k.profile, k.seats)
        fast.set_order(k.order)
        fast.hands = list(hands)
        me = k.seat
        leader = k.order[0]
        if game_type == "hochzeit":
            fast.hochzeiter = me
            fast.party[me] = 0
        elif game_type.startswith("solo-"):
            fast.soloist = me
            for s in k.order:
                fast.party[s] = 0 if s == me else 1
            if game_type != "solo-still" and k.profile.soloist_leads(k.owes_solo):
                leader = me
        else:
            cq = code_mask(CQ)
            held = [(hands[s] & cq).bit_count() for s in k.order]
            if 2 in held:
                soloist = k.order[held.index(2)]
                fast.soloist = soloist
                for s in k.order:
                    fast.party[s] = 0 if s == soloist else 1
                game_type = "solo-still"
            else:
                for s, n in zip(k.order, held, strict=True):
                    fast.party[s] = 0 if n else 1
        fast.set_game(game_type)
        fast.to_act = leader
        return fast


# ----------------------------------------------------------------------- the bot


SOLO_MARGIN = 0.6
"""A solo is chosen only when it beats the alternative by this much (simulations flatter)."""
SOLO_LOOK = 0.0
"""A solo is simulated when its quick count (:func:`solo_score`) is above this ..."""
SOLO_LOOKS = 2
"""... for at most this many solo types, the best counts first."""
NEU_GEBEN = True
"""Claim Neu Geben with too few trumps (else such a hand goes on to Armut or the game)."""
ARMUT_MAX = 3
"""Declare Armut with at most this many trumps (and the table's limit)."""
SCHMEISSEN_BELOW = 0.0
"""Throw in five nines when the simulated game is worth less than this."""
TAKE = (7, 3, 8, 2)
"""Take an Armut with (trumps, high trumps) of at least the first pair or the second."""
ANNOUNCE_NEED = {"solo": (12.0, 15.0), "re": (10.0, 13.0), "kontra": (11.5, 14.0)}
"""Hand strength for Re/Kontra and for keine 90: as soloist, as Re and as Kontra."""


class DoppelkopfHeuristicBot:
    """Fast rule-based Doppelkopf: hand counts and quick simulations, policy card play."""

    name = "heuristic"

    def __init__(
        self, seed: int | str = 0, samples: int = 10, style: int = STYLE, duty: bool = True
    ) -> None:
        self.seed = seed
        self.samples = samples
        self.style = style
        """The card-play policy's rules (``policy.STYLE``; ``search-v1`` keeps ``STYLE_V1``)."""
        self.duty = duty
        """Weigh the end of the list when the seat owes a Pflicht-Solo (:mod:`.duty`)."""

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        k = read(dict(view))
        acts = {a.act for a in actions}
        for a in actions:
            if a.act in ("sau", "supersau"):
                return a
        if "play" in acts:
            announce = self.announcement(k, actions)
            if announce is not None:
                return announce
            return self.play(k, actions)
        if k.phase == "play":
            raise StichwerkError(OUT_OF_TURN)
        return self.speak(k, actions, samples=self.samples)

    # -- play

    def play(self, k: Knowledge, actions: list[Action]) -> Action:
        plays = {CODE_INDEX[a.card]: a for a in actions if a.act == "play" and a.card}
        assert k.base is not None
        fast = k.base.copy()
        fast.hands[k.seat] = k.hand
        legal = 0
        for card in bits_list(k.hand):
            if card >> 1 in plays:
                legal |= 1 << card
        legal = _keep_one_copy(legal)
        card = choose_card(fast, k.seat, legal, team_of(k), self.style)
        return plays[card >> 1]

    # -- announcements

    def announcement(self, k: Knowledge, actions: list[Action]) -> Action | None:
        words = {a.act: a for a in actions if a.act != "play"}
        if not words:
            return None
        order = k.card_order()
        hand = k.hand
        trumps = trump_count(hand, order)
        if k.soloist == k.seat:
            strength = trumps + 0.8 * high_trumps(hand, order, 4) + 0.5 * fehl_aces(hand, order)
            strength -= 0.8 * fehl_losers(hand, order)
            need = ANNOUNCE_NEED["solo"]
        elif k.soloist >= 0:
            return None
        else:
            strength = normal_strength(hand, k) * 12 / max(1, hand.bit_count())
            if k.game_type == "armut" and k.seat == k.armut_seat:
                return None
            need = ANNOUNCE_NEED["re" if k.my_party() == 0 else "kontra"]
        for word, level in (("keine-90", 1), ("re", 0), ("kontra", 0)):
            if word in words and strength >= need[level]:
                return words[word]
        return None

    # -- reservations and the Armut

    def speak(self, k: Knowledge, actions: list[Action], *, samples: int) -> Action:
        by_act: dict[str, list[Action]] = {}
        for a in actions:
            by_act.setdefault(a.act, []).append(a)
        if "take" in by_act:
            return by_act["take" if self.takes_armut(k) else "decline"][0]
        if "return" in by_act:
            return max(by_act["return"], key=lambda a: return_score(k, a.cards))
        plan = self.plan(k, samples=samples)
        if k.phase == "reservations":
            if plan == "gesund" and "gesund" in by_act:
                return by_act["gesund"][0]
            return by_act.get("vorbehalt", by_act.get("gesund", actions))[0]
        for a in actions:
            if (a.act == "solo" and f"solo-{a.type}" == plan) or a.act == plan:
                return a
        if "solo" in by_act:  # vorgeführt: a solo it must be
            best = self.plan(k, samples=samples, forced=True)
            for a in by_act["solo"]:
                if f"solo-{a.type}" == best:
                    return a
        return actions[0]

    def plan(self, k: Knowledge, *, samples: int, forced: bool = False) -> str:
        """What to declare: ``gesund`` (a Stilles Solo with both Kreuz-Damen), ``hochzeit``,
        ``armut``, ``schmeissen``, ``neu-geben`` or ``solo-<type>``."""
        p = k.profile
        hand = k.hand
        rng = random.Random(f"plan-{self.seed}-{sorted(bits_list(hand))}-{k.seat}")
        ev = Evaluator(rng, self.style)
        allowed = reservation_kinds(p, hand)
        both_cq = "hochzeit" in allowed
        candidates = sorted(
            ((solo_score(hand, k, t), f"solo-{t}") for t in p.solo_types),
            reverse=True,
        )
        if forced:
            top = [g for _, g in candidates[:3]]
            return max(top, key=lambda g: ev.game(k, g, samples=samples))
        bonus = discharge_value(k) if self.duty else 0.0  # a Pflicht-Solo owed: now or later
        look = SOLO_LOOK if bonus <= 0 else -math.inf
        solos = [g for score, g in candidates if score > look][:SOLO_LOOKS]
        if both_cq and solo_score(hand, k, "trumpf") > look - 1.5:
            solos.append("solo-still")
        if NEU_GEBEN and "neu-geben" in allowed and not solos:
            return "neu-geben"
        if "armut" in allowed and armut_trumps(p, hand) <= ARMUT_MAX and not solos:
            return "armut"
        throw_in = "schmeissen" in allowed
        if not solos and not both_cq and not throw_in:
            return "gesund"
        base_game = "hochzeit" if both_cq else "normal"
        base = ev.game(k, base_game, samples=samples)
        best, best_value = ("hochzeit" if both_cq else "gesund"), base
        if throw_in and base < SCHMEISSEN_BELOW:
            best, best_value = "schmeissen", 0.0
        for game in solos:
            value = ev.game(k, game, samples=samples) - SOLO_MARGIN
            if discharges(k, "gesund" if game == "solo-still" else game):
                value += bonus
            if value > best_value:
                best, best_value = game, value
        if best == "solo-still":
            return "gesund"
        return best

    def takes_armut(self, k: Knowledge) -> bool:
        """Take an Armut with a long hand of high trumps."""
        order = order_of(k, "normal")
        trumps = trump_count(k.hand, order)
        high = high_trumps(k.hand, order, 4)
        return (trumps >= TAKE[0] and high >= TAKE[1]) or (trumps >= TAKE[2] and high >= TAKE[3])


def return_score(k: Knowledge, cards: tuple[str, ...]) -> float:
    """How good it is to give these cards back: no trumps, void suits, Augen to the partner."""
    order = order_of(k, "normal")
    codes = [CODE_INDEX[c] for c in cards]
    score = 0.0
    back = 0
    for c in codes:
        if order.cls[c] == TRUMP:
            score -= 30.0 + order.power[c] * 0.1
        else:
            score += AUGEN[c] * 0.3
        free = k.hand & code_mask(c) & ~back
        back |= free & -free
    left = k.hand & ~back
    score += 8.0 * sum(
        1 for s in range(4) if k.hand & order.suit_masks[s] and not left & order.suit_masks[s]
    )
    return score


def team_of(k: Knowledge) -> list[int]:
    """Each seat's party as this seat knows it (the view's, with its own)."""
    team = list(k.known_party)
    my = team[k.seat]
    if my >= 0 and k.game_type == "normal":
        # Both Re seats known: the rest are Kontra (the view says so too); one Re seat known to
        # a Re player: that is the partner, so the other two are Kontra.
        re = [s for s in k.order if team[s] == 0]
        if my == 0 and len(re) == 2:
            for s in k.order:
                if team[s] < 0:
                    team[s] = 1
    return team


def _keep_one_copy(mask: int) -> int:
    """One card id per code (the copies play alike)."""
    out = 0
    for card in bits_list(mask):
        if not out & code_mask(card >> 1):
            out |= 1 << card
    return out


def make(game: str, seed: int | str = 0, **params: Any) -> DoppelkopfHeuristicBot:
    """Registry factory."""
    return DoppelkopfHeuristicBot(seed, **params)
