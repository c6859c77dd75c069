"""Cego scoring: card points, Fächer, Berg, fixed games, Räuber, Drescher and settlements.

One set of functions serves the engine (a played deal) and the score sheet (a deal summary), so
a rule is read the same way in both. Every result has ``settlement``, one number per seat that
sums to zero, and ``winner``.
"""

from fractions import Fraction
from math import ceil
from typing import Any

from stichwerk.cego.cards import HALF_POINTS, WHOLE_POINTS
from stichwerk.cego.profiles import Rules
from stichwerk.core.bits import Bits, bits_list

Points = Fraction


def pile_points(rules: Rules, pile: Bits) -> Points:
    """The card points of a pile under the table's counting.

    Pairs (the default): the exact sum of half points. Triples: every card counts its whole value
    less two thirds (three cards together lose 2), rounded to the nearest point as players do.
    """
    cards = bits_list(pile)
    if rules.counting == "pairs":
        return Fraction(sum(HALF_POINTS[c] for c in cards), 2)
    exact = Fraction(3 * sum(WHOLE_POINTS[c] for c in cards) - 2 * len(cards), 3)
    return Fraction(round(exact))


def total_points(rules: Rules) -> int:
    """All card points of the deck: 79 with pairs, 70 with triples."""
    return 79 if rules.counting == "pairs" else 70


def win_points(rules: Rules) -> int:
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


def faecher(rules: Rules, loser_points: Points) -> int:
    """Fächer: bands of five points the loser lacks to the winning mark.

    >>> from stichwerk.cego.profiles import SCHWARZWALD
    >>> faecher(SCHWARZWALD, Fraction(34)), faecher(SCHWARZWALD, Fraction(38))
    (2, 1)
    """
    return max(1, ceil((win_points(rules) - loser_points) / rules.fach))


def _settle_one_against_all(seats: int, declarer: int, per_opponent: int) -> list[int]:
    """The declarer gets ``per_opponent`` from every other seat (pays it when negative)."""
    out = [-per_opponent] * seats
    out[declarer] = per_opponent * (seats - 1)
    return out


def with_money(rules: Rules, score: dict[str, Any]) -> dict[str, Any]:
    """Add the money a deal is worth at a table that plays for money (``titisee``)."""
    if rules.stake:
        cents = 1 if rules.stake == "ganze" else 0.5
        score["money"] = {
            "stake": "ums Ganze" if rules.stake == "ganze" else "ums Halbe",
            "cents": [number(Fraction(p) * Fraction(cents)) for p in score["settlement"]],
        }
    return score


def score_game(
    rules: Rules,
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
    berg_side = berg
    if declarer_tricks == 0:
        berg_side = "declarer"
    elif defender_tricks == 0:
        berg_side = "defenders"
    total = total_points(rules)
    defender_points = total - declarer_points
    if berg_side is not None:
        won = berg_side == "defenders"
        n_faecher = rules.berg // rules.fach if rules.fach else 0
        written = value * rules.berg
    else:
        won = declarer_points >= win_points(rules)
        n_faecher = faecher(rules, defender_points if won else declarer_points)
        written = round_up(n_faecher * rules.fach * value, rules.round_to)
    if solo and won:
        written *= rules.solo_win_factor
    score: dict[str, Any] = {
        "winner": "declarer" if won else "defenders",
        "value": value,
        "loser_points": number(defender_points if won else declarer_points),
        "faecher": n_faecher,
        "written": written,
        "berg": berg_side is not None,
        "settlement": _settle_one_against_all(seats, declarer, written if won else -written),
    }
    return score


def fixed_value(rules: Rules, contract: str) -> int:
    """The written score of Ulti, Piccolo or Bettel."""
    return {"ulti": rules.ulti_value, "piccolo": rules.piccolo_value}.get(
        contract, rules.bettel_value
    )


def score_fixed(
    rules: Rules, *, seats: int, declarer: int, contract: str, won: bool
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
    rules: Rules,
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
        "loser_points": number(top),
        "faecher": None,
        "written": rules.raeuber_value,
        "berg": False,
        "settlement": settlement,
    }


def score_drescher(rules: Rules, *, seats: int, last_trick: int) -> dict[str, Any]:
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
    rules: Rules, *, seats: int, declarer: int, value: int, schinder: list[int]
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
