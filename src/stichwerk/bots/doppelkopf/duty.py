"""What playing the Pflicht-Solo now is worth beyond the deal: the end of the list in view.

A seat that owes a Pflicht-Solo pays at the deadline if it has not played one: the penalty
(Wielandstraße: 15 off the Vorrunde total) or the Vorführung (DDV: a solo it must play with
whatever hand it gets). Until then each deal is a chance. Let ``X`` be what the seat's best
solo is worth against its best other declaration in a deal dealt at random; a seat that owes
nothing gains ``max(X, 0)`` a deal (it plays the good solos as Lust-Soli). Against that, the
expected loss of still owing with ``j`` chances left is

    L(0) = P * 3 / 4 (the penalty)  or  E[max(-X, 0)] (the Vorführung: a solo on any hand),
    L(j) = E[ min(max(-X, 0), L(j - 1)) ]:

the seat solos when ``X`` beats ``-L(j - 1)`` and otherwise waits (optimal stopping over the
deals left). A solo now discharges the debt, so the search (and the heuristic) add ``L(j)``
to every declaration that would be the Pflicht-Solo, ``j`` being the chances after this
deal. ``X`` is the search's own valuation of the reservations on random
deals (``benchmarks/fit_duty.py`` writes :mod:`duty_table`); the loss is in the bots' units,
the seat's settlement against the table's mean (a penalty ``P`` costs ``P * 3 / 4`` of it).

Without the games left to the deadline (a deal outside a list, an old record) the bonus is 0
and the bots decide as they did before.
"""

from collections.abc import Sequence
from functools import cache

from stichwerk.bots.doppelkopf import duty_table  # written by fit_duty.py
from stichwerk.bots.doppelkopf.knowledge import Knowledge
from stichwerk.core.series import games_to_choose


@cache
def owing_loss(profile: str, penalty: float, forced: bool, chances: int) -> float:
    """``L(chances)``: the expected loss of still owing the Pflicht-Solo with ``chances`` deals
    left to play it by choice, under ``profile``'s solo values."""
    gains = duty_table.SOLO_GAIN[profile if profile in duty_table.SOLO_GAIN else "wielandstrasse"]
    return loss_of_owing(gains, None if forced else penalty * 3 / 4, chances)


def loss_of_owing(gains: Sequence[float], at_deadline: float | None, chances: int) -> float:
    """``L(chances)`` for a solo worth each of ``gains`` (equally likely) against the seat's
    best other declaration; ``at_deadline``: the penalty's cost, ``None`` for a Vorführung."""
    n = len(gains)
    loss = sum(max(-x, 0.0) for x in gains) / n if at_deadline is None else at_deadline
    for _ in range(chances):
        loss = sum(min(max(-x, 0.0), loss) for x in gains) / n
    return loss


def chances_after(k: Knowledge) -> int | None:
    """The deals after this one in which the seat could still play its Pflicht-Solo by choice
    (``None``: no deadline known). A 5-table's dealer sits out; under the Vorführung the last
    deals go to the seats forced, one for each solo owed at the table."""
    left = k.duty_games_left
    if left is None:
        return None
    after = left - 1
    if k.profile.duty_enforcement == "forced":
        after = games_to_choose(after, k.duty_owing)
    if k.seats == 5:
        return sum(1 for j in range(1, after + 1) if (k.dealer + j) % 5 != k.seat)
    return max(after, 0)


def discharge_value(k: Knowledge) -> float:
    """What a solo of this seat now is worth beyond its deal, as the Pflicht-Solo it would be:
    0 when the seat owes none, is vorgeführt (it must solo anyway) or no deadline is known."""
    if not k.owes_duty or k.forced_now:
        return 0.0
    chances = chances_after(k)
    if chances is None:
        return 0.0
    p = k.profile
    return owing_loss(p.name, float(p.duty_penalty), p.duty_enforcement == "forced", chances)


def discharges(k: Knowledge, option: str) -> bool:
    """Whether declaring ``option`` would play the seat's Pflicht-Solo: a declared solo, or
    (where the profile counts it) the Stilles Solo of a seat that holds both Kreuz-Damen and
    says gesund."""
    if option in ("gesund", "solo-still"):
        return k.holds_both_kreuz_damen() and k.profile.counts_as_duty("solo-still")
    return option.startswith("solo-") and k.profile.counts_as_duty(option)
