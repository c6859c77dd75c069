"""Cego's entry in the game registry (``stichwerk.games``): what the rest of the project may
ask of the engine, the sides of a finished deal among it (for the ratings)."""

from collections.abc import Mapping
from typing import Any

from stichwerk.cego.contracts import ALL_CONTRACTS, EVERYONE_FOR_HIMSELF
from stichwerk.cego.profiles import PROFILES, get_profile, settings_doc
from stichwerk.cego.record import (
    DEAL_TYPES,
    deal_from_record,
    new_deal,
    score_summary,
    summary_outcome,
)
from stichwerk.core.errors import UnknownDealKind
from stichwerk.core.state import GameModule

TYPICAL_MARGIN = 80.0
"""The median margin of victory between the heuristic bots over 150 deals (schwarzwald and
titisee alike), in settlement points between the sides' means."""


def _settings(profile: str) -> dict[str, Any]:
    return get_profile(profile).to_json()


def _setting_docs(lang: str) -> dict[str, str]:
    return dict(settings_doc(lang))


def deal_sides(result: Mapping[str, Any], playing: tuple[int, ...]) -> list[tuple[int, ...]] | None:
    """The declarer against the defenders; Räuber and Drescher every seat for itself.

    >>> deal_sides({"contract": "solo", "declarer": 1}, (0, 1, 2, 3))
    [(1,), (0, 2, 3)]
    >>> deal_sides({"contract": "raeuber", "declarer": None}, (0, 1, 2))
    [(0,), (1,), (2,)]
    >>> deal_sides({"contract": "tout", "declarer": 1}, (0, 1, 2, 3))
    Traceback (most recent call last):
    stichwerk.core.errors.UnknownDealKind: no Cego contract 'tout': its sides are unknown
    """
    contract = result.get("contract")
    if contract in EVERYONE_FOR_HIMSELF:
        return [(s,) for s in playing]
    if contract is not None and contract not in ALL_CONTRACTS:
        raise UnknownDealKind(f"no Cego contract {contract!r}: its sides are unknown")
    declarer = result.get("declarer")
    if isinstance(declarer, int) and declarer in playing:
        return [(declarer,), tuple(s for s in playing if s != declarer)]
    return None


GAME = GameModule(
    name="cego",
    profiles=tuple(PROFILES),
    new_deal=new_deal,
    deal_from_record=deal_from_record,
    score_summary=score_summary,
    settings=_settings,
    setting_docs=_setting_docs,
    deal_sides=deal_sides,
    typical_margin=TYPICAL_MARGIN,
    deal_types=DEAL_TYPES,
    summary_outcome=summary_outcome,
)
