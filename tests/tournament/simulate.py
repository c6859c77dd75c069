"""Whole tournaments played out through the engines: every table's list is a core ``Series`` of
deals dealt by the game and played by bots (the heuristic bot at a few tables, seeded random
legal play at the rest, so a 40-player tournament takes seconds)."""

import random
from dataclasses import dataclass, field
from typing import Any

from stichwerk.bots.base import Bot, make_bot
from stichwerk.core.action import Action
from stichwerk.core.rng import seed_to_int
from stichwerk.core.series import DealOutcome, Series, SeriesRules
from stichwerk.core.state import GameState
from stichwerk.games import get_game
from stichwerk.tournament import (
    EndrundeSeating,
    Result,
    Round,
    Seating,
    Standing,
    TournamentFormat,
    draw_round,
    draw_vorrunde,
    duty_owed,
    final_ranking,
    seat_endrunde,
    table_results,
    table_series_rules,
)


def random_action(state: GameState, rng: random.Random) -> Action:
    """A random legal action; at Doppelkopf's reservations mostly *gesund*, so that solos (and
    with them Pflicht-Soli) come now and then, as at a real table."""
    legal = state.legal_actions()
    if getattr(state, "phase", None) == "reservations" and rng.random() < 0.85:
        healthy = [a for a in legal if a.act == "gesund"]
        if healthy:
            return healthy[0]
    return legal[int(rng.random() * len(legal))]


def play_table(
    fmt: TournamentFormat,
    round_number: int,
    seating: Seating,
    owed: list[int],
    seed: str,
    *,
    heuristic: bool = False,
) -> Series:
    """One table's whole list for the round, the first seat dealing first."""
    game = get_game(fmt.game)
    size = len(seating)
    make_rules = game.series_rules
    base = make_rules(fmt.profile, None, size) if make_rules else SeriesRules(seats=size)
    rules = table_series_rules(fmt, base, round_number)
    series = Series(
        rules,
        players=[str(p) for p in seating],
        duty_owed=list(owed) if rules.duty_solos else None,
    )
    outcome_of = game.series_outcome
    rng = random.Random(seed_to_int(seed))
    bots: list[Bot] = (
        [make_bot("heuristic", fmt.game, f"{seed}-{s}") for s in range(size)] if heuristic else []
    )
    number = 0
    while not series.is_over:
        state = game.new_deal(profile=fmt.profile, seed=f"{seed}-{number}", **series.deal_args())
        number += 1
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)) if bots else random_action(state, rng))
        result = state.result()
        assert result is not None
        if outcome_of is not None:
            outcome = outcome_of(result)
        else:
            outcome = DealOutcome(settlement=tuple(result["score"]["settlement"]))
        series.record(outcome)
    return series


@dataclass
class PlayedTable:
    round: int
    seating: Seating
    series: Series
    owed: list[int]


@dataclass
class Simulation:
    """What happened: the rounds drawn, every table's list, the results and the ranking."""

    fmt: TournamentFormat
    players: list[int]
    rounds: list[Round] = field(default_factory=list)
    tables: list[PlayedTable] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    withdrawn: set[int] = field(default_factory=set)
    endrunde: EndrundeSeating | None = None
    ranking: list[Standing] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def simulate(
    fmt: TournamentFormat,
    n: int,
    seed: str,
    *,
    heuristic_tables: int = 1,
    withdraw: dict[int, int] | None = None,
    in_advance: bool = False,
) -> Simulation:
    """Play a whole tournament of ``n`` players; ``withdraw``: player -> the round after which
    he leaves (the later rounds are then drawn round by round without him)."""
    sim = Simulation(fmt, list(range(n)))
    withdraw = withdraw or {}
    plan = draw_vorrunde(fmt, n, seed) if in_advance else None
    for r in range(1, fmt.rounds + 1):
        active = [p for p in sim.players if p not in sim.withdrawn]
        rnd = plan.rounds[r - 1] if plan else draw_round(fmt, active, sim.rounds, seed)
        sim.rounds.append(rnd)
        play_round(sim, rnd, seed, heuristic_tables if r == 1 else 0)
        sim.withdrawn |= {p for p, after in withdraw.items() if after == r}
    endrunde = None
    if fmt.final_round:
        sim.endrunde = seat_endrunde(fmt, sim.players, sim.results, sim.withdrawn, seed)
        endrunde = sim.endrunde.round
        play_round(sim, endrunde, seed, 0)
    sim.ranking = final_ranking(fmt, sim.players, sim.results, endrunde, sim.withdrawn)
    return sim


def play_round(sim: Simulation, rnd: Round, seed: str, heuristic_tables: int) -> None:
    for t, seating in enumerate(rnd.tables):
        owed = [duty_owed(sim.fmt, sim.results, p) for p in seating]
        series = play_table(
            sim.fmt,
            rnd.number,
            seating,
            owed,
            f"{seed}-{rnd.number}-{t}",
            heuristic=t < heuristic_tables,
        )
        sim.tables.append(PlayedTable(rnd.number, seating, series, owed))
        sim.results += table_results(rnd.number, seating, series)
