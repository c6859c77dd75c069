"""How the bots bid a Solo, as a model the search can use inside every sampled world.

The bots announce a Solo when its simulated value beats the bar of their rule
(``heuristic.MARGIN["solo"]``). Inside a sampled world the search needs that decision for seats
whose hands it has only just dealt, thousands of times per decision, so it reads the expected
Solo off a linear model of a few counts of the hand (:func:`features`), fitted to the kernel's
own Solo simulations of random hands by ``benchmarks/fit_bidding.py`` (which prints this table).
The same model tells the inference how likely a seat's pass or Solo was.
"""

from stichwerk.cego import cards as C
from stichwerk.cego.profiles import Profile

SOLO_BAR = 5.0
"""The bots announce a Solo worth more than this (``heuristic.MARGIN["solo"]``)."""
SOLO_SPREAD = 8.0
"""How sharply the chance of a Solo rises around the bar (in points of the Solo's value): the
inference's bid is ``1 / (1 + exp(-(value - SOLO_BAR) / SOLO_SPREAD))``."""

SOLO_MODEL: dict[tuple[str, int], tuple[float, ...]] = {
    # benchmarks/fit_bidding.py --hands 1200 (R² 0.90 and 0.87; the model and the simulations
    # put 91% and 96.5% of the hands on the same side of the bar). The three profiles score a
    # Solo alike, so their fits agree.
    ("schwarzwald", 3): (-101.71, 16.59, 3.69, 13.7, 8.35, -4.5, -0.76),
    ("schwarzwald", 4): (-143.11, 17.66, 7.95, 18.25, 10.27, 4.3, -3.7),
    ("titisee", 3): (-101.71, 16.59, 3.69, 13.7, 8.35, -4.5, -0.76),
    ("titisee", 4): (-143.11, 17.66, 7.95, 18.25, 10.27, 4.3, -3.7),
    ("zego", 3): (-101.71, 16.59, 3.69, 13.7, 8.35, -4.5, -0.76),
    ("zego", 4): (-143.11, 17.66, 7.95, 18.25, 10.27, 4.3, -3.7),
}
"""Per (profile, seats dealt in): the coefficients of :func:`features` for the expected Solo."""


def features(hand: int) -> list[float]:
    """The counts the model reads: a constant, trumps, trumps from T18, T21 and T22, kings,
    void suits, the Geiß."""
    trumps = hand & C.TRUMPS
    kings = sum(1 for s in range(4) if hand >> (22 + 8 * s + 7) & 1)
    voids = sum(1 for s in range(4) if not hand & C.SUIT_MASK[s])
    return [
        1.0,
        float(trumps.bit_count()),
        float((trumps >> 17).bit_count()),
        float((trumps >> 20).bit_count()),
        float(kings),
        float(voids),
        float(hand & 1),
    ]


def solo_model(rules: Profile, players: int) -> tuple[float, ...]:
    """The coefficients for a table (a profile's own, else Schwarzwald's)."""
    key = (rules.name, 3 if players == 3 else 4)
    return SOLO_MODEL.get(key) or SOLO_MODEL[("schwarzwald", key[1])]


def expected_solo(hand: int, model: tuple[float, ...]) -> float:
    """The model's expected Solo of ``hand``."""
    return sum(c * f for c, f in zip(model, features(hand), strict=True))
