"""How long the ratings take to rebuild from the stored deals, against the maths alone.

Plants ``--deals`` finished Doppelkopf deals (the example records, 40 to a table of three of
``--players`` accounts and a bot) in a fresh SQLite file, then times ``RatingStore.rebuild``
(read, rate, write every rating, history row and taken-in deal) beside a reference run of
``rate_deal`` alone on the same deals in memory, in the same process::

    python benchmarks/ratings_rebuild.py --deals 2000
"""

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.test_ratings import finished

from stichwerk.rating import Skill, rate_deal
from stichwerk.storage.db import Database
from stichwerk.storage.ratings import RatingStore
from stichwerk.storage.repo import Repo

NAMES = ["ddv-normal", "ddv-solo-damen", "ddv-hochzeit", "ddv-forfeit-normal", "ddv-hochzeit-reply"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    records = [finished("doppelkopf", name) for name in NAMES]
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{tmp}/ratings.db")
        db.migrate()
        repo = Repo(db)
        users = [repo.create_user(f"P{i}", "x", False).id for i in range(args.players)]
        plan: list[list[str | None]] = []
        for start in range(0, args.deals, 40):
            people = rng.sample(users, 3)
            table = repo.create_table(
                game="doppelkopf",
                profile="ddv",
                options={},
                seats=[("human", "random")] * 3 + [("bot", "heuristic")],
                series_length=40,
                time_limit=60,
                public=True,
                created_by=people[0],
                creator_seat=None,
                accounts=dict(enumerate(people)),
            )
            for number in range(min(40, args.deals - start)):
                record, result = records[number % len(records)]
                repo.finish_deal(repo.create_deal(table.id, number, record), result, True)
                plan.append([*(f"u:{p}" for p in people), "b:heuristic"])

        began = time.perf_counter()
        standings: dict[str, Skill] = {}
        for index, players in enumerate(plan):
            record, result = records[(index % 40) % len(records)]
            standings.update(rate_deal("doppelkopf", record, result, players, standings) or {})
        reference = time.perf_counter() - began

        store = RatingStore(db)
        began = time.perf_counter()
        taken = store.rebuild()
        rebuild = time.perf_counter() - began
        db.dispose()
    each = reference / len(plan) * 1e3
    print(f"maths alone: {len(plan)} deals in {reference:.2f} s ({each:.2f} ms a deal)")
    print(f"rebuild:     {taken} deals in {rebuild:.2f} s ({rebuild / taken * 1e3:.2f} ms a deal)")
    print(f"ratio rebuild / maths: {rebuild / reference:.1f}")


if __name__ == "__main__":
    main()
