"""The arena: duplicate deals between bots, with confidence intervals and every record kept.

Each deal is dealt once and played once per *rotation*: the bots take turns through the seats
(with bots A and B at four seats: A B A B, then B A B A), so luck of the cards cancels out. A
bot's score for a deal is its mean settlement over all the seats it held in all rotations,
each measured against the mean of the seats dealt in (a no-op where every row sums to zero; where
only the winners write points, as in Doppelkopf ``wielandstrasse``, it is what decides a list:
another's points are one's loss). The arena reports the mean over deals with a 95% confidence
interval (normal approximation, which is sound for the hundreds of deals an arena run plays).

The deals run in a process pool on every core, or on a Ray cluster (``ray_address``: ``auto``
for the cluster this machine belongs to, ``ray://host:10001`` for a remote one, ``local`` to
start a single-machine Ray for a try).
"""

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from stichwerk.bots.base import make_bot
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game
from stichwerk.pools import process_pool

A = TypeVar("A")
R = TypeVar("R")


@dataclass(frozen=True)
class ArenaSpec:
    """What to play: the game and table, the bots, the deals."""

    game: str
    profile: str
    bots: tuple[str, ...]
    deals: int
    seats: int
    seed: str = "arena"
    options: dict[str, Any] = field(default_factory=dict)
    bot_params: dict[str, dict[str, Any]] = field(default_factory=dict)

    def rotations(self) -> list[list[int]]:
        """Per rotation, the index of the bot at each seat."""
        k = len(self.bots)
        count = k if self.seats % k == 0 else self.seats
        return [[(seat + r) % k for seat in range(self.seats)] for r in range(count)]


@dataclass
class ArenaDeal:
    """One deal in all rotations."""

    index: int
    per_bot: list[float]
    """Each bot's mean settlement per seat it held, against the table's mean."""
    records: list[dict[str, Any]]
    decisions: list[float]
    """Seconds per decision of each bot that took one (for latency figures)."""


def play_deal(spec: ArenaSpec, index: int) -> ArenaDeal:
    """Play deal ``index`` in every rotation (runs in a worker process)."""
    game = get_game(spec.game)
    rotations = spec.rotations()
    sums = [0.0] * len(spec.bots)
    counts = [0] * len(spec.bots)
    records = []
    decisions: list[float] = []
    players = spec.seats
    dealer = index % players
    for r, seating in enumerate(rotations):
        state = game.new_deal(
            profile=spec.profile,
            options=spec.options,
            players=players,
            dealer=dealer,
            seed=f"{spec.seed}-{index}",
        )
        bots = [
            make_bot(
                spec.bots[b],
                spec.game,
                f"{spec.seed}-{index}-{r}-{seat}",
                **spec.bot_params.get(spec.bots[b], {}),
            )
            for seat, b in enumerate(seating)
        ]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            start = time.perf_counter()
            action = bots[seat].act(state.view(seat))
            decisions.append(time.perf_counter() - start)
            state.apply(action)
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
        result = state.result()
        assert result is not None
        settlement = result["score"]["settlement"]
        table = state.view(None)
        dealt = [seat for seat in range(len(seating)) if _dealt_in(table, seat)]
        mean = sum(settlement[seat] for seat in dealt) / len(dealt)
        for seat, b in enumerate(seating):
            if seat in dealt:
                sums[b] += settlement[seat] - mean
                counts[b] += 1
        record = state.to_record()
        record["meta"] = {
            "arena": spec.seed,
            "deal": index,
            "rotation": r,
            "bots": [spec.bots[b] for b in seating],
        }
        records.append(record)
    per_bot = [s / c if c else 0.0 for s, c in zip(sums, counts, strict=True)]
    return ArenaDeal(index, per_bot, records, decisions)


def _dealt_in(view: dict[str, Any], seat: int) -> bool:
    """A sitting dealer at a 5-table is not scored for the bot in that seat."""
    return not (view["seats"] > view["players"] and seat == view["dealer"])


@dataclass
class BotStats:
    """A bot's result over the arena run."""

    name: str
    samples: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.samples) / len(self.samples) if self.samples else 0.0

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval of the mean."""
        n = len(self.samples)
        if n < 2:
            return math.inf
        mean = self.mean
        var = sum((x - mean) ** 2 for x in self.samples) / (n - 1)
        return 1.96 * math.sqrt(var / n)


@dataclass
class ArenaResult:
    """Every bot's statistics and where the records went."""

    spec: ArenaSpec
    stats: list[BotStats]
    records_path: Path | None
    decision_seconds: list[float]


def _run_local(spec: ArenaSpec, workers: int) -> Iterator[ArenaDeal]:
    if workers <= 1:
        for i in range(spec.deals):
            yield play_deal(spec, i)
        return
    with process_pool(workers) as pool:  # its workers end with this process, even killed
        chunk = max(1, min(16, spec.deals // (workers * 8)))
        yield from pool.map(
            _play_deal_star, [(spec, i) for i in range(spec.deals)], chunksize=chunk
        )


def _play_deal_star(args: tuple[ArenaSpec, int]) -> ArenaDeal:
    return play_deal(*args)


def on_ray(work: Callable[[A], R], items: Iterable[A], address: str) -> Iterator[R]:
    """``work(item)`` for every item as Ray tasks on the cluster at ``address``; the results
    in the order they finish. Starts (and stops) Ray unless it is running already."""
    try:
        import ray
    except ModuleNotFoundError:
        raise StichwerkError(
            "--ray needs the research extra: pip install 'stichwerk[research]'"
        ) from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, log_to_driver=False, include_dashboard=False)
    try:
        remote = ray.remote(work)
        pending = [remote.remote(item) for item in items]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def _run_ray(spec: ArenaSpec, address: str) -> Iterator[ArenaDeal]:
    return on_ray(_play_deal_star, [(spec, i) for i in range(spec.deals)], address)


def run_arena(
    spec: ArenaSpec,
    *,
    workers: int | None = None,
    out: Path | None = None,
    ray_address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play the arena; write the records (JSON lines) to ``out``; return the statistics."""
    if spec.deals < 1:
        raise StichwerkError("the arena needs at least one deal")
    if len(spec.bots) < 2:
        raise StichwerkError("the arena needs at least two bots (e.g. search,heuristic)")
    game = get_game(spec.game)
    if spec.profile not in game.profiles:
        raise StichwerkError(f"unknown {spec.game} profile {spec.profile!r}")
    for name in spec.bots:
        make_bot(name, spec.game, 0, **spec.bot_params.get(name, {}))
    # The search bots measured on their kernels, not on the Python path they take until the
    # kernels are cached (stichwerk.bots.warm; Ray's other machines compile on first use).
    ensure_kernels()
    workers = workers or os.cpu_count() or 1
    stats = [BotStats(name) for name in spec.bots]
    outcomes = _run_ray(spec, ray_address) if ray_address else _run_local(spec, workers)
    handle = None
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        handle = out.open("w", encoding="utf-8")
    decisions: list[float] = []
    try:
        for outcome in outcomes:
            for s, value in zip(stats, outcome.per_bot, strict=True):
                s.samples.append(value)
            decisions.extend(outcome.decisions)
            if handle is not None:
                for record in outcome.records:
                    handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            if progress is not None:
                progress(1)
    finally:
        if handle is not None:
            handle.close()
    return ArenaResult(spec, stats, out, decisions)
