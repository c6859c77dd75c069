"""Reading card names as people write them: codes, and the German names the seeds use.

Parsing is case-insensitive; output always uses the codes of NOTATION.md. Each game passes its own
set of valid codes and its special names (``Gstieß``, ``Mund``, ``Dulle``, ``Fuchs`` ...).
"""

import unicodedata
from collections.abc import Collection, Mapping

from stichwerk.core.errors import CardError

SUIT_WORDS: Mapping[str, str] = {
    "c": "C", "kreuz": "C", "clubs": "C", "club": "C", "treff": "C", "eichel": "C",
    "s": "S", "pik": "S", "spades": "S", "spade": "S", "schippe": "S", "grün": "S", "gruen": "S",
    "h": "H", "herz": "H", "hearts": "H", "heart": "H", "rot": "H", "coeur": "H",
    "d": "D", "karo": "D", "diamonds": "D", "diamond": "D", "schellen": "D", "schell": "D",
}  # fmt: skip

RANK_WORDS: Mapping[str, str] = {
    "k": "K", "könig": "K", "koenig": "K", "konig": "K", "king": "K",
    "q": "Q", "dame": "Q", "queen": "Q", "ober": "Q",
    "r": "R", "reiter": "R", "ritter": "R", "cavall": "R", "caval": "R", "knight": "R",
    "j": "J", "bube": "J", "jack": "J", "unter": "J",
    "a": "A", "as": "A", "ass": "A", "ace": "A", "daus": "A",
}  # fmt: skip


def _fold(text: str) -> str:
    """Lower case, unified ß/ss and separators, single spaces."""
    text = unicodedata.normalize("NFC", text).strip().lower()
    for sep in ("-", "_", ".", ","):
        text = text.replace(sep, " ")
    return " ".join(text.split())


def parse_card(
    text: object, codes: Collection[str], specials: Mapping[str, str] | None = None
) -> str:
    """The code of the card named ``text``, or ``CardError`` with a one-line message.

    ``codes`` are the game's valid codes; ``specials`` maps folded names (``"gstieß"``) to codes.

    >>> parse_card("herz 10", {"H10"})
    'H10'
    >>> parse_card("Kreuz Dame", {"CQ"})
    'CQ'
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be a code string, not {text!r}")
    folded = _fold(text)
    compact = folded.replace(" ", "").upper()
    if compact in codes:
        return compact
    if specials:
        for key in (folded, folded.replace("ss", "ß"), folded.replace("ß", "ss")):
            if key in specials:
                return specials[key]
    words = folded.split(" ")
    if len(words) == 2 and words[0] in SUIT_WORDS:
        suit = SUIT_WORDS[words[0]]
        rank = RANK_WORDS.get(words[1], words[1].upper())
        code = suit + rank
        if code in codes:
            return code
    raise CardError(f"unknown card {text!r}")
