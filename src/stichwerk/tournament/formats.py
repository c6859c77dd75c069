"""Tournament formats as data: rounds, tables, games, Pflicht-Soli, the Endrunde, tie-breaks.

A format is a frozen dataclass like a rule profile, so a club's variant is a changed copy
(``dataclasses.replace(WIELANDSTRASSE, duty_penalty=20)``), never new code. The two formats of
``shared/spec/RULINGS.md``:

- ``wielandstrasse`` (Doppelkopf): a *Vorrunde* of 3 group rounds at 4- and 5-tables (8 games at
  a 4-table, 10 at a 5-table, where the dealer sits out), one Pflicht-Solo owed per player over
  the Vorrunde (−15 on the Vorrunde total for each one missing), then an *Endrunde*: the best 4
  (5 where the count needs a 5-table there) play for the title without Vorrunde points, the rest
  at tables by Vorrunde rank with their Vorrunde points, for places 5 (6) to last;
- ``swm`` (Cego, the Schwarzwaldmeisterschaft): 4-tables, two passes of 24 games with the seats
  drawn again between them; the standing is the sum of the settlements.

>>> WIELANDSTRASSE.table_mix(13)
(4, 4, 5)
>>> print(WIELANDSTRASSE.why_not(11))  # doctest: +NORMALIZE_WHITESPACE
11 players cannot be seated at 4- and 5-player tables:
2 tables seat 8 to 10 players, 3 tables seat 12 to 15
"""

from dataclasses import dataclass
from functools import cached_property

from stichwerk.core.errors import StichwerkError

TIE_BREAKS = ("final", "preliminary", "games_won")
"""The tie-break keys a format may list, each compared higher-first:

- ``final``: the Endrunde score;
- ``preliminary``: the Vorrunde score (penalties for missing Pflicht-Soli taken off);
- ``games_won``: games won over the whole tournament.

Players equal on the score that decides the place and on every tie-break share the place."""

RANKING_POINTS = ("n-p+1", "table")
"""``n-p+1``: with N participants place p gets N − p + 1 (seed 004, "Auszählung");
``table``: place p gets ``points_table[p − 1]`` (0 beyond the table), for clubs that use fixed
points."""

SHARED_POINTS = ("best", "average")
"""What players sharing a place get: the points of the place they share (``best``: two players
sharing place 3 of 15 get 13 each) or the average of the places they fill together
(``average``: 12.5 each)."""


class PlayerCountError(StichwerkError):
    """A player count the format cannot seat (the message says why)."""


@dataclass(frozen=True)
class TournamentFormat:
    """How a tournament is played: see the module docstring for the two built-in formats."""

    name: str
    game: str
    """The game's registry name (``doppelkopf``, ``cego``)."""
    profile: str
    """The rule profile every table plays."""
    table_sizes: tuple[int, ...] = (4, 5)
    """Seats at a table, the preferred size first: a round seats as many tables of the first
    size as fit (Wielandstraße: as many 4-tables as fit, the rest at 5-tables)."""
    games: tuple[tuple[int, int], ...] = ((4, 8), (5, 10))
    """Games a table plays in one round, by table size."""
    dealer_sits: tuple[int, ...] = (5,)
    """Table sizes at which the dealer sits out each game and scores nothing."""
    rounds: int = 3
    """Rounds before the Endrunde (the Vorrunde's group rounds, or the passes of ``swm``); the
    seats are drawn anew for each."""
    duty_solos: int = 1
    """Pflicht-Soli each player owes over the whole Vorrunde."""
    duty_penalty: int = 15
    """Points taken off the Vorrunde total for each Pflicht-Solo not played."""
    final_round: bool = True
    """An Endrunde follows, seated by Vorrunde rank."""
    title_table_carries: bool = False
    """The title table's players keep their Vorrunde points (Wielandstraße: no)."""
    others_carry: bool = True
    """The other Endrunde tables keep their Vorrunde points (Wielandstraße: yes)."""
    others_ranked_together: bool = True
    """The players below the title table are ranked together (places 5 to last over all their
    tables, as the carried points allow), not table by table."""
    final_duty_solos: int = 0
    """Pflicht-Soli owed in the Endrunde."""
    most_winners: int = 3
    """Seats that can win one game (write a plus in it): a Doppelkopf party is at most three of
    the four dealt in, a Cego game's zero-sum settlement leaves at least one loser. Typed totals
    whose games won add up to more than this times the games are refused."""
    tie_breaks: tuple[str, ...] = ("final", "preliminary", "games_won")
    """Compared in order when the deciding scores are equal (see ``TIE_BREAKS``)."""
    ranking_points: str = "n-p+1"
    points_table: tuple[int, ...] = ()
    shared_points: str = "best"
    min_players: int = 8
    max_players: int = 200
    description: str = ""

    def __post_init__(self) -> None:
        if not self.table_sizes or any(s < 2 for s in self.table_sizes):
            raise StichwerkError("a format needs table sizes of at least 2 seats")
        if len(set(self.table_sizes)) != len(self.table_sizes):
            raise StichwerkError("a format lists each table size once")
        for size in self.table_sizes:
            if self.games_at(size) < 1:
                raise StichwerkError(f"the format gives no games for a {size}-table")
        if self.most_winners < 1:
            raise StichwerkError("a format lets at least one seat win a game")
        if self.rounds < 1:
            raise StichwerkError("a format needs at least one round")
        if self.duty_solos < 0 or self.final_duty_solos < 0 or self.duty_penalty < 0:
            raise StichwerkError("Pflicht-Soli and their penalty cannot be negative")
        unknown = set(self.tie_breaks) - set(TIE_BREAKS)
        if unknown:
            raise StichwerkError(
                f"unknown tie-break {sorted(unknown)[0]!r} (known: {', '.join(TIE_BREAKS)})"
            )
        if self.ranking_points not in RANKING_POINTS:
            raise StichwerkError(f"unknown ranking points rule {self.ranking_points!r}")
        if self.ranking_points == "table" and not self.points_table:
            raise StichwerkError("the ranking points rule 'table' needs a points_table")
        if self.shared_points not in SHARED_POINTS:
            raise StichwerkError(f"unknown rule for shared places {self.shared_points!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise StichwerkError("a format needs 1 <= min_players <= max_players")

    def games_at(self, size: int) -> int:
        """Games a table of ``size`` seats plays in one round (0: no such table)."""
        return dict(self.games).get(size, 0)

    def sitting_dealer(self, size: int) -> bool:
        """Whether the dealer sits out each game at a table of ``size`` seats."""
        return size in self.dealer_sits

    @cached_property
    def _sizes_text(self) -> str:
        names = [f"{s}-" for s in self.table_sizes[:-1]] + [f"{self.table_sizes[-1]}-player"]
        if len(names) == 1:
            return f"{names[0]} tables only"
        return f"{', '.join(names[:-1])} and {names[-1]} tables"

    def fits(self, players: int) -> bool:
        """Whether ``players`` can be seated (table sizes and the format's limits)."""
        try:
            self.check_players(players)
        except PlayerCountError:
            return False
        return True

    def check_players(self, players: int) -> None:
        """Raise :class:`PlayerCountError` saying why ``players`` cannot play this format."""
        self.table_mix(players)
        if players < self.min_players:
            raise PlayerCountError(
                f"a {self.name} tournament needs at least {self.min_players} players, not {players}"
            )
        if players > self.max_players:
            raise PlayerCountError(
                f"a {self.name} tournament seats at most {self.max_players} players, not {players}"
            )

    def table_mix(self, players: int) -> tuple[int, ...]:
        """The table sizes of one round for ``players``, preferred size first (as many tables
        of the preferred size as fit, then as few tables of the other sizes as fit).

        Raises :class:`PlayerCountError` with the reason when no mix of the sizes seats exactly
        ``players`` (no limits of the format are checked here: an Endrunde after withdrawals
        may seat fewer players than a tournament may start with).

        >>> WIELANDSTRASSE.table_mix(10)
        (5, 5)
        >>> print(SWM.why_not(14))
        14 players cannot be seated at 4-player tables only: 12 or 16 players would fit
        """
        if players < 1:
            raise PlayerCountError(f"a tournament needs players, not {players}")
        mix = _best_mix(players, self.table_sizes)
        if mix is None:
            raise PlayerCountError(self.why_not(players))
        return mix

    def why_not(self, players: int) -> str | None:
        """Why no mix of the format's tables seats ``players`` (``None`` if one does)."""
        if _best_mix(players, self.table_sizes) is not None:
            return None
        head = f"{players} players cannot be seated at {self._sizes_text}"
        small, large = min(self.table_sizes), max(self.table_sizes)
        if small == large:
            below, above = players // small * small, (players // small + 1) * small
            near = f"{below} or {above}" if below else f"{above}"
            return f"{head}: {near} players would fit"
        # k tables seat small*k to large*k players: name the two table counts around the gap
        below = players // large
        parts = []
        for k in (below, below + 1):
            if k >= 1:
                seat = "1 table seats" if k == 1 else f"{k} tables seat"
                how_many = (
                    f"{small * k} or {large * k}"
                    if large * k - small * k == 1
                    else (f"{small * k} to {large * k}")
                )
                parts.append(f"{seat} {how_many}")
        return f"{head}: {parts[0]} players" + "".join(f", {p}" for p in parts[1:])

    def fitting_counts(self) -> list[int]:
        """Every player count from ``min_players`` to ``max_players`` the format seats."""
        return [n for n in range(self.min_players, self.max_players + 1) if self.fits(n)]


def _best_mix(players: int, sizes: tuple[int, ...]) -> tuple[int, ...] | None:
    """As many tables of ``sizes[0]`` as fit, then the fewest tables of the other sizes (the
    larger first when there is a choice); ``None`` when no mix seats exactly ``players``."""
    preferred, others = sizes[0], sorted(sizes[1:], reverse=True)
    for count in range(players // preferred, -1, -1):
        rest = _fewest_tables(players - preferred * count, others)
        if rest is not None:
            return tuple([preferred] * count + rest)
    return None


def _fewest_tables(players: int, sizes: list[int]) -> list[int] | None:
    if players == 0:
        return []
    if not sizes:
        return None
    size, others = sizes[0], sizes[1:]
    best: list[int] | None = None
    for count in range(players // size, -1, -1):
        rest = _fewest_tables(players - size * count, others)
        if rest is not None and (best is None or count + len(rest) < len(best)):
            best = [size] * count + rest
    return best


WIELANDSTRASSE = TournamentFormat(
    name="wielandstrasse",
    game="doppelkopf",
    profile="wielandstrasse",
    description=(
        "Doppelkopf, DOKO-Turnier-Regeln Wielandstraße (seed 004, VI): Vorrunde of 3 group "
        "rounds (8 games at a 4-table, 10 at a 5-table), one Pflicht-Solo owed (−15 if missing), "
        "Endrunde by Vorrunde rank: the best 4 (5) for the title without Vorrunde points, the "
        "rest with them"
    ),
)

SWM = TournamentFormat(
    name="swm",
    game="cego",
    profile="schwarzwald",
    table_sizes=(4,),
    games=((4, 24),),
    dealer_sits=(),
    rounds=2,
    duty_solos=0,
    duty_penalty=0,
    final_round=False,
    tie_breaks=("games_won",),
    description=(
        "Cego, Schwarzwaldmeisterschaft: 4-tables, 48 games in two passes of 24 with the seats "
        "drawn anew after 24; the standing is the sum of the settlements"
    ),
)

FORMATS: dict[str, TournamentFormat] = {f.name: f for f in (WIELANDSTRASSE, SWM)}


def get_format(name: object) -> TournamentFormat:
    """The built-in format called ``name``, or a one-line error naming the known ones."""
    if not isinstance(name, str) or name not in FORMATS:
        raise StichwerkError(f"unknown tournament format {name!r} (known: {', '.join(FORMATS)})")
    return FORMATS[name]
