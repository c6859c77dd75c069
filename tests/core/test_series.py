"""The series (Liste): dealer rotation, 5-tables, Pflicht-Soli, redeals, Bock, totals."""

from dataclasses import replace

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import DealOutcome, Series, SeriesRules


def test_rotation_and_totals() -> None:
    s = Series(SeriesRules(seats=4, games=3))
    assert s.deal_args() == {"dealer": 0, "players": 4}
    s.record(DealOutcome(settlement=(2, -2, 2, -2)))
    s.record(DealOutcome(settlement=(0, 0, 0, 0), counts=False, redeal=True))
    assert s.dealer == 1 and s.games_played == 1  # a redeal: the same dealer deals again
    s.record(DealOutcome(settlement=(-1, 1, -1, 1)))
    s.record(DealOutcome(settlement=(3, -3, 3, -3)))
    assert s.is_over and s.totals == [4, -4, 4, -4]
    assert [e.number for e in s.entries] == [1, None, 2, 3]
    assert s.row_sums_ok()
    with pytest.raises(StichwerkError, match="complete"):
        s.deal_args()


def test_five_table_dealer_sits() -> None:
    s = Series(SeriesRules(seats=5, dealer_sits=True, games=10), first_dealer=4)
    assert s.sitting == 4 and s.deal_args()["players"] == 5
    s.record(DealOutcome(settlement=(1, 1, -1, -1, 0)))
    assert s.sitting == 0


def test_pflicht_solo_same_dealer_again_but_not_after_vorfuehrung() -> None:
    rules = SeriesRules(seats=4, games=4, duty_solos=1, duty_enforcement="forced")
    s = Series(rules)
    assert s.deal_args()["duty_solo_owed"] == [0, 1, 2, 3]
    assert s.forced_seat() == 1  # 4 owed, 4 games left: Vorhand is vorgeführt
    s.record(DealOutcome(settlement=(-3, 9, -3, -3), duty_solo_by=1, forced=True))
    assert s.dealer == 1 and s.owed == [1, 0, 1, 1]
    assert s.deal_args()["duty_solo_forced"] == 2
    s = Series(SeriesRules(seats=4, games=8, duty_solos=1))
    s.record(DealOutcome(settlement=(-3, 9, -3, -3), duty_solo_by=1))
    assert s.dealer == 0  # after a Pflicht-Solo the same dealer deals again


def test_penalty_for_a_missing_pflicht_solo() -> None:
    s = Series(SeriesRules(seats=4, games=1, duty_solos=1, duty_penalty=15))
    s.record(DealOutcome(settlement=(5, 0, 5, 0), duty_solo_by=None))
    assert s.penalties() == [-15, -15, -15, -15]
    assert s.final_totals() == [-10, -15, -10, -15]


def test_bock_round_doubles_the_next_round() -> None:
    s = Series(SeriesRules(seats=4, bock=True))
    s.record(DealOutcome(settlement=(1, -1, 1, -1), bock=True))
    assert s.multiplier() == 2
    for _ in range(4):
        entry = s.record(DealOutcome(settlement=(1, -1, 1, -1)))
        assert entry.multiplier == 2
    assert s.multiplier() == 1 and s.totals == [9, -9, 9, -9]


def test_parity_check() -> None:
    s = Series(SeriesRules(seats=4, parity_check=True))
    s.record(DealOutcome(settlement=(3, -1, -1, -1)))
    assert s.parity_ok()
    s.record(DealOutcome(settlement=(1, 0, 0, -1)))
    assert not s.parity_ok()


def test_bad_input() -> None:
    with pytest.raises(StichwerkError, match="one per seat"):
        Series(SeriesRules(seats=4)).record(DealOutcome(settlement=(1, 2)))
    with pytest.raises(StichwerkError, match="first dealer"):
        Series(SeriesRules(seats=4), first_dealer=4)


@pytest.mark.parametrize(("game", "seats"), [("cego", 4), ("cego", 5), ("doppelkopf", 5)])
def test_the_same_series_keeps_either_game(game: str, seats: int) -> None:
    from stichwerk.bots.base import RandomBot
    from stichwerk.games import get_game

    module = get_game(game)
    series = Series(SeriesRules(seats=seats, games=seats, dealer_sits=seats == 5))
    bot = RandomBot(1)
    while not series.is_over:
        state = module.new_deal(profile=module.profiles[0], seed=len(series.entries),
                                **series.deal_args())  # fmt: skip
        assert state.seats == seats
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state.apply(bot.act(state.view(seat)))
        result = state.result()
        assert result is not None
        counts = result.get("counts", True) and "redeal" not in result
        series.record(DealOutcome(tuple(result["score"]["settlement"]), counts=counts))
    assert series.games_played == seats
    assert series.dealer == series.first_dealer  # every seat dealt once


def test_closing_rounds_follow_the_ordinary_games() -> None:
    rules = SeriesRules(seats=4, games=2, closing=("drescher", "pflichtraeuber"))
    assert rules.total_games == 10
    s = Series(rules, first_dealer=3)
    dealt = []
    while not s.is_over:
        args = s.deal_args()
        dealt.append((args["dealer"], args.get("deal_type")))
        s.record(DealOutcome(settlement=(1, -1, 1, -1)))
    # Two ordinary deals, then each seat deals once per round, the rotation going on.
    assert dealt == [
        (3, None),
        (0, None),
        (1, "drescher"),
        (2, "drescher"),
        (3, "drescher"),
        (0, "drescher"),
        (1, "pflichtraeuber"),
        (2, "pflichtraeuber"),
        (3, "pflichtraeuber"),
        (0, "pflichtraeuber"),
    ]
    assert s.games_played == 10 and s.deal_type is None
    rows = s.to_json()["rows"]
    assert [r["deal_type"] for r in rows[1:4]] == [None, "drescher", "drescher"]
    assert s.to_json()["total_games"] == 10


def test_a_closing_deal_that_does_not_count_is_dealt_again_as_the_same_type() -> None:
    s = Series(SeriesRules(seats=3, games=1, closing=("drescher",)))
    s.record(DealOutcome(settlement=(0, 0, 0)))
    assert s.deal_args() == {"dealer": 1, "players": 3, "deal_type": "drescher"}
    s.record(DealOutcome(settlement=(0, 0, 0), counts=False, redeal=True))
    assert s.deal_args() == {"dealer": 1, "players": 3, "deal_type": "drescher"}
    assert s.games_left == 3


def test_closing_rounds_play_no_pflicht_solo_and_need_a_fixed_length() -> None:
    rules = SeriesRules(
        seats=4, games=1, duty_solos=1, duty_enforcement="forced", closing=("drescher",)
    )
    s = Series(rules)
    assert s.forced_seat() == 1  # the owed solos must fit into the one ordinary game
    s.record(DealOutcome(settlement=(-3, 9, -3, -3), duty_solo_by=1, forced=True))
    assert s.forced_seat() is None
    assert "duty_solo_owed" not in s.deal_args()
    with pytest.raises(StichwerkError, match="fixed number"):
        Series(SeriesRules(seats=4, closing=("drescher",)))


def test_games_left_to_the_pflicht_solo_deadline() -> None:
    """While a seat owes a Pflicht-Solo the deal is told how many ordinary games are left to
    the deadline: the list's own, and a tournament's later Vorrunde rounds beyond it."""
    s = Series(SeriesRules(seats=4, games=3, duty_solos=1, duty_games_after=16))
    assert s.deal_args()["duty_solo_games_left"] == 19
    s.record(DealOutcome(settlement=(-3, 9, -3, -3), duty_solo_by=1))
    assert s.deal_args()["duty_solo_games_left"] == 18
    forced = SeriesRules(seats=4, games=3, duty_solos=1, duty_enforcement="forced")
    s = Series(replace(forced, duty_games_after=16))
    assert s.deal_args()["duty_solo_games_left"] == 3  # the Vorführung comes within the list
    s = Series(SeriesRules(seats=4, games=2, duty_solos=1), duty_owed=[0, 0, 0, 0])
    assert "duty_solo_games_left" not in s.deal_args()  # nobody owes one
    s = Series(SeriesRules(seats=4, games=2, closing=("drescher",)), duty_owed=None)
    assert "duty_solo_games_left" not in s.deal_args()  # a list without Pflicht-Soli
