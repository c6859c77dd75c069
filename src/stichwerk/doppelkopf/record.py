"""Deals in and out of the game record of NOTATION.md, and dealing from a seed.

Doppelkopf adds four optional keys to the record: ``seats`` (5 for a 5-table, where the dealer
sits out with an empty hand), ``duty_solo_owed`` (the seats that still owe a Pflicht-Solo, so a
solo of theirs is one) and ``duty_solo_forced`` (the seat that is vorgeführt, TSR 5.2.3), which
decide who leads a solo, so a record that replays the same must carry them; and
``duty_solo_games_left`` (the ordinary games, this one included, left to the Pflicht-Soli's
deadline: the list's end, or a tournament's Vorrunde's), which the table knows and a seat that
owes one weighs, so that every view of the deal replays the same.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from stichwerk.core.bits import Bits
from stichwerk.core.errors import RecordError
from stichwerk.core.record import check_keys, get_int, get_list, get_options, get_str
from stichwerk.core.rng import shuffled
from stichwerk.doppelkopf.cards import card_ids, codes_of_mask, deck, parse_code
from stichwerk.doppelkopf.profiles import PROFILES, get_profile
from stichwerk.doppelkopf.state import DokoState

_DECK_IDS = {True: card_ids(deck(True)), False: card_ids(deck(False))}

RECORD_KEYS = (
    "game",
    "profile",
    "options",
    "players",
    "dealer",
    "hands",
    "actions",
    "seats",
    "duty_solo_owed",
    "duty_solo_forced",
    "duty_solo_games_left",
    "result",
)


def _duty(
    owed_raw: object, forced: object, seats: int, what: str
) -> tuple[frozenset[int], int | None]:
    if not isinstance(owed_raw, list | tuple | set | frozenset) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats for s in owed_raw
    ):
        raise RecordError(f"'duty_solo_owed' of the {what} must be a list of seats")
    if forced is not None and (
        not isinstance(forced, int) or isinstance(forced, bool) or not 0 <= forced < seats
    ):
        raise RecordError(f"'duty_solo_forced' of the {what} must be a seat")
    return frozenset(owed_raw), forced


def _games_left(value: object, what: str) -> int | None:
    key = "duty_solo_games_left"
    return None if value is None else get_int({key: value}, key, what, lo=1)


def new_deal(
    *,
    profile: str = "wielandstrasse",
    options: Mapping[str, Any] | None = None,
    players: int = 4,
    dealer: int = 0,
    seed: int | str = 0,
    duty_solo_owed: Sequence[int] = (),
    duty_solo_forced: int | None = None,
    duty_solo_games_left: int | None = None,
) -> DokoState:
    """A fresh deal from ``seed``, dealt in packets of 3 (3-4-3 without nines) from Vorhand.

    ``players`` counts the seats at the table: 4, or 5 where the dealer sits out. A series
    passes the seats that still owe a Pflicht-Solo, the seat that is vorgeführt and the games
    left to the Pflicht-Soli's deadline.
    """
    if players not in (4, 5):
        raise RecordError("a doppelkopf table has 4 seats, or 5 where the dealer sits out")
    seats = players
    prof = get_profile(profile, dict(options or {}))
    owed, forced = _duty(list(duty_solo_owed), duty_solo_forced, seats, "deal")
    games_left = _games_left(duty_solo_games_left, "deal")
    if not 0 <= dealer < seats:
        raise RecordError(f"dealer must be a seat from 0 to {seats - 1}")
    if forced is not None and seats == 5 and forced == dealer:
        raise RecordError("the sitting dealer cannot be vorgeführt")
    cards = shuffled(_DECK_IDS[prof.with_nines], seed)
    order = [(dealer + i) % seats for i in range(1, seats + 1)]
    if seats == 5:
        order.remove(dealer)
    hands: list[Bits] = [0] * seats
    pos = 0
    packets = (3, 3, 3, 3) if len(cards) == 48 else (3, 4, 3)
    for size in packets:
        for s in order:
            hand = hands[s]
            for k in range(pos, pos + size):  # by index: no slice per packet
                hand |= 1 << cards[k]
            hands[s] = hand
            pos += size
    return DokoState(
        prof, hands, dealer, options=dict(options or {}), duty_owed=owed, forced=forced,
        duty_games_left=games_left,
    )  # fmt: skip


def deal_from_record(record: Mapping[str, Any]) -> DokoState:
    """The state a record's deal starts from (its actions not yet applied)."""
    rec = dict(record)
    check_keys(rec, RECORD_KEYS, "record")
    if rec.get("game") != "doppelkopf":
        raise RecordError("not a doppelkopf record")
    name = get_str(rec, "profile", "record", default="wielandstrasse")
    options = get_options(rec, "record")
    prof = get_profile(name, options)
    players = get_int(rec, "players", "record", default=4)
    if players != 4:
        raise RecordError(
            "'players' of a doppelkopf record must be 4 (a 5-table has 'seats': 5 and the "
            "dealer sits out)"
        )
    seats = get_int(rec, "seats", "record", default=4)
    if seats not in (4, 5):
        raise RecordError("'seats' of the record must be 4 or 5 (the dealer sits out at 5)")
    owed, forced = _duty(rec.get("duty_solo_owed", []), rec.get("duty_solo_forced"), seats,
                         "record")  # fmt: skip
    games_left = _games_left(rec.get("duty_solo_games_left"), "record")
    dealer = get_int(rec, "dealer", "record", lo=0)
    if dealer >= seats:
        raise RecordError(f"'dealer' must be a seat from 0 to {seats - 1}")
    raw_hands = get_list(rec, "hands", "record")
    if len(raw_hands) != seats:
        raise RecordError(f"'hands' must list {seats} hands, one per seat (got {len(raw_hands)})")
    full = deck(prof.with_nines)
    per_hand = full.bit_count() // 4
    hands: list[Bits] = []
    used: Bits = 0
    for s, raw in enumerate(raw_hands):
        if not isinstance(raw, list):
            raise RecordError(f"hand of seat {s} must be a list of card codes")
        want = 0 if seats == 5 and s == dealer else per_hand
        if len(raw) != want:
            what = "the sitting dealer holds no cards" if want == 0 else f"{want} cards"
            raise RecordError(f"hand of seat {s} must have {what} (got {len(raw)})")
        hand: Bits = 0
        for text in raw:
            code = parse_code(text)
            pair = 3 << (2 * code)
            free = pair & ~used
            if not free:
                raise RecordError(f"card {codes_of_mask(pair)[0]} appears more than twice")
            bit = free & -free
            if not bit & full:
                raise RecordError(f"card {codes_of_mask(bit)[0]} is not in play without nines")
            used |= bit
            hand |= bit
        hands.append(hand)
    if forced is not None and (seats == 5 and forced == dealer):
        raise RecordError("the sitting dealer cannot be vorgeführt")
    return DokoState(
        prof, hands, dealer, options=options, duty_owed=owed, forced=forced,
        duty_games_left=games_left,
    )  # fmt: skip


def state_to_record(state: DokoState) -> dict[str, Any]:
    """The game record of ``state`` (with ``result`` once the deal is over)."""
    assert state.profile.name in PROFILES
    return state.snapshot().to_record()
