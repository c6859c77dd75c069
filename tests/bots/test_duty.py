"""A seat that owes a Pflicht-Solo weighs the end of the list (``bots/doppelkopf/duty.py``)."""

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stichwerk.bots.base import make_bot
from stichwerk.bots.doppelkopf.duty import (
    chances_after,
    discharge_value,
    discharges,
    loss_of_owing,
    owing_loss,
)
from stichwerk.bots.doppelkopf.knowledge import read
from stichwerk.doppelkopf.profiles import PROFILES
from stichwerk.doppelkopf.record import new_deal

GAINS = st.lists(st.floats(-30, 30, allow_nan=False), min_size=1, max_size=12)


def _by_values(gains: list[float], at_deadline: float | None, chances: int) -> float:
    """The loss of owing by the values of the two ways on: a seat that owes nothing gains
    ``max(X, 0)`` a deal; one that owes takes the better of soloing now and waiting, and at
    the deadline pays the penalty or plays one more deal as a solo whatever its hand."""
    n = len(gains)
    m = sum(max(x, 0.0) for x in gains) / n
    extra = 0 if at_deadline is not None else 1  # the Vorführung is a deal too
    value = -at_deadline if at_deadline is not None else sum(gains) / n
    for j in range(1, chances + 1):
        after = (j - 1 + extra) * m  # what the deals after this one bring once it is played
        value = sum(max(x + after, value) for x in gains) / n
    return (chances + extra) * m - value


@given(GAINS, st.one_of(st.none(), st.floats(0, 20)), st.integers(0, 8))
def test_the_loss_of_owing_is_the_optimal_stopping_value(
    gains: list[float], at_deadline: float | None, chances: int
) -> None:
    loss = loss_of_owing(gains, at_deadline, chances)
    assert loss == pytest.approx(_by_values(gains, at_deadline, chances), abs=1e-6)
    assert 0 <= loss <= loss_of_owing(gains, at_deadline, max(chances - 1, 0)) + 1e-9


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_owing_costs_less_the_more_deals_are_left(profile: str) -> None:
    p = PROFILES[profile]
    forced = p.duty_enforcement == "forced"
    losses = [owing_loss(profile, float(p.duty_penalty), forced, j) for j in range(30)]
    assert all(a >= b for a, b in itertools.pairwise(losses))
    assert losses[0] > losses[-1] > 0
    if not forced:
        assert losses[0] == pytest.approx(p.duty_penalty * 3 / 4)


def _knowledge(profile: str = "wielandstrasse", **duty: Any) -> Any:
    state = new_deal(profile=profile, seed="t0", dealer=0, **duty)
    return read(state.view(1))


def test_the_chances_left_count_the_deals_the_seat_plays_and_the_vorfuehrung() -> None:
    assert chances_after(_knowledge(duty_solo_owed=[1])) is None
    assert chances_after(_knowledge(duty_solo_owed=[1], duty_solo_games_left=1)) == 0
    assert chances_after(_knowledge(duty_solo_owed=[1], duty_solo_games_left=8)) == 7
    # DDV forces the owed solos into the last deals: three seats owe, so 7 - 3 by choice.
    k = _knowledge("ddv", duty_solo_owed=[1, 2, 3], duty_solo_games_left=8)
    assert chances_after(k) == 4
    # At a 5-table the seat sits out the deals it deals.
    state = new_deal(profile="wielandstrasse", seed=1, dealer=0, players=5,
                     duty_solo_owed=[1], duty_solo_games_left=11)  # fmt: skip
    assert chances_after(read(state.view(1))) == 8  # deals 2-11, dealt by 1, 2, 3, 4, 0, ...


def test_only_a_seat_that_owes_by_choice_gains_by_a_solo_now() -> None:
    assert discharge_value(_knowledge()) == 0  # outside a list: as before
    assert discharge_value(_knowledge(duty_solo_owed=[2], duty_solo_games_left=1)) == 0
    forced = _knowledge("ddv", duty_solo_owed=[1], duty_solo_forced=1, duty_solo_games_left=1)
    assert discharge_value(forced) == 0  # vorgeführt: a solo it must be anyway
    last = _knowledge(duty_solo_owed=[1], duty_solo_games_left=1)
    assert discharge_value(last) == pytest.approx(15 * 3 / 4)
    assert discharges(last, "solo-damen") and not discharges(last, "gesund")
    assert not discharges(last, "hochzeit")


# Vorhand's hand of deal "t0" (Wielandstraße): its best solo is worth about 3.3 less than the
# normal game (the search's own valuation, 400 sampled deals).
def _decide(bot: str, games_left: int | None) -> str:
    state = new_deal(profile="wielandstrasse", seed="t0", dealer=0, duty_solo_owed=[1],
                     duty_solo_games_left=games_left)  # fmt: skip
    player = make_bot(bot, "doppelkopf", "duty", worlds=400) if bot == "search" else (
        make_bot(bot, "doppelkopf", "duty"))  # fmt: skip
    return player.act(state.view(1)).act


@pytest.mark.parametrize("bot", ["search", "heuristic"])
def test_a_middling_hand_plays_the_pflicht_solo_when_time_runs_out(bot: str) -> None:
    """The same middling hand: outside a list, or with the Vorrunde ahead, the normal game;
    in the last deal before the penalty of 15, the solo."""
    assert _decide(bot, None) == "gesund"
    assert _decide(bot, 24) == "gesund"
    assert _decide(bot, 1) == "vorbehalt"
