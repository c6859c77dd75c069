"""Whole lists of Doppelkopf deals through the series, played by the heuristic bot."""

import pytest

from stichwerk.bots.doppelkopf.heuristic import DoppelkopfHeuristicBot
from stichwerk.core.series import Series
from stichwerk.doppelkopf.api import series_outcome, series_rules
from stichwerk.doppelkopf.record import new_deal


def play_list(profile: str, seats: int, seed: int) -> Series:
    series = Series(series_rules(profile, seats=seats), first_dealer=seats - 1)
    bots = [DoppelkopfHeuristicBot(s) for s in range(seats)]
    number = 0
    while not series.is_over:
        state = new_deal(profile=profile, seed=f"{seed}-{number}", **series.deal_args())
        number += 1
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))
        result = state.result()
        assert result is not None
        if seats == 5:
            assert result["score"]["settlement"][state.dealer] == 0
        series.record(series_outcome(result))
    return series


def test_ddv_list_forces_every_pflicht_solo() -> None:
    series = play_list("ddv", 4, 1)
    assert series.games_played == 24
    assert series.owed == [0, 0, 0, 0]  # the missing ones were vorgeführt at the end
    assert series.row_sums_ok() and series.parity_ok()
    assert any(e.outcome.forced for e in series.entries)


@pytest.mark.parametrize("seats", [4, 5])
def test_wielandstrasse_list_fines_missing_pflicht_soli(seats: int) -> None:
    series = play_list("wielandstrasse", seats, 2)
    assert series.games_played == (8 if seats == 4 else 10)
    assert series.penalties() == [-15 * n for n in series.owed]
    assert all(v >= 0 for e in series.entries for v in e.written)
