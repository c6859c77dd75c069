"""A number typed at the command line is decimal digits: "²".isdigit() is true, and int("²")
raised a traceback where the commands answer one line."""

import pytest
import typer

from stichwerk.cli.analyse import parse_seats
from stichwerk.cli.play_cego import parse_input as cego_input
from stichwerk.cli.play_doppelkopf import parse_input as doko_input


@pytest.mark.parametrize("parse", [cego_input, doko_input])
def test_a_superscript_is_no_choice(parse: object) -> None:
    assert callable(parse)
    assert parse("²", []) is None
    assert parse("1", []) is None  # a number past the legal actions: none either


def test_a_superscript_is_no_seat() -> None:
    with pytest.raises(typer.Exit):
        parse_seats("0,²")
    assert parse_seats("2,0") == [0, 2]
