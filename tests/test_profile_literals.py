"""A setting with fixed choices is typed by them: its field is a ``Literal`` of exactly the values
a table may choose (mypy then checks every comparison and every profile written in code), and
the run-time check takes nothing else."""

from dataclasses import fields
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from stichwerk.cego.profiles import PROFILES as CEGO_PROFILES
from stichwerk.cego.profiles import Profile as CegoProfile
from stichwerk.core.errors import RecordError
from stichwerk.core.series import DutyEnforcement, SeriesRules
from stichwerk.doppelkopf.profiles import PROFILES as DOKO_PROFILES
from stichwerk.doppelkopf.profiles import Profile as DokoProfile
from stichwerk.sheet.settings import ENFORCEMENTS, ListSettings, read_settings

ENGINES: list[tuple[type, dict[str, Any]]] = [
    (CegoProfile, dict(CEGO_PROFILES)),
    (DokoProfile, dict(DOKO_PROFILES)),
]


def literal_choices(hint: Any) -> tuple[Any, ...] | None:
    """The values of a ``Literal`` (or of a tuple of one), else None."""
    if get_origin(hint) is Literal:
        return get_args(hint)
    if get_origin(hint) is tuple and get_args(hint) and get_origin(get_args(hint)[0]) is Literal:
        return get_args(get_args(hint)[0])
    return None


@pytest.mark.parametrize(("cls", "profiles"), ENGINES, ids=["cego", "doppelkopf"])
def test_no_setting_is_a_plain_string(cls: type, profiles: dict[str, Any]) -> None:
    hints = get_type_hints(cls)
    plain = [f.name for f in fields(cls) if hints[f.name] is str and f.name != "name"]
    assert not plain, f"settings typed str where their choices are fixed: {plain}"
    assert any(literal_choices(hints[f.name]) for f in fields(cls))


@pytest.mark.parametrize(("cls", "profiles"), ENGINES, ids=["cego", "doppelkopf"])
def test_a_table_chooses_exactly_the_literal_values(cls: type, profiles: dict[str, Any]) -> None:
    hints = get_type_hints(cls)
    checked = 0
    for profile in profiles.values():
        for f in fields(cls):
            choices = literal_choices(hints[f.name])
            if choices is None:
                continue
            scalar = get_origin(hints[f.name]) is Literal
            assert getattr(profile, f.name) in choices or (
                not scalar and set(getattr(profile, f.name)) <= set(choices)
            ), (profile.name, f.name)
            for value in choices:
                chosen = profile.with_options({f.name: value if scalar else [value]})
                assert getattr(chosen, f.name) == (value if scalar else (value,))
                checked += 1
            with pytest.raises(RecordError):
                profile.with_options({f.name: "no-such-choice" if scalar else ["no-such-choice"]})
    assert checked > 10


def test_a_lists_duty_enforcement_is_typed_by_its_choices() -> None:
    """The list's way of collecting Pflicht-Soli (the core series' and the score sheet's) is one
    ``Literal``, and a sheet takes exactly its values."""
    assert get_type_hints(SeriesRules)["duty_enforcement"] == DutyEnforcement
    assert get_type_hints(ListSettings)["duty_enforcement"] == DutyEnforcement
    assert get_args(DutyEnforcement) == ENFORCEMENTS
    for value in ENFORCEMENTS:
        settings = read_settings({"game": "doppelkopf", "games": 8, "duty_enforcement": value})
        assert settings.duty_enforcement == value == settings.rules().duty_enforcement
    with pytest.raises(RecordError, match="'duty_enforcement' must be one of penalty, forced"):
        read_settings({"game": "doppelkopf", "duty_enforcement": "whip"})
