"""``python -m stichwerk.bots.warm`` (run by ``make run`` and ``make test``) reaches the kernels
a search decision calls, so a fresh install compiles them before a player waits."""

import pytest

pytest.importorskip("numba")

from stichwerk.bots.cego import compiled as cego_search
from stichwerk.bots.cego import playout as cego_playout
from stichwerk.bots.doppelkopf import compiled as doppelkopf_search
from stichwerk.bots.doppelkopf import playout as doppelkopf_playout
from stichwerk.bots.warm import main, warm


def test_every_step_runs_and_the_search_kernels_are_compiled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    steps = warm()
    assert [name for name, _ in steps] == [
        "Cego kernel", "Doppelkopf kernel", "Cego search", "Doppelkopf search",
    ]  # fmt: skip
    assert all(seconds >= 0 for _, seconds in steps)
    for dispatcher in (
        cego_playout._random_deals,
        doppelkopf_playout._random_deals,
        cego_search.search_weighted,
        cego_search.contract_values,
        doppelkopf_search.search_weighted,
        doppelkopf_search.reservation_values,
    ):
        assert dispatcher.signatures, dispatcher  # compiled (or loaded from the cache)
    assert main() == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == [name for name, _ in steps]
