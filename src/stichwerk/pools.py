"""Process pools whose workers end with the process that started them.

Killed with ``kill -9``, a program runs no shutdown code, and the workers of its process pool,
each waiting for its next task on a queue whose pipe they hold themselves, would wait for ever.
So every worker watches its parent's sentinel (a pipe multiprocessing gives every child it
starts, fork or spawn, readable once the parent is gone) on a thread, and exits at once when it
fires. The web server's bot and analysis workers, the arena and ``stichwerk simulate`` all start
their pools here.
"""

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor


def exit_with_parent() -> None:
    """Worker initializer: end this process as soon as the one that started it is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a child of multiprocessing (a thread pool in tests)
        return

    def watch() -> None:
        parent.join()  # returns when the parent's sentinel closes: the parent has died
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def process_pool(workers: int, *, spawn: bool = False) -> ProcessPoolExecutor:
    """``workers`` processes that exit with this one; ``spawn``: fresh interpreters (for a
    program with threads or an event loop, which forking would copy half-way), else the
    platform's default."""
    context = multiprocessing.get_context("spawn") if spawn else None
    return ProcessPoolExecutor(workers, mp_context=context, initializer=exit_with_parent)
