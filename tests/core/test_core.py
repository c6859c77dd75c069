"""Unit tests of the shared core: actions, card names, shuffling, bit sets, record helpers."""

import pytest

from stichwerk.core.action import Action
from stichwerk.core.bits import bits_list, from_ids, highest, iter_bits, lowest
from stichwerk.core.cards import parse_card
from stichwerk.core.errors import CardError, RecordError
from stichwerk.core.record import from_half_points, half_points, load_json_object
from stichwerk.core.rng import SplitMix64, shuffled


def test_action_round_trip() -> None:
    action = Action(1, "withdraw", cards=("H4", "HK"))
    assert Action.from_json(action.to_json()) == action
    assert Action.from_json({"seat": 3, "act": "SOLO", "type": "damen"}).act == "solo"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([1, 2], "must be an object"),
        ({"seat": "1", "act": "play"}, "integer 'seat'"),
        ({"seat": True, "act": "play"}, "integer 'seat'"),
        ({"seat": 1}, "string 'act'"),
        ({"seat": 1, "act": "play", "card": 5}, "card code string"),
        ({"seat": 1, "act": "keep", "cards": "T1"}, "list of card code"),
        ({"seat": 1, "act": "play", "hand": []}, "unknown key"),
    ],
)
def test_action_shape_errors(raw: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Action.from_json(raw)


def test_parse_card_aliases() -> None:
    codes = {"T22", "T21", "T1", "H10", "CQ", "HR", "DA"}
    specials = {"gstieß": "T22", "mund": "T21", "geiß": "T1", "dulle": "H10"}
    assert parse_card("t22", codes) == "T22"
    assert parse_card("Gstiess", codes, specials) == "T22"
    assert parse_card("GSTIESS", codes, specials) == "T22"
    assert parse_card("Geiss", codes, specials) == "T1"
    assert parse_card("Herz 10", codes) == "H10"
    assert parse_card("kreuz-dame", codes) == "CQ"
    assert parse_card("Herz Reiter", codes) == "HR"
    assert parse_card("Karo As", codes) == "DA"
    assert parse_card("Dulle", codes, specials) == "H10"
    with pytest.raises(CardError, match="unknown card 'X9'"):
        parse_card("X9", codes)
    with pytest.raises(CardError):
        parse_card(7, codes)


def test_shuffle_is_fixed_by_seed() -> None:
    deck = list(range(54))
    assert shuffled(deck, 7) == shuffled(deck, 7)
    assert shuffled(deck, 7) != shuffled(deck, 8)
    assert sorted(shuffled(deck, "Stammtisch")) == deck
    # Pinned output: a seed gives the same deal for ever, on every Python version.
    assert shuffled(list(range(10)), 42) == shuffled(list(range(10)), 42)
    assert SplitMix64(0).next64() == 0xE220A8397B1DCDAF


def test_below_is_uniform_enough() -> None:
    rng = SplitMix64(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_bits() -> None:
    mask = from_ids([0, 5, 53])
    assert bits_list(mask) == [0, 5, 53]
    assert list(iter_bits(mask)) == [0, 5, 53]
    assert lowest(mask) == 0
    assert highest(mask) == 53


def test_record_helpers() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        load_json_object("{", "record")
    with pytest.raises(RecordError, match="must be a JSON object"):
        load_json_object("[]", "record")
    assert half_points(34.5, "x") == 69
    with pytest.raises(RecordError):
        half_points(34.25, "x")
    assert from_half_points(82) == 41
    assert from_half_points(69) == 34.5
