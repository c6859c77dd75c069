"""The JSON the tournament pages read: a tournament's state and a format, links included.

The storage returns plain data (:class:`~stichwerk.tournament.snapshot.TournamentData`) and the
rules of the day compute from it (:mod:`stichwerk.tournament.day`); this module words both for
the pages beside the routes that send them: the players' names beside their numbers, the
tables' list rules, and the links a role may follow (``/s/<token>`` a score sheet,
``/t/<id>`` an online table, ``/tournaments/join/...`` an online seat; the scorer's and the
seats' links only for the director). The command line prints the same JSON.
"""

from collections.abc import Mapping
from typing import Any

from stichwerk.tournament.day import can_undraw, compute, next_step
from stichwerk.tournament.formats import TournamentFormat
from stichwerk.tournament.snapshot import TableRow, TournamentData, results_to_plain
from stichwerk.tournament.standings import Standing
from stichwerk.tournament_tables import rules_of


def format_json(fmt: TournamentFormat) -> dict[str, Any]:
    """A format as the new-tournament page lists it."""
    return {
        "name": fmt.name,
        "game": fmt.game,
        "profile": fmt.profile,
        "rounds": fmt.rounds,
        "final_round": fmt.final_round,
        "table_sizes": list(fmt.table_sizes),
        "games": {str(size): n for size, n in fmt.games},
        "dealer_sits": list(fmt.dealer_sits),
        "duty_solos": fmt.duty_solos,
        "duty_penalty": fmt.duty_penalty,
        "min_players": fmt.min_players,
        "max_players": fmt.max_players,
        "description": fmt.description,
    }


def standing_json(s: Standing, names: Mapping[int, str]) -> dict[str, Any]:
    """A line of the standings or the ranking, with the player's name."""
    return {**s.to_json(), "name": names.get(s.player, f"#{s.player + 1}")}


def table_json(data: TournamentData, t: TableRow, *, director: bool) -> dict[str, Any]:
    """One table of a round: its seating and list rules, what has come in, its links."""
    rules = rules_of(data, t)
    table: dict[str, Any] = {
        "number": t.number,
        "seating": list(t.seating),
        "size": t.size,
        "games": rules.games,
        "sitting_dealer": rules.dealer_sits,
        "duty_owed": list(t.duty_owed) if rules.duty_solos else None,
        "zero_sum": rules.zero_sum,
        "mode": t.mode,
        "entered": t.results is not None,
        "source": t.source,
        "entered_at": t.entered_at.isoformat() if t.entered_at else None,
        "results": results_to_plain(t.results),
        "sheet_changes": t.sheet_changes,
        "follower": f"/s/{t.follower_token}" if t.follower_token else None,
        "web_table": f"/t/{t.web_table_id}" if t.web_table_id else None,
    }
    if director:
        table["scorer"] = f"/s/{t.scorer_token}" if t.scorer_token else None
        codes = (t.online or {}).get("codes")
        table["seat_links"] = (
            [
                None
                if code is None
                else f"/tournaments/join/{data.id}/{t.round}/{t.number}/{seat}/{code}"
                for seat, code in enumerate(codes)
            ]
            if codes
            else None
        )
        table["bots"] = (t.online or {}).get("bots")
    return table


def page_links(data: TournamentData, *, director: bool) -> dict[str, str]:
    """The tournament's own pages a role may open: the read-only page and the projector's,
    and for the director the director's page."""
    links = {
        "public": f"/tournaments/{data.public_token}",
        "projector": f"/tournaments/{data.public_token}/projector",
    }
    if director:
        links["director"] = f"/tournaments/{data.director_token}"
    return links


def state_json(data: TournamentData, *, director: bool) -> dict[str, Any]:
    """The tournament for a page: everything the read-only link shows, and for the director
    the tables' scorer links and online seat links too."""
    names = data.names
    rounds = [
        {
            "number": r.number,
            "final": r.final,
            "label": data.round_label(r.number),
            "by_lot": [list(g) for g in r.by_lot],
            "complete": r.complete,
            "tables": [table_json(data, t, director=director) for t in r.tables],
        }
        for r in data.rounds
    ]
    computed = compute(data)
    out: dict[str, Any] = {
        "tournament": {
            "id": data.id,
            "name": data.name,
            "game": data.game,
            "format": data.format_name,
            "profile": data.profile,
            "date": data.held_on.isoformat(),
            "place": data.place,
            "series": data.series,
            "status": data.status,
            "seq": data.seq,
            "finished_at": data.finished_at.isoformat() if data.finished_at else None,
        },
        "format": format_json(data.fmt),
        "players": [
            {
                "number": p.number,
                "name": p.name,
                "withdrawn": p.withdrawn,
                "withdrawn_after": p.withdrawn_after,
            }
            for p in data.players
        ],
        "rounds": rounds,
        "next": next_step(data).to_json(),
        "can_undraw": can_undraw(data),
        "standings": (
            None
            if computed.standings is None
            else [standing_json(s, names) for s in computed.standings]
        ),
        "ranking": (
            None
            if computed.ranking is None
            else [standing_json(s, names) for s in computed.ranking]
        ),
        "problems": computed.problems,
    }
    if director:
        out["tournament"]["seed"] = data.seed
    return out
