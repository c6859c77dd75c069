"""Property tests over player counts, withdrawals and results."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from stichwerk.tournament import (
    SWM,
    WIELANDSTRASSE,
    Result,
    Round,
    TournamentFormat,
    draw_round,
    draw_vorrunde,
    final_ranking,
    seat_endrunde,
    vorrunde_standings,
)

FITS = WIELANDSTRASSE.fitting_counts()

# The properties hold however hard the search tries, so it tries little here.
EFFORT = 0.02


@settings(max_examples=30, deadline=None)
@given(n=st.sampled_from(FITS), seed=st.integers(0, 10**6))
def test_a_plan_seats_everyone_once_per_round_and_is_reproducible(n: int, seed: int) -> None:
    plan = draw_vorrunde(WIELANDSTRASSE, n, seed, effort=EFFORT)
    mix = sorted(WIELANDSTRASSE.table_mix(n))
    assert len(plan.rounds) == 3
    for rnd in plan.rounds:
        assert sorted(rnd.players()) == list(range(n))
        assert sorted(len(t) for t in rnd.tables) == mix
    assert draw_vorrunde(WIELANDSTRASSE, n, seed, effort=EFFORT) == plan


@settings(max_examples=25, deadline=None)
@given(data=st.data(), n=st.sampled_from([c for c in FITS if c <= 60]))
def test_round_by_round_with_withdrawals(data: st.DataObject, n: int) -> None:
    players = list(range(n))
    rounds: list[Round] = []
    for _ in range(3):
        # someone may leave before the round, as long as the rest can still be seated
        leaving = data.draw(st.lists(st.sampled_from(players), max_size=3, unique=True))
        rest = [p for p in players if p not in leaving]
        if WIELANDSTRASSE.fits(len(rest)):
            players = rest
        rnd = draw_round(WIELANDSTRASSE, players, rounds, seed=n, effort=EFFORT)
        assert sorted(rnd.players()) == players
        assert draw_round(WIELANDSTRASSE, players, rounds, seed=n, effort=EFFORT) == rnd
        rounds.append(rnd)


def random_vorrunde(
    fmt: TournamentFormat, players: list[int], rng: random.Random, withdrawn: set[int]
) -> list[Result]:
    results = []
    for p in players:
        solo_round = rng.choice([1, 2, 3, None]) if fmt.duty_solos else None
        last = rng.randint(1, fmt.rounds) if p in withdrawn else fmt.rounds
        for r in range(1, last + 1):
            points = rng.choice([0, 0, 3, 5, 8, 12, 20, 24]) if rng.random() < 0.8 else 10
            results.append(Result(r, p, points, int(r == solo_round), rng.randint(0, 4)))
    return results


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([c for c in FITS if c <= 40]), seed=st.integers(0, 10**6))
def test_every_player_is_ranked_once_whatever_the_entry_order(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(100, 100 + n))
    withdrawn = {p for p in players if rng.random() < 0.1}
    if not WIELANDSTRASSE.fits(n - len(withdrawn)) and n - len(withdrawn) not in (4, 5):
        withdrawn = set()
    results = random_vorrunde(WIELANDSTRASSE, players, rng, withdrawn)
    seating = seat_endrunde(WIELANDSTRASSE, players, results, withdrawn, seed=seed)
    for p in seating.round.players():
        # the Endrunde's points: equal ones are frequent, so ties are tried often
        results.append(Result(4, p, rng.choice([0, 4, 4, 8]), 0, rng.randint(0, 2)))
    ranking = final_ranking(WIELANDSTRASSE, players, results, seating.round, withdrawn)

    assert sorted(s.player for s in ranking) == players
    places = [s.place for s in ranking]
    assert places[0] == 1
    assert places == [1 + sum(1 for q in places if q < p) for p in places]
    assert all(s.ranking_points == n - s.place + 1 for s in ranking)
    assert [s.withdrawn for s in ranking] == sorted(s.withdrawn for s in ranking)

    shuffled = list(results)
    rng.shuffle(shuffled)
    assert final_ranking(WIELANDSTRASSE, players, shuffled, seating.round, withdrawn) == ranking
    assert vorrunde_standings(WIELANDSTRASSE, players, shuffled, withdrawn) == (
        vorrunde_standings(WIELANDSTRASSE, players, results, withdrawn)
    )
    assert seat_endrunde(WIELANDSTRASSE, players, shuffled, withdrawn, seed=seed) == seating


@settings(max_examples=20, deadline=None)
@given(n=st.sampled_from(SWM.fitting_counts()[:8]), seed=st.integers(0, 10**6))
def test_swm_standing_is_the_sum_and_independent_of_order(n: int, seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(n))
    results = [
        Result(r, p, rng.randint(-300, 300), games_won=rng.randint(0, 12))
        for r in (1, 2)
        for p in players
    ]
    ranking = final_ranking(SWM, players, results)
    totals = {p: sum(r.points for r in results if r.player == p) for p in players}
    assert {s.player: s.score for s in ranking} == totals
    assert [s.score for s in ranking] == sorted(totals.values(), reverse=True)
    rng.shuffle(results)
    assert final_ranking(SWM, players, results) == ranking
