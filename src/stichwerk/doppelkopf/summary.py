"""The deal summary of NOTATION.md: what a score sheet knows of a deal, without the cards.

``score_summary`` reads one and gives the same scoring output as ``replay`` gives for the deal;
``facts_to_summary`` writes the summary of a played deal (the engine puts it in its result, so
the two paths are checked against each other). Besides NOTATION.md's keys a summary may give

- ``seats`` and ``dealer`` (a 5-table: the dealer sits out);
- ``last_announcer`` (needed only when both parties said Re and Kontra, the profile gives the
  121 to the last announcer, and Re has exactly 120);
- no ``re_tricks``/``kontra_tricks`` at all, as a score sheet knows them: then ``schwarz``
  names the party that took no trick (absent or ``null``: both took tricks);
- ``hochzeit: true`` with ``solo-trumpf``: a Hochzeit that found no partner, played as the
  Karo solo it becomes;
- ``duty_solo`` (true or false): whether a solo was the soloist's Pflicht-Solo, as the table
  says it (a score sheet checks it against what the soloist still owes);
- ``said`` instead of ``announcements``: the announcements in the order made, each
  ``{"party", "act", "cards"}`` with the cards its announcer held, checked by the rules of
  ``announcements.check_announcements`` (deadlines, the reply and TSR 6); with a Hochzeit (and
  a Hochzeit without partner) ``klaerungsstich``, the trick that found the partner;
- ``redeal`` (``neu-geben``, ``schmeissen`` or ``armut``: an Armut nobody took) with no game at
  all, optionally ``redeal_by`` (the seat that claimed it): the cards are dealt again.

``summary_outcome`` scores a summary entered on a score sheet and checks it against where the
list stands (``stichwerk.sheet``).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stichwerk.core.errors import RecordError
from stichwerk.core.record import check_keys, get_bool, get_int, get_options, get_str
from stichwerk.core.series import DealContext, DealOutcome
from stichwerk.doppelkopf.announcements import Said, check_announcements
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
    "schwarz",
    "hochzeit",
    "duty_solo",
    "redeal",
    "redeal_by",
    "said",
    "klaerungsstich",
)
REDEALS = ("neu-geben", "schmeissen", "armut")
"""Why the cards are dealt again: Neu Geben (too few trumps), Schmeißen (too many nines), an
Armut nobody took (or two Armut where the profile redeals them)."""


@dataclass(frozen=True)
class Summary:
    """A summary read and checked: its profile, the seat sitting out, and either the facts of
    the game or the reason the cards were dealt again."""

    profile: Profile
    seats: int
    sitting: int | None
    facts: DealFacts | None
    redeal: str | None = None
    hochzeit: bool = False
    duty_solo: bool | None = None
    """The table's word on a Pflicht-Solo (``None``: not said)."""


def score_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The scoring output for a deal summary; ``RecordError`` with one line for bad input."""
    out = _score(read_summary(summary))
    out.pop("counts", None)
    return out


def _score(read: Summary) -> dict[str, Any]:
    if read.facts is None:
        return {
            "settlement": [0] * read.seats,
            "winner": None,
            "value": 0,
            "items": [],
            "counts": read.profile.redeal_counts_as_game,
        }
    return score(read.facts, read.profile)


def duty_eligible(read: Summary) -> bool:
    """Whether the deal can be a Pflicht-Solo: a solo; a Hochzeit without partner and a Stilles
    Solo only where the profile counts them."""
    facts = read.facts
    if facts is None or not facts.is_solo:
        return False
    return read.profile.counts_as_duty(facts.game_type, failed_hochzeit=bool(read.hochzeit))


def summary_outcome(
    summary: Mapping[str, Any], context: DealContext
) -> tuple[dict[str, Any], DealOutcome]:
    """The scoring output of a summary entered on a score sheet and what the list needs of it.

    As at the table (and in the engine) a solo by a seat that still owes a Pflicht-Solo is that
    Pflicht-Solo; a summary that says otherwise (but for a Verwerfen before the solo was
    declared), or names a Pflicht-Solo its soloist does not owe, is refused. A seat that must
    play its Pflicht-Solo now (Vorführung) plays it: any other game is refused (a redeal is
    dealt again as the same deal).
    """
    read = read_summary(summary)
    scored = _score(read)
    counts = bool(scored.pop("counts", True))
    settlement = tuple(scored["settlement"])
    facts = read.facts
    if facts is None:
        return scored, DealOutcome(settlement=settlement, counts=counts, redeal=True)
    soloist = facts.re[0] if facts.is_solo else None
    owes = soloist is not None and context.owed is not None and context.owed[soloist] > 0
    duty = duty_eligible(read) and owes
    if read.duty_solo and not duty:
        if context.owed is None:
            raise RecordError("'duty_solo': this list keeps no Pflicht-Soli")
        if soloist is None:
            raise RecordError("'duty_solo': only a solo can be a Pflicht-Solo")
        if not duty_eligible(read):
            kind = "a Hochzeit without partner" if read.hochzeit else "a Stilles Solo"
            raise RecordError(f"'duty_solo': {kind} is no Pflicht-Solo under this profile")
        raise RecordError(f"'duty_solo': seat {soloist} owes no Pflicht-Solo any more")
    if read.duty_solo is False and duty:
        if facts.verworfen_by is None:
            raise RecordError(
                f"'duty_solo': seat {soloist} still owes its Pflicht-Solo, so this solo is it"
            )
        duty = False  # verworfen before the solo was declared: no Pflicht-Solo yet
    forced = context.forced
    # A Verwerfen may end a Vorführung before the solo is declared: the cards as dealt decide.
    if forced is not None and not (duty and soloist == forced) and facts.verworfen_by is None:
        raise RecordError(
            f"'re': seat {forced} must play its Pflicht-Solo in this deal (Vorführung)"
        )
    outcome = DealOutcome(
        settlement=settlement,
        counts=counts,
        duty_solo_by=soloist if duty else None,
        forced=forced is not None,
        bock=bool(scored.get("bock", False)),
        breaks_parity=facts.verworfen_by is not None and facts.is_solo,
    )
    return scored, outcome


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
    """The profile and the facts of a deal summary of a game played (not a redeal)."""
    read = read_summary(summary)
    if read.facts is None:
        raise RecordError("a redeal summary holds no game")
    return read.profile, read.facts


def read_summary(summary: Mapping[str, Any]) -> Summary:
    """A deal summary read and checked, field by field."""
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
    if "redeal" in obj:
        return _read_redeal(obj, profile, seats, sitting, dealt)
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
    hochzeit = get_bool(obj, "hochzeit", "summary", default=False)
    if hochzeit and game_type != "solo-trumpf":
        raise RecordError(
            "'hochzeit': true marks a Hochzeit without partner, which is played as solo-trumpf"
        )
    duty_solo = get_bool(obj, "duty_solo", "summary") if "duty_solo" in obj else None
    if duty_solo and not solo:
        raise RecordError(f"'duty_solo': a {game_type} game is no Pflicht-Solo")
    last = obj.get("last_announcer")
    if last is not None and last not in PARTIES:
        raise RecordError("'last_announcer' must be 're' or 'kontra'")
    if "said" in obj:
        if "announcements" in obj or "last_announcer" in obj:
            raise RecordError("a summary gives 'said' or 'announcements', not both")
        announced, last = _said(obj, profile, game_type, hochzeit)
    else:
        if "klaerungsstich" in obj:
            raise RecordError("'klaerungsstich' goes with 'said' (the announcements in order)")
        announced = _announcements(obj.get("announcements", {}), profile)
    if "verworfen_by" in obj:
        culprit = get_int(obj, "verworfen_by", "summary")
        if culprit not in dealt:
            raise RecordError(f"'verworfen_by' must be a seat dealt in, not {culprit}")
        for key in ("re_augen", "re_tricks", "kontra_tricks", "extras", "schwarz"):
            if key in obj:
                raise RecordError(f"a Verwerfen summary gives 'verworfen_by' instead of {key!r}")
        facts = DealFacts(
            seats=seats, game_type=game_type, re=re, kontra=kontra, announced=announced,
            last_announcer=last, verworfen_by=culprit,
        )  # fmt: skip
        return Summary(profile, seats, sitting, facts, hochzeit=hochzeit, duty_solo=duty_solo)
    tricks_total = 12 if profile.with_nines else 10
    re_augen = get_int(obj, "re_augen", "summary", lo=0)
    if re_augen > 240:
        raise RecordError("'re_augen' must be from 0 to 240")
    re_tricks, ko_tricks, known = _tricks(obj, tricks_total)
    if re_tricks == 0 and re_augen:
        raise RecordError("'re_augen': Re took no trick and cannot have Augen")
    if ko_tricks == 0 and re_augen != 240:
        raise RecordError("'re_augen': Kontra took no trick, so Re has all 240 Augen")
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
    # Unknown tricks: a party that took some may have taken up to all but one.
    caps = (re_tricks, ko_tricks) if known else (re_tricks and tricks_total - 1,
                                                  ko_tricks and tricks_total - 1)  # fmt: skip
    extras = _extras(obj.get("extras", {}), profile, game_type, *caps)
    facts = DealFacts(
        seats=seats, game_type=game_type, re=re, kontra=kontra, re_augen=re_augen,
        re_tricks=re_tricks, kontra_tricks=ko_tricks, announced=announced,
        last_announcer=last, extras=extras,
    )  # fmt: skip
    return Summary(profile, seats, sitting, facts, hochzeit=hochzeit, duty_solo=duty_solo)


def _tricks(obj: dict[str, Any], total: int) -> tuple[int, int, bool]:
    """Re's and Kontra's tricks, and whether they were counted: as given, or from ``schwarz``
    (the party with none) when the sheet does not count tricks; only "none" or "some" matters
    to the score then."""
    given = [key for key in ("re_tricks", "kontra_tricks") if key in obj]
    if obj.get("schwarz") is not None:
        if given:
            raise RecordError(f"a summary gives 'schwarz' or the tricks, not both ({given[0]!r})")
        party = obj["schwarz"]
        if party not in PARTIES:
            raise RecordError("'schwarz' must name the party that took no trick: re or kontra")
        return ((0, total) if party == "re" else (total, 0)) + (True,)
    if not given:
        return 1, total - 1, False
    re_tricks = get_int(obj, "re_tricks", "summary", lo=0)
    ko_tricks = get_int(obj, "kontra_tricks", "summary", lo=0)
    if re_tricks + ko_tricks != total:
        raise RecordError(f"'re_tricks' and 'kontra_tricks' must add up to {total}")
    return re_tricks, ko_tricks, True


def _read_redeal(
    obj: dict[str, Any], profile: Profile, seats: int, sitting: int | None, dealt: list[int]
) -> Summary:
    reason = obj["redeal"]
    if reason not in REDEALS:
        raise RecordError(f"unknown redeal {reason!r} (known: {' '.join(REDEALS)})")
    allowed = {
        "neu-geben": profile.neu_geben_below_trumps > 0,
        "schmeissen": profile.schmeissen_min_nines > 0,
        "armut": profile.armut,
    }[reason]
    if not allowed:
        option = {"neu-geben": "neu_geben_below_trumps", "schmeissen": "schmeissen_min_nines",
                  "armut": "armut"}[reason]  # fmt: skip
        raise RecordError(f"this profile has no {reason} redeal (option {option!r})")
    if "redeal_by" in obj and get_int(obj, "redeal_by", "summary") not in dealt:
        raise RecordError("'redeal_by' must be a seat dealt in")
    for key in obj:
        if key not in ("game", "profile", "options", "players", "seats", "dealer", "redeal",
                       "redeal_by"):  # fmt: skip
            raise RecordError(f"a redeal summary holds no {key!r}")
    return Summary(profile, seats, sitting, None, redeal=reason)


def _said(
    obj: dict[str, Any], profile: Profile, game_type: str, hochzeit: bool
) -> tuple[dict[str, Announced], str | None]:
    """Announcements entered in the order they were made, each with the cards its announcer
    held, checked by the rules of ``announcements`` (deadlines, the reply, TSR 6); and the
    party that said its Re/Kontra last when both did."""
    raw = obj["said"]
    if not isinstance(raw, list):
        raise RecordError("'said' must be a list of {party, act, cards}")
    said: list[Said] = []
    for index, item in enumerate(raw, 1):
        if not isinstance(item, dict) or set(item) != {"party", "act", "cards"}:
            raise RecordError(f"'said' entry {index} must be {{party, act, cards}}")
        said.append(Said(item["party"], item["act"], item["cards"]))
    k = 0
    if "klaerungsstich" in obj:
        k = get_int(obj, "klaerungsstich", "summary", lo=1)
    elif game_type == "hochzeit" or hochzeit:
        raise RecordError("'klaerungsstich': a Hochzeit's announcements need its Klärungsstich")
    checked = check_announcements(profile, game_type, said, klaerungsstich=k)
    if isinstance(checked, str):
        raise RecordError(f"'said': {checked}")
    ansagen = [s.party for s in said if s.act == s.party or (
        s.act in LEVELS and profile.absage_requires_own_ansage)]  # fmt: skip
    first_ansage = list(dict.fromkeys(ansagen))
    last = first_ansage[1] if len(first_ansage) == 2 else None
    return checked, last


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
        if names and not tricks:
            raise RecordError(f"{party} took no trick and cannot have {names[0]!r}")
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
    facts: DealFacts,
    profile: Profile,
    options: Mapping[str, Any],
    *,
    hochzeit: bool = False,
    duty_solo: bool = False,
) -> dict[str, Any]:
    """The deal summary of a played (or verworfen) deal; ``hochzeit``: a Hochzeit that found no
    partner (played as solo-trumpf); ``duty_solo``: a solo that was a Pflicht-Solo (a solo
    says either way)."""
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
    if hochzeit:
        out["hochzeit"] = True
    if facts.is_solo:
        out["duty_solo"] = duty_solo
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


def redeal_summary(
    reason: str, profile: Profile, options: Mapping[str, Any], seats: int, dealer: int
) -> dict[str, Any]:
    """The deal summary of a deal dealt again (``reason``: one of ``REDEALS``)."""
    out: dict[str, Any] = {
        "game": "doppelkopf",
        "profile": profile.name,
        "options": dict(options),
        "players": 4,
    }
    if seats == 5:
        out.update(seats=5, dealer=dealer)
    out["redeal"] = reason
    return out
