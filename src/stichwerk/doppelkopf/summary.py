"""The deal summary of NOTATION.md: what a score sheet knows of a deal, without the cards.

``score_summary`` reads one and gives the same scoring output as ``replay`` gives for the deal;
``facts_to_summary`` writes the summary of a played deal (the engine puts it in its result, so
the two paths are checked against each other). Besides NOTATION.md's keys a summary may give
``seats`` and ``dealer`` (a 5-table: the dealer sits out) and ``last_announcer`` (needed only
when both parties said Re and Kontra, the profile gives the 121 to the last announcer, and Re
has exactly 120).
"""

from collections.abc import Mapping
from typing import Any

from stichwerk.core.errors import RecordError
from stichwerk.core.record import check_keys, get_int, get_options, get_str
from stichwerk.doppelkopf.profiles import GAME_TYPES, NORMAL_GAMES, Profile, get_profile
from stichwerk.doppelkopf.scoring import EXTRAS, LEVELS, PARTIES, Announced, DealFacts, score

SUMMARY_KEYS = (
    "game",
    "profile",
    "options",
    "players",
    "seats",
    "dealer",
    "game_type",
    "re",
    "re_augen",
    "re_tricks",
    "kontra_tricks",
    "announcements",
    "extras",
    "last_announcer",
    "verworfen_by",
)


def score_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring output for a deal summary; ``RecordError`` with one line for bad input."""
    profile, facts = parse_summary(summary)
    out = score(facts, profile)
    out.pop("counts", None)
    return out


def _seat_list(value: object, seats: int, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in value
    ):
        raise RecordError(f"{key!r} of the summary must be a list of seats")
    for s in value:
        if not 0 <= s < seats:
            raise RecordError(f"{key!r} of the summary names seat {s}, not at the table")
    if len(set(value)) != len(value):
        raise RecordError(f"{key!r} of the summary names a seat twice")
    return tuple(sorted(value))


def parse_summary(summary: Mapping[str, Any]) -> tuple[Profile, DealFacts]:
    """The profile and the facts of a deal summary."""
    obj = dict(summary)
    check_keys(obj, SUMMARY_KEYS, "summary")
    if obj.get("game") != "doppelkopf":
        raise RecordError("not a doppelkopf summary")
    profile = get_profile(get_str(obj, "profile", "summary", default="wielandstrasse"),
                          get_options(obj, "summary"))  # fmt: skip
    if get_int(obj, "players", "summary", default=4) != 4:
        raise RecordError("'players' of a doppelkopf summary must be 4 (5-tables give 'seats': 5)")
    seats = get_int(obj, "seats", "summary", default=4)
    if seats not in (4, 5):
        raise RecordError("'seats' of the summary must be 4 or 5")
    sitting: int | None = None
    if seats == 5:
        sitting = get_int(obj, "dealer", "summary")
        if not 0 <= sitting < 5:
            raise RecordError("'dealer' of the summary must be a seat from 0 to 4")
    elif "dealer" in obj and not 0 <= get_int(obj, "dealer", "summary") < 4:
        raise RecordError("'dealer' of the summary must be a seat from 0 to 3")
    dealt = [s for s in range(seats) if s != sitting]
    game_type = get_str(obj, "game_type", "summary")
    if game_type not in GAME_TYPES:
        raise RecordError(f"unknown game_type {game_type!r} (known: {' '.join(GAME_TYPES)})")
    if game_type == "armut" and not profile.armut:
        raise RecordError("this profile plays no Armut (option 'armut')")
    if game_type == "solo-still" and not profile.silent_solo:
        raise RecordError("this profile plays no Stilles Solo (option 'silent_solo')")
    declared = game_type.startswith("solo-") and game_type not in ("solo-still", "solo-trumpf")
    if declared and game_type[5:] not in profile.solo_types:
        raise RecordError(f"this profile plays no {game_type} (option 'solo_types')")
    re = _seat_list(obj.get("re"), seats, "re")
    if sitting in re:
        raise RecordError(f"seat {sitting} sits out and cannot be in the Re party")
    solo = game_type.startswith("solo-")
    if solo and len(re) != 1:
        raise RecordError("in a solo 're' lists the soloist alone")
    if not solo and len(re) != 2:
        raise RecordError(f"in a {game_type} game 're' lists two seats")
    kontra = tuple(s for s in dealt if s not in re)
    announced = _announcements(obj.get("announcements", {}), profile)
    last = obj.get("last_announcer")
    if last is not None and last not in PARTIES:
        raise RecordError("'last_announcer' must be 're' or 'kontra'")
    if "verworfen_by" in obj:
        culprit = get_int(obj, "verworfen_by", "summary")
        if culprit not in dealt:
            raise RecordError(f"'verworfen_by' must be a seat dealt in, not {culprit}")
        for key in ("re_augen", "re_tricks", "kontra_tricks", "extras"):
            if key in obj:
                raise RecordError(f"a Verwerfen summary gives 'verworfen_by' instead of {key!r}")
        return profile, DealFacts(
            seats=seats, game_type=game_type, re=re, kontra=kontra, announced=announced,
            last_announcer=last, verworfen_by=culprit,
        )  # fmt: skip
    tricks_total = 12 if profile.with_nines else 10
    re_augen = get_int(obj, "re_augen", "summary", lo=0)
    re_tricks = get_int(obj, "re_tricks", "summary", lo=0)
    ko_tricks = get_int(obj, "kontra_tricks", "summary", lo=0)
    if re_augen > 240:
        raise RecordError("'re_augen' must be from 0 to 240")
    if re_tricks + ko_tricks != tricks_total:
        raise RecordError(f"'re_tricks' and 'kontra_tricks' must add up to {tricks_total}")
    if re_tricks == 0 and re_augen:
        raise RecordError("Re took no trick and cannot have Augen")
    if ko_tricks == 0 and re_augen != 240:
        raise RecordError("Kontra took no trick, so Re has all 240 Augen")
    both = announced["re"].ansage and announced["kontra"].ansage
    if (
        both
        and last is None
        and profile.both_announced == "last-needs-121"
        and not announced["re"].absage
        and not announced["kontra"].absage
        and re_augen == 120
    ):
        raise RecordError(
            "both parties said Re and Kontra and Re has 120: the summary needs "
            "'last_announcer' (the party that announced last needs 121)"
        )
    extras = _extras(obj.get("extras", {}), profile, game_type, re_tricks, ko_tricks)
    return profile, DealFacts(
        seats=seats, game_type=game_type, re=re, kontra=kontra, re_augen=re_augen,
        re_tricks=re_tricks, kontra_tricks=ko_tricks, announced=announced,
        last_announcer=last, extras=extras,
    )  # fmt: skip


def _announcements(value: object, profile: Profile) -> dict[str, Announced]:
    if not isinstance(value, dict):
        raise RecordError("'announcements' of the summary must be an object")
    out = {"re": Announced(), "kontra": Announced()}
    for party, names in value.items():
        if party not in PARTIES:
            raise RecordError(f"unknown party {party!r} in 'announcements' (re or kontra)")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError(f"announcements of {party} must be a list of names")
        ansage = False
        absage = 0
        for name in names:
            if name == party:
                ansage = True
            elif name in LEVELS:
                absage = max(absage, LEVELS.index(name) + 1)
            else:
                raise RecordError(f"{party} cannot announce {name!r}")
        if absage and not ansage and profile.absage_requires_own_ansage:
            ansage = True  # the party's own Ansage came with its Absage
        out[party] = Announced(ansage, absage)
    return out


def _extras(
    value: object, profile: Profile, game_type: str, re_tricks: int, ko_tricks: int
) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise RecordError("'extras' of the summary must be an object")
    normal = game_type in NORMAL_GAMES
    allowed = {
        "fuchs": game_type in profile.fox_game_types,
        "karlchen": normal and profile.karlchen,
        "doppelkarlchen": normal and profile.karlchen and profile.doppelkarlchen,
        "karlchen-gefangen": normal and profile.karlchen_gefangen,
        "doppelkopf": normal and profile.doppelkopf_min_augen > 0,
    }
    out: dict[str, tuple[str, ...]] = {}
    for party, names in value.items():
        if party not in PARTIES:
            raise RecordError(f"unknown party {party!r} in 'extras' (re or kontra)")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError(f"extras of {party} must be a list of names")
        for name in names:
            if name not in EXTRAS:
                raise RecordError(f"unknown extra {name!r} (known: {' '.join(EXTRAS)})")
            if not allowed[name]:
                raise RecordError(f"{name!r} does not count in {game_type} under this profile")
        tricks = re_tricks if party == "re" else ko_tricks
        if names.count("doppelkopf") > tricks:
            raise RecordError(f"{party} has more Doppelkopf tricks than tricks")
        if "doppelkarlchen" in names and "karlchen" not in names:
            raise RecordError("a Doppelkarlchen comes with its Karlchen")
        out[party] = tuple(names)
    every = [n for names in out.values() for n in names]
    for name, most in (("fuchs", 2), ("karlchen", 1), ("doppelkarlchen", 1),
                       ("karlchen-gefangen", 2)):  # fmt: skip
        if every.count(name) > most:
            raise RecordError(f"at most {most} {name!r} in one deal")
    return out


def facts_to_summary(
    facts: DealFacts, profile: Profile, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The deal summary of a played (or verworfen) deal."""
    out: dict[str, Any] = {
        "game": "doppelkopf",
        "profile": profile.name,
        "options": dict(options),
        "players": 4,
    }
    if facts.seats == 5:
        sitting = next(s for s in range(5) if s not in facts.re + facts.kontra)
        out.update(seats=5, dealer=sitting)
    out["game_type"] = facts.game_type
    out["re"] = list(facts.re)
    if facts.verworfen_by is None:
        out.update(
            re_augen=facts.re_augen, re_tricks=facts.re_tricks, kontra_tricks=facts.kontra_tricks
        )
    out["announcements"] = {p: facts.ann(p).names(p) for p in PARTIES}
    if facts.verworfen_by is None:
        out["extras"] = {p: list(facts.extras.get(p, ())) for p in PARTIES}
    if facts.last_announcer is not None:
        out["last_announcer"] = facts.last_announcer
    if facts.verworfen_by is not None:
        out["verworfen_by"] = facts.verworfen_by
    return out
