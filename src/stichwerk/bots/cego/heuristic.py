"""The rule-based Cego player: fast decisions a club player would recognise.

- **Bidding** weighs each contract the seat could play by a few quick simulated deals (the
  unseen cards dealt out at random, the exchange made by the rules below, the play by the policy)
  and bids only what it expects to win; a Pflichtsolo hand always announces Solo.
- **Exchange**: keep the highest trumps, lay away (and so bank) the kings; press the most
  valuable card that would be at risk, making a suit void where it can.
- **Play**: :mod:`stichwerk.bots.cego.policy`.

:class:`Evaluator` is shared with the search bot, which uses more simulated deals per decision.
"""

import random
from typing import Any

from stichwerk.bots import clock
from stichwerk.bots.base import View, legal_of
from stichwerk.bots.cego.knowledge import Knowledge, read
from stichwerk.bots.cego.policy import PlayContext, choose_card, kind_of
from stichwerk.bots.cego.world import World, rollout, sample_world, settle
from stichwerk.cego import cards as C
from stichwerk.cego.cards import HALF_POINTS, SUIT_MASK, SUIT_OF, TRUMP
from stichwerk.cego.contracts import EXCHANGES
from stichwerk.cego.fast import FastPlay
from stichwerk.cego.state import hand_size, is_pflichtsolo, lay_out_options
from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list

# ------------------------------------------------------------------------ the exchange


def keep_score(card: int) -> float:
    """How much a hand card is worth keeping for play (the rest is laid away, i.e. banked)."""
    if SUIT_OF[card] == TRUMP:
        return 30.0 if card == C.T1 else 100.0 + card
    return 10.0 - HALF_POINTS[card]


def press_score(card: int, hand: int) -> float:
    """How good a card is to press: points at risk, a suit made void; trumps kept."""
    suit = SUIT_OF[card]
    if suit == TRUMP:
        return 3.0 if card == C.T1 else -10.0 + card / 100
    in_suit = (hand & SUIT_MASK[suit]).bit_count()
    return HALF_POINTS[card] + (3.0 if in_suit == 1 else 1.0 if in_suit == 2 else 0.0)


def lay_out_choice(options: list[int], hand: int) -> int:
    """Lay out the cheapest cards, from the suits the hand is longest in."""

    def cost(mask: int) -> tuple[int, int]:
        cards = bits_list(mask)
        length = sum((hand & SUIT_MASK[SUIT_OF[c]]).bit_count() for c in cards)
        return (sum(HALF_POINTS[c] for c in cards), -length)

    return min(options, key=cost)


def plan_exchange(k: Knowledge, hand: int, contract: str) -> tuple[int, int]:
    """(laid out, kept) for a ladder contract, decided from the hand alone."""
    ex = EXCHANGES[contract]
    laid_out = 0
    if ex.lay_out:
        options = lay_out_options(
            hand, ex.lay_out_kind, picture_for_leere=k.profile.picture_for_leere
        )
        laid_out = lay_out_choice(options, hand)
    pool = sorted(bits_list(hand & ~laid_out), key=keep_score, reverse=True)
    kept = 0
    for card in pool[: ex.keep]:
        kept |= 1 << card
    return laid_out, kept


def press_choice(pool: int, hand: int) -> int:
    """The card to press from ``pool``."""
    return max(bits_list(pool), key=lambda c: (press_score(c, hand), c))


def forced_press(contract: str, blind: int) -> int | None:
    """The trump a contract presses by itself, or ``None`` (then the declarer chooses)."""
    press = EXCHANGES[contract].press
    trumps = blind & C.TRUMPS
    if press in ("lowest-trump", "highest-trump") and trumps:
        card = (
            (trumps & -trumps).bit_length() - 1
            if press == "lowest-trump"
            else (trumps.bit_length() - 1)
        )
        return card
    return None


# ---------------------------------------------------------------------- simulation


class Evaluator:
    """Expected settlements of contracts for a seat, by simulated deals."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def contract(
        self,
        k: Knowledge,
        contract: str,
        *,
        samples: int,
        deadline: float | None = None,
        gegensolo: bool = False,
    ) -> float:
        """The seat's mean settlement if it declares ``contract`` now."""
        total = 0.0
        done = 0
        for _ in range(samples):
            world = sample_world(k, self.rng)
            total += self.play_contract(k, world, contract, gegensolo=gegensolo)[k.seat]
            done += 1
            if deadline is not None and clock.now() > deadline:
                break
        return total / max(done, 1)

    def defend_solo(
        self, k: Knowledge, soloist: int, *, samples: int, deadline: float | None = None
    ) -> float:
        """The seat's mean settlement if the standing Solo is played."""
        total = 0.0
        done = 0
        for _ in range(samples):
            world = sample_world(k, self.rng)
            total += self.play_contract(k, world, "solo", declarer=soloist)[k.seat]
            done += 1
            if deadline is not None and clock.now() > deadline:
                break
        return total / max(done, 1)

    def play_contract(
        self,
        k: Knowledge,
        world: World,
        contract: str,
        *,
        declarer: int | None = None,
        gegensolo: bool = False,
    ) -> list[int]:
        """Exchange (if any) and play a world to the end; the settlement."""
        rules = k.profile
        me = k.seat if declarer is None else declarer
        hands = list(world.hands)
        outside = world.hidden
        never_wins = laid_out = forced = 0
        announcer = None
        value = rules.solo_value
        if contract in EXCHANGES:
            hand = hands[me]
            laid_out, kept = plan_exchange(k, hand, contract)
            new = kept | laid_out | world.hidden
            ex = EXCHANGES[contract]
            press = forced_press(contract, world.hidden)
            pressed = 0
            if press is not None:
                pressed = 1 << press
            elif ex.press:
                pool = new & ~laid_out
                if ex.press != "choice":
                    pool &= world.hidden
                pressed = 1 << press_choice(pool, new)
            outside = (hand & ~(kept | laid_out)) | pressed
            hands[me] = new & ~pressed
            if ex.lay_out_kind == "geiss":
                never_wins, forced = laid_out, 1
            elif ex.lay_out and not rules.shown_leere_ordinary:
                never_wins, forced = laid_out, ex.lay_out
            value = rules.value_of(contract) + (rules.gegensolo_raise if gegensolo else 0)
        elif contract == "raeuber":
            announcer = me
        fast = FastPlay()
        fast.hands = hands
        fast.piles = [0] * k.seats
        fast.tricks_won = [0] * k.seats
        nxt = [0] * k.seats
        for i, s in enumerate(k.order):
            nxt[s] = k.order[(i + 1) % len(k.order)]
        fast.next_seat = nxt
        leader = k.order[0] if contract in ("raeuber", "drescher") else me
        fast.to_act = leader
        fast.players = k.players
        fast.n_tricks = hand_size(k.players)
        fast.declarer = -1 if contract in ("raeuber", "drescher") else me
        fast.never_wins = never_wins
        fast.laid_out = laid_out
        fast.forced_leads = forced
        fast.regeln = contract == "raeuber" and rules.raeuber_nach_regeln
        ctx = PlayContext(fast.declarer, kind_of(contract), contract, never_wins, k.players)
        rollout(fast, ctx)
        return settle(
            k,
            fast,
            contract=contract,
            declarer=me,
            value=value,
            outside=outside,
            announcer=announcer,
        )


# ----------------------------------------------------------------------- the bot


MARGIN = {"solo": 5.0, "ulti": 15.0, "soli-ulti": 20.0, "piccolo": 8.0, "bettel": 8.0}


class CegoHeuristicBot:
    """Fast rule-based Cego: simulated bidding, rule-of-thumb exchange, policy card play."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0, samples: int = 12) -> None:
        self.rng = random.Random(f"heuristic-{seed}")
        self.samples = samples
        self.evaluator = Evaluator(self.rng)

    def act(self, view: View) -> Action:
        actions = legal_of(view)
        if len(actions) == 1:
            return actions[0]
        k = read(dict(view))
        acts = {a.act for a in actions}
        if "play" in acts:
            return self.play(k, actions)
        if acts & {"keep", "press", "lay-out"}:
            return self.exchange(k, actions)
        return self.speak(k, actions, samples=self.samples, deadline=None)

    # -- play

    def play(self, k: Knowledge, actions: list[Action]) -> Action:
        plays = {C.ID[a.card]: a for a in actions if a.act == "play" and a.card}
        legal = 0
        for card in plays:
            legal |= 1 << card
        ctx = PlayContext(
            -1 if k.declarer is None else k.declarer,
            kind_of(k.contract),
            k.contract or "cego",
            k.never_wins,
            k.players,
        )
        played = k.played
        card = choose_card(k.seat, k.hand, legal, k.trick, played, k.tricks_won, ctx)
        return plays[card]

    # -- exchange

    def exchange(self, k: Knowledge, actions: list[Action]) -> Action:
        by_act: dict[str, list[Action]] = {}
        for a in actions:
            by_act.setdefault(a.act, []).append(a)
        if "lay-out" in by_act:
            options = {_mask(a.cards): a for a in by_act["lay-out"]}
            return options[lay_out_choice(list(options), k.hand)]
        if "keep" in by_act:
            return max(by_act["keep"], key=lambda a: sum(keep_score(C.ID[c]) for c in a.cards))
        presses = {C.ID[a.cards[0]]: a for a in by_act["press"]}
        pool = 0
        for card in presses:
            pool |= 1 << card
        return presses[press_choice(pool, k.hand)]

    # -- speech

    def speak(
        self, k: Knowledge, actions: list[Action], *, samples: int, deadline: float | None
    ) -> Action:
        words = {a.act: a for a in actions}
        ev = self.evaluator

        def value(contract: str, **kw: Any) -> float:
            return ev.contract(k, contract, samples=samples, deadline=deadline, **kw)

        if k.phase == "solo":
            if (
                "solo" in words
                and k.profile.pflichtsolo
                and is_pflichtsolo(k.profile, k.hand, k.players)
            ):
                best = "solo"
                if "ulti" in words and value("ulti") > value("solo"):
                    best = "ulti"
                return words[best]
            return self._best_of(words, ("soli-ulti", "ulti", "solo"), value, "fort")
        if k.phase == "special":
            return self._best_of(words, ("piccolo", "bettel"), value, "fort")
        if k.phase == "gegensolo":
            soloist = _soloist(k)
            mine = value("cego", gegensolo=True)
            theirs = ev.defend_solo(k, soloist, samples=samples, deadline=deadline)
            return words["gegensolo"] if mine > theirs + 5 else words["fort"]
        if k.phase == "raeuber":
            return words["raeuber"] if value("raeuber") > value("cego") else words["spielen"]
        # the auction
        raises = [a for a in actions if a.act in EXCHANGES and a.act != "cego"]
        gegensolo = k.gegensolo
        if raises:
            contract = raises[0].act
            return raises[0] if value(contract, gegensolo=gegensolo) > 2 else words["gut"]
        if "selbst" in words:
            level = k.auction_level or "cego"
            return words["selbst"] if value(level, gegensolo=gegensolo) > 2 else words["gut"]
        return words.get("gut") or words.get("fort") or actions[0]

    @staticmethod
    def _best_of(
        words: dict[str, Action], options: tuple[str, ...], value: Any, default: str
    ) -> Action:
        best, best_value = default, 0.0
        for option in options:
            if option in words:
                v = float(value(option)) - MARGIN.get(option, 0.0)
                if v > best_value:
                    best, best_value = option, v
        return words[best]


def _mask(codes: tuple[str, ...]) -> int:
    out = 0
    for code in codes:
        out |= 1 << C.ID[code]
    return out


def _soloist(k: Knowledge) -> int:
    for seat, words in k.bids.items():
        if "solo" in words:
            return seat
    return k.order[0]  # pragma: no cover - a Gegensolo round always follows a Solo


def make(game: str, seed: int | str = 0, **params: Any) -> CegoHeuristicBot:
    """Registry factory."""
    return CegoHeuristicBot(seed, **params)
