"""The search of both games: its worlds fit the seat's view, its evaluation of every legal
action, its bidding by play-outs, and a small arena against the first search."""

import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stichwerk.arena import ArenaSpec, run_arena
from stichwerk.bots.base import make_bot
from stichwerk.cego import cards as CC
from stichwerk.cego.contracts import EXCHANGES
from stichwerk.cego.record import deal_from_record as cego_from_record
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.cards import CODES as DOKO_CODES
from stichwerk.doppelkopf.record import deal_from_record as doko_from_record
from stichwerk.games import get_game

FAST = {"worlds": 24, "bid_budget": 0.05}


def position(game: str, profile: str, seed: int, skip: int) -> Any:
    """A deal played by the heuristic (a fifth of the cards at random) until ``skip`` actions
    have been taken or a seat must choose among several actions."""
    players = 3 if profile == "zego" else 4
    seats = 5 if seed % 5 == 0 and profile != "zego" else players
    state = get_game(game).new_deal(profile=profile, players=seats, seed=seed, dealer=seed % seats)
    bots = [make_bot("heuristic", game, f"{seed}-{s}") for s in range(seats)]
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_act
        legal = state.legal_actions(seat)
        if skip <= 0 and len(legal) > 1:
            break
        plays = [a for a in legal if a.act == "play"]
        if plays and rng.random() < 0.2:
            state.apply(rng.choice(plays))
        else:
            state.apply(bots[seat].act(state.view(seat)))
        skip -= 1
    return state


def doko_codes(mask: int) -> list[str]:
    return [DOKO_CODES[i >> 1] for i in range(48) if mask >> i & 1]


def replay_doko(state: Any, seat: int, hands: Any) -> Any:
    """The deal of a sampled world (its hands with every card each seat has played since)
    replayed through the engine with the same actions."""
    record = state.to_record()
    played: dict[int, list[str]] = {s: [] for s in range(state.seats)}
    for a in record["actions"]:
        if a["act"] == "play":
            played[a["seat"]].append(a["card"])
    record["hands"] = [
        sorted(doko_codes(int(hands[s])) + played[s]) if s != seat else record["hands"][s]
        for s in range(state.seats)
    ]
    replay = doko_from_record({**record, "actions": []})
    for a in record["actions"]:
        replay.apply(Action.from_json(a))
    return replay


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["wielandstrasse", "ddv"]),
    seed=st.integers(0, 10**6),
    skip=st.integers(0, 60),
)
def test_doppelkopf_worlds_replay_to_the_seats_own_view(profile: str, seed: int, skip: int) -> None:
    """Every sampled world, dealt and replayed with the same actions through the validated
    engine, is legal and shows the seat exactly the view it has: no world contradicts what the
    seat has seen (voids, the Kreuz-Damen of a Re, a Hochzeit, a Sau, the hand sizes ...)."""
    state = position("doppelkopf", profile, seed, skip)
    if state.is_over or state.snapshot().armut_seat is not None:
        return  # an Armut moves cards between hands: its worlds are checked below
    seat = state.to_act
    view = state.view(seat)
    bot = make_bot("search", "doppelkopf", seed)
    hands, weights = bot.sampled_worlds(view, 8)  # type: ignore[attr-defined]
    assert (weights > 0).all() and weights.max() == pytest.approx(1.0)
    for w in range(len(hands)):
        assert doko_codes(int(hands[w, seat])) == sorted(view["hand"], key=DOKO_CODES.index)
        assert replay_doko(state, seat, hands[w]).view(seat) == view


def test_doppelkopf_worlds_of_an_armut_keep_what_the_seats_saw() -> None:
    """Crafted: the poor seat gave its trumps away; those it got back are the trumps it holds."""
    record = {
        "game": "doppelkopf", "profile": "wielandstrasse", "players": 4, "dealer": 3,
        "hands": [h.split() for h in (
            "C9 CK CK SK S9 HK H9 H9 CA SA HA DJ",
            "CQ CQ H10 SQ HQ DQ CJ SJ HJ DJ D10 DA",
            "H10 SQ HQ DQ CJ SJ HJ DA D10 DK DK D9",
            "CA C10 C10 C9 SA S10 S10 SK HA HK S9 D9",
        )],
        "actions": [],
    }  # fmt: skip
    state = doko_from_record(record)
    for line in ("0 vorbehalt", "1 gesund", "2 gesund", "3 gesund", "0 armut", "1 take"):
        s, act = line.split()
        state.apply(Action(int(s), act))
    state.apply(next(a for a in state.legal_actions() if a.act == "return"))
    heuristic = make_bot("heuristic", "doppelkopf", 0)
    checked = 0
    while not state.is_over and checked < 4:
        seat = state.to_act
        view = state.view(seat)
        if seat in (2, 3):
            count = view["armut"]["returned_trumps"]
            bot = make_bot("search", "doppelkopf", checked)
            hands, _ = bot.sampled_worlds(view, 40)  # type: ignore[attr-defined]
            played = [h["card"] for h in view["history"] if h["act"] == "play" and h["seat"] == 0]
            held = count - sum(1 for c in played if c in _NORMAL_TRUMPS)
            for w in range(len(hands)):
                poor = doko_codes(int(hands[w, 0]))
                assert sum(1 for c in poor if c in _NORMAL_TRUMPS) == held
            checked += 1
        state.apply(heuristic.act(view))
    assert checked == 4


_NORMAL_TRUMPS = {"H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10", "DK", "D9"}


def test_doppelkopf_worlds_give_a_re_its_kreuz_dame_and_a_hochzeit_both() -> None:
    """Crafted from real positions: a seat that said Re in a normal game holds a Kreuz-Dame in
    every world (or has played one), a Hochzeit both (hand and played cards together)."""
    seen = {"re": 0, "hochzeit": 0}
    for seed in range(25):
        state = position("doppelkopf", "wielandstrasse", seed, 30)
        if state.is_over or state.phase != "play":
            continue
        seat = state.to_act
        view = state.view(seat)
        holders: dict[int, str] = {}
        for h in view["history"]:
            if h["act"] in ("re", "hochzeit") and h["seat"] != seat:
                # a Hochzeit that also says Re stays a Hochzeit here
                holders[h["seat"]] = max(holders.get(h["seat"], ""), h["act"], key=len)
        if state.game_type != "normal" and "hochzeit" not in holders.values():
            continue
        if not holders:
            continue
        played: dict[int, list[str]] = {s: [] for s in range(state.seats)}
        for h in view["history"]:
            if h["act"] == "play":
                played[h["seat"]].append(h["card"])
        hands, _ = make_bot("search", "doppelkopf", seed).sampled_worlds(view, 30)  # type: ignore[attr-defined]
        for s, act in holders.items():
            if act == "re" and state.game_type != "normal":
                continue  # the partner a Hochzeit found says Re without a Kreuz-Dame
            need = 2 if act == "hochzeit" else 1
            for w in range(len(hands)):
                cards = doko_codes(int(hands[w, s])) + played[s]
                assert cards.count("CQ") >= need
            seen[act] += 1
    assert seen["re"] >= 3 and seen["hochzeit"] >= 3


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["schwarzwald", "titisee", "zego"]),
    seed=st.integers(0, 10**6),
    skip=st.integers(0, 50),
)
def test_cego_worlds_fit_the_seats_view(profile: str, seed: int, skip: int) -> None:
    """Every sampled world gives each other seat as many cards as it holds, none the seat has
    seen, none of a suit it has shown out of, the Geiß to an Ulti bidder; and where the deal
    can be rebuilt from the world (the bidding, and the games without an exchange, or the
    seat's own exchange) it replays through the validated engine to the seat's own view."""
    state = position("cego", profile, seed, skip)
    if state.is_over:
        return
    seat = state.to_act
    view = state.view(seat)
    bot = make_bot("search", "cego", seed)
    hands, _ = bot.sampled_worlds(view, 8)  # type: ignore[attr-defined]
    visible = state.visible(seat)
    from stichwerk.bots.cego.knowledge import read

    k = read(view)
    for w in range(len(hands)):
        seen = 0
        for s in k.order:
            hand = int(hands[w, s])
            assert hand.bit_count() == view["hand_sizes"][s]
            assert not hand & seen
            seen |= hand
            if s == seat:
                assert hand == state.hands[seat]
                continue
            assert not hand & visible & ~k.known_in_hand(s)
            for suit in range(5):
                if k.voids[s] >> suit & 1:
                    assert not hand & CC.SUIT_MASK[suit]
            assert hand & k.must_hold[s] & ~k.played == k.must_hold[s] & ~k.played
        rebuilt = _rebuild_cego(state, seat, hands[w], k)
        if rebuilt is not None:
            assert rebuilt.view(seat) == view


def _rebuild_cego(state: Any, seat: int, hands: Any, k: Any) -> Any:
    """The deal of a sampled world replayed with the same actions, where the world fixes it:
    in the bidding, in a game without an exchange, or in the seat's own exchange game."""
    record = state.to_record()
    ladder = state.contract in EXCHANGES
    if state.phase == "exchange" or (ladder and state.declarer != seat):
        return None  # the declarer's exchange is hidden: a world does not fix his dealt hand
    dealt = []
    taken = 0
    for s in range(state.seats):
        if s == seat or not record["hands"][s]:
            dealt.append(record["hands"][s])
            for code in record["hands"][s]:
                taken |= 1 << CC.ID[code]
            continue
        mask = int(hands[s])
        for a in record["actions"]:
            if a["act"] == "play" and a["seat"] == s:
                mask |= 1 << CC.ID[a["card"]]
        taken |= mask
        dealt.append([CC.CODES[c] for c in range(54) if mask >> c & 1])
    if not ladder:
        blind = CC.ALL & ~taken & ~k.removed
        record["blind"] = [CC.CODES[c] for c in range(54) if blind >> c & 1]
    record["hands"] = dealt
    replay = cego_from_record({**record, "actions": []})
    for a in record["actions"]:
        replay.apply(Action.from_json(a))
    return replay


# ---------------------------------------------------------------------- evaluate


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_evaluate_values_every_legal_action_from_the_view_alone(game: str) -> None:
    """One value per legal action, with its interval and samples; the same for two deals the
    seat cannot tell apart (a fixed number of worlds), whatever the hidden cards."""
    checked = 0
    for seed in range(30):
        state = position(game, "schwarzwald" if game == "cego" else "wielandstrasse", seed,
                         seed % 40)  # fmt: skip
        if state.is_over:
            continue
        seat = state.to_act
        view = state.view(seat)
        bot = make_bot("search", game, 5, worlds=40)
        values = bot.evaluate(view, 1.0)  # type: ignore[attr-defined]
        legal = [Action.from_json(a) for a in view["legal_actions"]]
        assert [v.action for v in values] == legal or sorted(
            (v.action for v in values), key=str
        ) == sorted(legal, key=str)
        for v in values:
            assert type(v.mean) is float and type(v.half_width) is float
            assert math.isfinite(v.mean)
            assert v.half_width >= 0
            assert v.samples > 0 or v.half_width == math.inf
            json.dumps(v.to_json())
        again = make_bot("search", game, 5, worlds=40).evaluate(view, 1.0)  # type: ignore[attr-defined]
        assert again == values
        checked += 1
    assert checked >= 20


def test_evaluate_is_blind_to_the_hidden_cards() -> None:
    """Two Doppelkopf deals that differ only in two unseen cards of other seats: the same
    values for the seat to act."""
    found = 0
    for seed in range(40):
        state = position("doppelkopf", "wielandstrasse", seed, 20 + seed % 20)
        if state.is_over or state.phase != "play":
            continue
        seat = state.to_act
        record = state.to_record()
        view = state.view(seat)
        seen = set(view["hand"]) | {h["card"] for h in view["history"] if h["act"] == "play"}
        others = [s for s in range(state.seats) if s != seat and record["hands"][s]]
        a, b = others[0], others[1]
        swaps = [
            (x, y)
            for x in record["hands"][a]
            for y in record["hands"][b]
            if x != y and x not in seen and y not in seen
        ]
        other = None
        for x, y in swaps[:40]:
            trial = json.loads(json.dumps(record))
            trial["hands"][a][trial["hands"][a].index(x)] = y
            trial["hands"][b][trial["hands"][b].index(y)] = x
            try:
                candidate = doko_from_record(trial)
                for raw in trial["actions"]:
                    candidate.apply(Action.from_json(raw))
            except StichwerkError:
                continue
            if candidate.view(seat) == view:
                other = candidate
                break
        if other is None:
            continue
        one = make_bot("search", "doppelkopf", 3, worlds=30).evaluate(view, 1.0)  # type: ignore[attr-defined]
        two = make_bot("search", "doppelkopf", 3, worlds=30).evaluate(other.view(seat), 1.0)  # type: ignore[attr-defined]
        assert one == two
        found += 1
    assert found >= 5


@pytest.mark.parametrize("game", ["cego", "doppelkopf"])
def test_act_is_legal_and_the_same_for_a_seed(game: str) -> None:
    """At every kind of decision (bids, reservations, the exchange, cards, announcements) the
    search's choice is legal, and two bots with the same seed and world count choose alike."""
    kinds: set[str] = set()
    for seed in range(24):
        profile = ("schwarzwald", "titisee", "zego")[seed % 3] if game == "cego" else (
            ("wielandstrasse", "ddv")[seed % 2])  # fmt: skip
        state = position(game, profile, seed, (seed * 7) % 45)
        if state.is_over:
            continue
        view = state.view(state.to_act)
        legal = [Action.from_json(a) for a in view["legal_actions"]]
        one = make_bot("search", game, seed, **FAST).act(view)
        two = make_bot("search", game, seed, **FAST).act(view)
        assert one in legal
        assert one == two
        kinds.add(view["phase"])
    assert "play" in kinds and len(kinds) >= 2


def test_a_word_out_of_turn_is_refused_with_the_reason() -> None:
    """A Doppelkopf seat not on turn may still say a word (Kontra, an Absage). The search weighs
    words beside its cards at the seat's own turn (tables and the arena ask a bot only then);
    asked out of turn, it says so in one line instead of failing somewhere inside."""
    found = 0
    for seed in range(12):
        state = position("doppelkopf", ("wielandstrasse", "ddv")[seed % 2], seed, 4 + seed % 9)
        if state.is_over or state.view(state.to_act)["phase"] != "play":
            continue
        for seat in range(state.seats):
            if seat == state.to_act or not state.legal_actions(seat):
                continue
            bot = make_bot("search", "doppelkopf", seed, **FAST)
            with pytest.raises(StichwerkError, match="out of turn"):
                bot.act(state.view(seat))
            for other in ("heuristic", "search-v1"):
                with pytest.raises(StichwerkError, match="out of turn"):
                    make_bot(other, "doppelkopf", seed).act(state.view(seat))
            with pytest.raises(StichwerkError, match="out of turn"):
                bot.evaluate(state.view(seat), 0.05)  # type: ignore[attr-defined]
            found += 1
    assert found >= 3


def test_evaluate_needs_the_kernel_and_says_so() -> None:
    bot = make_bot("search", "cego", 0, compiled=False)
    state = get_game("cego").new_deal(seed=1)
    with pytest.raises(StichwerkError, match="compiled kernel: pip install stichwerk \\(numba\\)"):
        bot.evaluate(state.view(state.to_act), 0.1)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- bidding by play-outs


def test_a_damen_solo_hand_is_declared_by_search() -> None:
    """Seven queens and both Dullen: a solo wins nearly always; the search says Vorbehalt,
    values it far above the normal game and declares the solo it values most."""
    record = {
        "game": "doppelkopf", "profile": "ddv", "players": 4, "dealer": 3,
        "hands": [h.split() for h in (
            "CQ SQ SQ HQ HQ DQ DQ H10 H10 CA CA SA",
            "CQ CJ CJ SJ SJ HJ HJ DJ DJ DA DA D10",
            "D10 DK DK D9 D9 C10 C10 CK CK C9 C9 SA",
            "S10 S10 SK SK S9 S9 HA HA HK HK H9 H9",
        )],
        "actions": [],
    }  # fmt: skip
    state = doko_from_record(record)
    bot = make_bot("search", "doppelkopf", 1, worlds=200)
    values = {v.action.act: v for v in bot.evaluate(state.view(0), 1.0)}  # type: ignore[attr-defined]
    assert values["vorbehalt"].mean > values["gesund"].mean + 5
    assert bot.act(state.view(0)).act == "vorbehalt"
    state.apply(Action(0, "vorbehalt"))
    for s in (1, 2, 3):
        state.apply(Action(s, "gesund"))
    values = {(v.action.act, v.action.type): v.mean for v in bot.evaluate(state.view(0), 1.0)}  # type: ignore[attr-defined]
    choice = bot.act(state.view(0))
    assert choice.act == "solo"  # Damen, or a colour solo with the queens and Dullen as trumps
    assert values[("solo", choice.type)] == max(values.values())
    assert values[("solo", "damen")] > 5


def _ddv_vorhand(hand: str) -> Any:
    """A ``ddv`` deal with ``hand`` at Vorhand (seat 0) and the other cards dealt in order
    (the search sees only its own hand)."""
    deck = [c for c in DOKO_CODES for _ in range(2)]
    mine = hand.split()
    for c in mine:
        deck.remove(c)
    hands = [mine, deck[0:12], deck[12:24], deck[24:36]]
    record = {"game": "doppelkopf", "profile": "ddv", "players": 4, "dealer": 3,
              "hands": hands, "actions": []}  # fmt: skip
    return doko_from_record(record)


def _declaring(state: Any) -> Any:
    """Seat 0 said Vorbehalt, the others gesund: seat 0 declares."""
    state.apply(Action(0, "vorbehalt"))
    for s in (1, 2, 3):
        state.apply(Action(s, "gesund"))
    return state


def test_a_sure_solo_is_worth_its_announcements() -> None:
    """All eight queens and four black aces: a Damensolo the soloist wins schwarz. Without
    announcements it can bring at most 3 x (1 + keine 90, 60, 30, schwarz) = 15; the soloist
    says Re and every Absage (+2 and +4 more, each times three), which the reservation's
    play-outs now count (they left every announcement out, so a solo's Re, worth three times
    a normal game's, was missing)."""
    state = _declaring(_ddv_vorhand("CQ CQ SQ SQ HQ HQ DQ DQ CA CA SA SA"))
    bot = make_bot("search", "doppelkopf", 3, worlds=100)
    values = {(v.action.act, v.action.type): v.mean for v in bot.evaluate(state.view(0), 1.0)}  # type: ignore[attr-defined]
    assert values[("solo", "damen")] == pytest.approx(33.0, abs=0.5)
    assert bot.act(state.view(0)) == Action(0, "solo", type="damen")


def test_announcements_tip_a_strong_colour_solo_over_the_normal_game() -> None:
    """Both Dullen, a Kreuz-Dame, three more queens, two Karo-Buben, the Herz-Ass: the normal
    game and a Herz-Solo are both won nearly always. Without announcements the normal game
    (with its Fuchs, Karlchen and Doppelkopf) was worth more; said Re (and answered), the
    solo's announcements count three times and the solo is worth more. Reproducible: a fixed
    number of sampled deals from a fixed seed."""
    state = _ddv_vorhand("C10 CQ DJ DJ DQ H10 H10 HA HK SA SQ SQ")
    bot = make_bot("search", "doppelkopf", "b", worlds=800)
    values = {v.action.act: v.mean for v in bot.evaluate(state.view(0), 2.0)}  # type: ignore[attr-defined]
    assert values["vorbehalt"] > values["gesund"]
    assert bot.act(state.view(0)).act == "vorbehalt"
    _declaring(state)
    assert bot.act(state.view(0)) == Action(0, "solo", type="herz")


def test_a_weak_hand_declares_no_solo() -> None:
    """Few trumps, no aces to run: every solo is a likely loss, more so as the defenders say
    Kontra against it; the search says gesund, and forced to declare (Vorbehalt said) it
    values every solo below the normal game's result."""
    state = _ddv_vorhand("C9 C9 CK SJ S9 SK HK H9 DK D9 D10 HJ")
    bot = make_bot("search", "doppelkopf", 5, worlds=300)
    assert bot.act(state.view(0)).act == "gesund"
    values = {v.action.act: v.mean for v in bot.evaluate(state.view(0), 1.0)}  # type: ignore[attr-defined]
    gesund = values["gesund"]
    _declaring(state)
    solos = [v.mean for v in bot.evaluate(state.view(0), 1.0) if v.action.act == "solo"]  # type: ignore[attr-defined]
    assert solos and max(solos) < gesund


def test_a_strong_cego_hand_plays_solo_and_a_weak_one_passes() -> None:
    rules_hands = {
        "strong": "T22 T21 T20 T19 T18 T17 T16 T15 CK SK HK",
        "weak": "T2 T3 C7 C8 C9 S7 S8 H1 H2 D1 D2",
    }
    for kind, hand in rules_hands.items():
        rest = [CC.CODES[c] for c in range(54) if CC.CODES[c] not in hand.split()]
        random.Random(kind).shuffle(rest)
        record = {
            "game": "cego", "profile": "schwarzwald", "players": 4, "dealer": 3,
            "hands": [hand.split(), rest[0:11], rest[11:22], rest[22:33]],
            "blind": rest[33:43], "actions": [],
        }  # fmt: skip
        state = cego_from_record(record)
        bot = make_bot("search", "cego", 1, worlds=300, bidding="search")
        values = {v.action.act: v.mean for v in bot.evaluate(state.view(0), 1.0)}  # type: ignore[attr-defined]
        choice = bot.act(state.view(0)).act
        if kind == "strong":
            assert values["solo"] > values["fort"] and choice == "solo"
        else:
            assert values["fort"] > values["solo"] and choice == "fort"


def test_cego_gegensolo_is_searched() -> None:
    """Facing another seat's Solo with a weak hand: a Gegensolo (the ladder game against all,
    raised) plays out far worse than defending, and the search says fort."""
    hand = ["T2", "T3", "C7", "C8", "C9", "S7", "S8", "H1", "H2", "D1", "D2"]
    rest = [c for c in CC.CODES if c not in hand]
    random.Random("gegensolo").shuffle(rest)
    record = {
        "game": "cego", "profile": "schwarzwald", "players": 4, "dealer": 3,
        "hands": [rest[0:11], hand, rest[11:22], rest[22:33]], "blind": rest[33:43],
        "actions": [],
    }  # fmt: skip
    state = cego_from_record(record)
    state.apply(Action(0, "solo"))
    while state.to_act != 1 or state.phase != "gegensolo":
        state.apply(Action(state.to_act, "fort"))
    view = state.view(1)
    values = {
        v.action.act: v for v in make_bot("search", "cego", 2, worlds=200).evaluate(view, 1.0)
    }  # type: ignore[attr-defined]
    assert set(values) == {"fort", "gegensolo"}
    assert values["gegensolo"].mean + values["gegensolo"].half_width < values["fort"].mean
    assert make_bot("search", "cego", 2, worlds=200, bidding="search").act(view).act == "fort"


def test_cego_exchange_is_searched_and_keeps_the_rule_unless_beaten() -> None:
    """In the exchange every legal choice is played out; the search keeps the bots' rule unless
    another choice did better in the same sampled deals, so its choice never values lower."""
    from stichwerk.bots.cego.heuristic import CegoHeuristicBot
    from stichwerk.bots.cego.knowledge import read

    checked = 0
    for seed in range(200):
        state = position("cego", "schwarzwald", seed, 0)
        heuristic = make_bot("heuristic", "cego", seed)
        while not state.is_over and state.phase != "exchange":
            state.apply(heuristic.act(state.view(state.to_act)))
        if state.is_over or len(state.legal_actions()) < 2:
            continue
        view = state.view(state.to_act)
        actions = [Action.from_json(a) for a in view["legal_actions"]]
        values = {
            v.action: v for v in make_bot("search", "cego", seed, worlds=60).evaluate(view, 1.0)
        }  # type: ignore[attr-defined]
        assert set(values) == set(actions)
        choice = make_bot("search", "cego", seed, worlds=60, exchange="search").act(view)
        default = CegoHeuristicBot(0).exchange(read(dict(view)), actions)
        assert values[choice].mean >= values[default].mean
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_cego_bids_and_exchanges_as_the_first_search_on_request() -> None:
    """With ``bidding`` and ``exchange`` set to ``heuristic`` the Cego search bids and exchanges
    as ``search-v1`` does (to measure what the searched bids bring); a wrong mode is one clear
    error."""
    compared = 0
    for seed in range(60):
        state = position("cego", ("schwarzwald", "zego")[seed % 2], seed, 0)
        heuristic = make_bot("heuristic", "cego", seed)
        while not state.is_over and state.phase != "play":
            view = state.view(state.to_act)
            if len(view["legal_actions"]) > 1:
                new = make_bot(
                    "search", "cego", seed, worlds=20, bidding="heuristic", exchange="heuristic"
                ).act(view)
                old = make_bot("search-v1", "cego", seed, worlds=20).act(view)
                assert new == old
                compared += 1
            state.apply(heuristic.act(view))
        if compared >= 12:
            break
    assert compared >= 12
    with pytest.raises(StichwerkError, match="bidding and exchange"):
        make_bot("search", "cego", 0, bidding="auction")


# ---------------------------------------------------------------------- the arena


@pytest.mark.parametrize(("game", "profile"), [("cego", "zego"), ("doppelkopf", "ddv")])
def test_a_small_arena_against_the_first_search_is_reproducible(game: str, profile: str) -> None:
    seats = 3 if profile == "zego" else 4
    params = {"search": FAST, "search-v1": {"worlds": 12}}
    spec = ArenaSpec(game, profile, ("search", "search-v1"), 2, seats, "sanity", {}, params)
    one = run_arena(spec, workers=1)
    two = run_arena(spec, workers=1)
    new, old = one.stats
    assert new.name == "search" and old.name == "search-v1"
    assert new.mean == pytest.approx(-old.mean) or seats == 3
    assert [s.samples for s in one.stats] == [s.samples for s in two.stats]


def _cego_world(profile: str, seed: int) -> tuple[Any, Any, int, int, Any]:
    """A dealt Cego deal as the kernel's row (Vorhand to act), its rules row, the blind, the
    cards out of play and the seat order."""
    from stichwerk.cego import kernel as K

    state = get_game("cego").new_deal(profile=profile, seed=seed, dealer=seed % 3)
    record = state.to_record()
    players = len(record["hands"])
    order = [(record["dealer"] + 1 + i) % players for i in range(players)]
    row = K.empty_row()
    row[K.SEATS] = players
    K.set_order(row, order)
    for seat, hand in enumerate(record["hands"]):
        row[K.HAND + seat] = sum(1 << CC.ID[c] for c in hand)
    row[K.TO_ACT] = order[0]
    row[K.DECIDED_STOP] = state.profile.stop_when_decided
    blind = sum(1 << CC.ID[c] for c in record["blind"])
    removed = CC.REMOVED_FOR_THREE if players == 3 else 0
    return row, K.rules_row(state.profile), blind, removed, order


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile=st.sampled_from(["zego", "schwarzwald"]), seed=st.integers(0, 10**6))
def test_a_cego_solo_is_valued_as_the_other_seats_would_answer_it(profile: str, seed: int) -> None:
    """The search values a Solo as it would go: each other seat in turn from the soloist holds
    Cego with Gegensolo where its Cego (played out in the same deal) beats its share of the
    Solo; without Gegensolo in the rules the Solo is played. The roll-out policy and the bots'
    exchange are deterministic, so each game can be played out again here."""
    import numpy as np

    from stichwerk.bots.cego import compiled as B
    from stichwerk.bots.cego import playout as P
    from stichwerk.cego import kernel as K

    row, rules, blind, removed, order = _cego_world(profile, seed)
    ex = K.exchange_row("cego")
    rs = np.array([1], dtype=np.uint64)

    def game(contract: int, declarer: int, value: int) -> tuple[Any, Any]:
        opt = np.full(B.OPTION_FIELDS, -1, dtype=np.int64)
        opt[B.O_STAGE], opt[B.O_CONTRACT], opt[B.O_DECLARER], opt[B.O_VALUE] = (
            0, contract, declarer, value,
        )  # fmt: skip
        opt[B.O_LAY_N : B.O_PRESS_KIND + 1] = ex
        st = row.copy()
        assert B.setup_contract(st, rules, opt, blind, removed)
        P.finish(st, P.HEURISTIC, rs)
        out = np.zeros(5, dtype=np.int64)
        K.settle(st, rules, out)
        return out, st

    soloist = order[1 % len(order)]
    answer = sum(1 << s for s in order if s != soloist)
    solo = game(K.SOLO, soloist, 1)
    cego = {s: game(K.LADDER, s, 2) for s in order if s != soloist}
    ring = order[order.index(soloist) + 1 :] + order[: order.index(soloist)]
    holder = next(
        (
            s
            for s in ring
            if B.relative(cego[s][0], s, cego[s][1]) > B.relative(solo[0], s, solo[1])
        ),
        None,
    )
    out = np.zeros(5, dtype=np.int64)
    for me in order:
        on = np.array([1, 2], dtype=np.int64)
        got = B._answered_solo(row, rules, soloist, 1, answer, blind, removed, ex, on, rs, me, out)
        played = cego[holder] if holder is not None else solo
        assert got == pytest.approx(B.relative(played[0], me, played[1]))
        off = np.array([0, 2], dtype=np.int64)
        got = B._answered_solo(row, rules, soloist, 1, answer, blind, removed, ex, off, rs, me, out)
        assert got == pytest.approx(B.relative(solo[0], me, solo[1]))


def test_a_three_player_solo_is_not_announced_where_every_one_is_answered() -> None:
    """At a three-player Zego table every Solo of the search was answered with Gegensolo
    (played: the soloist −12.5 a deal; the Solo valued as if unanswered: +12), so a middling
    hand that would announce a Solo nobody could answer says fort where Gegensolo exists."""
    words = {}
    for gegensolo in (False, True):
        state = get_game("cego").new_deal(
            profile="zego", options={"gegensolo": gegensolo}, dealer=0, seed="cal-9"
        )
        vorhand = state.to_act
        bot = make_bot("search", "cego", 3, worlds=400)
        values = {v.action.act: v for v in bot.evaluate(state.view(vorhand), 1.0)}  # type: ignore[attr-defined]
        words[gegensolo] = bot.act(state.view(vorhand)).act
        if gegensolo:
            assert values["solo"].mean + values["solo"].half_width < values["fort"].mean
    assert words == {False: "solo", True: "fort"}
