"""A tiny trick game on the ``GameState`` protocol, for testing the server without an engine.

Four cards each from a 16- or 20-card deck; a "fort"/"solo" round, then follow suit, highest of
the led suit wins, the winner leads. It has what matters to the server (hidden hands, turns,
a bidding round with buttons, a result with a zero-sum settlement, records) and nothing else.
"""

from collections.abc import Mapping
from typing import Any, Self

from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction, RecordError
from stichwerk.core.rng import shuffled
from stichwerk.games import GameModule

RANKS = "AKQJ"
SUITS = "CSHD"
DECK = [s + r for s in SUITS for r in RANKS]


class ToyState:
    game = "toy"

    def __init__(self, hands: list[list[str]], dealer: int, seats: int, profile: str) -> None:
        self.hands = [list(h) for h in hands]
        self.dealt = [list(h) for h in hands]
        self.dealer = dealer
        self._seats = seats
        self.profile = profile
        self.players = [s for s in range(seats) if seats < 5 or s != dealer]
        self.actions: list[Action] = []
        self.phase = "bid"
        self.bid_turn = 0
        self.solo: int | None = None
        self.trick: list[tuple[int, str]] = []
        self.last_trick: tuple[list[tuple[int, str]], int] | None = None
        self.tricks = [0] * seats
        self.leader = self._after(dealer)

    def _after(self, seat: int) -> int:
        i = (seat + 1) % self._seats
        while i not in self.players:
            i = (i + 1) % self._seats
        return i

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def to_act(self) -> int | None:
        if self.phase == "bid":
            return self.players[(self.players.index(self.leader) + self.bid_turn) % 4]
        if self.phase == "play":
            if not self.trick:
                return self.leader
            return self._after(self.trick[-1][0])
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        seat = self.to_act if seat is None else seat
        if seat is None or seat != self.to_act:
            return []
        if self.phase == "bid":
            return [Action(seat, "fort"), Action(seat, "solo")]
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1][0]
            follow = [c for c in hand if c[0] == led]
            if follow:
                return [Action(seat, "play", card=c) for c in follow]
        return [Action(seat, "play", card=c) for c in hand]

    def verify(self, action: Action) -> None:
        if action.seat != self.to_act:
            raise IllegalAction(f"it is not seat {action.seat}'s turn")
        if action not in self.legal_actions(action.seat):
            if action.act == "play" and action.card not in DECK:
                raise RecordError(f"unknown card {action.card!r}")
            raise IllegalAction(f"seat {action.seat} may not {action.act} now")

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except (IllegalAction, RecordError):
            return False
        return True

    def apply(self, action: Action) -> Action:
        self.verify(action)
        self.actions.append(action)
        if self.phase == "bid":
            if action.act == "solo" and self.solo is None:
                self.solo = action.seat
            self.bid_turn += 1
            if self.bid_turn == 4:
                self.phase = "play"
            return action
        assert action.card is not None
        self.hands[action.seat].remove(action.card)
        self.trick.append((action.seat, action.card))
        if len(self.trick) == 4:
            led = self.trick[0][1][0]
            winner = max(
                (t for t in self.trick if t[1][0] == led), key=lambda t: -RANKS.index(t[1][1])
            )[0]
            self.tricks[winner] += 1
            self.last_trick = (self.trick, winner)
            self.trick = []
            self.leader = winner
            if not any(self.hands[s] for s in self.players):
                self.phase = "over"
        return action

    def view(self, seat: int | None) -> dict[str, Any]:
        over = self.is_over
        return {
            "game": "toy",
            "profile": self.profile,
            "options": {},
            "seats": self._seats,
            "players": len(self.players),
            "dealer": self.dealer,
            "seat": seat,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": None if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "history": [a.to_json() for a in self.actions],
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": None
            if self.last_trick is None
            else {
                "cards": [{"seat": s, "card": c} for s, c in self.last_trick[0]],
                "winner": self.last_trick[1],
            },
            "tricks_won": list(self.tricks),
            "legal_actions": [a.to_json() for a in self.legal_actions(seat)]
            if seat is not None
            else [],
            "result": self.result(),
            **({"deal": {"hands": self.dealt}} if over else {}),
        }

    def result(self) -> dict[str, Any] | None:
        if not self.is_over:
            return None
        settlement = [
            (4 * self.tricks[s] - 4 if s in self.players else 0) for s in range(self._seats)
        ]
        return {
            "contract": "solo" if self.solo is not None else "normal",
            "score": {
                "settlement": settlement,
                "winner": max(range(self._seats), key=lambda s: self.tricks[s]),
                "items": [{"name": "tricks", "value": list(self.tricks)}],
            },
        }

    def clone(self) -> Self:
        other = ToyState(self.dealt, self.dealer, self._seats, self.profile)
        for action in self.actions:
            other.apply(action)
        return other  # type: ignore[return-value]

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": "toy",
            "profile": self.profile,
            "options": {},
            "players": len(self.players),
            "seats": self._seats,
            "dealer": self.dealer,
            "hands": self.dealt,
            "actions": [a.to_json() for a in self.actions],
        }
        if self.is_over:
            out["result"] = self.result()
        return out


def new_deal(
    *,
    profile: str = "plain",
    options: Mapping[str, Any] | None = None,
    players: int = 4,
    dealer: int = 0,
    seed: int | str = 0,
) -> ToyState:
    seats = players
    if seats not in (4, 5):
        raise RecordError(f"toy is played at 4 or 5 seats, not {seats}")
    if options:
        raise RecordError(f"unknown setting {sorted(options)[0]!r}")
    order = shuffled(list(range(16)), seed)
    hands: list[list[str]] = [[] for _ in range(seats)]
    players_list = [s for s in range(seats) if seats < 5 or s != dealer]
    for i, seat in enumerate(players_list):
        hands[seat] = [DECK[j] for j in order[i * 4 : i * 4 + 4]]
    return ToyState(hands, dealer, seats, profile)


def deal_from_record(record: Mapping[str, Any]) -> ToyState:
    return ToyState(
        record["hands"], record["dealer"], record.get("seats", record["players"]), record["profile"]
    )


GAME = GameModule(
    name="toy",
    profiles=("plain",),
    new_deal=new_deal,
    deal_from_record=deal_from_record,
    score_summary=lambda summary: {},
    settings=lambda profile: {"cards_each": 4},
    setting_docs=lambda lang: {
        "cards_each": "Karten für jeden Platz." if lang == "de" else "Cards dealt to each seat."
    },
    deal_sides=lambda result, playing: [(s,) for s in playing],
    typical_margin=None,
)
