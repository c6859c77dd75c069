"""Cego's view lives in its own module, reads the state only through its public facts, and
imports nothing of the state (no circle)."""

import ast
import random
from pathlib import Path

import stichwerk.cego
from stichwerk.cego import cards as C
from stichwerk.cego.record import new_deal
from stichwerk.cego.view import build_view, sorted_codes, visible


def test_the_view_module_imports_no_state() -> None:
    # the source beside the package (compiled, the module itself is a shared library)
    source = Path(stichwerk.cego.__file__ or "").parent / "view.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert not any(name.startswith("stichwerk.cego.state") for name in imported)
    assert not any(name.startswith("stichwerk.cego.record") for name in imported)


def test_the_states_view_is_the_view_modules() -> None:
    rng = random.Random(5)
    for seed in range(40):
        state = new_deal(profile=("schwarzwald", "titisee", "zego")[seed % 3], seed=seed)
        while True:
            for seat in (None, *range(state.seats)):
                legal = [] if seat is None else state.legal_actions(seat)
                assert state.view(seat) == build_view(state, seat, legal)
                assert state.visible(seat) == visible(state, seat)
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_a_view_hides_what_a_seat_has_not_seen() -> None:
    state = new_deal(seed=11)
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert "deal" not in spectator and "blind" not in spectator
    for seat in range(state.seats):
        seen = visible(state, seat)
        assert seen & state.hands[seat] == state.hands[seat]
        for other in range(state.seats):
            if other != seat:
                assert seen & state.hands[other] == 0
        assert seen & state.blind == 0


def test_cards_in_display_order() -> None:
    for mask in (C.ALL, C.TRUMPS, 0, *(random.Random(3).getrandbits(54) for _ in range(50))):
        ids = [c for c in range(54) if mask >> c & 1]
        expected = [C.CODES[c] for c in sorted(ids, key=C.sort_key)]
        assert sorted_codes(mask) == expected
