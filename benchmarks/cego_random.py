"""Random legal Cego deals through the validated interface, beside OpenSpiel's ``tarok``.

Every deal runs from the deal to the score through ``legal_actions`` and ``apply`` (which
verifies each action). Two random policies: ``uniform`` picks any legal action; ``passing``
says ``fort``/``gut`` with probability 0.8 when it may, so that deals reach the special
round, the auction, the exchange with the blind and Räuber far more often.

OpenSpiel's ``tarok`` (the ``open-spiel`` package, in this benchmark's own virtual environment
``benchmarks/.venv-openspiel``, created on first use, or the ``pyspiel`` of this Python when the
``research`` extra is installed) is driven the same way from Python:
``legal_actions``, a uniform random choice, ``apply_action``, with chance outcomes sampled.
Both run pinned to one core in the same run, each timed in its own CPU time (the machine is
shared; CPU time keeps the ratio fair, as in ``kernel_random.py``). The ratio compares
Schwarzwald ``uniform`` with ``tarok``, measured in alternating rounds (``--rounds``, 3 by
default: Stichwerk, OpenSpiel, Stichwerk, ...), each side's best round counted, so that a load
that comes and goes does not fall on one side only.

The engine is the compiled one (``stichwerk.native``: the same modules compiled with mypyc,
every action still verified) where ``make`` has built it; the last row runs the same deals on
the Python modules (``STICHWERK_PURE=1``, in a process of its own) for comparison.

    .venv/bin/python benchmarks/cego_random.py [--seconds 5] [--rounds 3]
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

from stichwerk import native
from stichwerk.cego.record import new_deal

HERE = Path(__file__).resolve().parent
OS_VENV = HERE / ".venv-openspiel"

OPENSPIEL_SCRIPT = r"""
import json, random, sys, time
import pyspiel
seconds = float(sys.argv[1])
game = pyspiel.load_game("tarok(players=4)")
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


def run_stichwerk(profile: str, bias: float, seconds: float) -> dict[str, float]:
    rng = random.Random(7)
    deals = actions = 0
    contracts: Counter[str] = Counter()
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_deal(
            profile=profile, seed=deals, dealer=deals % 4 if profile != "zego" else deals % 3
        )
        while not state.is_over:
            legal = state.legal_actions()
            if bias and rng.random() < bias:
                passing = [a for a in legal if a.act in ("fort", "gut", "spielen")]
                if passing:
                    state.apply(passing[0])
                    actions += 1
                    continue
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        contracts[str(state.contract)] += 1
        deals += 1
    elapsed = time.process_time() - start
    mix = ", ".join(f"{c} {100 * n / deals:.0f}%" for c, n in contracts.most_common(5))
    return {"deals": deals / elapsed, "actions": actions / elapsed, "mix": mix}  # type: ignore[dict-item]


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
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--one-row", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    pin_to_one_core()
    if args.one_row:  # Schwarzwald uniform only, as JSON (the Python modules' row)
        print(json.dumps(run_stichwerk("schwarzwald", 0.0, args.seconds)))
        return
    compiled = native.compiled_modules()
    print(f"engine: {'compiled (' + ', '.join(compiled) + ')' if compiled else 'Python modules'}")
    print(f"{'engine':<34} {'deals/s':>10} {'actions/s':>12}  contracts")
    rows = []
    for profile in ("schwarzwald", "titisee", "zego"):
        for name, bias in (("uniform", 0.0), ("passing", 0.8)):
            r = run_stichwerk(profile, bias, args.seconds)
            rows.append(r)
            label = f"stichwerk cego {profile} {name}"
            print(
                f"{label:<34} {r['deals']:>10,.0f} {r['actions']:>12,.0f}  {r['mix']}", flush=True
            )
    if args.no_openspiel:
        return
    ours = rows[0]
    theirs = run_openspiel(args.seconds)
    if theirs is None:
        return
    for _ in range(args.rounds - 1):
        again = run_stichwerk("schwarzwald", 0.0, args.seconds)
        if again["actions"] > ours["actions"]:
            ours = again
        more = run_openspiel(args.seconds)
        if more is not None and more["actions"] > theirs["actions"]:
            theirs = more
    label = "openspiel tarok(players=4)"
    print(f"{label:<34} {theirs['deals']:>10,.0f} {theirs['actions']:>12,.0f}")
    pure = None
    if compiled:
        env = {**os.environ, native.PURE_ENV: "1"}
        command = [sys.executable, __file__, "--one-row", "--seconds", str(args.seconds)]
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        pure = json.loads(done.stdout.strip().splitlines()[-1])
        label = "stichwerk schwarzwald, Python"
        print(f"{label:<34} {pure['deals']:>10,.0f} {pure['actions']:>12,.0f}")
    print(
        f"\nactions/s, best of {args.rounds} alternating rounds, stichwerk schwarzwald uniform : "
        f"openspiel tarok = {ours['actions']:,.0f} : {theirs['actions']:,.0f} = "
        f"{ours['actions'] / theirs['actions']:.2f}"
    )
    if pure is not None:
        print(
            f"compiled : Python modules = {ours['actions']:,.0f} : {pure['actions']:,.0f} = "
            f"{ours['actions'] / pure['actions']:.2f} (the Python row: one round)"
        )


if __name__ == "__main__":
    main()
