"""A list's settings: the header line of a score sheet (``{"list": {...}}``).

Everything a table agrees on before the first deal: the game and its profile (with overrides),
the seats and the players' names, who deals first, how many games (or open-ended), the
Pflicht-Soli and their penalty, Bock, Cego's closing rounds. What a header leaves out comes
from the profile (the game's ``series_rules``): a Wielandstraße list is 8 games at a 4-table
(10 at a 5-table) with one Pflicht-Solo each and 15 off for a missing one.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from stichwerk.core.errors import RecordError, StichwerkError
from stichwerk.core.record import check_keys, get_bool, get_int, get_options, get_str
from stichwerk.core.series import DutyEnforcement, Number, SeriesRules
from stichwerk.core.text import clean_line, one_line
from stichwerk.games import get_game

LIST_KEYS = (
    "game", "profile", "options", "seats", "names", "first_dealer", "games", "duty_solos",
    "duty_penalty", "duty_enforcement", "bock", "closing", "title", "duty_owed",
)  # fmt: skip
ENFORCEMENTS: tuple[DutyEnforcement, ...] = ("penalty", "forced", "none")
NAME_LENGTH = 40
TITLE_LENGTH = 120


@dataclass(frozen=True)
class ListSettings:
    """How one list is kept; ``rules`` turns it into the core series' rules."""

    game: str
    profile: str
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    seats: int = 4
    names: tuple[str, ...] = ()
    """The players' names, one per seat (empty: the seats are numbered)."""
    first_dealer: int = 0
    games: int | None = None
    """Counted games before the closing rounds (``None``: open-ended)."""
    duty_solos: int = 0
    duty_penalty: Number = 0
    duty_enforcement: DutyEnforcement = "penalty"
    bock: bool = False
    closing: tuple[str, ...] = ()
    title: str = ""
    duty_owed: tuple[int, ...] | None = None
    """Pflicht-Soli each seat still owes when the list starts (``None``: ``duty_solos`` each).
    A tournament table in its second Vorrunde round owes only what the first left open."""

    def rules(self) -> SeriesRules:
        """The core series' rules for this list (the profile's own, then the header's)."""
        module = get_game(self.game)
        base = SeriesRules(seats=self.seats, dealer_sits=self.seats == 5)
        if module.series_rules is not None:
            base = module.series_rules(self.profile, self.options, self.seats)
        return replace(
            base,
            games=self.games,
            duty_solos=self.duty_solos,
            duty_penalty=self.duty_penalty,
            duty_enforcement=self.duty_enforcement,
            bock=self.bock,
            closing=self.closing,
        )

    def name(self, seat: int) -> str:
        """A seat's name as the sheet shows it."""
        return self.names[seat] if self.names else f"#{seat + 1}"

    def to_json(self) -> dict[str, Any]:
        """The header line's object, every setting spelled out (``duty_owed`` only where the
        seats start owing different numbers of Pflicht-Soli)."""
        out: dict[str, Any] = {
            "game": self.game,
            "profile": self.profile,
            "options": dict(self.options),
            "seats": self.seats,
            "names": list(self.names),
            "first_dealer": self.first_dealer,
            "games": self.games,
            "duty_solos": self.duty_solos,
            "duty_penalty": self.duty_penalty,
            "duty_enforcement": self.duty_enforcement,
            "bock": self.bock,
            "closing": list(self.closing),
            "title": self.title,
        }
        if self.duty_owed is not None:
            out["duty_owed"] = list(self.duty_owed)
        return out


def read_settings(
    header: Mapping[str, Any] | None, first: Mapping[str, Any] | None = None
) -> ListSettings:
    """The settings of a header (``None``: none given), the profile's defaults filling in what
    it leaves out; without a header the first deal summary names the game, profile and seats.
    Every problem is one line naming the key."""
    obj = dict(header or {})
    what = "list"
    check_keys(obj, LIST_KEYS, what)
    seed = dict(first or {})
    game = get_str(obj, "game", what, default=_str_or(seed.get("game"), ""))
    if not game:
        raise RecordError("the list has no 'game' (cego or doppelkopf)")
    module = get_game(game)
    profile = get_str(obj, "profile", what, default=_str_or(seed.get("profile"), ""))
    profile = profile or module.profiles[0]
    if profile not in module.profiles:
        raise RecordError(
            f"'profile': unknown {game} profile {profile!r} (known: {', '.join(module.profiles)})"
        )
    options = get_options(obj, what) if "options" in obj else get_options(seed, "summary")
    seats = get_int(obj, "seats", what, default=_seats_of(module.name, seed, profile, options))
    _trial_deal(game, profile, options, seats)
    names = _names(obj.get("names", []), seats)
    first_dealer = get_int(obj, "first_dealer", what, default=0)
    if not 0 <= first_dealer < seats:
        raise RecordError(f"'first_dealer' must be a seat from 0 to {seats - 1}")
    base = SeriesRules(seats=seats, dealer_sits=seats == 5)
    if module.series_rules is not None:
        base = module.series_rules(profile, options, seats)
    games: int | None = base.games
    if "games" in obj:
        raw = obj["games"]
        games = None if raw is None else get_int(obj, "games", what, lo=1)
        if games is not None and games > 1000:
            raise RecordError("'games' must be at most 1000 (or null: open-ended)")
    default_duty = base.duty_solos if games == base.games else 0
    duty_solos = get_int(obj, "duty_solos", what, default=default_duty, lo=0)
    if duty_solos > 10:
        raise RecordError("'duty_solos' must be from 0 to 10")
    if duty_solos and not module.duty_solos:
        raise RecordError(f"'duty_solos': {game} has no Pflicht-Soli")
    if duty_solos and games is None:
        raise RecordError("'duty_solos': Pflicht-Soli need a list of a fixed number of games")
    penalty: Number = base.duty_penalty
    if "duty_penalty" in obj:
        raw = obj["duty_penalty"]
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 <= raw <= 1000:
            raise RecordError("'duty_penalty' must be a number from 0 to 1000")
        penalty = raw
    enforcement = _enforcement(
        get_str(obj, "duty_enforcement", what, default=base.duty_enforcement)
    )
    bock = get_bool(obj, "bock", what, default=base.bock)
    closing = _closing(obj.get("closing", []), game, profile, options, seats, games)
    duty_owed = _duty_owed(obj.get("duty_owed"), seats, duty_solos)
    # One clean line, as a name: no newline, NUL or bidi override reaches a page or an export.
    title = get_str(obj, "title", what, default="")
    try:
        title = clean_line(title, "'title'", TITLE_LENGTH)
    except StichwerkError as exc:
        raise RecordError(str(exc)) from None
    return ListSettings(
        game=game,
        profile=profile,
        options=dict(options),
        seats=seats,
        names=names,
        first_dealer=first_dealer,
        games=games,
        duty_solos=duty_solos,
        duty_penalty=penalty,
        duty_enforcement=enforcement,
        bock=bock,
        closing=closing,
        title=title,
        duty_owed=duty_owed,
    )


def stored_header(header: Mapping[str, Any]) -> dict[str, Any]:
    """A header kept before titles were cleaned, made readable: its title loses the characters
    ``read_settings`` now refuses (a list stored with one must still open)."""
    out = dict(header)
    title = out.get("title")
    if isinstance(title, str):
        out["title"] = "".join(c for c in one_line(title) if c.isprintable())[:TITLE_LENGTH]
    return out


def _duty_owed(value: object, seats: int, duty_solos: int) -> tuple[int, ...] | None:
    """Pflicht-Soli each seat owes at the start: one whole number per seat, 0 to
    ``duty_solos``."""
    if value is None:
        return None
    if not duty_solos:
        raise RecordError("'duty_owed' needs a list with Pflicht-Soli ('duty_solos')")
    if (
        not isinstance(value, list)
        or len(value) != seats
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)
        or not all(0 <= n <= duty_solos for n in value)
    ):
        raise RecordError(
            f"'duty_owed' must give each of the {seats} seats 0 to {duty_solos} Pflicht-Soli"
        )
    return tuple(value)


def _str_or(value: object, default: str) -> str:
    return value if isinstance(value, str) else default


def _seats_of(game: str, summary: Mapping[str, Any], profile: str, options: Any) -> int:
    """The seats a summary implies (``seats``, else ``players``), else the usual table."""
    for key in ("seats", "players"):
        value = summary.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    module = get_game(game)
    state = module.new_deal(profile=profile, options=options, dealer=0, seed=0)
    return state.seats


def _trial_deal(game: str, profile: str, options: Any, seats: int) -> None:
    """Let the engine judge the table: its profile, overrides and number of seats."""
    if not 3 <= seats <= 5:
        raise RecordError("'seats' must be 3, 4 or 5")
    try:
        get_game(game).new_deal(profile=profile, options=options, players=seats, dealer=0, seed=0)
    except StichwerkError as exc:
        raise RecordError(f"'seats': {exc}") from None


def _names(value: object, seats: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise RecordError("'names' must be a list of the players' names")
    names = tuple(" ".join(n.split()) for n in value)
    if not names:
        return ()
    if len(names) != seats:
        raise RecordError(f"'names' must name each of the {seats} seats")
    for name in names:
        if not name:
            raise RecordError("'names': a name may not be empty")
        if len(name) > NAME_LENGTH or not name.isprintable():
            raise RecordError(f"'names': {name[:NAME_LENGTH]!r} is too long or not printable")
    if len({n.casefold() for n in names}) != len(names):
        raise RecordError("'names': two players have the same name (add an initial)")
    return names


def _closing(
    value: object, game: str, profile: str, options: Any, seats: int, games: int | None
) -> tuple[str, ...]:
    module = get_game(game)
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise RecordError("'closing' must be a list of closing rounds")
    closing = tuple(value)
    if not closing:
        return closing
    if games is None:
        raise RecordError("'closing': closing rounds need a list of a fixed number of games")
    for kind in closing:
        if kind not in module.deal_types:
            known = ", ".join(module.deal_types) or "none"
            raise RecordError(f"'closing': unknown closing round {kind!r} (known: {known})")
    for kind in dict.fromkeys(closing):
        try:
            module.new_deal(
                profile=profile, options=options, players=seats, dealer=0, seed=0, deal_type=kind
            )
        except StichwerkError as exc:
            raise RecordError(f"'closing': {exc}") from None
    return closing


def _enforcement(value: str) -> DutyEnforcement:
    """``value`` as one of :data:`ENFORCEMENTS`, or ``RecordError`` with one line."""
    for choice in ENFORCEMENTS:
        if value == choice:
            return choice
    raise RecordError(f"'duty_enforcement' must be one of {', '.join(ENFORCEMENTS)}")
