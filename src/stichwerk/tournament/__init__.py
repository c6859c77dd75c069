"""Tournaments: formats, the draw, standings and ranking lists, as pure functions over plain data.

The words of the Wielandstraße rules (seed 004, VI), used as names here:

- *Vorrunde*: the group rounds before the final round, each at tables drawn anew;
- *Endrunde*: the final round, seated by the Vorrunde's ranking (the best at the title table);
- *Spielplan*: the draw, who sits at which table in which round (:mod:`.draw`);
- *Pflicht-Solo*: the solo every player owes in the Vorrunde (missing: points off);
- *Fünfertisch*: a 5-table, where the dealer sits out each game;
- *Rangliste*, *Ranglistenpunkte*: the ranking list across tournaments and its points;
  the *Ewige Rangliste* is the all-time list.

Nothing here touches a database, the server or the web: the storage keeps players, draws and
results and calls these functions (:mod:`.formats`, :mod:`.draw`, :mod:`.bounds`,
:mod:`.standings`, :mod:`.lists`). A day as the storage read it is a snapshot of plain data
(:mod:`.snapshot`); the director's input is cleaned by :mod:`.cleaning` and checked against
the day by :mod:`.day` (what may change now, what comes next, what a correction leaves
behind). ``docs/tournaments.md`` is the director's guide.
"""

from stichwerk.tournament.bounds import exact_minimum, exact_optimum, lower_bound, unfairness
from stichwerk.tournament.draw import (
    Plan,
    Player,
    Round,
    Seating,
    draw_round,
    draw_vorrunde,
    meetings,
    repeated_pairs,
    seats_at,
)
from stichwerk.tournament.formats import (
    FORMATS,
    SWM,
    WIELANDSTRASSE,
    PlayerCountError,
    TournamentFormat,
    get_format,
)
from stichwerk.tournament.lists import (
    ListEntry,
    PastResult,
    all_time_list,
    five_year_list,
    ranking_list,
    read_results_csv,
    results_of_ranking,
    write_list_csv,
    write_results_csv,
)
from stichwerk.tournament.standings import (
    EndrundeSeating,
    Result,
    Standing,
    duty_owed,
    final_ranking,
    place_points,
    seat_endrunde,
    table_results,
    table_series_rules,
    vorrunde_standings,
)

__all__ = [
    "FORMATS",
    "SWM",
    "WIELANDSTRASSE",
    "EndrundeSeating",
    "ListEntry",
    "PastResult",
    "Plan",
    "Player",
    "PlayerCountError",
    "Result",
    "Round",
    "Seating",
    "Standing",
    "TournamentFormat",
    "all_time_list",
    "draw_round",
    "draw_vorrunde",
    "duty_owed",
    "exact_minimum",
    "exact_optimum",
    "final_ranking",
    "five_year_list",
    "get_format",
    "lower_bound",
    "meetings",
    "place_points",
    "ranking_list",
    "read_results_csv",
    "repeated_pairs",
    "results_of_ranking",
    "seat_endrunde",
    "seats_at",
    "table_results",
    "table_series_rules",
    "unfairness",
    "vorrunde_standings",
    "write_list_csv",
    "write_results_csv",
]
