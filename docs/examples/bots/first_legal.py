#!/usr/bin/env python3
"""A minimal bot for the Stichwerk bot protocol (docs/bot-protocol.md), standard library only.

It plays a legal card at random (seeded by its seat, so a run can be repeated) and says no
more than it must: "gesund" when asked for reservations, never an announcement. Try it:

    stichwerk arena --game doppelkopf --bots 'cmd:python docs/examples/bots/first_legal.py',random --deals 20
"""

import json
import random
import sys

QUIET = {"re", "kontra", "keine-90", "keine-60", "keine-30", "schwarz", "sau", "supersau"}


def choose(view: dict, rng: random.Random) -> dict:
    """One of the view's legal actions, without the seat (the table knows it)."""
    legal = [{k: v for k, v in a.items() if k != "seat"} for a in view["legal_actions"]]
    for preferred in ("gesund", "fort", "gut"):
        for action in legal:
            if action["act"] == preferred:
                return action
    calm = [a for a in legal if a["act"] not in QUIET] or legal
    return rng.choice(calm)


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng = random.Random(message["seat"])
            print(json.dumps({"type": "ready", "name": "first-legal", "protocol": 1}), flush=True)
        elif kind == "act":
            action = choose(message["view"], rng)
            print(json.dumps({"type": "action", "id": message["id"], "action": action}), flush=True)
        elif kind == "bye":
            return
        # "error" messages (a turn this bot lost) need no answer


if __name__ == "__main__":
    main()
