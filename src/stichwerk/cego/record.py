"""Cego records and deal summaries: from JSON to a state, and from a summary to a score.

A record (NOTATION.md) holds the deal and the actions; a summary holds what a score sheet knows
of a deal without the cards. Both are checked field by field, each problem named in one line.
At a 5-table the record says ``"seats": 5`` beside ``"players": 4`` (the seats dealt in) and the
sitting dealer's hand is the empty list.
"""

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from stichwerk.cego import cards as C
from stichwerk.cego import scoring
from stichwerk.cego.contracts import EXCHANGES, FIXED
from stichwerk.cego.profiles import DEFAULT_PROFILE, Profile, get_profile
from stichwerk.cego.state import CegoState, blind_size, cut_deck, hand_size
from stichwerk.core.errors import CardError, RecordError
from stichwerk.core.record import (
    check_keys,
    finite_number,
    get_bool,
    get_int,
    get_list,
    get_number,
    get_options,
    get_str,
    half_points,
)
from stichwerk.core.rng import shuffled
from stichwerk.core.series import DealContext, DealOutcome

DEAL_TYPES = ("drescher", "pflichtraeuber")
RECORD_KEYS = (
    "game", "profile", "options", "players", "seats", "dealer", "hands", "blind", "deal_type",
    "actions", "result", "seed", "meta",
)  # fmt: skip


def _table(rules: Profile, players: int, seats: int) -> None:
    if players not in (3, 4):
        raise RecordError("'players' (seats dealt in) must be 3 or 4")
    if seats not in (players, 5) or (seats == 5 and players != 4):
        raise RecordError("'seats' must equal 'players', or be 5 with 4 players dealt in")
    if seats not in rules.allowed_players:
        raise RecordError(f"a table of {seats} is not allowed under these rules")


def _check_deal_type(rules: Profile, deal_type: str | None) -> None:
    if deal_type is None:
        return
    if deal_type not in DEAL_TYPES:
        raise RecordError(f"unknown deal_type {deal_type!r} (known: {', '.join(DEAL_TYPES)})")
    if not getattr(rules, deal_type):
        raise RecordError(f"{deal_type} deals are not played under these rules")


def new_deal(
    *,
    profile: str = DEFAULT_PROFILE,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    dealer: int = 0,
    seed: int | str = 0,
    deal_type: str | None = None,
) -> CegoState:
    """A fresh deal shuffled from ``seed``. ``players`` counts the seats at the table (3, 4, or
    5 where the dealer sits out); by default the profile's usual number."""
    opts = dict(options or {})
    rules = get_profile(profile, opts)
    seats = rules.players if players is None else players
    dealt_in = 4 if seats == 5 else seats
    _table(rules, dealt_in, seats)
    if not 0 <= dealer < seats:
        raise RecordError(f"dealer must be a seat from 0 to {seats - 1}")
    _check_deal_type(rules, deal_type)
    hands, blind = cut_deck(shuffled(_DECK_OF[dealt_in], seed), dealt_in, seats, dealer)
    return CegoState(
        rules,
        options=opts,
        dealer=dealer,
        hands=hands,
        blind=blind,
        deal_type=deal_type,
    )


_DECK_OF = {
    players: [c for c in range(54) if not (players == 3 and C.REMOVED_FOR_THREE >> c & 1)]
    for players in (3, 4)
}
"""The cards dealt with three or four players, in id order (before the shuffle)."""


def deal_from_record(record: Mapping[str, Any]) -> CegoState:
    """The state a record's deal starts from (its actions are not applied)."""
    rec = dict(record)
    check_keys(rec, RECORD_KEYS, "record")
    if rec.get("game") != "cego":
        raise RecordError("this is not a Cego record")
    profile = get_str(rec, "profile", "record", default=DEFAULT_PROFILE)
    options = get_options(rec, "record")
    rules = get_profile(profile, options)
    players = get_int(rec, "players", "record")
    seats = get_int(rec, "seats", "record", default=players)
    _table(rules, players, seats)
    dealer = get_int(rec, "dealer", "record")
    if not 0 <= dealer < seats:
        raise RecordError(f"'dealer' must be a seat from 0 to {seats - 1}")
    deal_type = rec.get("deal_type")
    if deal_type is not None and not isinstance(deal_type, str):
        raise RecordError("'deal_type' must be a string")
    _check_deal_type(rules, deal_type)
    raw_hands = get_list(rec, "hands", "record")
    if len(raw_hands) != seats:
        raise RecordError(f"'hands' must hold {seats} lists, one per seat, not {len(raw_hands)}")
    seen: dict[int, str] = {}
    removed = C.REMOVED_FOR_THREE if players == 3 else 0

    def take(items: object, where: str, size: int) -> int:
        if not isinstance(items, list):
            raise RecordError(f"{where} must be a list of card codes")
        if len(items) != size:
            raise RecordError(f"{where} must hold {size} cards, not {len(items)}")
        mask = 0
        for item in items:
            card = C.parse(item)
            if card in seen:
                raise CardError(f"card {C.CODES[card]} is dealt twice ({seen[card]} and {where})")
            if removed & (1 << card):
                raise CardError(f"card {C.CODES[card]} is not in the three-player deck")
            seen[card] = where
            mask |= 1 << card
        return mask

    hands = []
    for seat, items in enumerate(raw_hands):
        sitting = seats == 5 and seat == dealer
        hands.append(take(items, f"the hand of seat {seat}", 0 if sitting else hand_size(players)))
    blind = take(rec.get("blind"), "the blind", blind_size(players))
    get_list(rec, "actions", "record")
    return CegoState(
        rules,
        options=options,
        dealer=dealer,
        hands=hands,
        blind=blind,
        deal_type=deal_type,
    )


SUMMARY_KEYS = (
    "game", "profile", "options", "players", "seats", "dealer", "declarer", "contract",
    "gegensolo", "declarer_points", "declarer_tricks", "defender_tricks",
    "last_trick_with_geiss", "announcer", "points", "tricks", "last_trick", "berg", "aufdecken",
    "out_of_play",
)  # fmt: skip


def score_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring output for a deal summary (what a score sheet knows of a deal)."""
    s = dict(summary)
    what = "summary"
    check_keys(s, SUMMARY_KEYS, what)
    if s.get("game") != "cego":
        raise RecordError("this is not a Cego summary")
    profile = get_str(s, "profile", what, default=DEFAULT_PROFILE)
    rules = get_profile(profile, get_options(s, what))
    players = get_int(s, "players", what)
    seats = get_int(s, "seats", what, default=players)
    _table(rules, players, seats)
    contract = get_str(s, "contract", what)
    dealer = s.get("dealer")
    if dealer is not None:
        dealer = get_int(s, "dealer", what)
        if not 0 <= dealer < seats:
            raise RecordError(f"'dealer' must be a seat from 0 to {seats - 1}")
    if seats == 5 and dealer is None and contract in ("raeuber", "drescher"):
        raise RecordError("at a 5-table a Räuber or Drescher summary needs the 'dealer'")
    playing = [seat for seat in range(seats) if not (seats == 5 and seat == dealer)]
    n_tricks = hand_size(players)

    def seat_of(key: str) -> int:
        seat = get_int(s, key, what)
        if seat not in playing:
            raise RecordError(f"{key!r} must be a seat dealt in, not {seat}")
        return seat

    if contract == "raeuber":
        if not (rules.raeuber or rules.pflichtraeuber):
            raise RecordError("Räuber is not played under these rules")
        announcer = s.get("announcer")
        if announcer is not None:
            announcer = seat_of("announcer")
        points = get_list(s, "points", what)
        tricks = get_list(s, "tricks", what)
        if len(points) != seats or len(tricks) != seats:
            raise RecordError(f"'points' and 'tricks' must hold one number per seat ({seats})")
        pts = {}
        trk = {}
        for seat in range(seats):
            pts[seat] = Fraction(half_points(_num(points[seat], "points"), "points"), 2)
            trk[seat] = _whole(tricks[seat], "tricks")
        if sum(trk[p] for p in playing) != n_tricks:
            raise RecordError(f"'tricks': the tricks must add up to {n_tricks}")
        total = scoring.total_points(rules)
        if sum(pts.values()) > total:
            raise RecordError(f"'points': the card points exceed {total}")
        if "out_of_play" in s:
            rest = Fraction(half_points(get_number(s, "out_of_play", what), "out_of_play"), 2)
            # Triples are rounded pile by pile: each pile may be half a point off.
            slack = 0 if rules.counting == "pairs" else Fraction(len(playing) + 1, 2)
            if abs(sum(pts.values()) + rest - total) > slack:
                added = scoring.number(sum(pts.values()) + rest)
                raise RecordError(
                    f"'points': the seats' points and the blind's ({scoring.number(rest)}) "
                    f"must add up to the deck's {total}, not {added}"
                )
        for seat in range(seats):
            if seat not in playing and (pts[seat] or trk[seat]):
                raise RecordError(f"'points': seat {seat} sits out and takes no cards")
        score = scoring.score_raeuber(
            rules, seats=seats, playing=playing, points=pts, tricks=trk, announcer=announcer
        )
        return scoring.with_money(rules, score)
    if contract == "drescher":
        if not rules.drescher:
            raise RecordError("Drescher is not played under these rules")
        score = scoring.score_drescher(rules, seats=seats, last_trick=seat_of("last_trick"))
        return scoring.with_money(rules, score)
    declarer = seat_of("declarer")
    gegensolo = get_bool(s, "gegensolo", what, default=False)
    if contract in EXCHANGES:
        if contract not in rules.ladder:
            raise RecordError(f"{contract} is not on this profile's ladder")
        if gegensolo and not rules.gegensolo:
            raise RecordError("Gegensolo is not played under these rules")
        value = rules.value_of(contract) + (rules.gegensolo_raise if gegensolo else 0)
    elif contract in ("solo", "soli-ulti", *FIXED):
        enabled = {
            "solo": rules.solo,
            "soli-ulti": rules.soli_ulti,
            "ulti": rules.ulti,
            "piccolo": rules.piccolo,
            "bettel": rules.bettel,
        }[contract]
        if not enabled:
            raise RecordError(f"{contract} is not played under these rules")
        if gegensolo:
            raise RecordError(f"'gegensolo' does not go with {contract}")
        value = rules.solo_value if contract in ("solo", "soli-ulti") else 0
    else:
        raise RecordError(f"unknown Cego contract {contract!r}")
    if "aufdecken" in s:
        if contract not in EXCHANGES or not rules.pflichtsolo:
            raise RecordError("aufdecken goes only with an auction contract under Pflichtsolo")
        auf = s["aufdecken"]
        if not isinstance(auf, dict) or not isinstance(auf.get("schinder"), list):
            raise RecordError("'aufdecken' must be {\"schinder\": [seats]}")
        schinder = [_whole(x, "schinder") for x in auf["schinder"]]
        if any(x not in playing for x in schinder):
            raise RecordError("every Schinder must be a seat dealt in")
        score = scoring.score_aufdecken(
            rules, seats=seats, declarer=declarer, value=value, schinder=schinder
        )
        return scoring.with_money(rules, score)
    berg = s.get("berg")
    if berg is not None and berg not in ("declarer", "defenders"):
        raise RecordError("'berg' must be 'declarer' or 'defenders'")
    if contract in FIXED:
        if contract == "ulti":
            won = get_bool(s, "last_trick_with_geiss", what)
        else:
            tricks_taken = get_int(s, "declarer_tricks", what, lo=0)
            won = tricks_taken == (1 if contract == "piccolo" else 0)
        if berg is not None:
            won = berg == "defenders"
        score = scoring.score_fixed(
            rules, seats=seats, declarer=declarer, contract=contract, won=won
        )
        return scoring.with_money(rules, score)
    points_half = half_points(get_number(s, "declarer_points", what), "'declarer_points'")
    total = scoring.total_points(rules)
    if not 0 <= points_half <= 2 * total:
        raise RecordError(f"'declarer_points' must be between 0 and {total}")
    if "declarer_tricks" in s or "defender_tricks" in s:
        declarer_tricks = get_int(s, "declarer_tricks", what, lo=0)
        defender_tricks = get_int(s, "defender_tricks", what, lo=0)
        if declarer_tricks + defender_tricks != n_tricks:
            raise RecordError(f"the tricks must add up to {n_tricks}")
    else:
        # A sheet that does not count tricks: both sides took some (a side with none is Berg).
        declarer_tricks, defender_tricks = 1, n_tricks - 1
    if declarer_tricks == 0 and points_half:
        raise RecordError("'declarer_points': a declarer without a trick has no card points")
    if defender_tricks == 0 and rules.counting == "pairs" and points_half != 2 * total:
        raise RecordError(f"'declarer_points': defenders without a trick leave all {total}")
    score = scoring.score_game(
        rules,
        seats=seats,
        declarer=declarer,
        value=value,
        declarer_points=Fraction(points_half, 2),
        declarer_tricks=declarer_tricks,
        defender_tricks=defender_tricks,
        solo=contract in ("solo", "soli-ulti"),
        berg=berg,
    )
    if contract == "soli-ulti":
        ulti = scoring.score_fixed(
            rules,
            seats=seats,
            declarer=declarer,
            contract="ulti",
            won=get_bool(s, "last_trick_with_geiss", what),
        )
        score = scoring.combine_soli_ulti(score, ulti)
    return scoring.with_money(rules, score)


def summary_outcome(
    summary: Mapping[str, Any], context: DealContext
) -> tuple[dict[str, Any], DealOutcome]:
    """The scoring output of a summary entered on a score sheet, checked against the list: a
    closing round deals its own game (a Drescher round a Drescher, a Pflichträuber round a
    Räuber), an ordinary deal never a Drescher, and Vorhand announces every Räuber."""
    contract = summary.get("contract")
    kind = context.deal_type
    if kind == "drescher" and contract != "drescher":
        raise RecordError("'contract': this deal is in the Drescher round: a drescher")
    if kind == "pflichtraeuber" and contract != "raeuber":
        raise RecordError("'contract': this deal is in the Pflichträuber round: a raeuber")
    if kind is None and contract == "drescher":
        raise RecordError("'contract': a Drescher is dealt only in a Drescher round")
    if contract == "raeuber" and summary.get("announcer") != context.vorhand:
        raise RecordError(f"'announcer': Vorhand (seat {context.vorhand}) announces the Räuber")
    score = score_summary(summary)
    return score, DealOutcome(settlement=tuple(score["settlement"]))


def _num(value: object, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecordError(f"every entry of {key!r} must be a number")
    return finite_number(value, f"every entry of {key!r}")


def _whole(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"every entry of {key!r} must be a whole number ≥ 0")
    return value


def summary_of(result: Mapping[str, Any], players: int, seats: int) -> dict[str, Any]:
    """The deal summary a score sheet would hold for a played deal's ``result``.

    ``score(summary_of(result))`` gives ``result["score"]``: the score sheet and the engine read
    the rules the same way (a property test checks it over random deals).
    """
    contract = result["contract"]
    out: dict[str, Any] = {
        "game": "cego",
        "profile": result["profile"],
        "options": dict(result.get("options", {})),
        "players": players,
        "seats": seats,
        "contract": contract,
    }
    tricks = result["tricks"]
    if contract in ("raeuber", "drescher"):
        out["dealer"] = result.get("dealer")
        if contract == "raeuber":
            out["announcer"] = result["announcer"]
            out["points"] = [p or 0 for p in result["card_points"]["seats"]]
            out["out_of_play"] = result["card_points"]["out_of_play"]
            out["tricks"] = list(tricks)
        else:
            out["last_trick"] = result["last_trick_winner"]
        return out
    declarer = result["declarer"]
    out["declarer"] = declarer
    out["gegensolo"] = result["gegensolo"]
    if "aufgedeckt" in result:
        out["aufdecken"] = {"schinder": result["aufgedeckt"]["schinder"]}
        return out
    out["declarer_points"] = result["card_points"]["declarer"]
    out["declarer_tricks"] = tricks[declarer]
    out["defender_tricks"] = sum(tricks) - tricks[declarer]
    if contract in ("ulti", "soli-ulti"):
        out["last_trick_with_geiss"] = result["last_trick_with_geiss"]
    return out
