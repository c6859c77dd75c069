"""Resampling a deal from one seat's information: the unseen cards dealt anew.

What OpenSpiel's ``resample_from_infostate`` needs (and IS-MCTS with it): a complete deal and
action list that the seat cannot tell from the real one. The seat's unseen cards are where they
lie now (another seat's hand, or out of play: Cego's blind, laid-away and pressed cards); a new
world puts other unseen cards in those places, at random, never a card of a suit into a hand that
has shown out of it. The same exchange of cards is made in the whole record (the dealt hands, the
blind, the hidden cards of ``keep``, ``press``, ``armut`` and ``return``), the record is replayed
through the validated engine, and the world is kept only if every action is still legal and the
seat's view is exactly the real one. Otherwise another world is drawn.
"""

import random
from collections import Counter
from typing import Any

from stichwerk.cego import cards as C
from stichwerk.cego.profiles import get_profile as get_cego_profile
from stichwerk.cego.state import CegoState
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.core.state import GameState
from stichwerk.doppelkopf.cards import CODE_INDEX, CODES, codes_of_mask
from stichwerk.doppelkopf.profiles import get_profile as get_doko_profile
from stichwerk.doppelkopf.state import DokoState
from stichwerk.doppelkopf.trumps import SCHEME_OF_GAME, TRUMP, order_for, sau_cards
from stichwerk.games import get_game

Location = int
"""A seat, or ``OUT`` (out of play, Cego)."""
OUT = -1


def resample(state: GameState, seat: int, rng: random.Random, tries: int = 400) -> dict[str, Any]:
    """A record (without result) of a world ``seat`` cannot tell from ``state``."""
    record = state.to_record()
    record.pop("result", None)
    target = state.view(seat)
    places = _unseen_places(state, seat, target)
    voids = _voids(target)
    module = get_game(state.game)
    for _ in range(tries):
        assignment = _assign(places, voids, target, rng)
        if assignment is None:
            continue
        candidate = _exchange(record, state.game, places, assignment, seat)
        if state.game == "doppelkopf" and not _armut_exchange(candidate, target, assignment, rng):
            continue
        try:
            world = module.deal_from_record(candidate)
            for raw in candidate["actions"]:
                world.apply(Action.from_json(raw))
        except StichwerkError:
            continue
        if world.view(seat) == target:
            return candidate
    raise StichwerkError(f"no deal consistent with seat {seat}'s view found in {tries} tries")


def _unseen_places(state: GameState, seat: int, view: dict[str, Any]) -> dict[Location, list[str]]:
    """For every place another seat's cards may hide in, the unseen cards there now."""
    if state.game == "cego":
        assert isinstance(state, CegoState)
        removed = C.REMOVED_FOR_THREE if state.players == 3 else 0
        unseen = C.ALL & ~state.visible(seat) & ~removed
        places: dict[Location, list[str]] = {}
        in_hands = 0
        for s in state.order:
            if s != seat:
                places[s] = C.codes(state.hands[s] & unseen)
                in_hands |= state.hands[s] & unseen
        places[OUT] = C.codes(unseen & ~in_hands)
        return places
    assert isinstance(state, DokoState)
    known: Counter[str] = Counter()
    armut = view.get("armut") or {}
    if armut.get("seat") == seat and "passed" in armut:
        known.update(armut["passed"])  # given to the taker
    if armut.get("taker") == seat and "returned" in armut:
        known.update(armut["returned"])  # given back to the Armut's seat
    places = {}
    for s in state.seat_order:
        if s == seat:
            continue
        held = Counter(codes_of_mask(state.hand(s)))
        mine = Counter({c: min(n, known[c]) for c, n in held.items() if known[c]})
        known -= mine
        places[s] = sorted((held - mine).elements())
    return places


def _voids(view: dict[str, Any]) -> dict[int, set[int]]:
    """The card classes (suits, trump) each seat has shown out of, from the public plays."""
    out: dict[int, set[int]] = {}
    if view["game"] == "cego":

        def cls(code: str) -> int:
            return C.SUIT_OF[C.ID[code]]

        players = int(view["players"])
        regeln = view.get("contract") == "raeuber" and _rules_regeln(view)
    else:
        scheme = SCHEME_OF_GAME.get(view["game_type"], "normal")
        order = order_for(scheme, get_doko_profile(view["profile"], view.get("options") or {}))

        def cls(code: str) -> int:
            return order.cls[CODE_INDEX[code]]

        players = 4
        regeln = False
    trump = C.TRUMP if view["game"] == "cego" else TRUMP
    trick: list[tuple[int, str]] = []
    tricks = 0
    for entry in view["history"]:
        if entry["act"] != "play":
            continue
        if trick and not (regeln and tricks < 3):
            led = cls(trick[0][1])
            mine = cls(entry["card"])
            if mine != led:
                out.setdefault(entry["seat"], set()).add(led)
                if mine != trump and view["game"] == "cego":
                    out[entry["seat"]].add(trump)
        trick.append((entry["seat"], entry["card"]))
        if len(trick) == players:
            trick = []
            tricks += 1
    return out


def _rules_regeln(view: dict[str, Any]) -> bool:
    return bool(get_cego_profile(view["profile"], view.get("options") or {}).raeuber_nach_regeln)


def _assign(
    places: dict[Location, list[str]],
    voids: dict[int, set[int]],
    view: dict[str, Any],
    rng: random.Random,
) -> dict[Location, list[str]] | None:
    """A random new content of every place, of the same sizes, respecting the voids."""
    if view["game"] == "cego":

        def cls(code: str) -> int:
            return C.SUIT_OF[C.ID[code]]
    else:
        order = order_for(
            SCHEME_OF_GAME.get(view["game_type"], "normal"),
            get_doko_profile(view["profile"], view.get("options") or {}),
        )

        def cls(code: str) -> int:
            return order.cls[CODE_INDEX[code]]

    cards = [c for cards in places.values() for c in cards]
    room = {place: len(cards) for place, cards in places.items()}
    new: dict[Location, list[str]] = {p: [] for p in places}
    for place, card in _must_hold(view):
        if place in places and card in cards:
            cards.remove(card)
            new[place].append(card)
            room[place] -= 1
    allowed = {c: [p for p in places if cls(c) not in voids.get(p, set())] for c in set(cards)}
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(allowed[c]))
    for card in cards:
        options = [p for p in allowed[card] if room[p] > 0]
        if not options:
            return None
        weights = [room[p] for p in options]
        place = rng.choices(options, weights)[0]
        new[place].append(card)
        room[place] -= 1
    return new


def _must_hold(view: dict[str, Any]) -> list[tuple[int, str]]:
    """Unplayed cards a seat's words prove it holds: the Geiß (T1) of a Cego Ulti or Geiß
    bidder, both aces of a Doppelkopf Sau."""
    out: list[tuple[int, str]] = []
    played = Counter(e["card"] for e in view["history"] if e["act"] == "play")
    if view["game"] == "cego":
        for e in view["history"]:
            if e["act"] in ("ulti", "soli-ulti", "geiss") and not played["T1"]:
                out.append((e["seat"], "T1"))
        return out
    if view["sau"] is not None:
        profile = get_doko_profile(view["profile"], view.get("options") or {})
        codes = sau_cards(profile, view["game_type"])
        if codes is not None:
            ace = CODES[codes[0]]
            out += [(view["sau"], ace)] * (2 - played[ace])
    return out


def _exchange(
    record: dict[str, Any],
    game: str,
    places: dict[Location, list[str]],
    new: dict[Location, list[str]],
    seat: int,
) -> dict[str, Any]:
    """The record with the unseen cards exchanged: the card in a place becomes the new one."""
    out = dict(record)
    if game == "cego":
        # Cego's cards are unique: one exchange of codes for the whole record.
        swap: dict[str, str] = {}
        for place, old in places.items():
            for a, b in zip(old, new[place], strict=True):
                swap[a] = b

        def map_cards(cards: list[str]) -> list[str]:
            return [swap.get(c, c) for c in cards]

        out["hands"] = [map_cards(h) for h in record["hands"]]
        out["blind"] = map_cards(record["blind"])
        actions = []
        for raw in record["actions"]:
            entry = dict(raw)
            if "cards" in entry and entry["seat"] != seat and entry["act"] in ("keep", "press"):
                entry["cards"] = map_cards(entry["cards"])
            actions.append(entry)
        out["actions"] = actions
        return out
    # Doppelkopf: both copies of a code may lie in two places, so each hand is exchanged apart.
    hands = []
    for s, hand in enumerate(record["hands"]):
        pairs = list(zip(places.get(s, []), new.get(s, []), strict=True))
        mapped = []
        for code in hand:
            for k, (a, b) in enumerate(pairs):
                if a == code:
                    mapped.append(b)
                    del pairs[k]
                    break
            else:
                mapped.append(code)
        hands.append(mapped)
    out["hands"] = hands
    out["actions"] = [dict(a) for a in record["actions"]]
    return out


def _armut_exchange(
    record: dict[str, Any], view: dict[str, Any], new: dict[Location, list[str]], rng: random.Random
) -> bool:
    """Rebuild an Armut the seat did not take part in around the new hands; ``False`` if the
    new hands cannot have come from one.

    The poor seat P passed all its trumps A to the taker T, who gave back as many cards R. What
    each now holds or has played (its pool) is P: its dealt cards less A plus R, so every trump
    of P's pool came back in R; T: its dealt cards plus A less R.
    """
    armut = view.get("armut") or {}
    poor, taker = armut.get("seat"), armut.get("taker")
    if taker is None or poor is None or view["seat"] in (poor, taker):
        return True
    poor, taker = int(poor), int(taker)
    if not any(a["act"] == "return" for a in record["actions"]):
        return True
    order = order_for("normal", get_doko_profile(view["profile"], view.get("options") or {}))

    def trump(code: str) -> bool:
        return order.cls[CODE_INDEX[code]] == TRUMP

    played: dict[int, list[str]] = {poor: [], taker: []}
    for a in record["actions"]:
        if a["act"] == "play" and a["seat"] in played:
            played[a["seat"]].append(a["card"])
    pool_p = new[poor] + played[poor]
    pool_t = new[taker] + played[taker]
    n = int(armut["cards"])
    back = [c for c in pool_p if trump(c)]
    if len(back) > n or ("returned_trumps" in armut and len(back) != armut["returned_trumps"]):
        return False
    rest = [c for c in pool_p if not trump(c)]
    rng.shuffle(rest)
    back += rest[: n - len(back)]
    passed_pool = [c for c in pool_t if trump(c)]
    if len(passed_pool) < n or len(back) != n:
        return False
    rng.shuffle(passed_pool)
    passed = passed_pool[:n]
    hands = record["hands"]
    hands[poor] = sorted(_minus(pool_p, back) + passed, key=CODE_INDEX.__getitem__)
    hands[taker] = sorted(_minus(pool_t, passed) + back, key=CODE_INDEX.__getitem__)
    for a in record["actions"]:
        if a["act"] == "return":
            a["cards"] = sorted(back, key=CODE_INDEX.__getitem__)
    return True


def _minus(cards: list[str], take: list[str]) -> list[str]:
    left = Counter(take)
    out = []
    for c in cards:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out
