"""How few repeated pairs a draw can have: lower bounds and an exact search for small fields.

A *repeated pair* is a meeting of two players beyond their first: a pair that sits together in
two rounds counts 1, in three rounds 2. So the repeats of a draw are the pair meetings of all its
rounds less the different pairs that met, and the fewer repeats, the more different opponents
everyone meets.

Two bounds that hold for every draw with the given table sizes:

- **counting**: a player at tables of sizes s1, s2, ... meets (s1 − 1) + (s2 − 1) + ... players
  but has only N − 1 others to meet; each meeting beyond that is a repeat;
- **pigeonhole**: a later round's table of s players drawn from the k tables of round 1 has at
  least two players from one of them when s > k (8 players at two tables: every later table
  holds two pairs of the first round).

:func:`exact_minimum` searches all draws of a small field (with the first round fixed, which
loses nothing by symmetry, and the second round up to the symmetries of the first).
"""

from collections.abc import Iterable, Sequence
from itertools import permutations, product

Sizes = Sequence[Sequence[int]]
"""The table sizes of each round."""


def _pairs(k: int) -> int:
    return k * (k - 1) // 2


def spread_pairs(size: int, groups: int) -> int:
    """The fewest pairs that share a group when ``size`` players come from ``groups`` groups.

    >>> spread_pairs(4, 2), spread_pairs(5, 4), spread_pairs(4, 4)
    (2, 1, 0)
    """
    q, r = divmod(size, groups)
    return r * _pairs(q + 1) + (groups - r) * _pairs(q)


def counting_bound(sizes: Sizes) -> int:
    """Repeats forced because players meet more others than there are (see module docstring).

    The seats at larger tables are given to the players with the most room left, so the bound
    holds however they are spread.

    >>> counting_bound([[4, 4]] * 3)
    8
    """
    if not sizes:
        return 0
    players = sum(sizes[0])
    met = [0] * players
    for tables in sizes:
        # Each round seats everyone; the larger seats go to those who have met the fewest.
        seats = sorted(tables, reverse=True)
        order = sorted(range(players), key=lambda p: met[p])
        i = 0
        for size in seats:
            for _ in range(size):
                met[order[i]] += size - 1
                i += 1
    excess = sum(max(0, m - (players - 1)) for m in met)
    return (excess + 1) // 2


def pigeonhole_bound(sizes: Sizes) -> int:
    """Repeats forced in each later round by the number of tables of the first.

    >>> pigeonhole_bound([[4, 4, 4]] * 3)
    6
    """
    if len(sizes) < 2:
        return 0
    groups = len(sizes[0])
    return sum(spread_pairs(s, groups) for tables in sizes[1:] for s in tables)


def lower_bound(sizes: Sizes) -> int:
    """The larger of the counting and the pigeonhole bound."""
    return max(counting_bound(sizes), pigeonhole_bound(sizes))


def unfairness(seats: Iterable[int]) -> int:
    """How unevenly the seats at the larger tables are spread: the sum of each player's count
    cubed, least when the counts differ by at most one, and steep, so that one player at a
    5-table three times weighs more than two players there twice.

    >>> unfairness([1, 1, 1, 0]), unfairness([2, 1, 0, 0])
    (3, 9)
    """
    return sum(c**3 for c in seats)


def fairest_spread(sizes: Sizes, preferred: int) -> int:
    """The least :func:`unfairness` any draw can have: each round's seats at the larger tables
    go to those who have had the fewest so far.

    >>> fairest_spread([[4, 5]] * 3, preferred=4)  # 15 seats: six players twice, three once
    51
    """
    if not sizes:
        return 0
    seats = [0] * sum(sizes[0])
    for tables in sizes:
        larger = sum(s for s in tables if s != preferred)
        order = sorted(range(len(seats)), key=lambda p: seats[p])
        for p in order[:larger]:
            seats[p] += 1
    return unfairness(seats)


def exact_minimum(sizes: Sizes, node_limit: int = 5_000_000) -> int | None:
    """The fewest repeats any draw with these table sizes can have, by exhaustive search;
    ``None`` when the search would visit more than ``node_limit`` nodes.

    The first round is fixed (renaming players maps any draw onto one with that first round);
    the second is taken up to the symmetries of the first (what counts is how many players of
    each first-round table meet at each second-round table); later rounds are searched player by
    player, cutting branches that cannot beat the best draw found.

    >>> exact_minimum([[4, 4]] * 3)
    8
    """
    found = _Exhaustive(sizes, None, node_limit).run(lower_bound(sizes), _INF)
    return None if found is None else found[0]


def exact_optimum(
    sizes: Sizes, preferred: int, node_limit: int = 20_000_000
) -> tuple[int, int] | None:
    """The best any draw with these table sizes can do: the fewest repeats, and among the
    draws with that few the least :func:`unfairness` of the seats at tables of another size
    than ``preferred``; ``None`` when the search would visit more than ``node_limit`` nodes.

    >>> exact_optimum([[4, 5]] * 3, preferred=4)
    (12, 87)
    """
    fewest = exact_minimum(sizes, node_limit)
    if fewest is None:
        return None
    search = _Exhaustive(sizes, preferred, node_limit, most=fewest)
    return search.run(fewest, fairest_spread(sizes, preferred))


class _Exhaustive:
    """Branch and bound over whole draws (see :func:`exact_minimum`). With ``preferred`` the
    key is (repeats, unfairness), both of which only grow as players are seated, so a branch
    is cut as soon as its key reaches the best draw's."""

    def __init__(
        self, sizes: Sizes, preferred: int | None, node_limit: int, most: int | None = None
    ) -> None:
        self.rounds = [list(tables) for tables in sizes]
        self.preferred = preferred
        self.budget = node_limit
        self.players = sum(self.rounds[0]) if self.rounds else 0
        # nothing is as bad as this: every pair of every round repeated
        worst = sum(_pairs(s) for tables in self.rounds for s in tables) + 1
        self.best = (worst if most is None else most, _INF)

    def run(self, stop: int, fair_stop: int = 0) -> tuple[int, int] | None:
        """Search until the node budget runs out (``None``) or a draw with ``stop`` repeats
        (and ``fair_stop`` unfairness) is found, which no draw beats."""
        rounds = self.rounds
        if len(rounds) < 2:
            return (0, 0)
        n = self.players
        first: list[int] = []
        for t, s in enumerate(rounds[0]):
            first += [t] * s
        base = [[0] * n for _ in range(n)]
        _add_round(base, first)
        odd = [0] * n
        self._seat_odd(odd, rounds[0], first)
        offsets = [sum(rounds[0][:t]) for t in range(len(rounds[0]))]
        seen: set[tuple[tuple[int, ...], ...]] = set()
        for matrix in _contingency(rounds[0], rounds[1]):
            key = _canonical(matrix, rounds[0], rounds[1])
            if key in seen:
                continue
            seen.add(key)
            second = [0] * n
            start = list(offsets)
            for i, row in enumerate(matrix):
                for j, count in enumerate(row):
                    for _ in range(count):
                        second[start[i]] = j
                        start[i] += 1
            meet = [row[:] for row in base]
            cost = _add_round(meet, second)
            seats = list(odd)
            self._seat_odd(seats, rounds[1], second)
            if not self._better(cost, seats):
                continue
            if not self._rounds(meet, seats, rounds[2:], cost):
                return None
            if self.best[0] <= stop and self.best[1] <= fair_stop:
                break
        return self.best

    def _seat_odd(self, odd: list[int], sizes: list[int], table_of: list[int]) -> None:
        if self.preferred is None:
            return
        for p, t in enumerate(table_of):
            if sizes[t] != self.preferred:
                odd[p] += 1

    def _better(self, cost: int, odd: list[int]) -> bool:
        """Whether a draw so far may still beat the best one found."""
        if self.preferred is None:
            return cost < self.best[0]
        return (cost, unfairness(odd)) < self.best

    def _rounds(
        self, meet: list[list[int]], odd: list[int], rounds: list[list[int]], cost: int
    ) -> bool:
        """Seat ``rounds`` on top of ``meet``; ``False`` when the node budget ran out."""
        if not rounds:
            key = (cost, unfairness(odd) if self.preferred is not None else 0)
            self.best = min(self.best, key)
            return True
        sizes = rounds[0]
        n = self.players
        members: list[list[int]] = [[] for _ in sizes]
        preferred = self.preferred

        def place(p: int, cost_now: int) -> bool:
            self.budget -= 1
            if self.budget < 0:
                return False
            if not self._better(cost_now, odd):
                return True
            if p == n:
                for table in members:
                    _count_pairs(meet, table, +1)
                done = self._rounds(meet, odd, rounds[1:], cost_now)
                for table in members:
                    _count_pairs(meet, table, -1)
                return done
            tried_empty: set[int] = set()
            row = meet[p]
            for t, size in enumerate(sizes):
                table = members[t]
                if len(table) == size:
                    continue
                if not table:
                    # empty tables of one size are alike: try only the first
                    if size in tried_empty:
                        continue
                    tried_empty.add(size)
                added = sum(1 for x in table if row[x])
                larger = preferred is not None and size != preferred
                table.append(p)
                if larger:
                    odd[p] += 1
                ok = place(p + 1, cost_now + added)
                if larger:
                    odd[p] -= 1
                table.pop()
                if not ok:
                    return False
            return True

        return place(0, cost)


_INF = 1 << 60


def _count_pairs(meet: list[list[int]], table: list[int], step: int) -> None:
    for a in range(len(table)):
        for b in range(a + 1, len(table)):
            meet[table[a]][table[b]] += step
            meet[table[b]][table[a]] += step


def _add_round(meet: list[list[int]], table_of: list[int]) -> int:
    """Seat a round given as each player's table; return the repeats it adds."""
    added = 0
    n = len(table_of)
    for p in range(n):
        for q in range(p + 1, n):
            if table_of[p] == table_of[q]:
                if meet[p][q]:
                    added += 1
                meet[p][q] += 1
                meet[q][p] += 1
    return added


def _contingency(rows: list[int], cols: list[int]) -> list[list[list[int]]]:
    """Every matrix of non-negative counts with the given row and column sums."""
    out: list[list[list[int]]] = []

    def fill(i: int, left: list[int], acc: list[list[int]]) -> None:
        if i == len(rows):
            if not any(left):
                out.append([r[:] for r in acc])
            return
        for row in product(*(range(min(c, rows[i]) + 1) for c in left)):
            if sum(row) == rows[i]:
                fill(i + 1, [c - x for c, x in zip(left, row, strict=True)], [*acc, list(row)])

    fill(0, list(cols), [])
    return out


def _canonical(
    matrix: list[list[int]], rows: list[int], cols: list[int]
) -> tuple[tuple[int, ...], ...]:
    """A key equal for matrices that differ only by swapping tables of equal size."""
    best: tuple[tuple[int, ...], ...] | None = None
    for rp in permutations(range(len(rows))):
        if any(rows[a] != rows[b] for a, b in zip(rp, range(len(rows)), strict=True)):
            continue
        permuted = [matrix[i] for i in rp]
        # columns: sort each group of equal-size columns by their contents
        cols_by_size: dict[int, list[tuple[int, ...]]] = {}
        for j, s in enumerate(cols):
            cols_by_size.setdefault(s, []).append(tuple(r[j] for r in permuted))
        key = tuple(c for s in sorted(cols_by_size) for c in sorted(cols_by_size[s], reverse=True))
        if best is None or key > best:
            best = key
    assert best is not None
    return best
