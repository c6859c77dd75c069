"""What one seat knows, read from its view and nothing else.

The view holds the seat's hand, the public history (bids, laid-out cards, every played card) and,
for the declarer, the blind he took up and the cards he laid away and pressed. From these the
seat works out the tricks and who took them, which seats have shown out of a suit (a seat that
did not follow suit has none left; one that neither followed nor trumped has no trump either),
who must hold the Geiß (an Ulti or Geiß bid), and which cards it has never seen.
"""

from dataclasses import dataclass, field
from typing import Any

from stichwerk.cego import cards as C
from stichwerk.cego.contracts import EXCHANGES
from stichwerk.cego.fast import trick_winner
from stichwerk.cego.profiles import Profile, get_profile
from stichwerk.cego.state import hand_size

_RULE_CARDS = (C.T22, C.T21, C.T1)
_SOLO_WORDS = ("fort", "solo", "ulti", "soli-ulti")


def mask_of(codes: list[str] | None) -> int:
    """The bit set of a list of card codes."""
    out = 0
    for code in codes or []:
        out |= 1 << C.ID[code]
    return out


@dataclass
class Knowledge:
    """A seat's picture of the deal (all masks are bit sets of card ids)."""

    seat: int
    seats: int
    players: int
    order: list[int]
    profile: Profile
    phase: str
    hand: int
    contract: str | None
    declarer: int | None
    announcer: int | None
    value: int | None
    gegensolo: bool
    to_act: int | None
    trick_no: int
    trick: list[tuple[int, int]]
    piles: list[int]
    tricks_won: list[int]
    hand_sizes: list[int]
    played: int
    laid_out: int
    shown: int
    never_wins: int
    forced_leads: int
    removed: int
    my_legage: int
    shown_press: int
    voids: list[int]
    """Per seat, a bit set over suits 0..4 (4 = trumps) the seat is known to lack."""
    must_hold: list[int]
    bids: dict[int, list[str]] = field(default_factory=dict)
    auction_level: str | None = None
    auction: dict[str, Any] = field(default_factory=dict)
    """The view's auction (holder, level, challenger, dropped) while it runs."""
    passed_solo: list[int] = field(default_factory=list)
    """Seats that said ``fort`` in the Solo round while no Solo stood: none of them should hold
    a Pflichtsolo (such a seat is a *Schinder*)."""
    events: list[tuple[int, int]] = field(default_factory=list)
    """Every card played, in order: ``(seat, card)``, for the inference's replay."""
    banned: list[int] = field(default_factory=list)
    """Per seat, unseen cards it cannot hold: in Räuber nach Regeln a seat that played another
    card to trick 1, 2 or 3 did not hold the T22, T21 or T1 that had to fall there."""

    @property
    def n_tricks(self) -> int:
        return hand_size(self.players)

    def next_seat(self, seat: int) -> int:
        order = self.order
        return order[(order.index(seat) + 1) % len(order)]

    def known_in_hand(self, seat: int) -> int:
        """Cards known to be in another seat's hand: the declarer's laid-out and shown cards."""
        if seat == self.declarer:
            return (self.laid_out | self.shown) & ~self.played
        return 0

    def unseen(self) -> int:
        """Cards this seat has not seen and cannot place for sure."""
        known = self.hand | self.played | self.removed | self.my_legage | self.shown_press
        for s in self.order:
            if s != self.seat:
                known |= self.known_in_hand(s)
        return C.ALL & ~known

    def hidden_size(self) -> int:
        """How many unseen cards lie outside every hand (blind or legage)."""
        in_hands = sum(
            self.hand_sizes[s] - self.known_in_hand(s).bit_count()
            for s in self.order
            if s != self.seat
        )
        return self.unseen().bit_count() - in_hands


def read(view: dict[str, Any]) -> Knowledge:
    """Everything a seat can infer from its view."""
    rules = get_profile(view["profile"], view.get("options") or {})
    seats = view["seats"]
    players = view["players"]
    vorhand = view["vorhand"]
    if seats == 5:
        order = [(vorhand + i) % 5 for i in range(5) if (vorhand + i) % 5 != view["dealer"]]
    else:
        order = [(vorhand + i) % seats for i in range(seats)]
    never_wins = mask_of(view.get("never_wins"))
    contract = view.get("contract")
    declarer = view.get("declarer")
    forced = 0
    if contract in EXCHANGES and declarer is not None:
        kind = EXCHANGES[contract].lay_out_kind
        if kind == "geiss":
            forced = 1
        elif kind and not rules.shown_leere_ordinary:
            forced = EXCHANGES[contract].lay_out
    regeln = contract == "raeuber" and rules.raeuber_nach_regeln
    piles = [0] * seats
    tricks_won = [0] * seats
    voids = [0] * seats
    played = 0
    trick: list[tuple[int, int]] = []
    trick_no = 0
    bids: dict[int, list[str]] = {}
    must_hold = [0] * seats
    events: list[tuple[int, int]] = []
    banned = [0] * seats
    passed_solo: list[int] = []
    solo_round = view.get("deal_type") is None and (rules.solo or rules.ulti)
    solo_words = 0
    standing = False
    for entry in view["history"]:
        act = entry["act"]
        seat = entry["seat"]
        if act != "play":
            if "cards" not in entry and "count" not in entry:
                bids.setdefault(seat, []).append(act)
                if act in ("ulti", "soli-ulti", "geiss"):
                    must_hold[seat] |= 1 << C.T1
                if solo_round and solo_words < players and act in _SOLO_WORDS:
                    solo_words += 1
                    if act == "fort" and not standing:
                        passed_solo.append(seat)
                    elif act != "fort":
                        standing = True
                        if act != "solo":
                            solo_words = players  # an Ulti ends the round
            continue
        card = C.ID[entry["card"]]
        played |= 1 << card
        events.append((seat, card))
        if regeln and trick_no < 3 and card != _RULE_CARDS[trick_no]:
            banned[seat] |= 1 << _RULE_CARDS[trick_no]
        if trick:
            led = C.SUIT_OF[trick[0][1]]
            suit = C.SUIT_OF[card]
            rule_card = regeln and trick_no < 3 and card in _RULE_CARDS
            if suit != led and not rule_card:
                voids[seat] |= 1 << led
                if suit != C.TRUMP and not (regeln and trick_no < 3):
                    voids[seat] |= 1 << C.TRUMP
        trick.append((seat, card))
        if len(trick) == players:
            winner = trick_winner(trick, never_wins)
            for _, c in trick:
                piles[winner] |= 1 << c
            tricks_won[winner] += 1
            trick = []
            trick_no += 1
    return Knowledge(
        seat=view["seat"],
        seats=seats,
        players=players,
        order=order,
        profile=rules,
        phase=view["phase"],
        hand=mask_of(view["hand"]),
        contract=contract,
        declarer=declarer,
        announcer=view.get("announcer"),
        value=view.get("value"),
        gegensolo=bool(view.get("gegensolo")),
        to_act=view.get("to_act"),
        trick_no=trick_no,
        trick=trick,
        piles=piles,
        tricks_won=tricks_won,
        hand_sizes=list(view["hand_sizes"]),
        played=played,
        laid_out=mask_of(view.get("laid_out")),
        shown=mask_of(view.get("shown")),
        never_wins=never_wins,
        forced_leads=forced,
        removed=C.REMOVED_FOR_THREE if players == 3 else 0,
        my_legage=mask_of(view.get("laid_away")) | mask_of(view.get("pressed")),
        shown_press=mask_of(view.get("shown_press")),
        voids=voids,
        must_hold=must_hold,
        bids=bids,
        auction_level=(view.get("auction") or {}).get("level"),
        auction=dict(view.get("auction") or {}),
        passed_solo=passed_solo,
        events=events,
        banned=banned,
    )
