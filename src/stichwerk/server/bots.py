"""Running bots off the event loop.

A bot decision can take seconds (search bots), so it never runs on the loop: by default in a
small process pool (a CPU-bound bot in a thread would still hold the GIL the loop needs). Each
call builds the bot afresh from its name and a seed derived from the table, deal and position,
and gives it only the seat's view: a bot is a pure function of what its seat may see.

A worker must not outlive the server: killed with ``kill -9``, the server runs no shutdown code,
and a worker waiting for its next task would wait for ever (and keep multiprocessing's
``resource_tracker`` alive with it, which ends once the last process holding its pipe ends).
So each worker watches its parent's sentinel (a pipe multiprocessing gives every spawned child,
readable once the parent is gone) on a thread, and exits at once when it fires. A restarted
server starts workers of its own and shares nothing with any that are still going down.
"""

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from stichwerk.bots.base import bot_names, make_bot
from stichwerk.core.action import Action


def decide(bot: str, game: str, seed: str, view: dict[str, Any]) -> dict[str, Any]:
    """The action (as JSON) that bot ``bot`` takes on ``view``. Runs in a worker."""
    return make_bot(bot, game, seed).act(view).to_json()


def _exit_with_parent() -> None:
    """Worker initializer: end this process as soon as the server that started it is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a spawned child (a thread pool in tests)
        return

    def watch() -> None:
        parent.join()  # returns when the parent's sentinel closes: the parent has died
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def available_bots() -> list[str]:
    """Bot names a table may choose, weakest first."""
    return bot_names()


class BotRunner:
    """Owns the executor that runs bot decisions."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._workers > 0:
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(
                    self._workers, mp_context=context, initializer=_exit_with_parent
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="bot")
        return self._executor

    async def decide(self, bot: str, game: str, seed: str, view: dict[str, Any]) -> Action:
        """Ask the bot for its action without blocking the loop."""
        loop = asyncio.get_running_loop()
        raw = await loop.run_in_executor(self._pool(), decide, bot, game, seed, view)
        action = Action.from_json(raw)
        return action

    def close(self) -> None:
        """Stop the workers: queued decisions are dropped, a running one (a bot keeps to its
        budget) is waited for, so the worker processes end cleanly with the server."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
