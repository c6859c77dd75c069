"""The one state interface every game engine offers and every consumer drives.

Bots, the server, the CLI, the score sheet, tournaments and research tools see a deal only through
this protocol (OpenSpiel's concepts, PokerKit's verify/can/apply, python-chess's cheap copy):

- ``to_act``: the seat whose turn it is (``None`` when the deal is over);
- ``legal_actions(seat)``: what that seat may do now (out-of-turn announcements included);
- ``verify(action)`` raises :class:`~stichwerk.core.errors.IllegalAction` naming the rule,
  ``can(action)`` answers yes or no, ``apply(action)`` verifies, applies and returns the action;
  a refused action leaves the state unchanged;
- ``view(seat)``: what that seat may see (``None``: a spectator), as JSON-ready data. Every message,
  replay and bot input goes through it, so hidden cards are hidden in one place;
- ``result()``: the scored result once the deal is over (the record's ``result``);
- ``clone()`` and ``to_record()``; the game's module builds a state from a record.

Every view holds at least these keys, so the web front end and bots read both games alike:

``game``, ``profile``, ``options`` (the table's overrides), ``seats``, ``players`` (seats dealt in),
``dealer``, ``seat`` (the viewer, ``None`` for a spectator), ``phase``, ``to_act``,
``hand`` (the viewer's cards, ``None`` for a spectator), ``hand_sizes`` (per seat),
``history`` (every action so far as the viewer saw it: cards it could not see are left out,
e.g. ``{"seat": 1, "act": "keep", "count": 2}``), ``trick`` (``[{"seat", "card"}]`` of the trick
in progress), ``last_trick`` (``{"cards": [...], "winner": s}`` or ``None``), ``tricks_won``
(per seat), ``legal_actions`` (the viewer's, as action JSON) and ``result`` (``None`` until the
deal is over). When the deal is over the piles are counted openly, as at the table, and the view
adds ``deal`` (every hand as dealt, and the blind).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, Self

from stichwerk.core.action import Action
from stichwerk.core.series import DealContext, DealOutcome, SeriesRules

JSON = dict[str, Any]


class GameState(Protocol):
    """A deal of one game in progress or finished."""

    game: str
    """``"cego"`` or ``"doppelkopf"``."""

    @property
    def seats(self) -> int:
        """Seats at the table (a 5-table has 5, though only 4 are dealt in)."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` when the deal is over."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (its result is then known)."""
        ...

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now."""
        ...

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` naming the rule ``action`` breaks; return if it is legal."""
        ...

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        ...

    def apply(self, action: Action) -> Action:
        """Verify and apply ``action``; return it in canonical form (the log entry)."""
        ...

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see now (``None``: a spectator, who sees no hand)."""
        ...

    def result(self) -> JSON | None:
        """The scored result once the deal is over, else ``None``."""
        ...

    def clone(self) -> Self:
        """An independent copy (cheap: for search)."""
        ...

    def to_record(self) -> JSON:
        """The game record of NOTATION.md (with ``result`` when the deal is over)."""
        ...


@dataclass(frozen=True)
class GameModule:
    """What a game offers to the rest of the project."""

    name: str
    """The record's ``game`` value."""
    profiles: tuple[str, ...]
    """Profile names; the first is the default."""
    new_deal: Callable[..., GameState]
    """``new_deal(profile=..., options=..., players=..., dealer=..., seed=...)``: a fresh deal.

    ``players`` is the number of seats at the table; at a 5-table the dealer sits out."""
    deal_from_record: Callable[[Mapping[str, Any]], GameState]
    """The state a record's deal starts from (its actions not yet applied)."""
    score_summary: Callable[[Mapping[str, Any]], JSON]
    """The scoring output for a deal summary (what a score sheet knows of a deal)."""
    settings: Callable[[str], JSON]
    """A profile's settings, as JSON (for docs, the UI and tables that override them)."""
    setting_docs: Callable[[str], dict[str, str]]
    """Each setting's meaning in a line, in a language ("en" or "de"; any other code gives
    English): the lobby shows it beside the setting."""
    deal_sides: Callable[[Mapping[str, Any], tuple[int, ...]], list[tuple[int, ...]] | None]
    """``deal_sides(result, playing)``: the sides a finished deal was played between, as tuples
    of the seats in ``playing`` (those dealt in), the declarer's or Re's side first; one side a
    seat when every seat played for itself; ``None`` for a deal that was no game between sides
    (a redeal). A result of a contract or game type the engine does not list raises
    :class:`~stichwerk.core.errors.UnknownDealKind`: the ratings stop rather than guess."""
    typical_margin: float | None
    """The typical margin of victory in settlement points between the sides' means (a win by
    this much moves ratings by openskill's own step); ``None``: margins do not scale a step."""
    deal_types: tuple[str, ...] = ()
    """Special deals a table may agree to deal (``new_deal(deal_type=...)``), such as Cego's
    Drescher; each is allowed where the profile's setting of the same name is on."""
    series_rules: Callable[[str, Mapping[str, Any] | None, int], SeriesRules] | None = None
    """``series_rules(profile, options, seats)``: how the profile keeps a list (its length,
    Pflicht-Soli, Bock ...); ``None``: an open-ended list where every deal counts."""
    summary_outcome: Callable[[Mapping[str, Any], DealContext], tuple[JSON, DealOutcome]] | None = (
        None
    )
    """``summary_outcome(summary, context)``: the scoring output of a deal summary entered on
    a score sheet, and what the list needs of it, checked against where the list stands (a
    Pflicht-Solo by a seat that owes one, a closing round's deal type ...). ``None``: the
    summary's settlement, a deal that counts."""
    series_outcome: Callable[[Mapping[str, Any]], DealOutcome] | None = None
    """``series_outcome(result)``: what the list needs of a finished deal's result (whether it
    counts, a Pflicht-Solo, Bock ...). ``None``: the result's settlement, a deal that counts."""
    duty_solos: bool = False
    """Whether the game knows Pflicht-Soli (a score sheet may then ask for them)."""
