"""Cego bots: legal play, no peeking, sound world sampling, and the arena."""

import json
import random
from pathlib import Path

import pytest

from stichwerk.arena import ArenaSpec, run_arena
from stichwerk.bots.base import make_bot
from stichwerk.bots.cego.knowledge import read
from stichwerk.bots.cego.policy import POSITIVE, kind_of
from stichwerk.bots.cego.world import sample_world
from stichwerk.cego import cards as C
from stichwerk.cego.record import deal_from_record, new_deal
from stichwerk.cego.state import CegoState
from stichwerk.cli.replay import replay_record
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from tests.bots.helpers import assert_no_bot_tells, small_arena


def play_with(
    bots: list[str], seed: int, profile: str = "schwarzwald", seats: int = 4
) -> CegoState:
    state = new_deal(profile=profile, players=seats, seed=seed, dealer=seed % seats)
    players = [
        make_bot(name, "cego", f"{seed}-{i}", **({"worlds": 4} if name == "search" else {}))
        for i, name in enumerate(bots)
    ]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        action = players[seat % len(players)].act(state.view(seat))
        assert state.can(action), action
        state.apply(action)
    return state


@pytest.mark.parametrize("profile", ["schwarzwald", "titisee", "zego"])
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_bots_play_legal_full_deals(profile: str, seats: int) -> None:
    for seed in range(4):
        state = play_with(
            ["heuristic", "search", "random", "heuristic", "search"], seed, profile, seats
        )
        assert sum(state.result()["score"]["settlement"]) == 0  # type: ignore[index]


def test_unknown_bot_is_one_line() -> None:
    with pytest.raises(StichwerkError, match="unknown bot 'genius'"):
        make_bot("genius", "cego")


def midgame(seed: int, plays: int) -> CegoState:
    state = new_deal(seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", "cego", i) for i in range(4)]
    while not state.is_over and (state.phase != "play" or plays > 0):
        if state.phase == "play":
            plays -= 1
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)) if rng.random() < 0.9 else
                    rng.choice(state.legal_actions()))  # fmt: skip
    return state


def test_sampled_worlds_respect_everything_the_seat_knows() -> None:
    checked = 0
    for seed in range(30):
        state = midgame(seed, plays=9 + seed % 20)
        if state.is_over:
            continue
        seat = state.to_act
        assert seat is not None
        k = read(state.view(seat))
        rng = random.Random(seed)
        for _ in range(40):
            world = sample_world(k, rng)
            assert world.hands[seat] == state.hands[seat]
            everything = world.hidden | k.played | k.removed | k.my_legage | k.shown_press
            for s in k.order:
                assert world.hands[s].bit_count() == state.hands[s].bit_count()
                assert not world.hands[s] & k.played
                everything |= world.hands[s]
                for suit in range(5):
                    if k.voids[s] >> suit & 1:
                        assert not world.hands[s] & C.SUIT_MASK[suit], (s, suit)
                        # ... and the real deal agrees with the inference
                        assert not state.hands[s] & C.SUIT_MASK[suit]
            assert everything == C.ALL
            checked += 1
    assert checked > 500


def test_unseen_trumps_lean_towards_a_declarer_against_everyone() -> None:
    """A soft prior from the auction: a defender's worlds give the declarer more of the unseen
    trumps, per card of his hand, than a fellow defender (neither shown out of trumps)."""
    compared = 0
    for seed in range(60):
        state = midgame(seed, plays=2)
        if state.is_over or state.phase != "play":
            continue
        k = read(state.view(state.to_act))  # type: ignore[arg-type]
        if k.declarer is None or k.declarer == k.seat or kind_of(k.contract) != POSITIVE:
            continue
        others = [s for s in k.order if s not in (k.seat, k.declarer) and not k.voids[s] >> 4 & 1]
        if not others or k.voids[k.declarer] >> 4 & 1:
            continue
        rng = random.Random(seed)
        share = dict.fromkeys([k.declarer, *others], 0.0)
        for _ in range(300):
            world = sample_world(k, rng)
            for s in share:
                free = world.hands[s] & ~k.known_in_hand(s)
                share[s] += (free & C.TRUMPS).bit_count() / max(1, free.bit_count())
        assert all(share[k.declarer] > 1.2 * share[s] for s in others), (seed, share)
        compared += 1
    assert compared >= 5


def test_a_bot_cannot_tell_two_consistent_hidden_deals_apart() -> None:
    """Swap unseen cards between other seats and the blind; where the history stays legal, the
    seat's view is identical and so is every bot's choice."""
    tested = 0
    for seed in range(40):
        state = midgame(seed, plays=seed % 25)
        if state.is_over:
            continue
        seat = state.to_act
        assert seat is not None
        record = state.to_record()
        seen = state.visible(seat)
        holders = dict(enumerate(record["hands"])) | {-1: record["blind"]}
        rng = random.Random(seed)
        other = None
        for _ in range(200):
            a, b = rng.sample([h for h in holders if h != seat], 2)
            if not holders[a] or not holders[b]:
                continue
            ca, cb = rng.choice(holders[a]), rng.choice(holders[b])
            if seen >> C.ID[ca] & 1 or seen >> C.ID[cb] & 1:
                continue
            trial = json.loads(json.dumps(record))
            for key, (old, new) in ((a, (ca, cb)), (b, (cb, ca))):
                cards = trial["blind"] if key == -1 else trial["hands"][key]
                cards[cards.index(old)] = new
            candidate = deal_from_record(trial)
            try:
                for raw in trial["actions"]:
                    candidate.apply(Action.from_json(raw))
            except StichwerkError:
                continue
            other = candidate
            break
        if other is None:
            continue
        assert other.to_record()["hands"] != record["hands"] or other.blind != state.blind
        assert other.view(seat) == state.view(seat)
        assert_no_bot_tells("cego", seat, state, other, worlds=6)
        tested += 1
    assert tested >= 20


def test_heuristic_beats_random_in_a_small_arena(tmp_path: Path) -> None:
    record = small_arena("cego", "schwarzwald", tmp_path)
    assert replay_record(record) == record["result"]


def test_arena_is_reproducible_and_rotates_seats() -> None:
    spec = ArenaSpec("cego", "zego", ("heuristic", "random", "heuristic"), 3, 3, "rep")
    assert spec.rotations() == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    one = run_arena(spec, workers=1)
    two = run_arena(spec, workers=2)
    assert [s.samples for s in one.stats] == [s.samples for s in two.stats]


def test_arena_refuses_bad_specs() -> None:
    with pytest.raises(StichwerkError, match="at least two bots"):
        run_arena(ArenaSpec("cego", "schwarzwald", ("heuristic",), 5, 4))
    with pytest.raises(StichwerkError, match="unknown cego profile"):
        run_arena(ArenaSpec("cego", "paris", ("heuristic", "random"), 5, 4))


def test_arena_on_ray_gives_the_same_result() -> None:
    spec = ArenaSpec("cego", "schwarzwald", ("heuristic", "random"), 4, 4, "ray")
    local = run_arena(spec, workers=1)
    remote = run_arena(spec, ray_address="local")
    for one, two in zip(local.stats, remote.stats, strict=True):
        assert sorted(one.samples) == sorted(two.samples)


def test_arena_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from stichwerk.cli.main import app

    out = tmp_path / "r.jsonl"
    done = CliRunner().invoke(
        app,
        [
            "arena",
            "--bots",
            "heuristic,random",
            "--deals",
            "6",
            "--workers",
            "1",
            "--out",
            str(out),
        ],
    )
    assert done.exit_code == 0, done.output
    assert "heuristic" in done.stdout and "95% interval" in done.stdout
    assert len(out.read_text().splitlines()) == 12
    bad = CliRunner().invoke(app, ["arena", "--game", "chess"])
    assert bad.exit_code == 2 and "unknown game" in bad.stderr
