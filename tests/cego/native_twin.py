"""One random Cego deal traced step by step, for the compiled engine and its Python twin.

``trace`` plays a deal from its parameters and writes down everything the engine says: the legal
actions at every step, the refusal of a few illegal actions (the rule each breaks), every seat's
view, the canonical actions, the record and the result, a replay of the record, and a clone
played on. ``serve`` answers parameters read from stdin (one JSON line each) with their trace:
the differential test runs it in a Python without the compiled modules (``STICHWERK_PURE=1``)
and compares with the same trace in its own, compiled, process.
"""

import json
import random
import sys
from typing import Any

from stichwerk.cego import cards as C
from stichwerk.cego.record import deal_from_record, new_deal
from stichwerk.core.action import Action
from stichwerk.core.errors import StichwerkError

PASSES = {"fort", "gut", "spielen"}
WORDS = ("fort", "gut", "cego", "solo", "ulti", "piccolo", "bettel", "selbst", "aufdecken")


def trace(params: dict[str, Any]) -> dict[str, Any]:
    try:
        state = new_deal(
            profile=params["profile"],
            options=params["options"],
            players=params["players"],
            dealer=params["dealer"] % params["players"],
            seed=params["seed"],
        )
    except StichwerkError as exc:
        return {"refused": str(exc)}
    rng = random.Random(params["seed"])
    steps: list[Any] = []
    clone_at = rng.randrange(40)
    twin = None
    while not state.is_over:
        legal = state.legal_actions()
        step: dict[str, Any] = {"legal": [a.to_json() for a in legal], "to_act": state.to_act}
        step["views"] = [state.view(s) for s in range(state.seats)] + [state.view(None)]
        wrong = [
            Action(rng.randrange(state.seats), "play", card=C.CODES[rng.randrange(54)]),
            Action(state.to_act or 0, WORDS[rng.randrange(len(WORDS))]),
            Action(state.to_act or 0, "keep", cards=tuple(rng.sample(C.CODES, 2))),
        ]
        step["refused"] = []
        for action in wrong:
            probe = state.clone()
            try:
                step["refused"].append(probe.apply(action).to_json())
            except StichwerkError as exc:
                step["refused"].append(str(exc))
        passes = [a for a in legal if a.act in PASSES]
        if passes and rng.random() < params["bias"]:
            choice = passes[0]
        else:
            choice = legal[rng.randrange(len(legal))]
        made = Action.from_json(choice.to_json())  # equal to the engine's own, not the same
        step["applied"] = state.apply(made if rng.random() < 0.5 else choice).to_json()
        steps.append(step)
        if len(steps) == clone_at:
            twin = state.clone()
    record = state.to_record()
    out: dict[str, Any] = {"steps": steps, "record": record, "result": state.result()}
    out["points"] = state.card_points()
    again = deal_from_record(record)
    out["from_record"] = again.view(None)
    for entry in record["actions"]:
        again.apply(Action.from_json(entry))
    out["replayed"] = again.to_record() == record
    if twin is not None:
        while not twin.is_over:
            options = twin.legal_actions()
            twin.apply(options[-1])
        out["twin"] = twin.to_record()
    return out


def serve() -> None:
    from stichwerk import native

    print(json.dumps({"compiled": native.compiled_modules()}), flush=True)
    for line in sys.stdin:
        print(json.dumps(trace(json.loads(line)), sort_keys=True), flush=True)


if __name__ == "__main__":
    serve()
