"""The lean path for bots and simulation: the play of the tricks on bare bit sets.

:class:`CegoState` checks every action and keeps a readable log; a search bot that plays out
thousands of deals per decision needs neither. :class:`FastPlay` copies what matters for the
tricks (hands, the trick, the piles, the cards that may never win, the forced leads, Räuber nach
Regeln) into plain ints and lists, and plays cards by id without checks or objects. A property
test keeps the two paths in agreement, card for card.
"""

import random
from typing import Self

from stichwerk.cego.cards import SUIT_MASK, SUIT_OF, T1, T21, T22, TRUMP, TRUMPS
from stichwerk.cego.state import PLAY, CegoState, hand_size

_RULE_CARDS = (T22, T21, T1)
_SUIT_OF = SUIT_OF
_MASK_OF_SUIT = SUIT_MASK


class FastPlay:
    """The trick-play part of a deal, for playouts. Seats are table seats."""

    __slots__ = (
        "declarer",
        "forced_leads",
        "hands",
        "laid_out",
        "last",
        "n_tricks",
        "never_wins",
        "next_seat",
        "piles",
        "played",
        "players",
        "regeln",
        "to_act",
        "trick",
        "trick_no",
        "tricks_won",
    )

    def __init__(self) -> None:
        self.hands: list[int] = []
        self.piles: list[int] = []
        self.tricks_won: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.next_seat: list[int] = []
        self.to_act = 0
        self.trick_no = 0
        self.n_tricks = 11
        self.players = 4
        self.declarer = -1
        self.never_wins = 0
        self.laid_out = 0
        self.forced_leads = 0
        self.regeln = False
        self.played = 0
        self.last: list[tuple[int, int]] = []

    @classmethod
    def from_state(cls, state: CegoState) -> Self:
        """Copy a deal in its play phase (``state.phase == "play"``)."""
        if state.phase != PLAY or state.to_act is None:
            raise ValueError("FastPlay starts from a deal in its play phase")
        fast = cls()
        fast.hands = list(state.hands)
        fast.piles = list(state.piles)
        fast.tricks_won = list(state.tricks_won)
        fast.trick = list(state.trick)
        nxt = [0] * state.seats
        order = state.order
        for i, seat in enumerate(order):
            nxt[seat] = order[(i + 1) % len(order)]
        fast.next_seat = nxt
        fast.to_act = state.to_act
        fast.trick_no = state.trick_no
        fast.players = state.players
        fast.n_tricks = hand_size(state.players)
        fast.declarer = -1 if state.declarer is None else state.declarer
        fast.never_wins = state.never_wins
        fast.laid_out = state.laid_out
        fast.forced_leads = state.forced_leads
        fast.regeln = state.contract == "raeuber" and state.profile.raeuber_nach_regeln
        played = 0
        for pile in state.piles:
            played |= pile
        for _, card in state.trick:
            played |= 1 << card
        fast.played = played
        if state.last_trick is not None:
            fast.last = list(state.last_trick[0])
        return fast

    def copy(self) -> "FastPlay":
        """An independent copy."""
        other = FastPlay()
        other.hands = self.hands[:]
        other.piles = self.piles[:]
        other.tricks_won = self.tricks_won[:]
        other.trick = self.trick[:]
        other.next_seat = self.next_seat
        other.to_act = self.to_act
        other.trick_no = self.trick_no
        other.n_tricks = self.n_tricks
        other.players = self.players
        other.declarer = self.declarer
        other.never_wins = self.never_wins
        other.laid_out = self.laid_out
        other.forced_leads = self.forced_leads
        other.regeln = self.regeln
        other.played = self.played
        other.last = self.last
        return other

    @property
    def over(self) -> bool:
        """Whether every trick has been played."""
        return self.trick_no >= self.n_tricks

    def legal(self) -> int:
        """The cards the seat to act may play, as a bit set."""
        seat = self.to_act
        hand = self.hands[seat]
        trick = self.trick
        if not trick and seat == self.declarer and self.trick_no < self.forced_leads:
            return hand & self.laid_out
        if self.regeln and self.trick_no < 3:
            need = 1 << _RULE_CARDS[self.trick_no]
            if hand & need:
                return need
            banned = 0
            for card in _RULE_CARDS[self.trick_no + 1 :]:
                banned |= 1 << card
            if hand & ~banned:
                hand &= ~banned
        if not trick:
            return hand
        same = hand & _MASK_OF_SUIT[_SUIT_OF[trick[0][1]]]
        if same:
            return same
        trumps = hand & TRUMPS
        return trumps or hand

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act (no checks)."""
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        self.laid_out &= ~bit
        self.played |= bit
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.players:
            self.to_act = self.next_seat[seat]
            return
        winner = trick_winner(trick, self.never_wins)
        pile = 0
        for _, c in trick:
            pile |= 1 << c
        self.piles[winner] |= pile
        self.tricks_won[winner] += 1
        self.last = trick
        self.trick = []
        self.trick_no += 1
        self.to_act = (
            self.declarer if self.trick_no < self.forced_leads and self.declarer >= 0 else winner
        )

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal cards to the end of the deal."""
        randrange = rng.randrange
        while self.trick_no < self.n_tricks:
            mask = self.legal()
            count = mask.bit_count()
            k = randrange(count) if count > 1 else 0
            while k:
                mask &= mask - 1
                k -= 1
            self.play((mask & -mask).bit_length() - 1)


def trick_winner(trick: list[tuple[int, int]], never_wins: int) -> int:
    """The seat that takes a complete trick of (seat, card) pairs.

    The highest trump, else the highest card of the suit led; a card in ``never_wins`` is passed
    over, and if nothing else follows suit or trumps, the card played after it takes the trick.
    """
    led = _SUIT_OF[trick[0][1]]
    winner = -1
    best = -1
    for seat, card in trick:
        if never_wins >> card & 1:
            continue
        suit = _SUIT_OF[card]
        key = card + 100 if suit == TRUMP else (card if suit == led else -1)
        if key > best:
            best = key
            winner = seat
    return winner if winner >= 0 else trick[1][0]
