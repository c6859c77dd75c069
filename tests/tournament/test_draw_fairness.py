"""The draw's fairness at the larger tables: after the fewest repeated pairs, nobody sits at a
5-table more than once more often than another wherever a draw with as few repeats allows it.

Where no such draw exists, an exhaustive search proves it (the fields of ``KNOWN_SPREAD``); for
21, 22, 23 and 26 players the pigeonhole argument of ``docs/tournaments.md`` shows that no draw
without a repeated pair has an even spread, and the draw finds one with a spread of two.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stichwerk.tournament import (
    WIELANDSTRASSE,
    Round,
    draw_round,
    draw_vorrunde,
    repeated_pairs,
    seats_at,
)
from stichwerk.tournament.bounds import _Exhaustive, lower_bound
from stichwerk.tournament.draw import KNOWN_SPREAD, spread

FITS = WIELANDSTRASSE.fitting_counts()

FEWEST = {8: 8, 10: 18}
"""The fewest repeats where the bounds of ``bounds.lower_bound`` are not reached (exhaustive
search, see ``test_small_fields_reach_the_exact_optimum``)."""

SPREAD_TWO = {21, 22, 23, 26}
"""Fields without an even spread at no repeated pair (pigeonhole, see the module docstring)."""


def fewest_repeats(n: int) -> int:
    return FEWEST.get(n, lower_bound([WIELANDSTRASSE.table_mix(n)] * 3))


def best_spread(n: int) -> int:
    """The least spread of 5-table seats a draw with the fewest repeats has."""
    mix = tuple(sorted(WIELANDSTRASSE.table_mix(n)))
    known = KNOWN_SPREAD.get((4, 3, mix))
    if known is not None:
        return known
    return 2 if n in SPREAD_TWO else 1


def five_seats(rounds: tuple[Round, ...] | list[Round], n: int) -> list[int]:
    seats = seats_at(rounds, (5,))
    return [seats[p] for p in range(n)]


def check_fair(rounds: tuple[Round, ...] | list[Round], n: int) -> None:
    counts = five_seats(rounds, n)
    assert repeated_pairs(rounds) == fewest_repeats(n)
    assert spread(counts) <= best_spread(n), counts
    if best_spread(n) <= 1:
        # nobody at a 5-table twice while another never was
        assert not (max(counts) >= 2 and min(counts) == 0), counts


SMALL = [c for c in FITS if c <= 40]
"""Where the spread is hard to keep even: half the examples are drawn from these."""


@settings(max_examples=30, deadline=None)
@given(n=st.one_of(st.sampled_from(SMALL), st.sampled_from(FITS)), seed=st.integers(0, 10**6))
def test_fewest_repeats_then_an_even_spread_of_5_table_seats(n: int, seed: int) -> None:
    check_fair(draw_vorrunde(WIELANDSTRASSE, n, seed).rounds, n)


@pytest.mark.parametrize(
    ("n", "seed"), [(14, 0), (18, 3), (18, 4), (19, 3), (19, 4), (22, 0), (23, 0), (26, 0)]
)
def test_the_fields_the_old_draw_spread_unevenly(n: int, seed: int) -> None:
    """The reported 14 (its spread of 3 is forced: see the proof below), 18 (where the old
    search traded two repeats for a more even spread: 6 repeats instead of 4), 19 and 23 (one
    player never at a 5-table while others were there three times, where 1..3 is possible)."""
    check_fair(draw_vorrunde(WIELANDSTRASSE, n, seed).rounds, n)


@pytest.mark.parametrize(("n", "seed"), [(9, 0), (14, 0), (19, 1), (23, 0), (30, 0), (35, 0)])
def test_round_by_round_keeps_the_spread_of_the_draw_in_advance(n: int, seed: int) -> None:
    """Rounds drawn one at a time from the history (as the web app draws them) are as fair as
    a Vorrunde drawn in advance (19 players, seed 1: the third round drawn alone had one player
    never at a 5-table)."""
    players = list(range(n))
    rounds: list[Round] = []
    for _ in range(3):
        rounds.append(draw_round(WIELANDSTRASSE, players, rounds, seed=seed))
    check_fair(rounds, n)
    # the same history and seed give the same round
    assert draw_round(WIELANDSTRASSE, players, rounds[:2], seed=seed) == rounds[2]


def test_round_by_round_after_a_withdrawal_still_spreads_the_seats() -> None:
    players = list(range(34))  # 6 4-tables and 2 5-tables
    rounds = [draw_round(WIELANDSTRASSE, players, [], seed=3)]
    players.remove(rounds[0].tables[0][0])  # a 4-table player leaves: 7 4-tables and a 5-table
    for _ in range(2):
        rounds.append(draw_round(WIELANDSTRASSE, players, rounds, seed=3))
    seats = Counter(dict.fromkeys(players, 0)) + seats_at(rounds, (5,))
    counts = [seats[p] for p in players]
    assert max(counts) - min(counts) <= 1
    assert repeated_pairs(rounds) == 0


class _Within(_Exhaustive):
    """Every draw with at most ``most`` repeats whose players' 5-table seats all lie in
    ``lo..hi`` (cut as soon as one has more than ``hi``)."""

    def __init__(self, mix: tuple[int, ...], most: int, lo: int, hi: int) -> None:
        super().__init__([mix] * 3, 4, 10**9, most=most + 1)
        self.lo, self.hi = lo, hi

    def _better(self, cost: int, odd: list[int]) -> bool:
        return max(odd) <= self.hi and cost < self.best[0]

    def _rounds(
        self, meet: list[list[int]], odd: list[int], rounds: list[list[int]], cost: int
    ) -> bool:
        if not rounds:
            if min(odd) >= self.lo:
                self.best = (cost, 0)
            return True
        return super()._rounds(meet, odd, rounds, cost)

    def exists(self, most: int) -> bool:
        found = self.run(most, 0)
        assert found is not None
        return found[0] <= most


@pytest.mark.parametrize(
    "mix",
    [
        pytest.param(mix, marks=pytest.mark.slow) if len(mix) > 3 else mix
        for (_, _, mix) in KNOWN_SPREAD
    ],
)
def test_known_spreads_are_the_least_the_fewest_repeats_allow(mix: tuple[int, ...]) -> None:
    """No draw with the fewest repeats has a smaller spread (exhaustive search over every
    window of seats), and the draw reaches both."""
    n = sum(mix)
    known = KNOWN_SPREAD[4, 3, mix]
    fewest = lower_bound([mix] * 3)
    for lo in range(4 - (known - 1)):
        assert not _Within(mix, fewest, lo, lo + known - 1).exists(fewest), (mix, lo)
    plan = draw_vorrunde(WIELANDSTRASSE, n, seed=1)
    assert (plan.repeats(), spread(five_seats(plan.rounds, n))) == (fewest, known)
