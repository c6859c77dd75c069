"""The compiled Cego engine (``stichwerk.native``) against its own Python source.

The tests run on the compiled modules (``make`` builds them); a worker process started with
``STICHWERK_PURE=1`` runs the same deals on the Python modules, and every step must agree: the
legal actions, the refusals with their rule, every seat's view, the record, the result.
"""

import doctest
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from stichwerk import native
from stichwerk.cego import scoring, state  # noqa: F401  (imported to be looked at)
from stichwerk.core import rng  # noqa: F401

from .native_twin import trace
from .test_properties import deal_strategy

TWIN = Path(__file__).with_name("native_twin.py")


class Twin:
    """The Python engine in a process of its own, answering one deal's trace per line."""

    def __init__(self) -> None:
        env = {**os.environ, native.PURE_ENV: "1"}
        self.process = subprocess.Popen(
            [sys.executable, str(TWIN)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.hello = self._read()

    def _read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the Python twin stopped"
        return json.loads(line)

    def trace(self, params: dict[str, Any]) -> Any:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(params) + "\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def twin() -> Iterator[Twin]:
    worker = Twin()
    yield worker
    worker.close()


def test_the_tests_run_on_the_compiled_engine() -> None:
    if os.environ.get(native.PURE_ENV):
        pytest.skip("STICHWERK_PURE is set: this run is on the Python modules")
    ours = [name for name in native.COMPILED if not name.startswith("stichwerk.doppelkopf.")]
    assert [m for m in native.compiled_modules() if m in ours] == ours, (
        "the compiled engine is not built or out of date: run `make native`"
    )
    assert state.__file__ is not None and not state.__file__.endswith(".py")


def test_the_twin_runs_on_the_python_modules(twin: Twin) -> None:
    assert twin.hello == {"compiled": []}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=deal_strategy)
def test_compiled_and_python_engines_agree_step_by_step(twin: Twin, params: dict[str, Any]) -> None:
    ours = json.loads(json.dumps(trace(params), sort_keys=True))
    assert ours == twin.trace(params)


def test_a_build_that_no_longer_matches_its_sources_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "manifest.json"
    library = tmp_path / "lib.so"
    library.write_bytes(b"")
    monkeypatch.setattr(native, "MANIFEST", manifest)
    monkeypatch.setattr(native, "BUILD", tmp_path)
    files = {"stichwerk.cego.state": "lib.so"}
    manifest.write_text(json.dumps({"digest": native.source_digest(), "files": files}))
    assert native.fresh_files() == {"stichwerk.cego.state": str(library)}
    manifest.write_text(json.dumps({"digest": "0" * 64, "files": files}))
    assert native.fresh_files() is None  # a source edited since the build
    manifest.write_text(json.dumps({"digest": native.source_digest(), "files": {"x": "gone.so"}}))
    assert native.fresh_files() is None  # a file of the build missing
    manifest.write_text("{not json")
    assert native.fresh_files() is None


def test_the_build_command_answers_a_wrong_word_with_its_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "stichwerk.native", "compile"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stdout.strip().startswith("usage: python -m stichwerk.native build")
    status = subprocess.run(
        [sys.executable, "-m", "stichwerk.native", "status"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert status.returncode == 0 and "compiled engine" in status.stdout


def source_of(name: str) -> Path:
    return native.PACKAGE.parent.joinpath(*name.split(".")).with_suffix(".py")


DOCTESTED = [name for name in native.COMPILED if ">>>" in source_of(name).read_text()]


@pytest.mark.parametrize("name", DOCTESTED)
def test_the_compiled_modules_doctests_pass_on_their_python_source(name: str) -> None:
    path = source_of(name)
    spec = importlib.util.spec_from_file_location(f"pure_{name.replace('.', '_')}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_a_clone_has_every_slot_and_shares_no_list() -> None:
    from stichwerk.cego.record import new_deal
    from stichwerk.cego.state import SLOTS

    deal = new_deal(profile="schwarzwald", seed=11)
    for _ in range(9):
        deal.apply(deal.legal_actions()[0])
    copy = deal.clone()
    for name in SLOTS:  # a slot clone forgot is unset: reading it raises AttributeError
        mine, theirs = getattr(deal, name), getattr(copy, name)
        assert mine == theirs, name
        if isinstance(mine, (list, dict)):
            assert mine is not theirs, name
    copy.apply(copy.legal_actions()[0])
    assert len(copy.history) == len(deal.history) + 1
