"""A table's series ("Liste"): the server's adapter to ``stichwerk.core.series``.

The core series knows dealer rotation, the sitting dealer of a 5-seat table, redeals that do
not count, Pflicht-Soli and Bock; a game's entry in the registry may say how its profiles keep
a list and what a finished deal means to it (``GameModule.series_rules`` and
``series_outcome``) and otherwise gets the plain list: every deal counts and is settled as its
result says. The table actor asks only what is here, and adds the sheet's labels and the deal
numbers of its own log.
"""

from dataclasses import replace
from typing import Any

from stichwerk.core.series import DealOutcome, Series, SeriesRules
from stichwerk.games import get_game


class TableSeries:
    """``length`` counted deals of ``game`` at ``seats`` seats, the first dealt by
    ``first_dealer``, then the ``closing`` rounds (deal types, each dealt once by every seat),
    with the sheet to show; a tournament table's ``list_rules`` set its Pflicht-Soli."""

    def __init__(
        self,
        game: str,
        profile: str,
        options: dict[str, Any],
        seats: int,
        length: int,
        closing: tuple[str, ...] = (),
        first_dealer: int = 0,
        list_rules: dict[str, Any] | None = None,
    ) -> None:
        self.game = game
        engine = get_game(game)
        if engine.series_rules is not None:
            rules = engine.series_rules(profile, options, seats)
            if rules.games != length:
                # A list of another length than the profile's owes no Pflicht-Soli.
                rules = replace(rules, games=length, duty_solos=0)
        else:
            rules = SeriesRules(seats=seats, games=length, dealer_sits=seats == 5)
        rules = replace(rules, closing=tuple(closing))
        owed = None
        if list_rules is not None:
            # A tournament table: the Pflicht-Soli of its round, and what each seat still owes.
            rules = replace(
                rules,
                duty_solos=int(list_rules.get("duty_solos", rules.duty_solos)),
                duty_penalty=list_rules.get("duty_penalty", rules.duty_penalty),
                duty_games_after=int(list_rules.get("duty_games_after", 0)),
            )
            if list_rules.get("duty_owed") is not None and rules.duty_solos:
                owed = [int(n) for n in list_rules["duty_owed"]]
        self._outcome = engine.series_outcome
        self.series = Series(rules, first_dealer=first_dealer, duty_owed=owed)
        self.labels: list[str] = []
        self.numbers: list[int] = []

    @property
    def is_over(self) -> bool:
        """Whether every deal of the list is played."""
        return self.series.is_over

    def change_closing(self, closing: tuple[str, ...], *, dealing: bool) -> None:
        """New closing rounds in place of those still to come (``Series.change_closing``)."""
        self.series.change_closing(closing, dealing=dealing)

    def deal_args(self) -> dict[str, Any]:
        """``dealer``, ``players``, ``deal_type`` in a closing round, and any duty arguments
        for the game's ``new_deal``."""
        return self.series.deal_args()

    def add(self, number: int, result: dict[str, Any]) -> bool:
        """Write deal ``number``'s result into the list; returns whether it counted."""
        if self._outcome is not None:
            outcome = self._outcome(result)
        else:
            score = result.get("score", {})
            outcome = DealOutcome(settlement=tuple(score.get("settlement", ())))
        entry = self.series.record(outcome)
        # A closing round's deal is named by its type: a Pflichträuber is a Räuber nobody chose.
        self.labels.append(entry.deal_type or deal_label(result))
        self.numbers.append(number)
        return entry.number is not None

    def to_json(self) -> dict[str, Any]:
        """The score sheet every seat sees (finished deals only: nothing hidden)."""
        s = self.series
        return {
            "length": s.rules.total_games,
            "ordinary": s.rules.games,
            "closing": list(s.rules.closing),
            "counted": s.games_played,
            "rows": [
                {
                    "number": number,
                    "game_no": entry.number,
                    "dealer": entry.dealer,
                    "counts": entry.number is not None,
                    "multiplier": entry.multiplier,
                    "settlement": list(entry.written),
                    "label": label,
                    "deal_type": entry.deal_type,
                }
                for number, entry, label in zip(self.numbers, s.entries, self.labels, strict=True)
            ],
            "totals": list(s.totals),
            "final_totals": s.final_totals(),
            "duty_owed": list(s.owed) if s.rules.duty_solos else None,
        }


def deal_label(result: dict[str, Any]) -> str:
    """A short name for the sheet: the contract or game type (with the solo's kind).

    >>> deal_label({"contract": "halbe"})
    'halbe'
    >>> deal_label({"game_type": "solo-damen"})
    'solo-damen'
    """
    for key in ("contract", "game_type", "type"):
        value = result.get(key)
        if isinstance(value, str):
            return value
    if "redeal" in result:
        return "redeal"
    return ""
