"""The search bots roll out on the compiled kernel when numba is there, on Python when not."""

import subprocess
import sys
import textwrap

import pytest

from stichwerk.bots.base import make_bot
from stichwerk.bots.cego import rollouts as cego_rollouts
from stichwerk.bots.doppelkopf import rollouts as doko_rollouts
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game

FALLBACK = textwrap.dedent(
    """
    import sys
    sys.modules["numba"] = None  # as if stichwerk[research] were not installed
    from stichwerk.bots.base import make_bot
    from stichwerk.games import get_game
    import stichwerk.server.app, stichwerk.cli.main  # the web app and the CLI need no numba
    for game in ("cego", "doppelkopf"):
        state = get_game(game).new_deal(seed=3)
        bots = [make_bot("search", game, s, worlds=3) for s in range(4)]
        assert not any(b.compiled for b in bots)
        while not state.is_over:
            seat = state.to_act
            state.apply(bots[seat].act(state.view(seat)))
    assert "numba" not in sys.modules or sys.modules["numba"] is None
    print("ok")
    """
)


def test_without_numba_the_search_plays_on_the_python_path() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FALLBACK], check=False, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("module", [cego_rollouts, doko_rollouts])
def test_the_kernel_is_looked_up_once_and_missing_numba_says_so(
    module: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(module, "_KERNEL", [])
    monkeypatch.setitem(sys.modules, "numba", None)
    for name in ("stichwerk.cego.kernel", "stichwerk.doppelkopf.kernel", "stichwerk.core.kernel"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert module.available() is False  # type: ignore[attr-defined]
    game = "cego" if module is cego_rollouts else "doppelkopf"
    with pytest.raises(StichwerkError, match="needs numba"):
        make_bot("search", game, 0, compiled=True)
    assert make_bot("search", game, 0).compiled is False  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_both_paths_play_whole_deals(game: str) -> None:
    for compiled in (True, False):
        state = get_game(game).new_deal(seed=12, dealer=1)
        bots = [make_bot("search", game, s, worlds=4, compiled=compiled) for s in range(4)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))
        assert state.result() is not None
