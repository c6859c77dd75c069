"""Both games name their rule profiles the same way, so code written for one reads the other."""

from types import ModuleType

import pytest

from stichwerk.cego import profiles as cego_profiles
from stichwerk.cego.record import new_deal as new_cego
from stichwerk.core.errors import RecordError
from stichwerk.doppelkopf import profiles as doko_profiles
from stichwerk.doppelkopf.record import new_deal as new_doko


@pytest.mark.parametrize("module", [cego_profiles, doko_profiles], ids=["cego", "doppelkopf"])
def test_the_same_names_in_both_games(module: ModuleType) -> None:
    profile_class = module.Profile
    assert module.DEFAULT_PROFILE in module.PROFILES
    for name, profile in module.PROFILES.items():
        assert isinstance(profile, profile_class)
        assert profile.name == name
        assert module.get_profile(name) is profile
        assert module.get_profile(name, None) is profile
        assert profile.with_options(None) is profile
        assert profile.with_options({}) is profile
        assert profile.to_json()["name"] == name
    with pytest.raises(RecordError, match="unknown"):
        module.get_profile("no-such-profile")
    with pytest.raises(RecordError, match="options must be an object"):
        module.get_profile(module.DEFAULT_PROFILE, ["ulti"])
    for old in ("Rules", "rules_for", "with_overrides"):
        assert not hasattr(module, old)
        assert not hasattr(profile_class, old)


def test_a_state_holds_its_profile_not_its_name() -> None:
    cego = new_cego(profile="titisee", options={"ulti_value": 60}, seed=3)
    doko = new_doko(profile="ddv", seed=3)
    assert isinstance(cego.profile, cego_profiles.Profile)
    assert isinstance(doko.profile, doko_profiles.Profile)
    assert (cego.profile.name, cego.profile.ulti_value) == ("titisee", 60)
    assert doko.profile.name == "ddv"
    assert not hasattr(cego, "rules")
    # the record and the view still carry the name, as NOTATION.md has it
    assert cego.view(0)["profile"] == "titisee"
