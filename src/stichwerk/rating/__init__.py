"""Ratings of people and bots from finished deals: the maths alone (openskill's Plackett-Luce).

No database and no I/O: ``stichwerk.storage.ratings`` keeps the numbers and feeds the deals in
their order; this package says who a deal rates and by how much.

**Sides** (``sides``): a deal is a game between *sides*, and which sides a deal had is the
engine's knowledge, asked through the registry (``GameModule.deal_sides``): Cego's contracts are
the declarer against the defenders (1 against 2, 3 or 4), Doppelkopf's the Re party against the
Kontra party (2 against 2, or a soloist 1 against 3); Räuber, Drescher and a Doppelkopf deal
lost by a forfeit (*Verwerfen*) are every seat for itself. A game the registry does not know,
or a contract its engine does not list, raises :class:`~stichwerk.core.errors.UnknownDealKind`
(one line) rather than being rated as something it is not.

**The step** (``rate_deal``): a side's score is its seats' mean settlement: openskill ranks the
sides by it (equal scores tie), and the difference, the margin of victory, scales every
player's step (``margin_factor``, by the engine's ``GameModule.typical_margin``): a narrow win
moves ratings less than a typical one, a decisive one more, whoever was the favourite.
(openskill's own ``margin`` option is not used: it pulls the two sides' ratings together
before the update, so a decisive upset moved the underdog less than a narrow one, and a win
just above its margin less than one just below; ``docs/bots.md``.) Sides of unequal size weigh
the same: a lone declarer or soloist stands in its side as many times as the other side has
members (openskill adds a side's members up, which would make three defenders the favourites
against any soloist), and moves by the step of all its stand-ins, so what one side gains the
other loses, as in the settlement. A seat that sits out (the dealer at a 5-table) is no side's
member and is not rated for the deal, though it settles.

**Who is rated** (``player_key``): built-in and the operator's outside bots by the name they
play under (``b:heuristic``); accounts by their id (``u:17``). Guests are not rated: in the
maths a guest's seat is a newcomer (openskill's prior) every time. A deal among bots and guests
only is not rated, so nobody can move a bot's rating with unattended tables.
"""

from stichwerk.rating.maths import (
    MARGIN_FACTORS,
    MU,
    PROVISIONAL_DEALS,
    SIGMA,
    BoardEntry,
    Skill,
    margin_factor,
    model,
    ordinal,
    player_key,
    rate_deal,
    sides,
)

__all__ = [
    "MARGIN_FACTORS",
    "MU",
    "PROVISIONAL_DEALS",
    "SIGMA",
    "BoardEntry",
    "Skill",
    "margin_factor",
    "model",
    "ordinal",
    "player_key",
    "rate_deal",
    "sides",
]
