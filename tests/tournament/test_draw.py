"""The draw: valid rounds, reproducible, as few repeated pairs as can be, 5-table seats spread."""

import random
from collections import Counter

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.tournament import (
    SWM,
    WIELANDSTRASSE,
    PlayerCountError,
    Round,
    draw_round,
    draw_vorrunde,
    exact_optimum,
    repeated_pairs,
    seats_at,
    unfairness,
)


def check_round(rnd: Round, players: list[int], mix: tuple[int, ...]) -> None:
    seated = rnd.players()
    assert sorted(seated) == sorted(players)
    assert sorted(len(t) for t in rnd.tables) == sorted(mix)
    sizes = [len(t) for t in rnd.tables]
    assert sizes == sorted(sizes)  # 4-tables first


@pytest.mark.parametrize("n", [8, 9, 10, 13, 19, 26, 57, 120])
def test_every_round_seats_everyone_once(n: int) -> None:
    plan = draw_vorrunde(WIELANDSTRASSE, n, seed=n)
    assert [r.number for r in plan.rounds] == [1, 2, 3]
    for rnd in plan.rounds:
        check_round(rnd, list(range(n)), WIELANDSTRASSE.table_mix(n))
    assert plan.to_json() == {"rounds": [[list(t) for t in r.tables] for r in plan.rounds]}


def test_the_same_seed_gives_the_same_plan_and_another_seed_another() -> None:
    one = draw_vorrunde(WIELANDSTRASSE, 40, seed="club 2025")
    assert draw_vorrunde(WIELANDSTRASSE, 40, seed="club 2025") == one
    assert draw_vorrunde(WIELANDSTRASSE, 40, seed="club 2026") != one
    assert draw_vorrunde(WIELANDSTRASSE, 9, seed=3) == draw_vorrunde(WIELANDSTRASSE, 9, seed="3")


def test_a_seed_draws_the_same_plan_on_every_machine() -> None:
    # The search uses only random.Random.random and plain arithmetic (no math.exp), so this plan
    # is the same on every machine and Python version.
    assert draw_vorrunde(WIELANDSTRASSE, 13, seed="golden").to_json() == {
        "rounds": GOLDEN_13,
    }


GOLDEN_13 = [
    [[1, 4, 7, 12], [11, 8, 6, 5], [2, 10, 9, 0, 3]],
    [[5, 12, 2, 0], [1, 9, 7, 8], [6, 10, 3, 4, 11]],
    [[8, 2, 0, 4], [9, 11, 12, 6], [3, 1, 7, 5, 10]],
]


@pytest.mark.parametrize("n", [16, 20, 21, 22, 24, 25, 27, 30, 33, 40, 64, 101, 200])
def test_no_repeated_pair_where_the_field_allows(n: int) -> None:
    assert draw_vorrunde(WIELANDSTRASSE, n, seed=1).repeats() == 0


@pytest.mark.parametrize("n", [8, 9, 10, 12, 13])
def test_small_fields_reach_the_exact_optimum(n: int) -> None:
    """Fewest repeats, and among those the most even spread of 5-table seats, as an exhaustive
    search over all draws finds them."""
    plan = draw_vorrunde(WIELANDSTRASSE, n, seed=7)
    seats = seats_at(plan.rounds, (5,))
    mine = (plan.repeats(), unfairness(seats[p] for p in range(n)))
    assert mine == exact_optimum([WIELANDSTRASSE.table_mix(n)] * 3, preferred=4)


@pytest.mark.parametrize("n", [25, 27, 29, 30, 31, 34, 38, 39, 45, 50, 101])
def test_nobody_at_a_5_table_twice_while_another_never_was(n: int) -> None:
    plan = draw_vorrunde(WIELANDSTRASSE, n, seed=2)
    seats = seats_at(plan.rounds, (5,))
    counts = [seats[p] for p in range(n)]
    assert max(counts) - min(counts) <= 1
    assert plan.repeats() == 0


def random_draw(n: int, mix: tuple[int, ...], rounds: int, rng: random.Random) -> list[Round]:
    out = []
    for r in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        tables, i = [], 0
        for size in mix:
            tables.append(tuple(order[i : i + size]))
            i += size
        out.append(Round(r + 1, tuple(tables)))
    return out


@pytest.mark.parametrize("n", [9, 13, 17, 18, 21, 26])
def test_never_worse_than_the_best_of_many_random_draws(n: int) -> None:
    mix = WIELANDSTRASSE.table_mix(n)
    rng = random.Random(n)
    best = min(repeated_pairs(random_draw(n, mix, 3, rng)) for _ in range(300))
    assert draw_vorrunde(WIELANDSTRASSE, n, seed=5).repeats() <= best


def test_players_are_numbers_of_any_kind() -> None:
    field = [101, 7, 55, 23, 9, 1000, 12, 14, 3]
    plan = draw_vorrunde(WIELANDSTRASSE, field, seed=1)
    for rnd in plan.rounds:
        check_round(rnd, field, (4, 5))
    with pytest.raises(StichwerkError, match="listed twice"):
        draw_vorrunde(WIELANDSTRASSE, [1, 2, 3, 4, 5, 6, 7, 1], seed=1)


def test_refused_counts_in_advance() -> None:
    for n in (6, 7, 11, 201):
        with pytest.raises(PlayerCountError):
            draw_vorrunde(WIELANDSTRASSE, n)


def test_round_by_round_meets_few_old_opponents() -> None:
    players = list(range(24))
    rounds: list[Round] = []
    for number in (1, 2, 3):
        rnd = draw_round(WIELANDSTRASSE, players, rounds, seed="rbr")
        assert rnd.number == number
        check_round(rnd, players, (4,) * 6)
        rounds.append(rnd)
    assert repeated_pairs(rounds) == 0
    # the same history and seed give the same round
    assert draw_round(WIELANDSTRASSE, players, rounds[:2], seed="rbr") == rounds[2]
    with pytest.raises(StichwerkError, match="has 3 rounds, all drawn"):
        draw_round(WIELANDSTRASSE, players, rounds, seed="rbr")


def test_after_a_withdrawal_the_others_are_seated_anew() -> None:
    players = list(range(17))
    first = draw_round(WIELANDSTRASSE, players, [], seed="w")
    assert sorted(len(t) for t in first.tables) == [4, 4, 4, 5]
    left = [p for p in players if p != 5]
    second = draw_round(WIELANDSTRASSE, left, [first], seed="w")
    check_round(second, left, (4, 4, 4, 4))
    # the first round's 5-table cannot be spread over four tables: one pair meets again, and
    # only one
    assert repeated_pairs([first, second]) == 1


def test_a_withdrawal_that_leaves_no_fitting_mix_says_so() -> None:
    players = list(range(12))
    first = draw_round(WIELANDSTRASSE, players, [], seed="w")
    with pytest.raises(PlayerCountError, match="11 players cannot be seated"):
        draw_round(WIELANDSTRASSE, players[1:], [first], seed="w")


def test_round_by_round_spreads_5_table_seats_over_the_history() -> None:
    players = list(range(26))
    rounds: list[Round] = []
    for _ in range(3):
        rounds.append(draw_round(WIELANDSTRASSE, players, rounds, seed=4))
    seats = Counter(dict.fromkeys(players, 0)) + seats_at(rounds, (5,))
    assert max(seats[p] for p in players) <= 2
    assert repeated_pairs(rounds) == 0


def test_swm_two_passes_at_4_tables() -> None:
    plan = draw_vorrunde(SWM, 32, seed=1)
    assert len(plan.rounds) == 2
    for rnd in plan.rounds:
        check_round(rnd, list(range(32)), (4,) * 8)
    assert plan.repeats() == 0
    # eight players: the second pass cannot avoid two pairs per table
    assert draw_vorrunde(SWM, 8, seed=1).repeats() == 4
