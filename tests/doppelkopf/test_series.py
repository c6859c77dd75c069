"""Whole lists of Doppelkopf deals through the series, played by the heuristic bot."""

import pytest

from stichwerk.bots.doppelkopf.heuristic import DoppelkopfHeuristicBot
from stichwerk.core.series import Series
from stichwerk.doppelkopf.api import series_outcome, series_rules
from stichwerk.doppelkopf.record import new_deal


def play_list(profile: str, seats: int, seed: int, duty: bool = True) -> Series:
    series = Series(series_rules(profile, seats=seats), first_dealer=seats - 1)
    bots = [DoppelkopfHeuristicBot(s, duty=duty) for s in range(seats)]
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


def _duty_solos(series: Series) -> tuple[int, int]:
    """Pflicht-Soli of the list played by choice, and vorgeführt."""
    forced = sum(e.outcome.forced for e in series.entries)
    return sum(e.outcome.duty_solo_by is not None for e in series.entries) - forced, forced


def test_ddv_list_forces_every_pflicht_solo() -> None:
    """Bots that do not weigh the end of the list leave their Pflicht-Soli to the Vorführung;
    bots that do play more of them by choice. Either way every one is played."""
    lists = {duty: play_list("ddv", 4, 1, duty=duty) for duty in (False, True)}
    for series in lists.values():
        assert series.games_played == 24
        assert series.owed == [0, 0, 0, 0]  # the missing ones were vorgeführt at the end
        assert series.row_sums_ok() and series.parity_ok()
        assert sum(_duty_solos(series)) == 4
    assert _duty_solos(lists[False])[1] >= 3
    assert _duty_solos(lists[True])[0] > _duty_solos(lists[False])[0]


@pytest.mark.parametrize("seats", [4, 5])
def test_wielandstrasse_list_fines_missing_pflicht_soli(seats: int) -> None:
    series = play_list("wielandstrasse", seats, 2)
    assert series.games_played == (8 if seats == 4 else 10)
    assert series.penalties() == [-15 * n for n in series.owed]
    assert all(v >= 0 for e in series.entries for v in e.written)
