"""Formats as data: table mixes, refused player counts, the two built-in formats, variants."""

from dataclasses import replace

import pytest

from stichwerk.core.errors import StichwerkError
from stichwerk.tournament import SWM, WIELANDSTRASSE, PlayerCountError, get_format


def test_the_two_formats_say_what_the_rulings_say() -> None:
    w = WIELANDSTRASSE
    assert (w.game, w.profile, w.rounds) == ("doppelkopf", "wielandstrasse", 3)
    assert (w.games_at(4), w.games_at(5)) == (8, 10)
    assert w.sitting_dealer(5) and not w.sitting_dealer(4)
    assert (w.duty_solos, w.duty_penalty, w.final_duty_solos) == (1, 15, 0)
    assert w.final_round and not w.title_table_carries and w.others_carry
    assert w.tie_breaks == ("final", "preliminary", "games_won")
    assert (w.ranking_points, w.shared_points) == ("n-p+1", "best")
    s = SWM
    assert (s.game, s.profile, s.table_sizes, s.rounds) == ("cego", "schwarzwald", (4,), 2)
    assert s.games_at(4) == 24 and s.games_at(5) == 0
    assert not s.final_round and s.duty_solos == 0


@pytest.mark.parametrize(
    ("n", "mix"),
    [
        (8, (4, 4)),
        (9, (4, 5)),
        (10, (5, 5)),
        (12, (4, 4, 4)),
        (13, (4, 4, 5)),
        (14, (4, 5, 5)),
        (15, (5, 5, 5)),
        (19, (4, 5, 5, 5)),
        (23, (4, 4, 5, 5, 5)),
        (200, (4,) * 50),
    ],
)
def test_as_many_4_tables_as_fit(n: int, mix: tuple[int, ...]) -> None:
    assert WIELANDSTRASSE.table_mix(n) == mix
    assert sum(mix) == n


@pytest.mark.parametrize(
    ("n", "why"),
    [
        (6, "6 players cannot be seated at 4- and 5-player tables: "
            "1 table seats 4 or 5 players, 2 tables seat 8 to 10"),
        (7, "7 players cannot be seated at 4- and 5-player tables: "
            "1 table seats 4 or 5 players, 2 tables seat 8 to 10"),
        (11, "11 players cannot be seated at 4- and 5-player tables: "
             "2 tables seat 8 to 10 players, 3 tables seat 12 to 15"),
    ],
)  # fmt: skip
def test_6_7_and_11_players_are_refused_with_the_reason(n: int, why: str) -> None:
    with pytest.raises(PlayerCountError) as err:
        WIELANDSTRASSE.check_players(n)
    assert str(err.value) == why
    assert WIELANDSTRASSE.why_not(n) == why
    assert not WIELANDSTRASSE.fits(n)


def test_every_other_count_from_8_to_200_fits() -> None:
    assert WIELANDSTRASSE.fitting_counts() == [n for n in range(8, 201) if n != 11]
    assert SWM.fitting_counts() == list(range(8, 201, 4))


def test_limits_of_the_format() -> None:
    with pytest.raises(PlayerCountError, match="needs at least 8 players, not 5"):
        WIELANDSTRASSE.check_players(5)
    with pytest.raises(PlayerCountError, match="seats at most 200 players, not 204"):
        WIELANDSTRASSE.check_players(204)
    with pytest.raises(PlayerCountError, match="a tournament needs players, not 0"):
        WIELANDSTRASSE.check_players(0)
    with pytest.raises(PlayerCountError, match="4-player tables only: 12 or 16 players would fit"):
        SWM.check_players(14)
    # an Endrunde after withdrawals may seat fewer than a tournament starts with
    assert WIELANDSTRASSE.table_mix(5) == (5,)


def test_a_club_variant_is_data() -> None:
    club = replace(WIELANDSTRASSE, name="club", duty_penalty=20, table_sizes=(4,), games=((4, 12),))
    assert club.duty_penalty == 20 and club.table_mix(12) == (4, 4, 4)
    assert "cannot be seated at 4-player tables only" in str(club.why_not(13))
    fixed = replace(WIELANDSTRASSE, ranking_points="table", points_table=(10, 6, 3))
    assert fixed.ranking_points == "table"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tie_breaks": ("final", "luck")}, "unknown tie-break 'luck'"),
        ({"ranking_points": "n-p"}, "unknown ranking points rule 'n-p'"),
        ({"ranking_points": "table"}, "needs a points_table"),
        ({"shared_points": "split"}, "unknown rule for shared places 'split'"),
        ({"games": ((4, 8),)}, "no games for a 5-table"),
        ({"rounds": 0}, "at least one round"),
        ({"duty_penalty": -1}, "cannot be negative"),
        ({"table_sizes": (4, 4)}, "each table size once"),
        ({"min_players": 20, "max_players": 10}, "min_players <= max_players"),
    ],
)
def test_a_broken_variant_is_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(StichwerkError, match=message):
        replace(WIELANDSTRASSE, **change)  # type: ignore[arg-type]


def test_get_format() -> None:
    assert get_format("swm") is SWM
    with pytest.raises(StichwerkError, match=r"unknown tournament format 'x' \(known: "):
        get_format("x")
