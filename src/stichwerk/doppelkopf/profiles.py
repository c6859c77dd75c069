"""Rule profiles: every rule switch of the game as one field of a frozen dataclass.

The engine reads these settings and never a profile's name, so a table can override any of them
(``with_options``) and a new house rule is a new saved configuration, not a fork. Each field
carries its meaning and the reading behind each profile's value in ``metadata``; the rules docs
(``docs/rules/doppelkopf.md``) list them, and a test keeps the two in step.

>>> WIELANDSTRASSE.dulle_order, DDV.dulle_order
('second-beats-first', 'first-beats-second')
>>> WIELANDSTRASSE.with_options({"sau": False}).sau
False
>>> WIELANDSTRASSE.with_options({"sau": "yes"})
Traceback (most recent call last):
...
stichwerk.core.errors.RecordError: option 'sau' must be true or false, not 'yes'
"""

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, get_args, get_origin

from stichwerk.core.errors import RecordError

SOLO_TYPES = ("damen", "buben", "kreuz", "pik", "herz", "trumpf", "fleischlos")
"""The solo types a player can declare (``trumpf`` is the Karo colour solo)."""
RESERVATION_KINDS = ("pflicht-solo", "lust-solo", "neu-geben", "schmeissen", "armut", "hochzeit")
GAME_TYPES = (
    "normal",
    "hochzeit",
    "armut",
    *(f"solo-{t}" for t in SOLO_TYPES),
    "solo-still",
)
"""Every game type of a result and a deal summary (``solo-still``: the Stilles Solo)."""
NORMAL_GAMES = ("normal", "hochzeit", "armut")
"""Game types played two against two, where the Sonderpunkte (Fuchs, Karlchen ...) count."""
BOCK_TRIGGERS = ("120-120", "announced-lost", "solo-lost")


def _f(doc: str, ws: str, ddv: str, *, de: str, **kind: Any) -> Any:
    """A settings field: its meaning (in English, and in German as ``de``), each profile's
    reading, and its type for checking."""
    return field(metadata={"doc": doc, "doc_de": de, "wielandstrasse": ws, "ddv": ddv, **kind})


@dataclass(frozen=True)
class Profile:
    """The settings of one rule profile. Field metadata: ``doc`` (in German ``doc_de``) and each
    profile's reading."""

    name: str = field(
        metadata={"doc": "The profile's name.", "doc_de": "Der Name des Profils.", "skip": True}
    )

    # --- cards and their order (research §3.1) ---
    with_nines: bool = _f(
        "Play with the eight nines (48 cards, 12 each); off: 40 cards, 10 each. "
        "Announcement deadlines then count the same number of cards played.",
        "I.a lists the Karo 9 as a trump.",
        "TSR 1.1: 48 cards with nines.",
        de=(
            "Mit den acht Neunen (48 Karten, je 12); aus: 40 Karten, je 10. Die "
            "Ansagefristen zählen dann ebenso viele gespielte Karten."
        ),
    )
    dulle_is_trump: bool = _f(
        "The Herz 10 (Dulle) is the highest trump of normal games and colour solos.",
        "I.a item 4.",
        "TSR 1.1.",
        de="Die Herz-10 (Dulle) ist der höchste Trumpf im Normalspiel und in Farbsoli.",
    )
    dulle_order: Literal["first-beats-second", "second-beats-first"] = _f(
        "Which of two Herz 10 in one trick wins.",
        "I.a: 'zweite sticht erste !!'.",
        "TSR: of two identical cards the earlier wins, the Herz 10 too.",
        de="Welche von zwei Herz-10 in einem Stich gewinnt.",
    )
    dulle_last_trick_reversal: bool = _f(
        "In the last trick the Herz 10 order is reversed.",
        "Not stated; off (research §3.1).",
        "Not in the TSR.",
        de="Im letzten Stich gilt die Reihenfolge der Herz-10 umgekehrt.",
    )
    dulle_order_with_sau: Literal["same", "first-beats-second"] = _f(
        "The Herz 10 order once a Sau is announced: 'same' or 'first-beats-second'.",
        "II.1: with Sau the first Herz 10 beats the second.",
        "No Sau in the TSR.",
        de=(
            "Reihenfolge der Herz-10, sobald eine Sau angesagt ist: 'same' (wie "
            "sonst) oder 'first-beats-second' (die erste sticht)."
        ),
    )
    sau: bool = _f(
        "Both aces of the trump suit in one hand may be announced (act 'sau') and are then "
        "the highest trumps.",
        "II.1 'Sau'.",
        "TSR 1.1: no Schweinchen.",
        de=(
            "Sau (Schweinchen): beide Asse der Trumpffarbe in einer Hand dürfen "
            "angesagt werden ('sau') und sind dann die höchsten Trümpfe."
        ),
    )
    sau_deadline: Literal["before-first-ace", "before-first-card", "when-playing"] = _f(
        "Until when 'sau' may be said: before the first such ace is played, before the first "
        "card of the deal, or only by the holder when it is his turn to play.",
        "II.1: before the first Karo A is played, or earlier (A8).",
        "n/a.",
        de=(
            "Bis wann 'sau' gesagt werden darf: bevor das erste dieser Asse fällt, "
            "vor der ersten Karte des Spiels, oder nur vom Besitzer, wenn er am Zug"
            " ist."
        ),
    )
    sau_in_solo: tuple[str, ...] = _f(
        "Solo types in which a Sau exists ('still' is the Stilles Solo).",
        "I.b 3/4: in the Trumpf-Solo, not in Farben-Solos; the Stilles Solo is a Trumpf-Solo.",
        "n/a.",
        de="Soli, in denen es eine Sau gibt ('still' ist das Stille Solo).",
        members=(*SOLO_TYPES, "still"),
    )
    sau_in_armut: bool = _f(
        "A Sau exists in an Armut game.",
        "Not stated; off (A8).",
        "n/a.",
        de="In einer Armut gibt es eine Sau.",
    )
    supersau: bool = _f(
        "Superschweine: once a Sau is announced, the holder of both nines of the trump suit "
        "(kings without nines) may say 'supersau'; they then outrank the Sau.",
        "Not in the text: off.",
        "Not in the TSR: off.",
        de=(
            "Superschweine: ist eine Sau angesagt, darf, wer beide Neunen der "
            "Trumpffarbe hat (ohne Neunen die Könige), 'supersau' sagen; sie "
            "stechen dann die Sau."
        ),
    )
    solo_types: tuple[str, ...] = _f(
        "The solos a player may declare.",
        "I.b: Damen, Buben, Farben (Herz, Pik, Kreuz), Trumpf, Fleischloser.",
        "TSR: Farbsolo in all four suits (Karo = 'trumpf'), Damen, Buben, Fleischloser.",
        de="Die Soli, die man ansagen darf.",
        members=SOLO_TYPES,
    )
    solo_rank: tuple[tuple[str, ...], ...] = _f(
        "The solo types from highest to lowest, in groups of equal rank (used with "
        "solo_conflict 'solo-rank').",
        "I.b: '1 geht vor 2': Damen > Buben > Farben > Trumpf > Fleischloser.",
        "TSR: solo types have no ranking (one group).",
        de=(
            "Die Soli von hoch nach niedrig, in Gruppen gleichen Rangs (gilt bei "
            "solo_conflict 'solo-rank')."
        ),
        groups=SOLO_TYPES,
    )
    color_solo_keeps_dulle: bool = _f(
        "In a colour solo the Herz 10 stays the highest trump.",
        "I.b 3: 'Wie Normalspiel'.",
        "TSR 1.1: Herz 10 stays top trump.",
        de="Im Farbsolo bleibt die Herz-10 der höchste Trumpf.",
    )

    # --- reservations (research §3.2) ---
    reservation_order: tuple[tuple[str, ...], ...] = _f(
        "The reservation kinds from highest to lowest, in groups of equal rank; among equal "
        "rank the earlier seat wins (solos: see solo_conflict).",
        "III: Lust-Solo > Neu Geben > Schmeißen > Armut > Hochzeit; Pflicht-Solo ranks with "
        "the Lust-Solo (II.5).",
        "TSR 5.1: Pflichtsolo > Lustsolo > Hochzeit.",
        de=(
            "Die Vorbehalte von hoch nach niedrig, in Gruppen gleichen Rangs; bei "
            "gleichem Rang gewinnt der frühere Platz (Soli: siehe solo_conflict)."
        ),
        groups=RESERVATION_KINDS,
    )
    solo_conflict: Literal["seat-order", "solo-rank"] = _f(
        "Two solos declared: the earlier seat wins ('seat-order') or the higher type "
        "('solo-rank', then the earlier seat).",
        "I.b ranks the solo types.",
        "TSR 5.1: the seat further forward wins.",
        de=(
            "Zwei Soli angesagt: der frühere Platz gewinnt ('seat-order') oder das "
            "höhere Solo ('solo-rank', dann der frühere Platz)."
        ),
    )
    duty_solo_leader: Literal["soloist", "vorhand"] = _f(
        "Who leads trick 1 of a Pflicht-Solo.",
        "II.5: 'kommt der Solist immer selber raus'.",
        "TSR 5.2: the soloist.",
        de="Wer beim Pflichtsolo zum ersten Stich rauskommt.",
    )
    lust_solo_leader: Literal["soloist", "vorhand"] = _f(
        "Who leads trick 1 of a Lust-Solo.",
        "III.1: 'Solist kommt nicht selber raus'.",
        "TSR 5.2: Vorhand.",
        de="Wer beim Lustsolo zum ersten Stich rauskommt.",
    )
    silent_solo: bool = _f(
        "A seat with both Kreuz-Damen that says 'gesund' plays a Stilles Solo; off: it must "
        "announce a reservation.",
        "III.5: not announcing the Hochzeit means a Stilles Solo.",
        "TSR 5.3: Stille Hochzeit, scored as a solo.",
        de=(
            "Wer beide Kreuz-Damen hat und 'gesund' sagt, spielt ein Stilles Solo; "
            "aus: er muss einen Vorbehalt melden."
        ),
    )
    silent_solo_counts_as_duty: bool = _f(
        "A Stilles Solo discharges the soloist's Pflicht-Solo.",
        "II.5 '(ausser beim Stillen Solo)' only makes sense if it can be one (A1).",
        "TSR 5.3: does not replace a Pflichtsolo.",
        de="Ein Stilles Solo gilt als Pflichtsolo des Solisten.",
    )
    failed_hochzeit_counts_as_duty: bool = _f(
        "A Hochzeit without partner (played as a Karo solo) discharges a Pflicht-Solo.",
        "Not stated; no (A1).",
        "TSR 5.3: no.",
        de="Eine Hochzeit ohne Partner (als Karo-Solo gespielt) gilt als Pflichtsolo.",
    )
    hochzeit_partner: Literal["any", "fehl-led", "trump-led", "fehl-won"] = _f(
        "Which trick finds the Hochzeit partner: the first trick won by another seat that "
        "was 'any' trick, 'fehl-led' (led with a non-trump), 'trump-led', or 'fehl-won' (won "
        "with a non-trump).",
        "IV.1: 'erster fremder Fehl-Stich'; read as Fehl-led (A5).",
        "TSR 5.3: any trick.",
        de=(
            "Klärungsstich der Hochzeit: der erste Stich eines anderen Spielers, "
            "der beliebig ('any'), mit Fehl angespielt ('fehl-led'), mit Trumpf "
            "angespielt ('trump-led') oder mit Fehl gemacht ('fehl-won') ist."
        ),
    )
    hochzeit_tricks: int = _f(
        "Within how many tricks the Hochzeit partner must be found, else a Karo solo.",
        "IV.1: 'nach dem dritten Stich'.",
        "TSR 5.3: three tricks.",
        de="In wie vielen Stichen der Hochzeitspartner gefunden sein muss, sonst Karo-Solo.",
        low=1,
        high=12,
    )
    armut: bool = _f(
        "Armut: a hand with few trumps passes them on to a partner.",
        "II.4.",
        "Not part of the TSR.",
        de="Armut: eine Hand mit wenig Trumpf schiebt ihre Trümpfe einem Partner zu.",
    )
    armut_max_trumps: int = _f(
        "The most trumps an Armut hand may hold.",
        "II.4: 'Drei oder weniger Trümpfe'.",
        "n/a (3 if switched on).",
        de="Höchstens so viele Trümpfe darf eine Armut haben.",
        low=0,
        high=12,
    )
    armut_cards: Literal["trumps", "three"] = _f(
        "What the Armut hand passes: exactly its trumps, or always three cards (its trumps "
        "plus Fehl it chooses, named in the 'armut' action).",
        "II.4: 'Sie werden ... zugeschoben' (the trumps) (A6).",
        "n/a.",
        de=(
            "Was die Armut abgibt: genau ihre Trümpfe oder immer drei Karten (ihre "
            "Trümpfe und Fehl nach Wahl, in der Aktion 'armut' genannt)."
        ),
    )
    armut_fox_is_trump: bool = _f(
        "A Karo ace counts as a trump for the Armut limit (off: it does not count, though it "
        "is passed with the trumps).",
        "Not excluded: counts (research §3.2).",
        "n/a.",
        de=(
            "Ein Karo-Ass (Fuchs) zählt für die Armut-Grenze als Trumpf (aus: er "
            "zählt nicht, wird aber mit den Trümpfen abgegeben)."
        ),
    )
    armut_return_declare: Literal["count", "whether", "none"] = _f(
        "What the taker must declare of the returned cards: the number of trumps, whether "
        "there is one, or nothing.",
        "II.4 'muss er dies melden'; the number (A6).",
        "n/a.",
        de=(
            "Was der Mitspieler von den zurückgegebenen Karten melden muss: die "
            "Zahl der Trümpfe, ob einer dabei ist, oder nichts."
        ),
    )
    armut_two: Literal["first", "redeal"] = _f(
        "Two seats declare Armut: the first in seat order plays it, or the cards are redealt.",
        "Not stated: the first (A6).",
        "n/a.",
        de="Zwei melden Armut: die erste in Sitzfolge wird gespielt, oder es wird neu gegeben.",
    )
    schmeissen_min_nines: int = _f(
        "Schmeißen: a hand with at least this many nines may claim a redeal (0: off).",
        "III.3: 5 or more nines.",
        "Not in the TSR: off.",
        de="Schmeißen: wer mindestens so viele Neunen hat, darf neu geben lassen (0: aus).",
        low=0,
        high=8,
    )
    neu_geben_below_trumps: int = _f(
        "Neu Geben: a hand with fewer trumps than this may claim a redeal (0: off).",
        "III.2: fewer than 3 trumps.",
        "Not in the TSR: off.",
        de="Neu Geben: wer weniger Trümpfe als diese Zahl hat, darf neu geben lassen (0: aus).",
        low=0,
        high=13,
    )

    # --- announcements (research §3.3) ---
    re_kontra_min_cards: int = _f(
        "Re/Kontra: the announcing player must still hold at least this many cards.",
        "IV.1: with 11 cards in hand.",
        "TSR 6.2: 11 cards.",
        de="Re/Kontra: so viele Karten muss der Ansagende mindestens noch auf der Hand haben.",
        low=0,
        high=12,
    )
    reply: Literal["one-less", "fixed"] = _f(
        "The reply (Erwiderung) with Re against Kontra or Kontra against Re: with one card "
        "fewer than the opposing party's latest announcement needed ('one-less'), or while "
        "holding reply_min_cards ('fixed').",
        "IV.1: the other party may reply until the next trick (10 cards).",
        "TSR 6.3: one card fewer.",
        de=(
            "Erwiderung (Re auf Kontra oder Kontra auf Re): mit einer Karte "
            "weniger, als die letzte Ansage der Gegenpartei brauchte ('one-less'), "
            "oder solange man reply_min_cards hält ('fixed')."
        ),
    )
    reply_min_cards: int = _f(
        "Cards a replying player must hold when reply is 'fixed'.",
        "IV.1: 10 cards.",
        "n/a (reply is 'one-less').",
        de="So viele Karten muss der Erwidernde halten, wenn reply 'fixed' ist.",
        low=0,
        high=12,
    )
    late_reply_absage: bool = _f(
        "A party whose Re/Kontra came as a reply after its own deadline for an Ansage may "
        "still make Absagen by their card limits; off: a party whose reply came late makes "
        "no Absage in that game.",
        "RULINGS: the seed lets a replying party go on with Absagen by their own card limits.",
        "TSR 6: 'Eine Absage der eigenen Partei danach ist nur dann regelgerecht, wenn die "
        "eigene Erwiderung auch als Ansage rechtzeitig erfolgt wäre.'",
        de=(
            "Eine Partei, deren Re/Kontra erst als Erwiderung nach ihrer eigenen Ansagefrist "
            "kam, darf noch Absagen nach deren Kartengrenzen machen; aus: eine Partei mit "
            "verspäteter Erwiderung macht in diesem Spiel keine Absage."
        ),
    )
    keine_90_min_cards: int = _f(
        "keine 90: cards the announcing player must hold.",
        "IV.2: 10.",
        "TSR 6.4: 10.",
        de="keine 90: so viele Karten muss der Ansagende noch halten.",
        low=0,
        high=12,
    )
    keine_60_min_cards: int = _f(
        "keine 60: cards the announcing player must hold.",
        "IV.2: 8.",
        "TSR 6.4: 9.",
        de="keine 60: so viele Karten muss der Ansagende noch halten.",
        low=0,
        high=12,
    )
    keine_30_min_cards: int = _f(
        "keine 30: cards the announcing player must hold.",
        "IV.2: 6.",
        "TSR 6.4: 8.",
        de="keine 30: so viele Karten muss der Ansagende noch halten.",
        low=0,
        high=12,
    )
    schwarz_min_cards: int = _f(
        "schwarz (keinen Stich): cards the announcing player must hold.",
        "IV.2: 4.",
        "TSR 6.4: 7.",
        de="schwarz (keinen Stich): so viele Karten muss der Ansagende noch halten.",
        low=0,
        high=12,
    )
    absage_requires_own_ansage: bool = _f(
        "An Absage needs the party's own Re/Kontra (said before, or said with it).",
        "IV.2: only by the party that announced before.",
        "TSR 6.4.",
        de="Eine Absage braucht das eigene Re/Kontra der Partei (vorher oder zugleich gesagt).",
    )
    skip_levels: bool = _f(
        "A higher announcement may be said directly while every skipped level's deadline "
        "has not passed; the skipped levels count.",
        "Not stated; allowed (research §3.3).",
        "TSR 6.4.",
        de=(
            "Eine höhere Ansage darf gleich gesagt werden, solange die Frist jeder "
            "übersprungenen Stufe noch läuft; die übersprungenen Stufen zählen mit."
        ),
    )
    hochzeit_shift: bool = _f(
        "In a Hochzeit every deadline drops by the number of the Klärungsstich minus one "
        "(announcements start once the partner is known).",
        "IV.1/IV.2: 'spätestens mit 9 Karten'; 'um die Zahl der Klärungsstiche' (A10).",
        "TSR 6.5.",
        de=(
            "In der Hochzeit sinkt jede Frist um die Nummer des Klärungsstichs "
            "minus eins (angesagt wird erst, wenn der Partner feststeht)."
        ),
    )
    both_announced: Literal["re-needs-121", "last-needs-121"] = _f(
        "Both parties said Re and Kontra (no Absage): 're-needs-121' or the party that "
        "announced last needs 121 ('last-needs-121').",
        "II.6 (A4): the party that announced last needs 121.",
        "TSR 7.1: Re needs 121.",
        de=(
            "Re und Kontra beide gesagt (keine Absage): Re braucht 121 ('re-"
            "needs-121') oder die Partei, die zuletzt angesagt hat ('last-"
            "needs-121')."
        ),
    )
    kontra_only_needs_121: bool = _f(
        "Only Kontra was said: Kontra needs 121 and Re wins with 120.",
        "V.: 'die Partei, die Kontra (ohne vorheriges Re) gesagt hat'.",
        "TSR 7.1.",
        de="Nur Kontra gesagt: Kontra braucht 121, Re gewinnt mit 120.",
    )
    re_kontra_points: int = _f(
        "Points added for each of Re and Kontra announced.",
        "IV.1: '2 Zusatzpunkte'.",
        "TSR 7.2.2.",
        de="Punkte für jedes angesagte Re und Kontra.",
        low=0,
        high=100,
    )
    re_kontra_doubles: bool = _f(
        "Re and Kontra each double the game value instead of adding points.",
        "No.",
        "No.",
        de="Re und Kontra verdoppeln jeweils den Spielwert, statt Punkte dazuzugeben.",
    )

    # --- scoring (research §3.4) ---
    counting: Literal["plus-minus", "plus", "minus"] = _f(
        "'plus-minus': winners +value, losers -value (sums to zero); 'plus': only winners "
        "write their points; 'minus': only losers write -value.",
        "V.: 'Es werden nur Pluspunkte für die Gewinner notiert'.",
        "TSR 7.2: plus-minus.",
        de=(
            "'plus-minus': Gewinner +Wert, Verlierer -Wert (Summe null); 'plus': "
            "nur die Gewinner schreiben ihre Punkte; 'minus': nur die Verlierer "
            "schreiben -Wert."
        ),
    )
    solo_factor: int = _f(
        "The soloist scores this many times the game value; each opponent once.",
        "Decoded from the Verwerfen table (15 = 3 x 5) (research §2.1).",
        "TSR 7.2.",
        de="Der Solist schreibt den Spielwert so viele Male, jeder Gegenspieler einmal.",
        low=1,
        high=10,
    )
    level_points: int = _f(
        "Points for each of unter 90, unter 60, unter 30 and schwarz of the losers.",
        "V.: one point each.",
        "TSR 7.2.1: one point each.",
        de="Punkte für jede Stufe der Verlierer: unter 90, unter 60, unter 30 und schwarz.",
        low=0,
        high=100,
    )
    absage_points: int = _f(
        "Points for each Absage said (keine 90, 60, 30, schwarz; skipped levels count).",
        "V.: 'keine 90 angesagt usw. jeweils 1 Punkt dazu'.",
        "TSR 7.2.2: one point each.",
        de=(
            "Punkte für jede gesagte Absage (keine 90, 60, 30, schwarz; "
            "übersprungene Stufen zählen)."
        ),
        low=0,
        high=100,
    )
    reached_points: int = _f(
        "Points for reaching 120 against keine 90, 90 against keine 60, 60 against keine 30, "
        "30 against schwarz.",
        "V.: '120 Augen gegen keine 90 erreicht' and so on, one point each.",
        "TSR 7.2.3: one point each.",
        de=(
            "Punkte für erreichte 120 gegen keine 90, 90 gegen keine 60, 60 gegen "
            "keine 30, 30 gegen schwarz."
        ),
        low=0,
        high=100,
    )
    gegen_die_alten: Literal["off", "normal", "always"] = _f(
        "+1 for winning against the party that made the game: 'normal' (Kontra wins a "
        "normal game), 'always' (also against a soloist and an Armut party), 'off'.",
        "V.: 'gegen die Alten (oder die anderen spielbestimmenden Parteien)' (A2).",
        "TSR 7.2.4: a Sonderpunkt of normal games.",
        de=(
            "Gegen die Alten: +1 für den Sieg über die Partei, die das Spiel macht:"
            " 'normal' (Kontra gewinnt ein Normalspiel), 'always' (auch gegen "
            "Solisten und Armut-Partei), 'off' (aus)."
        ),
    )
    fox_game_types: tuple[str, ...] = _f(
        "Game types in which a Fuchs (Karo ace) caught by the other party scores +1.",
        "II.2: normal games and the Karo-Trumpf-Solo (the Stilles Solo is one) (A7).",
        "TSR 7.2.4: normal games only.",
        de="Spielarten, in denen ein Fuchs (Karo-Ass), den die andere Partei fängt, +1 zählt.",
        members=GAME_TYPES,
    )
    karlchen: bool = _f(
        "+1 when the Kreuz Bube wins the last trick (normal games).",
        "II.3.",
        "TSR 7.2.4.",
        de="Karlchen: +1, wenn der Kreuz-Bube den letzten Stich macht (Normalspiele).",
    )
    doppelkarlchen: bool = _f(
        "+1 more when both Kreuz Buben of one party fall in the last trick and one wins it.",
        "II.3: 'gibt es 2 Sonderpunkte' (A12).",
        "Not in the TSR.",
        de=(
            "Doppelkarlchen: noch +1, wenn beide Kreuz-Buben einer Partei im "
            "letzten Stich fallen und einer ihn macht."
        ),
    )
    karlchen_gefangen: bool = _f(
        "+1 for each Kreuz Bube of the other party caught in the last trick.",
        "Not in the text.",
        "Not in the TSR.",
        de="+1 für jeden Kreuz-Buben der anderen Partei, der im letzten Stich gefangen wird.",
    )
    doppelkopf_min_augen: int = _f(
        "A trick of at least this many Augen scores +1 for its winner in normal games (0: off).",
        "V.: 'Doppelkopf - 40 und mehr Augen in einem Stich'.",
        "TSR 7.2.4.",
        de=(
            "Doppelkopf: ein Stich mit mindestens so vielen Augen zählt im "
            "Normalspiel +1 für den, der ihn macht (0: aus)."
        ),
        low=0,
        high=240,
    )
    extras_netting: Literal["net", "separate"] = _f(
        "Sonderpunkte of both parties are netted against the winners' value ('net'), or "
        "each party writes its own ('separate').",
        "Not stated: netted, a net value of 0 or less scores 0 (A15).",
        "TSR 7.2.4: netted first among themselves, then against the game value.",
        de=(
            "Die Sonderpunkte beider Parteien werden mit dem Wert der Gewinner "
            "verrechnet ('net'), oder jede Partei schreibt ihre eigenen "
            "('separate')."
        ),
    )
    no_winner: Literal["levels", "zero"] = _f(
        "Both parties missed their Absagen: each side scores its level points and the "
        "'reached against an Absage' points, netted ('levels'), or nothing ('zero').",
        "Not stated: as the DDV (A16).",
        "TSR 6.4: no winner, the Absagen do not count (A16).",
        de=(
            "Beide Parteien verfehlen ihre Absagen: jede Seite bekommt ihre "
            "Stufenpunkte und die Punkte für 'gegen eine Absage erreicht', "
            "verrechnet ('levels'), oder nichts ('zero')."
        ),
    )
    bock_triggers: tuple[str, ...] = _f(
        "Events after which the list plays a Bock round (values doubled): '120-120', "
        "'announced-lost' (a party that said Re/Kontra lost), 'solo-lost'.",
        "No Bock.",
        "No Bock.",
        de=(
            "Was eine Bockrunde der Liste auslöst (Werte doppelt): '120-120', "
            "'announced-lost' (eine Partei mit Re/Kontra verliert), 'solo-lost' "
            "(ein Solo geht verloren)."
        ),
        members=BOCK_TRIGGERS,
    )

    # --- violations and the list (research §3.5 and §1.7) ---
    verwerfen: Literal["table", "graded"] = _f(
        "How a Verwerfen (revoke, or a seat that leaves or times out) is scored: the "
        "Wielandstraße 'table' or the DDV 'graded' penalties.",
        "V. table: 6/15/6/5/6/5 plus 2 per Re/Kontra announcement (A14).",
        "TSR 9: serious violation, culprit -12 (-3 per opposing Absage), others +4 (+1).",
        de=(
            "Wie ein Verwerfen (Farbe nicht bedient, oder ein Platz geht oder "
            "überzieht die Zeit) gewertet wird: die Tabelle der Wielandstraße "
            "('table') oder die gestuften Strafen des DDV ('graded')."
        ),
    )
    duty_solos: int = _f(
        "Pflicht-Soli each player owes per list.",
        "II.5: one per Vorrunde.",
        "TSR 5.2: one per Spielrunde.",
        de="Pflichtsoli, die jeder Spieler je Liste schuldet.",
        low=0,
        high=10,
    )
    duty_enforcement: Literal["penalty", "forced"] = _f(
        "A missing Pflicht-Solo: 'penalty' points at the end, or the player is 'forced' "
        "(vorgeführt) when the owed solos equal the games left.",
        "II.5: 15 points off the Vorrunde total.",
        "TSR 5.2: Vorführung.",
        de=(
            "Ein fehlendes Pflichtsolo: Strafpunkte am Ende ('penalty'), oder der "
            "Spieler wird vorgeführt ('forced'), sobald er so viele Soli schuldet, "
            "wie Spiele übrig sind."
        ),
    )
    duty_penalty: int = _f(
        "Points taken off for each Pflicht-Solo not played (enforcement 'penalty').",
        "II.5: 15.",
        "n/a.",
        de="Abzug für jedes nicht gespielte Pflichtsolo (bei 'penalty').",
        low=0,
        high=1000,
    )
    duty_same_dealer_again: bool = _f(
        "After a Pflicht-Solo the same dealer deals again (not after a Vorführung).",
        "Not stated: yes (A1).",
        "TSR 5.2.",
        de=(
            "Nach einem Pflichtsolo gibt derselbe Geber noch einmal (nicht nach einer Vorführung)."
        ),
    )
    redeal_counts_as_game: bool = _f(
        "A redeal (Neu Geben, Schmeißen, Armut nobody took) counts as a game of the list.",
        "Not stated: no (A9, A11).",
        "n/a.",
        de=(
            "Ein neu gegebenes Spiel (Neu Geben, Schmeißen, Armut, die keiner nimmt) zählt als "
            "Spiel der Liste."
        ),
    )
    games_per_list: int = _f(
        "Games of a list at a 4-table (a 5-table plays games_per_list_five).",
        "VI: 8 per Gruppenspiel.",
        "TSR 8: 24 per Spielrunde.",
        de="Spiele einer Liste am Vierertisch (am Fünfertisch gilt games_per_list_five).",
        low=1,
        high=1000,
    )
    games_per_list_five: int = _f(
        "Games of a list at a 5-table, where the dealer sits out.",
        "VI: 10.",
        "TSR 10: 30.",
        de="Spiele einer Liste am Fünfertisch, an dem der Geber aussetzt.",
        low=1,
        high=1000,
    )

    def counts_as_duty(self, game_type: str, *, failed_hochzeit: bool = False) -> bool:
        """Whether a solo of ``game_type`` (``solo-still``: a Stilles Solo; ``failed_hochzeit``:
        a Hochzeit without partner) by a seat that owes a Pflicht-Solo is it. The engine, the
        score sheet and the bots read the rule here."""
        if failed_hochzeit:
            return self.failed_hochzeit_counts_as_duty
        if game_type == "solo-still":
            return self.silent_solo_counts_as_duty
        return True

    def soloist_leads(self, duty: bool) -> bool:
        """Whether the soloist leads trick 1 of a declared solo (``duty``: a Pflicht-Solo, else
        a Lust-Solo); else Vorhand does. The engine and the bots read the rule here."""
        return (self.duty_solo_leader if duty else self.lust_solo_leader) == "soloist"

    def with_options(self, options: object = None) -> "Profile":
        """This profile with a table's overrides; unknown or mistyped options get one line."""
        if not options and (options is None or isinstance(options, dict)):
            return self
        if not isinstance(options, dict):
            raise RecordError("options must be an object of setting overrides")
        changes: dict[str, Any] = {}
        for key, value in options.items():
            spec = _SPECS.get(key)
            if spec is None:
                raise RecordError(f"unknown option {key!r} for doppelkopf")
            changes[key] = _check_value(key, spec, value)
        out = replace(self, **changes)
        out.check()
        return out

    def check(self) -> None:
        """Refuse settings that contradict each other."""
        if self.solo_conflict == "solo-rank":
            ranked = {t for group in self.solo_rank for t in group}
            missing = [t for t in self.solo_types if t not in ranked]
            if missing:
                raise RecordError(f"option 'solo_rank' must rank every solo type ({missing[0]})")
        kinds = [k for group in self.reservation_order for k in group]
        if sorted(kinds) != sorted(RESERVATION_KINDS):
            raise RecordError(
                "option 'reservation_order' must name each of "
                + ", ".join(RESERVATION_KINDS)
                + " once"
            )

    def to_json(self) -> dict[str, Any]:
        """Every setting by name, as JSON."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out

    def overrides_against(self, base: "Profile") -> dict[str, Any]:
        """The options that turn ``base`` into this profile (for records)."""
        mine, theirs = self.to_json(), base.to_json()
        return {k: v for k, v in mine.items() if k != "name" and theirs[k] != v}


_SPECS: dict[str, dict[str, Any]] = {
    f.name: {"type": f.type, **f.metadata} for f in fields(Profile) if not f.metadata.get("skip")
}
for _spec in _SPECS.values():  # a setting with fixed choices takes them from its Literal type
    if get_origin(_spec["type"]) is Literal:
        _spec["choices"] = get_args(_spec["type"])


def _check_value(key: str, spec: dict[str, Any], value: object) -> Any:
    """``value`` as the setting ``key`` needs it, or ``RecordError`` naming what is wrong."""
    kind = spec["type"]
    if kind in (bool, "bool"):
        if not isinstance(value, bool):
            raise RecordError(f"option {key!r} must be true or false, not {value!r}")
        return value
    if kind in (int, "int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordError(f"option {key!r} must be a whole number, not {value!r}")
        lo, hi = spec["low"], spec["high"]
        if not lo <= value <= hi:
            raise RecordError(f"option {key!r} must be between {lo} and {hi}, not {value}")
        return value
    if "choices" in spec:
        choices = spec["choices"]
        if value not in choices:
            raise RecordError(f"option {key!r} must be one of {', '.join(choices)}, not {value!r}")
        return value
    if "members" in spec:
        allowed = spec["members"]
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise RecordError(f"option {key!r} must be a list of names")
        for v in value:
            if v not in allowed:
                raise RecordError(f"option {key!r}: unknown name {v!r}")
        if len(set(value)) != len(value):
            raise RecordError(f"option {key!r} names something twice")
        return tuple(value)
    allowed = spec["groups"]
    if not isinstance(value, list | tuple) or not all(
        isinstance(g, list | tuple) and g and all(isinstance(v, str) for v in g) for g in value
    ):
        raise RecordError(f"option {key!r} must be a list of non-empty lists of names")
    seen: set[str] = set()
    for group in value:
        for v in group:
            if v not in allowed:
                raise RecordError(f"option {key!r}: unknown name {v!r}")
            if v in seen:
                raise RecordError(f"option {key!r} names {v!r} twice")
            seen.add(v)
    return tuple(tuple(g) for g in value)


WIELANDSTRASSE = Profile(
    name="wielandstrasse",
    with_nines=True,
    dulle_is_trump=True,
    dulle_order="second-beats-first",
    dulle_last_trick_reversal=False,
    dulle_order_with_sau="first-beats-second",
    sau=True,
    sau_deadline="before-first-ace",
    sau_in_solo=("trumpf", "still"),
    sau_in_armut=False,
    supersau=False,
    solo_types=("damen", "buben", "kreuz", "pik", "herz", "trumpf", "fleischlos"),
    solo_rank=(("damen",), ("buben",), ("kreuz", "pik", "herz"), ("trumpf",), ("fleischlos",)),
    color_solo_keeps_dulle=True,
    reservation_order=(
        ("pflicht-solo", "lust-solo"),
        ("neu-geben",),
        ("schmeissen",),
        ("armut",),
        ("hochzeit",),
    ),
    solo_conflict="solo-rank",
    duty_solo_leader="soloist",
    lust_solo_leader="vorhand",
    silent_solo=True,
    silent_solo_counts_as_duty=True,
    failed_hochzeit_counts_as_duty=False,
    hochzeit_partner="fehl-led",
    hochzeit_tricks=3,
    armut=True,
    armut_max_trumps=3,
    armut_cards="trumps",
    armut_fox_is_trump=True,
    armut_return_declare="count",
    armut_two="first",
    schmeissen_min_nines=5,
    neu_geben_below_trumps=3,
    re_kontra_min_cards=11,
    reply="fixed",
    reply_min_cards=10,
    late_reply_absage=True,
    keine_90_min_cards=10,
    keine_60_min_cards=8,
    keine_30_min_cards=6,
    schwarz_min_cards=4,
    absage_requires_own_ansage=True,
    skip_levels=True,
    hochzeit_shift=True,
    both_announced="last-needs-121",
    kontra_only_needs_121=True,
    re_kontra_points=2,
    re_kontra_doubles=False,
    counting="plus",
    solo_factor=3,
    level_points=1,
    absage_points=1,
    reached_points=1,
    gegen_die_alten="always",
    fox_game_types=("normal", "hochzeit", "armut", "solo-trumpf", "solo-still"),
    karlchen=True,
    doppelkarlchen=True,
    karlchen_gefangen=False,
    doppelkopf_min_augen=40,
    extras_netting="net",
    no_winner="levels",
    bock_triggers=(),
    verwerfen="table",
    duty_solos=1,
    duty_enforcement="penalty",
    duty_penalty=15,
    duty_same_dealer_again=True,
    redeal_counts_as_game=False,
    games_per_list=8,
    games_per_list_five=10,
)
"""The default profile: seed 004, read with RULINGS.md and the defaults A1-A18."""

DDV = Profile(
    name="ddv",
    with_nines=True,
    dulle_is_trump=True,
    dulle_order="first-beats-second",
    dulle_last_trick_reversal=False,
    dulle_order_with_sau="same",
    sau=False,
    sau_deadline="before-first-ace",
    sau_in_solo=(),
    sau_in_armut=False,
    supersau=False,
    solo_types=("damen", "buben", "kreuz", "pik", "herz", "trumpf", "fleischlos"),
    solo_rank=(("damen", "buben", "kreuz", "pik", "herz", "trumpf", "fleischlos"),),
    color_solo_keeps_dulle=True,
    reservation_order=(
        ("pflicht-solo",),
        ("lust-solo",),
        ("hochzeit",),
        ("armut",),
        ("neu-geben",),
        ("schmeissen",),
    ),
    solo_conflict="seat-order",
    duty_solo_leader="soloist",
    lust_solo_leader="vorhand",
    silent_solo=True,
    silent_solo_counts_as_duty=False,
    failed_hochzeit_counts_as_duty=False,
    hochzeit_partner="any",
    hochzeit_tricks=3,
    armut=False,
    armut_max_trumps=3,
    armut_cards="trumps",
    armut_fox_is_trump=True,
    armut_return_declare="count",
    armut_two="first",
    schmeissen_min_nines=0,
    neu_geben_below_trumps=0,
    re_kontra_min_cards=11,
    reply="one-less",
    reply_min_cards=10,
    late_reply_absage=False,
    keine_90_min_cards=10,
    keine_60_min_cards=9,
    keine_30_min_cards=8,
    schwarz_min_cards=7,
    absage_requires_own_ansage=True,
    skip_levels=True,
    hochzeit_shift=True,
    both_announced="re-needs-121",
    kontra_only_needs_121=True,
    re_kontra_points=2,
    re_kontra_doubles=False,
    counting="plus-minus",
    solo_factor=3,
    level_points=1,
    absage_points=1,
    reached_points=1,
    gegen_die_alten="normal",
    fox_game_types=("normal", "hochzeit", "armut"),
    karlchen=True,
    doppelkarlchen=False,
    karlchen_gefangen=False,
    doppelkopf_min_augen=40,
    extras_netting="net",
    no_winner="levels",
    bock_triggers=(),
    verwerfen="graded",
    duty_solos=1,
    duty_enforcement="forced",
    duty_penalty=0,
    duty_same_dealer_again=True,
    redeal_counts_as_game=False,
    games_per_list=24,
    games_per_list_five=30,
)
"""The DDV tournament rules (TSR, July 2000), research §1."""

PROFILES: dict[str, Profile] = {p.name: p for p in (WIELANDSTRASSE, DDV)}
DEFAULT_PROFILE = "wielandstrasse"


def get_profile(name: object, options: object = None) -> Profile:
    """The profile called ``name`` with ``options`` applied; one line for anything unknown."""
    if not isinstance(name, str) or name not in PROFILES:
        raise RecordError(f"unknown doppelkopf profile {name!r} (known: {', '.join(PROFILES)})")
    return PROFILES[name].with_options(options)


def settings(name: str) -> dict[str, Any]:
    """A profile's settings as JSON."""
    return get_profile(name).to_json()


def setting_docs() -> list[dict[str, str]]:
    """Each setting with its meaning (``doc``, in German ``doc_de``) and each profile's reading
    (for the rules docs and the UI)."""
    return [
        {
            "name": name,
            "doc": s["doc"],
            "doc_de": s["doc_de"],
            "wielandstrasse": s["wielandstrasse"],
            "ddv": s["ddv"],
        }
        for name, s in _SPECS.items()
    ]


def settings_table() -> str:
    """The Markdown table of every setting of both profiles, with the reading behind each value
    (``docs/rules/doppelkopf.md`` holds it; a test keeps the two in step)."""

    def show(value: Any) -> str:
        if isinstance(value, tuple):
            if value and isinstance(value[0], tuple):
                return " > ".join("/".join(g) for g in value)
            return ", ".join(str(v) for v in value) if value else "–"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    lines = [
        "| setting | `wielandstrasse` | `ddv` | meaning; the reading behind each value |",
        "|---|---|---|---|",
    ]
    for doc in setting_docs():
        key = doc["name"]
        ws, ddv = show(getattr(WIELANDSTRASSE, key)), show(getattr(DDV, key))
        lines.append(
            f"| `{key}` | {ws} | {ddv} | {doc['doc']} *Wielandstraße:* {doc['wielandstrasse']}"
            f" *DDV:* {doc['ddv']} |"
        )
    return "\n".join(lines) + "\n"
