"""What the tournament tests share: a field of players, typed totals that pass a table's checks,
and the deals of a complete Doppelkopf table's score sheet."""

import random
from typing import Any

from stichwerk.core.rng import seed_to_int
from stichwerk.storage.tournaments import TournamentStore
from stichwerk.tournament.snapshot import TableRow, TournamentData
from stichwerk.tournament.standings import Result
from stichwerk.tournament_tables import table_rules

NAMES = [
    "Anna",
    "Bernd",
    "Clara",
    "Dieter",
    "Emil",
    "Frieda",
    "Gustav",
    "Hanna",
    "Ida",
    "Jakob",
    "Karla",
    "Ludwig",
    "Maria",
    "Nora",
    "Otto",
    "Paula",
    "Quirin",
]


def quick(data: TournamentData, table: TableRow, seed: str) -> list[dict[str, Any]]:
    """Seeded totals a table could have written: plus points for the winners (Wielandstraße),
    or a zero sum (Cego); each seat that owes a Pflicht-Solo plays it now and then."""
    rng = random.Random(seed_to_int(f"{seed}:{table.round}:{table.number}"))
    rules = table_rules(data.fmt, data.profile, table.size, table.round)
    games = rules.games or 0
    if rules.zero_sum:
        points = [int(rng.random() * 9 - 4) * 10 for _ in table.seating[1:]]
        points.insert(0, -sum(points))
    else:
        points = [int(rng.random() * 25) for _ in table.seating]
    out = []
    for seat, drawn in enumerate(points):
        owed = table.duty_owed[seat] if rules.duty_solos else 0
        solos = 1 if owed and rng.random() < 0.5 else 0
        # At most three winners a game; a plus-only seat has a point for each game won and
        # points only with a game won; a zero-sum seat above zero won a game.
        won = int(rng.random() * (3 * games // table.size + 1))
        total = drawn
        if not rules.zero_sum:
            total = drawn + won if won else 0
        elif drawn > 0:
            won = max(won, 1)
        out.append({"points": total, "duty_solos": solos, "games_won": won})
    return out


def play_round(store: TournamentStore, tid: str, seed: str) -> TournamentData:
    """Type in every table of the latest round."""
    data = store.need(tid)
    for table in data.rounds[-1].tables:
        data = store.enter(tid, table.round, table.number, quick(data, table, seed))
    return data


def doko_deals(seats: int, games: int) -> list[dict[str, Any]]:
    """A whole Doppelkopf list of normal games (no solo, so the dealer passes each time): Re
    is two seats that are dealt in, Re's Augen vary."""
    out = []
    for k in range(games):
        dealer = k % seats
        playing = [s for s in range(seats) if not (seats == 5 and s == dealer)]
        re = [playing[k % 4], playing[(k + 1) % 4]]
        out.append({"game_type": "normal", "re": sorted(re), "re_augen": 100 + (k * 17) % 60})
    return out


def results_json(results: list[Result]) -> list[dict[str, Any]]:
    return [
        {"points": r.points, "duty_solos": r.duty_solos, "games_won": r.games_won} for r in results
    ]
