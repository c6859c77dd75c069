"""What one seat knows, read from its view and nothing else.

The view holds the seat's hand and everything said and played at the table. From it the seat
works out the tricks and who took them (a replay on the fast path), which seats have shown out
of a suit or of trump, and where hidden cards must or cannot be:

- two copies of each card: the cards it has not seen are the deck less its hand and every card
  played;
- the Kreuz-Damen: a seat known to be Kontra holds none; a seat known to be Re (it said Re, or
  played a Kreuz Dame) that has not played one yet holds one; a Hochzeit holds both;
- an Armut: the two seats involved saw the cards that moved, so each knows some of the other's
  cards; everyone knows how many trumps the poor hand holds now (those given back);
- a Sau: its announcer holds both trump aces until he plays them.

Soft signals (a soloist or a seat that announced is likely long in trumps, nobody is likely to
hold both Kreuz-Damen in what looks like a normal game) are weights and rejection odds for the
world sampler, never hard constraints.
"""

from dataclasses import dataclass, field
from typing import Any

from stichwerk.doppelkopf.cards import CODE_INDEX, NCODES, code_mask, deck
from stichwerk.doppelkopf.fast import FastPlay
from stichwerk.doppelkopf.profiles import Profile, get_profile
from stichwerk.doppelkopf.trumps import SCHEME_OF_GAME, Order, order_for

CQ = CODE_INDEX["CQ"]
DA = CODE_INDEX["DA"]
LEVEL_ACTS = ("re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz")
EV_CARD, EV_WORD, EV_SAU, EV_SUPERSAU = range(4)
"""Kinds of :attr:`Knowledge.events`."""

_PROFILES: dict[str, Profile] = {}


def profile_of(view: dict[str, Any]) -> Profile:
    """The view's profile with its table options (cached: views repeat them)."""
    options = view.get("options") or {}
    key = f"{view['profile']}:{sorted(options.items())}"
    hit = _PROFILES.get(key)
    if hit is None:
        hit = _PROFILES[key] = get_profile(view["profile"], options)
    return hit


class Ids:
    """Gives each card seen a card id, the two copies of a code in the order they turn up.

    A view names cards by code only; ids just need to be distinct, and being handed out from
    the view alone they are the same for any two deals that look alike to the seat.
    """

    def __init__(self) -> None:
        self.used = [0] * NCODES

    def take(self, code: int) -> int:
        n = self.used[code]
        if n > 1:
            raise ValueError(f"a third copy of code {code}")
        self.used[code] = n + 1
        return 2 * code + n

    def free(self, full: int) -> int:
        """The ids of ``full`` not handed out yet."""
        out = 0
        for code in range(NCODES):
            for copy in range(self.used[code], 2):
                out |= 1 << (2 * code + copy)
        return out & full


@dataclass
class Knowledge:
    """A seat's picture of the deal (masks are bit sets of card ids)."""

    seat: int
    seats: int
    order: list[int]
    """The four playing seats from Vorhand on."""
    profile: Profile
    phase: str
    hand: int
    hand_sizes: list[int]
    game_type: str
    """The game as this seat knows it (a Stilles Solo shows only to its soloist)."""
    to_act: int | None
    soloist: int = -1
    hochzeiter: int = -1
    owes_duty: bool = False
    """The seat still owes a Pflicht-Solo in the list."""
    forced_now: bool = False
    """The seat is vorgeführt in this deal: it must play a solo."""
    duty_owing: int = 0
    """Seats at the table that still owe a Pflicht-Solo."""
    duty_games_left: int | None = None
    """Ordinary games, this one included, to the Pflicht-Soli's deadline (``None``: unknown)."""
    dealer: int = 0
    armut_seat: int = -1
    armut_taker: int = -1
    sau_seat: int = -1
    supersau_seat: int = -1
    known_party: list[int] = field(default_factory=list)
    """0 Re, 1 Kontra, -1 unknown, as far as this seat knows."""
    unseen: int = 0
    """Cards in other hands (the seat has neither seen them played nor holds them)."""
    must: list[int] = field(default_factory=list)
    """Per seat, unseen cards it is known to hold."""
    banned: list[int] = field(default_factory=list)
    """Per seat, unseen cards it cannot hold."""
    voids: list[int] = field(default_factory=list)
    """Per seat, the classes (Fehl suits 0..3, trump 4) it has shown out of, as bits."""
    exact_trumps: list[int] = field(default_factory=list)
    """Per seat, the trumps it holds exactly (-1: not known)."""
    trump_weight: list[float] = field(default_factory=list)
    """Per seat, how much likelier than the others to hold a trump (soft)."""
    unlikely_pairs: list[tuple[int, int, float]] = field(default_factory=list)
    """(seat, code, odds): worlds where the seat holds both copies are dropped with these odds."""
    played_by: list[int] = field(default_factory=list)
    public_party: list[int] = field(default_factory=list)
    """The parties as the whole table knows them (this seat's own only once shown)."""
    ann_log: list[tuple[int, str, int]] = field(default_factory=list)
    """Announcements, Sau and Superschweine in order: (seat, act, cards the seat held then)."""
    declared: dict[int, list[str]] = field(default_factory=dict)
    reserved: dict[int, str] = field(default_factory=dict)
    """Each seat's word in the reservation round so far: ``gesund`` or ``vorbehalt``."""
    events: list[tuple[int, int, int]] = field(default_factory=list)
    """The play as it happened, for the inference's replay: ``(kind, seat, value)`` with kind
    0 a card (its id), 1 an announcement (its index in ``LEVEL_ACTS``), 2 Sau, 3 Superschweine."""
    base: FastPlay | None = None
    """The tricks so far replayed on the fast path (only the played cards are in it)."""
    soft_hits: int = 0
    soft_misses: int = 0
    """Sampled worlds kept and thrown back as unlikely (the sampler's bookkeeping)."""

    @property
    def others(self) -> list[int]:
        return [s for s in self.order if s != self.seat]

    def card_order(self) -> Order:
        """The card order in force (Sau included)."""
        if self.base is not None:
            return self.base.order
        return order_for(SCHEME_OF_GAME[self.game_type], self.profile)

    def my_party(self) -> int:
        return self.known_party[self.seat] if self.known_party else -1

    @property
    def owes_solo(self) -> bool:
        """A solo of this seat would be its Pflicht-Solo (it owes one, or it is vorgeführt)."""
        return self.owes_duty or self.forced_now

    def holds_both_kreuz_damen(self) -> bool:
        return (self.hand & code_mask(CQ)).bit_count() == 2


def read(view: dict[str, Any]) -> Knowledge:
    """Everything a seat can infer from its view."""
    profile = profile_of(view)
    seat = view["seat"]
    seats = view["seats"]
    vorhand = view["vorhand"]
    order = [(vorhand + i) % seats for i in range(seats)]
    if seats == 5:
        order.remove(view["dealer"])
    game_type = view["game_type"]
    k = Knowledge(
        seat=seat,
        seats=seats,
        order=order,
        profile=profile,
        phase=view["phase"],
        hand=0,
        hand_sizes=list(view["hand_sizes"]),
        game_type=game_type,
        to_act=view.get("to_act"),
    )
    party_names = {"re": 0, "kontra": 1}
    k.known_party = [party_names.get(p, -1) if p else -1 for p in view["parties"]]
    if view.get("my_party"):
        k.known_party[seat] = party_names[view["my_party"]]
    k.public_party = list(k.known_party)
    k.soloist = view["soloist"] if view.get("soloist") is not None else -1
    owed = view.get("duty_solo_owed", ())
    k.owes_duty = seat is not None and seat in owed
    k.forced_now = seat is not None and view.get("duty_solo_forced") == seat
    k.duty_owing = len(owed)
    k.duty_games_left = view.get("duty_solo_games_left")
    k.dealer = view["dealer"]
    hochzeit = view.get("hochzeit")
    if hochzeit:
        k.hochzeiter = hochzeit["seat"]
    armut = view.get("armut")
    if armut:
        k.armut_seat = armut["seat"]
        k.armut_taker = -1 if armut.get("taker") is None else armut["taker"]
    k.sau_seat = -1 if view.get("sau") is None else view["sau"]
    k.supersau_seat = -1 if view.get("supersau") is None else view["supersau"]

    ids = Ids()
    plays: list[tuple[int, int]] = []
    played_by = [0] * seats
    held = [12 if profile.with_nines else 10] * seats
    for entry in view["history"]:
        act = entry["act"]
        s = entry["seat"]
        if act == "play":
            card = ids.take(CODE_INDEX[entry["card"]])
            plays.append((s, card))
            played_by[s] |= 1 << card
            held[s] -= 1
            k.events.append((EV_CARD, s, card))
        elif act in LEVEL_ACTS or act in ("sau", "supersau"):
            k.ann_log.append((s, act, held[s]))
            if act in LEVEL_ACTS:
                k.events.append((EV_WORD, s, LEVEL_ACTS.index(act)))
            else:
                k.events.append((EV_SAU if act == "sau" else EV_SUPERSAU, s, 0))
        elif act in ("gesund", "vorbehalt"):
            k.reserved[s] = act
        elif act in ("hochzeit", "armut", "solo", "schmeissen", "neu-geben"):
            k.declared.setdefault(s, []).append(act)
    hand = 0
    for code in view["hand"] or []:
        hand |= 1 << ids.take(CODE_INDEX[code])
    k.hand = hand
    k.played_by = played_by
    shown = played_by[seat] & code_mask(CQ) or any(
        s == seat and act in LEVEL_ACTS for s, act, _ in k.ann_log
    )
    if game_type == "normal" and not shown:
        k.public_party[seat] = -1
    k.unseen = ids.free(deck(profile.with_nines))
    if k.phase in ("play", "done"):
        k.base = _replay(k, view, plays)
        k.voids = list(k.base.voids)
    else:
        k.voids = [0] * seats
    _constraints(k, view)
    return k


def _replay(k: Knowledge, view: dict[str, Any], plays: list[tuple[int, int]]) -> FastPlay:
    """The tricks so far on the fast path: winners, Augen, voids, a Hochzeit's partner."""
    fast = FastPlay(k.profile, k.seats)
    fast.set_order(k.order)
    start_type = k.game_type
    if k.hochzeiter >= 0:
        start_type = "hochzeit"
        fast.hochzeiter = k.hochzeiter
        fast.party[k.hochzeiter] = 0
    elif k.game_type.startswith("solo-"):
        for s in k.order:
            fast.party[s] = 0 if s == k.soloist else 1
        fast.soloist = k.soloist
    elif k.game_type == "armut":
        for s in k.order:
            fast.party[s] = 0 if s in (k.armut_seat, k.armut_taker) else 1
    fast.set_game(start_type)
    for s, card in plays:
        fast.hands[s] |= 1 << card
    # Sau and Superschweine change the order at the point they were said.
    sau_after = _count_plays_before(view, "sau")
    supersau_after = _count_plays_before(view, "supersau")
    for n, (s, card) in enumerate(plays):
        if n == sau_after:
            fast.announce_sau(k.sau_seat)
        if n == supersau_after:
            fast.announce_supersau(k.supersau_seat)
        fast.to_act = s
        fast.play(card)
    if len(plays) == sau_after:
        fast.announce_sau(k.sau_seat)
    if len(plays) == supersau_after:
        fast.announce_supersau(k.supersau_seat)
    if k.to_act is not None and k.phase == "play":
        fast.to_act = k.to_act
    return fast


SOLO_TRUMPS = {"damen": 5.5, "buben": 5.5, "fleischlos": 0.0}
SOLO_TRUMPS_SUIT = 12.0
"""How many trumps a soloist typically holds at the start (picture solos, suit solos)."""


def _soloist_weight(k: Knowledge) -> float:
    """The trump weight that deals the soloist about as many trumps as a soloist holds."""
    solo = k.game_type[5:] if k.game_type.startswith("solo-") else "trumpf"
    trumps = k.card_order().trump_mask
    unseen = (k.unseen & trumps).bit_count()
    if not unseen:
        return 1.0
    played = (k.played_by[k.soloist] & trumps).bit_count()
    expect = SOLO_TRUMPS.get(solo, SOLO_TRUMPS_SUIT) - played
    share = min(0.95, max(0.1, expect / unseen))
    room = k.hand_sizes[k.soloist]
    rest = sum(k.hand_sizes[s] for s in k.order if s not in (k.seat, k.soloist))
    if room <= 0 or rest <= 0:
        return 1.0
    return min(12.0, max(1.0, share * rest / (room * (1.0 - share))))


def _count_plays_before(view: dict[str, Any], act: str) -> int:
    """How many cards were played before ``act`` was said (-1: never said)."""
    n = 0
    for entry in view["history"]:
        if entry["act"] == act:
            return n
        if entry["act"] == "play":
            n += 1
    return -1


def _constraints(k: Knowledge, view: dict[str, Any]) -> None:
    """Hard constraints (must, banned, exact trumps) and soft weights, per seat."""
    seats = k.seats
    k.must = [0] * seats
    k.banned = [0] * seats
    k.exact_trumps = [-1] * seats
    k.trump_weight = [1.0] * seats
    me = k.seat
    free = k.unseen
    normal_trumps = order_for("normal", k.profile).trump_mask

    def place(s: int, code: int, count: int) -> None:
        nonlocal free
        for _ in range(count):
            pool = free & code_mask(code)
            if not pool:
                return
            card = pool & -pool
            k.must[s] |= card
            free &= ~card

    def held(s: int, code: int, count: int) -> int:
        """``count`` copies the seat had, less those it has played since."""
        return max(0, count - (k.played_by[s] & code_mask(code)).bit_count())

    cq_all = code_mask(CQ)
    # The Hochzeit holds both Kreuz-Damen (and a declared one overruled by a solo, too).
    for s, acts in k.declared.items():
        if "hochzeit" in acts and s != me:
            place(s, CQ, held(s, CQ, 2))
    # Schmeißen overruled by a higher declaration: the seat held its nines (some copies are
    # placed, the lowest suits first: consistent, if not uniform over which nines).
    nines = [CODE_INDEX[c] for c in ("D9", "H9", "S9", "C9") if c in CODE_INDEX]
    for s, acts in k.declared.items():
        if "schmeissen" in acts and s != me:
            need = k.profile.schmeissen_min_nines
            for code in nines:
                need -= (k.played_by[s] & code_mask(code)).bit_count()
            for code in nines:
                count = min(max(need, 0), (free & code_mask(code)).bit_count())
                place(s, code, count)
                need -= count
    if k.hochzeiter >= 0:
        for s in k.order:
            if s != k.hochzeiter:
                k.banned[s] |= cq_all
    # The Sau (and Superschweine) stay with their announcer until played.
    if k.sau_seat >= 0 and k.sau_seat != me and k.base is not None:
        codes = k.base.sau_codes()
        if codes is not None:
            place(k.sau_seat, codes[0], held(k.sau_seat, codes[0], 2))
            if k.supersau_seat >= 0 and k.supersau_seat != me:
                place(k.supersau_seat, codes[1], held(k.supersau_seat, codes[1], 2))
    # Armut: what the two seats involved saw; the trumps the poor hand holds now.
    armut = view.get("armut")
    if armut and k.armut_taker >= 0:
        poor, taker = k.armut_seat, k.armut_taker
        passed = [CODE_INDEX[c] for c in armut.get("passed", [])]
        returned = [CODE_INDEX[c] for c in armut.get("returned", [])]
        if me == poor and passed:
            for code in set(passed):
                n = passed.count(code) - returned.count(code)
                if n > 0:
                    place(taker, code, held(taker, code, n))
        if me == taker and returned:
            for code in set(returned):
                place(poor, code, held(poor, code, returned.count(code)))
        count = armut.get("returned_trumps")
        if count is None and returned:
            count = sum(1 for c in returned if normal_trumps & code_mask(c))
        if count is not None and poor != me:
            played_trumps = (k.played_by[poor] & normal_trumps).bit_count()
            k.exact_trumps[poor] = max(0, count - played_trumps)
        if taker != me:
            k.trump_weight[taker] = 1.6
    # The Kreuz-Damen of a normal game (as the seat sees it).
    if k.game_type == "normal" and k.hochzeiter < 0:
        for s in k.order:
            if s == me:
                continue
            if k.known_party[s] == 1:
                k.banned[s] |= cq_all
            elif k.known_party[s] == 0 and not k.played_by[s] & cq_all:
                place(s, CQ, 1)
            if k.known_party[s] != 1:
                k.unlikely_pairs.append((s, CQ, 0.8))
    # Soft: a soloist is long in trumps; so, less surely, is a seat that announced.
    if k.soloist >= 0 and k.soloist != me:
        k.trump_weight[k.soloist] = _soloist_weight(k)
    for s, act, _ in k.ann_log:
        if s != me and act in LEVEL_ACTS:
            strength = 2.0 if act not in ("re", "kontra") else 1.4
            k.trump_weight[s] = max(k.trump_weight[s], strength)
    # Soft: a seat that had its turn to say Sau and did not has no Sau.
    if k.sau_seat < 0 and k.base is not None:
        codes = k.base.sau_codes()
        if codes is not None:
            for s in k.order:
                if s != me and k.played_by[s]:
                    k.unlikely_pairs.append((s, codes[0], 0.9))
    # Cards to place must fit the seats' voids: a void seat cannot be forced a card of it.
    order = k.card_order()
    for s in k.order:
        if s == me:
            continue
        for c in range(5):
            if k.voids[s] >> c & 1:
                k.banned[s] |= order.class_masks[c]
    for s in range(seats):
        k.banned[s] &= ~k.must[s]
