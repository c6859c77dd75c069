"""Random legal Doppelkopf deals through the validated interface, beside OpenSpiel's ``hearts``.

Every deal runs from the deal to the score through ``legal_actions`` and ``apply`` (which
verifies each action): reservations, Armut, announcements (Re/Kontra, Absagen, Sau: they are
among the legal actions of the seat to act) and all twelve tricks. Two random policies:
``uniform`` picks any legal action (so most deals become solos and many carry announcements);
``gesund`` says ``gesund`` with probability 0.9 when it may, so most deals are normal games, as at
a real table. A *full deal* is one played to its last trick; redeals (Neu Geben, Schmeißen, an
Armut nobody takes) are not counted, but their time is.

OpenSpiel's ``hearts`` (the ``open-spiel`` package, in the benchmark's own virtual environment
``benchmarks/.venv-openspiel``, created on first use) is driven the same way from Python:
``legal_actions``, a uniform random choice, ``apply_action``, chance outcomes sampled (the
``pyspiel`` of this Python when the ``research`` extra is installed). Both run pinned to one core
in the same run, each timed in its own CPU time (the machine is shared; CPU time keeps the ratio
fair). The ratio compares Wielandstraße ``uniform`` with ``hearts``, measured in alternating
rounds (``--rounds``, 3 by default: Stichwerk, OpenSpiel, Stichwerk, ...), each side's best round
counted, so that a load that comes and goes does not fall on one side only.

The engine is the compiled one (``stichwerk.native``: the same modules compiled with mypyc, every
action still verified) where ``make`` has built it; the last row runs the same deals on the Python
modules (``STICHWERK_PURE=1``, in a process of its own) for comparison.

    .venv/bin/python benchmarks/doko_random.py [--seconds 5] [--rounds 3]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from stichwerk import native
from stichwerk.doppelkopf.record import new_deal

HERE = Path(__file__).resolve().parent
OS_VENV = HERE / ".venv-openspiel"

OPENSPIEL_SCRIPT = r"""
import json, random, sys, time
import pyspiel
seconds = float(sys.argv[1])
game = pyspiel.load_game("hearts")
rng = random.Random(1)
deals = actions = 0
start = time.process_time()
while time.process_time() - start < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    deals += 1
elapsed = time.process_time() - start
print(json.dumps({"deals": deals, "actions": actions, "seconds": elapsed}))
"""


def pin_to_one_core() -> None:
    """Measure on one core, as the target asks."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def run_stichwerk(profile: str, gesund: float, seconds: float) -> dict[str, Any]:
    rng = random.Random(7)
    deals = full = actions = 0
    kinds: Counter[str] = Counter()
    announced = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_deal(profile=profile, seed=deals, dealer=deals % 4)
        while not state.is_over:
            legal = state.legal_actions()
            if gesund and state.phase == "reservations" and rng.random() < gesund:
                healthy = [a for a in legal if a.act == "gesund"]
                if healthy:
                    state.apply(healthy[0])
                    actions += 1
                    continue
            state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        deals += 1
        result = state.result()
        assert result is not None
        if "redeal" in result:
            kinds["redeal"] += 1
            continue
        full += 1
        kinds[result["game_type"]] += 1
        announced += bool(result["announcements"]["re"] or result["announcements"]["kontra"])
    elapsed = time.process_time() - start
    mix = ", ".join(f"{k} {100 * n / deals:.0f}%" for k, n in kinds.most_common(4))
    return {
        "deals": full / elapsed,
        "actions": actions / elapsed,
        "per_deal": actions / deals,
        "announced": 100 * announced / max(full, 1),
        "mix": mix,
    }


def ensure_openspiel() -> Path | None:
    """A Python with ``pyspiel``: this one (the ``research`` extra), or the benchmark's own."""
    probe = [sys.executable, "-c", "import pyspiel"]
    found = subprocess.run(probe, capture_output=True, check=False)
    if found.returncode == 0:
        return Path(sys.executable)
    python = OS_VENV / "bin" / "python"
    if not python.exists():
        print("creating benchmarks/.venv-openspiel with the open-spiel package ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(OS_VENV)], check=True)
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "open-spiel"], check=False
        )
        if done.returncode != 0:
            print("could not install open-spiel; OpenSpiel is left out")
            return None
    return python


def run_openspiel(seconds: float) -> dict[str, float] | None:
    python = ensure_openspiel()
    if python is None:
        return None
    cpu = str(min(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else None
    command = [str(python), "-c", OPENSPIEL_SCRIPT, str(seconds)]
    if cpu is not None:
        command = ["taskset", "-c", cpu, *command]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return {
        "deals": data["deals"] / data["seconds"],
        "actions": data["actions"] / data["seconds"],
        "per_deal": data["actions"] / data["deals"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--one-row", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    pin_to_one_core()
    if args.one_row:  # Wielandstraße uniform only, as JSON (the Python modules' row)
        print(json.dumps(run_stichwerk("wielandstrasse", 0.0, args.seconds)))
        return
    from stichwerk.doppelkopf import state  # noqa: F401  (so that compiled_modules sees it)

    compiled = native.compiled_modules()
    print(f"engine: {'compiled (' + ', '.join(compiled) + ')' if compiled else 'Python modules'}")
    print(
        f"{'engine':<44} {'full deals/s':>12} {'actions/s':>10} {'act/deal':>8} {'ann.':>5}"
        "  game types"
    )
    rows = []
    for profile in ("wielandstrasse", "ddv"):
        for name, gesund in (("uniform", 0.0), ("gesund", 0.9)):
            r = run_stichwerk(profile, gesund, args.seconds)
            rows.append(r)
            label = f"stichwerk doppelkopf {profile} {name}"
            print(
                f"{label:<44} {r['deals']:>12,.0f} {r['actions']:>10,.0f} {r['per_deal']:>8.1f}"
                f" {r['announced']:>4.0f}%  {r['mix']}",
                flush=True,
            )
    if args.no_openspiel:
        return
    ours = rows[0]
    theirs = run_openspiel(args.seconds)
    if theirs is None:
        return
    for _ in range(args.rounds - 1):
        again = run_stichwerk("wielandstrasse", 0.0, args.seconds)
        if again["actions"] > ours["actions"]:
            ours = again
        more = run_openspiel(args.seconds)
        if more is not None and more["actions"] > theirs["actions"]:
            theirs = more
    label = "openspiel hearts"
    print(
        f"{label:<44} {theirs['deals']:>12,.0f} {theirs['actions']:>10,.0f}"
        f" {theirs['per_deal']:>8.1f}"
    )
    pure = None
    if compiled:
        env = {**os.environ, native.PURE_ENV: "1"}
        command = [sys.executable, __file__, "--one-row", "--seconds", str(args.seconds)]
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        pure = json.loads(done.stdout.strip().splitlines()[-1])
        label = "stichwerk wielandstrasse uniform, Python"
        print(f"{label:<44} {pure['deals']:>12,.0f} {pure['actions']:>10,.0f}")
    print(
        f"\nactions/s, best of {args.rounds} alternating rounds, stichwerk wielandstrasse "
        f"uniform : openspiel hearts = {ours['actions']:,.0f} : {theirs['actions']:,.0f} = "
        f"{ours['actions'] / theirs['actions']:.2f}"
    )
    if pure is not None:
        print(
            f"compiled : Python modules = {ours['actions']:,.0f} : {pure['actions']:,.0f} = "
            f"{ours['actions'] / pure['actions']:.2f} (the Python row: one round)"
        )


if __name__ == "__main__":
    main()
