"""One random Doppelkopf deal traced step by step, for the compiled engine and its Python twin.

``trace`` plays a deal from its parameters and writes down everything the engine says: the legal
actions of every seat at every step (out-of-turn announcements included), the refusal of a few
illegal actions (the rule each breaks), every seat's view, the canonical actions, the snapshot's
facts, the record and the result, a replay of the record, and a clone played on. ``serve``
answers parameters read from stdin (one JSON line each) with their trace: the differential test
runs it in a Python without the compiled modules (``STICHWERK_PURE=1``) and compares with the same
trace in its own, compiled, process.
"""

import copy
import dataclasses
import json
import pickle
import random
import sys
from typing import Any

from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError
from stichwerk.doppelkopf.cards import CODES
from stichwerk.doppelkopf.profiles import SOLO_TYPES
from stichwerk.doppelkopf.record import deal_from_record, new_deal
from stichwerk.doppelkopf.state import DokoState
from stichwerk.doppelkopf.trumps import reservation_kinds

VARIANTS: list[dict[str, Any]] = [
    {},
    {"armut_cards": "three", "armut_fox_is_trump": False, "armut_two": "redeal"},
    {"supersau": True, "sau_deadline": "before-first-card", "dulle_last_trick_reversal": True},
    {"with_nines": False, "hochzeit_partner": "fehl-won", "reply": "one-less"},
    {"counting": "minus", "karlchen_gefangen": True, "re_kontra_doubles": True},
    {"skip_levels": False, "hochzeit_partner": "trump-led", "sau_deadline": "when-playing"},
    {"extras_netting": "separate", "no_winner": "zero", "gegen_die_alten": "off"},
    {"armut": True, "schmeissen_min_nines": 4, "neu_geben_below_trumps": 4},
]
"""Table options beside the profiles' own (the property tests' variants)."""
WORDS = ("gesund", "vorbehalt", "hochzeit", "armut", "schmeissen", "take", "decline", "re",
         "kontra", "keine-90", "schwarz", "sau", "supersau", "solo", "return", "play")  # fmt: skip


def facts(state: DokoState) -> dict[str, Any]:
    """The snapshot's facts as JSON (the state's own types written out)."""
    snap = state.snapshot()
    out: dict[str, Any] = {}
    for field in dataclasses.fields(snap):
        if field.name in ("profile", "order", "result", "actions"):
            continue
        value = getattr(snap, field.name)
        if field.name == "ann":
            value = [dataclasses.asdict(a) for a in value]
        elif isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, dict):
            value = {str(k): v for k, v in value.items()}
        out[field.name] = value
    out["order"] = dataclasses.asdict(snap.order)
    out["profile"] = snap.profile.name
    return json.loads(json.dumps(out))


def wrong_actions(state: DokoState, rng: random.Random) -> list[Action]:
    """A few actions picked at random, most of them illegal."""
    seat = rng.randrange(state.seats)
    word = WORDS[rng.randrange(len(WORDS))]
    cards = tuple(rng.sample(CODES, rng.randrange(4)))
    return [
        Action(rng.randrange(state.seats), "play", card=CODES[rng.randrange(len(CODES))]),
        Action(state.to_act if state.to_act is not None else seat, word),
        Action(seat, word, cards=cards),
        Action(seat, "solo", type=SOLO_TYPES[rng.randrange(len(SOLO_TYPES))]),
    ]


def trace(params: dict[str, Any]) -> dict[str, Any]:
    seats = params["seats"]
    try:
        state = new_deal(
            profile=params["profile"],
            options=VARIANTS[params["variant"] % len(VARIANTS)],
            players=seats,
            dealer=params["dealer"] % seats,
            seed=params["seed"],
            duty_solo_owed=[s for s in params["owed"] if s < seats],
        )
    except StichwerkError as exc:
        return {"refused": str(exc)}
    rng = random.Random(params["seed"])
    steps: list[Any] = []
    clone_at = rng.randrange(50)
    twin = restored = copied = None
    while not state.is_over:
        step: dict[str, Any] = {"to_act": state.to_act, "phase": state.phase}
        step["legal"] = [[a.to_json() for a in state.legal_actions(s)] for s in range(seats)]
        step["views"] = [state.view(s) for s in range(seats)] + [state.view(None)]
        step["facts"] = facts(state)
        step["refused"] = []
        for action in wrong_actions(state, rng):
            probe = state.clone()
            try:
                step["refused"].append(probe.apply(action).to_json())
            except StichwerkError as exc:
                step["refused"].append(str(exc))
            step["refused"].append(state.can(action))
        legal = state.legal_actions()
        extra = [a for s in state.seat_order for a in state.legal_actions(s) if s != state.to_act]
        plain = [a for a in legal if a.act != "solo"]
        if rng.random() < params.get("forfeit", 0.001):
            choice = Action(rng.choice(state.seat_order), "forfeit")
        elif extra and rng.random() < 0.1:
            choice = extra[rng.randrange(len(extra))]
        elif state.phase == "reservations" and params.get("vorbehalt"):
            seat = state.to_act or 0
            other = set(reservation_kinds(state.profile, state.hand(seat))) - {"solo"}
            said = "vorbehalt" if other else "gesund"  # a Vorbehalt only for the rarer kinds
            choice = next((a for a in legal if a.act == said), legal[0])
        elif state.phase == "reservations" and rng.random() < params["gesund"]:
            choice = next((a for a in legal if a.act == "gesund"), legal[0])
        elif state.phase == "declarations" and params.get("vorbehalt") and plain:
            choice = plain[rng.randrange(len(plain))]
        elif state.phase == "declarations" and plain and rng.random() < 0.7:
            choice = plain[rng.randrange(len(plain))]  # Hochzeit, Armut, Schmeißen as often
        else:
            choice = legal[rng.randrange(len(legal))]
        made = Action.from_json(choice.to_json())  # equal to the engine's own, not the same
        step["applied"] = state.apply(made if rng.random() < 0.5 else choice).to_json()
        steps.append(step)
        if len(steps) == clone_at:
            twin = state.clone()
            restored = pickle.loads(pickle.dumps(state))  # as research and workers copy it
            copied = copy.deepcopy(state)
    record = state.to_record()
    out: dict[str, Any] = {"steps": steps, "record": record, "result": state.result()}
    out["views"] = [state.view(s) for s in range(seats)] + [state.view(None)]
    out["facts"] = facts(state)
    again = deal_from_record(record)
    out["from_record"] = again.view(None)
    for entry in record["actions"]:
        again.apply(Action.from_json(entry))
    out["replayed"] = again.to_record() == record
    if twin is not None:
        for deal, key in ((twin, "twin"), (restored, "restored"), (copied, "copied")):
            while not deal.is_over:
                options = deal.legal_actions()
                deal.apply(options[-1])
            out[key] = deal.to_record()
    return json.loads(json.dumps(out, sort_keys=True))


def serve() -> None:
    from stichwerk import native

    print(json.dumps({"compiled": native.compiled_modules()}), flush=True)
    for line in sys.stdin:
        print(json.dumps(trace(json.loads(line)), sort_keys=True), flush=True)


if __name__ == "__main__":
    serve()
