"""Doppelkopf's entry in the game registry, and its hooks for a series of deals (a Liste) and
for the ratings (the sides of a finished deal)."""

from collections.abc import Mapping
from typing import Any

from stichwerk.core.errors import UnknownDealKind
from stichwerk.core.series import DealOutcome, SeriesRules
from stichwerk.core.state import GameModule
from stichwerk.doppelkopf.profiles import (
    GAME_TYPES,
    PROFILES,
    get_profile,
    setting_docs,
    settings,
)
from stichwerk.doppelkopf.record import deal_from_record, new_deal
from stichwerk.doppelkopf.summary import score_summary, summary_outcome

TYPICAL_MARGIN = 10.0
"""The median margin of victory between the heuristic bots over 150 deals (ddv), in settlement
points between the sides' means."""


def _setting_docs(lang: str) -> dict[str, str]:
    key = "doc_de" if lang == "de" else "doc"
    return {d["name"]: d[key] for d in setting_docs()}


def series_rules(
    profile: str = "wielandstrasse", options: Mapping[str, Any] | None = None, seats: int = 4
) -> SeriesRules:
    """The list rules of a profile: length, Pflicht-Soli and their enforcement, redeals."""
    p = get_profile(profile, options)
    return SeriesRules(
        seats=seats,
        games=p.games_per_list_five if seats == 5 else p.games_per_list,
        dealer_sits=seats == 5,
        duty_solos=p.duty_solos,
        duty_enforcement=p.duty_enforcement,
        duty_penalty=p.duty_penalty,
        duty_same_dealer_again=p.duty_same_dealer_again,
        parity_check=p.counting == "plus-minus" and seats == 4,
        zero_sum=p.counting == "plus-minus",
        bock=bool(p.bock_triggers),
    )


def series_outcome(result: Mapping[str, Any]) -> DealOutcome:
    """What the series needs from a finished deal's result."""
    score = result["score"]
    redeal = "redeal" in result
    duty_by = result.get("soloist") if result.get("duty_solo") else None
    return DealOutcome(
        settlement=tuple(score["settlement"]),
        counts=bool(result.get("counts", True)),
        redeal=redeal,
        duty_solo_by=duty_by,
        forced=bool(result.get("forced", False)),
        bock=bool(score.get("bock", False)),
        breaks_parity="forfeit" in result and result.get("soloist") is not None,
    )


def deal_sides(result: Mapping[str, Any], playing: tuple[int, ...]) -> list[tuple[int, ...]] | None:
    """Re against Kontra (two against two, or a soloist against three); a deal lost by a
    forfeit (*Verwerfen*) every seat for itself, since the one who forfeited pays each seat
    alone; a redeal no game between sides.

    >>> deal_sides({"game_type": "solo-damen", "re": [1], "kontra": [0, 2, 3]}, (0, 1, 2, 3))
    [(1,), (0, 2, 3)]
    >>> deal_sides({"game_type": "normal", "re": [0], "kontra": [1], "forfeit": 2}, (0, 1, 2, 3))
    [(0,), (1,), (2,), (3,)]
    >>> deal_sides({"game_type": "ramsch", "re": [0, 1], "kontra": [2, 3]}, (0, 1, 2, 3))
    Traceback (most recent call last):
    stichwerk.core.errors.UnknownDealKind: no Doppelkopf game type 'ramsch': its sides are unknown
    """
    if "redeal" in result:
        return None
    if result.get("forfeit") is not None:
        return [(s,) for s in playing]
    game_type = result.get("game_type")
    if game_type is not None and game_type not in GAME_TYPES:
        raise UnknownDealKind(f"no Doppelkopf game type {game_type!r}: its sides are unknown")
    re, kontra = result.get("re") or [], result.get("kontra") or []
    if re and kontra:
        return [tuple(sorted(re)), tuple(sorted(kontra))]
    return None


GAME = GameModule(
    name="doppelkopf",
    profiles=tuple(PROFILES),
    new_deal=new_deal,
    deal_from_record=deal_from_record,
    score_summary=score_summary,
    settings=settings,
    setting_docs=_setting_docs,
    deal_sides=deal_sides,
    typical_margin=TYPICAL_MARGIN,
    series_rules=series_rules,
    summary_outcome=summary_outcome,
    series_outcome=series_outcome,
    duty_solos=True,
)
