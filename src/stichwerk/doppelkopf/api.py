"""Doppelkopf's entry in the game registry, and its hooks for a series of deals (a Liste)."""

from collections.abc import Mapping
from typing import Any

from stichwerk.core.series import DealOutcome, SeriesRules
from stichwerk.core.state import GameModule
from stichwerk.doppelkopf.profiles import PROFILES, get_profile, setting_docs, settings
from stichwerk.doppelkopf.record import deal_from_record, new_deal
from stichwerk.doppelkopf.summary import score_summary, summary_outcome


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


GAME = GameModule(
    name="doppelkopf",
    profiles=tuple(PROFILES),
    new_deal=new_deal,
    deal_from_record=deal_from_record,
    score_summary=score_summary,
    settings=settings,
    setting_docs=_setting_docs,
    series_rules=series_rules,
    summary_outcome=summary_outcome,
)
