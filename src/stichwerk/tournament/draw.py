"""The draw (*Spielplan*): who sits at which table in each round, and in which seat.

Each round seats every player at the format's tables (Wielandstraße: as many 4-tables as fit,
the rest at 5-tables). What the draw optimises, in this order:

1. **repeated pairs** over the rounds (see :mod:`stichwerk.tournament.bounds`): everyone should
   meet as many different opponents as possible;
2. **the larger tables' seats spread fairly**: nobody sits at a 5-table more than once more
   often than another (nobody twice while another never did) wherever a draw with as few
   repeats allows it; else the :func:`spread` (most less fewest) is as small as it goes, then
   :func:`~.bounds.unfairness` (9, 13, 14, 17, 18, 19, 21, 22, 23 and 26 players: see
   ``docs/tournaments.md``).

The search: the first round is a seeded shuffle (any first round is as good as another), each
later round starts greedily (the 5-table seats to those who have had the fewest, then every
player to the table where he meets the fewest old opponents) and is then improved by simulated
annealing over swaps of two players of one round, the moves aimed mostly at players who meet
someone again or sit at 5-tables too often or too seldom. It stops at a proven optimum (the
bounds of :mod:`~.bounds`) or after a fixed number of moves, and uses only
``random.Random.random`` (whose sequence Python keeps stable) and plain arithmetic, so the same
seed gives the same draw on every machine.

Within a table the seats are a seeded shuffle: the first player listed deals the first game, the
deal passes to the next seat in the list (clockwise), and at a 5-table the dealer sits out.

>>> from stichwerk.tournament.formats import WIELANDSTRASSE
>>> plan = draw_vorrunde(WIELANDSTRASSE, 16, seed=1)
>>> [len(r.tables) for r in plan.rounds], plan.repeats()
([4, 4, 4], 0)
"""

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from stichwerk.core.errors import StichwerkError
from stichwerk.core.rng import seed_to_int
from stichwerk.tournament.bounds import lower_bound, spread_pairs, unfairness
from stichwerk.tournament.formats import TournamentFormat

Player = int
"""A player's number in the tournament (the plan numbers them 0..N−1 in registration order)."""

Seating = tuple[Player, ...]
"""One table: its players in seating order; the first deals the first game."""


@dataclass(frozen=True)
class Round:
    """One round's tables (numbered from 1 in the order given)."""

    number: int
    """1, 2, ... (the Endrunde is numbered after the Vorrunde's rounds)."""
    tables: tuple[Seating, ...]

    def players(self) -> list[Player]:
        """Everyone seated, table by table."""
        return [p for table in self.tables for p in table]

    def table_of(self, player: Player) -> int | None:
        """The number (from 1) of ``player``'s table, ``None`` if not seated."""
        for t, table in enumerate(self.tables, start=1):
            if player in table:
                return t
        return None

    def to_json(self) -> list[list[int]]:
        return [list(table) for table in self.tables]


@dataclass(frozen=True)
class Plan:
    """The Vorrunde's rounds, drawn in advance."""

    rounds: tuple[Round, ...]

    def repeats(self) -> int:
        """Repeated pairs over all rounds (a pair meeting a third time counts twice)."""
        return repeated_pairs(self.rounds)

    def to_json(self) -> dict[str, Any]:
        """``{"rounds": [[[p, p, p, p], ...], ...]}``, the ``plan --json`` contract."""
        return {"rounds": [r.to_json() for r in self.rounds]}


def meetings(rounds: Iterable[Round]) -> Counter[tuple[Player, Player]]:
    """How often each pair (lower number first) sat at one table."""
    met: Counter[tuple[Player, Player]] = Counter()
    for r in rounds:
        for table in r.tables:
            ordered = sorted(table)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    met[a, b] += 1
    return met


def repeated_pairs(rounds: Iterable[Round]) -> int:
    """Meetings beyond each pair's first."""
    return sum(m - 1 for m in meetings(rounds).values())


def seats_at(rounds: Iterable[Round], sizes: Iterable[int]) -> Counter[Player]:
    """How often each player sat at a table of one of ``sizes`` seats (e.g. ``(5,)``)."""
    wanted = set(sizes)
    count: Counter[Player] = Counter()
    for r in rounds:
        for table in r.tables:
            if len(table) in wanted:
                count.update(table)
    return count


def spread(seats: Iterable[int]) -> int:
    """The most seats at the larger tables anyone has less the fewest anyone has (0 or 1 is an
    even spread: nobody sits there twice while another never did).

    >>> spread([1, 2, 2]), spread([0, 2, 1]), spread([])
    (1, 2, 0)
    """
    counts = list(seats)
    return max(counts) - min(counts) if counts else 0


def _players_of(players: int | Sequence[Player]) -> list[Player]:
    if isinstance(players, int):
        return list(range(players))
    out = list(players)
    if len(set(out)) != len(out):
        raise StichwerkError("a player is listed twice for the draw")
    return out


def draw_vorrunde(
    fmt: TournamentFormat,
    players: int | Sequence[Player],
    seed: int | str = 0,
    *,
    effort: float = 1.0,
) -> Plan:
    """All ``fmt.rounds`` rounds of the Vorrunde, drawn together in advance.

    ``players`` is a count (the players are then 0..N−1) or the players' numbers. Raises
    :class:`~stichwerk.tournament.formats.PlayerCountError` with the reason when the format
    cannot seat them. ``effort`` scales the number of moves of the search.
    """
    field = _players_of(players)
    fmt.check_players(len(field))
    rng = random.Random(seed_to_int(f"vorrunde:{seed}"))
    mix = fmt.table_mix(len(field))
    rounds = _draw(fmt, field, [], [mix] * fmt.rounds, rng, effort)
    return Plan(tuple(Round(i + 1, tables) for i, tables in enumerate(rounds)))


def draw_round(
    fmt: TournamentFormat,
    players: Sequence[Player],
    earlier: Sequence[Round],
    seed: int | str = 0,
    *,
    effort: float = 1.0,
) -> Round:
    """The next Vorrunde round for ``players`` (those still in: a withdrawn player is left out),
    given the rounds already drawn, which it meets as few repeated pairs as it can against.

    The round is drawn together with the rounds still to come (which are then thrown away and
    drawn anew when their turn comes), so that no round is spoilt for the next; where the
    previous round was drawn so, from the same players, the round it planned for now is kept
    if the new search finds none better (fewer repeats, then a more even spread of the larger
    tables' seats), so the round-by-round draw is as good as the one in advance. Raises
    :class:`~stichwerk.tournament.formats.PlayerCountError` when no mix of tables seats the
    players left.
    """
    field = _players_of(players)
    number = len(earlier) + 1
    if number > fmt.rounds:
        raise StichwerkError(f"the {fmt.name} Vorrunde has {fmt.rounds} rounds, all drawn")
    if number < 3:
        return Round(number, _draw_ahead(fmt, field, earlier, seed, effort)[0])
    # the draw of the previous round, repeated: what it planned for this one
    before = _draw_ahead(fmt, field, earlier[:-1], seed, effort)
    planned = Round(number, before[1]) if before[0] == earlier[-1].tables else None
    if planned is not None and _proven_best(fmt, field, earlier, planned):
        return planned
    drawn = Round(number, _draw_ahead(fmt, field, earlier, seed, effort)[0])
    if planned is not None and _rank(fmt, field, earlier, planned) < _rank(
        fmt, field, earlier, drawn
    ):
        return planned
    return drawn


def _draw_ahead(
    fmt: TournamentFormat,
    field: list[Player],
    earlier: Sequence[Round],
    seed: int | str,
    effort: float,
) -> list[tuple[Seating, ...]]:
    """The next round for ``field`` after ``earlier``, with the rest of the Vorrunde it was
    drawn together with (none after the first round, a shuffle whatever comes after)."""
    number = len(earlier) + 1
    mix = fmt.table_mix(len(field))
    rng = random.Random(seed_to_int(f"round:{number}:{seed}"))
    inside = set(field)
    # each earlier table's size as played, and those of its players who are still in
    fixed = [[(len(t), tuple(p for p in t if p in inside)) for t in r.tables] for r in earlier]
    todo = [mix] * (fmt.rounds - len(earlier) if earlier else 1)
    return _draw(fmt, field, fixed, todo, rng, effort)


def _proven_best(
    fmt: TournamentFormat, field: list[Player], earlier: Sequence[Round], rnd: Round
) -> bool:
    """Whether ``rnd``, the last round, completes a Vorrunde that no draw beats: every round
    seats the whole field, with the fewest repeats the bounds allow and the least spread of the
    larger tables' seats (an even one, or the :data:`KNOWN_SPREAD`)."""
    if rnd.number != fmt.rounds:
        return False
    mix = sorted(fmt.table_mix(len(field)))
    everyone = sorted(field)
    for r in [*earlier, rnd]:
        if sorted(r.players()) != everyone or sorted(len(t) for t in r.tables) != mix:
            return False
    repeats, least, _ = _rank(fmt, field, earlier, rnd)
    if repeats > lower_bound([mix] * fmt.rounds):
        return False
    return least <= 1 or least == KNOWN_SPREAD.get((fmt.table_sizes[0], fmt.rounds, tuple(mix)))


def _rank(
    fmt: TournamentFormat, field: list[Player], earlier: Sequence[Round], rnd: Round
) -> tuple[int, int, int]:
    """How good ``rnd`` is after ``earlier`` for those of ``field`` (less is better): the
    repeats, then the :func:`spread` and the :func:`~.bounds.unfairness` of the larger tables'
    seats, as the search weighs them."""
    inside = set(field)
    rounds = [*earlier, rnd]
    kept = [Round(r.number, tuple(tuple(p for p in t if p in inside) for t in r.tables))
            for r in rounds]  # fmt: skip
    larger = Counter(dict.fromkeys(field, 0))
    for r in rounds:
        for t in r.tables:
            if len(t) != fmt.table_sizes[0]:
                larger.update(p for p in t if p in inside)
    counts = [larger[p] for p in field]
    return repeated_pairs(kept), spread(counts), unfairness(counts)


# ------------------------------------------------------------------------------ the search

STAGES = 6
"""Temperature stages of the annealing (the last at zero)."""

MIN_MOVES, MOVES_PER_SEAT = 20_000, 1_500
"""Moves of one search: this many per player and round searched, at least ``MIN_MOVES``."""

FREE_TRIES = 2
"""Searches with the spread of the larger tables' seats only weighed, after those that keep it
within bounds."""

KNOWN_SPREAD: dict[tuple[int, int, tuple[int, ...]], int] = {
    (4, 3, (4, 5)): 2,
    (4, 3, (4, 4, 5)): 3,
    (4, 3, (4, 5, 5)): 3,
    (4, 3, (4, 4, 4, 5)): 3,
    (4, 3, (4, 4, 5, 5)): 3,
    (4, 3, (4, 5, 5, 5)): 2,
}
"""The least spread of the larger tables' seats any draw with the fewest repeats has, by
exhaustive search (``tests/tournament/test_draw_fairness.py`` repeats it), keyed by the
preferred table size, the rounds and the table mix (9, 13, 14, 17, 18 and 19 players at
Wielandstraße): the search does not look for a spread the field cannot have."""

EVEN_EFFORT, NEAR_EFFORT = 0.25, 1.0
"""Shares of a search's moves for the first search (which keeps the spread even) and for those
that keep it within two."""


def _draw(
    fmt: TournamentFormat,
    field: list[Player],
    fixed: list[list[tuple[int, tuple[Player, ...]]]],
    todo: list[tuple[int, ...]],
    rng: random.Random,
    effort: float,
) -> list[tuple[Seating, ...]]:
    """Seat ``field`` in the ``todo`` rounds (table sizes) after the ``fixed`` ones (each
    table's size as played and its players still in); return the tables of each drawn round,
    in seating order."""
    n = len(field)
    index = {p: i for i, p in enumerate(field)}
    preferred = fmt.table_sizes[0]
    fixed_local = [[(size, [index[p] for p in table]) for size, table in r] for r in fixed]
    search = _Search(n, fixed_local, todo, preferred, rng)
    search.run(effort)
    out = []
    for r in range(len(todo)):
        tables = search.tables(r)
        # preferred tables first, then by size; each table's seats a seeded shuffle
        order = sorted(
            range(len(tables)),
            key=lambda t: (len(tables[t]) != preferred, len(tables[t]), min(tables[t])),
        )
        seated = []
        for t in order:
            table = [field[i] for i in tables[t]]
            seeded_shuffle(table, rng)
            seated.append(tuple(table))
        out.append(tuple(seated))
    return out


def seeded_shuffle(items: list[Any], rng: random.Random) -> None:
    """Fisher-Yates on ``rng.random`` only (whose sequence Python keeps stable)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


class _Search:
    """Simulated annealing over swaps within a round; players are 0..n−1 here."""

    def __init__(
        self,
        n: int,
        fixed: list[list[tuple[int, list[int]]]],
        todo: list[tuple[int, ...]],
        preferred: int,
        rng: random.Random,
    ) -> None:
        self.n = n
        self.rng = rng
        self.sizes = [list(mix) for mix in todo]
        self.odd_table = [[s != preferred for s in mix] for mix in todo]
        self.meet = [0] * (n * n)
        self.odd = [0] * n
        for r in fixed:
            for size, table in r:
                self._count(table, +1)
                if size != preferred:
                    for p in table:
                        self.odd[p] += 1
        self.rounds = len(todo)
        # A move improves the unfairness (the sum of cubes of larger-table seats) by at most
        # moving a seat from one who has had every round's to one who has had none, so at
        # this weight no move that adds a repeat pays for fairness (several moves may: the
        # search keeps the best draw by repeats first, see _anneal).
        most = len(fixed) + len(todo)
        self.most = most
        self.weight = most**3 - (most - 1) ** 3 + 1
        self.fixed_rounds = len(fixed)
        self.base_meet = list(self.meet)
        self.base_odd = list(self.odd)
        self.tab: list[list[int]] = []
        self.mem: list[list[list[int]]] = []
        self.target = self._target(fixed, todo)
        self.fair_target, self.fair_lo, self.fair_hi = self._fair_target(todo)
        self.known_spread = self._known_spread(fixed, todo, preferred)

    # --------------------------------------------------------------- bookkeeping

    def _count(self, table: Sequence[int], step: int) -> int:
        """Add ``step`` to the meetings of every pair of ``table``; return repeats added."""
        n, meet = self.n, self.meet
        added = 0
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if step > 0 and meet[a * n + b] >= 1:
                    added += 1
                meet[a * n + b] += step
                meet[b * n + a] += step
        return added

    def _target(self, fixed: list[list[tuple[int, list[int]]]], todo: list[tuple[int, ...]]) -> int:
        """Repeats the new rounds cannot avoid (a bound, for stopping early)."""
        if fixed:
            # each new table against the earlier round of fewest tables (pigeonhole)
            groups = min(sum(1 for _, t in r if t) for r in fixed)
            first = sum(spread_pairs(s, max(groups, 1)) for s in todo[0]) if groups else 0
            return first + sum(spread_pairs(s, len(mix)) for mix in todo[1:] for s in mix)
        return lower_bound(todo)

    def _known_spread(
        self, fixed: list[list[tuple[int, list[int]]]], todo: list[tuple[int, ...]], preferred: int
    ) -> int | None:
        """The :data:`KNOWN_SPREAD` of these rounds when they are a whole Vorrunde drawn in
        advance or after its first round (which, whatever it is, is as good as any)."""
        mix = sorted(todo[0])
        if len(fixed) > 1 or any(sorted(m) != mix for m in todo):
            return None
        for r in fixed:
            if sorted(size for size, _ in r) != mix or sum(len(t) for _, t in r) != self.n:
                return None
        return KNOWN_SPREAD.get((preferred, len(fixed) + len(todo), tuple(mix)))

    def _fair_target(self, todo: list[tuple[int, ...]]) -> tuple[int, int, int]:
        """The smallest unfairness (sum of cubes of larger-table seats) the new rounds can
        reach (each round's larger seats to those who have had the fewest), with the fewest
        and the most seats anyone then has."""
        odd = list(self.odd)
        for r, mix in enumerate(todo):
            seats = sum(s for s, o in zip(mix, self.odd_table[r], strict=True) if o)
            for p in sorted(range(self.n), key=lambda p: odd[p])[:seats]:
                odd[p] += 1
        return unfairness(odd), min(odd), max(odd)

    def tables(self, r: int) -> list[list[int]]:
        return [list(t) for t in self.mem[r]]

    def cost(self) -> tuple[int, int, int]:
        """Repeats, :func:`spread` and :func:`~.bounds.unfairness` (less is better)."""
        n, meet = self.n, self.meet
        rep = sum(meet[a * n + b] - 1 for a in range(n) for b in range(a + 1, n)
                  if meet[a * n + b] > 1)  # fmt: skip
        return rep, spread(self.odd), unfairness(self.odd)

    # --------------------------------------------------------------- the greedy start

    def _greedy(self, r: int) -> None:
        """Seat round ``r``: the larger tables' seats to those who have had the fewest (ties by
        lot), then each player, in a random order, to the table of his kind where he meets the
        fewest old opponents."""
        n, rng, meet = self.n, self.rng, self.meet
        sizes = self.sizes[r]
        odd_table = self.odd_table[r]
        order = list(range(n))
        seeded_shuffle(order, rng)
        order.sort(key=lambda p: self.odd[p])
        seats = sum(s for s, o in zip(sizes, odd_table, strict=True) if o)
        at_odd = set(order[:seats])
        seeded_shuffle(order, rng)
        tab = [-1] * n
        mem: list[list[int]] = [[] for _ in sizes]
        for p in order:
            best_t, best_c = -1, math.inf
            for t, size in enumerate(sizes):
                table = mem[t]
                if len(table) == size or odd_table[t] != (p in at_odd):
                    continue
                c = sum(1 for x in table if meet[p * n + x] >= 1) + rng.random()
                if c < best_c:
                    best_t, best_c = t, c
            tab[p] = best_t
            mem[best_t].append(p)
        for t, table in enumerate(mem):
            self._count(table, +1)
            if odd_table[t]:
                for p in table:
                    self.odd[p] += 1
        self.tab.append(tab)
        self.mem.append(mem)

    # --------------------------------------------------------------- annealing

    def run(self, effort: float) -> None:
        """Searches from the evenest spread of the larger tables' seats to any, keeping the
        best draw: fewest repeats, then the least :func:`spread`, then the least
        :func:`~.bounds.unfairness`.

        Each search but the last ones keeps every player's larger-table seats within bounds
        (leaving them weighs as a repeat): first those of an even spread, then those of a
        spread of two (one seat fewer or one more than even); the last ones only weigh the
        spread. A search that reaches the fewest repeats with the spread it aims at ends the
        run. Where :data:`KNOWN_SPREAD` proves an even spread impossible at the fewest repeats,
        the searches for it are skipped (and the one bounded search left is tried twice)."""
        lo, hi, most = self.fair_lo, self.fair_hi, self.most
        # (bounds, the spread they keep, share of a search's moves)
        modes: list[tuple[tuple[int, int] | None, int, float]] = [((lo, hi), hi - lo, EVEN_EFFORT)]
        # then a spread of two: one seat fewer or one more than the even spread has
        for near in dict.fromkeys([(lo - 1, lo + 1), (hi - 1, hi + 1)]):
            if hi - lo < 2 and near[0] >= 0 and near[1] <= most:
                modes.append((near, 2, NEAR_EFFORT))
        if self.known_spread is not None:
            # skip the spreads the field cannot have; the only bounds left are tried twice
            modes = [m for m in modes if m[1] >= self.known_spread]
            if len(modes) == 1:
                modes *= 2
        modes += [(None, most, 1.0)] * FREE_TRIES
        best: tuple[int, int, int] | None = None
        kept: list[list[int]] = []
        for bounds, aim, share in modes:
            found = self._attempt(effort * share, bounds)
            if best is None or found < best:
                best, kept = found, [list(t) for t in self.tab]
            if best[0] <= self.target and best[1] <= aim:
                break
        self._restore(kept)

    def _attempt(self, effort: float, bounds: tuple[int, int] | None) -> tuple[int, int, int]:
        """One search from a fresh start; ``bounds``: the fewest and the most larger-table
        seats a player may have (``None``: any)."""
        self._restore([])
        # Without earlier rounds the first is a plain shuffle: any first round is as good.
        symmetric = not self.fixed_rounds
        for r in range(self.rounds):
            if r == 0 and symmetric:
                self.seeded_shuffled_round()
            else:
                self._greedy(r)
        # a round of one table has nothing to swap
        free = [r for r in range(self.rounds)
                if (r > 0 or not symmetric) and len(self.sizes[r]) > 1]  # fmt: skip
        rep, _, fair = self.cost()
        if free and (rep > self.target or fair > self.fair_target):
            moves = int(effort * max(MIN_MOVES, MOVES_PER_SEAT * self.n * len(free)))
            outside = 0
            if bounds is not None:
                lo, hi = bounds
                outside = sum(max(0, lo - c, c - hi) for c in self.odd)
            self._anneal(free, rep + outside, fair, moves, bounds)
        return self.cost()

    def seeded_shuffled_round(self) -> None:
        order = list(range(self.n))
        seeded_shuffle(order, self.rng)
        tab = [-1] * self.n
        mem: list[list[int]] = []
        i = 0
        for t, size in enumerate(self.sizes[0]):
            table = order[i : i + size]
            i += size
            mem.append(table)
            for p in table:
                tab[p] = t
            self._count(table, +1)
            if self.odd_table[0][t]:
                for p in table:
                    self.odd[p] += 1
        self.tab.append(tab)
        self.mem.append(mem)

    def _anneal(
        self, free: list[int], bad: int, fair: int, moves: int, bounds: tuple[int, int] | None
    ) -> None:
        """Anneal the ``free`` rounds; ``bad``: repeats plus the larger-table seats outside
        ``bounds``, ``fair``: the unfairness. A move is weighed by ``weight`` per bad and one
        per unfairness, but the draw kept is the best by bad first, then unfairness (the
        weighed sum may trade two repeats for a fairer spread)."""
        n, rng, meet, odd = self.n, self.rng, self.meet, self.odd
        weight = self.weight
        best_key = (bad, fair)
        best = [list(self.tab[r]) for r in range(self.rounds)]
        # The temperature halves stage by stage, then a last stage takes only what does not
        # worsen the draw. Acceptance is (1 − d / 16T)^16, close to exp(−d/T) but of plain
        # arithmetic only, so that every machine accepts the same moves.
        temps = [0.6 * weight / 2**k for k in range(STAGES - 1)] + [0.0]
        per_stage = moves // len(temps) + 1
        nf = len(free)
        tries = 1
        lo, hi = bounds if bounds is not None else (-1, self.most + 1)
        for move in range(per_stage * len(temps)):
            temp = temps[move // per_stage]
            r = free[int(rng.random() * nf)]
            tab, mem, odd_table = self.tab[r], self.mem[r], self.odd_table[r]
            # aim every other move at a player who meets someone again in this round or has
            # too few or too many seats at the larger tables
            for _try in range(tries):
                p = int(rng.random() * n)
                pn = p * n
                if not lo <= odd[p] <= hi or any(meet[pn + x] >= 2 for x in mem[tab[p]] if x != p):
                    break
            tries = 5 - tries
            tp = tab[p]
            q = int(rng.random() * n)
            while tab[q] == tp:
                q = int(rng.random() * n)
            tq = tab[q]
            qn = q * n
            d_bad = d_fair = 0
            for x in mem[tp]:
                if x != p:
                    if meet[pn + x] >= 2:
                        d_bad -= 1
                    if meet[qn + x] >= 1:
                        d_bad += 1
            for y in mem[tq]:
                if y != q:
                    if meet[qn + y] >= 2:
                        d_bad -= 1
                    if meet[pn + y] >= 1:
                        d_bad += 1
            if odd_table[tp] != odd_table[tq]:
                # the one leaving the larger table loses a seat there, the other gains one
                out, into = (p, q) if odd_table[tp] else (q, p)
                a, b = odd[into], odd[out]
                d_fair = 3 * (a * a + a - b * b + b)
                # leaving the bounds weighs as a repeat, coming back into them as one less
                if a >= hi:
                    d_bad += 1
                elif a < lo:
                    d_bad -= 1
                if b <= lo:
                    d_bad += 1
                elif b > hi:
                    d_bad -= 1
            d = weight * d_bad + d_fair
            if d > 0:
                if temp == 0.0 or d >= 16 * temp:
                    continue
                chance = 1.0 - d / (16 * temp)
                chance *= chance
                chance *= chance
                chance *= chance
                chance *= chance
                if rng.random() >= chance:
                    continue
            for x in mem[tp]:
                if x != p:
                    meet[pn + x] -= 1
                    meet[x * n + p] -= 1
                    meet[qn + x] += 1
                    meet[x * n + q] += 1
            for y in mem[tq]:
                if y != q:
                    meet[qn + y] -= 1
                    meet[y * n + q] -= 1
                    meet[pn + y] += 1
                    meet[y * n + p] += 1
            if odd_table[tp] != odd_table[tq]:
                out, into = (p, q) if odd_table[tp] else (q, p)
                odd[out] -= 1
                odd[into] += 1
            mem[tp][mem[tp].index(p)] = q
            mem[tq][mem[tq].index(q)] = p
            tab[p], tab[q] = tq, tp
            bad += d_bad
            fair += d_fair
            if (bad, fair) < best_key:
                best_key = (bad, fair)
                best = [list(self.tab[r]) for r in range(self.rounds)]
                if bad <= self.target and fair <= self.fair_target:
                    break
        if (bad, fair) != best_key:
            self._restore(best)

    def _restore(self, tabs: list[list[int]]) -> None:
        """Seat the rounds as ``tabs`` says (each player's table per round)."""
        self.meet[:] = self.base_meet
        self.odd[:] = self.base_odd
        self.tab, self.mem = [], []
        for r, tab in enumerate(tabs):
            mem: list[list[int]] = [[] for _ in self.sizes[r]]
            for p, t in enumerate(tab):
                mem[t].append(p)
            for t, table in enumerate(mem):
                self._count(table, +1)
                if self.odd_table[r][t]:
                    for p in table:
                        self.odd[p] += 1
            self.tab.append(list(tab))
            self.mem.append(mem)
