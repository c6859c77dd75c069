"""Helpers for crafted deals: hands from strings, actions from a short script."""

from typing import Any

from stichwerk.core.action import Action
from stichwerk.doppelkopf.record import deal_from_record
from stichwerk.doppelkopf.state import DokoState


def deal(
    hands: list[str],
    profile: str = "wielandstrasse",
    options: dict[str, Any] | None = None,
    dealer: int = 3,
    **extra: Any,
) -> DokoState:
    """A deal from hands written as space-separated codes (dealer 3, so seat 0 is Vorhand)."""
    record = {
        "game": "doppelkopf",
        "profile": profile,
        "options": options or {},
        "players": 4,
        "dealer": dealer,
        "hands": [h.split() for h in hands],
        "actions": [],
        **extra,
    }
    return deal_from_record(record)


def act(line: str) -> Action:
    """``"0 play CA"``, ``"1 solo damen"``, ``"2 return CA C10"``, ``"3 re"``."""
    parts = line.split()
    seat, name, rest = int(parts[0]), parts[1], parts[2:]
    if name == "play":
        return Action(seat, "play", card=rest[0])
    if name == "solo":
        return Action(seat, "solo", type=rest[0])
    if name in ("return", "armut") and rest:
        return Action(seat, name, cards=tuple(rest))
    return Action(seat, name)


def run(state: DokoState, script: str) -> DokoState:
    """Apply every action of ``script`` (one per line or separated by ';')."""
    for line in script.replace(";", "\n").splitlines():
        if line.strip():
            state.apply(act(line.strip()))
    return state


def play_tricks(state: DokoState, tricks: list[str]) -> list[int]:
    """Play tricks given as 'leader: c0 c1 c2 c3' (cards in playing order); the winners."""
    winners = []
    for trick in tricks:
        lead, cards = trick.split(":")
        seat = int(lead)
        for card in cards.split():
            state.apply(Action(seat, "play", card=card))
            seat = (seat + 1) % 4
        winners.append(state.snapshot().tricks[-1][2])
    return winners
