"""Running bots off the event loop.

A bot decision can take seconds (search bots), so it never runs on the loop: by default in a
small process pool (a CPU-bound bot in a thread would still hold the GIL the loop needs). Each
call builds the bot afresh from its name and a seed derived from the table, deal and position,
and gives it only the seat's view: a bot is a pure function of what its seat may see.

A worker must not outlive the server: killed with ``kill -9``, the server runs no shutdown code,
and a worker waiting for its next task would wait for ever (and keep multiprocessing's
``resource_tracker`` alive with it, which ends once the last process holding its pipe ends).
So the pool is one whose workers exit with their parent (``stichwerk.pools``). A restarted
server starts workers of its own and shares nothing with any that are still going down.

**Outside bots** (``ext:NAME``): programs speaking the bot protocol (``docs/bot-protocol.md``)
that the server's operator configured (``STICHWERK_EXTERNAL_BOTS``; a web user only picks one
by name, never types a command). Each seat's program lives for one deal (it gets a ``hello``
per deal, as in the arena) inside an :class:`~stichwerk.bots.external.ExternalBot`, whose
``act`` waits for the program on a thread of its own pool (waiting, not computing: the program
is a process of its own); a late, garbled or illegal answer, or a program that dies, loses the
turn to the configured fallback bot with one log line, never the table. The actor releases a
deal's programs when the deal ends and a table's when it stops.
"""

import asyncio
import logging
import threading
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from stichwerk.bots.base import bot_names, make_bot
from stichwerk.bots.external import PREFIX as COMMAND_PREFIX
from stichwerk.bots.external import ExternalBot
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.pools import process_pool
from stichwerk.server.config import EXTERNAL_PREFIX, ExternalSpec

log = logging.getLogger("stichwerk.bots.web")

EXTERNAL_THREADS = 16
"""Outside bots waited for at once; more queue (each wait ends within its time limit)."""


def decide(bot: str, game: str, seed: str, view: dict[str, Any]) -> dict[str, Any]:
    """The action (as JSON) that bot ``bot`` takes on ``view``. Runs in a worker."""
    if bot.startswith(COMMAND_PREFIX):
        # A command line is the operator's to configure (ext:NAME), never a table's to name.
        raise StichwerkError("a web table cannot run a cmd: bot")
    return make_bot(bot, game, seed).act(view).to_json()


def available_bots() -> list[str]:
    """Bot names a table may choose, weakest first."""
    return bot_names()


def worker_pool(workers: int, name: str) -> Executor:
    """The executor for CPU-bound work off the loop: ``workers`` spawned processes (a thread
    would hold the GIL the loop needs), or one thread when ``workers`` is 0 (tests)."""
    if workers > 0:
        return process_pool(workers, spawn=True)
    return ThreadPoolExecutor(1, thread_name_prefix=name)


class BotRunner:
    """Owns the executor that runs bot decisions, and the outside bots' programs."""

    def __init__(self, workers: int, external: tuple[ExternalSpec, ...] = ()) -> None:
        self._workers = workers
        self._executor: Executor | None = None
        self._external = {spec.bot_name: spec for spec in external}
        self._waiting: ThreadPoolExecutor | None = None
        self._programs: dict[str, ExternalBot] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """Bot names a table may seat: the built-in ones, then the operator's outside bots."""
        return [*bot_names(), *self._external]

    def plays(self, bot: str, game: str) -> bool:
        """Whether ``bot`` may sit at a table of ``game``."""
        spec = self._external.get(bot)
        if spec is not None:
            return not spec.games or game in spec.games
        return bot in bot_names()

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = worker_pool(self._workers, "bot")
        return self._executor

    async def decide(
        self, bot: str, game: str, seed: str, view: dict[str, Any], *, key: str | None = None
    ) -> Action:
        """Ask the bot for its action without blocking the loop. An outside bot's program is
        kept under ``key`` (a table's deal and seat) until :meth:`release`."""
        loop = asyncio.get_running_loop()
        if bot.startswith(EXTERNAL_PREFIX):
            program = self._program(bot, game, seed, key or seed)
            return await loop.run_in_executor(self._wait_pool(), program.act, view)
        raw = await loop.run_in_executor(self._pool(), decide, bot, game, seed, view)
        action = Action.from_json(raw)
        return action

    def _wait_pool(self) -> ThreadPoolExecutor:
        if self._waiting is None:
            self._waiting = ThreadPoolExecutor(EXTERNAL_THREADS, thread_name_prefix="outside-bot")
        return self._waiting

    def _program(self, bot: str, game: str, seed: str, key: str) -> ExternalBot:
        spec = self._external.get(bot)
        if spec is None:
            raise StichwerkError(f"no outside bot {bot!r} is configured on this server")
        with self._lock:
            program = self._programs.get(key)
            if program is None:
                program = ExternalBot(
                    spec.command,
                    game,
                    seed,
                    time_limit=spec.time_limit,
                    startup_limit=spec.startup_limit,
                    fallback=spec.fallback,
                )
                program.name = bot  # log lines name the bot as the table does, not its command
                self._programs[key] = program
            return program

    def release(self, prefix: str) -> None:
        """End the outside bots' programs whose key starts with ``prefix`` (a deal is over, a
        table stops); they get ``bye`` and a moment to leave, on a thread."""
        with self._lock:
            gone = [k for k in self._programs if k.startswith(prefix)]
            programs = [self._programs.pop(k) for k in gone]
        for program in programs:
            self._wait_pool().submit(program.close)

    def close(self) -> None:
        """Stop the workers: queued decisions are dropped, a running one (a bot keeps to its
        budget) is waited for, so the worker processes end cleanly with the server; every
        outside bot's program is ended."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        with self._lock:
            programs = list(self._programs.values())
            self._programs.clear()
        for program in programs:
            program.close()
        if self._waiting is not None:
            self._waiting.shutdown(wait=True, cancel_futures=True)
            self._waiting = None
