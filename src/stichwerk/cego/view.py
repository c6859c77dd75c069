"""What a seat may see of a Cego deal: the cards it has seen, and its view (the JSON a client,
a bot or the terminal reads).

The state (:mod:`stichwerk.cego.state`) plays the deal; this module only reads it, through the
public facts listed by :class:`DealFacts`, and never changes it. It imports nothing of the state
(the state imports it to answer ``state.view(seat)``), so the two never go in a circle. Hidden
cards stay hidden here: another seat's hand, the blind, what the declarer kept, laid away or
pressed, until the deal is over (or the hands are shown by *aufdecken*).
"""

from collections.abc import Sequence
from typing import Any, Final, Protocol

from stichwerk.cego import cards as C
from stichwerk.cego.cards import CODES
from stichwerk.cego.profiles import Profile
from stichwerk.core.action import Action
from stichwerk.core.bits import Bits

OVER: Final = "over"
AUCTION: Final = "auction"


class DealFacts(Protocol):
    """The facts of a deal a view is made of (:class:`~stichwerk.cego.state.CegoState` has
    them all)."""

    @property
    def profile(self) -> Profile: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def seats(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def vorhand(self) -> int: ...
    @property
    def deal_type(self) -> str | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_act_seat(self) -> int | None: ...
    @property
    def dealt(self) -> tuple[Bits, ...]: ...
    @property
    def hands(self) -> list[Bits]: ...
    @property
    def blind(self) -> Bits: ...
    @property
    def history(self) -> list[Action]: ...
    @property
    def trick(self) -> list[tuple[int, int]]: ...
    @property
    def trick_no(self) -> int: ...
    @property
    def leader(self) -> int | None: ...
    @property
    def last_trick(self) -> tuple[tuple[tuple[int, int], ...], int] | None: ...
    @property
    def tricks_won(self) -> list[int]: ...
    @property
    def piles(self) -> list[Bits]: ...
    @property
    def contract(self) -> str | None: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def value(self) -> int | None: ...
    @property
    def gegensolo(self) -> bool: ...
    @property
    def announcer(self) -> int | None: ...
    @property
    def auction(self) -> tuple[int, str, int | None, list[int]] | None: ...
    @property
    def picked_up(self) -> Bits: ...
    @property
    def laid_out(self) -> Bits: ...
    @property
    def laid_away(self) -> Bits: ...
    @property
    def pressed(self) -> Bits: ...
    @property
    def forced_press(self) -> Bits: ...
    @property
    def shown(self) -> Bits: ...
    @property
    def never_wins(self) -> Bits: ...
    def result(self) -> dict[str, Any] | None: ...


def visible(deal: DealFacts, seat: int | None) -> Bits:
    """Every card ``seat`` has seen so far (a spectator: ``None``).

    The basis of every view: the own dealt hand, every played and laid-out card, for the
    declarer the blind he took up and what he laid away, a shown forced press, all hands
    once shown by *aufdecken*, and everything once the deal is over.
    """
    if deal.phase == OVER:
        return C.ALL
    seen = deal.shown | deal.laid_out
    for p in deal.piles:
        seen |= p
    for _, c in deal.trick:
        seen |= 1 << c
    contract = deal.contract
    if contract is not None and contract in deal.profile.forced_press_shown:
        seen |= deal.forced_press
    if seat is None:
        return seen
    seen |= deal.dealt[seat] | deal.hands[seat]
    picked_up = deal.picked_up
    if seat == deal.declarer and picked_up:
        seen |= picked_up | deal.laid_away | deal.pressed | deal.forced_press
    return seen


def build_view(deal: DealFacts, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """What ``seat`` may see now (``None``: a spectator, who sees no hand); ``legal``: the
    seat's legal actions, which the state lists."""
    over = deal.phase == OVER
    contract = deal.contract
    out: dict[str, Any] = {
        "game": "cego",
        "profile": deal.profile.name,
        "options": dict(deal.options),
        "seats": deal.seats,
        "players": deal.players,
        "dealer": deal.dealer,
        "vorhand": deal.vorhand,
        "deal_type": deal.deal_type,
        "seat": seat,
        "phase": deal.phase,
        "to_act": deal.to_act_seat,
        "hand": None if seat is None else sorted_codes(deal.hands[seat]),
        "hand_sizes": [h.bit_count() for h in deal.hands],
        "history": [_seen_action(a, seat, over) for a in deal.history],
        "trick": [{"seat": s, "card": CODES[c]} for s, c in deal.trick],
        "trick_no": deal.trick_no,
        "leader": deal.leader,
        "last_trick": None,
        "tricks_won": list(deal.tricks_won),
        "legal_actions": [a.to_json() for a in legal],
        "contract": contract,
        "declarer": deal.declarer,
        "value": deal.value,
        "gegensolo": deal.gegensolo,
        "announcer": deal.announcer,
        "laid_out": sorted_codes(deal.laid_out),
        "shown": sorted_codes(deal.shown),
        "never_wins": sorted_codes(deal.never_wins & visible(deal, None)),
        "blind_size": deal.blind.bit_count(),
        "result": deal.result(),
    }
    last = deal.last_trick
    if last is not None:
        cards, winner = last
        out["last_trick"] = {
            "cards": [{"seat": s, "card": CODES[c]} for s, c in cards],
            "winner": winner,
        }
    auction = deal.auction
    if auction is not None:
        holder, level, challenger, dropped = auction
        out["auction"] = {
            "holder": holder,
            "level": level,
            "challenger": challenger,
            "dropped": dropped,
        }
    if contract is not None and contract in deal.profile.forced_press_shown:
        out["shown_press"] = C.codes(deal.forced_press)
    picked_up = deal.picked_up
    if seat is not None and seat == deal.declarer and picked_up:
        out["blind"] = sorted_codes(picked_up)
        out["laid_away"] = sorted_codes(deal.laid_away)
        out["pressed"] = sorted_codes(deal.pressed | deal.forced_press)
    if over:
        out["deal"] = {
            "hands": [sorted_codes(h) for h in deal.dealt],
            "blind": sorted_codes(deal.blind),
        }
    return out


def _seen_action(action: Action, seat: int | None, over: bool) -> dict[str, Any]:
    """An action as ``seat`` may see it: another seat's kept or pressed cards only counted."""
    if action.act in ("keep", "press") and action.seat != seat and not over:
        return {"seat": action.seat, "act": action.act, "count": len(action.cards)}
    return action.to_json()


# ---------------------------------------------------------------- cards in display order

_SLICES: Final = ((0, 11), (11, 11), (22, 8), (30, 8), (38, 8), (46, 8))
"""(first card, width) of each slice of a hand cut at the suits: T1-T11, T12-T22, each colour."""


def _codes_down(start: int, width: int) -> tuple[tuple[str, ...], ...]:
    """For each ``width``-bit slice from card ``start``: its cards' codes, highest id first."""
    return tuple(
        tuple(CODES[start + i] for i in reversed(range(width)) if v >> i & 1)
        for v in range(1 << width)
    )


_DOWN: Final = tuple(_codes_down(start, width) for start, width in _SLICES)


def sorted_codes(mask: Bits) -> list[str]:
    """The codes of ``mask`` in display order (``cards.sort_key``: trumps high to low, then
    each colour high to low; a higher id is the higher card), by six table lookups."""
    t0, t1, cs, ss, hs, ds = _DOWN
    return [*t1[mask >> 11 & 2047], *t0[mask & 2047], *cs[mask >> 22 & 255],
            *ss[mask >> 30 & 255], *hs[mask >> 38 & 255], *ds[mask >> 46]]  # fmt: skip
