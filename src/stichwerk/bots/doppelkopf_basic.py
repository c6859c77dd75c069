"""A plain rule-of-thumb Doppelkopf player for the terminal game and as a sparring partner.

It reads only its seat's view. Reservations: announce a Hochzeit with both Kreuz-Damen, an Armut
with at most three trumps, a solo when one suit or picture type would give it most of the trumps;
otherwise ``gesund``. Armut: take with seven or more trumps, give back the cheapest Fehl cards.
Announcements: Re or Kontra with a strong hand, and the Sau whenever it may. Play: lead a Fehl ace
of a suit not yet played, else (as soloist) the highest trump, else a cheap card; follow by winning
cheaply when the trick is worth it or the partner is not winning, smear Augen on a partner's
trick, otherwise give the least valuable legal card. Not strong (strong bots are a later issue).
"""

import random
from collections.abc import Sequence

from stichwerk.bots.base import View, legal_of
from stichwerk.core.action import Action
from stichwerk.doppelkopf.cards import AUGEN, CODE_INDEX
from stichwerk.doppelkopf.profiles import Profile, get_profile
from stichwerk.doppelkopf.trumps import SCHEME_OF_GAME, TRUMP, Order, order_for, winner_of

CQ = CODE_INDEX["CQ"]


class DoppelkopfBasicBot:
    """Sensible, fast, rule-based Doppelkopf play."""

    name = "basic"

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(str(seed))
        self._profiles: dict[str, Profile] = {}

    def _profile(self, view: View) -> Profile:
        key = f"{view['profile']}:{sorted(view['options'].items())}"
        if key not in self._profiles:
            self._profiles[key] = get_profile(view["profile"], view["options"])
        return self._profiles[key]

    def _order(self, view: View, game_type: str | None = None) -> Order:
        gt = game_type or view["game_type"]
        return order_for(
            SCHEME_OF_GAME[gt],
            self._profile(view),
            sau=view["sau"] is not None,
            supersau=view["supersau"] is not None,
        )

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        hand = [CODE_INDEX[c] for c in view["hand"] or []]
        acts = {a.act for a in actions}
        if "sau" in acts or "supersau" in acts:
            return next(a for a in actions if a.act in ("sau", "supersau"))
        if "play" in acts:
            announce = self._announce(view, actions, hand)
            if announce is not None:
                return announce
            return self._play(view, [a for a in actions if a.act == "play"], hand)
        if "gesund" in acts or "vorbehalt" in acts:
            wanted = self._reservation(view, hand)
            return next((a for a in actions if a.act == ("gesund" if wanted is None else
                                                        "vorbehalt")), actions[0])  # fmt: skip
        if "take" in acts:
            trumps = self._count_trumps(view, hand, "normal")
            return next(a for a in actions if a.act == ("take" if trumps >= 7 else "decline"))
        if "return" in acts:
            return min(actions, key=lambda a: self._return_cost(view, a.cards))
        return self._declare(view, actions, hand)

    # ------------------------------------------------------------------ reservations

    def _count_trumps(self, view: View, hand: Sequence[int], game_type: str) -> int:
        order = order_for(SCHEME_OF_GAME[game_type], self._profile(view))
        return sum(1 for c in hand if order.cls[c] == TRUMP)

    def _best_solo(self, view: View, hand: Sequence[int]) -> tuple[str, int] | None:
        """The solo type whose trumps and aces make the hand strongest, if strong enough."""
        best: tuple[str, int] | None = None
        for solo in self._profile(view).solo_types:
            gt = f"solo-{solo}"
            order = order_for(SCHEME_OF_GAME[gt], self._profile(view))
            trumps = [c for c in hand if order.cls[c] == TRUMP]
            aces = sum(1 for c in hand if order.cls[c] != TRUMP and c % 6 == 0)
            if solo in ("damen", "buben"):
                value = 2 * len(trumps) + aces
                enough = len(trumps) >= 6 and aces >= 2
            elif solo == "fleischlos":
                value = 2 * aces + sum(1 for c in hand if c % 6 == 1)
                enough = aces >= 6
            else:
                top = sum(1 for c in trumps if order.power[c] >= order.power[CQ] - 1)
                value = len(trumps) + top
                enough = len(trumps) >= 9 and top >= 4
            if enough and (best is None or value > best[1]):
                best = (solo, value)
        return best

    def _reservation(self, view: View, hand: Sequence[int]) -> str | None:
        p = self._profile(view)
        if self._best_solo(view, hand):
            return "solo"
        if hand.count(CQ) == 2:
            return "hochzeit"
        if p.armut and self._count_trumps(view, hand, "normal") <= min(p.armut_max_trumps, 2):
            return "armut"
        return None

    def _declare(self, view: View, actions: list[Action], hand: Sequence[int]) -> Action:
        solo = self._best_solo(view, hand)
        if solo is not None:
            for a in actions:
                if a.act == "solo" and a.type == solo[0]:
                    return a
        for kind in ("hochzeit", "armut"):
            for a in actions:
                if a.act == kind:
                    return a
        for a in actions:
            if a.act == "solo" and a.type == "trumpf":
                return a
        return actions[0]

    def _return_cost(self, view: View, cards: Sequence[str]) -> tuple[int, int]:
        order = order_for("normal", self._profile(view))
        codes = [CODE_INDEX[c] for c in cards]
        return (sum(1 for c in codes if order.cls[c] == TRUMP), sum(AUGEN[c] for c in codes))

    # ------------------------------------------------------------------ announcements

    def _announce(self, view: View, actions: list[Action], hand: Sequence[int]) -> Action | None:
        words = {a.act: a for a in actions}
        party = view["my_party"]
        if party not in words:
            return None
        order = self._order(view)
        trumps = [c for c in hand if order.cls[c] == TRUMP]
        high = sum(1 for c in trumps if order.power[c] >= order.power[CQ] - 2)
        solo = view["game_type"].startswith("solo-") and view["soloist"] == view["seat"]
        if solo or (len(trumps) >= 7 and high >= 3):
            return words[party]
        return None

    # ------------------------------------------------------------------ play

    def _play(self, view: View, plays: list[Action], hand: Sequence[int]) -> Action:
        order = self._order(view)
        codes = [CODE_INDEX[a.card or ""] for a in plays]
        trick = view["trick"]
        if not trick:
            return plays[codes.index(self._lead(view, order, codes))]
        ids = [CODE_INDEX[t["card"]] * 2 for t in trick]
        last = len(view["hand"]) == 1
        winner_seat = trick[winner_of(ids, order, last)]["seat"]
        parties = view["parties"]
        mine = view["my_party"]
        partner_wins = mine is not None and parties[winner_seat] == mine
        augen = sum(AUGEN[i >> 1] for i in ids)
        winning = [c for c in codes if trick_won(ids, c, order, last) == len(ids)]
        if partner_wins and len(trick) == 3:
            return plays[codes.index(max(codes, key=lambda c: (AUGEN[c], -order.power[c])))]
        if winning and not partner_wins and (augen >= 10 or len(trick) == 3 or
                                             order.cls[codes[0]] != TRUMP):  # fmt: skip
            return plays[codes.index(min(winning, key=lambda c: order.power[c]))]
        return plays[codes.index(min(codes, key=lambda c: cheapness(c, order)))]

    def _lead(self, view: View, order: Order, codes: list[int]) -> int:
        played = {t for entry in view["history"] if entry["act"] == "play"
                  for t in [CODE_INDEX[entry["card"]]]}  # fmt: skip
        led_suits = {order.cls[c] for c in played}
        for c in codes:
            if order.cls[c] != TRUMP and c % 6 == 0 and order.cls[c] not in led_suits:
                return c
        trumps = [c for c in codes if order.cls[c] == TRUMP]
        if view["soloist"] == view["seat"] and trumps:
            return max(trumps, key=lambda c: order.power[c])
        return min(codes, key=lambda c: cheapness(c, order))


def trick_won(ids: list[int], code: int, order: Order, last: bool) -> int:
    """The index of the winning card if ``code`` is added to the trick."""
    return winner_of([*ids, code * 2], order, last)


def cheapness(code: int, order: Order) -> tuple[int, int, int]:
    """Lower is cheaper to give away: Fehl before trumps, few Augen, low rank."""
    return (order.cls[code] == TRUMP, AUGEN[code], order.power[code])
