"""The leak oracle: which cards a seat (or a spectator) may know at a point of a deal.

Computed from the true deal (the stored record replayed through the engine), not from the
view under test, as a whitelist: a seat may know the cards it was dealt and holds, every card
played or laid out (public acts), the cards the rules show to all, and, as declarer, the blind
it took up. A frame that names any other card leaks.
"""

import json
import re
from typing import Any

from stichwerk.core.action import Action
from stichwerk.games import get_game

CARD = re.compile(r'"(T(?:[1-9]|1\d|2[0-2])|[CSHD](?:A|K|Q|R|J|10|[1-9]))"')
PUBLIC_ACTS = ("play", "lay-out", "withdraw")
RULE_PUBLIC_KEYS = ("laid_out", "shown", "shown_press")


def cards_in(frame: dict[str, Any]) -> set[str]:
    """Every card code that appears as a JSON string anywhere in the frame."""
    return set(CARD.findall(json.dumps(frame)))


class DealTruth:
    """A stored deal, replayed step by step."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        module = get_game(record["game"])
        state = module.deal_from_record(record)
        self.states = [state.clone()]
        for raw in record["actions"]:
            state.apply(Action.from_json(raw))
            self.states.append(state.clone())

    def allowed(self, k: int, seat: int | None) -> set[str]:
        """What ``seat`` (``None``: a spectator) may know after ``k`` actions."""
        actions = self.record["actions"][:k]
        public: set[str] = set()
        for a in actions:
            if a["act"] in PUBLIC_ACTS:
                public.update([a["card"]] if "card" in a else a.get("cards", []))
        state = self.states[k]
        spectator_view = state.view(None)
        for key in RULE_PUBLIC_KEYS:
            value = spectator_view.get(key)
            if isinstance(value, list):
                public.update(c for c in value if isinstance(c, str))
        if seat is None:
            return public
        own = set(self.record["hands"][seat])
        own.update(state.view(seat)["hand"] or [])
        took_blind = any(a["seat"] == seat and a["act"] in ("keep", "lay-out") for a in actions)
        if took_blind and "blind" in self.record:
            own.update(self.record["blind"])
        for a in actions:
            if a["seat"] == seat:
                own.update([a["card"]] if "card" in a else a.get("cards", []))
        return public | own
