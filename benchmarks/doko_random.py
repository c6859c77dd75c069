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
``legal_actions``, a uniform random choice, ``apply_action``, chance outcomes sampled. Both run
pinned to one core, one after the other, in the same run.

    .venv/bin/python benchmarks/doko_random.py [--seconds 5]
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
start = time.perf_counter()
while time.perf_counter() - start < seconds:
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
elapsed = time.perf_counter() - start
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
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
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
    elapsed = time.perf_counter() - start
    mix = ", ".join(f"{k} {100 * n / deals:.0f}%" for k, n in kinds.most_common(4))
    return {
        "deals": full / elapsed,
        "actions": actions / elapsed,
        "per_deal": actions / deals,
        "announced": 100 * announced / max(full, 1),
        "mix": mix,
    }


def ensure_openspiel() -> Path | None:
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
    parser.add_argument("--no-openspiel", action="store_true")
    args = parser.parse_args()
    pin_to_one_core()
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
    if not args.no_openspiel:
        os_result = run_openspiel(args.seconds)
        if os_result:
            label = "openspiel hearts"
            print(
                f"{label:<44} {os_result['deals']:>12,.0f} {os_result['actions']:>10,.0f}"
                f" {os_result['per_deal']:>8.1f}"
            )
            ours = rows[0]["actions"]
            print(
                f"\nactions/s, stichwerk wielandstrasse uniform : openspiel hearts = "
                f"{ours:,.0f} : {os_result['actions']:,.0f} = {ours / os_result['actions']:.2f}"
            )


if __name__ == "__main__":
    main()
