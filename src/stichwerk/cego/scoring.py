"""Cego scoring: card points, Fächer, Berg, fixed games, Räuber, Drescher and settlements.

One set of functions serves the engine (a played deal) and the score sheet (a deal summary), so
a rule is read the same way in both. Every result has ``settlement``, one number per seat that
sums to zero, and ``winner``.

Card points are exact: with the two-card count a pile is worth a whole number of *half* points.
Inside, the functions count in whole numbers of half points (ints, ``..._halves``); the
``Fraction`` forms (``pile_points``, ``score_game``, ``score_raeuber``) are the same functions
for callers that hold points, converted at the edge.
"""

from fractions import Fraction
from math import ceil
from typing import Any

from stichwerk.cego.cards import HALF_POINTS, WHOLE_POINTS
from stichwerk.cego.profiles import Profile
from stichwerk.core.bits import Bits

Points = Fraction


def _chunk_sums(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For each 11-bit slice of a pile: the sum of ``values`` over the cards in it."""
    out = []
    for k in range(5):
        table = [0] * 2048
        for v in range(1, 2048):
            low = (v & -v).bit_length() - 1
            card = 11 * k + low
            table[v] = table[v & (v - 1)] + (values[card] if card < 54 else 0)
        out.append(tuple(table))
    return tuple(out)


_HALF_SUMS = _chunk_sums(HALF_POINTS)
_WHOLE_SUMS = _chunk_sums(WHOLE_POINTS)


def _sum_of(tables: tuple[tuple[int, ...], ...], pile: Bits) -> int:
    t0, t1, t2, t3, t4 = tables
    return (
        t0[pile & 2047]
        + t1[pile >> 11 & 2047]
        + t2[pile >> 22 & 2047]
        + t3[pile >> 33 & 2047]
        + t4[pile >> 44 & 2047]
    )


def pile_halves(rules: Profile, pile: Bits) -> int:
    """The card points of a pile under the table's counting, in half points.

    Pairs (the default): the exact sum of half points. Triples: every card counts its whole value
    less two thirds (three cards together lose 2), rounded to the nearest point as players do
    (a third is never a half, so the nearest point is ``(x + 1) // 3`` of ``x`` thirds).

    >>> from stichwerk.cego.profiles import SCHWARZWALD
    >>> from stichwerk.cego.cards import ALL
    >>> pile_halves(SCHWARZWALD, ALL)
    158
    """
    if rules.counting == "pairs":
        return _sum_of(_HALF_SUMS, pile)
    thirds = 3 * _sum_of(_WHOLE_SUMS, pile) - 2 * pile.bit_count()
    return 2 * ((thirds + 1) // 3)


def pile_points(rules: Profile, pile: Bits) -> Points:
    """The card points of a pile under the table's counting (see :func:`pile_halves`)."""
    return Fraction(pile_halves(rules, pile), 2)


def halves_of(points: Points | int) -> int:
    """Card points as a whole number of half points; anything finer is an error."""
    doubled = Fraction(points) * 2
    if doubled.denominator != 1:
        raise ValueError(f"card points come in halves, not {points}")
    return int(doubled)


def number_of_halves(halves: int) -> int | float:
    """Half points as a player writes the points: 41, or 34.5."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def total_points(rules: Profile) -> int:
    """All card points of the deck: 79 with pairs, 70 with triples."""
    return 79 if rules.counting == "pairs" else 70


def win_points(rules: Profile) -> int:
    """What the declarer needs: 40 of 79, or 36 of 70."""
    return 40 if rules.counting == "pairs" else 36


def number(value: Points | int | None) -> int | float | None:
    """A point figure as a player writes it: 41, or 34.5."""
    if value is None:
        return None
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def round_up(value: int, step: int) -> int:
    """``value`` rounded up to a multiple of ``step``."""
    return -(-value // step) * step if step > 0 else value


def faecher(rules: Profile, loser_points: Points) -> int:
    """Fächer: bands of five points the loser lacks to the winning mark.

    >>> from stichwerk.cego.profiles import SCHWARZWALD
    >>> faecher(SCHWARZWALD, Fraction(34)), faecher(SCHWARZWALD, Fraction(38))
    (2, 1)
    """
    return max(1, ceil((win_points(rules) - loser_points) / rules.fach))


def _faecher_halves(rules: Profile, loser_halves: int) -> int:
    """:func:`faecher` of a loser's points in half points (``ceil`` as a floor division)."""
    return max(1, -((loser_halves - 2 * win_points(rules)) // (2 * rules.fach)))


def _settle_one_against_all(seats: int, declarer: int, per_opponent: int) -> list[int]:
    """The declarer gets ``per_opponent`` from every other seat (pays it when negative)."""
    out = [-per_opponent] * seats
    out[declarer] = per_opponent * (seats - 1)
    return out


def with_money(rules: Profile, score: dict[str, Any]) -> dict[str, Any]:
    """Add the money a deal is worth at a table that plays for money (``titisee``)."""
    if rules.stake:
        ganze = rules.stake == "ganze"
        score["money"] = {
            "stake": "ums Ganze" if ganze else "ums Halbe",
            "cents": [p if ganze else number_of_halves(p) for p in score["settlement"]],
        }
    return score


def score_game(
    rules: Profile,
    *,
    seats: int,
    declarer: int,
    value: int,
    declarer_points: Points,
    declarer_tricks: int,
    defender_tricks: int,
    solo: bool = False,
    berg: str | None = None,
) -> dict[str, Any]:
    """A one-against-all game counted by card points (the ladder contracts and Solo).

    ``berg`` names a side that broke a rule on the score sheet ("declarer" or "defenders"):
    it is Berg like a side without a trick.

    >>> from stichwerk.cego.profiles import SCHWARZWALD as R
    >>> s = score_game(R, seats=4, declarer=0, value=2, declarer_points=Fraction(34),
    ...                declarer_tricks=4, defender_tricks=7)
    >>> s["written"], s["settlement"]
    (20, [-60, 20, 20, 20])
    """
    return score_game_halves(
        rules,
        seats=seats,
        declarer=declarer,
        value=value,
        declarer_halves=halves_of(declarer_points),
        declarer_tricks=declarer_tricks,
        defender_tricks=defender_tricks,
        solo=solo,
        berg=berg,
    )


def score_game_halves(
    rules: Profile,
    *,
    seats: int,
    declarer: int,
    value: int,
    declarer_halves: int,
    declarer_tricks: int,
    defender_tricks: int,
    solo: bool = False,
    berg: str | None = None,
) -> dict[str, Any]:
    """:func:`score_game` with the declarer's card points in half points."""
    berg_side = berg
    if declarer_tricks == 0:
        berg_side = "declarer"
    elif defender_tricks == 0:
        berg_side = "defenders"
    defender_halves = 2 * total_points(rules) - declarer_halves
    if berg_side is not None:
        won = berg_side == "defenders"
        n_faecher = rules.berg // rules.fach if rules.fach else 0
        written = value * rules.berg
    else:
        won = declarer_halves >= 2 * win_points(rules)
        n_faecher = _faecher_halves(rules, defender_halves if won else declarer_halves)
        written = round_up(n_faecher * rules.fach * value, rules.round_to)
    if solo and won:
        written *= rules.solo_win_factor
    score: dict[str, Any] = {
        "winner": "declarer" if won else "defenders",
        "value": value,
        "loser_points": number_of_halves(defender_halves if won else declarer_halves),
        "faecher": n_faecher,
        "written": written,
        "berg": berg_side is not None,
        "settlement": _settle_one_against_all(seats, declarer, written if won else -written),
    }
    return score


def fixed_value(rules: Profile, contract: str) -> int:
    """The written score of Ulti, Piccolo or Bettel."""
    return {"ulti": rules.ulti_value, "piccolo": rules.piccolo_value}.get(
        contract, rules.bettel_value
    )


def score_fixed(
    rules: Profile, *, seats: int, declarer: int, contract: str, won: bool
) -> dict[str, Any]:
    """Ulti, Piccolo or Bettel: a fixed score from or to every opponent."""
    written = fixed_value(rules, contract)
    return {
        "winner": "declarer" if won else "defenders",
        "value": written,
        "loser_points": None,
        "faecher": None,
        "written": written,
        "berg": False,
        "settlement": _settle_one_against_all(seats, declarer, written if won else -written),
    }


def combine_soli_ulti(solo: dict[str, Any], ulti: dict[str, Any]) -> dict[str, Any]:
    """Soli-Ulti counts as two games: the Solo and the Ulti, settled together."""
    settlement = [a + b for a, b in zip(solo["settlement"], ulti["settlement"], strict=True)]
    same = solo["winner"] == ulti["winner"]
    return {
        "winner": solo["winner"] if same else "split",
        "value": solo["value"],
        "loser_points": solo["loser_points"],
        "faecher": solo["faecher"],
        "written": solo["written"] + ulti["written"],
        "berg": solo["berg"],
        "parts": {"solo": solo, "ulti": ulti},
        "settlement": settlement,
    }


def score_raeuber(
    rules: Profile,
    *,
    seats: int,
    playing: list[int],
    points: dict[int, Points],
    tricks: dict[int, int],
    announcer: int | None,
) -> dict[str, Any]:
    """Räuber: the most card points loses ``raeuber_value`` to every other seat.

    Ties for most: every tied seat loses. The announcer pays ``raeuber_announcer_factor`` times.
    With ``jungfrau`` a playing seat without a trick receives that from every other seat instead.
    A sitting dealer (5-table) settles like any seat that neither loses nor is Jungfrau.
    """
    return score_raeuber_halves(
        rules,
        seats=seats,
        playing=playing,
        halves={s: halves_of(p) for s, p in points.items()},
        tricks=tricks,
        announcer=announcer,
    )


def score_raeuber_halves(
    rules: Profile,
    *,
    seats: int,
    playing: list[int],
    halves: dict[int, int],
    tricks: dict[int, int],
    announcer: int | None,
) -> dict[str, Any]:
    """:func:`score_raeuber` with each seat's card points in half points."""
    points = halves
    top = max(points[s] for s in playing)
    losers = [s for s in playing if points[s] == top]
    jungfrauen = [s for s in playing if rules.jungfrau and tricks[s] == 0]
    settlement = [0] * seats
    for loser in losers:
        pay = rules.raeuber_value * (rules.raeuber_announcer_factor if loser == announcer else 1)
        for other in range(seats):
            if other not in losers and other not in jungfrauen:
                settlement[loser] -= pay
                settlement[other] += pay
    for virgin in jungfrauen:
        for other in range(seats):
            if other != virgin:
                settlement[other] -= rules.jungfrau
                settlement[virgin] += rules.jungfrau
    return {
        "winner": "others",
        "losers": losers,
        "jungfrauen": jungfrauen,
        "value": rules.raeuber_value,
        "loser_points": number_of_halves(top),
        "faecher": None,
        "written": rules.raeuber_value,
        "berg": False,
        "settlement": settlement,
    }


def score_drescher(rules: Profile, *, seats: int, last_trick: int) -> dict[str, Any]:
    """Drescher: whoever takes the last trick pays ``drescher_value`` to every other seat."""
    settlement = [rules.drescher_value] * seats
    settlement[last_trick] = -rules.drescher_value * (seats - 1)
    return {
        "winner": "others",
        "losers": [last_trick],
        "value": rules.drescher_value,
        "loser_points": None,
        "faecher": None,
        "written": rules.drescher_value,
        "berg": False,
        "settlement": settlement,
    }


def score_aufdecken(
    rules: Profile, *, seats: int, declarer: int, value: int, schinder: list[int]
) -> dict[str, Any]:
    """*Aufdecken lassen*: each Solo-Schinder is Berg at the contract's value, paying every
    other seat; if there is none, the declarer is Berg at his own contract's value."""
    berg = value * rules.berg
    settlement = [0] * seats
    if schinder:
        for cheat in schinder:
            for other in range(seats):
                if other != cheat:
                    settlement[cheat] -= berg
                    settlement[other] += berg
    else:
        settlement = _settle_one_against_all(seats, declarer, -berg)
    return {
        "winner": "declarer" if schinder else "defenders",
        "losers": list(schinder) if schinder else [declarer],
        "value": value,
        "loser_points": None,
        "faecher": None,
        "written": berg,
        "berg": True,
        "settlement": settlement,
    }
