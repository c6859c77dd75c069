"""The bots never plan an Absage that TSR 6's reply rule forbids (issue 14).

A Re seat with twelve trumps is asked to act right after its partner's late reply: under `ddv`
neither bot says an Absage, under `wielandstrasse` the heuristic says keine 90 with the same
hand. The search bot's roll-outs score its words on the fast path, which keeps the rule too.
Deals played by the bots (half of them from a seat with nine high trumps whose partner has just
replied late), with replies forced in along the way, have every announcement checked by the
oracle written from the texts.
"""

import random

import pytest

from stichwerk.bots.base import make_bot
from stichwerk.bots.doppelkopf.knowledge import read
from stichwerk.bots.doppelkopf.world import fast_from, sample_world
from stichwerk.core.action import Action
from stichwerk.doppelkopf.cards import CODES
from stichwerk.doppelkopf.record import deal_from_record, new_deal
from stichwerk.doppelkopf.scoring import Announced
from stichwerk.doppelkopf.state import DokoState
from tests.doppelkopf.oracle import first_illegal

ABSAGEN = ("keine-90", "keine-60", "keine-30", "schwarz")
WORDS = ("re", "kontra", *ABSAGEN)
HANDS = [
    ["CA", "CA", "C10", "C10", "CK", "CK", "C9", "SA", "SA", "S10", "S10", "DJ"],  # Kontra
    ["CQ", "H10", "D10", "D10", "DA", "DA", "DK", "DK", "D9", "D9", "HA", "HA"],  # Re
    ["CQ", "H10", "SQ", "SQ", "HQ", "HQ", "DQ", "DQ", "CJ", "CJ", "SJ", "SJ"],  # Re: all trumps
    ["HJ", "HJ", "DJ", "C9", "SK", "SK", "S9", "S9", "HK", "HK", "H9", "H9"],  # Kontra
]


def strong_seat_after_late_reply(profile: str) -> DokoState:
    """Position 1 of issue 14 with seat 2 holding twelve trumps: Kontra said in time, seat 1
    replied Re with 10 cards, and seat 2 (11 cards) is to play."""
    record = {
        "game": "doppelkopf", "profile": profile, "options": {}, "players": 4, "dealer": 2,
        "hands": HANDS, "actions": [],
    }  # fmt: skip
    state = deal_from_record(record)
    script = "3 gesund;0 gesund;1 gesund;2 gesund;3 HJ;0 DJ;1 H10;2 SJ;1 D10;3 kontra;1 re"
    for step in script.split(";"):
        seat, what = step.split()
        if what in ("gesund", "kontra", "re"):
            state.apply(Action(int(seat), what))
        else:
            state.apply(Action(int(seat), "play", card=what))
    assert state.to_act == 2 and state.hand(2).bit_count() == 11
    return state


def test_heuristic_says_no_absage_after_its_partys_late_reply() -> None:
    ddv = strong_seat_after_late_reply("ddv")
    assert not {a.act for a in ddv.legal_actions(2)} & set(WORDS)
    assert make_bot("heuristic", "doppelkopf", 1).act(ddv.view(2)).act == "play"
    # The same hand under wielandstrasse goes on with keine 90: the rule is what stops it.
    ws = strong_seat_after_late_reply("wielandstrasse")
    assert make_bot("heuristic", "doppelkopf", 1).act(ws.view(2)).act == "keine-90"


def test_search_says_no_absage_and_its_rollouts_cannot_plan_one() -> None:
    ddv = strong_seat_after_late_reply("ddv")
    for seed in range(3):
        bot = make_bot("search", "doppelkopf", seed, worlds=6)
        assert bot.act(ddv.view(2)).act == "play"
    # The worlds it samples carry the late reply: their fast path refuses the Absage.
    for profile, allowed in (("ddv", False), ("wielandstrasse", True)):
        k = read(dict(strong_seat_after_late_reply(profile).view(2)))
        fast = fast_from(k, sample_world(k, random.Random(5)))
        assert fast.ann[0] == Announced(ansage=True, late=True)
        assert fast.announce(2, "keine-90", 11) is allowed


def said_in(state: DokoState) -> tuple[list[tuple[str, str, int]], int]:
    """Every announcement of a finished deal as (party, act, cards held), and the
    Klärungsstich (0 without Hochzeit), read from its record and result."""
    result = state.result()
    assert result is not None
    party = dict.fromkeys(result["re"], "re") | dict.fromkeys(result["kontra"], "kontra")
    held = dict.fromkeys(party, 12)
    said = []
    for a in state.actions:
        if a.act == "play":
            held[a.seat] -= 1
        elif a.act in WORDS:
            said.append((party[a.seat], a.act, held[a.seat]))
    return said, (result.get("hochzeit") or {}).get("klaerungsstich", 0)


def strong_deal(profile: str, seed: int) -> DokoState:
    """A random deal in which one seat holds nine high trumps (one Kreuz-Dame), so that the
    heuristic wants Absagen."""
    rng = random.Random(seed)
    strong = seed % 4
    top = ["H10", "H10", "CQ", "SQ", "SQ", "HQ", "HQ", "DQ", "DQ"]
    rest = [c for c in CODES for _ in range(2)]
    for c in top:
        rest.remove(c)
    rng.shuffle(rest)
    spare = [c for c in rest if c != "CQ"][:3]
    for c in spare:
        rest.remove(c)
    hands = []
    for s in range(4):
        hands.append(top + spare if s == strong else [rest.pop() for _ in range(12)])
    record = {
        "game": "doppelkopf", "profile": profile, "options": {}, "players": 4,
        "dealer": rng.randrange(4), "hands": hands, "actions": [],
    }  # fmt: skip
    return deal_from_record(record)


def late_reply_start(state: DokoState, strong: int, rng: random.Random) -> bool:
    """Bring a normal deal to the point where the strong seat's party has just replied late:
    everyone says gesund, a Kontra seat says kontra at once, random cards are played (the strong
    seat is not asked) until its partner replies re with 10 cards. False if that cannot be."""
    while state.phase == "reservations":
        assert state.to_act is not None
        state.apply(Action(state.to_act, "gesund"))
    partner = next(s for s in state.seat_order if s != strong and state.party_of(s) == "re")
    kontra = next(s for s in state.seat_order if state.party_of(s) == "kontra")
    state.apply(Action(kontra, "kontra"))
    while state.hand(partner).bit_count() > 10:
        state.apply(rng.choice([a for a in state.legal_actions() if a.act == "play"]))
    if state.hand(partner).bit_count() < 10:
        return False
    state.apply(Action(partner, "re"))
    return True


@pytest.mark.parametrize("profile", ["ddv", "wielandstrasse"])
def test_bots_announce_only_what_the_oracle_allows(profile: str) -> None:
    late = by_bots = 0
    for seed in range(40):
        rng = random.Random(seed)
        strong = seed % 4
        if seed % 2:
            state = strong_deal(profile, seed)
            if not late_reply_start(state, strong, rng):
                continue
        else:
            state = new_deal(profile=profile, seed=seed)
        search = seed % 6 in (0, 3)
        bots = [
            make_bot("search" if search and i == 0 else "heuristic", "doppelkopf", f"{seed}-{i}",
                     **({"worlds": 2} if search and i == 0 else {}))
            for i in range(4)
        ]  # fmt: skip
        while not state.is_over:
            if state.phase == "play" and rng.random() < 0.15:
                # Force a Re or Kontra now, often a (late) reply, to give the bots the chance.
                seat = rng.choice([s for s in state.seat_order if s != strong])
                offers = [a for a in state.legal_actions(seat) if a.act in ("re", "kontra")]
                if offers:
                    state.apply(offers[0])
                    continue
            seat = state.to_act
            assert seat is not None
            party = state.party_of(seat)
            if party is not None and state.snapshot().ann[party == "kontra"].late:
                late += 1  # a bot asked to act after its party's late reply
            action = bots[seat].act(state.view(seat))
            assert action in state.legal_actions(seat)
            by_bots += action.act in WORDS
            state.apply(action)
        if state.result() and "redeal" not in (state.result() or {}):
            said, k = said_in(state)
            assert first_illegal(profile, said, k) is None, (seed, said)
    assert late >= 100 and by_bots >= 5
