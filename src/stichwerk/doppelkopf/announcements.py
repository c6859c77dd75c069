"""Ansagen and Absagen: who may say Re, Kontra, keine 90/60/30 or schwarz, and until when.

A deadline is a number of cards the announcing player must still hold (IV / TSR 6). The engine
counts cards *played* by the seat, so the same deadlines serve hands without nines (they then
mean the same number of cards played). In a Hochzeit every deadline drops by the number of the
Klärungsstich minus one (the *shift*). A party may reply (Erwiderung) to the other party's
announcement with Re or Kontra a little later (profile setting ``reply``). Saying a higher level
directly includes the skipped ones, while each skipped level's own deadline has not passed.

>>> from stichwerk.doppelkopf.profiles import WIELANDSTRASSE as W
>>> check(W, "re", 0, Announced(), Announced(), held=11, shift=0, hand=11)
Announced(ansage=True, absage=0)
>>> check(W, "re", 0, Announced(), Announced(), held=9, shift=0, hand=9)
'too late for re: the announcing player must hold at least 11 cards (holds 9)'
>>> check(W, "re", 0, Announced(), Announced(ansage=True), held=10, shift=0, hand=10)
Announced(ansage=True, absage=0)
"""

from stichwerk.doppelkopf.profiles import Profile
from stichwerk.doppelkopf.scoring import LEVELS, Announced

ANNOUNCE_ACTS = ("re", "kontra", *LEVELS)
"""Every announcement act, in level order after the party's own Re or Kontra."""
LEVEL_OF = {"re": 0, "kontra": 0, "keine-90": 1, "keine-60": 2, "keine-30": 3, "schwarz": 4}


def min_cards(profile: Profile) -> tuple[int, int, int, int, int]:
    """Cards to hold for Re/Kontra and for each Absage level."""
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

    def too_late(name: str, cards: int, extra: str = "") -> str:
        return (
            f"too late for {name}: the announcing player must hold at least "
            f"{max(cards - shift + real, 0)} cards{extra} (holds {hand})"
        )

    level = LEVEL_OF[act]
    ansage_open = held + shift >= need[0]
    if not ansage_open:
        reply = _reply_need(profile, theirs)
        if reply is not None and held + shift >= reply:
            ansage_open = True
    if level == 0:
        if mine.ansage:
            return f"the {party} party has already said {own_word}" if explain else None
        if not ansage_open:
            if not explain:
                return None
            reply = _reply_need(profile, theirs)
            extra = "" if reply is None else f", or {max(reply - shift + real, 0)} to reply"
            return too_late(act, need[0], extra)
        return Announced(True, mine.absage)
    if mine.absage >= level:
        if not explain:
            return None
        return f"the {party} party has already said {LEVELS[mine.absage - 1]}"
    ansage = mine.ansage
    if not ansage and profile.absage_requires_own_ansage:
        if not profile.skip_levels:
            return f"{act} needs the {party} party's own {own_word} first" if explain else None
        if not ansage_open:
            if not explain:
                return None
            return f"{act} needs the {party} party's own {own_word}, and it is too late for it"
        ansage = True
    if level > mine.absage + 1 and not profile.skip_levels:
        if not explain:
            return None
        return f"say {LEVELS[mine.absage]} first (levels cannot be skipped)"
    for j in range(mine.absage + 1, level + 1):
        if held + shift < need[j]:
            if not explain:
                return None
            if j == level:
                return too_late(act, need[j])
            return too_late(f"{LEVELS[j - 1]} (skipped by {act})", need[j])
    return Announced(ansage, level)
