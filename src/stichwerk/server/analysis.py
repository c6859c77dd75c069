"""Post-game analysis off the request path: jobs in a worker process pool, with progress.

A request starts (or finds) the analysis of one seat of one finished deal; the deal is replayed
in a thread, and each decision's search (``stichwerk.analysis.value_point``, a pure function of
the seat's view at that moment) runs in the pool the way bot decisions do
(:func:`stichwerk.server.bots.worker_pool`). The job counts the decisions done, so the page can
show a progress bar while it polls. Finished analyses are kept in memory (the most recent
``keep``); the same deal and seat asked again is answered from there.

What leaves the server is only the seat's own decisions: its legal choices (its own cards, which
it saw) with the search's values, computed from its own view (``analysis.decision_points``).
Who may ask for which seat is decided in ``app.py`` (see docs/analysis.md).
"""

import asyncio
import logging
from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from stichwerk.analysis import AnalysisSettings, Point, decision_points, judge, value_point
from stichwerk.core.errors import StichwerkError, one_line
from stichwerk.server.bots import worker_pool

log = logging.getLogger("stichwerk.analysis")


@dataclass
class Job:
    """The analysis of one seat of one deal, running or done."""

    deal_id: str
    """The deal's public id (the one its replay's address shows)."""
    seat: int
    owner: int | None
    """The account that asked first (one running job per account)."""
    status: str = "running"
    """``running``, ``done`` or ``failed``."""
    done: int = 0
    total: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)

    def to_json(self, settings: AnalysisSettings) -> dict[str, Any]:
        return {
            "deal": self.deal_id,
            "seat": self.seat,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "threshold": settings.threshold,
            "seconds": settings.seconds,
            "decisions": self.decisions if self.status == "done" else [],
            "error": self.error,
        }


class AnalysisJobs:
    """Owns the analysis pool and the jobs by (deal, seat)."""

    def __init__(self, workers: int, settings: AnalysisSettings, keep: int = 256) -> None:
        self.settings = settings
        self._workers = workers
        self._executor: Executor | None = None
        self._jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._keep = keep

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = worker_pool(self._workers, "analysis")
        return self._executor

    def get(self, deal_id: str, seat: int) -> Job | None:
        """The job of ``deal_id``'s ``seat``, if one was asked for."""
        return self._jobs.get((deal_id, seat))

    def running_for(self, owner: int) -> Job | None:
        """A job of ``owner`` that is still running (one at a time per account)."""
        for job in self._jobs.values():
            if job.owner == owner and job.status == "running":
                return job
        return None

    def start(
        self, deal_id: str, seat: int, record: dict[str, Any], flags: tuple[bool, ...], owner: int
    ) -> Job:
        """The job of ``deal_id``'s ``seat``: started now unless it runs or ran already (a
        failed one is tried again)."""
        key = (deal_id, seat)
        job = self._jobs.get(key)
        if job is not None and job.status != "failed":
            self._jobs.move_to_end(key)
            return job
        job = Job(deal_id, seat, owner)
        self._jobs[key] = job
        while len(self._jobs) > self._keep:
            oldest = next(iter(self._jobs))
            if self._jobs[oldest].status == "running":
                break
            del self._jobs[oldest]
        task = asyncio.create_task(self._run(job, record, flags))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(self, job: Job, record: dict[str, Any], flags: tuple[bool, ...]) -> None:
        try:
            points = await asyncio.to_thread(decision_points, record, [job.seat])
            job.total = len(points)
            values = await asyncio.gather(*(self._value(job, p) for p in points))
            decisions = []
            for point, value in zip(points, values, strict=True):
                entry = judge(point, value, self.settings.threshold).to_json()
                # A person's seat played by the stand-in bot while they were away.
                entry["by_bot"] = point.index < len(flags) and flags[point.index]
                decisions.append(entry)
            job.decisions = decisions
            job.status = "done"
        except StichwerkError as exc:
            job.status, job.error = "failed", one_line(str(exc))
        except Exception as exc:
            log.exception("analysis of deal %s seat %d failed", job.deal_id, job.seat)
            job.status, job.error = "failed", f"the analysis failed ({type(exc).__name__})"
        finally:
            job.finished.set()

    async def _value(self, job: Job, point: Point) -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        s = self.settings
        out: list[dict[str, Any]] = await loop.run_in_executor(
            self._pool(), value_point, point.game, point.view, point.seed, s.seconds, s.worlds
        )
        job.done += 1
        return out

    def close(self) -> None:
        """Stop the running jobs and the workers (queued searches are dropped)."""
        for task in list(self._tasks):
            task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
