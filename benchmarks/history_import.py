"""A club's history imported while the server keeps serving (issue 29, High item 2).

Starts ``python -m stichwerk.server`` (one uvicorn worker, a fresh SQLite file, as
``tests/server/serverproc.py`` does), makes a tournament and a score sheet, then imports a
history of ``--rows`` rows (and one of about 2 MiB, ``--big-rows``) into the tournament's series
while

- a probe asks ``/healthz`` every 20 ms (the event loop's stalls: worst and p99 latency), and
- a second client enters a deal on the score sheet every 100 ms (a table going on: worst
  latency, and failures such as 503 "database is locked").

Then a bogus 16 MiB tournament backup (``{"backup": {..., "pad": [{}, {}, ...]}}``) is sent,
and the server's peak memory (``VmHWM``) is read before and after, with the probe running.

    python benchmarks/history_import.py --rows 20000 --big-rows 60000
    python benchmarks/history_import.py --real-players 200   # what a real backup weighs

Everything runs on loopback; the clients share the machine with the server.
"""

import argparse
import datetime as dt
import json
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.serverproc import Server

ORIGIN_HEADERS = {"content-type": "application/json"}
DOKO = {
    "game": "doppelkopf",
    "profile": "wielandstrasse",
    "names": ["Anna", "Bernd", "Clara", "Dieter"],
}
NORMAL = {"game_type": "normal", "re": [0, 2], "re_augen": 130}


@dataclass
class Probe:
    """Latencies of one kind of request while something else runs."""

    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def report(self, name: str) -> str:
        if not self.latencies:
            return f"{name}: no requests"
        ordered = sorted(self.latencies)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        fails = f", {len(self.failures)} failed" if self.failures else ""
        kinds = sorted(set(self.failures))[:3]
        return (
            f"{name}: {len(ordered)} requests, worst {ordered[-1] * 1000:.0f} ms, "
            f"p99 {p99 * 1000:.0f} ms, median {ordered[len(ordered) // 2] * 1000:.0f} ms"
            f"{fails}{' ' + repr(kinds) if kinds else ''}"
        )


def history_csv(rows: int, seed: int, short: bool = False) -> str:
    """``rows`` rows of tournaments of 40 players each, with 600 distinct names (``short``:
    short names, so that 60,000 rows fit in 2 MiB)."""
    rng = random.Random(seed)
    names = [f"{'S' if short else 'Spieler '}{i:04d}" for i in range(600)]
    lines = ["date;player;place;participants;tournament"]
    day = dt.date(1970, 1, 1)
    n = 0
    t = 0
    while n < rows:
        t += 1
        day += dt.timedelta(days=7)
        field_size = min(40, rows - n)
        for place, name in enumerate(rng.sample(names, field_size), start=1):
            label = f"T{t}" if short else f"Turnier {t}"
            lines.append(f"{day.isoformat()};{name};{place};{field_size};{label}")
        n += field_size
    return "\n".join(lines) + "\n"


def probe_health(url: str, stop: threading.Event, probe: Probe) -> None:
    with httpx.Client(base_url=url, timeout=60) as client:
        while not stop.is_set():
            start = time.monotonic()
            try:
                r = client.get("/healthz")
                if r.status_code != 200:
                    probe.failures.append(str(r.status_code))
            except httpx.HTTPError as exc:
                probe.failures.append(type(exc).__name__)
            probe.latencies.append(time.monotonic() - start)
            stop.wait(0.02)


def new_sheet(client: httpx.Client, probe: Probe) -> str | None:
    """A fresh list's scorer token (``None``, counted as a failure, if the server refused)."""
    start = time.monotonic()
    r = client.post("/api/sheets", json=DOKO)
    probe.latencies.append(time.monotonic() - start)
    if r.status_code != 200:
        probe.failures.append(f"{r.status_code} {r.text[:60]}")
        return None
    scorer: str = r.json()["links"]["scorer"].removeprefix("/s/")
    return scorer


def enter_deals(url: str, stop: threading.Event, probe: Probe) -> None:
    """A deal every 100 ms (a fresh list when one is complete)."""
    with httpx.Client(base_url=url, timeout=60) as client:
        scorer = None
        k = 0
        while not stop.is_set():
            if scorer is None:
                scorer = new_sheet(client, probe)
                if scorer is None:
                    stop.wait(0.1)
                    continue
            k += 1
            start = time.monotonic()
            try:
                r = client.post(
                    f"/api/sheets/{scorer}/changes",
                    json={"op": "add", "summary": NORMAL, "key": f"b{k}"},
                )
                if r.status_code == 400 and "complete" in r.text:
                    scorer = None
                    continue
                if r.status_code != 200:
                    probe.failures.append(f"{r.status_code} {r.text[:60]}")
            except httpx.HTTPError as exc:
                probe.failures.append(type(exc).__name__)
            probe.latencies.append(time.monotonic() - start)
            stop.wait(0.1)


def vm_hwm(pid: int) -> int:
    """The process's peak resident memory (KiB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def while_probed(server: Server, deals: bool, work: Any) -> tuple[Any, float, Probe, Probe]:
    """Run ``work()`` while the probes run; its result, its seconds and the two probes."""
    stop = threading.Event()
    health, sheet = Probe(), Probe()
    threads = [threading.Thread(target=probe_health, args=(server.url, stop, health))]
    if deals:
        threads.append(threading.Thread(target=enter_deals, args=(server.url, stop, sheet)))
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the probes' baseline before the work begins
    start = time.monotonic()
    try:
        result = work()
    finally:
        took = time.monotonic() - start
        time.sleep(0.3)
        stop.set()
        for thread in threads:
            thread.join()
    return result, took, health, sheet


def real_backup(players: int) -> bytes:
    """A real backup: a Wielandstrasse tournament of ``players`` players, every
    round drawn and every table's sheet filled, exported as the director downloads it."""
    from tests.server.tournament_helpers import doko_deals

    from stichwerk.storage.db import Database
    from stichwerk.storage.sheets import NewChange, SheetRepo
    from stichwerk.storage.tournaments import TournamentStore
    from stichwerk.tournament.day import next_step

    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{tmp}/real.db")
        db.migrate()
        store = TournamentStore(db, backup_dir=None)
        sheets = SheetRepo(db)
        tid = store.create(
            name="Real", format_name="wielandstrasse", held_on="2025-01-01", series="R", seed="r"
        ).id
        store.add_players(tid, [f"Spieler {i:03d}" for i in range(players)])
        while next_step(store.need(tid)).action in ("draw", "endrunde"):
            data = store.draw(tid)
            for table in data.rounds[-1].tables:
                assert table.list_id is not None
                games = 10 if table.size == 5 else 8
                sheets.append_changes(
                    [
                        NewChange(
                            table.list_id,
                            k + 1,
                            f"k{k}",
                            {"op": "add", "summary": d, "entry": f"e{k}", "key": f"k{k}"},
                            "scorer",
                        )
                        for k, d in enumerate(doko_deals(table.size, games))
                    ]
                )
            store.sync_sheets(tid)
        text = json.dumps(store.export(tid), ensure_ascii=False, indent=1).encode()
        db.dispose()
    containers = text.count(b"{") + text.count(b"[")
    print(
        f"real backup of {players} players: {len(text) / 2**20:.2f} MiB, "
        f"{containers} objects and arrays, {text.count(b',')} commas"
    )
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--big-rows", type=int, default=60_000)
    parser.add_argument("--backup-mib", type=int, default=16)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--real-players", type=int, default=0, help="only weigh a real backup")
    parser.add_argument(
        "--import-players", type=int, default=200, help="a real backup of so many players imported"
    )
    args = parser.parse_args()
    if args.real_players:
        real_backup(args.real_players)
        return
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), {"STICHWERK_BACKUP_DIR": "off"})
        server.start()
        try:
            run(server, args)
        finally:
            server.stop()


def run(server: Server, args: argparse.Namespace) -> None:
    client = httpx.Client(base_url=server.url, timeout=600)
    made = client.post(
        "/api/tournaments", json={"name": "Bench", "series": "Benchclub", "seed": "b"}
    ).json()
    director = made["links"]["director"].removeprefix("/tournaments/")
    secret = made.get("series_secret")
    _, took, health, sheets = while_probed(server, True, lambda: time.sleep(1.5))
    print("idle (the machine's noise, nothing imported):")
    print("  " + health.report("/healthz"))
    print("  " + sheets.report("sheet entries"))
    for label, rows, seed, short in (
        ("history", args.rows, args.seed, False),
        ("big history", args.big_rows, args.seed + 1, True),
    ):
        text = history_csv(rows, seed, short)
        body: dict[str, Any] = {"text": text}
        if secret:
            body["secret"] = secret
        size = len(json.dumps(body).encode())

        def work(body: dict[str, Any] = body) -> httpx.Response:
            return client.post(f"/api/tournaments/{director}/history", json=body)

        answer, took, health, sheets = while_probed(server, True, work)
        print(
            f"{label}: {rows} rows, {size / 2**20:.2f} MiB: HTTP {answer.status_code} "
            f"{answer.text[:100]!r} in {took:.2f} s"
        )
        print("  " + health.report("/healthz"))
        print("  " + sheets.report("sheet entries"))

    if args.import_players:
        backup = json.loads(real_backup(args.import_players))

        def take_over() -> httpx.Response:
            return client.post("/api/tournaments/import", json={"backup": backup})

        answer, took, health, sheets = while_probed(server, True, take_over)
        print(f"  imported: HTTP {answer.status_code} {answer.text[:60]!r} in {took:.2f} s")
        print("  " + health.report("/healthz"))
        print("  " + sheets.report("sheet entries"))

    mib = args.backup_mib
    pad = ",".join(["{}"] * ((mib * 2**20 - 200) // 3))
    bogus = (
        '{"backup": {"kind": "stichwerk-tournament-backup", "version": 1, "pad": [' + pad + "]}}"
    ).encode()
    before = vm_hwm(server.pid)

    def send() -> httpx.Response:
        return client.post(
            "/api/tournaments/import", content=bogus, headers={"content-type": "application/json"}
        )

    answer, took, health, _ = while_probed(server, False, send)
    after = vm_hwm(server.pid)
    print(
        f"bogus backup of {len(bogus) / 2**20:.1f} MiB: HTTP {answer.status_code} "
        f"{answer.text[:100]!r} in {took:.2f} s; VmHWM {before / 1024:.0f} -> "
        f"{after / 1024:.0f} MiB (+{(after - before) / 1024:.0f} MiB)"
    )
    print("  " + health.report("/healthz"))


if __name__ == "__main__":
    main()
