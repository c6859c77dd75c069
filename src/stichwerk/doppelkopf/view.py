"""What one seat may see of a deal: the only place that decides what is hidden.

A seat sees its own hand, everything said aloud, every card played, and what it can infer from
public facts (a Kreuz Dame played marks its player as Re). It never sees another hand. An Armut's
passed and returned cards are seen by the two seats involved only; the others learn how many
cards moved and the trumps the taker declared. A Stilles Solo looks like a normal game to
everyone but its soloist until the soloist has shown both Kreuz-Damen or the deal is over.
When the deal is over everything is open, as when the piles are counted at the table. Who
still owes a Pflicht-Solo in the list, and who is vorgeführt, is public (the list shows it).
"""

from collections.abc import Sequence
from typing import Any, Final

from stichwerk.core.action import Action
from stichwerk.doppelkopf.cards import CODES, code_of, codes_of_mask
from stichwerk.doppelkopf.scoring import LEVELS, PARTIES
from stichwerk.doppelkopf.snapshot import DokoSnapshot
from stichwerk.doppelkopf.trumps import TRUMP, Order

CQ: Final = code_of("CQ")


def build_view(d: DokoSnapshot, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) as JSON-ready data; ``legal`` is what the
    state offers the viewer (nothing to a spectator)."""
    over = d.over
    viewer = seat if seat is not None and 0 <= seat < d.seats else None
    party = d.party
    armut_seat, taker = d.armut_seat, d.armut_taker
    involved = viewer is not None and viewer in (armut_seat, taker)
    public_type = _public_game_type(d, viewer)
    history = [_seen(d, a.to_json(), viewer, involved or over) for a in d.actions]
    tricks = d.tricks
    last_trick = None
    if tricks:
        seats, ids, win = tricks[-1]
        last_trick = {"cards": [CODES[i >> 1] for i in ids], "seats": list(seats), "winner": win}
    view: dict[str, Any] = {
        "game": "doppelkopf",
        "profile": d.profile.name,
        "options": dict(d.options),
        "seats": d.seats,
        "players": 4,
        "dealer": d.dealer,
        "vorhand": d.seat_order[0],
        "sitting": d.dealer if d.seats == 5 else None,
        "seat": viewer,
        "phase": d.phase,
        "to_act": d.to_act,
        "hand": None if viewer is None else codes_of_mask(d.hands[viewer]),
        "hand_sorted": None if viewer is None else held(codes_of_mask(d.hands[viewer]), d.order),
        "hand_sizes": [h.bit_count() for h in d.hands],
        "history": history,
        "trick": [
            {"seat": s, "card": CODES[i >> 1]}
            for s, i in zip(d.trick_seats, d.trick_ids, strict=True)
        ],
        "last_trick": last_trick,
        "tricks_won": list(d.tricks_won),
        "legal_actions": [] if viewer is None else [a.to_json() for a in legal],
        "result": d.result,
        "game_type": public_type,
        "parties": _known_parties(d, viewer, public_type, over),
        "my_party": None if viewer is None or party[viewer] < 0 else PARTIES[party[viewer]],
        "announcements": {
            "re": d.ann[0].names("re"),
            "kontra": d.ann[1].names("kontra"),
        },
        "sau": d.sau_seat,
        "supersau": d.supersau_seat,
        "soloist": d.soloist if public_type.startswith("solo-") else None,
        "duty_solo_owed": sorted(d.duty_owed),
        "duty_solo_forced": d.forced,
        "duty_solo_games_left": d.duty_games_left,
    }
    if d.hochzeiter is not None:
        h = d.hochzeiter
        partner = [s for s in d.seat_order if s != h and party[s] == 0]
        view["hochzeit"] = {
            "seat": h,
            "klaerungsstich": d.clarified_at or None,
            "partner": partner[0] if partner else None,
        }
    if armut_seat is not None:
        info: dict[str, Any] = {
            "seat": armut_seat,
            "taker": taker,
            "cards": d.armut_cards.bit_count(),
        }
        if d.armut_returned:
            info.update(_declared(d))
        if involved or over:
            info["passed"] = codes_of_mask(d.armut_cards)
            if d.armut_returned:
                info["returned"] = codes_of_mask(d.armut_returned)
        view["armut"] = info
    if over:
        view["deal"] = {"hands": [codes_of_mask(h) for h in d.dealt]}
    return view


def held(hand: list[str], order: Order) -> list[str]:
    """A hand as players hold it in the game being played (``card_order``): the view's
    ``hand_sorted``, which the table page shows, holding no second list of the trumps. Only the
    seat's own cards: the whole order would name every card of the deck to every seat.

    >>> from stichwerk.doppelkopf.profiles import DDV
    >>> from stichwerk.doppelkopf.trumps import order_for
    >>> held(["CA", "H10", "DJ", "CQ"], order_for("normal", DDV))
    ['H10', 'CQ', 'DJ', 'CA']
    """
    rank = {code: i for i, code in enumerate(card_order(order))}
    return sorted(hand, key=rank.__getitem__)


def card_order(order: Order) -> list[str]:
    """Every card as players hold them in the game being played: its trumps from the highest,
    then the Fehl suits (Kreuz, Pik, Herz, Karo), each from its highest card.

    >>> from stichwerk.doppelkopf.profiles import DDV
    >>> from stichwerk.doppelkopf.trumps import order_for
    >>> card_order(order_for("damen", DDV))[:5]
    ['CQ', 'SQ', 'HQ', 'DQ', 'CA']
    """
    fehl = sorted(
        (c for c in range(len(order.cls)) if order.cls[c] != TRUMP),
        key=lambda c: (order.cls[c], -order.power[c]),
    )
    return [CODES[c] for c in (*order.trumps_high_to_low, *fehl)]


def _declared(d: DokoSnapshot) -> dict[str, Any]:
    mode = d.profile.armut_return_declare
    n = d.returned_trumps
    if mode == "count":
        return {"returned_trumps": n}
    if mode == "whether":
        return {"returned_trump": n > 0}
    return {}


def _seen(
    d: DokoSnapshot, entry: dict[str, Any], viewer: int | None, sees_armut: bool
) -> dict[str, Any]:
    """A history entry as ``viewer`` saw it at the table."""
    act = entry["act"]
    if act in ("armut", "return") and "cards" in entry and not sees_armut:
        hidden = {"seat": entry["seat"], "act": act, "count": len(entry["cards"])}
        if act == "return":
            hidden.update(_declared(d))
        return hidden
    return entry


def _public_game_type(d: DokoSnapshot, viewer: int | None) -> str:
    """The game type as the table knows it: a Stilles Solo stays hidden until shown."""
    gt = d.game_type
    if gt != "solo-still" or d.over or viewer == d.soloist:
        return gt
    shown = 0
    for seats, ids, _ in d.tricks:
        shown += sum(1 for s, i in zip(seats, ids, strict=True) if i >> 1 == CQ and s == d.soloist)
    shown += sum(
        1
        for s, i in zip(d.trick_seats, d.trick_ids, strict=True)
        if i >> 1 == CQ and s == d.soloist
    )
    return gt if shown == 2 else "normal"


def _known_parties(
    d: DokoSnapshot, viewer: int | None, public_type: str, over: bool
) -> list[str | None]:
    """Each seat's party as far as it is public (plus the viewer's own)."""
    party = d.party
    seats = d.seat_order
    known: list[str | None] = [None] * d.seats
    settled = over or public_type.startswith("solo-") or public_type == "armut"
    if public_type == "hochzeit":
        settled = bool(d.clarified_at)
        if d.hochzeiter is not None:  # always, in a Hochzeit
            known[d.hochzeiter] = "re"
    if settled:
        for s in seats:
            known[s] = PARTIES[party[s]] if party[s] >= 0 else None
        return known
    for s, act in d.ann_log:
        if act == "re":
            known[s] = "re"
        elif act == "kontra":
            known[s] = "kontra"
        elif act in LEVELS and party[s] >= 0:
            known[s] = PARTIES[party[s]]
    played_cq = {s for seats_, ids, _ in d.tricks for s, i in zip(seats_, ids, strict=True)
                 if i >> 1 == CQ}  # fmt: skip
    played_cq |= {s for s, i in zip(d.trick_seats, d.trick_ids, strict=True) if i >> 1 == CQ}
    for s in played_cq:
        known[s] = "re"
    if viewer is not None and party[viewer] >= 0:
        known[viewer] = PARTIES[party[viewer]]
    if public_type == "normal" and sum(1 for s in seats if known[s] == "re") == 2:
        # Both Re seats are known, so the rest are Kontra. (Two known Kontra seats prove
        # nothing: it may be a Stilles Solo with three.)
        for s in seats:
            known[s] = known[s] or "kontra"
    return known
