"""Running bots off the event loop.

A bot decision can take seconds (search bots), so it never runs on the loop: by default in a
small process pool (a CPU-bound bot in a thread would still hold the GIL the loop needs). Each
call builds the bot afresh from its name and a seed derived from the table, deal and position,
and gives it only the seat's view: a bot is a pure function of what its seat may see.
"""

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from stichwerk.bots.base import bot_names, make_bot
from stichwerk.core.action import Action


def decide(bot: str, game: str, seed: str, view: dict[str, Any]) -> dict[str, Any]:
    """The action (as JSON) that bot ``bot`` takes on ``view``. Runs in a worker."""
    return make_bot(bot, game, seed).act(view).to_json()


def available_bots() -> list[str]:
    """Bot names a table may choose, weakest first."""
    return bot_names()


def worker_pool(workers: int, name: str) -> Executor:
    """The executor for CPU-bound work off the loop: ``workers`` spawned processes (a thread
    would hold the GIL the loop needs), or one thread when ``workers`` is 0 (tests)."""
    if workers > 0:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(workers, mp_context=context)
    return ThreadPoolExecutor(1, thread_name_prefix=name)


class BotRunner:
    """Owns the executor that runs bot decisions."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = worker_pool(self._workers, "bot")
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
