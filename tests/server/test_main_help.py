"""``python -m stichwerk.server --help`` reads as plain text: every option with one line of help,
no reStructuredText, no ``<bool>``; a bad option value is one line, not a traceback."""

import argparse
import re

import pytest

from stichwerk.server import __main__ as server_main


def _help(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        server_main.main(["--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys)
    assert "``" not in text and ":func:" not in text and ":class:" not in text
    assert "<bool>" not in text
    assert not re.search(r"`[^`]+`_", text)  # no RST links
    for option in ("--host", "--port", "--log-level", "--database"):
        assert option in text


def test_every_option_has_one_line_of_help() -> None:
    parser = server_main.build_parser()
    for action in parser._actions:
        assert action.help and action.help is not argparse.SUPPRESS, action.option_strings
        assert "\n" not in action.help


def test_a_bad_log_level_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        server_main.main(["--log-level", "loud"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "invalid choice: 'loud'" in err


def test_the_database_option_is_parsed() -> None:
    argv = ["--database", "sqlite:///x.db", "--log-level", "DEBUG"]
    args = server_main.build_parser().parse_args(argv)
    assert args.database == "sqlite:///x.db" and args.log_level == "debug"
