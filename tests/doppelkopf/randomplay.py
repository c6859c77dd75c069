"""Random legal deals for property tests: reservations, Armut, announcements, play, forfeits."""

import random
from collections.abc import Callable
from typing import Any

from stichwerk.core.action import Action
from stichwerk.doppelkopf.record import new_deal
from stichwerk.doppelkopf.state import DokoState

OUT_OF_TURN = {"re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz", "sau", "supersau"}


def random_deal(
    profile: str,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    seats: int = 4,
    forfeits: bool = True,
    hook: Callable[[DokoState], None] | None = None,
) -> DokoState:
    """A deal dealt from ``seed`` and played to the end by a seeded random policy."""
    rng = random.Random(seed)
    owed = [s for s in range(seats) if rng.random() < 0.3]
    state = new_deal(
        profile=profile,
        options=options,
        seed=seed,
        players=seats,
        dealer=rng.randrange(seats),
        duty_solo_owed=owed,
    )
    while not state.is_over:
        if hook is not None:
            hook(state)
        if forfeits and rng.random() < 0.003:
            state.apply(Action(rng.choice(state.seat_order), "forfeit"))
            break
        if rng.random() < 0.12:
            seat = rng.choice(state.seat_order)
            extra = [a for a in state.legal_actions(seat) if a.act in OUT_OF_TURN]
            if extra:
                state.apply(rng.choice(extra))
                continue
        legal = state.legal_actions()
        turn = [a for a in legal if a.act not in OUT_OF_TURN] or legal
        if state.phase == "reservations":
            names = {a.act: a for a in turn}
            pick = names.get("gesund") if rng.random() < 0.75 else None
            state.apply(pick or rng.choice(turn))
        elif state.phase == "declarations":
            armut = [a for a in turn if a.act == "armut"]
            if armut and rng.random() < 0.5:
                state.apply(rng.choice(armut))
                continue
            other = [a for a in turn if a.act != "solo"]
            state.apply(rng.choice(other if other and rng.random() < 0.7 else turn))
        else:
            state.apply(rng.choice(turn))
    if hook is not None:
        hook(state)
    return state
