"""How the searches spend a time budget: batches of worlds against a deadline (on a simulated
clock, so the figures are exact), and the weighted means their choices rest on."""

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from stichwerk.bots import clock
from stichwerk.bots.evaluation import clear_gain, sample_in_batches, weighted

PER_WORLD = 0.001
"""Simulated seconds a world takes to sample and play out."""


@pytest.fixture
def fake_clock() -> Iterator[list[float]]:
    """The bots' clock replaced by a counter that only ``fill`` advances."""
    now = [100.0]
    saved = clock._NOW[0]
    clock._NOW[0] = lambda: now[0]
    try:
        yield now
    finally:
        clock._NOW[0] = saved


def _fill(now: list[float], sizes: list[int], setup: float = 0.0) -> Any:
    def fill(n: int) -> tuple[int, tuple[Any, Any]]:
        now[0] += setup + n * PER_WORLD
        sizes.append(n)
        # Two choices that tie: never clearly apart, so only the clock stops the search.
        return n, (np.zeros((n, 2)), np.zeros(n))

    return fill


@pytest.mark.parametrize("budget", [0.05, 0.3, 1.2, 1.7])
@pytest.mark.parametrize("most", [256, 4096, 100_000])
def test_a_decision_ends_at_its_deadline(fake_clock: list[float], budget: float, most: int) -> None:
    sizes: list[int] = []
    start = fake_clock[0]
    _, _, done = sample_in_batches(
        _fill(fake_clock, sizes), 10**7, start + budget, first=8, most=most
    )
    spent = fake_clock[0] - start
    # Doubling alone would overrun by up to as long again as the decision had taken.
    assert spent <= budget + 8 * PER_WORLD
    # ... and the budget is used: the last batch ends near the deadline.
    assert spent >= budget - 2 * PER_WORLD
    assert done == sum(sizes) and all(n <= most for n in sizes)


def test_the_pace_includes_each_batchs_own_cost(fake_clock: list[float]) -> None:
    """A fixed cost per call (the kernel's setup) slows the pace; the last batch still fits."""
    sizes: list[int] = []
    start = fake_clock[0]
    sample_in_batches(_fill(fake_clock, sizes, setup=0.02), 10**7, start + 1.0, first=8, most=4096)
    assert fake_clock[0] - start <= 1.0 + 0.02 + 8 * PER_WORLD


def test_without_a_deadline_the_count_is_exact(fake_clock: list[float]) -> None:
    sizes: list[int] = []
    _, _, done = sample_in_batches(_fill(fake_clock, sizes), 1000, None, first=8, most=256)
    assert done == 1000
    assert sizes == [8, 16, 32, 64, 128, 256, 256, 240]


POINTS = st.floats(-300, 300, allow_nan=False)


@given(
    st.lists(st.tuples(POINTS, POINTS, st.floats(0, 1)), min_size=1, max_size=40),
    st.booleans(),
)
def test_numpy_runs_summarise_as_lists_do(
    rows: list[tuple[float, float, float]], uniform: bool
) -> None:
    """The searches pass numpy columns, other callers lists: one reading of both."""
    a = [r[0] for r in rows]
    b = [r[1] for r in rows]
    top = max(r[2] for r in rows)
    # Weights as the searches give them: the largest is 1 (or all are 0).
    w = None if uniform else [r[2] / top if top > 0 else 0.0 for r in rows]
    wa = None if w is None else np.array(w)
    listed, arrays = weighted(a, w), weighted(np.array(a), wa)
    assume(abs(listed.ess - 1.5) > 1e-6)  # (below 1.5 effective worlds: no interval)
    assert arrays.mean == pytest.approx(listed.mean, abs=1e-9)
    assert arrays.ess == pytest.approx(listed.ess, abs=1e-9)
    assert arrays.half_width == pytest.approx(listed.half_width, rel=1e-9, abs=1e-9)
    gain = clear_gain(np.array(a), np.array(b), wa, 1.0)
    assert gain == pytest.approx(clear_gain(a, b, w, 1.0), abs=1e-9)
    assert gain >= 0


def test_weighted_means_on_arrays() -> None:
    s = weighted(np.array([1.0, 2.0, 3.0, 10.0]), np.array([1.0, 1.0, 1.0, 0.0]))
    assert (s.mean, s.ess) == (2.0, 3.0)
    assert s.half_width == pytest.approx(weighted([1.0, 2.0, 3.0]).half_width)
    with pytest.raises(ValueError):
        clear_gain(np.zeros(3), np.zeros(2), None, 1.0)
