"""An announcement oracle written from the rule texts alone, to check the engine against.

It does not use ``stichwerk.doppelkopf.announcements`` nor the profiles' settings: the card
limits below are copied from the texts, and the rules are written as the texts say them.

DDV (TSR 6, ``shared/research/doppelkopf-rules.md`` §1.4, and RULINGS.md):
- Re/Kontra while the announcing player holds at least 11 cards (trick 1 is the Freistich).
- An Absage needs the party's own Re/Kontra: keine 90 with 10 cards, keine 60 with 9, keine 30
  with 8, schwarz with 7. Levels may be skipped while the skipped levels' limits have not passed.
- The reply (Erwiderung), only Re against Kontra or Kontra against Re: with one card fewer than
  the other party's announcement needed. "Eine Absage der eigenen Partei danach ist nur dann
  regelgerecht, wenn die eigene Erwiderung auch als Ansage rechtzeitig erfolgt wäre": a party
  whose reply came late makes no Absage, and a late reply cannot come with an Absage.
- Announced Hochzeit: nothing before the Klärungsstich; after it every limit drops by its number
  minus one (TSR 6.5).

Wielandstraße (seed 004 IV, with RULINGS.md and research A3, A10):
- Re/Kontra with 11 cards; the other party may reply "bis zum folgenden Stich (10 Karten)".
- Absagen only by the party that announced (its Re/Kontra said before or with it): keine 90
  with 10 cards, keine 60 with 8, keine 30 with 6, schwarz with 4; skipped levels as above.
- A replying party goes on with Absagen by their own card limits (RULINGS.md).
- Hochzeit: the limits shift by the Klärungsstich's number minus one ("spätestens mit 9 Karten").
"""

from dataclasses import dataclass

ABSAGEN = ("keine-90", "keine-60", "keine-30", "schwarz")


@dataclass(frozen=True)
class Text:
    """One source's announcement rules, as numbers and switches."""

    ansage: int
    """Cards a player must hold for Re/Kontra."""
    absage: dict[str, int]
    """Cards a player must hold for each Absage."""
    reply_fixed: int | None
    """A reply's card limit when the text fixes it (Wielandstraße: 10)."""
    late_reply_ends_absagen: bool
    """TSR 6: a party whose reply came late makes no Absage."""


TEXTS = {
    "ddv": Text(
        ansage=11,
        absage={"keine-90": 10, "keine-60": 9, "keine-30": 8, "schwarz": 7},
        reply_fixed=None,
        late_reply_ends_absagen=True,
    ),
    "wielandstrasse": Text(
        ansage=11,
        absage={"keine-90": 10, "keine-60": 8, "keine-30": 6, "schwarz": 4},
        reply_fixed=10,
        late_reply_ends_absagen=False,
    ),
}

WORD = {"re": "re", "kontra": "kontra"}
"""Each party's own Re/Kontra word."""


@dataclass
class PartyWords:
    """What one party has said so far, skipped levels included."""

    ansage: bool = False
    ansage_late: bool = False
    absagen: int = 0  # how many of ABSAGEN are said (they are said in order)


def _limit(text: Text, what: str, shift: int) -> int:
    return (text.ansage if what in WORD else text.absage[what]) - shift


def _reply_limit(text: Text, theirs: PartyWords, shift: int) -> int | None:
    """The cards a reply needs against the other party's words (None: nothing to reply to)."""
    if not theirs.ansage and not theirs.absagen:
        return None
    if text.reply_fixed is not None:
        return text.reply_fixed - shift
    latest = ABSAGEN[theirs.absagen - 1] if theirs.absagen else "re"
    return _limit(text, latest, shift) - 1


def menu(
    profile: str,
    *,
    party: str | None,
    cards: int,
    said: list[tuple[str, str, int]],
    klaerungsstich: int | None,
    reply_rule: bool = True,
) -> set[str]:
    """The announcements a seat may make now.

    ``party``: the seat's party (``re``/``kontra``; None for a sitting dealer or while a
    Hochzeit is open); ``cards``: the cards it holds now; ``said``: every announcement so far
    as (party, act, cards the announcer held); ``klaerungsstich``: 0 for games without one,
    its number in a Hochzeit (and in the Karo solo of a Hochzeit without partner), None while
    the Hochzeit is still open. ``reply_rule=False`` leaves out TSR 6's late-reply sentence
    (to see what it forbids).
    """
    if party is None or klaerungsstich is None:
        return set()
    text = TEXTS[profile]
    shift = klaerungsstich - 1 if klaerungsstich else 0
    words = {"re": PartyWords(), "kontra": PartyWords()}
    for who, act, held in said:
        mine, other = words[who], words["kontra" if who == "re" else "re"]
        if not mine.ansage:
            # Re/Kontra said now (alone, or with an Absage that includes it).
            in_time = held >= _limit(text, "re", shift)
            mine.ansage = True
            mine.ansage_late = not in_time and _reply_limit(text, other, shift) is not None
        if act in ABSAGEN:
            mine.absagen = max(mine.absagen, ABSAGEN.index(act) + 1)
    mine = words[party]
    theirs = words["kontra" if party == "re" else "re"]
    out: set[str] = set()
    as_ansage = cards >= _limit(text, "re", shift)
    reply = _reply_limit(text, theirs, shift)
    as_reply = reply is not None and cards >= reply
    if not mine.ansage and (as_ansage or as_reply):
        out.add(WORD[party])
    if mine.absagen == len(ABSAGEN):
        return out
    strict = reply_rule and text.late_reply_ends_absagen
    if mine.ansage:
        if strict and mine.ansage_late:
            return out
    elif not as_ansage and not (as_reply and not strict):
        return out  # no Ansage possible now that an Absage could include
    # The next level's limit binds every higher one (the limits fall level by level).
    if cards >= _limit(text, ABSAGEN[mine.absagen], shift):
        for act in ABSAGEN[mine.absagen :]:
            if cards >= _limit(text, act, shift):
                out.add(act)
    return out


def first_illegal(
    profile: str, said: list[tuple[str, str, int]], klaerungsstich: int = 0
) -> int | None:
    """The index of the first announcement in ``said`` (party, act, cards held) that the
    oracle would not have offered then, or None when every one was legal."""
    for i, (party, act, cards) in enumerate(said):
        if act not in menu(
            profile, party=party, cards=cards, said=said[:i], klaerungsstich=klaerungsstich
        ):
            return i
    return None
