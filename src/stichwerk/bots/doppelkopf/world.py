"""Sampled worlds: the hidden cards dealt out consistently with what a seat knows.

A world gives every other seat a hand of the right size. Cards go first where they must be (a
Hochzeit's Kreuz-Damen, a Sau, what an Armut showed), then the poor hand of an Armut gets its
declared number of trumps, then the rest, most constrained card first, to a random seat that may
hold it (not shown out of its class, not barred from it), weighted by the room left and by soft
signals (a soloist is long in trumps). Worlds that are legal but unlikely (both Kreuz-Damen in
one hand of what looks like a normal game) are mostly thrown back. From a world the play goes on
on the fast path, and the engine's own scoring settles it.
"""

import random
from dataclasses import dataclass

from stichwerk.bots.doppelkopf.knowledge import CQ, LEVEL_ACTS, Knowledge
from stichwerk.bots.doppelkopf.policy import STYLE, choose_card
from stichwerk.core.bits import bits_list
from stichwerk.doppelkopf.cards import code_mask
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.scoring import score
from stichwerk.doppelkopf.trumps import TRUMP

CQ_BOTH = code_mask(CQ)


@dataclass(slots=True)
class World:
    """Every seat's current hand (the sampling seat's own included)."""

    hands: list[int]


class NoWorld(RuntimeError):
    """No deal fits what the seat knows (a bug, or a view that was tampered with)."""


def sample_world(k: Knowledge, rng: random.Random) -> World:
    """A random deal of the unseen cards consistent with ``k``.

    Quick greedy tries first; should they run into a corner (a late position with many
    shown-out suits), every card is placed only where the rest can still be placed (Hall's
    condition over the seats), which always succeeds when any deal fits. Unlikely worlds are
    thrown back with their odds, unless that keeps happening for this position (then the
    unlikely is what the cards say).
    """
    for attempt in range(24):
        hands = _try_sample(k, rng, exact=attempt >= 3, strict=True)
        if hands is None:
            continue
        soft = attempt < 12 and k.soft_misses < 12 + 3 * k.soft_hits
        if soft and _unlikely(k, hands, rng):
            k.soft_misses += 1
            continue
        k.soft_hits += 1
        return World(hands)
    hands = _try_sample(k, rng, exact=True, strict=True)
    if hands is None:  # pragma: no cover - only a view that contradicts itself
        hands = _try_sample(k, rng, exact=True, strict=False)
    if hands is None:  # pragma: no cover
        raise NoWorld("no world fits what the seat knows")
    return World(hands)


def _unlikely(k: Knowledge, hands: list[int], rng: random.Random) -> bool:
    for s, code, odds in k.unlikely_pairs:
        both = code_mask(code)
        if (hands[s] | k.played_by[s]) & both == both and rng.random() < odds:
            return True
    return False


def _try_sample(k: Knowledge, rng: random.Random, *, exact: bool, strict: bool) -> list[int] | None:
    """One try. ``exact``: keep the rest placeable after each card; ``strict``: respect the
    seats' barred cards (off only as the last resort, never in a consistent view)."""
    order = k.card_order()
    cls = order.cls
    trump_mask = order.trump_mask
    hands = [0] * k.seats
    hands[k.seat] = k.hand
    rest = k.unseen
    # Holders: a seat, or the two halves of a seat known to hold exactly n trumps.
    seat_of: list[int] = []
    only: list[int] = []
    room: list[int] = []
    weight: list[float] = []
    for s in k.others:
        hands[s] = k.must[s]
        rest &= ~k.must[s]
        free = k.hand_sizes[s] - k.must[s].bit_count()
        allowed = ~k.banned[s] if strict else -1
        n = k.exact_trumps[s]
        if n >= 0:
            need = n - (k.must[s] & trump_mask).bit_count()
            if need < 0 or need > free:
                return None
            for part, size in ((trump_mask, need), (~trump_mask, free - need)):
                seat_of.append(s)
                only.append(allowed & part)
                room.append(size)
                weight.append(1.0)
        else:
            if free < 0:
                return None
            seat_of.append(s)
            only.append(allowed)
            room.append(free)
            weight.append(k.trump_weight[s])
    cards = bits_list(rest)
    rng.shuffle(cards)
    holders_of: list[list[int]] = []
    groups: dict[int, int] = {}
    for card in cards:
        holders = [v for v in range(len(room)) if only[v] >> card & 1]
        holders_of.append(holders)
        if exact:
            g = 0
            for v in holders:
                g |= 1 << v
            groups[g] = groups.get(g, 0) + 1
    if exact and not _placeable(groups, room):
        return None
    plan = sorted(range(len(cards)), key=lambda i: len(holders_of[i]))
    for i in plan:
        card = cards[i]
        trump = cls[card >> 1] == TRUMP
        options = [v for v in holders_of[i] if room[v] > 0]
        g = 0
        if exact:
            for v in holders_of[i]:
                g |= 1 << v
            groups[g] -= 1
        chosen = -1
        while options:
            total = 0.0
            for v in options:
                total += room[v] * (weight[v] if trump else 1.0)
            pick = rng.random() * total
            for v in options:
                chosen = v
                pick -= room[v] * (weight[v] if trump else 1.0)
                if pick < 0:
                    break
            if not exact:
                break
            room[chosen] -= 1
            if _placeable(groups, room):
                room[chosen] += 1
                break
            room[chosen] += 1
            options.remove(chosen)
            chosen = -1
        if chosen < 0:
            return None
        room[chosen] -= 1
        hands[seat_of[chosen]] |= 1 << card
    return hands


def _placeable(groups: dict[int, int], room: list[int]) -> bool:
    """Hall's condition: for every set of holders, the cards that only they may take fit."""
    if groups.get(0):
        return False
    n = len(room)
    for subset in range(1, 1 << n):
        space = 0
        for v in range(n):
            if subset >> v & 1:
                space += room[v]
        need = 0
        for g, count in groups.items():
            if count and not g & ~subset:
                need += count
        if need > space:
            return False
    return True


def fast_from(k: Knowledge, world: World) -> FastPlay:
    """The play of a sampled world, ready to go on from the current trick."""
    assert k.base is not None
    fast = k.base.copy()
    fast.hands = list(world.hands)
    if k.game_type == "normal" and k.hochzeiter < 0:
        held = [((world.hands[s] | k.played_by[s]) & CQ_BOTH).bit_count() for s in k.order]
        if 2 in held:
            soloist = k.order[held.index(2)]
            fast.soloist = soloist
            for s in k.order:
                fast.party[s] = 0 if s == soloist else 1
            fast.set_game("solo-still")
        else:
            for s, n in zip(k.order, held, strict=True):
                fast.party[s] = 0 if n else 1
    for s, act, cards in k.ann_log:
        if act in LEVEL_ACTS and fast.party[s] >= 0:
            fast.announce(s, act, cards)
    if k.to_act is not None:
        fast.to_act = k.to_act
    return fast


def say_sau(fast: FastPlay) -> None:
    """A seat that holds a Sau says it at once (as the bots do)."""
    if fast.sau_seat < 0 and fast.profile.sau:
        for s in range(fast.seats):
            if fast.next_seat[s] >= 0 and fast.sau_allowed(s):
                fast.announce_sau(s)
                return


def rollout(fast: FastPlay, public: list[int] | None = None, style: int = STYLE) -> None:
    """Play the deal to its end with the policy (of ``style``) for every seat.

    With ``public`` (the parties as the table knows them, in a normal game) each seat plays
    knowing its own party and what the table learns as the Kreuz-Damen fall; without it every
    seat knows every party.
    """
    say_sau(fast)
    party = fast.party
    n = fast.n_tricks
    if public is None or fast.game_type != "normal":
        while fast.trick_no < n:
            legal = fast.legal()
            if legal & (legal - 1):
                fast.play(choose_card(fast, fast.to_act, legal, party, style))
            else:
                fast.play(legal.bit_length() - 1)
        return
    known = list(public)
    while fast.trick_no < n:
        seat = fast.to_act
        legal = fast.legal()
        if legal & (legal - 1):
            card = choose_card(fast, seat, legal, _as_seen(known, party, seat), style)
        else:
            card = legal.bit_length() - 1
        fast.play(card)
        if card >> 1 == CQ and known[seat] < 0:
            known[seat] = 0
            if known.count(0) == 2:
                for s in range(len(known)):
                    if known[s] < 0 and party[s] >= 0:
                        known[s] = 1


def _as_seen(known: list[int], party: list[int], seat: int) -> list[int]:
    """The parties as ``seat`` sees them: the table's knowledge and its own party; a Re seat
    that knows its partner, or a Kontra seat that knows both Re seats, knows everyone."""
    mine = party[seat]
    team = list(known)
    team[seat] = mine
    re = team.count(0)
    if (mine == 0 and re == 2) or (mine == 1 and re == 2):
        for s in range(len(team)):
            if team[s] < 0 and party[s] >= 0:
                team[s] = 1
    return team


def settle(fast: FastPlay, extras: dict[str, tuple[str, ...]] | None = None) -> list[int]:
    """The settlement of a finished world, by the engine's scoring (``extras``: the tricks'
    extras found before, e.g. when only an announcement has changed since)."""
    settlement: list[int] = score(fast.facts(extras), fast.profile)["settlement"]
    return settlement


def relative(settlement: list[int], seat: int, order: list[int]) -> float:
    """A seat's settlement against the table's mean: what counts in a list, under any counting
    (with plus points only, the others' gains are this seat's losses)."""
    return settlement[seat] - sum(settlement[s] for s in order) / len(order)
