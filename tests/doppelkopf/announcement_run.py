"""Random deals with random announcements, the engine's menus held against the oracle's.

``drive(profile, seed)`` deals a hand set arranged for one game type (normal, Hochzeit, Armut,
every solo, Stilles Solo; a 5-table now and then), plays it with random cards and, more often
early on, random announcements by random seats, and at every point requires the announcements
the engine offers each seat to equal :func:`oracle.menu`. The parties and a Hochzeit's
Klärungsstich are worked out here from the cards and the tricks, as the texts say, not asked of
the engine; at some points every announcement is also tried through ``can``/``apply``, and an
Absage that only TSR 6's reply rule forbids must be refused with that rule.

The property test runs a few thousand deals; a longer run (for a change of the rules):
``.venv/bin/python -m tests.doppelkopf.announcement_run --deals 20000``.
"""

import argparse
import random
import sys
import time
from collections import Counter

import pytest

from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction
from stichwerk.doppelkopf.announcements import LATE_REPLY
from stichwerk.doppelkopf.cards import CODES
from stichwerk.doppelkopf.record import deal_from_record
from stichwerk.doppelkopf.state import DokoState

from .oracle import ABSAGEN, menu

ACTS = ("re", "kontra", *ABSAGEN)
SOLOS = ("damen", "buben", "kreuz", "pik", "herz", "trumpf", "fleischlos")
TARGETS = {
    "ddv": ("normal", "normal", "hochzeit", "hochzeit", "hochzeit", "still", *SOLOS),
    "wielandstrasse": (
        *("normal", "normal", "hochzeit", "hochzeit", "hochzeit", "armut", "armut", "still"),
        *SOLOS,
    ),
}
"""The game types a deal is arranged for (Hochzeit more often: it has four outcomes)."""
NORMAL_TRUMPS = {"H10", *(s + "Q" for s in "CSHD"), *(s + "J" for s in "CSHD")}
NORMAL_TRUMPS |= {"D" + r for r in ("A", "10", "K", "9")}


def arrange(target: str, rng: random.Random, seats: list[int]) -> tuple[dict[int, list[str]], int]:
    """Hands for ``target`` (each code twice, shuffled) and the seat that makes the game."""
    cards = [c for c in CODES for _ in range(2)]
    rng.shuffle(cards)
    hands = {s: cards[12 * i : 12 * i + 12] for i, s in enumerate(seats)}
    maker = rng.choice(seats)

    def swap(a: int, i: int, b: int, j: int) -> None:
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]

    def give(seat: int, wanted: list[str]) -> None:
        """Move the ``wanted`` codes held elsewhere into ``seat``, for cards it need not keep."""
        for code in wanted:
            while hands[seat].count(code) < wanted.count(code):
                owner = next(s for s in seats if s != seat and code in hands[s])
                spare = next(
                    i for i, c in enumerate(hands[seat]) if hands[seat].count(c) > wanted.count(c)
                )
                swap(seat, spare, owner, hands[owner].index(code))

    if target in ("hochzeit", "still"):
        wanted = ["CQ", "CQ"]
        if target == "hochzeit" and rng.random() < 0.2:
            # The twelve highest trumps: the Hochzeiter takes the first three tricks and
            # plays alone (the Klärungsstich is trick 3).
            wanted = [c for c in ("H10", "CQ", "SQ", "HQ", "DQ", "CJ") for _ in range(2)]
        give(maker, wanted)
    else:
        for s in seats:  # nobody holds both Kreuz-Damen (no Hochzeit, no Stilles Solo)
            if hands[s].count("CQ") == 2:
                other = next(t for t in seats if t != s)
                j = next(j for j, c in enumerate(hands[other]) if c != "CQ")
                swap(s, hands[s].index("CQ"), other, j)
    if target == "armut":
        keep = rng.randrange(4)  # 0 to 3 trumps
        while sum(c in NORMAL_TRUMPS for c in hands[maker]) > keep:
            i = next(i for i, c in enumerate(hands[maker]) if c in NORMAL_TRUMPS)
            other, j = next(
                (s, j)
                for s in seats
                if s != maker
                for j, c in enumerate(hands[s])
                if c not in NORMAL_TRUMPS and not (c == "CQ" and hands[maker].count("CQ"))
            )
            swap(maker, i, other, j)
        for s in seats:  # the Kreuz-Damen still in two hands
            if s != maker and hands[s].count("CQ") == 2:
                return arrange(target, rng, seats)
    return hands, maker


class Deal:
    """One deal in play and what the harness knows of it by itself."""

    def __init__(self, profile: str, seed: int) -> None:
        self.rng = rng = random.Random(f"oracle-{profile}-{seed}")
        self.profile = profile
        n = 5 if rng.random() < 0.15 else 4
        dealer = rng.randrange(n)
        seats = [(dealer + i) % n for i in range(1, n + 1)]
        if n == 5:
            seats.remove(dealer)
        self.seats = seats
        self.target = rng.choice(TARGETS[profile])
        dealt, self.maker = arrange(self.target, rng, seats)
        hands = [dealt.get(s, []) for s in range(n)]
        owed = [s for s in seats if rng.random() < 0.3]
        record = {
            "game": "doppelkopf",
            "profile": profile,
            "options": {},
            "players": 4,
            "seats": n,
            "dealer": dealer,
            "hands": hands,
            "actions": [],
            "duty_solo_owed": owed,
        }
        self.state: DokoState = deal_from_record(record)
        self.hands = hands
        self.party: dict[int, str | None] = dict.fromkeys(range(n))
        self.klaerungsstich: int | None = 0
        self.held = dict.fromkeys(seats, 12)
        self.said: list[tuple[str, str, int]] = []
        self.stats: Counter[str] = Counter()

    # --- before the play: steer the reservations to the target

    def reserve(self) -> None:
        state, rng = self.state, self.rng
        solo = self.target in SOLOS
        while state.phase != "play" and not state.is_over:
            seat = state.to_act
            legal = state.legal_actions()
            by = {a.act: a for a in legal}
            if state.phase == "reservations":
                wants = seat == self.maker and self.target not in ("normal", "still")
                state.apply(by["vorbehalt"] if wants else by["gesund"])
            elif state.phase == "declarations":
                if solo:
                    state.apply(Action(seat, "solo", type=self.target))
                else:
                    state.apply(by[self.target])
            elif state.phase == "armut":
                state.apply(by["take" if rng.random() < 0.7 else "decline"])
            else:  # the taker gives back as many cards
                state.apply(rng.choice(legal))
        self._parties()

    def _parties(self) -> None:
        """The parties as the texts make them, from the dealt cards and the declarations."""
        if self.state.is_over:
            return
        cq = {s: self.hands[s].count("CQ") for s in self.seats}
        if self.target == "normal":
            re = {s for s in self.seats if cq[s]}
        elif self.target == "armut":
            taker = next(
                a.seat for a in self.state.actions if a.act == "take"
            )  # the one who took the Armut
            re = {self.maker, taker}
        elif self.target == "hochzeit":
            self.klaerungsstich = None
            re = set()
        else:
            re = {self.maker}
        for s in self.seats:
            self.party[s] = "re" if s in re else "kontra"
        if self.target == "hochzeit":
            self.party = dict.fromkeys(self.party)

    # --- the play

    def menus_agree(self) -> None:
        state = self.state
        check_can = self.rng.random() < 0.2
        for s in range(len(self.party)):
            engine = {a.act for a in state.legal_actions(s) if a.act in ACTS}
            cards = self.held.get(s, 0)
            oracle = menu(
                self.profile,
                party=self.party[s],
                cards=cards,
                said=self.said,
                klaerungsstich=self.klaerungsstich,
            )
            assert engine == oracle, self._where(s, engine, oracle)
            self.stats["menus"] += 1
            self.stats["menus-offering"] += bool(oracle)
            loose = menu(
                self.profile,
                party=self.party[s],
                cards=cards,
                said=self.said,
                klaerungsstich=self.klaerungsstich,
                reply_rule=False,
            )
            for act in sorted(loose - oracle):
                self.stats["refused-by-tsr6"] += 1
                with pytest.raises(IllegalAction, match=LATE_REPLY.replace("(", r"\(").replace(
                    ")", r"\)")):  # fmt: skip
                    state.apply(Action(s, act))
            if check_can:
                for act in ACTS:
                    assert state.can(Action(s, act)) == (act in oracle), self._where(
                        s, engine, oracle
                    )

    def _where(self, seat: int, engine: set[str], oracle: set[str]) -> str:
        return (
            f"{self.profile} target {self.target} seat {seat} party {self.party[seat]} "
            f"cards {self.held.get(seat)} k {self.klaerungsstich} said {self.said}: "
            f"engine {sorted(engine)} oracle {sorted(oracle)}; record {self.state.to_record()}"
        )

    def play(self) -> None:
        state, rng = self.state, self.rng
        while not state.is_over:
            self.menus_agree()
            tricks = len(state.snapshot().tricks)
            if rng.random() < (0.3 if tricks < 4 else 0.08):
                offers = [(s, act) for s in self.seats for act in ACTS if state.can(Action(s, act))]
                if offers:
                    seat, act = rng.choice(offers)
                    state.apply(Action(seat, act))
                    party = self.party[seat]
                    assert party is not None
                    self.said.append((party, act, self.held[seat]))
                    self.stats["announcements"] += 1
                    continue
            seat = state.to_act
            assert seat is not None
            plays = [a for a in state.legal_actions() if a.act == "play"]
            state.apply(rng.choice(plays))
            self.held[seat] -= 1
            if len(state.snapshot().tricks) > tricks:
                self._after_trick()
        self._tally()

    def _after_trick(self) -> None:
        """A Hochzeit's Klärungsstich: the first trick in three that another seat wins (DDV),
        led with a Fehl card (Wielandstraße, A5); none: the Hochzeiter plays alone."""
        if self.target != "hochzeit" or self.klaerungsstich is not None:
            return
        tricks = self.state.snapshot().tricks
        number = len(tricks)
        _, ids, winner = tricks[-1]
        fehl = CODES[ids[0] >> 1] not in NORMAL_TRUMPS
        partner = winner != self.maker and (self.profile == "ddv" or fehl)
        if partner or number == 3:
            self.klaerungsstich = number
            re = {self.maker, winner} if partner else {self.maker}
            for s in self.seats:
                self.party[s] = "re" if s in re else "kontra"
            self.stats[f"klaerungsstich-{number}" + ("" if partner else "-solo")] += 1

    def _tally(self) -> None:
        late = [p for p, act, held in self.said if act in ("re", "kontra") and held < 11]
        self.stats["late-replies"] += len(late)
        result = self.state.result()
        assert result is not None
        kind = {"still": "solo-still", "hochzeit": "hochzeit"}.get(self.target, self.target)
        if self.target in SOLOS:
            kind = f"solo-{self.target}"
        if self.target == "hochzeit" and self.party and list(self.party.values()).count("re") == 1:
            kind = "solo-trumpf"
        assert result["game_type"] == kind, (result["game_type"], kind)
        self.stats[f"game-{kind}"] += 1


def drive(profile: str, seed: int) -> Counter[str]:
    """One deal checked point by point; its counts of what was seen."""
    deal = Deal(profile, seed)
    deal.reserve()
    if deal.state.is_over:  # an Armut nobody took: redealt
        return Counter({"redeals": 1})
    deal.play()
    return deal.stats


def main() -> None:
    """The long run: ``--deals`` per profile, from ``--seed`` on."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for profile in ("ddv", "wielandstrasse"):
        start = time.perf_counter()
        total: Counter[str] = Counter()
        for seed in range(args.seed, args.seed + args.deals):
            total += drive(profile, seed)
        took = time.perf_counter() - start
        print(f"{profile}: {args.deals} deals in {took:.1f} s, all menus agree")
        for key, value in sorted(total.items()):
            print(f"  {key}: {value}")
    sys.exit(0)


if __name__ == "__main__":
    main()
