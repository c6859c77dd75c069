"""What one seat may see of a deal: the only place that decides what is hidden.

A seat sees its own hand, everything said aloud, every card played, and what it can infer from
public facts (a Kreuz Dame played marks its player as Re). It never sees another hand. An Armut's
passed and returned cards are seen by the two seats involved only; the others learn how many
cards moved and the trumps the taker declared. A Stilles Solo looks like a normal game to
everyone but its soloist until the soloist has shown both Kreuz-Damen or the deal is over.
When the deal is over everything is open, as when the piles are counted at the table. Who
still owes a Pflicht-Solo in the list, and who is vorgeführt, is public (the list shows it).
"""

from typing import TYPE_CHECKING, Any

from stichwerk.doppelkopf.cards import CODES, code_of, codes_of_mask
from stichwerk.doppelkopf.scoring import LEVELS, PARTIES

if TYPE_CHECKING:
    from stichwerk.doppelkopf.state import DokoState

CQ = code_of("CQ")


def build_view(state: "DokoState", seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) as JSON-ready data."""
    d = state.internals()
    over = state.is_over
    viewer = seat if seat is not None and 0 <= seat < state.seats else None
    party = d["party"]
    armut_seat, taker = d["armut_seat"], d["armut_taker"]
    involved = viewer is not None and viewer in (armut_seat, taker)
    public_type = _public_game_type(state, d, viewer)
    history = [_seen(state, a.to_json(), viewer, involved or over) for a in state.actions]
    tricks = d["tricks"]
    last_trick = None
    if tricks:
        seats, ids, win = tricks[-1]
        last_trick = {"cards": [CODES[i >> 1] for i in ids], "seats": list(seats), "winner": win}
    view: dict[str, Any] = {
        "game": "doppelkopf",
        "profile": state.profile.name,
        "options": dict(d["options"]),
        "seats": state.seats,
        "players": 4,
        "dealer": state.dealer,
        "vorhand": state.seat_order[0],
        "sitting": state.dealer if state.seats == 5 else None,
        "seat": viewer,
        "phase": state.phase,
        "to_act": state.to_act,
        "hand": None if viewer is None else codes_of_mask(state.hand(viewer)),
        "hand_sizes": [state.hand(s).bit_count() for s in range(state.seats)],
        "history": history,
        "trick": [
            {"seat": s, "card": CODES[i >> 1]}
            for s, i in zip(d["trick_seats"], d["trick_ids"], strict=True)
        ],
        "last_trick": last_trick,
        "tricks_won": list(d["tricks_won"]),
        "legal_actions": []
        if viewer is None
        else [a.to_json() for a in state.legal_actions(viewer)],
        "result": state.result(),
        "game_type": public_type,
        "parties": _known_parties(state, d, viewer, public_type, over),
        "my_party": None if viewer is None or party[viewer] < 0 else PARTIES[party[viewer]],
        "announcements": {
            "re": d["ann"][0].names("re"),
            "kontra": d["ann"][1].names("kontra"),
        },
        "sau": d["sau_seat"],
        "supersau": d["supersau_seat"],
        "soloist": d["soloist"] if public_type.startswith("solo-") else None,
        "duty_solo_owed": sorted(d["duty_owed"]),
        "duty_solo_forced": d["forced"],
        "duty_solo_games_left": d["duty_games_left"],
    }
    if d["hochzeiter"] is not None:
        h = d["hochzeiter"]
        partner = [s for s in state.seat_order if s != h and party[s] == 0]
        view["hochzeit"] = {
            "seat": h,
            "klaerungsstich": d["clarified_at"] or None,
            "partner": partner[0] if partner else None,
        }
    if armut_seat is not None:
        info: dict[str, Any] = {
            "seat": armut_seat,
            "taker": taker,
            "cards": d["armut_cards"].bit_count(),
        }
        if d["armut_returned"]:
            info.update(_declared(state))
        if involved or over:
            info["passed"] = codes_of_mask(d["armut_cards"])
            if d["armut_returned"]:
                info["returned"] = codes_of_mask(d["armut_returned"])
        view["armut"] = info
    if over:
        view["deal"] = {"hands": [codes_of_mask(h) for h in d["dealt"]]}
    return view


def _declared(state: "DokoState") -> dict[str, Any]:
    mode = state.profile.armut_return_declare
    n = state.returned_trumps()
    if mode == "count":
        return {"returned_trumps": n}
    if mode == "whether":
        return {"returned_trump": n > 0}
    return {}


def _seen(
    state: "DokoState", entry: dict[str, Any], viewer: int | None, sees_armut: bool
) -> dict[str, Any]:
    """A history entry as ``viewer`` saw it at the table."""
    act = entry["act"]
    if act in ("armut", "return") and "cards" in entry and not sees_armut:
        hidden = {"seat": entry["seat"], "act": act, "count": len(entry["cards"])}
        if act == "return":
            hidden.update(_declared(state))
        return hidden
    return entry


def _public_game_type(state: "DokoState", d: dict[str, Any], viewer: int | None) -> str:
    """The game type as the table knows it: a Stilles Solo stays hidden until shown."""
    gt = state.game_type
    if gt != "solo-still" or state.is_over or viewer == d["soloist"]:
        return gt
    shown = 0
    for seats, ids, _ in d["tricks"]:
        shown += sum(
            1 for s, i in zip(seats, ids, strict=True) if i >> 1 == CQ and s == d["soloist"]
        )
    shown += sum(
        1
        for s, i in zip(d["trick_seats"], d["trick_ids"], strict=True)
        if i >> 1 == CQ and s == d["soloist"]
    )
    return gt if shown == 2 else "normal"


def _known_parties(
    state: "DokoState", d: dict[str, Any], viewer: int | None, public_type: str, over: bool
) -> list[str | None]:
    """Each seat's party as far as it is public (plus the viewer's own)."""
    party = d["party"]
    seats = state.seat_order
    known: list[str | None] = [None] * state.seats
    settled = over or public_type.startswith("solo-") or public_type == "armut"
    if public_type == "hochzeit":
        settled = bool(d["clarified_at"])
        known[d["hochzeiter"]] = "re"
    if settled:
        for s in seats:
            known[s] = PARTIES[party[s]] if party[s] >= 0 else None
        return known
    for s, act in d["ann_log"]:
        if act == "re":
            known[s] = "re"
        elif act == "kontra":
            known[s] = "kontra"
        elif act in LEVELS and party[s] >= 0:
            known[s] = PARTIES[party[s]]
    played_cq = {s for seats_, ids, _ in d["tricks"] for s, i in zip(seats_, ids, strict=True)
                 if i >> 1 == CQ}  # fmt: skip
    played_cq |= {s for s, i in zip(d["trick_seats"], d["trick_ids"], strict=True) if i >> 1 == CQ}
    for s in played_cq:
        known[s] = "re"
    if viewer is not None and party[viewer] >= 0:
        known[viewer] = PARTIES[party[viewer]]
    if public_type == "normal" and sum(1 for s in seats if known[s] == "re") == 2:
        # Both Re seats are known, so the rest are Kontra. (Two known Kontra seats prove
        # nothing: it may be a Stilles Solo with three.)
        for s in seats:
            known[s] = known[s] or "kontra"
    return known
