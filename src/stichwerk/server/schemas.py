"""The shapes of the request bodies the HTTP API takes, checked before a route's code runs.

The bodies of the accounts, tables and bots routes are pydantic models FastAPI reads (unknown
keys refused, every string and list bounded). A director's change to a tournament is a strict
discriminated union on ``op``, like the websocket's messages in ``protocol``: the route reads
the body itself (its size limit first, strict JSON), then :func:`parse_change` turns it into one
of the models below or one line saying what is wrong, the same lines the API has always sent
(``unknown op ...``, ``unknown key 'x' for 'draw'``, ``'round' must be a whole number ...``).
What a value means (a name, a date, the typed totals) is the tournament store's to check.
"""

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import PydanticCustomError

from stichwerk.core.errors import one_line

# -- accounts, tables, deals, bots ------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Body):
    username: Annotated[str, Field(max_length=64)]
    password: Annotated[str, Field(max_length=256)]


class PasswordChange(_Body):
    old_password: Annotated[str, Field(max_length=256)]
    new_password: Annotated[str, Field(max_length=256)]


class Invite(_Body):
    invite: Annotated[str, Field(max_length=64)] | None = None


class SeatSpec(_Body):
    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(max_length=40)] | None = None
    """A bot seat's bot; for a person's seat, the bot that stands in while they are away."""
    account: Annotated[str, Field(max_length=64)] | None = None
    """A person's seat given to one of the creator's bot accounts (it plays over the bot
    websocket; ``bot`` stands in for it)."""


class NewTable(_Body):
    game: Annotated[str, Field(max_length=20)]
    profile: Annotated[str, Field(max_length=40)] | None = None
    options: Annotated[dict[Annotated[str, Field(max_length=40)], Any], Field(max_length=60)] = {}
    """Setting overrides; the engine checks each (a trial deal), the JSON reader refuses
    non-finite numbers."""
    seats: Annotated[list[SeatSpec], Field(min_length=3, max_length=5)]
    creator_seat: Annotated[int, Field(ge=0, le=4)] | None = 0
    series_length: Annotated[int, Field(ge=1, le=200)] = 24
    """Ordinary deals in the list."""
    closing_rounds: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=10)] = []
    """Closing rounds (Schlussrunden) after the ordinary deals, in order: each a deal type the
    game deals on purpose (Cego: ``drescher``, ``pflichtraeuber``), dealt once by every seat."""
    first_dealer: Annotated[int, Field(ge=0, le=4)] | None = None
    """The seat that deals first; ``None``: drawn by lot, as at a real table."""
    time_limit: Annotated[int, Field(ge=1, le=3600)] = 60
    public: bool = True


class ClosingRounds(_Body):
    closing_rounds: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=10)]
    """The closing rounds from now on: those begun stay first, the rest may change."""


class AnalysisRequest(_Body):
    seat: Annotated[int, Field(ge=0, le=4)] | None = None
    """The seat to analyse; a person seated at the table may only ask for their own."""


class JoinSeat(_Body):
    seat: Annotated[int, Field(ge=0, le=4)] | None = None
    invite: Annotated[str, Field(max_length=64)] | None = None


class NewBot(_Body):
    name: Annotated[str, Field(max_length=64)]


# -- a director's change to a tournament ------------------------------------------------------

MAX_ROUND = 20
MAX_TABLE = 100
MAX_PLAYER = 100_000


def whole_number(raw: object, what: str, lo: int, hi: int) -> int:
    """``raw`` (a JSON value) as a whole number in range, else ``ValueError`` with the line
    the API answers (a JSON ``true`` is no number here)."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
        raise ValueError(f"'{what}' must be a whole number from {lo} to {hi}")
    return raw


def _refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError("stichwerk", message)


def _whole(what: str, lo: int, hi: int) -> AfterValidator:
    def check(raw: Any) -> int:
        try:
            return whole_number(raw, what, lo, hi)
        except ValueError as exc:
            raise _refuse(str(exc)) from None

    return AfterValidator(check)


def _text(raw: Any) -> str:
    if not isinstance(raw, str):
        raise _refuse("'text' must be the pasted list")
    return raw


def _explain(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise _refuse("'explain' is true or false")
    return raw


def _mode(raw: Any) -> str:
    if not isinstance(raw, str):
        raise _refuse("'mode' is 'sheet' or 'quick'")
    return raw


Player = Annotated[Any, _whole("player", 0, MAX_PLAYER), Field(None, validate_default=True)]
Round = Annotated[Any, _whole("round", 1, MAX_ROUND), Field(None, validate_default=True)]
Table = Annotated[Any, _whole("table", 1, MAX_TABLE), Field(None, validate_default=True)]


class _Change(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AddPlayers(_Change):
    """Players by name (``names``), or a pasted list (``text``, one a line), which wins."""

    op: Literal["add_players"]
    names: Any = None
    text: Annotated[str | None, AfterValidator(_text)] = None
    """Checked only when sent (a ``null`` is no list either)."""


class PlayerChange(_Change):
    """A player taken off the list (before the first draw), withdrawn, or back in."""

    op: Literal["remove_player", "withdraw", "reinstate"]
    player: Player


class RenamePlayer(_Change):
    op: Literal["rename_player"]
    player: Player
    name: Any = None


class Edit(_Change):
    """The tournament's own fields; only the keys sent change (``secret``: the series')."""

    op: Literal["edit"]
    name: Any = None
    date: Any = None
    place: Any = None
    series: Any = None
    secret: Any = None

    def fields(self) -> dict[str, Any]:
        """The fields sent, ``op`` and ``secret`` aside."""
        sent = self.model_dump(exclude_unset=True)
        return {k: v for k, v in sent.items() if k not in ("op", "secret")}


class Draw(_Change):
    op: Literal["draw"]


class Undraw(_Change):
    op: Literal["undraw"]


class Enter(_Change):
    """A table's typed totals; ``explain``: their problems as a list beside the line."""

    op: Literal["enter"]
    round: Round
    table: Table
    results: Any = None
    explain: Annotated[Any, AfterValidator(_explain)] = False


class Mode(_Change):
    op: Literal["mode"]
    round: Round
    table: Table
    mode: Annotated[Any, AfterValidator(_mode), Field(None, validate_default=True)]


class Online(_Change):
    """The table plays at a private web table; ``bots``: the seats bots take (the hub checks
    them against the table's size)."""

    op: Literal["online"]
    round: Round
    table: Table
    bots: Any = []


class Finish(_Change):
    op: Literal["finish"]


TournamentChange = (
    AddPlayers | PlayerChange | RenamePlayer | Edit | Draw | Undraw | Enter | Mode | Online | Finish
)
_CHANGE: TypeAdapter[TournamentChange] = TypeAdapter(
    Annotated[TournamentChange, Field(discriminator="op")]
)
OPS = (
    "add_players",
    "remove_player",
    "rename_player",
    "withdraw",
    "reinstate",
    "edit",
    "draw",
    "undraw",
    "enter",
    "mode",
    "online",
    "finish",
)


class BadChange(ValueError):
    """A change that is no change the API knows (one line)."""


def parse_change(body: dict[str, Any]) -> TournamentChange:
    """A director's change, or :class:`BadChange` with one line.

    >>> parse_change({"op": "draw"})
    Draw(op='draw')
    >>> parse_change({"op": "jump"})
    Traceback (most recent call last):
    ...
    stichwerk.server.schemas.BadChange: unknown op 'jump' (known: add_players, remove_player, \
rename_player, withdraw, reinstate, edit, draw, undraw, enter, mode, online, finish)
    >>> parse_change({"op": "enter", "round": 1, "table": True})
    Traceback (most recent call last):
    ...
    stichwerk.server.schemas.BadChange: 'table' must be a whole number from 1 to 100
    """
    op = body.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise BadChange(one_line(f"unknown op {op!r} (known: {', '.join(OPS)})"))
    try:
        return _CHANGE.validate_python(body)
    except ValidationError as exc:
        errors = exc.errors()
        extra = sorted(str(e["loc"][-1]) for e in errors if e["type"] == "extra_forbidden")
        if extra:
            raise BadChange(one_line(f"unknown key {extra[0]!r} for {op!r}")) from None
        first = errors[0]
        if first["type"] == "stichwerk":
            raise BadChange(first["msg"]) from None
        where = ".".join(str(p) for p in first["loc"][1:]) or "body"
        raise BadChange(one_line(f"{where}: {first['msg']}")) from None
