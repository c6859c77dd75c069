"""Ansagen and Absagen: who may say Re, Kontra, keine 90/60/30 or schwarz, and until when.

A deadline is a number of cards the announcing player must still hold (IV / TSR 6). The engine
counts cards *played* by the seat, so the same deadlines serve hands without nines (they then
mean the same number of cards played). In a Hochzeit every deadline drops by the number of the
Klärungsstich minus one (the *shift*). A party may reply (Erwiderung) to the other party's
announcement with Re or Kontra a little later (profile setting ``reply``). Saying a higher level
directly includes the skipped ones, while each skipped level's own deadline has not passed.

The reply rule (TSR 6): a reply is only Re or Kontra, and a party whose reply came *late* (it
would not have been in time as an Ansage, by the shifted deadline) makes no Absage in that game,
neither the replying seat nor its partners (``late_reply_absage`` off, profile ``ddv``). Under
``wielandstrasse`` a replying party goes on with Absagen by their own card limits.

This module is the one place of these rules: the engine, the fast path, the bots (through the
engine's legal actions) and a score sheet (:func:`check_announcements`) all ask it.

>>> from stichwerk.doppelkopf.profiles import DDV, WIELANDSTRASSE as W
>>> check(W, "re", 0, Announced(), Announced(), held=11, shift=0, hand=11)
Announced(ansage=True, absage=0, late=False)
>>> check(W, "re", 0, Announced(), Announced(), held=9, shift=0, hand=9)
'too late for re: the announcing player must hold at least 11 cards (holds 9)'
>>> check(W, "re", 0, Announced(), Announced(ansage=True), held=10, shift=0, hand=10)
Announced(ansage=True, absage=0, late=True)
>>> check(DDV, "keine-90", 0, Announced(True, 0, True), Announced(True), held=10, shift=0, hand=10)
'the Re party replied late: a party whose reply came late makes no Absage (TSR 6)'
"""

from collections.abc import Sequence
from typing import Final, NamedTuple

from stichwerk.doppelkopf.profiles import GAME_TYPES, Profile
from stichwerk.doppelkopf.scoring import LEVELS, PARTIES, Announced

ANNOUNCE_ACTS: Final = ("re", "kontra", *LEVELS)
"""Every announcement act, in level order after the party's own Re or Kontra."""
LEVEL_OF: Final = {"re": 0, "kontra": 0, "keine-90": 1, "keine-60": 2, "keine-30": 3, "schwarz": 4}
LATE_REPLY: Final = "a party whose reply came late makes no Absage (TSR 6)"
"""The reply rule's words, as every refusal by it ends."""


def min_cards(profile: Profile) -> tuple[int, ...]:
    """Cards to hold for Re/Kontra and for each Absage level (five; of any length to the type
    checker, so that compiled it is one tuple object, indexed without being rebuilt)."""
    return (
        profile.re_kontra_min_cards,
        profile.keine_90_min_cards,
        profile.keine_60_min_cards,
        profile.keine_30_min_cards,
        profile.schwarz_min_cards,
    )


def _reply_need(profile: Profile, theirs: Announced) -> int | None:
    """Cards a reply needs, or ``None`` when the other party has said nothing to reply to."""
    if not theirs.ansage and not theirs.absage:
        return None
    if profile.reply == "fixed":
        return profile.reply_min_cards
    return min_cards(profile)[theirs.absage] - 1


def check(
    profile: Profile,
    act: str,
    party_index: int,
    mine: Announced,
    theirs: Announced,
    *,
    held: int,
    shift: int,
    hand: int,
    explain: bool = True,
) -> Announced | str | None:
    """The party's announcements after ``act``, or why it is refused.

    ``held`` counts the seat's cards as if dealt 12 (12 minus cards played), ``hand`` is what it
    really holds (for messages), ``shift`` the Hochzeit shift. ``party_index`` is unused by the
    rules and only names the party in messages (0 Re, 1 Kontra). Without ``explain`` a refusal
    returns ``None`` quickly (for listing legal actions).
    """
    party = ("Re", "Kontra")[party_index]
    own_word = ("re", "kontra")[party_index]
    need = min_cards(profile)
    real = hand - held  # add to a 12-card figure to get the real number of cards
    cards = held + shift  # what every deadline is compared with

    def too_late(name: str, limit: int, extra: str = "") -> str:
        return (
            f"too late for {name}: the announcing player must hold at least "
            f"{max(limit - shift + real, 0)} cards{extra} (holds {hand})"
        )

    level = LEVEL_OF[act]
    in_time = cards >= need[0]  # an Ansage now is in time; else only a reply may be
    reply = None if in_time else _reply_need(profile, theirs)
    ansage_open = in_time or (reply is not None and cards >= reply)
    if level == 0:
        if mine.ansage:
            return f"the {party} party has already said {own_word}" if explain else None
        if not ansage_open:
            if not explain:
                return None
            reply = _reply_need(profile, theirs)
            extra = "" if reply is None else f", or {max(reply - shift + real, 0)} to reply"
            return too_late(act, need[0], extra)
        return Announced(True, mine.absage, not in_time)
    if mine.absage >= level:
        if not explain:
            return None
        return f"the {party} party has already said {LEVELS[mine.absage - 1]}"
    if mine.late and not profile.late_reply_absage:
        return f"the {party} party replied late: {LATE_REPLY}" if explain else None
    ansage, late = mine.ansage, mine.late
    if not ansage and profile.absage_requires_own_ansage:
        if not profile.skip_levels:
            return f"{act} needs the {party} party's own {own_word} first" if explain else None
        if not ansage_open:
            if not explain:
                return None
            return f"{act} needs the {party} party's own {own_word}, and it is too late for it"
        if not in_time and not profile.late_reply_absage:
            if not explain:
                return None
            return f"{act} would say {own_word} as a late reply, and {LATE_REPLY}"
        ansage, late = True, not in_time
    if level > mine.absage + 1 and not profile.skip_levels:
        if not explain:
            return None
        return f"say {LEVELS[mine.absage]} first (levels cannot be skipped)"
    for j in range(mine.absage + 1, level + 1):
        if cards < need[j]:
            if not explain:
                return None
            if j == level:
                return too_late(act, need[j])
            return too_late(f"{LEVELS[j - 1]} (skipped by {act})", need[j])
    return Announced(ansage, level, late)


class Said(NamedTuple):
    """One announcement as a score sheet enters it: the party (``re`` or ``kontra``), the act
    (``re kontra keine-90 keine-60 keine-30 schwarz``) and the cards the announcing player held
    when saying it (as really held: 12 at the start with nines, 10 without)."""

    party: str
    act: str
    cards: int


def check_announcements(
    profile: Profile,
    game_type: str,
    said: Sequence[Said | tuple[str, str, int]],
    *,
    klaerungsstich: int = 0,
) -> dict[str, Announced] | str:
    """Whether the announcements of a deal, in the order they were made, were legal.

    For a score sheet that enters announcements by hand: ``said`` lists each one as
    ``(party, act, cards)`` (see :class:`Said`), both parties' in one sequence, because the
    other party's announcements open the reply (Erwiderung) and the reply rule of TSR 6 depends
    on when a party's own Re or Kontra came. ``klaerungsstich`` is the number of a Hochzeit's
    Klärungsstich (1 to ``hochzeit_tricks``; also for the Karo solo of a Hochzeit without
    partner, whose Klärungsstich is the last of them), 0 for every other game: it shifts every
    deadline (``hochzeit_shift``) and nobody announces before it.

    Returns each party's announcements (``{"re": Announced, "kontra": Announced}``, as
    :class:`~stichwerk.doppelkopf.scoring.DealFacts` takes them) when all are legal, else one
    line naming the first illegal announcement and the rule it breaks, e.g.
    ``"announcement 3 (kontra keine-90 with 10 cards): the Kontra party replied late: a party
    whose reply came late makes no Absage (TSR 6)"``. Card counts must be possible in the order
    given: a later announcer holds at most one card more than an earlier one.

    >>> from stichwerk.doppelkopf.profiles import DDV, WIELANDSTRASSE
    >>> seq = [("re", "re", 11), ("kontra", "kontra", 10), ("kontra", "keine-90", 10)]
    >>> check_announcements(DDV, "normal", seq)  # doctest: +ELLIPSIS
    'announcement 3 (kontra keine-90 with 10 cards): the Kontra party replied late: a party...'
    >>> check_announcements(WIELANDSTRASSE, "normal", seq)["kontra"]
    Announced(ansage=True, absage=1, late=True)
    """
    if game_type not in GAME_TYPES:
        return f"unknown game type {game_type!r}"
    dealt = 12 if profile.with_nines else 10
    k = klaerungsstich
    if isinstance(k, bool) or not isinstance(k, int):
        return "the Klärungsstich must be a trick number"
    may_clarify = game_type == "hochzeit" or (
        game_type == "solo-trumpf" and k == profile.hochzeit_tricks
    )
    if k and not may_clarify:
        return f"a {game_type} game has no Klärungsstich"
    if game_type == "hochzeit" and not 1 <= k <= profile.hochzeit_tricks:
        return f"a Hochzeit needs its Klärungsstich, 1 to {profile.hochzeit_tricks}"
    shift = k - 1 if k and profile.hochzeit_shift else 0
    most = dealt - k  # nobody announces before the Klärungsstich
    ann = {"re": Announced(), "kontra": Announced()}
    fewest = dealt
    entries: Sequence[object] = said  # compiled, each entry is checked here, not assumed
    for index, entry in enumerate(entries, 1):
        if not isinstance(entry, tuple | list) or len(entry) != 3:
            return f"announcement {index} must be (party, act, cards)"
        party, act, cards = entry
        if party not in PARTIES:
            return f"announcement {index}: unknown party {party!r} (re or kontra)"
        if act not in LEVEL_OF or act == ("kontra", "re")[PARTIES.index(party)]:
            return f"announcement {index}: the {party} party cannot say {act!r}"
        if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= dealt:
            return f"announcement {index}: cards held must be a number from 0 to {dealt}"
        what = f"announcement {index} ({party} {act} with {cards} cards)"
        if cards > most:
            return f"{what}: no announcement before the Hochzeit partner is known"
        if cards > fewest + 1:
            return f"{what}: an earlier announcement was made with {fewest} cards"
        fewest = min(fewest, cards)
        p = PARTIES.index(party)
        held = cards + 12 - dealt
        res = check(
            profile, act, p, ann[party], ann[PARTIES[1 - p]], held=held, shift=shift, hand=cards
        )
        if not isinstance(res, Announced):
            return f"{what}: {res}"
        ann[party] = res
    return ann
