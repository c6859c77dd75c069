"""The clock the search bots keep their time budgets by.

By default the wall clock (``time.perf_counter``): a bot at a table must answer in time. On a
machine shared with other programs a benchmark may switch the whole process to the thread's CPU
time (``use_cpu_time()``), so that a budget buys the same work however busy the machine is and
two bots compared side by side get the same computing time (the compiled kernel runs in the
calling thread, so its work counts).
"""

import time
from collections.abc import Callable

_NOW: list[Callable[[], float]] = [time.perf_counter]


def now() -> float:
    """Seconds on the bots' clock (only differences mean anything)."""
    return _NOW[0]()


def use_cpu_time(on: bool = True) -> None:
    """Keep every budget of this process in the thread's CPU time (``on``) or wall time."""
    _NOW[0] = time.thread_time if on else time.perf_counter
