"""Every rule setting of every game has its meaning in English and in German."""

import pytest

from stichwerk.games import get_game


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_every_setting_has_a_german_meaning_of_its_own(game: str) -> None:
    module = get_game(game)
    english, german = module.setting_docs("en"), module.setting_docs("de")
    settings = {key for p in module.profiles for key in module.settings(p)} - {"name"}
    assert set(english) == settings
    assert set(german) == settings
    for key in sorted(settings):
        assert english[key].strip(), key
        assert german[key].strip(), key
        # A German line that is only the English one copied is a missing translation.
        assert german[key] != english[key], key


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_an_unknown_language_gets_the_english_meanings(game: str) -> None:
    module = get_game(game)
    assert module.setting_docs("fr") == module.setting_docs("en")


def test_the_german_line_is_the_one_beside_the_english() -> None:
    drescher = "What the Drescher loser pays every other seat."
    assert get_game("cego").setting_docs("en")["drescher_value"] == drescher
    assert get_game("cego").setting_docs("de")["drescher_value"] == (
        "Was der Verlierer im Drescher jedem anderen zahlt."
    )
