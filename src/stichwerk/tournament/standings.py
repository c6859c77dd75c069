"""Standings: the Vorrunde totals, the Endrunde's seating, the final ranking, ranking points.

What a table reports per player and round is a :class:`Result` (its score sheet's total, the
Pflicht-Soli played there, the games won there); :func:`table_results` reads them off a
finished :class:`~stichwerk.core.series.Series`. Everything here is computed from the results
as a set, so the order in which tables are entered never changes a standing.

- **Vorrunde** (:func:`vorrunde_standings`): the points of the Vorrunde's rounds, less
  ``duty_penalty`` (Wielandstraße: 15) for each Pflicht-Solo not played, once the player has
  no Vorrunde round left (all played, or withdrawn); ties by the format's tie-breaks.
- **Endrunde** (:func:`seat_endrunde`): the best by the Vorrunde standings at the title table
  (a table of the preferred size, 4, unless every table is a 5-table), the others at tables by
  rank, the larger tables last; players tied across a table's edge are ordered by a seeded lot,
  which the seating reports.
- **Final ranking** (:func:`final_ranking`): the title table first, by Endrunde points only
  (Wielandstraße carries no Vorrunde points there); then everyone else, together, by Vorrunde
  total plus Endrunde points; ties: higher Endrunde score, then higher Vorrunde score, then more
  games won, then a shared place. Without an Endrunde (``swm``) the sum of all rounds decides.
- **Withdrawn** players keep the points they made, are never drawn again and are ranked after
  everyone who finished: among themselves by rounds played, then points.
- **Ranking points**: with N participants (everyone registered, withdrawn players too) place p
  gets N − p + 1; players sharing a place each get the points of that place (format setting
  ``shared_points``: ``best``, or ``average`` of the places they fill).
"""

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.rng import seed_to_int
from stichwerk.core.series import Series, SeriesRules
from stichwerk.tournament.draw import Player, Round, Seating, seeded_shuffle
from stichwerk.tournament.formats import TournamentFormat

Number = int | float


@dataclass(frozen=True)
class Result:
    """One player's result at his table in one round."""

    round: int
    """1..``rounds`` for the Vorrunde, ``rounds`` + 1 for the Endrunde."""
    player: Player
    points: Number
    """The table's total for the player (before any tournament penalty)."""
    duty_solos: int = 0
    """Pflicht-Soli the player played at this table."""
    games_won: int = 0
    """Games in which the player scored (won, or was on the winning side)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "player": self.player,
            "points": self.points,
            "duty_solos": self.duty_solos,
            "games_won": self.games_won,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Result":
        """A result from JSON, checked field by field (one-line errors)."""
        if not isinstance(data, Mapping):
            raise StichwerkError("a result must be an object")
        values: dict[str, Any] = {}
        for key in ("round", "player", "points", "duty_solos", "games_won"):
            value = data.get(key, 0 if key in ("duty_solos", "games_won") else None)
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or (key != "points" and not isinstance(value, int)):
                kind = "a number" if key == "points" else "a whole number"
                raise StichwerkError(f"a result's {key!r} must be {kind}")
            values[key] = value
        return cls(**values)


@dataclass(frozen=True)
class Standing:
    """One line of a standings table or of the final ranking."""

    place: int
    player: Player
    score: Number
    """What decides the place: the Vorrunde total in the Vorrunde; in the final ranking the
    Endrunde points at the title table, Vorrunde total plus Endrunde points below it."""
    preliminary: Number
    """Vorrunde points as played."""
    penalty: Number
    """Points off for Pflicht-Soli not played (0 or negative)."""
    final: Number | None
    """Endrunde points (``None``: no Endrunde result)."""
    games_won: int
    duty_solos: int
    """Pflicht-Soli played in the Vorrunde."""
    rounds: int
    """Rounds with a result."""
    withdrawn: bool = False
    shared: bool = False
    """The place is shared with another player."""
    group: str = ""
    """In the final ranking: ``title`` (the title table), ``field`` (below it), ``withdrawn``;
    in the Vorrunde standings: ``field`` or ``withdrawn``."""
    ranking_points: Number | None = None

    @property
    def preliminary_total(self) -> Number:
        """The Vorrunde score: points as played less the penalty."""
        return self.preliminary + self.penalty

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "score": self.score,
            "preliminary": self.preliminary,
            "penalty": self.penalty,
            "preliminary_total": self.preliminary_total,
            "final": self.final,
            "games_won": self.games_won,
            "duty_solos": self.duty_solos,
            "rounds": self.rounds,
            "withdrawn": self.withdrawn,
            "shared": self.shared,
            "group": self.group,
            "ranking_points": self.ranking_points,
        }


@dataclass(frozen=True)
class EndrundeSeating:
    """The Endrunde's tables (the title table first) and the ties a lot decided."""

    round: Round
    by_lot: tuple[tuple[Player, ...], ...] = ()
    """Each group of players tied on every tie-break whom a table's edge divides, in the order
    the lot gave them (the first sit at the better table)."""


# ------------------------------------------------------------------------------ the results


def _total(values: Iterable[Number]) -> Number:
    """A sum that does not depend on the order of its terms (exact for floats too)."""
    items = list(values)
    if all(isinstance(v, int) for v in items):
        return sum(items)
    return math.fsum(items)


@dataclass
class _Tally:
    preliminary: list[Number]
    final: list[Number]
    duty_solos: int = 0
    vorrunde_games: int = 0
    final_games: int = 0
    vorrunde_rounds: int = 0
    final_rounds: int = 0


def _tally(
    fmt: TournamentFormat, players: Sequence[Player], results: Iterable[Result]
) -> dict[Player, _Tally]:
    """Each player's results, checked: known players and rounds, one result per round."""
    known = set(players)
    if len(known) != len(players):
        raise StichwerkError("a player is registered twice")
    last = fmt.rounds + (1 if fmt.final_round else 0)
    tallies = {p: _Tally([], []) for p in players}
    seen: set[tuple[int, Player]] = set()
    for r in results:
        if r.player not in known:
            raise StichwerkError(f"a result for player {r.player}, who is not registered")
        if not 1 <= r.round <= last:
            raise StichwerkError(
                f"a result for round {r.round}: the {fmt.name} tournament has rounds 1 to {last}"
            )
        if (r.round, r.player) in seen:
            raise StichwerkError(f"player {r.player} has two results for round {r.round}")
        seen.add((r.round, r.player))
        if r.duty_solos < 0 or r.games_won < 0:
            raise StichwerkError(f"player {r.player}'s Pflicht-Soli and games won cannot be < 0")
        if isinstance(r.points, float) and not math.isfinite(r.points):
            raise StichwerkError(f"player {r.player}'s points must be a finite number")
        t = tallies[r.player]
        if r.round <= fmt.rounds:
            t.preliminary.append(r.points)
            t.duty_solos += r.duty_solos
            t.vorrunde_games += r.games_won
            t.vorrunde_rounds += 1
        else:
            t.final.append(r.points)
            t.final_games += r.games_won
            t.final_rounds += 1
    for p, t in tallies.items():
        if t.duty_solos > fmt.duty_solos:
            raise StichwerkError(
                f"player {p} is entered with {t.duty_solos} Pflicht-Soli in the Vorrunde; "
                f"the {fmt.name} format owes {fmt.duty_solos}"
            )
    return tallies


def duty_owed(fmt: TournamentFormat, results: Iterable[Result], player: Player) -> int:
    """Pflicht-Soli ``player`` still owes in the Vorrunde (for the next table's
    ``Series(duty_owed=...)``)."""
    played = sum(r.duty_solos for r in results if r.player == player and r.round <= fmt.rounds)
    return max(fmt.duty_solos - played, 0)


def table_series_rules(fmt: TournamentFormat, base: SeriesRules, round_number: int) -> SeriesRules:
    """The list rules of a tournament table: the game's own for the table's seats (``base``,
    e.g. Doppelkopf's ``series_rules(profile, seats=5)``) with the format's games for that size,
    its sitting dealer, and the Pflicht-Soli of the round (none in the Endrunde). Start the
    table's ``Series`` with ``first_dealer=0`` (the first seat of the draw deals first) and, in
    the Vorrunde, ``duty_owed`` from :func:`duty_owed` for each seat.

    The Pflicht-Solo is owed over the whole Vorrunde, so a list shows the penalty for a missing
    one only in the Vorrunde's last round (earlier, the solo may still come); the tournament
    takes it off the Vorrunde total either way (:func:`vorrunde_standings`). The games of the
    later Vorrunde rounds (``duty_games_after``, counted at this table's size) tell a player who
    owes one how far off the deadline is.

    >>> from stichwerk.tournament.formats import WIELANDSTRASSE
    >>> r = table_series_rules(WIELANDSTRASSE, SeriesRules(seats=5), 4)
    >>> r.games, r.dealer_sits, r.duty_solos
    (10, True, 0)
    >>> [table_series_rules(WIELANDSTRASSE, SeriesRules(), n).duty_penalty for n in (1, 2, 3)]
    [0, 0, 15]
    >>> [table_series_rules(WIELANDSTRASSE, SeriesRules(), n).duty_games_after for n in (1, 2, 3)]
    [16, 8, 0]
    """
    size = base.seats
    if fmt.games_at(size) < 1:
        raise StichwerkError(f"the {fmt.name} format has no {size}-tables")
    vorrunde = round_number <= fmt.rounds
    return replace(
        base,
        games=fmt.games_at(size),
        dealer_sits=fmt.sitting_dealer(size),
        duty_solos=fmt.duty_solos if vorrunde else fmt.final_duty_solos,
        duty_penalty=fmt.duty_penalty if round_number == fmt.rounds else 0,
        duty_games_after=(fmt.rounds - round_number) * fmt.games_at(size) if vorrunde else 0,
    )


def table_results(round_number: int, seating: Seating, series: Series) -> list[Result]:
    """The results of one table's finished list: each seat's total (without the list's own
    Pflicht-Solo penalty: the tournament takes it off the Vorrunde total), the Pflicht-Soli
    struck off its debt at this table, and the games it scored in (a positive written score)."""
    if len(seating) != series.rules.seats:
        raise StichwerkError(
            f"the table seats {len(seating)} players but its list has {series.rules.seats} seats"
        )
    if not series.is_over:
        raise StichwerkError("the table's list is not complete")
    start = (
        series.duty_owed
        if series.duty_owed is not None
        else [series.rules.duty_solos] * series.rules.seats
    )
    out = []
    for seat, player in enumerate(seating):
        won = sum(1 for e in series.entries if e.number is not None and e.written[seat] > 0)
        out.append(
            Result(
                round=round_number,
                player=player,
                points=series.totals[seat],
                duty_solos=start[seat] - series.owed[seat],
                games_won=won,
            )
        )
    return out


# ------------------------------------------------------------------------------ ordering


def _order(
    fmt: TournamentFormat,
    rows: list[dict[str, Any]],
    keys: Sequence[str],
) -> list[list[dict[str, Any]]]:
    """``rows`` in order (best first), grouped where every key ties; each key is compared
    higher-first. Players within a group are listed by number, so entry order never shows."""

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(-(row[k] if row[k] is not None else -math.inf) for k in keys)

    ordered = sorted(rows, key=lambda row: (key(row), row["player"]))
    groups: list[list[dict[str, Any]]] = []
    for row in ordered:
        if groups and key(groups[-1][0]) == key(row):
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _keys(fmt: TournamentFormat, first: Sequence[str]) -> list[str]:
    """The deciding keys, then the format's tie-breaks (each once)."""
    keys = list(first)
    for k in fmt.tie_breaks:
        if k not in keys:
            keys.append(k)
    return keys


def _rows(
    fmt: TournamentFormat,
    tallies: Mapping[Player, _Tally],
    withdrawn: set[Player],
    with_final: bool,
) -> dict[Player, dict[str, Any]]:
    """Each player's figures; ``with_final``: count the Endrunde's points and games."""
    rows = {}
    for p, t in tallies.items():
        done = t.vorrunde_rounds >= fmt.rounds or p in withdrawn
        missing = max(fmt.duty_solos - t.duty_solos, 0)
        penalty = -fmt.duty_penalty * missing if done and missing else 0
        preliminary = _total(t.preliminary)
        final = _total(t.final) if with_final and t.final else None
        rows[p] = {
            "player": p,
            "preliminary_points": preliminary,
            "penalty": penalty,
            "preliminary": _total([preliminary, penalty]),
            "final": final,
            "games_won": t.vorrunde_games + (t.final_games if with_final else 0),
            "duty_solos": t.duty_solos,
            "rounds": t.vorrunde_rounds + (t.final_rounds if with_final else 0),
            "withdrawn": p in withdrawn,
        }
    return rows


def _standings(groups: list[tuple[str, list[list[dict[str, Any]]]]]) -> list[Standing]:
    """Places over the groups in order, shared within a tie group (1, 2, 2, 4 ...); each row's
    ``score`` is what decided it."""
    out = []
    place = 1
    for name, tied_groups in groups:
        for tied in tied_groups:
            for row in tied:
                out.append(
                    Standing(
                        place=place,
                        player=row["player"],
                        score=row["score"],
                        preliminary=row["preliminary_points"],
                        penalty=row["penalty"],
                        final=row["final"],
                        games_won=row["games_won"],
                        duty_solos=row["duty_solos"],
                        rounds=row["rounds"],
                        withdrawn=row["withdrawn"],
                        shared=len(tied) > 1,
                        group=name,
                    )
                )
            place += len(tied)
    return out


def _check_withdrawn(players: Sequence[Player], withdrawn: Iterable[Player]) -> set[Player]:
    out = set(withdrawn)
    unknown = out - set(players)
    if unknown:
        raise StichwerkError(f"player {min(unknown)} withdrew but is not registered")
    return out


def _withdrawn_group(
    fmt: TournamentFormat, rows: Iterable[dict[str, Any]]
) -> list[list[dict[str, Any]]]:
    """Withdrawn players: more rounds played first, then all the points they made."""
    rows = list(rows)
    for row in rows:
        row["score"] = _total([row["preliminary"], row["final"] or 0])
    return _order(fmt, rows, _keys(fmt, ["rounds", "score"]))


# ------------------------------------------------------------------------------ Vorrunde


def vorrunde_standings(
    fmt: TournamentFormat,
    players: Sequence[Player],
    results: Iterable[Result],
    withdrawn: Iterable[Player] = (),
) -> list[Standing]:
    """The Vorrunde standings so far (Endrunde results are left out), withdrawn players last.

    >>> from stichwerk.tournament.formats import WIELANDSTRASSE
    >>> rs = [Result(1, 0, 12, 1, 3), Result(1, 1, 20, 0, 4), Result(1, 2, 20, 0, 4)]
    >>> [(s.place, s.player, s.score) for s in vorrunde_standings(WIELANDSTRASSE, [0, 1, 2], rs)]
    [(1, 1, 20), (1, 2, 20), (3, 0, 12)]
    """
    gone = _check_withdrawn(players, withdrawn)
    rows = _rows(fmt, _tally(fmt, players, results), gone, with_final=False)
    for row in rows.values():
        row["score"] = row["preliminary"]
    keys = [k for k in _keys(fmt, ["preliminary"]) if k != "final"]
    active = [r for p, r in rows.items() if p not in gone]
    return _standings(
        [
            ("field", _order(fmt, active, keys)),
            ("withdrawn", _withdrawn_group(fmt, (r for p, r in rows.items() if p in gone))),
        ]
    )


# ------------------------------------------------------------------------------ Endrunde


def endrunde_sizes(fmt: TournamentFormat, players: int) -> tuple[int, ...]:
    """The Endrunde's table sizes, the title table first: a table of the preferred size
    (Wielandstraße: the best 4) wherever the mix has one, else the other size (the best 5);
    the other tables by rank, the preferred size first, so the larger tables sit lowest.

    >>> from stichwerk.tournament.formats import WIELANDSTRASSE
    >>> endrunde_sizes(WIELANDSTRASSE, 13), endrunde_sizes(WIELANDSTRASSE, 15)
    ((4, 4, 5), (5, 5, 5))
    """
    return fmt.table_mix(players)


def seat_endrunde(
    fmt: TournamentFormat,
    players: Sequence[Player],
    results: Iterable[Result],
    withdrawn: Iterable[Player] = (),
    seed: int | str = 0,
) -> EndrundeSeating:
    """The Endrunde's tables from the completed Vorrunde: the title table first, then the rest
    by Vorrunde rank; within a table the seats (and so the dealer order) are a seeded shuffle.

    Raises a one-line error when the format has no Endrunde, when a player still in has not
    played every Vorrunde round, or when no mix of tables seats the players left.
    """
    if not fmt.final_round:
        raise StichwerkError(f"the {fmt.name} format has no Endrunde")
    results = list(results)
    gone = _check_withdrawn(players, withdrawn)
    standings = vorrunde_standings(fmt, players, results, gone)
    active = [s for s in standings if not s.withdrawn]
    for s in active:
        if s.rounds < fmt.rounds:
            raise StichwerkError(
                f"the Vorrunde is not complete: player {s.player} has results for "
                f"{s.rounds} of {fmt.rounds} rounds"
            )
    sizes = endrunde_sizes(fmt, len(active))
    rng = random.Random(seed_to_int(f"endrunde:{seed}"))
    lot = [s.player for s in active]
    seeded_shuffle(lot, rng)
    rank_of_lot = {p: i for i, p in enumerate(lot)}
    ordered = sorted(active, key=lambda s: (s.place, rank_of_lot[s.player]))
    tables: list[Seating] = []
    edges = set()
    i = 0
    for size in sizes:
        block = [s.player for s in ordered[i : i + size]]
        i += size
        edges.add(i)
        seeded_shuffle(block, rng)
        tables.append(tuple(block))
    by_lot = []
    place_groups: dict[int, list[Player]] = {}
    for s in ordered:
        place_groups.setdefault(s.place, []).append(s.player)
    position = 0
    for s_place in sorted(place_groups):
        group = place_groups[s_place]
        if any(position < edge < position + len(group) for edge in edges):
            by_lot.append(tuple(group))
        position += len(group)
    return EndrundeSeating(Round(fmt.rounds + 1, tuple(tables)), tuple(by_lot))


# ------------------------------------------------------------------------------ final ranking


def final_ranking(
    fmt: TournamentFormat,
    players: Sequence[Player],
    results: Iterable[Result],
    endrunde: Round | None = None,
    withdrawn: Iterable[Player] = (),
) -> list[Standing]:
    """The ranking with ranking points: see the module docstring.

    With an Endrunde, ``endrunde`` is its seating (the title table first); results still
    missing count as 0 (so it doubles as the live standings of the Endrunde).
    """
    results = list(results)
    gone = _check_withdrawn(players, withdrawn)
    rows = _rows(fmt, _tally(fmt, players, results), gone, with_final=True)
    active = {p: r for p, r in rows.items() if p not in gone}
    groups: list[tuple[str, list[list[dict[str, Any]]]]] = []
    if fmt.final_round:
        if endrunde is None:
            raise StichwerkError("the final ranking needs the Endrunde's seating")
        seated = endrunde.players()
        if len(set(seated)) != len(seated):
            raise StichwerkError("a player is seated twice in the Endrunde")
        unknown = set(seated) - set(players)
        if unknown:
            raise StichwerkError(f"player {min(unknown)} is seated but not registered")
        missing = set(active) - set(seated)
        if missing:
            raise StichwerkError(f"player {min(missing)} has no seat in the Endrunde")
        stray = [r for r in results if r.round > fmt.rounds and r.player not in set(seated)]
        if stray:
            raise StichwerkError(f"player {stray[0].player} has an Endrunde result but no seat")
        title, *others = endrunde.tables
        for row in active.values():
            carries = fmt.title_table_carries if row["player"] in title else fmt.others_carry
            final = row["final"] or 0
            row["score"] = _total([final, row["preliminary"]]) if carries else final
        keys = _keys(fmt, ["score"])
        groups.append(("title", _order(fmt, [active[p] for p in title if p in active], keys)))
        if fmt.others_ranked_together:
            field = [active[p] for table in others for p in table if p in active]
            groups.append(("field", _order(fmt, field, keys)))
        else:
            for table in others:
                groups.append(("field", _order(fmt, [active[p] for p in table if p in active],
                                               keys)))  # fmt: skip
    else:
        if endrunde is not None:
            raise StichwerkError(f"the {fmt.name} format has no Endrunde")
        for row in active.values():
            row["score"] = row["preliminary"]
        groups.append(("field", _order(fmt, list(active.values()), _keys(fmt, ["score"]))))
    groups.append(("withdrawn", _withdrawn_group(fmt, (r for p, r in rows.items() if p in gone))))
    ranking = _standings(groups)
    counts: dict[int, int] = {}
    for s in ranking:
        counts[s.place] = counts.get(s.place, 0) + 1
    participants = len(players)
    return [
        _with_points(s, place_points(fmt, s.place, participants, counts[s.place])) for s in ranking
    ]


def _with_points(s: Standing, points: Number) -> Standing:
    return replace(s, ranking_points=points)


def place_points(fmt: TournamentFormat, place: int, participants: int, sharing: int = 1) -> Number:
    """Ranking points for ``place`` of ``participants``, shared by ``sharing`` players.

    >>> from stichwerk.tournament.formats import WIELANDSTRASSE
    >>> place_points(WIELANDSTRASSE, 1, 15), place_points(WIELANDSTRASSE, 3, 12)
    (15, 10)
    >>> place_points(WIELANDSTRASSE, 3, 15, sharing=2)
    13
    """
    if not 1 <= place <= participants or sharing < 1 or place + sharing - 1 > participants:
        raise StichwerkError(f"place {place} of {participants} is not a place")

    def one(p: int) -> int:
        if fmt.ranking_points == "table":
            table = fmt.points_table
            return table[p - 1] if p <= len(table) else 0
        return participants - p + 1

    if fmt.shared_points == "average" and sharing > 1:
        total = sum(one(p) for p in range(place, place + sharing))
        return total // sharing if total % sharing == 0 else total / sharing
    return one(place)
