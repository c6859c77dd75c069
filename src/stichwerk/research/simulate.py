"""Batch simulation: many deals between bots, one Parquet row per deal.

Deal ``i`` of a run is shuffled from ``"SEED-i"`` and dealt by seat ``i mod n``; the bots sit in
turn (seat ``s`` of deal ``i`` is held by bot ``(s + i) mod k``), and each bot's own randomness is
seeded from the deal and seat, so a run is reproducible from its seed, bit for bit, on any number
of workers.

The deals are played in chunks (``chunk`` deals each). Each finished chunk is written at once as
one Parquet part file under ``OUT.parts/`` (written to a temporary name, then renamed, so a killed
run never leaves half a part); a run that is started again with the same arguments skips the
chunks already there and plays only the rest, so no deal is played twice. When every chunk is
there, the parts are joined into ``OUT`` (one row group per chunk, deals in order) and the parts
folder is removed. The run's arguments are kept in the file's metadata (``stichwerk.simulate``).

Chunks run in a process pool, or on a Ray cluster (``ray_address``, as ``stichwerk arena
--ray``); workers send their rows back as Arrow tables and only this process writes files, so a
cluster needs no shared disk.
"""

import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from stichwerk.arena import on_ray
from stichwerk.bots.base import make_bot
from stichwerk.bots.warm import ensure as ensure_kernels
from stichwerk.core.errors import StichwerkError
from stichwerk.games import get_game
from stichwerk.pools import process_pool
from stichwerk.research.extra import missing_extra
from stichwerk.research.table import check_table

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as exc:
    raise missing_extra(exc, "stichwerk simulate") from None

META_KEY = b"stichwerk.simulate"

ACTION = pa.struct(
    [
        ("seat", pa.int8()),
        ("act", pa.string()),
        ("card", pa.string()),
        ("cards", pa.list_(pa.string())),
        ("type", pa.string()),
    ]
)
SCHEMA = pa.schema(
    [
        ("deal", pa.int64()),
        ("seed", pa.string()),
        ("game", pa.string()),
        ("profile", pa.string()),
        ("seats", pa.int8()),
        ("dealer", pa.int8()),
        ("bots", pa.list_(pa.string())),
        ("hands", pa.list_(pa.list_(pa.string()))),
        ("blind", pa.list_(pa.string())),
        ("actions", pa.list_(ACTION)),
        ("contract", pa.string()),
        ("declarer", pa.int8()),
        ("re", pa.list_(pa.int8())),
        ("value", pa.int64()),
        ("winner", pa.string()),
        ("points", pa.float64()),
        ("tricks", pa.list_(pa.int8())),
        ("settlement", pa.list_(pa.int64())),
        ("result", pa.string()),
    ]
)
"""One row per deal. ``contract``: Cego's contract, Doppelkopf's game type (``redeal`` when the
deal was thrown in); ``declarer``: Cego's declarer, Doppelkopf's soloist; ``re``: the Re party
(Doppelkopf); ``points``: the declarer's card points (Cego) or Re's Augen (Doppelkopf);
``result``: the engine's whole result as JSON."""


@dataclass(frozen=True)
class SimSpec:
    """What to simulate."""

    game: str
    profile: str
    seats: int
    bots: tuple[str, ...]
    deals: int
    seed: str = "simulate"
    chunk: int = 500
    options: dict[str, Any] = field(default_factory=dict)
    bot_params: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def chunks(self) -> int:
        return -(-self.deals // self.chunk)

    def chunk_range(self, k: int) -> range:
        return range(k * self.chunk, min(self.deals, (k + 1) * self.chunk))

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


def check_spec(spec: SimSpec) -> SimSpec:
    """The spec with the table checked, or ``StichwerkError`` with one line."""
    profile, seats = check_table(spec.game, spec.profile or None, spec.seats or None)
    if spec.deals < 1:
        raise StichwerkError(f"--deals must be at least 1, not {spec.deals}")
    if spec.chunk < 1:
        raise StichwerkError(f"the chunk size must be at least 1, not {spec.chunk}")
    if not spec.bots:
        raise StichwerkError("name at least one bot, e.g. --bots heuristic,random")
    for name in spec.bots:
        make_bot(name, spec.game, 0, **spec.bot_params.get(name, {}))
    return SimSpec(
        spec.game,
        profile,
        seats,
        spec.bots,
        spec.deals,
        spec.seed,
        spec.chunk,
        dict(spec.options),
        dict(spec.bot_params),
    )


def play_deal(spec: SimSpec, index: int) -> dict[str, Any]:
    """Play deal ``index`` of the run; its row."""
    seats = spec.seats
    seed = f"{spec.seed}-{index}"
    state = get_game(spec.game).new_deal(
        profile=spec.profile, options=spec.options, players=seats, dealer=index % seats, seed=seed
    )
    names = [spec.bots[(s + index) % len(spec.bots)] for s in range(seats)]
    bots = [
        make_bot(name, spec.game, f"{seed}-{s}", **spec.bot_params.get(name, {}))
        for s, name in enumerate(names)
    ]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    record = state.to_record()
    result = record["result"]
    row: dict[str, Any] = {
        "deal": index,
        "seed": seed,
        "game": spec.game,
        "profile": spec.profile,
        "seats": seats,
        "dealer": record["dealer"],
        "bots": names,
        "hands": record["hands"],
        "blind": record.get("blind"),
        "actions": [
            {
                "seat": a["seat"],
                "act": a["act"],
                "card": a.get("card"),
                "cards": a.get("cards"),
                "type": a.get("type"),
            }
            for a in record["actions"]
        ],
        "settlement": [int(x) for x in result["score"]["settlement"]],
        "result": json.dumps(result, sort_keys=True, ensure_ascii=False),
    }
    row.update(_summary(spec.game, result))
    return row


def _summary(game: str, result: dict[str, Any]) -> dict[str, Any]:
    score = result["score"]
    if game == "cego":
        points = result["card_points"].get("declarer")
        return {
            "contract": result["contract"],
            "declarer": result["declarer"],
            "re": None,
            "value": result["value"],
            "winner": score.get("winner"),
            "points": None if points is None else float(points),
            "tricks": result["tricks"],
        }
    if "redeal" in result:
        return {
            "contract": "redeal",
            "declarer": None,
            "re": None,
            "value": 0,
            "winner": None,
            "points": None,
            "tricks": None,
        }
    augen = result.get("augen")
    return {
        "contract": result["game_type"],
        "declarer": result.get("soloist"),
        "re": result["re"],
        "value": score.get("value"),
        "winner": score.get("winner"),
        "points": None if augen is None else float(augen["re"]),
        "tricks": result["tricks"],
    }


def play_chunk(spec: SimSpec, k: int) -> pa.Table:
    """Every deal of chunk ``k`` as an Arrow table (runs in a worker)."""
    rows = [play_deal(spec, i) for i in spec.chunk_range(k)]
    return pa.Table.from_pylist(rows, schema=SCHEMA)


def _play_chunk_star(args: tuple[SimSpec, int]) -> tuple[int, pa.Table]:
    return args[1], play_chunk(*args)


@dataclass
class SimResult:
    """What a run did."""

    out: Path
    played: int
    """Deals played by this run (the rest were there from an earlier, stopped run)."""
    skipped: int
    seconds: float
    complete: bool

    @property
    def rate(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _part(parts: Path, k: int) -> Path:
    return parts / f"part-{k:06d}.parquet"


def _prepare(spec: SimSpec, out: Path) -> tuple[Path, set[int]]:
    """The parts folder (made, or checked to be this run's) and the chunks already there."""
    parts = parts_dir(out)
    manifest = parts / "spec.json"
    try:
        if out.is_dir():
            raise StichwerkError(f"{out} is a directory; --out names the Parquet file to write")
        parts.mkdir(parents=True, exist_ok=True)
        if manifest.exists():
            if manifest.read_text(encoding="utf-8") != spec.to_json():
                raise StichwerkError(
                    f"{parts} holds the parts of a run with other arguments; "
                    "run it with those, or remove the folder"
                )
        else:
            tmp = manifest.with_suffix(".tmp")
            tmp.write_text(spec.to_json(), encoding="utf-8")
            tmp.replace(manifest)
    except OSError as exc:
        raise StichwerkError(f"cannot write {out}: {exc.strerror or exc}") from None
    done = set()
    for path in parts.glob("part-*.parquet"):
        k = int(path.stem.split("-")[1])
        if k < spec.chunks:
            done.add(k)
    return parts, done


def _existing(spec: SimSpec, out: Path) -> bool:
    """Whether ``out`` already holds this very run (then there is nothing to do)."""
    if not out.exists():
        return False
    try:
        meta = pq.read_schema(out).metadata or {}
    except (OSError, pa.ArrowInvalid):
        meta = {}
    if meta.get(META_KEY) == spec.to_json().encode():
        return True
    raise StichwerkError(f"{out} exists and holds another run; choose another --out or remove it")


def check_out(spec: SimSpec, out: Path) -> None:
    """Check that ``out`` can take this run (it may be this run, stopped or complete)."""
    if not _existing(spec, out):
        _prepare(spec, out)


def _run_local(spec: SimSpec, todo: list[int], workers: int) -> Iterator[tuple[int, pa.Table]]:
    if workers <= 1 or len(todo) <= 1:
        for k in todo:
            yield k, play_chunk(spec, k)
        return
    pool = process_pool(workers)  # its workers end with this process, even killed
    queue = list(todo)
    running: set[Future[tuple[int, pa.Table]]] = set()
    try:
        while queue or running:
            while queue and len(running) < 2 * workers:
                running.add(pool.submit(_play_chunk_star, (spec, queue.pop(0))))
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_ray(spec: SimSpec, todo: list[int], address: str) -> Iterator[tuple[int, pa.Table]]:
    return on_ray(_play_chunk_star, [(spec, k) for k in todo], address)


def run_simulation(
    spec: SimSpec,
    out: Path,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop_after: int | None = None,
) -> SimResult:
    """Play the run's missing chunks into ``out``; ``progress(done, total)`` after each chunk.

    ``stop_after`` stops after that many new chunks, as a killed run would (for tests)."""
    spec = check_spec(spec)
    start = time.perf_counter()
    if _existing(spec, out):
        if progress is not None:
            progress(spec.deals, spec.deals)
        return SimResult(out, 0, spec.deals, 0.0, True)
    parts, done = _prepare(spec, out)
    todo = [k for k in range(spec.chunks) if k not in done]
    skipped = sum(len(spec.chunk_range(k)) for k in done)
    if progress is not None:
        progress(skipped, spec.deals)
    played = 0
    new_chunks = 0
    workers = workers or os.cpu_count() or 1
    ensure_kernels()  # the search bots on their kernels, as the arena's (stichwerk.bots.warm)
    outcomes = _run_ray(spec, todo, ray_address) if ray_address else _run_local(spec, todo, workers)
    try:
        for k, table in outcomes:
            path = _part(parts, k)
            tmp = path.with_suffix(".tmp")
            pq.write_table(table, tmp)
            tmp.replace(path)
            done.add(k)
            played += table.num_rows
            new_chunks += 1
            if progress is not None:
                progress(skipped + played, spec.deals)
            if stop_after is not None and new_chunks >= stop_after:
                break
    except OSError as exc:
        raise StichwerkError(f"cannot write {parts}: {exc.strerror or exc}") from None
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
    complete = len(done) == spec.chunks
    if complete:
        _join(spec, parts, out)
    return SimResult(out, played, skipped, time.perf_counter() - start, complete)


def _join(spec: SimSpec, parts: Path, out: Path) -> None:
    """Write the parts into ``out`` in deal order and remove the parts folder."""
    schema = SCHEMA.with_metadata({META_KEY: spec.to_json().encode()})
    tmp = out.with_name(out.name + ".tmp")
    with pq.ParquetWriter(tmp, schema) as writer:
        for k in range(spec.chunks):
            part = pq.read_table(_part(parts, k))
            writer.write_table(part.replace_schema_metadata(schema.metadata))
    tmp.replace(out)
    shutil.rmtree(parts)
