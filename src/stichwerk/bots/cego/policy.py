"""A fast card-play policy on bit sets: the heuristic bot's play and the search bot's rollouts.

It sees what a seat sees: its hand, the legal cards, the trick on the table, the cards played so
far and the contract. The rules of thumb of a club player:

- Positive games (the ladder, Solo, Ulti): the declarer draws trumps with the top trump and cashes
  sure winners; everyone wins a trick cheaply when it is worth it, gives points (*schmiert*) to a
  partner who is sure to take the trick, and otherwise keeps points back. The Ulti declarer saves
  the Geiß for the last trick.
- Bettel and Piccolo: the declarer ducks; the defenders play under him.
- Räuber and Drescher: everyone ducks and throws points onto tricks others take.
"""

from dataclasses import dataclass

from stichwerk.cego.cards import HALF_POINTS, SUIT_MASK, SUIT_OF, T1, TRUMP, TRUMPS
from stichwerk.core.bits import bits_list

POSITIVE = "positive"
NEGATIVE = "negative"
EACH = "each"


def kind_of(contract: str | None) -> str:
    """The policy family of a contract."""
    if contract in ("piccolo", "bettel"):
        return NEGATIVE
    if contract in ("raeuber", "drescher"):
        return EACH
    return POSITIVE


@dataclass(frozen=True, slots=True)
class PlayContext:
    """What stays fixed during the play of one deal."""

    declarer: int
    """The declarer's seat, or -1 when everyone plays for himself."""
    kind: str
    contract: str
    never_wins: int
    players: int


def _key(card: int, led: int, never_wins: int) -> int:
    if never_wins >> card & 1:
        return -1
    suit = SUIT_OF[card]
    if suit == TRUMP:
        return card + 100
    return card if suit == led else -1


def _cheap(card: int) -> tuple[int, int]:
    """Order for giving a card away cheaply: low value, low rank, trumps last."""
    return (HALF_POINTS[card] + (3 if SUIT_OF[card] == TRUMP else 0), card)


def choose_card(
    seat: int,
    hand: int,
    legal: int,
    trick: list[tuple[int, int]],
    played: int,
    tricks_won: list[int],
    ctx: PlayContext,
) -> int:
    """The card to play. ``played`` holds every card already played (the trick included)."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    cards = bits_list(legal)
    declarer = ctx.declarer
    if ctx.kind == EACH or (ctx.kind == NEGATIVE and seat == declarer):
        if ctx.contract == "piccolo" and tricks_won[declarer] == 0 and trick:
            return _piccolo_declarer(cards, trick, ctx)
        return _duck(cards, trick, ctx)
    if ctx.kind == NEGATIVE:
        return _under(cards, trick, ctx)
    if ctx.contract in ("ulti", "soli-ulti") and seat == declarer and legal & ~(1 << T1):
        cards = [c for c in cards if c != T1]
    if not trick:
        return _lead(seat, hand, cards, played, ctx)
    return _follow(seat, hand, cards, trick, played, ctx)


def _winner(trick: list[tuple[int, int]], never_wins: int) -> tuple[int, int]:
    led = SUIT_OF[trick[0][1]]
    best_seat, best = trick[0][0], -2
    for s, c in trick:
        k = _key(c, led, never_wins)
        if k > best:
            best, best_seat = k, s
    return best_seat, best


def _lead(seat: int, hand: int, cards: list[int], played: int, ctx: PlayContext) -> int:
    outstanding = TRUMPS & ~played & ~hand
    trumps = [c for c in cards if SUIT_OF[c] == TRUMP]
    colours = [c for c in cards if SUIT_OF[c] != TRUMP]
    sure = [c for c in colours if _sure(c, hand, played, outstanding)]
    if sure:
        return max(sure, key=lambda c: (HALF_POINTS[c], c))
    if seat == ctx.declarer and trumps and outstanding:
        top = max(trumps)
        if top > outstanding.bit_length() - 1:
            return top
        if len(trumps) >= 3:
            low = [c for c in trumps if c != T1] or trumps
            return min(low)
    if colours:
        return min(colours, key=_cheap)
    return min(trumps, key=_cheap)


def _sure(card: int, hand: int, played: int, outstanding_trumps: int) -> bool:
    """A colour card nobody can beat: no trump out against it, no higher card of its suit."""
    if outstanding_trumps:
        return False
    suit_mask = SUIT_MASK[SUIT_OF[card]]
    higher = suit_mask & ~((1 << (card + 1)) - 1)
    return not higher & ~played & ~hand


def _follow(
    seat: int,
    hand: int,
    cards: list[int],
    trick: list[tuple[int, int]],
    played: int,
    ctx: PlayContext,
) -> int:
    led = SUIT_OF[trick[0][1]]
    never = ctx.never_wins
    winner, best = _winner(trick, never)
    declarer = ctx.declarer
    me_declarer = seat == declarer
    still_to_play = ctx.players - len(trick) - 1
    declarer_played = any(s == declarer for s, _ in trick)
    partner_wins = (winner == declarer) == me_declarer
    # Only partners follow me: a defender after the declarer, or the last seat.
    safe_behind = still_to_play == 0 or (not me_declarer and declarer_played)
    if partner_wins:
        if safe_behind or _top_trump_card(trick, winner, played, hand):
            return _schmier(cards)
        return min(cards, key=_cheap)
    beating = [c for c in cards if _key(c, led, never) > best]
    points = sum(HALF_POINTS[c] for _, c in trick)
    if beating:
        if safe_behind:
            return min(beating, key=lambda c: (_cheap(c), c))
        outstanding = TRUMPS & ~played & ~hand
        top = [c for c in beating if SUIT_OF[c] == TRUMP and c > outstanding.bit_length() - 1]
        if top and points >= 2:
            return min(top)
        if points >= 5:
            return max(beating, key=lambda c: _key(c, led, never))
    return min(cards, key=_cheap)


def _top_trump_card(trick: list[tuple[int, int]], winner: int, played: int, hand: int) -> bool:
    """Whether the winning card is a trump no card still out can beat."""
    card = next(c for s, c in trick if s == winner)
    if SUIT_OF[card] != TRUMP:
        return False
    out = TRUMPS & ~played & ~hand
    return card > out.bit_length() - 1


def _schmier(cards: list[int]) -> int:
    """Give the partner the most points: a colour picture or king, else the Geiß, else little."""
    colours = [c for c in cards if SUIT_OF[c] != TRUMP]
    if colours:
        return max(colours, key=lambda c: (HALF_POINTS[c], c))
    if T1 in cards:
        return T1
    return min(cards)


def _duck(cards: list[int], trick: list[tuple[int, int]], ctx: PlayContext) -> int:
    """Take no trick if it can be helped; throw the most points onto a trick someone else takes."""
    if not trick:
        return min(cards, key=lambda c: (SUIT_OF[c] == TRUMP, c - 22 * (SUIT_OF[c] != TRUMP)))
    led = SUIT_OF[trick[0][1]]
    _, best = _winner(trick, ctx.never_wins)
    under = [c for c in cards if _key(c, led, ctx.never_wins) <= best]
    if under:
        return max(under, key=lambda c: (HALF_POINTS[c], _key(c, led, -1), c))
    return max(cards, key=lambda c: (_key(c, led, ctx.never_wins), -HALF_POINTS[c]))


def _piccolo_declarer(cards: list[int], trick: list[tuple[int, int]], ctx: PlayContext) -> int:
    """Piccolo without a trick yet: take this one if a card surely wins it as last to play."""
    if len(trick) == ctx.players - 1:
        led = SUIT_OF[trick[0][1]]
        _, best = _winner(trick, ctx.never_wins)
        beating = [c for c in cards if _key(c, led, ctx.never_wins) > best]
        if beating:
            return min(beating)
    return _duck(cards, trick, ctx)


def _under(cards: list[int], trick: list[tuple[int, int]], ctx: PlayContext) -> int:
    """A Bettel or Piccolo defender: let the declarer take the trick."""
    if not trick:
        return min(cards, key=lambda c: (SUIT_OF[c] == TRUMP, c))
    led = SUIT_OF[trick[0][1]]
    winner, best = _winner(trick, ctx.never_wins)
    declarer_played = any(s == ctx.declarer for s, _ in trick)
    if declarer_played and winner != ctx.declarer:
        return max(cards, key=lambda c: (HALF_POINTS[c], c))
    under = [c for c in cards if _key(c, led, ctx.never_wins) <= best]
    if under:
        return max(under, key=lambda c: _key(c, led, -1))
    return min(cards, key=lambda c: _key(c, led, ctx.never_wins))
