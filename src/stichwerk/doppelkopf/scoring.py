"""Scoring a deal from the facts a score sheet knows: who wins, the game value, the settlement.

One function serves the engine (``result().score``) and ``stichwerk score`` (a deal summary), so
both always agree. The game value is a list of named items (gewonnen, unter 90, Re angesagt,
keine 90 angesagt, 120 gegen keine 90, Fuchs gefangen ...), as a score sheet checks them.

Who wins follows TSR 7.1: Re needs 121 unless only Kontra was said (then 120), or both were said
and the profile gives the 121 to the party that announced last (Wielandstraße II.6); an own
Absage raises the target (keine 90: 151 ...); an opposing Absage lowers it (90 against keine 90
...); when both parties miss their Absagen nobody wins.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from stichwerk.doppelkopf.cards import CARD_AUGEN, code_of
from stichwerk.doppelkopf.profiles import NORMAL_GAMES, Profile

LEVELS: Final = ("keine-90", "keine-60", "keine-30", "schwarz")
"""Absage levels 1..4."""
LEVEL_NAMES: Final = ("keine 90", "keine 60", "keine 30", "schwarz")
EXTRAS: Final = ("fuchs", "karlchen", "doppelkarlchen", "karlchen-gefangen", "doppelkopf")
EXTRA_NAMES: Final = {
    "fuchs": "Fuchs gefangen",
    "karlchen": "Karlchen",
    "doppelkarlchen": "Doppelkarlchen",
    "karlchen-gefangen": "Karlchen gefangen",
    "doppelkopf": "Doppelkopf",
}
EXTRA_NAME_SET: Final = frozenset(EXTRA_NAMES.values())
PARTIES: Final = ("re", "kontra")

FUCHS: Final = code_of("DA")
"""The Karo ace: caught by the other party, a Fuchs."""
KARLCHEN: Final = code_of("CJ")
"""The Kreuz jack: taking the last trick with it, a Karlchen."""


def trick_extras(
    profile: Profile,
    game_type: str,
    sau: bool,
    party: Sequence[int],
    seats: Sequence[int],
    ids: Sequence[int],
    winner: int,
    last: bool,
) -> list[tuple[str, str]]:
    """The extra points one trick earns, as (party, item): a Fuchs caught, a Doppelkopf and, in
    the last trick, Karlchen, Doppelkarlchen and Karlchen gefangen. ``party`` gives each seat's
    party (0 Re, 1 Kontra) as the deal ended; ``ids`` are card ids in the order played. The
    engine and the fast path both score tricks by this one reading."""
    out: list[tuple[str, str]] = []
    wp = party[winner]
    normal = game_type in NORMAL_GAMES
    if game_type in profile.fox_game_types and not sau:
        for s, i in zip(seats, ids, strict=True):
            if i >> 1 == FUCHS and party[s] != wp:
                out.append((PARTIES[wp], "fuchs"))
    big = profile.doppelkopf_min_augen
    if normal and big and sum(CARD_AUGEN[i] for i in ids) >= big:
        out.append((PARTIES[wp], "doppelkopf"))
    if last and normal and (profile.karlchen or profile.karlchen_gefangen):
        jacks = [s for s, i in zip(seats, ids, strict=True) if i >> 1 == KARLCHEN]
        if profile.karlchen and ids[seats.index(winner)] >> 1 == KARLCHEN:
            out.append((PARTIES[wp], "karlchen"))
            if profile.doppelkarlchen and len(jacks) == 2 and party[jacks[0]] == party[jacks[1]]:
                out.append((PARTIES[wp], "doppelkarlchen"))
        if profile.karlchen_gefangen:
            out.extend((PARTIES[wp], "karlchen-gefangen") for s in jacks if party[s] != wp)
    return out


@dataclass(frozen=True)
class Announced:
    """What one party announced: its Re/Kontra (``ansage``), its highest Absage (0..4), and
    whether its Re/Kontra came as a reply too late to have been an Ansage (``late``: under TSR 6
    such a party makes no Absage; scoring ignores it)."""

    ansage: bool = False
    absage: int = 0
    late: bool = False

    def names(self, party: str) -> list[str]:
        """The announcements as the summary lists them, skipped levels included."""
        out = [party] if self.ansage else []
        return out + list(LEVELS[: self.absage])

    def __reduce__(self) -> tuple[type["Announced"], tuple[bool, int, bool]]:
        """Copied and pickled by its fields (compiled, a frozen class refuses the attribute
        by attribute restore that copy and pickle would use otherwise)."""
        return (Announced, (self.ansage, self.absage, self.late))


NO_ANNOUNCEMENT: Final = Announced()
"""A party that announced nothing (one shared frozen value instead of a new one per question)."""


@dataclass(frozen=True)
class DealFacts:
    """What scoring needs to know of a finished (or verworfen) deal."""

    seats: int
    game_type: str
    re: tuple[int, ...]
    kontra: tuple[int, ...]
    re_augen: int = 0
    re_tricks: int = 0
    kontra_tricks: int = 0
    announced: dict[str, Announced] = field(default_factory=dict)
    last_announcer: str | None = None
    """The party that said its Re/Kontra last, when both did."""
    extras: dict[str, tuple[str, ...]] = field(default_factory=dict)
    verworfen_by: int | None = None

    @property
    def is_solo(self) -> bool:
        return self.game_type.startswith("solo-")

    def ann(self, party: str) -> Announced:
        return self.announced.get(party, NO_ANNOUNCEMENT)


def _other(party: str) -> str:
    return "kontra" if party == "re" else "re"


def re_target(facts: DealFacts, profile: Profile) -> int:
    """The Augen Re needs when neither party made an Absage (121 or 120)."""
    re_a, ko_a = facts.ann("re").ansage, facts.ann("kontra").ansage
    if ko_a and not re_a and profile.kontra_only_needs_121:
        return 120
    if re_a and ko_a and profile.both_announced == "last-needs-121":
        return 120 if facts.last_announcer == "kontra" else 121
    return 121


def _reaches(augen: int, tricks: int, level: int) -> bool:
    """A party keeps the other below its Absage ``level`` when ... (see ``wins``)."""
    # A chain of tests rather than a list of all four (built on every call).
    if level == 1:
        return augen < 90
    if level == 2:
        return augen < 60
    if level == 3:
        return augen < 30
    return tricks == 0


def _defends(augen: int, tricks: int, level: int) -> bool:
    """A party beats the other's Absage ``level`` with 90/60/30 Augen or one trick."""
    if level == 1:
        return augen >= 90
    if level == 2:
        return augen >= 60
    if level == 3:
        return augen >= 30
    return tricks >= 1


def who_wins(facts: DealFacts, profile: Profile) -> str | None:
    """``"re"``, ``"kontra"``, or ``None`` when both missed their Absagen (TSR 7.1)."""
    ra, ka = facts.ann("re").absage, facts.ann("kontra").absage
    re_augen, ko_augen = facts.re_augen, 240 - facts.re_augen
    if ra == 0 and ka == 0:
        return "re" if re_augen >= re_target(facts, profile) else "kontra"
    if ra:
        re_wins = _reaches(ko_augen, facts.kontra_tricks, ra)
    else:
        re_wins = _defends(re_augen, facts.re_tricks, ka)
    if ka:
        ko_wins = _reaches(re_augen, facts.re_tricks, ka)
    else:
        ko_wins = _defends(ko_augen, facts.kontra_tricks, ra)
    if re_wins:
        return "re"
    if ko_wins:
        return "kontra"
    return None


def _item(items: list[dict[str, Any]], name: str, party: str, points: int) -> None:
    items.append({"name": name, "party": party, "points": points})


def _gegen_applies(facts: DealFacts, profile: Profile) -> bool:
    if profile.gegen_die_alten == "always":
        return True
    return profile.gegen_die_alten == "normal" and facts.game_type in NORMAL_GAMES


def _level_items(
    facts: DealFacts, party: str, items: list[dict[str, Any]], profile: Profile
) -> None:
    """Unter 90/60/30 and schwarz of the other party, and points reached against its Absage."""
    other = _other(party)
    o_augen = facts.re_augen if other == "re" else 240 - facts.re_augen
    o_tricks = facts.re_tricks if other == "re" else facts.kontra_tricks
    for level, name in enumerate(("unter 90", "unter 60", "unter 30", "schwarz"), start=1):
        if _reaches(o_augen, o_tricks, level):
            _item(items, name, party, profile.level_points)
    own_augen = 240 - o_augen
    other_absage = facts.ann(other).absage
    for level, name in enumerate(
        ("120 gegen keine 90", "90 gegen keine 60", "60 gegen keine 30", "30 gegen schwarz"),
        start=1,
    ):
        if other_absage >= level and own_augen >= (120, 90, 60, 30)[level - 1]:
            _item(items, name, party, profile.reached_points)


def _extra_items(facts: DealFacts, items: list[dict[str, Any]]) -> None:
    for party in PARTIES:
        for extra in facts.extras.get(party, ()):
            _item(items, EXTRA_NAMES[extra], party, 1)


def score(facts: DealFacts, profile: Profile) -> dict[str, Any]:
    """The scoring output of NOTATION.md: ``settlement``, ``winner``, ``value``, ``items``."""
    if facts.verworfen_by is not None:
        return _score_verwerfen(facts, profile)
    winner = who_wins(facts, profile)
    items: list[dict[str, Any]] = []
    doublings = 0
    if winner is not None:
        _item(items, "gewonnen", winner, 1)
        if winner == "kontra" and _gegen_applies(facts, profile):
            _item(items, "gegen die Alten", winner, 1)
        _level_items(facts, winner, items, profile)
        for party in PARTIES:
            ann = facts.ann(party)
            if ann.ansage:
                if profile.re_kontra_doubles:
                    doublings += 1
                    _item(items, f"{party.capitalize()} angesagt (x2)", winner, 0)
                else:
                    _item(items, f"{party.capitalize()} angesagt", winner, profile.re_kontra_points)
            for level in range(ann.absage):
                name = f"{LEVEL_NAMES[level]} angesagt ({party.capitalize()})"
                _item(items, name, winner, profile.absage_points)
    elif profile.no_winner == "levels":
        for party in PARTIES:
            _level_items(facts, party, items, profile)
    _extra_items(facts, items)
    if winner is None and profile.no_winner == "zero":
        items = []

    def points(party: str, kinds: str) -> int:
        return sum(
            i["points"]
            for i in items
            if i["party"] == party
            and (kinds == "all" or (kinds == "extra") == (i["name"] in EXTRA_NAME_SET))
        )

    solo = facts.is_solo
    settlement = [0] * facts.seats
    if winner is not None:
        loser = _other(winner)
        if profile.extras_netting == "net" or profile.counting == "plus-minus":
            value = points(winner, "all") - points(loser, "all")
            separate = 0
        else:
            value = points(winner, "all")
            separate = points(loser, "all")
        value *= 2**doublings
        _settle(settlement, facts, profile, winner, value)
        if separate:
            _settle(settlement, facts, profile, loser, separate * 2**doublings)
    else:
        net = points("re", "all") - points("kontra", "all")
        value = abs(net)
        if net:
            _settle(settlement, facts, profile, "re" if net > 0 else "kontra", value)
    out: dict[str, Any] = {
        "settlement": settlement,
        "winner": winner,
        "value": value,
        "items": items,
    }
    if solo:
        out["solo_factor"] = profile.solo_factor
    if profile.bock_triggers:
        out["bock"] = _bock(facts, profile, winner)
    return out


def _settle(
    settlement: list[int], facts: DealFacts, profile: Profile, side: str, value: int
) -> None:
    """Add a value won by ``side`` to the settlement per the counting mode and solo factor."""
    factor = profile.solo_factor if facts.is_solo else 1
    winners = facts.re if side == "re" else facts.kontra
    losers = facts.kontra if side == "re" else facts.re
    win_each = value * (factor if facts.is_solo and side == "re" else 1)
    lose_each = value * (factor if facts.is_solo and side == "kontra" else 1)
    if profile.counting == "plus" and value <= 0:
        return
    if profile.counting == "minus" and value <= 0:
        return
    if profile.counting in ("plus-minus", "plus"):
        for s in winners:
            settlement[s] += win_each
    if profile.counting in ("plus-minus", "minus"):
        for s in losers:
            settlement[s] -= lose_each


def _bock(facts: DealFacts, profile: Profile, winner: str | None) -> bool:
    triggers = profile.bock_triggers
    if "120-120" in triggers and facts.re_augen == 120:
        return True
    if winner is not None and "announced-lost" in triggers and facts.ann(_other(winner)).ansage:
        return True
    return "solo-lost" in triggers and facts.is_solo and winner == "kontra"


def _score_verwerfen(facts: DealFacts, profile: Profile) -> dict[str, Any]:
    """A Verwerfen (or a seat that leaves): the culprit's side loses per the profile's table."""
    culprit = facts.verworfen_by
    assert culprit is not None
    party = "re" if culprit in facts.re else "kontra"
    settlement = [0] * facts.seats
    items: list[dict[str, Any]] = []
    if profile.verwerfen == "graded":
        # TSR 9: a serious violation; a soloist's own violation voids the game.
        if facts.is_solo and party == "re":
            return {"settlement": settlement, "winner": None, "value": 0, "items": [],
                    "counts": False}  # fmt: skip
        absagen = facts.ann(_other(party)).absage
        penalty = 12 + 3 * absagen
        _item(items, "Verwerfen (schwerwiegend)", _other(party), penalty)
        settlement[culprit] = -penalty
        if facts.is_solo:
            settlement[facts.re[0]] = penalty
        else:
            for s in facts.re + facts.kontra:
                if s != culprit:
                    settlement[s] = penalty // 3
        return {"settlement": settlement, "winner": None, "value": penalty, "items": items}
    winner = _other(party)
    # Wielandstraße V.: the value of a schwarz win (5), +1 gegen die Alten, +2 per Re/Kontra
    # said (A14); the solo factor for a soloist recipient (15 = 3 x 5).
    _item(items, "Verwerfen", winner, 1 + 4 * profile.level_points)
    if winner == "kontra" and _gegen_applies(facts, profile):
        _item(items, "gegen die Alten", winner, 1)
    for p in PARTIES:
        if facts.ann(p).ansage:
            _item(items, f"{p.capitalize()} angesagt", winner, profile.re_kontra_points)
    value = sum(i["points"] for i in items)
    _settle(settlement, facts, profile, winner, value)
    return {"settlement": settlement, "winner": winner, "value": value, "items": items}
