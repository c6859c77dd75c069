"""What the search expects of each legal action: the API behind post-game analysis.

Both games' search bots answer ``evaluate(view, seconds)`` with one :class:`ActionValue` per
legal action of the viewing seat: the mean settlement the search expects after that action
(against the table's mean, as the search scores its roll-outs), the half width of its 95%
interval, and the number of sampled worlds behind it. The bot decides with the same numbers
(``act`` is the choice ``evaluate`` ranks first, give or take the noise rule of each decision),
so an analysis can say what a choice cost against the best.

Worlds are weighted by how likely the other seats' earlier choices were in them (see the
bots' ``inference`` modules); :func:`weighted` turns values and weights into a mean and an
interval over the effective number of samples (Kish), so a few heavy worlds do not pass for
many.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from stichwerk.bots import clock
from stichwerk.core.action import Action

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Values: TypeAlias = "Sequence[float] | NDArray[np.float64]"
"""Samples: a list, or a numpy column as the searches keep them."""

Z95 = 1.959963984540054
"""The two-sided 95% point of the normal distribution."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action and what the search expects of it."""

    action: Action
    mean: float
    """Expected settlement of the seat, against the table's mean, after this action."""
    half_width: float
    """Half the width of the 95% interval of ``mean`` (``inf`` with fewer than two samples)."""
    samples: int
    """Sampled worlds (or deals) the figure rests on."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready form (the action in the record's notation)."""
        half = self.half_width if math.isfinite(self.half_width) else None
        return {
            "action": self.action.to_json(),
            "mean": self.mean,
            "half_width": half,
            "samples": self.samples,
        }


@dataclass(frozen=True, slots=True)
class Estimate:
    """A weighted mean with its 95% half width and effective sample size."""

    mean: float
    half_width: float
    ess: float


def weighted(values: Values, weights: Values | None = None) -> Estimate:
    """Mean, 95% half width and effective sample size of ``values`` under ``weights``
    (uniform when ``None``).

    >>> s = weighted([1.0, 2.0, 3.0])
    >>> (s.mean, round(s.half_width, 3), s.ess)
    (2.0, 1.132, 3.0)
    >>> weighted([5.0]).half_width
    inf
    """
    n = len(values)
    if n == 0:
        return Estimate(0.0, math.inf, 0.0)
    s = _weighted(values, weights, n)
    return Estimate(float(s.mean), float(s.half_width), float(s.ess))  # numpy scalars to floats


def _weighted(values: Values, weights: Values | None, n: int) -> Estimate:
    total, squares, mean, spread = _moments(values, weights)
    if total <= 0:
        return _weighted(values, None, n)
    ess = total * total / squares
    if ess < 1.5 or n < 2:
        return Estimate(mean, math.inf, ess)
    var = spread / total * ess / (ess - 1)
    return Estimate(mean, Z95 * math.sqrt(var / ess), ess)


def _moments(values: Values, weights: Values | None) -> tuple[float, float, float, float]:
    """The sum of the weights (each 1 when ``None``), of their squares, the weighted mean and
    the weighted sum of squared deviations from it. Numpy runs (the searches' columns) are
    summed in numpy: an exchange's 78 choices over thousands of worlds took a second of Python
    loops after its budget was spent; lists stay on plain Python (numpy is the research
    extra's)."""
    if hasattr(values, "dtype") or hasattr(weights, "dtype"):
        import numpy as np

        x = np.asarray(values, dtype=np.float64)
        w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=np.float64)
        total = float(w.sum())
        mean = float((w * x).sum()) / total if total > 0 else 0.0
        return total, float((w * w).sum()), mean, float((w * (x - mean) ** 2).sum())
    ws = [1.0] * len(values) if weights is None else weights
    total = sum(ws)
    mean = sum(w * x for w, x in zip(ws, values, strict=True)) / total if total > 0 else 0.0
    spread = sum(w * (x - mean) ** 2 for w, x in zip(ws, values, strict=True))
    return total, sum(w * w for w in ws), mean, spread


def clear_gain(a: Values, b: Values, weights: Values | None, z: float) -> float:
    """The weighted mean of ``a - b`` (paired world by world) less ``z`` standard errors, or 0
    when that is not positive: how much better ``a`` is beyond the noise.

    >>> round(clear_gain([3.0, 2.0, 4.0], [1.0, 1.0, 1.0], None, 1.0), 2)
    1.42
    >>> clear_gain([1.0, -1.0], [0.0, 0.0], None, 1.0)
    0.0
    """
    if hasattr(a, "dtype") and hasattr(b, "dtype"):
        import numpy as np

        if len(a) != len(b):
            raise ValueError("clear_gain: the two runs differ in length")
        diffs: Values = np.asarray(a) - np.asarray(b)
    else:
        diffs = [x - y for x, y in zip(a, b, strict=True)]
    s = weighted(diffs, weights)
    if not math.isfinite(s.half_width):
        return 0.0
    return max(0.0, s.mean - z * s.half_width / Z95)


def best_is_clear(chunks_v: list[Any], chunks_w: list[Any], z: float = 3.0) -> bool:
    """Whether the best column of the roll-out values so far (numpy chunks, a row per world,
    a column per choice; log weights per row) leads every other by ``z`` standard errors of
    the paired difference, over at least 30 effective worlds: the search may stop early."""
    import numpy as np

    values = np.concatenate(chunks_v)
    logw = np.concatenate(chunks_w)
    if values.shape[1] < 2:
        return True
    w = np.exp(logw - logw.max())
    total = w.sum()
    ess = total * total / (w * w).sum()
    if ess < 30:
        return False
    means = (w[:, None] * values).sum(axis=0) / total
    best = int(np.argmax(means))
    for i in range(values.shape[1]):
        if i == best:
            continue
        _, _, m, spread = _moments(values[:, best] - values[:, i], w)
        if m <= z * math.sqrt(spread / total / ess):
            return False
    return True


def sample_in_batches(
    fill: Callable[[int], tuple[int, Sequence[Any]]],
    cap: int,
    deadline: float | None,
    *,
    first: int,
    most: int,
    clear_after: int | None = None,
    z: float = 3.0,
) -> tuple[list[Any], Any, int]:
    """Worlds sampled and played out on the kernel in batches that double from ``first`` to
    ``most``, until ``cap`` worlds, or the ``deadline`` (``None``: exactly ``cap`` worlds), or,
    with ``clear_after``, once at least that many show the best choice clearly ahead
    (:func:`best_is_clear` with ``z``). The searches of both games decide this way.

    Against a deadline no batch is larger than the time left holds at the pace of the batches
    so far: a doubled batch begun just before the deadline would overrun it by as long again
    as the decision had already taken (a 1.2 s reservation took 2 s).

    ``fill(n)`` samples up to ``n`` worlds into fresh numpy arrays, a row per world: the values
    (a column per choice), the log weights, then anything else the caller keeps per world; it
    returns how many rows it filled (fewer than ``n``: no further world fits the view).
    Returns the arrays, each concatenated over the batches, the weights (the largest 1) and the
    number of worlds."""
    import numpy as np

    chunks: list[list[Any]] = []
    done = 0
    batch = first
    start = clock.now()
    while done < cap:
        n = min(batch, cap - done)
        got, arrays = fill(n)
        if not chunks:
            chunks = [[] for _ in arrays]
        for chunk, array in zip(chunks, arrays, strict=True):
            chunk.append(array[:got])
        done += got
        if got < n:
            break  # no world fits: only a view that contradicts itself
        limit = most
        if deadline is not None:
            now = clock.now()
            limit = min(most, int(done * (deadline - now) / max(now - start, 1e-9)))
            if limit < 1:
                break  # the time is spent, or holds not one more world at this pace
            clear = clear_after is not None and done >= clear_after
            if clear and best_is_clear(chunks[0], chunks[1], z):
                break
        batch = min(2 * batch, limit)
    out = [np.concatenate(chunk) for chunk in chunks]
    logw = out[1]
    return out, np.exp(logw - logw.max()) if done else logw, done
