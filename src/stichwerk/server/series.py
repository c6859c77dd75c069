"""The series ("Liste") of deals at a table: who deals next, who is dealt in, running totals.

This is the server's seam to the game-agnostic series of ``stichwerk.core.series``: the table
actor asks only these questions, so the rules of dealer rotation and redeals stay in one place.
"""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DealPlan:
    """How to deal the next deal."""

    dealer: int


@dataclass
class SeriesRow:
    """One line of the score sheet."""

    number: int
    dealer: int
    counts: bool
    settlement: list[float]
    label: str


@dataclass
class Series:
    """A table's series: ``length`` counting deals at ``seats`` seats."""

    game: str
    seats: int
    length: int
    rows: list[SeriesRow] = field(default_factory=list)

    @property
    def counted(self) -> int:
        """Deals played that count (redeals do not)."""
        return sum(1 for r in self.rows if r.counts)

    @property
    def is_over(self) -> bool:
        """Whether the series has its ``length`` deals."""
        return self.counted >= self.length

    def plan(self) -> DealPlan:
        """The next deal: the deal passes to the next seat after every deal that counts;
        after a redeal the same dealer deals again."""
        return DealPlan(dealer=self.counted % self.seats)

    def add(self, number: int, dealer: int, result: dict[str, Any]) -> SeriesRow:
        """Write a finished deal into the sheet."""
        counts = deal_counts(result)
        settlement = settlement_of(result, self.seats)
        row = SeriesRow(number, dealer, counts, settlement, deal_label(result))
        self.rows.append(row)
        return row

    def totals(self) -> list[float]:
        """Running total per seat."""
        out = [0.0] * self.seats
        for row in self.rows:
            for seat, value in enumerate(row.settlement):
                out[seat] += value
        return out

    def to_json(self) -> dict[str, Any]:
        """The score sheet as sent to every client (public: finished deals only)."""
        return {
            "length": self.length,
            "counted": self.counted,
            "rows": [
                {
                    "number": r.number,
                    "dealer": r.dealer,
                    "counts": r.counts,
                    "settlement": r.settlement,
                    "label": r.label,
                }
                for r in self.rows
            ],
            "totals": self.totals(),
        }


def _score(result: dict[str, Any]) -> dict[str, Any]:
    score = result.get("score")
    return score if isinstance(score, dict) else result


def settlement_of(result: dict[str, Any], seats: int) -> list[float]:
    """Per-seat settlement of a result (NOTATION.md: ``settlement``, one number per seat)."""
    raw = _score(result).get("settlement")
    out = [0.0] * seats
    if isinstance(raw, list):
        for seat, value in enumerate(raw[:seats]):
            if isinstance(value, int | float) and not isinstance(value, bool):
                out[seat] = float(value)
    return out


def deal_counts(result: dict[str, Any]) -> bool:
    """A redeal (thrown in, nobody took the Armut ...) does not count towards the series."""
    score = _score(result)
    return not any(result.get(key) or score.get(key) for key in ("redeal", "void"))


def deal_label(result: dict[str, Any]) -> str:
    """A short name for the sheet: the contract or game type."""
    for source in (result, _score(result)):
        for key in ("contract", "game_type", "type"):
            value = source.get(key)
            if isinstance(value, str):
                return value
    return ""
