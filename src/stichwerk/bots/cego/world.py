"""Sampled worlds: the hidden cards dealt out consistently with what a seat knows.

A world gives every other seat a hand of the right size and puts the rest outside the hands
(the blind, or the declarer's legage). Cards go first to where they must be (an Ulti or Geiß
bidder holds the Geiß), then, most constrained first, to a random seat that has not shown out
of their suit, weighted by the room left and, softly, by the auction (a declarer against
everyone is dealt more trumps, a Piccolo or Bettel player fewer high ones). From a world the
play is continued on the fast path (:class:`~stichwerk.cego.fast.FastPlay`) and scored with the
engine's own scoring functions.
"""

import random
from dataclasses import dataclass

from stichwerk.bots.cego.knowledge import Knowledge
from stichwerk.bots.cego.policy import EACH, NEGATIVE, PlayContext, choose_card, kind_of
from stichwerk.cego import cards as C
from stichwerk.cego import scoring
from stichwerk.cego.contracts import EXCHANGES, FIXED
from stichwerk.cego.fast import FastPlay, trick_winner
from stichwerk.cego.state import hand_size
from stichwerk.core.bits import bits_list

HIDDEN = -1

TRUMP_LEAN = 2.0
"""How much likelier an unseen trump is, against any other unseen card, in the hand of a
declarer playing against everyone than elsewhere: he bid or announced on a hand of trumps. For a
Piccolo or Bettel player it is the other way round for the high trumps (T15 and up)."""
HIGH_TRUMP = 14
"""Index of T15, the lowest trump a Piccolo or Bettel player is shy of."""


@dataclass(slots=True)
class World:
    """Every seat's current hand (the sampling seat's own included) and the cards outside."""

    hands: list[int]
    hidden: int


def sample_world(k: Knowledge, rng: random.Random) -> World:
    """A random deal of the unseen cards consistent with ``k``."""
    unseen = k.unseen()
    others = [s for s in k.order if s != k.seat]
    need = {s: k.hand_sizes[s] - k.known_in_hand(s).bit_count() for s in others}
    hidden_need = unseen.bit_count() - sum(need.values())
    for attempt in range(30):
        world = _try_sample(k, rng, unseen, others, need, hidden_need, use_voids=attempt < 25)
        if world is not None:
            return world
    raise RuntimeError("no world fits the known card counts")  # pragma: no cover


def _try_sample(
    k: Knowledge,
    rng: random.Random,
    unseen: int,
    others: list[int],
    need: dict[int, int],
    hidden_need: int,
    *,
    use_voids: bool,
) -> World | None:
    hands = [0] * k.seats
    hands[k.seat] = k.hand
    room = dict(need)
    room[HIDDEN] = hidden_need
    for s in others:
        hands[s] = k.known_in_hand(s)
    hidden = 0
    rest = unseen
    for s in others:
        forced = k.must_hold[s] & rest
        for card in bits_list(forced):
            if room[s] <= 0:
                return None
            hands[s] |= 1 << card
            room[s] -= 1
            rest &= ~(1 << card)
    cards = bits_list(rest)
    rng.shuffle(cards)
    options: list[tuple[int, int, list[int]]] = []
    for card in cards:
        suit = C.SUIT_OF[card]
        holders = [s for s in others if not (use_voids and k.voids[s] >> suit & 1)]
        holders.append(HIDDEN)
        options.append((len(holders), card, holders))
    options.sort(key=lambda t: t[0])
    lean_seat, leans = trump_lean(k)
    for _, card, holders in options:
        open_ = [h for h in holders if room[h] > 0]
        if not open_:
            return None
        if lean_seat in open_:
            # Cards are placed most constrained first, trumps mostly last: the lean works by
            # keeping the declarer's room for the cards he is likely to hold.
            if C.SUIT_OF[card] != C.TRUMP:
                weight = leans[2]
            else:
                weight = leans[0] if card < HIGH_TRUMP else leans[1]
            h = _choose(open_, [room[o] * (weight if o == lean_seat else 1.0) for o in open_], rng)
        else:
            total = sum(room[h] for h in open_)
            pick = rng.randrange(total)
            for h in open_:
                pick -= room[h]
                if pick < 0:
                    break
        room[h] -= 1
        if h == HIDDEN:
            hidden |= 1 << card
        else:
            hands[h] |= 1 << card
    return World(hands, hidden)


def _choose(holders: list[int], weights: list[float], rng: random.Random) -> int:
    """A holder drawn with probability proportional to its weight."""
    pick = rng.random() * sum(weights)
    for holder, weight in zip(holders, weights, strict=True):
        pick -= weight
        if pick < 0:
            return holder
    return holders[-1]


def trump_lean(k: Knowledge) -> tuple[int, tuple[float, float, float]]:
    """The declarer the sampling leans on (or -1) and the weights, for his seat, of a low trump,
    a high trump and any other card: a soft prior from the auction, never a hard constraint."""
    declarer = -1 if k.declarer is None else k.declarer
    kind = kind_of(k.contract)
    if declarer < 0 or declarer == k.seat or kind == EACH:
        return -1, (1.0, 1.0, 1.0)
    if kind == NEGATIVE:
        return declarer, (TRUMP_LEAN, 1.0, TRUMP_LEAN)
    return declarer, (1.0, 1.0, 1.0 / TRUMP_LEAN)


def context(k: Knowledge) -> PlayContext:
    """The fixed facts of the deal for the play policy."""
    declarer = -1 if k.declarer is None else k.declarer
    contract = k.contract or "cego"
    return PlayContext(declarer, kind_of(contract), contract, k.never_wins, k.players)


def fast_from(k: Knowledge, world: World) -> FastPlay:
    """The play phase of a sampled world, ready to continue from the current trick."""
    fast = FastPlay()
    fast.hands = list(world.hands)
    fast.piles = list(k.piles)
    fast.tricks_won = list(k.tricks_won)
    fast.trick = list(k.trick)
    nxt = [0] * k.seats
    for i, s in enumerate(k.order):
        nxt[s] = k.order[(i + 1) % len(k.order)]
    fast.next_seat = nxt
    fast.to_act = k.seat if k.to_act is None else k.to_act
    fast.trick_no = k.trick_no
    fast.players = k.players
    fast.n_tricks = hand_size(k.players)
    fast.declarer = -1 if k.declarer is None else k.declarer
    fast.never_wins = k.never_wins
    fast.laid_out = k.laid_out & ~k.played
    fast.forced_leads = k.forced_leads
    fast.regeln = k.contract == "raeuber" and k.profile.raeuber_nach_regeln
    fast.played = k.played
    return fast


def rollout(fast: FastPlay, ctx: PlayContext) -> None:
    """Play the deal to its end with the policy for every seat."""
    while fast.trick_no < fast.n_tricks:
        seat = fast.to_act
        card = choose_card(
            seat,
            fast.hands[seat],
            fast.legal(),
            fast.trick,
            fast.played,
            fast.tricks_won,
            ctx,
        )
        fast.play(card)


def settle(
    k: Knowledge,
    fast: FastPlay,
    *,
    contract: str,
    declarer: int,
    value: int,
    outside: int,
    announcer: int | None = None,
) -> list[int]:
    """The settlement of a finished world. ``outside`` holds the cards out of the hands:
    the legage (ladder contracts) or the blind (Solo, fixed games, Räuber)."""
    rules = k.profile
    seats = k.seats
    if contract == "raeuber":
        playing = k.order
        points = {s: scoring.pile_points(rules, fast.piles[s]) for s in playing}
        tricks = {s: fast.tricks_won[s] for s in playing}
        raeuber: list[int] = scoring.score_raeuber(
            rules, seats=seats, playing=playing, points=points, tricks=tricks, announcer=announcer
        )["settlement"]
        return raeuber
    if contract == "drescher":
        winner = _last_winner(fast)
        drescher: list[int] = scoring.score_drescher(rules, seats=seats, last_trick=winner)[
            "settlement"
        ]
        return drescher
    won_tricks = fast.tricks_won[declarer]
    if contract in FIXED:
        if contract == "ulti":
            won = _ulti_won(fast, declarer)
        elif contract == "piccolo":
            won = won_tricks == 1
        else:
            won = won_tricks == 0
        fixed: list[int] = scoring.score_fixed(
            rules, seats=seats, declarer=declarer, contract=contract, won=won
        )["settlement"]
        return fixed
    extra = outside | k.removed
    mine = fast.piles[declarer] | (extra if won_tricks else 0)
    score = scoring.score_game(
        rules,
        seats=seats,
        declarer=declarer,
        value=value,
        declarer_points=scoring.pile_points(rules, mine),
        declarer_tricks=won_tricks,
        defender_tricks=sum(fast.tricks_won) - won_tricks,
        solo=contract in ("solo", "soli-ulti"),
    )
    settlement: list[int] = score["settlement"]
    if contract == "soli-ulti":
        ulti = scoring.score_fixed(
            rules, seats=seats, declarer=declarer, contract="ulti", won=_ulti_won(fast, declarer)
        )["settlement"]
        settlement = [a + b for a, b in zip(settlement, ulti, strict=True)]
    return settlement


def settle_deal(k: Knowledge, fast: FastPlay, outside: int) -> list[int]:
    """The settlement of a finished world of the deal as it was bid: the view's contract,
    declarer, value and Räuber announcer."""
    assert k.contract is not None
    return settle(
        k,
        fast,
        contract=k.contract,
        declarer=-1 if k.declarer is None else k.declarer,
        value=k.value or 1,
        outside=outside,
        announcer=k.announcer,
    )


def _last_winner(fast: FastPlay) -> int:
    return trick_winner(fast.last, fast.never_wins)


def _ulti_won(fast: FastPlay, declarer: int) -> bool:
    return _last_winner(fast) == declarer and (declarer, C.T1) in fast.last


def outside_cards(k: Knowledge, world: World) -> int:
    """The legage or blind of a world, as the scoring wants it."""
    if k.declarer == k.seat and k.contract in EXCHANGES:
        return k.my_legage
    return world.hidden
