"""The games left to the Pflicht-Soli's deadline: dealt, shown to every seat, recorded."""

import json

import pytest

from stichwerk.core.errors import RecordError
from stichwerk.doppelkopf.record import deal_from_record, new_deal


def test_games_left_are_public_and_replay() -> None:
    d = new_deal(profile="ddv", seed=3, duty_solo_owed=[1, 2], duty_solo_games_left=5)
    for seat in (None, 0, 1, 2, 3):
        assert d.view(seat)["duty_solo_games_left"] == 5
    rec = d.to_record()
    assert rec["duty_solo_games_left"] == 5
    again = deal_from_record(json.loads(json.dumps(rec)))
    assert again.view(1) == d.view(1)
    plain = new_deal(profile="ddv", seed=3)
    assert plain.view(0)["duty_solo_games_left"] is None
    assert "duty_solo_games_left" not in plain.to_record()


@pytest.mark.parametrize("bad", [0, -2, "5", True, 2.5])
def test_bad_games_left_are_refused_in_one_line(bad: object) -> None:
    rec = new_deal(profile="ddv", seed=3).to_record()
    rec["duty_solo_games_left"] = bad
    with pytest.raises(RecordError, match="'duty_solo_games_left' of the record") as err:
        deal_from_record(rec)
    assert "\n" not in str(err.value)
