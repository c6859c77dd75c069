"""The order of the cards in each game type: which cards are trump and which card wins a trick.

Every game type maps to a *scheme*: the normal games (normal, Hochzeit, Armut) and the Karo solos
(Trumpf-Solo, Stilles Solo, the failed Hochzeit) share the normal trumps; the colour solos swap
Karo for another suit; Damen and Buben solos have only queens or jacks as trumps; the
Fleischloser has none. A scheme plus the table's settings and the deal's Sau state give an
:class:`Order`, a table indexed by card code, built once and cached.

>>> from stichwerk.doppelkopf.profiles import DDV
>>> order = order_for("normal", DDV)
>>> [CODES[c] for c in order.trumps_high_to_low][:4]
['H10', 'CQ', 'SQ', 'HQ']
>>> winner_of([code_of("H10") * 2, code_of("CQ") * 2, code_of("H10") * 2 + 1, 0], order, False)
0
"""

from dataclasses import dataclass
from typing import Final

from stichwerk.core.bits import Bits
from stichwerk.doppelkopf.cards import CODES, NINES, code_mask, code_of
from stichwerk.doppelkopf.profiles import Profile

TRUMP: Final = 4
"""The class of trump cards; Fehl suits are classes 0..3 (Kreuz, Pik, Herz, Karo)."""

SCHEMES: Final = ("normal", "kreuz", "pik", "herz", "damen", "buben", "fleischlos")
SCHEME_OF_GAME: Final = {
    "normal": "normal",
    "hochzeit": "normal",
    "armut": "normal",
    "solo-trumpf": "normal",
    "solo-still": "normal",
    "solo-kreuz": "kreuz",
    "solo-pik": "pik",
    "solo-herz": "herz",
    "solo-damen": "damen",
    "solo-buben": "buben",
    "solo-fleischlos": "fleischlos",
}
TRUMP_SUIT: Final = {"normal": 3, "kreuz": 0, "pik": 1, "herz": 2}
"""The suit whose cards are trump (and whose aces can be a Sau) in the suit schemes."""

_A, _10, _K, _Q, _J, _9 = range(6)


@dataclass(frozen=True, slots=True)
class Order:
    """Card order of one game situation, indexed by code (0..23)."""

    cls: tuple[int, ...]
    """``TRUMP`` or the Fehl suit 0..3 of each code."""
    power: tuple[int, ...]
    """Higher beats lower within trumps, and within a suit when that suit is led."""
    later_wins: tuple[bool, ...]
    """Of two equal cards the later one wins (the Herz 10 with 'second-beats-first')."""
    later_wins_last: tuple[bool, ...]
    """The same in the last trick."""
    trump_mask: Bits
    suit_masks: tuple[Bits, ...]
    """The four Fehl suits' cards (without trumps), by suit. The tuples here are of any length
    to the type checker: compiled (``stichwerk.native``), a fixed-length tuple is kept unboxed
    and rebuilt as an object on every lookup by a computed index."""
    trumps_high_to_low: tuple[int, ...]
    """Trump codes from the highest down."""
    class_masks: tuple[Bits, ...]
    """``suit_masks`` and then ``trump_mask``, indexed by class."""

    def __reduce__(self) -> tuple[type["Order"], tuple[object, ...]]:
        """Copied and pickled by its fields (compiled, a frozen class refuses the attribute
        by attribute restore that copy and pickle would use otherwise)."""
        return (Order, (self.cls, self.power, self.later_wins, self.later_wins_last,
                        self.trump_mask, self.suit_masks, self.trumps_high_to_low,
                        self.class_masks))  # fmt: skip


_CACHE: Final[dict[tuple[object, ...], Order]] = {}


def order_for(scheme: str, profile: Profile, *, sau: bool = False, supersau: bool = False) -> Order:
    """The card order of ``scheme`` under ``profile``, with or without an announced Sau."""
    key = (
        scheme,
        sau,
        supersau,
        profile.dulle_is_trump,
        profile.dulle_order,
        profile.dulle_order_with_sau,
        profile.dulle_last_trick_reversal,
        profile.color_solo_keeps_dulle,
        profile.with_nines,
    )
    hit = _CACHE.get(key)
    if hit is None:
        hit = _build(scheme, profile, sau, supersau)
        _CACHE[key] = hit
    return hit


def _code(suit: int, rank: int) -> int:
    return suit * 6 + rank


def _build(scheme: str, profile: Profile, sau: bool, supersau: bool) -> Order:
    trumps: list[int] = []  # high to low
    if scheme in TRUMP_SUIT:
        t = TRUMP_SUIT[scheme]
        low_rank = _9 if profile.with_nines else _K
        if sau and supersau:
            trumps.append(_code(t, low_rank))
        if sau:
            trumps.append(_code(t, _A))
        dulle = profile.dulle_is_trump and (scheme == "normal" or profile.color_solo_keeps_dulle)
        if dulle:
            trumps.append(_code(2, _10))
        trumps += [_code(s, _Q) for s in range(4)]
        trumps += [_code(s, _J) for s in range(4)]
        for rank in (_A, _10, _K, _9):
            code = _code(t, rank)
            if code not in trumps:
                trumps.append(code)
    elif scheme == "damen":
        trumps = [_code(s, _Q) for s in range(4)]
    elif scheme == "buben":
        trumps = [_code(s, _J) for s in range(4)]
    cls = [TRUMP if c in trumps else c // 6 for c in range(24)]
    power = [0] * 24
    for i, c in enumerate(trumps):
        power[c] = 100 + len(trumps) - i
    for c in range(24):
        if cls[c] != TRUMP:
            power[c] = 6 - c % 6  # A > 10 > K > Q > J > 9
    dulle_code = code_of("H10")
    second = profile.dulle_order == "second-beats-first"
    if sau and profile.dulle_order_with_sau == "first-beats-second":
        second = False
    later = [False] * 24
    later_last = [False] * 24
    if cls[dulle_code] == TRUMP:
        later[dulle_code] = second
        later_last[dulle_code] = second != profile.dulle_last_trick_reversal
    trump_mask = 0
    suit_masks = [0, 0, 0, 0]
    for c in range(24):
        if cls[c] == TRUMP:
            trump_mask |= code_mask(c)
        else:
            suit_masks[cls[c]] |= code_mask(c)
    sm = (suit_masks[0], suit_masks[1], suit_masks[2], suit_masks[3])
    return Order(
        cls=tuple(cls),
        power=tuple(power),
        later_wins=tuple(later),
        later_wins_last=tuple(later_last),
        trump_mask=trump_mask,
        suit_masks=sm,
        trumps_high_to_low=tuple(trumps),
        class_masks=(*sm, trump_mask),
    )


def sau_cards(profile: Profile, game_type: str) -> tuple[int, int] | None:
    """The (ace, nine-or-king) codes of the trump suit when ``game_type`` has a Sau under
    ``profile``, else ``None``."""
    if not profile.sau:
        return None
    if game_type == "armut" and not profile.sau_in_armut:
        return None
    if game_type.startswith("solo-") and game_type[5:] not in profile.sau_in_solo:
        return None
    scheme = SCHEME_OF_GAME[game_type]
    if scheme not in TRUMP_SUIT:
        return None
    suit = TRUMP_SUIT[scheme]
    return suit * 6, suit * 6 + (5 if profile.with_nines else 2)


def may_show_sau(
    profile: Profile, game_type: str, hand: Bits, *, shown: bool, started: bool, to_act: bool
) -> bool:
    """Whether a seat holding ``hand`` may show the Sau now: nobody has (``shown``), the game
    has one, the hand holds both trump aces, and the profile's deadline has not passed
    (``started``: a card has been played; ``to_act``: it is the seat's turn)."""
    if shown:
        return False
    codes = sau_cards(profile, game_type)
    if codes is None:
        return False
    both = code_mask(codes[0])
    if hand & both != both:
        return False
    if profile.sau_deadline == "before-first-card":
        return not started
    if profile.sau_deadline == "when-playing":
        return to_act
    return True


def armut_trumps(profile: Profile, hand: Bits) -> int:
    """The trumps a hand counts toward an Armut: those of the normal game, the Füchse left out
    unless the profile counts them."""
    trumps = hand & order_for("normal", profile).trump_mask
    if not profile.armut_fox_is_trump:
        trumps &= ~code_mask(code_of("DA"))
    return trumps.bit_count()


def reservation_kinds(profile: Profile, hand: Bits) -> list[str]:
    """The reservations a dealt hand allows by the profile (solo first): ``solo``, ``hochzeit``
    (both Kreuz-Damen), ``armut``, ``schmeissen`` (enough nines), ``neu-geben`` (too few
    trumps). The engine offers these; the bots plan with the same list."""
    p = profile
    kinds: list[str] = []
    if p.solo_types:
        kinds.append("solo")
    cq = code_mask(code_of("CQ"))
    if hand & cq == cq:
        kinds.append("hochzeit")
    if p.armut and armut_trumps(p, hand) <= p.armut_max_trumps:
        kinds.append("armut")
    if p.schmeissen_min_nines and (hand & NINES).bit_count() >= p.schmeissen_min_nines:
        kinds.append("schmeissen")
    trumps = (hand & order_for("normal", p).trump_mask).bit_count()
    if p.neu_geben_below_trumps and trumps < p.neu_geben_below_trumps:
        kinds.append("neu-geben")
    return kinds


def finds_hochzeit_partner(profile: Profile, order: Order, cards: list[int], won_by: int) -> bool:
    """Whether a trick that another seat than the Hochzeiter won makes its winner the partner,
    by the profile's ``hochzeit_partner`` rule (``cards``: card ids in the order played;
    ``won_by``: the index of the winning card)."""
    rule = profile.hochzeit_partner
    if rule == "fehl-led":
        return order.cls[cards[0] >> 1] != TRUMP
    if rule == "trump-led":
        return order.cls[cards[0] >> 1] == TRUMP
    if rule == "fehl-won":
        return order.cls[cards[won_by] >> 1] != TRUMP
    return True


def winner_of(cards: list[int], order: Order, last: bool) -> int:
    """The index in ``cards`` (card ids, in the order played) of the card that wins the trick."""
    cls = order.cls
    power = order.power
    later = order.later_wins_last if last else order.later_wins
    first = cards[0] >> 1
    led = cls[first]
    best = 0
    best_trump = led == TRUMP
    best_power = power[first]
    for i in range(1, len(cards)):
        code = cards[i] >> 1
        c = cls[code]
        if c == TRUMP:
            if not best_trump:
                best, best_trump, best_power = i, True, power[code]
                continue
        elif best_trump or c != led:
            continue
        p = power[code]
        if p > best_power or (p == best_power and later[code]):
            best, best_power = i, p
    return best


def sort_key(order: Order) -> list[int]:
    """A display sort key per code: trumps high to low first, then each suit high to low."""
    key = [0] * 24
    for i, c in enumerate(order.trumps_high_to_low):
        key[c] = i
    for c in range(24):
        if order.cls[c] != 4:
            key[c] = 100 + order.cls[c] * 10 + (6 - order.power[c])
    return key


def describe(order: Order) -> str:
    """The trumps of ``order`` from the highest, as codes (for docs and the terminal)."""
    return " ".join(CODES[c] for c in order.trumps_high_to_low)
