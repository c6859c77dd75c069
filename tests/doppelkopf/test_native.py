"""The compiled Doppelkopf engine (``stichwerk.native``) against its own Python source.

The tests run on the compiled modules (``make`` builds them); a worker process started with
``STICHWERK_PURE=1`` runs the same deals on the Python modules, and every step must agree: the
legal actions of every seat, the refusals with their rule, every seat's view, the snapshot, the
record, the result, a replay and a clone played on. The deals cover both profiles, 4 and 5 seats,
the table variants of the property tests, and every kind of game (a test checks the mix).
"""

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk import native
from stichwerk.doppelkopf import state
from stichwerk.doppelkopf.record import new_deal

from .native_twin import VARIANTS, trace

TWIN = Path(__file__).with_name("native_twin.py")
DOPPELKOPF = [name for name in native.COMPILED if name.startswith("stichwerk.doppelkopf.")]


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


def params_of(n: int) -> dict[str, Any]:
    """The ``n``-th deal of the fixed set: profiles, seats, variants and biases in turn."""
    return {
        "profile": ("wielandstrasse", "ddv")[n % 2],
        "seats": 5 if n % 9 == 4 else 4,
        "variant": (n // 2) % len(VARIANTS),
        "dealer": n // 3,
        "seed": 1000 + n,
        "owed": [s for s in range(5) if (n >> s) & 1 and n % 3 == 0],
        "gesund": (0.0, 0.9, 0.6)[n % 3],
        "forfeit": 0.02 if n % 10 == 3 else 0.001,
    }


def special(profile: str, variant: int, seed: int) -> dict[str, Any]:
    """A deal whose hands allow an Armut, Neu Geben, Schmeißen or a Hochzeit (seeds found by
    ``trumps.reservation_kinds``), every Vorbehalt said and declared other than as a solo."""
    return {"profile": profile, "seats": 4, "variant": variant, "dealer": seed % 4,
            "seed": seed, "owed": [], "gesund": 0.0, "vorbehalt": True}  # fmt: skip


FIXED = [
    *(params_of(n) for n in range(30)),
    *(special("wielandstrasse", 7, seed) for seed in (29, 32, 48, 66, 73, 94)),
    *(special("wielandstrasse", 0, seed) for seed in (0, 2, 8)),
    *(special(profile, 0, seed) for profile in ("ddv", "wielandstrasse") for seed in (6, 7, 19)),
]

deal_strategy = st.fixed_dictionaries(
    {
        "profile": st.sampled_from(["wielandstrasse", "ddv"]),
        "seats": st.sampled_from([4, 4, 4, 5]),
        "variant": st.integers(0, len(VARIANTS) - 1),
        "dealer": st.integers(0, 4),
        "seed": st.integers(0, 2**40),
        "owed": st.lists(st.integers(0, 4), max_size=3),
        "gesund": st.sampled_from([0.0, 0.6, 0.9]),
        "forfeit": st.sampled_from([0.0, 0.001, 0.02]),
    }
)


def test_the_tests_run_on_the_compiled_engine() -> None:
    if os.environ.get(native.PURE_ENV):
        pytest.skip("STICHWERK_PURE is set: this run is on the Python modules")
    loaded = [name for name in native.compiled_modules() if name in DOPPELKOPF]
    assert loaded == DOPPELKOPF, "the compiled engine is not built, or out of date: `make native`"
    assert state.__file__ is not None and not state.__file__.endswith(".py")


def test_the_twin_runs_on_the_python_modules(twin: Twin) -> None:
    assert twin.hello == {"compiled": []}


def test_the_fixed_deals_cover_every_kind_of_game() -> None:
    kinds: Counter[str] = Counter()
    for params in FIXED:
        result = trace(params)["result"]
        kinds["redeal" if "redeal" in result else result["game_type"]] += 1
        kinds["forfeit"] += "forfeit" in result
        kinds["sau"] += "sau" in result
    need = {"normal", "hochzeit", "armut", "solo-still", "solo-damen", "solo-trumpf", "redeal"}
    assert need <= set(kinds), kinds
    assert kinds["sau"] > 0 and kinds["forfeit"] > 0


@pytest.mark.parametrize("params", FIXED, ids=lambda p: f"{p['profile']}-{p['seed']}")
def test_compiled_and_python_engines_agree_on_the_fixed_deals(
    twin: Twin, params: dict[str, Any]
) -> None:
    assert trace(params) == twin.trace(params)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=deal_strategy)
def test_compiled_and_python_engines_agree_step_by_step(twin: Twin, params: dict[str, Any]) -> None:
    assert trace(params) == twin.trace(params)


def test_a_clone_has_every_slot_and_shares_no_list() -> None:
    deal = new_deal(profile="wielandstrasse", seed=11)
    for _ in range(9):
        deal.apply(deal.legal_actions()[0])
    copy = deal.clone()
    for name in state.SLOTS:  # a slot clone forgot is unset: reading it raises AttributeError
        mine, theirs = getattr(deal, name), getattr(copy, name)
        assert mine == theirs, name
        if isinstance(mine, (list, dict)) and name != "_ann_table":  # a per-profile cache
            assert mine is not theirs, name
    copy.apply(copy.legal_actions()[0])
    assert len(copy.actions) == len(deal.actions) + 1
    assert deal.to_record() != copy.to_record()
