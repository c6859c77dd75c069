"""What each rule of the Doppelkopf roll-out policy (``policy.S_*``) is worth, on the kernel.

Every deal is played twice by the policy in every seat, once without the rule and once with it
for some seats; the figure is what those seats gain per deal against the others (95% interval),
the same deals and the same cards otherwise (duplicate play, so the noise of the cards cancels).
Gains are counted against the other seats, as the bots count them, so that a profile where only
the winners score (``plus``) reads like one where the losers pay.

- Normal games (fresh deals, everyone gesund): the rule for seats 0 and 2, then 1 and 3.
- Solos: deals where one seat holds a hand worth the solo (``--strength``: its trumps and half
  its four highest trumps counted), that seat playing it; the rule for the three defenders (the
  change of the soloist's result less the defenders' mean: lower is a better defence), then for
  the soloist alone.

    .venv/bin/python benchmarks/policy_style.py --profile ddv --deals 20000
"""

import argparse
from typing import Any

import numpy as np

from stichwerk.bots.doppelkopf import playout as P
from stichwerk.bots.doppelkopf import policy
from stichwerk.bots.doppelkopf.rollouts import policy_tables
from stichwerk.core.kernel import substream
from stichwerk.doppelkopf import kernel as K
from stichwerk.doppelkopf.cards import deck
from stichwerk.doppelkopf.profiles import Profile, get_profile

RULES = {"S_FORCE": policy.S_FORCE, "S_CASH": policy.S_CASH, "S_KONTRA_HIGH": policy.S_KONTRA_HIGH}
ALL = policy.S_FORCE | policy.S_CASH | policy.S_KONTRA_HIGH
SOLOS = ("solo-trumpf", "solo-damen", "solo-buben", "solo-fleischlos")


def interval(x: Any) -> str:
    half = 1.96 * float(np.std(x)) / len(x) ** 0.5
    m = float(np.mean(x))
    return f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"


def normal(profile: Profile, deals: int, rule: int) -> str:
    def run(style: int) -> Any:
        return P.random_deals(
            profile,
            deals=deals,
            policy=P.HEURISTIC,
            seed=7,
            policy_tables=policy_tables(profile, style),
        ).astype(float)

    base = run(policy.STYLE_V1)
    gain = np.zeros(deals)
    for seats in ((0, 2), (1, 3)):
        mask = sum(1 << s for s in seats)
        others = [s for s in range(4) if s not in seats]
        got = run(rule << 8 | mask)
        mine = got[:, seats].sum(1) - got[:, others].sum(1)
        before = base[:, seats].sum(1) - base[:, others].sum(1)
        gain += (mine - before) / 4  # half of what the pair gains on the other pair, per rotation
    return interval(gain)


def solo_deals(profile: Profile, game: str, deals: int, strength: float) -> tuple[Any, Any]:
    """Deals of ``game`` where the strongest seat's hand reaches ``strength``: rows, soloists."""
    t = K.tables_for(profile)
    code = K.GAME_CODE[game]
    oi = int(K.GAME_SCHEME[code]) * 4
    trumps = [c for c in range(24) if t.orders[oi, K.O_CLS + c] == K.TRUMP]
    trump_mask = sum(3 << (2 * c) for c in trumps)
    top = sorted(trumps, key=lambda c: -int(t.orders[oi, K.O_POWER + c]))[:4]
    top_mask = sum(3 << (2 * c) for c in top)
    template, _ = K.deal_template(profile)
    full = deck(profile.with_nines)
    rows, soloists = [], []
    i = 0
    while len(rows) < deals:
        st = template.copy()
        K.deal_cards(st, substream(np.uint64(99), i), full)
        i += 1
        score = [
            (int(st[K.HAND + s]) & trump_mask).bit_count()
            + 0.5 * (int(st[K.HAND + s]) & top_mask).bit_count()
            for s in range(4)
        ]
        soloist = int(np.argmax(score))
        if score[soloist] < strength:
            continue
        K.start_game(st, code, soloist, profile.silent_solo)
        st[K.SAU_POSSIBLE] = t.profile[K.P_SAU_ACE + st[K.GAME]] >= 0
        rows.append(st)
        soloists.append(soloist)
    return np.array(rows), np.array(soloists)


def solo(profile: Profile, rows: Any, soloists: Any, style_of: Any) -> Any:
    """The soloist's settlement less the defenders' mean, per deal, the policy's style per
    deal's soloist."""
    out = np.zeros(len(rows))
    for s in range(4):
        sel = soloists == s
        if sel.any():
            got = P.play_out(
                rows[sel].copy(), profile, policy=P.HEURISTIC, seed=1,
                policy_tables=policy_tables(profile, style_of(s)),
            )  # fmt: skip
            defenders = [d for d in range(4) if d != s]
            out[sel] = got[:, s] - got[:, defenders].mean(1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default="ddv")
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--strength", type=float, default=10.0)
    args = parser.parse_args()
    profile = get_profile(args.profile)
    rules = {**RULES, "all": ALL}
    print(f"{args.profile}, {args.deals} deals per line")
    print("normal games, what two seats with the rule gain together per deal:")
    for name, rule in rules.items():
        print(f"  {name:<14} {normal(profile, args.deals, rule)}")
    for game in SOLOS:
        rows, soloists = solo_deals(profile, game, args.deals // 4, args.strength)
        base = solo(profile, rows, soloists, lambda s: policy.STYLE_V1)
        won = float(np.mean(base > 0))
        print(f"{game}: the soloist without the rules {interval(base)}, won {won:.0%}")
        for name, rule in rules.items():
            defence = solo(profile, rows, soloists, lambda s, r=rule: r << 8 | (15 & ~(1 << s)))
            play = solo(profile, rows, soloists, lambda s, r=rule: r << 8 | 1 << s)
            print(
                f"  {name:<14} defenders: soloist {interval(defence - base)};"
                f" soloist: {interval(play - base)}"
            )


if __name__ == "__main__":
    main()
