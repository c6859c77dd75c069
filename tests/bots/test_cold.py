"""With numba's cache empty, a search bot's first decision does not wait on the compiler: it
searches in Python until ``stichwerk.bots.warm`` has compiled the kernels (the web server runs
it in the background), then on the kernels."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from stichwerk.bots import warm
from stichwerk.bots.base import make_bot
from stichwerk.bots.cego import rollouts as cego_rollouts
from stichwerk.bots.doppelkopf import rollouts as doko_rollouts

COLD = textwrap.dedent(
    """
    import sys
    from stichwerk.bots.base import make_bot
    from stichwerk.games import get_game
    from stichwerk.bots import warm
    assert not warm.cached()
    for game in ("cego", "doppelkopf"):
        state = get_game(game).new_deal(seed=5)
        bots = [make_bot("search", game, s, budget=0.2) for s in range(4)]
        assert not any(b.compiled for b in bots), game
        for _ in range(3):  # the first decisions: bidding, a reservation
            seat = state.to_act
            state.apply(bots[seat].act(state.view(seat)))
    # No compile happened: numba's dispatchers hold no machine code (or were never imported).
    from numba.core.registry import CPUDispatcher
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("stichwerk."):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, CPUDispatcher):
                assert not value.signatures, (name, value)
    print("ok")
    """
)


def test_a_first_decision_with_an_empty_cache_compiles_nothing(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", COLD],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
    assert not list(tmp_path.glob("numba/**/*.nbi"))  # nothing was written to the cache


def test_the_marker_makes_the_search_take_the_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numba")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert warm.cache_dir() == tmp_path
    assert not warm.cached()
    for game, module in (("cego", cego_rollouts), ("doppelkopf", doko_rollouts)):
        assert module.ready() is False
        assert make_bot("search", game, 0).compiled is False  # type: ignore[attr-defined]
        assert make_bot("search-v1", game, 0).compiled is False  # type: ignore[attr-defined]
        assert make_bot("search", game, 0, compiled=True).compiled is True  # type: ignore[attr-defined]
    stale = tmp_path / f"{warm.MARKER_PREFIX}0000000000000000.ready"
    stale.write_text("older kernels\n")
    assert not warm.cached()  # a marker of other sources says nothing
    warm.mark_cached()
    assert warm.cached() and not stale.exists()
    for game, module in (("cego", cego_rollouts), ("doppelkopf", doko_rollouts)):
        assert module.ready() is True
        assert make_bot("search", game, 0).compiled is True  # type: ignore[attr-defined]
        assert make_bot("search-v1", game, 0).compiled is True  # type: ignore[attr-defined]


def test_the_marker_names_numba_python_and_the_kernel_sources() -> None:
    root = Path(warm.__file__).resolve().parent.parent
    for name in warm.KERNEL_SOURCES:
        assert (root / name).is_file(), name
    # Every module with numba functions is listed (a new one would go stale unnoticed).
    jitted = {
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "@jit" in path.read_text(encoding="utf-8") or path.name == "kernel.py"
    }
    jitted.discard("bots/warm.py")
    assert jitted <= set(warm.KERNEL_SOURCES), jitted - set(warm.KERNEL_SOURCES)


def test_one_warm_up_at_a_time_and_it_leaves_the_marker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numba")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warm, "warm", lambda: [("Cego kernel", 0.0)])
    held = warm._lock()
    assert held is not None
    try:
        assert warm._lock() is None
        assert warm.main([]) == 0
        assert "another warm-up" in capsys.readouterr().out
        assert not warm.cached()
    finally:
        held.close()
    assert warm.main([]) == 0
    assert capsys.readouterr().out.splitlines() == ["Cego kernel: 0.0 s"]
    assert warm.cached()
    assert warm.start_background() is None  # nothing left to compile


def test_batch_work_compiles_the_kernels_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arena and ``simulate`` measure the search on its kernels: they compile them first
    (once, waiting for a warm-up under way) rather than play on the Python path."""
    pytest.importorskip("numba")
    from stichwerk import arena
    from stichwerk.arena import ArenaSpec, run_arena

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    runs: list[str] = []
    monkeypatch.setattr(warm, "warm", lambda: runs.append("warm") or [])
    assert arena.ensure_kernels is warm.ensure
    run_arena(ArenaSpec("cego", "schwarzwald", ("random", "heuristic"), 1, 4), workers=1)
    assert runs == ["warm"] and warm.cached()
    run_arena(ArenaSpec("cego", "schwarzwald", ("random", "heuristic"), 1, 4), workers=1)
    assert runs == ["warm"]  # cached: nothing more to do


def test_ensure_after_a_warm_up_under_way_compiles_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numba")
    import threading

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    runs: list[str] = []
    monkeypatch.setattr(warm, "warm", lambda: runs.append("warm") or [])
    held = warm._lock()
    assert held is not None
    waiter = threading.Thread(target=warm.ensure)
    waiter.start()
    warm.mark_cached()  # the other warm-up finishes ...
    held.close()  # ... and lets go
    waiter.join(timeout=60)
    assert not waiter.is_alive() and runs == []


def test_an_analysis_compiles_the_kernels_it_values_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Valuing choices needs the kernels (the search's ``evaluate`` has no Python path): with
    the cache not marked yet, an analysis compiles them first rather than fail."""
    pytest.importorskip("numba")
    from stichwerk.analysis import value_point
    from stichwerk.games import get_game

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # the marker's place: empty
    runs: list[str] = []
    monkeypatch.setattr(warm, "warm", lambda: runs.append("warm") or [])
    state = get_game("cego").new_deal(seed=7)
    seat = state.to_act
    assert seat is not None
    values = value_point("cego", state.view(seat), "cold", 0.05, 4)
    assert runs == ["warm"] and warm.cached()
    assert values and all("mean" in v for v in values)


def test_a_gym_against_the_search_compiles_its_kernels_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numba")
    pytest.importorskip("gymnasium")
    from stichwerk.research.gym import SeatEnv

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    runs: list[str] = []
    monkeypatch.setattr(warm, "warm", lambda: runs.append("warm") or [])
    SeatEnv("cego", opponents="heuristic")
    assert runs == []  # no search: nothing to compile
    env = SeatEnv("cego", opponents="search")
    assert runs == ["warm"]
    env.reset(seed=1)
    assert all(bot is None or bot.compiled for bot in env._bots)  # type: ignore[attr-defined]
