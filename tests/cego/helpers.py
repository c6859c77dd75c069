"""Building crafted Cego deals and driving them in a few lines."""

from typing import Any

from stichwerk.cego import cards as C
from stichwerk.cego.record import deal_from_record
from stichwerk.cego.state import CegoState
from stichwerk.core.action import Action


def deal(
    hands: list[str],
    blind: str,
    *,
    dealer: int | None = None,
    profile: str = "schwarzwald",
    options: dict[str, Any] | None = None,
    seats: int | None = None,
    deal_type: str | None = None,
) -> CegoState:
    """A deal from hands written as space-separated codes (one string per table seat)."""
    players = sum(1 for h in hands if h.strip())
    seats = seats or len(hands)
    if dealer is None:
        dealer = seats - 1
    record: dict[str, Any] = {
        "game": "cego",
        "profile": profile,
        "options": options or {},
        "players": players,
        "dealer": dealer,
        "hands": [h.split() for h in hands],
        "blind": blind.split(),
        "actions": [],
    }
    if seats != players:
        record["seats"] = seats
    if deal_type:
        record["deal_type"] = deal_type
    return deal_from_record(record)


def say(state: CegoState, *words: str) -> None:
    """Each word is said by the seat to act, in turn."""
    for word in words:
        seat = state.to_act
        assert seat is not None, f"nobody is to act for {word!r}"
        state.apply(Action(seat, word))


def do(state: CegoState, act: str, cards: str) -> Action:
    """The seat to act does ``act`` with ``cards`` (space-separated)."""
    seat = state.to_act
    assert seat is not None
    return state.apply(Action(seat, act, cards=tuple(cards.split())))


def tricks(state: CegoState, *lines: str) -> list[int]:
    """Play whole tricks; each line lists the cards in playing order. Returns the winners.

    Every card must be held by the seat whose turn it is (cards are unique in Cego).
    """
    winners = []
    for line in lines:
        for code in line.split():
            seat = state.to_act
            assert seat is not None, f"deal over before {code}"
            assert state.hands[seat] & (1 << C.ID[code]), f"seat {seat} does not hold {code}"
            state.apply(Action(seat, "play", card=code))
        assert state.last_trick is not None
        winners.append(state.last_trick[1])
    return winners
