"""A tournament's table as its game and its score sheet know it.

The pure :mod:`stichwerk.tournament` package knows the format (its games per table size, the
sitting dealer, the Pflicht-Soli) but asks no engine; this module joins it to the game through
the registry (:func:`stichwerk.games.get_game`) and to the score sheet
(:mod:`stichwerk.sheet`): a table's list rules, the settings its score sheet is made with, an
online table's ``list_rules``, and a sheet's results read back. The storage calls it when it
draws a round and reads a sheet; the server when it shows a table or seats it online.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.series import SeriesRules
from stichwerk.games import get_game
from stichwerk.sheet import read_settings
from stichwerk.sheet.log import replay
from stichwerk.tournament.formats import TournamentFormat
from stichwerk.tournament.snapshot import TableRow, TournamentData
from stichwerk.tournament.standings import Result, table_results, table_series_rules


def table_rules(fmt: TournamentFormat, profile: str, size: int, round_number: int) -> SeriesRules:
    """The list rules of a table of ``size`` seats in round ``round_number``: the game's own
    for the profile, with the format's games, sitting dealer and Pflicht-Soli."""
    module = get_game(fmt.game)
    if module.series_rules is not None:
        base = module.series_rules(profile, None, size)
    else:
        base = SeriesRules(seats=size, dealer_sits=size == 5)
    return table_series_rules(fmt, base, round_number)


def rules_of(data: TournamentData, table: TableRow) -> SeriesRules:
    """The list rules of one of the day's tables."""
    return table_rules(data.fmt, data.profile, table.size, table.round)


def sheet_settings(
    data: TournamentData,
    round_number: int,
    table_number: int,
    seating: Sequence[int],
    owed: Sequence[int],
) -> dict[str, Any]:
    """The score sheet's settings for a table: the players' names in seat order (the first
    deals first), the format's games and Pflicht-Soli, what each seat still owes."""
    fmt = data.fmt
    rules = table_rules(fmt, data.profile, len(seating), round_number)
    header: dict[str, Any] = {
        "game": fmt.game,
        "profile": data.profile,
        "seats": len(seating),
        "names": [data.names[p] for p in seating],
        "first_dealer": 0,
        "games": rules.games,
        "duty_solos": rules.duty_solos,
        "duty_penalty": rules.duty_penalty,
        "title": data.table_title(round_number, table_number),
    }
    if rules.duty_solos:
        header["duty_owed"] = list(owed)
    settings = read_settings(header)
    if settings.rules().dealer_sits != rules.dealer_sits:
        raise StichwerkError(
            f"the {fmt.name} format's {len(seating)}-tables do not seat the dealer as the "
            f"{fmt.game} score sheet does"
        )
    return settings.to_json()


def online_list_rules(
    fmt: TournamentFormat, profile: str, size: int, round_number: int, owed: Sequence[int]
) -> dict[str, Any]:
    """An online table's ``list_rules``: the round's Pflicht-Soli, each seat's debt and the
    games of the later Vorrunde rounds (the deadline of a Pflicht-Solo owed)."""
    rules = table_rules(fmt, profile, size, round_number)
    return {
        "duty_solos": rules.duty_solos,
        "duty_penalty": rules.duty_penalty,
        "duty_games_after": rules.duty_games_after,
        "duty_owed": list(owed) if rules.duty_solos else None,
    }


def sheet_results(
    table: TableRow, settings: Mapping[str, Any], changes: Iterable[Mapping[str, Any]]
) -> tuple[Result, ...] | None:
    """The table's results from its score sheet (its settings and change log), ``None`` while
    the list is not complete."""
    sheet = replay(settings, changes)
    if not sheet.is_over:
        return None
    return tuple(table_results(table.round, table.seating, sheet.series))
