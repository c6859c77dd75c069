"""A tournament's table joined to its game and its score sheet (``stichwerk.tournament_tables``)."""

from dataclasses import replace

from stichwerk.tournament.formats import SWM, WIELANDSTRASSE
from stichwerk.tournament_tables import online_list_rules, sheet_settings, table_rules
from tests.tournament.test_day import day


def test_a_tables_rules_are_the_games_with_the_formats_games_and_pflicht_soli() -> None:
    five = table_rules(WIELANDSTRASSE, "wielandstrasse", 5, 1)
    assert (five.seats, five.games, five.dealer_sits, five.duty_solos) == (5, 10, True, 1)
    four = table_rules(WIELANDSTRASSE, "wielandstrasse", 4, 3)
    assert (four.games, four.dealer_sits, four.duty_games_after) == (8, False, 0)
    final = table_rules(WIELANDSTRASSE, "wielandstrasse", 4, 4)
    assert final.duty_solos == 0
    cego = table_rules(SWM, "schwarzwald", 4, 1)
    assert (cego.games, cego.duty_solos, cego.zero_sum) == (24, 0, True)


def test_a_tables_score_sheet_names_its_players_in_seat_order_and_its_table() -> None:
    data = day()
    settings = sheet_settings(data, 2, 3, (5, 0, 7, 2), (1, 0, 1, 1))
    assert settings["names"] == ["Frieda", "Anna", "Hanna", "Clara"]
    assert settings["title"] == "Frühjahrsturnier · Runde 2 · Tisch 3"
    assert settings["duty_owed"] == [1, 0, 1, 1]
    assert settings["games"] == 8
    final = sheet_settings(data, 4, 1, (5, 0, 7, 2), (0, 0, 0, 0))
    assert final["title"] == "Frühjahrsturnier · Endrunde · Tisch 1"
    long = replace(data, name="x" * 120)
    assert len(sheet_settings(long, 1, 1, (0, 1, 2, 3), (1, 1, 1, 1))["title"]) == 120


def test_an_online_tables_list_rules_carry_the_debts_only_where_owed() -> None:
    rules = online_list_rules(WIELANDSTRASSE, "wielandstrasse", 4, 1, (1, 1, 0, 1))
    assert rules["duty_owed"] == [1, 1, 0, 1] and rules["duty_solos"] == 1
    assert online_list_rules(SWM, "schwarzwald", 4, 1, (0, 0, 0, 0))["duty_owed"] is None
