"""Cego's rule profiles as frozen data (PokerKit style): the engine reads settings, never names.

A profile is a :class:`Profile` value with a name. A table may override any setting
(``profile.with_options({"ulti_value": 50})``); the record stores the overrides as ``options``.
Each field's metadata holds the reading behind it; ``docs/rules/cego.md`` lists them all.
"""

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from stichwerk.core.errors import RecordError

FULL_LADDER = ("cego", "halbe", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss")
"""Every ladder contract, lowest first. A profile's ladder is this list or a part of it."""


def _s(doc: str, *, de: str) -> Any:
    """A settings field: its meaning in English and in German (``doc_de``)."""
    return field(metadata={"doc": doc, "doc_de": de})


@dataclass(frozen=True)
class Profile:
    """Every setting of a Cego table. Values are the ``schwarzwald`` profile's."""

    name: str = _s(
        "Profile name the settings started from.",
        de="Das Profil, von dem die Einstellungen ausgehen.",
    )
    players: int = _s(
        "Players a table of this profile seats by default (5: the dealer sits out).",
        de="So viele Spieler hat ein Tisch dieses Profils von sich aus (5: der Geber setzt aus).",
    )
    allowed_players: tuple[int, ...] = _s(
        "Table sizes allowed (5 = four dealt in, dealer sits).",
        de="Erlaubte Tischgrößen (5 = vier spielen, der Geber setzt aus).",
    )
    ladder: tuple[str, ...] = _s(
        "The auction's contracts, lowest first; value = position.",
        de="Die Spiele der Steigerung, das niedrigste zuerst; Wert = Platz in der Reihe.",
    )
    counting: Literal["pairs", "triples"] = _s(
        "'pairs': two-card count in exact half points, 79 in all, 40 wins; "
        "'triples': three-card count, 70 in all, 36 wins.",
        de=(
            "'pairs': zu zweien gezählt, in genauen halben Punkten, 79 im Ganzen, "
            "40 gewinnt; 'triples': zu dreien gezählt, 70 im Ganzen, 36 gewinnt."
        ),
    )
    solo: bool = _s(
        "Solo (own hand, blind untouched, counts for the soloist) may be announced.",
        de=(
            "Solo (mit dem eigenen Blatt, der Blinde bleibt liegen und zählt für "
            "den Solisten) darf angesagt werden."
        ),
    )
    ulti: bool = _s(
        "Ulti (last trick won with the Geiß) may be announced in the Solo round.",
        de="Ulti (letzter Stich mit der Geiß gemacht) darf in der Solorunde angesagt werden.",
    )
    soli_ulti: bool = _s(
        "Soli-Ulti (Solo and Ulti at once, scored as two games) exists.",
        de="Soli-Ulti (Solo und Ulti zugleich, als zwei Spiele gewertet) gibt es.",
    )
    gegensolo: bool = _s(
        "A standing Solo may be answered with Gegensolo (then an auction).",
        de="Gegen ein stehendes Solo darf Gegensolo gesagt werden (dann wird gesteigert).",
    )
    gegensolo_raise: int = _s(
        "How much Gegensolo adds to the auction contract's value.",
        de="Um so viel erhöht Gegensolo den Wert des ersteigerten Spiels.",
    )
    soloist_bids_after_gegensolo: bool = _s(
        "The soloist may join the auction after Gegensolo.",
        de="Nach einem Gegensolo darf der Solist mitsteigern.",
    )
    piccolo: bool = _s(
        "Piccolo (exactly one trick) may be announced in the special round.",
        de="Piccolo (genau ein Stich) darf in der Sonderrunde angesagt werden.",
    )
    bettel: bool = _s(
        "Bettel (no trick) may be announced in the special round.",
        de="Bettel (kein Stich) darf in der Sonderrunde angesagt werden.",
    )
    raeuber: bool = _s(
        "Vorhand may announce Räuber when everybody says gut to his forced Cego.",
        de="Vorhand darf Räuber ansagen, wenn alle zu ihrem Pflicht-Cego gut sagen.",
    )
    raeuber_nach_regeln: bool = _s(
        "Räuber nach Regeln: T22 must fall in trick 1, T21 in 2, T1 in 3.",
        de=(
            "Räuber nach Regeln: der Gstieß (T22) muss im 1. Stich fallen, der Mund"
            " (T21) im 2., die Geiß (T1) im 3."
        ),
    )
    jungfrau: int = _s(
        "In Räuber a seat without a trick receives this from every other (0: off).",
        de=(
            "Jungfrau: wer im Räuber keinen Stich macht, bekommt so viel von jedem "
            "anderen (0: aus)."
        ),
    )
    raeuber_value: int = _s(
        "What the Räuber loser pays every other seat.",
        de="Was der Verlierer im Räuber jedem anderen zahlt.",
    )
    raeuber_announcer_factor: int = _s(
        "The announcer pays this many times over when he loses.",
        de="Verliert der Ansager, zahlt er so viele Male.",
    )
    drescher: bool = _s(
        "Drescher deals (taker of the last trick loses) may be agreed.",
        de="Drescher-Spiele (wer den letzten Stich macht, verliert) dürfen ausgemacht werden.",
    )
    drescher_value: int = _s(
        "What the Drescher loser pays every other seat.",
        de="Was der Verlierer im Drescher jedem anderen zahlt.",
    )
    pflichtraeuber: bool = _s(
        "Pflichträuber deals (Vorhand must announce Räuber) may be agreed.",
        de="Pflichträuber-Spiele (Vorhand muss Räuber ansagen) dürfen ausgemacht werden.",
    )
    ulti_value: int = _s(
        "Written score of Ulti, won or lost.",
        de="So viel schreibt ein Ulti, gewonnen oder verloren.",
    )
    piccolo_value: int = _s(
        "Written score of Piccolo, won or lost.",
        de="So viel schreibt ein Piccolo, gewonnen oder verloren.",
    )
    bettel_value: int = _s(
        "Written score of Bettel, won or lost.",
        de="So viel schreibt ein Bettel, gewonnen oder verloren.",
    )
    solo_value: int = _s("Game value of a Solo.", de="Spielwert eines Solos.")
    solo_win_factor: int = _s(
        "A won Solo's written score is multiplied by this after rounding.",
        de="Ein gewonnenes Solo wird nach dem Aufrunden mit dieser Zahl malgenommen.",
    )
    berg: int = _s(
        "Berg: a side without a trick scores value × this against it.",
        de="Berg: eine Seite ohne Stich bekommt Wert × diese Zahl gegen sich geschrieben.",
    )
    fach: int = _s("Points in one Fach.", de="Punkte in einem Fach.")
    round_to: int = _s(
        "Written scores are rounded up to a multiple of this.",
        de="Geschrieben wird auf ein Vielfaches dieser Zahl aufgerundet.",
    )
    shown_leere_ordinary: bool = _s(
        "Laid-out Leere are ordinary hand cards (may win, need not be led first).",
        de=(
            "Aufgelegte Leere sind gewöhnliche Handkarten (dürfen stechen, müssen "
            "nicht zuerst ausgespielt werden)."
        ),
    )
    picture_for_leere: bool = _s(
        "Sonderregel: without a Leere a picture card may be laid out.",
        de="Sonderregel: ohne Leere darf ein Bild aufgelegt werden.",
    )
    withdraw_leere: bool = _s(
        "Sonderregel: after taking the blind a laid-out Leere may be swapped for a higher card "
        "of its suit found in the blind.",
        de=(
            "Sonderregel: nach dem Aufnehmen des Blinden darf eine aufgelegte Leere"
            " gegen eine höhere Karte ihrer Farbe aus dem Blinden getauscht werden."
        ),
    )
    forced_press_shown: tuple[Literal["zwei-leere", "zwei-verschiedene"], ...] = _s(
        "Contracts whose forced press is shown before play.",
        de="Spiele, deren zwangsweise gedrückte Karte vor dem Ausspielen gezeigt wird.",
    )
    pflichtsolo: bool = _s(
        "Pflichtsolo hands must announce Solo; the declarer may aufdecken.",
        de="Wer ein Pflichtsolo hat, muss Solo ansagen; der Spieler darf aufdecken lassen.",
    )
    pflichtsolo_trumps: int = _s(
        "Trumps (four dealt in) that always make a Pflichtsolo.",
        de="So viele Trümpfe (bei vier Spielern) sind immer ein Pflichtsolo.",
    )
    pflichtsolo_short_trumps: int = _s(
        "Trumps (four dealt in) that make one with the next two.",
        de="So viele Trümpfe (bei vier Spielern) sind mit den nächsten zwei Bedingungen eines.",
    )
    pflichtsolo_high_from: int = _s(
        "Trumps from this number up count as 'above 17'.",
        de="Trümpfe ab dieser Zahl gelten als 'über 17'.",
    )
    pflichtsolo_high_count: int = _s(
        "How many of those the shorter Pflichtsolo needs.",
        de="So viele davon braucht das kürzere Pflichtsolo.",
    )
    pflichtsolo_max_suits: int = _s(
        "At most this many colours in the shorter Pflichtsolo hand.",
        de="Höchstens so viele Farben im Blatt des kürzeren Pflichtsolos.",
    )
    stop_when_decided: bool = _s(
        "Piccolo, Bettel and Ulti end as soon as their outcome is known.",
        de="Piccolo, Bettel und Ulti enden, sobald ihr Ausgang feststeht.",
    )
    stake: Literal["", "ganze", "halbe"] = _s(
        "Money: 'ganze' (1 cent a point), 'halbe' (½ cent) or '' (points only).",
        de="Geld: 'ganze' (1 Cent der Punkt), 'halbe' (½ Cent) oder '' (nur Punkte).",
    )

    def with_options(self, options: object = None) -> "Profile":
        """This profile with a table's overrides; an unknown or ill-typed setting is an error."""
        if not options and (options is None or isinstance(options, dict)):
            return self
        if not isinstance(options, dict):
            raise RecordError("options must be an object of setting overrides")
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            if key not in known or key == "name":
                raise RecordError(f"unknown Cego setting {key!r}")
            current = getattr(self, key)
            changes[key] = _coerce(key, value, current)
        profile = replace(self, **changes)
        profile.check()
        return profile

    def check(self) -> None:
        """Refuse settings that contradict each other."""
        if not self.ladder or self.ladder[0] != "cego":
            raise RecordError("the ladder must start with 'cego'")
        positions = [FULL_LADDER.index(c) for c in self.ladder if c in FULL_LADDER]
        if len(positions) != len(self.ladder) or positions != sorted(set(positions)):
            raise RecordError(f"the ladder must be contracts of {list(FULL_LADDER)} in that order")
        if self.counting not in ("pairs", "triples"):
            raise RecordError("counting must be 'pairs' or 'triples'")
        if self.stake not in ("", "ganze", "halbe"):
            raise RecordError("stake must be 'ganze', 'halbe' or ''")
        if not set(self.allowed_players) <= {3, 4, 5} or self.players not in self.allowed_players:
            raise RecordError("players must be 3, 4 or 5 and among allowed_players")
        if self.soli_ulti and not (self.solo and self.ulti):
            raise RecordError("soli_ulti needs solo and ulti")
        for name in self.forced_press_shown:
            if name not in ("zwei-leere", "zwei-verschiedene"):
                raise RecordError(f"forced_press_shown: {name!r} has no forced press")

    def value_of(self, contract: str) -> int:
        """The game value of a ladder contract (its position, from 1)."""
        return self.ladder.index(contract) + 1

    def to_json(self) -> dict[str, Any]:
        """Every setting by name, as JSON."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


def _coerce(key: str, value: Any, current: Any) -> Any:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RecordError(f"setting {key!r} must be true or false")
        return value
    if isinstance(current, int):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RecordError(f"setting {key!r} must be a whole number ≥ 0")
        return value
    if isinstance(current, str):
        if not isinstance(value, str):
            raise RecordError(f"setting {key!r} must be a string")
        return value
    if isinstance(current, tuple):
        if not isinstance(value, list | tuple) or not all(isinstance(v, int | str) for v in value):
            raise RecordError(f"setting {key!r} must be a list")
        return tuple(value)
    raise RecordError(f"setting {key!r} cannot be overridden")  # pragma: no cover


SCHWARZWALD = Profile(
    name="schwarzwald",
    players=4,
    allowed_players=(3, 4, 5),
    ladder=FULL_LADDER,
    counting="pairs",
    solo=True,
    ulti=True,
    soli_ulti=False,
    gegensolo=True,
    gegensolo_raise=1,
    soloist_bids_after_gegensolo=False,
    piccolo=True,
    bettel=True,
    raeuber=True,
    raeuber_nach_regeln=False,
    jungfrau=0,
    raeuber_value=40,
    raeuber_announcer_factor=2,
    drescher=False,
    drescher_value=40,
    pflichtraeuber=False,
    ulti_value=80,
    piccolo_value=40,
    bettel_value=30,
    solo_value=1,
    solo_win_factor=2,
    berg=40,
    fach=5,
    round_to=10,
    shown_leere_ordinary=False,
    picture_for_leere=False,
    withdraw_leere=False,
    forced_press_shown=(),
    pflichtsolo=False,
    pflichtsolo_trumps=8,
    pflichtsolo_short_trumps=7,
    pflichtsolo_high_from=18,
    pflichtsolo_high_count=2,
    pflichtsolo_max_suits=2,
    stop_when_decided=True,
    stake="",
)
"""Seeds 001 and 003, the Schwarzwaldmeisterschaft rules (the default)."""

TITISEE = replace(
    SCHWARZWALD,
    name="titisee",
    soli_ulti=True,
    raeuber_nach_regeln=True,
    jungfrau=80,
    drescher=True,
    pflichtraeuber=True,
    ulti_value=50,
    piccolo_value=50,
    bettel_value=50,
    picture_for_leere=True,
    withdraw_leere=True,
    pflichtsolo=True,
    stake="ganze",
)
"""Seed 000: Titisee and Neustadt in the late 1970s."""

ZEGO = replace(
    SCHWARZWALD,
    name="zego",
    players=3,
    ladder=("cego", "eine", "leere", "zwei-leere", "zwei-verschiedene", "geiss"),
    ulti=False,
    piccolo=False,
    bettel=False,
    raeuber=False,
    shown_leere_ordinary=True,
    forced_press_shown=("zwei-verschiedene",),
    pflichtsolo=True,
)
"""Seed 002: the Zego bidding page (three players, no Halbe)."""

PROFILES: dict[str, Profile] = {r.name: r for r in (SCHWARZWALD, TITISEE, ZEGO)}
DEFAULT_PROFILE = "schwarzwald"


def get_profile(name: object, options: object = None) -> Profile:
    """The profile called ``name`` with a table's ``options`` applied; one line for anything
    unknown."""
    if not isinstance(name, str) or name not in PROFILES:
        raise RecordError(f"unknown Cego profile {name!r} (known: {', '.join(PROFILES)})")
    return PROFILES[name].with_options(options)


def settings_doc(lang: str = "en") -> list[tuple[str, str]]:
    """(setting, meaning) for every setting, in declaration order; the meaning in German for
    ``lang`` "de", else in English."""
    key = "doc_de" if lang == "de" else "doc"
    return [(f.name, str(f.metadata[key])) for f in fields(Profile) if f.name != "name"]


def settings_table() -> str:
    """The Markdown table of every setting of every profile (``docs/rules/cego.md`` holds it)."""

    def show(value: Any) -> str:
        if isinstance(value, tuple):
            return ", ".join(str(v) for v in value) if value else "–"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value == "":
            return "–"
        return str(value)

    names = list(PROFILES)
    lines = [
        "| setting | " + " | ".join(f"`{n}`" for n in names) + " | meaning |",
        "|---|" + "---|" * len(names) + "---|",
    ]
    for key, doc in settings_doc():
        values = [show(getattr(PROFILES[n], key)) for n in names]
        lines.append(f"| `{key}` | " + " | ".join(values) + f" | {doc} |")
    return "\n".join(lines) + "\n"
