"""A plain rule-of-thumb Cego player for the terminal game and as a sparring partner.

It reads only its seat's view. Bidding: count trumps and high trumps; announce a Solo with a
Pflichtsolo-like hand, raise in the auction while the hand is strong enough. Exchange: keep the
highest trumps, press the cheapest card. Play: win a trick cheaply when it is worth it, otherwise
give the least valuable legal card; lead high trumps when strong, low cards when not.
"""

import random
from typing import Any

from stichwerk.bots.base import View, legal_of
from stichwerk.cego.cards import HALF_POINTS, ID, RANK_IN_SUIT, SUIT_OF, TRUMP
from stichwerk.core.action import Action


def _strength(hand: list[int]) -> int:
    """A rough hand value: trumps count 2, trumps from 15 up 1 more, Trull and kings 2 more."""
    score = 0
    for card in hand:
        if SUIT_OF[card] == TRUMP:
            score += 2 + (card >= 14) + 2 * (card in (0, 20, 21))
        elif RANK_IN_SUIT[card] == 7:
            score += 2
    return score


class CegoBasicBot:
    """Sensible, fast, rule-based Cego play (not strong: see the heuristic and search bots)."""

    name = "basic"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(str(seed))

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        hand = [ID[c] for c in view["hand"] or []]
        acts = {a.act for a in actions}
        if "play" in acts:
            return self._play(view, actions, hand)
        if "keep" in acts or "press" in acts or "lay-out" in acts:
            return self._exchange(actions, hand)
        return self._speak(view, actions, hand)

    # ------------------------------------------------------------------ speech

    def _speak(self, view: View, actions: list[Action], hand: list[int]) -> Action:
        words = {a.act: a for a in actions}
        strength = _strength(hand)
        trumps = sum(1 for c in hand if SUIT_OF[c] == TRUMP)
        size = len(hand)
        if "solo" in words and trumps >= size * 8 // 11:
            return words["solo"]
        if "ulti" in words and trumps >= size - 1:
            return words["ulti"]
        if "gegensolo" in words and strength >= 24:
            return words["gegensolo"]
        high = [c for c in hand if SUIT_OF[c] == TRUMP or RANK_IN_SUIT[c] >= 4]
        if "bettel" in words and not high:
            return words["bettel"]
        if "piccolo" in words and len(high) == 1 and trumps <= 1:
            return words["piccolo"]
        if "raeuber" in words:
            return words["spielen"] if strength >= 10 else words["raeuber"]
        if "selbst" in words and strength >= 16 + 2 * _level(view):
            return words["selbst"]
        raises = [a for a in actions if a.act not in ("gut", "selbst", "fort", "cego")]
        if raises and strength >= 16 + 2 * (_level(view) + 1):
            return raises[0]
        for word in ("cego", "fort", "gut", "spielen"):
            if word in words:
                return words[word]
        return actions[0]

    # ---------------------------------------------------------------- exchange

    def _exchange(self, actions: list[Action], hand: list[int]) -> Action:
        def worth(action: Action) -> float:
            cards = [ID[c] for c in action.cards]
            if action.act == "press":
                card = cards[0]
                return -(HALF_POINTS[card] + (40 if SUIT_OF[card] == TRUMP else 0) + card / 100)
            if action.act == "keep":
                return sum(
                    (50 + c) if SUIT_OF[c] == TRUMP else HALF_POINTS[c] + RANK_IN_SUIT[c]
                    for c in cards
                )
            if action.act == "lay-out":
                return -sum(HALF_POINTS[c] for c in cards)
            return -1000.0  # withdraw and aufdecken: not without a reason

        return max(actions, key=worth)

    # -------------------------------------------------------------------- play

    def _play(self, view: View, actions: list[Action], hand: list[int]) -> Action:
        plays = [a for a in actions if a.act == "play"]
        cards = [ID[a.card or ""] for a in plays]
        trick = [(t["seat"], ID[t["card"]]) for t in view["trick"]]
        me = view["seat"]
        declarer = view["declarer"]
        avoid_tricks = view["contract"] in ("bettel", "piccolo", "raeuber", "drescher")
        partners = _same_side(me, declarer, view["contract"])
        if not trick:
            if avoid_tricks:
                return plays[cards.index(min(cards, key=_lead_low_key))]
            trumps = [c for c in cards if SUIT_OF[c] == TRUMP]
            if trumps and len(trumps) * 2 >= len(hand) and max(trumps) >= 17:
                return plays[cards.index(max(trumps))]
            return plays[cards.index(min(cards, key=_lead_low_key))]
        winner_seat, winner_card = _current_winner(trick)
        points = sum(HALF_POINTS[c] for _, c in trick)
        beating = [c for c in cards if _beats(c, winner_card, trick[0][1])]
        if avoid_tricks:
            safe = [c for c in cards if c not in beating]
            pool = safe or cards
            return plays[cards.index(max(pool, key=lambda c: (HALF_POINTS[c], c)))]
        if winner_seat in partners:
            # Schmieren: give the partner points.
            return plays[cards.index(max(cards, key=lambda c: (HALF_POINTS[c], -c)))]
        if beating and (points >= 3 or len(trick) == view["players"] - 1):
            return plays[cards.index(min(beating, key=lambda c: (HALF_POINTS[c], c)))]
        return plays[cards.index(min(cards, key=lambda c: (HALF_POINTS[c], c)))]


def _level(view: View) -> int:
    auction: dict[str, Any] | None = view.get("auction")
    if not auction:
        return 0
    ladder = ["cego", "halbe", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss"]
    return ladder.index(auction["level"]) if auction["level"] in ladder else 0


def _same_side(me: int, declarer: int | None, contract: str | None) -> set[int]:
    if declarer is None or contract in ("raeuber", "drescher"):
        return {me}
    if me == declarer:
        return {me}
    return {s for s in range(5) if s != declarer}


def _lead_low_key(card: int) -> tuple[int, int, int]:
    return (SUIT_OF[card] == TRUMP, HALF_POINTS[card], card)


def _beats(card: int, best: int, lead: int) -> bool:
    if SUIT_OF[card] == TRUMP:
        return SUIT_OF[best] != TRUMP or card > best
    return SUIT_OF[best] != TRUMP and SUIT_OF[card] == SUIT_OF[lead] and card > best


def _current_winner(trick: list[tuple[int, int]]) -> tuple[int, int]:
    seat, best = trick[0]
    for s, c in trick[1:]:
        if _beats(c, best, trick[0][1]):
            seat, best = s, c
    return seat, best


def make(game: str, seed: int | str = 0, **params: Any) -> CegoBasicBot:
    """Registry factory."""
    return CegoBasicBot(seed)
