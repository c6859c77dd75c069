"""Cego's entry in the game registry (``stichwerk.games``)."""

from typing import Any

from stichwerk.cego.profiles import PROFILES, rules_for, settings_doc
from stichwerk.cego.record import (
    DEAL_TYPES,
    deal_from_record,
    new_deal,
    score_summary,
    summary_outcome,
)
from stichwerk.core.state import GameModule


def _settings(profile: str) -> dict[str, Any]:
    return rules_for(profile).settings()


def _setting_docs(lang: str) -> dict[str, str]:
    return dict(settings_doc(lang))


GAME = GameModule(
    name="cego",
    profiles=tuple(PROFILES),
    new_deal=new_deal,
    deal_from_record=deal_from_record,
    score_summary=score_summary,
    settings=_settings,
    setting_docs=_setting_docs,
    deal_types=DEAL_TYPES,
    summary_outcome=summary_outcome,
)
