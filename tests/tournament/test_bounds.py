"""The lower bounds and the exhaustive search the draw is measured against."""

import pytest

from stichwerk.tournament.bounds import (
    counting_bound,
    exact_minimum,
    exact_optimum,
    fairest_spread,
    lower_bound,
    pigeonhole_bound,
    spread_pairs,
    unfairness,
)


def test_spread_pairs() -> None:
    assert [spread_pairs(4, g) for g in (1, 2, 3, 4, 5)] == [6, 2, 1, 0, 0]
    assert [spread_pairs(5, g) for g in (2, 3, 4, 5)] == [4, 2, 1, 0]


def test_counting_bound() -> None:
    # 8 players at 4-tables: 9 meetings each over 3 rounds, 7 others: 2 repeats each
    assert counting_bound([[4, 4]] * 3) == 8
    # 9 players: three 5-table seats per round go to those with room; 12 in all
    assert counting_bound([[4, 5]] * 3) == 12
    assert counting_bound([[4, 4, 4, 4]] * 3) == 0
    assert counting_bound([]) == 0


def test_pigeonhole_bound() -> None:
    assert pigeonhole_bound([[4, 4, 4]] * 3) == 6  # each later table: two from one table
    assert pigeonhole_bound([[4, 4, 4, 5]] * 3) == 2  # the 5-table, twice
    assert pigeonhole_bound([[4] * 5] * 3) == 0
    assert pigeonhole_bound([[4, 4]]) == 0


@pytest.mark.parametrize(
    ("mix", "fewest"),
    [((4, 4), 8), ((4, 5), 12), ((5, 5), 18), ((4, 4, 4), 6), ((4, 4, 5), 8)],
)
def test_exact_minimum(mix: tuple[int, ...], fewest: int) -> None:
    assert exact_minimum([mix] * 3) == fewest
    assert lower_bound([mix] * 3) <= fewest


def test_exact_search_beats_the_simple_bounds_where_they_are_loose() -> None:
    # ten players at two 5-tables: the bounds say 16, no draw has fewer than 18
    assert lower_bound([[5, 5]] * 3) == 16
    assert exact_minimum([[5, 5]] * 3) == 18


def test_exact_search_gives_up_beyond_its_budget() -> None:
    assert exact_minimum([[4, 4, 4, 5]] * 3, node_limit=1_000) is None
    assert exact_optimum([[4, 4, 4, 5]] * 3, 4, node_limit=1_000) is None


def test_exact_optimum_with_the_spread_of_5_table_seats() -> None:
    # nine players: 12 repeats force someone to the 5-table in every round
    best = exact_optimum([[4, 5]] * 3, preferred=4)
    assert best == (12, 87)
    assert best[1] > fairest_spread([[4, 5]] * 3, preferred=4)
    assert exact_optimum([[4, 4]] * 3, preferred=4) == (8, 0)


def test_unfairness_prefers_the_even_spread() -> None:
    assert unfairness([1, 1, 1, 1]) < unfairness([2, 1, 1, 0]) < unfairness([2, 2, 0, 0])
    assert unfairness([2, 2, 2, 0, 0, 0]) < unfairness([3, 1, 1, 1, 0, 0])
    assert fairest_spread([[4, 4, 4, 5]] * 3, preferred=4) == 15  # 15 seats, 17 players
