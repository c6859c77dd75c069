"""A fast card-play policy on bit sets: the heuristic bot's play and the search bot's roll-outs.

It reads what a seat sees: its hand, the trick, the cards played, the shown-out classes and the
parties as that seat knows them (the roll-outs pass the parties of the sampled world). The rules
of thumb of a club player:

- **Leading**: a Hochzeit looking for its partner leads a cheap Fehl card. Cash sure Fehl
  winners first (an ace of a suit that is still "running", where everyone can follow and nobody
  has shown out, blank aces above all). Lead a suit the partner has shown out of and the other
  party has not (the partner trumps it). A soloist draws trumps with the high ones below his
  top, keeping the top for control. Otherwise a low Fehl card of a running suit (the partner may
  hold the ace), never into a suit the other party has shown out of and never a Fehl ten; else
  trump from the top (not the Fuchs).
- **Following**: when the partner takes the trick and nobody of the other party behind can beat
  it (over-trump included, judged by who has shown out), *schmieren* (a Fehl ten or ace, the
  Fuchs onto a safe trick); when the other party takes it, win it cheaply with a card that cannot
  be beaten behind (a Fuchs to catch counts extra), fight for a big trick with the strongest
  card; else throw the cheapest card (a Fehl nine or king, the lowest trump, never the Fuchs
  while there is a choice).
- **The end**: with two cards left, the Kreuz Bube (Karlchen) or a sure trump is kept for the
  last trick.
- **Solos** (the rules of a ``style``, ``S_*``): the soloist cashes his sure Fehl winners before
  he draws trumps (``S_CASH``); a defender leads a suit the soloist has shown out of, to draw
  his trumps (``S_FORCE``). In a normal game Kontra leads trump from the top as Re does
  (``S_KONTRA_HIGH``). ``search-v1`` keeps the policy without them (``STYLE_V1``), as it was
  measured; ``benchmarks/policy_style.py`` measures each rule.
"""

from dataclasses import dataclass

from stichwerk.doppelkopf.cards import AUGEN, CARD_AUGEN, NCODES, code_mask, code_of, deck
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.trumps import TRUMP, Order

TAKE_LAST = 4
TAKE_SURE = 4
FIGHT = 12
KARLCHEN_KEEP = 10.0
S_FORCE = 1
"""A defender of a solo leads a suit the soloist has shown out of, to draw his trumps."""
S_CASH = 2
"""A soloist cashes his sure Fehl winners before he draws trumps."""
S_KONTRA_HIGH = 4
"""A Kontra seat of a normal game leads trump from the top, as Re does."""
STYLE_V1 = 0
"""The policy as ``search-v1`` was measured with (no ``S_*`` rule)."""
STYLE = (S_FORCE | S_CASH | S_KONTRA_HIGH) << 8 | 31
"""Today's policy: every rule for every seat. Bits 0-4 name the seats that play by the rules
in bits 8 and up (so that a benchmark can give them to some seats only)."""
DA = code_of("DA")
CJ = code_of("CJ")
CQ = code_of("CQ")


@dataclass(frozen=True, slots=True)
class Tables:
    """Per card order: what each code is worth to keep, to win with, to give away."""

    above: tuple[int, ...]
    """Per code: the ids of its class that beat it (the other copy too, where the later wins)."""
    above_last: tuple[int, ...]
    """The same in the last trick."""
    key: tuple[int, ...]
    """Per code: trumps 1000 + power, Fehl its power (compared only within the suit led)."""
    rank: tuple[int, ...]
    """Per code: its place in its class counted from the lowest (0)."""
    throw: tuple[float, ...]
    """Per code: the cost of throwing it away onto a lost trick."""
    win: tuple[float, ...]
    """Per code: the cost of using it to take a trick."""
    smear: tuple[float, ...]
    """Per code: how good it is to give to a partner's safe trick."""
    trumps: int
    suits: tuple[int, int, int, int, int]
    deck: int


_TABLES: dict[tuple[int, bool, bool], Tables] = {}


def tables(order: Order, with_nines: bool, fox: bool) -> Tables:
    """The tables of ``order`` (cached per order object; orders are cached singletons)."""
    cache_key = (id(order), with_nines, fox)
    hit = _TABLES.get(cache_key)
    if hit is None:
        hit = _TABLES[cache_key] = _build(order, with_nines, fox)
    return hit


def _build(order: Order, with_nines: bool, fox: bool) -> Tables:
    cls, power = order.cls, order.power
    full = deck(with_nines)
    above: list[int] = []
    above_last: list[int] = []
    rank: list[int] = []
    for c in range(NCODES):
        same = [d for d in range(NCODES) if cls[d] == cls[c]]
        higher = 0
        for d in same:
            if power[d] > power[c]:
                higher |= code_mask(d)
        above.append((higher | (code_mask(c) if order.later_wins[c] else 0)) & full)
        above_last.append((higher | (code_mask(c) if order.later_wins_last[c] else 0)) & full)
        rank.append(sum(1 for d in same if power[d] < power[c] and code_mask(d) & full))
    key = tuple(1000 + power[c] if cls[c] == TRUMP else power[c] for c in range(NCODES))
    throw: list[float] = []
    win: list[float] = []
    smear: list[float] = []
    for c in range(NCODES):
        augen = AUGEN[c]
        if cls[c] == TRUMP:
            r = rank[c]
            t = 6.0 + augen + 2.0 * r
            w = 2.0 * r - augen * 0.5
            s = augen - 2.0 * max(0, r - 3)
            if c == DA and fox:
                t += 8.0
                w -= 4.0
                s += 3.0
            if c == CJ:
                t += KARLCHEN_KEEP
        else:
            t = float(augen)
            w = 1.0 * rank[c] - augen * 0.5
            s = 9.0 if augen == 11 else float(augen)
        throw.append(t)
        win.append(w)
        smear.append(s)
    suits = order.class_masks
    return Tables(
        above=tuple(above),
        above_last=tuple(above_last),
        key=key,
        rank=tuple(rank),
        throw=tuple(throw),
        win=tuple(win),
        smear=tuple(smear),
        trumps=order.trump_mask & full,
        suits=(suits[0] & full, suits[1] & full, suits[2] & full, suits[3] & full, suits[4] & full),
        deck=full,
    )


def tables_of(fast: FastPlay) -> Tables:
    """The tables for the deal's current order and fox rule."""
    p = fast.profile
    fox = fast.game_type in p.fox_game_types and fast.sau_seat < 0
    return tables(fast.order, p.with_nines, fox)


_EVEN = sum(1 << (2 * c) for c in range(NCODES))
_CHUNK_IDS = tuple(
    tuple(tuple(12 * k + i for i in range(12) if v >> i & 1) for v in range(4096)) for k in range(4)
)


def card_list(mask: int) -> tuple[int, ...]:
    """The card ids in ``mask``, lowest first (by 12-bit table lookups)."""
    c0, c1, c2, c3 = _CHUNK_IDS
    return c0[mask & 4095] + c1[(mask >> 12) & 4095] + c2[(mask >> 24) & 4095] + c3[mask >> 36]


def choose_card(fast: FastPlay, seat: int, legal: int, team: list[int], style: int = STYLE) -> int:
    """The card id to play. ``fast`` holds this seat's hand, the trick and the cards played;
    other hands in it are not looked at. ``team`` is each seat's party as this seat knows it."""
    legal &= ~((legal & _EVEN) << 1)  # the two copies of a card play alike: keep one
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    t = tables_of(fast)
    hand = fast.hands[seat]
    out = t.deck & ~fast.played & ~hand
    if not fast.trick_ids:
        flags = style >> 8 if style >> seat & 1 else 0
        return _lead(fast, seat, hand, legal, out, team, t, flags)
    return _follow(fast, seat, legal, out, team, t)


def _fehl_safe(card: int, fast: FastPlay, seat: int, out: int, t: Tables) -> bool:
    """A Fehl card nobody can beat: no higher card out, and everyone can still follow."""
    code = card >> 1
    if out & t.above[code]:
        return False
    suit = fast.order.cls[code]
    if (out & t.suits[suit]).bit_count() < 3:
        return False
    voids = fast.voids
    s = fast.next_seat[seat]
    while s != seat:
        if voids[s] >> suit & 1:
            return False
        s = fast.next_seat[s]
    return True


def _solo_draw(trumps: list[int], out: int, top: int, top_sure: bool, n_out: int, t: Tables) -> int:
    """The soloist draws trumps: the highest beatable one below a sure top (not the Fuchs),
    or the top; -1 to lead something else."""
    loose = [c for c in trumps if out & t.above[c >> 1] and c >> 1 != DA]
    if loose and (top_sure or len(trumps) >= n_out):
        return max(loose, key=lambda c: t.key[c >> 1])
    if top_sure or len(trumps) >= 2 * n_out:
        return top
    return -1


def _lead(
    fast: FastPlay, seat: int, hand: int, legal: int, out: int, team: list[int], t: Tables,
    flags: int,
) -> int:  # fmt: skip
    cls = fast.order.cls
    cards = card_list(legal)
    trumps = [c for c in cards if cls[c >> 1] == TRUMP]
    fehl = [c for c in cards if cls[c >> 1] != TRUMP]
    out_trumps = out & t.trumps
    soloist = fast.soloist == seat
    my = team[seat]
    top = max(trumps, key=lambda c: t.key[c >> 1]) if trumps else -1
    top_sure = top >= 0 and not out & t.above[top >> 1]
    if len(cards) == 2 and cards[0] >> 1 != cards[1] >> 1:
        # Two cards left: keep the Kreuz Bube (Karlchen) or a sure trump for the last trick.
        keep = [c for c in cards if c >> 1 == CJ or (c == top and top_sure)]
        if len(keep) == 1:
            return cards[0] if keep[0] == cards[1] else cards[1]
    n_out = out_trumps.bit_count()
    if soloist and out_trumps and trumps and not flags & S_CASH:
        # Draw trumps with the high ones below the top, keeping the top for control.
        draw = _solo_draw(trumps, out, top, top_sure, n_out, t)
        if draw >= 0:
            return draw
    if fast.hochzeiter == seat and not fast.clarified and fehl:
        # A Hochzeit looks for its partner: a Fehl card another seat will take.
        rule = fast.profile.hochzeit_partner
        if rule != "trump-led":

            def cheap_running(c: int) -> tuple[float, int]:
                return (t.throw[c >> 1], -(out & t.suits[cls[c >> 1]]).bit_count())

            return min(fehl, key=cheap_running)
    safe = [c for c in fehl if _fehl_safe(c, fast, seat, out, t)]
    if safe:
        return max(safe, key=lambda c: (CARD_AUGEN[c], -(hand & t.suits[cls[c >> 1]]).bit_count()))
    if soloist and out_trumps and trumps and flags & S_CASH:
        draw = _solo_draw(trumps, out, top, top_sure, n_out, t)
        if draw >= 0:
            return draw
    force = fast.soloist >= 0 and not soloist and flags & S_FORCE
    # Which seats of the other party have shown out of each suit (they would trump it).
    voids = fast.voids
    their_voids = 0
    partner_voids = 0
    s = fast.next_seat[seat]
    while s != seat:
        if my >= 0 and team[s] == my:
            if not voids[s] >> TRUMP & 1:
                partner_voids |= voids[s]
        else:
            their_voids |= voids[s]
        s = fast.next_seat[s]
    their_voids &= 15
    if fehl and partner_voids & ~their_voids & 15:
        # A partner who has shown out of a suit the others still hold trumps it.
        for c in sorted(fehl, key=lambda c: t.throw[c >> 1]):
            suit = cls[c >> 1]
            if partner_voids >> suit & 1 and not their_voids >> suit & 1:
                return c
    if trumps and top_sure and (soloist or not fehl):
        return top
    best = -1
    if fehl:
        # A low card of a suit still running (the partner may hold the ace), not one the other
        # party will trump.
        def lead_cost(c: int) -> tuple[float, int]:
            suit = cls[c >> 1]
            run = (out & t.suits[suit]).bit_count()
            if force and their_voids >> suit & 1:
                danger = -2.0  # the soloist must trump it: his trumps grow fewer
            else:
                danger = 10.0 if their_voids >> suit & 1 else 6.0 if run < 3 else 0.0
            return (t.throw[c >> 1] + danger, run)

        best = min(fehl, key=lead_cost)
        if not trumps or (lead_cost(best)[0] < 10 and AUGEN[best >> 1] < 10):
            return best
    if trumps:
        # Trump from the top: the highest but a top trump that is not sure (queens, jacks);
        # never the Fuchs while there is another.
        pool = [c for c in trumps if c >> 1 != DA or t.throw[DA] < 20] or trumps
        if len(pool) > 1 and not top_sure:
            pool = [c for c in pool if c != top] or pool
        if fast.soloist < 0 and my == 1 and len(pool) > 1 and not flags & S_KONTRA_HIGH:
            return min(pool, key=lambda c: t.throw[c >> 1])
        return max(pool, key=lambda c: t.key[c >> 1])
    return best


def _follow(fast: FastPlay, seat: int, legal: int, out: int, team: list[int], t: Tables) -> int:
    order = fast.order
    cls = order.cls
    ids = fast.trick_ids
    seats = fast.trick_seats
    last = fast.trick_no == fast.n_tricks - 1
    above = t.above_last if last else t.above
    later = order.later_wins_last if last else order.later_wins
    key = t.key
    led = cls[ids[0] >> 1]
    best_i = 0
    best = key[ids[0] >> 1]
    points = 0
    for i, card in enumerate(ids):
        code = card >> 1
        points += AUGEN[code]
        if i == 0:
            continue
        c = cls[code]
        k = key[code] if c in (TRUMP, led) else -1
        if k > best or (k == best and later[code]):
            best, best_i = k, i
    win_seat = seats[best_i]
    win_code = ids[best_i] >> 1
    my = team[seat]
    fox_bonus = 0
    for s, card in zip(seats, ids, strict=True):
        if card >> 1 == DA and t.throw[DA] > 20 and (my < 0 or team[s] != my):
            fox_bonus = 15
    behind: list[int] = []
    s = fast.next_seat[seat]
    for _ in range(3 - len(ids)):
        behind.append(s)
        s = fast.next_seat[s]
    opp_behind = [s for s in behind if my < 0 or team[s] != my]
    voids = fast.voids
    cards = card_list(legal)

    def threat(code: int) -> bool:
        """Whether a seat of the other party behind may beat ``code`` if it wins now."""
        if not opp_behind:
            return False
        if led != TRUMP:
            suit = t.suits[led]
            # Someone behind out of the suit led may trump (or over-trump).
            suit_left = (out & suit).bit_count()
            ruff = suit_left < len(behind) or any(voids[b] >> led & 1 for b in opp_behind)
            can_trump = not all(voids[b] >> TRUMP & 1 for b in opp_behind)
            if ruff and can_trump and (cls[code] != TRUMP or out & above[code]):
                return True
            if cls[code] != TRUMP:
                return bool(out & above[code])
            return False
        if all(voids[b] >> TRUMP & 1 for b in opp_behind):
            return False
        return bool(out & above[code])

    def beats(code: int) -> bool:
        c = cls[code]
        k = key[code] if c in (TRUMP, led) else -1
        return k > best or (k == best and later[code])

    partner_wins = my >= 0 and team[win_seat] == my
    if partner_wins:
        if not threat(win_code):
            return max(cards, key=lambda c: (t.smear[c >> 1], -t.throw[c >> 1]))
        if points >= 10:
            sure = [c for c in cards if beats(c >> 1) and not threat(c >> 1)]
            if sure:
                return min(sure, key=lambda c: t.win[c >> 1])
        return min(cards, key=lambda c: t.throw[c >> 1])
    winners = [c for c in cards if beats(c >> 1)]
    if winners:
        worth = points + fox_bonus
        if not opp_behind:
            c = min(winners, key=lambda c: t.win[c >> 1])
            if worth + AUGEN[c >> 1] >= TAKE_LAST or t.win[c >> 1] <= 4.0 or last:
                return c
        else:
            sure = [c for c in winners if not threat(c >> 1)]
            if sure:
                c = min(sure, key=lambda c: t.win[c >> 1])
                if worth + AUGEN[c >> 1] >= TAKE_SURE or t.win[c >> 1] <= 4.0:
                    return c
            if worth >= FIGHT:
                return max(winners, key=lambda c: key[c >> 1])
    return min(cards, key=lambda c: t.throw[c >> 1])
