"""The speed of the bots' compiled play-outs and PIMC, this checkout against a git revision.

For a change to the roll-out policies, the world samplers or the kernels they run on (e.g. a
move between modules, or a tuned card choice) this says whether the play got slower. Each side
runs in its own process pinned to one core and timed in its own CPU time; the two alternate for
``--rounds`` rounds and the medians are compared, so load from other programs on the machine
touches both alike.

- **fresh deals, roll-out policy / random**: ``random_deals`` of Cego (Cego with a random
  exchange, Räuber) and Doppelkopf (normal games), the search bots' policy or uniformly random.
- **PIMC**: one card decision's worlds (``rollouts.Packed.search``: sample a world, play each
  candidate card, finish the deal by the policy), the search's inner loop.

The revision is unpacked once (``git archive``) into the temp directory, where numba caches its
compiled code; the first run compiles it (a minute or two).

    .venv/bin/python benchmarks/playout_speed.py --against HEAD~1 [--seconds 2] [--rounds 3]
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CASES = (
    "cego fresh cego, policy",
    "cego fresh raeuber, random",
    "doko fresh normal, policy",
    "doko fresh normal, random",
    "cego PIMC worlds",
    "doko PIMC worlds",
)


def _modules() -> tuple[Any, Any]:
    """The play-out modules, where they are in the checkout being measured."""
    try:
        from stichwerk.bots.cego import playout as cego
        from stichwerk.bots.doppelkopf import playout as doko
    except ImportError:  # before the policies left the kernels
        from stichwerk.cego import kernel as cego  # type: ignore[no-redef]
        from stichwerk.doppelkopf import kernel as doko  # type: ignore[no-redef]
    return cego, doko


def _cego_packed() -> tuple[Any, list[int]]:
    from stichwerk.bots.cego.knowledge import read
    from stichwerk.bots.cego.rollouts import Packed
    from stichwerk.cego import cards as C
    from stichwerk.cego.record import new_deal

    seed = 0
    while True:
        state = new_deal(profile="schwarzwald", seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not state.is_over:
            plays = [a for a in state.legal_actions() if a.act == "play"]
            if len(plays) > 2 and len(state.view(state.to_act)["history"]) > 8:
                k = read(state.view(state.to_act))
                return Packed(k, random.Random(1)), [C.ID[a.card or ""] for a in plays][:3]
            state.apply(rng.choice(plays or state.legal_actions()))
        seed += 1


def _doko_packed() -> tuple[Any, list[int]]:
    from stichwerk.bots.doppelkopf.knowledge import read
    from stichwerk.bots.doppelkopf.rollouts import Packed
    from stichwerk.doppelkopf.cards import CODE_INDEX, code_mask
    from stichwerk.doppelkopf.record import new_deal

    seed = 0
    while True:
        state = new_deal(profile="ddv", seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            plays = [a for a in legal if a.act == "play"]
            if (
                len(plays) > 2
                and state.game_type == "normal"
                and len(state.view(state.to_act)["history"]) > 14
            ):
                k = read(state.view(state.to_act))
                cards = []
                for a in plays[:3]:  # the lower copy of each card held, as the search plays it
                    mine = k.hand & code_mask(CODE_INDEX[a.card or ""])
                    cards.append((mine & -mine).bit_length() - 1)
                return Packed(k, random.Random(1)), cards
            names = {a.act: a for a in legal}
            state.apply(names.get("gesund") or rng.choice(plays or legal))
        seed += 1


def worker(seconds: float) -> dict[str, float]:
    """Deals (or worlds) per CPU second of every case, in this process."""
    import numpy as np

    from stichwerk.bots.doppelkopf.rollouts import policy_tables
    from stichwerk.cego.profiles import get_profile as get_cego_profile
    from stichwerk.doppelkopf.profiles import get_profile

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cego, doko = _modules()
    rules = get_cego_profile("schwarzwald")
    ddv = get_profile("ddv")
    tables = policy_tables(ddv)
    cego_packed, cego_cards = _cego_packed()
    doko_packed, doko_cards = _doko_packed()
    batch = 500
    worlds = 50

    def cego_pimc() -> None:
        cego_packed.search(cego_cards, worlds, np.zeros(len(cego_cards), dtype=np.int64))

    runs = {
        "cego fresh cego, policy": lambda s: cego.random_deals(
            rules, contract="cego", deals=batch, policy=cego.HEURISTIC, seed=s
        ),
        "cego fresh raeuber, random": lambda s: cego.random_deals(
            rules, contract="raeuber", deals=batch, policy=cego.RANDOM, seed=s
        ),
        "doko fresh normal, policy": lambda s: doko.random_deals(
            ddv, deals=batch, policy=doko.HEURISTIC, seed=s, policy_tables=tables
        ),
        "doko fresh normal, random": lambda s: doko.random_deals(ddv, deals=batch, seed=s),
        "cego PIMC worlds": lambda s: cego_pimc(),
        "doko PIMC worlds": lambda s: doko_packed.search(doko_cards, -1, None, worlds),
    }
    out: dict[str, float] = {}
    for name in CASES:
        run = runs[name]
        run(0)  # compile, or load from the cache
        per_call = worlds if "PIMC" in name else batch
        calls = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            run(calls + 1)
            calls += 1
        out[name] = calls * per_call / (time.process_time() - start)
    return out


def unpack(rev: str) -> Path:
    """The ``src`` of ``rev``, unpacked once into the temp directory."""
    sha = subprocess.run(
        ["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    dest = Path(tempfile.gettempdir()) / "stichwerk-playout-speed" / sha
    if not (dest / "src").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", sha, "src"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "src"


def measure(src: Path, seconds: float) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
    done = subprocess.run(
        [sys.executable, __file__, "--worker", "--seconds", str(seconds)],
        env=env, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(),
    )  # fmt: skip
    rates: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", required=False, help="a git revision to compare with")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per case")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.seconds)))
        return
    sides = {"this checkout": ROOT / "src"}
    if args.against:
        sides = {args.against: unpack(args.against), **sides}
    runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for r in range(args.rounds):
        for side, src in sides.items():
            runs[side].append(measure(src, args.seconds))
            print(f"round {r + 1}: {side} done", file=sys.stderr, flush=True)
    names = list(sides)
    header = f"| case | {' | '.join(names)} |" + (" new : old |" if args.against else "")
    print(header)
    print("|---" * (len(names) + 1 + bool(args.against)) + "|")
    for case in CASES:
        med = [statistics.median(run[case] for run in runs[side]) for side in names]
        cells = " | ".join(f"{m:,.0f}/s" for m in med)
        ratio = f" {med[-1] / med[0]:.3f} |" if args.against else ""
        print(f"| {case} | {cells} |{ratio}")


if __name__ == "__main__":
    main()
