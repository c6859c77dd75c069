"""Fit the Cego search's model of how the bots bid a Solo (``bots/cego/bidding.py``).

When the search weighs ``fort`` it plays the game on as the table would: a later seat of the
Solo round announces a Solo when the bots would (when its Solo is worth more than the Solo
margin of the bots' rule, ``heuristic.MARGIN``), and the inference weighs a seat that passed or
announced by how likely that was. Simulating every later seat's Solo inside every sampled world
would cost a simulation per world, so the expected Solo of a hand is taken from a linear model of
a few counts (trumps, high trumps, the top two, kings, void suits, the Geiß), fitted here by
least squares to the kernel's own Solo simulations of random hands (``--hands`` hands, 600
deals each). The script prints the coefficients as the ``SOLO_MODEL`` table of ``bidding.py``
and how well the model agrees with the simulations.

    .venv/bin/python benchmarks/fit_bidding.py --hands 1500
"""

import argparse
import random
import time

import numpy as np

from stichwerk.bots.cego import compiled as CC
from stichwerk.bots.cego import sampler as W
from stichwerk.bots.cego.bidding import SOLO_BAR, features
from stichwerk.cego import cards as C
from stichwerk.cego import kernel as K
from stichwerk.cego.profiles import PROFILES, get_profile


def fit(profile: str, players: int, hands: int, seed: int) -> tuple[list[float], float, float]:
    """Coefficients, R² and the share of hands on the same side of the bar as simulated."""
    rules = get_profile(profile)
    rng = random.Random(seed)
    removed = C.REMOVED_FOR_THREE if players == 3 else 0
    deck = [c for c in range(54) if not removed >> c & 1]
    size = 13 if players == 3 else 11
    rules_row = K.rules_row(rules)
    xs: list[list[float]] = []
    ys: list[float] = []
    options = np.full((1, CC.OPTION_FIELDS), -1, dtype=np.int64)
    options[0, CC.O_STAGE] = 0
    options[0, CC.O_LATER] = 0
    options[0, CC.O_CONTRACT] = K.SOLO
    options[0, CC.O_DECLARER] = 0
    options[0, CC.O_VALUE] = rules.solo_value
    ps = np.array([99, 99, 99, 0], dtype=np.int64)
    model = np.zeros(len(features(0)), dtype=np.float64)
    for _ in range(hands):
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:size])
        template = K.empty_row()
        template[K.SEATS] = players
        K.set_order(template, list(range(players)))
        template[K.HAND] = hand
        template[K.TO_ACT] = 0
        template[K.DECIDED_STOP] = rules.stop_when_decided
        kn = np.zeros(W.K_FIELDS, dtype=np.int64)
        unseen = C.ALL & ~hand & ~removed
        kn[W.K_UNSEEN] = unseen
        kn[W.K_N_OTHERS] = players - 1
        kn[W.K_LEAN_SLOT] = -1
        kn[W.K_OUT_KNOWN] = -1
        for j in range(players - 1):
            kn[W.K_OTHER + j] = j + 1
            kn[W.K_NEED + j] = size
        kn[W.K_HIDDEN_NEED] = unseen.bit_count() - size * (players - 1)
        values = np.zeros((600, 1), dtype=np.float64)
        logw = np.zeros(600, dtype=np.float64)
        rs = np.array([rng.getrandbits(64)], dtype=np.uint64)
        CC.contract_values(
            template, kn, np.ones(3), rules_row, removed, options, ps, K.exchange_row("cego"),
            np.zeros(2, dtype=np.int64), 0, model, 1.0, 600, rs, values, logw, -1,
        )  # fmt: skip
        xs.append(features(hand))
        ys.append(float(values[:, 0].mean()))
    x = np.array(xs)
    y = np.array(ys)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    pred = x @ coef
    r2 = 1 - float(((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())
    agree = float(((pred > SOLO_BAR) == (y > SOLO_BAR)).mean())
    return [round(float(c), 2) for c in coef], r2, agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("SOLO_MODEL = {")
    for profile in PROFILES:
        for players in (3, 4):
            start = time.process_time()
            coef, r2, agree = fit(profile, players, args.hands, args.seed)
            spent = time.process_time() - start
            print(f"    ({profile!r}, {players}): {tuple(coef)},"
                  f"  # R² {r2:.3f}, same side of the bar {agree:.3f}, {spent:.0f} s")  # fmt: skip
    print("}")


if __name__ == "__main__":
    main()
