"""Doppelkopf bots: legal play, no peeking, sound world sampling, and the arena."""

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from stichwerk.bots.base import make_bot
from stichwerk.bots.doppelkopf.knowledge import read
from stichwerk.bots.doppelkopf.world import fast_from, rollout, sample_world, settle
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.cards import CODE_INDEX, NCODES, code_mask, codes_of_mask
from stichwerk.doppelkopf.record import deal_from_record, new_deal
from stichwerk.doppelkopf.state import DokoState
from tests.bots.helpers import assert_no_bot_tells, small_arena

SEARCH = {"worlds": 3}


def play_with(bots: list[str], seed: int, profile: str, seats: int) -> DokoState:
    state = new_deal(profile=profile, players=seats, seed=seed, dealer=seed % seats)
    players = [
        make_bot(name, "doppelkopf", f"{seed}-{i}", **(SEARCH if name == "search" else {}))
        for i, name in enumerate(bots)
    ]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat % len(players)].act(view)
        assert action.to_json() in view["legal_actions"], action
        state.apply(action)
    return state


@pytest.mark.parametrize("profile", ["wielandstrasse", "ddv"])
@pytest.mark.parametrize("seats", [4, 5])
def test_bots_play_legal_full_deals(profile: str, seats: int) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(6):
        state = play_with(["heuristic", "search", "random", "heuristic", "search"], seed, profile,
                          seats)  # fmt: skip
        result = state.result()
        assert result is not None
        kinds[result.get("game_type") or "redeal"] += 1
        if profile == "ddv" and "redeal" not in result:
            assert sum(result["score"]["settlement"]) == 0
    assert sum(kinds.values()) == 6


def test_every_bot_name_works_for_doppelkopf() -> None:
    for name in ("random", "heuristic", "search"):
        assert make_bot(name, "doppelkopf", 1).name == name


def midgame(seed: int, plays: int, profile: str = "wielandstrasse") -> DokoState:
    """A deal played by heuristic bots (with some random moves) up to ``plays`` cards."""
    state = new_deal(profile=profile, seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", "doppelkopf", i) for i in range(4)]
    while not state.is_over and (state.phase != "play" or plays > 0):
        seat = state.to_act
        assert seat is not None
        if state.phase == "play":
            plays -= 1
            choices = [a for a in state.legal_actions() if a.act == "play"]
            if rng.random() < 0.2:
                state.apply(rng.choice(choices))
                continue
        state.apply(bots[seat].act(state.view(seat)))
    return state


def counts(mask: int) -> Counter[int]:
    return Counter({c: (mask & code_mask(c)).bit_count() for c in range(NCODES)})


def test_sampled_worlds_respect_everything_the_seat_knows() -> None:
    checked = 0
    seen: Counter[str] = Counter()
    for seed in range(60):
        state = midgame(seed, plays=seed % 44)
        if state.is_over or state.phase != "play":
            continue
        seat = state.to_act
        assert seat is not None
        k = read(state.view(seat))
        seen[state.game_type] += 1
        order = k.card_order()
        # The inference agrees with the real deal.
        for s in k.others:
            real = state.hand(s)
            assert not (counts(k.must[s]) - counts(real)), (seed, s)
            for code in range(NCODES):
                if k.banned[s] & code_mask(code) == code_mask(code):
                    assert not real & code_mask(code), (seed, s, code)
            if k.exact_trumps[s] >= 0:
                assert (real & order.trump_mask).bit_count() == k.exact_trumps[s]
            for c in range(5):
                if k.voids[s] >> c & 1:
                    assert not real & order.class_masks[c]
        rng = random.Random(seed)
        for _ in range(30):
            world = sample_world(k, rng)
            assert world.hands[seat] == k.hand
            everything = k.hand
            for s in k.others:
                hand = world.hands[s]
                assert hand.bit_count() == state.hand(s).bit_count()
                assert hand & k.must[s] == k.must[s]
                assert not hand & k.banned[s]
                assert not hand & everything
                if k.exact_trumps[s] >= 0:
                    assert (hand & order.trump_mask).bit_count() == k.exact_trumps[s]
                everything |= hand
            assert everything == k.hand | k.unseen
            fast = fast_from(k, world)
            rollout(fast)
            assert fast.over and len(settle(fast)) == state.seats
            checked += 1
    assert checked >= 900
    assert seen["normal"] >= 10 and seen["hochzeit"] >= 1


def test_the_sampler_knows_armut_hochzeit_and_sau() -> None:
    """Crafted: a Hochzeit's Kreuz-Damen, the Armut's returned trumps, a Sau's two Füchse."""
    record = {
        "game": "doppelkopf",
        "profile": "wielandstrasse",
        "players": 4,
        "dealer": 3,
        "hands": [
            hand.split()
            for hand in (
                "CQ CQ H10 SQ HQ DQ CJ SJ CA SA HA C9",
                "H10 SQ HQ DQ CJ SJ HJ HJ DJ DJ D10 D10",
                "DA DA DK DK D9 D9 CA C10 C10 SA S10 S10",
                "C9 CK CK SK SK S9 S9 HA HK HK H9 H9",
            )
        ],
        "actions": [],
    }
    state = deal_from_record(record)
    for line in ("0 vorbehalt", "1 gesund", "2 gesund", "3 gesund", "0 hochzeit"):
        seat, act = line.split()
        state.apply(Action(int(seat), act))
    state.apply(Action(2, "sau"))
    k = read(state.view(1))
    assert k.hochzeiter == 0 and k.sau_seat == 2
    rng = random.Random(1)
    for _ in range(50):
        world = sample_world(k, rng)
        assert counts(world.hands[0])[CODE_INDEX["CQ"]] == 2
        assert counts(world.hands[2])[CODE_INDEX["DA"]] == 2
    # Armut deals: the poor hand holds just the trumps given back; the two seats involved know
    # the cards that moved.
    armut_deals = 0
    for seed in range(300):
        state = new_deal(seed=seed, dealer=seed % 4)
        while state.phase in ("reservations", "declarations", "armut", "armut-return"):
            legal = state.legal_actions()
            names = {a.act: a for a in legal}
            eligible = "armut" in state._eligible(state.to_act or 0)
            if state.phase == "reservations":
                state.apply(names["vorbehalt"] if eligible else names["gesund"])
            elif state.phase == "declarations":
                state.apply(names.get("armut") or legal[0])
            elif state.phase == "armut":
                state.apply(names["take"])
            else:
                state.apply(max(legal, key=lambda a: sum(c[0] == "D" for c in a.cards or ())))
        if state.game_type != "armut" or state.is_over:
            continue
        armut_deals += 1
        info = state.view(None)["armut"]
        poor, taker = info["seat"], info["taker"]
        for seat in state.seat_order:
            k = read(state.view(seat))
            if seat != poor:
                assert k.exact_trumps[poor] == info["returned_trumps"]
            if seat == poor:
                assert k.must[taker]
            for _ in range(10):
                world = sample_world(k, rng)
                for s in k.others:
                    assert world.hands[s] & k.must[s] == k.must[s]
                    assert not counts(k.must[s]) - counts(state.hand(s))
                if seat != poor:
                    trumps = world.hands[poor] & k.card_order().trump_mask
                    assert trumps.bit_count() == info["returned_trumps"]
    assert armut_deals >= 5


def test_a_bot_cannot_tell_two_consistent_hidden_deals_apart() -> None:
    """Swap unplayed cards between two other hands; where the history stays legal and the seat's
    view is identical, so is every bot's choice."""
    tested = 0
    for seed in range(60):
        state = midgame(seed, plays=seed % 40, profile=("wielandstrasse", "ddv")[seed % 2])
        if state.is_over:
            continue
        seat = state.to_act
        assert seat is not None
        record = state.to_record()
        rng = random.Random(seed)
        others = [s for s in state.seat_order if s != seat]
        other = None
        for _ in range(200):
            a, b = rng.sample(others, 2)
            held_a = codes_of_mask(state.hand(a))
            held_b = codes_of_mask(state.hand(b))
            if not held_a or not held_b:
                continue
            ca, cb = rng.choice(held_a), rng.choice(held_b)
            if ca == cb:
                continue
            trial = json.loads(json.dumps(record))
            for key, (old, new) in ((a, (ca, cb)), (b, (cb, ca))):
                cards = trial["hands"][key]
                cards[cards.index(old)] = new
            trial.pop("result", None)
            candidate = deal_from_record(trial)
            try:
                for raw in trial["actions"]:
                    candidate.apply(Action.from_json(raw))
            except StichwerkError:
                continue
            if candidate.view(seat) != state.view(seat):
                continue
            other = candidate
            break
        if other is None:
            continue
        assert [other.hand(s) for s in others] != [state.hand(s) for s in others]
        assert_no_bot_tells("doppelkopf", seat, state, other, worlds=4)
        tested += 1
    assert tested >= 25


def test_heuristic_beats_random_in_a_small_arena(tmp_path: Path) -> None:
    small_arena("doppelkopf", "wielandstrasse", tmp_path)


def test_search_keeps_to_its_budget_and_is_reproducible_with_worlds() -> None:
    import time

    state = midgame(7, plays=9)
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    bot = make_bot("search", "doppelkopf", 1, budget=0.05)
    start = time.perf_counter()
    bot.act(view)
    assert time.perf_counter() - start < 0.5
    one = make_bot("search", "doppelkopf", 2, worlds=5).act(view)
    two = make_bot("search", "doppelkopf", 2, worlds=5).act(view)
    assert one == two
