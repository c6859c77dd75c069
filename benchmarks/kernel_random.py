"""Random play-outs on the compiled kernel, beside the validated engine and OpenSpiel's C++ loop.

Side by side in one run, each pinned to the same core, each timed in its own CPU time (so other
programs on the machine do not skew the ratios):

- **validated**: today's validated Python path. From positions at the start of the card play
  (deals taken there by a random bidding policy), random legal cards through
  ``legal_actions()`` and ``apply()`` (which verifies every card) to the end; scored.
- **kernel**: the same positions as kernel rows, played out and settled by
  ``stichwerk.bots.<game>.playout.play_out`` (uniform random policy), 4,096 rows per call.
- **kernel, fresh deals**: the kernel also shuffles and deals (and in Cego exchanges with the
  blind at random) before the play: whole deals of one contract (``random_deals``).
- **OpenSpiel C++**: ``tarok`` (4 players) and ``hearts``, whole games (deal, bidding or passing,
  talon, every trick) run by OpenSpiel's own C++ loop ``pyspiel.evaluate_bots`` with C++ uniform
  random bots (``pyspiel.make_uniform_random_bot``): one Python call per game, no Python per
  move. It runs in the benchmark's own environment ``benchmarks/.venv-openspiel`` (created on
  first use with ``pip install open-spiel``).
- **OpenSpiel from Python**: the same games driven move by move from Python (``legal_actions``,
  ``apply_action``), as ``cego_random.py`` does.

A kernel play-out covers the card play only (plus dealing, and Cego's exchange, for fresh
deals); an OpenSpiel game also holds its bidding (tarok) or passing (hearts), and a random tarok
game mostly ends after a dozen moves (a random contract is often decided early), so games per
second flatter neither side: the moves per second are printed too (for OpenSpiel's C++ loop, its
games per second times the mean moves of a random game, measured on 500 games in the same run).

    .venv/bin/python benchmarks/kernel_random.py [--seconds 4] [--no-openspiel]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from stichwerk.bots.cego import playout as CP
from stichwerk.bots.doppelkopf import playout as DP
from stichwerk.cego import kernel as CK
from stichwerk.cego.profiles import get_profile as get_cego_profile
from stichwerk.cego.record import new_deal as new_cego
from stichwerk.doppelkopf import kernel as DK
from stichwerk.doppelkopf.profiles import get_profile
from stichwerk.doppelkopf.record import new_deal as new_doko

HERE = Path(__file__).resolve().parent
OS_VENV = HERE / ".venv-openspiel"

OPENSPIEL_SCRIPT = r"""
import json, random, sys, time
import pyspiel
name, seconds, mode = sys.argv[1], float(sys.argv[2]), sys.argv[3]
game = pyspiel.load_game(name)
n = game.num_players()
rng = random.Random(1)
games = moves = 0
start = time.process_time()
if mode == "cpp":
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(n)]
    while time.process_time() - start < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
        games += 1
else:
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
        games += 1
elapsed = time.process_time() - start
if mode == "cpp":
    # The C++ loop does not count moves: the mean moves per game of the same random policy.
    sample = 500
    for _ in range(sample):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
    moves = moves * games / sample
print(json.dumps({"games": games, "moves": moves, "seconds": elapsed}))
"""


def pin_to_one_core() -> int | None:
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return cpu
    return None


def cego_positions(profile: str, count: int) -> list[Any]:
    """Deals at the start of their card play (bids by a random policy leaning to 'fort')."""
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = new_cego(profile=profile, seed=seed, dealer=seed % (3 if profile == "zego" else 4))
        rng = random.Random(seed)
        while state.phase != "play" and not state.is_over:
            legal = state.legal_actions()
            passes = [a for a in legal if a.act in ("fort", "gut", "spielen")]
            state.apply(passes[0] if passes and rng.random() < 0.8 else rng.choice(legal))
        if state.phase == "play":
            out.append(state)
        seed += 1
    return out


def doko_positions(profile: str, count: int) -> list[Any]:
    """Deals at the start of their card play (everybody gesund but for a few reservations)."""
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = new_doko(profile=profile, seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while state.phase != "play" and not state.is_over:
            legal = [a for a in state.legal_actions() if a.act != "forfeit"]
            gesund = [a for a in legal if a.act == "gesund"]
            state.apply(gesund[0] if gesund and rng.random() < 0.9 else rng.choice(legal))
        if state.phase == "play":
            out.append(state)
        seed += 1
    return out


def validated(positions: list[Any], seconds: float) -> tuple[float, float]:
    """Play-outs and card plays per CPU second through the validated interface."""
    rng = random.Random(1)
    done = plays = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for position in positions:
            state = position.clone()
            while not state.is_over:
                legal = [a for a in state.legal_actions() if a.act == "play"]
                state.apply(legal[rng.randrange(len(legal))])
                plays += 1
            state.result()
            done += 1
    elapsed = time.process_time() - start
    return done / elapsed, plays / elapsed


def kernel_rate(run: Any, rows: Any, seconds: float) -> float:
    """Play-outs per CPU second of ``run(rows_copy, seed)``."""
    run(rows[:8].copy(), 0)  # compile or load from the cache
    done = 0
    seed = 1
    start = time.process_time()
    while time.process_time() - start < seconds:
        run(rows.copy(), seed)
        done += rows.shape[0]
        seed += 1
    return done / (time.process_time() - start)


def fresh_rate(run: Any, seconds: float, batch: int = 4096) -> float:
    run(8, 0)
    done = 0
    seed = 1
    start = time.process_time()
    while time.process_time() - start < seconds:
        run(batch, seed)
        done += batch
        seed += 1
    return done / (time.process_time() - start)


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


def openspiel(name: str, seconds: float, mode: str, cpu: int | None) -> dict[str, float] | None:
    python = ensure_openspiel()
    if python is None:
        return None
    command = [str(python), "-c", OPENSPIEL_SCRIPT, name, str(seconds), mode]
    if cpu is not None:
        command = ["taskset", "-c", str(cpu), *command]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return {"games": data["games"] / data["seconds"], "moves": data["moves"] / data["seconds"]}


def row(label: str, per_s: float, plays: float | None = None) -> None:
    extra = f"{plays:>14,.0f}" if plays is not None else f"{'':>14}"
    print(f"{label:<52} {per_s:>12,.0f} {extra}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--no-openspiel", action="store_true")
    args = parser.parse_args()
    cpu = pin_to_one_core()
    secs = args.seconds
    print(f"{'one core, CPU time':<52} {'play-outs/s':>12} {'card plays/s':>14}")
    results: dict[str, float] = {}
    plays_per_deal: dict[str, float] = {}

    for profile in ("schwarzwald", "titisee", "zego"):
        positions = cego_positions(profile, args.positions)
        v, vp = validated(positions, secs)
        rows = np.stack([CK.from_state(s) for s in positions] * (4096 // len(positions) + 1))
        rules = CK.rules_row(positions[0].rules)
        k = kernel_rate(lambda r, s, rules=rules: CP.play_out(r, rules, seed=s), rows, secs)
        cards = sum(s.hands[s.to_act].bit_count() * s.players for s in positions) / len(positions)
        row(f"cego {profile}: validated engine", v, vp)
        row(f"cego {profile}: kernel", k, k * cards)
        results[f"cego {profile}"] = k / v
        print(f"{'':<4}kernel : validated = {k / v:,.0f}", flush=True)
    for contract in ("raeuber", "cego", "solo"):
        r = get_cego_profile("schwarzwald")
        f = fresh_rate(
            lambda n, s, c=contract, r=r: CP.random_deals(r, contract=c, deals=n, seed=s), secs
        )
        row(f"cego schwarzwald: kernel, fresh {contract} deals", f, f * 44)
        results[f"cego fresh {contract}"] = f
        plays_per_deal[f"cego fresh {contract}"] = 44

    for profile in ("wielandstrasse", "ddv"):
        positions = doko_positions(profile, args.positions)
        v, vp = validated(positions, secs)
        rows = np.stack([DK.from_state(s) for s in positions] * (4096 // len(positions) + 1))
        prof = get_profile(profile)
        k = kernel_rate(lambda r, s, p=prof: DP.play_out(r, p, seed=s), rows, secs)
        row(f"doppelkopf {profile}: validated engine", v, vp)
        row(f"doppelkopf {profile}: kernel", k, k * 48)
        results[f"doppelkopf {profile}"] = k / v
        print(f"{'':<4}kernel : validated = {k / v:,.0f}", flush=True)
        f = fresh_rate(lambda n, s, p=prof: DP.random_deals(p, deals=n, seed=s), secs)
        row(f"doppelkopf {profile}: kernel, fresh normal deals", f, f * 48)
        results[f"doppelkopf fresh {profile}"] = f
        plays_per_deal[f"doppelkopf fresh {profile}"] = 48

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    threads = os.cpu_count() or 1
    positions = doko_positions("wielandstrasse", 64)
    rows = np.stack([DK.from_state(s) for s in positions] * 512)
    prof = get_profile("wielandstrasse")
    for name, fn in (
        ("one thread", DP.play_out),
        (f"threaded, {threads} cores", DP.play_out_threaded),
    ):
        fn(rows[:64].copy(), prof)
        start = time.perf_counter()
        fn(rows.copy(), prof, seed=3)
        wall = time.perf_counter() - start
        row(f"doppelkopf wielandstrasse: kernel, {name} (wall)", len(rows) / wall)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})

    if args.no_openspiel:
        return
    comparisons = (
        ("tarok(players=4)", ("cego fresh raeuber", "cego fresh cego", "cego fresh solo")),
        ("hearts", ("doppelkopf fresh wielandstrasse", "doppelkopf fresh ddv")),
    )
    for name, ours in comparisons:
        cpp = openspiel(name, secs, "cpp", cpu)
        py = openspiel(name, secs, "python", cpu)
        if cpp is None or py is None:
            return
        row(f"openspiel {name}: whole games, C++ loop", cpp["games"], cpp["moves"])
        row(f"openspiel {name}: whole games, from Python", py["games"], py["moves"])
        for key in ours:
            games = results[key] / cpp["games"]
            moves = results[key] * plays_per_deal[key] / cpp["moves"]
            print(
                f"{'':<4}{key} : OpenSpiel C++ {name} = {games:,.1f} (deals : games), "
                f"{moves:,.1f} (card plays : moves)",
                flush=True,
            )


if __name__ == "__main__":
    main()
