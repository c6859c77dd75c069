"""What the readable log costs: ``sheet.diff.describe_log`` against a plain ``log.replay``.

``GET /api/sheets/TOKEN/changes?about=1`` replays the whole log on a scoring thread and
compares each changed row before and after (``stichwerk.sheet.diff``); the page asks for it
only when the log panel is opened. This builds a season's log of ``--deals`` Doppelkopf deals
(seeded: normal games, solos, redeals) with ``--corrections`` corrections and ``--deletions``
deletions of random earlier deals (each scores the list from that deal on), then times a plain
replay, the described replay (the first reading of a list's log) and one change described from
the list as the server keeps it described (every later reading), best of ``--repeat``, and
prints the size of the answer's ``about`` parts.

    python benchmarks/sheet_log.py --deals 1500 --corrections 300 --deletions 50
"""

import argparse
import json
import random
import time
from typing import Any

from stichwerk.sheet.diff import describe_changes, describe_log
from stichwerk.sheet.log import replay

SETTINGS = {"game": "doppelkopf", "profile": "wielandstrasse", "games": None, "duty_solos": 0}


def summary(rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.05:
        return {"redeal": "schmeissen", "redeal_by": rng.randrange(4)}
    if roll < 0.15:
        return {"game_type": "solo-damen", "re": [rng.randrange(4)], "re_augen": 150}
    re = sorted(rng.sample(range(4), 2))
    said = {"re": ["re"]} if rng.random() < 0.3 else {}
    return {
        "game_type": "normal",
        "re": re,
        "re_augen": rng.randrange(60, 181),
        "announcements": said,
    }


def season(deals: int, corrections: int, deletions: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    log: list[dict[str, Any]] = [
        {"op": "add", "entry": f"e{k}", "summary": summary(rng)} for k in range(deals)
    ]
    alive = [f"e{k}" for k in range(deals)]
    changes = ["correct"] * corrections + ["delete"] * deletions
    rng.shuffle(changes)
    for op in changes:
        entry = rng.choice(alive)
        if op == "delete":
            alive.remove(entry)
            log.append({"op": "delete", "entry": entry})
        else:
            log.append({"op": "correct", "entry": entry, "summary": summary(rng)})
    return log


def best(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1500)
    ap.add_argument("--corrections", type=int, default=300)
    ap.add_argument("--deletions", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=32)
    args = ap.parse_args()
    log = season(args.deals, args.corrections, args.deletions, args.seed)
    plain = best(lambda: replay(SETTINGS, log), args.repeat)
    described = best(lambda: describe_log(SETTINGS, log), args.repeat)
    # The server keeps the log described up to where it was read: one more change costs this.
    kept = replay(SETTINGS, log[:-1])
    one_more = best(lambda: describe_changes(kept.fork(), log[-1:]), args.repeat)
    about = describe_log(SETTINGS, log)
    size = len(json.dumps(about, ensure_ascii=False).encode())
    print(
        f"log: {len(log)} changes ({args.deals} adds, {args.corrections} corrections, "
        f"{args.deletions} deletions)"
    )
    print(f"replay            {plain * 1000:8.1f} ms")
    print(f"describe_log      {described * 1000:8.1f} ms  ({described / plain:.2f}x)")
    print(f"one change more   {one_more * 1000:8.1f} ms  (from the list described so far)")
    print(f"about parts       {size / 1024:8.1f} KiB ({size / len(log):.0f} bytes a change)")


if __name__ == "__main__":
    main()
