"""``stichwerk replay`` and ``stichwerk score``: the command-line contract of NOTATION.md."""

from typing import Any

from stichwerk.cli.common import fail, print_json, read_object
from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction, StichwerkError, one_line
from stichwerk.core.record import get_list
from stichwerk.games import get_game


def replay_record(record: dict[str, Any]) -> dict[str, Any]:
    """Check every action of ``record``; the result when complete, else whose turn it is.

    Raises ``StichwerkError`` with a one-line message naming the bad action.
    """
    game = get_game(record.get("game"))
    state = game.deal_from_record(record)
    actions = get_list(record, "actions", "record")
    for index, raw in enumerate(actions):
        try:
            action = Action.from_json(raw)
        except StichwerkError as exc:
            raise StichwerkError(f"action {index}: {exc}") from None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(
                f"action {index} (seat {action.seat}, {one_line(action.act)}) is illegal: {exc}"
            ) from None
        except StichwerkError as exc:
            raise StichwerkError(
                f"action {index} (seat {action.seat}, {one_line(action.act)}): {exc}"
            ) from None
    if state.is_over:
        result = state.result()
        assert result is not None
        return result
    seat = state.to_act
    return {
        "complete": False,
        "to_act": seat,
        "legal_actions": [a.to_json() for a in state.legal_actions(seat)],
    }


def replay_command(file: str) -> None:
    """Body of ``stichwerk replay FILE``."""
    record = read_object(file, "record")
    try:
        out = replay_record(record)
    except StichwerkError as exc:
        fail(str(exc))
    print_json(out)


def score_command(file: str) -> None:
    """Body of ``stichwerk score FILE``."""
    summary = read_object(file, "summary")
    try:
        game = get_game(summary.get("game"))
        out = game.score_summary(summary)
    except StichwerkError as exc:
        fail(str(exc))
    print_json(out)
