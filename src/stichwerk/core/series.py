"""A series of deals at one table (a *Liste*): who deals, what is owed, the running totals.

Game-agnostic: a game turns each finished deal's result into a :class:`DealOutcome` (its
settlement, whether it counts, whose Pflicht-Solo it was ...) and the series keeps the list.
It knows

- **dealer rotation**: the deal passes to the next seat after a counted game; a redeal that does
  not count is dealt again by the same dealer; after a Pflicht-Solo the same dealer may deal
  again (not after a Vorführung);
- the **5-player table**, where the dealer sits out the deal (and scores nothing, unless the game
  settles him);
- **Pflicht-Soli** owed per player: played ones are struck off; a table that forces them
  ("Vorführung") makes the next player who owes one play it once the owed solos fill the games
  left; a table that fines them takes ``duty_penalty`` per missing solo off the final total;
- **Bock** rounds (values multiplied for one round after a triggering deal), and the list checks
  (each row sums to zero and, with plus-minus at a 4-table, all totals stay even or all odd);
- **closing rounds** (*Schlussrunden*) after the ordinary games: each names a deal type the game
  deals on purpose (Cego's Drescher, Pflichträuber), and is one counted game dealt by each seat
  in turn, the rotation going on as usual.

>>> s = Series(SeriesRules(seats=4, games=4))
>>> s.deal_args()["dealer"]
0
>>> _ = s.record(DealOutcome(settlement=(1, 1, -1, -1)))
>>> s.dealer, s.totals, s.games_played
(1, [1, 1, -1, -1], 1)
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from stichwerk.core.errors import StichwerkError

Number = int | float
DutyEnforcement = Literal["penalty", "forced", "none"]
"""How a list collects the Pflicht-Soli owed: points off at the end, a Vorführung, or not at all."""


def games_to_choose(left: int, owed: int) -> int:
    """Of ``left`` ordinary games, those before the Vorführungen begin: the Pflicht-Soli still
    owed at the table fill the last games, one each (TSR 5.2.3). The list and the bots that
    look ahead to it read the rule here."""
    return max(left - owed, 0)


@dataclass(frozen=True)
class SeriesRules:
    """How a list is kept at one table."""

    seats: int = 4
    games: int | None = None
    """Counted games in the list (``None``: open-ended)."""
    dealer_sits: bool = False
    """The dealer gets no cards (the 5-player table)."""
    duty_solos: int = 0
    """Pflicht-Soli each player owes in this list."""
    duty_enforcement: DutyEnforcement = "penalty"
    """``penalty`` (points off at the end), ``forced`` (Vorführung) or ``none``."""
    duty_penalty: Number = 0
    duty_games_after: int = 0
    """Ordinary games after this list in which the Pflicht-Soli owed can still be played (a
    tournament's later Vorrunde rounds): a penalty's deadline lies that far beyond the list's
    end (a Vorführung comes within the list)."""
    duty_same_dealer_again: bool = True
    parity_check: bool = False
    """Check the even/odd rule after every game (plus-minus lists at a 4-table)."""
    zero_sum: bool = True
    """Every row of the list sums to zero (plus-minus counting; not a plus-only list)."""
    bock: bool = False
    bock_factor: int = 2
    closing: tuple[str, ...] = ()
    """Closing rounds after the ``games`` ordinary games, in order: each a deal type for the
    game's ``new_deal(deal_type=...)``, played as one counted game dealt by each seat."""

    @property
    def players(self) -> int:
        """Seats dealt in each deal."""
        return self.seats - 1 if self.dealer_sits else self.seats

    @property
    def total_games(self) -> int | None:
        """Counted games in the whole list: the ordinary ones and the closing rounds'.

        >>> SeriesRules(seats=4, games=8, closing=("drescher",)).total_games
        12
        """
        if self.games is None:
            return None
        return self.games + len(self.closing) * self.seats


@dataclass(frozen=True)
class DealOutcome:
    """What a series needs to know of one finished deal (the game's hook builds it)."""

    settlement: tuple[Number, ...]
    counts: bool = True
    """The deal counts as a game of the list (a redeal usually does not)."""
    redeal: bool = False
    duty_solo_by: int | None = None
    """The seat whose Pflicht-Solo this deal was."""
    forced: bool = False
    """The Pflicht-Solo was forced (vorgeführt): the deal passes on as usual."""
    bock: bool = False
    """The deal triggers a Bock round."""
    breaks_parity: bool = False
    """The settlement holds penalty points that may break the even/odd rule (a Verwerfen in a
    solo, TSR 7.3): the check leaves the row out."""


@dataclass(frozen=True)
class DealContext:
    """Where the list stands for the next deal: what a score sheet checks an entered deal
    against (the dealer, the sitting seat, the Pflicht-Soli still owed, a Vorführung, the
    closing round's deal type)."""

    seats: int
    dealer: int
    sitting: int | None
    owed: tuple[int, ...] | None
    """Pflicht-Soli each seat still owes (``None``: the list keeps no Pflicht-Soli)."""
    forced: int | None
    """The seat that must play its Pflicht-Solo in this deal (Vorführung)."""
    deal_type: str | None
    """The closing round's deal type, ``None`` for an ordinary deal."""

    @property
    def vorhand(self) -> int:
        """The first seat dealt in after the dealer."""
        return (self.dealer + 1) % self.seats


@dataclass(frozen=True)
class SeriesEntry:
    """One row of the list."""

    number: int | None
    """The game's number in the list, ``None`` for a deal that does not count."""
    dealer: int
    outcome: DealOutcome
    multiplier: int
    written: tuple[Number, ...]
    totals: tuple[Number, ...]
    deal_type: str | None = None
    """The closing round's deal type this deal was dealt as (``None``: an ordinary deal)."""


@dataclass
class Series:
    """The list of one table; see the module docstring."""

    rules: SeriesRules
    players: Sequence[str] = ()
    first_dealer: int = 0
    duty_owed: list[int] | None = None
    """Pflicht-Soli each seat still owes at the start (default: ``rules.duty_solos`` each)."""
    entries: list[SeriesEntry] = field(default_factory=list)
    dealer: int = field(init=False)
    totals: list[Number] = field(init=False)
    owed: list[int] = field(init=False)
    _bock: list[int] = field(init=False, default_factory=list)
    _played: int = field(init=False, default=0, repr=False, compare=False)
    """Counted games among ``entries``, kept as they are recorded: asking it must not cost a
    pass over the whole list (a 1,500-deal score sheet asks it several times per deal)."""

    def __post_init__(self) -> None:
        seats = self.rules.seats
        if seats < 2:
            raise StichwerkError("a series needs at least two seats")
        if self.players and len(self.players) != seats:
            raise StichwerkError(f"a series of {seats} seats needs {seats} player names")
        if not 0 <= self.first_dealer < seats:
            raise StichwerkError(f"the first dealer must be a seat from 0 to {seats - 1}")
        if self.rules.closing and self.rules.games is None:
            raise StichwerkError("closing rounds need a list of a fixed number of games")
        self.dealer = self.first_dealer
        self.totals = [0] * seats
        owed = self.duty_owed if self.duty_owed is not None else [self.rules.duty_solos] * seats
        if len(owed) != seats:
            raise StichwerkError("duty_owed needs one number per seat")
        self.owed = list(owed)
        self._played = sum(1 for e in self.entries if e.number is not None)

    # ---------------------------------------------------------------- where the list stands

    @property
    def games_played(self) -> int:
        return self._played

    @property
    def games_left(self) -> int | None:
        """Counted games still to play, closing rounds included (``None``: open-ended)."""
        total = self.rules.total_games
        if total is None:
            return None
        return max(total - self.games_played, 0)

    @property
    def deal_type(self) -> str | None:
        """The deal type of the next deal: a closing round's, or ``None`` for an ordinary deal.

        A deal that does not count is dealt again as the same type.

        >>> s = Series(SeriesRules(seats=3, games=1, closing=("drescher", "pflichtraeuber")))
        >>> kinds = []
        >>> while not s.is_over:
        ...     kinds.append(s.deal_type)
        ...     _ = s.record(DealOutcome(settlement=(0, 0, 0)))
        >>> print(*kinds)
        None drescher drescher drescher pflichtraeuber pflichtraeuber pflichtraeuber
        """
        games = self.rules.games
        if games is None or self.games_played < games or self.is_over:
            return None
        return self.rules.closing[(self.games_played - games) // self.rules.seats]

    @property
    def ordinary_games_left(self) -> int | None:
        """Counted games still to play before the closing rounds (``None``: open-ended)."""
        games = self.rules.games
        return None if games is None else max(games - self.games_played, 0)

    @property
    def is_over(self) -> bool:
        return self.games_left == 0

    def change_closing(self, closing: Sequence[str], *, dealing: bool = False) -> None:
        """Put ``closing`` in place of the closing rounds still to come, as a table may decide
        late in the evening. A round that has begun stays as it is (``dealing``: a deal is
        under way and counts as begun); a list that is over cannot grow.

        >>> s = Series(SeriesRules(seats=3, games=1))
        >>> _ = s.record(DealOutcome(settlement=(0, 0, 0)))
        >>> s.is_over
        True
        >>> s.change_closing(["drescher"])
        Traceback (most recent call last):
        stichwerk.core.errors.StichwerkError: the list is over: no round can be added
        >>> s = Series(SeriesRules(seats=3, games=1, closing=("drescher",)))
        >>> _ = s.record(DealOutcome(settlement=(0, 0, 0)))
        >>> s.change_closing(["pflichtraeuber", "drescher"], dealing=True)
        Traceback (most recent call last):
        stichwerk.core.errors.StichwerkError: the drescher round has begun and stays first
        >>> s.change_closing(["drescher", "pflichtraeuber"], dealing=True)
        >>> s.rules.total_games
        7
        """
        games = self.rules.games
        if games is None:
            raise StichwerkError("closing rounds need a list of a fixed number of games")
        if self.is_over:
            raise StichwerkError("the list is over: no round can be added")
        dealt = max(self.games_played + int(dealing) - games, 0)
        begun = -(-dealt // self.rules.seats)
        old = self.rules.closing[:begun]
        if tuple(closing[:begun]) != old:
            rounds = ", then ".join(old)
            raise StichwerkError(
                f"the {rounds} round{'s have' if begun > 1 else ' has'} begun and stay"
                f"{'' if begun > 1 else 's'} first"
            )
        self.rules = replace(self.rules, closing=tuple(closing))

    @property
    def sitting(self) -> int | None:
        """The seat that sits out the next deal (the dealer at a 5-table)."""
        return self.dealer if self.rules.dealer_sits else None

    def forced_seat(self) -> int | None:
        """The seat that must play its Pflicht-Solo in the next deal (Vorführung), if any."""
        left = self.ordinary_games_left
        if self.rules.duty_enforcement != "forced" or left is None:
            return None
        # The owed solos must fit into the ordinary games; closing rounds play no Pflicht-Solo.
        if left <= 0:
            return None
        missing = sum(self.owed)
        if missing == 0 or games_to_choose(left, missing) > 0:
            return None
        for k in range(1, self.rules.seats + 1):
            seat = (self.dealer + k) % self.rules.seats
            if seat != self.sitting and self.owed[seat] > 0:
                return seat
        return None

    def context(self) -> DealContext:
        """The next deal's :class:`DealContext`."""
        if self.is_over:
            raise StichwerkError("the list is complete")
        return DealContext(
            seats=self.rules.seats,
            dealer=self.dealer,
            sitting=self.sitting,
            owed=tuple(self.owed) if self.rules.duty_solos else None,
            forced=self.forced_seat() if self.deal_type is None else None,
            deal_type=self.deal_type,
        )

    def multiplier(self) -> int:
        """The Bock factor of the next deal."""
        if not self._bock or not self._bock[0]:
            return 1
        return int(self.rules.bock_factor ** self._bock[0])

    def deal_args(self) -> dict[str, Any]:
        """Keyword arguments for the game's ``new_deal``: ``dealer`` and ``players`` (the seats
        at the table), ``deal_type`` in a closing round, and with Pflicht-Soli
        ``duty_solo_owed``, ``duty_solo_forced`` and ``duty_solo_games_left`` (while a seat owes
        one: the ordinary games, this one included, to the Pflicht-Soli's deadline)."""
        if self.is_over:
            raise StichwerkError("the list is complete")
        args: dict[str, Any] = {"dealer": self.dealer, "players": self.rules.seats}
        deal_type = self.deal_type
        if deal_type is not None:
            args["deal_type"] = deal_type
            return args
        if self.rules.duty_solos:
            args["duty_solo_owed"] = [s for s in range(self.rules.seats) if self.owed[s] > 0]
            forced = self.forced_seat()
            if forced is not None:
                args["duty_solo_forced"] = forced
            ordinary = self.ordinary_games_left
            if any(self.owed) and ordinary is not None:
                # A Vorführung comes within this list; a penalty only at the later deadline.
                later = (
                    self.rules.duty_games_after if self.rules.duty_enforcement == "penalty" else 0
                )
                args["duty_solo_games_left"] = ordinary + later
        return args

    # ---------------------------------------------------------------- recording a deal

    def record(self, outcome: DealOutcome) -> SeriesEntry:
        """Write a finished deal into the list and move the deal on."""
        if self.is_over:
            raise StichwerkError("the list is complete")
        seats = self.rules.seats
        if len(outcome.settlement) != seats:
            raise StichwerkError(f"a settlement needs {seats} numbers, one per seat")
        deal_type = self.deal_type
        if outcome.duty_solo_by is not None:
            if not 0 <= outcome.duty_solo_by < seats:
                raise StichwerkError("duty_solo_by must be a seat")
            if self.owed[outcome.duty_solo_by] > 0:
                self.owed[outcome.duty_solo_by] -= 1
        number: int | None = None
        mult = 1
        if outcome.counts:
            number = self.games_played + 1
            self._played = number
            mult = self.multiplier()
            if self._bock:
                self._bock.pop(0)
        written = tuple(v * mult for v in outcome.settlement)
        for s in range(seats):
            self.totals[s] += written[s]
        entry = SeriesEntry(
            number, self.dealer, outcome, mult, written, tuple(self.totals), deal_type
        )
        self.entries.append(entry)
        if outcome.counts and outcome.bock and self.rules.bock:
            rounds = self.rules.players
            while len(self._bock) < rounds:
                self._bock.append(0)
            for i in range(rounds):
                self._bock[i] += 1
        same = not outcome.counts or (
            outcome.duty_solo_by is not None
            and self.rules.duty_same_dealer_again
            and not outcome.forced
        )
        if not same:
            self.dealer = (self.dealer + 1) % seats
        return entry

    # ---------------------------------------------------------------- checks and the end

    def row_sums_ok(self) -> bool:
        """Every row sums to zero (a zero-sum list)."""
        return all(sum(e.written) == 0 for e in self.entries)

    def parity_ok(self) -> bool:
        """The even/odd rule: all totals are even or all are odd (TSR 7.3), leaving out the
        penalty points of a Verwerfen in a solo."""
        if not self.rules.parity_check:
            return True
        checked = list(self.totals)
        for e in self.entries:
            if e.outcome.breaks_parity:
                checked = [t - w for t, w in zip(checked, e.written, strict=True)]
        return len({int(t) % 2 for t in checked}) <= 1

    def penalties(self) -> list[Number]:
        """Points taken off each seat at the end for Pflicht-Soli not played."""
        if self.rules.duty_enforcement != "penalty":
            return [0] * self.rules.seats
        return [-self.rules.duty_penalty * n for n in self.owed]

    def final_totals(self) -> list[Number]:
        """The totals with the Pflicht-Solo penalties applied."""
        return [t + p for t, p in zip(self.totals, self.penalties(), strict=True)]

    def to_json(self) -> dict[str, Any]:
        """The list as JSON: each row, the totals, what is still owed."""
        return {
            "seats": self.rules.seats,
            "players": list(self.players),
            "games": self.rules.games,
            "closing": list(self.rules.closing),
            "total_games": self.rules.total_games,
            "games_played": self.games_played,
            "dealer": self.dealer,
            "rows": [
                {
                    "number": e.number,
                    "dealer": e.dealer,
                    "written": list(e.written),
                    "multiplier": e.multiplier,
                    "duty_solo_by": e.outcome.duty_solo_by,
                    "deal_type": e.deal_type,
                    "totals": list(e.totals),
                }
                for e in self.entries
            ],
            "totals": list(self.totals),
            "duty_owed": list(self.owed),
            "final_totals": self.final_totals(),
        }
